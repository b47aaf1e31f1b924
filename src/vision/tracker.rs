//! Video tracking: turns one detection (or none) per frame into a steady grid state.
//!
//! [`LatticeTracker`] reports Searching → Tracking → Locked (the lattice held still within a
//! tolerance for enough frames or time) and Lost (no grid for a while). It also keeps a
//! puzzle identity: when the grid is replaced (the caller's per-frame [`CellFingerprint`]
//! changes, or the grid reappears elsewhere with different content) it reports
//! [`TrackerEvent::NewPuzzle`] and bumps [`TrackerUpdate::puzzle_id`]. Callers tag every
//! result (recognition, solution) with the id of the frame it came from and show it only while
//! that id is current, so a result is never drawn over the wrong puzzle.
//! It does not detect grids or read digits itself.

use image::GrayImage;

use super::{GridDetection, Lattice, level_above};

/// Tracker settings. Distances are in cell sides of the tracked grid, so they scale with zoom.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackerConfig {
    /// Largest move of any intersection (vs. the steady anchor) still counted as "holding
    /// still", in cell sides.
    pub steady_tolerance_cells: f32,
    /// Steady frames needed to lock.
    pub lock_frames: u32,
    /// Or steady time needed to lock, in milliseconds (with at least two frames).
    pub lock_ms: u64,
    /// Largest move between consecutive sightings that is still the same track, in cell
    /// sides; a bigger jump is a fresh sighting.
    pub same_place_cells: f32,
    /// Consecutive frames without a detection before the track is lost.
    pub lost_after_frames: u32,
    /// Or time without a detection before the track is lost, in milliseconds.
    pub lost_after_ms: u64,
    /// Most differing cells between fingerprints of the same puzzle (ink noise, new
    /// pencil strokes); more means another puzzle.
    pub fingerprint_tolerance: u32,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        Self {
            steady_tolerance_cells: 0.15,
            lock_frames: 8,
            lock_ms: 500,
            same_place_cells: 1.5,
            lost_after_frames: 8,
            lost_after_ms: 600,
            fingerprint_tolerance: 8,
        }
    }
}

/// Where the tracker stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackerState {
    /// No grid seen yet (or since the last one was lost and forgotten).
    Searching,
    /// A grid is seen but has not held still long enough.
    Tracking,
    /// The grid has held still: a good moment to read it.
    Locked,
    /// The grid has not been seen for a while.
    Lost,
}

/// What changed on this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackerEvent {
    /// Nothing worth reporting.
    None,
    /// A grid was found (from Searching or Lost), same puzzle as before if any.
    Acquired,
    /// The grid became steady.
    Locked,
    /// The grid moved out of the steady tolerance.
    Unlocked,
    /// The grid disappeared.
    Lost,
    /// A different puzzle is in view; results for earlier ids are stale.
    NewPuzzle,
}

/// A coarse 9×9 ink mask of the cells: bit `row·9+col` of `ink` is set when the cell holds
/// ink, and of `sure` when that call is clear (much ink, or almost none). Two frames of the
/// same puzzle differ in few sure cells; another puzzle in many. Faint handwriting and pencil
/// strokes sit near the ink threshold and flip from frame to frame with noise and focus, so
/// only cells sure in both frames are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CellFingerprint {
    /// Cells holding ink.
    pub ink: u128,
    /// Cells whose `ink` bit is clear-cut.
    pub sure: u128,
}

/// The 81 cell bits.
const ALL_CELLS: u128 = (1u128 << 81) - 1;

impl CellFingerprint {
    /// A fingerprint whose every cell is sure.
    pub fn from_bits(ink: u128) -> CellFingerprint {
        CellFingerprint {
            ink,
            sure: ALL_CELLS,
        }
    }

