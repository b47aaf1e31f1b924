//! The timeline of a simulated clip, decided before any pixel is drawn: for each frame which
//! page is in view and where (a similarity pose of the page's rest quad), the motion blur its
//! movement leaves, the camera's defocus, the exposure and white balance, and whether a
//! finger covers the grid.
//!
//! Owns the motion model: the page entering from outside or from a frame edge and
//! decelerating, hand tremor while it is held (a mean-reverting random walk with occasional
//! jolts), leaving with acceleration, autofocus settling after each entry and slow exposure
//! and white-balance drift. It knows nothing of images; `scene` draws what it says.

use std::f32::consts::PI;

use crate::synthetic::Rng;
use crate::synthetic::optics::Look;
use crate::vision::Point;

/// Frames per second of every simulated clip.
pub const FPS: u32 = 30;

/// A similarity motion of a page about the centre of its rest quad.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Pose {
    /// Translation in frame pixels.
    pub shift: Point,
    /// In-plane rotation in radians.
    pub turn: f32,
    /// Scale (1 at rest).
    pub scale: f32,
}

impl Pose {
    /// The page at rest.
    pub const REST: Pose = Pose {
        shift: Point::new(0.0, 0.0),
        turn: 0.0,
        scale: 1.0,
    };

    /// `self` to `to` by `e` (0 gives `self`).
    fn lerp(self, to: Pose, e: f32) -> Pose {
        Pose {
            shift: self.shift.lerp(to.shift, e),
            turn: self.turn + (to.turn - self.turn) * e,
            scale: self.scale + (to.scale - self.scale) * e,
        }
    }

    /// `p` moved by this pose about `centre`.
    pub fn apply(self, centre: Point, p: Point) -> Point {
        let (c, s) = (self.turn.cos(), self.turn.sin());
        let d = p - centre;
        Point::new(
            centre.x + self.shift.x + self.scale * (c * d.x - s * d.y),
            centre.y + self.shift.y + self.scale * (s * d.x + c * d.y),
        )
    }

    /// The quad `rest` moved by this pose about its own centre.
    pub fn quad(self, rest: [Point; 4]) -> [Point; 4] {
        let c = centre(rest);
        rest.map(|p| self.apply(c, p))
    }
}

/// The mean of a quad's corners.
pub fn centre(q: [Point; 4]) -> Point {
    Point::new(
        q.iter().map(|p| p.x).sum::<f32>() / 4.0,
        q.iter().map(|p| p.y).sum::<f32>() / 4.0,
    )
}

/// What the timeline needs to know of one page's stay in view.
#[derive(Clone, Debug)]
pub struct VisitSpec {
    /// Index of the page (into the clip's pages).
    pub page: usize,
    /// Where its grid (or, for a page without one, its focus region) rests in the frame.
    pub rest: [Point; 4],
    /// A box `(x0, y0, x1, y1)` holding the whole page at rest, in frame pixels.
    pub page_box: (f32, f32, f32, f32),
    /// Frames it is held still.
    pub steady_frames: usize,
    /// Whether it leaves the frame afterwards (then `gap_after` empty frames follow).
    pub leaves: bool,
    /// Frames of empty desk after it leaves.
    pub gap_after: usize,
}

/// One page's stay: its frames and poses.
#[derive(Clone, Debug)]
pub struct Visit {
    /// Index of the page.
    pub page: usize,
    /// Its rest quad.
    pub rest: [Point; 4],
    /// First frame of its entry.
    pub first_frame: usize,
    /// First frame after its entry motion stops.
    pub steady_from: usize,
    /// Its pose in frames `first_frame..first_frame + poses.len()`.
    pub poses: Vec<Pose>,
}

/// A finger over the grid in one frame: `seed` fixes its shape, `step` (0, 1) moves it a
/// little between consecutive frames.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FingerCue {
    /// Shape seed.
    pub seed: u64,
    /// Frame within the occlusion.
    pub step: usize,
}

/// Everything about one frame but the sensor noise.
#[derive(Clone, Debug)]
pub struct FrameState {
    /// The visit in view (index into `Timeline::visits`) and its pose.
    pub visit: Option<(usize, Pose)>,
    /// Motion blur of the page: length in px and direction in radians.
    pub blur: Option<(f32, f32)>,
    /// Defocus σ in px.
    pub defocus: f32,
    /// A finger over the grid.
    pub finger: Option<FingerCue>,
    /// Exposure, white balance, vignetting and noise levels.
    pub look: Look,
}

