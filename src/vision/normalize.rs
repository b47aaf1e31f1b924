//! Cell normalization: the one function that turns a cell crop into classifier input.
//!
//! Owned here and used by both inference (`digits`) and training-data export, so the model
//! always sees exactly what it was trained on. It knows nothing of the model itself.

use image::{GrayImage, imageops};

use super::level_above;

/// Side of the square classifier input, in pixels.
pub const CELL_INPUT_PX: u32 = 32;

/// Number of values in one normalized cell (`CELL_INPUT_PX²`).
pub const CELL_INPUT_LEN: usize = (CELL_INPUT_PX * CELL_INPUT_PX) as usize;

/// Fraction of the crop's side trimmed on each edge before resizing: drops most of the grid
/// line while keeping digits that sit off-centre.
pub const CELL_MARGIN_FRACTION: f32 = 0.08;

/// Smallest paper-to-ink spread (in 8-bit levels) that is stretched to full range; flatter
/// crops (empty cells) are scaled by this instead, so sensor noise is not blown up into "ink".
const MIN_CONTRAST: f32 = 48.0;

/// Normalizes one cell crop (the whole cell, edge to edge, any size ≥ 4×4 px) into
/// `CELL_INPUT_LEN` values, row-major, where paper is ≈0.0 and ink ≈1.0.
///
/// Steps: trim [`CELL_MARGIN_FRACTION`] per side, resize to [`CELL_INPUT_PX`]² (triangle
/// filter), then map the paper level (80th percentile) to 0 and the ink level (2nd percentile) to
/// 1, clamping. Deterministic; never panics (a crop smaller than 4 px is upscaled first).
pub fn normalize_cell(crop: &GrayImage) -> Vec<f32> {
    let (w, h) = crop.dimensions();
    let mut out = Vec::with_capacity(CELL_INPUT_LEN);
    if w == 0 || h == 0 {
        out.resize(CELL_INPUT_LEN, 0.0);
        return out;
    }
    let mx = ((w as f32) * CELL_MARGIN_FRACTION).round() as u32;
    let my = ((h as f32) * CELL_MARGIN_FRACTION).round() as u32;
    let inner_w = w.saturating_sub(2 * mx).max(1);
    let inner_h = h.saturating_sub(2 * my).max(1);
    let inner = imageops::crop_imm(crop, mx.min(w - 1), my.min(h - 1), inner_w, inner_h).to_image();
    let small = resize_triangle(&inner, CELL_INPUT_PX, CELL_INPUT_PX);
    let mut hist = [0u32; 256];
    for p in small.pixels() {
        hist[p.0[0] as usize] += 1;
    }
    let n = CELL_INPUT_LEN as u32;
    let percentile =
        |q: f32| -> f32 { level_above(&hist, ((n as f32) * q) as u32).map_or(255.0, |v| v as f32) };
    let paper = percentile(0.80);
    let ink = percentile(0.02);
    let spread = (paper - ink).max(MIN_CONTRAST);
    for p in small.pixels() {
        let v = (paper - p.0[0] as f32) / spread;
        out.push(v.clamp(0.0, 1.0));
    }
    out
}

/// `image` resampled to `new_w`×`new_h` with a triangle filter: exactly what
/// `imageops::resize` with `FilterType::Triangle` gives (the same weights, the same `f32` sums
/// in the same order, checked against it by a property test), since the model was trained on
/// its output. It works on one channel, where the generic one carries four in float buffers
/// and costs most of a cell's normalization.
fn resize_triangle(image: &GrayImage, new_w: u32, new_h: u32) -> GrayImage {
    let (w, h) = image.dimensions();
    if w == 0 || h == 0 || new_w == 0 || new_h == 0 {
        return GrayImage::new(new_w, new_h);
    }
    if (w, h) == (new_w, new_h) {
        return image.clone();
    }
    let (w, new_w, new_h) = (w as usize, new_w as usize, new_h as usize);
    let raw = image.as_raw();
    // Rows first (into floats), then columns, as `imageops::resize` does.
    let mut rows = vec![0f32; w * new_h];
    for (out, (top, weights)) in rows.chunks_exact_mut(w).zip(triangle_taps(h, new_h as u32)) {
        for (x, o) in out.iter_mut().enumerate() {
            let mut t = 0.0f32;
            for (i, wt) in weights.iter().enumerate() {
                t += f32::from(raw[(top + i) * w + x]) * wt;
            }
            *o = t;
        }
    }
    let mut out = vec![0u8; new_w * new_h];
    for (x, (left, weights)) in triangle_taps(w as u32, new_w as u32)
        .into_iter()
        .enumerate()
    {
        for (y, row) in rows.chunks_exact(w).enumerate() {
            let mut t = 0.0f32;
            for (i, wt) in weights.iter().enumerate() {
                t += row[left + i] * wt;
            }
            // In 0..=255 after the clamp, so the cast is exact.
            out[y * new_w + x] = t.clamp(0.0, 255.0).round() as u8;
        }
    }
    GrayImage::from_raw(new_w as u32, new_h as u32, out)
        .unwrap_or_else(|| GrayImage::new(new_w as u32, new_h as u32))
}

