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

thread_local! {
    /// Per size (2 to 4) and digit, this thread's last candidate cells whose walk found no
    /// fish of any kind (see [`touched_since_fish_free`]).
    static FISH_FREE: RefCell<[[Option<CellSet>; 9]; 3]> = const { RefCell::new([[None; 9]; 3]) };
}

/// Records that the walk of size `size` over the candidate cells `cells` of `d` found no fish
/// of any technique or family.
pub(super) fn fish_free(size: usize, d: Digit, cells: CellSet) {
    FISH_FREE.with(|f| {
        if let Some(slot) = f.borrow_mut().get_mut(size - 2) {
            slot[d.index()] = Some(cells);
        }
    });
}

/// The houses (bit `h` for house index `h`) one of which is a base house of every fish of
/// size `size` over the candidate cells `cells` of `d`, or `None` for any house: those
/// through a cell removed since a fish-free walk, when `cells` are those cells less some.
///
/// Why: take a fish over `cells` whose base houses hold no removed cell. Its base cells, and
/// so its fins, are the same over the earlier cells, and it removes there what it removes now
/// and maybe more (cells that are gone now were candidates then); every test of the walk
/// reads the base cells, and the candidate cells only to keep a choice (a target or a fin
/// that still sees one), so the earlier walk took the same choices and found it: but it found
/// none.
pub(super) fn touched_since_fish_free(size: usize, d: Digit, cells: CellSet) -> Option<u32> {
    let earlier = FISH_FREE.with(|f| f.borrow().get(size - 2).and_then(|s| s[d.index()]))?;
    touched(earlier, cells)
}

/// The houses (bit `h` for house index `h`) through a cell of `earlier` that `cells` lacks,
/// or `None` when `cells` is not a subset of `earlier`.
pub(super) fn touched(earlier: CellSet, cells: CellSet) -> Option<u32> {
    if !(cells & !earlier).is_empty() {
        return None;
    }
    Some((earlier & !cells).iter().fold(0, |m, c| {
        c.houses().iter().fold(m, |m, h| m | 1 << h.index())
    }))
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
