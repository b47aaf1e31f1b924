//! "Never wrong": the step solver, run on seeded random samples of every puzzle file in
//! ../shared/puzzles and ../shared/puzzles/se-rated, never removes the true digit and never
//! places a wrong one; every path ends in the solution.
//!
//! Sample sizes scale with `NEVER_WRONG_SCALE` (default 1, sized for CI; e.g. 20 for a long
//! soak run, in release: `NEVER_WRONG_SCALE=20 cargo test --release --test never_wrong`).

mod common;

use std::path::{Path, PathBuf};

use sudoku_lens::sudoku::explain::contradicts;
use sudoku_lens::sudoku::{
    Explained, Grid, Technique, collection_puzzles, parse_puzzle, solve_explained,
};
// The seeded generator of the synthetic data: samples are the same on every run.
use sudoku_lens::synthetic::Rng;

/// Puzzle strings of a file (either layout), skipping comments.
fn read_puzzles(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    collection_puzzles(&text)
        .map(|(_, p)| p.to_string())
        .collect()
}

fn scale() -> usize {
    std::env::var("NEVER_WRONG_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// Runs the step solver on `n` seeded samples of `path`, checking every step.
fn check_file(path: &Path, n: usize, seed: u64) -> (usize, usize) {
    let puzzles = read_puzzles(path);
    assert!(!puzzles.is_empty(), "no puzzles in {}", path.display());
    let mut rng = Rng::new(seed);
    let n = n.min(puzzles.len());
    let mut no_guess = 0;
    for _ in 0..n {
        let p = &puzzles[rng.below(puzzles.len())];
        if check_puzzle(path, p).guesses == 0 {
            no_guess += 1;
        }
    }
    (n, no_guess)
}

/// Solves puzzle `p` (from `path`) step by step, checking every step; returns the solve.
fn check_puzzle(path: &Path, p: &str) -> Explained {
    let grid = parse_puzzle(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let e = solve_explained(&grid).unwrap_or_else(|e| panic!("{p}: {e}"));
    assert!(
        e.rejected.is_empty(),
        "{}: {p}: technique(s) contradicted the solution: {:?}",
        path.display(),
        e.rejected.iter().map(|s| s.text()).collect::<Vec<_>>()
    );
    let mut g: Grid = grid.clone();
    for s in &e.steps {
        assert!(!contradicts(s, &e.solution), "{p}: wrong step {}", s.text());
        assert!(
            s.makes_progress(&g),
            "{p}: step without progress {}",
            s.text()
        );
        // Every uniqueness technique (UR 1-6, hidden/avoidable rectangles, BUG+1/+n).
        if s.technique.needs_unique() {
            assert!(
                e.unique,
                "{p}: uniqueness technique on a multi-solution puzzle"
            );
        }
        s.apply(&mut g);
    }
    assert!(g.is_solved(), "{p}: path did not end solved");
    assert_eq!(g.values(), e.solution, "{p}: path ended elsewhere");
    e
}

#[test]
fn top1465_needs_no_guess_with_forcing_nets_plus() {
    // The three top1465 puzzles (lines 4, 5 and 79) that the forcing nets of singles left to a
    // guess: the nets plus (locked candidates, pairs and X-Wings inside the net) solve them.
    let path = common::shared_puzzle_path("top1465.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let lines: Vec<&str> = text.lines().collect();
    for n in [4, 5, 79] {
        let p = lines
            .get(n - 1)
            .unwrap_or_else(|| panic!("{} has no line {n}", path.display()));
        let e = check_puzzle(&path, p);
        assert_eq!(e.guesses, 0, "line {n}: {p}");
        assert!(
            e.steps.iter().any(|s| matches!(
                s.technique,
                Technique::ForcingNetPlusContradiction | Technique::ForcingNetPlusVerity
            )),
            "line {n}: no forcing net plus step"
        );
    }
}

#[test]
fn main_puzzle_files() {
    let k = scale();
    let dir = common::shared_puzzles();
    for (i, (name, n)) in [
        ("17-clue.txt", 150),
        ("top1465.txt", 40),
        // Hard puzzles reach forcing nets (seconds each in the dev profile): top1465 and the
        // hardest files are sampled lightly here, more with NEVER_WRONG_SCALE.
        ("forum-hardest-1106.txt", 4),
        ("forum-hardest-1905-11plus.txt", 4),
        ("serg-multi-solution.txt", 150),
    ]
    .into_iter()
    .enumerate()
    {
        let (done, clean) = check_file(&dir.join(name), n * k, 0x5eed + i as u64);
        eprintln!("{name}: {done} checked, {clean} without a guess");
    }
}

#[test]
fn se_rated_files() {
    let k = scale();
    let dir = common::shared_puzzle_path("se-rated");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(files.len() > 40, "expected the se-rated files");
    for (i, f) in files.iter().enumerate() {
        // Files are named by their SE rating; above 7 the solves reach chains and forcing
        // nets, so fewer samples keep the suite's time bounded (NEVER_WRONG_SCALE for more).
        let rating: f32 = f
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse().ok())
            .unwrap_or(0.0);
        let n = if rating < 7.0 {
            12
        } else if rating < 8.5 {
            2
        } else {
            1
        };
        check_file(f, n * k, 0xabc + i as u64);
    }
}

/// The finders used only for rating (Sukaku Explainer's unique loops, two-digit-cell wings and
/// grouped strong-linked fish)
/// never remove a solution digit: run at every position along the solves of seeded samples of
/// the SE 4.6–6.4 files, where they stand in most often; each must fire somewhere.
#[test]
fn rating_only_finders_are_sound_on_bank_positions() {
    use sudoku_lens::sudoku::techniques;
    let dir = common::shared_puzzle_path("se-rated");
    let (mut loops, mut wings, mut fish) = (0, 0, 0);
    for (i, name) in ["4.6", "4.7", "5.5", "5.6", "5.7", "6.3", "6.4"]
        .iter()
        .enumerate()
    {
        let puzzles = read_puzzles(&dir.join(format!("{name}.txt")));
        let mut rng = Rng::new(0x5ca1 + i as u64);
        for _ in 0..6 * scale() {
            let p = &puzzles[rng.below(puzzles.len())];
            let e = check_puzzle(&dir, p);
            let mut grid = e.puzzle.clone();
            for step in &e.steps {
                for (found, count) in [
                    (techniques::unique_loop(&grid), &mut loops),
                    (techniques::bivalue_wing(&grid), &mut wings),
                    (techniques::grouped_x_chain(&grid), &mut fish),
                ] {
                    if let Some(s) = found {
                        *count += 1;
                        assert!(
                            !contradicts(&s, &e.solution),
                            "{name}: {p}: {} contradicts the solution",
                            s.text()
                        );
                    }
                }
                step.apply(&mut grid);
            }
        }
    }
    assert!(loops > 0, "no unique loop found");
    assert!(wings > 0, "no wing found");
    assert!(fish > 0, "no grouped chain found");
}

mod invariants {
    //! Property tests: puzzles derived from real ones by removing givens (often making several
    //! solutions) or revealing solution digits; no step may ever contradict the solution, and
    //! with several solutions no uniqueness technique may fire.

    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed};
    use sudoku_lens::sudoku::solver::solve_up_to;

    fn top() -> Vec<String> {
        read_puzzles(&common::shared_puzzle_path("top1465.txt"))
    }

    proptest! {
        #![proptest_config(Config {
            cases: 48,
            rng_seed: RngSeed::Fixed(20_261_121),
            failure_persistence: None,
            ..Config::default()
        })]

        #[test]
        fn derived_puzzles_are_never_contradicted(
            index in 0usize..1465,
            drop_mask in any::<u128>(),
            reveal_mask in any::<u128>(),
            reveal in any::<bool>(),
        ) {
            let puzzles = top();
            let p = &puzzles[index % puzzles.len()];
            let base = parse_puzzle(p).unwrap();
            let sol = solve_up_to(&base, 1).first.unwrap();
            let mut values = base.values();
            for (i, v) in values.iter_mut().enumerate() {
                if reveal {
                    // Reveal about a quarter of the empty cells.
                    if *v == 0 && (reveal_mask >> i) & 3 == 0 {
                        *v = sol[i];
                    }
                } else if *v != 0 && (drop_mask >> i) & 3 == 0 {
                    // Drop about a quarter of the givens.
                    *v = 0;
                }
            }
            let grid = Grid::from_values(&values);
            let e = solve_explained(&grid).unwrap();
            prop_assert!(e.rejected.is_empty(), "rejected: {:?}",
                e.rejected.iter().map(|s| s.text()).collect::<Vec<_>>());
            let mut g = grid.clone();
            for s in &e.steps {
                prop_assert!(!contradicts(s, &e.solution), "wrong step {}", s.text());
                prop_assert!(e.unique || !s.technique.needs_unique(),
                    "uniqueness technique on a multi-solution puzzle: {}", s.text());
                s.apply(&mut g);
            }
            prop_assert!(g.is_solved());
        }
    }
}
