//! Where the grid is in a new picture, for [`LiveReader`]: followed by its picture (the
//! template taken at its last validated sighting), tracked by its lines from the held
//! lattice, or found by a full detection when nothing is held, tracking fails or a detection
//! is due; and when one is due ([`redetection_due`]: periodically, sooner for an untrusted
//! board that may be read along a lattice that is not the grid's).
//!
//! It does not read cells, vote or judge trust, and the tracker's state (steadiness, loss,
//! puzzle identity) is updated by the reader with what it finds.

use image::{GrayImage, RgbImage};

use super::LiveReader;
use crate::live::follow::Template;
use crate::live::tries::{Try, traced_sides_on_failure};
use crate::live::{FrameWork, LiveConfig};
use crate::vision::{self, GridDetection, Lattice};

/// Least match (normalized cross-correlation) of the grid's picture for a frame to be
/// followed by it rather than tracked by its lines.
const FOLLOW_MIN_MATCH: f32 = 0.9;

/// A followed lattice is checked by the line tracker at least every this many frames.
const VALIDATE_EVERY_FRAMES: u32 = 6;

/// A board that has had `LiveConfig::reads_to_trust_doubtful` reads without earning trust
/// gets a full detection at least this often (a trusted one every
/// `LiveConfig::redetect_every_frames`). As many frames as those reads take, so a board read
/// along a lattice that the first, blurred frame put a corner half a cell off is detected
/// again as soon as its reads are spent (8 waited two frames more: dev clips 243 → 245 of 261
/// locked within 0.5 s, fresh ones 52 of 61 either way, no wrong overlay).
const REDETECT_UNTRUSTED_EVERY_FRAMES: u32 = 6;

/// Reads after which a board is judged garbled (see [`GARBLED_MIN_CELLS`]).
const GARBLED_AFTER_READS: usize = 2;

/// Cells of an untrusted voted board read below [`GARBLED_BELOW`] that mark it as garbled: read
/// along a lattice that is not the grid's (a first detection on a blurred frame, a corner put
/// half a cell off or more). Such a board gets a full detection every
/// [`REDETECT_GARBLED_EVERY_FRAMES`] rather than waiting out the doubtful board's reads. A
/// right lattice on a settled page reads nearly every cell above 0.9 (the bench clip's least
/// sure cell: 0.82); the garbled boards of the development clips had dozens of cells below
/// 0.5. Dev clips (8 sets, 261 puzzles): 245 → 248 locked within 0.5 s (10 cells: 247, 3
/// cells: 249), fresh clips 52 of 61 either way, no wrong overlay.
const GARBLED_MIN_CELLS: usize = 5;

/// Voted confidence below which a cell counts towards [`GARBLED_MIN_CELLS`].
const GARBLED_BELOW: f32 = 0.5;

/// A garbled board (see [`GARBLED_MIN_CELLS`]) is detected again at least this often.
const REDETECT_GARBLED_EVERY_FRAMES: u32 = 3;

/// The largest distance between corresponding corners of two lattices, in cell sides of `a`.
fn moved_cells(a: &Lattice, b: &Lattice) -> f32 {
    let cell_px = (a.mean_side() / 9.0).max(1.0);
    a.corners()
        .iter()
        .zip(b.corners())
        .map(|(p, q)| p.distance(q))
        .fold(0.0, f32::max)
        / cell_px
}

impl LiveReader {
    /// Finds the grid in a new picture: tracked from the held lattice when there is one and
    /// no full detection is due, else detected.
    /// `colour` is the frame in colour (for the screen stage's edges that only a hue shows).
    pub(super) fn locate(
        &mut self,
        gray: &GrayImage,
        colour: &RgbImage,
    ) -> (Option<GridDetection>, FrameWork) {
        let puzzle = &self.puzzle;
        let due = redetection_due(
            self.frames_since_detection,
            puzzle.trusted.is_some(),
            puzzle.votes.len(),
            puzzle.votes.voted().map(|b| b.cells_below(GARBLED_BELOW)),
            puzzle.reads_refused,
            &self.config,
        );
        if let Some(previous) = self.last_lattice
            && !due
        {
            // The grid's picture first (a fraction of a millisecond), its lines now and then
            // or when the picture no longer matches.
            if self.frames_since_validated < VALIDATE_EVERY_FRAMES
                && let Some(found) = self.follow(gray)
            {
                self.frames_since_validated += 1;
                self.frames_since_detection += 1;
                return (Some(found), FrameWork::Tracked);
            }
            match vision::track_lattice(gray, &previous) {
                Ok(found) => {
                    self.frames_since_detection += 1;
                    self.validated(gray, &found);
                    return (Some(found), FrameWork::Tracked);
                }
                Err(why) => tracing::debug!(%why, "tracking lost the grid"),
            }
            // The lines were not judged a grid (a full grid of handwriting can look too
            // inky to the line tracker) but the picture may still match.
            if let Some(found) = self.follow(gray) {
                self.frames_since_detection += 1;
                return (Some(found), FrameWork::Tracked);
            }
        }
        self.frames_since_detection = 0;
        // The next frame is another chance: the detector's tries are spread over the frames
        // that find nothing, so no frame pays for all of them (see [`Try`]). A try that found
        // the grid is tried first again (the page and the light change slowly).
        self.failed_detections += 1;
        let first = self
            .invert_hint
            .unwrap_or_else(|| vision::detect::prefers_inverted(gray));
        let turn = Try::on_failure(self.failed_detections);
        let options = turn.options(
            first,
            self.faint_hint,
            traced_sides_on_failure(self.failed_detections),
        );
        let invert = options.invert == Some(true);
        match vision::detect_with_colour(gray, Some(colour), &options, None) {
            Ok(found) => {
                self.failed_detections = 0;
                if let Some(previous) = self.last_lattice
                    && self.puzzle.trusted.is_none()
                    && moved_cells(&previous, &found.lattice()) > 0.5
                {
                    // The reads so far were of the cells under another lattice.
                    tracing::debug!(puzzle = self.puzzle.id, "detection moved the lattice");
                    self.puzzle.forget_reads();
                    self.puzzle.quarter_turns = None;
                }
                if options.effort == vision::Effort::Contours {
                    self.invert_hint = Some(invert);
                    self.faint_hint = options.ink_delta.is_some();
                }
                self.validated(gray, &found);
                (Some(found), FrameWork::Detected)
            }
            Err(_) => {
                // A periodic detection can miss a grid that tracking still follows (the
                // detector's outline stage is less tolerant of a finger over the border).
                let tracked = self
                    .last_lattice
                    .filter(|_| due)
                    .and_then(|previous| vision::track_lattice(gray, &previous).ok())
                    .or_else(|| self.follow(gray).filter(|_| due));
                match tracked {
                    Some(found) => (Some(found), FrameWork::Tracked),
                    None => (None, FrameWork::NotFound),
                }
            }
        }
    }

