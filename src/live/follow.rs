//! Following a held grid by its picture: between validated sightings, the grid's own pixels
//! (a box-averaged patch of its inside, about eight samples per cell) are matched against the
//! next frame over small shifts by normalized cross-correlation, and the lattice is moved by
//! the best shift (to a fraction of a sample).
//!
//! This is the cheapest way to say where a steady grid is now — a fraction of a millisecond,
//! no ink mask, no line search, no validation — and it holds where the line-based tracker
//! (`vision::track_lattice`) rejects a grid its validation finds too inky (full grids of
//! handwriting). It only follows translation, so the reader trusts it only while the match is
//! nearly perfect and re-validates the lattice regularly; a finger, a new page or a turn of
//! the paper lowers the match and hands the frame back to the tracker and detector.
//!
//! Owns the template and the match; it does not decide when to follow (`reader`).

use image::GrayImage;

use crate::vision::{Lattice, Point};

/// Samples per cell side the patch is averaged down to.
const SAMPLES_PER_CELL: f32 = 8.0;
/// Largest shift searched, in samples each way (about 0.4 cell).
const SEARCH_SAMPLES: i32 = 3;
/// Share of the grid cut off each side of the patch, so it holds paper and ink only.
const INSET: f32 = 0.03;
/// Smallest patch side in samples worth matching.
const MIN_PATCH: u32 = 24;

/// The picture of a grid at a validated sighting, to be found again in later frames.
#[derive(Clone, Debug)]
pub struct Template {
    /// The lattice it was taken under (image pixels).
    lattice: Lattice,
    /// Box side in pixels (integer, so patches of later frames line up sample for sample).
    box_px: u32,
    /// Top-left pixel of the patch in the frame.
    x0: u32,
    y0: u32,
    /// Patch size in samples.
    cols: u32,
    rows: u32,
    /// Mean-free samples and their norm.
    samples: Vec<f32>,
    norm: f32,
}

/// The box average of `gray` over `cols × rows` boxes of `box_px` from (x0, y0); `None` when
/// it leaves the picture.
fn boxed(
    gray: &GrayImage,
    x0: i64,
    y0: i64,
    box_px: u32,
    cols: u32,
    rows: u32,
) -> Option<Vec<f32>> {
    let (w, h) = gray.dimensions();
    let b = i64::from(box_px);
    if x0 < 0
        || y0 < 0
        || x0 + i64::from(cols) * b > i64::from(w)
        || y0 + i64::from(rows) * b > i64::from(h)
    {
        return None;
    }
    let (x0, y0) = (x0 as usize, y0 as usize);
    let (w, b) = (w as usize, box_px as usize);
    let raw = gray.as_raw();
    let mut out = vec![0f32; (cols * rows) as usize];
    // Column sums per box row, then box sums across.
    let mut row_sums = vec![0u32; cols as usize * b];
    for r in 0..rows as usize {
        row_sums.iter_mut().for_each(|s| *s = 0);
        for y in y0 + r * b..y0 + (r + 1) * b {
            let line = &raw[y * w + x0..y * w + x0 + cols as usize * b];
            for (s, &v) in row_sums.iter_mut().zip(line) {
                *s += u32::from(v);
            }
        }
        for c in 0..cols as usize {
            let sum: u32 = row_sums[c * b..(c + 1) * b].iter().sum();
            out[r * cols as usize + c] = sum as f32 / (b * b) as f32;
        }
    }
    Some(out)
}

impl Template {
    /// The template of the grid under `lattice` in `gray`; `None` for a grid too small, or
    /// too close to the picture's edge to be followed.
    pub fn of(gray: &GrayImage, lattice: &Lattice) -> Option<Template> {
        let points: Vec<Point> = lattice.points_in_image.iter().flatten().copied().collect();
        if points.iter().any(|p| !p.x.is_finite() || !p.y.is_finite()) {
            return None;
        }
        let cell_px = lattice.mean_side() / 9.0;
        let box_px = ((cell_px / SAMPLES_PER_CELL).floor() as u32).max(1);
        // The inside of the grid's bounding box's inner part: the box spanned by the
        // corners' inner extremes, inset a little, so the patch holds only the page.
        let c = lattice.corners();
        let left = c[0].x.max(c[3].x);
        let right = c[1].x.min(c[2].x);
        let top = c[0].y.max(c[1].y);
        let bottom = c[2].y.min(c[3].y);
        let (iw, ih) = (right - left, bottom - top);
        if !(iw > 0.0 && ih > 0.0) {
            return None;
        }
        let x0 = (left + INSET * iw).ceil();
        let y0 = (top + INSET * ih).ceil();
        let cols = ((iw * (1.0 - 2.0 * INSET)) / box_px as f32).floor() as u32;
        let rows = ((ih * (1.0 - 2.0 * INSET)) / box_px as f32).floor() as u32;
        if cols < MIN_PATCH || rows < MIN_PATCH || x0 < 0.0 || y0 < 0.0 {
            return None;
        }
        let (x0, y0) = (x0 as u32, y0 as u32);
        let mut samples = boxed(gray, i64::from(x0), i64::from(y0), box_px, cols, rows)?;
        let norm = center(&mut samples);
        // A blank patch has nothing to match.
        if norm < 1.0 {
            return None;
        }
        Some(Template {
            lattice: *lattice,
            box_px,
            x0,
            y0,
            cols,
            rows,
            samples,
            norm,
        })
    }

