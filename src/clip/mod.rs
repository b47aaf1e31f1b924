//! The camera-clip layout: a folder of frames (`frame_0000.jpg`, `frame_0001.jpg`, … — any
//! image names, played in name order) plus `truth.json`, what is in view frame by frame:
//!
//! ```text
//! {"kind": "single"|"swap"|"nopuzzle", "fps": 30, "num_frames": N,
//!  "labels": 9×9 ints or null (0 empty, 1–9, 10 pencil marks),
//!  "segments": [{"from_frame", "to_frame", "labels", "steady_from_frame"}] or null,
//!  "steady_from_frame": k,
//!  "corners_per_frame": [[tl_x, tl_y, tr_x, tr_y, br_x, br_y, bl_x, bl_y] or null, …],
//!  "occluded_frames": [ … ]}
//! ```
//!
//! `labels` is set for a single puzzle, `segments` for a swap (one puzzle after another;
//! `to_frame` inclusive, a segment's own `steady_from_frame` optional). A frame's corners are
//! null when the whole grid is not inside it.
//!
//! Owns reading (with checks and errors naming the file and the problem), writing and the
//! frame listing shared by the simulator (`synthetic::clip`) and the clip replay. It does not
//! decode images.
//!
//! The truth's types and its own checks live here; its JSON form (reading, writing) in `json`,
//! the listing of frames and clip folders in `frames`.

mod frames;
mod json;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::vision::Point;

pub use frames::{FRAME_EXTENSIONS, clip_dirs, clip_frames, frame_name};

/// The name of the truth file in a clip folder.
pub const TRUTH_FILE: &str = "truth.json";

/// Why a clip or its truth could not be read or written. Every variant names the path.
#[derive(Debug, thiserror::Error)]
pub enum ClipError {
    /// A file or folder could not be read or written.
    #[error("cannot access {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// `truth.json` is not valid JSON of the expected shape.
    #[error("{path}:{line}:{column}: bad JSON: {message}")]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// `truth.json` parses but contradicts itself.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A clip folder holds no frames.
    #[error("no frames (jpg, jpeg, png, bmp, webp) in {0}")]
    NoFrames(PathBuf),
    /// A folder of clips holds no clip.
    #[error("no clip folders (subfolders holding frames) in {0}")]
    NoClips(PathBuf),
}

/// What a clip shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClipKind {
    /// One puzzle enters and is held.
    Single,
    /// One puzzle, then another.
    Swap,
    /// A printed page with no Sudoku.
    Nopuzzle,
}

impl ClipKind {
    /// Every kind.
    pub const ALL: [ClipKind; 3] = [ClipKind::Single, ClipKind::Swap, ClipKind::Nopuzzle];

    /// The name used in `truth.json` and folder names.
    pub fn name(self) -> &'static str {
        match self {
            ClipKind::Single => "single",
            ClipKind::Swap => "swap",
            ClipKind::Nopuzzle => "nopuzzle",
        }
    }
}

/// One puzzle's stretch of a swap clip.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// First frame where any of the puzzle is in view.
    pub from_frame: usize,
    /// Last frame where any of it is in view (inclusive).
    pub to_frame: usize,
    /// Its cell labels, row-major.
    pub labels: [u8; 81],
    /// The first frame after its motion stops, when known.
    pub steady_from_frame: Option<usize>,
}

/// The contents of `truth.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipTruth {
    /// What the clip shows.
    pub kind: ClipKind,
    /// Frames per second.
    pub fps: f64,
    /// Number of frames.
    pub num_frames: usize,
    /// Labels of the puzzle of a `single` clip.
    pub labels: Option<[u8; 81]>,
    /// The puzzles of a `swap` clip in order.
    pub segments: Option<Vec<Segment>>,
    /// The first frame after the (first) puzzle's motion stops.
    pub steady_from_frame: usize,
    /// Outer grid corners (TL, TR, BR, BL) per frame; `None` when the grid is not wholly in
    /// view (always for `nopuzzle`).
    pub corners_per_frame: Vec<Option<[Point; 4]>>,
    /// Frames where something (a finger) covers part of the grid.
    pub occluded_frames: Vec<usize>,
}

