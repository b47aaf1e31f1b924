//! `sudoku-lens app`: starts the desktop app, optionally on a photo, on an image sequence played
//! as a camera, or in screenshot mode (run until the pipeline settles, save the window, exit).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;

use sudoku_lens::app::{self, AppOptions, RunStats};
use sudoku_lens::session::SEQUENCE_FPS_RANGE;

/// Longest `--exit-after`, seconds (about 115 days: far from overflowing a deadline).
const MAX_EXIT_AFTER_S: f32 = 1e7;

/// Arguments of `app`.
#[derive(Args, Debug, Default)]
pub struct AppArgs {
    /// A photo to open at start.
    pub photo: Option<PathBuf>,
    /// Play an image file or a folder of frames as the camera.
    #[arg(long, value_name = "PATH")]
    pub source: Option<PathBuf>,
    /// Frame rate of `--source` (0.1 to 240).
    #[arg(long, value_name = "FPS", value_parser = super::number_in(SEQUENCE_FPS_RANGE))]
    pub fps: Option<f32>,
    /// Save a screenshot of the window once the pipeline settles, then exit.
    #[arg(long, value_name = "OUT.png")]
    pub screenshot: Option<PathBuf>,
    /// Exit after this many seconds (0 to 10,000,000) and print the measured rates.
    #[arg(long, value_name = "SECS", value_parser = super::number_in(0.0..=MAX_EXIT_AFTER_S))]
    pub exit_after: Option<f32>,
    /// Do not start the camera when no photo or source is given.
    #[arg(long)]
    pub no_camera: bool,
    /// Ignore (and do not overwrite) the saved settings and puzzle.
    #[arg(long)]
    pub fresh: bool,
}

/// Runs the app; prints the measured rates after screenshot or timed runs.
pub fn run(args: AppArgs) -> anyhow::Result<ExitCode> {
    if let Some(p) = &args.photo {
        anyhow::ensure!(p.exists(), "no such photo: {}", p.display());
    }
    if let Some(p) = &args.source {
        anyhow::ensure!(p.exists(), "no such source: {}", p.display());
    }
    let stats = Arc::new(Mutex::new(RunStats::default()));
    let measuring = args.screenshot.is_some() || args.exit_after.is_some();
    let options = AppOptions {
        photo: args.photo,
        source: args.source,
        start_camera: !args.no_camera,
        screenshot: args.screenshot.clone(),
        exit_after: args
            .exit_after
            .map(|s| Duration::try_from_secs_f32(s.clamp(0.0, MAX_EXIT_AFTER_S)))
            .transpose()
            .context("--exit-after")?,
        fresh: args.fresh || args.screenshot.is_some(),
        sequence_fps: args.fps,
        stats: Some(Arc::clone(&stats)),
        ..AppOptions::default()
    };
    app::run(options)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("running the app")?;
    if measuring {
        let s = *stats.lock().unwrap_or_else(|e| e.into_inner());
        println!(
            "repaint {:.1} fps, camera frames shown {:.1} fps, scans {:.1} fps; totals: {} repaints, {} frames captured, {} shown, {} analysed; slowest UI frame {:.1} ms",
            s.repaint_fps,
            s.camera_fps,
            s.scan_fps,
            s.repaints,
            s.frames_captured,
            s.frames_shown,
            s.frames_analysed,
            s.worst_ui_frame_ms
        );
    }
    if let Some(path) = &args.screenshot {
        anyhow::ensure!(
            path.is_file(),
            "no screenshot was written to {}",
            path.display()
        );
        eprintln!("screenshot saved to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
