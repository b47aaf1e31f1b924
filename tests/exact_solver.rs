//! The exact solver on the real puzzle collections in `shared/puzzles`: every 17-clue puzzle is
//! unique and its solution is checked cell by cell; the hard lists and Serg's multi-solution
//! benchmark are compared line by line with the `sudoku` crate (an independent JCZSolve port,
//! dev-dependency only) as oracle.
//!
//! Puzzles are read from `$SUDOKU_LENS_PUZZLES` when set, else from `../shared/puzzles`.

mod common;

use sudoku_lens::sudoku::solver::{count_values, solve_candidates, solve_values};
use sudoku_lens::sudoku::types::House;
use sudoku_lens::sudoku::{collection_puzzles, parse_puzzle};

/// Every puzzle line of a set (comments and blank lines skipped), as text and values.
fn load(name: &str) -> Vec<(String, [u8; 81])> {
    let path = common::shared_puzzle_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let out: Vec<(String, [u8; 81])> = collection_puzzles(&text)
        .map(|(line, p)| {
            let grid = parse_puzzle(p).unwrap_or_else(|e| panic!("{name}:{line}: {e}"));
            (p.to_string(), grid.values())
        })
        .collect();
    assert!(!out.is_empty(), "{name} is empty");
    out
}

/// Every house holds 1..9 once and every given is kept.
fn assert_solution(puzzle: &[u8; 81], sol: &[u8; 81], line: &str) {
    for h in House::all() {
        let mut seen = 0u16;
        for c in h.cells() {
            let v = sol[c.index()];
            assert!((1..=9).contains(&v), "{line}: cell {c} holds {v}");
            seen |= 1 << v;
        }
        assert_eq!(seen, 0x3fe, "{line}: {h} repeats a digit");
    }
    for (i, (&p, &s)) in puzzle.iter().zip(sol).enumerate() {
        assert!(p == 0 || p == s, "{line}: given at {i} changed");
    }
}

/// Unique puzzles: count (limit 2) is exactly 1 and the solution is valid. Returns how many.
fn check_unique_set(name: &str, step: usize) -> usize {
    let puzzles = load(name);
    let mut checked = 0;
    for (line, values) in puzzles.iter().step_by(step) {
        let s = solve_values(values, 2);
        assert_eq!(s.count, 1, "{name}: {line}");
        let Some(sol) = s.first else {
            panic!("{name}: {line}: no solution returned");
        };
        assert_solution(values, &sol, line);
        checked += 1;
    }
    checked
}

/// Counts (limit 2) agree with the `sudoku` crate on every sampled line. Returns the counts
/// histogram `[0 solutions, 1, 2+]`.
fn compare_with_oracle(name: &str, step: usize) -> [usize; 3] {
    let mut hist = [0usize; 3];
    for (line, values) in load(name).iter().step_by(step) {
        let ours = count_values(values, 2);
        let Ok(peer) = sudoku::Sudoku::from_str_line(line) else {
            panic!("{name}: oracle cannot parse {line}");
        };
        assert_eq!(ours, peer.solutions_count_up_to(2), "{name}: {line}");
        hist[ours.min(2)] += 1;
    }
    hist
}

#[test]
fn all_17_clue_puzzles_are_unique_and_solved() {
    let n = check_unique_set("17-clue.txt", 1);
    assert!(n > 49_000, "only {n} puzzles");
}

#[test]
fn hard_lists_are_unique_and_solved() {
    assert_eq!(check_unique_set("top1465.txt", 1), 1465);
    assert_eq!(check_unique_set("forum-hardest-1106.txt", 1), 375);
    assert!(check_unique_set("forum-hardest-1905-11plus.txt", 1) > 48_000);
}

#[test]
fn counts_match_the_sudoku_crate() {
    for name in ["top1465.txt", "forum-hardest-1106.txt"] {
        let hist = compare_with_oracle(name, 1);
        assert_eq!(hist[0] + hist[2], 0, "{name}: {hist:?}");
    }
    let hist = compare_with_oracle("forum-hardest-1905-11plus.txt", 8);
    assert_eq!(hist[0] + hist[2], 0, "{hist:?}");
    let hist = compare_with_oracle("17-clue.txt", 16);
    assert_eq!(hist[0] + hist[2], 0, "{hist:?}");
}

#[test]
fn serg_multi_solution_counts_match_the_oracle() {
    let hist = compare_with_oracle("serg-multi-solution.txt", 1);
    // The set is built of puzzles with several solutions.
    assert!(hist[2] > 9_000, "{hist:?}");
}

#[test]
fn multi_solution_puzzles_report_two_and_a_valid_first() {
    for (line, values) in load("serg-multi-solution.txt").iter().take(500) {
        let s = solve_values(values, 2);
        if s.count == 2 {
            let Some(sol) = s.first else {
                panic!("{line}: no first solution");
            };
            assert_solution(values, &sol, line);
            // The solution entered as givens is a puzzle with exactly that one solution.
            assert_eq!(count_values(&sol, 2), 1, "{line}");
        }
    }
}

#[test]
fn sukaku_masks_from_real_puzzles() {
    // Pencil marks: each empty cell gets its solution digit plus up to two others. The position
    // must keep exactly the original solution among its solutions.
    for (line, values) in load("top1465.txt").iter().step_by(15) {
        let Some(sol) = solve_values(values, 1).first else {
            panic!("{line}: unsolved");
        };
        let mut masks = [0u16; 81];
        for i in 0..81 {
            let right = 1u16 << (sol[i] - 1);
            masks[i] = if values[i] != 0 {
                right
            } else {
                right | 1 << ((sol[i] as usize + i) % 9) | 1 << ((sol[i] as usize * 7 + i) % 9)
            };
        }
        let s = solve_candidates(&masks, 2);
        assert_eq!(s.count, 1, "{line}");
        assert_eq!(s.first, Some(sol), "{line}");
        // Dropping the solution digit from the first empty cell kills the only solution.
        let Some(first_empty) = values.iter().position(|&v| v == 0) else {
            panic!("{line}: no empty cell");
        };
        masks[first_empty] &= !(1 << (sol[first_empty] - 1));
        assert_eq!(solve_candidates(&masks, 2).count, 0, "{line}");
    }
}
