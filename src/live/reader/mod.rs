//! [`LiveReader`]: the per-frame state machine of the live path (see the module docs of
//! `live`). One frame: thumbnail check → grid located (tracked from the held lattice, or a
//! full detection when there is none, tracking failed, or one is due) → tracker update
//! (steadiness, loss, puzzle identity by cell-ink fingerprint) → cells read when due → votes →
//! trust and solve → output.
//!
//! Where the grid is in a new picture (followed, tracked, detected, and when a full detection
//! is due) is decided in `locate`; this file keeps the reader's state, the frame loop and what
//! follows once the grid is found.

mod locate;

use std::sync::Arc;

use image::{GrayImage, RgbImage};

use super::change::Thumbnail;
use super::clues::restore_needed_clue;
use super::follow::Template;
use super::puzzle::{Puzzle, Seen, earn_trust, read};
use super::renew::{RENEW_READS_AFTER_TOUCH, renew, shows_new_ink};
use super::tries::HELD_RETRIES;
use super::trust::{reads_needed, trustworthy};
use super::vote::{Votes, agrees};
use super::{FrameWork, LiveConfig, LiveOutput, LiveState, LockProgress, Overlay};
use crate::digits::CellReading;
use crate::digits::orientation::lattice_as_read;
use crate::scan::{ScanError, Scanner};
use crate::vision::geometry::bounding_box;
use crate::vision::tracker::CellFingerprint;
use crate::vision::{
    self, GridDetection, Lattice, LatticeTracker, TrackerEvent, TrackerState, rectify,
};

/// Frames a picture must have held still before its change counts as a touch of the page
/// (`renew`): a camera in the hand shows a still frame now and then, one held on a stand or
/// over a page lying flat shows runs of them.
const STILL_BEFORE_TOUCH_FRAMES: u32 = 5;

/// Cell side of the small rectified grid the fingerprint is taken from.
const FINGERPRINT_CELL_PX: u32 = 16;

/// The last picture worked on, reused while frames do not change.
#[derive(Debug)]
struct Held {
    thumbnail: Thumbnail,
    gray: GrayImage,
    /// Its grid (image order) and fingerprint, when found.
    detection: Option<(GridDetection, CellFingerprint)>,
    /// Its cells' readings as the puzzle reads, once read.
    readings: Option<Vec<CellReading>>,
    /// Detections run again on it while it gave no grid.
    retries: u32,
}

/// The live path's state machine; see the module docs of `live`.
#[derive(Debug)]
pub struct LiveReader {
    scanner: Scanner,
    config: LiveConfig,
    tracker: LatticeTracker,
    puzzle: Puzzle,
    held: Option<Held>,
    /// The grid's last lattice (image order), kept through short occlusions.
    last_lattice: Option<Lattice>,
    /// The grid's picture at its last validated sighting (detected or line-tracked).
    template: Option<Template>,
    /// Frames followed by the template since that sighting.
    frames_since_validated: u32,
    frames_since_detection: u32,
    /// Full detections in a row that found nothing.
    failed_detections: u32,
    /// The ink polarity (inverted or not) of the last quick detection that found a grid.
    invert_hint: Option<bool>,
    /// Whether the last quick detection that found a grid used the finer ink step.
    faint_hint: bool,
    /// The trusted board of the puzzle the tracker last replaced, until a read says it is back
    /// or the puzzle in view earns a board of its own.
    replaced: Option<Replaced>,
    /// The votes (and quarter turns) of a replaced puzzle that had no trusted board yet, until
    /// the next read says whether it is the same page (moved or blurred enough to change its
    /// fingerprint, not another puzzle).
    replaced_votes: Option<(Votes, Option<u8>)>,
    previous: Option<LiveOutput>,
    /// Frames in a row that showed the held picture unchanged.
    unchanged_frames: u32,
}

impl LiveReader {
    /// A reader around a loaded scanner.
    pub fn new(scanner: Scanner, config: LiveConfig) -> LiveReader {
        let tracker = LatticeTracker::new(config.tracker.clone());
        let window = config.vote_window;
        LiveReader {
            scanner,
            config,
            tracker,
            puzzle: Puzzle::new(0, window),
            held: None,
            last_lattice: None,
            template: None,
            frames_since_validated: 0,
            frames_since_detection: 0,
            failed_detections: 0,
            invert_hint: None,
            faint_hint: false,
            replaced: None,
            replaced_votes: None,
            previous: None,
            unchanged_frames: 0,
        }
    }

