//! [`Grid`]: the state of a puzzle being solved — givens, placed digits and the candidates of
//! every empty cell — with the elementary moves (place, eliminate) that keep them consistent.
//!
//! It does not know any solving technique or any text format (see `parse` and `techniques`).

use std::fmt;

use super::format;
use super::types::{Candidates, Cell, CellSet, Digit, House};

/// One candidate: digit `digit` in cell `cell`. Printed `r5c9<>4` style by callers; `Display`
/// gives `r5c9=4`-free form `4r5c9`.
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, serde::Serialize, serde::Deserialize,
)]
pub struct Candidate {
    /// The cell.
    pub cell: Cell,
    /// The digit.
    pub digit: Digit,
}

impl Candidate {
    /// Constructs the candidate `digit` in `cell`.
    pub const fn new(cell: Cell, digit: Digit) -> Candidate {
        Candidate { cell, digit }
    }
}

impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.digit, self.cell)
    }
}

/// Two givens (or placed digits) with the same digit in one house.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Conflict {
    /// The repeated digit.
    pub digit: Digit,
    /// The earlier cell in reading order.
    pub first: Cell,
    /// The later cell.
    pub second: Cell,
    /// A house both cells are in.
    pub house: House,
}

/// A Sudoku position: for every cell either a digit (given or placed) or a candidate set.
///
/// Invariants kept by [`Grid::place`] and [`Grid::eliminate`]: a filled cell has no candidates;
/// `digit_cells(d)` is exactly the empty cells with candidate `d`. Candidates are *not*
/// automatically cleaned of peers' digits except through `place` (a Sukaku puzzle may carry
/// whatever pencil marks it likes); use [`Grid::from_values`] for the usual full-candidate start.
#[derive(Clone, PartialEq, Eq)]
pub struct Grid {
    values: [u8; 81],
    given: CellSet,
    candidates: [Candidates; 81],
    digit_cells: [CellSet; 9],
}

impl Default for Grid {
    fn default() -> Self {
        Grid::empty()
    }
}

impl Grid {
    /// An empty grid: no digits, every candidate possible.
    pub fn empty() -> Grid {
        Grid {
            values: [0; 81],
            given: CellSet::EMPTY,
            candidates: [Candidates::ALL; 81],
            digit_cells: [CellSet::ALL; 9],
        }
    }

    /// A grid from 81 values (0 = empty, 1–9 = given), with the candidates of the empty cells
    /// computed from the givens. Values above 9 are treated as empty. Conflicting givens are
    /// accepted here; check [`Grid::conflicts`].
    pub fn from_values(values: &[u8; 81]) -> Grid {
        let mut g = Grid::empty();
        for (i, &v) in values.iter().enumerate() {
            if let Some(d) = Digit::new(v) {
                let c = Cell::from_index(i);
                g.place(c, d);
                g.given.insert(c);
            }
        }
        g
    }

    /// A grid from per-cell candidate sets (the Sukaku form): every cell starts empty with the
    /// given candidates; nothing is placed or given.
    pub fn from_candidates(cands: &[Candidates; 81]) -> Grid {
        let mut g = Grid {
            values: [0; 81],
            given: CellSet::EMPTY,
            candidates: *cands,
            digit_cells: [CellSet::EMPTY; 9],
        };
        for c in Cell::all() {
            for d in cands[c.index()].iter() {
                g.digit_cells[d.index()].insert(c);
            }
        }
        g
    }

    /// The digit in `cell`, if filled.
    pub fn value(&self, cell: Cell) -> Option<Digit> {
        Digit::new(self.values[cell.index()])
    }

    /// The 81 values row-major, 0 for empty.
    pub fn values(&self) -> [u8; 81] {
        self.values
    }

    /// Whether `cell` holds a given (a clue of the puzzle, not a deduction).
    pub fn is_given(&self, cell: Cell) -> bool {
        self.given.contains(cell)
    }

    /// The cells holding givens.
    pub fn givens(&self) -> CellSet {
        self.given
    }

    /// Marks `cell` as given (used by parsers after placing).
    pub fn mark_given(&mut self, cell: Cell) {
        if self.values[cell.index()] != 0 {
            self.given.insert(cell);
        }
    }

