//! A printed page with a Sudoku, as newspapers, books and puzzle magazines print it: the grid
//! in one of many line styles (uniform thin lines, thick box lines, a heavy or rounded border,
//! faint grey inner lines, shaded or halftone boxes, a tinted ground), its title, number,
//! difficulty and instructions, a small printed solution grid, neighbouring text columns
//! with column rules, a crossword or a boxed feature, on newsprint, book or magazine paper
//! with fibre texture and the back page showing through.
//!
//! Owns the page's layout and drawing (through `draw::Canvas`) and where its grid's outer
//! corners are (the centre line of the border, where its straight sides meet). The camera is
//! `print::photo`'s business. Pure function of the random generator and the fonts.

use ab_glyph::FontVec;
use image::RgbImage;

use crate::synthetic::clip::paper::{Faces, column_text, crossword, faces, sentence, wrap};
use crate::synthetic::draw::{Canvas, Colour, Rect, mix};
use crate::synthetic::optics::gaussian_blur;
use crate::synthetic::puzzle::random_solution;
use crate::synthetic::{FontBank, Rng};
use crate::vision::Point;

/// A rendered page and its Sudoku.
pub(super) struct PrintedPage {
    /// The page.
    pub image: RgbImage,
    /// The grid's outer corners (TL, TR, BR, BL), page pixels.
    pub grid: [Point; 4],
    /// The printed digits (0 empty), row-major.
    pub labels: [u8; 81],
}

/// How the paper and its print look.
#[derive(Copy, Clone, Debug)]
struct Stock {
    paper: Colour,
    ink: Colour,
    /// Fibre texture strength (share of the paper's brightness).
    fibre: f32,
    /// How strongly the back page shows through (0 none).
    show_through: f32,
    /// A spot colour for tints and titles (magazines), else the ink.
    accent: Colour,
}

fn stock(rng: &mut Rng) -> Stock {
    match rng.below(3) {
        // Newsprint: grey-yellow, soft black ink, fibres, the back page showing through.
        0 => {
            let paper = mix([214, 210, 194], [236, 232, 220], rng.unit());
            Stock {
                paper,
                ink: mix([28, 28, 30], [70, 68, 66], rng.unit()),
                fibre: rng.range(0.015, 0.05),
                show_through: if rng.chance(0.7) {
                    rng.range(0.04, 0.14)
                } else {
                    0.0
                },
                accent: mix([28, 28, 30], [70, 68, 66], rng.unit()),
            }
        }
        // Book: white or cream, black ink.
        1 => Stock {
            paper: mix([238, 232, 214], [250, 250, 247], rng.unit()),
            ink: mix([10, 10, 12], [40, 40, 44], rng.unit()),
            fibre: rng.range(0.005, 0.02),
            show_through: if rng.chance(0.4) {
                rng.range(0.02, 0.07)
            } else {
                0.0
            },
            accent: [20, 20, 22],
        },
        // Puzzle magazine: bright paper, a spot colour.
        _ => {
            let hue = rng.range(0.0, 360.0);
            Stock {
                paper: mix([244, 244, 240], [252, 252, 252], rng.unit()),
                ink: mix([8, 8, 10], [36, 36, 48], rng.unit()),
                fibre: rng.range(0.0, 0.012),
                show_through: 0.0,
                accent: crate::synthetic::draw::hsv(hue, rng.range(0.4, 0.9), rng.range(0.4, 0.8)),
            }
        }
    }
}

/// How the grid is drawn, in page pixels.
#[derive(Copy, Clone, Debug)]
struct GridStyle {
    cell: f32,
    thin: f32,
    box_line: f32,
    border: f32,
    radius: f32,
    ink: Colour,
    thin_ink: Colour,
    /// The whole grid's ground, when tinted.
    tint: Option<Colour>,
    /// Alternate boxes shaded with this colour; halftone dots when the flag is set.
    shade: Option<(Colour, bool)>,
    /// Digit ink height, cells.
    digit_height: f32,
}

