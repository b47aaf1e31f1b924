//! `sudoku-lens eval DATASET_DIR [--json] [--only LIST] [--exclude LIST]`: grid detection and
//! digit reading on a photo data set in the shared layout (see `sudoku_lens::dataset`), and
//! on photos with a printed-givens mask (`givens/NAME.txt` in the set, or `--givens DIR`)
//! how well printed givens are told from handwriting, measured by `sudoku_lens::eval`; this
//! file parses the arguments and formats the figures.
//!
//! With `--json` every image is one JSON line and the LAST line is the [`EvalSummary`] object.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use sudoku_lens::dataset::NameList;
use sudoku_lens::eval::{CORNER_TOLERANCE_PCT, EvalSummary, ImageResult, evaluate_with_progress};

use super::fixes::LabelFixesArgs;
use super::model::ModelArgs;
use super::progress::{Progress, ProgressArgs};
use sudoku_lens::scan::Scanner;

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
    #[command(flatten)]
    pub fixes: LabelFixesArgs,
    /// Print one JSON object per image and the summary object as the last line.
    #[arg(long)]
    pub json: bool,
    /// Only measure detection (no digit reading).
    #[arg(long)]
    pub detect_only: bool,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Runs `eval`.
pub fn run(args: EvalArgs) -> anyhow::Result<ExitCode> {
    let ds = args.fixes.open(&args.dataset)?;
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
        let classifier = args.model.load()?;
        Some(Scanner::new(classifier))
    };
    let bar = Progress::new(args.progress, Some(ds.photos.len() as u64), "photos");
    let (results, summary) = evaluate_with_progress(&ds, scanner.as_mut(), |i, name| {
        bar.set_position(i as u64);
        bar.set_message(name.to_string());
    })?;
    bar.finish();
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
             cells called right ({} of those read as digits), givens exact {}/{photos} ({})\n",
            pct(s.given_accuracy),
            pct(s.given_accuracy_read),
            s.givens_exact_count.unwrap_or(0),
            pct(s.givens_exact)
        ));
    }
    if let Some(photos) = s.check_photos {
        out.push_str(&format!(
            "check verdict right (the wrong entries named exactly) on {photos} photos: {} with \
             the scan's printed/handwritten calls, {} with the masks' calls\n",
            pct(s.check_right),
            pct(s.check_right_true_kinds)
        ));
    }
    out
}