/// The whole clip.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// One state per frame.
    pub frames: Vec<FrameState>,
    /// The page visits in order.
    pub visits: Vec<Visit>,
    /// Frames with a finger over the grid.
    pub occluded: Vec<usize>,
}

/// Plans a clip of `size` showing `specs` one after another; with `finger`, a finger covers
/// the first visit's grid for 1–2 steady frames.
pub fn plan(rng: &mut Rng, size: (u32, u32), specs: &[VisitSpec], finger: bool) -> Timeline {
    let frame = (size.0 as f32, size.1 as f32);
    let exposure_share = rng.range(0.3, 0.6);
    let mut visits = Vec::new();
    let mut slots: Vec<Option<(usize, Pose)>> = Vec::new();
    let mut focus: Vec<f32> = Vec::new();
    for spec in specs {
        let first_frame = slots.len();
        let entry = entry_poses(rng, spec, frame);
        let steady_from = first_frame + entry.len();
        let mut poses = entry;
        poses.extend(tremor_poses(rng, spec.steady_frames.max(1)));
        let sharp = rng.range(0.3, 0.6);
        let start_blur = rng.range(1.5, 3.0);
        let settle = rng.between(4, 10);
        for _ in first_frame..steady_from {
            focus.push(start_blur * rng.range(0.8, 1.2));
        }
        for j in 0..spec.steady_frames.max(1) {
            let t = (j as f32 / settle as f32).min(1.0);
            let ease = t * t * (3.0 - 2.0 * t);
            focus.push(start_blur + (sharp - start_blur) * ease);
        }
        if spec.leaves {
            let last = poses.last().copied().unwrap_or(Pose::REST);
            let exit = exit_poses(rng, spec, last, frame);
            for j in 0..exit.len() {
                focus.push(sharp * (1.0 + 0.15 * j as f32));
            }
            poses.extend(exit);
        }
        let index = visits.len();
        slots.extend(poses.iter().map(|p| Some((index, *p))));
        visits.push(Visit {
            page: spec.page,
            rest: spec.rest,
            first_frame,
            steady_from,
            poses,
        });
        if spec.leaves {
            for _ in 0..spec.gap_after {
                slots.push(None);
                focus.push(sharp + rng.range(0.0, 0.5));
            }
        }
    }

    let looks = drifting_looks(rng, size, slots.len());
    let mut frames: Vec<FrameState> = slots
        .iter()
        .zip(focus)
        .zip(looks)
        .map(|((visit, defocus), look)| FrameState {
            visit: *visit,
            blur: None,
            defocus,
            finger: None,
            look,
        })
        .collect();
    for v in &visits {
        let c: Vec<Point> = v.poses.iter().map(|p| p.shift).collect();
        for k in 0..c.len() {
            let velocity = match (k.checked_sub(1), c.get(k + 1)) {
                (Some(a), Some(b)) => (*b - c[a]).scaled(0.5),
                (None, Some(b)) => *b - c[k],
                (Some(a), None) => c[k] - c[a],
                (None, None) => Point::default(),
            };
            let len = velocity.length() * exposure_share;
            if len >= 0.75 {
                frames[v.first_frame + k].blur = Some((len, velocity.y.atan2(velocity.x)));
            }
        }
    }

    let mut occluded = Vec::new();
    if finger && let Some(v) = visits.first() {
        let end = v.first_frame + v.poses.len();
        let steady_end = if specs.first().is_some_and(|s| s.leaves) {
            v.steady_from + specs[0].steady_frames.max(1)
        } else {
            end
        };
        let duration = rng.between(1, 2).min(steady_end - v.steady_from);
        let start = rng.between(v.steady_from, steady_end - duration);
        let seed = rng.next_u64();
        for step in 0..duration {
            frames[start + step].finger = Some(FingerCue { seed, step });
            occluded.push(start + step);
        }
    }
    Timeline {
        frames,
        visits,
        occluded,
    }
}

/// The side a page comes from or goes to: the inward normal of that frame edge and the
/// offset making `n · p + c` the distance inside the frame from that edge.
fn side(rng: &mut Rng, (fw, fh): (f32, f32)) -> (Point, f32) {
    match rng.below(4) {
        0 => (Point::new(1.0, 0.0), 0.0),
        1 => (Point::new(-1.0, 0.0), fw - 1.0),
        2 => (Point::new(0.0, 1.0), 0.0),
        _ => (Point::new(0.0, -1.0), fh - 1.0),
    }
}

