//! Tracking a known grid into the next video frame: the previous frame's lattice is refined
//! onto the ink lines near it, inside a crop around it, and judged like a fresh detection.
//!
//! This is the cheap path of live scanning: no contours, no candidate search and no Hough
//! lines, only the ink mask of the grid's own neighbourhood and the line search of `refine`
//! (which reaches about a quarter of a cell, so a grid that moved further between two frames
//! is lost here and found again by a full detection). It owns no state across frames; the
//! caller keeps the lattice.

use image::GrayImage;

use super::Rejection;
use super::refine::refine_lattice_counted;
use super::threshold::{area_downscale, ink_mask, mostly_dark, noise_sigma};
use super::validate::{Checks, judge};
use crate::vision::{GridDetection, Lattice, NoGrid, Point};

/// Margin kept around the previous lattice's bounding box, in cell sides: the line search
/// needs the ink a little beyond the border, and the adaptive threshold its surroundings.
const MARGIN_CELLS: f32 = 1.0;

/// Cell side (pixels) a tracked grid is worked on at: larger grids are area-downscaled to it.
const TRACK_CELL_PX: f32 = 28.0;

/// Finds the grid of `previous` (a lattice in `image`'s pixels, from the last frame) again in
/// `image`: refines it onto the ink lines nearby and validates it much as
/// [`super::detect_with`] would (noise-adaptive ink step, either ink polarity), at a scale
/// set by the grid's cell size. The lattice keeps `previous`'s point
/// order. `Err` when the grid moved too far, left the picture or is covered too much.
pub fn track_lattice(image: &GrayImage, previous: &Lattice) -> Result<GridDetection, NoGrid> {
    let (width, height) = image.dimensions();
    if width.min(height) < 32 {
        return Err(NoGrid::TooSmall { width, height });
    }
    let points: Vec<Point> = previous.points_in_image.iter().flatten().copied().collect();
    if points.iter().any(|p| !p.x.is_finite() || !p.y.is_finite()) {
        return Err(NoGrid::NoLattice(Rejection::LeftImagePlane));
    }
    let margin = previous.mean_side() / 9.0 * MARGIN_CELLS + 4.0;
    let min_x = points.iter().map(|p| p.x).fold(f32::INFINITY, f32::min) - margin;
    let max_x = points.iter().map(|p| p.x).fold(f32::NEG_INFINITY, f32::max) + margin;
    let min_y = points.iter().map(|p| p.y).fold(f32::INFINITY, f32::min) - margin;
    let max_y = points.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max) + margin;
    let x0 = min_x.floor().clamp(0.0, width as f32) as u32;
    let y0 = min_y.floor().clamp(0.0, height as f32) as u32;
    let x1 = max_x.ceil().clamp(0.0, width as f32) as u32;
    let y1 = max_y.ceil().clamp(0.0, height as f32) as u32;
    if x1.saturating_sub(x0) < 32 || y1.saturating_sub(y0) < 32 {
        return Err(NoGrid::NoOutline);
    }

    // Scaled by the grid's own size, not the frame's: a small grid in a large frame keeps
    // its thin lines (the detector's frame-wide downscale can wash them out), and a large one
    // costs no more than needed.
    let cell_px = previous.mean_side() / 9.0;
    let scale = (TRACK_CELL_PX / cell_px.max(1.0)).min(1.0);
    let crop = image::imageops::crop_imm(image, x0, y0, x1 - x0, y1 - y0).to_image();
    let work = if scale < 1.0 {
        area_downscale(&crop, scale)
    } else {
        crop
    };
    let fx = (x1 - x0) as f32 / work.width() as f32;
    let fy = (y1 - y0) as f32 / work.height() as f32;
    let to_work = |p: Point| {
        Point::new(
            (p.x - x0 as f32 + 0.5) / fx - 0.5,
            (p.y - y0 as f32 + 0.5) / fy - 0.5,
        )
    };
    let to_image = |p: Point| {
        Point::new(
            (p.x + 0.5) * fx - 0.5 + x0 as f32,
            (p.y + 0.5) * fy - 0.5 + y0 as f32,
        )
    };
    // The threshold box spans about a cell, as the detector's does on a typical photo.
    let radius = ((cell_px * scale * 0.75).round() as u32).clamp(4, 24);
    let delta = (2.5 * noise_sigma(&work)).round().clamp(8.0, 32.0) as u32;
    let initial = previous.map(to_work);

    let dark_first = mostly_dark(&work);
    let mut first_rejection = None;
    for invert in [dark_first, !dark_first] {
        let picture = if invert {
            let mut inv = work.clone();
            image::imageops::invert(&mut inv);
            std::borrow::Cow::Owned(inv)
        } else {
            std::borrow::Cow::Borrowed(&work)
        };
        let mask = ink_mask(&picture, radius, delta);
        // Gray-level valleys may stand in for lines a blurred frame lost from the mask.
        let (lattice, _) = refine_lattice_counted(&mask, Some(&picture), &initial);
        match judge(&mask, &picture, &lattice, Checks::Tracked) {
            Ok(score) => {
                let lattice = lattice.map(to_image);
                return Ok(GridDetection {
                    corners_in_image: lattice.corners(),
                    lattice_in_image: lattice.points_in_image,
                    score,
                });
            }
            Err(rejection) => {
                first_rejection.get_or_insert(rejection);
            }
        }
    }
    Err(first_rejection.map_or(NoGrid::NoOutline, NoGrid::NoLattice))
}

#[cfg(test)]
mod tests {
    use super::super::put_line;
    use super::*;
    use image::Luma;

    /// A clean 9×9 grid with its top-left corner at (x, y) and cells of `cell` pixels.
    fn grid_image(x: f32, y: f32, cell: f32) -> GrayImage {
        let mut img = GrayImage::from_pixel(640, 480, Luma([225]));
        for i in 0..=9 {
            let t = if i % 3 == 0 { 3.0 } else { 1.0 };
            let p = i as f32 * cell;
            put_line(
                &mut img,
                Point::new(x + p, y),
                Point::new(x + p, y + 9.0 * cell),
                t,
                20,
            );
            put_line(
                &mut img,
                Point::new(x, y + p),
                Point::new(x + 9.0 * cell, y + p),
                t,
                20,
            );
        }
        img
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
    fn follows_a_small_move_and_loses_a_large_one() {
        let image = grid_image(123.0, 71.0, 34.0);
        let truth = square(123.0, 71.0, 306.0);
        // The last frame's lattice is 5 px off (a seventh of a cell): tracked back onto the lines.
        let tracked = track_lattice(&image, &square(128.0, 67.0, 306.0)).unwrap();
        assert!(
            tracked.lattice().max_distance(&truth) < 1.5,
            "{}",
            tracked.lattice().max_distance(&truth)
        );
        // A whole cell off, the line search cannot reach the lines any more.
        let lost = track_lattice(&image, &square(157.0, 71.0, 306.0));
        assert!(
            lost.is_err() || lost.unwrap().lattice().max_distance(&truth) > 20.0,
            "a grid a cell away must not be reported where it is not"
        );
        // Nothing there at all.
        let blank = GrayImage::from_pixel(640, 480, Luma([225]));
        assert!(track_lattice(&blank, &truth).is_err());
    }
}
