//! Whether a video frame differs from the last one worked on: a coarse luma thumbnail (block
//! means on a sparse raster, about 0.1 ms for 640×480) compared block by block. A still
//! picture fed as a camera, or a camera pointed at a motionless page in good light, then costs
//! almost nothing per frame.
//!
//! Owns the thumbnail and the "unchanged" rule only.

use image::RgbImage;

/// Thumbnail block side in frame pixels.
const BLOCK_PX: u32 = 8;
/// Samples per block side (a sparse raster inside each block).
const SAMPLES: u32 = 4;
/// A block differs when its mean moved by more than this many gray levels: well above sensor
/// noise averaged over the block's samples, well below a grid line moving by a pixel.
const BLOCK_DELTA: f32 = 6.0;
/// A frame is unchanged while at most this share of its blocks differ.
const CHANGED_BLOCK_SHARE: f32 = 0.005;

/// A frame's block-mean luma thumbnail.
#[derive(Clone, Debug, PartialEq)]
pub struct Thumbnail {
    width: u32,
    height: u32,
    cols: u32,
    rows: u32,
    means: Vec<f32>,
}

impl Thumbnail {
    /// The thumbnail of `frame`.
    pub fn of(frame: &RgbImage) -> Thumbnail {
        let (width, height) = frame.dimensions();
        let cols = width.div_ceil(BLOCK_PX).max(1);
        let rows = height.div_ceil(BLOCK_PX).max(1);
        let step = (BLOCK_PX / SAMPLES).max(1);
        let raw = frame.as_raw();
        let mut means = Vec::with_capacity((cols * rows) as usize);
        for by in 0..rows {
            for bx in 0..cols {
                let (mut sum, mut n) = (0u32, 0u32);
                for sy in 0..SAMPLES {
                    let y = by * BLOCK_PX + sy * step + step / 2;
                    if y >= height {
                        break;
                    }
                    for sx in 0..SAMPLES {
                        let x = bx * BLOCK_PX + sx * step + step / 2;
                        if x >= width {
                            break;
                        }
                        let i = ((y * width + x) * 3) as usize;
                        // A cheap luma: (R + 2G + B) / 4.
                        sum += raw[i] as u32 + 2 * raw[i + 1] as u32 + raw[i + 2] as u32;
                        n += 4;
                    }
                }
                means.push(if n == 0 { 0.0 } else { sum as f32 / n as f32 });
            }
        }
        Thumbnail {
            width,
            height,
            cols,
            rows,
            means,
        }
    }

    /// Whether `self` shows the same picture as `earlier`: same size and at most a few blocks
    /// moved by more than noise.
    pub fn same_as(&self, earlier: &Thumbnail) -> bool {
        if (self.width, self.height, self.cols, self.rows)
            != (earlier.width, earlier.height, earlier.cols, earlier.rows)
        {
            return false;
        }
        let allowed = (self.means.len() as f32 * CHANGED_BLOCK_SHARE) as usize;
        let differing = self
            .means
            .iter()
            .zip(&earlier.means)
            .filter(|(a, b)| (*a - *b).abs() > BLOCK_DELTA)
            .count();
        differing <= allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    fn page(shift: u32, noise_seed: u64) -> RgbImage {
        let mut state = noise_seed;
        RgbImage::from_fn(320, 240, |x, y| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let noise = ((state >> 33) % 7) as u8; // 0..6 levels of sensor noise
            let line = (x + shift) % 32 < 2 || y % 32 < 2;
            let v = if line { 30 } else { 220 } + noise;
            Rgb([v, v, v])
        })
    }

    #[test]
    fn noise_is_unchanged_but_a_moved_page_or_a_new_size_is_not() {
        let a = Thumbnail::of(&page(0, 1));
        assert!(Thumbnail::of(&page(0, 1)).same_as(&a));
        assert!(Thumbnail::of(&page(0, 2)).same_as(&a), "noise alone");
        assert!(!Thumbnail::of(&page(3, 1)).same_as(&a), "lines moved 3 px");
        let small = RgbImage::from_pixel(160, 120, Rgb([220, 220, 220]));
        assert!(!Thumbnail::of(&small).same_as(&a));
    }
}
