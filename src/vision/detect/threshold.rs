//! The working image and its ink mask: the area downscale of a photo to the detector's working
//! scale, the adaptive threshold that marks ink, and the one lookup of ink at a point.
//!
//! Owns pixel-level image preparation only; it knows nothing of outlines, lattices or grids.

use std::borrow::Cow;

use image::GrayImage;

use crate::vision::Point;

/// A photo at the detector's working scale, with its ink mask.
pub(super) struct Working<'a> {
    /// The grayscale working image (the photo itself when it is small enough).
    pub gray: Cow<'a, GrayImage>,
    /// Its adaptive-threshold ink mask (255 = ink).
    pub mask: GrayImage,
    /// Working → image scale factor (image = (work + 0.5) · factor − 0.5).
    pub work_to_image: f32,
}

/// Area-downscales `image` so its long side is at most `work_long_side_px` (never below 64)
/// and thresholds it with a box about a fortieth of that side; with `below_background`, the
/// mask keeps only ink darker than the paper's own level too
/// (`background::keep_ink_below_background`, over a window half the box: the edges of hard
/// shadows and of the page are no ink then).
pub(super) fn working_images(
    image: &GrayImage,
    work_long_side_px: u32,
    ink_delta: Option<u32>,
    below_background: bool,
) -> Working<'_> {
    let (width, height) = image.dimensions();
    let long = width.max(height);
    let target = work_long_side_px.max(64);
    let (gray, work_to_image) = if long > target {
        let scale = target as f32 / long as f32;
        let small = area_downscale(image, scale);
        let f = width as f32 / small.width() as f32;
        (Cow::Owned(small), f)
    } else {
        (Cow::Borrowed(image), 1.0)
    };
    let radius = (gray.width().max(gray.height()) / 40).clamp(4, 24);
    // Sensor noise (webcam frames) makes single pixels darker than their box by chance: the
    // mask then fills with specks that hide the lattice. Ink must stand out from the noise
    // (2.5 σ), never less than the 8 levels print needs.
    let delta =
        ink_delta.unwrap_or_else(|| (2.5 * noise_sigma(&gray)).round().clamp(8.0, 32.0) as u32);
    let mut mask = ink_mask(&gray, radius, delta);
    if below_background {
        super::background::keep_ink_below_background(&mut mask, &gray, radius / 2, delta);
    }
    Working {
        gray,
        mask,
        work_to_image,
    }
}

/// Whether most of `image` is dark (median below 100 of 255, sampled on a coarse raster): a
/// dark-mode screen, whose lines and digits are lighter than the ground.
pub(super) fn mostly_dark(image: &GrayImage) -> bool {
    let (w, h) = image.dimensions();
    let step_x = (w / 64).max(1) as usize;
    let step_y = (h / 64).max(1) as usize;
    let mut hist = [0u32; 256];
    let mut n = 0u32;
    for y in (0..h as usize).step_by(step_y) {
        for x in (0..w as usize).step_by(step_x) {
            hist[image.as_raw()[y * w as usize + x] as usize] += 1;
            n += 1;
        }
    }
    hist[..100].iter().sum::<u32>() * 2 > n
}

