//! The paper of a printed page (a child module of `page`): its stock (newsprint, book or
//! magazine paper with its ink and spot colour), and what the paper itself adds once the page is
//! drawn: the back page showing through and the fibre texture. Nothing of layout or the grid.

use image::RgbImage;

use crate::synthetic::Rng;
use crate::synthetic::clip::paper::{Faces, column_text};
use crate::synthetic::draw::{Canvas, Colour, mix};
use crate::synthetic::optics::gaussian_blur;

/// How the paper and its print look.
#[derive(Copy, Clone, Debug)]
pub(super) struct Stock {
    pub(super) paper: Colour,
    pub(super) ink: Colour,
    /// Fibre texture strength (share of the paper's brightness).
    pub(super) fibre: f32,
    /// How strongly the back page shows through (0 none).
    pub(super) show_through: f32,
    /// A spot colour for tints and titles (magazines), else the ink.
    pub(super) accent: Colour,
}

pub(super) fn stock(rng: &mut Rng) -> Stock {
    match rng.below(3) {
        // Newsprint: grey-yellow, soft black ink, fibres, the back page showing through.
        0 => {
            let paper = mix([214, 210, 194], [236, 232, 220], rng.unit());
            Stock {
                paper,
                ink: mix([28, 28, 30], [70, 68, 66], rng.unit()),
                fibre: rng.range(0.015, 0.05),
                show_through: if rng.chance(0.7) {
                    rng.range(0.04, 0.14)
                } else {
                    0.0
                },
                accent: mix([28, 28, 30], [70, 68, 66], rng.unit()),
            }
        }
        // Book: white or cream, black ink.
        1 => Stock {
            paper: mix([238, 232, 214], [250, 250, 247], rng.unit()),
            ink: mix([10, 10, 12], [40, 40, 44], rng.unit()),
            fibre: rng.range(0.005, 0.02),
            show_through: if rng.chance(0.4) {
                rng.range(0.02, 0.07)
            } else {
                0.0
            },
            accent: [20, 20, 22],
        },
        // Puzzle magazine: bright paper, a spot colour.
        _ => {
            let hue = rng.range(0.0, 360.0);
            Stock {
                paper: mix([244, 244, 240], [252, 252, 252], rng.unit()),
                ink: mix([8, 8, 10], [36, 36, 48], rng.unit()),
                fibre: rng.range(0.0, 0.012),
                show_through: 0.0,
                accent: crate::synthetic::draw::hsv(hue, rng.range(0.4, 0.9), rng.range(0.4, 0.8)),
            }
        }
    }
}

/// The print of the back page seen through the paper: text columns, mirrored, blurred and
/// darkening the page by up to `strength`.
pub(super) fn show_through(
    image: &mut RgbImage,
    rng: &mut Rng,
    faces: &Faces<'_>,
    size: f32,
    strength: f32,
) {
    let (w, h) = image.dimensions();
    let mut back = Canvas::new(w, h, [255, 255, 255]);
    let columns = rng.between(2, 4);
    let gutter = size * 2.0;
    let col_w = (w as f32 - gutter * (columns + 1) as f32) / columns as f32;
    for k in 0..columns {
        let x = gutter + k as f32 * (col_w + gutter);
        column_text(
            &mut back,
            rng,
            faces,
            (x, col_w),
            (gutter, h as f32 - gutter),
            size,
            [0, 0, 0],
        );
    }
    let (wu, hu) = (w as usize, h as usize);
    let mut buf: Vec<[f32; 1]> = back.image.pixels().map(|p| [p.0[0] as f32]).collect();
    gaussian_blur(&mut buf, wu, hu, rng.range(1.0, 2.5));
    for (i, px) in image.pixels_mut().enumerate() {
        // Mirrored: the back page's left is this page's right.
        let (x, y) = (i % wu, i / wu);
        let dark = 1.0 - buf[y * wu + (wu - 1 - x)][0] / 255.0;
        let keep = 1.0 - strength * dark;
        px.0 = px.0.map(|v| (v as f32 * keep).round() as u8);
    }
}

/// Paper fibres: fine multiplicative noise, a little smoothed, and broad blotches.
pub(super) fn fibre(image: &mut RgbImage, rng: &mut Rng, strength: f32) {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let mut grain: Vec<[f32; 1]> = (0..w * h).map(|_| [rng.normal()]).collect();
    gaussian_blur(&mut grain, w, h, 0.7);
    let blotches: Vec<(f32, f32, f32, f32)> = (0..6)
        .map(|_| {
            (
                rng.range(0.0, w as f32),
                rng.range(0.0, h as f32),
                rng.range(0.1, 0.4) * w as f32,
                rng.range(-1.0, 1.0),
            )
        })
        .collect();
    for (i, px) in image.pixels_mut().enumerate() {
        let (x, y) = ((i % w) as f32, (i / w) as f32);
        let low: f32 = blotches
            .iter()
            .map(|&(bx, by, r, a)| a * (-((x - bx).powi(2) + (y - by).powi(2)) / (r * r)).exp())
            .sum();
        let m = 1.0 + strength * (1.6 * grain[i][0] + 0.8 * low);
        px.0 = px.0.map(|v| (v as f32 * m).round().clamp(0.0, 255.0) as u8);
    }
}