impl ClipTruth {
    /// Checks the truth against itself: frame counts, label values, segment order, frame
    /// numbers in range, labels present where the kind needs them.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.fps.is_finite() && self.fps > 0.0) {
            return Err(format!("fps must be a positive number, got {}", self.fps));
        }
        if self.num_frames == 0 {
            return Err("num_frames is 0".into());
        }
        if self.corners_per_frame.len() != self.num_frames {
            return Err(format!(
                "num_frames is {} but corners_per_frame has {} entries",
                self.num_frames,
                self.corners_per_frame.len()
            ));
        }
        if self.steady_from_frame >= self.num_frames {
            return Err(format!(
                "steady_from_frame {} is not a frame of the clip (0..{})",
                self.steady_from_frame, self.num_frames
            ));
        }
        if let Some(&k) = self.occluded_frames.iter().find(|&&k| k >= self.num_frames) {
            return Err(format!(
                "occluded frame {k} is not a frame of the clip (0..{})",
                self.num_frames
            ));
        }
        let check_labels = |what: &str, l: &[u8; 81]| match l.iter().position(|&v| v > 10) {
            Some(i) => Err(format!(
                "{what}: value {} at row {} column {} is outside 0..=10",
                l[i],
                i / 9 + 1,
                i % 9 + 1
            )),
            None => Ok(()),
        };
        if let Some(l) = &self.labels {
            check_labels("labels", l)?;
        }
        match self.kind {
            ClipKind::Single => {
                if self.labels.is_none() {
                    return Err("a single clip needs labels".into());
                }
                if self.segments.is_some() {
                    return Err("segments must be null for a single clip".into());
                }
            }
            ClipKind::Nopuzzle => {
                if self.labels.is_some() || self.segments.is_some() {
                    return Err("labels and segments must be null for a nopuzzle clip".into());
                }
                if let Some(k) = self.corners_per_frame.iter().position(Option::is_some) {
                    return Err(format!("a nopuzzle clip has corners at frame {k}"));
                }
            }
            ClipKind::Swap => {
                if self.labels.is_some() {
                    return Err(
                        "labels must be null for a swap clip (each segment has its own)".into(),
                    );
                }
                let segs = match &self.segments {
                    Some(s) if !s.is_empty() => s,
                    _ => return Err("a swap clip needs segments".into()),
                };
                for (i, s) in segs.iter().enumerate() {
                    check_labels(&format!("segment {i}: labels"), &s.labels)?;
                    if s.from_frame > s.to_frame || s.to_frame >= self.num_frames {
                        return Err(format!(
                            "segment {i}: frames {}..={} are not a range of the clip (0..{})",
                            s.from_frame, s.to_frame, self.num_frames
                        ));
                    }
                    if let Some(k) = s.steady_from_frame
                        && !(s.from_frame..=s.to_frame).contains(&k)
                    {
                        return Err(format!(
                            "segment {i}: steady_from_frame {k} is outside its frames {}..={}",
                            s.from_frame, s.to_frame
                        ));
                    }
                    if i > 0 && s.from_frame <= segs[i - 1].to_frame {
                        return Err(format!(
                            "segment {i} (from frame {}) overlaps or precedes segment {} \
                             (to frame {})",
                            s.from_frame,
                            i - 1,
                            segs[i - 1].to_frame
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The labels of the puzzle in view at `frame`: `labels` for a single clip, the covering
    /// segment's for a swap; `None` for nopuzzle, frames outside every segment and frames past
    /// the end.
    pub fn labels_at(&self, frame: usize) -> Option<[u8; 81]> {
        if frame >= self.num_frames {
            return None;
        }
        match self.kind {
            ClipKind::Single => self.labels,
            ClipKind::Nopuzzle => None,
            ClipKind::Swap => self.segment_at(frame).map(|s| s.labels),
        }
    }

    /// The grid's corners at `frame` (`None` when not wholly in view or past the end).
    pub fn corners_at(&self, frame: usize) -> Option<[Point; 4]> {
        self.corners_per_frame.get(frame).copied().flatten()
    }

    /// The frame from which the puzzle in view at `frame` is held still (`None` when no
    /// puzzle is in view or it is unknown).
    pub fn steady_from_at(&self, frame: usize) -> Option<usize> {
        match self.kind {
            ClipKind::Single => (frame < self.num_frames).then_some(self.steady_from_frame),
            ClipKind::Nopuzzle => None,
            ClipKind::Swap => self.segment_at(frame).and_then(|s| s.steady_from_frame),
        }
    }

    /// The segment of a swap clip that covers `frame`.
    fn segment_at(&self, frame: usize) -> Option<&Segment> {
        self.segments
            .as_ref()?
            .iter()
            .find(|s| (s.from_frame..=s.to_frame).contains(&frame))
    }
}
