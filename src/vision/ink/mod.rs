//! How the ink of each cell looks, in colour: the measurements that tell a newspaper's printed
//! digits from a solver's pen or pencil (`digits::style` turns them into a decision).
//!
//! For every cell of a located [`Lattice`] the cell is sampled on a square patch, split into
//! paper and ink, and the glyph (the ink components that are not grid-line remnants) is
//! measured: its ink colour against the cell's paper, its box in cell units, its stroke width
//! and its share of the patch. The grid lines' own ink is measured once per photo, because a
//! puzzle's givens are printed with the grid, in the same ink. Pure arithmetic over an
//! `RgbImage`; it does not read digits or decide anything.

mod glyph;

use image::RgbImage;

use self::glyph::{clear_line_remnants, glyph_mask};
use super::geometry::Homography;
use super::{Lattice, Point};

/// Most samples along a side of the square patch a cell is sampled on.
pub const PATCH_SAMPLES: usize = 64;

/// Fewest samples along a side of a cell's patch.
const MIN_PATCH_SAMPLES: usize = 32;

/// Samples per pixel of the cell's inner square along a side, below [`PATCH_SAMPLES`]: more
/// than one so that a glyph's area and box are measured finer than the pixels (bilinear
/// samples between them), but no more, since finer samples of a small cell (a webcam frame's
/// 30 px) only interpolate the same pixels again at four times the cost.
const SAMPLES_PER_PX: f32 = 1.5;

/// Share of the cell side left out at each border of the patch (grid lines).
const INSET: f32 = 0.07;

/// Columns and rows of a glyph's shape ([`CellInk::shape`]), resampled over its box.
pub const SHAPE_COLS: usize = 12;
/// Rows of a glyph's shape.
pub const SHAPE_ROWS: usize = 16;

/// A colour as floating-point RGB (0–255 per channel).
pub type Rgb = [f32; 3];

/// Rec. 709 luma of a colour.
pub fn luma(c: Rgb) -> f32 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

/// The ink of one cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellInk {
    /// Mean colour of the cell's lightest 40 % of samples.
    pub paper: Rgb,
    /// Mean colour of the glyph's darker half of ink samples (the strokes' core).
    pub ink: Rgb,
    /// Glyph box, in cell units of the patch (`0..1`, left/top/right/bottom).
    pub bbox: [f32; 4],
    /// Share of the patch's samples that belong to the glyph.
    pub ink_share: f32,
    /// Mean stroke width (twice the area over the perimeter), in cell units.
    pub stroke: f32,
    /// The glyph's shape: ink weight (0 paper … 1 ink) on a [`SHAPE_COLS`]×[`SHAPE_ROWS`]
    /// raster stretched over its box, row-major (two prints of one digit in one font look
    /// alike here; two handwritten ones less so).
    pub shape: [f32; SHAPE_COLS * SHAPE_ROWS],
}

/// The ink of the grid lines of a photo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineInk {
    /// Median colour of the darkest sample across each line crossing.
    pub ink: Rgb,
    /// Median colour of the paper at the cell centres' surroundings (lightest samples).
    pub paper: Rgb,
}

/// The measured ink of a photo's grid: the lines, and each of the 81 cells (row-major, in the
/// lattice's order; `None` where the cell holds no glyph or cannot be sampled).
#[derive(Clone, Debug, PartialEq)]
pub struct GridInk {
    /// The grid lines' ink, `None` when the lines cannot be sampled.
    pub lines: Option<LineInk>,
    /// Per cell, row-major.
    pub cells: Vec<Option<CellInk>>,
}

