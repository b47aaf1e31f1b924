//! Printed pages without a Sudoku, for `nopuzzle` clips: a newspaper-like page with a
//! headline and justified text columns in system fonts, and often one hard negative set into
//! the columns — a 13×13 or 15×15 crossword with black squares and clue numbers, a table of
//! figures, or a bordered 8×8 or 10×10 grid with some digits in it.
//!
//! Owns the page layout and its drawing (through `draw::Canvas`). Returns the page with the
//! region the camera should frame the way it frames a grid (the hard negative, or a block of
//! text). Pure function of the random generator and the fonts.

use ab_glyph::{Font, FontVec};

use super::scene::Page;
use crate::synthetic::draw::{Canvas, Colour, Rect, mix, text_width};
use crate::synthetic::{FontBank, Rng};
use crate::vision::Point;

/// What sits in the columns besides text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HardNegative {
    /// Text only.
    None,
    /// A 13×13 or 15×15 crossword.
    Crossword,
    /// A table of figures.
    Table,
    /// A bordered 8×8 or 10×10 grid with some digits.
    Grid,
}

/// The fonts a page is set in.
pub(in crate::synthetic) struct Faces<'a> {
    pub body: &'a FontVec,
    pub bold: &'a FontVec,
}

/// Picks a body and a headline face among the fonts that have Latin letters.
pub(in crate::synthetic) fn faces<'a>(rng: &mut Rng, fonts: &'a FontBank) -> Option<Faces<'a>> {
    let usable: Vec<_> = fonts
        .fonts()
        .iter()
        .filter(|f| "aegkmsWR.,".chars().all(|c| f.face().glyph_id(c).0 != 0))
        .collect();
    let upright: Vec<_> = usable.iter().filter(|f| !f.slanted).copied().collect();
    let regular: Vec<_> = upright
        .iter()
        .filter(|f| !f.file_name().contains("Bold"))
        .copied()
        .collect();
    let body = *rng
        .choose(&regular)
        .or_else(|| rng.choose(&upright))
        .or_else(|| rng.choose(&usable))?;
    let bold: Vec<_> = upright
        .iter()
        .filter(|f| f.file_name().contains("Bold"))
        .copied()
        .collect();
    let bold = rng.choose(&bold).copied().unwrap_or(body);
    Some(Faces {
        body: body.face(),
        bold: bold.face(),
    })
}

/// Renders a page; `None` when no font has Latin letters.
pub fn render_page(rng: &mut Rng, fonts: &FontBank) -> Option<(Page, HardNegative)> {
    let faces = faces(rng, fonts)?;
    let (w, h) = (1200u32, rng.between(1400, 1700) as u32);
    let paper = mix([238, 235, 226], [250, 250, 247], rng.unit());
    let ink = mix([22, 22, 26], [60, 58, 56], rng.unit());
    let mut canvas = Canvas::new(w, h, paper);
    let margin = rng.range(40.0, 70.0);
    let (left, right) = (margin, w as f32 - margin);

    // Headline over the full width, wrapped.
    let head_size = rng.range(52.0, 84.0);
    let mut y = margin + head_size;
    let headline = sentence(rng, (3, 7), true);
    for line in wrap(faces.bold, &headline, head_size, right - left) {
        canvas.text(faces.bold, &line, head_size, left, y, ink);
        y += head_size * 1.1;
    }
    let byline = format!("By {} {}", word(rng, true), word(rng, true));
    canvas.text(faces.body, &byline, 18.0, left, y, mix(ink, paper, 0.3));
    y += 18.0;
    canvas.fill_rect(Rect::xywh(left, y, right - left, 2.0), ink, 1.0);
    let top = y + 30.0;
    let bottom = h as f32 - margin;

    let columns = rng.between(2, 4);
    let gutter = rng.range(18.0, 30.0);
    let col_w = (right - left - gutter * (columns - 1) as f32) / columns as f32;
    let kind = match rng.below(8) {
        0..=1 => HardNegative::None,
        2..=3 => HardNegative::Crossword,
        4..=5 => HardNegative::Grid,
        _ => HardNegative::Table,
    };
    // The block: spans some columns, at some height; text flows above and below it.
    let span = if columns == 2 {
        2
    } else {
        rng.between(2, columns)
    };
    let first_col = rng.below(columns - span + 1);
    let block_w = col_w * span as f32 + gutter * (span - 1) as f32;
    let block_x = left + first_col as f32 * (col_w + gutter);
    let (block, focus) = match kind {
        HardNegative::None => {
            let side = block_w.min(bottom - top) * 0.8;
            let y0 = rng.range(top, bottom - side);
            (None, Rect::xywh(block_x, y0, side.min(block_w), side))
        }
        _ => {
            let side = (block_w * rng.range(0.8, 1.0)).min((bottom - top) * 0.7);
            let height = if kind == HardNegative::Table {
                side * rng.range(0.7, 1.1)
            } else {
                side
            };
            let x0 = block_x + (block_w - side) / 2.0;
            let y0 = rng.range(top, bottom - height - 30.0);
            let r = Rect::xywh(x0, y0, side, height);
            (Some(r), r)
        }
    };
    let text_size = rng.range(15.0, 21.0);
    for c in 0..columns {
        let x = left + c as f32 * (col_w + gutter);
        let covered = (first_col..first_col + span).contains(&c);
        let mut ranges = vec![(top, bottom)];
        if let Some(b) = block.filter(|_| covered) {
            ranges = vec![(top, b.y0 - 16.0), (b.y1 + 40.0, bottom)];
        }
        for (y0, y1) in ranges {
            column_text(
                &mut canvas,
                rng,
                &faces,
                (x, col_w),
                (y0, y1),
                text_size,
                ink,
            );
        }
    }
    if let Some(b) = block {
        match kind {
            HardNegative::Crossword => crossword(&mut canvas, rng, &faces, b, ink),
            HardNegative::Table => table(&mut canvas, rng, &faces, b, ink, paper),
            HardNegative::Grid => digit_grid(&mut canvas, rng, &faces, b, ink),
            HardNegative::None => {}
        }
        let caption = sentence(rng, (3, 6), false);
        canvas.text(faces.bold, &caption, 16.0, b.x0, b.y1 + 24.0, ink);
    }
    let grid = [
        Point::new(focus.x0, focus.y0),
        Point::new(focus.x1, focus.y0),
        Point::new(focus.x1, focus.y1),
        Point::new(focus.x0, focus.y1),
    ];
    Some((
        Page {
            image: canvas.image,
            grid,
            margins: [10.0; 4],
        },
        kind,
    ))
}

