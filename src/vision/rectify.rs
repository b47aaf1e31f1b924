//! Rectification: turns the located lattice into a square grid image and cuts the 81 cells.
//!
//! Each cell is warped by its own 4-corner homography (a piecewise projective warp), so
//! mildly curved paper comes out straight as long as the lattice intersections follow it.
//! It does not find the lattice (see `detect`) nor normalize cells (see `normalize`).

use image::{GrayImage, Luma, imageops};

use super::{Lattice, Point};
use crate::vision::geometry::Homography;

/// Warps the grid described by `lattice` into a square image of `9 · cell_size_px` pixels a
/// side; cell `(row, col)` fills `[col·s, (col+1)·s) × [row·s, (row+1)·s)`.
///
/// Sampling is bilinear; points that fall outside `image` read as white paper (255). A
/// `cell_size_px` of 0 is treated as 1. Never panics.
pub fn warp_grid(image: &GrayImage, lattice: &Lattice, cell_size_px: u32) -> GrayImage {
    let s = cell_size_px.clamp(1, 1024);
    let side = 9 * s;
    let mut out = GrayImage::from_pixel(side, side, Luma([255]));
    // A cell's pixel centres in its unit square, along a row (the same along a column).
    let at: Vec<f32> = (0..s).map(|i| (i as f32 + 0.5) / s as f32).collect();
    for row in 0..9 {
        for col in 0..9 {
            let quad = lattice.cell_quad(row, col);
            let Some(h) = Homography::from_unit_square(quad) else {
                continue;
            };
            // The raster comes row by row, `s` points a row: each lands at the next pixel of
            // the cell's row in `out` (no division and no `put_pixel` per pixel).
            let raw: &mut [u8] = &mut out;
            let (x0, y0) = ((col as u32 * s) as usize, (row as u32 * s) as usize);
            let (stride, s) = (side as usize, s as usize);
            let (mut i, mut j) = (0usize, 0usize);
            h.map_raster(&at, &at, |p| {
                if let Some(px) = raw.get_mut((y0 + j) * stride + x0 + i) {
                    *px = sample_bilinear(image, p);
                }
                i += 1;
                if i == s {
                    (i, j) = (0, j + 1);
                }
            });
        }
    }
    out
}

/// The classifier inputs of the grid under `lattice`: [`warp_grid`], [`cell_crops`], then
/// [`super::normalize_cells`] (ink polarity decided over the whole grid). The one path from
/// a photo to model input, used by inference and by training-data export alike.
pub fn cell_inputs(image: &GrayImage, lattice: &Lattice, cell_size_px: u32) -> Vec<Vec<f32>> {
    let grid = warp_grid(image, lattice, cell_size_px);
    super::normalize_cells(&cell_crops(&grid, cell_size_px))
}

/// Cuts a rectified grid (as made by [`warp_grid`] with the same `cell_size_px`) into its 81
/// cells, row-major (`r1c1, r1c2, …, r9c9`). Crops are clipped to the image, so a grid image
/// smaller than expected yields smaller (possibly empty) crops rather than a panic.
pub fn cell_crops(grid: &GrayImage, cell_size_px: u32) -> Vec<GrayImage> {
    let s = cell_size_px.max(1);
    let (w, h) = grid.dimensions();
    let mut out = Vec::with_capacity(81);
    for row in 0..9u32 {
        for col in 0..9u32 {
            let x = (col * s).min(w);
            let y = (row * s).min(h);
            let cw = s.min(w - x);
            let ch = s.min(h - y);
            out.push(imageops::crop_imm(grid, x, y, cw, ch).to_image());
        }
    }
    out
}

/// Bilinear sample of `image` at `p` (pixel centres on integers); outside reads as 255.
pub(crate) fn sample_bilinear(image: &GrayImage, p: Point) -> u8 {
    let (w, h) = image.dimensions();
    if !p.is_finite() || w == 0 || h == 0 {
        return 255;
    }
    if p.x < -0.5 || p.y < -0.5 || p.x > w as f32 - 0.5 || p.y > h as f32 - 0.5 {
        return 255;
    }
    let x = p.x.clamp(0.0, (w - 1) as f32);
    let y = p.y.clamp(0.0, (h - 1) as f32);
    // Non-negative, so adding one half and truncating rounds half away from zero like
    // `f32::round`; `as u8` saturates at 255.
    (interpolate(image, x, y) + 0.5) as u8
}

/// Bilinear interpolation of `image` at `(x, y)`, which must lie in `[0, w − 1] × [0, h − 1]`
/// (callers check their own bounds).
pub(crate) fn interpolate(image: &GrayImage, x: f32, y: f32) -> f32 {
    let (w, h) = image.dimensions();
    // x, y ≥ 0 here, so truncation is floor (and avoids a libm call per pixel).
    let x0 = x as u32;
    let y0 = y as u32;
    let x1 = (x0 + 1).min(w - 1);
    let y1 = (y0 + 1).min(h - 1);
    let fx = x - x0 as f32;
    let fy = y - y0 as f32;
    let raw = image.as_raw();
    let at = |xx: u32, yy: u32| raw[(yy * w + xx) as usize] as f32;
    let top = at(x0, y0) * (1.0 - fx) + at(x1, y0) * fx;
    let bottom = at(x0, y1) * (1.0 - fx) + at(x1, y1) * fx;
    top * (1.0 - fy) + bottom * fy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_lattice_reproduces_the_image() {
        // An axis-aligned grid whose cells are 10 px: rectifying at 10 px should copy pixels.
        let mut img = GrayImage::from_pixel(90, 90, Luma([200]));
        for y in 0..90 {
            for x in 0..90 {
                img.put_pixel(x, y, Luma([((x * 2 + y) % 256) as u8]));
            }
        }
        let corners = [
            Point::new(-0.5, -0.5),
            Point::new(89.5, -0.5),
            Point::new(89.5, 89.5),
            Point::new(-0.5, 89.5),
        ];
        let lattice = Lattice::from_corners(corners);
        let grid = warp_grid(&img, &lattice, 10);
        assert_eq!(grid.dimensions(), (90, 90));
        for (x, y) in [(0, 0), (45, 17), (89, 89), (12, 70)] {
            let a = img.get_pixel(x, y).0[0] as i32;
            let b = grid.get_pixel(x, y).0[0] as i32;
            assert!((a - b).abs() <= 1, "({x},{y}) {a} vs {b}");
        }
        let cells = cell_crops(&grid, 10);
        assert_eq!(cells.len(), 81);
        assert!(cells.iter().all(|c| c.dimensions() == (10, 10)));
        // Cell r2c3 starts at pixel (20, 10).
        assert_eq!(cells[9 + 2].get_pixel(0, 0), grid.get_pixel(20, 10));
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        let img = GrayImage::new(1, 1);
        let p = Point::new(0.0, 0.0);
        let lattice = Lattice::from_corners([p, p, p, p]);
        let grid = warp_grid(&img, &lattice, 0);
        assert_eq!(grid.dimensions(), (9, 9));
        assert_eq!(cell_crops(&GrayImage::new(5, 5), 4).len(), 81);
    }
}
