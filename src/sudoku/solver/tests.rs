//! Unit tests of the exact solver (a child module of `solver`, kept apart to hold that file
//! near ~600 lines): hand-built grids, both compiled flavours of the search against each other,
//! and a property test against the `sudoku` crate (an independent JCZSolve port) as oracle.

use super::*;
use crate::sudoku::parse::parse_puzzle;
use crate::sudoku::types::{Candidates, House};

const SEVENTEEN: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn assert_valid_solution(puzzle: &[u8; 81], sol: &[u8; 81]) {
    for h in House::all() {
        let mut seen = 0u16;
        for c in h.cells() {
            let v = sol[c.index()];
            assert!((1..=9).contains(&v));
            seen |= 1 << v;
        }
        assert_eq!(seen, 0x3fe, "house {h} repeats a digit");
    }
    for i in 0..81 {
        if puzzle[i] != 0 {
            assert_eq!(puzzle[i], sol[i], "given changed at {i}");
        }
    }
}

#[test]
fn solves_17_clue() {
    let g = parse_puzzle(SEVENTEEN).unwrap();
    let s = solve_up_to(&g, 2);
    assert_eq!(s.count, 1);
    let sol = s.first.unwrap();
    assert_valid_solution(&g.values(), &sol);
    assert!(Grid::from_values(&sol).is_solved());
    assert_eq!(count_line(SEVENTEEN, 2), Some(1));
    assert_eq!(count_values(&g.values(), 2), 1);
}

#[test]
fn empty_grid_has_many() {
    assert_eq!(count_solutions(&Grid::empty(), 5), 5);
    let s = solve_values(&[0; 81], 1);
    assert_eq!(s.count, 1);
    assert_valid_solution(&[0; 81], &s.first.unwrap());
}

#[test]
fn contradiction_has_none() {
    let mut v = [0u8; 81];
    v[0] = 1;
    v[10] = 1; // same box
    assert_eq!(solve_values(&v, 2).count, 0);
    let mut v = [0u8; 81];
    v[0] = 1;
    v[72] = 1; // same column, other band
    assert_eq!(
        solve_values(&v, 2),
        Solutions {
            count: 0,
            first: None
        }
    );
}

#[test]
fn hidden_contradiction_has_none() {
    // r1c1..r1c8 hold 1..8 and column 9 already has a 9: r1c9 has no candidate.
    let mut v = [0u8; 81];
    for (i, d) in (1..=8).enumerate() {
        v[i] = d;
    }
    v[80] = 9;
    assert_eq!(count_values(&v, 2), 0);
}

#[test]
fn limit_zero_is_one() {
    assert_eq!(count_values(&[0; 81], 0), 1);
}

#[test]
fn sukaku_masks_are_honoured() {
    let g = parse_puzzle(SEVENTEEN).unwrap();
    let sol = solve(&g).unwrap();
    // Every empty cell gets its solution digit plus one wrong digit: still unique, same answer.
    let mut masks = [0u16; 81];
    for i in 0..81 {
        let right = 1u16 << (sol[i] - 1);
        masks[i] = if g.values()[i] != 0 {
            right
        } else {
            right | 1 << (sol[i] % 9)
        };
    }
    let s = solve_candidates(&masks, 2);
    assert_eq!(s.count, 1);
    assert_eq!(s.first, Some(sol));
    // Removing the right digit from one cell leaves no solution.
    masks[1] &= !(1 << (sol[1] - 1));
    assert_eq!(solve_candidates(&masks, 2).count, 0);
    // The same through a Grid with pencil marks.
    let mut grid = Grid::empty();
    for c in Cell::all() {
        grid.set_candidates(c, Candidates::from_bits(masks[c.index()]));
    }
    assert_eq!(count_solutions(&grid, 2), 0);
}

#[test]
fn sukaku_all_candidates_counts_many() {
    let masks = [0x1ffu16; 81];
    assert_eq!(solve_candidates(&masks, 3).count, 3);
    let mut masks = masks;
    masks[40] = 0;
    assert_eq!(solve_candidates(&masks, 3).count, 0);
}

#[test]
fn bad_lines_rejected() {
    assert_eq!(count_line("123", 2), None);
    assert_eq!(count_line(&"x".repeat(81), 2), None);
}

/// Runs the search over `values` with the plain build (`plain`) or the one `search` picks for
/// this CPU, counting up to `limit`.
fn run_flavour(values: &[u8; 81], limit: usize, plain: bool) -> Solutions {
    let mut ctx = Ctx {
        count: 0,
        limit,
        first: None,
        want_first: true,
    };
    if let Some(mut board) = Board::from_values(values) {
        if plain {
            board.search_plain(&mut ctx);
        } else {
            board.search(&mut ctx);
        }
    }
    Solutions {
        count: ctx.count,
        first: ctx.first,
    }
}

/// Puzzle lines of a shared set (panics with the path when it is missing).
fn shared_values(name: &str) -> Vec<[u8; 81]> {
    let path = crate::test_data::shared_puzzle_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("this test needs {}: {e}", path.display()));
    let out: Vec<[u8; 81]> = crate::sudoku::collection_puzzles(&text)
        .map(|(_, p)| parse_puzzle(p).unwrap().values())
        .collect();
    assert!(out.len() > 100, "{name}: only {} puzzles", out.len());
    out
}

#[test]
fn plain_and_fast_searches_agree_on_hard_puzzles() {
    // Both compiled flavours walk the same tree: same count, same first solution. (On a CPU
    // without the fast features both runs take the plain one; CI's x86-64 machines have them.)
    let hard = shared_values("forum-hardest-1106.txt");
    let multi = shared_values("serg-multi-solution.txt");
    for values in hard.iter().step_by(5).chain(multi.iter().step_by(40)) {
        let plain = run_flavour(values, 2, true);
        let fast = run_flavour(values, 2, false);
        assert_eq!(plain, fast);
        assert!(plain.count >= 1);
        assert_valid_solution(values, &plain.first.unwrap());
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// Grids cut from real solutions (some cells kept, a few overwritten with any digit, so
    /// unique, multi-solution and contradictory grids all occur) count the same as with the
    /// `sudoku` crate, in both flavours, and the first solution found is a valid one.
    #[test]
    fn counts_match_the_sudoku_crate(
        pick in 0usize..400,
        keep in proptest::collection::vec(proptest::bool::weighted(0.3), 81),
        noise in proptest::collection::vec((0usize..81, 1u8..=9), 0..3),
    ) {
        static SEVENTEEN: std::sync::OnceLock<Vec<[u8; 81]>> = std::sync::OnceLock::new();
        let seventeen = SEVENTEEN.get_or_init(|| shared_values("17-clue.txt"));
        let puzzle = seventeen[pick % seventeen.len()];
        let solution = solve_values(&puzzle, 1).first.unwrap();
        let mut values = [0u8; 81];
        for i in 0..81 {
            if puzzle[i] != 0 || keep[i] {
                values[i] = solution[i];
            }
        }
        for &(i, d) in &noise {
            values[i] = d;
        }
        let oracle = sudoku::Sudoku::from_bytes(values).unwrap().solutions_count_up_to(3);
        let fast = run_flavour(&values, 3, false);
        let plain = run_flavour(&values, 3, true);
        proptest::prop_assert_eq!(fast.count, oracle);
        proptest::prop_assert_eq!(plain, fast);
        proptest::prop_assert_eq!(count_values(&values, 3), oracle);
        if let Some(first) = fast.first {
            assert_valid_solution(&values, &first);
        }
    }
}
