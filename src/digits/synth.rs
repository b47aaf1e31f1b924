//! Synthetic training cells: digits rendered from system fonts, or written by a synthetic
//! hand (`synthetic::handwriting`), with the degradations a phone photo of newsprint shows
//! (size, offset, rotation, stroke weight, handwriting-like warps, blur, noise, JPEG, uneven
//! light, grid-line remnants, pencil marks).
//!
//! Produces raw cell crops (as `vision::rectify::cell_crops` would), never classifier input:
//! the exporter sends them through the same `vision::normalize_cell` as inference. Only used
//! to build training data; nothing at inference time depends on it.

use ab_glyph::{Font, FontVec, PxScale};
use image::{GrayImage, Luma};

use super::{CLASS_PENCIL, Writing};
use crate::synthetic::handwriting::{self, Pen, Writer};
use crate::synthetic::{DigitFont, FontBank, Rng};

/// A float image (coverage 0..1) used while composing a cell.
struct Layer {
    w: usize,
    h: usize,
    v: Vec<f32>,
}

impl Layer {
    fn new(w: usize, h: usize) -> Layer {
        Layer {
            w,
            h,
            v: vec![0.0; w * h],
        }
    }

    fn get(&self, x: f32, y: f32) -> f32 {
        if !(x.is_finite() && y.is_finite()) {
            return 0.0;
        }
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let at = |xi: f32, yi: f32| -> f32 {
            if xi < 0.0 || yi < 0.0 || xi >= self.w as f32 || yi >= self.h as f32 {
                0.0
            } else {
                self.v[yi as usize * self.w + xi as usize]
            }
        };
        let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1.0, y0) * fx;
        let bottom = at(x0, y0 + 1.0) * (1.0 - fx) + at(x0 + 1.0, y0 + 1.0) * fx;
        top * (1.0 - fy) + bottom * fy
    }

    fn max_at(&mut self, x: usize, y: usize, c: f32) {
        if x < self.w && y < self.h {
            let p = &mut self.v[y * self.w + x];
            *p = p.max(c);
        }
    }
}

/// Renders `ch` with `font` so that its ink box is about `height_px` tall; returns the layer
/// (ink box plus a 2-px border).
fn glyph_layer(font: &FontVec, ch: char, height_px: f32) -> Option<Layer> {
    let probe = font.outline_glyph(font.glyph_id(ch).with_scale(PxScale::from(100.0)))?;
    let b = probe.px_bounds();
    let probe_h = (b.max.y - b.min.y).max(1.0);
    let scale = 100.0 * height_px / probe_h;
    let g = font.outline_glyph(font.glyph_id(ch).with_scale(PxScale::from(scale)))?;
    let b = g.px_bounds();
    let w = (b.max.x - b.min.x).ceil() as usize + 4;
    let h = (b.max.y - b.min.y).ceil() as usize + 4;
    if w > 2000 || h > 2000 {
        return None;
    }
    let mut layer = Layer::new(w, h);
    g.draw(|x, y, c| layer.max_at(x as usize + 2, y as usize + 2, c));
    Some(layer)
}

/// Changes stroke weight: blurs the coverage and re-thresholds it (threshold < 0.5 fattens,
/// > 0.5 thins).
fn reweight(layer: &mut Layer, sigma: f32, threshold: f32) {
    if sigma <= 0.05 {
        return;
    }
    let img = GrayImage::from_fn(layer.w as u32, layer.h as u32, |x, y| {
        Luma([(layer.v[y as usize * layer.w + x as usize] * 255.0) as u8])
    });
    let blurred = imageproc::filter::gaussian_blur_f32(&img, sigma);
    for (v, p) in layer.v.iter_mut().zip(blurred.pixels()) {
        let c = p.0[0] as f32 / 255.0;
        *v = ((c - threshold) * 4.0 + 0.5).clamp(0.0, 1.0);
    }
}

/// A glyph placed on the canvas: inverse mapping from canvas to glyph-layer coordinates.
struct Placement {
    centre: (f32, f32),
    /// Inverse of the glyph's 2×2 linear map (rotation, shear, aspect).
    inv: [f32; 4],
    /// Elastic wobble: (amplitude px, frequency, phase) per axis.
    wobble: [(f32, f32, f32); 2],
    ink: f32,
}