/// Measures the ink of the grid under `lattice` in `image` (see the module doc): the lines,
/// and the cells `wanted(index)` asks for (row-major; the others are `None`). Light ink on a
/// dark ground (an inverted screen) is measured on the inverted colours, so ink is always
/// the darker side. Never panics.
pub fn measure_grid(
    image: &RgbImage,
    lattice: &Lattice,
    wanted: impl Fn(usize) -> bool,
) -> GridInk {
    let raw_lines = line_samples(image, lattice);
    let invert = match &raw_lines {
        Some((ink, paper)) => luma(*ink) > luma(*paper),
        None => false,
    };
    let lines = raw_lines.map(|(ink, paper)| LineInk {
        ink: flip(ink, invert),
        paper: flip(paper, invert),
    });
    let n = patch_samples(lattice.mean_side() / 9.0);
    let cells = (0..81)
        .map(|i| {
            if !wanted(i) {
                return None;
            }
            let quad = lattice.cell_quad(i / 9, i % 9);
            let patch = sample_patch(image, quad, invert, n)?;
            measure_patch(&patch, n)
        })
        .collect();
    GridInk { lines, cells }
}

fn flip(c: Rgb, invert: bool) -> Rgb {
    if invert { c.map(|v| 255.0 - v) } else { c }
}

/// Samples along a side of the patch of a cell `cell_px` pixels wide: [`SAMPLES_PER_PX`] over
/// its inner square, rounded up to a multiple of 8, within
/// [`MIN_PATCH_SAMPLES`]..=[`PATCH_SAMPLES`] (any photo's cells of about 50 px or more get the
/// most).
fn patch_samples(cell_px: f32) -> usize {
    let wanted = SAMPLES_PER_PX * (1.0 - 2.0 * INSET) * cell_px;
    // `as` saturates (NaN gives 0), and the clamp bounds the result.
    ((wanted / 8.0).ceil() as usize * 8).clamp(MIN_PATCH_SAMPLES, PATCH_SAMPLES)
}

/// The cell's patch: `n²` colours over the cell's inner square, row-major.
fn sample_patch(image: &RgbImage, quad: [Point; 4], invert: bool, n: usize) -> Option<Vec<Rgb>> {
    let h = Homography::from_unit_square(quad)?;
    // The patch's unit-square coordinates along a row (the same along a column).
    let at: Vec<f32> = (0..n)
        .map(|i| INSET + (1.0 - 2.0 * INSET) * (i as f32 + 0.5) / n as f32)
        .collect();
    let sampler = Bilinear::new(image);
    let mut patch = Vec::with_capacity(n * n);
    let mut inside = 0usize;
    h.map_raster_rows(&at, &at, |xs, ys| {
        for (&x, &y) in xs.iter().zip(ys) {
            let c = sampler.at(Point::new(x, y));
            inside += usize::from(c.is_some());
            patch.push(flip(c.unwrap_or([255.0; 3]), invert));
        }
    });
    (inside * 2 >= n * n).then_some(patch)
}

/// Bilinear colour lookups in one image (its size and samples borrowed once, not per lookup).
struct Bilinear<'a> {
    raw: &'a [u8],
    width: usize,
    /// The largest coordinates in the image.
    max_x: f32,
    max_y: f32,
    /// The last column and row with a right and a lower neighbour sample.
    last_x: usize,
    last_y: usize,
}

