//! Rectification: turns the located lattice into a square grid image and cuts the 81 cells.
//!
//! Each cell is warped by its own 4-corner homography (a piecewise projective warp), so
//! mildly curved paper comes out straight as long as the lattice intersections follow it.
//! It does not find the lattice (see `detect`) nor normalize cells (see `normalize`).

use image::{GrayImage, Luma, imageops};

use super::{Lattice, Point, Polarity};
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
    let at = pixel_centres(s);
    for row in 0..9 {
        for col in 0..9 {
            let raw: &mut [u8] = &mut out;
            let offset = (row * s * side + col * s) as usize;
            warp_cell(image, lattice, (row, col), &at, raw, offset, side as usize);
        }
    }
    out
}

/// A cell's pixel centres in its unit square, along a row (the same along a column), for
/// cells of `s` pixels a side.
fn pixel_centres(s: u32) -> Vec<f32> {
    (0..s).map(|i| (i as f32 + 0.5) / s as f32).collect()
}

/// Warps cell `(row, col)` of `lattice` by its own 4-corner homography into `out`, whose
/// rows are `stride` bytes apart, its top-left pixel at `offset`; `at` holds
/// [`pixel_centres`]. A degenerate cell quad leaves `out` as it was.
fn warp_cell(
    image: &GrayImage,
    lattice: &Lattice,
    (row, col): (u32, u32),
    at: &[f32],
    out: &mut [u8],
    offset: usize,
    stride: usize,
) {
    let Some(h) = Homography::from_unit_square(lattice.cell_quad(row as usize, col as usize))
    else {
        return;
    };
    // The raster comes a row at a time, `s` points a row: each row fills the cell's row of
    // pixels in `out` (no division and no `put_pixel` per pixel).
    let s = at.len();
    let sampler = GraySampler::new(image);
    let mut start = offset;
    h.map_raster_rows(at, at, |xs, ys| {
        // The cell lies inside `out` (`warp_grid` places it), so the row always does.
        if let Some(row) = out.get_mut(start..start + s) {
            for ((px, &x), &y) in row.iter_mut().zip(xs).zip(ys) {
                *px = sampler.at(Point::new(x, y));
            }
        }
        start += stride;
    });
}

/// The classifier inputs of the grid under `lattice`: [`grid_cell_crops`], then
/// [`super::normalize_cells`] (ink polarity decided over the whole grid). The one path from
/// a photo to model input, used by inference and by training-data export alike.
pub fn cell_inputs(image: &GrayImage, lattice: &Lattice, cell_size_px: u32) -> Vec<Vec<f32>> {
    super::normalize_cells(&grid_cell_crops(image, lattice, cell_size_px))
}

/// The 81 cell crops of the grid under `lattice`, row-major: [`warp_grid`], then
/// [`cell_crops`].
pub fn grid_cell_crops(image: &GrayImage, lattice: &Lattice, cell_size_px: u32) -> Vec<GrayImage> {
    cell_crops(&warp_grid(image, lattice, cell_size_px), cell_size_px)
}

/// The classifier inputs of only the cells `cells` (row-major indices; those past 80 are
/// skipped) of the grid under `lattice`, in that order, for a grid of ink polarity
/// `polarity`: what [`super::normalize_cells_as`] makes of their [`grid_cell_crops`], warping
/// no other cell.
pub fn cell_inputs_of(
    image: &GrayImage,
    lattice: &Lattice,
    cells: &[usize],
    cell_size_px: u32,
    polarity: Polarity,
) -> Vec<Vec<f32>> {
    let s = cell_size_px.clamp(1, 1024);
    let at = pixel_centres(s);
    let crops: Vec<GrayImage> = cells
        .iter()
        .filter(|&&i| i < 81)
        .map(|&i| {
            let mut crop = GrayImage::from_pixel(s, s, Luma([255]));
            let raw: &mut [u8] = &mut crop;
            warp_cell(
                image,
                lattice,
                (i as u32 / 9, i as u32 % 9),
                &at,
                raw,
                0,
                s as usize,
            );
            crop
        })
        .collect();
    super::normalize_cells_as(&crops, polarity)
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

/// Bilinear samples of one image (pixel centres on integers; outside reads as 255, paper),
/// its size and samples borrowed once rather than per lookup (a grid warp takes a hundred
/// thousand).
struct GraySampler<'a> {
    raw: &'a [u8],
    width: u32,
    height: u32,
    /// The largest coordinates a sample may have, `width − 0.5` and `height − 0.5`.
    max_x: f32,
    max_y: f32,
    /// The last column and row, as coordinates.
    last_x: f32,
    last_y: f32,
}

