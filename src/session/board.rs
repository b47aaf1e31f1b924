//! The [`Board`]: the 81 digits being worked on — as recognized or loaded, after the user's
//! edits — with the cells the recognizer doubted, the repeated digits, and the repair the
//! recognizer proposed. Also whether the board is worth sending to the solver.
//!
//! Owns no solving (see [`super::walkthrough`]) and no persistence (see [`super::persist`]).

use crate::digits::Repair;
use crate::sudoku::format::values_line;
use crate::sudoku::{Cell, ParseError, conflicts_of, parse_values};

pub use crate::sudoku::MIN_CLUES;

/// The 81 digits on the board and where they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// Values as recognized or loaded (0 empty).
    pub recognized: [u8; 81],
    /// Values now, after the user's edits (0 empty).
    pub values: [u8; 81],
    /// Cells the recognizer was unsure of (cleared when the user edits the cell).
    pub uncertain: [bool; 81],
    /// A proposed repair of the recognized values, if they are not a valid unique puzzle.
    pub repair: Option<Repair>,
}

impl Default for Board {
    fn default() -> Self {
        Board::new([0; 81], [false; 81], None)
    }
}

impl Board {
    /// A board showing `values` as recognized.
    pub fn new(values: [u8; 81], uncertain: [bool; 81], repair: Option<Repair>) -> Board {
        let values = values.map(|v| if v <= 9 { v } else { 0 });
        Board {
            recognized: values,
            values,
            uncertain,
            repair,
        }
    }

    /// Reads a board from puzzle text in the 81-cell form of [`crate::sudoku::parse_puzzle`]
    /// (`.` or `0` empty, separators and `#` comments ignored). Repeated digits are accepted
    /// (they show red); the error names the line and column at fault.
    pub fn from_text(text: &str) -> Result<Board, ParseError> {
        Ok(Board::new(parse_values(text)?, [false; 81], None))
    }

    /// Sets `cell` to `value` (0 clears) as a user edit.
    pub fn set(&mut self, cell: Cell, value: u8) {
        let i = cell.index();
        self.values[i] = if value <= 9 { value } else { 0 };
        self.uncertain[i] = false;
    }

    /// Puts `cell` back to what was recognized.
    pub fn revert(&mut self, cell: Cell) {
        let i = cell.index();
        self.values[i] = self.recognized[i];
    }

    /// Whether the user changed `cell` from what was recognized.
    pub fn is_edited(&self, cell: Cell) -> bool {
        self.values[cell.index()] != self.recognized[cell.index()]
    }

    /// Applies the suggested repair (as edits) and forgets it.
    pub fn accept_repair(&mut self) {
        if let Some(repair) = self.repair.take() {
            for c in &repair.changes {
                self.set(c.cell, c.to);
            }
        }
    }

    /// Cells whose digit repeats in one of their houses.
    pub fn conflicts(&self) -> [bool; 81] {
        let mut bad = [false; 81];
        for c in conflicts_of(&self.values) {
            bad[c.first.index()] = true;
            bad[c.second.index()] = true;
        }
        bad
    }

    /// Why the board is not sent to the solver (too few digits, a repeated digit); `None` when
    /// it should be solved. An empty board is not unsolvable, just idle: callers check
    /// [`Board::filled`] first.
    pub fn unsolvable_reason(&self) -> Option<String> {
        let filled = self.filled();
        if filled < MIN_CLUES {
            return Some(format!(
                "only {filled} digits — a Sudoku needs at least {MIN_CLUES}"
            ));
        }
        if self.conflicts().iter().any(|&c| c) {
            return Some("the red cells repeat a digit".into());
        }
        None
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.values.iter().filter(|&&v| v != 0).count()
    }

    /// The puzzle as 81 characters, `.` for empty.
    pub fn to_text(&self) -> String {
        values_line(&self.values, '.')
    }
}

/// `r3c4 read as 8, probably 3; r7c1 read as 1, probably empty` style summary of a proposed
/// repair (words, not an arrow: the app's font has no arrow glyph).
pub fn repair_summary(repair: &Repair) -> String {
    let show = |v: u8| {
        if v == 0 {
            "empty".to_string()
        } else {
            v.to_string()
        }
    };
    repair
        .changes
        .iter()
        .map(|c| {
            format!(
                "{} read as {}, probably {}",
                c.cell,
                show(c.from),
                show(c.to)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::RepairChange;

    const EASY: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

    #[test]
    fn edits_conflicts_and_text() {
        let mut b = Board::from_text(EASY).unwrap();
        assert_eq!(b.to_text(), EASY.replace('0', "."));
        assert!(b.conflicts().iter().all(|&c| !c));
        assert_eq!(b.unsolvable_reason(), None);
        // r1c1 = 3 repeats the 3 in r1c3.
        b.set(Cell::from_index(0), 3);
        assert!(b.is_edited(Cell::from_index(0)));
        let bad = b.conflicts();
        assert!(bad[0] && bad[2]);
        assert_eq!(bad.iter().filter(|&&x| x).count(), 2);
        assert!(b.unsolvable_reason().unwrap().contains("repeat"));
        b.set(Cell::from_index(0), 0);
        assert!(!b.is_edited(Cell::from_index(0)));
        assert!(Board::from_text("123").is_err());
        let mut sparse = [0u8; 81];
        sparse[0] = 1;
        let sparse = Board::new(sparse, [false; 81], None);
        assert!(
            sparse
                .unsolvable_reason()
                .unwrap()
                .contains("only 1 digits")
        );
    }

    fn change(cell: usize, from: u8, to: u8) -> RepairChange {
        RepairChange {
            cell: Cell::from_index(cell),
            from,
            to,
            probability: 0.5,
        }
    }

    fn repair(changes: Vec<RepairChange>) -> Repair {
        Repair {
            changes,
            values: [0; 81],
            solution: [0; 81],
            cost: 1.0,
        }
    }

    #[test]
    fn repair_is_applied_as_edits() {
        let mut b = Board::from_text(EASY).unwrap();
        b.uncertain[2] = true;
        b.repair = Some(repair(vec![change(2, 3, 0)]));
        b.accept_repair();
        assert_eq!(b.values[2], 0);
        assert!(!b.uncertain[2] && b.repair.is_none());
        assert!(b.is_edited(Cell::from_index(2)));
    }

    #[test]
    fn repair_summary_names_cells_and_values() {
        let r = repair(vec![change(2, 8, 3), change(80, 1, 0)]);
        assert_eq!(
            repair_summary(&r),
            "r1c3 read as 8, probably 3; r9c9 read as 1, probably empty"
        );
    }
}
