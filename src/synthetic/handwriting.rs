//! Synthetic handwriting: the digits 1–9 drawn as pen strokes in the style of one writer.
//!
//! A digit is a few strokes through control points (one skeleton per way of writing it: a
//! 1 with or without its flag and foot, a 7 with or without its bar, an open or a closed 4,
//! a 2 with a loop, a flat-topped 3, …), passed through a Catmull–Rom spline. A [`Writer`]
//! fixes what stays the same across one person's digits — which skeleton of each digit,
//! slant, width, size and place in the cell, stroke width, pen (black, blue, pencil, felt
//! tip), how shaky the hand is and how far loops close — and every digit drawn adds its own
//! jitter on top. [`rasterize`] turns strokes into anti-aliased coverage with round caps and
//! a pressure that varies along the stroke. Everything is a pure function of the [`Rng`].
//!
//! Only makes ink; composing it into a cell (paper, grid lines, blur, noise) is the caller's
//! business (`digits::synth`, the training export). Knows nothing of fonts or the model.

use super::Rng;

/// A point in glyph units: the digit's height is 1, `(0, 0)` its centre, y down.
pub type GlyphPoint = (f32, f32);

/// One pen stroke: points along the path, in glyph units.
pub type Stroke = Vec<GlyphPoint>;

/// What a writer writes with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pen {
    /// Black or dark ball-point / fine liner.
    Black,
    /// Blue ball-point (lighter than black once turned grey).
    Blue,
    /// Graphite pencil: light, grainy.
    Pencil,
    /// Felt tip or marker: thick, dark.
    Felt,
}

impl Pen {
    /// Every pen.
    pub const ALL: [Pen; 4] = [Pen::Black, Pen::Blue, Pen::Pencil, Pen::Felt];
}

/// How many skeletons each digit 0–9 has (index by digit).
const VARIANTS: [u8; 10] = [2, 4, 3, 2, 3, 2, 2, 4, 2, 3];

/// One person's way of writing digits.
#[derive(Clone, Debug, PartialEq)]
pub struct Writer {
    /// Which skeleton of each digit 0–9 this writer uses (usually; see [`Writer::strokes`]).
    pub variants: [u8; 10],
    /// Shear of the upright: x moves right by `slant · (0.5 − y)`; positive leans right.
    pub slant: f32,
    /// Width of the digits relative to the skeletons.
    pub width: f32,
    /// Digit height as a share of the cell's side.
    pub height: f32,
    /// Habitual offset of the digit's centre from the cell's, as shares of the side.
    pub offset: (f32, f32),
    /// Stroke width as a share of the digit height.
    pub stroke: f32,
    /// Jitter of the control points, glyph units (a careless or shaky hand).
    pub wobble: f32,
    /// Amplitude of the fine tremor along a stroke, glyph units.
    pub tremor: f32,
    /// How far loop ends miss their start, glyph units (0: closed loops).
    pub loop_gap: f32,
    /// The pen.
    pub pen: Pen,
    /// How dark the ink is against the paper, 0 (invisible) to 1 (black).
    pub darkness: f32,
}

impl Writer {
    /// A random writer whose pen is one of `pens` (any pen when empty): writers are drawn
    /// until one has such a pen, so with every pen allowed this is [`Writer::random`].
    pub fn random_with_pen(rng: &mut Rng, pens: &[Pen]) -> Writer {
        loop {
            let writer = Writer::random(rng);
            if pens.is_empty() || pens.contains(&writer.pen) {
                return writer;
            }
        }
    }

