//! Undo and redo over the board: the [`History`] of [`Board`]s before each user action (an
//! edit, an accepted repair, a revert, Clear), so every change the user makes can be taken
//! back — with the step of the solution the user was at on that board ([`BoardAt`]), so an
//! undo also takes them back to their place. Loading a new puzzle starts a new history only
//! where the caller says so.
//!
//! Plain data: no egui; the app records before it changes the board.

use super::board::Board;

/// How many actions can be undone.
pub const UNDO_DEPTH: usize = 200;

/// A board and the step of its solution the user was at on it.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardAt {
    /// The board.
    pub board: Board,
    /// The position in its step list (0: before the first step).
    pub step: usize,
}

/// Boards (or [`BoardAt`]s) before (undo) and after (redo) the user's actions.
#[derive(Clone, Debug)]
pub struct History<T = Board> {
    undo: Vec<T>,
    redo: Vec<T>,
}

impl<T> Default for History<T> {
    fn default() -> Self {
        History {
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }
}

impl<T: Clone> History<T> {
    /// Remembers `before`, the board as it was before an action; forgets what could be redone.
    pub fn record(&mut self, before: T) {
        if self.undo.len() == UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.undo.push(before);
        self.redo.clear();
    }

    /// The board before the last action, given the `current` one (kept for redo); `None` when
    /// there is nothing to undo.
    pub fn undo(&mut self, current: &T) -> Option<T> {
        let before = self.undo.pop()?;
        self.redo.push(current.clone());
        Some(before)
    }

    /// The board after the last undone action, given the `current` one; `None` when there is
    /// nothing to redo.
    pub fn redo(&mut self, current: &T) -> Option<T> {
        let after = self.redo.pop()?;
        self.undo.push(current.clone());
        Some(after)
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::Cell;

    #[test]
    fn undo_and_redo_walk_back_and_forth_and_a_new_action_drops_redo() {
        let mut h = History::default();
        let mut board = Board::default();
        assert!(h.undo(&board).is_none());
        let boards: Vec<Board> = (1..=3u8)
            .map(|v| {
                h.record(board.clone());
                board.set(Cell::from_index(usize::from(v)), v);
                board.clone()
            })
            .collect();
        let b1 = h.undo(&board).unwrap();
        assert_eq!(b1, boards[1]);
        let b0 = h.undo(&b1).unwrap();
        assert_eq!(b0, boards[0]);
        assert!(h.can_redo());
        assert_eq!(h.redo(&b0).unwrap(), boards[1]);
        h.record(boards[1].clone());
        assert!(!h.can_redo());
        for _ in 0..UNDO_DEPTH + 5 {
            h.record(Board::default());
        }
        let mut n = 0;
        while h.undo(&board).is_some() {
            n += 1;
        }
        assert_eq!(n, UNDO_DEPTH);
    }
}
