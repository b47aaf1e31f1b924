//! Whole-line fitting: a lattice whose eight box lines are each fitted, as one straight line
//! over the grid's whole width, to the ink mask, and whose thin lines are interpolated
//! between them.
//!
//! The per-intersection refinement (`refine`) follows every printed line locally; on a small,
//! blurred or noisy frame (a webcam, a grid full of handwriting) digits touching the thin
//! lines and noise blobs pull single points astray, and the lattice is then rejected as
//! uneven. An outline's own lattice keeps straight lines but is only as good as its four
//! corners: the outer edge of a heavy border, or a corner cut by perspective, puts its box
//! lines a pixel or three off their ink. Fitting each box line as a whole uses all of its
//! ink at once: a blob beside the line moves it by nothing. Owns the fit only; whether the
//! fitted lattice is a grid is `validate`'s business (`judge_fitted`, stricter than for a
//! lattice as found: fitted lines find the nearest printed lines, whatever they are), and
//! when a fitted lattice is used at all is `search`'s (only when no try finds a grid).

use image::GrayImage;

use super::threshold::ink_at;
use crate::vision::{Lattice, Line, Point};

/// The box lines (lattice line indices) fitted as wholes.
const BOX_LINES: [usize; 4] = [0, 3, 6, 9];

/// How far (in cells, along its normal) each end of a box line may move from the prediction.
const REACH_CELLS: f32 = 0.3;

/// The lattice of `initial` with its box lines fitted to the ink of `mask` (each end moved
/// along the line's normal by up to [`REACH_CELLS`] to cover the most ink over the line's
/// whole length) and its thin lines spaced between them as in `initial`. `None` when the
/// fitted lines do not meet inside a sane lattice (parallel lines, non-finite points).
pub(super) fn fit_box_lines(mask: &GrayImage, initial: &Lattice) -> Option<Lattice> {
    let p = &initial.points_in_image;
    let cell_px = initial.mean_side() / 9.0;
    let reach_px = (REACH_CELLS * cell_px).max(2.0);
    // Ends of every row line (left, right) and column line (top, bottom), as predicted.
    let mut rows: [(Point, Point); 10] = std::array::from_fn(|i| (p[i][0], p[i][9]));
    let mut cols: [(Point, Point); 10] = std::array::from_fn(|j| (p[0][j], p[9][j]));
    for lines in [&mut rows, &mut cols] {
        let predicted = *lines;
        for &b in &BOX_LINES {
            lines[b] = fit_line(mask, predicted[b], reach_px);
        }
        // A thin line keeps its place between its two box lines, end by end.
        for i in 0..10 {
            if BOX_LINES.contains(&i) {
                continue;
            }
            let (b0, b1) = (i / 3 * 3, i / 3 * 3 + 3);
            lines[i] = (
                interpolate_between(predicted, lines, i, b0, b1, |l| l.0),
                interpolate_between(predicted, lines, i, b0, b1, |l| l.1),
            );
        }
    }
    let row_lines: Vec<Line> = rows
        .iter()
        .map(|&(a, b)| Line::through(a, b))
        .collect::<Option<_>>()?;
    let col_lines: Vec<Line> = cols
        .iter()
        .map(|&(a, b)| Line::through(a, b))
        .collect::<Option<_>>()?;
    let mut points_in_image = [[Point::default(); 10]; 10];
    for (i, row) in row_lines.iter().enumerate() {
        for (j, col) in col_lines.iter().enumerate() {
            let q = row.intersect(col)?;
            // A fitted line that swung far off makes its crossings fly away: no lattice.
            if !q.is_finite() || q.distance(p[i][j]) > 2.0 * reach_px {
                return None;
            }
            points_in_image[i][j] = q;
        }
    }
    Some(Lattice { points_in_image })
}

/// Line `i`'s end (picked by `end`) placed between the fitted box lines `b0` and `b1` as the
/// predicted one sits between the predicted ones: the predicted end plus the fitted box
/// lines' moves, weighted by where it sits.
fn interpolate_between(
    predicted: [(Point, Point); 10],
    fitted: &[(Point, Point); 10],
    i: usize,
    b0: usize,
    b1: usize,
    end: impl Fn(&(Point, Point)) -> Point,
) -> Point {
    let w = (i - b0) as f32 / (b1 - b0) as f32;
    let move0 = end(&fitted[b0]) - end(&predicted[b0]);
    let move1 = end(&fitted[b1]) - end(&predicted[b1]);
    end(&predicted[i]) + move0.scaled(1.0 - w) + move1.scaled(w)
}

/// How far (px) each end of a line may move from the best parallel shift in [`fit_line`].
const TILT_PX: i32 = 3;

/// Samples along a line that [`fit_line`] scores.
const SAMPLES_ALONG: usize = 48;

