//! `rate FILE...`: explained solve of every puzzle line, one JSON line each, summary on stderr.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::Args;
use serde::Serialize;

use sudoku_lens::sudoku::rating::spearman;
use sudoku_lens::sudoku::{parse_puzzle, solve_explained};

/// Arguments of `rate`.
#[derive(Args, Debug)]
pub struct RateArgs {
    /// Puzzle files: one puzzle per line (81 chars), or the `id puzzle rating` layout;
    /// `#` comment lines and blank lines are skipped.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
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

/// Splits a line into the puzzle and an optional reference rating (`id puzzle rating`).
fn split_line(line: &str) -> (&str, Option<f32>) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.len() >= 2
        && let Some(pos) = tokens.iter().position(|t| t.len() == 81)
    {
        let se = tokens.get(pos + 1).and_then(|t| t.parse::<f32>().ok());
        return (tokens[pos], se);
    }
    (line.trim(), None)
}

/// `rate FILE...`.
pub fn run(args: RateArgs) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut micros: Vec<u64> = Vec::new();
    let mut no_guess = 0usize;
    let mut bad = 0usize;
    let mut by_hardest: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut ours: Vec<f64> = Vec::new();
    let mut theirs: Vec<f64> = Vec::new();
    for path in &args.files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let file = path.display().to_string();
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (puzzle, se) = split_line(trimmed);
            let grid = match parse_puzzle(puzzle) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("{file}:{line_no}: invalid puzzle: {e}");
                    bad += 1;
                    continue;
                }
            };
            let start = Instant::now();
            let result = solve_explained(&grid);
            let us = start.elapsed().as_micros() as u64;
            let e = match result {
                Ok(e) => e,
                Err(err) => {
                    eprintln!("{file}:{line_no}: {err}");
                    bad += 1;
                    continue;
                }
            };
            micros.push(us);
            if e.guesses == 0 {
                no_guess += 1;
            }
            let hardest = e.rating.hardest.map_or("none", |t| t.name());
            *by_hardest.entry(hardest).or_default() += 1;
            if let Some(se) = se {
                ours.push(f64::from(e.rating.score));
                theirs.push(f64::from(se));
            }
            let rec = RateLine {
                file: &file,
                line: line_no,
                puzzle,
                solved: true,
                unique: e.unique,
                guesses: e.guesses,
                steps: e.steps.len(),
                hardest,
                rating: e.rating.score,
                se_rating: se,
                micros: us,
            };
            serde_json::to_writer(&mut out, &rec).context("writing JSON")?;
            writeln!(out).context("writing output")?;
        }
    }
    out.flush().context("writing output")?;
    let n = micros.len();
    micros.sort_unstable();
    let pct = |q: f64| -> u64 {
        if n == 0 {
            0
        } else {
            micros[((n as f64 - 1.0) * q).round() as usize]
        }
    };
    eprintln!("puzzles: {n} ({bad} bad lines)");
    if n > 0 {
        eprintln!(
            "solved without a guess: {no_guess} ({:.2} %)",
            100.0 * no_guess as f64 / n as f64
        );
    }
    eprintln!("median {} µs, p99 {} µs", pct(0.5), pct(0.99));
    eprintln!("hardest technique counts:");
    let mut counts: Vec<_> = by_hardest.into_iter().collect();
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    for (name, count) in counts {
        eprintln!("  {count:>7}  {name}");
    }
    if let Some(rho) = spearman(&ours, &theirs) {
        eprintln!(
            "rank correlation with the reference rating (Spearman, {} puzzles): {rho:.3}",
            ours.len()
        );
    }
    Ok(if bad > 0 {
        ExitCode::from(super::EXIT_INVALID)
    } else {
        ExitCode::SUCCESS
    })
}
