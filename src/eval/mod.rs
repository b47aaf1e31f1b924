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
//! print anything (the CLI formats the figures). The per-photo measurements are here; the
//! set's summary and how it is aggregated are in `summary`.

use std::time::Instant;

use serde::Serialize;

use crate::dataset::{Dataset, DatasetError};
use crate::digits::reliability::CellOutcome;
use crate::digits::writing::{
    GivensScore, missed_givens, score_givens, split_by_mask, true_verdict, verdict_of,
};
use crate::scan::{Scan, Scanner};
use crate::sudoku::Cell;
use crate::sudoku::solver::solve_values;
use crate::vision::{self, Point};

mod summary;

pub use summary::EvalSummary;
use summary::{summarize, summarize_digits};

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