    /// The grid followed into `gray` by its picture, when the match is near perfect.
    fn follow(&self, gray: &GrayImage) -> Option<GridDetection> {
        let (lattice, score) = self.template.as_ref()?.follow(gray)?;
        (score >= FOLLOW_MIN_MATCH).then(|| GridDetection {
            corners_in_image: lattice.corners(),
            lattice_in_image: lattice.points_in_image,
            score,
        })
    }

    /// Takes a validated sighting's picture as the template to follow.
    fn validated(&mut self, gray: &GrayImage, found: &GridDetection) {
        self.template = Template::of(gray, &found.lattice());
        self.frames_since_validated = 0;
    }
}

/// Whether a grid that is being followed is due a full detection, `frames_since_detection`
/// after the last one: every `LiveConfig::redetect_every_frames`; sooner for a board without
/// trust that may be read along a lattice that is not the grid's (a detection that took a
/// neighbouring line for the border, or a first detection on a blurred frame, then tracked):
/// once it has had the reads even a doubtful board needs ([`REDETECT_UNTRUSTED_EVERY_FRAMES`]),
/// and when after [`GARBLED_AFTER_READS`] reads `cells_below_half` (its cells voted below
/// [`GARBLED_BELOW`]) reaches [`GARBLED_MIN_CELLS`], or after [`GARBLED_AFTER_READS`] reads in
/// a row were refused (`reads_refused`: nothing read there gave a vote to judge)
/// ([`REDETECT_GARBLED_EVERY_FRAMES`]).
fn redetection_due(
    frames_since_detection: u32,
    trusted: bool,
    reads: usize,
    cells_below_half: Option<usize>,
    reads_refused: u32,
    config: &LiveConfig,
) -> bool {
    let hopeless = !trusted && reads >= config.reads_to_trust_doubtful as usize;
    let garbled = !trusted
        && ((reads >= GARBLED_AFTER_READS
            && cells_below_half.is_some_and(|n| n >= GARBLED_MIN_CELLS))
            || reads_refused >= GARBLED_AFTER_READS as u32);
    frames_since_detection >= config.redetect_every_frames
        || (hopeless && frames_since_detection >= REDETECT_UNTRUSTED_EVERY_FRAMES)
        || (garbled && frames_since_detection >= REDETECT_GARBLED_EVERY_FRAMES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::Point;

    #[test]
    fn untrusted_boards_are_detected_again_sooner_the_more_garbled() {
        let config = LiveConfig::default();
        let due = |frames, trusted, reads, below| {
            redetection_due(frames, trusted, reads, below, 0, &config)
        };
        // A garbled board after two reads: every third frame.
        assert!(!due(2, false, 2, Some(30)));
        assert!(due(3, false, 2, Some(30)));
        // Not after one read, nor with a few unsure cells, nor once trusted.
        assert!(!due(3, false, 1, Some(30)));
        assert!(!due(3, false, 3, Some(GARBLED_MIN_CELLS - 1)));
        assert!(!due(3, true, 3, Some(30)));
        // A doubtful board that spent its reads: after six frames.
        let spent = config.reads_to_trust_doubtful as usize;
        assert!(!due(5, false, spent, Some(0)));
        assert!(due(6, false, spent, Some(0)));
        // Any board: periodically.
        assert!(!due(config.redetect_every_frames - 1, true, 10, None));
        assert!(due(config.redetect_every_frames, true, 10, None));
    }

    #[test]
    fn a_lattice_whose_reads_are_all_refused_is_detected_again_like_a_garbled_one() {
        let config = LiveConfig::default();
        let due =
            |frames, trusted, refused| redetection_due(frames, trusted, 0, None, refused, &config);
        // No vote to judge, two reads refused in a row: every third frame.
        assert!(!due(2, false, 2));
        assert!(due(3, false, 2));
        // Not after one refused read, nor once trusted.
        assert!(!due(3, false, 1));
        assert!(!due(3, true, 2));
    }

    #[test]
    fn a_lattice_a_cell_off_moved_by_one_cell() {
        let square = |x: f32, y: f32| {
            Lattice::from_corners([
                Point::new(x, y),
                Point::new(x + 270.0, y),
                Point::new(x + 270.0, y + 270.0),
                Point::new(x, y + 270.0),
            ])
        };
        let a = square(100.0, 100.0);
        assert!((moved_cells(&a, &square(130.0, 100.0)) - 1.0).abs() < 1e-4);
        assert!(moved_cells(&a, &square(103.0, 98.0)) < 0.5);
        assert_eq!(moved_cells(&a, &a), 0.0);
    }
}
