//! `sudoku-lens eval DATASET_DIR [--json] [--only LIST] [--exclude LIST]`: measures grid
//! detection and digit reading on a photo data set in the shared layout (see
//! `sudoku_lens::dataset`): grid found, corner error against `corners.csv` (largest corner
//! distance in % of the true grid's mean side; only over photos with a corners row, so a set
//! without corners is measured for its cells alone), milliseconds per image, cell and board
//! accuracy, the misread cells of each photo and a confidence reliability table; on photos
//! with a printed-givens mask (`givens/NAME.txt` in the set, or `--givens DIR`, see
//! `dataset::givens_file`) also how well printed givens are told from handwriting.
//!
//! With `--json` every image is one JSON line and the LAST line is the [`EvalSummary`] object.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::Args;
use serde::Serialize;

use sudoku_lens::dataset::{Dataset, NameList, corner_error_pct};
use sudoku_lens::digits::reliability::{BIN_LOWER_EDGES, CellOutcome, ReliabilityBin, reliability};
use sudoku_lens::digits::writing::{GivensScore, missed_givens, score_givens};
use sudoku_lens::scan::{ReadScore, Scanner, score_scan};
use sudoku_lens::sudoku::Cell;
use sudoku_lens::sudoku::parse::parse_labels;
use sudoku_lens::vision::{self, Point, mean_side};

/// Corner error (in % of the grid side) under which a detection counts as right.
pub const CORNER_TOLERANCE_PCT: f64 = 3.0;

/// Arguments of `eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// Data set folder (images/, labels/, optional corners.csv).
    pub dataset: PathBuf,
    /// Only these photos: a file with one photo name a line (extension optional, `#`
    /// comments).
    #[arg(long, value_name = "LIST")]
    pub only: Option<PathBuf>,
    /// Leave out these photos (same file format as `--only`), e.g. a held-back split.
    #[arg(long, value_name = "LIST")]
    pub exclude: Option<PathBuf>,
    /// Printed-givens masks from this folder instead of the set's own `givens/`: `NAME.txt`,
    /// else `PREFIX.txt` for a photo named `PREFIX_…` (the longest such prefix), 9 rows of
    /// 0/1 with 1 where the cell holds a printed digit.
    #[arg(long, value_name = "DIR")]
    pub givens: Option<PathBuf>,
    /// Print one JSON object per image and the summary object as the last line.
    #[arg(long)]
    pub json: bool,
    /// Only measure detection (no digit reading).
    #[arg(long)]
    pub detect_only: bool,
    /// Digit model to use instead of the built-in one (ONNX).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Run the digit model on ONNX Runtime loaded from this shared library (needs the
    /// `onnxruntime` feature; default: $SUDOKU_LENS_ORT_LIB, else tract).
    #[arg(long)]
    pub ort_lib: Option<PathBuf>,
}

/// Digit reading of one labelled photo (a photo whose grid was not found counts every cell
/// as wrong).
#[derive(Clone, Debug, Default, Serialize)]
pub struct DigitResult {
    /// The per-cell and per-board score (the same figures `scan::score_scan` computes).
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
    /// Printed/handwritten calls against the photo's givens mask (when it has one and the
    /// model tells them apart).
    #[serde(skip)]
    pub givens: Option<GivensScore>,
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

/// Reads the digits of one photo and scores them against its label file (and its givens
/// mask, when it has one and the model tells print from handwriting).
fn read_digits(
    scanner: &mut Scanner,
    gray: &image::GrayImage,
    detection: Option<&vision::GridDetection>,
    label_path: &std::path::Path,
    mask: Option<[bool; 81]>,
    detect_ms: f64,
) -> Option<DigitResult> {
    let labels = parse_labels(&std::fs::read_to_string(label_path).ok()?).ok()?;
    let digits = labels.iter().filter(|v| (1..=9).contains(*v)).count();
    let mask = mask.filter(|_| scanner.classifier_mut().has_kind_output());
    let missed = DigitResult {
        score: ReadScore {
            cells: 81,
            digits,
            empties: 81 - digits,
            ..ReadScore::default()
        },
        givens: mask.map(|_| missed_givens(&labels)),
        ..DigitResult::default()
    };
    let Some(d) = detection else {
        return Some(missed);
    };
    let start = Instant::now();
    let Ok(scan) = scanner.scan_detection(gray, d.clone()) else {
        return Some(missed);
    };
    let pipeline_ms = detect_ms + start.elapsed().as_secs_f64() * 1000.0;
    let truth = labels.map(|v| if (1..=9).contains(&v) { v } else { 0 });
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
    Some(DigitResult {
        score: score_scan(&scan, &labels),
        pipeline_ms,
        rotation_deg: Some(scan.rotation_deg()),
        wrong: Some(wrong),
        outcomes,
        givens: mask.map(|m| score_givens(&scan.readings, &labels, &m)),
    })
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
        summary.givens_exact = Some(ratio(exact, givens.len()));
        summary.givens_exact_count = Some(exact);
    }
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
    pub corners_in_image: Option<[vision::Point; 4]>,
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

/// The summary object (last JSON line). Later stages (digit reading) add `Option` fields,
/// skipped when `None`, so older consumers keep working.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EvalSummary {
    /// Photos in the set.
    pub images: usize,
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
    /// Photos with a givens mask scored for printed vs handwritten (absent without masks or
    /// without the model's handwriting output).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub givens_photos: Option<usize>,
    /// Digit cells of those photos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given_cells: Option<usize>,
    /// Share of those digit cells whose printed/handwritten call is right (missed grids
    /// count as wrong).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given_accuracy: Option<f64>,
    /// Share of those photos whose printed givens are all read and called printed, and
    /// nothing else is called a printed digit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub givens_exact: Option<f64>,
    /// Number of such photos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub givens_exact_count: Option<usize>,
}

