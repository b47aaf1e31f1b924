//! The set's summary figures: [`EvalSummary`] (the last JSON line of `eval --json`) and how it
//! is aggregated from the per-photo results — detection and corner figures over every photo,
//! digit-reading figures (scores, the confidence reliability table, printed/handwritten calls,
//! `check`'s verdicts) over the photos that were read.
//!
//! It owns the aggregation only: the per-photo measurements it sums are the parent module's
//! ([`super::ImageResult`], [`super::DigitResult`]), and printing the figures is the CLI's.

use serde::Serialize;

use super::{CORNER_TOLERANCE_PCT, DigitResult, ImageResult};
use crate::dataset::Dataset;
use crate::digits::reliability::{BIN_LOWER_EDGES, CellOutcome, ReliabilityBin, reliability};
use crate::digits::writing::GivensScore;

/// The summary object (last JSON line of `eval --json`). Digit-reading fields are `Option`s,
/// skipped when `None` (detection only).
#[derive(Clone, Debug, Default, Serialize)]
pub struct EvalSummary {
    /// Photos in the set.
    pub images: usize,
    /// Photos that could not be decoded (damaged or unsupported files).
    pub images_unreadable: usize,
    /// Photos where a grid was detected.
    pub grids_found: usize,
    /// Photos that have a ground-truth corners row; the corner figures below are over these
    /// and are null when there are none.
    pub images_with_corners: usize,
    /// Mean corner error over detected photos with ground truth, % of grid side.
    pub corner_err_mean_pct: Option<f64>,
    /// Largest corner error over detected photos with ground truth, % of grid side.
    pub corner_err_max_pct: Option<f64>,
    /// Median over found corners of how far the true corner lies outside the found one,
    /// along the grid's diagonal, % of grid side. Near 0 when the labels follow the
    /// detector's convention (corners on the border line's centre); a set labelled on the
    /// border's outer edge, or further out, shows a positive bias here that counts against
    /// every one of its corner errors.
    pub corner_out_median_pct: Option<f64>,
    /// Share (0–1) of photos with ground truth whose four corners are all within
    /// [`CORNER_TOLERANCE_PCT`] (a missed grid counts as a failure).
    pub within_3pct: Option<f64>,
    /// Median detection time, ms.
    pub ms_median: f64,
    /// 95th-percentile detection time, ms.
    pub ms_p95: f64,
    /// Photos with a label file (the digit figures are over these).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub images_with_labels: Option<usize>,
    /// Cells scored (81 per labelled photo; missed grids count as all wrong).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<usize>,
    /// Share of cells read right (pencil marks count as empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell_accuracy: Option<f64>,
    /// Share of digit cells (truth 1–9) read as that digit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digit_accuracy: Option<f64>,
    /// Share of empty / pencil-mark cells read as empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty_accuracy: Option<f64>,
    /// Share of photos with all 81 cells right.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards_exact: Option<f64>,
    /// Number of photos with all 81 cells right.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards_exact_count: Option<usize>,
    /// Share of photos whose solution (read or repaired) equals the true unique solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards_solved_correct: Option<f64>,
    /// Median whole-pipeline time (detection → solution), ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline_ms_median: Option<f64>,
    /// Found grids read turned (a non-zero `rotation_deg`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards_turned: Option<usize>,
    /// Over every read cell of the found grids: cells, right readings and accuracy per bin
    /// of the reading's confidence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reliability: Option<Vec<ReliabilityBin>>,
    /// Share of right readings flagged uncertain (`digits::UNCERTAIN_BELOW`); null without
    /// right readings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flagged_correct_share: Option<Option<f64>>,
    /// Share of misread cells flagged uncertain; null without misreads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flagged_wrong_share: Option<Option<f64>>,
    /// Photos with a givens mask scored for printed vs handwritten (absent without masks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub givens_photos: Option<usize>,
    /// Digit cells of those photos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given_cells: Option<usize>,
    /// Share of those digit cells whose printed/handwritten call is right (missed grids
    /// count as wrong).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given_accuracy: Option<f64>,
    /// The same share over the digit cells read as digits only (a digit read as empty is
    /// the reader's miss, not a printed/handwritten call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given_accuracy_read: Option<f64>,
    /// Share of those photos whose printed givens are all read and called printed, and
    /// nothing else is called a printed digit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub givens_exact: Option<f64>,
    /// Number of such photos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub givens_exact_count: Option<usize>,
    /// Photos with a givens mask whose entries were checked (`check`'s verdict scored).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_photos: Option<usize>,
    /// Share of them where `check` names exactly the wrong entries (none when all are right)
    /// with the scan's own printed/handwritten calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_right: Option<f64>,
    /// The same share with the mask standing in for the printed/handwritten calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_right_true_kinds: Option<f64>,
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let idx = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

/// The detection and corner figures over every photo of `ds` (digit-reading fields `None`).
pub(super) fn summarize(ds: &Dataset, results: &[ImageResult]) -> EvalSummary {
    let with_truth = ds
        .photos
        .iter()
        .filter(|p| p.corners_in_image.is_some())
        .count();
    let errs: Vec<f64> = results.iter().filter_map(|r| r.corner_err_pct).collect();
    let within = errs.iter().filter(|&&e| e <= CORNER_TOLERANCE_PCT).count();
    let mut ms: Vec<f64> = results
        .iter()
        .filter(|r| r.error.is_none() || r.ms > 0.0)
        .map(|r| r.ms)
        .collect();
    ms.sort_by(f64::total_cmp);
    let mut out: Vec<f64> = results
        .iter()
        .filter_map(|r| r.corner_out_pct)
        .flatten()
        .filter(|v| v.is_finite())
        .collect();
    out.sort_by(f64::total_cmp);
    EvalSummary {
        images: results.len(),
        images_unreadable: results
            .iter()
            .filter(|r| !r.grid_found && r.ms == 0.0 && r.error.is_some())
            .count(),
        grids_found: results.iter().filter(|r| r.grid_found).count(),
        images_with_corners: with_truth,
        corner_err_mean_pct: (!errs.is_empty())
            .then(|| errs.iter().sum::<f64>() / errs.len() as f64),
        corner_err_max_pct: (!errs.is_empty()).then(|| errs.iter().copied().fold(0.0, f64::max)),
        corner_out_median_pct: (!out.is_empty()).then(|| percentile(&out, 0.5)),
        within_3pct: (with_truth > 0).then(|| within as f64 / with_truth as f64),
        ms_median: percentile(&ms, 0.5),
        ms_p95: percentile(&ms, 0.95),
        ..EvalSummary::default()
    }
}

/// Adds the digit-reading figures to `summary`.
pub(super) fn summarize_digits(summary: &mut EvalSummary, results: &[ImageResult]) {
    let read: Vec<&DigitResult> = results.iter().filter_map(|r| r.digits.as_ref()).collect();
    if read.is_empty() {
        return;
    }
    let sum = |f: fn(&DigitResult) -> usize| read.iter().map(|r| f(r)).sum::<usize>();
    let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let cells = 81 * read.len();
    summary.cells = Some(cells);
    summary.cell_accuracy = Some(ratio(sum(|r| r.score.cells_correct), cells));
    summary.digit_accuracy = Some(ratio(
        sum(|r| r.score.digits_correct),
        sum(|r| r.score.digits),
    ));
    summary.empty_accuracy = Some(ratio(
        sum(|r| r.score.empties_correct),
        sum(|r| r.score.empties),
    ));
    let exact = sum(|r| usize::from(r.score.exact));
    summary.boards_exact = Some(ratio(exact, read.len()));
    summary.boards_exact_count = Some(exact);
    summary.boards_solved_correct = Some(ratio(
        sum(|r| usize::from(r.score.solved_correct)),
        read.len(),
    ));
    let mut ms: Vec<f64> = read
        .iter()
        .filter(|r| r.pipeline_ms > 0.0)
        .map(|r| r.pipeline_ms)
        .collect();
    ms.sort_by(f64::total_cmp);
    summary.pipeline_ms_median = Some(percentile(&ms, 0.5));
    let outcomes: Vec<CellOutcome> = read
        .iter()
        .flat_map(|r| r.outcomes.iter().copied())
        .collect();
    let rel = reliability(&outcomes, &BIN_LOWER_EDGES);
    summary.reliability = Some(rel.bins);
    summary.flagged_correct_share = Some(rel.flagged_correct_share);
    summary.flagged_wrong_share = Some(rel.flagged_wrong_share);
    summary.boards_turned = Some(
        read.iter()
            .filter(|r| r.rotation_deg.is_some_and(|d| d != 0))
            .count(),
    );
    let givens: Vec<&GivensScore> = read.iter().filter_map(|r| r.givens.as_ref()).collect();
    if !givens.is_empty() {
        let cells: usize = givens.iter().map(|g| g.digit_cells).sum();
        let right: usize = givens.iter().map(|g| g.kind_correct).sum();
        let exact = givens.iter().filter(|g| g.givens_exact).count();
        summary.givens_photos = Some(givens.len());
        summary.given_cells = Some(cells);
        summary.given_accuracy = Some(ratio(right, cells));
        summary.given_accuracy_read = Some(ratio(
            givens.iter().map(|g| g.read_kind_correct).sum(),
            givens.iter().map(|g| g.read_digit_cells).sum(),
        ));
        summary.givens_exact = Some(ratio(exact, givens.len()));
        summary.givens_exact_count = Some(exact);
    }
    let share = |f: fn(&DigitResult) -> Option<bool>| {
        let calls: Vec<bool> = read.iter().filter_map(|r| f(r)).collect();
        (!calls.is_empty()).then(|| ratio(calls.iter().filter(|&&c| c).count(), calls.len()))
    };
    summary.check_right = share(|r| r.check_right);
    summary.check_right_true_kinds = share(|r| r.check_right_true_kinds);
    let checked = read
        .iter()
        .filter(|r| r.check_right_true_kinds.is_some())
        .count();
    summary.check_photos = (checked > 0).then_some(checked);
}
