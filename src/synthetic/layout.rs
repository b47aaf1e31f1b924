//! What a synthetic Sudoku screenshot shows and where: [`ScreenSpec`] and its random draw.
//!
//! Owns every decision (device and size, theme, grid style and place, selection and
//! highlights, number pad, buttons, texts, fonts, file format) so that rendering
//! (`screens`) is a plain function of the spec. It draws nothing.

use super::Rng;
use super::draw::{Rect, luma, mix};
use super::fonts::FontBank;
use super::puzzle::Board;
use super::theme::{Theme, ThemeFamily};

/// A phone in portrait or a desktop window.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Device {
    /// Portrait phone screenshot: status bar, header, grid, tools, number pad.
    Phone,
    /// Desktop screenshot: wallpaper, a window with the grid and a side panel.
    Desktop,
}

/// How the grid is drawn. Widths are in render pixels.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GridStyle {
    /// Lines between cells.
    pub thin_px: f32,
    /// Lines between boxes (equal to `thin_px` for uniform grids).
    pub thick_px: f32,
    /// The outer border.
    pub outer_px: f32,
    /// Rounding of the outer border (0: square corners).
    pub outer_radius_px: f32,
    /// Gap between 3×3 boxes drawn as separate tiles (0: one lattice of lines).
    pub box_gap_px: f32,
    /// Rounding of box tiles or cell tiles.
    pub tile_radius_px: f32,
    /// Gap between cells drawn as separate tiles inside a box (0: thin lines).
    pub cell_gap_px: f32,
}

impl GridStyle {
    /// Whether boxes are separate tiles (no outer border line: the corners are the tiles'
    /// outer edges).
    pub fn tiled(&self) -> bool {
        self.box_gap_px > 0.0
    }
}

/// The keys offered for entering digits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NumberPad {
    /// No number pad.
    None,
    /// One row (or, on desktops, column) of keys 1–9.
    Row,
    /// A 3×3 keypad whose keys look like a small grid.
    Keypad,
}

/// The output file format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Lossless PNG.
    Png,
    /// JPEG at this quality (1–100).
    Jpeg(u8),
}

/// Everything a synthetic screenshot shows. Positions are in render pixels (the image is
/// rendered at `render_size_px` and then resized to `output_size_px`).
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenSpec {
    /// Phone or desktop.
    pub device: Device,
    /// Size the screen is drawn at.
    pub render_size_px: (u32, u32),
    /// Size of the written image (smaller for downscaled screenshots).
    pub output_size_px: (u32, u32),
    /// Colours.
    pub theme: Theme,
    /// The puzzle shown.
    pub board: Board,
    /// The grid: the centre lines of its outer border (tile outer edges when tiled).
    pub grid_in_render: Rect,
    /// Line weights, tiles and rounding.
    pub style: GridStyle,
    /// Index into the font bank of the face all digits are drawn with.
    pub digit_font: usize,
    /// Index of the face used for interface text.
    pub ui_font: usize,
    /// Height of a big digit's ink as a fraction of the cell side.
    pub digit_height: f32,
    /// Height of a pencil mark's ink as a fraction of the cell side.
    pub pencil_height: f32,
    /// The selected cell (row-major index), if any.
    pub selected: Option<usize>,
    /// Whether the selected cell's row, column and box are highlighted.
    pub highlight_houses: bool,
    /// Whether cells with the selected cell's digit are highlighted.
    pub highlight_same_digit: bool,
    /// Number pad kind and its area (empty rect for none).
    pub pad: (NumberPad, Rect),
    /// Tool buttons (Undo, Erase, Notes, Hint) area, if shown.
    pub tools: Option<Rect>,
    /// Phone status bar area, if shown.
    pub status_bar: Option<Rect>,
    /// Header area (title, back and settings icons), if shown.
    pub header: Option<Rect>,
    /// Info row area (difficulty, mistakes, timer), if shown.
    pub info: Option<Rect>,
    /// Desktop: the window and its title bar height.
    pub window: Option<(Rect, f32)>,
    /// Title text.
    pub title: String,
    /// Difficulty text.
    pub difficulty: String,
    /// Timer text (`mm:ss`).
    pub timer: String,
    /// Mistakes text.
    pub mistakes: String,
    /// Wallpaper gradient (desktop).
    pub wallpaper: ([u8; 3], [u8; 3]),
    /// File format.
    pub format: OutputFormat,
}