fn stamp(canvas: &mut Layer, glyph: &Layer, p: &Placement) {
    let (gcx, gcy) = (glyph.w as f32 / 2.0, glyph.h as f32 / 2.0);
    for y in 0..canvas.h {
        for x in 0..canvas.w {
            let dx = x as f32 + 0.5 - p.centre.0;
            let dy = y as f32 + 0.5 - p.centre.1;
            let mut gx = p.inv[0] * dx + p.inv[1] * dy;
            let mut gy = p.inv[2] * dx + p.inv[3] * dy;
            let (ax, fx, phx) = p.wobble[0];
            let (ay, fy, phy) = p.wobble[1];
            gx += ax * (fy * gy + phx).sin();
            gy += ay * (fx * gx + phy).sin();
            let c = glyph.get(gx + gcx - 0.5, gy + gcy - 0.5) * p.ink;
            if c > 0.0 {
                canvas.max_at(x, y, c);
            }
        }
    }
}

fn linear_map(rng: &mut Rng, max_rot_deg: f32, max_shear: f32) -> [f32; 4] {
    let a = rng.range(-max_rot_deg, max_rot_deg).to_radians();
    let shear = rng.range(-max_shear, max_shear);
    let sx = rng.range(0.85, 1.15);
    // forward = R · Shear · diag(sx, 1); we need its inverse.
    let (c, s) = (a.cos(), a.sin());
    let f = [c * sx, c * shear - s, s * sx, s * shear + c];
    let det = f[0] * f[3] - f[1] * f[2];
    if det.abs() < 1e-6 {
        return [1.0, 0.0, 0.0, 1.0];
    }
    [f[3] / det, -f[1] / det, -f[2] / det, f[0] / det]
}

/// The supersampled ink of one cell crop being composed: the cell proper spans
/// `[margin, margin + cell)` on both axes of a `side`² layer, `k` layer pixels per output pixel.
struct CellInk {
    ink: Layer,
    k: f32,
    cell: f32,
    margin: f32,
}

impl CellInk {
    /// A blank layer for a `cell_size_px` cell with parts of the surrounding grid lines
    /// (sometimes thick box borders), slightly off their place, as a real crop has them.
    fn with_grid_lines(cell_size_px: u32, rng: &mut Rng) -> CellInk {
        let cell = cell_size_px.max(8) as f32;
        let k = 3.0f32; // supersampling
        let c = cell * k;
        let margin = 0.25 * c;
        let side = (c + 2.0 * margin).round() as usize;
        let mut ink = Layer::new(side, side);
        for edge in 0..4 {
            if !rng.chance(0.92) {
                continue;
            }
            let thick = if rng.chance(0.3) {
                rng.range(2.0, 4.5)
            } else {
                rng.range(0.6, 2.2)
            } * k;
            let strength = rng.range(0.5, 1.0);
            let pos = if edge % 2 == 0 { margin } else { margin + c } + rng.normal() * 0.02 * c;
            let lo = (pos - thick / 2.0).max(0.0) as usize;
            let hi = ((pos + thick / 2.0).max(0.0) as usize).min(side);
            for a in lo..hi {
                for b in 0..side {
                    if edge < 2 {
                        ink.max_at(b, a, strength);
                    } else {
                        ink.max_at(a, b, strength);
                    }
                }
            }
        }
        CellInk {
            ink,
            k,
            cell: c,
            margin,
        }
    }

    /// The cell's centre in layer pixels.
    fn centre(&self) -> (f32, f32) {
        (self.margin + self.cell / 2.0, self.margin + self.cell / 2.0)
    }

    /// Paper, ink level and uneven light, a crop window with jitter (as detector corners
    /// would give), box-filtered down to `cell_size_px`², then blur, noise and JPEG.
    fn develop(&self, cell_size_px: u32, rng: &mut Rng) -> GrayImage {
        let (ink, margin, c) = (&self.ink, self.margin, self.cell);
        let paper = rng.range(140.0, 250.0);
        let ink_level = rng.range(0.0, (paper - 80.0).max(1.0));
        // Light varies little across one cell in real photos.
        let (gx, gy) = (rng.range(-0.06, 0.06), rng.range(-0.06, 0.06));
        let jitter = 0.05 * c;
        let x0 = margin + rng.normal() * jitter * 0.5;
        let y0 = margin + rng.normal() * jitter * 0.5;
        let x1 = margin + c + rng.normal() * jitter * 0.5;
        let y1 = margin + c + rng.normal() * jitter * 0.5;
        let n = cell_size_px.max(8);
        let mut out = GrayImage::new(n, n);
        for oy in 0..n {
            for ox in 0..n {
                // Box-average the 3×3 supersamples under this output pixel.
                let mut acc = 0.0;
                let mut cnt = 0.0;
                for sy in 0..3 {
                    for sx in 0..3 {
                        let u = (ox as f32 + (sx as f32 + 0.5) / 3.0) / n as f32;
                        let v = (oy as f32 + (sy as f32 + 0.5) / 3.0) / n as f32;
                        let x = x0 + (x1 - x0) * u;
                        let y = y0 + (y1 - y0) * v;
                        acc += ink.get(x - 0.5, y - 0.5);
                        cnt += 1.0;
                    }
                }
                let cov = acc / cnt;
                let u = ox as f32 / n as f32 - 0.5;
                let v = oy as f32 / n as f32 - 0.5;
                let light = 1.0 + gx * u + gy * v;
                let value = (paper - cov * (paper - ink_level)) * light;
                out.put_pixel(ox, oy, Luma([value.clamp(0.0, 255.0) as u8]));
            }
        }
        degrade(out, rng)
    }
}