const SYLLABLES: [&str; 36] = [
    "ka", "ter", "mon", "di", "sa", "lo", "ven", "ri", "sto", "ne", "al", "pe", "gra", "tu", "mi",
    "ber", "co", "an", "el", "ur", "fi", "ga", "hol", "ing", "ment", "ra", "son", "de", "li", "ta",
    "por", "vi", "est", "na", "ca", "re",
];
const SHORT: [&str; 12] = [
    "the", "and", "of", "to", "in", "a", "is", "for", "on", "with", "as", "at",
];

/// A made-up word (sometimes a short real one or a number).
fn word(rng: &mut Rng, capital: bool) -> String {
    let mut w = if !capital && rng.chance(0.3) {
        SHORT[rng.below(SHORT.len())].to_string()
    } else if rng.chance(0.04) {
        rng.between(2, 2024).to_string()
    } else {
        (0..rng.between(1, 4))
            .map(|_| SYLLABLES[rng.below(SYLLABLES.len())])
            .collect()
    };
    if capital && let Some(first) = w.get(..1) {
        w = first.to_uppercase() + &w[1..];
    }
    w
}

/// `lo..=hi` words, the first capitalized (all, for a headline).
pub(in crate::synthetic) fn sentence(
    rng: &mut Rng,
    (lo, hi): (usize, usize),
    title: bool,
) -> String {
    let n = rng.between(lo, hi);
    (0..n)
        .map(|i| word(rng, i == 0 || title))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` broken into lines no wider than `width`.
pub(in crate::synthetic) fn wrap(font: &FontVec, text: &str, size: f32, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for w in text.split(' ') {
        let candidate = if line.is_empty() {
            w.to_string()
        } else {
            format!("{line} {w}")
        };
        if !line.is_empty() && text_width(font, &candidate, size) > width {
            lines.push(std::mem::replace(&mut line, w.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` cut short (whole characters) to be no wider than `width`.
fn fit(font: &FontVec, text: &str, size: f32, width: f32) -> String {
    let mut out = text.to_string();
    while out.chars().count() > 1 && text_width(font, &out, size) > width {
        out.pop();
    }
    out
}

/// Fills a column `(x, width)` between `y0` and `y1` with justified paragraphs and the odd
/// bold subhead.
pub(in crate::synthetic) fn column_text(
    canvas: &mut Canvas,
    rng: &mut Rng,
    faces: &Faces<'_>,
    (x, width): (f32, f32),
    (y0, y1): (f32, f32),
    size: f32,
    ink: Colour,
) {
    let lead = size * 1.3;
    let mut y = y0 + size;
    let mut start_of_paragraph = true;
    while y <= y1 {
        if start_of_paragraph && rng.chance(0.12) {
            // Cut to the column: a page never prints over its neighbour (the grid).
            let head = fit(faces.bold, &sentence(rng, (2, 4), true), size * 1.15, width);
            canvas.text(faces.bold, &head, size * 1.15, x, y, ink);
            y += lead * 1.2;
            continue;
        }
        let indent = if start_of_paragraph { size * 1.2 } else { 0.0 };
        let mut words = Vec::new();
        let mut used = indent;
        let space = text_width(faces.body, " ", size);
        loop {
            let mut w = word(rng, start_of_paragraph && words.is_empty());
            if rng.chance(0.08) {
                w.push(if rng.chance(0.7) { ',' } else { '.' });
            }
            if words.is_empty() {
                // A line's first word is taken whatever its width: cut it to the column.
                w = fit(faces.body, &w, size, width - indent);
            }
            let ww = text_width(faces.body, &w, size);
            if !words.is_empty() && used + space + ww > width {
                break;
            }
            used += ww + if words.is_empty() { 0.0 } else { space };
            words.push((w, ww));
            if used > width * 0.98 {
                break;
            }
        }
        let end_of_paragraph = rng.chance(0.12);
        let gaps = words.len().saturating_sub(1).max(1) as f32;
        let spread = if end_of_paragraph {
            space
        } else {
            space + (width - used) / gaps
        };
        let mut pen = x + indent;
        for (w, ww) in &words {
            canvas.text(faces.body, w, size, pen, y, ink);
            pen += ww + spread;
        }
        start_of_paragraph = end_of_paragraph;
        y += lead;
    }
}

/// A crossword: rotationally symmetric black squares, clue numbers, thin lines, a border.
pub(in crate::synthetic) fn crossword(
    canvas: &mut Canvas,
    rng: &mut Rng,
    faces: &Faces<'_>,
    r: Rect,
    ink: Colour,
) {
    let n = if rng.chance(0.5) { 13 } else { 15 };
    let cell = r.w() / n as f32;
    let density = rng.range(0.12, 0.2);
    let mut black = vec![false; n * n];
    for i in 0..n * n / 2 + 1 {
        if rng.chance(density) {
            black[i] = true;
            black[n * n - 1 - i] = true;
        }
    }
    let mut number = 1;
    for row in 0..n {
        for col in 0..n {
            let i = row * n + col;
            let cx = r.x0 + col as f32 * cell;
            let cy = r.y0 + row as f32 * cell;
            if black[i] {
                canvas.fill_rect(Rect::xywh(cx, cy, cell, cell), ink, 1.0);
                continue;
            }
            let open = |rr: usize, cc: usize| rr < n && cc < n && !black[rr * n + cc];
            let across = (col == 0 || black[i - 1]) && open(row, col + 1);
            let down = (row == 0 || black[i - n]) && open(row + 1, col);
            if across || down {
                let label = number.to_string();
                canvas.text(
                    faces.body,
                    &label,
                    cell * 0.32,
                    cx + cell * 0.08,
                    cy + cell * 0.32,
                    ink,
                );
                number += 1;
            }
        }
    }
    let thin = (cell * 0.04).max(1.0);
    for k in 1..n {
        let t = k as f32 * cell;
        canvas.line(
            Point::new(r.x0 + t, r.y0),
            Point::new(r.x0 + t, r.y1),
            thin,
            ink,
        );
        canvas.line(
            Point::new(r.x0, r.y0 + t),
            Point::new(r.x1, r.y0 + t),
            thin,
            ink,
        );
    }
    border(canvas, r, thin * 2.5, ink);
}

/// A table of figures: a shaded header row, a name column, rules between rows.
fn table(
    canvas: &mut Canvas,
    rng: &mut Rng,
    faces: &Faces<'_>,
    r: Rect,
    ink: Colour,
    paper: Colour,
) {
    let rows = rng.between(8, 16);
    let cols = rng.between(4, 7);
    let row_h = r.h() / rows as f32;
    let size = (row_h * 0.55).min(24.0);
    let first_w = r.w() * rng.range(0.3, 0.4);
    let col_w = (r.w() - first_w) / (cols - 1) as f32;
    canvas.fill_rect(
        Rect::xywh(r.x0, r.y0, r.w(), row_h),
        mix(paper, ink, 0.25),
        1.0,
    );
    let verticals = rng.chance(0.5);
    for row in 0..rows {
        let base = r.y0 + row as f32 * row_h + row_h * 0.7;
        for col in 0..cols {
            let x = if col == 0 {
                r.x0 + 6.0
            } else {
                r.x0 + first_w + (col - 1) as f32 * col_w + 6.0
            };
            let text = match (row, col) {
                (0, _) => word(rng, true),
                (_, 0) => sentence(rng, (1, 2), true),
                _ if rng.chance(0.5) => format!("{}.{:02}", rng.below(100), rng.below(100)),
                _ => rng.between(0, 999).to_string(),
            };
            let face = if row == 0 { faces.bold } else { faces.body };
            let room = if col == 0 { first_w } else { col_w } - 12.0;
            canvas.text(face, &fit(face, &text, size, room), size, x, base, ink);
        }
        if row > 0 {
            let y = r.y0 + row as f32 * row_h;
            canvas.line(Point::new(r.x0, y), Point::new(r.x1, y), 1.0, ink);
        }
    }
    if verticals {
        for col in 1..cols {
            let x = r.x0 + first_w + (col - 1) as f32 * col_w;
            canvas.line(Point::new(x, r.y0), Point::new(x, r.y1), 1.0, ink);
        }
    }
    if rng.chance(0.6) {
        border(canvas, r, 2.0, ink);
    } else {
        canvas.line(Point::new(r.x0, r.y1), Point::new(r.x1, r.y1), 2.5, ink);
    }
}

/// A bordered 8×8 or 10×10 grid with digits in some cells (nearly a Sudoku, but not one).
fn digit_grid(canvas: &mut Canvas, rng: &mut Rng, faces: &Faces<'_>, r: Rect, ink: Colour) {
    let n = if rng.chance(0.5) { 8 } else { 10 };
    let cell = r.w() / n as f32;
    let thin = (cell * rng.range(0.02, 0.05)).max(1.0);
    for k in 1..n {
        let t = k as f32 * cell;
        let width = if n == 8 && k % 4 == 0 && rng.chance(0.5) {
            thin * 2.5
        } else {
            thin
        };
        canvas.line(
            Point::new(r.x0 + t, r.y0),
            Point::new(r.x0 + t, r.y1),
            width,
            ink,
        );
        canvas.line(
            Point::new(r.x0, r.y0 + t),
            Point::new(r.x1, r.y0 + t),
            width,
            ink,
        );
    }
    let filled = rng.range(0.2, 0.45);
    for row in 0..n {
        for col in 0..n {
            if rng.chance(filled) {
                let digit = char::from(b'0' + rng.between(u8::from(n == 8) as usize, 9) as u8);
                let centre = Point::new(
                    r.x0 + (col as f32 + 0.5) * cell,
                    r.y0 + (row as f32 + 0.5) * cell,
                );
                canvas.glyph_centred(faces.body, digit, cell * 0.55, centre, ink);
            }
        }
    }
    border(canvas, r, thin * rng.range(2.0, 4.0), ink);
}

fn border(canvas: &mut Canvas, r: Rect, width: f32, ink: Colour) {
    let c = [
        Point::new(r.x0, r.y0),
        Point::new(r.x1, r.y0),
        Point::new(r.x1, r.y1),
        Point::new(r.x0, r.y1),
    ];
    for i in 0..4 {
        canvas.line(c[i], c[(i + 1) % 4], width, ink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_have_ink_and_a_focus_region_inside() {
        let fonts = FontBank::system_for_tests();
        let mut kinds = Vec::new();
        for seed in 0..6 {
            let mut rng = Rng::new(seed);
            let (page, kind) = render_page(&mut rng, &fonts).expect("a page");
            kinds.push(kind);
            let (w, h) = page.image.dimensions();
            for p in page.grid {
                assert!(p.x >= 0.0 && p.y >= 0.0 && p.x <= w as f32 && p.y <= h as f32);
            }
            let dark = page.image.pixels().filter(|p| p.0[0] < 128).count();
            let share = dark as f32 / (w * h) as f32;
            assert!((0.008..0.5).contains(&share), "seed {seed}: ink {share}");
        }
        assert!(kinds.iter().any(|k| *k != HardNegative::None), "{kinds:?}");
    }

    #[test]
    fn column_text_stays_inside_its_column() {
        // Subheads and long first words once ran past a narrow column, printing over the
        // grid beside it: cells of "empty" truth holding text.
        let fonts = FontBank::system_for_tests();
        let (x, width, size) = (10.0, 60.0, 14.0);
        for seed in 0..40 {
            let mut rng = Rng::new(seed);
            let faces = faces(&mut rng, &fonts).expect("faces");
            let mut canvas = Canvas::new(400, 300, [255, 255, 255]);
            let ink = [0, 0, 0];
            column_text(
                &mut canvas,
                &mut rng,
                &faces,
                (x, width),
                (0.0, 280.0),
                size,
                ink,
            );
            // A glyph's antialiased edge may reach a pixel past its advance.
            let right = (x + width) as u32 + 3;
            let outside = canvas
                .image
                .enumerate_pixels()
                .filter(|(px, _, p)| *px > right && p.0[0] < 200)
                .count();
            assert_eq!(outside, 0, "seed {seed}: ink right of the column");
        }
    }
}
