//! `sudoku-lens eval DATASET_DIR [--json]`: measures grid detection on a photo data set in the
//! shared layout (see `sudoku_lens::dataset`): grid found, corner error against `corners.csv`
//! (largest corner distance in % of the true grid's mean side) and milliseconds per image.
//!
//! With `--json` every image is one JSON line and the LAST line is the [`EvalSummary`] object.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::Args;
use serde::Serialize;

use sudoku_lens::dataset::Dataset;
use sudoku_lens::vision::{self, Point, mean_side};

/// Corner error (in % of the grid side) under which a detection counts as right.
pub const CORNER_TOLERANCE_PCT: f64 = 3.0;

/// Arguments of `eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// Data set folder (images/, labels/, corners.csv).
    pub dataset: PathBuf,
    /// Print one JSON object per image and the summary object as the last line.
    #[arg(long)]
    pub json: bool,
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
    /// Detection time (grayscale conversion included, decoding excluded), milliseconds.
    pub ms: f64,
    /// Why the image failed (load error or no-grid reason).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The summary object (last JSON line). Later stages (digit reading) add `Option` fields,
/// skipped when `None`, so older consumers keep working.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EvalSummary {
    /// Photos in the set.
    pub images: usize,
    /// Photos where a grid was detected.
    pub grids_found: usize,
    /// Photos that have a ground-truth corners row.
    pub images_with_corners: usize,
    /// Mean corner error over detected photos with ground truth, % of grid side.
    pub corner_err_mean_pct: f64,
    /// Largest corner error over detected photos with ground truth, % of grid side.
    pub corner_err_max_pct: f64,
    /// Share (0–1) of photos with ground truth whose four corners are all within
    /// [`CORNER_TOLERANCE_PCT`] (a missed grid counts as a failure).
    pub within_3pct: f64,
    /// Median detection time, ms.
    pub ms_median: f64,
    /// 95th-percentile detection time, ms.
    pub ms_p95: f64,
}

/// Largest distance between corresponding corners, in % of `truth`'s mean side.
pub fn corner_error_pct(found: [Point; 4], truth: [Point; 4]) -> f64 {
    let side = mean_side(truth).max(1.0) as f64;
    let worst = found
        .iter()
        .zip(truth.iter())
        .map(|(a, b)| a.distance(*b) as f64)
        .fold(0.0, f64::max);
    100.0 * worst / side
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let idx = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

/// Evaluates detection on every photo of `ds`, returning per-image results and the summary.
pub fn evaluate(ds: &Dataset) -> (Vec<ImageResult>, EvalSummary) {
    let mut results = Vec::with_capacity(ds.photos.len());
    for photo in &ds.photos {
        let image = match vision::load_image(&photo.image_path) {
            Ok(img) => img,
            Err(e) => {
                results.push(ImageResult {
                    name: photo.name.clone(),
                    grid_found: false,
                    corner_err_pct: None,
                    ms: 0.0,
                    error: Some(e.to_string()),
                });
                continue;
            }
        };
        let start = Instant::now();
        let detection = vision::detect(&image);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
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
        results.push(ImageResult {
            name: photo.name.clone(),
            grid_found,
            corner_err_pct,
            ms,
            error,
        });
    }
    let summary = summarize(ds, &results);
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
    EvalSummary {
        images: results.len(),
        grids_found: results.iter().filter(|r| r.grid_found).count(),
        images_with_corners: with_truth,
        corner_err_mean_pct: if errs.is_empty() {
            0.0
        } else {
            errs.iter().sum::<f64>() / errs.len() as f64
        },
        corner_err_max_pct: errs.iter().copied().fold(0.0, f64::max),
        within_3pct: if with_truth == 0 {
            0.0
        } else {
            within as f64 / with_truth as f64
        },
        ms_median: percentile(&ms, 0.5),
        ms_p95: percentile(&ms, 0.95),
    }
}

/// Runs `eval`.
pub fn run(args: EvalArgs) -> anyhow::Result<ExitCode> {
    let ds = Dataset::open(&args.dataset)
        .with_context(|| format!("reading data set {}", args.dataset.display()))?;
    let (results, summary) = evaluate(&ds);
    if args.json {
        for r in &results {
            println!("{}", serde_json::to_string(r)?);
        }
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        for r in &results {
            let err = match (r.grid_found, r.corner_err_pct) {
                (true, Some(e)) => format!("corner error {e:5.2} %"),
                (true, None) => "no ground-truth corners".to_string(),
                (false, _) => format!("NO GRID: {}", r.error.as_deref().unwrap_or("")),
            };
            println!("{:<32} {:>7.1} ms  {err}", r.name, r.ms);
        }
        println!(
            "{} images, {} grids found, {:.1} % within {CORNER_TOLERANCE_PCT} % \
             (of {} with corners), corner error mean {:.2} % max {:.2} %, \
             {:.1} ms median, {:.1} ms p95",
            summary.images,
            summary.grids_found,
            100.0 * summary.within_3pct,
            summary.images_with_corners,
            summary.corner_err_mean_pct,
            summary.corner_err_max_pct,
            summary.ms_median,
            summary.ms_p95
        );
    }
    Ok(ExitCode::SUCCESS)
}