/// Votes on the polarity of the picture's marks, `(dark, light)`: a working copy (long side at
/// most 320 px) is cut into 16-pixel tiles, and each tile with contrast (σ over 8 levels)
/// votes by the skew of its gray levels — print on paper is a few dark pixels among many
/// light ones (a long dark tail), light lines and digits on a dark ground the opposite.
/// Tiles across the edge of a page or a large dark area are few next to the tiles inside it,
/// so neither a dark desk nor a white margin decides.
pub(super) fn mark_polarity(image: &GrayImage) -> (u32, u32) {
    const TILE: u32 = 16;
    let long = image.width().max(image.height());
    let small = if long > 320 {
        Cow::Owned(area_downscale(image, 320.0 / long as f32))
    } else {
        Cow::Borrowed(image)
    };
    let (w, h) = small.dimensions();
    let raw = small.as_raw();
    let (mut dark, mut light) = (0, 0);
    for ty in 0..h / TILE {
        for tx in 0..w / TILE {
            let n = f64::from(TILE * TILE);
            let pixels = (0..TILE).flat_map(|y| {
                let row = ((ty * TILE + y) * w + tx * TILE) as usize;
                raw[row..row + TILE as usize].iter().map(|&v| f64::from(v))
            });
            let (sum, sum2) = pixels
                .clone()
                .fold((0.0, 0.0), |(s, s2), v| (s + v, s2 + v * v));
            let mean = sum / n;
            let var = (sum2 / n - mean * mean).max(0.0);
            if var < 64.0 {
                continue;
            }
            let m3 = pixels.map(|v| (v - mean).powi(3)).sum::<f64>() / n;
            let skew = m3 / var.powf(1.5);
            if skew < -0.5 {
                dark += 1;
            } else if skew > 0.5 {
                light += 1;
            }
        }
    }
    (dark, light)
}

/// Whether a picture's grid is more likely light on dark (a dark-mode screen) than dark on
/// light: its fine marks are mostly lighter than their surroundings. A page photographed on
/// a dark desk is mostly dark but its print is dark: the picture-wide brightness
/// ([`mostly_dark`]) misleads there, the marks do not.
///
/// With fewer than a few tiles voting (a nearly blank picture) the picture-wide brightness
/// decides.
pub(super) fn marks_are_light(image: &GrayImage) -> bool {
    let (dark, light) = mark_polarity(image);
    if dark + light < 8 {
        return mostly_dark(image);
    }
    light > dark
}

/// Robust estimate of the per-pixel noise (standard deviation, gray levels): the median
/// absolute deviation of horizontal neighbour differences on every other row, scaled to a
/// Gaussian σ. Edges and print are few next to flat paper, so the median ignores them.
pub(super) fn noise_sigma(image: &GrayImage) -> f32 {
    let (w, h) = image.dimensions();
    if w < 2 || h < 1 {
        return 0.0;
    }
    let mut hist = [0u32; 256];
    let mut n = 0u32;
    let raw = image.as_raw();
    for y in (0..h as usize).step_by(2) {
        let row = &raw[y * w as usize..(y + 1) * w as usize];
        for pair in row.windows(2) {
            hist[pair[0].abs_diff(pair[1]) as usize] += 1;
            n += 1;
        }
    }
    // Median of |difference|; differences are centred on 0, so it is their MAD.
    let mut acc = 0;
    let mut mad = 0.0f32;
    for (d, &count) in hist.iter().enumerate() {
        acc += count;
        if 2 * acc >= n {
            // Interpolate inside the bin: integer levels make small σ coarse.
            let below = (acc - count) as f32;
            mad = d as f32 + ((n as f32 / 2.0 - below) / count.max(1) as f32) - 0.5;
            break;
        }
    }
    // σ of a difference of two pixels is √2 σ; MAD = 0.6745 σ for a Gaussian.
    (mad.max(0.0) / 0.6745) / std::f32::consts::SQRT_2
}

/// Area-averaging downscale by `scale` (< 1) in one pass over the source pixels.
pub(super) fn area_downscale(image: &GrayImage, scale: f32) -> GrayImage {
    let (w, h) = image.dimensions();
    let nw = ((w as f32 * scale).round() as u32).clamp(1, w);
    let nh = ((h as f32 * scale).round() as u32).clamp(1, h);
    if w == 2 * nw && h == 2 * nh {
        return halve(image.as_raw(), nw as usize, nh as usize);
    }
    area_downscale_to(image, nw, nh)
}

