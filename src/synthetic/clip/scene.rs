//! What the camera of a simulated clip looks at, and drawing one frame of it: a static desk
//! (a wood, laminate, cutting-mat or painted surface with lighting fall-off and texture), a
//! page cut from a photo around its grid (or a rendered page) lying on it with a soft drop
//! shadow, and sometimes a finger over the grid (a shaded skin-coloured capsule from a frame
//! edge, out of focus, with its own shadow).
//!
//! Owns the desk, the page's extent and shadow, the finger and the frame-drawing order
//! (page layer → motion blur → over the desk → finger → defocus → sensor, all through
//! `optics`). The timeline (`timeline`) says where everything is.

use image::RgbImage;

use super::timeline::{FingerCue, FrameState, Timeline};
use crate::synthetic::Rng;
use crate::synthetic::draw::{Colour, mix};
use crate::synthetic::optics::{
    Backdrop, Cover, Layer, Px, composite, gaussian_blur, mean_side, motion_blur, project,
    shrink_for_frame,
};
use crate::vision::{Homography, Point};

/// A page that can be shown: an image, where its grid (or focus region) is, and how far the
/// paper reaches around it.
#[derive(Clone, Debug)]
pub struct Page {
    /// The photo or rendered page.
    pub image: RgbImage,
    /// Outer corners (TL, TR, BR, BL) of the grid or focus region, in image pixels.
    pub grid: [Point; 4],
    /// How far the paper reaches beyond the grid on the left, top, right and bottom, in grid
    /// sides (the image's own edges cut it too).
    pub margins: [f32; 4],
}

impl Page {
    /// A box (x0, y0, x1, y1) in frame pixels holding the whole page when its grid lies on
    /// `quad`; `None` when degenerate.
    pub fn box_in_frame(&self, quad: [Point; 4]) -> Option<(f32, f32, f32, f32)> {
        let to_frame = Homography::from_points(self.grid, quad)?;
        let unit = Homography::from_unit_square(self.grid)?;
        let [l, t, r, b] = self.margins;
        let paper = [(-l, -t), (1.0 + r, -t), (1.0 + r, 1.0 + b), (-l, 1.0 + b)]
            .map(|(u, v)| to_frame.apply(unit.apply(Point::new(u, v))));
        let (w, h) = (self.image.width() as f32, self.image.height() as f32);
        let photo = [
            (-0.5, -0.5),
            (w - 0.5, -0.5),
            (w - 0.5, h - 0.5),
            (-0.5, h - 0.5),
        ]
        .map(|(x, y)| to_frame.apply(Point::new(x, y)));
        let bbox = |q: [Point; 4]| {
            let xs = q.map(|p| p.x);
            let ys = q.map(|p| p.y);
            (
                xs.iter().copied().fold(f32::INFINITY, f32::min),
                ys.iter().copied().fold(f32::INFINITY, f32::min),
                xs.iter().copied().fold(f32::NEG_INFINITY, f32::max),
                ys.iter().copied().fold(f32::NEG_INFINITY, f32::max),
            )
        };
        let (a, b) = (bbox(paper), bbox(photo));
        let out = (a.0.max(b.0), a.1.max(b.1), a.2.min(b.2), a.3.min(b.3));
        (out.0.is_finite() && out.3.is_finite() && out.0 < out.2 && out.1 < out.3).then_some(out)
    }
}

/// A page made ready for one visit: scaled for the size it rests at.
#[derive(Clone, Debug)]
pub struct PreparedPage {
    image: RgbImage,
    grid: [Point; 4],
    to_unit: Homography,
    margins: [f32; 4],
}

impl PreparedPage {
    /// `page` shrunk (when much larger) for its grid to appear as `rest`.
    pub fn new(page: &Page, rest: [Point; 4]) -> Option<PreparedPage> {
        let (image, grid) = shrink_for_frame(&page.image, page.grid, mean_side(rest));
        Some(PreparedPage {
            to_unit: Homography::from_unit_square(grid)?.inverse()?,
            image: image.into_owned(),
            grid,
            margins: page.margins,
        })
    }
}

