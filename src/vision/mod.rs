//! Computer vision: find the Sudoku grid in a photo, rectify it and cut the 81 cells.
//!
//! Pure functions over `image` buffers; knows nothing of digits models, solving or GUI.
//! The pipeline is [`load_image`] → [`detect()`] (a [`GridDetection`] with a refined 10×10
//! [`Lattice`] of line intersections) → [`rectify::warp_grid`] → [`rectify::cell_crops`] →
//! [`normalize_cell`]. For video, [`LatticeTracker`] turns per-frame detections into a steady
//! Searching / Tracking / Locked state.

mod cells;
pub mod debug;
pub mod detect;
mod faint;
pub mod geometry;
pub mod ink;
pub mod jpeg;
pub mod load;
pub mod normalize;
mod outline;
pub mod rectify;
mod reduce;
mod smooth;
pub mod tracker;

pub use detect::track::track_lattice;
pub use detect::{
    Band, DetectOptions, Effort, Rejection, detect, detect_gray, detect_with, detect_with_colour,
};
pub use geometry::{Homography, Line, Point};
pub use load::{
    LoadError, MAX_IMAGE_PIXELS, colour_of, load_image, load_image_from_memory, rgb_to_gray,
    to_gray,
};
pub use normalize::{
    CELL_INPUT_LEN, CELL_INPUT_PX, CLEAR_POLARITY_SHARE, Polarity, PolarityEvidence, grid_polarity,
    normalize_cell, normalize_cells, normalize_cells_as,
};
pub use tracker::{
    CellFingerprint, LatticeTracker, TrackerConfig, TrackerEvent, TrackerState, TrackerUpdate,
};

use serde::{Deserialize, Serialize};

/// The lowest gray level at which more than `count` pixels of the 8-bit histogram `hist` lie
/// at or below it (`None` for fewer pixels than that): a percentile of a picture's gray
/// levels, for the cell normalization and the tracker's fingerprint alike.
pub(crate) fn level_above(hist: &[u32; 256], count: u32) -> Option<u32> {
    let mut acc = 0u32;
    hist.iter()
        .position(|&c| {
            acc += c;
            acc > count
        })
        .map(|v| v as u32)
}

/// The 10×10 grid-line intersections of a Sudoku in some pixel space, indexed
/// `points[row_line][col_line]` (row line 0 is the top edge, column line 0 the left edge).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lattice {
    /// Intersection points, `points[row_line][col_line]`, in image pixels.
    pub points_in_image: [[Point; 10]; 10],
}

impl Lattice {
    /// The lattice of a perfectly flat grid whose outer corners are `corners_in_image`
    /// (TL, TR, BR, BL): every intersection is placed by the one homography of the square.
    /// Degenerate corners (collinear, non-finite) fall back to bilinear interpolation, so this
    /// never fails.
    pub fn from_corners(corners_in_image: [Point; 4]) -> Lattice {
        let h = Homography::from_unit_square(corners_in_image);
        let mut points_in_image = [[Point::default(); 10]; 10];
        for (r, row) in points_in_image.iter_mut().enumerate() {
            for (c, p) in row.iter_mut().enumerate() {
                let (u, v) = (c as f32 / 9.0, r as f32 / 9.0);
                *p = match h {
                    Some(h) => h.apply(Point::new(u, v)),
                    None => bilinear(corners_in_image, u, v),
                };
                if !p.is_finite() {
                    *p = bilinear(corners_in_image, u, v);
                }
            }
        }
        Lattice { points_in_image }
    }

    /// The lattice moved by `dx_cells` of a cell side along its rows and `dy_cells` along its
    /// columns, each intersection by its own neighbourhood's spacing (the mean of the cells on
    /// either side; the border lines by the one cell inside), so a perspective grid keeps its
    /// shape. The spacing reads the same from either end of a line, so the lattice of a turned
    /// picture, indexed the other way round, moves the same.
    pub fn shifted_by_cells(&self, dx_cells: f32, dy_cells: f32) -> Lattice {
        let p = &self.points_in_image;
        // The cell side at line `i` of 10, from the points before and after it.
        let spacing = |before: Point, at: Point, after: Point, i: usize| match i {
            0 => after - at,
            9 => at - before,
            _ => (after - before).scaled(0.5),
        };
        let points_in_image = std::array::from_fn(|r| {
            std::array::from_fn(|c| {
                let along_row =
                    spacing(p[r][c.saturating_sub(1)], p[r][c], p[r][(c + 1).min(9)], c);
                let along_col =
                    spacing(p[r.saturating_sub(1)][c], p[r][c], p[(r + 1).min(9)][c], r);
                p[r][c] + along_row.scaled(dx_cells) + along_col.scaled(dy_cells)
            })
        });
        Lattice { points_in_image }
    }