/// [`area_downscale`] to `nw × nh` (each at most the image's), for any ratio.
fn area_downscale_to(image: &GrayImage, nw: u32, nh: u32) -> GrayImage {
    let (w, h) = image.dimensions();
    let x_edges: Vec<u32> = (0..=nw)
        .map(|x| (x as u64 * w as u64 / nw as u64) as u32)
        .collect();
    let y_edges: Vec<u32> = (0..=nh)
        .map(|y| (y as u64 * h as u64 / nh as u64) as u32)
        .collect();
    let src = image.as_raw();
    let mut out = Vec::with_capacity((nw * nh) as usize);
    let mut acc = vec![0u32; nw as usize];
    for oy in 0..nh as usize {
        acc.iter_mut().for_each(|a| *a = 0);
        let (y0, y1) = (y_edges[oy], y_edges[oy + 1].max(y_edges[oy] + 1).min(h));
        for y in y0..y1 {
            let row = &src[(y * w) as usize..((y + 1) * w) as usize];
            for ox in 0..nw as usize {
                let (x0, x1) = (x_edges[ox] as usize, x_edges[ox + 1] as usize);
                acc[ox] += row[x0..x1.max(x0 + 1).min(w as usize)]
                    .iter()
                    .map(|&v| v as u32)
                    .sum::<u32>();
            }
        }
        for ox in 0..nw as usize {
            let bw = (x_edges[ox + 1] - x_edges[ox]).max(1);
            let bh = y1 - y0;
            out.push((acc[ox] / (bw * bh).max(1)) as u8);
        }
    }
    GrayImage::from_raw(nw, nh, out).unwrap_or_else(|| GrayImage::new(1, 1))
}

/// [`area_downscale`] by exactly one half (a 1280×720 camera frame): each output pixel the
/// mean of a 2×2 block, rounded down as there. The general loop's per-pixel slices cost about
/// 1.5 ms a frame.
fn halve(src: &[u8], nw: usize, nh: usize) -> GrayImage {
    let w = 2 * nw;
    let mut out = vec![0u8; nw * nh];
    for (oy, out_row) in out.chunks_exact_mut(nw).enumerate() {
        let top = &src[2 * oy * w..(2 * oy + 1) * w];
        let bottom = &src[(2 * oy + 1) * w..(2 * oy + 2) * w];
        for ((o, t), b) in out_row
            .iter_mut()
            .zip(top.chunks_exact(2))
            .zip(bottom.chunks_exact(2))
        {
            *o = ((t[0] as u16 + t[1] as u16 + b[0] as u16 + b[1] as u16) / 4) as u8;
        }
    }
    GrayImage::from_raw(nw as u32, nh as u32, out).unwrap_or_else(|| GrayImage::new(1, 1))
}