/// Renders one synthetic cell crop of class `class` (0 empty, 1–9, 10 pencil marks) as a
/// `cell_size_px`² grey image: paper light, ink dark, with parts of the surrounding grid lines
/// as a real crop has. Digits come from the fonts, three in ten from slanted or script faces
/// warped like handwriting. Deterministic for a given `rng` state.
pub fn render_cell(bank: &FontBank, class: u8, rng: &mut Rng, cell_size_px: u32) -> GrayImage {
    render_font_cell(bank, class, rng, cell_size_px).0
}

/// [`render_cell`], also telling how the digit was written: `Some(Printed)` for an upright
/// face, `None` where a script face was warped to look handwritten (neither label is
/// honest) and for cells without a digit.
pub fn render_font_cell(
    bank: &FontBank,
    class: u8,
    rng: &mut Rng,
    cell_size_px: u32,
) -> (GrayImage, Option<Writing>) {
    let mut cell = CellInk::with_grid_lines(cell_size_px, rng);
    let c = cell.cell;
    let margin = cell.margin;
    let centre = cell.centre();
    let fonts = bank.fonts();
    let mut writing = None;
    match class {
        1..=9 => {
            let handwriting = rng.chance(0.3);
            writing = (!handwriting).then_some(Writing::Printed);
            let font = pick_font(fonts, rng, handwriting);
            let height = rng.range(0.42, 0.8) * c;
            if let Some(mut g) = glyph_layer(font.face(), char::from(b'0' + class), height) {
                let stroke = rng.range(0.0, 0.06) * height;
                reweight(&mut g, stroke, rng.range(0.25, 0.65));
                let (rot, shear, wob) = if handwriting {
                    (14.0, 0.3, 0.04)
                } else {
                    (5.0, 0.08, 0.0)
                };
                let p = Placement {
                    centre: (
                        centre.0 + rng.normal() * 0.07 * c,
                        centre.1 + rng.normal() * 0.06 * c,
                    ),
                    inv: linear_map(rng, rot, shear),
                    wobble: [
                        (
                            rng.range(0.0, wob) * height,
                            rng.range(1.0, 4.0) / height,
                            rng.range(0.0, 6.3),
                        ),
                        (
                            rng.range(0.0, wob) * height,
                            rng.range(1.0, 4.0) / height,
                            rng.range(0.0, 6.3),
                        ),
                    ],
                    ink: rng.range(0.7, 1.0),
                };
                stamp(&mut cell.ink, &g, &p);
            }
        }
        CLASS_PENCIL => {
            let slanted = rng.chance(0.4);
            let font = pick_font(fonts, rng, slanted);
            let count = 1 + rng.below(5);
            let mut used = [false; 9];
            let size = rng.range(0.14, 0.27) * c;
            let strength = rng.range(0.35, 0.9);
            for _ in 0..count {
                let d = rng.below(9);
                if used[d] {
                    continue;
                }
                used[d] = true;
                let (px, py) = pencil_spot(d, margin, c, rng);
                if let Some(g) = glyph_layer(font.face(), char::from(b'1' + d as u8), size) {
                    let p = Placement {
                        centre: (px, py),
                        inv: linear_map(rng, 10.0, 0.2),
                        wobble: [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)],
                        ink: strength,
                    };
                    stamp(&mut cell.ink, &g, &p);
                }
            }
        }
        _ => specks(&mut cell, rng),
    }
    (cell.develop(cell_size_px, rng), writing)
}

