//! Which grid detection to run on a live frame while no grid is held: the detector's tries
//! spread over the frames that find nothing, so no frame pays for all of them. Only the
//! schedule; `reader` runs the detections.

use crate::vision::{self, DetectOptions, Effort};

/// The detections run in turn on frames that find no grid, so that every frame costs about
/// one quick try and each of the detector's fallbacks still comes round within a second or
/// so (the ink polarity the picture's marks vote for is "first").
///
/// The two costly fallbacks come round once in sixteen failures each: over 139 development
/// clips the other polarity never found a grid a quick try had missed and the Hough lines
/// found one once, while each costs two to four quick tries (a newspaper page's text makes
/// many outlines in the other polarity and many line votes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Try {
    /// The contour stages in the first polarity, the usual ink step.
    Quick,
    /// The same with the finer ink step (thin lines printed light, then softened by a webcam's
    /// focus or a small grid's scale); as cheap as `Quick`.
    Faint,
    /// The contour stages in the other polarity (on a normal page the paper becomes the ink
    /// and gives many outlines, so it costs more).
    OtherPolarity,
    /// The Hough line stage alone in the first polarity (grids whose lines join up into no
    /// outline and no closed cells).
    Lines,
}

/// The order of [`Try`]s over failed detections in a row (1-based, then repeating).
const TRIES: [Try; 16] = [
    Try::Quick,
    Try::Faint,
    Try::Quick,
    Try::Faint,
    Try::Quick,
    Try::Faint,
    Try::Quick,
    Try::OtherPolarity,
    Try::Quick,
    Try::Faint,
    Try::Quick,
    Try::Faint,
    Try::Quick,
    Try::Faint,
    Try::Quick,
    Try::Lines,
];

impl Try {
    /// The try for the `failed`-th detection in a row that found nothing so far (1-based).
    pub(super) fn on_failure(failed: u32) -> Try {
        TRIES[(failed.max(1) as usize - 1) % TRIES.len()]
    }

    /// Its detector options; `first` is the polarity to try first, `faint_first` whether the
    /// finer ink step found the grid last (then `Quick` and `Faint` swap), `traced_sides`
    /// whether failed outlines are rebuilt from their traced sides.
    pub(super) fn options(
        self,
        first: bool,
        faint_first: bool,
        traced_sides: bool,
    ) -> DetectOptions {
        let (invert, faint, effort) = match self {
            Try::Quick => (first, faint_first, Effort::Contours),
            Try::Faint => (first, !faint_first, Effort::Contours),
            Try::OtherPolarity => (!first, false, Effort::Contours),
            Try::Lines => (first, false, Effort::Lines),
        };
        DetectOptions {
            effort,
            invert: Some(invert),
            ink_delta: faint.then_some(vision::detect::FAINT_INK_DELTA),
            traced_sides,
            // Not on live frames: a zoomed crop found HD grids sooner on the dev clips (2
            // more of 261 locked within 0.5 s), but on two clips it gave reads a wrong
            // board was then trusted on (a pencil-mark cell read as a sure 5 along a lattice a
            // quarter cell off; a finished page's faint 4 read empty for 27 reads), while
            // the same clips without it showed nothing wrong. Stills keep it. Measured again
            // with the second opinion (stop 42, 176 dev clips): no wrong frame either way, but
            // no more clips locked within 0.5 s (158 both; wichtounet-v2 clips 30 → 28) and
            // a failed frame's cost grew (per-frame p95 of the sets 16–21 → 23–33 ms). Its
            // losses were re-detections of a held lattice that fell back to the zoom and moved
            // it; as a try of its own (failures 3, 7, 11 and 15 of the rotation, only while no
            // grid is held) it locked 160, but a 640×480 crop is enlarged twice and the VGA
            // bench's p95 went 14.6 → 36.3 ms. Zoomed so only in HD frames (a crop at the
            // frame's own pixels), it locked 160 with no wrong frame (fresh printed-page clips
            // 39 of 40 either way), HD bench p95 within 10 %, but the VGA bench's p95 (same code
            // for VGA frames) read 15.3–15.4 ms in one of its two plays, over the 15 ms the
            // rule written for it asked, while the unchanged reader read 16.1 in one: not
            // adopted at stop 42; a peer-compared cost rule and fresh HD clips can settle it.
            // Stop 43 (HD frames, nothing held): old dev clips 197 → 199, fresh HD 73 → 73.
            // Stop 52, on fresh clips with a peer-compared cost rule (HD frames, nothing held):
            // 162 → 165 of 181 within 0.5 s, no new wrong frame, but the HD clips' median
            // per-frame p95 18.6 → 25.3 ms; on one failure in four 164 and +20 %. Still off.
            zoom: false,
            // Not on live frames either (stop 44): on webcam stills of finished pages it found
            // 20 more grids in 1,526 frames, but over the dev clip sets it locked no more
            // puzzles within 0.5 s (196 and 196 of 205 on the clip sets of stops 38–42, 198 and
            // 198 of 213 on stop 43's fresh ones) and, reading two more frames of a swap clip
            // along a right lattice, it let a pencil-mark cell ("25", blurred) be voted a sure
            // 5: 26 frames of a wrong overlay where there were none.
            digits_for_hidden_lines: false,
            // Nor ink below the paper's level (a hard shadow's edge is no ink), the still
            // picture's fourth try. Stop 53, as a try of its own in place of two quick ones
            // (failures 3 and 11 of the rotation): over the five dev clip sets (181 puzzles)
            // 162 → 162 within 0.5 s, no new wrong frame, 9 fewer frames with an overlay (a
            // grid found a frame sooner whose first reads then earned no trust for 8 reads).
            ink_below_background: false,
            screen_max_noise_sigma: SCREEN_MAX_NOISE_SIGMA,
            ..DetectOptions::default()
        }
    }
}