    /// A random writer.
    pub fn random(rng: &mut Rng) -> Writer {
        let mut variants = [0u8; 10];
        for (d, v) in variants.iter_mut().enumerate() {
            *v = rng.below(VARIANTS[d] as usize) as u8;
        }
        let pen = match rng.below(20) {
            0..=7 => Pen::Black,
            8..=14 => Pen::Blue,
            15..=17 => Pen::Pencil,
            _ => Pen::Felt,
        };
        let (stroke, darkness) = match pen {
            Pen::Black => (rng.range(0.045, 0.11), rng.range(0.6, 0.95)),
            Pen::Blue => (rng.range(0.045, 0.11), rng.range(0.4, 0.75)),
            Pen::Pencil => (rng.range(0.04, 0.09), rng.range(0.22, 0.55)),
            Pen::Felt => (rng.range(0.1, 0.17), rng.range(0.65, 0.95)),
        };
        let slant = if rng.chance(0.7) {
            rng.range(-0.05, 0.35)
        } else {
            rng.range(-0.25, 0.5)
        };
        Writer {
            variants,
            slant,
            width: rng.range(0.75, 1.25),
            height: rng.range(0.42, 0.82),
            offset: (rng.normal() * 0.05, rng.normal() * 0.05),
            stroke,
            wobble: rng.range(0.008, 0.045),
            tremor: if rng.chance(0.25) {
                rng.range(0.002, 0.012)
            } else {
                0.0
            },
            loop_gap: if rng.chance(0.4) {
                rng.range(0.02, 0.12)
            } else {
                0.0
            },
            pen,
            darkness,
        }
    }

    /// The strokes of `digit` (1–9; 0 draws a zero, anything above 9 nothing) as this
    /// writer writes it this time, in glyph units: the writer's skeleton (one time in ten
    /// another one, as people are not consistent), jittered, splined, slanted, resized.
    pub fn strokes(&self, digit: u8, rng: &mut Rng) -> Vec<Stroke> {
        if digit > 9 {
            return Vec::new();
        }
        let d = digit as usize;
        let variant = if rng.chance(0.1) {
            rng.below(VARIANTS[d] as usize) as u8
        } else {
            self.variants[d]
        };
        let width = self.width * rng.range(0.92, 1.08);
        let slant = self.slant + rng.normal() * 0.04;
        let turn = rng.normal() * 0.04;
        let (cos, sin) = (turn.cos(), turn.sin());
        let skeleton = skeleton(digit, variant);
        let strokes = skeleton.len();
        skeleton
            .into_iter()
            .enumerate()
            .map(|(s, points)| {
                let n = points.len();
                let closes = n > 2 && near(points[0], points[n - 1]);
                let mut jittered: Vec<GlyphPoint> = points
                    .iter()
                    .map(|&(x, y)| {
                        (
                            x + rng.normal() * self.wobble,
                            y + rng.normal() * self.wobble,
                        )
                    })
                    .collect();
                if closes {
                    // A loop's end misses its start by the writer's habit.
                    let a = rng.range(0.0, std::f32::consts::TAU);
                    let gap = self.loop_gap * rng.range(0.5, 1.5);
                    jittered[n - 1] =
                        (jittered[0].0 + gap * a.cos(), jittered[0].1 + gap * a.sin());
                }
                let mut path = catmull_rom(&jittered, 8);
                if self.tremor > 0.0 {
                    let (f, ph) = (rng.range(25.0, 60.0), rng.range(0.0, 6.3));
                    let total = path.len().max(1) as f32;
                    for (i, p) in path.iter_mut().enumerate() {
                        let t = i as f32 / total;
                        p.0 += self.tremor * (f * t + ph).sin();
                        p.1 += self.tremor * (1.3 * f * t + ph).cos();
                    }
                }
                // A second stroke (a 7's bar, a 5's flag, a 4's stem) sits a little apart.
                let shift = if s > 0 && strokes > 1 {
                    (rng.normal() * 0.02, rng.normal() * 0.02)
                } else {
                    (0.0, 0.0)
                };
                path.into_iter()
                    .map(|(x, y)| {
                        // Skeletons live in [0,1]²: centre, widen, slant, turn.
                        let (cx, cy) = ((x - 0.5 + shift.0) * width, y - 0.5 + shift.1);
                        let sx = cx - slant * cy;
                        (cos * sx - sin * cy, sin * sx + cos * cy)
                    })
                    .collect()
            })
            .collect()
    }
}

fn near(a: GlyphPoint, b: GlyphPoint) -> bool {
    (a.0 - b.0).abs() < 0.03 && (a.1 - b.1).abs() < 0.03
}

