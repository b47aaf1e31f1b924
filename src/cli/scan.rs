//! `sudoku-lens scan IMAGE [--debug DIR] [--json]`: finds the grid in a photo, reads and
//! solves it through the library's `scan` pipeline and prints the report (text, or one JSON
//! object — also for every failure, then with an `"error"` field); with `--debug`, writes the
//! detection stages as images.
//!
//! Structured as load model → load image → detect → read → report: a bad `--model` is
//! reported whether or not the photo holds a grid.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use image::{Rgb, RgbImage};
use imageproc::drawing::draw_line_segment_mut;

use super::model::ModelArgs;
use sudoku_lens::scan::{MAX_REPAIR_CHANGES, Scan, Scanner};
use sudoku_lens::sudoku::format::{boxed_board, values_line};
use sudoku_lens::vision::detect::{DetectOptions, DetectTrace, detect_with_colour};
use sudoku_lens::vision::{self, GridDetection, debug};

/// Side of one rectified cell in the debug grid image, pixels.
const DEBUG_CELL_PX: u32 = 40;

/// Arguments of `scan`.
#[derive(Args, Debug)]
pub struct ScanArgs {
    /// The photo.
    #[cfg_attr(
        feature = "gui",
        arg(required_unless_present_any = ["screen", "window", "monitor", "region"])
    )]
    #[cfg_attr(not(feature = "gui"), arg(required = true))]
    pub image: Option<PathBuf>,
    /// Capture the screen once instead of reading a photo (with `--window`, `--monitor` or
    /// `--region`: that part of it).
    #[cfg(feature = "gui")]
    #[arg(long, conflicts_with = "image")]
    pub screen: bool,
    /// What part of the screen `--screen` captures.
    #[cfg(feature = "gui")]
    #[command(flatten)]
    pub screen_target: super::screen::ScreenArgs,
    /// Write stage images (threshold, candidates, lattice, rectified grid) into this folder.
    #[arg(long)]
    pub debug: Option<PathBuf>,
    /// Print the detection as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub model: ModelArgs,
}

/// Runs `scan`.
pub fn run(args: ScanArgs) -> anyhow::Result<ExitCode> {
    // A failure is an `Err`: `main` reports it (as `{"error": …}` with `--json`).
    let (report, code) = scan(&args)?;
    print!("{report}");
    Ok(code)
}

/// The picture to scan and how to name it in messages: the photo, or (with `--screen`) one
/// capture of the screen.
fn load_input(args: &ScanArgs) -> anyhow::Result<(image::DynamicImage, String)> {
    #[cfg(feature = "gui")]
    if args.screen || args.screen_target.any() {
        let target = args.screen_target.target();
        let shot = sudoku_lens::screen::capture(&target)?;
        let name = format!(
            "{target} ({}x{} at {},{})",
            shot.image.width(),
            shot.image.height(),
            shot.origin.0,
            shot.origin.1
        );
        return Ok((image::DynamicImage::ImageRgb8(shot.image), name));
    }
    let path = args
        .image
        .as_deref()
        .context("give a photo to scan (or --screen)")?;
    Ok((vision::load_image(path)?, path.display().to_string()))
}

/// The report to print and the exit code, or why the photo could not be scanned.
fn scan(args: &ScanArgs) -> anyhow::Result<(String, ExitCode)> {
    // The model first: a bad `--model` is the user's to know even for a photo without a grid.
    let classifier = args.model.load()?;
    let (image, source) = load_input(args)?;
    let gray = vision::to_gray(&image);
    let mut trace = DetectTrace::default();
    let colour = vision::colour_of(&image);
    let result = detect_with_colour(
        &gray,
        colour.as_deref(),
        &DetectOptions::default(),
        Some(&mut trace),
    );
    if let Some(dir) = &args.debug {
        write_debug(dir, &gray, &trace, result.as_ref().ok())
            .with_context(|| format!("writing debug images to {}", dir.display()))?;
    }
    let detection = result.with_context(|| format!("{source}: no Sudoku grid found"))?;
    let mut report = if args.json {
        String::new()
    } else {
        detection_text(&detection)
    };
    // Digit reading, validation, repair suggestion and solution (library `scan`).
    let mut scan = Scanner::new(classifier).scan_detection(&gray, detection)?;
    scan.tell_writing_in(&image, colour.as_deref());
    if args.json {
        report.push_str(&format!("{}\n", report_json(&scan)));
    } else {
        report.push_str(&report_text(&scan));
    }
    let code = if scan.best_solution().is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::EXIT_INVALID)
    };
    Ok((report, code))
}

