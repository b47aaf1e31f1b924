//! The per-thread memo of the Franken/Mutant fish search (a child module of `franken_fish`):
//! the step solver asks the same questions at every step, and a step leaves most digits'
//! candidates as they were, so most answers are the last step's. It knows the question's key
//! and the answer, not how the search finds it.

use super::super::super::step::{Step, Technique};
use super::super::super::types::{CellSet, Digit};
use std::cell::RefCell;
use std::collections::HashMap;

/// What one search of a digit, size and family depends on: the fish of a digit is a function
/// of where that digit is still a candidate, and nothing else of the grid.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct MemoKey {
    pub(super) technique: Technique,
    pub(super) size: usize,
    pub(super) d: Digit,
    pub(super) family: usize,
    pub(super) cells: CellSet,
}

/// Most searches remembered per thread before the memo starts afresh.
const MEMO_CAP: usize = 4096;

thread_local! {
    /// This thread's remembered searches (see [`memoized`]).
    static MEMO: RefCell<HashMap<MemoKey, Option<Step>>> = RefCell::new(HashMap::new());
}

/// The result of `search` for `key`, computed once per thread: the step solver asks the same
/// question at every step, and a step leaves most digits' candidates as they were, so most
/// answers are the last step's.
pub(super) fn memoized(key: MemoKey, search: impl FnOnce() -> Option<Step>) -> Option<Step> {
    if let Some(found) = MEMO.with(|m| m.borrow().get(&key).cloned()) {
        return found;
    }
    let found = search();
    remember(key, found.clone());
    found
}

/// Records `found` as the answer for `key` in this thread's memo.
pub(super) fn remember(key: MemoKey, found: Option<Step>) {
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MEMO_CAP {
            m.clear();
        }
        m.insert(key, found);
    });
}
