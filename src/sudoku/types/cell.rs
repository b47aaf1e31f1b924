//! [`Cell`], one of the 81 cells: its row, column and box, its houses and peers, its name
//! (`r1c2`, printed and parsed, with [`CellNameError`]) and its serde form (the name).
//!
//! It owns no set of cells (that is [`super::CellSet`]) and no geometry table: peers are looked
//! up in [`super::PEERS`].

use std::fmt;

use super::{CellSet, House, PEERS};

/// One of the 81 cells, numbered row-major from 0 (`r1c1`) to 80 (`r9c9`). Printed `r{row}c{col}`
/// with one-based row and column.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(pub(super) u8);

impl Cell {
    /// The cell with row-major index `i` if `i < 81`.
    pub const fn new(i: usize) -> Option<Cell> {
        if i < 81 { Some(Cell(i as u8)) } else { None }
    }

    /// The cell with row-major index `i`; panics if `i >= 81` (a programming error).
    pub const fn from_index(i: usize) -> Cell {
        assert!(i < 81, "cell index out of range");
        Cell(i as u8)
    }

    /// The cell at zero-based `row` and `col` (each 0..9); panics if out of range.
    pub const fn at(row: usize, col: usize) -> Cell {
        assert!(row < 9 && col < 9, "row/col out of range");
        Cell((row * 9 + col) as u8)
    }

    /// Row-major index, 0 to 80.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Zero-based row, 0 to 8.
    pub const fn row(self) -> usize {
        self.0 as usize / 9
    }

    /// Zero-based column, 0 to 8.
    pub const fn col(self) -> usize {
        self.0 as usize % 9
    }

    /// Zero-based box, 0 (top-left) to 8 (bottom-right), row-major.
    pub const fn box_index(self) -> usize {
        (self.row() / 3) * 3 + self.col() / 3
    }

    /// The cell's row, column and box houses.
    pub const fn houses(self) -> [House; 3] {
        [
            House::row(self.row()),
            House::col(self.col()),
            House::boxed(self.box_index()),
        ]
    }

    /// The 20 cells that share a house with this one (the cell itself excluded).
    pub fn peers(self) -> CellSet {
        PEERS[self.index()]
    }

    /// Whether `other` shares a house with this cell (a cell does not see itself).
    pub fn sees(self, other: Cell) -> bool {
        PEERS[self.index()].contains(other)
    }

    /// All 81 cells in row-major order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..81u8).map(Cell)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// Why a cell name could not be read.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[error("{0:?} is not a cell name (expected r1c1 … r9c9)")]
pub struct CellNameError(pub String);

/// Parses `r{row}c{col}` with one-based row and column (case-insensitive).
impl std::str::FromStr for Cell {
    type Err = CellNameError;
    fn from_str(s: &str) -> Result<Cell, CellNameError> {
        let b = s.trim().as_bytes();
        let ok = b.len() == 4
            && b[0].eq_ignore_ascii_case(&b'r')
            && b[2].eq_ignore_ascii_case(&b'c')
            && (b'1'..=b'9').contains(&b[1])
            && (b'1'..=b'9').contains(&b[3]);
        if ok {
            Ok(Cell::at((b[1] - b'1') as usize, (b[3] - b'1') as usize))
        } else {
            Err(CellNameError(s.to_string()))
        }
    }
}

/// Serialized as its name, e.g. `"r1c2"`.
impl serde::Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Cell {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_round_trip() {
        for c in Cell::all() {
            assert_eq!(c.to_string().parse::<Cell>(), Ok(c));
        }
        assert!("r0c1".parse::<Cell>().is_err());
        assert!("r1c10".parse::<Cell>().is_err());
        let json = serde_json::to_string(&Cell::at(0, 1)).unwrap();
        assert_eq!(json, "\"r1c2\"");
        let back: Cell = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Cell::at(0, 1));
    }
}