impl<'a> GraySampler<'a> {
    fn new(image: &'a GrayImage) -> GraySampler<'a> {
        let (width, height) = image.dimensions();
        GraySampler {
            raw: image.as_raw(),
            width,
            height,
            max_x: width as f32 - 0.5,
            max_y: height as f32 - 0.5,
            last_x: width.saturating_sub(1) as f32,
            last_y: height.saturating_sub(1) as f32,
        }
    }

    /// The sample at `p`, or 255 (paper) outside the image.
    #[inline]
    fn at(&self, p: Point) -> u8 {
        if !p.is_finite() || self.width == 0 || self.height == 0 {
            return 255;
        }
        if p.x < -0.5 || p.y < -0.5 || p.x > self.max_x || p.y > self.max_y {
            return 255;
        }
        let x = p.x.clamp(0.0, self.last_x);
        let y = p.y.clamp(0.0, self.last_y);
        // Non-negative, so adding one half and truncating rounds half away from zero like
        // `f32::round`; `as u8` saturates at 255.
        (interpolate_raw(self.raw, self.width, self.height, x, y) + 0.5) as u8
    }
}

/// Bilinear interpolation of `image` at `(x, y)`, which must lie in `[0, w − 1] × [0, h − 1]`
/// (callers check their own bounds).
pub(crate) fn interpolate(image: &GrayImage, x: f32, y: f32) -> f32 {
    let (w, h) = image.dimensions();
    interpolate_raw(image.as_raw(), w, h, x, y)
}

/// [`interpolate`] over a `w`×`h` image's samples `raw` (a sample outside `raw` reads as 255,
/// which callers that keep to the bounds never meet).
#[inline]
fn interpolate_raw(raw: &[u8], w: u32, h: u32, x: f32, y: f32) -> f32 {
    // x, y ≥ 0 here, so truncation is floor (and avoids a libm call per pixel).
    let x0 = x as u32;
    let y0 = y as u32;
    let x1 = (x0 + 1).min(w.saturating_sub(1));
    let y1 = (y0 + 1).min(h.saturating_sub(1));
    let fx = x - x0 as f32;
    let fy = y - y0 as f32;
    let at = |xx: u32, yy: u32| {
        raw.get((yy * w + xx) as usize)
            .map_or(255.0, |&v| f32::from(v))
    };
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
    fn cells_cut_on_their_own_match_the_whole_grid_cut() {
        let mut img = GrayImage::from_pixel(200, 160, Luma([230]));
        for y in 0..160 {
            for x in 0..200 {
                if (x * 7 + y * 3) % 23 < 5 {
                    img.put_pixel(x, y, Luma([30]));
                }
            }
        }
        let lattice = Lattice::from_corners([
            Point::new(20.5, 12.0),
            Point::new(181.0, 18.5),
            Point::new(176.0, 150.0),
            Point::new(14.0, 141.5),
        ])
        .shifted_by_cells(0.06, -0.06);
        let all = cell_inputs(&img, &lattice, 40);
        let polarity = crate::vision::grid_polarity(&grid_cell_crops(&img, &lattice, 40));
        let cells = [80, 0, 40, 13, 99];
        let some = cell_inputs_of(&img, &lattice, &cells, 40, polarity);
        assert_eq!(some.len(), 4, "index 99 is skipped");
        for (input, &i) in some.iter().zip(&cells) {
            assert_eq!(input, &all[i], "cell {i}");
        }
    }

    #[test]
    fn a_shifted_lattice_moves_by_its_own_cell_sides() {
        // Cells 10 px wide and 20 px high: a tenth of a cell right and a quarter down.
        let lattice = Lattice::from_corners([
            Point::new(0.0, 0.0),
            Point::new(90.0, 0.0),
            Point::new(90.0, 180.0),
            Point::new(0.0, 180.0),
        ]);
        let moved = lattice.shifted_by_cells(0.1, 0.25);
        for r in 0..10 {
            for c in 0..10 {
                let (a, b) = (lattice.points_in_image[r][c], moved.points_in_image[r][c]);
                assert!((b.x - a.x - 1.0).abs() < 1e-3 && (b.y - a.y - 5.0).abs() < 1e-3);
            }
        }
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
