//! The fixed geometry tables, built at compile time: the cells of each house
//! ([`HOUSE_CELLS`]), the same as sets ([`HOUSE_SETS`]) and the peers of each cell ([`PEERS`]).
//!
//! It owns the tables only; the questions asked of them ([`Cell::peers`], [`House::cells`],
//! [`House::cell_set`]) are the types' own methods.
//!
//! [`House::cells`]: super::House::cells
//! [`House::cell_set`]: super::House::cell_set

use super::{Cell, CellSet};

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

/// The nine cells of each house, indexed by [`House::index`](super::House::index).
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

/// Each house's cells as a set, indexed by [`House::index`](super::House::index).
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
    use crate::sudoku::types::House;

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
}