impl<'a> Bilinear<'a> {
    fn new(image: &'a RgbImage) -> Bilinear<'a> {
        let (w, h) = image.dimensions();
        Bilinear {
            raw: image.as_raw(),
            width: w as usize,
            max_x: w as f32 - 1.0,
            max_y: h as f32 - 1.0,
            last_x: (w as usize).saturating_sub(2),
            last_y: (h as usize).saturating_sub(2),
        }
    }

    /// The colour at `p`; `None` outside the image (or in one narrower than two samples).
    #[inline]
    fn at(&self, p: Point) -> Option<Rgb> {
        // Also false for NaN coordinates.
        if !(p.x >= 0.0 && p.y >= 0.0 && p.x <= self.max_x && p.y <= self.max_y)
            || self.max_x < 1.0
            || self.max_y < 1.0
        {
            return None;
        }
        // Within 0..=max_x (and max_y) here, so the narrower cast truncates the same way.
        let x0 = (p.x as u32 as usize).min(self.last_x);
        let y0 = (p.y as u32 as usize).min(self.last_y);
        let fx = p.x - x0 as f32;
        let fy = p.y - y0 as f32;
        let (gx, gy) = (1.0 - fx, 1.0 - fy);
        let i = 3 * (y0 * self.width + x0);
        let j = i + 3 * self.width;
        // In bounds by the checks above: x0 + 1 < width, y0 + 1 < height.
        let (Some(top), Some(bottom)) = (self.raw.get(i..i + 6), self.raw.get(j..j + 6)) else {
            return None;
        };
        let mix = |k: usize| {
            let (a, b) = (f32::from(top[k]), f32::from(top[k + 3]));
            let (c, d) = (f32::from(bottom[k]), f32::from(bottom[k + 3]));
            (a * gx + b * fx) * gy + (c * gx + d * fx) * fy
        };
        Some([mix(0), mix(1), mix(2)])
    }
}

/// Mean of a set of colours (`[0; 3]` for none).
fn mean(colours: impl Iterator<Item = Rgb>) -> Rgb {
    let mut sum = [0.0f32; 3];
    let mut n = 0usize;
    for c in colours {
        for k in 0..3 {
            sum[k] += c[k];
        }
        n += 1;
    }
    sum.map(|s| s / n.max(1) as f32)
}

/// Componentwise median of colours (`None` for none).
fn median(mut colours: Vec<Rgb>) -> Option<Rgb> {
    if colours.is_empty() {
        return None;
    }
    let mid = colours.len() / 2;
    let mut out = [0.0f32; 3];
    for (k, o) in out.iter_mut().enumerate() {
        colours.sort_by(|a, b| a[k].total_cmp(&b[k]));
        *o = colours[mid][k];
    }
    Some(out)
}

/// The grid lines' ink and the paper: across each inner line segment between neighbouring
/// intersections (the outer border too), at a few places along it, the darkest (by luma) of a
/// short perpendicular run of samples is the line's ink and the lightest the paper.
fn line_samples(image: &RgbImage, lattice: &Lattice) -> Option<(Rgb, Rgb)> {
    let p = &lattice.points_in_image;
    let reach = lattice.mean_side() / 9.0 * 0.12;
    let sampler = Bilinear::new(image);
    let mut inks = Vec::new();
    let mut papers = Vec::new();
    let mut segments = Vec::new();
    for (a, row) in p.iter().enumerate() {
        for b in 0..9 {
            segments.push((row[b], row[b + 1]));
            segments.push((p[b][a], p[b + 1][a]));
        }
    }
    for (s, e) in segments {
        let along = e - s;
        let normal = Point::new(-along.y, along.x).unit();
        for t in [0.3f32, 0.5, 0.7] {
            let centre = s.lerp(e, t);
            let run: Vec<Rgb> = (-4..=4)
                .filter_map(|k| sampler.at(centre + normal.scaled(reach * k as f32 / 4.0)))
                .collect();
            if run.len() < 9 {
                continue;
            }
            let darkest = run
                .iter()
                .copied()
                .min_by(|a, b| luma(*a).total_cmp(&luma(*b)));
            let lightest = run
                .iter()
                .copied()
                .max_by(|a, b| luma(*a).total_cmp(&luma(*b)));
            if let (Some(d), Some(l)) = (darkest, lightest) {
                inks.push(d);
                papers.push(l);
            }
        }
    }
    Some((median(inks)?, median(papers)?))
}

/// Measures one patch: `None` when it holds no glyph.
fn measure_patch(patch: &[Rgb], n: usize) -> Option<CellInk> {
    let lumas: Vec<f32> = patch.iter().map(|c| luma(*c)).collect();
    // Two ranks of the lumas (selection, not a full sort: the same values).
    let mut sorted = lumas.clone();
    let len = sorted.len();
    let light_from = *sorted
        .select_nth_unstable_by(len * 60 / 100, f32::total_cmp)
        .1;
    let paper = mean(
        patch
            .iter()
            .zip(&lumas)
            .filter(|&(_, &l)| l >= light_from)
            .map(|(c, _)| *c),
    );
    let paper_luma = luma(paper);
    // The first selection left the darkest 60 % in front, the darkest 0.5 % among them.
    let darkest = *sorted[..len * 60 / 100]
        .select_nth_unstable_by(len / 200, f32::total_cmp)
        .1;
    let contrast = paper_luma - darkest;
    if contrast < 12.0 {
        return None;
    }
    let threshold = paper_luma - 0.45 * contrast;
    let mut on: Vec<bool> = lumas.iter().map(|&l| l < threshold).collect();
    clear_line_remnants(&mut on, n);
    let glyph = glyph_mask(&on, n);
    let area = glyph.iter().filter(|&&g| g).count();
    if area < n * n / 200 {
        return None;
    }
    let (mut l, mut t, mut r, mut b) = (n, n, 0, 0);
    let mut perimeter = 0usize;
    for y in 0..n {
        for x in 0..n {
            if !glyph[y * n + x] {
                continue;
            }
            l = l.min(x);
            t = t.min(y);
            r = r.max(x + 1);
            b = b.max(y + 1);
            let edge = x == 0
                || y == 0
                || x + 1 == n
                || y + 1 == n
                || !glyph[y * n + x - 1]
                || !glyph[y * n + x + 1]
                || !glyph[(y - 1) * n + x]
                || !glyph[(y + 1) * n + x];
            perimeter += usize::from(edge);
        }
    }
    // The strokes' core: the darker half of the glyph's samples.
    let mut ink_lumas: Vec<f32> = (0..n * n).filter(|&i| glyph[i]).map(|i| lumas[i]).collect();
    let mid = ink_lumas.len() / 2;
    let core_below = *ink_lumas.select_nth_unstable_by(mid, f32::total_cmp).1;
    let ink = mean(
        (0..n * n)
            .filter(|&i| glyph[i] && lumas[i] <= core_below)
            .map(|i| patch[i]),
    );
    let weight = |i: usize| ((paper_luma - lumas[i]) / contrast).clamp(0.0, 1.0);
    let shape = std::array::from_fn(|k| {
        let (sx, sy) = (k % SHAPE_COLS, k / SHAPE_COLS);
        // The mean ink weight of the patch samples that fall in this raster cell.
        let x0 = l + (r - l) * sx / SHAPE_COLS;
        let x1 = (l + (r - l) * (sx + 1) / SHAPE_COLS).max(x0 + 1);
        let y0 = t + (b - t) * sy / SHAPE_ROWS;
        let y1 = (t + (b - t) * (sy + 1) / SHAPE_ROWS).max(y0 + 1);
        let mut sum = 0.0;
        for y in y0..y1.min(n) {
            for x in x0..x1.min(n) {
                sum += weight(y * n + x);
            }
        }
        sum / ((y1 - y0) * (x1 - x0)) as f32
    });
    let scale = 1.0 - 2.0 * INSET;
    let to_cell = |s: usize| INSET + scale * s as f32 / n as f32;
    Some(CellInk {
        paper,
        ink,
        bbox: [to_cell(l), to_cell(t), to_cell(r), to_cell(b)],
        ink_share: area as f32 / (n * n) as f32,
        stroke: scale * 2.0 * area as f32 / perimeter.max(1) as f32 / n as f32,
        shape,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 9×9 grid of 30-px cells with black lines, and a glyph drawn by `draw` into some cells.
    fn grid(draw: impl Fn(usize, u32, u32) -> Option<[u8; 3]>) -> (RgbImage, Lattice) {
        let cell = 30u32;
        let side = 9 * cell + 1;
        let img = RgbImage::from_fn(side, side, |x, y| {
            if x % cell == 0 || y % cell == 0 {
                return image::Rgb([20, 20, 20]);
            }
            let i = (y / cell * 9 + x / cell) as usize;
            match draw(i, x % cell, y % cell) {
                Some(c) => image::Rgb(c),
                None => image::Rgb([235, 230, 220]),
            }
        });
        let s = (9 * cell) as f32;
        let lattice = Lattice::from_corners([
            Point::new(0.0, 0.0),
            Point::new(s, 0.0),
            Point::new(s, s),
            Point::new(0.0, s),
        ]);
        (img, lattice)
    }

    #[test]
    fn measures_glyph_box_colour_and_lines() {
        // Cell 0: a black bar 6..24 tall, 12..18 wide; cell 1: a thinner blue bar, shorter.
        let (img, lattice) = grid(|i, x, y| match i {
            0 if (12..18).contains(&x) && (6..24).contains(&y) => Some([15, 15, 15]),
            1 if (14..17).contains(&x) && (9..21).contains(&y) => Some([30, 40, 160]),
            _ => None,
        });
        let ink = measure_grid(&img, &lattice, |i| i != 3);
        let lines = ink.lines.unwrap();
        assert!(
            luma(lines.ink) < 40.0 && luma(lines.paper) > 200.0,
            "{lines:?}"
        );
        let black = ink.cells[0].unwrap();
        let blue = ink.cells[1].unwrap();
        assert!(ink.cells[2].is_none());
        assert!((black.bbox[1] - 0.2).abs() < 0.04 && (black.bbox[3] - 0.8).abs() < 0.04);
        assert!(black.bbox[3] - black.bbox[1] > blue.bbox[3] - blue.bbox[1] + 0.15);
        assert!(black.stroke > blue.stroke, "{black:?} {blue:?}");
        assert!(blue.ink[2] - blue.ink[0] > 80.0 && (black.ink[2] - black.ink[0]).abs() < 10.0);
    }

    #[test]
    fn patch_samples_follow_the_cell_up_to_the_most() {
        assert_eq!(patch_samples(10.0), MIN_PATCH_SAMPLES);
        // A webcam frame's 30 px cell: 1.5 × 0.86 × 30 = 38.7 → 40.
        assert_eq!(patch_samples(30.0), 40);
        assert_eq!(patch_samples(52.0), PATCH_SAMPLES);
        assert_eq!(patch_samples(400.0), PATCH_SAMPLES);
        assert_eq!(patch_samples(f32::NAN), MIN_PATCH_SAMPLES);
    }

    /// The same page at two sizes (30 px cells, sampled on fewer samples, and 60 px cells on
    /// the most) measures alike: the measures are in cell units, not samples.
    #[test]
    fn a_small_cell_measures_like_the_same_cell_larger() {
        let (small, lattice) = grid(|i, x, y| match i {
            0 if (12..18).contains(&x) && (6..24).contains(&y) => Some([15, 15, 15]),
            1 if (10..20).contains(&x) && ((8..11).contains(&y) || (19..22).contains(&y)) => {
                Some([30, 40, 160])
            }
            _ => None,
        });
        let large = image::imageops::resize(
            &small,
            small.width() * 2,
            small.height() * 2,
            image::imageops::FilterType::Nearest,
        );
        let c = lattice.corners().map(|p| Point::new(2.0 * p.x, 2.0 * p.y));
        let a = measure_grid(&small, &lattice, |i| i < 2);
        let b = measure_grid(&large, &Lattice::from_corners(c), |i| i < 2);
        assert!(patch_samples(lattice.mean_side() / 9.0) < PATCH_SAMPLES);
        for i in 0..2 {
            let (a, b) = (a.cells[i].unwrap(), b.cells[i].unwrap());
            for k in 0..4 {
                assert!((a.bbox[k] - b.bbox[k]).abs() < 0.04, "{i}: {a:?} {b:?}");
            }
            assert!(
                (a.ink_share / b.ink_share - 1.0).abs() < 0.15,
                "{i}: {a:?} {b:?}"
            );
            assert!((a.stroke / b.stroke - 1.0).abs() < 0.2, "{i}: {a:?} {b:?}");
            assert!((luma(a.ink) - luma(b.ink)).abs() < 15.0, "{i}: {a:?} {b:?}");
        }
    }

    #[test]
    fn degenerate_lattice_reads_no_cells() {
        let img = RgbImage::new(3, 3);
        let p = Point::new(1.0, 1.0);
        let ink = measure_grid(&img, &Lattice::from_corners([p, p, p, p]), |_| true);
        assert_eq!(ink.cells.len(), 81);
        assert!(ink.cells.iter().all(Option::is_none));
    }
}
