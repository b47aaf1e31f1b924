//! [`CellSet`], a set of cells as an 81-bit mask: membership, iteration, the set operators, and
//! the questions the techniques ask of a set (common peers, common house, rows, columns and
//! boxes touched).
//!
//! It owns no geometry table (those are [`super::HOUSE_SETS`] and [`super::PEERS`]) and prints
//! through [`crate::sudoku::notation`] rather than formatting cell names itself.

use std::fmt;

use super::{Cell, House};

/// A set of cells as an 81-bit mask (bit `i` = cell `i`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CellSet(pub(super) u128);

const CELL_MASK: u128 = (1u128 << 81) - 1;

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet(0);
    /// All 81 cells.
    pub const ALL: CellSet = CellSet(CELL_MASK);

    /// From a raw mask; bits above 80 are dropped.
    pub const fn from_bits(bits: u128) -> CellSet {
        CellSet(bits & CELL_MASK)
    }

    /// The raw mask.
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set holding only `c`.
    pub const fn single(c: Cell) -> CellSet {
        CellSet(1u128 << c.index())
    }

    /// Number of cells.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `c` is in the set.
    pub const fn contains(self, c: Cell) -> bool {
        self.0 & (1u128 << c.index()) != 0
    }

    /// Adds `c`.
    pub fn insert(&mut self, c: Cell) {
        self.0 |= 1u128 << c.index();
    }

    /// Removes `c`.
    pub fn remove(&mut self, c: Cell) {
        self.0 &= !(1u128 << c.index());
    }

    /// The lowest-numbered cell.
    pub fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell(self.0.trailing_zeros() as u8))
        }
    }

    /// Whether every cell of `self` is in `other`.
    pub const fn is_subset(self, other: CellSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// Cells in row-major order.
    pub fn iter(self) -> impl Iterator<Item = Cell> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(Cell(i))
            }
        })
    }

    /// Cells seen by every cell of the set (their common peers), excluding the set itself.
    pub fn common_peers(self) -> CellSet {
        let mut acc = CellSet::ALL;
        for c in self.iter() {
            acc &= c.peers();
        }
        acc & !self
    }

    /// A house that contains every cell of the set, if any (rows, then columns, then boxes).
    pub fn common_house(self) -> Option<House> {
        if self.is_empty() {
            return None;
        }
        House::all().find(|h| self.is_subset(h.cell_set()))
    }

    /// Rows (as a 9-bit mask, bit r) touched by the set.
    pub fn rows_mask(self) -> u16 {
        self.iter().fold(0, |m, c| m | 1 << c.row())
    }

    /// Columns (as a 9-bit mask, bit c) touched by the set.
    pub fn cols_mask(self) -> u16 {
        self.iter().fold(0, |m, c| m | 1 << c.col())
    }

    /// Boxes (as a 9-bit mask, bit b) touched by the set.
    pub fn boxes_mask(self) -> u16 {
        self.iter().fold(0, |m, c| m | 1 << c.box_index())
    }
}

impl std::ops::BitOr for CellSet {
    type Output = CellSet;
    fn bitor(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 | rhs.0)
    }
}
impl std::ops::BitAnd for CellSet {
    type Output = CellSet;
    fn bitand(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 & rhs.0)
    }
}
impl std::ops::Not for CellSet {
    type Output = CellSet;
    fn not(self) -> CellSet {
        CellSet(!self.0 & CELL_MASK)
    }
}
impl std::ops::BitOrAssign for CellSet {
    fn bitor_assign(&mut self, rhs: CellSet) {
        self.0 |= rhs.0;
    }
}
impl std::ops::BitAndAssign for CellSet {
    fn bitand_assign(&mut self, rhs: CellSet) {
        self.0 &= rhs.0;
    }
}
impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        let mut s = CellSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}
impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::sudoku::notation::compact_cells(self.iter()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_peers_of_pair() {
        let s: CellSet = [Cell::at(0, 0), Cell::at(0, 8)].into_iter().collect();
        // Only the rest of row 1 sees both.
        assert_eq!(s.common_peers().len(), 7);
        assert_eq!(s.common_house(), Some(House::row(0)));
    }
}