    /// Builds the fingerprint from a rectified grid (as made by `rectify::warp_grid` with
    /// `cell_size_px`): a cell holds ink when the central half of it has more than 4 % of
    /// pixels much darker than the grid's paper level (half way to its ink level, at least 20
    /// levels); the call is sure above 10 % or below 1.5 %.
    pub fn from_grid(grid: &GrayImage, cell_size_px: u32) -> CellFingerprint {
        let s = cell_size_px.max(4);
        let (w, h) = grid.dimensions();
        let raw = grid.as_raw();
        let mut hist = [0u32; 256];
        for &v in raw {
            hist[v as usize] += 1;
        }
        // Paper level: the 70th percentile of the whole grid. Ink level: the 3rd percentile
        // (grid lines and digits). "Much darker" is half way from the paper to the ink, and at
        // least 20 levels: a fixed 60 levels missed every digit of a dim, soft webcam frame,
        // and all such grids then had one fingerprint.
        let paper = level_above(&hist, raw.len() as u32 * 7 / 10).unwrap_or(255);
        let ink_level = level_above(&hist, raw.len() as u32 * 3 / 100).unwrap_or(0);
        let dark = paper.saturating_sub((paper.saturating_sub(ink_level) / 2).max(20));
        let (mut ink_bits, mut sure_bits) = (0u128, 0u128);
        for row in 0..9u32 {
            for col in 0..9u32 {
                let (x0, y0) = (col * s + s / 4, row * s + s / 4);
                let (mut ink, mut total) = (0u32, 0u32);
                for y in y0..(y0 + s / 2).min(h) {
                    for x in x0..(x0 + s / 2).min(w) {
                        total += 1;
                        if (raw[(y * w + x) as usize] as u32) < dark {
                            ink += 1;
                        }
                    }
                }
                let bit = 1u128 << (row * 9 + col);
                if total > 0 && ink * 25 > total {
                    ink_bits |= bit;
                }
                if total > 0 && (ink * 10 > total || ink * 200 < total * 3) {
                    sure_bits |= bit;
                }
            }
        }
        CellFingerprint {
            ink: ink_bits,
            sure: sure_bits,
        }
    }

    /// Number of cells, sure in both, whose ink differs.
    pub fn distance(self, other: CellFingerprint) -> u32 {
        ((self.ink ^ other.ink) & self.sure & other.sure).count_ones()
    }
}

/// The tracker's answer for one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackerUpdate {
    /// State after this frame.
    pub state: TrackerState,
    /// What changed on this frame.
    pub event: TrackerEvent,
    /// The latest lattice of the tracked grid (kept through short occlusions), if any.
    pub lattice: Option<Lattice>,
    /// Identity of the puzzle in view; changes exactly when [`TrackerEvent::NewPuzzle`] is
    /// reported. Tag results with it and drop those whose id is no longer current.
    pub puzzle_id: u64,
}

/// Per-frame grid tracker; see the module docs.
#[derive(Clone, Debug)]
pub struct LatticeTracker {
    config: TrackerConfig,
    state: TrackerState,
    puzzle_id: u64,
    /// Latest seen lattice.
    last: Option<Lattice>,
    last_seen_ms: u64,
    misses: u32,
    /// Start of the current steady run.
    anchor: Option<Lattice>,
    anchor_ms: u64,
    steady_frames: u32,
    /// Fingerprint of the current puzzle (first one seen for it, refreshed while locked).
    fingerprint: Option<CellFingerprint>,
}

impl Default for LatticeTracker {
    fn default() -> Self {
        Self::new(TrackerConfig::default())
    }
}

fn cell_side(l: &Lattice) -> f32 {
    (l.mean_side() / 9.0).max(1.0)
}

impl LatticeTracker {
    /// A tracker in the Searching state with puzzle id 0.
    pub fn new(config: TrackerConfig) -> Self {
        Self {
            config,
            state: TrackerState::Searching,
            puzzle_id: 0,
            last: None,
            last_seen_ms: 0,
            misses: 0,
            anchor: None,
            anchor_ms: 0,
            steady_frames: 0,
            fingerprint: None,
        }
    }

    /// Current state.
    pub fn state(&self) -> TrackerState {
        self.state
    }

    /// Identity of the puzzle currently in view.
    pub fn puzzle_id(&self) -> u64 {
        self.puzzle_id
    }

    /// Makes the next puzzle id `id` (a tracker replacing another keeps ids unique).
    pub fn set_first_puzzle_id(&mut self, id: u64) {
        self.puzzle_id = id;
    }

    /// Frames the grid has held still in a row (0 while searching or lost).
    pub fn steady_frames(&self) -> u32 {
        match self.state {
            TrackerState::Tracking | TrackerState::Locked => self.steady_frames,
            TrackerState::Searching | TrackerState::Lost => 0,
        }
    }

    /// The settings.
    pub fn config(&self) -> &TrackerConfig {
        &self.config
    }