/// Where pencil mark `d` (0-based digit) goes: mostly at its keypad position, sometimes
/// anywhere.
fn pencil_spot(d: usize, margin: f32, c: f32, rng: &mut Rng) -> (f32, f32) {
    let (col, row) = if rng.chance(0.8) {
        ((d % 3) as f32, (d / 3) as f32)
    } else {
        (rng.range(0.0, 2.0), rng.range(0.0, 2.0))
    };
    (
        margin + (0.2 + 0.3 * col) * c + rng.normal() * 0.03 * c,
        margin + (0.2 + 0.3 * row) * c + rng.normal() * 0.03 * c,
    )
}

/// Now and then a speck or a short smudge in an empty cell.
fn specks(cell: &mut CellInk, rng: &mut Rng) {
    let (margin, c, k) = (cell.margin, cell.cell, cell.k);
    if rng.chance(0.25) {
        for _ in 0..1 + rng.below(3) {
            let (x0, y0) = (rng.range(margin, margin + c), rng.range(margin, margin + c));
            let r = rng.range(0.3, 1.5) * k;
            let s = rng.range(0.2, 0.7);
            for y in (y0 - r) as usize..=(y0 + r) as usize {
                for x in (x0 - r) as usize..=(x0 + r) as usize {
                    let d = ((x as f32 - x0).powi(2) + (y as f32 - y0).powi(2)).sqrt();
                    if d <= r {
                        cell.ink.max_at(x, y, s);
                    }
                }
            }
        }
    }
}

/// Renders one cell crop of class `class` written by hand by `writer` (see
/// `synthetic::handwriting`): a digit 1–9, small handwritten candidates for class 10, an
/// empty cell otherwise; same paper, grid lines and degradations as [`render_cell`].
pub fn render_handwritten_cell(
    writer: &Writer,
    class: u8,
    rng: &mut Rng,
    cell_size_px: u32,
) -> GrayImage {
    let mut cell = CellInk::with_grid_lines(cell_size_px, rng);
    let (c, margin) = (cell.cell, cell.margin);
    let mut hand = Layer::new(cell.ink.w, cell.ink.h);
    match class {
        1..=9 => {
            let (cx, cy) = cell.centre();
            let centre = (
                cx + (writer.offset.0 + rng.normal() * 0.04) * c,
                cy + (writer.offset.1 + rng.normal() * 0.04) * c,
            );
            let height = writer.height * rng.range(0.9, 1.1) * c;
            write_digit(writer, class, centre, height, 1.0, rng, &mut hand);
        }
        CLASS_PENCIL => {
            let height = rng.range(0.16, 0.3) * c;
            let mut used = [false; 9];
            for _ in 0..1 + rng.below(5) {
                let d = rng.below(9);
                if std::mem::replace(&mut used[d], true) {
                    continue;
                }
                let spot = pencil_spot(d, margin, c, rng);
                write_digit(writer, d as u8 + 1, spot, height, 0.8, rng, &mut hand);
            }
        }
        _ => specks(&mut cell, rng),
    }
    let grain = writer.pen == Pen::Pencil;
    for (dst, &h) in cell.ink.v.iter_mut().zip(&hand.v) {
        let h = if grain { h * rng.range(0.55, 1.0) } else { h };
        *dst = dst.max(h * writer.darkness);
    }
    cell.develop(cell_size_px, rng)
}