/// The straight line near `a → b` with the most ink along it: each end moved along the
/// normal by up to `reach_px` (whole pixels): the best parallel shift, then every pair of end
/// offsets within [`TILT_PX`] of it. Of the pairs within two pixels of the best that score
/// within 0.02 of it, their mean (the centre of a heavy border, not its edge).
fn fit_line(mask: &GrayImage, (a, b): (Point, Point), reach_px: f32) -> (Point, Point) {
    let d = (b - a).unit();
    let n = Point::new(-d.y, d.x);
    let reach = reach_px.ceil().clamp(1.0, 24.0) as i32;
    let width = (2 * reach + 1) as usize;
    // ink[k][t]: ink within a pixel of sample k shifted by t − reach px along the normal.
    // A line with end offsets (ta, tb) passes sample k at ta + (tb − ta)·s_k.
    let along: Vec<f32> = (0..SAMPLES_ALONG)
        .map(|k| 0.05 + 0.9 * (k as f32 + 0.5) / SAMPLES_ALONG as f32)
        .collect();
    let mut ink = vec![false; SAMPLES_ALONG * width];
    for (k, &s) in along.iter().enumerate() {
        let q = a.lerp(b, s);
        for t in -reach..=reach {
            let at = q + n.scaled(t as f32);
            ink[k * width + (t + reach) as usize] =
                (-1..=1).any(|o| ink_at(mask, at + d.scaled(o as f32)));
        }
    }
    let score = |ta: i32, tb: i32| {
        let hits = along
            .iter()
            .enumerate()
            .filter(|&(k, &s)| {
                // The offset's column, rounded by truncation (it is ≥ 0 here): `f32::round`
                // is a libm call on baseline x86-64.
                let column = ((ta + reach) as f32 + (tb - ta) as f32 * s + 0.5) as usize;
                ink[k * width + column.min(width - 1)]
            })
            .count();
        hits as f32 / SAMPLES_ALONG as f32
    };
    // The best parallel shift first, then every pair of end offsets within a few pixels of
    // it (a line tilted by up to 2 · TILT_PX over its length).
    let Some(shift) = (-reach..=reach).max_by(|&x, &y| score(x, x).total_cmp(&score(y, y))) else {
        return (a, b);
    };
    let ends = (shift - TILT_PX).max(-reach)..=(shift + TILT_PX).min(reach);
    let pairs: Vec<(i32, i32, f32)> = ends
        .clone()
        .flat_map(|ta| ends.clone().map(move |tb| (ta, tb)))
        .map(|(ta, tb)| (ta, tb, score(ta, tb)))
        .collect();
    let Some(&(best_a, best_b, top)) = pairs.iter().max_by(|x, y| x.2.total_cmp(&y.2)) else {
        return (a, b);
    };
    let (mut sum_a, mut sum_b, mut count) = (0.0f32, 0.0f32, 0.0f32);
    for &(ta, tb, s) in &pairs {
        // Near the best pair only: a parallel rule beside the border is another line.
        let near = ta.abs_diff(best_a) <= 2 && tb.abs_diff(best_b) <= 2;
        if near && s >= top - 0.02 {
            sum_a += ta as f32;
            sum_b += tb as f32;
            count += 1.0;
        }
    }
    let (ta, tb) = (sum_a / count, sum_b / count);
    (a + n.scaled(ta), b + n.scaled(tb))
}

#[cfg(test)]
mod tests {
    use image::Luma;

    use super::*;

    /// A grid with 3 px box lines and 1 px thin lines on a 20 px cell, at (40, 30).
    fn grid_mask() -> GrayImage {
        let mut mask = GrayImage::new(260, 240);
        for k in 0..10 {
            let half = if k % 3 == 0 { 1 } else { 0 };
            let at = 20 * k;
            for t in -half..=half {
                for s in 0..=180 {
                    mask.put_pixel((40 + s) as u32, (30 + at + t) as u32, Luma([255]));
                    mask.put_pixel((40 + at + t) as u32, (30 + s) as u32, Luma([255]));
                }
            }
        }
        mask
    }

    #[test]
    fn box_lines_move_onto_their_ink_and_thin_lines_follow() {
        let mask = grid_mask();
        // The outline's corners 3 px outside the border on the left and top, as the outer
        // edge of a heavy border or a corner cut by perspective puts them.
        let initial = Lattice::from_corners([
            Point::new(37.0, 27.0),
            Point::new(220.0, 27.0),
            Point::new(220.0, 210.0),
            Point::new(37.0, 210.0),
        ]);
        let fitted = fit_box_lines(&mask, &initial).expect("a lattice");
        for i in 0..10 {
            for j in 0..10 {
                let truth = Point::new(40.0 + 20.0 * j as f32, 30.0 + 20.0 * i as f32);
                let got = fitted.points_in_image[i][j];
                assert!(
                    got.distance(truth) < 1.0,
                    "point ({i}, {j}) at {got:?}, the grid's at {truth:?}"
                );
            }
        }
    }

    #[test]
    fn a_blob_beside_a_box_line_does_not_move_it() {
        let mut mask = grid_mask();
        // A digit's stroke touching the middle box line from below, over one cell.
        for y in 92..=96 {
            for x in 100..=120 {
                mask.put_pixel(x, y, Luma([255]));
            }
        }
        let initial = Lattice::from_corners([
            Point::new(40.0, 30.0),
            Point::new(220.0, 30.0),
            Point::new(220.0, 210.0),
            Point::new(40.0, 210.0),
        ]);
        let fitted = fit_box_lines(&mask, &initial).expect("a lattice");
        for j in 0..10 {
            let y = fitted.points_in_image[3][j].y;
            assert!(
                (y - 90.0).abs() < 1.0,
                "box line 3 at y = {y} at column {j}"
            );
        }
    }
}
