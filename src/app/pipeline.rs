//! The app's seam to the recognition pipeline: what the app needs from `vision`/`digits`/`scan`,
//! as two small traits ([`PhotoScanner`] for one still image, [`LiveAnalyzer`] for a video
//! stream) plus the frame-to-frame [`Voter`] that turns noisy per-frame readings into one
//! steady grid. `wiring.rs` implements the traits with the real pipeline; tests inject doubles.
//!
//! Pure data and logic: no egui, no threads (see `workers.rs`).

use std::collections::VecDeque;
use std::sync::Arc;

use image::RgbImage;

use crate::digits::{Repair, UNCERTAIN_BELOW};
use crate::vision::Lattice;

/// Below this share of agreeing frames a voted cell is shown as uncertain.
pub const UNCERTAIN_AGREEMENT: f32 = 0.7;

/// Where the tracker stands on the current video.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum LockState {
    /// No grid in view.
    #[default]
    Searching,
    /// A grid is in view but not yet steady.
    Tracking,
    /// The grid is steady: digits are read and voted.
    Locked,
    /// The grid was locked and has just been lost (clears the overlay).
    Lost,
}

impl std::fmt::Display for LockState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LockState::Searching => "searching",
            LockState::Tracking => "tracking",
            LockState::Locked => "locked",
            LockState::Lost => "lost",
        })
    }
}

/// The digits read from one image: value per cell (0 empty, pencil marks count as empty) and the
/// classifier's probability for that value.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// Values in reading order, 0 for empty.
    pub values: [u8; 81],
    /// Probability of each value, `0.0..=1.0`.
    pub confidence: [f32; 81],
}

impl Reading {
    /// Cells whose confidence is below [`UNCERTAIN_BELOW`] (amber).
    pub fn uncertain(&self) -> [bool; 81] {
        self.confidence.map(|c| c < UNCERTAIN_BELOW)
    }
}

/// Everything a still photo yields.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PhotoScan {
    /// The grid lattice in image pixels, when a grid was found.
    pub lattice: Option<Lattice>,
    /// The digits, when a grid was found and read.
    pub reading: Option<Reading>,
    /// A repair, when the reading is not a valid unique puzzle (never one with no changes).
    pub repair: Option<Repair>,
}

/// Scans one still image. Called on a worker thread.
pub trait PhotoScanner: Send + Sync {
    /// Finds and reads the grid; `Err` carries a message for the status bar (no grid found,
    /// model failed to load, …).
    fn scan(&self, image: &RgbImage) -> Result<PhotoScan, String>;
}

/// The result of analysing one video frame.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct FrameAnalysis {
    /// The lattice to draw (while searching: the candidate found in this frame, if any).
    pub lattice: Option<Lattice>,
    /// The tracker state after this frame.
    pub lock: LockState,
    /// The tracker judged that a different puzzle is now in view (votes must restart).
    pub new_puzzle: bool,
    /// This frame's digits, read only while locked.
    pub reading: Option<Reading>,
}

/// Analyses a video stream frame by frame (owns the tracker state). Lives on the scan thread.
pub trait LiveAnalyzer: Send {
    /// Analyses the next frame.
    fn analyze(&mut self, image: &RgbImage) -> FrameAnalysis;
}

/// Makes a fresh [`LiveAnalyzer`] (one per camera session).
pub type LiveAnalyzerFactory = Arc<dyn Fn() -> Result<Box<dyn LiveAnalyzer>, String> + Send + Sync>;

/// The two entry points the app uses.
#[derive(Clone)]
pub struct Pipeline {
    /// Still photos.
    pub photo: Arc<dyn PhotoScanner>,
    /// Video.
    pub live: LiveAnalyzerFactory,
}

impl std::fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipeline").finish_non_exhaustive()
    }
}