/// Adaptive threshold: a pixel is ink (255) when it is darker than the mean of the
/// `(2·radius+1)²` box around it by more than `delta` levels.
pub(super) fn ink_mask(image: &GrayImage, radius: u32, delta: u32) -> GrayImage {
    let (w, h) = image.dimensions();
    let (wu, hu) = (w as usize, h as usize);
    let stride = wu + 1;
    let mut integral = vec![0u32; stride * (hu + 1)];
    let src = image.as_raw();
    for y in 0..hu {
        let mut row_sum = 0u32;
        for x in 0..wu {
            row_sum = row_sum.wrapping_add(src[y * wu + x] as u32);
            // Wrapping: only differences of box corners are used, and a box sum fits in u32.
            integral[(y + 1) * stride + x + 1] = integral[y * stride + x + 1].wrapping_add(row_sum);
        }
    }
    let r = radius as usize;
    let mut out = vec![0u8; wu * hu];
    for (y, out_row) in out.chunks_exact_mut(wu.max(1)).enumerate().take(hu) {
        let y0 = y.saturating_sub(r);
        let y1 = (y + r + 1).min(hu);
        let (Some(top), Some(bottom), Some(src_row)) = (
            integral.get(y0 * stride..(y0 + 1) * stride),
            integral.get(y1 * stride..(y1 + 1) * stride),
            src.get(y * wu..(y + 1) * wu),
        ) else {
            continue;
        };
        let rows = (y1 - y0) as u32;
        // One pixel's test, its box clipped to the image.
        let ink = |x: usize| {
            let x0 = x.saturating_sub(r);
            let x1 = (x + r + 1).min(wu);
            let area = rows * (x1 - x0) as u32;
            let sum = bottom[x1]
                .wrapping_add(top[x0])
                .wrapping_sub(top[x1])
                .wrapping_sub(bottom[x0]);
            (src_row[x] as u32 + delta) * area < sum
        };
        // Where the box lies whole within the row (x0 = x − r, x1 = x + r + 1), the same
        // test over shifted slices, which the compiler runs several pixels at a time.
        let lo = r.min(wu);
        let hi = wu.saturating_sub(r).max(lo);
        for x in (0..lo).chain(hi..wu) {
            out_row[x] = if ink(x) { 255 } else { 0 };
        }
        if lo < hi {
            let area = rows * (2 * r + 1) as u32;
            let n = hi - lo;
            let (b1, t0) = (&bottom[lo + r + 1..][..n], &top[lo - r..][..n]);
            let (t1, b0) = (&top[lo + r + 1..][..n], &bottom[lo - r..][..n]);
            let pixels = &src_row[lo..hi];
            for (k, o) in out_row[lo..hi].iter_mut().enumerate() {
                let sum = b1[k]
                    .wrapping_add(t0[k])
                    .wrapping_sub(t1[k])
                    .wrapping_sub(b0[k]);
                *o = if (pixels[k] as u32 + delta) * area < sum {
                    255
                } else {
                    0
                };
            }
        }
    }
    GrayImage::from_raw(w, h, out).unwrap_or_else(|| GrayImage::new(w, h))
}

