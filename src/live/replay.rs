//! Playing a clip (a folder of frames) through exactly the app's live code, and scoring what
//! it would have shown against the clip's `truth.json` (`crate::clip`).
//!
//! Owns the per-frame record, the replay loop (every frame at its nominal time, or paced in
//! real time where frames that arrive while the reader is busy are dropped, as the app's
//! newest-wins mailbox drops them) and the scores: when the right board was first shown, and
//! every frame whose overlay is wrong. It does not parse arguments or print (`cli/replay.rs`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{FrameWork, LiveReader, LiveState, Overlay};
use crate::clip::{ClipKind, ClipTruth};
use crate::vision::{LoadError, Point, load_image};

/// What the live path made of one frame.
#[derive(Clone, Debug)]
pub struct FrameRecord {
    /// Frame index in the clip.
    pub index: usize,
    /// State after the frame.
    pub state: LiveState,
    /// The grid's outer corners in the frame (TL, TR, BR, BL as the puzzle reads), when found.
    pub corners: Option<[Point; 4]>,
    /// The overlay the view would draw on this frame, if any.
    pub overlay: Option<Arc<Overlay>>,
    /// What was done with the frame.
    pub work: FrameWork,
    /// Whether the cells were read.
    pub read_cells: bool,
    /// Whether the frame was dropped because the reader was still busy (real-time replay
    /// only); the view keeps showing the previous frame's result.
    pub dropped: bool,
    /// Milliseconds the live path spent on the frame (decoding excluded).
    pub ms: f64,
}

/// Why a clip could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A frame could not be read.
    #[error("frame {path}: {source}")]
    Frame {
        /// The frame file.
        path: PathBuf,
        /// Why.
        #[source]
        source: LoadError,
    },
}

/// Plays `frames` (image files, in order) through `reader` at `fps`, calling `on_frame` with
/// each record as it is made. With `realtime`, frames are fed at the pace of the clip: a frame
/// whose time has passed while the reader was busy is dropped (recorded with `dropped`).
pub fn replay_frames(
    reader: &mut LiveReader,
    frames: &[PathBuf],
    fps: f32,
    realtime: bool,
    mut on_frame: impl FnMut(&FrameRecord),
) -> Result<Vec<FrameRecord>, ReplayError> {
    let fps = if fps.is_finite() && fps > 0.0 {
        fps
    } else {
        30.0
    };
    let frame_ms = 1000.0 / f64::from(fps);
    let started = Instant::now();
    let mut records: Vec<FrameRecord> = Vec::with_capacity(frames.len());
    for (index, path) in frames.iter().enumerate() {
        let t_ms = index as f64 * frame_ms;
        if realtime {
            let now_ms = started.elapsed().as_secs_f64() * 1000.0;
            if now_ms > t_ms + frame_ms && index + 1 < frames.len() {
                let previous = records.last();
                let record = FrameRecord {
                    index,
                    state: previous.map_or(LiveState::Searching, |r| r.state),
                    corners: previous.and_then(|r| r.corners),
                    overlay: previous.and_then(|r| r.overlay.clone()),
                    work: FrameWork::Unchanged,
                    read_cells: false,
                    dropped: true,
                    ms: 0.0,
                };
                on_frame(&record);
                records.push(record);
                continue;
            }
            if now_ms < t_ms {
                std::thread::sleep(Duration::from_secs_f64((t_ms - now_ms) / 1000.0));
            }
        }
        let image = load_image(path)
            .map_err(|source| ReplayError::Frame {
                path: path.clone(),
                source,
            })?
            .to_rgb8();
        let start = Instant::now();
        let output = reader.push_frame(&image, t_ms.round() as u64);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let record = FrameRecord {
            index,
            state: output.state,
            corners: output.lattice.map(|l| l.corners()),
            overlay: output.overlay,
            work: output.work,
            read_cells: output.read_cells,
            dropped: false,
            ms,
        };
        on_frame(&record);
        records.push(record);
    }
    Ok(records)
}

/// The scores of one clip.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClipSummary {
    /// The clip's folder.
    pub clip: String,
    /// Its kind, when it has a truth file.
    pub kind: Option<ClipKind>,
    /// Frames played.
    pub frames: usize,
    /// First frame with any overlay.
    pub first_lock_frame: Option<usize>,
    /// Milliseconds from the steady frame to the first frame whose overlay has the right
    /// givens; for a swap clip the worst of its puzzles. `None` when it never came (or no
    /// truth).
    pub lock_latency_ms: Option<f64>,
    /// Per puzzle of a swap clip (in order), the same latency.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub segment_latency_ms: Vec<Option<f64>>,
    /// Frames with an overlay.
    pub frames_with_overlay: usize,
    /// Frames whose overlay is wrong: givens that differ from the truth's, shown for the wrong
    /// puzzle, or on a frame with no puzzle. `None` without truth.
    pub frames_with_wrong_overlay: Option<usize>,
    /// Median milliseconds per frame worked on.
    pub ms_p50: f64,
    /// 95th percentile of milliseconds per frame worked on.
    pub ms_p95: f64,
}

