//! Subcommand implementations. Each file parses its own arguments (clap derive) and calls the
//! library; no logic lives here beyond reading inputs and formatting outputs.
//!
//! Exit codes: 0 ok, 1 invalid or unsolvable input (or any runtime error), 2 usage.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context as _;

#[cfg(feature = "gui")]
pub mod app;
pub mod dataset;
pub mod eval;
pub mod rate;
pub mod replay;
pub mod scan;
pub mod solve;
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

/// Reads a puzzle argument: `-` for stdin, an existing file path, or the puzzle text itself.
/// Returns the text and a label for messages.
pub fn read_puzzle_arg(arg: &str) -> anyhow::Result<(String, String)> {
    if arg == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading the puzzle from standard input")?;
        return Ok((s, "standard input".into()));
    }
    let path = std::path::Path::new(arg);
    if path.is_file() {
        let s = std::fs::read_to_string(path)
            .with_context(|| format!("reading puzzle file {}", path.display()))?;
        return Ok((s, path.display().to_string()));
    }
    Ok((arg.to_string(), "the puzzle argument".into()))
}