/// Outlines that fail are rebuilt from the sides traced near their corners
/// (`vision::DetectOptions::traced_sides`) on the first detection of a run of failures and then
/// on one in this many. Those rebuilt quads (up to nine per outline, each refined) were most of
/// the cost of a frame that finds nothing, and on the development clips they found nothing a
/// later frame's contours or cell and box holes did not: over the 129 clips of seeds 2626,
/// 2727, 3131 and 3232, with them on every failed frame 113 puzzles locked within 0.5 s and
/// the per-frame p95 of the four sets was 20–26 ms; on one failed frame in eight, 115 and
/// 12–17 ms (one in four: 115, 14–19 ms), with no wrong overlay either way. Stop 53 (five dev
/// clip sets, 181 puzzles, 163 within 0.5 s): on failures 1 and 2 of every 8 (the finer step
/// too), 162 and p95 +12.5 %; [`TRIES`] reordered so that failure 9 is the finer step, 169 but
/// one set lost one and single clips moved by up to 0.7 s either way. Neither kept.
const TRACED_SIDES_EVERY: u32 = 8;

/// The most noise (σ, gray levels) of a live frame the screen stage searches
/// (`vision::DetectOptions::screen_max_noise_sigma`; stills: 0.25). A screen capture is flat
/// between its edges (σ ≈ 0; JPEG screenshots measured under 0.11), a camera frame is not, but
/// a defocused HD frame can be: 10 of the HD bench clip's 36 frames measured 0.18–0.25 and
/// paid for the stage's whole search, 55–96 ms a frame.
const SCREEN_MAX_NOISE_SIGMA: f32 = 0.12;

/// Whether the `failed`-th detection in a row that found nothing so far (1-based) rebuilds
/// failed outlines from their traced sides.
pub(super) fn traced_sides_on_failure(failed: u32) -> bool {
    (failed.max(1) - 1).is_multiple_of(TRACED_SIDES_EVERY)
}

/// Detections run again on a picture that stays the same and gave no grid: enough for every
/// [`Try`].
pub(super) const HELD_RETRIES: u32 = TRIES.len() as u32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_try_comes_round_and_the_costly_ones_rarely() {
        let turns: Vec<Try> = (1..=2 * TRIES.len() as u32).map(Try::on_failure).collect();
        assert_eq!(
            turns[..TRIES.len()],
            turns[TRIES.len()..],
            "the order repeats"
        );
        // The finer ink step within any four failures in a row, each
        // costly try once in sixteen, never two in a row, the first try a quick one.
        assert!(turns.windows(4).all(|w| w.contains(&Try::Faint)));
        for costly in [Try::OtherPolarity, Try::Lines] {
            assert_eq!(
                turns[..TRIES.len()]
                    .iter()
                    .filter(|&&t| t == costly)
                    .count(),
                1
            );
        }
        let cheap = |t: &Try| matches!(t, Try::Quick | Try::Faint);
        assert!(turns.windows(2).all(|w| cheap(&w[0]) || cheap(&w[1])));
        assert_eq!(Try::on_failure(1), Try::Quick);
    }

    #[test]
    fn traced_sides_come_round_on_the_first_failure_and_one_in_eight() {
        let on: Vec<u32> = (1..=24).filter(|&f| traced_sides_on_failure(f)).collect();
        assert_eq!(on, [1, 9, 17]);
        assert!(
            traced_sides_on_failure(0),
            "a count of 0 is taken as the first failure"
        );
        assert!(!Try::Quick.options(false, false, false).traced_sides);
        assert!(Try::Faint.options(false, false, true).traced_sides);
    }

    #[test]
    fn live_tries_never_zoom() {
        for k in 1..=TRIES.len() as u32 {
            let t = Try::on_failure(k);
            assert!(!t.options(false, false, traced_sides_on_failure(k)).zoom);
        }
        assert!(DetectOptions::default().zoom, "stills do");
    }

    #[test]
    fn the_ink_step_that_found_the_grid_goes_first() {
        let faint = Some(vision::detect::FAINT_INK_DELTA);
        assert_eq!(Try::Quick.options(false, false, true).ink_delta, None);
        assert_eq!(Try::Faint.options(false, false, true).ink_delta, faint);
        assert_eq!(Try::Quick.options(true, true, true).ink_delta, faint);
        assert_eq!(Try::Faint.options(true, true, true).ink_delta, None);
        let other = Try::OtherPolarity.options(true, true, true);
        assert_eq!(
            (other.invert, other.effort),
            (Some(false), Effort::Contours)
        );
        let lines = Try::Lines.options(false, true, true);
        assert_eq!(
            (lines.invert, lines.ink_delta, lines.effort),
            (Some(false), None, Effort::Lines)
        );
    }
}
