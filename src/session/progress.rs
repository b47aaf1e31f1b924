//! Where a half-done puzzle stands: the handwritten entries checked against the printed givens
//! ([`crate::sudoku::check_entries`]) and the position the walkthrough starts from — the
//! givens plus the entries judged right (the user's progress), or the bare givens when the
//! full path from the start is asked for. A board without entries is solved as it is.
//!
//! Pure: called on the app's solver thread; no egui, no threads.

use crate::sudoku::{Check, Explained, Grid, solve_explained};

use super::board::Board;

/// What solving a board yields: the explained solution from its start position and, for a
/// board with handwritten entries, their check.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The explained solution, from [`start_position`].
    pub explained: Explained,
    /// The entries' check (`None` for a board without entries).
    pub check: Option<Check>,
}

/// The position to solve from and the entries' check: for a board with entries, the
/// givens plus the right entries (or only the givens when `from_start`); else the board.
/// `Err` says why the givens are not a puzzle.
pub fn start_position(board: &Board, from_start: bool) -> Result<(Grid, Option<Check>), String> {
    if !board.has_entries() {
        return Ok((Grid::from_values(&board.values), None));
    }
    let givens = board.givens();
    // An entry the recognizer doubted is "unsure", never called wrong.
    let check = crate::sudoku::check_entries_as_model_read(
        &givens,
        &board.entry_values(),
        &board.uncertain,
        &board.model_read_unconfirmed(),
    );
    match &check {
        Check::GivensConflict(c) => {
            return Err(c.first().map_or_else(
                || "the printed digits repeat a digit".to_string(),
                |c| {
                    format!(
                        "the printed digits repeat {} in {} and {}",
                        c.digit, c.first, c.second
                    )
                },
            ));
        }
        Check::GivensUnsolvable => {
            return Err("the printed digits have no solution: is one misread?".to_string());
        }
        Check::Checked { .. } => {}
    }
    let grid = if from_start {
        Some(Grid::from_values(&givens))
    } else {
        check.position(&givens)
    };
    let grid = grid.ok_or_else(|| "the printed digits are not a puzzle".to_string())?;
    Ok((grid, Some(check)))
}

/// Checks the entries and solves from [`start_position`].
pub fn solve_progress(board: &Board, from_start: bool) -> Result<Progress, String> {
    let (grid, check) = start_position(board, from_start)?;
    let explained = solve_explained(&grid).map_err(|e| e.to_string())?;
    Ok(Progress { explained, check })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Cell, Verdict};

    const EASY: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

    #[test]
    fn entries_are_checked_and_the_walk_starts_from_the_right_ones() {
        let givens = Board::from_text(EASY).unwrap();
        let solution = solve_explained(&Grid::from_values(&givens.values))
            .unwrap()
            .solution;
        let mut values = givens.values;
        let mut entries = [false; 81];
        // r1c1 right, r1c2 right, r1c4 wrong.
        for (i, v) in [(0, solution[0]), (1, solution[1]), (3, solution[3] % 9 + 1)] {
            values[i] = v;
            entries[i] = true;
        }
        let board = Board::new(values, [false; 81], None).with_writing(entries, [false; 81]);
        assert!(board.has_entries() && board.unsolvable_reason().is_none());
        let p = solve_progress(&board, false).unwrap();
        let check = p.check.unwrap();
        assert_eq!(check.wrong_cells(), vec![Cell::from_index(3)]);
        let start = &p.explained.puzzle;
        assert_eq!(start.filled_count(), givens.filled() + 2);
        assert_eq!(start.value(Cell::from_index(3)), None);
        assert!(
            !start.is_given(Cell::from_index(0)),
            "an entry is placed, not given"
        );
        assert_eq!(p.explained.solution, solution);
        // The full path: from the givens alone.
        let full = solve_progress(&board, true).unwrap();
        assert_eq!(full.explained.puzzle.filled_count(), givens.filled());
        // Without entries the board is solved as it is, no check.
        let plain = solve_progress(&givens, false).unwrap();
        assert!(plain.check.is_none());
        // Misread givens are named.
        let mut bad = board.clone();
        bad.values[1] = 3;
        bad.entries[1] = false;
        assert!(
            solve_progress(&bad, false)
                .unwrap_err()
                .contains("repeat 3")
        );
    }

    #[test]
    fn an_entry_the_puzzle_decided_is_checked_as_the_model_read_it_until_the_user_confirms() {
        let givens = Board::from_text(EASY).unwrap();
        let solution = solve_explained(&Grid::from_values(&givens.values))
            .unwrap()
            .solution;
        let cell = Cell::from_index(0);
        // Shown with the solution's digit, flagged; the model read another digit there.
        let mut values = givens.values;
        values[0] = solution[0];
        let mut entries = [false; 81];
        entries[0] = true;
        let mut uncertain = [false; 81];
        uncertain[0] = true;
        let mut model_read = [0; 81];
        model_read[0] = solution[0] % 9 + 1;
        let board = Board::new(values, uncertain, None)
            .with_writing(entries, [false; 81])
            .with_model_read(model_read);
        let verdict = |b: &Board| {
            let check = solve_progress(b, false).unwrap().check.unwrap();
            let Check::Checked { entries, .. } = check else {
                panic!("the givens are a puzzle")
            };
            let entry = entries
                .iter()
                .find(|e| e.cell == cell)
                .expect("the entry is checked");
            match entry.verdict {
                Verdict::Right => "right",
                Verdict::Unsure { .. } => "unsure",
                _ => "other",
            }
        };
        assert_eq!(verdict(&board), "unsure");
        // Without the model's digit kept, the decided entry would pass as right.
        let mut forgetful = board.clone();
        forgetful.model_read = [0; 81];
        assert_eq!(verdict(&forgetful), "right");
        // The user confirms the digit (types it): now it is theirs, and right.
        let mut confirmed = board.clone();
        confirmed.set(cell, solution[0]);
        assert_eq!(verdict(&confirmed), "right");
    }
}