/// `v` turned by `angle` radians.
fn rotate(v: Point, angle: f32) -> Point {
    let (c, s) = (angle.cos(), angle.sin());
    Point::new(c * v.x - s * v.y, s * v.x + c * v.y)
}

/// The entry: 6–14 frames from a start pose (the grid just outside the frame, or partly in
/// at an edge; turned and a little larger) to rest, decelerating (quadratic ease-out). The
/// rest pose itself is the first steady frame, not part of the entry.
fn entry_poses(rng: &mut Rng, spec: &VisitSpec, frame: (f32, f32)) -> Vec<Pose> {
    let frames = rng.between(6, 14);
    let (n, c) = side(rng, frame);
    let dir = rotate(n, rng.range(-0.5, 0.5));
    let inside = spec.rest.map(|p| n.x * p.x + n.y * p.y + c);
    let lead = inside.iter().copied().fold(f32::MIN, f32::max);
    let width = lead - inside.iter().copied().fold(f32::MAX, f32::min);
    let along = (dir.x * n.x + dir.y * n.y).max(0.3);
    let distance = if rng.chance(0.6) {
        (lead + rng.range(5.0, 60.0)) / along
    } else {
        (lead - rng.range(0.2, 0.6) * width).max(20.0) / along
    };
    let start = Pose {
        shift: dir.scaled(-distance),
        turn: rng.range(1.0, 8.0).to_radians() * if rng.chance(0.5) { 1.0 } else { -1.0 },
        scale: rng.range(1.0, 1.12),
    };
    (0..frames)
        .map(|k| {
            let u = k as f32 / frames as f32;
            start.lerp(Pose::REST, 1.0 - (1.0 - u) * (1.0 - u))
        })
        .collect()
}

/// Hand tremor over `frames` steady frames, starting exactly at rest: translation a
/// mean-reverting random walk within 0.2–1.5 px (the bound drawn per visit), rotation within
/// 0.15°, and now and then a 2–3 px jolt that dies away over a few frames.
fn tremor_poses(rng: &mut Rng, frames: usize) -> Vec<Pose> {
    let amp = rng.range(0.2, 1.5);
    let turn_amp = rng.range(0.02, 0.15).to_radians();
    let jolt_chance = rng.range(0.0, 0.04);
    let (mut walk, mut turn, mut jolt) = (Point::default(), 0.0f32, Point::default());
    let mut out = Vec::with_capacity(frames);
    for k in 0..frames {
        if k > 0 {
            walk = walk.scaled(0.8) + Point::new(rng.normal(), rng.normal()).scaled(0.45 * amp);
            if walk.length() > amp {
                walk = walk.scaled(amp / walk.length());
            }
            turn = (turn * 0.8 + rng.normal() * 0.45 * turn_amp).clamp(-turn_amp, turn_amp);
            jolt = jolt.scaled(0.55);
            if rng.chance(jolt_chance) {
                let a = rng.range(0.0, 2.0 * PI);
                jolt = jolt + Point::new(a.cos(), a.sin()).scaled(rng.range(2.0, 3.0));
            }
        }
        out.push(Pose {
            shift: walk + jolt,
            turn,
            scale: 1.0,
        });
    }
    out
}

/// The exit: 8–12 frames from `last`, accelerating (quadratic ease-in) towards a frame edge
/// until the whole page is out of the frame.
fn exit_poses(rng: &mut Rng, spec: &VisitSpec, last: Pose, frame: (f32, f32)) -> Vec<Pose> {
    let frames = rng.between(8, 12);
    let (n, c) = side(rng, frame);
    let dir = rotate(n.scaled(-1.0), rng.range(-0.5, 0.5));
    let (x0, y0, x1, y1) = spec.page_box;
    let corners = [
        Point::new(x0, y0),
        Point::new(x1, y0),
        Point::new(x1, y1),
        Point::new(x0, y1),
    ];
    // The page, turned a little more on its way out, must end beyond the edge; its box is
    // widened for that turn.
    let slack = 0.1 * (x1 - x0).hypot(y1 - y0) + 20.0;
    let reach = corners
        .iter()
        .map(|p| n.x * (p.x + last.shift.x) + n.y * (p.y + last.shift.y) + c)
        .fold(f32::MIN, f32::max);
    let along = (-(dir.x * n.x + dir.y * n.y)).max(0.3);
    let distance = (reach + slack) / along;
    let end = Pose {
        shift: last.shift + dir.scaled(distance),
        turn: last.turn + rng.range(-5.0, 5.0).to_radians(),
        scale: last.scale,
    };
    (1..=frames)
        .map(|j| {
            let u = j as f32 / frames as f32;
            last.lerp(end, u * u)
        })
        .collect()
}

