//! The puzzle being worked on, as plain data: the [`Board`] (recognized digits, user edits,
//! uncertain and conflicting cells, the suggested repair) and the [`Walkthrough`] of its
//! explained solution (which step is current, the position before it, the hint level).
//!
//! No egui and no threads: the UI renders this and changes it only through `Command`s.

use std::sync::Arc;

use crate::sudoku::{Cell, Explained, Grid, Step, Technique};

use super::pipeline::RepairSuggestion;

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
    pub repair: Option<RepairSuggestion>,
}

impl Default for Board {
    fn default() -> Self {
        Board::new([0; 81], [false; 81], None)
    }
}

impl Board {
    /// A board showing `values` as recognized.
    pub fn new(values: [u8; 81], uncertain: [bool; 81], repair: Option<RepairSuggestion>) -> Board {
        let values = values.map(|v| if v <= 9 { v } else { 0 });
        Board {
            recognized: values,
            values,
            uncertain,
            repair,
        }
    }

    /// Parses an 81-character puzzle (digits, `0` or `.` for empty; other characters ignored).
    pub fn from_text(text: &str) -> Option<Board> {
        let values: Vec<u8> = text
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == '.')
            .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
            .collect();
        let values: [u8; 81] = values.try_into().ok()?;
        Some(Board::new(values, [false; 81], None))
    }

    /// Sets `cell` to `value` (0 clears) as a user edit.
    pub fn set(&mut self, cell: Cell, value: u8) {
        let i = cell.index();
        self.values[i] = if value <= 9 { value } else { 0 };
        self.uncertain[i] = false;
    }

    /// Whether the user changed `cell` from what was recognized.
    pub fn is_edited(&self, cell: Cell) -> bool {
        self.values[cell.index()] != self.recognized[cell.index()]
    }

    /// Applies the suggested repair (as edits) and forgets it.
    pub fn accept_repair(&mut self) {
        if let Some(repair) = self.repair.take() {
            for e in &repair.edits {
                self.set(e.cell, e.to);
            }
        }
    }

    /// Cells whose digit repeats in one of their houses.
    pub fn conflicts(&self) -> [bool; 81] {
        let mut bad = [false; 81];
        for c in Cell::all() {
            let v = self.values[c.index()];
            if v != 0 && c.peers().iter().any(|p| self.values[p.index()] == v) {
                bad[c.index()] = true;
            }
        }
        bad
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.values.iter().filter(|&&v| v != 0).count()
    }

    /// The puzzle as 81 characters, `.` for empty.
    pub fn to_text(&self) -> String {
        self.values
            .iter()
            .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
            .collect()
    }
}

/// How far the user has revealed the current step in hint mode.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub enum HintLevel {
    /// Only the technique's name.
    #[default]
    Technique,
    /// The name and the pattern cells.
    Where,
    /// The full step.
    Full,
}

impl HintLevel {
    /// The next level (saturating at [`HintLevel::Full`]).
    pub fn next(self) -> HintLevel {
        match self {
            HintLevel::Technique => HintLevel::Where,
            HintLevel::Where | HintLevel::Full => HintLevel::Full,
        }
    }
}

/// Stepping through an explained solution. Position `k` means steps `0..k` are applied and step
/// `k` (if any) is the current one, highlighted on the board.
#[derive(Clone, Debug)]
pub struct Walkthrough {
    explained: Arc<Explained>,
    texts: Vec<String>,
    pos: usize,
    grid_at_pos: Grid,
    /// Hint-mode reveal level of the current step.
    pub hint: HintLevel,
}

impl Walkthrough {
    /// A walkthrough at the start of `explained`.
    pub fn new(explained: Arc<Explained>) -> Walkthrough {
        let texts = explained.steps.iter().map(Step::text).collect();
        let grid_at_pos = explained.puzzle.clone();
        Walkthrough {
            explained,
            texts,
            pos: 0,
            grid_at_pos,
            hint: HintLevel::default(),
        }
    }

    /// The solve being walked.
    pub fn explained(&self) -> &Explained {
        &self.explained
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.explained.steps.len()
    }

    /// Whether the solution has no steps (the puzzle was already complete).
    pub fn is_empty(&self) -> bool {
        self.explained.steps.is_empty()
    }