fn grid_style(rng: &mut Rng, cell: f32, stock: &Stock) -> GridStyle {
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
fn digit_face<'a>(rng: &mut Rng, fonts: &'a FontBank) -> Option<&'a FontVec> {
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
fn draw_grid(
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

/// 22–36 givens of a random solution, placed symmetrically under a half turn, then more
/// symmetric pairs until the puzzle has exactly one solution, as a published puzzle does
/// (sometimes the whole solution: a printed answer grid).
fn printed_digits(rng: &mut Rng) -> [u8; 81] {
    let solution = random_solution(rng);
    if rng.chance(0.06) {
        return solution;
    }
    let givens = rng.between(22, 36);
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    let mut out = [0u8; 81];
    let mut count = 0;
    for &i in &order {
        if count >= givens {
            break;
        }
        if out[i] == 0 {
            out[i] = solution[i];
            out[80 - i] = solution[80 - i];
            count += if i == 40 { 1 } else { 2 };
        }
    }
    make_unique(&mut out, &solution, &order);
    out
}

/// Adds `solution`'s digits to `givens` in symmetric pairs, in `order`, at cells that another
/// solution fills differently, until `givens` has exactly one solution. No randomness is
/// drawn, so the rest of a seeded page stays the same.
fn make_unique(givens: &mut [u8; 81], solution: &[u8; 81], order: &[usize]) {
    use crate::sudoku::solver::{count_values, solve_candidates};
    for &i in order {
        if count_values(givens, 2) == 1 {
            return;
        }
        if givens[i] != 0 {
            continue;
        }
        // Could cell i hold another digit in some solution?
        let mut masks = [0x1FFu16; 81];
        for (m, &g) in masks.iter_mut().zip(givens.iter()) {
            if g != 0 {
                *m = 1 << (g - 1);
            }
        }
        masks[i] &= !(1 << (solution[i] - 1));
        if solve_candidates(&masks, 1).count > 0 {
            givens[i] = solution[i];
            givens[80 - i] = solution[80 - i];
        }
    }
}

#[cfg(test)]
mod unique_tests {
    use super::*;

    #[test]
    fn printed_puzzles_have_exactly_one_solution() {
        let mut rng = Rng::new(7);
        for _ in 0..40 {
            let givens = printed_digits(&mut rng);
            let n = givens.iter().filter(|&&v| v != 0).count();
            assert_eq!(
                crate::sudoku::solver::count_values(&givens, 2),
                1,
                "{n} givens"
            );
            assert!((17..=81).contains(&n));
            // Still symmetric under a half turn.
            assert!((0..81).all(|i| (givens[i] == 0) == (givens[80 - i] == 0)));
        }
    }
}

/// What the page shows below the grid.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Below {
    Solution,
    Instructions,
    Text,
}