/// One look per frame: exposure gain and white balance drifting slowly (sinusoids of a few
/// seconds' period), gamma, vignetting and noise levels fixed for the clip.
fn drifting_looks(rng: &mut Rng, (w, h): (u32, u32), frames: usize) -> Vec<Look> {
    let (fw, fh) = (w as f32, h as f32);
    let gain = rng.range(0.82, 1.18);
    let gamma = rng.range(0.85, 1.2);
    let wb = [
        1.0 + rng.normal().clamp(-2.0, 2.0) * 0.05,
        1.0 + rng.normal().clamp(-2.0, 2.0) * 0.02,
        1.0 + rng.normal().clamp(-2.0, 2.0) * 0.05,
    ];
    let vignette = rng.range(0.0, 0.4);
    let vignette_centre = (
        fw / 2.0 + rng.range(-0.1, 0.1) * fw,
        fh / 2.0 + rng.range(-0.1, 0.1) * fh,
    );
    let luma_sigma = rng.range(2.0, 5.0);
    let chroma_sigma = luma_sigma * rng.range(0.2, 0.6);
    let (gain_amp, gain_period, gain_phase) = (
        rng.range(0.02, 0.08),
        rng.range(60.0, 240.0),
        rng.range(0.0, 2.0 * PI),
    );
    let wb_amp = rng.range(0.01, 0.03);
    let wb_period = rng.range(80.0, 300.0);
    let wb_phase = [rng.range(0.0, 2.0 * PI), rng.range(0.0, 2.0 * PI)];
    (0..frames)
        .map(|k| {
            let t = k as f32;
            let wave = |period: f32, phase: f32| (2.0 * PI * t / period + phase).sin();
            Look {
                gain: gain * (1.0 + gain_amp * wave(gain_period, gain_phase)),
                gamma,
                wb: [
                    wb[0] * (1.0 + wb_amp * wave(wb_period, wb_phase[0])),
                    wb[1],
                    wb[2] * (1.0 + wb_amp * wave(wb_period, wb_phase[1])),
                ],
                vignette,
                vignette_centre,
                luma_sigma,
                chroma_sigma,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(leaves: bool) -> VisitSpec {
        let rest = [
            Point::new(200.0, 100.0),
            Point::new(440.0, 110.0),
            Point::new(430.0, 350.0),
            Point::new(190.0, 340.0),
        ];
        VisitSpec {
            page: 0,
            rest,
            page_box: (120.0, 40.0, 520.0, 420.0),
            steady_frames: 30,
            leaves,
            gap_after: 3,
        }
    }

    #[test]
    fn entries_stop_at_rest_and_tremor_stays_small() {
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            let t = plan(&mut rng, (640, 480), &[spec(false)], true);
            let v = &t.visits[0];
            let entry = v.steady_from - v.first_frame;
            assert!((6..=14).contains(&entry));
            assert_eq!(v.poses[entry], Pose::REST);
            assert!(v.poses[0].shift.length() > 20.0, "{:?}", v.poses[0]);
            for p in &v.poses[entry..] {
                assert!(p.shift.length() < 1.5 + 6.0 && p.turn.abs() <= 0.0027);
            }
            assert!(t.frames[0].blur.is_some());
            assert!((1..=2).contains(&t.occluded.len()));
            assert!(t.occluded.iter().all(|&k| k >= v.steady_from));
            assert!(t.frames[v.steady_from].defocus >= 1.5);
            assert!(t.frames.last().is_some_and(|f| f.defocus <= 0.6));
        }
    }

    #[test]
    fn exits_leave_the_page_box_outside_the_frame() {
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            let s = spec(true);
            let t = plan(&mut rng, (640, 480), std::slice::from_ref(&s), false);
            let last = *t.visits[0].poses.last().expect("poses");
            let (x0, y0, x1, y1) = s.page_box;
            let c = centre(s.rest);
            let out = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
                .map(|(x, y)| last.apply(c, Point::new(x, y)));
            let xs = out.map(|p| p.x);
            let ys = out.map(|p| p.y);
            let gone = xs.iter().all(|&x| x < 0.0)
                || xs.iter().all(|&x| x > 639.0)
                || ys.iter().all(|&y| y < 0.0)
                || ys.iter().all(|&y| y > 479.0);
            assert!(gone, "seed {seed}: {out:?}");
            assert_eq!(t.frames.len(), t.visits[0].poses.len() + 3);
        }
    }
}
