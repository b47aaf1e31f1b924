//! Helpers for technique unit tests.

use crate::sudoku::grid::Grid;
use crate::sudoku::parse::parse_puzzle;
use crate::sudoku::types::{Candidates, Digit};

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