/// Renders a page whose grid cells are `cell` px; `None` when no font has Latin letters.
pub(super) fn render_printed_page(
    rng: &mut Rng,
    fonts: &FontBank,
    cell: f32,
) -> Option<PrintedPage> {
    let faces = faces(rng, fonts)?;
    let digit_font = digit_face(rng, fonts)?;
    let stock = stock(rng);
    let style = grid_style(rng, cell, &stock);
    let side = 9.0 * cell;
    let text_size = cell * rng.range(0.26, 0.42);
    let margin = side * rng.range(0.06, 0.2);
    let gutter = cell * rng.range(0.35, 0.8);
    let col_w = side * rng.range(0.4, 0.7);
    let (left_cols, right_cols) = (rng.below(3), rng.below(3));
    let title_size = cell * rng.range(0.45, 0.9);
    let instructions = rng.chance(0.6);
    let number = rng.between(100, 9999);

    // The column above the grid: title, maybe difficulty and instructions.
    let title = match rng.below(6) {
        0 => "SUDOKU".to_string(),
        1 => format!("Sudoku No. {number}"),
        2 => "Daily Sudoku".to_string(),
        3 => format!("SUDOKU {number}"),
        4 => "Su Doku".to_string(),
        _ => sentence(rng, (1, 3), true),
    };
    let rules = "Fill in the grid so that every row, every column and every 3x3 box contains \
                 the digits 1 to 9.";
    let rule_lines = if instructions {
        wrap(faces.body, rules, text_size, side)
    } else {
        Vec::new()
    };
    let above = title_size * 1.4
        + text_size * 1.5
        + rule_lines.len() as f32 * text_size * 1.3
        + cell * rng.range(0.15, 0.5);
    let below_kind = match rng.below(3) {
        0 => Below::Solution,
        1 => Below::Instructions,
        _ => Below::Text,
    };
    let below = side * rng.range(0.25, 0.7);
    let w = 2.0 * margin + side + (left_cols + right_cols) as f32 * (col_w + gutter);
    let h = 2.0 * margin + above + side + below;
    let mut canvas = Canvas::new(w.ceil() as u32, h.ceil() as u32, stock.paper);

    let gx = margin + left_cols as f32 * (col_w + gutter);
    let mut y = margin + title_size;
    let title_ink = if rng.chance(0.5) {
        stock.accent
    } else {
        stock.ink
    };
    canvas.text(faces.bold, &title, title_size, gx, y, title_ink);
    y += text_size * 1.5;
    let level = [
        "Easy",
        "Medium",
        "Hard",
        "Difficult",
        "Fiendish",
        "Gentle",
        "Tough",
    ];
    let difficulty = format!(
        "{} {}",
        if rng.chance(0.5) {
            "Difficulty:"
        } else {
            "Level"
        },
        level[rng.below(level.len())]
    );
    canvas.text(faces.body, &difficulty, text_size, gx, y, stock.ink);
    for line in &rule_lines {
        y += text_size * 1.3;
        canvas.text(faces.body, line, text_size, gx, y, stock.ink);
    }
    let gy = margin + above;
    let labels = printed_digits(rng);
    draw_grid(
        &mut canvas,
        rng,
        &style,
        Point::new(gx, gy),
        &labels,
        digit_font,
        stock.paper,
    );

    // Below the grid.
    let below_top = gy + side + style.border + cell * 0.4;
    let bottom = h - margin;
    match below_kind {
        Below::Solution => {
            let small = (side * rng.range(0.28, 0.45)).min(bottom - below_top - text_size * 1.6);
            if small > side * 0.2 {
                let x = gx + if rng.chance(0.5) { 0.0 } else { side - small };
                let caption = format!("Solution No. {}", number.saturating_sub(1));
                canvas.text(
                    faces.body,
                    &caption,
                    text_size,
                    x,
                    below_top + text_size,
                    stock.ink,
                );
                let mut solution_style = style;
                solution_style.cell = small / 9.0;
                solution_style.thin = (style.thin * small / side).max(0.6);
                solution_style.box_line = (style.box_line * small / side).max(0.9);
                solution_style.border = (style.border * small / side).max(1.0);
                solution_style.radius *= small / side;
                solution_style.shade = None;
                let solution = random_solution(rng);
                draw_grid(
                    &mut canvas,
                    rng,
                    &solution_style,
                    Point::new(x, below_top + text_size * 1.6),
                    &solution,
                    digit_font,
                    stock.paper,
                );
            }
        }
        Below::Instructions => {
            let mut yy = below_top + text_size;
            for line in wrap(faces.body, rules, text_size, side) {
                if yy > bottom {
                    break;
                }
                canvas.text(faces.body, &line, text_size, gx, yy, stock.ink);
                yy += text_size * 1.3;
            }
        }
        Below::Text => column_text(
            &mut canvas,
            rng,
            &faces,
            (gx, side),
            (below_top, bottom),
            text_size,
            stock.ink,
        ),
    }

    // Neighbouring columns: text, sometimes a crossword, sometimes rules between them.
    let rules_between = rng.chance(0.35);
    let columns: Vec<f32> = (0..left_cols)
        .map(|k| margin + k as f32 * (col_w + gutter))
        .chain((0..right_cols).map(|k| gx + side + gutter + k as f32 * (col_w + gutter)))
        .collect();
    let crossword_in = rng.chance(0.3).then(|| rng.below(columns.len().max(1)));
    for (k, &x) in columns.iter().enumerate() {
        let mut ranges = vec![(margin, bottom)];
        if crossword_in == Some(k) {
            let r = Rect::xywh(
                x,
                rng.range(margin, (bottom - col_w).max(margin)),
                col_w,
                col_w,
            );
            crossword(&mut canvas, rng, &faces, r, stock.ink);
            ranges = vec![(margin, r.y0 - text_size), (r.y1 + text_size, bottom)];
        }
        for (y0, y1) in ranges {
            column_text(
                &mut canvas,
                rng,
                &faces,
                (x, col_w),
                (y0, y1),
                text_size,
                stock.ink,
            );
        }
        if rules_between {
            let rx = if x < gx {
                x + col_w + gutter / 2.0
            } else {
                x - gutter / 2.0
            };
            canvas.line(
                Point::new(rx, margin),
                Point::new(rx, bottom),
                style.thin.max(1.0),
                stock.ink,
            );
        }
    }
    // A frame around the puzzle's column (a boxed feature).
    if rng.chance(0.2) {
        let pad = gutter * 0.4;
        canvas.stroke_rounded_rect(
            Rect {
                x0: gx - pad,
                y0: margin - pad,
                x1: gx + side + pad,
                y1: bottom + pad * 0.5,
            },
            0.0,
            style.border.max(1.0),
            stock.ink,
        );
    }

    let mut image = canvas.image;
    if stock.show_through > 0.0 {
        show_through(&mut image, rng, &faces, text_size, stock.show_through);
    }
    if stock.fibre > 0.0 {
        fibre(&mut image, rng, stock.fibre);
    }
    let grid = [
        Point::new(gx, gy),
        Point::new(gx + side, gy),
        Point::new(gx + side, gy + side),
        Point::new(gx, gy + side),
    ];
    Some(PrintedPage {
        image,
        grid,
        labels,
    })
}