    /// The position, `0..=len()`.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The text of step `i`.
    pub fn text(&self, i: usize) -> &str {
        self.texts.get(i).map_or("", String::as_str)
    }

    /// The current step (`None` at the end).
    pub fn current(&self) -> Option<&Step> {
        self.explained.steps.get(self.pos)
    }

    /// The position before the current step: the puzzle with steps `0..pos` applied.
    pub fn grid(&self) -> &Grid {
        &self.grid_at_pos
    }

    /// Moves to position `pos` (clamped to `0..=len()`); resets the hint level when it moves.
    pub fn go_to(&mut self, pos: usize) {
        let pos = pos.min(self.len());
        if pos == self.pos {
            return;
        }
        if pos > self.pos {
            for s in &self.explained.steps[self.pos..pos] {
                s.apply(&mut self.grid_at_pos);
            }
        } else {
            let mut g = self.explained.puzzle.clone();
            for s in &self.explained.steps[..pos] {
                s.apply(&mut g);
            }
            self.grid_at_pos = g;
        }
        self.pos = pos;
        self.hint = HintLevel::default();
    }

    /// Whether step `i` is a guess (logic ran out).
    pub fn is_guess(&self, i: usize) -> bool {
        self.explained
            .steps
            .get(i)
            .is_some_and(|s| s.technique == Technique::Guess)
    }
}

/// Where solving the board stands.
#[derive(Clone, Debug, Default)]
pub enum SolveState {
    /// Nothing to solve (empty board).
    #[default]
    Idle,
    /// A solve of this generation is running on the solver thread.
    Solving,
    /// Solved; walk the steps.
    Solved(Box<Walkthrough>),
    /// The board cannot be solved; the message says why.
    Unsolvable(String),
}

impl SolveState {
    /// The walkthrough, when solved.
    pub fn walkthrough(&self) -> Option<&Walkthrough> {
        match self {
            SolveState::Solved(w) => Some(w),
            _ => None,
        }
    }

    /// The walkthrough, mutably, when solved.
    pub fn walkthrough_mut(&mut self) -> Option<&mut Walkthrough> {
        match self {
            SolveState::Solved(w) => Some(w),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::solve_explained;

    const EASY: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

    #[test]
    fn edits_conflicts_and_text() {
        let mut b = Board::from_text(EASY).unwrap();
        assert_eq!(b.to_text(), EASY.replace('0', "."));
        assert!(b.conflicts().iter().all(|&c| !c));
        // r1c1 = 3 repeats the 3 in r1c3.
        b.set(Cell::from_index(0), 3);
        assert!(b.is_edited(Cell::from_index(0)));
        let bad = b.conflicts();
        assert!(bad[0] && bad[2]);
        assert_eq!(bad.iter().filter(|&&x| x).count(), 2);
        b.set(Cell::from_index(0), 0);
        assert!(!b.is_edited(Cell::from_index(0)));
        assert!(Board::from_text("123").is_none());
    }

    #[test]
    fn repair_is_applied_as_edits() {
        let mut b = Board::from_text(EASY).unwrap();
        b.uncertain[2] = true;
        b.repair = Some(RepairSuggestion {
            edits: vec![super::super::pipeline::RepairEdit {
                cell: Cell::from_index(2),
                from: 3,
                to: 0,
            }],
        });
        b.accept_repair();
        assert_eq!(b.values[2], 0);
        assert!(!b.uncertain[2] && b.repair.is_none());
    }

    #[test]
    fn walkthrough_moves_both_ways_consistently() {
        let b = Board::from_text(EASY).unwrap();
        let e = solve_explained(&Grid::from_values(&b.values)).unwrap();
        let n = e.steps.len();
        let mut w = Walkthrough::new(Arc::new(e));
        assert_eq!(w.pos(), 0);
        assert_eq!(w.grid().filled_count(), b.filled());
        w.go_to(5);
        let at5 = w.grid().clone();
        w.go_to(n + 10);
        assert_eq!(w.pos(), n);
        assert!(w.grid().is_solved());
        assert!(w.current().is_none());
        w.go_to(5);
        assert_eq!(w.grid(), &at5);
        w.hint = HintLevel::Full;
        w.go_to(6);
        assert_eq!(w.hint, HintLevel::Technique);
        assert!(!w.text(0).is_empty());
    }
}
