//! Almost locked sets (ALS), shared by the ALS techniques: N cells of one house holding N+1
//! digits between them, so at most one of those digits can be missing from the cells; remove
//! one digit and the rest are locked in. A single cell with two candidates is the smallest.
//!
//! Owns the collection of a grid's ALS and the restricted-common test; the deductions are in
//! `als_xz`, `als_xy_wing`, `als_chain` and `death_blossom`.

use std::cell::RefCell;
use std::rc::Rc;

use super::super::grid::Grid;
use super::super::types::{Candidates, Cell, CellSet, Digit, House};

/// One almost locked set.
pub(super) struct Als {
    /// The house its cells are in (the first such house: rows, columns, then boxes).
    pub(super) house: House,
    /// Its cells.
    pub(super) cells: CellSet,
    /// Its digits (one more than cells).
    pub(super) digits: Candidates,
    /// Per digit, the cells of the set holding it.
    pub(super) places: [CellSet; 9],
    /// Per digit, the cells outside the set that see all its places.
    pub(super) seen_by_all: [CellSet; 9],
}

impl Als {
    /// The digits `x` common to `self` and `other` (disjoint sets) such that every `x` of one
    /// sees every `x` of the other, so at most one of the two sets holds `x`.
    pub(super) fn restricted_commons(&self, other: &Als) -> Candidates {
        if !(self.cells & other.cells).is_empty() {
            return Candidates::NONE;
        }
        (self.digits & other.digits)
            .iter()
            .filter(|x| self.places[x.index()].is_subset(other.seen_by_all[x.index()]))
            .collect()
    }

    /// Cells outside both sets that see every `d` of both.
    pub(super) fn seeing_both(&self, other: &Als, d: Digit) -> CellSet {
        self.seen_by_all[d.index()] & other.seen_by_all[d.index()]
    }
}

/// Largest ALS collected, in cells.
const MAX_CELLS: usize = 5;

/// The last grid's candidate masks (the cache key) and its sets.
type Cached = Option<([u16; 81], Rc<[Als]>)>;

/// Every ALS of up to `max_cells` (at most 5) cells, a cell set once (in its first house),
/// sorted by size. The ALS techniques run one after another on the same grid, so the last
/// grid's sets are kept (per thread) and reused.
pub(super) fn collect(grid: &Grid, max_cells: usize) -> AlsSets {
    thread_local! {
        static LAST: RefCell<Cached> = const { RefCell::new(None) };
    }
    let mut key = [0u16; 81];
    for c in Cell::all() {
        key[c.index()] = grid.candidates(c).bits();
    }
    let all = LAST.with(|last| {
        let mut last = last.borrow_mut();
        match last.as_ref() {
            Some((k, sets)) if *k == key => Rc::clone(sets),
            _ => {
                let sets: Rc<[Als]> = collect_all(grid).into();
                *last = Some((key, Rc::clone(&sets)));
                sets
            }
        }
    });
    let n = all.partition_point(|a| a.cells.len() <= max_cells);
    AlsSets { all, n }
}

/// The ALS of a grid up to some size: a shared list and how much of it to use.
pub(super) struct AlsSets {
    all: Rc<[Als]>,
    n: usize,
}

impl std::ops::Deref for AlsSets {
    type Target = [Als];
    fn deref(&self) -> &[Als] {
        &self.all[..self.n]
    }
}

fn collect_all(grid: &Grid) -> Vec<Als> {
    let max_cells = MAX_CELLS;
    let mut out: Vec<Als> = Vec::new();
    for house in House::all() {
        let empty: Vec<_> = house
            .cells()
            .into_iter()
            .filter(|&c| !grid.candidates(c).is_empty())
            .collect();
        let n = empty.len();
        for mask in 1u32..(1 << n) {
            let size = mask.count_ones() as usize;
            if size > max_cells || size >= n {
                continue;
            }
            let mut cells = CellSet::EMPTY;
            let mut digits = Candidates::NONE;
            for (i, &c) in empty.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    cells.insert(c);
                    digits |= grid.candidates(c);
                }
            }
            if digits.len() != size + 1 {
                continue;
            }
            // A set inside a box∩line (or a single cell) is kept only for its first house.
            if cells.common_house() != Some(house) {
                continue;
            }
            let mut places = [CellSet::EMPTY; 9];
            let mut seen_by_all = [CellSet::EMPTY; 9];
            for d in digits.iter() {
                places[d.index()] = cells & grid.digit_cells(d);
                seen_by_all[d.index()] = places[d.index()].common_peers();
            }
            out.push(Als {
                house,
                cells,
                digits,
                places,
                seen_by_all,
            });
        }
    }
    out.sort_by_key(|a| a.cells.len());
    out
}
