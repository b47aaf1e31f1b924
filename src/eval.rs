//! Measuring the pipeline on a labelled photo set (the `dataset` layout): per photo whether a
//! grid was found, its corner error against `corners.csv` (largest corner distance in % of the
//! true grid's mean side; only over photos with a corners row), milliseconds, and — with a
//! scanner — how the cells read against the label file (misread cells, confidences) and, on
//! photos with a printed-givens mask, how the printed givens are told from handwriting (the
//! model's `kind` output, else the photo's ink, `digits::style`); over the set the summary
//! figures and the confidence reliability table.
//!
//! Owns the metrics ([`corner_error_pct`], [`score_scan`], [`EvalSummary`]) used by
//! `sudoku-lens eval` and the tests alike. It does not read the set's files (`dataset`) nor
//! print anything (the CLI formats the figures).

use std::time::Instant;

use serde::Serialize;

use crate::dataset::{Dataset, DatasetError};
use crate::digits::reliability::{BIN_LOWER_EDGES, CellOutcome, ReliabilityBin, reliability};
use crate::digits::writing::{
    GivensScore, missed_givens, score_givens, split_by_mask, true_verdict, verdict_of,
};
use crate::scan::{Scan, Scanner};
use crate::sudoku::Cell;
use crate::sudoku::solver::solve_values;
use crate::vision::{self, Point};

/// Corner error (in % of the grid side) under which a detection counts as right.
pub const CORNER_TOLERANCE_PCT: f64 = 3.0;

/// How far detected corners lie from the ground truth: the largest distance between
/// corresponding corners, in % of `truth`'s mean side. Computed in `f64`, so corners far out
/// (1e38) give a large or infinite error, never NaN.
pub fn corner_error_pct(found: [Point; 4], truth: [Point; 4]) -> f64 {
    let side = mean_side_f64(truth);
    let worst = found
        .iter()
        .zip(truth.iter())
        .map(|(a, b)| dist(*a, *b))
        .fold(0.0, f64::max);
    let pct = 100.0 * worst / side;
    if pct.is_nan() { f64::INFINITY } else { pct }
}

/// Distance in `f64` (no overflow for coordinates near `f32::MAX`).
fn dist(a: Point, b: Point) -> f64 {
    (f64::from(a.x) - f64::from(b.x)).hypot(f64::from(a.y) - f64::from(b.y))
}

/// Mean side of a TL, TR, BR, BL quadrilateral in `f64`, at least 1 px.
fn mean_side_f64(q: [Point; 4]) -> f64 {
    ((0..4).map(|i| dist(q[i], q[(i + 1) % 4])).sum::<f64>() / 4.0).max(1.0)
}

/// For each corner, how far `truth` lies outside `found` along the line from the found
/// corners' centre through that corner, in % of `truth`'s mean side (negative: inside).
pub fn corner_offsets_out_pct(found: [Point; 4], truth: [Point; 4]) -> [f64; 4] {
    let side = mean_side_f64(truth);
    let centre = Point::new(
        found.iter().map(|p| p.x).sum::<f32>() / 4.0,
        found.iter().map(|p| p.y).sum::<f32>() / 4.0,
    );
    std::array::from_fn(|i| {
        let out = (found[i] - centre).unit();
        let d = truth[i] - found[i];
        100.0 * f64::from(d.x * out.x + d.y * out.y) / side
    })
}

/// How a scan's readings compare with a labelled photo (labels 0–10, 10 = pencil marks,
/// counted as empty).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReadScore {
    /// Cells compared (81).
    pub cells: usize,
    /// Cells whose solving value (digit or empty) is right.
    pub cells_correct: usize,
    /// Cells whose truth is a digit 1–9.
    pub digits: usize,
    /// … read as that digit.
    pub digits_correct: usize,
    /// Cells whose truth is empty or pencil marks.
    pub empties: usize,
    /// … read as empty or pencil marks.
    pub empties_correct: usize,
    /// All 81 cells right.
    pub exact: bool,
    /// The labelled grid has one solution and the scan's best solution equals it.
    pub solved_correct: bool,
}

/// Solving values of a label file's 81 labels: digits 1–9 stay, empty and pencil marks are 0.
pub fn truth_values(labels: &[u8; 81]) -> [u8; 81] {
    labels.map(|v| if (1..=9).contains(&v) { v } else { 0 })
}

