//! Webcam frames made from real photos: the photo is re-projected into a 640×480 or
//! 1280×720 frame with one homography (the grid 35–80 % of the frame height, a small
//! in-plane rotation, mild perspective, anywhere inside the frame), then degraded the way a
//! cheap webcam does (defocus or motion blur, exposure, gamma and white-balance drift,
//! vignetting, luma and chroma noise) and meant to be stored as MJPEG-quality JPEG.
//!
//! Owns the frame geometry and the degradations; the labels of the photo carry over
//! unchanged and its corners go through the same homography. It does not read or write files.

use image::RgbImage;

use super::Rng;
use super::optics::{
    Backdrop, Look, composite, endless_cover, gaussian_blur, mean_side, motion_blur, photo_cover,
    project, shrink_for_frame,
};
use crate::vision::{Homography, Point};

/// A webcam frame and where the grid is in it.
#[derive(Clone, Debug)]
pub struct WebcamFrame {
    /// The frame before its JPEG compression.
    pub image: RgbImage,
    /// The photo's outer grid corners mapped into the frame (TL, TR, BR, BL).
    pub corners_in_image: [Point; 4],
    /// The JPEG quality (60–80) the frame should be stored with, as MJPEG would.
    pub jpeg_quality: u8,
}

/// Frame sizes a webcam set may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FrameSize {
    /// 640×480.
    Vga,
    /// 1280×720.
    Hd,
    /// Either, chosen per frame.
    Mixed,
}

impl FrameSize {
    /// The size of one frame in pixels (drawing from `rng` for `Mixed`).
    pub fn pick(self, rng: &mut Rng) -> (u32, u32) {
        match self {
            FrameSize::Vga => (640, 480),
            FrameSize::Hd => (1280, 720),
            FrameSize::Mixed => {
                if rng.chance(0.5) {
                    (640, 480)
                } else {
                    (1280, 720)
                }
            }
        }
    }
}

/// How hard a frame is degraded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Degradation {
    /// What a webcam held still gives: slight defocus (σ 0.3–0.9 px) or a little motion
    /// (1–2.5 px), sensor noise σ 2–5 levels. Test sets use this.
    Slight,
    /// Stronger blur (σ 0.4–1.6 px or 2–6 px of motion) and noise (σ 2–8): training data,
    /// so the reader has seen worse than it will be tested on.
    Harsh,
}

impl Degradation {
    /// (chance of defocus rather than motion, defocus σ range, motion length range, noise σ range)
    #[allow(clippy::type_complexity)]
    fn ranges(self) -> (f32, (f32, f32), (f32, f32), (f32, f32)) {
        match self {
            Degradation::Slight => (0.7, (0.3, 0.9), (1.0, 2.5), (2.0, 5.0)),
            Degradation::Harsh => (0.65, (0.4, 1.6), (2.0, 6.0), (2.0, 8.0)),
        }
    }
}

/// Smallest and largest grid height as a fraction of the frame height.
pub const GRID_HEIGHT_RANGE: (f32, f32) = (0.35, 0.8);

/// Pixels kept free between the grid's corners and the frame edge.
const EDGE_MARGIN_PX: f32 = 4.0;

