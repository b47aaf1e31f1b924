//! How a camera forms a frame, shared by the still webcam frames (`webcam`) and the clip
//! simulator (`clip`): a photo re-projected through a homography as a page layer (colour with
//! coverage and an optional drop shadow), composited over a backdrop (a flat desk colour or a
//! desk image), defocus and motion blur, then the sensor: exposure, gamma and white balance,
//! vignetting, luma and chroma noise, and quantizing to 8 bits.
//!
//! Owns one function for each of those steps, all pure functions of their arguments (noise
//! draws from the `Rng` it is given, in raster order). It decides no parameters: the callers
//! draw them. Buffers are row-major `w × h` float pixels, 0–255 per channel.

use std::borrow::Cow;

use image::imageops::FilterType;
use image::{Rgb, RgbImage};

use super::Rng;
use crate::vision::{Homography, Point};

/// Float RGB, 0–255 per channel.
pub type Px = [f32; 3];

/// A projected page: premultiplied colour and alpha per pixel (row-major `width × height`).
#[derive(Clone, Debug)]
pub struct Layer {
    /// Frame width.
    pub width: usize,
    /// Frame height.
    pub height: usize,
    /// Premultiplied RGB (0–255) and alpha (0–1).
    pub px: Vec<[f32; 4]>,
}

/// How much of a frame pixel the page covers and how dark the page's shadow falls there.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Cover {
    /// Page coverage 0–1.
    pub page: f32,
    /// Shadow opacity 0–1 under the page (only seen where the page does not cover).
    pub shadow: f32,
}

/// What lies behind the page.
#[derive(Copy, Clone, Debug)]
pub enum Backdrop<'a> {
    /// One colour everywhere.
    Flat(Px),
    /// A desk image of the frame's size.
    Image(&'a [Px]),
}

/// `photo` scaled down when it is much larger than it will appear (the outline `corners`
/// becoming `side_in_frame` px per side), so that bilinear sampling does not alias thin
/// lines; returns the photo to sample and the outline in its pixels.
pub fn shrink_for_frame(
    photo: &RgbImage,
    corners: [Point; 4],
    side_in_frame: f32,
) -> (Cow<'_, RgbImage>, [Point; 4]) {
    let side_photo = mean_side(corners);
    let shrink = (side_in_frame / side_photo.max(1.0) * 1.25).min(1.0);
    if shrink < 0.9 {
        let nw = ((photo.width() as f32 * shrink).round() as u32).max(1);
        let nh = ((photo.height() as f32 * shrink).round() as u32).max(1);
        let (sx, sy) = (
            nw as f32 / photo.width() as f32,
            nh as f32 / photo.height() as f32,
        );
        let small = image::imageops::resize(photo, nw, nh, FilterType::Triangle);
        let c = corners.map(|p| Point::new((p.x + 0.5) * sx - 0.5, (p.y + 0.5) * sy - 0.5));
        (Cow::Owned(small), c)
    } else {
        (Cow::Borrowed(photo), corners)
    }
}

/// Mean side length of a quadrilateral.
pub fn mean_side(q: [Point; 4]) -> f32 {
    (0..4).map(|i| q[i].distance(q[(i + 1) % 4])).sum::<f32>() / 4.0
}

/// The page layer of a `w × h` frame: each frame pixel is mapped into `photo` by `to_photo`
/// and sampled bilinearly (edges clamped); `cover(frame point, photo point)` says how much of
/// it is page and how much shadow. A point that maps to infinity is never page.
pub fn project(
    photo: &RgbImage,
    to_photo: &Homography,
    size: (usize, usize),
    cover: impl Fn(Point, Point) -> Cover,
) -> Layer {
    project_map(photo, |q| to_photo.apply(q), size, cover)
}

/// [`project`] through any map from frame points to photo points (a bent page: a
/// homography followed by a smooth displacement).
pub fn project_map(
    photo: &RgbImage,
    to_photo: impl Fn(Point) -> Point,
    (w, h): (usize, usize),
    cover: impl Fn(Point, Point) -> Cover,
) -> Layer {
    let mut px = vec![[0.0f32; 4]; w * h];
    for y in 0..h {
        for x in 0..w {
            let q = Point::new(x as f32, y as f32);
            let p = to_photo(q);
            let c = cover(q, p);
            let page = if p.is_finite() {
                c.page.clamp(0.0, 1.0)
            } else {
                0.0
            };
            let alpha = page + (1.0 - page) * c.shadow.clamp(0.0, 1.0);
            px[y * w + x] = if page > 0.0 {
                let s = sample(photo, p);
                [s[0] * page, s[1] * page, s[2] * page, alpha]
            } else {
                [0.0, 0.0, 0.0, alpha]
            };
        }
    }
    Layer {
        width: w,
        height: h,
        px,
    }
}

