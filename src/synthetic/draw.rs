//! Anti-aliased rasterizing onto an `RgbImage` for the screenshot generator: filled and
//! rounded rectangles, rings, circles, thick segments and text from font outlines.
//!
//! Owns coverage computation and blending only; it decides nothing about what a screen shows
//! (see `screens`). Coordinates are image pixels with pixel centres at integers (as
//! `vision::Point`): the pixel `(3, 5)` covers `[2.5, 3.5] × [4.5, 5.5]`.

use ab_glyph::{Font, FontVec, OutlinedGlyph, PxScale, ScaleFont, point};
use image::{Rgb, RgbImage};

use crate::vision::Point;

/// An sRGB colour.
pub type Colour = [u8; 3];

/// `a` to `b` by `t` (0 gives `a`).
pub fn mix(a: Colour, b: Colour, t: f32) -> Colour {
    let t = t.clamp(0.0, 1.0);
    let m = |x: u8, y: u8| (x as f32 + (y as f32 - x as f32) * t).round() as u8;
    [m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2])]
}

/// A colour from hue (degrees), saturation and value (0–1).
pub fn hsv(hue_deg: f32, sat: f32, val: f32) -> Colour {
    let h = hue_deg.rem_euclid(360.0) / 60.0;
    let c = val * sat;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = val - c;
    let q = |v: f32| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    [q(r), q(g), q(b)]
}

/// Relative luminance-like brightness 0–255 (Rec. 601 weights).
pub fn luma(c: Colour) -> f32 {
    0.299 * c[0] as f32 + 0.587 * c[1] as f32 + 0.114 * c[2] as f32
}

/// An axis-aligned rectangle `[x0, x1] × [y0, y1]` in image pixels.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x0: f32,
    /// Top edge.
    pub y0: f32,
    /// Right edge.
    pub x1: f32,
    /// Bottom edge.
    pub y1: f32,
}

impl Rect {
    /// The rectangle with top-left `(x, y)`, width `w` and height `h`.
    pub fn xywh(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect {
            x0: x,
            y0: y,
            x1: x + w,
            y1: y + h,
        }
    }

    /// Width.
    pub fn w(&self) -> f32 {
        self.x1 - self.x0
    }

    /// Height.
    pub fn h(&self) -> f32 {
        self.y1 - self.y0
    }