/// For each of `dst` output samples along an axis of `src` input samples: the first input
/// sample it draws on and the normalized triangle weights of those it draws on (the
/// arithmetic of `imageops::resize`, step for step).
fn triangle_taps(src: u32, dst: u32) -> Vec<(usize, Vec<f32>)> {
    let ratio = src as f32 / dst as f32;
    let sratio = if ratio < 1.0 { 1.0 } else { ratio };
    let support = sratio;
    (0..dst)
        .map(|o| {
            let centre = (o as f32 + 0.5) * ratio;
            let left = ((centre - support).floor() as i64).clamp(0, i64::from(src) - 1);
            let right = ((centre + support).ceil() as i64).clamp(left + 1, i64::from(src));
            let centre = centre - 0.5;
            let mut weights: Vec<f32> = (left..right)
                .map(|i| {
                    let x = ((i as f32 - centre) / sratio).abs();
                    if x < 1.0 { 1.0 - x } else { 0.0 }
                })
                .collect();
            let sum: f32 = weights.iter().fold(0.0, |s, w| s + w);
            if sum > 0.0 {
                weights.iter_mut().for_each(|w| *w /= sum);
            }
            (left as usize, weights)
        })
        .collect()
}

/// Which way a grid's ink differs from its paper.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Polarity {
    /// Dark digits on light paper: print, light app themes.
    DarkOnLight,
    /// Light digits on a dark ground: dark app themes, dark tiles.
    LightOnDark,
}

/// Levels by which a pixel must differ from its crop's median to count as ink.
const POLARITY_DELTA: i32 = 24;

/// How much ink of each polarity a crop holds: the summed level differences from the crop's
/// median of the pixels at least [`POLARITY_DELTA`] darker and lighter, over the crop's
/// middle (the outer fifth, where grid lines sit, is left out).
fn ink_masses(crop: &GrayImage) -> (f32, f32) {
    let (w, h) = crop.dimensions();
    let (x0, x1, y0, y1) = (w / 5, w - w / 5, h / 5, h - h / 5);
    if x1 <= x0 || y1 <= y0 {
        return (0.0, 0.0);
    }
    let mut hist = [0u32; 256];
    for y in y0..y1 {
        for x in x0..x1 {
            hist[crop.get_pixel(x, y).0[0] as usize] += 1;
        }
    }
    let n = (x1 - x0) * (y1 - y0);
    let mut acc = 0;
    let mut median = 0i32;
    for (v, &c) in hist.iter().enumerate() {
        acc += c;
        if 2 * acc >= n {
            median = v as i32;
            break;
        }
    }
    let (mut dark, mut light) = (0.0f32, 0.0f32);
    for (v, &c) in hist.iter().enumerate() {
        let d = v as i32 - median;
        if d <= -POLARITY_DELTA {
            dark += (-d * c as i32) as f32;
        } else if d >= POLARITY_DELTA {
            light += (d * c as i32) as f32;
        }
    }
    let area = n as f32;
    (dark / area, light / area)
}

