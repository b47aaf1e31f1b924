//! Photographs of printed Sudoku pages (`sudoku-lens synth print`): a page as a newspaper,
//! book or puzzle magazine prints it (`page`), photographed by a phone (long side 1600–3264
//! px, JPEG 72–95) or a webcam (640×480 or 1280×720, MJPEG quality 60–80): a tilted camera
//! (true perspective of a plane turned up to 30°), the paper curling, uneven light and a
//! soft shadow across it, the desk beside the page, defocus or motion blur, sensor noise.
//!
//! Owns the camera pose, the page's bend, the light and the choice of the page's scale for
//! the frame; the image formation steps are `optics`'. The labels are the printed digits,
//! and the corners are the grid's outer corners carried through the same map as the pixels.
//! Pure function of the random generator and the fonts (same seed, same bytes).

mod page;

use image::RgbImage;

use super::clip::scene::desk;
use super::optics::{
    Backdrop, Cover, Look, Px, composite, gaussian_blur, motion_blur, project_map,
};
use super::{FontBank, Rng};
use crate::vision::{Homography, Point};

/// Which camera photographs the page.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PrintCamera {
    /// A phone photo: long side 1600–3264 px, 4:3, portrait or landscape.
    Phone,
    /// A webcam frame: 640×480 or 1280×720.
    Webcam,
    /// Either, per photo (half and half).
    Mixed,
}

/// A generated photo (of a printed page here, of a screen in `screen_photo`) and its truth.
#[derive(Clone, Debug)]
pub struct CameraPhoto {
    /// The photo before its JPEG compression.
    pub image: RgbImage,
    /// What the grid shows, row-major (0 empty, 1–9, 10 pencil marks; a printed page holds
    /// printed digits only).
    pub labels: [u8; 81],
    /// The grid's outer corners (TL, TR, BR, BL) in the photo.
    pub corners_in_image: [Point; 4],
    /// The JPEG quality the photo should be stored with.
    pub jpeg_quality: u8,
}

/// Makes one photo of a printed page; `None` when no font has Latin letters.
pub fn print_photo(rng: &mut Rng, fonts: &FontBank, camera: PrintCamera) -> Option<CameraPhoto> {
    let (phone, (fw, fh)) = frame_size(rng, camera);
    let grid_side_px = grid_side_in_frame(rng, phone, (fw, fh));
    // The page is drawn a little finer than it will appear (never coarser than 24 px cells,
    // never finer than 110): the camera's sampling then blurs like a lens, not a resize.
    let cell = (grid_side_px / 9.0 * rng.range(1.0, 1.4)).clamp(24.0, 110.0);
    let printed = page::render_printed_page(rng, fonts, cell)?;

    let quad = camera_quad(rng, (fw as f32, fh as f32), grid_side_px)?;
    let to_frame = Homography::from_points(printed.grid, quad)?;
    let to_page = to_frame.inverse()?;
    let bend = Bend::random(rng, printed.grid);
    let (pw, ph) = (printed.image.width() as f32, printed.image.height() as f32);
    let (w, h) = (fw as usize, fh as usize);
    let frame_per_page = grid_side_px / (9.0 * cell);
    let layer = project_map(
        &printed.image,
        |q| bend.apply(to_page.apply(q)),
        (w, h),
        move |_, p: Point| {
            // The page's edge, anti-aliased over a frame pixel.
            let inside = (p.x + 0.5)
                .min(pw - 0.5 - p.x)
                .min((p.y + 0.5).min(ph - 0.5 - p.y));
            Cover {
                page: (inside * frame_per_page + 0.5).clamp(0.0, 1.0),
                shadow: 0.0,
            }
        },
    );
    let backdrop = desk(rng, (w, h));
    let mut buf = composite(&layer, Backdrop::Image(&backdrop));
    light(&mut buf, rng, (w, h));
    let (image, jpeg_quality) = shoot(rng, buf, (fw, fh), phone);
    let corners_in_image = printed.grid.map(|c| to_frame.apply(bend.invert(c)));
    Some(CameraPhoto {
        image,
        labels: printed.labels,
        corners_in_image,
        jpeg_quality,
    })
}