const PHONE_SIZES: [(u32, u32, f32); 6] = [
    // (render width, render height, output scale)
    (720, 1560, 1.0),
    (1080, 2340, 0.5),
    (1080, 2340, 0.667),
    (1170, 2532, 0.5),
    (750, 1334, 1.0),
    (720, 1280, 1.0),
];
const DESKTOP_SIZES: [(u32, u32); 4] = [(1280, 800), (1920, 1080), (1366, 768), (1440, 900)];
const TITLES: [&str; 6] = [
    "Sudoku",
    "Classic Sudoku",
    "Daily Challenge",
    "Sudoku Master",
    "Puzzle #128",
    "SUDOKU",
];
const DIFFICULTIES: [&str; 6] = ["Easy", "Medium", "Hard", "Expert", "Master", "Extreme"];

impl ScreenSpec {
    /// A random screen whose theme family is drawn uniformly.
    pub fn random(rng: &mut Rng, fonts: &FontBank) -> ScreenSpec {
        let family = *rng.choose(&ThemeFamily::ALL).unwrap_or(&ThemeFamily::Light);
        ScreenSpec::random_in_family(rng, fonts, family)
    }

    /// A random screen with a theme of `family`.
    pub fn random_in_family(rng: &mut Rng, fonts: &FontBank, family: ThemeFamily) -> ScreenSpec {
        let mut theme = Theme::random(family, rng);
        let board = Board::random(rng);
        let device = if rng.chance(0.6) {
            Device::Phone
        } else {
            Device::Desktop
        };
        let (render, scale) = match device {
            Device::Phone => {
                let (w, h, s) = *rng.choose(&PHONE_SIZES).unwrap_or(&PHONE_SIZES[0]);
                ((w, h), s)
            }
            Device::Desktop => (
                *rng.choose(&DESKTOP_SIZES).unwrap_or(&DESKTOP_SIZES[0]),
                1.0,
            ),
        };
        let output = (
            ((render.0 as f32 * scale).round() as u32).max(1),
            ((render.1 as f32 * scale).round() as u32).max(1),
        );
        let short = render.0.min(render.1) as f32;
        let side = rng.range(0.35, 0.9) * short;
        let style = random_style(rng, side / 9.0, render.0.max(render.1) as f32 / 1000.0);
        if style.tiled() {
            // Tiles only read as a grid when the page between them differs from the cells.
            let cell = luma(theme.box_fill[0]);
            if (luma(theme.page) - cell).abs() < 25.0 {
                theme.page = if cell > 128.0 {
                    mix(theme.page, [0, 0, 0], rng.range(0.1, 0.2))
                } else {
                    mix(theme.page, [255, 255, 255], rng.range(0.12, 0.25))
                };
            }
        }

        let pick_font = |rng: &mut Rng, allow_slanted: bool| -> usize {
            let all = fonts.fonts();
            let upright: Vec<usize> = (0..all.len())
                .filter(|&i| allow_slanted || !all[i].slanted)
                .collect();
            match rng.choose(&upright) {
                Some(&i) => i,
                None => rng.below(all.len()),
            }
        };
        let slanted_digits = rng.chance(0.12);
        let digit_font = pick_font(rng, slanted_digits);
        let ui_font = if rng.chance(0.5) {
            digit_font
        } else {
            pick_font(rng, false)
        };

        let selected = rng.chance(0.75).then(|| rng.below(81));
        let minutes = rng.below(60);
        let mut spec = ScreenSpec {
            device,
            render_size_px: render,
            output_size_px: output,
            theme,
            board,
            grid_in_render: Rect::xywh(0.0, 0.0, side, side),
            style,
            digit_font,
            ui_font,
            digit_height: rng.range(0.42, 0.66),
            pencil_height: rng.range(0.18, 0.27),
            selected,
            highlight_houses: rng.chance(0.65),
            highlight_same_digit: rng.chance(0.6),
            pad: (NumberPad::None, Rect::xywh(0.0, 0.0, 0.0, 0.0)),
            tools: None,
            status_bar: None,
            header: None,
            info: None,
            window: None,
            title: rng.choose(&TITLES).unwrap_or(&TITLES[0]).to_string(),
            difficulty: rng
                .choose(&DIFFICULTIES)
                .unwrap_or(&DIFFICULTIES[0])
                .to_string(),
            timer: format!("{minutes:02}:{:02}", rng.below(60)),
            mistakes: format!("Mistakes: {}/3", rng.below(3)),
            wallpaper: (
                super::draw::hsv(
                    rng.range(0.0, 360.0),
                    rng.range(0.2, 0.7),
                    rng.range(0.3, 0.9),
                ),
                super::draw::hsv(
                    rng.range(0.0, 360.0),
                    rng.range(0.2, 0.7),
                    rng.range(0.2, 0.8),
                ),
            ),
            format: if rng.chance(0.2) {
                OutputFormat::Jpeg(rng.between(85, 95) as u8)
            } else {
                OutputFormat::Png
            },
        };
        let pad_kind = match rng.below(10) {
            0..=1 => NumberPad::None,
            2..=6 => NumberPad::Row,
            _ => NumberPad::Keypad,
        };
        match device {
            Device::Phone => layout_phone(&mut spec, rng, pad_kind),
            Device::Desktop => layout_desktop(&mut spec, rng, pad_kind),
        }
        spec
    }

