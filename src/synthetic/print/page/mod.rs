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

//!
//! Laid out as: the page's layout here; `paper` the stock and its texture, `grid` the grid's
//! style and drawing, `digits` the puzzle printed in it.

mod digits;
mod grid;
mod paper;

use image::RgbImage;

use crate::synthetic::clip::paper::{column_text, crossword, faces, sentence, wrap};
use crate::synthetic::draw::{Canvas, Rect};
use crate::synthetic::puzzle::random_solution;
use crate::synthetic::{FontBank, Rng};
use crate::vision::Point;
use digits::printed_digits;
use grid::{digit_face, draw_grid, grid_style};
use paper::{fibre, show_through, stock};

/// A rendered page and its Sudoku.
pub(super) struct PrintedPage {
    /// The page.
    pub image: RgbImage,
    /// The grid's outer corners (TL, TR, BR, BL), page pixels.
    pub grid: [Point; 4],
    /// The printed digits (0 empty), row-major.
    pub labels: [u8; 81],
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