/// The page's drop shadow on the desk.
#[derive(Copy, Clone, Debug)]
pub struct Shadow {
    /// Where the shadow falls relative to the page, px.
    pub offset: Point,
    /// Width of its soft edge, px.
    pub soft_px: f32,
    /// Opacity under the page.
    pub strength: f32,
}

/// Everything drawn that stays for the whole clip.
pub struct Scene {
    /// Frame size.
    pub size: (usize, usize),
    /// The desk, row-major.
    pub desk: Vec<Px>,
    /// One prepared page per visit of the timeline.
    pub pages: Vec<PreparedPage>,
    /// The pages' shadow.
    pub shadow: Shadow,
}

impl Scene {
    /// Draws frame `k` of `timeline` (sensor noise from `rng`).
    pub fn render(&self, timeline: &Timeline, k: usize, rng: &mut Rng) -> RgbImage {
        let (w, h) = self.size;
        let state: &FrameState = &timeline.frames[k];
        let mut quad = None;
        let mut buf = match state.visit {
            Some((vi, pose)) => {
                let q = pose.quad(timeline.visits[vi].rest);
                quad = Some(q);
                match self.page_layer(&self.pages[vi], q) {
                    Some(mut layer) => {
                        if let Some((len, angle)) = state.blur {
                            motion_blur(&mut layer.px, w, h, len, angle);
                        }
                        composite(&layer, Backdrop::Image(&self.desk))
                    }
                    None => self.desk.clone(),
                }
            }
            None => self.desk.clone(),
        };
        if let (Some(cue), Some(q)) = (state.finger, quad) {
            draw_finger(&mut buf, (w, h), q, cue);
        }
        gaussian_blur(&mut buf, w, h, state.defocus);
        state.look.develop(&mut buf, w, h, rng)
    }

    /// The page with its grid on `quad`, its paper edge anti-aliased, and its shadow.
    fn page_layer(&self, page: &PreparedPage, quad: [Point; 4]) -> Option<Layer> {
        let to_photo = Homography::from_points(page.grid, quad)?.inverse()?;
        let side = mean_side(quad);
        let px_scale = side / mean_side(page.grid).max(1e-3);
        let (iw, ih) = (page.image.width() as f32, page.image.height() as f32);
        let [ml, mt, mr, mb] = page.margins;
        let to_unit = page.to_unit;
        // Signed distance (frame px, positive inside) from a photo point to the paper's edge.
        let inside = move |p: Point| -> f32 {
            let uv = to_unit.apply(p);
            if !uv.is_finite() || !p.is_finite() {
                return f32::NEG_INFINITY;
            }
            let paper = ((uv.x + ml).min(1.0 + mr - uv.x)).min((uv.y + mt).min(1.0 + mb - uv.y));
            let photo = ((p.x + 0.5).min(iw - 0.5 - p.x)).min((p.y + 0.5).min(ih - 0.5 - p.y));
            (paper * side).min(photo * px_scale)
        };
        let shadow = self.shadow;
        Some(project(
            &page.image,
            &to_photo,
            self.size,
            move |q: Point, p: Point| {
                let page = (inside(p) + 0.5).clamp(0.0, 1.0);
                let shade = if page >= 1.0 {
                    0.0
                } else {
                    let d = inside(to_photo.apply(q - shadow.offset));
                    let t = (1.0 + d / shadow.soft_px).clamp(0.0, 1.0);
                    shadow.strength * t * t
                };
                Cover {
                    page,
                    shadow: shade,
                }
            },
        ))
    }
}

