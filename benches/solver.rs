//! Exact-solver and explained-solver benchmarks on the real puzzle sets in `shared/puzzles`.
//!
//! Group per puzzle set, two functions each: `sudoku-lens` (our bitboard solver) and
//! `sudoku-crate-0.8` (the `sudoku` crate's JCZSolve port, a dev-dependency used only here and
//! in tests), both counting up to 2 solutions over the same puzzles parsed beforehand. After
//! criterion a plain table prints puzzles/s of both and the ratio, measured in the same run
//! (best of several interleaved passes, in the thread's CPU time), and the median milliseconds per puzzle of
//! `solve_explained`.
//!
//! Puzzles are read from `$SUDOKU_LENS_PUZZLES` when set, else from `../shared/puzzles`
//! relative to the crate.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, Throughput};
use sudoku_lens::sudoku::solver::count_values;
use sudoku_lens::sudoku::{Grid, collection_puzzles, parse_puzzle, solve_explained};
use sudoku_lens::timing::thread_cpu_time;

/// The sets timed, with how many puzzles (from the top of the file) are used.
const SETS: [(&str, usize); 5] = [
    ("17-clue.txt", 2000),
    ("top1465.txt", usize::MAX),
    ("forum-hardest-1905-11plus.txt", 2000),
    ("forum-hardest-1106.txt", usize::MAX),
    ("serg-multi-solution.txt", 2000),
];

#[path = "../tests/common/data.rs"]
mod data;

/// The values of one puzzle text; `None` when it does not parse.
fn parse_values(text: &str) -> Option<[u8; 81]> {
    parse_puzzle(text).ok().map(|g| g.values())
}

/// Puzzle lines of a set file (comments skipped), at most `limit`.
fn load_lines(name: &str, limit: usize) -> Vec<String> {
    let path = data::shared_puzzle_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    collection_puzzles(&text)
        .filter(|(_, p)| parse_values(p).is_some())
        .take(limit)
        .map(|(_, p)| p.to_string())
        .collect()
}

struct Set {
    name: &'static str,
    ours: Vec<[u8; 81]>,
    peer: Vec<sudoku::Sudoku>,
}

fn load_sets() -> Vec<Set> {
    SETS.iter()
        .map(|&(name, limit)| {
            let lines = load_lines(name, limit);
            let ours = lines.iter().filter_map(|l| parse_values(l)).collect();
            let peer = lines
                .iter()
                .map(|l| sudoku::Sudoku::from_str_line(l).expect("peer parses the line"))
                .collect();
            Set { name, ours, peer }
        })
        .collect()
}

fn run_ours(puzzles: &[[u8; 81]]) -> usize {
    puzzles.iter().map(|p| count_values(black_box(p), 2)).sum()
}

fn run_peer(puzzles: &[sudoku::Sudoku]) -> usize {
    puzzles
        .iter()
        .map(|&p| black_box(p).solutions_count_up_to(2))
        .sum()
}

fn bench_exact(c: &mut Criterion, sets: &[Set]) {
    for set in sets {
        // Both solvers must agree before being compared.
        assert_eq!(run_ours(&set.ours), run_peer(&set.peer), "{}", set.name);
        let mut group = c.benchmark_group(set.name.trim_end_matches(".txt"));
        group.throughput(Throughput::Elements(set.ours.len() as u64));
        // One iteration solves the whole set (up to a third of a second): flat sampling.
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(4));
        group.bench_function("sudoku-lens", |b| b.iter(|| run_ours(&set.ours)));
        group.bench_function("sudoku-crate-0.8", |b| b.iter(|| run_peer(&set.peer)));
        group.finish();
    }
}

/// Best-of-`passes` puzzles/s for both solvers in the thread's CPU time (other processes on a
/// shared machine don't count), passes interleaved so both see the same cache and clock.
fn table_row(set: &Set, passes: usize) -> (f64, f64) {
    let n = set.ours.len() as f64;
    let mut best_ours = f64::MAX;
    let mut best_peer = f64::MAX;
    for _ in 0..passes {
        let t = thread_cpu_time();
        black_box(run_ours(&set.ours));
        best_ours = best_ours.min((thread_cpu_time() - t).as_secs_f64());
        let t = thread_cpu_time();
        black_box(run_peer(&set.peer));
        best_peer = best_peer.min((thread_cpu_time() - t).as_secs_f64());
    }
    (n / best_ours, n / best_peer)
}

/// Puzzles for the explained benchmark: a sample of top1465 and of every SE-rated file.
fn explained_samples() -> Vec<(String, Vec<Grid>)> {
    let to_grid = |l: &str| parse_puzzle(l).ok();
    let mut out = Vec::new();
    let top: Vec<Grid> = load_lines("top1465.txt", 40)
        .iter()
        .filter_map(|l| to_grid(l))
        .collect();
    out.push(("top1465".to_string(), top));
    let se_dir = data::shared_puzzle_path("se-rated");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&se_dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    let mut se = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // Lines are `id puzzle rating`; two per rating keeps the run short.
        se.extend(
            collection_puzzles(&text)
                .filter_map(|(_, p)| to_grid(p))
                .take(2),
        );
    }
    out.push(("se-rated".to_string(), se));
    out
}

fn bench_explained(c: &mut Criterion, samples: &[(String, Vec<Grid>)]) {
    let mut group = c.benchmark_group("explained");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(5));
    for (name, grids) in samples {
        if grids.is_empty() {
            continue;
        }
        // One puzzle per iteration, cycling through the sample.
        let mut i = 0;
        group.bench_function(name.as_str(), |b| {
            b.iter(|| {
                let g = &grids[i % grids.len()];
                i += 1;
                black_box(solve_explained(black_box(g)).is_ok())
            })
        });
    }
    group.finish();
}

/// Median milliseconds per puzzle of one pass over the sample (at most ~10 s per sample), and
/// how many puzzles were timed and solved.
fn explained_median(grids: &[Grid]) -> (f64, usize, usize) {
    let start = Instant::now();
    let mut times = Vec::new();
    let mut solved = 0;
    for g in grids {
        let t = Instant::now();
        let ok = solve_explained(g).is_ok();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        solved += usize::from(ok);
        if start.elapsed() > Duration::from_secs(10) {
            break;
        }
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
    (median, times.len(), solved)
}

fn main() {
    let sets = load_sets();
    let samples = explained_samples();
    let mut c = Criterion::default().configure_from_args();
    bench_exact(&mut c, &sets);
    bench_explained(&mut c, &samples);
    c.final_summary();

    println!();
    println!(
        "Exact solver, count up to 2 solutions, puzzles per CPU second of one thread (best of 5 interleaved passes):"
    );
    println!(
        "{:<32} {:>8} {:>16} {:>18} {:>8}",
        "set", "puzzles", "sudoku-lens /s", "sudoku-crate /s", "ratio"
    );
    for set in &sets {
        let (ours, peer) = table_row(set, 5);
        println!(
            "{:<32} {:>8} {:>16.0} {:>18.0} {:>7.2}x",
            set.name,
            set.ours.len(),
            ours,
            peer,
            ours / peer
        );
    }
    println!();
    println!("Explained solver (solve_explained), one pass:");
    println!(
        "{:<12} {:>8} {:>8} {:>12}",
        "sample", "timed", "solved", "median ms"
    );
    for (name, grids) in &samples {
        let (median, timed, solved) = explained_median(grids);
        println!("{name:<12} {timed:>8} {solved:>8} {median:>12.3}");
    }
}
