//! Debug drawings of the detection stages, for `scan --debug` and for people tuning the
//! detector. Pure image-in, image-out helpers; writing files is the caller's business.

use image::{GrayImage, Rgb, RgbImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_line_segment_mut};

use super::{Lattice, Point};

/// Draws `lattice` (all 20 lines as polylines through the intersections, and the corners) on
/// a colour copy of `image`. The top-left corner is marked larger than the others.
pub fn draw_lattice(image: &GrayImage, lattice: &Lattice) -> RgbImage {
    let mut out = image::DynamicImage::ImageLuma8(image.clone()).to_rgb8();
    draw_lattice_mut(&mut out, lattice, Rgb([0, 200, 0]));
    out
}

/// Draws `lattice` on `canvas` in `colour`.
#[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
pub fn draw_lattice_mut(canvas: &mut RgbImage, lattice: &Lattice, colour: Rgb<u8>) {
    let p = &lattice.points_in_image;
    let seg = |c: &mut RgbImage, a: Point, b: Point, col: Rgb<u8>| {
        if a.is_finite() && b.is_finite() {
            draw_line_segment_mut(c, (a.x, a.y), (b.x, b.y), col);
        }
    };
    for i in 0..10 {
        for j in 0..9 {
            seg(canvas, p[i][j], p[i][j + 1], colour);
            seg(canvas, p[j][i], p[j + 1][i], colour);
        }
    }
    let r = ((lattice.mean_side() / 120.0).round() as i32).max(2);
    for row in p {
        for q in row {
            if q.is_finite() {
                draw_filled_circle_mut(canvas, (q.x as i32, q.y as i32), r, Rgb([230, 40, 40]));
            }
        }
    }
    let tl = p[0][0];
    if tl.is_finite() {
        draw_filled_circle_mut(
            canvas,
            (tl.x as i32, tl.y as i32),
            3 * r,
            Rgb([40, 40, 230]),
        );
    }
}