/// The cover of a photo shown whole with a hard edge: page inside its pixel area, nothing
/// outside, no shadow.
pub fn photo_cover(photo: &RgbImage) -> impl Fn(Point, Point) -> Cover {
    let (w, h) = (photo.width() as f32, photo.height() as f32);
    move |_, p| Cover {
        page: if p.x < -0.5 || p.y < -0.5 || p.x > w - 0.5 || p.y > h - 0.5 {
            0.0
        } else {
            1.0
        },
        shadow: 0.0,
    }
}

/// The cover of a photo whose edges are clamped outward forever (no backdrop shows).
pub fn endless_cover(_: Point, _: Point) -> Cover {
    Cover {
        page: 1.0,
        shadow: 0.0,
    }
}

/// The layer over `backdrop`: `colour + backdrop × (1 − alpha)`.
pub fn composite(layer: &Layer, backdrop: Backdrop<'_>) -> Vec<Px> {
    layer
        .px
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let b = match backdrop {
                Backdrop::Flat(c) => c,
                Backdrop::Image(img) => img[i],
            };
            let keep = 1.0 - l[3];
            [l[0] + b[0] * keep, l[1] + b[1] * keep, l[2] + b[2] * keep]
        })
        .collect()
}

/// Bilinear sample of `photo` at `p` (pixel centres at integers), edges clamped.
fn sample(photo: &RgbImage, p: Point) -> Px {
    let (w, h) = (photo.width() as f32, photo.height() as f32);
    let x = p.x.clamp(0.0, w - 1.0);
    let y = p.y.clamp(0.0, h - 1.0);
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let (xi, yi) = (x0 as u32, y0 as u32);
    let (xj, yj) = (
        (xi + 1).min(photo.width() - 1),
        (yi + 1).min(photo.height() - 1),
    );
    let px = |xx: u32, yy: u32| photo.get_pixel(xx, yy).0;
    let (a, b, c, d) = (px(xi, yi), px(xj, yi), px(xi, yj), px(xj, yj));
    let mut out = [0.0f32; 3];
    for (ch, o) in out.iter_mut().enumerate() {
        let top = a[ch] as f32 * (1.0 - fx) + b[ch] as f32 * fx;
        let bottom = c[ch] as f32 * (1.0 - fx) + d[ch] as f32 * fx;
        *o = top * (1.0 - fy) + bottom * fy;
    }
    out
}