/// Ink at the nearest pixel of `p` (outside the image counts as no ink).
#[inline]
pub(super) fn ink_at(mask: &GrayImage, p: Point) -> bool {
    // `as` truncates towards zero, which is rounding for x + 0.5 ≥ 0; `f32::round` is a libm
    // call on baseline x86-64 and was the hottest function of detection.
    let (x, y) = (p.x + 0.5, p.y + 0.5);
    if !(x >= 0.0 && y >= 0.0) {
        return false;
    }
    let (x, y) = (x as u32, y as u32);
    if x >= mask.width() || y >= mask.height() {
        return false;
    }
    mask.as_raw()[(y * mask.width() + x) as usize] != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn halving_is_the_general_downscale_by_a_half() {
        let image = GrayImage::from_fn(64, 36, |x, y| {
            image::Luma([((x * 37 + y * 101 + x * y * 7) % 256) as u8])
        });
        let half = area_downscale(&image, 0.5);
        assert_eq!(half.dimensions(), (32, 18));
        assert_eq!(half, area_downscale_to(&image, 32, 18));
        // An odd side is not halved exactly and takes the general loop.
        let odd = GrayImage::from_fn(65, 36, |x, y| image::Luma([(x * y % 256) as u8]));
        assert_eq!(area_downscale(&odd, 0.5), area_downscale_to(&odd, 33, 18));
    }

    /// A picture `ground` gray with a `page` rectangle (a third of it) ruled with lines.
    fn page_on(ground: u8, page: u8, lines: u8) -> GrayImage {
        GrayImage::from_fn(480, 360, |x, y| {
            let on_page = (40..280).contains(&x) && (60..260).contains(&y);
            let on_line = on_page && ((x - 40) % 24 < 2 || (y - 60) % 24 < 2);
            image::Luma([if on_line {
                lines
            } else if on_page {
                page
            } else {
                ground
            }])
        })
    }

    #[test]
    fn a_page_on_a_dark_desk_has_dark_marks_and_a_dark_screen_light_ones() {
        let page = page_on(35, 205, 60);
        assert!(mostly_dark(&page), "the desk is most of the picture");
        assert!(!marks_are_light(&page), "{:?}", mark_polarity(&page));
        let dark_mode = page_on(25, 30, 210);
        assert!(
            marks_are_light(&dark_mode),
            "{:?}",
            mark_polarity(&dark_mode)
        );
        let light_mode = page_on(240, 245, 40);
        assert!(
            !marks_are_light(&light_mode),
            "{:?}",
            mark_polarity(&light_mode)
        );
        // Nothing to vote: the overall brightness decides.
        assert!(marks_are_light(&GrayImage::from_pixel(
            100,
            80,
            image::Luma([20])
        )));
        assert!(!marks_are_light(&GrayImage::from_pixel(
            100,
            80,
            image::Luma([220])
        )));
    }

    #[test]
    fn noise_sigma_follows_added_noise_and_ignores_print() {
        let flat = GrayImage::from_pixel(200, 150, image::Luma([200]));
        assert!(noise_sigma(&flat) < 0.5);
        // Gaussian noise of σ 6 from a fixed-seed Box–Muller.
        let mut state = 0x1234_5678_u64;
        let mut unit = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) as f32 + 0.5) / (1u64 << 24) as f32
        };
        let mut noisy = flat.clone();
        for p in noisy.pixels_mut() {
            let g = (-2.0 * unit().ln()).sqrt() * (std::f32::consts::TAU * unit()).cos();
            p.0[0] = (200.0 + 6.0 * g).round().clamp(0.0, 255.0) as u8;
        }
        let sigma = noise_sigma(&noisy);
        assert!((4.5..7.5).contains(&sigma), "σ {sigma} for added σ 6");
        // Lines of print every 20 px barely move it.
        let mut printed = flat.clone();
        for (x, _, p) in printed.enumerate_pixels_mut() {
            if x % 20 < 2 {
                p.0[0] = 30;
            }
        }
        assert!(noise_sigma(&printed) < 1.0);
    }

    /// `ink_mask` as its doc states it, pixel by pixel: the box clipped to the image, its
    /// sum taken afresh.
    fn ink_mask_by_definition(image: &GrayImage, radius: u32, delta: u32) -> GrayImage {
        let (w, h) = image.dimensions();
        GrayImage::from_fn(w, h, |x, y| {
            let (x0, x1) = (x.saturating_sub(radius), (x + radius + 1).min(w));
            let (y0, y1) = (y.saturating_sub(radius), (y + radius + 1).min(h));
            let mut sum = 0u32;
            for yy in y0..y1 {
                for xx in x0..x1 {
                    sum += u32::from(image.get_pixel(xx, yy).0[0]);
                }
            }
            let area = (x1 - x0) * (y1 - y0);
            let v = u32::from(image.get_pixel(x, y).0[0]);
            Luma([if (v + delta) * area < sum { 255 } else { 0 }])
        })
    }

    proptest::proptest! {
        /// The integral-image mask, its whole-box middle run over shifted slices, marks the
        /// pixels the definition marks, narrow images (boxes wider than the image) included.
        #[test]
        fn ink_mask_is_the_box_mean_test(
            w in 1u32..60,
            h in 1u32..40,
            radius in 0u32..12,
            delta in 0u32..20,
            seed in proptest::prelude::any::<u32>(),
        ) {
            let image = GrayImage::from_fn(w, h, |x, y| {
                let v = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503) ^ seed) % 256;
                Luma([if (x + y + seed) % 3 == 0 { v as u8 } else { 200 - ((x * 7 + y * 3) % 90) as u8 }])
            });
            let ours = ink_mask(&image, radius, delta);
            let defined = ink_mask_by_definition(&image, radius, delta);
            proptest::prop_assert_eq!(ours.as_raw(), defined.as_raw());
        }
    }
}