/// The control points of each stroke of `digit` drawn the `variant` way, in the unit box
/// (x right, y down, the digit spanning y 0–1 and about x 0.2–0.8).
fn skeleton(digit: u8, variant: u8) -> Vec<Vec<GlyphPoint>> {
    let p = |pts: &[(f32, f32)]| pts.to_vec();
    match (digit, variant) {
        (0, 0) => vec![p(&[
            (0.5, 0.0),
            (0.25, 0.16),
            (0.2, 0.55),
            (0.32, 0.92),
            (0.52, 1.0),
            (0.74, 0.88),
            (0.8, 0.48),
            (0.72, 0.12),
            (0.5, 0.0),
        ])],
        (0, _) => vec![p(&[
            (0.6, 0.02),
            (0.35, 0.1),
            (0.28, 0.5),
            (0.36, 0.95),
            (0.55, 0.98),
            (0.7, 0.6),
            (0.7, 0.2),
            (0.6, 0.02),
        ])],
        // 1: a plain stem.
        (1, 0) => vec![p(&[(0.53, 0.0), (0.51, 0.5), (0.5, 1.0)])],
        // 1 with a flag.
        (1, 1) => vec![p(&[
            (0.33, 0.24),
            (0.45, 0.1),
            (0.55, 0.0),
            (0.53, 0.5),
            (0.52, 1.0),
        ])],
        // 1 with a flag and a foot.
        (1, 2) => vec![
            p(&[
                (0.35, 0.22),
                (0.46, 0.1),
                (0.55, 0.0),
                (0.53, 0.5),
                (0.52, 1.0),
            ]),
            p(&[(0.32, 1.0), (0.72, 0.99)]),
        ],
        // 1 with a short flag, written as one quick tick.
        (1, _) => vec![p(&[(0.4, 0.14), (0.55, 0.0), (0.52, 0.55), (0.49, 1.0)])],
        (2, 0) => vec![p(&[
            (0.22, 0.24),
            (0.35, 0.04),
            (0.58, 0.0),
            (0.76, 0.16),
            (0.72, 0.42),
            (0.48, 0.7),
            (0.2, 1.0),
            (0.5, 0.98),
            (0.82, 0.99),
        ])],
        // 2 with a loop at its foot.
        (2, 1) => vec![p(&[
            (0.22, 0.22),
            (0.38, 0.03),
            (0.62, 0.02),
            (0.76, 0.2),
            (0.68, 0.45),
            (0.42, 0.75),
            (0.25, 0.95),
            (0.2, 0.84),
            (0.32, 0.8),
            (0.42, 0.96),
            (0.82, 0.98),
        ])],
        // 2 drawn like a Z with a round top.
        (2, _) => vec![p(&[
            (0.24, 0.12),
            (0.5, 0.0),
            (0.74, 0.12),
            (0.66, 0.4),
            (0.22, 0.98),
            (0.8, 0.97),
        ])],
        (3, 0) => vec![p(&[
            (0.22, 0.14),
            (0.45, 0.0),
            (0.72, 0.1),
            (0.7, 0.34),
            (0.45, 0.47),
            (0.74, 0.6),
            (0.79, 0.83),
            (0.55, 1.0),
            (0.2, 0.9),
        ])],
        // 3 with a flat top.
        (3, _) => vec![p(&[
            (0.22, 0.02),
            (0.78, 0.02),
            (0.45, 0.42),
            (0.74, 0.55),
            (0.8, 0.8),
            (0.55, 1.0),
            (0.2, 0.9),
        ])],
        // 4 open at the top: an L, then the stem.
        (4, 0) => vec![
            p(&[
                (0.3, 0.0),
                (0.25, 0.35),
                (0.2, 0.64),
                (0.5, 0.63),
                (0.86, 0.62),
            ]),
            p(&[(0.66, 0.08), (0.66, 0.55), (0.66, 1.0)]),
        ],
        // 4 closed: a triangle and the stem through it.
        (4, 1) => vec![
            p(&[
                (0.64, 0.0),
                (0.4, 0.34),
                (0.16, 0.66),
                (0.5, 0.66),
                (0.86, 0.65),
            ]),
            p(&[(0.64, 0.0), (0.64, 0.5), (0.64, 1.0)]),
        ],
        // 4 in one stroke, the stem drawn up from the bar.
        (4, _) => vec![p(&[
            (0.4, 0.0),
            (0.22, 0.6),
            (0.55, 0.6),
            (0.85, 0.58),
            (0.7, 0.58),
            (0.66, 0.1),
            (0.66, 1.0),
        ])],
        // 5: body, then the flag.
        (5, 0) => vec![
            p(&[
                (0.3, 0.02),
                (0.27, 0.45),
                (0.5, 0.37),
                (0.74, 0.5),
                (0.78, 0.76),
                (0.55, 0.99),
                (0.22, 0.9),
            ]),
            p(&[(0.3, 0.02), (0.55, 0.02), (0.8, 0.0)]),
        ],
        // 5 in one stroke from the flag.
        (5, _) => vec![p(&[
            (0.78, 0.0),
            (0.32, 0.02),
            (0.26, 0.46),
            (0.52, 0.38),
            (0.76, 0.52),
            (0.76, 0.8),
            (0.52, 1.0),
            (0.2, 0.88),
        ])],
        (6, 0) => vec![p(&[
            (0.7, 0.04),
            (0.45, 0.1),
            (0.26, 0.44),
            (0.22, 0.76),
            (0.4, 0.98),
            (0.66, 0.95),
            (0.78, 0.74),
            (0.62, 0.54),
            (0.4, 0.56),
            (0.24, 0.74),
        ])],
        // 6 with a straight back and a small bowl.
        (6, _) => vec![p(&[
            (0.62, 0.0),
            (0.4, 0.35),
            (0.3, 0.7),
            (0.42, 0.98),
            (0.66, 0.92),
            (0.7, 0.7),
            (0.5, 0.58),
            (0.32, 0.7),
        ])],
        (7, 0) => vec![p(&[
            (0.2, 0.04),
            (0.5, 0.03),
            (0.82, 0.02),
            (0.6, 0.5),
            (0.45, 1.0),
        ])],
        // 7 with a bar across the stem.
        (7, 1) => vec![
            p(&[
                (0.2, 0.04),
                (0.5, 0.03),
                (0.82, 0.02),
                (0.6, 0.5),
                (0.45, 1.0),
            ]),
            p(&[(0.38, 0.52), (0.58, 0.5), (0.8, 0.48)]),
        ],
        // 7 with a hook where the pen came down.
        (7, 2) => vec![p(&[
            (0.18, 0.16),
            (0.22, 0.03),
            (0.5, 0.04),
            (0.8, 0.02),
            (0.62, 0.45),
            (0.47, 1.0),
        ])],
        // 7 with a curved stem.
        (7, _) => vec![p(&[
            (0.2, 0.05),
            (0.82, 0.03),
            (0.68, 0.3),
            (0.55, 0.65),
            (0.52, 1.0),
        ])],
        // 8 in one stroke: an S and back.
        (8, 0) => vec![p(&[
            (0.72, 0.12),
            (0.5, 0.0),
            (0.28, 0.12),
            (0.3, 0.33),
            (0.5, 0.47),
            (0.75, 0.64),
            (0.76, 0.88),
            (0.5, 1.0),
            (0.25, 0.88),
            (0.26, 0.64),
            (0.5, 0.47),
            (0.7, 0.32),
            (0.72, 0.12),
        ])],
        // 8 as two stacked loops.
        (8, _) => vec![
            p(&[
                (0.5, 0.0),
                (0.3, 0.1),
                (0.31, 0.36),
                (0.5, 0.45),
                (0.68, 0.35),
                (0.68, 0.1),
                (0.5, 0.0),
            ]),
            p(&[
                (0.5, 0.45),
                (0.25, 0.6),
                (0.26, 0.9),
                (0.5, 1.0),
                (0.76, 0.88),
                (0.74, 0.58),
                (0.5, 0.45),
            ]),
        ],
        // 9: a loop, then a straight stem.
        (9, 0) => vec![p(&[
            (0.74, 0.18),
            (0.5, 0.02),
            (0.27, 0.16),
            (0.28, 0.4),
            (0.5, 0.48),
            (0.74, 0.34),
            (0.74, 0.14),
            (0.72, 0.6),
            (0.68, 1.0),
        ])],
        // 9 with a curved tail.
        (9, 1) => vec![p(&[
            (0.74, 0.2),
            (0.5, 0.02),
            (0.27, 0.16),
            (0.28, 0.4),
            (0.52, 0.47),
            (0.74, 0.32),
            (0.74, 0.15),
            (0.72, 0.68),
            (0.55, 0.98),
            (0.3, 0.92),
        ])],
        // 9 as a closed loop and a separate stem.
        (9, _) => vec![
            p(&[
                (0.72, 0.12),
                (0.5, 0.0),
                (0.28, 0.16),
                (0.32, 0.42),
                (0.56, 0.46),
                (0.74, 0.28),
                (0.72, 0.12),
            ]),
            p(&[(0.74, 0.1), (0.7, 0.55), (0.64, 1.0)]),
        ],
        _ => Vec::new(),
    }
}