/// A static desk of `w × h`: a surface colour from a few kinds of desk, broad light
/// fall-off, blotches, wood grain for wooden desks, and fine texture.
pub fn desk(rng: &mut Rng, (w, h): (usize, usize)) -> Vec<Px> {
    const SURFACES: [(Colour, bool); 9] = [
        ([150, 105, 70], true),
        ([118, 80, 52], true),
        ([188, 152, 112], true),
        ([92, 62, 42], true),
        ([175, 175, 170], false),
        ([214, 212, 205], false),
        ([52, 52, 56], false),
        ([42, 88, 70], false),
        ([120, 128, 140], false),
    ];
    let (base, wood) = SURFACES[rng.below(SURFACES.len())];
    let base = base.map(|c| c as f32 * rng.range(0.85, 1.15));
    // Broad blotches: a coarse random lattice, bilinearly interpolated.
    let (gx, gy) = (7usize, 6usize);
    let lattice: Vec<f32> = (0..gx * gy).map(|_| rng.range(-1.0, 1.0)).collect();
    let blotch = rng.range(0.02, 0.08);
    let light_dir = rng.range(0.0, 2.0 * std::f32::consts::PI);
    let light = rng.range(0.05, 0.2);
    let grain_angle = rng.range(-0.3, 0.3) + if rng.chance(0.5) { 0.0 } else { 1.57 };
    let grain = if wood { rng.range(0.02, 0.05) } else { 0.0 };
    // Wood grain: an irregular 1-D profile of light and dark streaks across the grain (random
    // values smoothed over a few px, at the frame's scale), bent by the blotch field.
    let scale = w as f32 / 640.0;
    let streak = (rng.range(1.5, 4.0) * scale) as usize;
    let profile = grain_profile(rng, 4096, streak);
    let texture = rng.range(1.0, 4.0);
    let mut out = Vec::with_capacity(w * h);
    let (ca, sa) = (light_dir.cos(), light_dir.sin());
    let (cg, sg) = (grain_angle.cos(), grain_angle.sin());
    for y in 0..h {
        for x in 0..w {
            let (u, v) = (x as f32 / w as f32, y as f32 / h as f32);
            let (lx, ly) = (u * (gx - 1) as f32, v * (gy - 1) as f32);
            let (ix, iy) = ((lx as usize).min(gx - 2), (ly as usize).min(gy - 2));
            // Smoothstep weights: no creases where lattice cells meet.
            let smooth = |t: f32| t * t * (3.0 - 2.0 * t);
            let (fx, fy) = (smooth(lx - ix as f32), smooth(ly - iy as f32));
            let at = |i: usize, j: usize| lattice[j * gx + i];
            let low = (at(ix, iy) * (1.0 - fx) + at(ix + 1, iy) * fx) * (1.0 - fy)
                + (at(ix, iy + 1) * (1.0 - fx) + at(ix + 1, iy + 1) * fx) * fy;
            let along = x as f32 * cg + y as f32 * sg;
            let across = -(x as f32) * sg + y as f32 * cg;
            let warp = scale * (18.0 * low + 5.0 * (along / (90.0 * scale) + 2.0 * low).sin());
            let at = (across + warp + 2048.0).rem_euclid(profile.len() as f32) as usize;
            let g = profile[at.min(profile.len() - 1)];
            let m =
                1.0 + blotch * low + light * ((u - 0.5) * ca + (v - 0.5) * sa) * 2.0 + grain * g;
            let n = rng.normal() * texture;
            out.push(base.map(|c| (c * m + n).clamp(0.0, 255.0)));
        }
    }
    out
}

/// `len` random values smoothed twice with a box of `width` px, scaled to unit spread.
fn grain_profile(rng: &mut Rng, len: usize, width: usize) -> Vec<f32> {
    let mut v: Vec<f32> = (0..len).map(|_| rng.normal()).collect();
    let width = width.max(1);
    for _ in 0..2 {
        let src = v.clone();
        for (i, out) in v.iter_mut().enumerate() {
            let lo = i.saturating_sub(width);
            let hi = (i + width + 1).min(len);
            *out = src[lo..hi].iter().sum::<f32>() / (hi - lo) as f32;
        }
    }
    let spread = (v.iter().map(|x| x * x).sum::<f32>() / len as f32)
        .sqrt()
        .max(1e-6);
    v.iter().map(|x| (x / spread).clamp(-2.5, 2.5)).collect()
}

/// Skin tones, light to dark.
const SKIN: [Colour; 6] = [
    [238, 200, 172],
    [224, 172, 140],
    [198, 140, 106],
    [166, 112, 80],
    [128, 82, 56],
    [92, 60, 42],
];

