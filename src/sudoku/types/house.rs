//! [`House`], one of the 27 rows, columns and boxes, and its [`HouseKind`]: numbering, cells,
//! printing (`r3`, `c7`, `b5`) and its serde form (the name).
//!
//! It owns no geometry table: a house's cells are looked up in [`super::HOUSE_CELLS`] and
//! [`super::HOUSE_SETS`].

use std::fmt;

use super::{Cell, CellSet, HOUSE_CELLS, HOUSE_SETS};

/// Which kind of house.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum HouseKind {
    /// A row, printed `r`.
    Row,
    /// A column, printed `c`.
    Col,
    /// A 3×3 box, printed `b`.
    Box,
}

/// One of the 27 houses: rows 0–8, then columns (9–17), then boxes (18–26). Printed `r3`, `c7`,
/// `b5` with one-based numbers.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct House(u8);

impl House {
    /// The zero-based row `r` (0..9).
    pub const fn row(r: usize) -> House {
        assert!(r < 9);
        House(r as u8)
    }

    /// The zero-based column `c` (0..9).
    pub const fn col(c: usize) -> House {
        assert!(c < 9);
        House(9 + c as u8)
    }

    /// The zero-based box `b` (0..9), row-major.
    pub const fn boxed(b: usize) -> House {
        assert!(b < 9);
        House(18 + b as u8)
    }

    /// The house with index `i` (0..27); panics if out of range.
    pub const fn from_index(i: usize) -> House {
        assert!(i < 27);
        House(i as u8)
    }

    /// Index 0..27 (rows, columns, boxes).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row, column or box.
    pub const fn kind(self) -> HouseKind {
        match self.0 / 9 {
            0 => HouseKind::Row,
            1 => HouseKind::Col,
            _ => HouseKind::Box,
        }
    }

    /// Zero-based number within its kind (0..9).
    pub const fn number(self) -> usize {
        self.0 as usize % 9
    }

    /// The nine cells of the house, in reading order.
    pub const fn cells(self) -> [Cell; 9] {
        HOUSE_CELLS[self.0 as usize]
    }

    /// The house's cells as a set.
    pub fn cell_set(self) -> CellSet {
        HOUSE_SETS[self.0 as usize]
    }

    /// All 27 houses: rows, columns, boxes.
    pub fn all() -> impl Iterator<Item = House> {
        (0..27u8).map(House)
    }

    /// The nine houses of one kind.
    pub fn of_kind(kind: HouseKind) -> impl Iterator<Item = House> {
        let base = match kind {
            HouseKind::Row => 0,
            HouseKind::Col => 9,
            HouseKind::Box => 18,
        };
        (base..base + 9u8).map(House)
    }
}

impl fmt::Debug for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self.kind() {
            HouseKind::Row => 'r',
            HouseKind::Col => 'c',
            HouseKind::Box => 'b',
        };
        write!(f, "{}{}", c, self.number() + 1)
    }
}

/// Serialized as its name, e.g. `"b5"`.
impl serde::Serialize for House {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_and_house_printing() {
        assert_eq!(Cell::at(0, 0).to_string(), "r1c1");
        assert_eq!(Cell::at(8, 2).to_string(), "r9c3");
        assert_eq!(House::row(2).to_string(), "r3");
        assert_eq!(House::col(6).to_string(), "c7");
        assert_eq!(House::boxed(4).to_string(), "b5");
    }
}
