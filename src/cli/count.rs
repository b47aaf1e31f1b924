//! `count FILE... [--limit N] [--json]`: the exact solver over puzzle files, one line per
//! puzzle with the number of solutions found (up to the limit), and on stderr a summary with
//! the solver's speed in puzzles per second on one thread — the figure `benches/solver.rs`
//! measures, so the solver can be compared with others from the command line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::Args;
use serde::Serialize;

use sudoku_lens::sudoku::parse::plain_values;
use sudoku_lens::sudoku::parse_puzzle;
use sudoku_lens::sudoku::solver::{count_values, solve_up_to};

use super::input::for_each_entry;

/// Arguments of `count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    /// Puzzle files (`-` for standard input), one puzzle a line as for `rate`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Stop counting a puzzle's solutions at this many (2 tells unique from several).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub limit: u64,
    /// One JSON object per puzzle instead of `SOLUTIONS PUZZLE` lines.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct CountLine<'a> {
    file: &'a str,
    line: usize,
    puzzle: &'a str,
    solutions: usize,
}

/// `count FILE... [--limit N] [--json]`.
pub fn run(args: CountArgs) -> anyhow::Result<ExitCode> {
    let limit = usize::try_from(args.limit).unwrap_or(usize::MAX);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let wall = Instant::now();
    let mut solving = Duration::ZERO;
    let mut puzzles = 0u64;
    let mut bad = 0u64;
    // Puzzles by solutions found: none, one, several below the limit, the limit.
    let (mut none, mut one, mut several, mut at_limit) = (0u64, 0u64, 0u64, 0u64);
    let report = for_each_entry(&args.files, |file, line_no, entry| {
        let solutions = if let Some(values) = plain_values(entry.puzzle) {
            let t = Instant::now();
            let n = count_values(&values, limit);
            solving += t.elapsed();
            n
        } else {
            match parse_puzzle(entry.puzzle) {
                Ok(grid) => {
                    let t = Instant::now();
                    let n = solve_up_to(&grid, limit).count;
                    solving += t.elapsed();
                    n
                }
                Err(e) => {
                    eprintln!("{file}:{line_no}: invalid puzzle: {e}");
                    bad += 1;
                    return Ok(());
                }
            }
        };
        puzzles += 1;
        match solutions {
            0 => none += 1,
            n if n >= limit => at_limit += 1,
            1 => one += 1,
            _ => several += 1,
        }
        if args.json {
            let rec = CountLine {
                file,
                line: line_no,
                puzzle: entry.puzzle,
                solutions,
            };
            serde_json::to_writer(&mut out, &rec).context("writing JSON")?;
            writeln!(out).context("writing output")
        } else {
            writeln!(out, "{solutions} {}", entry.puzzle).context("writing output")
        }
    })?;
    out.flush().context("writing output")?;
    let wall = wall.elapsed();
    eprintln!("puzzles: {puzzles} ({bad} bad lines)");
    if report.failed() {
        eprintln!("input problems: {}", report.describe());
    }
    let limit_label = if limit == 1 {
        "1 or more".to_string()
    } else {
        format!("{limit} (the limit)")
    };
    eprintln!(
        "solutions: none {none}, one {one}, {}{limit_label} {at_limit}",
        if limit > 2 {
            format!("2 to {} {several}, ", limit - 1)
        } else {
            String::new()
        }
    );
    if puzzles > 0 {
        let per_s = |d: Duration| puzzles as f64 / d.as_secs_f64().max(1e-9);
        eprintln!(
            "exact solver: {:.0} puzzles/s on one thread ({:.3} s solving); {:.0} puzzles/s with reading, parsing and printing",
            per_s(solving),
            solving.as_secs_f64(),
            per_s(wall)
        );
    }
    Ok(if bad > 0 || report.failed() {
        ExitCode::from(super::EXIT_INVALID)
    } else {
        ExitCode::SUCCESS
    })
}
