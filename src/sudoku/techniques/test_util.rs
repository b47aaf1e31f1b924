//! Helpers for technique unit tests.

use crate::sudoku::grid::Grid;
use crate::sudoku::parse::parse_puzzle;
use crate::sudoku::types::{Candidates, Cell, CellSet, Digit};

/// Parses an 81-char or 729-char puzzle, panicking on error (tests only).
pub fn grid(s: &str) -> Grid {
    parse_puzzle(s).expect("test puzzle parses")
}

/// A candidate set from its digits written out, e.g. `cands("138")`.
pub fn cands(s: &str) -> Candidates {
    s.chars()
        .filter_map(|ch| ch.to_digit(10))
        .filter_map(|n| Digit::new(n as u8))
        .collect()
}

/// An open grid where `digit` is a candidate only in `cells` (one-based row, column).
pub fn digit_only_in(digit: u8, cells: &[(usize, usize)]) -> Grid {
    let mut g = grid(&".".repeat(81));
    let keep: CellSet = cells.iter().map(|&(r, c)| Cell::at(r - 1, c - 1)).collect();
    let d = Digit::new(digit).expect("digit 1-9");
    for c in Cell::all() {
        if !keep.contains(c) {
            g.eliminate(c, d);
        }
    }
    g
}