/// A digit grid voted over the last frames.
#[derive(Clone, Debug, PartialEq)]
pub struct VotedReading {
    /// Majority value per cell.
    pub values: [u8; 81],
    /// Cells to show as uncertain (low agreement or low confidence).
    pub uncertain: [bool; 81],
    /// Frames the vote is over.
    pub frames: usize,
}

/// Majority vote of per-frame readings over a sliding window.
#[derive(Clone, Debug)]
pub struct Voter {
    window: usize,
    history: VecDeque<Reading>,
}

impl Voter {
    /// A voter over the last `window` readings (at least 1).
    pub fn new(window: usize) -> Voter {
        Voter {
            window: window.max(1),
            history: VecDeque::new(),
        }
    }

    /// Adds one frame's reading, forgetting the oldest beyond the window.
    pub fn push(&mut self, reading: Reading) {
        if self.history.len() == self.window {
            self.history.pop_front();
        }
        self.history.push_back(reading);
    }

    /// Forgets every reading (new puzzle, grid lost).
    pub fn clear(&mut self) {
        self.history.clear();
    }

    /// Number of readings held.
    pub fn len(&self) -> usize {
        self.history.len()
    }

    /// Whether no reading is held.
    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    /// The vote, once at least `min_frames` readings are held.
    pub fn voted(&self, min_frames: usize) -> Option<VotedReading> {
        let n = self.history.len();
        if n == 0 || n < min_frames {
            return None;
        }
        let mut values = [0u8; 81];
        let mut uncertain = [false; 81];
        for (i, (value, flag)) in values.iter_mut().zip(uncertain.iter_mut()).enumerate() {
            let mut votes = [0usize; 10];
            let mut confidence = [0f32; 10];
            for r in &self.history {
                let v = usize::from(r.values[i].min(9));
                votes[v] += 1;
                confidence[v] += r.confidence[i];
            }
            // Ties go to the smaller value (empty first): a doubtful digit is safer left out.
            let (best, &count) = votes
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
                .unwrap_or((0, &0));
            *value = best as u8;
            let agreement = count as f32 / n as f32;
            let mean_conf = confidence[best] / count.max(1) as f32;
            *flag = agreement < UNCERTAIN_AGREEMENT || mean_conf < UNCERTAIN_BELOW;
        }
        Some(VotedReading {
            values,
            uncertain,
            frames: n,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(values: [u8; 81], conf: f32) -> Reading {
        Reading {
            values,
            confidence: [conf; 81],
        }
    }

    #[test]
    fn majority_wins_and_disagreement_is_uncertain() {
        let mut base = [0u8; 81];
        base[0] = 5;
        base[10] = 3;
        let mut noisy = base;
        noisy[10] = 8;
        let mut v = Voter::new(5);
        assert_eq!(v.voted(1), None);
        for _ in 0..3 {
            v.push(reading(base, 0.99));
        }
        v.push(reading(noisy, 0.99));
        v.push(reading(noisy, 0.99));
        let voted = v.voted(3).unwrap();
        assert_eq!(voted.values, base);
        assert_eq!(voted.frames, 5);
        assert!(!voted.uncertain[0]);
        // 3 of 5 frames agree on r2c2: below the agreement threshold.
        assert!(voted.uncertain[10]);
        // The window slides: two more noisy frames flip the majority.
        v.push(reading(noisy, 0.99));
        v.push(reading(noisy, 0.99));
        assert_eq!(v.voted(3).unwrap().values[10], 8);
        v.clear();
        assert!(v.is_empty() && v.voted(1).is_none());
    }

    #[test]
    fn low_confidence_is_uncertain_even_when_unanimous() {
        let mut v = Voter::new(4);
        let mut r = reading([0; 81], 0.99);
        r.values[40] = 7;
        r.confidence[40] = 0.5;
        v.push(r.clone());
        v.push(r);
        let voted = v.voted(2).unwrap();
        assert_eq!(voted.values[40], 7);
        assert!(voted.uncertain[40]);
        assert!(!voted.uncertain[39]);
    }
}
