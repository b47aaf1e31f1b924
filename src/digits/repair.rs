//! Repair search: when the read grid has conflicts, no solution or several, find the most
//! likely small set of cell changes (by the classifier's own probabilities) that yields a
//! valid grid with exactly one solution.
//!
//! It only proposes: the caller shows the suggestion and the read grid stays as read. It knows
//! nothing of images or models, only of [`CellReading`] probabilities and the exact solver.

use super::{CellReading, read_values};
use crate::sudoku::solver::count_values;
use crate::sudoku::{Cell, Grid};

/// Alternatives less likely than this are never proposed (unless the cell is in a conflict,
/// where clearing it is always an option).
const MIN_ALTERNATIVE_PROBABILITY: f32 = 1e-4;

/// How many of the cheapest single changes are considered at each search depth
/// (depth 1, 2, 3): keeps the search to a few hundred solver calls.
const CANDIDATES_PER_DEPTH: [usize; 3] = [60, 24, 12];

/// One proposed change.
#[derive(Clone, Debug, PartialEq)]
pub struct RepairChange {
    /// The cell, `r1c1` style when displayed.
    pub cell: Cell,
    /// The value as read (0 = empty).
    pub from: u8,
    /// The proposed value (0 = empty).
    pub to: u8,
    /// Classifier probability of the proposed value.
    pub probability: f32,
}

/// A suggested repair: apply `changes` to get `values`, a grid with exactly one solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Repair {
    /// The changes, in cell order.
    pub changes: Vec<RepairChange>,
    /// The repaired grid (0 = empty).
    pub values: [u8; 81],
    /// Its unique solution.
    pub solution: [u8; 81],
    /// Sum over changes of `ln p(read) − ln p(proposed)`: how much less likely the repaired grid
    /// is than the read one (0 = equally likely).
    pub cost: f32,
}

/// One single-cell change a repair search may make: the cell (row-major), its new value (0
/// empty, 1–9), the classifier's probability of that value and the change's cost
/// `ln p(read) − ln p(new)`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Change {
    pub(super) cell: usize,
    pub(super) to: u8,
    pub(super) probability: f32,
    pub(super) cost: f32,
}

impl Change {
    /// The change of `cell`, whose `reading` gave value `from`, to `to`, with the reading's
    /// probability of `to` and the cost of the change.
    pub(super) fn of(reading: &CellReading, cell: usize, from: u8, to: u8) -> Change {
        let probability = reading.value_probability(to);
        Change {
            cell,
            to,
            probability,
            cost: reading.value_probability(from).max(1e-9).ln() - probability.max(1e-9).ln(),
        }
    }
}

/// What [`for_each_change_set`] calls with each set: the changes, their total cost, and the
/// values with them made.
pub(super) type ChangeSetVisitor<'a> = dyn FnMut(&[Change], f32, &[u8; 81]) + 'a;

/// Calls `f` with every set of `n` changes of `pool` in distinct cells (in pool order), its
/// total cost and `values` with those changes made. The callers judge each set (one keeps the
/// cheapest proper puzzle, one every proper puzzle); a caller that only wants sets cheaper
/// than some bound returns early on the cost, before any solver call.
pub(super) fn for_each_change_set(
    values: &[u8; 81],
    pool: &[Change],
    n: usize,
    f: &mut ChangeSetVisitor,
) {
    fn go(
        values: &[u8; 81],
        pool: &[Change],
        n: usize,
        chosen: &mut Vec<Change>,
        f: &mut ChangeSetVisitor,
    ) {
        if chosen.len() == n {
            let mut changed = *values;
            for c in chosen.iter() {
                changed[c.cell] = c.to;
            }
            f(chosen, chosen.iter().map(|c| c.cost).sum(), &changed);
            return;
        }
        for (k, change) in pool.iter().enumerate() {
            if chosen.iter().any(|c| c.cell == change.cell) {
                continue;
            }
            chosen.push(*change);
            go(values, &pool[k + 1..], n, chosen, f);
            chosen.pop();
        }
    }
    go(values, pool, n, &mut Vec::with_capacity(n), f);
}

/// Whether `values` is conflict-free with exactly one solution.
pub fn is_valid_unique(values: &[u8; 81]) -> bool {
    Grid::from_values(values).conflicts().is_empty() && count_values(values, 2) == 1
}

