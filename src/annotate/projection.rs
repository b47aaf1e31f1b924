//! Grid units → image pixels through a detected [`Lattice`] ([`image_from_grid`]), and the
//! lattice of an upright square board ([`square_lattice`]), so a typed puzzle is drawn with the
//! same code as a photographed one. Shared by the annotated PNG and the app's live overlay.
//!
//! Grid units: `x` is the column coordinate and `y` the row coordinate, both `0.0..=9.0`, so
//! cell `r1c1` spans `0..1 × 0..1` and its centre is `(0.5, 0.5)`. Inside one cell the lattice
//! quad is interpolated bilinearly; with the refined 10×10 lattice this follows perspective and
//! paper bending closely, so digits drawn through it sit on the paper. Screen coordinates are
//! the app's business (`app::geometry`).

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
}