    /// Feeds one frame: its detection (or `None`), an optional content fingerprint of the
    /// detected grid, and the frame time in milliseconds (monotonic).
    pub fn update(
        &mut self,
        detection: Option<&GridDetection>,
        fingerprint: Option<CellFingerprint>,
        timestamp_ms: u64,
    ) -> TrackerUpdate {
        let event = match detection {
            Some(d) => self.on_seen(d.lattice(), fingerprint, timestamp_ms),
            None => self.on_missed(timestamp_ms),
        };
        TrackerUpdate {
            state: self.state,
            event,
            lattice: self.last,
            puzzle_id: self.puzzle_id,
        }
    }

    fn differs(&self, fingerprint: Option<CellFingerprint>) -> bool {
        match (self.fingerprint, fingerprint) {
            (Some(a), Some(b)) => a.distance(b) > self.config.fingerprint_tolerance,
            _ => false,
        }
    }

    fn start_run(&mut self, lattice: Lattice, t: u64) {
        self.anchor = Some(lattice);
        self.anchor_ms = t;
        self.steady_frames = 1;
    }

    fn on_seen(&mut self, lattice: Lattice, fp: Option<CellFingerprint>, t: u64) -> TrackerEvent {
        let previous = self.last;
        self.last = Some(lattice);
        self.last_seen_ms = t;
        self.misses = 0;
        let mut event = TrackerEvent::None;
        match self.state {
            TrackerState::Searching | TrackerState::Lost => {
                let had_puzzle = self.state == TrackerState::Lost;
                // Without fingerprints a reappearing grid cannot be told apart from another
                // puzzle, so only a matching fingerprint keeps the old identity.
                let same = had_puzzle && fp.is_some() && !self.differs(fp);
                if had_puzzle && !same {
                    self.puzzle_id += 1;
                    self.fingerprint = fp;
                    event = TrackerEvent::NewPuzzle;
                } else {
                    if self.fingerprint.is_none() {
                        self.fingerprint = fp;
                    }
                    event = TrackerEvent::Acquired;
                }
                self.state = TrackerState::Tracking;
                self.start_run(lattice, t);
                return event;
            }
            TrackerState::Tracking | TrackerState::Locked => {}
        }
        let jumped = previous.is_none_or(|p| {
            p.max_distance(&lattice) > self.config.same_place_cells * cell_side(&p)
        });
        let replaced = self.differs(fp) || (jumped && fp.is_none());
        if replaced {
            self.puzzle_id += 1;
            self.fingerprint = fp;
            self.state = TrackerState::Tracking;
            self.start_run(lattice, t);
            return TrackerEvent::NewPuzzle;
        }
        if self.fingerprint.is_none() {
            self.fingerprint = fp;
        }
        let steady = self.anchor.is_some_and(|a| {
            a.max_distance(&lattice) <= self.config.steady_tolerance_cells * cell_side(&a)
        });
        if steady {
            self.steady_frames += 1;
        } else {
            if self.state == TrackerState::Locked {
                event = TrackerEvent::Unlocked;
                self.state = TrackerState::Tracking;
            }
            self.start_run(lattice, t);
        }
        if self.state == TrackerState::Tracking {
            let long_enough =
                self.steady_frames >= 2 && t.saturating_sub(self.anchor_ms) >= self.config.lock_ms;
            if self.steady_frames >= self.config.lock_frames || long_enough {
                self.state = TrackerState::Locked;
                event = TrackerEvent::Locked;
            }
        } else if self.state == TrackerState::Locked
            && let Some(fp) = fp
        {
            // Follow slow changes (new pencil marks) of the same puzzle while it is steady.
            self.fingerprint = Some(fp);
        }
        event
    }