/// A Catmull–Rom spline through `points`, `per_segment` samples per span (end points kept).
fn catmull_rom(points: &[GlyphPoint], per_segment: usize) -> Vec<GlyphPoint> {
    if points.len() < 3 {
        return points.to_vec();
    }
    let n = points.len();
    let at = |i: isize| points[i.clamp(0, n as isize - 1) as usize];
    let mut out = Vec::with_capacity((n - 1) * per_segment + 1);
    for i in 0..n - 1 {
        let (p0, p1, p2, p3) = (
            at(i as isize - 1),
            at(i as isize),
            at(i as isize + 1),
            at(i as isize + 2),
        );
        for s in 0..per_segment {
            let t = s as f32 / per_segment as f32;
            let (t2, t3) = (t * t, t * t * t);
            let f = |a: f32, b: f32, c: f32, d: f32| {
                0.5 * (2.0 * b
                    + (-a + c) * t
                    + (2.0 * a - 5.0 * b + 4.0 * c - d) * t2
                    + (-a + 3.0 * b - 3.0 * c + d) * t3)
            };
            out.push((f(p0.0, p1.0, p2.0, p3.0), f(p0.1, p1.1, p2.1, p3.1)));
        }
    }
    out.push(points[n - 1]);
    out
}

/// The nib [`rasterize`] draws with: `width_px` wide with round ends, its width swelling and
/// thinning by up to `pressure` (a share) along each stroke.
#[derive(Clone, Copy, Debug)]
pub struct Nib {
    /// Nominal width, buffer pixels.
    pub width_px: f32,
    /// Largest relative change of the width along a stroke.
    pub pressure: f32,
}