/// Draws a finger over the grid `grid` (frame pixels) into `buf`.
fn draw_finger(buf: &mut [Px], (w, h): (usize, usize), grid: [Point; 4], cue: FingerCue) {
    let mut rng = Rng::new(cue.seed);
    let side = mean_side(grid);
    let i = rng.below(SKIN.len() - 1);
    let skin = mix(SKIN[i], SKIN[i + 1], rng.unit()).map(f32::from);
    let radius = rng.range(0.1, 0.16) * side;
    let coverage = rng.range(0.12, 0.28);
    let nail = rng.chance(0.6);
    let lens_blur = rng.range(0.8, 2.2);
    let shadow_offset = Point::new(rng.range(-1.0, 1.0), rng.range(0.3, 1.0)).scaled(radius * 0.6);
    let Some(unit) = Homography::from_unit_square(grid) else {
        return;
    };
    let target = unit.apply(Point::new(rng.range(0.25, 0.75), rng.range(0.25, 0.75)));
    // The hand is outside the frame: the base lies beyond an edge (more often the bottom).
    let (fw, fh) = (w as f32, h as f32);
    let beyond = radius * 2.5;
    let along = rng.range(-0.25, 0.25);
    // Usually from the nearest edge (the hand rests beside the page), else any edge.
    let edges = [
        (
            fh - target.y,
            Point::new(target.x + along * fw, fh + beyond),
        ),
        (
            fw - target.x,
            Point::new(fw + beyond, target.y + along * fh),
        ),
        (target.x, Point::new(-beyond, target.y + along * fh)),
        (target.y, Point::new(target.x + along * fw, -beyond)),
    ];
    let nearest = (0..4)
        .min_by(|&a, &b| edges[a].0.total_cmp(&edges[b].0))
        .unwrap_or(0);
    let edge = if rng.chance(0.6) {
        nearest
    } else {
        rng.below(4)
    };
    let base = edges[edge].1;
    let dir = (target - base).unit();
    let mut jitter = Rng::for_item(cue.seed, cue.step as u64);
    let shift = if cue.step == 0 {
        Point::default()
    } else {
        Point::new(jitter.normal(), jitter.normal()).scaled(2.0)
    };
    let base = base + shift;
    // Length such that the finger covers `coverage` of the grid (bisection; coverage grows
    // with length).
    let samples: Vec<Point> = (0..400)
        .map(|s| unit.apply(Point::new((s % 20) as f32 / 19.0, (s / 20) as f32 / 19.0)))
        .collect();
    // The finger widens from its tip towards the knuckles and the back of the hand.
    let radius_at = |from_tip: f32| {
        let t = ((from_tip - 3.0 * radius) / (6.0 * radius)).clamp(0.0, 1.0);
        radius * (1.0 + 0.35 * t * t * (3.0 - 2.0 * t))
    };
    let covered = |len: f32| {
        let tip = base + dir.scaled(len);
        samples
            .iter()
            .filter(|&&p| {
                let (d, t) = segment_distance(p, base, tip);
                d <= radius_at((1.0 - t) * len)
            })
            .count() as f32
            / samples.len() as f32
    };
    let (mut lo, mut hi) = (0.0f32, (target - base).length() + 2.0 * side);
    for _ in 0..24 {
        let mid = (lo + hi) / 2.0;
        if covered(mid) < coverage {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let tip = base + dir.scaled(hi);

    // Work in the box around the finger and its shadow only.
    let pad = 1.4 * radius + 4.0 * lens_blur.max(radius * 0.25) + shadow_offset.length() + 4.0;
    let x0 = (base.x.min(tip.x) - pad).floor().max(0.0) as usize;
    let y0 = (base.y.min(tip.y) - pad).floor().max(0.0) as usize;
    let x1 = ((base.x.max(tip.x) + pad).ceil().max(0.0) as usize).min(w);
    let y1 = ((base.y.max(tip.y) + pad).ceil().max(0.0) as usize).min(h);
    if x1 <= x0 || y1 <= y0 {
        return;
    }
    let (cw, ch) = (x1 - x0, y1 - y0);
    let mut shadow = vec![[0.0f32; 1]; cw * ch];
    let mut finger = vec![[0.0f32; 4]; cw * ch];
    let light_side = if rng.chance(0.5) { 1.0 } else { -1.0 };
    let length = (tip - base).length().max(1.0);
    for y in 0..ch {
        for x in 0..cw {
            let p = Point::new((x + x0) as f32, (y + y0) as f32);
            let (ds, ts) = segment_distance(p - shadow_offset, base, tip);
            let rs = radius_at((1.0 - ts) * length);
            shadow[y * cw + x] = [0.4 * (rs * 1.05 - ds + 0.5).clamp(0.0, 1.0)];
            let (d, t) = segment_distance(p, base, tip);
            let from_tip = (1.0 - t) * length;
            let r = radius_at(from_tip);
            let a = (r - d + 0.5).clamp(0.0, 1.0);
            if a <= 0.0 {
                continue;
            }
            // Across the finger: -1 … 1 (signed by side), along: px from the tip.
            let rel = p - base;
            let lateral = (dir.x * rel.y - dir.y * rel.x) / r;
            let s = (d / r).min(1.0);
            let mut shade = 0.6 + 0.4 * (1.0 - s * s).sqrt() + 0.1 * light_side * lateral;
            shade += 0.12 * (-((lateral * light_side - 0.35) / 0.18).powi(2)).exp();
            // Faint knuckle creases.
            for crease in [2.4, 4.1] {
                let c = (from_tip - crease * radius) / (0.08 * radius);
                shade -= 0.08 * (-c * c).exp();
            }
            let mut colour = skin.map(|c| c * shade);
            // The nail: an ellipse near the tip, paler and a little glossy, soft-edged.
            let e =
                ((from_tip - 0.62 * radius) / (0.6 * radius)).powi(2) + (lateral / 0.55).powi(2);
            if nail && e < 1.0 {
                let nail_t = ((1.0 - e) / 0.25).min(1.0);
                let tint =
                    mix(skin.map(|c| c as u8), [240, 214, 206], 0.5).map(|c| f32::from(c) * shade);
                for ch in 0..3 {
                    colour[ch] += (tint[ch] - colour[ch]) * 0.6 * nail_t;
                }
            }
            finger[y * cw + x] = [colour[0] * a, colour[1] * a, colour[2] * a, a];
        }
    }
    gaussian_blur(&mut shadow, cw, ch, radius * 0.35);
    gaussian_blur(&mut finger, cw, ch, lens_blur);
    for y in 0..ch {
        for x in 0..cw {
            let px = &mut buf[(y + y0) * w + x + x0];
            let dark = 1.0 - shadow[y * cw + x][0];
            let f = finger[y * cw + x];
            for c in 0..3 {
                px[c] = f[c] + px[c] * dark * (1.0 - f[3]);
            }
        }
    }
}

/// Distance from `p` to the segment `a`–`b` and where along it (0 at `a`, 1 at `b`) the
/// nearest point lies.
fn segment_distance(p: Point, a: Point, b: Point) -> (f32, f32) {
    let ab = b - a;
    let len2 = ab.x * ab.x + ab.y * ab.y;
    let t = if len2 > 0.0 {
        (((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p - a.lerp(b, t)).length(), t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingers_cover_part_of_the_grid_with_skin() {
        let (w, h) = (320, 240);
        let grid = [
            Point::new(100.0, 60.0),
            Point::new(220.0, 60.0),
            Point::new(220.0, 180.0),
            Point::new(100.0, 180.0),
        ];
        for seed in 0..6 {
            let mut buf = vec![[240.0f32, 240.0, 240.0]; w * h];
            draw_finger(&mut buf, (w, h), grid, FingerCue { seed, step: 0 });
            let mut changed = 0;
            for y in 60..180 {
                for x in 100..220 {
                    let p = buf[y * w + x];
                    if p[0] - p[2] > 20.0 {
                        changed += 1;
                    }
                }
            }
            let share = changed as f32 / (120.0 * 120.0);
            assert!((0.05..=0.4).contains(&share), "seed {seed}: {share}");
        }
    }
}
