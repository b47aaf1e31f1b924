//! The board's own state changes behind [`SudokuLensApp::apply`] (a child module of `apply`):
//! a new or edited board goes to the solver thread under a new generation, edits are
//! remembered for undo, and the user moves through the steps of the walkthrough. No views, no
//! sources.
//!
//! [`SudokuLensApp::apply`]: crate::app::SudokuLensApp::apply

use crate::app::SudokuLensApp;
use crate::app::workers::SolveRequest;
use crate::session::{Board, BoardAt, History, SolveState};

impl SudokuLensApp {
    /// The board changed (new scan or edit): new generation, solve off the UI thread.
    pub(in crate::app) fn board_changed(&mut self, new_puzzle: bool) {
        self.puzzle.generation += 1;
        self.puzzle.check = None;
        if new_puzzle {
            self.ui.selected = None;
        }
        if self.puzzle.board.filled() == 0 {
            self.puzzle.solve = SolveState::Idle;
            return;
        }
        if let Some(why) = self.puzzle.board.unsolvable_reason() {
            self.puzzle.solve = SolveState::Unsolvable(why);
            return;
        }
        match &self.threads.solver {
            Some(solver) => {
                solver.request(SolveRequest {
                    generation: self.puzzle.generation,
                    values: self.puzzle.board.values,
                    entries: self.puzzle.board.entries,
                    from_start: self.puzzle.full_path,
                });
                self.puzzle.solve = SolveState::Solving;
            }
            None => self.puzzle.solve = SolveState::Unsolvable("the solver is not running".into()),
        }
    }

    /// Shows a new puzzle: a fresh history, nothing revealed, solved off the UI thread.
    pub(in crate::app) fn load_board(&mut self, board: Board) {
        self.puzzle.board = board;
        self.puzzle.edited = false;
        self.puzzle.camera = None;
        self.puzzle.history = History::default();
        self.puzzle.revealed = [false; 81];
        self.board_changed(true);
    }

    /// The board and the step the user is at on it, as undo and redo keep them.
    pub(super) fn board_at(&self) -> BoardAt {
        BoardAt {
            board: self.puzzle.board.clone(),
            step: self.puzzle.solve.walkthrough().map_or(0, |w| w.pos()),
        }
    }

    /// A user action on the board: remembered for undo, then re-solved.
    pub(super) fn edit_board(&mut self, action: impl FnOnce(&mut Board)) {
        let before = self.board_at();
        self.puzzle.history.record(before);
        action(&mut self.puzzle.board);
        self.puzzle.edited = true;
        self.puzzle.restore_step = None;
        self.board_changed(false);
    }

    /// A board from the history (undo/redo), back at the step the user was at on it.
    pub(super) fn restore_board(&mut self, at: BoardAt) {
        self.puzzle.board = at.board;
        self.puzzle.edited = true;
        self.puzzle.restore_step = Some(at.step);
        self.board_changed(false);
    }

    pub(super) fn walk(&mut self, target: impl FnOnce(usize, usize) -> usize) {
        if let Some(w) = self.puzzle.solve.walkthrough_mut() {
            let pos = target(w.pos(), w.len());
            w.go_to(pos);
        }
    }
}
