//! Cell normalization: the one function that turns a cell crop into classifier input.
//!
//! Owned here and used by both inference (`digits`) and training-data export, so the model
//! always sees exactly what it was trained on. It knows nothing of the model itself.

use image::{GrayImage, imageops};

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
    let small = imageops::resize(
        &inner,
        CELL_INPUT_PX,
        CELL_INPUT_PX,
        imageops::FilterType::Triangle,
    );
    let mut hist = [0u32; 256];
    for p in small.pixels() {
        hist[p.0[0] as usize] += 1;
    }
    let n = CELL_INPUT_LEN as u32;
    let percentile = |q: f32| -> f32 {
        let target = ((n as f32) * q) as u32;
        let mut acc = 0;
        for (v, &count) in hist.iter().enumerate() {
            acc += count;
            if acc > target {
                return v as f32;
            }
        }
        255.0
    };
    let paper = percentile(0.80);
    let ink = percentile(0.02);
    let spread = (paper - ink).max(MIN_CONTRAST);
    for p in small.pixels() {
        let v = (paper - p.0[0] as f32) / spread;
        out.push(v.clamp(0.0, 1.0));
    }
    out
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

    #[test]
    fn degenerate_sizes_do_not_panic() {
        for (w, h) in [(0, 0), (1, 1), (2, 7), (3, 3)] {
            let img = GrayImage::new(w, h);
            assert_eq!(normalize_cell(&img).len(), CELL_INPUT_LEN);
        }
    }
}
