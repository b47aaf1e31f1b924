//! Subcommand implementations. Each file parses its own arguments (clap derive) and calls the
//! library; no logic lives here beyond reading inputs and formatting outputs.
//!
//! Exit codes: 0 ok, 1 invalid or unsolvable input (or any runtime error), 2 usage.

use std::process::ExitCode;

#[cfg(feature = "gui")]
pub mod app;
pub mod count;
pub mod dataset;
pub mod eval;
pub mod input;
pub mod rate;
pub mod replay;
pub mod scan;
pub mod simulate;
pub mod solve;
pub mod stats;
pub mod synth;

/// Exit code for invalid or unsolvable input.
pub const EXIT_INVALID: u8 = 1;

/// Logs to stderr, filtered by `RUST_LOG` (default: warnings).
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("RUST_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// What to do with no subcommand: start the desktop app with defaults.
#[cfg(feature = "gui")]
pub fn run_default() -> anyhow::Result<ExitCode> {
    app::run(app::AppArgs::default())
}

/// What to do with no subcommand.
#[cfg(not(feature = "gui"))]
pub fn run_default() -> anyhow::Result<ExitCode> {
    eprintln!("sudoku-lens was built without the `gui` feature; see `sudoku-lens --help`.");
    Ok(ExitCode::from(2))
}
