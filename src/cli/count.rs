//! `count FILE... [--limit N] [--json]`: the exact solver over puzzle files, one line per
//! puzzle with the number of solutions found (up to the limit), and on stderr a summary with
//! the solver's speed in puzzles per second of one thread's CPU time — the figure
//! `benches/solver.rs` measures, so the solver can be compared with others from the command line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::Args;
use serde::Serialize;

use sudoku_lens::sudoku::parse::plain_values;
use sudoku_lens::sudoku::solver::{count_values, solve_up_to};
use sudoku_lens::sudoku::{Grid, parse_puzzle};

use sudoku_lens::timing::thread_cpu_time;

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

/// Puzzles read ahead and solved as one timed batch: enough that reading the CPU clock costs
/// nothing next to solving, few enough that memory stays constant (a few hundred KB).
const CHUNK: usize = 4096;

/// A puzzle waiting in the chunk.
enum Pending {
    /// The common 81-character line, read by the fast path.
    Values([u8; 81]),
    /// Any other accepted form (pencil marks, a library line, a laid-out board): rare, so
    /// boxed to keep the chunk's items small.
    Position(Box<Grid>),
}

/// One line read, waiting to be solved and printed.
struct Item {
    file: String,
    line: usize,
    puzzle: String,
    pending: Pending,
}

/// Running totals of a `count` run.
#[derive(Default)]
struct Totals {
    solving: Duration,
    puzzles: u64,
    /// Puzzles by solutions found: none, one, several below the limit, the limit.
    none: u64,
    one: u64,
    several: u64,
    at_limit: u64,
}

/// Solves the chunk (timed on the thread's CPU clock, solving only), prints a line per
/// puzzle and empties it.
fn flush_chunk(
    chunk: &mut Vec<Item>,
    limit: usize,
    json: bool,
    totals: &mut Totals,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let mut counts = Vec::with_capacity(chunk.len());
    let t = thread_cpu_time();
    for item in chunk.iter() {
        counts.push(match &item.pending {
            Pending::Values(values) => count_values(values, limit),
            Pending::Position(grid) => solve_up_to(grid, limit).count,
        });
    }
    totals.solving += thread_cpu_time().saturating_sub(t);
    for (item, &solutions) in chunk.iter().zip(&counts) {
        totals.puzzles += 1;
        match solutions {
            0 => totals.none += 1,
            n if n >= limit => totals.at_limit += 1,
            1 => totals.one += 1,
            _ => totals.several += 1,
        }
        if json {
            let rec = CountLine {
                file: &item.file,
                line: item.line,
                puzzle: &item.puzzle,
                solutions,
            };
            serde_json::to_writer(&mut *out, &rec).context("writing JSON")?;
            writeln!(out).context("writing output")?;
        } else {
            writeln!(out, "{solutions} {}", item.puzzle).context("writing output")?;
        }
    }
    chunk.clear();
    Ok(())
}

/// `count FILE... [--limit N] [--json]`.
pub fn run(args: CountArgs) -> anyhow::Result<ExitCode> {
    let limit = usize::try_from(args.limit).unwrap_or(usize::MAX);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let wall = Instant::now();
    let mut totals = Totals::default();
    let mut bad = 0u64;
    let mut chunk: Vec<Item> = Vec::with_capacity(CHUNK);
    let report = for_each_entry(&args.files, |file, line_no, entry| {
        let pending = match plain_values(entry.puzzle) {
            Some(values) => Pending::Values(values),
            None => match parse_puzzle(entry.puzzle) {
                Ok(grid) => Pending::Position(Box::new(grid)),
                Err(e) => {
                    eprintln!("{file}:{line_no}: invalid puzzle: {e}");
                    bad += 1;
                    return Ok(());
                }
            },
        };
        chunk.push(Item {
            file: file.to_string(),
            line: line_no,
            puzzle: entry.puzzle.to_string(),
            pending,
        });
        if chunk.len() >= CHUNK {
            flush_chunk(&mut chunk, limit, args.json, &mut totals, &mut out)?;
        }
        Ok(())
    })?;
    flush_chunk(&mut chunk, limit, args.json, &mut totals, &mut out)?;
    out.flush().context("writing output")?;
    let wall = wall.elapsed();
    let Totals {
        solving,
        puzzles,
        none,
        one,
        several,
        at_limit,
    } = totals;
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
            "exact solver: {:.0} puzzles/s on one thread ({:.3} s of CPU time solving); {:.0} puzzles/s in wall time with reading, parsing and printing",
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