/// Draws `strokes` into `coverage` (a `width`×`height` row-major buffer of 0..1, kept at the
/// maximum of what is there and the new ink) with `nib`: each glyph point goes through
/// `to_px` (glyph units → buffer pixels).
pub fn rasterize(
    strokes: &[Stroke],
    to_px: impl Fn(GlyphPoint) -> GlyphPoint,
    nib: Nib,
    rng: &mut Rng,
    coverage: &mut [f32],
    width: usize,
    height: usize,
) {
    let Nib {
        width_px: stroke_px,
        pressure,
    } = nib;
    if coverage.len() < width * height || !stroke_px.is_finite() {
        return;
    }
    for stroke in strokes {
        let px: Vec<GlyphPoint> = stroke.iter().map(|&p| to_px(p)).collect();
        if px.is_empty() {
            continue;
        }
        let (f, ph) = (rng.range(2.0, 6.0), rng.range(0.0, 6.3));
        let radius = |i: usize| {
            let t = i as f32 / px.len().max(2) as f32;
            0.5 * stroke_px * (1.0 + pressure * (f * t + ph).sin()).max(0.3)
        };
        if px.len() == 1 {
            disc_segment(px[0], px[0], radius(0), radius(0), coverage, width, height);
        }
        for i in 1..px.len() {
            disc_segment(
                px[i - 1],
                px[i],
                radius(i - 1),
                radius(i),
                coverage,
                width,
                height,
            );
        }
    }
}