    /// A reader with the bundled model and default settings.
    pub fn with_default_model() -> Result<LiveReader, ScanError> {
        Ok(LiveReader::new(
            Scanner::with_default_model()?,
            LiveConfig::default(),
        ))
    }

    /// Forgets everything seen (a new camera session) but keeps the loaded model. Puzzle ids
    /// go on counting, so results tagged before the reset never match what comes after.
    pub fn reset(&mut self) {
        let next_id = self.puzzle.id + 1;
        let mut tracker = LatticeTracker::new(self.config.tracker.clone());
        // The tracker numbers puzzles from 0; the reader's ids must not repeat.
        tracker.set_first_puzzle_id(next_id);
        self.tracker = tracker;
        self.puzzle = Puzzle::new(next_id, self.config.vote_window);
        self.held = None;
        self.last_lattice = None;
        self.template = None;
        self.frames_since_validated = 0;
        self.frames_since_detection = 0;
        self.failed_detections = 0;
        self.invert_hint = None;
        self.faint_hint = false;
        self.replaced = None;
        self.replaced_votes = None;
        self.previous = None;
        self.unchanged_frames = 0;
    }

    /// The settings.
    pub fn config(&self) -> &LiveConfig {
        &self.config
    }

    /// Feeds the next frame, taken at `t_ms` (milliseconds, monotonic), and says what to show.
    pub fn push_frame(&mut self, frame: &RgbImage, t_ms: u64) -> LiveOutput {
        let thumbnail = Thumbnail::of(frame);
        // While a board is being read, only an identical picture (a still) is skipped: a
        // camera's picture that barely moved still sharpens as the focus settles, and every
        // fresh read is evidence.
        let locked = self.puzzle.trusted.is_some() && self.puzzle.confirmed;
        let reading =
            self.tracker.steady_frames() > 0 && !(locked && self.puzzle.renewal.is_none());
        let unchanged = self.held.as_ref().is_some_and(|h| {
            if reading {
                thumbnail == h.thumbnail
            } else {
                // A locked grid's own blocks are judged apart too: answers written in a few
                // of its cells are a change there long before they are one of the frame.
                thumbnail.same_as(&h.thumbnail)
                    && !(locked
                        && h.detection.as_ref().is_some_and(|(d, _)| {
                            thumbnail.marked_within(&h.thumbnail, bounding_box(&d.corners_in_image))
                        }))
            }
        });
        let retry = unchanged
            && self
                .held
                .as_ref()
                .is_some_and(|h| h.detection.is_none() && h.retries < HELD_RETRIES);
        let work = if retry {
            // A picture that stays the same (a still, a camera that does not move) gets the
            // other tries in turn (see [`Try`]) before it is given up on. A camera's picture
            // that only looks the same is tried in its newest frame: a page held still
            // sharpens as the focus settles, and the first frame of it may be too blurred for
            // any try.
            let (detection, work) = match self.held.as_mut() {
                Some(held) => {
                    held.retries += 1;
                    let gray = if thumbnail == held.thumbnail {
                        std::mem::take(&mut held.gray)
                    } else {
                        vision::rgb_to_gray(frame)
                    };
                    let found = self.locate(&gray, frame);
                    if let Some(held) = self.held.as_mut() {
                        held.gray = gray;
                    }
                    found
                }
                None => (None, FrameWork::NotFound),
            };
            if let Some(held) = self.held.as_mut() {
                held.detection = detection.map(|d| {
                    let fingerprint = fingerprint(&held.gray, &d.lattice());
                    (d, fingerprint)
                });
            }
            work
        } else if unchanged {
            FrameWork::Unchanged
        } else {
            let gray = vision::rgb_to_gray(frame);
            let (detection, work) = self.locate(&gray, frame);
            let detection = detection.map(|d| {
                let fingerprint = fingerprint(&gray, &d.lattice());
                (d, fingerprint)
            });
            self.held = Some(Held {
                thumbnail,
                gray,
                detection,
                readings: None,
                retries: 0,
            });
            work
        };
        if work == FrameWork::Unchanged {
            self.unchanged_frames = self.unchanged_frames.saturating_add(1);
        } else {
            if self.unchanged_frames >= STILL_BEFORE_TOUCH_FRAMES && locked {
                // A locked picture held still that changed: new ink may have come (`renew`).
                // Only a locked board's: a touch seen while a page is still being read would
                // otherwise linger until its lock, and let a moving camera's later reads renew.
                self.puzzle.renew_reads_left = RENEW_READS_AFTER_TOUCH;
            }
            self.unchanged_frames = 0;
        }
        let mut output = self.advance(frame, t_ms, work);
        output.changed = self
            .previous
            .as_ref()
            .is_none_or(|p| shows_differently(p, &output));
        self.previous = Some(output.clone());
        output
    }

