//! The exact solver: finds solutions by constraint propagation and search, counts them up to a
//! limit (used for uniqueness everywhere), and never explains anything.
//!
//! Works on candidate masks, so it honours pencil-mark (Sukaku) puzzles and positions part-way
//! through an explained solve. It owns no notion of techniques, steps or ratings.
//!
//! # Design
//!
//! A band-oriented bitboard solver in the spirit of the fast JCZ/fsss family (written from the
//! published ideas, not from their code). The grid is three *bands* of three rows; for every
//! digit and band one `u32` holds the 27 cells of that band where the digit is still possible
//! (bit `9 * row_in_band + col`). Propagation works one such *subband* at a time:
//!
//! * the 3×3 *minirow* matrix (row of the band × box of the band) must hold a permutation, so
//!   a lookup table keeps only minirows that belong to some permutation — this is pointing and
//!   claiming (locked candidates) inside the band, and it also enforces "once per row and box";
//! * a box of the band whose digit is confined to one column claims that column, which is
//!   removed from the digit's two other bands;
//! * a row of the band with one cell left (a locked minirow in a single-column box) is a placed
//!   digit: the cell is removed from the eight other digits (this covers hidden singles in rows
//!   and boxes).
//!
//! Each band keeps a bit mask of the digits changed since they were last propagated, so work goes
//! only where something moved. Propagation sweeps the bands in turn, each sweep taking the digits
//! dirty when it starts; what a sweep changes waits for the next one, so a digit touched several
//! times is propagated once (about 13 % faster on the hardest sets than settling each band before
//! the next, which is still how the givens are propagated at the root). Between propagation rounds
//! a bit-sliced count over the nine digits of a band finds naked singles, empty cells and bivalue
//! cells; when nothing moves, *column locks* are applied: a column holding a digit in one band only
//! confines the digit's box there to such columns (pointing from a column into a box, the one
//! locked-candidate pattern the band tables cannot see; hidden singles in columns follow from it).
//! Only then does the search guess, on the bivalue cell whose digits touch the most unsolved peers
//! when there is one, trying each digit but the last on a copy of the whole state (under 150 bytes
//! on the stack — no allocation anywhere).
//!
//! Measured against the `sudoku` crate (a JCZSolve port) by `benches/solver.rs`.
//!
//! Laid out as: the entry points and [`Solutions`] here, the board with its propagation and
//! search in `board`, the lookup tables in `tables`.

mod board;
mod tables;

use super::grid::Grid;
use super::types::{Cell, Digit};
use board::Board;

/// Fewer givens than this cannot make a unique Sudoku (McGuire, Tugemann and Civario, 2012):
/// such boards are not worth solving for a unique answer.
pub const MIN_CLUES: usize = 17;

/// What the exact solver found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Solutions {
    /// Number of solutions found, capped at the requested limit.
    pub count: usize,
    /// The first solution found (row-major digits 1–9), if any.
    pub first: Option<[u8; 81]>,
}

impl Solutions {
    /// Exactly one solution.
    pub fn is_unique(&self) -> bool {
        self.count == 1
    }
}

/// Searches `grid` for up to `limit` solutions (`limit` 0 is treated as 1).
///
/// Filled cells count as fixed digits; empty cells are limited to their candidates (a cell with
/// no candidate makes the grid unsolvable).
pub fn solve_up_to(grid: &Grid, limit: usize) -> Solutions {
    let mut masks = [0u16; 81];
    for c in Cell::all() {
        masks[c.index()] = match grid.value(c) {
            Some(d) => 1 << d.index(),
            None => grid.candidates(c).bits(),
        };
    }
    solve_candidates(&masks, limit)
}

/// The first solution of `grid`, if it has one.
pub fn solve(grid: &Grid) -> Option<[u8; 81]> {
    solve_up_to(grid, 1).first
}

/// Number of solutions of `grid`, stopping at `limit`.
pub fn count_solutions(grid: &Grid, limit: usize) -> usize {
    solve_up_to(grid, limit).count
}

/// Solves from 81 values (0 = empty, anything outside 1–9 is treated as empty), up to `limit`
/// solutions (`limit` 0 is treated as 1).
pub fn solve_values(values: &[u8; 81], limit: usize) -> Solutions {
    run(Board::from_values(values), limit, true)
}

/// Counts the solutions of 81 values (0 = empty), stopping at `limit` (0 is treated as 1).
///
/// The fastest entry point: it neither converts through [`Grid`] nor extracts a solution.
pub fn count_values(values: &[u8; 81], limit: usize) -> usize {
    run(Board::from_values(values), limit, false).count
}

/// Solves a pencil-mark position given as 81 candidate masks (bit `d - 1` = digit `d`
/// possible; a single bit is a fixed digit), up to `limit` solutions (0 is treated as 1).
pub fn solve_candidates(masks: &[u16; 81], limit: usize) -> Solutions {
    run(Board::from_masks(masks), limit, true)
}

/// Counts the solutions of an 81-character puzzle line (`1`–`9` digits, `.` or `0` empty;
/// anything after the 81st character is ignored), stopping at `limit`. `None` if the line is
/// too short or holds another character.
pub fn count_line(line: &str, limit: usize) -> Option<usize> {
    let values = super::parse::plain_values(line.get(..81)?)?;
    Some(count_values(&values, limit))
}

/// The digit of `cell` in `solution`.
pub fn solution_digit(solution: &[u8; 81], cell: Cell) -> Option<Digit> {
    Digit::new(solution[cell.index()])
}

fn run(board: Option<Board>, limit: usize, want_first: bool) -> Solutions {
    let mut ctx = Ctx {
        count: 0,
        limit: limit.max(1),
        first: None,
        want_first,
    };
    if let Some(mut board) = board {
        board.search(&mut ctx);
    }
    Solutions {
        count: ctx.count,
        first: ctx.first,
    }
}

/// The search's bookkeeping, shared by every branch.
struct Ctx {
    count: usize,
    limit: usize,
    first: Option<[u8; 81]>,
    want_first: bool,
}

#[cfg(test)]
mod tests;