/// A segment with round ends whose radius goes from `ra` to `rb`, anti-aliased by distance.
fn disc_segment(
    a: GlyphPoint,
    b: GlyphPoint,
    ra: f32,
    rb: f32,
    coverage: &mut [f32],
    width: usize,
    height: usize,
) {
    if !(a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite()) {
        return;
    }
    let r = ra.max(rb) + 1.0;
    let x0 = (a.0.min(b.0) - r).floor().max(0.0) as usize;
    let y0 = (a.1.min(b.1) - r).floor().max(0.0) as usize;
    let x1 = ((a.0.max(b.0) + r).ceil().max(0.0) as usize).min(width);
    let y1 = ((a.1.max(b.1) + r).ceil().max(0.0) as usize).min(height);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    for y in y0..y1 {
        for x in x0..x1 {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let t = if len2 > 1e-9 {
                (((px - a.0) * dx + (py - a.1) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (qx, qy) = (a.0 + t * dx - px, a.1 + t * dy - py);
            let d = (qx * qx + qy * qy).sqrt();
            let c = (ra + t * (rb - ra) + 0.5 - d).clamp(0.0, 1.0);
            let slot = &mut coverage[y * width + x];
            if c > *slot {
                *slot = c;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ink(digit: u8, seed: u64) -> Vec<f32> {
        let mut rng = Rng::new(seed);
        let w = Writer::random(&mut rng);
        let strokes = w.strokes(digit, &mut rng);
        let mut cov = vec![0.0; 64 * 64];
        rasterize(
            &strokes,
            |(x, y)| (32.0 + 40.0 * x, 32.0 + 40.0 * y),
            Nib {
                width_px: 40.0 * w.stroke,
                pressure: 0.2,
            },
            &mut rng,
            &mut cov,
            64,
            64,
        );
        cov
    }

    #[test]
    fn a_writer_drawn_for_some_pens_has_one_of_them_and_any_pen_changes_nothing() {
        for seed in 0..40 {
            let pens = [Pen::Black, Pen::Felt];
            let writer = Writer::random_with_pen(&mut Rng::new(seed), &pens);
            assert!(pens.contains(&writer.pen), "seed {seed}: {:?}", writer.pen);
            let pencil = Writer::random_with_pen(&mut Rng::new(seed), &[Pen::Pencil]);
            assert_eq!(pencil.pen, Pen::Pencil);
            let any = Pen::ALL;
            assert_eq!(
                Writer::random_with_pen(&mut Rng::new(seed), &any),
                Writer::random(&mut Rng::new(seed))
            );
            assert_eq!(
                Writer::random_with_pen(&mut Rng::new(seed), &[]),
                Writer::random(&mut Rng::new(seed))
            );
        }
    }

    #[test]
    fn every_digit_and_variant_has_strokes_in_the_unit_box() {
        for d in 0..=9u8 {
            for v in 0..VARIANTS[d as usize] {
                let s = skeleton(d, v);
                assert!(!s.is_empty(), "digit {d} variant {v}");
                for stroke in &s {
                    assert!(stroke.len() >= 2, "digit {d} variant {v}");
                    for &(x, y) in stroke {
                        assert!((0.0..=1.0).contains(&x) && (0.0..=1.0).contains(&y));
                    }
                }
            }
        }
        assert!(skeleton(10, 0).is_empty());
    }

    #[test]
    fn same_seed_same_ink_and_digits_differ() {
        assert_eq!(ink(4, 9), ink(4, 9));
        assert_ne!(ink(4, 9), ink(4, 10));
        let one: f32 = ink(1, 3).iter().sum();
        let eight: f32 = ink(8, 3).iter().sum();
        assert!(one > 5.0 && eight > one, "1: {one}, 8: {eight}");
    }

    #[test]
    fn ink_stays_inside_the_buffer_and_in_range() {
        let mut rng = Rng::new(5);
        let w = Writer::random(&mut rng);
        let strokes = w.strokes(7, &mut rng);
        let mut cov = vec![0.0; 10 * 10];
        // A glyph far larger than the buffer, partly outside it: clipped, no panic.
        rasterize(
            &strokes,
            |(x, y)| (200.0 * x, 200.0 * y),
            Nib {
                width_px: 9.0,
                pressure: 0.5,
            },
            &mut rng,
            &mut cov,
            10,
            10,
        );
        assert!(cov.iter().all(|c| (0.0..=1.0).contains(c)));
        rasterize(
            &strokes,
            |_| (f32::NAN, 0.0),
            Nib {
                width_px: 3.0,
                pressure: 0.0,
            },
            &mut rng,
            &mut cov,
            10,
            10,
        );
    }
}
