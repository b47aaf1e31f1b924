//! The domain's value types: [`Digit`], [`Cell`], [`House`], [`Candidates`] and [`CellSet`],
//! plus the fixed geometry tables (houses of a cell, cells of a house, peers).
//!
//! Everything here is `Copy`, allocation-free and const-constructible; it owns no puzzle state
//! (that is [`crate::sudoku::Grid`]).

use std::fmt;

/// A Sudoku digit, 1 to 9.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digit(u8);

impl Digit {
    /// All nine digits in order.
    pub const ALL: [Digit; 9] = [
        Digit(1),
        Digit(2),
        Digit(3),
        Digit(4),
        Digit(5),
        Digit(6),
        Digit(7),
        Digit(8),
        Digit(9),
    ];

    /// The digit `n` if `1 <= n <= 9`.
    pub const fn new(n: u8) -> Option<Digit> {
        if n >= 1 && n <= 9 {
            Some(Digit(n))
        } else {
            None
        }
    }

    /// The digit with zero-based index `i` (0 → 1 … 8 → 9). Panics if `i > 8` (a programming
    /// error, never user input).
    pub const fn from_index(i: usize) -> Digit {
        assert!(i < 9, "digit index out of range");
        Digit(i as u8 + 1)
    }

    /// The digit's value, 1 to 9.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Zero-based index, 0 to 8.
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// The digit as its character `'1'..='9'`.
    pub const fn to_char(self) -> char {
        (b'0' + self.0) as char
    }
}

impl fmt::Debug for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One of the 81 cells, numbered row-major from 0 (`r1c1`) to 80 (`r9c9`). Printed `r{row}c{col}`
/// with one-based row and column.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

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

/// A set of candidate digits for one cell: bit `d-1` set means digit `d` is possible.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Candidates(u16);

impl Candidates {
    /// No digits.
    pub const NONE: Candidates = Candidates(0);
    /// All nine digits.
    pub const ALL: Candidates = Candidates(0x1ff);

    /// From a raw 9-bit mask (bit 0 = digit 1); higher bits are dropped.
    pub const fn from_bits(bits: u16) -> Candidates {
        Candidates(bits & 0x1ff)
    }

    /// The single digit `d`.
    pub const fn single(d: Digit) -> Candidates {
        Candidates(1 << d.index())
    }

    /// The raw 9-bit mask.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Number of digits in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `d` is in the set.
    pub const fn contains(self, d: Digit) -> bool {
        self.0 & (1 << d.index()) != 0
    }

    /// Adds `d`.
    pub fn insert(&mut self, d: Digit) {
        self.0 |= 1 << d.index();
    }

    /// Removes `d`; returns whether it was present.
    pub fn remove(&mut self, d: Digit) -> bool {
        let had = self.contains(d);
        self.0 &= !(1 << d.index());
        had
    }

    /// The only digit if the set has exactly one.
    pub fn single_digit(self) -> Option<Digit> {
        if self.len() == 1 {
            Some(Digit::from_index(self.0.trailing_zeros() as usize))
        } else {
            None
        }
    }

    /// The smallest digit in the set.
    pub fn first(self) -> Option<Digit> {
        if self.0 == 0 {
            None
        } else {
            Some(Digit::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// Digits in ascending order.
    pub fn iter(self) -> impl Iterator<Item = Digit> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(Digit::from_index(i))
            }
        })
    }
}

