//! Photographs of a Sudoku app on a screen (`sudoku-lens synth screen-photos`): a rendered
//! app screenshot (`screens`, every theme family) shown on a monitor, laptop, tablet or phone
//! and photographed by a phone or a webcam. The display adds its pixel grid (red, green and
//! blue stripes in a black matrix, which the camera's pixels sample into moiré when a display
//! pixel is about a frame pixel or smaller), its backlight (blacks that glow, a cool or warm
//! white, brightness falling off across the panel as the viewing angle grows), the bezel,
//! a lamp or window reflected on the glass, and in some frames the rolling bands of the
//! backlight's refresh; the room around it is dimmer than the screen. The camera is the
//! printed pages' (`print`: tilt and roll, defocus or shake, exposure, noise, JPEG).
//!
//! The board is a proper puzzle, as a real app's is (`Board::make_givens_unique`: givens
//! added until they have one solution; the player's digits, mistakes and pencil marks stay
//! elsewhere), so the reader's puzzle checks work on it as on a real screen.
//!
//! Owns the display, the glass and the room's light; the pose and the camera are `print`'s,
//! the screenshot `screens`'. Labels are the screenshot's (0 empty, 1–9, 10 pencil marks)
//! and the corners its grid's, carried through the same map as the pixels. Pure function of
//! the random generator and the fonts (same seed, same bytes).

use image::RgbImage;

use super::clip::scene::desk;
use super::optics::Px;
use super::print::{CameraPhoto, PrintCamera, camera_quad, frame_size, grid_side_in_frame, shoot};
use super::{FontBank, Rng, ScreenSpec, render_screen};
use crate::vision::{Homography, Point};

/// A display panel and what is reflected on its glass.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Display {
    /// Share of a stripe's width (a third of a display pixel) that is lit; the rest is the
    /// black matrix.
    stripe_fill: f32,
    /// Share of a display pixel's height that is lit.
    row_fill: f32,
    /// Blue, green, red from left to right instead of red, green, blue.
    bgr: bool,
    /// How much of the stripe pattern the camera resolves, 0 (an even glow) to 1.
    pattern: f32,
    /// Light through closed cells, as a share of white.
    black: f32,
    /// The white point's gains per channel, times the screen's brightness against the room.
    white: [f32; 3],
    /// Brightness fall-off across the panel: direction (unit, in panel widths and heights)
    /// and depth.
    falloff: (Point, f32),
    /// The bezel's width in display pixels and its colour.
    bezel_px: f32,
    bezel: Px,
    /// How bright the room around the screen is against the screen's white.
    room: f32,
    /// Rolling bands of the backlight's refresh: depth, period (frame rows) and phase.
    bands: Option<(f32, f32, f32)>,
}

impl Display {
    fn random(rng: &mut Rng) -> Display {
        let tint = rng.range(-0.08, 0.1);
        let brightness = rng.range(0.8, 1.3);
        let angle = rng.range(0.0, std::f32::consts::TAU);
        let grey = rng.range(8.0, 60.0);
        Display {
            stripe_fill: rng.range(0.55, 0.9),
            row_fill: rng.range(0.7, 0.95),
            bgr: rng.chance(0.15),
            pattern: rng.range(0.3, 1.0),
            black: rng.range(0.01, 0.12),
            // Screens are cooler than lamps more often than warmer.
            white: [
                (1.0 - tint) * brightness,
                brightness,
                (1.0 + tint) * brightness,
            ],
            falloff: (Point::new(angle.cos(), angle.sin()), rng.range(0.0, 0.35)),
            bezel_px: rng.range(6.0, 60.0),
            bezel: [grey, grey, grey * rng.range(0.9, 1.15)],
            room: rng.range(0.25, 0.9),
            bands: rng.chance(0.2).then(|| {
                (
                    rng.range(0.04, 0.15),
                    rng.range(40.0, 400.0),
                    rng.range(0.0, std::f32::consts::TAU),
                )
            }),
        }
    }

    /// The light the panel gives at display point `(u, v)` (display pixels; pixel `i` covers
    /// `[i, i + 1)`) showing `colour` (sRGB 0–255) in that pixel, with the stripes resolved
    /// by `depth` (0 an even glow, 1 the stripes alone). Over a whole display pixel it
    /// averages to the even glow, whatever the stripes' shape.
    fn emitted(&self, colour: [u8; 3], (u, v): (f32, f32), depth: f32) -> Px {
        let glow =
            |ch: usize| (self.black + (1.0 - self.black) * f32::from(colour[ch]) / 255.0) * 255.0;
        let (fx, fy) = (u - u.floor(), v - v.floor());
        let third = (fx * 3.0).min(2.999);
        let k = third as usize;
        let lit_ch = if self.bgr { 2 - k } else { k };
        let lit = third - k as f32 <= self.stripe_fill && fy <= self.row_fill;
        // A lit stripe carries its channel's light for the whole pixel.
        let gain = 3.0 / (self.stripe_fill * self.row_fill);
        std::array::from_fn(|ch| {
            let stripe = if lit && ch == lit_ch { gain } else { 0.0 };
            glow(ch) * ((1.0 - depth) + depth * stripe) * self.white[ch]
        })
    }
}

