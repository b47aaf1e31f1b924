//! `sudoku-lens scan IMAGE [--debug DIR] [--json]`: finds the grid in a photo and prints its
//! corners; with `--debug`, writes the detection stages as images.
//!
//! Structured as load → detect → report so that digit recognition (the `scan` library
//! pipeline) can slot in after detection without touching the debug output.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use image::{Rgb, RgbImage};
use imageproc::drawing::draw_line_segment_mut;

use sudoku_lens::vision::detect::{DetectOptions, DetectTrace, detect_with};
use sudoku_lens::vision::{self, GridDetection, debug};

/// Side of one rectified cell in the debug grid image, pixels.
const DEBUG_CELL_PX: u32 = 40;

/// Arguments of `scan`.
#[derive(Args, Debug)]
pub struct ScanArgs {
    /// The photo.
    pub image: PathBuf,
    /// Write stage images (threshold, candidates, lattice, rectified grid) into this folder.
    #[arg(long)]
    pub debug: Option<PathBuf>,
    /// Print the detection as JSON.
    #[arg(long)]
    pub json: bool,
    /// Digit model to use instead of the built-in one (ONNX).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Run the digit model on ONNX Runtime loaded from this shared library (needs the
    /// `onnxruntime` feature; default: $SUDOKU_LENS_ORT_LIB, else tract).
    #[arg(long)]
    pub ort_lib: Option<PathBuf>,
}

/// Runs `scan`.
pub fn run(args: ScanArgs) -> anyhow::Result<ExitCode> {
    let image = vision::load_image(&args.image)?;
    let gray = vision::to_gray(&image);
    let mut trace = DetectTrace::default();
    let result = detect_with(&gray, &DetectOptions::default(), Some(&mut trace));
    if let Some(dir) = &args.debug {
        write_debug(dir, &gray, &trace, result.as_ref().ok())
            .with_context(|| format!("writing debug images to {}", dir.display()))?;
    }
    match result {
        Ok(d) => {
            if !args.json {
                print_detection(&d);
            }
            // Digit reading, validation, repair suggestion and solution (library `scan`).
            let classifier = sudoku_lens::digits::Classifier::load(
                args.model.as_deref(),
                sudoku_lens::digits::Backend::choose(args.ort_lib.as_deref()),
            )?;
            let scan = sudoku_lens::scan::Scanner::new(classifier).scan_detection(&gray, d)?;
            if args.json {
                println!("{}", scan.to_json());
            } else {
                print!("{}", scan.to_text());
            }
            Ok(if scan.best_solution().is_some() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(super::EXIT_INVALID)
            })
        }
        Err(e) => {
            eprintln!("{}: no grid found: {e}", args.image.display());
            Ok(ExitCode::from(super::EXIT_INVALID))
        }
    }
}

fn print_detection(d: &GridDetection) {
    let names = ["top-left", "top-right", "bottom-right", "bottom-left"];
    println!("grid found (score {:.2})", d.score);
    for (n, p) in names.iter().zip(d.corners_in_image) {
        println!("  {n:<13} x {:8.1}  y {:8.1}", p.x, p.y);
    }
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