    /// Runs the tracker, reading, voting and trust on the held picture (`frame` in colour).
    fn advance(&mut self, frame: &RgbImage, t_ms: u64, work: FrameWork) -> LiveOutput {
        let Some(held) = self.held.as_mut() else {
            return LiveOutput::default();
        };
        let (detection, fingerprint) = match &held.detection {
            Some((d, f)) => (Some(d), Some(*f)),
            None => (None, None),
        };
        let update = self.tracker.update(detection, fingerprint, t_ms);
        match update.event {
            TrackerEvent::NewPuzzle => replace_puzzle(
                &mut self.puzzle,
                Puzzle::new(update.puzzle_id, self.config.vote_window),
                &mut self.replaced,
                &mut self.replaced_votes,
            ),
            TrackerEvent::Acquired | TrackerEvent::Lost => {
                self.puzzle.confirmed = false;
                self.puzzle.renewal = None;
            }
            TrackerEvent::None | TrackerEvent::Locked | TrackerEvent::Unlocked => {}
        }
        self.last_lattice = match update.state {
            TrackerState::Searching | TrackerState::Lost => None,
            TrackerState::Tracking | TrackerState::Locked => update.lattice,
        };
        if self.last_lattice.is_none() {
            // Searching again: the picture held is no grid's any more.
            self.template = None;
        }
        let found = detection.map(GridDetection::lattice);
        self.puzzle.frames_since_read = self.puzzle.frames_since_read.saturating_add(1);

        let steady = self.tracker.steady_frames();
        let puzzle = &self.puzzle;
        let due = match (&puzzle.trusted, puzzle.confirmed) {
            (Some(_), false) => true,
            // A full window that still earns no trust (a cell that reads two ways, a board
            // with no or several solutions) changes as its first, blurrier reads slide out:
            // read it on every few frames only, so a hopeless board does not cost a model run
            // per frame.
            (None, _) if puzzle.votes.len() >= self.config.vote_window => {
                puzzle.frames_since_read >= self.config.reread_untrusted_every_frames
            }
            (None, _) => true,
            // New ink is being voted: every read counts, as before a lock.
            (Some(_), true) if puzzle.renewal.is_some() => true,
            // A still picture read once says all it will. A moving camera's is read on a
            // changed frame when due; a still picture that changed after the last read
            // (the page touched, `renew`) when due, even if the frames since have not.
            (Some(_), true) => {
                puzzle.frames_since_read >= self.config.reread_every_frames
                    && (work != FrameWork::Unchanged
                        || (held.readings.is_none() && puzzle.renew_reads_left > 0))
            }
        };
        let mut error = None;
        let mut fresh = None;
        if let Some(lattice) = found
            && steady >= self.config.read_after_steady_frames
            && due
        {
            let readings = match &held.readings {
                Some(r) => Ok(Some(r.clone())),
                None => read(&mut self.scanner, &mut self.puzzle, &held.gray, &lattice),
            };
            match readings {
                Ok(Some(readings)) => {
                    held.readings = Some(readings.clone());
                    fresh = Some(readings);
                }
                Ok(None) => {}
                Err(e) => error = Some(format!("cannot read the cells: {e}")),
            }
        }
        let read_cells = fresh.is_some();
        if let (Some(readings), Some(lattice)) = (fresh, found) {
            let as_read = Lattice {
                points_in_image: lattice_as_read(
                    &lattice.points_in_image,
                    self.puzzle.quarter_turns.unwrap_or(0),
                ),
            };
            self.take_read(Seen {
                frame,
                lattice: &as_read,
                readings: &readings,
            });
        }

        let puzzle = &self.puzzle;
        let state = match update.state {
            TrackerState::Searching => LiveState::Searching,
            TrackerState::Lost => LiveState::Lost,
            TrackerState::Tracking | TrackerState::Locked => {
                if puzzle.trusted.is_some() && puzzle.confirmed {
                    LiveState::Locked
                } else if !puzzle.votes.is_empty() {
                    LiveState::Reading
                } else {
                    LiveState::Following
                }
            }
        };
        let overlay = (state == LiveState::Locked && found.is_some())
            .then(|| puzzle.trusted.clone())
            .flatten();
        let turns = puzzle.quarter_turns.unwrap_or(0);
        let board = puzzle.votes.voted();
        // The reads still needed count as progress: a still is fed again only while its
        // output changes, so a doubtful board that needs more reads must show it.
        let reads_needed = board.as_ref().map_or(self.config.reads_to_trust, |b| {
            let mistake = if puzzle.mistake_waits {
                self.config.reads_to_trust_doubtful
            } else {
                0
            };
            reads_needed(b, &puzzle.votes, &self.config).max(mistake)
        });
        LiveOutput {
            state,
            progress: LockProgress {
                steady_frames: steady.min(self.config.read_after_steady_frames),
                steady_needed: self.config.read_after_steady_frames,
                reads: (puzzle.votes.len() as u32).min(reads_needed),
                reads_needed,
                new_writing: state == LiveState::Locked && puzzle.renewal.is_some(),
            },
            puzzle_id: puzzle.id,
            lattice: found.map(|l| Lattice {
                points_in_image: lattice_as_read(&l.points_in_image, turns),
            }),
            board,
            overlay,
            work,
            read_cells,
            changed: true,
            error,
        }
    }

