//! Coordinate transforms of the overlay: `image_from_grid` (grid units → source pixels, through
//! the detected [`Lattice`]) and [`ScreenFromImage`] (source pixels → egui points).
//!
//! Grid units: `x` is the column coordinate and `y` the row coordinate, both `0.0..=9.0`, so
//! cell `r1c1` spans `0..1 × 0..1` and its centre is `(0.5, 0.5)`. Inside one cell the lattice
//! quad is interpolated bilinearly; with the refined 10×10 lattice this follows perspective and
//! paper bending closely, so digits drawn through it sit on the paper.

use egui::{Pos2, Rect, Vec2};

use crate::vision::{Lattice, Point};

/// Maps grid units to image pixels through `lattice`.
pub fn image_from_grid(lattice: &Lattice, x_in_grid: f32, y_in_grid: f32) -> Point {
    let x = x_in_grid.clamp(0.0, 9.0);
    let y = y_in_grid.clamp(0.0, 9.0);
    let col = (x.floor() as usize).min(8);
    let row = (y.floor() as usize).min(8);
    let (u, v) = (x - col as f32, y - row as f32);
    let [tl, tr, br, bl] = lattice.cell_quad(row, col);
    let top = tl.lerp(tr, u);
    let bottom = bl.lerp(br, u);
    top.lerp(bottom, v)
}

/// The lattice of an upright square grid filling `rect` (used to draw a typed puzzle, or the
/// annotated board, with the same code as a photographed one).
pub fn square_lattice(origin_x: f32, origin_y: f32, side: f32) -> Lattice {
    let cell = side / 9.0;
    let mut points_in_image = [[Point::default(); 10]; 10];
    for (r, row) in points_in_image.iter_mut().enumerate() {
        for (c, p) in row.iter_mut().enumerate() {
            *p = Point::new(origin_x + c as f32 * cell, origin_y + r as f32 * cell);
        }
    }
    Lattice { points_in_image }
}

/// Image pixels → screen points for an image drawn (uniformly scaled) into a rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenFromImage {
    /// Screen position of image pixel (0, 0)'s top-left corner.
    pub origin_on_screen: Pos2,
    /// Screen points per image pixel.
    pub points_per_px: f32,
}

impl ScreenFromImage {
    /// The transform that fits an image of `image_size_px` into `available` (centred, aspect
    /// kept), and the rectangle the image occupies.
    pub fn fit(image_size_px: Vec2, available: Rect) -> (ScreenFromImage, Rect) {
        let scale = if image_size_px.x > 0.0 && image_size_px.y > 0.0 {
            (available.width() / image_size_px.x).min(available.height() / image_size_px.y)
        } else {
            1.0
        };
        let size = image_size_px * scale;
        let rect = Rect::from_center_size(available.center(), size);
        (
            ScreenFromImage {
                origin_on_screen: rect.min,
                points_per_px: scale,
            },
            rect,
        )
    }

    /// Maps an image point to the screen.
    pub fn apply(&self, p: Point) -> Pos2 {
        self.origin_on_screen + Vec2::new(p.x, p.y) * self.points_per_px
    }

    /// Maps a screen point back to image pixels.
    pub fn inverse(&self, p: Pos2) -> Point {
        let d = (p - self.origin_on_screen) / self.points_per_px.max(f32::EPSILON);
        Point::new(d.x, d.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_lattice_maps_cell_centres_linearly() {
        let l = square_lattice(10.0, 20.0, 90.0);
        let p = image_from_grid(&l, 4.5, 2.5);
        assert!(
            (p.x - 55.0).abs() < 1e-4 && (p.y - 45.0).abs() < 1e-4,
            "{p:?}"
        );
        let corner = image_from_grid(&l, 9.0, 9.0);
        assert!((corner.x - 100.0).abs() < 1e-4 && (corner.y - 110.0).abs() < 1e-4);
    }

    #[test]
    fn skewed_lattice_follows_the_cell_quads() {
        // A perspective-like quad: the bottom edge is wider than the top.
        let l = Lattice::from_corners([
            Point::new(100.0, 0.0),
            Point::new(200.0, 0.0),
            Point::new(300.0, 100.0),
            Point::new(0.0, 100.0),
        ]);
        for (r, c) in [(0, 0), (4, 7), (8, 8)] {
            let want = l.cell_centre(r, c);
            let got = image_from_grid(&l, c as f32 + 0.5, r as f32 + 0.5);
            // The bilinear midpoint of a quad equals the mean of its corners.
            assert!(
                got.distance(want) < 1e-3,
                "cell {r},{c}: {got:?} vs {want:?}"
            );
        }
    }

    #[test]
    fn screen_transform_round_trips_and_keeps_aspect() {
        let (t, rect) = ScreenFromImage::fit(
            Vec2::new(640.0, 480.0),
            Rect::from_min_size(Pos2::new(0.0, 0.0), Vec2::new(320.0, 480.0)),
        );
        assert!((rect.width() - 320.0).abs() < 1e-3 && (rect.height() - 240.0).abs() < 1e-3);
        let p = Point::new(123.0, 456.0);
        let back = t.inverse(t.apply(p));
        assert!(back.distance(p) < 1e-3);
    }
}