/// Writes `class` by `writer` into a real cell crop, as a pen would on the paper: a digit
/// 1–9 at the writer's size and place, or small candidates for class 10 (anything else
/// leaves the crop as it is). The ink darkens the crop's own paper, grid lines and shading
/// by the pen's darkness, slightly blurred like the photo around it.
pub fn composite_handwriting(crop: &mut GrayImage, writer: &Writer, class: u8, rng: &mut Rng) {
    let (w, h) = (crop.width() as usize, crop.height() as usize);
    if w < 4 || h < 4 {
        return;
    }
    let k = 3usize;
    let mut layer = Layer::new(w * k, h * k);
    let c = (w.min(h) * k) as f32;
    match class {
        1..=9 => {
            let centre = (
                layer.w as f32 / 2.0 + (writer.offset.0 + rng.normal() * 0.04) * c,
                layer.h as f32 / 2.0 + (writer.offset.1 + rng.normal() * 0.04) * c,
            );
            let height = writer.height * rng.range(0.9, 1.1) * c;
            write_digit(writer, class, centre, height, 1.0, rng, &mut layer);
        }
        CLASS_PENCIL => {
            let height = rng.range(0.16, 0.3) * c;
            let mut used = [false; 9];
            for _ in 0..1 + rng.below(5) {
                let d = rng.below(9);
                if std::mem::replace(&mut used[d], true) {
                    continue;
                }
                let spot = pencil_spot(d, 0.0, c, rng);
                write_digit(writer, d as u8 + 1, spot, height, 0.8, rng, &mut layer);
            }
        }
        _ => return,
    }
    // Down to the crop's pixels (box filter), then the photo's softness.
    let coverage = GrayImage::from_fn(w as u32, h as u32, |x, y| {
        let mut acc = 0.0;
        for sy in 0..k {
            for sx in 0..k {
                acc += layer.v[(y as usize * k + sy) * layer.w + x as usize * k + sx];
            }
        }
        Luma([(acc / (k * k) as f32 * 255.0).round() as u8])
    });
    let sigma = rng.range(0.0, 0.9);
    let coverage = if sigma > 0.3 {
        imageproc::filter::gaussian_blur_f32(&coverage, sigma)
    } else {
        coverage
    };
    let grain = writer.pen == Pen::Pencil;
    for (p, c) in crop.pixels_mut().zip(coverage.pixels()) {
        let mut cov = c.0[0] as f32 / 255.0;
        if grain {
            cov *= rng.range(0.55, 1.0);
        }
        let v = p.0[0] as f32 * (1.0 - writer.darkness * cov);
        p.0[0] = v.clamp(0.0, 255.0) as u8;
    }
}

/// Writes `digit` centred at `centre`, `height` layer pixels tall, into `layer` (coverage;
/// the pen `thin` times the writer's width).
fn write_digit(
    writer: &Writer,
    digit: u8,
    centre: (f32, f32),
    height: f32,
    thin: f32,
    rng: &mut Rng,
    layer: &mut Layer,
) {
    let strokes = writer.strokes(digit, rng);
    let stroke_px = (writer.stroke * height * thin).max(1.0);
    let (w, h) = (layer.w, layer.h);
    handwriting::rasterize(
        &strokes,
        |(x, y)| (centre.0 + x * height, centre.1 + y * height),
        handwriting::Nib {
            width_px: stroke_px,
            pressure: 0.25,
        },
        rng,
        &mut layer.v,
        w,
        h,
    );
}

fn pick_font<'a>(fonts: &'a [DigitFont], rng: &mut Rng, slanted: bool) -> &'a DigitFont {
    if slanted {
        let n = fonts.iter().filter(|f| f.slanted).count();
        if n > 0 {
            let i = rng.below(n);
            if let Some(f) = fonts.iter().filter(|f| f.slanted).nth(i) {
                return f;
            }
        }
    }
    &fonts[rng.below(fonts.len())]
}

/// Blur, sensor noise and JPEG round trip.
fn degrade(mut img: GrayImage, rng: &mut Rng) -> GrayImage {
    if rng.chance(0.6) {
        img = imageproc::filter::gaussian_blur_f32(&img, rng.range(0.3, 1.3));
    }
    let sigma = rng.range(0.0, 4.0);
    if sigma > 0.5 {
        for p in img.pixels_mut() {
            let v = p.0[0] as f32 + rng.normal() * sigma;
            p.0[0] = v.clamp(0.0, 255.0) as u8;
        }
    }
    if rng.chance(0.5) {
        let quality = 30 + rng.below(60) as u8;
        let mut buf = Vec::new();
        let enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut buf, quality);
        if img.write_with_encoder(enc).is_ok()
            && let Ok(back) = image::load_from_memory(&buf)
        {
            img = back.to_luma8();
        }
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_digits_darker_than_empties() {
        let bank = FontBank::system_for_tests();
        let ink =
            |img: &GrayImage| -> f32 { crate::vision::normalize_cell(img).iter().sum::<f32>() };
        let mut rng = Rng::new(11);
        let mut digit_ink = 0.0;
        let mut empty_ink = 0.0;
        for i in 0..20 {
            let d = render_cell(&bank, 1 + (i % 9) as u8, &mut rng, 40);
            assert_eq!(d.dimensions(), (40, 40));
            digit_ink += ink(&d);
            empty_ink += ink(&render_cell(&bank, 0, &mut rng, 40));
        }
        assert!(
            digit_ink > 2.0 * empty_ink,
            "digits {digit_ink} empties {empty_ink}"
        );
    }
}