/// Whether `camera` is a phone for this photo, and the frame's size: a phone's 4:3 photo with
/// its long side 1600–3264 px (portrait or landscape), or a webcam's 640×480 or 1280×720.
pub(crate) fn frame_size(rng: &mut Rng, camera: PrintCamera) -> (bool, (u32, u32)) {
    let phone = match camera {
        PrintCamera::Phone => true,
        PrintCamera::Webcam => false,
        PrintCamera::Mixed => rng.chance(0.5),
    };
    let size = if phone {
        const LONG: [u32; 5] = [1600, 2048, 2560, 3024, 3264];
        let long = LONG[rng.below(LONG.len())];
        let short = long * 3 / 4;
        if rng.chance(0.6) {
            (short, long)
        } else {
            (long, short)
        }
    } else if rng.chance(0.6) {
        (640, 480)
    } else {
        (1280, 720)
    };
    (phone, size)
}

/// The grid's side in a `fw × fh` frame: 35–90 % of its short side in a phone's photo,
/// 35–80 % of a webcam frame's height.
pub(crate) fn grid_side_in_frame(rng: &mut Rng, phone: bool, (fw, fh): (u32, u32)) -> f32 {
    let share = if phone {
        rng.range(0.35, 0.9)
    } else {
        rng.range(0.35, 0.8)
    };
    share * fw.min(fh) as f32
}

/// What the camera makes of the scene `buf` (`fw × fh` float pixels): defocus (four photos in
/// five) or a shake, then the sensor (exposure, warm or cold white balance, vignetting,
/// noise). Returns the frame and the JPEG quality it is to be stored with (phones 72–95,
/// webcams 60–80).
pub(crate) fn shoot(
    rng: &mut Rng,
    mut buf: Vec<Px>,
    (fw, fh): (u32, u32),
    phone: bool,
) -> (RgbImage, u8) {
    let (w, h) = (fw as usize, fh as usize);
    let scale = fw.max(fh) as f32 / 1000.0;
    if rng.chance(0.8) {
        let sigma = if phone {
            rng.range(0.3, 1.6) * scale
        } else {
            rng.range(0.3, 1.1)
        };
        gaussian_blur(&mut buf, w, h, sigma);
    } else {
        let len = if phone {
            rng.range(1.0, 3.0) * scale
        } else {
            rng.range(1.0, 2.5)
        };
        motion_blur(&mut buf, w, h, len, rng.range(0.0, std::f32::consts::PI));
    }
    let luma_sigma = if phone {
        rng.range(1.0, 4.0)
    } else {
        rng.range(2.0, 6.0)
    };
    let look = Look {
        gain: rng.range(0.8, 1.2),
        gamma: rng.range(0.8, 1.2),
        // Indoor light is warm more often than cold.
        wb: [
            1.0 + rng.range(-0.04, 0.1),
            1.0 + rng.normal() * 0.02,
            1.0 - rng.range(-0.04, 0.14),
        ],
        vignette: rng.range(0.0, 0.35),
        vignette_centre: (
            fw as f32 * rng.range(0.4, 0.6),
            fh as f32 * rng.range(0.4, 0.6),
        ),
        luma_sigma,
        chroma_sigma: luma_sigma * rng.range(0.2, 0.6),
    };
    let image = look.develop(&mut buf, w, h, rng);
    let jpeg_quality = if phone {
        rng.between(72, 95)
    } else {
        rng.between(60, 80)
    } as u8;
    (image, jpeg_quality)
}

