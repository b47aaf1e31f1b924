//! Faint grids: a second look, in gray levels, at a lattice whose thin lines the ink mask lost.
//!
//! Some newspapers print the thin inner lines in a light gray; in a dim or blurred photo the
//! adaptive threshold keeps only the thick box lines, so `detect`'s validation finds too
//! many edges without ink. Averaged along a whole edge, such a line is still a few gray
//! levels darker than the paper beside it, while a lattice line laid over empty paper (a 9×9
//! lattice fitted to an 8×8 or 10×10 grid) is not darker at all. [`lines_present`] measures
//! that contrast for every lattice line. [`valley`] finds such a line near a predicted
//! intersection when the mask has none there (also a border lost in a shadow, where the
//! threshold's local mean is dark too). Working-image pixels; knows nothing of contours or
//! of how the lattice was found.

use image::GrayImage;

use super::rectify::interpolate;
use super::{Lattice, Point};

/// Gray level at `p`, bilinear; `None` outside the image.
fn gray_at(gray: &GrayImage, p: Point) -> Option<f32> {
    let (w, h) = gray.dimensions();
    if !(p.x >= 0.0 && p.y >= 0.0 && p.x <= (w - 1) as f32 && p.y <= (h - 1) as f32) {
        return None;
    }
    Some(interpolate(gray, p.x, p.y))
}

/// How many gray levels the edge `a → b` is darker than the paper `paper_px` to each side:
/// the cross-section averaged over the inner 70 % of the edge, its darkest point within two
/// pixels of the edge (the lattice may be a pixel or two off a faint line) against the mean
/// of the two sides. `None` when the edge leaves the image.
fn edge_contrast(gray: &GrayImage, a: Point, b: Point, paper_px: f32) -> Option<f32> {
    const NEAR: [f32; 5] = [-2.0, -1.0, 0.0, 1.0, 2.0];
    let d = (b - a).unit();
    let n = Point::new(-d.y, d.x);
    let samples = (a.distance(b) * 0.7).ceil().max(4.0) as usize;
    let mut near = [0.0f32; 5];
    let mut sides = 0.0f32;
    for i in 0..samples {
        let q = a.lerp(b, 0.15 + 0.7 * (i as f32 + 0.5) / samples as f32);
        for (acc, t) in near.iter_mut().zip(NEAR) {
            *acc += gray_at(gray, q + n.scaled(t))?;
        }
        sides += gray_at(gray, q + n.scaled(paper_px))? + gray_at(gray, q - n.scaled(paper_px))?;
    }
    let line = near.iter().copied().fold(f32::MAX, f32::min);
    Some((sides / 2.0 - line) / samples as f32)
}

/// Gray-level contrast of each lattice line: for each of the 10 row lines and then the 10
/// column lines, the median contrast of its 9 edges. `None` when part of the lattice lies
/// outside `gray`.
fn line_contrasts(gray: &GrayImage, lattice: &Lattice) -> Option<[f32; 20]> {
    let p = &lattice.points_in_image;
    let paper_px = (0.22 * lattice.mean_side() / 9.0).max(3.0);
    let mut out = [0.0f32; 20];
    for i in 0..10 {
        let mut rows = [0.0f32; 9];
        let mut cols = [0.0f32; 9];
        for j in 0..9 {
            rows[j] = edge_contrast(gray, p[i][j], p[i][j + 1], paper_px)?;
            cols[j] = edge_contrast(gray, p[j][i], p[j + 1][i], paper_px)?;
        }
        rows.sort_by(f32::total_cmp);
        cols.sort_by(f32::total_cmp);
        out[i] = rows[4];
        out[10 + i] = cols[4];
    }
    Some(out)
}

/// Whether every one of the 20 lattice lines is a printed line in `gray`: each at least
/// 3 gray levels, and at least a fifth of the median line's contrast, darker than the paper
/// beside it.
pub(crate) fn lines_present(gray: &GrayImage, lattice: &Lattice) -> bool {
    let Some(mut contrasts) = line_contrasts(gray, lattice) else {
        return false;
    };
    contrasts.sort_by(f32::total_cmp);
    let median = contrasts[10];
    let faintest = contrasts[0];
    tracing::trace!(faintest, median, "faint line contrast");
    faintest >= 3.0_f32.max(0.2 * median)
}

/// Searches the gray levels for a line through (near) `p` running along `dir`, where the ink
/// mask found none: the mean gray of the segment `p + t·n + s·dir, s ∈ [s0, s1]` for offsets
/// `t ∈ [-reach, reach]` along the normal `n`, and the valley nearest `t = 0` that is at least
/// 8 gray levels darker than the profile 3 px to either side. Returns its offset.
pub(crate) fn valley(
    gray: &GrayImage,
    p: Point,
    dir: Point,
    s0: f32,
    s1: f32,
    reach: f32,
) -> Option<f32> {
    let n = Point::new(-dir.y, dir.x);
    let steps = reach.ceil().clamp(1.0, 64.0) as i32 + 3;
    let samples = ((s1 - s0).abs().ceil() as i32).clamp(2, 256);
    let profile: Vec<Option<f32>> = (-steps..=steps)
        .map(|k| {
            let base = p + n.scaled(k as f32);
            let mut sum = 0.0;
            for i in 0..=samples {
                let s = s0 + (s1 - s0) * i as f32 / samples as f32;
                sum += gray_at(gray, base + dir.scaled(s))?;
            }
            Some(sum / (samples + 1) as f32)
        })
        .collect();
    let centre = steps as usize;
    (3..profile.len() - 3)
        .filter(|&k| {
            let (Some(here), Some(left), Some(right)) =
                (profile[k], profile[k - 3], profile[k + 3])
            else {
                return false;
            };
            let local_min = profile[k - 1].is_some_and(|v| here <= v)
                && profile[k + 1].is_some_and(|v| here <= v);
            local_min && left.min(right) - here >= 8.0
        })
        .min_by_key(|&k| k.abs_diff(centre))
        .map(|k| k as f32 - steps as f32)
        .filter(|t| t.abs() <= reach)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// Paper at 180 with a horizontal line `depth` levels darker, 2 px thick, at `y`.
    fn paper_with_line(y: u32, depth: u8) -> GrayImage {
        GrayImage::from_fn(80, 80, |_, yy| {
            Luma([if yy == y || yy == y + 1 {
                180 - depth
            } else {
                180
            }])
        })
    }

    #[test]
    fn valley_finds_a_line_too_faint_for_the_mask_and_nothing_on_blank_paper() {
        let p = Point::new(40.0, 35.0);
        let along = Point::new(1.0, 0.0);
        // The normal of `along` points down (y increasing): the line at y = 40..41 is 5 to
        // 6 px below.
        let t = valley(&paper_with_line(40, 9), p, along, -15.0, 15.0, 8.0).expect("line");
        assert!((5.0..=6.0).contains(&t), "{t}");
        assert_eq!(
            valley(&paper_with_line(40, 3), p, along, -15.0, 15.0, 8.0),
            None
        );
        assert_eq!(
            valley(&paper_with_line(60, 9), p, along, -15.0, 15.0, 8.0),
            None
        );
    }
}