/// Where the grid was found: score and the four corners.
fn detection_text(d: &GridDetection) -> String {
    let names = ["top-left", "top-right", "bottom-right", "bottom-left"];
    let mut out = format!("grid found (score {:.2})\n", d.score);
    for (n, p) in names.iter().zip(d.corners_in_image) {
        out.push_str(&format!("  {n:<13} x {:8.1}  y {:8.1}\n", p.x, p.y));
    }
    out
}

/// Writes `1-threshold.png`, `2-lines.png` (the Hough lines of the ink mask, green when the
/// Hough fallback ran, grey when it was not needed), `2-candidates.png` (plus
/// `2-candidate-N.png`, each candidate's refined lattice), `3-lattice.png` and `4-grid.png`.
fn write_debug(
    dir: &Path,
    gray: &image::GrayImage,
    trace: &DetectTrace,
    detection: Option<&GridDetection>,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    trace.ink_mask.save(dir.join("1-threshold.png"))?;
    let mut lines: RgbImage = image::DynamicImage::ImageLuma8(trace.work.clone()).to_rgb8();
    let colour = if trace.hough_ran {
        Rgb([0, 200, 0])
    } else {
        Rgb([150, 150, 150])
    };
    for (a, b) in &trace.hough_lines {
        draw_line_segment_mut(&mut lines, (a.x, a.y), (b.x, b.y), colour);
    }
    lines.save(dir.join("2-lines.png"))?;
    // Candidate outlines (red: rejected, green: accepted) and the unrefined lattice (blue),
    // in working-image pixels.
    let mut cand: RgbImage = image::DynamicImage::ImageLuma8(trace.work.clone()).to_rgb8();
    for (i, (quad, refined, score)) in trace.candidates.iter().enumerate() {
        // Each candidate's refined lattice on its own image: why a candidate failed is
        // usually visible there.
        let mut own: RgbImage = image::DynamicImage::ImageLuma8(trace.work.clone()).to_rgb8();
        debug::draw_lattice_mut(&mut own, refined, Rgb([255, 140, 0]));
        own.save(dir.join(format!("2-candidate-{i}.png")))?;
        let colour = if *score > 0.0 {
            Rgb([0, 200, 0])
        } else {
            Rgb([220, 0, 0])
        };
        for i in 0..4 {
            let (a, b) = (quad[i], quad[(i + 1) % 4]);
            draw_line_segment_mut(&mut cand, (a.x, a.y), (b.x, b.y), colour);
        }
    }
    if let Some(l) = &trace.initial_lattice {
        debug::draw_lattice_mut(&mut cand, l, Rgb([40, 80, 255]));
    }
    cand.save(dir.join("2-candidates.png"))?;
    if let Some(d) = detection {
        debug::draw_lattice(gray, &d.lattice()).save(dir.join("3-lattice.png"))?;
        vision::rectify::warp_grid(gray, &d.lattice(), DEBUG_CELL_PX)
            .save(dir.join("4-grid.png"))?;
    }
    Ok(())
}

/// The JSON report of `scan --json`: `grid` (81 chars, `.` empty), `confidence`
/// (81), `uncertain` (cell names), `solution` (81 chars or null), `unique`, `repair`
/// (null or `{changes, grid, solution}`), `conflicts`, `corners` (TL, TR, BR, BL as the
/// puzzle reads), `rotation_deg` (how far the puzzle appears turned clockwise: 0, 90,
/// 180 or 270), `givens` / `entries` (81 chars: the printed / handwritten digits, `.`
/// elsewhere), `pencil` (81 chars, `p` where a cell holds pencil marks), `kinds_known`
/// (false when print could not be told from handwriting, by the model or the photo's ink:
/// then every digit is in `givens`), and `error` when there is no solution (exit status 1).
fn report_json(scan: &Scan) -> serde_json::Value {
    let repair = scan.repair.as_ref().map(|r| {
        serde_json::json!({
            "changes": r.changes.iter().map(|c| serde_json::json!({
                "cell": c.cell.to_string(), "from": c.from, "to": c.to,
                "probability": c.probability,
            })).collect::<Vec<_>>(),
            "grid": values_line(&r.values, '.'),
            "solution": values_line(&r.solution, '.'),
        })
    });
    let written = scan.written();
    let mut json = serde_json::json!({
        "grid": values_line(&scan.values, '.'),
        "givens": values_line(&written.givens, '.'),
        "entries": values_line(&written.entries, '.'),
        "pencil": super::check::pencil_line(&written.pencil),
        "kinds_known": written.kinds_known,
        "confidence": scan.readings.iter().map(|r| r.confidence).collect::<Vec<_>>(),
        "uncertain": scan.uncertain_cells().iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "entries_by_solution":
            scan.entries_by_solution.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "decided_by_puzzle":
            scan.decided_by_puzzle.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "solution": scan.best_solution().map(|s| values_line(&s, '.')),
        "unique": scan.is_unique(),
        "repair": repair,
        "conflicts": scan.conflicts.iter().map(|c| serde_json::json!({
            "digit": c.digit.get(), "cells": [c.first.to_string(), c.second.to_string()],
        })).collect::<Vec<_>>(),
        "corners": scan.detection.corners_in_image.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
        "rotation_deg": scan.rotation_deg(),
    });
    // Exit status 1 (no solution to print): a `--json` failure always carries `error`.
    if scan.best_solution().is_none() {
        let error = if scan.conflicts.is_empty() {
            "the read grid has no solution".to_string()
        } else {
            format!(
                "the read grid breaks the rules ({} duplicates) and no repair was found",
                scan.conflicts.len()
            )
        };
        json["error"] = serde_json::Value::String(error);
    }
    json
}