/// Makes one webcam frame of `size_px` from `photo`, whose outer grid corners are
/// `corners_in_photo` (TL, TR, BR, BL), degraded as `degradation` says. `None` when the
/// corners are degenerate.
pub fn webcam_frame(
    photo: &RgbImage,
    corners_in_photo: [Point; 4],
    rng: &mut Rng,
    size_px: (u32, u32),
    degradation: Degradation,
) -> Option<WebcamFrame> {
    let (fw, fh) = (size_px.0.max(16) as f32, size_px.1.max(16) as f32);
    let target = target_quad(corners_in_photo, rng, (fw, fh), EDGE_MARGIN_PX)?;

    // Shrink a much larger photo first so that bilinear sampling does not alias thin lines.
    let (photo, corners) = shrink_for_frame(photo, corners_in_photo, mean_side(target));
    let to_frame = Homography::from_points(corners, target)?;
    let to_photo = to_frame.inverse()?;

    let (w, h) = (fw as usize, fh as usize);
    let desk = if rng.chance(0.5) {
        let v = rng.range(40.0, 200.0);
        Some([
            v * rng.range(0.85, 1.15),
            v * rng.range(0.85, 1.15),
            v * rng.range(0.8, 1.1),
        ])
    } else {
        None
    };
    let mut buf = match desk {
        Some(colour) => composite(
            &project(&photo, &to_photo, (w, h), photo_cover(&photo)),
            Backdrop::Flat(colour),
        ),
        None => composite(
            &project(&photo, &to_photo, (w, h), endless_cover),
            Backdrop::Flat([0.0; 3]),
        ),
    };

    let (defocus_share, defocus_px, motion_px, noise_levels) = degradation.ranges();
    if rng.chance(defocus_share) {
        gaussian_blur(&mut buf, w, h, rng.range(defocus_px.0, defocus_px.1));
    } else {
        let len = rng.range(motion_px.0, motion_px.1);
        let angle = rng.range(0.0, std::f32::consts::PI);
        motion_blur(&mut buf, w, h, len, angle);
    }

    // Exposure, gamma and white balance drift; vignetting; sensor noise.
    let gain = rng.range(0.75, 1.25);
    let gamma = rng.range(0.8, 1.25);
    let wb = [
        1.0 + rng.normal() * 0.06,
        1.0 + rng.normal() * 0.03,
        1.0 + rng.normal() * 0.06,
    ];
    let vignette = rng.range(0.0, 0.45);
    let vignette_centre = (
        fw / 2.0 + rng.range(-0.1, 0.1) * fw,
        fh / 2.0 + rng.range(-0.1, 0.1) * fh,
    );
    let luma_sigma = rng.range(noise_levels.0, noise_levels.1);
    let chroma_sigma = luma_sigma * rng.range(0.2, 0.6);
    let look = Look {
        gain,
        gamma,
        wb,
        vignette,
        vignette_centre,
        luma_sigma,
        chroma_sigma,
    };
    let image = look.develop(&mut buf, w, h, rng);
    Some(WebcamFrame {
        image,
        corners_in_image: target,
        jpeg_quality: rng.between(60, 80) as u8,
    })
}

