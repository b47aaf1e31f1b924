//! The printed Sudoku grid (a child module of `page`): its line style (uniform thin lines,
//! thick box lines, a heavy or rounded border, faint grey inner lines, shaded or halftone
//! boxes, a tinted ground), the digits' face, and the drawing of a grid with its digits at a
//! given place. Where the grid goes on the page, and which digits, is for others to say.

use ab_glyph::FontVec;

use super::paper::Stock;
use crate::synthetic::draw::{Canvas, Colour, Rect, mix};
use crate::synthetic::{FontBank, Rng};
use crate::vision::Point;

/// How the grid is drawn, in page pixels.
#[derive(Copy, Clone, Debug)]
pub(super) struct GridStyle {
    pub(super) cell: f32,
    pub(super) thin: f32,
    pub(super) box_line: f32,
    pub(super) border: f32,
    pub(super) radius: f32,
    ink: Colour,
    thin_ink: Colour,
    /// The whole grid's ground, when tinted.
    tint: Option<Colour>,
    /// Alternate boxes shaded with this colour; halftone dots when the flag is set.
    pub(super) shade: Option<(Colour, bool)>,
    /// Digit ink height, cells.
    digit_height: f32,
}

pub(super) fn grid_style(rng: &mut Rng, cell: f32, stock: &Stock) -> GridStyle {
    let thin = (cell * rng.range(0.012, 0.05)).max(0.7);
    let box_line = if rng.chance(0.25) {
        thin
    } else {
        thin * rng.range(1.8, 4.0)
    };
    let border = if rng.chance(0.3) {
        box_line
    } else {
        box_line * rng.range(1.0, 1.8)
    };
    let radius = if rng.chance(0.15) {
        cell * rng.range(0.2, 0.9)
    } else {
        0.0
    };
    let thin_ink = if rng.chance(0.25) {
        mix(stock.ink, stock.paper, rng.range(0.3, 0.6))
    } else {
        stock.ink
    };
    let tinted = |rng: &mut Rng, depth: f32| {
        if rng.chance(0.5) {
            mix(stock.paper, stock.ink, depth)
        } else {
            mix(stock.paper, stock.accent, depth)
        }
    };
    let tint = if rng.chance(0.12) {
        let depth = rng.range(0.06, 0.18);
        Some(tinted(rng, depth))
    } else {
        None
    };
    let shade = if rng.chance(0.22) {
        let depth = rng.range(0.1, 0.3);
        Some((tinted(rng, depth), rng.chance(0.4)))
    } else {
        None
    };
    GridStyle {
        cell,
        thin,
        box_line,
        border,
        radius,
        ink: stock.ink,
        thin_ink,
        tint,
        shade,
        digit_height: rng.range(0.45, 0.7),
    }
}

/// A font for the grid's digits: upright faces mostly (print is rarely italic).
pub(super) fn digit_face<'a>(rng: &mut Rng, fonts: &'a FontBank) -> Option<&'a FontVec> {
    let all = fonts.fonts();
    let upright: Vec<_> = all.iter().filter(|f| !f.slanted).collect();
    let pick = if !upright.is_empty() && rng.chance(0.9) {
        upright[rng.below(upright.len())]
    } else {
        rng.choose(all)?
    };
    Some(pick.face())
}

/// Draws a 9×9 grid with its top-left corner (border centre line) at `origin`; `digits`
/// row-major, 0 empty.
pub(super) fn draw_grid(
    canvas: &mut Canvas,
    rng: &mut Rng,
    style: &GridStyle,
    origin: Point,
    digits: &[u8; 81],
    face: &FontVec,
    paper: Colour,
) {
    let c = style.cell;
    let side = 9.0 * c;
    let outer = Rect::xywh(origin.x, origin.y, side, side);
    if let Some(t) = style.tint {
        canvas.fill_rect(outer, t, 1.0);
    }
    if let Some((shade, halftone)) = style.shade {
        let pitch = rng.range(2.6, 4.5);
        for b in (0..9).filter(|b| b % 2 == 0) {
            let r = Rect::xywh(
                origin.x + (b % 3) as f32 * 3.0 * c,
                origin.y + (b / 3) as f32 * 3.0 * c,
                3.0 * c,
                3.0 * c,
            );
            if halftone {
                halftone_fill(canvas, r, shade, paper, pitch);
            } else {
                canvas.fill_rect(r, shade, 1.0);
            }
        }
    }
    if style.radius > 0.0 {
        canvas.fill_outside_rounded(outer, outer, style.radius, paper);
    }
    for k in 1..9 {
        let (w, ink) = if k % 3 == 0 {
            (style.box_line, style.ink)
        } else {
            (style.thin, style.thin_ink)
        };
        let t = k as f32 * c;
        canvas.fill_rect(
            Rect::xywh(origin.x + t - w / 2.0, origin.y, w, side),
            ink,
            1.0,
        );
        canvas.fill_rect(
            Rect::xywh(origin.x, origin.y + t - w / 2.0, side, w),
            ink,
            1.0,
        );
    }
    canvas.stroke_rounded_rect(outer, style.radius, style.border, style.ink);
    for (i, &d) in digits.iter().enumerate() {
        if d == 0 {
            continue;
        }
        let centre = Point::new(
            origin.x + ((i % 9) as f32 + 0.5) * c,
            origin.y + ((i / 9) as f32 + 0.5) * c + c * 0.02,
        );
        canvas.glyph_centred(
            face,
            char::from(b'0' + d),
            c * style.digit_height,
            centre,
            style.ink,
        );
    }
}

/// Fills `r` with a 45° halftone screen of dots (a darker tone of `shade`) whose coverage
/// averages to `shade` over `paper`.
fn halftone_fill(canvas: &mut Canvas, r: Rect, shade: Colour, paper: Colour, pitch: f32) {
    use crate::synthetic::draw::luma;
    let dot = mix(shade, [0, 0, 0], 0.45);
    let coverage =
        ((luma(paper) - luma(shade)) / (luma(paper) - luma(dot)).max(1.0)).clamp(0.03, 0.7);
    // Each dot owns a square of side pitch/√2.
    let radius = pitch * (coverage / (2.0 * std::f32::consts::PI)).sqrt();
    // A screen turned by 45°: dots at (i + j, j − i)·pitch/2.
    let half = pitch / 2.0;
    let n = ((r.w() + r.h()) / half).ceil() as i32 + 2;
    for i in -n..=n {
        for j in -n..=n {
            let p = Point::new(r.x0 + (i + j) as f32 * half, r.y0 + (j - i) as f32 * half);
            if p.x >= r.x0 && p.x <= r.x1 && p.y >= r.y0 && p.y <= r.y1 {
                canvas.fill_circle(p, radius, dot, 1.0);
            }
        }
    }
}