/// The most likely repair of the grid read from `readings` (81, row-major) with at most
/// `max_changes` changes (1–3), or `None` when the read grid already has one solution or no
/// repair within that many changes exists. Fewer changes win; among equals, the lowest cost.
pub fn suggest_repair(readings: &[CellReading], max_changes: usize) -> Option<Repair> {
    if readings.len() != 81 {
        return None;
    }
    let read = read_values(readings);
    if is_valid_unique(&read) {
        return None;
    }
    let grid = Grid::from_values(&read);
    let mut in_conflict = [false; 81];
    for c in grid.conflicts() {
        in_conflict[c.first.index()] = true;
        in_conflict[c.second.index()] = true;
    }
    let mut options: Vec<Change> = Vec::new();
    for (i, r) in readings.iter().enumerate() {
        for to in 0..=9u8 {
            if to == read[i] {
                continue;
            }
            let change = Change::of(r, i, read[i], to);
            let forced = in_conflict[i] && to == 0;
            if change.probability >= MIN_ALTERNATIVE_PROBABILITY || forced {
                options.push(change);
            }
        }
    }
    options.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    let depth_limit = max_changes.clamp(1, CANDIDATES_PER_DEPTH.len());
    for depth in 1..=depth_limit {
        let pool = &options[..options.len().min(CANDIDATES_PER_DEPTH[depth - 1])];
        let mut best: Option<(f32, Vec<Change>, [u8; 81])> = None;
        for_each_change_set(&read, pool, depth, &mut |chosen, cost, changed| {
            if best.as_ref().is_some_and(|(b, _, _)| *b <= cost) {
                return;
            }
            if is_valid_unique(changed) {
                best = Some((cost, chosen.to_vec(), *changed));
            }
        });
        if let Some((cost, mut changes, values)) = best {
            changes.sort_by_key(|c| c.cell);
            let solution = crate::sudoku::solver::solve_values(&values, 1).first?;
            return Some(Repair {
                changes: changes
                    .iter()
                    .map(|c| RepairChange {
                        cell: Cell::from_index(c.cell),
                        from: read[c.cell],
                        to: c.to,
                        probability: c.probability,
                    })
                    .collect(),
                values,
                solution,
                cost,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::{CellReading, NUM_CLASSES};

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn sure(value: u8) -> CellReading {
        let mut p = [0.0005f32; NUM_CLASSES];
        p[value as usize] = 1.0 - 0.0005 * 10.0;
        CellReading::from_probabilities(p)
    }

    fn readings_of(line: &str) -> Vec<CellReading> {
        line.bytes()
            .map(|b| sure(if b == b'.' { 0 } else { b - b'0' }))
            .collect()
    }

    #[test]
    fn unique_grid_needs_no_repair() {
        let r = readings_of(PUZZLE);
        assert!(suggest_repair(&r, 2).is_none());
    }

    #[test]
    fn misread_digit_is_fixed_by_its_second_choice() {
        let mut r = readings_of(PUZZLE);
        // r1c1 is a 5 but was read as 6 (conflicts with r2c1), with 5 as a close second.
        let mut p = [0.001f32; NUM_CLASSES];
        p[6] = 0.6;
        p[5] = 0.39;
        r[0] = CellReading::from_probabilities(p);
        let repair = suggest_repair(&r, 2).expect("a repair");
        assert_eq!(repair.changes.len(), 1);
        assert_eq!(repair.changes[0].cell, Cell::from_index(0));
        assert_eq!((repair.changes[0].from, repair.changes[0].to), (6, 5));
        assert!(is_valid_unique(&repair.values));
    }

    #[test]
    fn missed_given_is_restored() {
        let mut r = readings_of(PUZZLE);
        // Drop the 7 at r1c5 to "empty", with a small 7 probability left; many givens removed
        // make the puzzle ambiguous, the repair must put it back.
        let mut p = [0.0001f32; NUM_CLASSES];
        p[0] = 0.97;
        p[7] = 0.02;
        r[4] = CellReading::from_probabilities(p);
        let mut values = [0u8; 81];
        for (v, x) in values.iter_mut().zip(&r) {
            *v = x.class.value();
        }
        if count_values(&values, 2) == 1 {
            // Still unique without it: nothing to repair, and none is proposed.
            assert!(suggest_repair(&r, 2).is_none());
        } else {
            let repair = suggest_repair(&r, 2).expect("a repair");
            assert_eq!(repair.changes[0].to, 7);
        }
    }
}