/// Scores `scan` against `labels`.
pub fn score_scan(scan: &Scan, labels: &[u8; 81]) -> ReadScore {
    let mut s = ReadScore {
        cells: 81,
        ..ReadScore::default()
    };
    let truth = truth_values(labels);
    for (i, &t) in truth.iter().enumerate() {
        let read = scan.values[i];
        if read == t {
            s.cells_correct += 1;
        }
        if t == 0 {
            s.empties += 1;
            s.empties_correct += usize::from(read == 0);
        } else {
            s.digits += 1;
            s.digits_correct += usize::from(read == t);
        }
    }
    s.exact = s.cells_correct == 81;
    let true_solution = solve_values(&truth, 2);
    s.solved_correct = true_solution.count == 1 && scan.best_solution() == true_solution.first;
    s
}

/// Digit reading of one labelled photo (a photo whose grid was not found counts every cell
/// as wrong).
#[derive(Clone, Debug, Default, Serialize)]
pub struct DigitResult {
    /// The per-cell and per-board score ([`score_scan`]).
    #[serde(flatten)]
    pub score: ReadScore,
    /// Whole pipeline time: detection + cells + model + validation/repair + solve, ms.
    pub pipeline_ms: f64,
    /// How far the puzzle appeared turned clockwise, degrees (None for a missed grid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation_deg: Option<u16>,
    /// The cells read wrong, reading order (None for a missed grid: every cell counts wrong).
    #[serde(skip)]
    pub wrong: Option<Vec<WrongCell>>,
    /// Every read cell's confidence, correctness and flag (empty for a missed grid).
    #[serde(skip)]
    pub outcomes: Vec<CellOutcome>,
    /// Printed/handwritten calls against the photo's givens mask (when it has one).
    #[serde(skip)]
    pub givens: Option<GivensScore>,
    /// Whether `check` gives the photo's true verdict (the wrong entries by its labels and
    /// givens mask) with the scan's own printed/handwritten calls; absent without a mask.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_right: Option<bool>,
    /// … with the mask standing in for the printed/handwritten calls (what the checker and
    /// the digit reading alone achieve); absent without a mask.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_right_true_kinds: Option<bool>,
}

/// A misread cell, in solving values (0 = empty, pencil marks included).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WrongCell {
    /// Cell name, `r1c2`.
    pub cell: String,
    /// Value read.
    pub read: u8,
    /// True value.
    pub truth: u8,
}

/// Result for one photo.
#[derive(Clone, Debug, Serialize)]
pub struct ImageResult {
    /// Photo name.
    pub name: String,
    /// Whether a grid was detected.
    pub grid_found: bool,
    /// Largest corner distance in % of the true grid's mean side (None without a truth row
    /// or without a detection).
    pub corner_err_pct: Option<f64>,
    /// Detected corners (TL, TR, BR, BL) in image pixels, when a grid was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corners_in_image: Option<[Point; 4]>,
    /// Per corner, how far the true corner lies outside the found one (see
    /// [`corner_offsets_out_pct`]); summarized, not printed per image.
    #[serde(skip)]
    pub corner_out_pct: Option<[f64; 4]>,
    /// Detection time (grayscale conversion included, decoding excluded), milliseconds.
    pub ms: f64,
    /// Why the image failed (load error or no-grid reason).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Digit reading (when run and the photo has labels).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digits: Option<DigitResult>,
    /// The misread cells (when read: `[]` for an exact board; absent when the grid was not
    /// found or digits were not read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrong: Option<Vec<WrongCell>>,
    /// Digit cells whose printed/handwritten call is wrong (`r1c2`; present on photos with a
    /// givens mask).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind_wrong: Option<Vec<String>>,
}

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

/// Why a set could not be evaluated.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// Label files that do not read (every one is listed with its file and line); the
    /// figures would silently leave those photos out.
    #[error("{} malformed label file(s):\n{}", .0.len(), list(.0))]
    Labels(Vec<DatasetError>),
}