    /// The ten lattice positions along x (index 0) and y (index 1), in render pixels.
    pub fn lattice_in_render(&self) -> [[f32; 10]; 2] {
        let g = self.grid_in_render;
        [
            std::array::from_fn(|i| g.x0 + g.w() * i as f32 / 9.0),
            std::array::from_fn(|i| g.y0 + g.h() * i as f32 / 9.0),
        ]
    }
}

/// Line weights and tiling for cells of `cell_px`; `ui_scale` is about 1 per 1000 px of the
/// screen's long side (lines in apps are sized for the screen, not the grid).
fn random_style(rng: &mut Rng, cell_px: f32, ui_scale: f32) -> GridStyle {
    let unit = ui_scale.max(0.7) * rng.range(0.9, 2.2);
    let thin = unit.clamp(1.0, (cell_px * 0.08).max(1.0));
    let uniform = rng.chance(0.2);
    let thick = if uniform {
        thin
    } else {
        (thin * rng.range(1.8, 3.5)).min(cell_px * 0.15)
    };
    let outer = if rng.chance(0.5) {
        thick
    } else {
        (thick * rng.range(1.0, 1.8)).min(cell_px * 0.2)
    }
    .max(2.0);
    let tiled = rng.chance(0.2);
    let box_gap = if tiled {
        (cell_px * rng.range(0.06, 0.18)).max(2.0)
    } else {
        0.0
    };
    let cell_gap = if tiled && rng.chance(0.4) {
        (cell_px * rng.range(0.03, 0.08)).max(1.5)
    } else {
        0.0
    };
    GridStyle {
        thin_px: thin,
        thick_px: thick,
        outer_px: outer,
        outer_radius_px: if rng.chance(0.3) {
            cell_px * rng.range(0.1, 0.35)
        } else {
            0.0
        },
        box_gap_px: box_gap,
        tile_radius_px: cell_px * rng.range(0.0, 0.25),
        cell_gap_px: cell_gap,
    }
}

