//! The app around a synthetic Sudoku grid: phone status bar, header and info row, tool
//! buttons, the number pad (a 1–9 row or a 3×3 keypad that looks like a small grid) and the
//! desktop wallpaper and window.
//!
//! Owns drawing these from the areas `layout` chose; the grid itself is `screens`' business.

use ab_glyph::FontVec;

use super::draw::{Canvas, Rect, luma, mix, text_width};
use super::layout::{Device, NumberPad, ScreenSpec};
use crate::vision::Point;

/// Status bar, header, info row, tool buttons and number pad.
pub(super) fn draw_chrome(canvas: &mut Canvas, spec: &ScreenSpec, font: &FontVec) {
    let theme = &spec.theme;
    if let Some(sb) = spec.status_bar {
        let size = sb.h() * 0.5;
        canvas.text(
            font,
            "9:41",
            size,
            sb.x0 + sb.h() * 0.8,
            sb.y1 - sb.h() * 0.3,
            theme.ui_text,
        );
        // Signal bars and a battery.
        let right = sb.x1 - sb.h() * 0.8;
        let bh = sb.h() * 0.38;
        let battery = Rect::xywh(right - bh * 2.0, sb.centre().y - bh / 2.0, bh * 2.0, bh);
        canvas.stroke_rounded_rect(battery, bh * 0.25, (bh * 0.1).max(1.0), theme.ui_text);
        canvas.fill_rect(battery.inflate(-bh * 0.2), theme.ui_text, 1.0);
        for i in 0..4 {
            let bar_h = bh * (0.4 + 0.2 * i as f32);
            let x = battery.x0 - bh * (3.2 - 0.45 * i as f32);
            canvas.fill_rect(
                Rect::xywh(x, battery.y1 - bar_h, bh * 0.3, bar_h),
                theme.ui_text,
                1.0,
            );
        }
    }
    if let Some(hd) = spec.header {
        let c = hd.centre();
        let size = hd.h() * 0.45;
        canvas.text_centred(font, &spec.title, size, c, theme.ui_text);
        // Back chevron and a settings ring.
        let s = hd.h() * 0.18;
        let left = Point::new(hd.x0 + s * 2.0, c.y);
        let lw = (s * 0.3).max(1.5);
        canvas.line(left, Point::new(left.x + s, c.y - s), lw, theme.ui_text);
        canvas.line(left, Point::new(left.x + s, c.y + s), lw, theme.ui_text);
        let gear = Point::new(hd.x1 - s * 2.5, c.y);
        canvas.stroke_rounded_rect(
            Rect::xywh(gear.x - s, gear.y - s, 2.0 * s, 2.0 * s),
            s,
            lw,
            theme.ui_text,
        );
    }
    if let Some(info) = spec.info {
        let size = info.h() * 0.55;
        let base = info.y1 - info.h() * 0.25;
        canvas.text(font, &spec.difficulty, size, info.x0, base, theme.ui_muted);
        let mw = text_width(font, &spec.mistakes, size);
        canvas.text(
            font,
            &spec.mistakes,
            size,
            info.centre().x - mw / 2.0,
            base,
            theme.ui_muted,
        );
        let tw = text_width(font, &spec.timer, size);
        canvas.text(font, &spec.timer, size, info.x1 - tw, base, theme.ui_muted);
    }
    if let Some(tools) = spec.tools {
        draw_tools(canvas, spec, tools, font);
    }
    let (kind, pad) = spec.pad;
    match kind {
        NumberPad::Row => {
            let key_w = pad.w() / 9.0;
            let keyed = luma(theme.button) != luma(theme.page);
            for d in 0..9 {
                let key = Rect::xywh(pad.x0 + key_w * d as f32, pad.y0, key_w, pad.h())
                    .inflate(-key_w * 0.06);
                if keyed {
                    canvas.fill_rounded_rect(key, key_w * 0.2, theme.button, 1.0);
                }
                canvas.glyph_centred(
                    font,
                    char::from(b'1' + d as u8),
                    key.w().min(key.h()) * 0.55,
                    key.centre(),
                    theme.accent,
                );
            }
        }
        NumberPad::Keypad => {
            // A small grid: a frame, key fills and lines, digits 1–9.
            let k = pad.w() / 3.0;
            canvas.fill_rounded_rect(pad, k * 0.1, theme.button, 1.0);
            let lw = spec.style.thin_px.max(1.0);
            for i in 1..3 {
                let x = pad.x0 + k * i as f32;
                let y = pad.y0 + k * i as f32;
                canvas.fill_rect(
                    Rect {
                        x0: x - lw / 2.0,
                        x1: x + lw / 2.0,
                        ..pad
                    },
                    theme.line_thin,
                    1.0,
                );
                canvas.fill_rect(
                    Rect {
                        y0: y - lw / 2.0,
                        y1: y + lw / 2.0,
                        ..pad
                    },
                    theme.line_thin,
                    1.0,
                );
            }
            canvas.stroke_rounded_rect(pad, k * 0.1, lw * 1.5, theme.line_thick);
            for d in 0..9 {
                let centre = Point::new(
                    pad.x0 + k * (d % 3) as f32 + k / 2.0,
                    pad.y0 + k * (d / 3) as f32 + k / 2.0,
                );
                canvas.glyph_centred(
                    font,
                    char::from(b'1' + d as u8),
                    k * 0.45,
                    centre,
                    theme.accent,
                );
            }
        }
        NumberPad::None => {}
    }
}