/// The print of the back page seen through the paper: text columns, mirrored, blurred and
/// darkening the page by up to `strength`.
fn show_through(image: &mut RgbImage, rng: &mut Rng, faces: &Faces<'_>, size: f32, strength: f32) {
    let (w, h) = image.dimensions();
    let mut back = Canvas::new(w, h, [255, 255, 255]);
    let columns = rng.between(2, 4);
    let gutter = size * 2.0;
    let col_w = (w as f32 - gutter * (columns + 1) as f32) / columns as f32;
    for k in 0..columns {
        let x = gutter + k as f32 * (col_w + gutter);
        column_text(
            &mut back,
            rng,
            faces,
            (x, col_w),
            (gutter, h as f32 - gutter),
            size,
            [0, 0, 0],
        );
    }
    let (wu, hu) = (w as usize, h as usize);
    let mut buf: Vec<[f32; 1]> = back.image.pixels().map(|p| [p.0[0] as f32]).collect();
    gaussian_blur(&mut buf, wu, hu, rng.range(1.0, 2.5));
    for (i, px) in image.pixels_mut().enumerate() {
        // Mirrored: the back page's left is this page's right.
        let (x, y) = (i % wu, i / wu);
        let dark = 1.0 - buf[y * wu + (wu - 1 - x)][0] / 255.0;
        let keep = 1.0 - strength * dark;
        px.0 = px.0.map(|v| (v as f32 * keep).round() as u8);
    }
}

/// Paper fibres: fine multiplicative noise, a little smoothed, and broad blotches.
fn fibre(image: &mut RgbImage, rng: &mut Rng, strength: f32) {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let mut grain: Vec<[f32; 1]> = (0..w * h).map(|_| [rng.normal()]).collect();
    gaussian_blur(&mut grain, w, h, 0.7);
    let blotches: Vec<(f32, f32, f32, f32)> = (0..6)
        .map(|_| {
            (
                rng.range(0.0, w as f32),
                rng.range(0.0, h as f32),
                rng.range(0.1, 0.4) * w as f32,
                rng.range(-1.0, 1.0),
            )
        })
        .collect();
    for (i, px) in image.pixels_mut().enumerate() {
        let (x, y) = ((i % w) as f32, (i / w) as f32);
        let low: f32 = blotches
            .iter()
            .map(|&(bx, by, r, a)| a * (-((x - bx).powi(2) + (y - by).powi(2)) / (r * r)).exp())
            .sum();
        let m = 1.0 + strength * (1.6 * grain[i][0] + 0.8 * low);
        px.0 = px.0.map(|v| (v as f32 * m).round().clamp(0.0, 255.0) as u8);
    }
}
