//! The covering bound of the Franken/Mutant fish search (a child module of `franken_fish`):
//! how many of a set of cells are pairwise apart — sharing no house a cover may still be — so
//! that many covers at least are needed to take them all in. It knows cells and houses only,
//! nothing of fish or steps. Also the house-index bookkeeping the search shares: which kinds
//! of house a set holds, which houses are closed to covers.

use super::super::super::types::{Cell, CellSet};

/// The cells of the houses that may still be covers, one mask per kind of house: a cell
/// reaches, through its open houses, the cells of its row within `rows`, of its column within
/// `cols` and of its box within `boxes`.
#[derive(Clone, Copy)]
pub(super) struct OpenHouses {
    rows: u128,
    cols: u128,
    boxes: u128,
}

impl OpenHouses {
    /// Every house open.
    pub(super) const ALL: OpenHouses = OpenHouses {
        rows: KIND_UNION[0][0x1ff],
        cols: KIND_UNION[1][0x1ff],
        boxes: KIND_UNION[2][0x1ff],
    };

    /// The houses outside `closed` (bit `h` for house index `h`: rows, columns, boxes).
    pub(super) fn outside(closed: u32) -> OpenHouses {
        let open = !closed;
        OpenHouses {
            rows: KIND_UNION[0][(open & 0x1ff) as usize],
            cols: KIND_UNION[1][(open >> 9 & 0x1ff) as usize],
            boxes: KIND_UNION[2][(open >> 18 & 0x1ff) as usize],
        }
    }
}

/// Whether `cells` has no more than `n` cells pairwise apart: sharing no house of `open`,
/// found greedily (lowest cell first). A `false` is exact when the cells are to be covered by
/// houses of `open`: each such house holds at most one of those cells, so they need `n + 1`
/// houses.
pub(super) fn apart_at_most(cells: CellSet, n: usize, open: &OpenHouses) -> bool {
    let mut rest = cells.bits();
    let mut apart = 0;
    while rest != 0 {
        apart += 1;
        if apart > n {
            return false;
        }
        let i = rest.trailing_zeros() as usize;
        let Some([row, col, bx]) = HOUSE_CELLS.get(i) else {
            return false;
        };
        let reach = (row & open.rows) | (col & open.cols) | (bx & open.boxes);
        // `i` is the lowest cell: clearing the lowest bit removes it.
        rest &= (rest - 1) & !reach;
    }
    true
}

/// Per cell index, the cells of its row, its column and its box.
static HOUSE_CELLS: [[u128; 3]; 81] = {
    let mut t = [[0; 3]; 81];
    let mut i = 0;
    while i < 81 {
        let mut j = 0;
        while j < 81 {
            let (a, b) = (Cell::from_index(i).houses(), Cell::from_index(j).houses());
            let mut k = 0;
            while k < 3 {
                if a[k].index() == b[k].index() {
                    t[i][k] |= 1 << j;
                }
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// Per kind of house (rows, columns, boxes) and set of houses of that kind (bit per house),
/// the cells of those houses.
static KIND_UNION: [[u128; 512]; 3] = {
    // The cells of each house, by house index.
    let mut house = [0u128; 27];
    let mut i = 0;
    while i < 81 {
        let hs = Cell::from_index(i).houses();
        let mut k = 0;
        while k < 3 {
            house[hs[k].index()] |= 1 << i;
            k += 1;
        }
        i += 1;
    }
    let mut t = [[0u128; 512]; 3];
    let mut kind = 0;
    while kind < 3 {
        let mut m = 1;
        while m < 512 {
            let low = (m as u32).trailing_zeros() as usize;
            t[kind][m] = t[kind][m & (m - 1)] | house[9 * kind + low];
            m += 1;
        }
        kind += 1;
    }
    t
};

/// The kinds of house among the houses `ids`: bit 0 rows, bit 1 columns, bit 2 boxes (house
/// indexes run rows, columns, boxes, nine each).
pub(super) fn kind_bits(ids: &[usize]) -> u8 {
    ids.iter().fold(0, |k, &h| k | 1 << (h / 9))
}

/// The houses that cannot cover a fish on the bases `base` with covers of `cover_kinds`: the
/// bases themselves and the houses of the other kinds (bit `h` for house index `h`).
pub(super) fn closed_houses(base: &[usize], cover_kinds: &[bool; 3]) -> u32 {
    let kinds = (0..3)
        .filter(|&k| !cover_kinds[k])
        .fold(0u32, |m, k| m | 0x1ff << (9 * k));
    base.iter().fold(kinds, |m, &h| m | 1 << h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The bound as first written: each cell's open houses looked up by house index.
    fn apart_by_index(cells: CellSet, n: usize, closed: u32) -> bool {
        let mut rest = cells.bits();
        let mut apart = 0;
        while rest != 0 {
            apart += 1;
            if apart > n {
                return false;
            }
            let i = rest.trailing_zeros() as usize;
            let mut reach = 0u128;
            for h in Cell::from_index(i).houses() {
                if closed >> h.index() & 1 == 0 {
                    reach |= h.cells().into_iter().collect::<CellSet>().bits();
                }
            }
            rest &= (rest - 1) & !reach;
        }
        true
    }

    #[test]
    fn a_row_of_cells_is_one_apart_unless_rows_are_closed() {
        let row: CellSet = (0..9).map(Cell::from_index).collect();
        assert!(apart_at_most(row, 1, &OpenHouses::ALL));
        // Rows closed: the nine cells of row 1 sit in three boxes and nine columns; boxes
        // take three each, so greedily three are apart.
        let rows_closed = OpenHouses::outside(0x1ff);
        assert!(!apart_at_most(row, 2, &rows_closed));
        assert!(apart_at_most(row, 3, &rows_closed));
        // Everything closed: all nine apart.
        let none = OpenHouses::outside(u32::MAX);
        assert!(!apart_at_most(row, 8, &none));
        assert!(apart_at_most(row, 9, &none));
    }

    proptest! {
        #[test]
        fn masks_agree_with_house_lookup(
            bits in any::<[u128; 3]>(),
            closed in any::<u32>(),
            n in 0usize..8,
        ) {
            // About ten cells: sets both within and beyond the bound.
            let cells = CellSet::from_bits(bits[0] & bits[1] & bits[2] & ((1u128 << 81) - 1));
            let closed = closed & ((1 << 27) - 1);
            prop_assert_eq!(
                apart_at_most(cells, n, &OpenHouses::outside(closed)),
                apart_by_index(cells, n, closed)
            );
        }
    }
}