/// Makes one photo of an app screenshot on a screen; `None` when the pose cannot be placed
/// in the frame.
pub fn screen_photo(rng: &mut Rng, fonts: &FontBank, camera: PrintCamera) -> Option<CameraPhoto> {
    let mut spec = ScreenSpec::random(rng, fonts);
    spec.board.make_givens_unique();
    let screen = render_screen(&spec, fonts);
    let (phone, (fw, fh)) = frame_size(rng, camera);
    let grid_side_px = grid_side_in_frame(rng, phone, (fw, fh));
    let quad = camera_quad(rng, (fw as f32, fh as f32), grid_side_px)?;
    let to_frame = Homography::from_points(screen.corners_in_image, quad)?;
    let to_screen = to_frame.inverse()?;
    let display = Display::random(rng);
    let (w, h) = (fw as usize, fh as usize);
    let room = desk(rng, (w, h));
    let mut buf = photograph(&screen.image, &display, &to_screen, &room, (w, h));
    reflect(
        &mut buf,
        rng,
        &display,
        &to_screen,
        screen.image.dimensions(),
        (w, h),
    );
    let (image, jpeg_quality) = shoot(rng, buf, (fw, fh), phone);
    Some(CameraPhoto {
        image,
        labels: screen.labels,
        corners_in_image: screen.corners_in_image.map(|c| to_frame.apply(c)),
        jpeg_quality,
    })
}

/// The display point under frame point `q`, in display pixels with pixel `i` covering
/// `[i, i + 1)`: the screenshot's coordinates (pixel centres on integers, as its corners are
/// given) moved by half a pixel.
fn display_point(to_screen: &Homography, q: Point) -> Point {
    let p = to_screen.apply(q);
    Point::new(p.x + 0.5, p.y + 0.5)
}

/// Where display point `p` ([`display_point`]) falls: on the panel of `sw × sh` pixels, on
/// the bezel `bezel` pixels wide around it, or beyond.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Part {
    Panel,
    Bezel,
    Room,
}

fn part_at(p: Point, (sw, sh): (f32, f32), bezel: f32) -> Part {
    if !p.is_finite() {
        return Part::Room;
    }
    if p.x >= 0.0 && p.y >= 0.0 && p.x < sw && p.y < sh {
        Part::Panel
    } else if p.x >= -bezel && p.y >= -bezel && p.x < sw + bezel && p.y < sh + bezel {
        Part::Bezel
    } else {
        Part::Room
    }
}

/// The scene in front of the camera: each frame pixel averages a few points of the display
/// (a camera pixel gathers light over its area; where a display pixel is about a frame pixel
/// or smaller, the stripes beat against the frame's pixels), the bezel, and the room (the
/// desk image, dimmed).
fn photograph(
    shot: &RgbImage,
    display: &Display,
    to_screen: &Homography,
    room: &[Px],
    (w, h): (usize, usize),
) -> Vec<Px> {
    let (sw, sh) = shot.dimensions();
    let size = (sw as f32, sh as f32);
    // Display pixels per frame pixel at the grid (the map is close to a similarity there).
    let centre = to_screen.apply(Point::new(w as f32 / 2.0, h as f32 / 2.0));
    let step = to_screen
        .apply(Point::new(w as f32 / 2.0 + 1.0, h as f32 / 2.0))
        .distance(centre);
    let per_frame_px = if step.is_finite() { step } else { 1.0 };
    // A camera pixel gathers the light of every display pixel it sees, and the lens and the
    // sensor's filter soften what is finer than a frame pixel: the fewer frame pixels a
    // display pixel spans, the weaker the beat that is left (the point samples below would
    // alias it at full strength).
    let depth = display.pattern * (0.6 / per_frame_px.max(0.1)).clamp(0.03, 1.0);
    let sub = if w * h > 2_000_000 { 2 } else { 3 };
    let raw = shot.as_raw();
    let (dir, fall) = display.falloff;
    let mut out = vec![[0.0f32; 3]; w * h];
    for y in 0..h {
        for x in 0..w {
            let mut sum = [0.0f32; 3];
            for j in 0..sub {
                for i in 0..sub {
                    let q = Point::new(
                        x as f32 - 0.5 + (i as f32 + 0.5) / sub as f32,
                        y as f32 - 0.5 + (j as f32 + 0.5) / sub as f32,
                    );
                    let p = display_point(to_screen, q);
                    let c = match part_at(p, size, display.bezel_px) {
                        Part::Panel => {
                            // On the panel 0 <= p < size, so the pixel is in the image.
                            let (ix, iy) = (p.x as usize, p.y as usize);
                            let k = 3 * (iy * sw as usize + ix);
                            let colour = match raw.get(k..k + 3) {
                                Some(&[r, g, b]) => [r, g, b],
                                _ => [0, 0, 0],
                            };
                            // Dimmer towards one side, as the viewing angle grows.
                            let t = ((p.x / size.0 - 0.5) * dir.x + (p.y / size.1 - 0.5) * dir.y)
                                .clamp(-0.7, 0.7);
                            let light = 1.0 - fall * (t + 0.5).max(0.0);
                            display
                                .emitted(colour, (p.x, p.y), depth)
                                .map(|v| v * light)
                        }
                        Part::Bezel => display.bezel,
                        Part::Room => room[y * w + x].map(|v| v * display.room),
                    };
                    for ch in 0..3 {
                        sum[ch] += c[ch];
                    }
                }
            }
            let n = (sub * sub) as f32;
            out[y * w + x] = sum.map(|v| v / n);
        }
    }
    out
}