/// A cell's value as the text report writes it: the digit, or `.` for empty.
fn value_char(value: u8) -> char {
    char::from_digit(u32::from(value), 10)
        .filter(|_| value != 0)
        .unwrap_or('.')
}

/// The human-readable report of `scan`: the read grid (uncertain cells marked `?`),
/// conflicts, the repair suggestion if any, and the solution.
fn report_text(scan: &Scan) -> String {
    let mut out = String::new();
    if scan.quarter_turns != 0 {
        out.push_str(&format!(
            "the puzzle is turned {}° clockwise in the photo; read upright:\n",
            scan.rotation_deg()
        ));
    }
    let written = scan.written();
    if written.kinds_known {
        out.push_str(
            "read grid (`?` before a cell marks an uncertain reading, `+` a handwritten entry, \
             `.` empty):\n",
        );
    } else {
        out.push_str(
            "read grid (`?` before a cell marks an uncertain reading, `.` empty; handwritten \
             entries could not be told from printed givens):\n",
        );
    }
    out.push_str(&boxed_board(&scan.values, |c| {
        let i = c.index();
        if scan.readings[i].is_uncertain() {
            Some('?')
        } else {
            (written.entries[i] != 0).then_some('+')
        }
    }));
    let pencil = written.pencil.iter().filter(|&&p| p).count();
    if pencil > 0 {
        out.push_str(&format!(
            "{pencil} cell(s) hold pencil marks (read as empty)\n"
        ));
    }
    if !scan.decided_by_puzzle.is_empty() {
        let cells: Vec<String> = scan
            .decided_by_puzzle
            .iter()
            .map(|c| format!("{} {}", c, value_char(scan.values[c.index()])))
            .collect();
        out.push_str(&format!(
            "read as the puzzle needs them (the reading was unclear, and a puzzle has one \
             solution): {}\n",
            cells.join(" ")
        ));
    }
    if !scan.entries_by_solution.is_empty() {
        let cells: Vec<String> = scan
            .entries_by_solution
            .iter()
            .map(|c| c.to_string())
            .collect();
        out.push_str(&format!(
            "read as the puzzle's solution has them (the reading was unclear): {}\n",
            cells.join(" ")
        ));
    }
    for c in &scan.conflicts {
        out.push_str(&format!(
            "conflict: {} appears in both {} and {}\n",
            c.digit, c.first, c.second
        ));
    }
    match (&scan.solution, &scan.repair) {
        (Some(_), _) => out.push_str("the read grid has exactly one solution\n"),
        (None, Some(r)) => {
            let why = if scan.conflicts.is_empty() {
                if scan.solution_count == 0 {
                    "has no solution"
                } else {
                    "has several solutions"
                }
            } else {
                "has conflicts"
            };
            out.push_str(&format!(
                "the read grid {why}; suggested repair (not applied to the read grid):\n"
            ));
            for c in &r.changes {
                let show = |v: u8| {
                    if v == 0 {
                        "empty".to_string()
                    } else {
                        v.to_string()
                    }
                };
                out.push_str(&format!(
                    "  {}: {} -> {} (p = {:.3})\n",
                    c.cell,
                    show(c.from),
                    show(c.to),
                    c.probability
                ));
            }
        }
        (None, None) => {
            let why = match (scan.conflicts.is_empty(), scan.solution_count) {
                (false, _) => "has conflicts",
                (true, 0) => "has no solution",
                _ => "has several solutions",
            };
            out.push_str(&format!(
                "the read grid {why} and no repair of up to {MAX_REPAIR_CHANGES} cells was found\n"
            ));
        }
    }
    if let Some(s) = scan.best_solution() {
        out.push_str(if scan.solution.is_some() {
            "solution:\n"
        } else {
            "solution of the repaired grid:\n"
        });
        out.push_str(&boxed_board(&s, |_| None));
    }
    out
}