/// Where the grid goes in the frame: the photo quad made upright and square-ish, turned by
/// up to ±10°, with each corner nudged (mild perspective), scaled so its height is 35–80 %
/// of the frame and placed at random with the whole grid at least `margin_px` inside.
pub(super) fn target_quad(
    corners: [Point; 4],
    rng: &mut Rng,
    (fw, fh): (f32, f32),
    margin_px: f32,
) -> Option<[Point; 4]> {
    if !corners.iter().all(|p| p.is_finite()) {
        return None;
    }
    // A square of side 1 around the origin, with the photo's own aspect kept loosely (a
    // grid photographed at an angle stays a little foreshortened).
    let top = corners[0].distance(corners[1]) + corners[3].distance(corners[2]);
    let left = corners[0].distance(corners[3]) + corners[1].distance(corners[2]);
    if top < 1.0 || left < 1.0 {
        return None;
    }
    let aspect = (top / left).clamp(0.8, 1.25).sqrt();
    let angle = rng.range(-10.0, 10.0).to_radians();
    let (c, s) = (angle.cos(), angle.sin());
    let jitter = rng.range(0.0, 0.05);
    let base = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)];
    let mut q = base.map(|(x, y)| {
        let x = x * aspect + rng.normal().clamp(-2.0, 2.0) * jitter / 2.0;
        let y = y / aspect + rng.normal().clamp(-2.0, 2.0) * jitter / 2.0;
        Point::new(c * x - s * y, s * x + c * y)
    });
    let bbox = |q: &[Point; 4]| {
        let xs = q.map(|p| p.x);
        let ys = q.map(|p| p.y);
        let min = |v: [f32; 4]| v.iter().copied().fold(f32::INFINITY, f32::min);
        let max = |v: [f32; 4]| v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        (min(xs), min(ys), max(xs), max(ys))
    };
    let (x0, y0, x1, y1) = bbox(&q);
    let fraction = rng.range(GRID_HEIGHT_RANGE.0, GRID_HEIGHT_RANGE.1);
    let mut scale = fraction * fh / (y1 - y0);
    // Keep it inside horizontally too (never binding for 4:3 and 16:9 frames).
    scale = scale.min((fw - 2.0 * margin_px) / (x1 - x0));
    for p in &mut q {
        *p = p.scaled(scale);
    }
    let (x0, y0, x1, y1) = bbox(&q);
    let dx = rng.range(
        margin_px - x0,
        (fw - 1.0 - margin_px - x1).max(margin_px - x0),
    );
    let dy = rng.range(
        margin_px - y0,
        (fh - 1.0 - margin_px - y1).max(margin_px - y0),
    );
    Some(q.map(|p| Point::new(p.x + dx, p.y + dy)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A 900×1000 photo: a light page with a dark 6-px border whose centre line runs
    /// through the returned corners (slightly skewed, like a real photo).
    fn photo() -> (RgbImage, [Point; 4]) {
        let corners = [
            Point::new(150.0, 180.0),
            Point::new(760.0, 200.0),
            Point::new(740.0, 820.0),
            Point::new(170.0, 800.0),
        ];
        let mut img = RgbImage::from_pixel(900, 1000, Rgb([225, 220, 210]));
        for i in 0..4 {
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            for s in 0..=2000 {
                let p = a.lerp(b, s as f32 / 2000.0);
                for dy in -3..=3 {
                    for dx in -3..=3 {
                        let q = Point::new(p.x + dx as f32, p.y + dy as f32);
                        img.put_pixel(q.x as u32, q.y as u32, Rgb([20, 20, 25]));
                    }
                }
            }
        }
        (img, corners)
    }

    fn luma_at(img: &RgbImage, p: Point) -> f32 {
        let px = img.get_pixel(p.x.round() as u32, p.y.round() as u32).0;
        0.299 * px[0] as f32 + 0.587 * px[1] as f32 + 0.114 * px[2] as f32
    }

    #[test]
    fn frames_keep_the_grid_inside_at_the_requested_height() {
        let (img, corners) = photo();
        for i in 0..24u64 {
            let mut rng = Rng::for_item(3, i);
            let size = FrameSize::Mixed.pick(&mut rng);
            let f =
                webcam_frame(&img, corners, &mut rng, size, Degradation::Harsh).expect("a frame");
            assert_eq!(f.image.dimensions(), size);
            assert!((60..=80).contains(&f.jpeg_quality));
            let ys = f.corners_in_image.map(|p| p.y);
            let height = ys.iter().copied().fold(f32::MIN, f32::max)
                - ys.iter().copied().fold(f32::MAX, f32::min);
            let fraction = height / size.1 as f32;
            assert!(
                (GRID_HEIGHT_RANGE.0 - 1e-3..=GRID_HEIGHT_RANGE.1 + 1e-3).contains(&fraction),
                "frame {i}: grid height {fraction}"
            );
            for p in f.corners_in_image {
                assert!(p.x >= 3.0 && p.y >= 3.0, "frame {i}: {p:?}");
                assert!(
                    p.x <= size.0 as f32 - 4.0 && p.y <= size.1 as f32 - 4.0,
                    "{p:?}"
                );
            }
            // The border is where the corners say: darker along the mapped outline than a
            // little inside it.
            let c = f.corners_in_image;
            let (mut on, mut inside) = (0.0, 0.0);
            let centre = Point::new(
                c.iter().map(|p| p.x).sum::<f32>() / 4.0,
                c.iter().map(|p| p.y).sum::<f32>() / 4.0,
            );
            for k in 0..4 {
                for s in 1..20 {
                    let p = c[k].lerp(c[(k + 1) % 4], s as f32 / 20.0);
                    on += luma_at(&f.image, p);
                    inside += luma_at(&f.image, p.lerp(centre, 0.08));
                }
            }
            assert!(
                on + 60.0 * 76.0 < inside,
                "frame {i}: border {on} inside {inside}"
            );
        }
    }

    #[test]
    fn same_seed_same_frame() {
        let (img, corners) = photo();
        let make = |seed| {
            let f = webcam_frame(
                &img,
                corners,
                &mut Rng::new(seed),
                (640, 480),
                Degradation::Slight,
            )
            .unwrap();
            (f.image, f.corners_in_image, f.jpeg_quality)
        };
        let a = make(9);
        assert!(a == make(9));
        assert!(a.0 != make(10).0);
    }

    #[test]
    fn degenerate_outlines_give_no_frame() {
        let (img, _) = photo();
        let p = Point::new(10.0, 10.0);
        assert!(
            webcam_frame(
                &img,
                [p; 4],
                &mut Rng::new(1),
                (640, 480),
                Degradation::Slight
            )
            .is_none()
        );
    }
}