/// Where the grid appears: a square plane turned in 3-D (tilt up to 30° about a random axis
/// in the page, up to ±15° in the picture plane) seen by a pinhole camera from 1.6–3.5 grid
/// sides away, scaled to `side_px` and placed anywhere with the grid inside the frame.
pub(crate) fn camera_quad(rng: &mut Rng, (fw, fh): (f32, f32), side_px: f32) -> Option<[Point; 4]> {
    let tilt = rng.range(0.0, 30.0).to_radians();
    let axis = rng.range(0.0, std::f32::consts::PI);
    let roll = rng.range(-15.0, 15.0).to_radians();
    let distance = rng.range(1.6, 3.5);
    let (sa, ca) = axis.sin_cos();
    let (st, ct) = tilt.sin_cos();
    let (sr, cr) = roll.sin_cos();
    let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)].map(|(x, y)| {
        // Roll in the page plane, then tilt about the axis (cos a, sin a, 0).
        let (x, y) = (cr * x - sr * y, sr * x + cr * y);
        let along = x * ca + y * sa;
        let (ax, ay) = (along * ca, along * sa);
        // Rodrigues about k = (cos a, sin a, 0): v cos t + (k × v) sin t + k (k·v)(1 − cos t).
        let (rx, ry, rz) = (
            ax + (x - ax) * ct,
            ay + (y - ay) * ct,
            (ca * y - sa * x) * st,
        );
        let z = distance + rz;
        Point::new(rx / z, ry / z)
    });
    let xs = corners.map(|p| p.x);
    let ys = corners.map(|p| p.y);
    let min = |v: [f32; 4]| v.iter().copied().fold(f32::INFINITY, f32::min);
    let max = |v: [f32; 4]| v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let extent = (max(xs) - min(xs)).max(max(ys) - min(ys));
    if extent.is_nan() || extent <= 1e-3 {
        return None;
    }
    let s = side_px / extent;
    let margin = 6.0;
    let (bw, bh) = ((max(xs) - min(xs)) * s, (max(ys) - min(ys)) * s);
    if bw + 2.0 * margin > fw || bh + 2.0 * margin > fh {
        return None;
    }
    let ox = rng.range(margin, fw - margin - bw) - min(xs) * s;
    let oy = rng.range(margin, fh - margin - bh) - min(ys) * s;
    Some(corners.map(|p| Point::new(p.x * s + ox, p.y * s + oy)))
}

/// The paper's bend: a smooth displacement of page points (page pixels), quadratic in the
/// position relative to the grid, up to a few per cent of the grid's side. Half the pages
/// lie flat.
#[derive(Copy, Clone, Debug)]
struct Bend {
    origin: Point,
    side: f32,
    /// Coefficients of (u², v², u·v) for x and for y, in grid sides.
    x: [f32; 3],
    y: [f32; 3],
}

impl Bend {
    fn random(rng: &mut Rng, grid: [Point; 4]) -> Bend {
        let side = grid[0].distance(grid[1]).max(1.0);
        let centre = Point::new((grid[0].x + grid[2].x) / 2.0, (grid[0].y + grid[2].y) / 2.0);
        let amount = if rng.chance(0.5) {
            0.0
        } else {
            rng.range(0.01, 0.05)
        };
        let mut coef = || rng.range(-1.0, 1.0) * amount;
        Bend {
            origin: centre,
            side,
            x: [coef(), coef(), coef() * 0.5],
            y: [coef(), coef(), coef() * 0.5],
        }
    }

    /// The displacement at page point `p`.
    fn offset(&self, p: Point) -> Point {
        let (u, v) = (
            (p.x - self.origin.x) / self.side,
            (p.y - self.origin.y) / self.side,
        );
        let terms = [u * u, v * v, u * v];
        let dot = |c: [f32; 3]| c.iter().zip(terms).map(|(a, t)| a * t).sum::<f32>();
        Point::new(dot(self.x) * self.side, dot(self.y) * self.side)
    }

    /// Where a point of the flat (homography) plane lands on the bent page.
    fn apply(&self, p: Point) -> Point {
        if !p.is_finite() {
            return p;
        }
        p + self.offset(p)
    }

    /// The flat-plane point that [`Bend::apply`] takes to page point `target` (fixed-point
    /// iteration: the displacement is small and smooth).
    fn invert(&self, target: Point) -> Point {
        let mut p = target;
        for _ in 0..20 {
            p = target - self.offset(p);
        }
        p
    }
}

