//! The [`Board`]: the 81 digits being worked on — as recognized or loaded, after the user's
//! edits — with the cells the recognizer doubted, the repeated digits, and the repair the
//! recognizer proposed, and for a half-done puzzle which digits are the solver's handwritten
//! entries (the rest are the printed givens) and which cells hold pencil marks. Also whether
//! the board is worth sending to the solver.
//!
//! Owns no solving (see [`super::walkthrough`]) and no persistence (see [`super::persist`]).

use crate::digits::Repair;
use crate::sudoku::format::values_line;
use crate::sudoku::{Cell, Digit, Grid, House, HouseKind, ParseError, conflicts_of, parse_values};

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
    /// Cells read as handwritten entries (the solver's own digits, checked against the
    /// printed givens rather than solved from); all false for a typed puzzle or a model that
    /// cannot tell handwriting from print.
    pub entries: [bool; 81],
    /// Cells read as holding pencil marks (empty for solving; which digits is not read).
    pub pencil: [bool; 81],
    /// The digit the model itself read in each handwritten entry that the puzzle decided
    /// otherwise (the board shows the puzzle's digit, flagged), 0 elsewhere. While such a
    /// cell stays flagged and unedited, the entries' check judges this digit, as unsure
    /// ([`Board::model_read_unconfirmed`]).
    pub model_read: [u8; 81],
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
            entries: [false; 81],
            pencil: [false; 81],
            model_read: [0; 81],
        }
    }

    /// The board with the digits the model itself read in entries the puzzle decided
    /// otherwise (see [`Board::model_read`]; values over 9 count as none).
    pub fn with_model_read(mut self, model_read: [u8; 81]) -> Board {
        self.model_read = model_read.map(|v| if v <= 9 { v } else { 0 });
        self
    }

    /// [`Board::model_read`] where the user has neither edited nor confirmed the cell (it is
    /// still flagged and as recognized), 0 elsewhere: the digits the entries' check judges
    /// instead of the board's (`sudoku::check_entries_as_model_read`).
    pub fn model_read_unconfirmed(&self) -> [u8; 81] {
        std::array::from_fn(|i| {
            let untouched = self.uncertain[i] && self.values[i] == self.recognized[i];
            if untouched { self.model_read[i] } else { 0 }
        })
    }

    /// The board with the cells read as handwritten entries and as pencil marks.
    pub fn with_writing(mut self, entries: [bool; 81], pencil: [bool; 81]) -> Board {
        self.entries = entries;
        self.pencil = pencil;
        self
    }

    /// Whether any digit on the board is a handwritten entry.
    pub fn has_entries(&self) -> bool {
        (0..81).any(|i| self.entries[i] && self.values[i] != 0)
    }

    /// Whether `cell` holds a handwritten entry.
    pub fn is_entry(&self, cell: Cell) -> bool {
        self.entries[cell.index()] && self.values[cell.index()] != 0
    }

    /// The printed givens: every digit that is not a handwritten entry.
    pub fn givens(&self) -> [u8; 81] {
        std::array::from_fn(|i| if self.entries[i] { 0 } else { self.values[i] })
    }

    /// The handwritten entries' digits, 0 elsewhere.
    pub fn entry_values(&self) -> [u8; 81] {
        std::array::from_fn(|i| if self.entries[i] { self.values[i] } else { 0 })
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
    /// With handwritten entries only the printed givens are solved (the entries are checked
    /// against them), so only they must be enough and must not repeat.
    pub fn unsolvable_reason(&self) -> Option<String> {
        let givens = self.givens();
        let filled = givens.iter().filter(|&&v| v != 0).count();
        let printed = if self.has_entries() { " printed" } else { "" };
        if filled < MIN_CLUES {
            return Some(format!(
                "only {filled}{printed} digits — a Sudoku needs at least {MIN_CLUES}"
            ));
        }
        if let Some(words) = conflict_words_of(&givens) {
            return Some(format!("the red cells repeat a{printed} digit: {words}"));
        }
        None
    }

    /// The repeated digits in words naming the cells, e.g. `3 is in both r1c1 and r1c3
    /// (row 1)`, at most three, `None` when nothing repeats.
    pub fn conflict_words(&self) -> Option<String> {
        conflict_words_of(&self.values)
    }

    /// Where a board with no solution runs dry, found by filling in singles: the first cell
    /// left with no possible digit, or digit left with no place in a house, and how many
    /// singles were filled in before (`None` when singles alone do not reach a dead end).
    pub fn dead_end(&self) -> Option<String> {
        let mut grid = Grid::from_values(&self.values);
        let mut filled = 0;
        loop {
            for c in grid.empty_cells().iter() {
                if grid.candidates(c).is_empty() {
                    return Some(format!(
                        "{c} has no possible digit left{}",
                        after_singles(filled)
                    ));
                }
            }
            for h in House::all() {
                for d in (0..9).map(Digit::from_index) {
                    if !grid.house_has_digit(h, d) && grid.house_digit_cells(h, d).is_empty() {
                        return Some(format!(
                            "{d} has no place left in {}{}",
                            house_words(h),
                            after_singles(filled)
                        ));
                    }
                }
            }
            let single = grid.empty_cells().iter().find_map(|c| {
                let d = grid.candidates(c).single_digit()?;
                Some((c, d))
            });
            let hidden = || {
                House::all().find_map(|h| {
                    (0..9).map(Digit::from_index).find_map(|d| {
                        let cells = grid.house_digit_cells(h, d);
                        (cells.len() == 1).then(|| cells.first().map(|c| (c, d)))?
                    })
                })
            };
            match single.or_else(hidden) {
                Some((c, d)) => {
                    grid.place(c, d);
                    filled += 1;
                }
                None => return None,
            }
        }
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

/// A house in words: `row 3`, `column 7`, `box 5`.
pub fn house_words(h: House) -> String {
    let kind = match h.kind() {
        HouseKind::Row => "row",
        HouseKind::Col => "column",
        HouseKind::Box => "box",
    };
    format!("{kind} {}", h.number() + 1)
}

/// The repeated digits of `values` in words (see [`Board::conflict_words`]).
fn conflict_words_of(values: &[u8; 81]) -> Option<String> {
    let all = conflicts_of(values);
    let mut words: Vec<String> = all
        .iter()
        .take(3)
        .map(|c| {
            format!(
                "{} is in both {} and {} ({})",
                c.digit,
                c.first,
                c.second,
                house_words(c.house)
            )
        })
        .collect();
    if all.len() > 3 {
        words.push(format!("{} more", all.len() - 3));
    }
    (!words.is_empty()).then(|| words.join("; "))
}

fn after_singles(filled: usize) -> String {
    if filled == 0 {
        String::new()
    } else {
        format!(" once {filled} forced digit(s) are filled in")
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
    fn conflicts_and_dead_ends_are_named() {
        let mut b = Board::from_text(EASY).unwrap();
        b.set(Cell::from_index(0), 3);
        assert_eq!(
            b.conflict_words().as_deref(),
            Some("3 is in both r1c1 and r1c3 (row 1)")
        );
        // A wrong digit that repeats nothing: filling in forced digits runs into a cell or a
        // house with nowhere to go, and the words say which.
        let good = Board::from_text(EASY).unwrap();
        assert!(good.dead_end().is_none(), "singles solve the easy puzzle");
        let solution = crate::sudoku::solve_explained(&Grid::from_values(&good.values))
            .unwrap()
            .solution;
        let mut named = 0;
        for c in Cell::all().filter(|c| good.values[c.index()] == 0) {
            for v in (1..=9).filter(|&v| v != solution[c.index()]) {
                let mut b = good.clone();
                b.set(c, v);
                if b.conflict_words().is_some() {
                    continue;
                }
                let place = b.dead_end().expect("a wrong digit leads to a dead end");
                assert!(
                    place.contains("no possible digit") || place.contains("no place left"),
                    "{place}"
                );
                named += 1;
            }
        }
        assert!(named > 50, "{named}");
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