    /// Votes one read (`seen`) and decides what is trusted.
    fn take_read(&mut self, seen: Seen<'_>) {
        let readings = seen.readings;
        let empty_weight = self.config.trust_max_empty_weight_in_digit;
        // The board of the puzzle the tracker last replaced is back when a read agrees with
        // it, or differs only by new ink (a hand that wrote an answer also changed the grid's
        // ink; what it wrote is voted below, in `renew`). It is kept until then, or until the
        // puzzle in view earns a board of its own: a read while the hand is still over the
        // grid says nothing of it.
        let back = self.replaced.as_ref().is_some_and(|replaced| {
            self.puzzle.trusted.is_none()
                && self.puzzle.quarter_turns == replaced.quarter_turns
                && (agrees(readings, &replaced.board.givens)
                    || shows_new_ink(readings, &replaced.board, empty_weight))
        });
        if back
            && let Some(Replaced {
                board,
                votes,
                quarter_turns: turns,
            }) = self.replaced.take()
        {
            tracing::debug!(puzzle = board.puzzle_id, "the replaced board is back");
            let mut restored = Puzzle::new(board.puzzle_id, self.config.vote_window);
            restored.quarter_turns = turns;
            // Its reads too: voted alone, the read that brought it back (which may leave a
            // cell doubtful, as `agrees` allows) would be a vote of its own that moved away
            // from the board and dropped it again at once.
            restored.votes = votes;
            restored.last_voted = Some(board.givens);
            restored.cache.solved = Some((board.givens, Some(board.solution)));
            restored.trusted = Some(board);
            restored.confirmed = true;
            restored.renew_reads_left = RENEW_READS_AFTER_TOUCH;
            self.puzzle = restored;
        }
        if self.puzzle.trusted.is_some() {
            self.replaced = None;
        }
        if let Some((votes, turns)) = self.replaced_votes.take()
            && self.puzzle.votes.is_empty()
            && self.puzzle.quarter_turns == turns
            && votes.agree_with(readings)
        {
            // The same page after all: its earlier reads still count (trust rules unchanged).
            tracing::debug!(
                puzzle = self.puzzle.id,
                "the replaced reads are the same board"
            );
            self.puzzle.votes = votes;
        }
        let puzzle = &mut self.puzzle;
        puzzle.frames_since_read = 0;
        if let Some(trusted) = &puzzle.trusted
            && !puzzle.confirmed
        {
            // Found again after a loss: this read alone must agree with the trusted board, or
            // differ from it only by new ink (an answer written while the hand hid the grid,
            // voted below), or what is in view is not that board.
            if agrees(readings, &trusted.givens) || shows_new_ink(readings, trusted, empty_weight) {
                puzzle.confirmed = true;
                puzzle.renew_reads_left = RENEW_READS_AFTER_TOUCH;
            } else {
                tracing::debug!(puzzle = puzzle.id, "read after reacquiring disagrees");
                let (id, turns) = (puzzle.id, puzzle.quarter_turns);
                *puzzle = Puzzle::new(id, self.config.vote_window);
                puzzle.quarter_turns = turns;
            }
        }
        if renew(&mut self.puzzle, seen, &self.config) {
            return;
        }
        let puzzle = &mut self.puzzle;
        puzzle.votes.push(readings);
        puzzle.mistake_waits = false;
        let Some(mut voted) = puzzle.votes.voted() else {
            return;
        };
        // A given printed too light to win the vote, when the puzzle needs it.
        restore_needed_clue(&mut voted, &puzzle.votes);
        if let Some(trusted) = &puzzle.trusted
            && trusted.givens == voted.values
        {
            puzzle.last_voted = Some(voted.values);
            return;
        }
        tracing::debug!(
            puzzle = puzzle.id,
            reads = voted.reads,
            min_confidence = voted.min_confidence(),
            clues = voted.clue_count(),
            board = %super::digits_text(&voted.values),
            doubtful = ?voted
                .confidence
                .iter()
                .enumerate()
                .filter(|(_, c)| **c < 0.95)
                .map(|(i, c)| (i, voted.values[i], (c * 100.0).round() as u32))
                .collect::<Vec<_>>(),
            "voted"
        );
        // The vote moved away from the trusted board (or there is none): trust must be
        // earned again by this vote.
        puzzle.trusted = None;
        puzzle.confirmed = false;
        let stable = puzzle.last_voted.replace(voted.values) == Some(voted.values);
        if !(stable && trustworthy(&voted, &puzzle.votes, &self.config)) {
            return;
        }
        let (overlay, mistake_waits) = earn_trust(
            &mut puzzle.cache,
            puzzle.id,
            &voted,
            &puzzle.votes,
            seen,
            &self.config,
        );
        puzzle.mistake_waits = mistake_waits;
        if let Some(overlay) = overlay {
            puzzle.trusted = Some(overlay);
            puzzle.confirmed = true;
        }
    }
}

