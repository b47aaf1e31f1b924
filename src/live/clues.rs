//! Clues a printed puzzle needs. A real puzzle has one solution, so when the voted board has
//! several without a digit read faintly (a given printed light or worn, a blurred frame's thin
//! stroke), the page holds that digit: [`restore_needed_clue`] gives a vote that left such a
//! cell empty its digit back, and [`needed_clue`] lets `trust` accept a digit read about as
//! often empty. An erased digit on a half-done page is never needed (the page's puzzle solves
//! without it), so neither rule can bring one back.
//!
//! Owns these two rules only: voting is `vote`'s, the other trust rules are `trust`'s.

use super::vote::{VotedBoard, Votes};
use crate::digits::repair::is_valid_unique;
use crate::sudoku::solver::solve_values;

/// Least mean probability of its digit for a cell voted empty to be given that digit back.
/// Below it the digit is not a reading of the cell but noise the solver would pick for it.
pub(super) const RESTORE_MIN_WEIGHT: f32 = 0.3;

/// How many cells voted empty, the likeliest digits first, [`restore_needed_clue`] tries.
const RESTORE_TRIES: usize = 3;

/// Whether the voted board without the digit in `cell` has several solutions: a printed
/// puzzle has one, so the page holds that clue, however faint its print.
pub(super) fn needed_clue(voted: &VotedBoard, cell: usize) -> bool {
    let mut rest = voted.values;
    rest[cell] = 0;
    let found = solve_values(&rest, 2);
    found.first.is_some() && !found.is_unique()
}

/// When `voted` has several solutions, gives back one cell voted empty whose digit the
/// reads give at least [`RESTORE_MIN_WEIGHT`] and with which the board has one solution and
/// no clash (the likeliest of the [`RESTORE_TRIES`] likeliest such digits that does): a faint
/// given the vote lost to "empty". Its confidence becomes that digit's mean probability, so
/// it stays doubtful and `trust` judges it as such. Returns the cell given back, if any.
pub(super) fn restore_needed_clue(voted: &mut VotedBoard, votes: &Votes) -> Option<usize> {
    let found = solve_values(&voted.values, 2);
    if found.first.is_none() || found.is_unique() {
        return None;
    }
    let mut faint: Vec<(usize, u8, f32)> = (0..81)
        .filter(|&i| voted.values[i] == 0)
        .filter_map(|i| {
            let (digit, weight) = (1..=9u8)
                .map(|d| (d, votes.mean_probability(i, d)))
                .fold((0, 0.0), |best, c| if c.1 > best.1 { c } else { best });
            (weight >= RESTORE_MIN_WEIGHT).then_some((i, digit, weight))
        })
        .collect();
    faint.sort_by(|a, b| b.2.total_cmp(&a.2));
    let (cell, digit, weight) = faint.into_iter().take(RESTORE_TRIES).find(|&(i, d, _)| {
        let mut values = voted.values;
        values[i] = d;
        is_valid_unique(&values)
    })?;
    voted.values[cell] = digit;
    voted.confidence[cell] = weight;
    Some(cell)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::digits::NUM_CLASSES;
    use crate::live::trust::tests::{board, repeated, sure};
    use crate::sudoku::SEVENTEEN_CLUES;

    /// Votes of `reads` reads of `values`, sure everywhere but `cell`, which reads its digit
    /// `digit` at `weight` and empty at the rest.
    fn votes_with(values: &[u8; 81], cell: usize, digit: u8, weight: f32, reads: usize) -> Votes {
        repeated(reads, |i| {
            if i == cell {
                let mut p = [0.0f32; NUM_CLASSES];
                p[digit as usize] = weight;
                p[0] = 1.0 - weight;
                p
            } else {
                sure(values[i])
            }
        })
    }

    /// The 17-clue puzzle, and the same without its given in cell 17 (a 1): several
    /// solutions.
    fn puzzle_and_without_17() -> ([u8; 81], [u8; 81]) {
        let puzzle = board(SEVENTEEN_CLUES);
        let mut without = puzzle;
        without[17] = 0;
        (puzzle, without)
    }

    /// Six reads of `values` ([`votes_with`]: `cell` reads `digit` at `weight`) voted, and
    /// what [`restore_needed_clue`] gave back to the vote.
    fn restore(
        values: &[u8; 81],
        cell: usize,
        digit: u8,
        weight: f32,
    ) -> (Option<usize>, VotedBoard) {
        let votes = votes_with(values, cell, digit, weight, 6);
        let mut voted = votes.voted().expect("votes");
        assert_eq!(voted.values[cell], values[cell], "the vote reads the board");
        (restore_needed_clue(&mut voted, &votes), voted)
    }

    #[test]
    fn a_faint_given_voted_empty_is_given_back_when_the_puzzle_needs_it() {
        // The given in cell 17 (a 1) read 0.45 a 1, 0.55 empty: the vote says empty, and the
        // board has several solutions without it.
        let (puzzle, without) = puzzle_and_without_17();
        let (restored, voted) = restore(&without, 17, 1, 0.45);
        assert_eq!(restored, Some(17));
        assert_eq!(voted.values, puzzle);
        assert!((voted.confidence[17] - 0.45).abs() < 1e-4, "still doubtful");
        assert!(needed_clue(&voted, 17));
    }

    #[test]
    fn nothing_is_given_back_to_a_board_with_one_solution_or_from_a_weak_reading() {
        let (puzzle, without) = puzzle_and_without_17();
        // One solution already: a faint mark in an empty cell (an erased digit) stays empty.
        let (restored, voted) = restore(&puzzle, 0, 5, 0.45);
        assert_eq!(restored, None);
        assert_eq!(voted.values, puzzle);
        // Several solutions, but the lost given reads its digit under the least weight.
        let (restored, voted) = restore(&without, 17, 1, RESTORE_MIN_WEIGHT - 0.05);
        assert_eq!(restored, None);
        assert_eq!(voted.values, without);
    }

    #[test]
    fn a_digit_that_clashes_or_leaves_several_solutions_is_not_given_back() {
        let (_, without) = puzzle_and_without_17();
        // Cell 17 read faintly as a 3 (a 3 is given in its box): a clash.
        let (restored, voted) = restore(&without, 17, 3, 0.45);
        assert_eq!(restored, None);
        assert_eq!(voted.values, without);
        // Two givens lost: neither alone gives one solution.
        let mut two = without;
        two[23] = 0;
        let (restored, voted) = restore(&two, 17, 1, 0.45);
        assert_eq!(restored, None);
        assert_eq!(voted.values, two);
    }
}