/// Undo, Erase, Notes, Hint: icon circles with labels (phone) or labelled buttons (desktop).
fn draw_tools(canvas: &mut Canvas, spec: &ScreenSpec, tools: Rect, font: &FontVec) {
    let theme = &spec.theme;
    let names = ["Undo", "Erase", "Notes", "Hint"];
    let slot = tools.w() / 4.0;
    for (i, name) in names.iter().enumerate() {
        let r = Rect::xywh(tools.x0 + slot * i as f32, tools.y0, slot, tools.h());
        match spec.device {
            Device::Phone => {
                let radius = r.h() * 0.25;
                let centre = Point::new(r.centre().x, r.y0 + radius * 1.2);
                canvas.stroke_rounded_rect(
                    Rect::xywh(
                        centre.x - radius,
                        centre.y - radius,
                        2.0 * radius,
                        2.0 * radius,
                    ),
                    radius,
                    (radius * 0.12).max(1.5),
                    theme.accent,
                );
                canvas.fill_circle(centre, radius * 0.25, theme.accent, 1.0);
                canvas.text_centred(
                    font,
                    name,
                    r.h() * 0.25,
                    Point::new(r.centre().x, r.y1 - r.h() * 0.15),
                    theme.ui_muted,
                );
            }
            Device::Desktop => {
                let b = r.inflate(-slot * 0.06);
                canvas.fill_rounded_rect(b, b.h() * 0.2, theme.button, 1.0);
                canvas.text_centred(font, name, b.h() * 0.38, b.centre(), theme.accent);
            }
        }
    }
}

/// Wallpaper, window shadow, frame and title bar; the window body is the app's page colour.
pub(super) fn draw_desktop(
    canvas: &mut Canvas,
    spec: &ScreenSpec,
    win: Rect,
    title_h: f32,
    font: Option<&FontVec>,
) {
    let (w, h) = spec.render_size_px;
    let full = Rect::xywh(-0.5, -0.5, w as f32, h as f32);
    canvas.vertical_gradient(full, spec.wallpaper.0, spec.wallpaper.1);
    canvas.fill_rounded_rect(win.inflate(6.0), 14.0, [0, 0, 0], 0.25);
    canvas.fill_rounded_rect(win, 8.0, spec.theme.page, 1.0);
    let bar = Rect {
        y1: win.y0 + title_h,
        ..win
    };
    let bar_colour = mix(spec.theme.page, spec.wallpaper.0, 0.15);
    canvas.fill_rect(
        Rect {
            y0: win.y0 + 8.0,
            ..bar
        },
        bar_colour,
        1.0,
    );
    canvas.fill_rounded_rect(bar, 8.0, bar_colour, 1.0);
    let c = bar.centre();
    for (i, colour) in [[237, 106, 94], [245, 191, 79], [98, 197, 84]]
        .iter()
        .enumerate()
    {
        canvas.fill_circle(
            Point::new(win.x0 + 16.0 + 20.0 * i as f32, c.y),
            6.0,
            *colour,
            1.0,
        );
    }
    if let Some(font) = font {
        canvas.text_centred(font, &spec.title, title_h * 0.45, c, spec.theme.ui_text);
    }
}