/// The glass: a lamp's or a window's soft reflection over part of the screen (three photos in
/// five), and the backlight's rolling bands on the panel (one in five).
fn reflect(
    buf: &mut [Px],
    rng: &mut Rng,
    display: &Display,
    to_screen: &Homography,
    (sw, sh): (u32, u32),
    (w, h): (usize, usize),
) {
    let glare = rng.chance(0.6).then(|| {
        (
            Point::new(rng.range(0.0, w as f32), rng.range(0.0, h as f32)),
            rng.range(0.08, 0.5) * w.max(h) as f32,
            rng.range(0.4, 1.0),
            rng.range(15.0, 90.0),
        )
    });
    let size = (sw as f32, sh as f32);
    for y in 0..h {
        for x in 0..w {
            let q = Point::new(x as f32, y as f32);
            let part = part_at(display_point(to_screen, q), size, display.bezel_px);
            if part == Part::Room {
                continue;
            }
            let px = &mut buf[y * w + x];
            if let (Part::Panel, Some((depth, period, phase))) = (part, display.bands) {
                let wave = 0.5 + 0.5 * (y as f32 / period * std::f32::consts::TAU + phase).sin();
                px.iter_mut().for_each(|v| *v *= 1.0 - depth * wave);
            }
            if let Some((at, radius, squash, strength)) = glare {
                // An elliptical glow, squashed along y, with a Gaussian fall-off.
                let (dx, dy) = ((q.x - at.x) / radius, (q.y - at.y) / (radius * squash));
                let add = strength * (-(dx * dx + dy * dy) * 2.0).exp();
                px.iter_mut().for_each(|v| *v += add);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_display_pixel_averages_to_its_even_glow_and_lights_one_channel_at_a_time() {
        let display = Display::random(&mut Rng::new(3));
        let colour = [200, 120, 40];
        let even = display.emitted(colour, (0.5, 0.5), 0.0);
        let n = 60;
        let mut sum = [0.0f32; 3];
        for j in 0..n {
            for i in 0..n {
                let at = ((i as f32 + 0.5) / n as f32, (j as f32 + 0.5) / n as f32);
                let lit = display.emitted(colour, at, 1.0);
                assert!(lit.iter().filter(|&&v| v > 0.0).count() <= 1, "{lit:?}");
                for ch in 0..3 {
                    sum[ch] += lit[ch] / (n * n) as f32;
                }
            }
        }
        for ch in 0..3 {
            assert!(
                (sum[ch] - even[ch]).abs() < 0.05 * even[ch],
                "channel {ch}: {sum:?} against {even:?}"
            );
        }
    }

    #[test]
    fn photos_hold_the_whole_grid_and_the_screenshots_labels() {
        let fonts = FontBank::system_for_tests();
        let mut made = 0;
        for seed in 0..6 {
            let mut rng = Rng::new(seed);
            let Some(photo) = screen_photo(&mut rng, &fonts, PrintCamera::Webcam) else {
                continue;
            };
            made += 1;
            let (w, h) = photo.image.dimensions();
            assert!((w, h) == (640, 480) || (w, h) == (1280, 720));
            assert!((60..=80).contains(&photo.jpeg_quality));
            assert!(
                photo
                    .labels
                    .iter()
                    .filter(|&&l| (1..=9).contains(&l))
                    .count()
                    >= 17
            );
            for c in photo.corners_in_image {
                assert!(c.x > 0.0 && c.y > 0.0 && c.x < w as f32 && c.y < h as f32);
            }
        }
        assert!(made >= 5, "only {made} of 6 poses could be placed");
    }

    #[test]
    fn same_seed_same_photo() {
        let fonts = FontBank::system_for_tests();
        let make = |seed| {
            let p = screen_photo(&mut Rng::new(seed), &fonts, PrintCamera::Webcam).unwrap();
            (p.image, p.corners_in_image, p.labels)
        };
        let a = make(5);
        assert!(a == make(5));
        assert!(a.0 != make(6).0);
    }
}