/// The grid's ink polarity, from all its cell crops: whichever of darker or lighter ink
/// carries more mass ([`PolarityEvidence::polarity`]). A dark-mode screenshot has light
/// digits; its lines may be lighter or darker than the cells (tiles on a darker ground), so
/// the digits decide, not the lines. Ties (a blank grid) read as [`Polarity::DarkOnLight`].
pub fn grid_polarity(crops: &[GrayImage]) -> Polarity {
    PolarityEvidence::of(crops).polarity()
}

/// The less massive polarity's ink must stay under this share of the other's for the masses
/// alone to settle a grid's polarity ([`PolarityEvidence::is_clear`]). Photos of the shared
/// sets measure under 0.3, screenshots under 0.3 or over 3.3 (one in 200 between); webcam
/// frames of pages with bold digits that fill the cell's middle (its median is then ink, and
/// the paper around the strokes counts as light ink) or with shaded boxes come out between
/// 0.3 and 1.7.
pub const CLEAR_POLARITY_SHARE: f32 = 0.5;

/// The ink masses behind [`grid_polarity`]: summed over a grid's cell crops, the level
/// differences from each crop's median of its darker and of its lighter pixels.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PolarityEvidence {
    /// Mass of the pixels darker than their crop's median.
    pub dark: f32,
    /// Mass of the pixels lighter than their crop's median.
    pub light: f32,
}

impl PolarityEvidence {
    /// The evidence of a grid's cell crops.
    pub fn of(crops: &[GrayImage]) -> PolarityEvidence {
        let (dark, light) = crops
            .iter()
            .map(ink_masses)
            .fold((0.0, 0.0), |(d, l), (cd, cl)| (d + cd, l + cl));
        PolarityEvidence { dark, light }
    }

    /// The polarity with more ink mass (dark on light for a tie).
    pub fn polarity(&self) -> Polarity {
        if self.light > self.dark {
            Polarity::LightOnDark
        } else {
            Polarity::DarkOnLight
        }
    }

    /// Whether the masses settle the polarity: the smaller is under [`CLEAR_POLARITY_SHARE`]
    /// of the larger (a blank grid, with neither, is clear: there is nothing to read).
    pub fn is_clear(&self) -> bool {
        let (small, large) = (self.dark.min(self.light), self.dark.max(self.light));
        small < CLEAR_POLARITY_SHARE * large || large <= 0.0
    }
}

impl Polarity {
    /// The other polarity.
    pub fn other(self) -> Polarity {
        match self {
            Polarity::DarkOnLight => Polarity::LightOnDark,
            Polarity::LightOnDark => Polarity::DarkOnLight,
        }
    }
}

/// Classifier inputs for a grid's 81 (or any number of) cell crops: each crop is normalized
/// by [`normalize_cell`] after turning its ink dark, so light-on-dark grids read like print.
/// The grid's polarity ([`grid_polarity`]) decides, except in a cell whose own ink is clearly
/// of the other polarity (four times the mass, and a stroke's worth): a selected cell drawn as
/// a white digit on a coloured fill in a light theme.
pub fn normalize_cells(crops: &[GrayImage]) -> Vec<Vec<f32>> {
    normalize_cells_as(crops, grid_polarity(crops))
}