/// Separable Gaussian blur (defocus) of a `w × h` buffer of `N`-channel pixels, edges clamped.
pub fn gaussian_blur<const N: usize>(buf: &mut [[f32; N]], w: usize, h: usize, sigma: f32) {
    if sigma <= 0.0 || w == 0 || h == 0 {
        return;
    }
    let radius = (3.0 * sigma).ceil().max(1.0) as isize;
    let kernel: Vec<f32> = (-radius..=radius)
        .map(|i| (-(i * i) as f32 / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f32 = kernel.iter().sum();
    let kernel: Vec<f32> = kernel.iter().map(|k| k / total).collect();
    let mut tmp = vec![[0.0f32; N]; w * h];
    for (axis, (n, stride)) in [(w, 1usize), (h, w)].into_iter().enumerate() {
        let (src, dst): (&[[f32; N]], &mut [[f32; N]]) = if axis == 0 {
            (&*buf, &mut tmp)
        } else {
            (&tmp, &mut *buf)
        };
        for line in 0..(w * h / n) {
            let start = if axis == 0 { line * w } else { line };
            for i in 0..n {
                let mut acc = [0.0f32; N];
                for (k, weight) in kernel.iter().enumerate() {
                    let j = (i as isize + k as isize - radius).clamp(0, n as isize - 1) as usize;
                    let v = src[start + j * stride];
                    for ch in 0..N {
                        acc[ch] += weight * v[ch];
                    }
                }
                dst[start + i * stride] = acc;
            }
        }
    }
}

/// Blurs longer than this many px are built by repeated two-tap averaging.
const LONG_BLUR_PX: f32 = 8.0;

/// Motion blur: averages `len_px` of samples along the direction `angle` (radians) through
/// each pixel of a `w × h` buffer of `N`-channel pixels. Up to 8 px every sample is taken
/// (nearest pixel, one per px); a longer streak is built from two-tap averages with halving
/// spacings (L/2, L/4, … down to a pixel: a box of 2ⁿ evenly spaced taps in `n` passes).
pub fn motion_blur<const N: usize>(
    buf: &mut [[f32; N]],
    w: usize,
    h: usize,
    len_px: f32,
    angle: f32,
) {
    if w == 0 || h == 0 || !len_px.is_finite() {
        return;
    }
    if len_px > LONG_BLUR_PX {
        long_motion_blur(buf, w, h, len_px, angle);
        return;
    }
    let steps = len_px.ceil().max(2.0) as usize + 1;
    let (dx, dy) = (angle.cos(), angle.sin());
    let src = buf.to_vec();
    let at = |x: f32, y: f32| -> [f32; N] {
        let xi = (x.round() as isize).clamp(0, w as isize - 1) as usize;
        let yi = (y.round() as isize).clamp(0, h as isize - 1) as usize;
        src[yi * w + xi]
    };
    for y in 0..h {
        for x in 0..w {
            let mut acc = [0.0f32; N];
            for s in 0..steps {
                let t = (s as f32 / (steps - 1) as f32 - 0.5) * len_px;
                let v = at(x as f32 + t * dx, y as f32 + t * dy);
                for ch in 0..N {
                    acc[ch] += v[ch];
                }
            }
            buf[y * w + x] = acc.map(|a| a / steps as f32);
        }
    }
}

fn long_motion_blur<const N: usize>(
    buf: &mut [[f32; N]],
    w: usize,
    h: usize,
    len_px: f32,
    angle: f32,
) {
    let (dx, dy) = (angle.cos(), angle.sin());
    let mut src = buf.to_vec();
    let mut spacing = len_px / 2.0;
    loop {
        let (ox, oy) = (
            (spacing / 2.0 * dx).round() as isize,
            (spacing / 2.0 * dy).round() as isize,
        );
        if ox == 0 && oy == 0 {
            break;
        }
        let clamp_x = |x: isize| x.clamp(0, w as isize - 1) as usize;
        let clamp_y = |y: isize| y.clamp(0, h as isize - 1) as usize;
        for y in 0..h {
            let (ya, yb) = (clamp_y(y as isize - oy) * w, clamp_y(y as isize + oy) * w);
            for x in 0..w {
                let a = src[ya + clamp_x(x as isize - ox)];
                let b = src[yb + clamp_x(x as isize + ox)];
                let out = &mut buf[y * w + x];
                for ch in 0..N {
                    out[ch] = 0.5 * (a[ch] + b[ch]);
                }
            }
        }
        src.copy_from_slice(buf);
        spacing /= 2.0;
    }
}

/// The sensor and its processing for one frame.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Look {
    /// Exposure gain (1 unchanged).
    pub gain: f32,
    /// Gamma applied after the gain (1 unchanged).
    pub gamma: f32,
    /// White-balance gains per channel.
    pub wb: [f32; 3],
    /// Vignetting strength: the light falls by this share at the frame corners' distance.
    pub vignette: f32,
    /// Centre of the vignetting in frame pixels.
    pub vignette_centre: (f32, f32),
    /// Luma noise σ in levels.
    pub luma_sigma: f32,
    /// Chroma (per-channel) noise σ in levels.
    pub chroma_sigma: f32,
}

impl Look {
    /// Exposure, vignetting and noise applied to `buf` (`w × h`), then quantized; noise is
    /// drawn from `rng` in raster order.
    pub fn develop(&self, buf: &mut [Px], w: usize, h: usize, rng: &mut Rng) -> RgbImage {
        expose(buf, self.gain, self.gamma, self.wb);
        vignette(buf, w, h, self.vignette, self.vignette_centre);
        add_noise(buf, rng, self.luma_sigma, self.chroma_sigma);
        quantize(buf, w, h)
    }
}

/// Exposure gain and white balance, clipped at white, then gamma.
pub fn expose(buf: &mut [Px], gain: f32, gamma: f32, wb: [f32; 3]) {
    for p in buf.iter_mut() {
        for ch in 0..3 {
            let v = (p[ch] / 255.0 * wb[ch] * gain).clamp(0.0, 1.0);
            p[ch] = 255.0 * v.powf(gamma);
        }
    }
}

/// Radial light fall-off around `centre`: `1 − strength · d² / r²` with `r` half the frame
/// diagonal.
pub fn vignette(buf: &mut [Px], w: usize, h: usize, strength: f32, centre: (f32, f32)) {
    let (fw, fh) = (w as f32, h as f32);
    let r_max2 = (fw / 2.0).powi(2) + (fh / 2.0).powi(2);
    for y in 0..h {
        for x in 0..w {
            let d2 = (x as f32 - centre.0).powi(2) + (y as f32 - centre.1).powi(2);
            let light = 1.0 - strength * d2 / r_max2;
            let p = &mut buf[y * w + x];
            for v in p.iter_mut() {
                *v *= light;
            }
        }
    }
}

/// Sensor noise: one luma draw shared by the channels plus one chroma draw per channel, per
/// pixel in raster order.
pub fn add_noise(buf: &mut [Px], rng: &mut Rng, luma_sigma: f32, chroma_sigma: f32) {
    for p in buf.iter_mut() {
        let n = rng.normal() * luma_sigma;
        for v in p.iter_mut() {
            *v = *v + n + rng.normal() * chroma_sigma;
        }
    }
}

/// Rounds and clips to 8 bits.
pub fn quantize(buf: &[Px], w: usize, h: usize) -> RgbImage {
    let mut image = RgbImage::new(w as u32, h as u32);
    for (i, p) in buf.iter().enumerate().take(w * h) {
        let out = p.map(|v| v.round().clamp(0.0, 255.0) as u8);
        image.put_pixel((i % w) as u32, (i / w) as u32, Rgb(out));
    }
    image
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_cover_composites_to_the_sample_and_none_to_the_backdrop() {
        let photo = RgbImage::from_pixel(8, 8, Rgb([100, 150, 200]));
        let layer = project(&photo, &Homography::IDENTITY, (12, 4), photo_cover(&photo));
        let out = composite(&layer, Backdrop::Flat([1.0, 2.0, 3.0]));
        assert_eq!(out[3], [100.0, 150.0, 200.0]);
        assert_eq!(out[11], [1.0, 2.0, 3.0]);
    }

    #[test]
    fn blurs_keep_a_flat_field_flat() {
        let mut buf = vec![[50.0f32, 60.0, 70.0, 1.0]; 20 * 10];
        gaussian_blur(&mut buf, 20, 10, 1.5);
        motion_blur(&mut buf, 20, 10, 7.0, 0.4);
        for p in &buf {
            for (v, want) in p.iter().zip([50.0, 60.0, 70.0, 1.0]) {
                assert!((v - want).abs() < 1e-3, "{p:?}");
            }
        }
    }

    #[test]
    fn long_motion_blur_spreads_a_dot_into_an_even_streak() {
        let (w, h) = (80, 5);
        let mut buf = vec![[0.0f32; 1]; w * h];
        buf[2 * w + 40] = [64.0];
        motion_blur(&mut buf, w, h, 32.0, 0.0);
        let row: Vec<f32> = (0..w).map(|x| buf[2 * w + x][0]).collect();
        let lit: Vec<usize> = (0..w).filter(|&x| row[x] > 0.0).collect();
        assert!(lit.len() >= 16, "{row:?}");
        let span = lit[lit.len() - 1] - lit[0];
        assert!((26..=34).contains(&span), "{row:?}");
        assert!((row.iter().sum::<f32>() - 64.0).abs() < 1e-3);
        assert!(
            lit.iter().all(|&x| (1.0..=4.0).contains(&row[x])),
            "{row:?}"
        );
    }

    #[test]
    fn vignetting_darkens_the_corners_only() {
        let mut buf = vec![[200.0f32; 3]; 40 * 30];
        vignette(&mut buf, 40, 30, 0.4, (20.0, 15.0));
        assert_eq!(buf[15 * 40 + 20], [200.0; 3]);
        assert!(buf[0][0] < 125.0);
    }
}