/// For each corner, how far `truth` lies outside `found` along the line from the found
/// corners' centre through that corner, in % of `truth`'s mean side (negative: inside).
pub fn corner_offsets_out_pct(found: [Point; 4], truth: [Point; 4]) -> [f64; 4] {
    let side = mean_side(truth).max(1.0) as f64;
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

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let idx = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

/// Evaluates detection on every photo of `ds`, returning per-image results and the summary.
pub fn evaluate(
    ds: &Dataset,
    mut scanner: Option<&mut Scanner>,
) -> (Vec<ImageResult>, EvalSummary) {
    let mut results = Vec::with_capacity(ds.photos.len());
    for photo in &ds.photos {
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
        let detection = vision::detect_gray(&gray);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        // Masks were checked when the set was opened (`run`).
        let mask = ds.givens(photo).ok().flatten();
        let digits = match (scanner.as_deref_mut(), &photo.label_path) {
            (Some(s), Some(lp)) => read_digits(s, &gray, detection.as_ref().ok(), lp, mask, ms),
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
    summarize_digits(&mut summary, &results);
    (results, summary)
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
        .collect();
    out.sort_by(f64::total_cmp);
    EvalSummary {
        images: results.len(),
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

/// Runs `eval`.
pub fn run(args: EvalArgs) -> anyhow::Result<ExitCode> {
    let ds = Dataset::open(&args.dataset)
        .with_context(|| format!("reading data set {}", args.dataset.display()))?;
    let only = args.only.as_deref().map(NameList::read).transpose()?;
    let exclude = args.exclude.as_deref().map(NameList::read).transpose()?;
    let mut ds = ds.select(only.as_ref(), exclude.as_ref())?;
    if let Some(dir) = &args.givens {
        ds = ds.with_givens_dir(dir)?;
    }
    // A malformed mask is an error naming its file and line, before anything is read.
    for photo in &ds.photos {
        ds.givens(photo)?;
    }
    let mut scanner = if args.detect_only {
        None
    } else {
        let classifier = sudoku_lens::digits::Classifier::load(
            args.model.as_deref(),
            sudoku_lens::digits::Backend::choose(args.ort_lib.as_deref()),
        )?;
        Some(Scanner::new(classifier))
    };
    let (results, summary) = evaluate(&ds, scanner.as_mut());
    if args.json {
        for r in &results {
            println!("{}", serde_json::to_string(r)?);
        }
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        for r in &results {
            println!("{}", image_line(r));
        }
        print!("{}", summary_text(&summary));
    }
    Ok(ExitCode::SUCCESS)
}

/// One photo in text mode: time, corner error or why no grid, turn, misread cells.
fn image_line(r: &ImageResult) -> String {
    let mut line = format!("{:<32} {:>7.1} ms  ", r.name, r.ms);
    line.push_str(&match (r.grid_found, r.corner_err_pct) {
        (true, Some(e)) => format!("corner error {e:5.2} %"),
        (true, None) => "no ground-truth corners".to_string(),
        (false, _) => format!("NO GRID: {}", r.error.as_deref().unwrap_or("")),
    });
    if let Some(deg) = r
        .digits
        .as_ref()
        .and_then(|d| d.rotation_deg)
        .filter(|&d| d != 0)
    {
        line.push_str(&format!(", turned {deg}°"));
    }
    if let Some(wrong) = &r.wrong {
        let show = |v: u8| {
            if v == 0 {
                ".".to_string()
            } else {
                v.to_string()
            }
        };
        if wrong.is_empty() {
            line.push_str(", all cells right");
        } else {
            let cells: Vec<String> = wrong
                .iter()
                .map(|w| format!("{} {} (is {})", w.cell, show(w.read), show(w.truth)))
                .collect();
            line.push_str(&format!(", misread {}", cells.join(", ")));
        }
    }
    if let Some(kind_wrong) = r.kind_wrong.as_ref().filter(|k| !k.is_empty()) {
        line.push_str(&format!(
            ", printed/handwritten wrong at {}",
            kind_wrong.join(" ")
        ));
    }
    line
}

/// The summary in text mode: detection, then (when digits were read) accuracy and the
/// reliability table.
fn summary_text(s: &EvalSummary) -> String {
    let pct = |v: Option<f64>| v.map_or("n/a".to_string(), |v| format!("{:.2} %", 100.0 * v));
    let plain = |v: Option<f64>| v.map_or("n/a".to_string(), |v| format!("{v:.2} %"));
    let mut out = format!(
        "{} images, {} grids found; of {} with corners: {} within {CORNER_TOLERANCE_PCT} %, \
         corner error mean {} max {}, true corners {} outside ours (median); \
         {:.1} ms median, {:.1} ms p95\n",
        s.images,
        s.grids_found,
        s.images_with_corners,
        pct(s.within_3pct),
        plain(s.corner_err_mean_pct),
        plain(s.corner_err_max_pct),
        plain(s.corner_out_median_pct),
        s.ms_median,
        s.ms_p95
    );
    let (Some(cells), Some(acc)) = (s.cells, s.cell_accuracy) else {
        return out;
    };
    out.push_str(&format!(
        "{cells} cells: cell accuracy {}, digits {}, empties {}, boards exact {}/{} ({}), \
         boards solved correctly {}, {} read turned, pipeline {:.1} ms median\n",
        pct(Some(acc)),
        pct(s.digit_accuracy),
        pct(s.empty_accuracy),
        s.boards_exact_count.unwrap_or(0),
        cells / 81,
        pct(s.boards_exact),
        pct(s.boards_solved_correct),
        s.boards_turned.unwrap_or(0),
        s.pipeline_ms_median.unwrap_or(0.0)
    ));
    if let Some(bins) = &s.reliability {
        out.push_str("confidence        cells   right  accuracy\n");
        for b in bins {
            let close = if b.hi >= 1.0 { ']' } else { ')' };
            out.push_str(&format!(
                "[{:<5}, {:<5}{close} {:>7} {:>7}  {}\n",
                b.lo,
                b.hi,
                b.cells,
                b.correct,
                b.accuracy
                    .map_or("-".to_string(), |a| format!("{:.2} %", 100.0 * a))
            ));
        }
        out.push_str(&format!(
            "flagged uncertain (confidence < {}): {} of right readings, {} of misreads\n",
            sudoku_lens::digits::UNCERTAIN_BELOW,
            pct(s.flagged_correct_share.flatten()),
            pct(s.flagged_wrong_share.flatten())
        ));
    }
    if let (Some(photos), Some(cells)) = (s.givens_photos, s.given_cells) {
        out.push_str(&format!(
            "printed vs handwritten on {photos} photos with givens masks: {} of {cells} digit \
             cells called right, givens exact {}/{photos} ({})\n",
            pct(s.given_accuracy),
            s.givens_exact_count.unwrap_or(0),
            pct(s.givens_exact)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_offsets_are_signed_along_the_diagonal() {
        let found = [
            Point::new(100.0, 100.0),
            Point::new(200.0, 100.0),
            Point::new(200.0, 200.0),
            Point::new(100.0, 200.0),
        ];
        // Truth 2 px further out on both axes at TL, 3 px inside along x at TR.
        let mut truth = found;
        truth[0] = Point::new(98.0, 98.0);
        truth[1] = Point::new(197.0, 100.0);
        let out = corner_offsets_out_pct(found, truth);
        let side = mean_side(truth) as f64;
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
}