/// Phone portrait: status bar, header, info row, grid, tools, number pad, top to bottom.
fn layout_phone(spec: &mut ScreenSpec, rng: &mut Rng, pad_kind: NumberPad) {
    let (w, h) = (spec.render_size_px.0 as f32, spec.render_size_px.1 as f32);
    let side = spec.grid_in_render.w();
    let margin = w * rng.range(0.02, 0.05);
    let mut y = 0.0;
    if rng.chance(0.8) {
        let sb = h * rng.range(0.025, 0.035);
        spec.status_bar = Some(Rect::xywh(0.0, 0.0, w, sb));
        y += sb;
    }
    if rng.chance(0.85) {
        let hh = h * rng.range(0.04, 0.06);
        spec.header = Some(Rect::xywh(margin, y, w - 2.0 * margin, hh));
        y += hh;
    }
    y += h * rng.range(0.0, 0.04);
    if rng.chance(0.8) {
        let ih = h * rng.range(0.025, 0.035);
        spec.info = Some(Rect::xywh(margin, y, w - 2.0 * margin, ih));
        y += ih;
    }
    y += h * rng.range(0.005, 0.02) + spec.style.outer_px;
    let free_x = (w - side).max(0.0);
    let x = free_x / 2.0 + rng.range(-0.3, 0.3) * (free_x / 2.0).min(margin * 2.0);
    spec.grid_in_render = Rect::xywh(x, y, side, side);
    y += side + spec.style.outer_px + h * rng.range(0.015, 0.04);
    let remaining = |y: f32| h - y - h * 0.02;
    if rng.chance(0.8) && remaining(y) > h * 0.06 {
        let th = (h * rng.range(0.055, 0.075)).min(remaining(y));
        spec.tools = Some(Rect::xywh(margin, y, w - 2.0 * margin, th));
        y += th + h * rng.range(0.01, 0.03);
    }
    match pad_kind {
        NumberPad::Row => {
            let key_w = (w - 2.0 * margin) / 9.0;
            let kh = (key_w * rng.range(1.0, 1.6)).min(remaining(y));
            if kh > key_w * 0.6 {
                spec.pad = (NumberPad::Row, Rect::xywh(margin, y, w - 2.0 * margin, kh));
            }
        }
        NumberPad::Keypad => {
            let k = (w * rng.range(0.45, 0.8)).min(remaining(y));
            if k > w * 0.3 {
                let px = (w - k) / 2.0 + rng.range(-0.5, 0.5) * ((w - k) / 2.0 - margin).max(0.0);
                spec.pad = (NumberPad::Keypad, Rect::xywh(px, y, k, k));
            }
        }
        NumberPad::None => {}
    }
}

/// Desktop: wallpaper, a window with a title bar, the grid on the left and a side panel with
/// number pad and tool buttons on the right.
fn layout_desktop(spec: &mut ScreenSpec, rng: &mut Rng, pad_kind: NumberPad) {
    let (w, h) = (spec.render_size_px.0 as f32, spec.render_size_px.1 as f32);
    let title_h = rng.range(26.0, 38.0);
    let pad_px = rng.range(14.0, 40.0);
    let info_h = rng.range(26.0, 40.0);
    let with_info = rng.chance(0.7);
    // The grid must fit under the title bar (and info row) with some padding.
    let fixed_h = title_h + 2.0 * pad_px + if with_info { info_h } else { 0.0 };
    let side = spec.grid_in_render.w().min(h - fixed_h - 4.0).max(60.0);
    let panel_w = (side * rng.range(0.45, 0.75)).min(w - side - 3.0 * pad_px);
    let win_w = (side + panel_w + 3.0 * pad_px + rng.range(0.0, 200.0)).min(w);
    let win_h = (side + fixed_h + rng.range(0.0, 120.0)).min(h);
    let win_x = rng.range(0.0, (w - win_w).max(0.0));
    let win_y = rng.range(0.0, (h - win_h).max(0.0));
    spec.window = Some((Rect::xywh(win_x, win_y, win_w, win_h), title_h));
    let mut y = win_y + title_h + pad_px * rng.range(0.5, 1.0);
    if with_info {
        spec.info = Some(Rect::xywh(win_x + pad_px, y, side, info_h));
        y += info_h;
    }
    let content_h = win_y + win_h - y;
    let gy = y + ((content_h - side) / 2.0).max(spec.style.outer_px);
    let gx = win_x + pad_px;
    spec.grid_in_render = Rect::xywh(gx, gy, side, side);
    let panel_x = gx + side + pad_px;
    let panel_w = (win_x + win_w - pad_px - panel_x).max(0.0);
    if panel_w < 60.0 {
        return;
    }
    let tools_h = (side * 0.12).clamp(30.0, 70.0);
    spec.tools = Some(Rect::xywh(panel_x, gy, panel_w, tools_h));
    let py = gy + tools_h + pad_px;
    let avail_h = gy + side - py;
    match pad_kind {
        NumberPad::Keypad => {
            let k = panel_w.min(avail_h) * rng.range(0.6, 1.0);
            if k > 60.0 {
                spec.pad = (NumberPad::Keypad, Rect::xywh(panel_x, py, k, k));
            }
        }
        NumberPad::Row => {
            let kh = (panel_w / 9.0 * rng.range(1.0, 1.5)).min(avail_h);
            if kh > 14.0 {
                spec.pad = (NumberPad::Row, Rect::xywh(panel_x, py, panel_w, kh));
            }
        }
        NumberPad::None => {}
    }
}