/// Uneven light across the frame: a broad gradient, and in some photos a soft-edged shadow
/// (a hand or the phone) falling across part of it.
fn light(buf: &mut [[f32; 3]], rng: &mut Rng, (w, h): (usize, usize)) {
    let angle = rng.range(0.0, std::f32::consts::TAU);
    let (dx, dy) = (angle.cos(), angle.sin());
    let gradient = rng.range(0.0, 0.35);
    let shadow = rng.chance(0.35).then(|| {
        let a = rng.range(0.0, std::f32::consts::TAU);
        // A half-plane through a point of the frame, its edge softened over 2–15 % of the
        // frame, darkening by 20–55 %.
        (
            Point::new(
                rng.range(0.1, 0.9) * w as f32,
                rng.range(0.1, 0.9) * h as f32,
            ),
            Point::new(a.cos(), a.sin()),
            rng.range(0.02, 0.15) * w.max(h) as f32,
            rng.range(0.2, 0.55),
        )
    });
    let diag = ((w * w + h * h) as f32).sqrt();
    for y in 0..h {
        for x in 0..w {
            let (fx, fy) = (x as f32, y as f32);
            let t = ((fx - w as f32 / 2.0) * dx + (fy - h as f32 / 2.0) * dy) / diag;
            let mut m = 1.0 + gradient * t;
            if let Some((at, n, soft, depth)) = shadow {
                let d = ((fx - at.x) * n.x + (fy - at.y) * n.y) / soft;
                let s = (0.5 + d).clamp(0.0, 1.0);
                m *= 1.0 - depth * s * s * (3.0 - 2.0 * s);
            }
            for v in buf[y * w + x].iter_mut() {
                *v *= m;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bend_inverts_and_flat_pages_do_not_move() {
        let grid = [
            Point::new(100.0, 100.0),
            Point::new(500.0, 100.0),
            Point::new(500.0, 500.0),
            Point::new(100.0, 500.0),
        ];
        for seed in 0..8 {
            let bend = Bend::random(&mut Rng::new(seed), grid);
            for c in grid {
                let p = bend.invert(c);
                assert!(bend.apply(p).distance(c) < 0.01, "seed {seed}");
            }
        }
        let flat = Bend {
            origin: Point::new(0.0, 0.0),
            side: 1.0,
            x: [0.0; 3],
            y: [0.0; 3],
        };
        assert_eq!(flat.apply(Point::new(3.0, 4.0)), Point::new(3.0, 4.0));
    }

    #[test]
    fn photos_show_the_grid_inside_the_frame_with_dark_lines_at_its_corners() {
        let fonts = FontBank::system_for_tests();
        for seed in 0..3 {
            let mut rng = Rng::new(seed);
            let photo = print_photo(&mut rng, &fonts, PrintCamera::Webcam).expect("a photo");
            let (w, h) = photo.image.dimensions();
            assert!((w, h) == (640, 480) || (w, h) == (1280, 720));
            assert!((60..=80).contains(&photo.jpeg_quality));
            assert!(photo.labels.iter().filter(|&&l| l > 0).count() >= 22);
            let c = photo.corners_in_image;
            let centre = Point::new(
                c.iter().map(|p| p.x).sum::<f32>() / 4.0,
                c.iter().map(|p| p.y).sum::<f32>() / 4.0,
            );
            let luma = |p: Point| {
                let px = photo
                    .image
                    .get_pixel(p.x.round() as u32, p.y.round() as u32)
                    .0;
                0.299 * px[0] as f32 + 0.587 * px[1] as f32 + 0.114 * px[2] as f32
            };
            // Along the border (a sixth of the way from each corner) the print is darker
            // than just inside the grid.
            let (mut on, mut inside) = (0.0, 0.0);
            for k in 0..4 {
                assert!(c[k].x > 0.0 && c[k].y > 0.0 && c[k].x < w as f32 && c[k].y < h as f32);
                for s in [0.1, 0.2, 0.5, 0.8, 0.9] {
                    let p = c[k].lerp(c[(k + 1) % 4], s);
                    on += luma(p);
                    inside += luma(p.lerp(centre, 0.03));
                }
            }
            assert!(
                on < inside - 20.0 * 20.0,
                "seed {seed}: border {on} inside {inside}"
            );
        }
    }

    #[test]
    fn same_seed_same_photo() {
        let fonts = FontBank::system_for_tests();
        let make = |seed| {
            let p = print_photo(&mut Rng::new(seed), &fonts, PrintCamera::Webcam).unwrap();
            (p.image, p.corners_in_image, p.labels)
        };
        let a = make(5);
        assert!(a == make(5));
        assert!(a.0 != make(6).0);
    }
}