    /// Centre.
    pub fn centre(&self) -> Point {
        Point::new((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }

    /// This rectangle grown by `d` on every side (shrunk for negative `d`).
    pub fn inflate(&self, d: f32) -> Rect {
        Rect {
            x0: self.x0 - d,
            y0: self.y0 - d,
            x1: self.x1 + d,
            y1: self.y1 + d,
        }
    }
}

/// An image being drawn on.
pub struct Canvas {
    /// The pixels.
    pub image: RgbImage,
}

impl Canvas {
    /// A `width × height` canvas filled with `colour`.
    pub fn new(width: u32, height: u32, colour: Colour) -> Canvas {
        Canvas {
            image: RgbImage::from_pixel(width.max(1), height.max(1), Rgb(colour)),
        }
    }

    fn blend(&mut self, x: i64, y: i64, colour: Colour, alpha: f32) {
        if alpha <= 0.0 || x < 0 || y < 0 {
            return;
        }
        let (w, h) = self.image.dimensions();
        if x >= w as i64 || y >= h as i64 {
            return;
        }
        let p = self.image.get_pixel_mut(x as u32, y as u32);
        if alpha >= 1.0 {
            p.0 = colour;
        } else {
            p.0 = mix(p.0, colour, alpha);
        }
    }

    /// The pixel range `[lo, hi)` along one axis touched by `[a, b]` (clipped to `0..n`).
    fn span(a: f32, b: f32, n: u32) -> (i64, i64) {
        let lo = ((a + 0.5).floor() as i64).max(0);
        let hi = ((b + 0.5).ceil() as i64).min(n as i64);
        (lo, hi)
    }

    /// Fills `r` with exact area coverage at its edges; `alpha` scales the opacity.
    pub fn fill_rect(&mut self, r: Rect, colour: Colour, alpha: f32) {
        if r.x1 <= r.x0 || r.y1 <= r.y0 {
            return;
        }
        let (w, h) = self.image.dimensions();
        let (xa, xb) = Canvas::span(r.x0, r.x1, w);
        let (ya, yb) = Canvas::span(r.y0, r.y1, h);
        let overlap = |i: i64, a: f32, b: f32| -> f32 {
            let (p0, p1) = (i as f32 - 0.5, i as f32 + 0.5);
            (b.min(p1) - a.max(p0)).clamp(0.0, 1.0)
        };
        for y in ya..yb {
            let cy = overlap(y, r.y0, r.y1);
            for x in xa..xb {
                let c = cy * overlap(x, r.x0, r.x1);
                self.blend(x, y, colour, c * alpha);
            }
        }
    }

    /// Fills `r` with corners rounded to `radius` px (anti-aliased by distance).
    pub fn fill_rounded_rect(&mut self, r: Rect, radius: f32, colour: Colour, alpha: f32) {
        if radius < 0.3 {
            self.fill_rect(r, colour, alpha);
            return;
        }
        self.shade(
            r.inflate(1.0),
            |p| (0.5 - rounded_rect_distance(p, r, radius)).clamp(0.0, 1.0) * alpha,
            colour,
        );
    }

    /// Strokes the outline of `r` (rounded to `radius`) with a line `width` px wide centred
    /// on the outline.
    pub fn stroke_rounded_rect(&mut self, r: Rect, radius: f32, width: f32, colour: Colour) {
        let half = width / 2.0;
        self.shade(
            r.inflate(half + 1.0),
            |p| {
                let d = rounded_rect_distance(p, r, radius).abs();
                (half + 0.5 - d).clamp(0.0, 1.0).min(width)
            },
            colour,
        );
    }

    /// Paints `colour` over the pixels of `area` that lie outside the rounded rectangle
    /// `shape` (how square fills get rounded corners).
    pub fn fill_outside_rounded(&mut self, area: Rect, shape: Rect, radius: f32, colour: Colour) {
        self.shade(
            area.inflate(1.0),
            |p| (0.5 + rounded_rect_distance(p, shape, radius)).clamp(0.0, 1.0),
            colour,
        );
    }

    /// Fills the disc of radius `r` around `centre`.
    pub fn fill_circle(&mut self, centre: Point, r: f32, colour: Colour, alpha: f32) {
        let bounds = Rect {
            x0: centre.x - r - 1.0,
            y0: centre.y - r - 1.0,
            x1: centre.x + r + 1.0,
            y1: centre.y + r + 1.0,
        };
        self.shade(
            bounds,
            |p| (r + 0.5 - p.distance(centre)).clamp(0.0, 1.0) * alpha,
            colour,
        );
    }

    /// A segment `a`–`b`, `width` px wide with round caps.
    pub fn line(&mut self, a: Point, b: Point, width: f32, colour: Colour) {
        let half = width / 2.0;
        let bounds = Rect {
            x0: a.x.min(b.x) - half - 1.0,
            y0: a.y.min(b.y) - half - 1.0,
            x1: a.x.max(b.x) + half + 1.0,
            y1: a.y.max(b.y) + half + 1.0,
        };
        let ab = b - a;
        let len2 = (ab.x * ab.x + ab.y * ab.y).max(1e-6);
        self.shade(
            bounds,
            |p| {
                let ap = p - a;
                let t = ((ap.x * ab.x + ap.y * ab.y) / len2).clamp(0.0, 1.0);
                let d = p.distance(a.lerp(b, t));
                (half + 0.5 - d).clamp(0.0, 1.0).min(width)
            },
            colour,
        );
    }

    /// Blends `colour` over the pixels of `bounds` with the opacity `coverage(pixel centre)`.
    fn shade(&mut self, bounds: Rect, coverage: impl Fn(Point) -> f32, colour: Colour) {
        let (w, h) = self.image.dimensions();
        let (xa, xb) = Canvas::span(bounds.x0, bounds.x1, w);
        let (ya, yb) = Canvas::span(bounds.y0, bounds.y1, h);
        for y in ya..yb {
            for x in xa..xb {
                let c = coverage(Point::new(x as f32, y as f32));
                self.blend(x, y, colour, c);
            }
        }
    }

    /// Fills `r` with a vertical gradient from `top` to `bottom`.
    pub fn vertical_gradient(&mut self, r: Rect, top: Colour, bottom: Colour) {
        let steps = r.h().ceil().max(1.0) as usize;
        for i in 0..steps {
            let y = r.y0 + i as f32;
            let band = Rect {
                x0: r.x0,
                y0: y,
                x1: r.x1,
                y1: (y + 1.0).min(r.y1),
            };
            self.fill_rect(band, mix(top, bottom, i as f32 / steps as f32), 1.0);
        }
    }

    /// Draws `text` with its baseline starting at `(x, baseline_y)`; returns the advance
    /// width in px.
    pub fn text(
        &mut self,
        font: &FontVec,
        text: &str,
        size_px: f32,
        x: f32,
        baseline_y: f32,
        colour: Colour,
    ) -> f32 {
        let (glyphs, advance) = layout(font, text, size_px, x, baseline_y);
        for g in glyphs {
            self.glyph(&g, colour);
        }
        advance
    }

    /// Draws `text` so that the box around its ink is centred on `centre`.
    pub fn text_centred(
        &mut self,
        font: &FontVec,
        text: &str,
        size_px: f32,
        centre: Point,
        colour: Colour,
    ) {
        let (glyphs, _) = layout(font, text, size_px, 0.0, 0.0);
        let Some(ink) = ink_bounds(&glyphs) else {
            return;
        };
        let c = ink.centre();
        let (glyphs, _) = layout(font, text, size_px, centre.x - c.x, centre.y - c.y);
        for g in glyphs {
            self.glyph(&g, colour);
        }
    }

    /// Draws one character scaled so that its ink is `ink_height_px` tall, centred on
    /// `centre` (how apps place the digit of a cell).
    pub fn glyph_centred(
        &mut self,
        font: &FontVec,
        ch: char,
        ink_height_px: f32,
        centre: Point,
        colour: Colour,
    ) {
        let probe_size = 100.0;
        let (probe, _) = layout(font, &ch.to_string(), probe_size, 0.0, 0.0);
        let Some(ink) = ink_bounds(&probe) else {
            return;
        };
        let size = probe_size * ink_height_px / ink.h().max(1.0);
        self.text_centred(font, &ch.to_string(), size, centre, colour);
    }

    fn glyph(&mut self, g: &OutlinedGlyph, colour: Colour) {
        let b = g.px_bounds();
        let (ox, oy) = (b.min.x as i64, b.min.y as i64);
        g.draw(|x, y, c| self.blend(ox + x as i64, oy + y as i64, colour, c));
    }
}

/// Width in px of `text` set at `size_px`.
pub fn text_width(font: &FontVec, text: &str, size_px: f32) -> f32 {
    layout(font, text, size_px, 0.0, 0.0).1
}

/// Outlined glyphs of `text` with the baseline starting at `(x, baseline_y)` in our pixel
/// space, and the advance width.
fn layout(
    font: &FontVec,
    text: &str,
    size_px: f32,
    x: f32,
    baseline_y: f32,
) -> (Vec<OutlinedGlyph>, f32) {
    let scaled = font.as_scaled(PxScale::from(size_px.max(1.0)));
    // ab_glyph's pixel (i, j) covers [i, i+1]; ours is centred on i.
    let mut pen = x + 0.5;
    let mut prev = None;
    let mut out = Vec::new();
    for ch in text.chars() {
        let id = font.glyph_id(ch);
        if let Some(p) = prev {
            pen += scaled.kern(p, id);
        }
        let glyph = id.with_scale_and_position(size_px.max(1.0), point(pen, baseline_y + 0.5));
        pen += scaled.h_advance(id);
        prev = Some(id);
        if let Some(o) = font.outline_glyph(glyph) {
            out.push(o);
        }
    }
    (out, pen - x - 0.5)
}

/// The box around the ink of `glyphs`, in our pixel space.
fn ink_bounds(glyphs: &[OutlinedGlyph]) -> Option<Rect> {
    let mut out: Option<Rect> = None;
    for g in glyphs {
        let b = g.px_bounds();
        let r = Rect {
            x0: b.min.x - 0.5,
            y0: b.min.y - 0.5,
            x1: b.max.x - 0.5,
            y1: b.max.y - 0.5,
        };
        out = Some(match out {
            None => r,
            Some(o) => Rect {
                x0: o.x0.min(r.x0),
                y0: o.y0.min(r.y0),
                x1: o.x1.max(r.x1),
                y1: o.y1.max(r.y1),
            },
        });
    }
    out
}

/// Signed distance from `p` to the rounded rectangle (negative inside).
fn rounded_rect_distance(p: Point, r: Rect, radius: f32) -> f32 {
    let radius = radius.min(r.w() / 2.0).min(r.h() / 2.0).max(0.0);
    let c = r.centre();
    let hx = r.w() / 2.0 - radius;
    let hy = r.h() / 2.0 - radius;
    let qx = (p.x - c.x).abs() - hx;
    let qy = (p.y - c.y).abs() - hy;
    let outside = qx.max(0.0).hypot(qy.max(0.0));
    outside + qx.max(qy).min(0.0) - radius
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rect_coverage_is_exact_at_half_pixels() {
        let mut c = Canvas::new(10, 10, [0, 0, 0]);
        // Covers pixels 2..=4 fully and half of pixel 5 horizontally.
        c.fill_rect(Rect::xywh(1.5, 1.5, 3.5, 2.0), [200, 200, 200], 1.0);
        assert_eq!(c.image.get_pixel(3, 2).0, [200, 200, 200]);
        assert_eq!(c.image.get_pixel(5, 2).0, [100, 100, 100]);
        assert_eq!(c.image.get_pixel(6, 2).0, [0, 0, 0]);
        assert_eq!(c.image.get_pixel(3, 4).0, [0, 0, 0]);
    }

    #[test]
    fn rings_and_text_leave_ink() {
        let mut c = Canvas::new(60, 60, [255, 255, 255]);
        c.stroke_rounded_rect(Rect::xywh(10.0, 10.0, 40.0, 40.0), 6.0, 2.0, [0, 0, 0]);
        assert!(c.image.get_pixel(30, 10).0[0] < 60);
        assert_eq!(c.image.get_pixel(30, 30).0, [255, 255, 255]);
        assert!(
            c.image.get_pixel(10, 10).0[0] > 200,
            "the corner is rounded off"
        );
    }
}