    /// The outer corners (TL, TR, BR, BL).
    pub fn corners(&self) -> [Point; 4] {
        let p = &self.points_in_image;
        [p[0][0], p[0][9], p[9][9], p[9][0]]
    }

    /// The four corners (TL, TR, BR, BL) of cell `(row, col)`, both in `0..9`
    /// (out-of-range indices are clamped).
    pub fn cell_quad(&self, row: usize, col: usize) -> [Point; 4] {
        let (r, c) = (row.min(8), col.min(8));
        let p = &self.points_in_image;
        [p[r][c], p[r][c + 1], p[r + 1][c + 1], p[r + 1][c]]
    }

    /// The centre of cell `(row, col)` (mean of its four corners).
    pub fn cell_centre(&self, row: usize, col: usize) -> Point {
        let q = self.cell_quad(row, col);
        Point::new(
            (q[0].x + q[1].x + q[2].x + q[3].x) / 4.0,
            (q[0].y + q[1].y + q[2].y + q[3].y) / 4.0,
        )
    }

    /// Mean length of the four outer sides, in pixels.
    pub fn mean_side(&self) -> f32 {
        mean_side(self.corners())
    }

    /// Largest distance between corresponding intersections of `self` and `other`.
    pub fn max_distance(&self, other: &Lattice) -> f32 {
        let mut worst = 0.0f32;
        for r in 0..10 {
            for c in 0..10 {
                worst = worst.max(self.points_in_image[r][c].distance(other.points_in_image[r][c]));
            }
        }
        worst
    }

    /// This lattice with every point mapped by `f` (e.g. to change pixel scale).
    pub fn map(&self, f: impl Fn(Point) -> Point) -> Lattice {
        Lattice {
            points_in_image: self.points_in_image.map(|row| row.map(&f)),
        }
    }
}

/// Mean side length of a TL, TR, BR, BL quadrilateral.
pub fn mean_side(corners: [Point; 4]) -> f32 {
    (0..4)
        .map(|i| corners[i].distance(corners[(i + 1) % 4]))
        .sum::<f32>()
        / 4.0
}

fn bilinear(q: [Point; 4], u: f32, v: f32) -> Point {
    let top = q[0].lerp(q[1], u);
    let bottom = q[3].lerp(q[2], u);
    top.lerp(bottom, v)
}

/// A Sudoku grid found in an image.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridDetection {
    /// Outer corners of the grid (TL, TR, BR, BL as the puzzle reads), in image pixels.
    pub corners_in_image: [Point; 4],
    /// All 10×10 refined line intersections, `[row_line][col_line]`, in image pixels.
    pub lattice_in_image: [[Point; 10]; 10],
    /// Confidence in `0.0..=1.0`: mostly the share of lattice edges backed by ink.
    pub score: f32,
}

impl GridDetection {
    /// The refined lattice as a [`Lattice`].
    pub fn lattice(&self) -> Lattice {
        Lattice {
            points_in_image: self.lattice_in_image,
        }
    }
}

/// Why no grid was reported.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NoGrid {
    /// The image is too small to hold a readable grid.
    #[error("image is too small ({width}×{height} px) to hold a Sudoku grid")]
    TooSmall {
        /// Image width in pixels.
        width: u32,
        /// Image height in pixels.
        height: u32,
    },
    /// No ink region large and square enough to be a grid outline.
    #[error("no quadrilateral outline large enough to be a grid")]
    NoOutline,
    /// Outlines were found, but none carries a 9×9 lattice of grid lines; the reason is the
    /// last candidate's.
    #[error("no 9×9 lattice of grid lines ({0})")]
    NoLattice(Rejection),
}
