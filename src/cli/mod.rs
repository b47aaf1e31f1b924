//! Subcommand implementations. Each file parses its own arguments (clap derive) and calls the
//! library; no logic lives here beyond reading inputs and formatting outputs.
//!
//! Exit codes: 0 ok, 1 invalid or unsolvable input (or any runtime error), 2 usage.

use std::process::ExitCode;

#[cfg(feature = "gui")]
pub mod app;
pub mod check;
pub mod count;
pub mod dataset;
pub mod eval;
#[cfg(feature = "gui")]
pub mod fill;
pub mod fixes;
pub mod input;
pub mod model;
pub mod progress;
pub mod rate;
pub mod replay;
pub mod scan;
#[cfg(feature = "gui")]
pub mod screen;
pub mod simulate;
pub mod solve;
pub mod stats;
pub mod synth;

/// Exit code for invalid or unsolvable input.
pub const EXIT_INVALID: u8 = 1;

/// Reports a failure the command handles itself: `error: MESSAGE` on standard error and, with
/// `--json`, the object `{"error": MESSAGE}` on standard output (JSON output stays JSON
/// whatever happens); returns the exit code to end with.
pub fn fail(json: bool, code: u8, message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    if json {
        println!("{}", serde_json::json!({ "error": message.to_string() }));
    }
    ExitCode::from(code)
}

/// A clap value parser for a number within `range` (inclusive): every numeric option goes
/// through it, so NaN, infinities and values the program cannot use are refused at the
/// command line with the range named, never passed on (`--fps 1e-30` once panicked a thread).
pub fn number_in<T>(
    range: std::ops::RangeInclusive<T>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| match text.trim().parse::<T>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!(
            "`{text}` is not a number from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// Logs to stderr, filtered by `RUST_LOG` (default: warnings).
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("RUST_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// What to do with no subcommand: start the desktop app with defaults, on `photo` if given.
/// A word that is neither a subcommand nor an existing file is a usage error (exit 2), so a
/// mistyped subcommand never opens a window.
#[cfg(feature = "gui")]
pub fn run_default(photo: Option<std::path::PathBuf>) -> anyhow::Result<ExitCode> {
    if let Some(path) = &photo
        && !path.exists()
    {
        eprintln!(
            "error: no such photo: {} (nor is it a subcommand; see `sudoku-lens --help`)",
            path.display()
        );
        return Ok(ExitCode::from(2));
    }
    app::run(app::AppArgs {
        photo,
        ..app::AppArgs::default()
    })
}

/// What to do with no subcommand.
#[cfg(not(feature = "gui"))]
pub fn run_default(_photo: Option<std::path::PathBuf>) -> anyhow::Result<ExitCode> {
    eprintln!("sudoku-lens was built without the `gui` feature; see `sudoku-lens --help`.");
    Ok(ExitCode::from(2))
}

#[cfg(test)]
mod tests {
    use super::number_in;

    #[test]
    fn numbers_outside_their_range_are_refused_with_the_range() {
        let fps = number_in(0.1f32..=240.0);
        assert_eq!(fps("30"), Ok(30.0));
        assert_eq!(fps(" 0.1 "), Ok(0.1));
        for bad in [
            "NaN", "inf", "-inf", "1e-30", "0", "-1", "1e30", "", "abc", "0x10",
        ] {
            let e = fps(bad).unwrap_err();
            assert!(e.contains("0.1") && e.contains("240"), "{bad}: {e}");
        }
        let count = number_in(0usize..=1000);
        assert_eq!(count("1000"), Ok(1000));
        assert!(count("-1").is_err() && count("1001").is_err() && count("1.5").is_err());
        assert!(count("18446744073709551616").is_err());
    }
}