/// [`normalize_cells`] for crops of a grid whose polarity is already known (`grid`, from its
/// 81 crops): some of its cells cut again.
pub fn normalize_cells_as(crops: &[GrayImage], grid: Polarity) -> Vec<Vec<f32>> {
    crops
        .iter()
        .map(|crop| {
            let (dark, light) = ink_masses(crop);
            let (own, other) = match grid {
                Polarity::DarkOnLight => (dark, light),
                Polarity::LightOnDark => (light, dark),
            };
            // A stroke covering ~5 % of the middle at ≥ 60 levels of contrast.
            let flip = other > 4.0 * own && other > 3.0;
            let invert = (grid == Polarity::LightOnDark) != flip;
            if invert {
                let mut inverted = crop.clone();
                imageops::invert(&mut inverted);
                normalize_cell(&inverted)
            } else {
                normalize_cell(crop)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn blank_cell_is_near_zero() {
        let img = GrayImage::from_pixel(40, 40, Luma([200]));
        let v = normalize_cell(&img);
        assert_eq!(v.len(), CELL_INPUT_LEN);
        assert!(v.iter().all(|&x| x < 0.05));
    }

    #[test]
    fn dark_stroke_is_ink() {
        let mut img = GrayImage::from_pixel(40, 40, Luma([220]));
        for y in 8..32 {
            for x in 18..22 {
                img.put_pixel(x, y, Luma([30]));
            }
        }
        let v = normalize_cell(&img);
        let centre = v[(16 * CELL_INPUT_PX + 16) as usize];
        assert!(centre > 0.8, "centre {centre}");
        assert!(v[0] < 0.05);
    }

    fn stroke_cell(paper: u8, ink: u8) -> GrayImage {
        let mut img = GrayImage::from_pixel(40, 40, Luma([paper]));
        for y in 8..32 {
            for x in 18..23 {
                img.put_pixel(x, y, Luma([ink]));
            }
        }
        img
    }

    #[test]
    fn light_on_dark_grids_read_like_print() {
        let print: Vec<GrayImage> = (0..81)
            .map(|i| {
                if i % 3 == 0 {
                    stroke_cell(230, 30)
                } else {
                    GrayImage::from_pixel(40, 40, Luma([230]))
                }
            })
            .collect();
        let dark: Vec<GrayImage> = (0..81)
            .map(|i| {
                if i % 3 == 0 {
                    stroke_cell(25, 225)
                } else {
                    GrayImage::from_pixel(40, 40, Luma([25]))
                }
            })
            .collect();
        assert_eq!(grid_polarity(&print), Polarity::DarkOnLight);
        assert_eq!(grid_polarity(&dark), Polarity::LightOnDark);
        let (a, b) = (normalize_cells(&print), normalize_cells(&dark));
        for (x, y) in a.iter().zip(&b) {
            let diff = x
                .iter()
                .zip(y)
                .map(|(p, q)| (p - q).abs())
                .fold(0.0, f32::max);
            assert!(diff < 0.05, "inverted grid reads differently ({diff})");
        }
        // The stroke is ink in both.
        assert!(b[0][(16 * CELL_INPUT_PX + 16) as usize] > 0.8);
    }

    #[test]
    fn a_white_digit_on_a_dark_selected_cell_is_read_in_a_light_grid() {
        let mut crops: Vec<GrayImage> = (0..81)
            .map(|i| {
                if i % 4 == 0 {
                    stroke_cell(235, 40)
                } else {
                    GrayImage::from_pixel(40, 40, Luma([235]))
                }
            })
            .collect();
        crops[5] = stroke_cell(60, 250);
        let inputs = normalize_cells(&crops);
        assert!(inputs[5][(16 * CELL_INPUT_PX + 16) as usize] > 0.8);
        assert!(inputs[5][(16 * CELL_INPUT_PX + 4) as usize] < 0.1);
    }

    proptest::proptest! {
        /// The one-channel triangle resampling gives `imageops::resize`'s pixels exactly, for
        /// cell-sized crops to the model's input and for other sizes up and down.
        #[test]
        fn resize_triangle_is_imageops_resize(
            w in 1u32..90,
            h in 1u32..90,
            to_input in proptest::prelude::any::<bool>(),
            nw in 1u32..70,
            nh in 1u32..70,
            seed in proptest::prelude::any::<u32>(),
        ) {
            let (nw, nh) = if to_input { (CELL_INPUT_PX, CELL_INPUT_PX) } else { (nw, nh) };
            let img = GrayImage::from_fn(w, h, |x, y| {
                let v = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503) ^ seed) % 256;
                // Smooth areas as well as noise: paper, strokes and edges.
                Luma([if (x + y + seed) % 5 == 0 { v as u8 } else { ((x * 7 + y * 3) % 256) as u8 }])
            });
            let ours = resize_triangle(&img, nw, nh);
            let theirs = imageops::resize(&img, nw, nh, imageops::FilterType::Triangle);
            proptest::prop_assert_eq!(ours.as_raw(), theirs.as_raw());
        }
    }

    #[test]
    fn degenerate_sizes_do_not_panic() {
        for (w, h) in [(0, 0), (1, 1), (2, 7), (3, 3)] {
            let img = GrayImage::new(w, h);
            assert_eq!(normalize_cell(&img).len(), CELL_INPUT_LEN);
        }
    }
}
