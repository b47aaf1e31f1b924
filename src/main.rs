//! The `sudoku-lens` command line: a thin layer that parses arguments and wires the library
//! together. With no subcommand it starts the desktop app (when built with the `gui` feature).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// Point a camera at a newspaper Sudoku: find the grid, read the digits, solve it step by
/// explained step.
#[derive(Parser, Debug)]
#[command(
    name = "sudoku-lens",
    version,
    about,
    long_about = None,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A photo to open the app on (`sudoku-lens PHOTO` is `sudoku-lens app PHOTO`).
    photo: Option<std::path::PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a puzzle step by step and print the explanation and the grid.
    Solve(cli::solve::SolveArgs),
    /// Print only the next step (or the first step of one technique).
    Hint(cli::solve::HintArgs),
    /// List the techniques (the names `hint --technique` accepts), with `--json` their
    /// glossary entries.
    Techniques(cli::solve::TechniquesArgs),
    /// Rate every puzzle in files (one JSON line each, summary on stderr).
    Rate(cli::rate::RateArgs),
    /// Count the solutions of every puzzle in files with the exact solver (one line each,
    /// summary with puzzles/s on stderr).
    Count(cli::count::CountArgs),
    /// Export labelled, normalized training cells for the digit model (see models/README.md).
    Dataset(cli::dataset::DatasetArgs),
    /// Find the grid in a photo (or, with `--screen`, on the screen) and print its corners and
    /// reading (`--debug DIR` writes stage images).
    Scan(cli::scan::ScanArgs),
    /// Read the Sudoku on the screen and type its solution into the game (clicks and keys;
    /// Esc or moving the mouse stops it).
    #[cfg(feature = "gui")]
    Fill(cli::fill::FillArgs),
    /// Check the handwritten entries of a half-done puzzle against its printed givens (exit 0
    /// all right, 1 some wrong, 2 any other failure).
    Check(cli::check::CheckArgs),
    /// Measure grid detection on a photo data set (images/, labels/, corners.csv).
    Eval(cli::eval::EvalArgs),
    /// Write seeded synthetic data sets: app screenshots or webcam frames of photos.
    Synth(cli::synth::SynthArgs),
    /// Play a folder of camera frames (or of clips) through the live path, scored against
    /// its truth.json when there is one.
    Replay(cli::replay::ReplayArgs),
    /// Write seeded webcam clips of a photo set (frames + truth.json) for the live pipeline.
    Simulate(cli::simulate::SimulateArgs),
    /// Start the desktop app (the default with no subcommand).
    #[cfg(feature = "gui")]
    App(cli::app::AppArgs),
}

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    cli::init_tracing();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let json = cli.command.as_ref().is_some_and(Command::wants_json);
    let result = match cli.command {
        Some(Command::Solve(a)) => cli::solve::run_solve(a),
        Some(Command::Hint(a)) => cli::solve::run_hint(a),
        Some(Command::Techniques(a)) => cli::solve::run_techniques(a),
        Some(Command::Rate(a)) => cli::rate::run(a),
        Some(Command::Count(a)) => cli::count::run(a),
        Some(Command::Dataset(a)) => cli::dataset::run(a),
        Some(Command::Scan(a)) => cli::scan::run(a),
        Some(Command::Check(a)) => cli::check::run(a),
        Some(Command::Eval(a)) => cli::eval::run(a),
        #[cfg(feature = "gui")]
        Some(Command::Fill(a)) => cli::fill::run(a),
        Some(Command::Synth(a)) => cli::synth::run(a),
        Some(Command::Replay(a)) => cli::replay::run(a),
        Some(Command::Simulate(a)) => cli::simulate::run(a),
        #[cfg(feature = "gui")]
        Some(Command::App(a)) => cli::app::run(a),
        None => cli::run_default(cli.photo),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let message = error_chain(&e);
            eprintln!("error: {message}");
            if json {
                // `--json` output stays machine-readable whatever happened.
                println!("{}", serde_json::json!({ "error": message }));
            }
            ExitCode::from(1)
        }
    }
}

impl Command {
    /// Whether the command was asked for JSON output (`--json`).
    fn wants_json(&self) -> bool {
        match self {
            Command::Solve(a) => a.json,
            Command::Hint(a) => a.json,
            Command::Techniques(a) => a.json,
            Command::Scan(a) => a.json,
            Command::Check(a) => a.json,
            Command::Eval(a) => a.json,
            Command::Replay(a) => a.json,
            _ => false,
        }
    }
}

/// `e` and its causes, `: `-separated, leaving out a cause whose text the message already
/// holds (library errors name their cause in their own text, e.g. "cannot read X: <io
/// error>", and also expose it as their source).
fn error_chain(e: &anyhow::Error) -> String {
    let mut out = e.to_string();
    for cause in e.chain().skip(1) {
        let text = cause.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
    }
    out
}

/// Output piped into `head` or a pager that quits closes stdout; `println!` then panics. Stop
/// quietly with the status a Unix tool killed by SIGPIPE reports (128 + 13) instead of
/// printing a panic.
fn quiet_on_closed_stdout() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info
            .payload_as_str()
            .is_some_and(|m| m.contains("failed printing to stdout") && m.contains("Broken pipe"))
        {
            std::process::exit(141);
        }
        default_hook(info);
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every range-checked numeric option parses into its field's type (a range of another
    /// number type compiles but panics in clap when the value is read).
    #[test]
    fn range_checked_numbers_parse_into_their_fields() {
        for args in [
            &["synth", "screens", "--out", "x", "--count", "3"][..],
            &["synth", "print", "--out", "x", "--count", "3"],
            &[
                "synth", "webcam", "--from", "a", "--out", "x", "--copies", "2",
            ],
            &[
                "simulate",
                "--from",
                "a",
                "--out",
                "x",
                "--clips",
                "2",
                "--threads",
                "1",
            ],
            &["replay", "a", "--fps", "30", "--within-ms", "400"],
            &[
                "dataset",
                "--out",
                "x",
                "--synthetic-per-class",
                "3",
                "--jitter-copies",
                "1",
                "--jitter",
                "0.01",
                "--detector-tolerance",
                "0.05",
                "--ink-repeats",
                "2",
                "--handwriting-per-class",
                "2",
                "--handwriting-copies",
                "1",
                "--handwriting-share",
                "0.5",
            ],
            #[cfg(feature = "gui")]
            &["app", "--fps", "10", "--exit-after", "5"],
        ] {
            let cli =
                Cli::try_parse_from(std::iter::once("sudoku-lens").chain(args.iter().copied()));
            let cli = cli.unwrap_or_else(|e| panic!("{args:?}: {e}"));
            // Debug-printing reads every field clap filled in.
            assert!(!format!("{cli:?}").is_empty());
        }
    }
}
