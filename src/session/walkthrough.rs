//! Stepping through an explained solution: the [`Walkthrough`] (which step is current, the
//! position before it, the hint level reached) and the [`SolveState`] of the board.
//!
//! Does not solve (the solver runs elsewhere and hands over an [`Explained`]).

use std::sync::Arc;

use crate::sudoku::{Explained, Grid, Step, Technique};

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
    /// The solver is working on the current board.
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
    use crate::session::Board;
    use crate::sudoku::solve_explained;

    const EASY: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

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
