//! Whether a video frame differs from the last one worked on: a coarse luma thumbnail (block
//! means on a sparse raster, about 0.1 ms for 640×480) compared block by block. A still
//! picture fed as a camera, or a camera pointed at a motionless page in good light, then costs
//! almost nothing per frame. A picture that passes as unchanged can still show marks local to
//! a region (a locked grid): a few written digits, too few blocks for the frame's rule.
//!
//! Owns the thumbnail, the "unchanged" rule and the "marks local to a region" rule only; which
//! region, and what a change leads to, are the reader's.

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
/// Differing blocks with two or more differing neighbours that make a change inside a region
/// ([`Thumbnail::marked_within`]): one written digit moves a short run of them.
const MARK_BLOCKS: usize = 3;
/// How many times denser such blocks must be inside the region than outside it
/// ([`Thumbnail::marked_within`]).
const LOCAL_DENSITY: f32 = 4.0;

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
        let Some(differs) = self.differing_blocks(earlier) else {
            return false;
        };
        let allowed = (self.means.len() as f32 * CHANGED_BLOCK_SHARE) as usize;
        differs.filter(|&d| d).count() <= allowed
    }

    /// Whether each block (row-major) moved by more than noise since `earlier`; `None` when
    /// the two are not of the same size.
    fn differing_blocks<'a>(
        &'a self,
        earlier: &'a Thumbnail,
    ) -> Option<impl Iterator<Item = bool> + 'a> {
        ((self.width, self.height, self.cols, self.rows)
            == (earlier.width, earlier.height, earlier.cols, earlier.rows))
            .then(|| {
                self.means
                    .iter()
                    .zip(&earlier.means)
                    .map(|(a, b)| (a - b).abs() > BLOCK_DELTA)
            })
    }

    /// Whether `self` differs from `earlier` by marks local to `region` (frame pixels: x0, y0,
    /// x1, y1; a grid's bounding box): `MARK_BLOCKS` (3) or more blocks inside it that differ
    /// and have two or more differing neighbours (a stroke moves a run of neighbouring blocks,
    /// noise scattered ones), and such blocks `LOCAL_DENSITY` (4) times as dense inside it as
    /// outside. Answers written in a few cells of a large photo or a screen move a few dozen
    /// of its tens of thousands of blocks, too few for the share of them noise must be allowed
    /// ([`Thumbnail::same_as`]); a drift of exposure or a tremor of the camera moves blocks
    /// inside and outside the grid alike, a ticking clock beside it only outside.
    pub fn marked_within(&self, earlier: &Thumbnail, region: [f32; 4]) -> bool {
        let Some(differs) = self.differing_blocks(earlier) else {
            return false;
        };
        let differs: Vec<bool> = differs.collect();
        if !differs.contains(&true) {
            return false;
        }
        let (cols, rows) = (self.cols as usize, self.rows as usize);
        let centre = |k: usize| (k as u32 * BLOCK_PX + BLOCK_PX / 2) as f32;
        let (mut inside, mut marked_in, mut marked_out) = (0usize, 0usize, 0usize);
        for y in 0..rows {
            for x in 0..cols {
                let is_inside = (region[0]..=region[2]).contains(&centre(x))
                    && (region[1]..=region[3]).contains(&centre(y));
                inside += usize::from(is_inside);
                if !differs[y * cols + x] {
                    continue;
                }
                let neighbours = (y.saturating_sub(1)..=(y + 1).min(rows - 1))
                    .flat_map(|ny| {
                        (x.saturating_sub(1)..=(x + 1).min(cols - 1)).map(move |nx| (nx, ny))
                    })
                    .filter(|&(nx, ny)| (nx, ny) != (x, y) && differs[ny * cols + nx])
                    .count();
                if neighbours >= 2 {
                    if is_inside {
                        marked_in += 1;
                    } else {
                        marked_out += 1;
                    }
                }
            }
        }
        let outside = differs.len() - inside;
        // Densities compared without dividing: in/inside > k · out/outside.
        marked_in >= MARK_BLOCKS
            && marked_in as f32 * outside as f32 > LOCAL_DENSITY * marked_out as f32 * inside as f32
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

    #[test]
    fn a_mark_inside_the_region_is_a_local_change_and_noise_or_drift_is_not() {
        // A 320×240 page: 1,200 blocks, of which 6 may differ for `same_as`.
        let before = page(0, 1);
        let a = Thumbnail::of(&before);
        let paint = |image: &mut RgbImage, x0: u32, y0: u32, side: u32| {
            for y in y0..y0 + side {
                for x in x0..x0 + side {
                    image.put_pixel(x, y, Rgb([40, 40, 40]));
                }
            }
        };
        // A written mark of 2×2 blocks at (104, 104): too few blocks for the frame.
        let mut after = before.clone();
        paint(&mut after, 104, 104, 16);
        let b = Thumbnail::of(&after);
        assert!(b.same_as(&a), "4 of the frame's 1,200 blocks");
        let grid = [40.0, 40.0, 200.0, 200.0];
        assert!(
            b.marked_within(&a, grid),
            "4 neighbouring blocks in the grid"
        );
        assert!(
            !b.marked_within(&a, [160.0, 40.0, 320.0, 200.0]),
            "not there"
        );
        // The same mark beside a clock that ticked outside the grid (a run of 3×1 blocks):
        // still local.
        let mut clock = after.clone();
        for x0 in [272, 280, 288] {
            paint(&mut clock, x0, 8, 8);
        }
        assert!(Thumbnail::of(&clock).marked_within(&a, grid));
        // Four blocks changed one by one, far apart: noise, not a mark.
        let mut scattered = before.clone();
        for (x0, y0) in [(48, 48), (96, 160), (160, 96), (280, 200)] {
            paint(&mut scattered, x0, y0, 8);
        }
        assert!(!Thumbnail::of(&scattered).marked_within(&a, grid));
        assert!(
            !Thumbnail::of(&page(0, 2)).marked_within(&a, grid),
            "noise alone"
        );
        // The page moved (or its exposure drifted): marks everywhere, none local to the grid.
        assert!(!Thumbnail::of(&page(3, 1)).marked_within(&a, grid));
        let brighter = RgbImage::from_fn(320, 240, |x, y| {
            let p = before.get_pixel(x, y).0;
            Rgb(p.map(|v| v.saturating_add(12)))
        });
        assert!(!Thumbnail::of(&brighter).marked_within(&a, grid));
    }
}