fn list(errors: &[DatasetError]) -> String {
    errors
        .iter()
        .map(|e| format!("  {e}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The labels of every photo of `ds` (`None` for a photo without a label file), or every
/// label file that does not read.
pub fn read_all_labels(ds: &Dataset) -> Result<Vec<Option<[u8; 81]>>, EvalError> {
    let mut labels = Vec::with_capacity(ds.photos.len());
    let mut errors = Vec::new();
    for photo in &ds.photos {
        match ds.labels(photo) {
            Ok(l) => labels.push(l),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(labels)
    } else {
        Err(EvalError::Labels(errors))
    }
}

/// One decoded photo as the reader takes it: the image, its gray levels and its colour
/// (`vision::colour_of`, `None` for a gray photo), each made once.
struct Picture<'a> {
    image: &'a image::DynamicImage,
    gray: &'a image::GrayImage,
    colour: Option<&'a image::RgbImage>,
}

/// Reads the digits of one photo and scores them against its labels (and its givens mask,
/// when it has one).
fn read_digits(
    scanner: &mut Scanner,
    picture: &Picture<'_>,
    detection: Option<&vision::GridDetection>,
    labels: &[u8; 81],
    mask: Option<[bool; 81]>,
    detect_ms: f64,
) -> DigitResult {
    let digits = labels.iter().filter(|v| (1..=9).contains(*v)).count();
    let missed = DigitResult {
        check_right: mask.map(|_| false),
        check_right_true_kinds: mask.map(|_| false),
        score: ReadScore {
            cells: 81,
            digits,
            empties: 81 - digits,
            ..ReadScore::default()
        },
        givens: mask.map(|_| missed_givens(labels)),
        ..DigitResult::default()
    };
    let Some(d) = detection else {
        return missed;
    };
    let start = Instant::now();
    let Ok(mut scan) = scanner.scan_detection(picture.gray, d.clone()) else {
        return missed;
    };
    scan.tell_writing_in(picture.image, picture.colour);
    let pipeline_ms = detect_ms + start.elapsed().as_secs_f64() * 1000.0;
    let truth = truth_values(labels);
    let wrong = (0..81)
        .filter(|&i| scan.values[i] != truth[i])
        .map(|i| WrongCell {
            cell: Cell::from_index(i).to_string(),
            read: scan.values[i],
            truth: truth[i],
        })
        .collect();
    let outcomes = scan
        .readings
        .iter()
        .zip(scan.values.iter().zip(&truth))
        .map(|(r, (read, t))| CellOutcome {
            confidence: r.confidence,
            correct: read == t,
            flagged: r.is_uncertain(),
        })
        .collect();
    DigitResult {
        score: score_scan(&scan, labels),
        pipeline_ms,
        rotation_deg: Some(scan.rotation_deg()),
        wrong: Some(wrong),
        outcomes,
        givens: mask.map(|m| score_givens(&scan.readings, labels, &m)),
        check_right: mask.map(|m| {
            let w = scan.written();
            w.kinds_known
                && verdict_of(&w.givens, &w.entries, &scan.uncertain_mask())
                    .is_some_and(|v| Some(v) == true_verdict(labels, &m))
        }),
        check_right_true_kinds: mask.map(|m| {
            let (g, e) = split_by_mask(&scan.values, &m);
            verdict_of(&g, &e, &scan.uncertain_mask())
                .is_some_and(|v| Some(v) == true_verdict(labels, &m))
        }),
    }
}

/// Evaluates every photo of `ds`: detection always, digit reading when `scanner` is given
/// (then every label file must read: a malformed one is an error naming its file and line,
/// never a photo quietly left out). Givens masks are read through `ds` (a malformed one
/// counts as none: check them with `Dataset::givens` first).
pub fn evaluate(
    ds: &Dataset,
    scanner: Option<&mut Scanner>,
) -> Result<(Vec<ImageResult>, EvalSummary), EvalError> {
    evaluate_with_progress(ds, scanner, |_, _| {})
}

/// [`evaluate`], calling `starting(index, name)` before each photo (a progress display).
pub fn evaluate_with_progress(
    ds: &Dataset,
    mut scanner: Option<&mut Scanner>,
    mut starting: impl FnMut(usize, &str),
) -> Result<(Vec<ImageResult>, EvalSummary), EvalError> {
    let labels = if scanner.is_some() {
        read_all_labels(ds)?
    } else {
        vec![None; ds.photos.len()]
    };
    let mut results = Vec::with_capacity(ds.photos.len());
    for (i, (photo, labels)) in ds.photos.iter().zip(&labels).enumerate() {
        starting(i, &photo.name);
        let image = match vision::load_image(&photo.image_path) {
            Ok(img) => img,
            Err(e) => {
                results.push(ImageResult {
                    name: photo.name.clone(),
                    grid_found: false,
                    corner_err_pct: None,
                    corners_in_image: None,
                    corner_out_pct: None,
                    ms: 0.0,
                    error: Some(e.to_string()),
                    digits: None,
                    wrong: None,
                    kind_wrong: None,
                });
                continue;
            }
        };
        // Gray conversion counts as detection time; the reader reuses the gray image.
        let start = Instant::now();
        let gray = vision::to_gray(&image);
        let colour = vision::colour_of(&image);
        let detection = vision::detect_with_colour(
            &gray,
            colour.as_deref(),
            &vision::DetectOptions::default(),
            None,
        );
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let digits = match (scanner.as_deref_mut(), labels) {
            (Some(s), Some(l)) => {
                let mask = ds.givens(photo).ok().flatten();
                let picture = Picture {
                    image: &image,
                    gray: &gray,
                    colour: colour.as_deref(),
                };
                Some(read_digits(
                    s,
                    &picture,
                    detection.as_ref().ok(),
                    l,
                    mask,
                    ms,
                ))
            }
            _ => None,
        };
        let corners_in_image = detection.as_ref().ok().map(|d| d.corners_in_image);
        let corner_out_pct = corners_in_image
            .zip(photo.corners_in_image)
            .map(|(found, truth)| corner_offsets_out_pct(found, truth));
        let (grid_found, corner_err_pct, error) = match detection {
            Ok(d) => (
                true,
                photo
                    .corners_in_image
                    .map(|t| corner_error_pct(d.corners_in_image, t)),
                None,
            ),
            Err(e) => (false, None, Some(e.to_string())),
        };
        let wrong = digits.as_ref().and_then(|d| d.wrong.clone());
        let kind_wrong = digits.as_ref().and_then(|d| d.givens.as_ref()).map(|g| {
            g.kind_wrong
                .iter()
                .map(|&i| Cell::from_index(i).to_string())
                .collect()
        });
        results.push(ImageResult {
            name: photo.name.clone(),
            grid_found,
            corner_err_pct,
            corners_in_image,
            corner_out_pct,
            ms,
            error,
            digits,
            wrong,
            kind_wrong,
        });
    }
    let mut summary = summarize(ds, &results);
    if scanner.is_some() {
        summary.images_with_labels = Some(labels.iter().filter(|l| l.is_some()).count());
        summarize_digits(&mut summary, &results);
    }
    Ok((results, summary))
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let idx = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

fn summarize(ds: &Dataset, results: &[ImageResult]) -> EvalSummary {
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
fn summarize_digits(summary: &mut EvalSummary, results: &[ImageResult]) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: f32, y0: f32, side: f32) -> [Point; 4] {
        [
            Point::new(x0, y0),
            Point::new(x0 + side, y0),
            Point::new(x0 + side, y0 + side),
            Point::new(x0, y0 + side),
        ]
    }

    #[test]
    fn corner_offsets_are_signed_along_the_diagonal() {
        let found = square(100.0, 100.0, 100.0);
        // Truth 2 px further out on both axes at TL, 3 px inside along x at TR.
        let mut truth = found;
        truth[0] = Point::new(98.0, 98.0);
        truth[1] = Point::new(197.0, 100.0);
        let out = corner_offsets_out_pct(found, truth);
        let side = crate::vision::mean_side(truth) as f64;
        assert!(
            (out[0] - 100.0 * 8f64.sqrt() / side).abs() < 1e-4,
            "{out:?}"
        );
        assert!(
            (out[1] + 100.0 * 3.0 / 2f64.sqrt() / side).abs() < 1e-4,
            "{out:?}"
        );
        assert_eq!(out[2], 0.0);
    }

    #[test]
    fn corner_error_is_the_worst_corner_in_percent_of_the_side_and_never_nan() {
        let truth = square(0.0, 0.0, 200.0);
        let mut found = truth;
        found[2] = Point::new(206.0, 208.0);
        assert!((corner_error_pct(found, truth) - 5.0).abs() < 1e-9);
        // Corners far beyond any photo (a corrupt corners.csv row, 1e38) overflow f32
        // distances: the error is huge, not NaN.
        let far = [Point::new(1e38, 1e38); 4];
        assert!(corner_error_pct(truth, far) > 1e6);
        assert!(!corner_error_pct(far, truth).is_nan());
        assert!(corner_error_pct(far, truth) > 1e6);
    }
}