/// Percentile `q` (0–1) of `values` (nearest rank), 0 for none.
pub fn percentile(values: &[f64], q: f64) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let rank = ((q.clamp(0.0, 1.0) * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// Labels as the solver sees them (pencil marks are empty).
fn solving_values(labels: &[u8; 81]) -> [u8; 81] {
    labels.map(|v| if v > 9 { 0 } else { v })
}

/// Scores `records` of the clip in `clip_dir` against `truth` (if any).
pub fn summarize(
    clip_dir: &Path,
    records: &[FrameRecord],
    truth: Option<&ClipTruth>,
) -> ClipSummary {
    let ms: Vec<f64> = records
        .iter()
        .filter(|r| !r.dropped)
        .map(|r| r.ms)
        .collect();
    let mut summary = ClipSummary {
        clip: clip_dir.display().to_string(),
        kind: truth.map(|t| t.kind),
        frames: records.len(),
        first_lock_frame: records
            .iter()
            .find(|r| r.overlay.is_some())
            .map(|r| r.index),
        frames_with_overlay: records.iter().filter(|r| r.overlay.is_some()).count(),
        ms_p50: percentile(&ms, 0.5),
        ms_p95: percentile(&ms, 0.95),
        ..ClipSummary::default()
    };
    let Some(truth) = truth else {
        return summary;
    };
    let right_at = |r: &FrameRecord| -> Option<bool> {
        let overlay = r.overlay.as_ref()?;
        Some(
            truth
                .labels_at(r.index)
                .is_some_and(|labels| solving_values(&labels) == overlay.givens),
        )
    };
    summary.frames_with_wrong_overlay = Some(
        records
            .iter()
            .filter(|r| right_at(r) == Some(false))
            .count(),
    );
    let frame_ms = 1000.0 / truth.fps.max(1.0);
    let latency = |steady: usize, until: usize| -> Option<f64> {
        records
            .iter()
            .filter(|r| r.index >= steady && r.index <= until)
            .find(|r| right_at(r) == Some(true))
            // Rounded to a microsecond, so that 15 frames at 30 fps are 500 ms, not a hair
            // more.
            .map(|r| ((r.index - steady) as f64 * frame_ms * 1000.0).round() / 1000.0)
    };
    match truth.kind {
        ClipKind::Single => {
            summary.lock_latency_ms = latency(truth.steady_from_frame, records.len());
        }
        ClipKind::Swap => {
            let segments = truth.segments.as_deref().unwrap_or_default();
            summary.segment_latency_ms = segments
                .iter()
                .map(|s| latency(s.steady_from_frame.unwrap_or(s.from_frame), s.to_frame))
                .collect();
            summary.lock_latency_ms = if summary.segment_latency_ms.iter().all(Option::is_some) {
                summary
                    .segment_latency_ms
                    .iter()
                    .flatten()
                    .copied()
                    .reduce(f64::max)
            } else {
                None
            };
        }
        ClipKind::Nopuzzle => {}
    }
    summary
}

/// Totals over many clips.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct OverallSummary {
    /// Clips played.
    pub clips: usize,
    /// Frames played.
    pub frames: usize,
    /// Puzzles (single clips, and each puzzle of a swap clip) in clips with truth.
    pub puzzles: usize,
    /// Of those, shown with the right board within `within_ms` of their steady frame.
    pub puzzles_locked_in_time: usize,
    /// The latency bound used, milliseconds.
    pub within_ms: f64,
    /// Median lock latency over the puzzles that locked, milliseconds.
    pub latency_p50_ms: f64,
    /// 95th percentile of the lock latency over the puzzles that locked.
    pub latency_p95_ms: f64,
    /// Frames with an overlay.
    pub frames_with_overlay: usize,
    /// Frames with a wrong overlay (clips with truth).
    pub frames_with_wrong_overlay: usize,
    /// Median and 95th percentile of per-frame milliseconds over all clips.
    pub ms_p50: f64,
    /// See `ms_p50`.
    pub ms_p95: f64,
}

/// Totals `clips` (their summaries and records), counting a puzzle as locked in time when
/// its right board was shown within `within_ms` of its steady frame.
pub fn overall(clips: &[(ClipSummary, Vec<FrameRecord>)], within_ms: f64) -> OverallSummary {
    let mut latencies = Vec::new();
    let mut total = OverallSummary {
        clips: clips.len(),
        within_ms,
        ..OverallSummary::default()
    };
    let mut ms = Vec::new();
    for (s, records) in clips {
        total.frames += s.frames;
        total.frames_with_overlay += s.frames_with_overlay;
        total.frames_with_wrong_overlay += s.frames_with_wrong_overlay.unwrap_or(0);
        ms.extend(records.iter().filter(|r| !r.dropped).map(|r| r.ms));
        let puzzle_latencies: Vec<Option<f64>> = match s.kind {
            Some(ClipKind::Single) => vec![s.lock_latency_ms],
            Some(ClipKind::Swap) => s.segment_latency_ms.clone(),
            _ => Vec::new(),
        };
        for l in puzzle_latencies {
            total.puzzles += 1;
            if let Some(l) = l {
                latencies.push(l);
                if l <= within_ms {
                    total.puzzles_locked_in_time += 1;
                }
            }
        }
    }
    total.latency_p50_ms = percentile(&latencies, 0.5);
    total.latency_p95_ms = percentile(&latencies, 0.95);
    total.ms_p50 = percentile(&ms, 0.5);
    total.ms_p95 = percentile(&ms, 0.95);
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 10.0);
        assert_eq!(percentile(&v, 0.95), 19.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
        assert_eq!(percentile(&[3.0, f64::NAN], 1.0), 3.0);
    }
}