/// Puts `new` in place of the puzzle held (`puzzle`): the tracker saw other ink. A finger or
/// a shadow over the grid changes its ink too, and so does a page that moved or blurred, so
/// the trusted board of the old puzzle (with the reads it was voted from) waits in `replaced`,
/// or the reads of one not yet trusted in `replaced_votes`, to come back if the next read
/// agrees with them.
fn replace_puzzle(
    puzzle: &mut Puzzle,
    new: Puzzle,
    replaced: &mut Option<Replaced>,
    replaced_votes: &mut Option<(Votes, Option<u8>)>,
) {
    let old = std::mem::replace(puzzle, new);
    match old.trusted {
        Some(board) => {
            *replaced_votes = None;
            *replaced = Some(Replaced {
                board,
                votes: old.votes,
                quarter_turns: old.quarter_turns,
            });
        }
        // A puzzle replaced before it earned a board leaves the one before it waiting. One
        // replaced with no reads (the picture under a finger, gone again before a read)
        // leaves waiting the reads held before it.
        None => {
            if !old.votes.is_empty() {
                *replaced_votes = Some((old.votes, old.quarter_turns));
            }
        }
    }
}

/// A trusted board whose puzzle the tracker replaced, kept until a read says it is back or the
/// puzzle in view earns a board of its own.
#[derive(Debug)]
struct Replaced {
    board: Arc<Overlay>,
    /// The reads it was voted from.
    votes: Votes,
    quarter_turns: Option<u8>,
}

/// The coarse cell-ink fingerprint of the grid under `lattice`.
fn fingerprint(gray: &GrayImage, lattice: &Lattice) -> CellFingerprint {
    let grid = rectify::warp_grid(gray, lattice, FINGERPRINT_CELL_PX);
    CellFingerprint::from_grid(&grid, FINGERPRINT_CELL_PX)
}

/// Largest lattice move (pixels) a view need not redraw for.
const LATTICE_REDRAW_PX: f32 = 0.33;

/// Whether `now` shows anything differently from `before`.
fn shows_differently(before: &LiveOutput, now: &LiveOutput) -> bool {
    let lattice_moved = match (&before.lattice, &now.lattice) {
        (Some(a), Some(b)) => a.max_distance(b) > LATTICE_REDRAW_PX,
        (None, None) => false,
        _ => true,
    };
    let board_differs = match (&before.board, &now.board) {
        (Some(a), Some(b)) => a.values != b.values || a.uncertain() != b.uncertain(),
        (None, None) => false,
        _ => true,
    };
    lattice_moved
        || board_differs
        || before.state != now.state
        || before.progress != now.progress
        || before.puzzle_id != now.puzzle_id
        || before.overlay != now.overlay
        || before.error != now.error
}

#[cfg(test)]
mod tests;
