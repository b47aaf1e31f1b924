//! Helpers for technique unit tests.

use crate::sudoku::grid::Grid;
use crate::sudoku::parse::parse_puzzle;

/// Parses an 81-char or 729-char puzzle, panicking on error (tests only).
pub fn grid(s: &str) -> Grid {
    parse_puzzle(s).expect("test puzzle parses")
}
