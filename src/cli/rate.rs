//! `rate FILE...`: explained solve of every puzzle line, one JSON line each, summary on stderr.
//! Files are streamed line by line (`-` is standard input) and the summary is kept in constant
//! memory, so a file of any size can be rated.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::Args;
use serde::Serialize;

use sudoku_lens::sudoku::{RankCorrelation, parse_puzzle, solve_explained};

use super::input::for_each_entry;
use super::progress::{Progress, ProgressArgs};
use super::stats::Histogram;

/// Arguments of `rate`.
#[derive(Args, Debug)]
pub struct RateArgs {
    /// Puzzle files (`-` for standard input): one puzzle per line (81 chars, 729 pencil marks or
    /// a HoDoKu library line), or the `id puzzle rating` layout; `#` comment lines and blank
    /// lines are skipped.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

#[derive(Serialize)]
struct RateLine<'a> {
    file: &'a str,
    line: usize,
    puzzle: &'a str,
    solved: bool,
    unique: bool,
    guesses: usize,
    steps: usize,
    hardest: &'static str,
    rating: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    se_rating: Option<f32>,
    micros: u64,
}

/// Reference ratings outside this range are not ratings (and would make the correlation's
/// table of distinct values grow without bound): they are left out of it.
const REFERENCE_RANGE: std::ops::RangeInclusive<f32> = 0.0..=100.0;

/// A rating rounded to a hundredth, the resolution of the correlation table.
fn hundredths(r: f32) -> f64 {
    (f64::from(r) * 100.0).round() / 100.0
}

/// `rate FILE...`.
pub fn run(args: RateArgs) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut micros = Histogram::default();
    let mut no_guess = 0usize;
    let mut bad = 0usize;
    let mut by_hardest: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut correlation = RankCorrelation::default();
    // Files are streamed, so the count of puzzles is not known beforehand: a counter.
    let bar = Progress::new(args.progress, None, "puzzles");
    let report = for_each_entry(&args.files, |file, line_no, entry| {
        bar.inc();
        let grid = match parse_puzzle(entry.puzzle) {
            Ok(g) => g,
            Err(e) => {
                bar.println(format!("{file}:{line_no}: invalid puzzle: {e}"));
                bad += 1;
                return Ok(());
            }
        };
        let start = Instant::now();
        let result = solve_explained(&grid);
        let us = start.elapsed().as_micros() as u64;
        let e = match result {
            Ok(e) => e,
            Err(err) => {
                bar.println(format!("{file}:{line_no}: {err}"));
                bad += 1;
                return Ok(());
            }
        };
        micros.add(us);
        if e.guesses == 0 {
            no_guess += 1;
        }
        let hardest = e.rating.hardest.map_or("none", |t| t.name());
        *by_hardest.entry(hardest).or_default() += 1;
        if let Some(se) = entry.rating.filter(|r| REFERENCE_RANGE.contains(r)) {
            correlation.add(hundredths(e.rating.score), hundredths(se));
        }
        let rec = RateLine {
            file,
            line: line_no,
            puzzle: entry.puzzle,
            solved: true,
            unique: e.unique,
            guesses: e.guesses,
            steps: e.steps.len(),
            hardest,
            rating: e.rating.score,
            se_rating: entry.rating,
            micros: us,
        };
        serde_json::to_writer(&mut out, &rec).context("writing JSON")?;
        writeln!(out).context("writing output")
    })?;
    bar.finish();
    out.flush().context("writing output")?;
    let n = micros.len();
    eprintln!("puzzles: {n} ({bad} bad lines)");
    if report.failed() {
        eprintln!("input problems: {}", report.describe());
    }
    if n > 0 {
        eprintln!(
            "solved without a guess: {no_guess} ({:.2} %)",
            100.0 * no_guess as f64 / n as f64
        );
        eprintln!(
            "median {} µs, p99 {} µs",
            micros.quantile(0.5),
            micros.quantile(0.99)
        );
    }
    eprintln!("hardest technique counts:");
    let mut counts: Vec<_> = by_hardest.into_iter().collect();
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    for (name, count) in counts {
        eprintln!("  {count:>7}  {name}");
    }
    if let Some(rho) = correlation.spearman() {
        eprintln!(
            "rank correlation with the reference rating (Spearman, {} puzzles): {rho:.3}",
            correlation.len()
        );
    }
    Ok(if bad > 0 || report.failed() {
        ExitCode::from(super::EXIT_INVALID)
    } else {
        ExitCode::SUCCESS
    })
}