impl std::ops::BitOr for Candidates {
    type Output = Candidates;
    fn bitor(self, rhs: Candidates) -> Candidates {
        Candidates(self.0 | rhs.0)
    }
}
impl std::ops::BitAnd for Candidates {
    type Output = Candidates;
    fn bitand(self, rhs: Candidates) -> Candidates {
        Candidates(self.0 & rhs.0)
    }
}
impl std::ops::Not for Candidates {
    type Output = Candidates;
    fn not(self) -> Candidates {
        Candidates(!self.0 & 0x1ff)
    }
}
impl std::ops::BitOrAssign for Candidates {
    fn bitor_assign(&mut self, rhs: Candidates) {
        self.0 |= rhs.0;
    }
}
impl std::ops::BitAndAssign for Candidates {
    fn bitand_assign(&mut self, rhs: Candidates) {
        self.0 &= rhs.0;
    }
}
impl FromIterator<Digit> for Candidates {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> Candidates {
        let mut c = Candidates::NONE;
        for d in iter {
            c.insert(d);
        }
        c
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Printed as the digits run together, e.g. `{1,5,9}` prints `159`.
impl fmt::Display for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.iter() {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// A set of cells as an 81-bit mask (bit `i` = cell `i`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CellSet(u128);

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

const fn build_house_cells() -> [[Cell; 9]; 27] {
    let mut out = [[Cell(0); 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            out[i][j] = Cell((i * 9 + j) as u8);
            out[9 + i][j] = Cell((j * 9 + i) as u8);
            let r = (i / 3) * 3 + j / 3;
            let c = (i % 3) * 3 + j % 3;
            out[18 + i][j] = Cell((r * 9 + c) as u8);
            j += 1;
        }
        i += 1;
    }
    out
}

/// The nine cells of each house, indexed by [`House::index`].
pub static HOUSE_CELLS: [[Cell; 9]; 27] = build_house_cells();

const fn build_house_sets() -> [CellSet; 27] {
    let cells = build_house_cells();
    let mut out = [CellSet(0); 27];
    let mut h = 0;
    while h < 27 {
        let mut bits = 0u128;
        let mut j = 0;
        while j < 9 {
            bits |= 1u128 << cells[h][j].0;
            j += 1;
        }
        out[h] = CellSet(bits);
        h += 1;
    }
    out
}

/// Each house's cells as a set, indexed by [`House::index`].
pub static HOUSE_SETS: [CellSet; 27] = build_house_sets();

const fn build_peers() -> [CellSet; 81] {
    let sets = build_house_sets();
    let mut out = [CellSet(0); 81];
    let mut i = 0;
    while i < 81 {
        let r = i / 9;
        let c = i % 9;
        let b = (r / 3) * 3 + c / 3;
        let bits = sets[r].0 | sets[9 + c].0 | sets[18 + b].0;
        out[i] = CellSet(bits & !(1u128 << i));
        i += 1;
    }
    out
}

/// The 20 peers of each cell, indexed by [`Cell::index`].
pub static PEERS: [CellSet; 81] = build_peers();

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

    #[test]
    fn geometry_tables() {
        for c in Cell::all() {
            assert_eq!(c.peers().len(), 20);
            for h in c.houses() {
                assert!(h.cell_set().contains(c));
            }
        }
        for h in House::all() {
            assert_eq!(h.cell_set().len(), 9);
        }
        assert_eq!(House::boxed(4).cells()[0], Cell::at(3, 3));
        assert!(Cell::at(0, 0).sees(Cell::at(2, 2)));
        assert!(!Cell::at(0, 0).sees(Cell::at(3, 3)));
    }

    #[test]
    fn candidates_ops() {
        let c: Candidates = [Digit::ALL[0], Digit::ALL[4], Digit::ALL[8]]
            .into_iter()
            .collect();
        assert_eq!(c.to_string(), "159");
        assert_eq!(c.len(), 3);
        assert!(c.contains(Digit::ALL[4]));
        assert_eq!((!c).len(), 6);
    }

    #[test]
    fn common_peers_of_pair() {
        let s: CellSet = [Cell::at(0, 0), Cell::at(0, 8)].into_iter().collect();
        // Only the rest of row 1 sees both.
        assert_eq!(s.common_peers().len(), 7);
        assert_eq!(s.common_house(), Some(House::row(0)));
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

/// Serialized as its number 1–9.
impl serde::Serialize for Digit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Digit {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Digit, D::Error> {
        let n = u8::deserialize(d)?;
        Digit::new(n).ok_or_else(|| serde::de::Error::custom(format!("{n} is not a digit 1-9")))
    }
}

/// Serialized as its name, e.g. `"b5"`.
impl serde::Serialize for House {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod serde_tests {
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