    /// The candidates of `cell` (empty for a filled cell).
    pub fn candidates(&self, cell: Cell) -> Candidates {
        self.candidates[cell.index()]
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has_candidate(&self, cell: Cell, digit: Digit) -> bool {
        self.candidates[cell.index()].contains(digit)
    }

    /// The empty cells where `digit` is still a candidate.
    pub fn digit_cells(&self, digit: Digit) -> CellSet {
        self.digit_cells[digit.index()]
    }

    /// The cells of `house` where `digit` is still a candidate.
    pub fn house_digit_cells(&self, house: House, digit: Digit) -> CellSet {
        self.digit_cells[digit.index()] & house.cell_set()
    }

    /// The empty cells.
    pub fn empty_cells(&self) -> CellSet {
        Cell::all()
            .filter(|&c| self.values[c.index()] == 0)
            .collect()
    }

    /// Number of filled cells.
    pub fn filled_count(&self) -> usize {
        self.values.iter().filter(|&&v| v != 0).count()
    }

    /// Whether `digit` is already placed somewhere in `house`.
    pub fn house_has_digit(&self, house: House, digit: Digit) -> bool {
        house
            .cells()
            .iter()
            .any(|c| self.values[c.index()] == digit.get())
    }

    /// Whether every cell is filled (it may still be wrong; see [`Grid::conflicts`]).
    pub fn is_complete(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Whether the grid is complete and no house repeats a digit.
    pub fn is_solved(&self) -> bool {
        self.is_complete() && self.conflicts().is_empty()
    }

    /// Places `digit` in `cell`: sets the value, clears the cell's candidates and removes `digit`
    /// from the candidates of its peers. Does not check legality.
    pub fn place(&mut self, cell: Cell, digit: Digit) {
        let i = cell.index();
        for d in self.candidates[i].iter() {
            self.digit_cells[d.index()].remove(cell);
        }
        self.values[i] = digit.get();
        self.candidates[i] = Candidates::NONE;
        for p in cell.peers().iter() {
            self.eliminate(p, digit);
        }
    }

    /// Removes candidate `digit` from `cell`; returns whether it was there.
    pub fn eliminate(&mut self, cell: Cell, digit: Digit) -> bool {
        let removed = self.candidates[cell.index()].remove(digit);
        if removed {
            self.digit_cells[digit.index()].remove(cell);
        }
        removed
    }

    /// Replaces the candidates of an empty `cell` (for editors and tests).
    pub fn set_candidates(&mut self, cell: Cell, cands: Candidates) {
        if self.values[cell.index()] != 0 {
            return;
        }
        for d in Digit::ALL {
            if cands.contains(d) {
                self.digit_cells[d.index()].insert(cell);
            } else {
                self.digit_cells[d.index()].remove(cell);
            }
        }
        self.candidates[cell.index()] = cands;
    }

    /// All pairs of filled cells that repeat a digit in a house, each pair once (see
    /// [`conflicts_of`]).
    pub fn conflicts(&self) -> Vec<Conflict> {
        conflicts_of(&self.values)
    }

    /// The puzzle as an 81-char line, `.` for empty cells (placed digits included).
    pub fn to_line(&self) -> String {
        format::values_line(&self.values, '.')
    }

    /// Only the givens as an 81-char line, `.` elsewhere.
    pub fn givens_line(&self) -> String {
        format::values_line(&self.given_values(), '.')
    }

    /// A grid holding only this grid's givens, with fresh candidates.
    pub fn givens_only(&self) -> Grid {
        Grid::from_values(&self.given_values())
    }

    /// The givens' values, 0 elsewhere.
    fn given_values(&self) -> [u8; 81] {
        let mut v = [0u8; 81];
        for c in self.given.iter() {
            v[c.index()] = self.values[c.index()];
        }
        v
    }

    /// The 729-char pencil-mark string (see [`format::pencil_marks`]): 9 chars per cell, the
    /// candidate digits in their slots or `.`; a filled cell shows its digit in its slot and
    /// the solved-cell marker `*` in the others.
    pub fn to_sukaku(&self) -> String {
        format::pencil_marks(self)
    }

    /// A 9-line board with box separators, `.` for empty cells (see [`format::boxed_board`]).
    pub fn to_pretty(&self) -> String {
        format::boxed_board(&self.values, |_| None)
    }
}

/// All pairs of cells of `values` (row-major, 0 empty, values above 9 ignored) that repeat a
/// digit in a house, each pair once, in house order. The one conflict check: the solver, the
/// parsers and the app's board all use it.
pub fn conflicts_of(values: &[u8; 81]) -> Vec<Conflict> {
    let mut out: Vec<Conflict> = Vec::new();
    for h in House::all() {
        let cells = h.cells();
        for (i, &a) in cells.iter().enumerate() {
            let va = values[a.index()];
            if !(1..=9).contains(&va) {
                continue;
            }
            for &b in &cells[i + 1..] {
                if values[b.index()] == va {
                    let (first, second) = if a < b { (a, b) } else { (b, a) };
                    if !out.iter().any(|c| c.first == first && c.second == second) {
                        out.push(Conflict {
                            digit: Digit::from_index(va as usize - 1),
                            first,
                            second,
                            house: h,
                        });
                    }
                }
            }
        }
    }
    out
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_updates_peers_and_digit_cells() {
        let mut g = Grid::empty();
        let d = Digit::new(5).unwrap();
        g.place(Cell::at(0, 0), d);
        assert_eq!(g.value(Cell::at(0, 0)), Some(d));
        assert!(!g.has_candidate(Cell::at(0, 8), d));
        assert!(g.has_candidate(Cell::at(4, 4), d));
        assert_eq!(g.digit_cells(d).len(), 81 - 21);
    }

    #[test]
    fn conflicts_found_once() {
        let mut v = [0u8; 81];
        v[0] = 3;
        v[1] = 3;
        let g = Grid::from_values(&v);
        let cs = g.conflicts();
        assert_eq!(cs.len(), 1);
        assert_eq!(cs[0].first, Cell::at(0, 0));
        assert_eq!(cs[0].second, Cell::at(0, 1));
    }
}