    /// The template's lattice moved to where the patch matches best in `gray`, with the
    /// match (normalized cross-correlation, `-1.0..=1.0`); `None` when the search area
    /// leaves the picture or the best shift is on the search's edge (moved too far).
    pub fn follow(&self, gray: &GrayImage) -> Option<(Lattice, f32)> {
        let r = SEARCH_SAMPLES;
        let b = i64::from(self.box_px);
        let (cols, rows) = (self.cols + 2 * r as u32, self.rows + 2 * r as u32);
        let area = boxed(
            gray,
            i64::from(self.x0) - i64::from(r) * b,
            i64::from(self.y0) - i64::from(r) * b,
            self.box_px,
            cols,
            rows,
        )?;
        let side = (2 * r + 1) as usize;
        let mut scores = vec![f32::NEG_INFINITY; side * side];
        for oy in 0..side {
            for ox in 0..side {
                scores[oy * side + ox] = self.correlation(&area, cols as usize, ox, oy);
            }
        }
        let best = (0..scores.len()).max_by(|&a, &b| scores[a].total_cmp(&scores[b]))?;
        let (bx, by) = (best % side, best / side);
        // A best match on the search's edge may lie beyond it: the grid moved too far.
        if bx == 0 || by == 0 || bx + 1 == side || by + 1 == side {
            return None;
        }
        let score = scores[best];
        // Sub-sample peak by a parabola through the neighbours (none at the search edge).
        let vertex = |minus: f32, mid: f32, plus: f32| {
            let den = minus - 2.0 * mid + plus;
            if den < -1e-6 {
                (0.5 * (minus - plus) / den).clamp(-0.5, 0.5)
            } else {
                0.0
            }
        };
        let fx = vertex(scores[best - 1], score, scores[best + 1]);
        let fy = vertex(scores[best - side], score, scores[best + side]);
        let dx = (bx as f32 - r as f32 + fx) * self.box_px as f32;
        let dy = (by as f32 - r as f32 + fy) * self.box_px as f32;
        let moved = self.lattice.map(|p| Point::new(p.x + dx, p.y + dy));
        Some((moved, score))
    }

    /// Normalized cross-correlation of the template with the area's window at (ox, oy).
    fn correlation(&self, area: &[f32], area_cols: usize, ox: usize, oy: usize) -> f32 {
        let (cols, rows) = (self.cols as usize, self.rows as usize);
        let n = (cols * rows) as f32;
        let (mut sum, mut sum_sq, mut cross) = (0f32, 0f32, 0f32);
        for y in 0..rows {
            let window = &area[(oy + y) * area_cols + ox..(oy + y) * area_cols + ox + cols];
            let template = &self.samples[y * cols..(y + 1) * cols];
            for (&a, &t) in window.iter().zip(template) {
                sum += a;
                sum_sq += a * a;
                cross += a * t;
            }
        }
        // The template is mean-free, so the window's mean drops out of the cross term.
        let var = (sum_sq - sum * sum / n).max(0.0);
        if var < 1e-3 {
            return -1.0;
        }
        cross / (var.sqrt() * self.norm)
    }
}

/// Makes `v` mean-free and returns its norm.
fn center(v: &mut [f32]) -> f32 {
    let mean = v.iter().sum::<f32>() / v.len().max(1) as f32;
    v.iter_mut().for_each(|x| *x -= mean);
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A page with a 9×9 grid (top-left at x, y; `cell` px cells) and a few digit-like blobs,
    /// blurred as a webcam blurs it.
    fn page(x: f32, y: f32, cell: f32) -> GrayImage {
        let sharp = GrayImage::from_fn(640, 480, |px, py| {
            let (u, v) = ((px as f32 - x) / cell, (py as f32 - y) / cell);
            let inside = (0.0..=9.0).contains(&u) && (0.0..=9.0).contains(&v);
            let line = inside
                && ((u - u.round()).abs() * cell < 1.0 || (v - v.round()).abs() * cell < 1.0);
            let (cu, cv) = (u.floor() as i32, v.floor() as i32);
            let blob = inside
                && (cu * 7 + cv * 3) % 5 == 0
                && (u.fract() - 0.5).abs() < 0.2
                && (v.fract() - 0.5).abs() < 0.3;
            Luma([if line || blob { 40 } else { 215 }])
        });
        image::imageops::blur(&sharp, 1.5)
    }

    fn square(x: f32, y: f32, side: f32) -> Lattice {
        Lattice::from_corners([
            Point::new(x, y),
            Point::new(x + side, y),
            Point::new(x + side, y + side),
            Point::new(x, y + side),
        ])
    }

    #[test]
    fn follows_a_small_shift_to_a_pixel_and_scores_another_picture_low() {
        let first = page(150.0, 80.0, 32.0);
        let template = Template::of(&first, &square(150.0, 80.0, 288.0)).unwrap();
        let (same, score) = template.follow(&first).unwrap();
        assert!(score > 0.99 && same.max_distance(&square(150.0, 80.0, 288.0)) < 0.5);
        // The page moved by (5, -3) px: the lattice follows within a pixel.
        let moved = page(155.0, 77.0, 32.0);
        let (lattice, score) = template.follow(&moved).unwrap();
        let truth = square(155.0, 77.0, 288.0);
        assert!(score > 0.9, "score {score}");
        assert!(
            lattice.max_distance(&truth) < 1.0,
            "{}",
            lattice.max_distance(&truth)
        );
        // A blank page matches nothing.
        let blank = GrayImage::from_pixel(640, 480, Luma([215]));
        assert!(template.follow(&blank).is_none_or(|(_, s)| s < 0.5));
        // A grid at the picture's edge cannot be searched around.
        assert!(Template::of(&first, &square(-20.0, 80.0, 288.0)).is_none());
    }
}