    fn on_missed(&mut self, t: u64) -> TrackerEvent {
        match self.state {
            TrackerState::Searching | TrackerState::Lost => TrackerEvent::None,
            TrackerState::Tracking | TrackerState::Locked => {
                self.misses += 1;
                let gone_ms = t.saturating_sub(self.last_seen_ms);
                if self.misses >= self.config.lost_after_frames
                    || gone_ms >= self.config.lost_after_ms
                {
                    self.state = TrackerState::Lost;
                    self.anchor = None;
                    self.steady_frames = 0;
                    TrackerEvent::Lost
                } else {
                    TrackerEvent::None
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::Point;

    fn det(x: f32, y: f32, side: f32) -> GridDetection {
        let c = [
            Point::new(x, y),
            Point::new(x + side, y),
            Point::new(x + side, y + side),
            Point::new(x, y + side),
        ];
        let l = Lattice::from_corners(c);
        GridDetection {
            corners_in_image: c,
            lattice_in_image: l.points_in_image,
            score: 1.0,
        }
    }

    /// Deterministic jitter in [-1, 1].
    fn jitter(i: u64) -> f32 {
        let v = i
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
            >> 33;
        (v % 2001) as f32 / 1000.0 - 1.0
    }

    #[test]
    fn jitter_locks_after_n_frames() {
        let mut t = LatticeTracker::new(TrackerConfig {
            lock_ms: 10_000,
            ..TrackerConfig::default()
        });
        let mut states = Vec::new();
        for i in 0..12u64 {
            // ±1.5 px jitter on a 270 px grid (30 px cells): well inside 0.15 cell.
            let d = det(100.0 + 1.5 * jitter(i), 80.0 + 1.5 * jitter(i + 99), 270.0);
            let u = t.update(Some(&d), None, i * 33);
            states.push(u.state);
            if i == 0 {
                assert_eq!(u.event, TrackerEvent::Acquired);
            }
            if i == 7 {
                assert_eq!(u.event, TrackerEvent::Locked);
            }
        }
        assert_eq!(states[6], TrackerState::Tracking);
        assert_eq!(states[7], TrackerState::Locked);
        assert_eq!(states[11], TrackerState::Locked);
        assert_eq!(t.puzzle_id(), 0);
    }

    #[test]
    fn locks_by_time_with_slow_frames() {
        let mut t = LatticeTracker::default();
        assert_eq!(
            t.update(Some(&det(0.0, 0.0, 270.0)), None, 0).state,
            TrackerState::Tracking
        );
        assert_eq!(
            t.update(Some(&det(1.0, 0.0, 270.0)), None, 300).state,
            TrackerState::Tracking
        );
        let u = t.update(Some(&det(1.0, 1.0, 270.0)), None, 600);
        assert_eq!(
            (u.state, u.event),
            (TrackerState::Locked, TrackerEvent::Locked)
        );
    }

    #[test]
    fn slow_motion_does_not_lock_but_keeps_tracking() {
        let mut t = LatticeTracker::default();
        for i in 0..40u64 {
            // 6 px (0.2 cell) per frame: never steady relative to the anchor for long.
            let u = t.update(Some(&det(50.0 + 6.0 * i as f32, 60.0, 270.0)), None, i * 33);
            assert_ne!(u.state, TrackerState::Locked, "frame {i}");
            assert_eq!(u.puzzle_id, 0);
        }
        // Then it stops: locks.
        let mut locked = false;
        for i in 40..52u64 {
            locked |= t.update(Some(&det(290.0, 60.0, 270.0)), None, i * 33).state
                == TrackerState::Locked;
        }
        assert!(locked);
    }

    #[test]
    fn short_occlusion_keeps_lock_long_one_loses() {
        let mut t = LatticeTracker::default();
        for i in 0..10u64 {
            t.update(Some(&det(10.0, 10.0, 270.0)), None, i * 33);
        }
        assert_eq!(t.state(), TrackerState::Locked);
        for i in 10..14u64 {
            let u = t.update(None, None, i * 33);
            assert_eq!(u.state, TrackerState::Locked);
            assert!(u.lattice.is_some());
        }
        assert_eq!(
            t.update(Some(&det(10.0, 10.0, 270.0)), None, 14 * 33).state,
            TrackerState::Locked
        );
        let mut lost_at = None;
        for i in 15..40u64 {
            if t.update(None, None, i * 33).event == TrackerEvent::Lost {
                lost_at = Some(i);
                break;
            }
        }
        assert_eq!(lost_at, Some(22), "lost after 8 missed frames");
        assert_eq!(t.state(), TrackerState::Lost);
    }

    #[test]
    fn puzzle_swap_in_place_is_a_new_puzzle() {
        let mut t = LatticeTracker::default();
        let a = CellFingerprint::from_bits(0b1011_0010_1100_0001_1110_0101u128);
        let b = CellFingerprint::from_bits(a.ink ^ 0x3F_F00F_0F0Fu128 << 20);
        assert!(a.distance(b) > 8);
        for i in 0..10u64 {
            t.update(Some(&det(10.0, 10.0, 270.0)), Some(a), i * 33);
        }
        assert_eq!(t.state(), TrackerState::Locked);
        // Noise in two cells is the same puzzle.
        let noisy = CellFingerprint::from_bits(a.ink ^ 0b11 << 40);
        assert_eq!(
            t.update(Some(&det(10.0, 10.0, 270.0)), Some(noisy), 340)
                .puzzle_id,
            0
        );
        let u = t.update(Some(&det(12.0, 10.0, 270.0)), Some(b), 373);
        assert_eq!(u.event, TrackerEvent::NewPuzzle);
        assert_eq!(u.puzzle_id, 1);
        assert_eq!(
            u.state,
            TrackerState::Tracking,
            "a new puzzle must settle before locking"
        );
    }

    #[test]
    fn cells_unsure_in_either_frame_are_not_compared() {
        let a = CellFingerprint::from_bits(0xFFFF);
        let faint = CellFingerprint {
            ink: 0x00FF,
            sure: ALL_CELLS & !0xFF00,
        };
        assert_eq!(a.distance(faint), 0);
        assert_eq!(a.distance(CellFingerprint::from_bits(0x00FF)), 8);
    }

    #[test]
    fn reappearing_after_loss() {
        let mut t = LatticeTracker::default();
        let a = CellFingerprint::from_bits(0x00AB_CDEF_1234_5678_u128);
        for i in 0..10u64 {
            t.update(Some(&det(10.0, 10.0, 270.0)), Some(a), i * 33);
        }
        t.update(None, None, 2000);
        assert_eq!(t.state(), TrackerState::Lost);
        // Same content elsewhere: same puzzle.
        let u = t.update(Some(&det(200.0, 100.0, 200.0)), Some(a), 2100);
        assert_eq!((u.event, u.puzzle_id), (TrackerEvent::Acquired, 0));
        t.update(None, None, 4000);
        // Without a fingerprint we cannot know: assume a new puzzle.
        let u = t.update(Some(&det(200.0, 100.0, 200.0)), None, 4100);
        assert_eq!((u.event, u.puzzle_id), (TrackerEvent::NewPuzzle, 1));
        // A jump without fingerprints while tracking is also a new puzzle.
        let u = t.update(Some(&det(400.0, 300.0, 200.0)), None, 4133);
        assert_eq!((u.event, u.puzzle_id), (TrackerEvent::NewPuzzle, 2));
    }

    #[test]
    fn fingerprint_from_rectified_grid() {
        let s = 20u32;
        let mut g = GrayImage::from_pixel(9 * s, 9 * s, image::Luma([220]));
        for (row, col) in [(0u32, 0u32), (4, 5), (8, 8)] {
            for y in row * s + 6..row * s + 14 {
                for x in col * s + 8..col * s + 12 {
                    g.put_pixel(x, y, image::Luma([20]));
                }
            }
        }
        let f = CellFingerprint::from_grid(&g, s);
        assert_eq!(f.ink, 1 | 1 << (4 * 9 + 5) | 1 << 80);
    }

    /// A dim, soft webcam picture of a page: paper at 150, digits at 105 (45 levels darker,
    /// less than the fixed 60 levels the fingerprint once asked for, which saw no ink at all
    /// in such grids and so gave every puzzle the same fingerprint).
    fn dim_grid(cells: &[(u32, u32)]) -> GrayImage {
        let s = 20u32;
        let mut g = GrayImage::from_pixel(9 * s, 9 * s, image::Luma([150]));
        for &(row, col) in cells {
            for y in row * s + 5..row * s + 15 {
                for x in col * s + 7..col * s + 13 {
                    g.put_pixel(x, y, image::Luma([105]));
                }
            }
        }
        g
    }

    #[test]
    fn dim_grids_of_different_puzzles_have_different_fingerprints() {
        let a = dim_grid(&[(0, 0), (1, 3), (2, 6), (4, 4), (6, 2), (7, 7), (8, 1)]);
        let b = dim_grid(&[(0, 2), (1, 5), (3, 8), (4, 1), (5, 6), (7, 3), (8, 8)]);
        let (fa, fb) = (
            CellFingerprint::from_grid(&a, 20),
            CellFingerprint::from_grid(&b, 20),
        );
        assert_eq!(fa.ink.count_ones(), 7, "every digit of a dim grid is ink");
        assert!(fa.distance(fb) > TrackerConfig::default().fingerprint_tolerance);
        // Blank paper with a little noise is no ink (the 20-level floor).
        let mut blank = GrayImage::from_pixel(180, 180, image::Luma([150]));
        for (i, p) in blank.pixels_mut().enumerate() {
            p.0[0] = 150 - (i % 7) as u8;
        }
        assert_eq!(CellFingerprint::from_grid(&blank, 20).ink, 0);
    }
}
