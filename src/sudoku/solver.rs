//! The exact solver: finds solutions by constraint propagation and search, counts them up to a
//! limit (used for uniqueness everywhere), and never explains anything.
//!
//! Works on candidate masks, so it honours pencil-mark (Sukaku) puzzles and positions part-way
//! through an explained solve. It owns no notion of techniques, steps or ratings.
//!
//! # Design
//!
//! A band-oriented bitboard solver in the spirit of the fast JCZ/fsss family (written from the
//! published ideas, not from their code). The grid is three *bands* of three rows; for every
//! digit and band one `u32` holds the 27 cells of that band where the digit is still possible
//! (bit `9 * row_in_band + col`). Propagation works one such *subband* at a time:
//!
//! * the 3×3 *minirow* matrix (row of the band × box of the band) must hold a permutation, so
//!   a lookup table keeps only minirows that belong to some permutation — this is pointing and
//!   claiming (locked candidates) inside the band, and it also enforces "once per row and box";
//! * a box of the band whose digit is confined to one column claims that column, which is
//!   removed from the digit's two other bands;
//! * a row of the band with one cell left is a placed digit: the cell is removed from the eight
//!   other digits (this covers hidden singles in rows and boxes).
//!
//! Between propagation rounds a bit-sliced count over the nine digits of a band finds naked
//! singles, empty cells and bivalue cells; when nothing moves, hidden singles in columns are
//! looked for; only then does the search guess, on a bivalue cell when there is one, trying
//! each digit on a copy of the whole state (240 bytes, on the stack — no allocation anywhere).

use super::grid::Grid;
use super::types::{Cell, Digit};

/// What the exact solver found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Solutions {
    /// Number of solutions found, capped at the requested limit.
    pub count: usize,
    /// The first solution found (row-major digits 1–9), if any.
    pub first: Option<[u8; 81]>,
}

impl Solutions {
    /// Exactly one solution.
    pub fn is_unique(&self) -> bool {
        self.count == 1
    }
}

/// Searches `grid` for up to `limit` solutions (`limit` 0 is treated as 1).
///
/// Filled cells count as fixed digits; empty cells are limited to their candidates (a cell with
/// no candidate makes the grid unsolvable).
pub fn solve_up_to(grid: &Grid, limit: usize) -> Solutions {
    let mut masks = [0u16; 81];
    for c in Cell::all() {
        masks[c.index()] = match grid.value(c) {
            Some(d) => 1 << d.index(),
            None => grid.candidates(c).bits(),
        };
    }
    solve_candidates(&masks, limit)
}

/// The first solution of `grid`, if it has one.
pub fn solve(grid: &Grid) -> Option<[u8; 81]> {
    solve_up_to(grid, 1).first
}

/// Number of solutions of `grid`, stopping at `limit`.
pub fn count_solutions(grid: &Grid, limit: usize) -> usize {
    solve_up_to(grid, limit).count
}

/// Solves from 81 values (0 = empty, anything outside 1–9 is treated as empty), up to `limit`
/// solutions (`limit` 0 is treated as 1).
pub fn solve_values(values: &[u8; 81], limit: usize) -> Solutions {
    run(Board::from_values(values), limit, true)
}

/// Counts the solutions of 81 values (0 = empty), stopping at `limit` (0 is treated as 1).
///
/// The fastest entry point: it neither converts through [`Grid`] nor extracts a solution.
pub fn count_values(values: &[u8; 81], limit: usize) -> usize {
    run(Board::from_values(values), limit, false).count
}

/// Solves a pencil-mark position given as 81 candidate masks (bit `d - 1` = digit `d`
/// possible; a single bit is a fixed digit), up to `limit` solutions (0 is treated as 1).
pub fn solve_candidates(masks: &[u16; 81], limit: usize) -> Solutions {
    run(Board::from_masks(masks), limit, true)
}

/// Counts the solutions of an 81-character puzzle line (`1`–`9` digits, `.` or `0` empty;
/// anything after the 81st character is ignored), stopping at `limit`. `None` if the line is
/// too short or holds another character.
pub fn count_line(line: &str, limit: usize) -> Option<usize> {
    let bytes = line.as_bytes().get(..81)?;
    let mut values = [0u8; 81];
    for (v, &ch) in values.iter_mut().zip(bytes) {
        *v = match ch {
            b'.' | b'0' => 0,
            b'1'..=b'9' => ch - b'0',
            _ => return None,
        };
    }
    Some(count_values(&values, limit))
}

/// The digit of `cell` in `solution`.
pub fn solution_digit(solution: &[u8; 81], cell: Cell) -> Option<Digit> {
    Digit::new(solution[cell.index()])
}

fn run(board: Option<Board>, limit: usize, want_first: bool) -> Solutions {
    let mut ctx = Ctx {
        count: 0,
        limit: limit.max(1),
        first: None,
        want_first,
    };
    if let Some(mut board) = board {
        board.search(&mut ctx);
    }
    Solutions {
        count: ctx.count,
        first: ctx.first,
    }
}

// ---------------------------------------------------------------------------------------------
// Tables. Cell position inside a band: p = 9 * row_in_band + col (0..27). Minirow index inside a
// band: 3 * row_in_band + box_in_band (0..9).

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// Column 0 of a band (bits 0, 9, 18); shift left by the column.
const COL0: u32 = 1 | 1 << 9 | 1 << 18;
/// Box 0 of a band; shift left by 3 × box.
const BOX0: u32 = 0o007_007_007;

/// For a digit placed at band position `p`: the band's cells that are *not* its row or box peers
/// (the cell itself kept). Indexed by `p & 31` so the index needs no bounds check.
static BAND_KEEP: [u32; 32] = build_band_keep();

const fn build_band_keep() -> [u32; 32] {
    let mut out = [BAND; 32];
    let mut p = 0;
    while p < 27 {
        let row = p / 9;
        let bx = (p % 9) / 3;
        let peers = (0x1ff << (9 * row)) | (BOX0 << (3 * bx));
        out[p] = (BAND & !peers) | (1 << p);
        p += 1;
    }
    out
}

/// Row of the band (9 bits) → which of its three minirows are non-empty (3 bits).
static SHRINK: [u32; 512] = build_shrink();

const fn build_shrink() -> [u32; 512] {
    let mut out = [0u32; 512];
    let mut r = 0;
    while r < 512 {
        let mut s = 0;
        if r & 0o007 != 0 {
            s |= 1;
        }
        if r & 0o070 != 0 {
            s |= 2;
        }
        if r & 0o700 != 0 {
            s |= 4;
        }
        out[r] = s;
        r += 1;
    }
    out
}

/// Minirow mask (9 bits) → the cells of the minirows that take part in at least one way of
/// putting the digit once in each row and each box of the band (0: no way at all).
static PERM_KEEP: [u32; 512] = build_perm_keep();

const fn build_perm_keep() -> [u32; 512] {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut minirows = 0usize;
        let mut i = 0;
        while i < 6 {
            let p = PERMS[i];
            let bits = (1 << p[0]) | (1 << (3 + p[1])) | (1 << (6 + p[2]));
            if m & bits == bits {
                minirows |= bits;
            }
            i += 1;
        }
        let mut cells = 0u32;
        let mut k = 0;
        while k < 9 {
            if minirows & (1 << k) != 0 {
                cells |= 0b111 << ((k / 3) * 9 + (k % 3) * 3);
            }
            k += 1;
        }
        out[m] = cells;
        m += 1;
    }
    out
}

/// Columns where a band may hold the digit (9 bits) → the mask to keep in the digit's two other
/// bands: a box of the band with one column left claims that column.
static COL_KEEP: [u32; 512] = build_col_keep();

const fn build_col_keep() -> [u32; 512] {
    let mut out = [0u32; 512];
    let mut c = 0;
    while c < 512 {
        let mut claimed = 0u32;
        let mut k = 0;
        while k < 3 {
            let t = (c >> (3 * k)) & 7;
            if t == 1 || t == 2 || t == 4 {
                claimed |= (t as u32) << (3 * k);
            }
            k += 1;
        }
        out[c] = BAND & !(claimed | claimed << 9 | claimed << 18);
        c += 1;
    }
    out
}

/// The row (9 bits) itself when it holds a single cell, otherwise 0.
#[inline(always)]
fn single_or_zero(row: u32) -> u32 {
    if row & row.wrapping_sub(1) == 0 {
        row
    } else {
        0
    }
}

// ---------------------------------------------------------------------------------------------

/// The search's bookkeeping, shared by every branch.
struct Ctx {
    count: usize,
    limit: usize,
    first: Option<[u8; 81]>,
    want_first: bool,
}

/// The whole solver state; copied for each guess.
#[derive(Clone, Copy)]
struct Board {
    /// Possible cells, indexed `3 * digit_index + band`.
    cand: [u32; 27],
    /// The value of `cand` when that subband was last propagated.
    prev: [u32; 27],
    /// Cells of each band not yet known to hold a digit.
    unsolved: [u32; 3],
    /// Cells of each band with exactly two candidates (valid after `naked_singles`).
    pairs: [u32; 3],
}

impl Board {
    fn empty() -> Board {
        Board {
            cand: [BAND; 27],
            // Never equal to a 27-bit mask: every subband is propagated at least once.
            prev: [u32::MAX; 27],
            unsolved: [BAND; 3],
            pairs: [0; 3],
        }
    }

    fn from_values(values: &[u8; 81]) -> Option<Board> {
        let mut b = Board::empty();
        for (cell, &v) in values.iter().enumerate() {
            if (1..=9).contains(&v) && !b.assign(cell, usize::from(v - 1)) {
                return None;
            }
        }
        Some(b)
    }

    fn from_masks(masks: &[u16; 81]) -> Option<Board> {
        let mut b = Board::empty();
        b.cand = [0; 27];
        for (cell, &m) in masks.iter().enumerate() {
            let band = cell / 27;
            let bit = 1u32 << (cell % 27);
            for d in 0..9 {
                if m & (1 << d) != 0 {
                    b.cand[d * 3 + band] |= bit;
                }
            }
        }
        for (cell, &m) in masks.iter().enumerate() {
            let m = m & 0x1ff;
            if m == 0 {
                return None;
            }
            if m.count_ones() == 1 && !b.assign(cell, m.trailing_zeros() as usize) {
                return None;
            }
        }
        Some(b)
    }

    /// Fixes digit index `d` in `cell` (0..81) and removes it from all peers in every band.
    /// False if the digit is no longer possible there.
    fn assign(&mut self, cell: usize, d: usize) -> bool {
        let band = cell / 27;
        let p = cell % 27;
        let bit = 1u32 << p;
        let sb = d * 3 + band;
        if self.cand[sb] & bit == 0 {
            return false;
        }
        for other in 0..9 {
            self.cand[other * 3 + band] &= !bit;
        }
        self.cand[sb] = (self.cand[sb] & BAND_KEEP[p & 31]) | bit;
        let col_keep = BAND & !(COL0 << (p % 9));
        for ob in 0..3 {
            if ob != band {
                self.cand[d * 3 + ob] &= col_keep;
            }
        }
        self.unsolved[band] &= !bit;
        true
    }

    /// Places digit index `d` at band position `p` of `band` during the search: clears the
    /// digit's row and box peers in the band; propagation does the rest.
    #[inline(always)]
    fn place(&mut self, d: usize, band: usize, p: u32) {
        let sb = d * 3 + band;
        self.cand[sb] &= BAND_KEEP[(p & 31) as usize];
        self.prev[sb] = u32::MAX;
    }

    /// Propagates one subband (see the module doc). False on contradiction.
    #[inline(always)]
    fn update_subband(&mut self, d: usize, band: usize) -> bool {
        let sb = d * 3 + band;
        let x = self.cand[sb];
        let minirows = (SHRINK[(x & 0x1ff) as usize]
            | SHRINK[((x >> 9) & 0x1ff) as usize] << 3
            | SHRINK[((x >> 18) & 0x1ff) as usize] << 6)
            & 0x1ff;
        let y = x & PERM_KEEP[minirows as usize];
        if y == 0 {
            return false;
        }
        let cols = (y | y >> 9 | y >> 18) & 0x1ff;
        let keep = COL_KEEP[cols as usize];
        self.cand[d * 3 + (band + 1) % 3] &= keep;
        self.cand[d * 3 + (band + 2) % 3] &= keep;
        let solved = single_or_zero(y & 0x1ff)
            | single_or_zero((y >> 9) & 0x1ff) << 9
            | single_or_zero((y >> 18) & 0x1ff) << 18;
        let clear = !solved;
        for other in 0..9 {
            self.cand[other * 3 + band] &= clear;
        }
        self.cand[sb] = y;
        self.prev[sb] = y;
        self.unsolved[band] &= clear;
        true
    }

    /// Propagates every changed subband until nothing changes. False on contradiction.
    fn propagate(&mut self) -> bool {
        macro_rules! step {
            ($changed:ident; $($d:literal)*) => {$(
                if self.cand[$d * 3] != self.prev[$d * 3] {
                    $changed = true;
                    if !self.update_subband($d, 0) {
                        return false;
                    }
                }
                if self.cand[$d * 3 + 1] != self.prev[$d * 3 + 1] {
                    $changed = true;
                    if !self.update_subband($d, 1) {
                        return false;
                    }
                }
                if self.cand[$d * 3 + 2] != self.prev[$d * 3 + 2] {
                    $changed = true;
                    if !self.update_subband($d, 2) {
                        return false;
                    }
                }
            )*};
        }
        loop {
            let mut changed = false;
            step!(changed; 0 1 2 3 4 5 6 7 8);
            if !changed {
                return true;
            }
        }
    }

    /// Places naked singles and records bivalue cells. `None` on an empty cell, otherwise
    /// whether anything was placed.
    fn naked_singles(&mut self) -> Option<bool> {
        let mut placed = false;
        for band in 0..3 {
            let mut c1 = 0u32;
            let mut c2 = 0u32;
            let mut c3 = 0u32;
            for d in 0..9 {
                let x = self.cand[d * 3 + band];
                c3 |= c2 & x;
                c2 |= c1 & x;
                c1 |= x;
            }
            if c1 != BAND {
                return None;
            }
            self.pairs[band] = c2 & !c3;
            let mut singles = c1 & !c2 & self.unsolved[band];
            while singles != 0 {
                let p = singles.trailing_zeros();
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                let d = (0..9).find(|&d| self.cand[d * 3 + band] & bit != 0)?;
                self.place(d, band, p);
                placed = true;
            }
        }
        Some(placed)
    }

    /// Places hidden singles in columns (rows and boxes are covered by propagation). `None`
    /// when a column has lost the digit entirely, otherwise whether anything was placed.
    fn column_singles(&mut self) -> Option<bool> {
        let mut placed = false;
        for d in 0..9 {
            let mut once = 0u32;
            let mut twice = 0u32;
            for band in 0..3 {
                let x = self.cand[d * 3 + band];
                for row in [x & 0x1ff, (x >> 9) & 0x1ff, (x >> 18) & 0x1ff] {
                    twice |= once & row;
                    once |= row;
                }
            }
            if once != 0x1ff {
                return None;
            }
            let single_cols = once & !twice;
            if single_cols == 0 {
                continue;
            }
            let cells = single_cols * COL0;
            for band in 0..3 {
                let mut hits = self.cand[d * 3 + band] & cells & self.unsolved[band];
                while hits != 0 {
                    let p = hits.trailing_zeros();
                    let bit = hits & hits.wrapping_neg();
                    hits ^= bit;
                    if self.cand[d * 3 + band] & bit == 0 {
                        // An earlier placement in this band removed the column's only cell.
                        return None;
                    }
                    self.place(d, band, p);
                    placed = true;
                }
            }
        }
        Some(placed)
    }

    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    fn extract(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for d in 0..9 {
            for band in 0..3 {
                let mut x = self.cand[d * 3 + band];
                while x != 0 {
                    let p = x.trailing_zeros() as usize;
                    x &= x - 1;
                    if let Some(v) = out.get_mut(band * 27 + p) {
                        *v = d as u8 + 1;
                    }
                }
            }
        }
        out
    }

    /// Propagates, then guesses recursively, reporting solutions to `ctx`.
    fn search(&mut self, ctx: &mut Ctx) {
        loop {
            if !self.propagate() {
                return;
            }
            if self.is_solved() {
                ctx.count += 1;
                if ctx.want_first && ctx.first.is_none() {
                    ctx.first = Some(self.extract());
                }
                return;
            }
            match self.naked_singles() {
                None => return,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.column_singles() {
                None => return,
                Some(true) => continue,
                Some(false) => break,
            }
        }
        self.guess(ctx);
    }

    fn guess(&mut self, ctx: &mut Ctx) {
        // A bivalue cell: try its first digit on a copy, its second in place.
        for band in 0..3 {
            let pairs = self.pairs[band];
            if pairs == 0 {
                continue;
            }
            let p = pairs.trailing_zeros();
            let bit = pairs & pairs.wrapping_neg();
            let mut first = true;
            for d in 0..9 {
                if self.cand[d * 3 + band] & bit == 0 {
                    continue;
                }
                if first {
                    first = false;
                    let mut copy = *self;
                    copy.place(d, band, p);
                    copy.search(ctx);
                    if ctx.count >= ctx.limit {
                        return;
                    }
                } else {
                    self.place(d, band, p);
                    self.search(ctx);
                    return;
                }
            }
            return;
        }
        // No bivalue cell: the first unsolved cell with three candidates, else any unsolved one.
        let mut choice = None;
        for band in 0..3 {
            let (mut c1, mut c2, mut c3, mut c4) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[d * 3 + band];
                c4 |= c3 & x;
                c3 |= c2 & x;
                c2 |= c1 & x;
                c1 |= x;
            }
            let three = c3 & !c4 & self.unsolved[band];
            if three != 0 {
                choice = Some((band, three));
                break;
            }
            if choice.is_none() && self.unsolved[band] != 0 {
                choice = Some((band, self.unsolved[band]));
            }
        }
        let Some((band, cells)) = choice else {
            return;
        };
        let p = cells.trailing_zeros();
        let bit = cells & cells.wrapping_neg();
        let mut remaining = (0..9)
            .filter(|&d| self.cand[d * 3 + band] & bit != 0)
            .count();
        for d in 0..9 {
            if self.cand[d * 3 + band] & bit == 0 {
                continue;
            }
            remaining -= 1;
            if remaining == 0 {
                self.place(d, band, p);
                self.search(ctx);
                return;
            }
            let mut copy = *self;
            copy.place(d, band, p);
            copy.search(ctx);
            if ctx.count >= ctx.limit {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::parse::parse_puzzle;
    use crate::sudoku::types::{Candidates, House};

    const SEVENTEEN: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn assert_valid_solution(puzzle: &[u8; 81], sol: &[u8; 81]) {
        for h in House::all() {
            let mut seen = 0u16;
            for c in h.cells() {
                let v = sol[c.index()];
                assert!((1..=9).contains(&v));
                seen |= 1 << v;
            }
            assert_eq!(seen, 0x3fe, "house {h} repeats a digit");
        }
        for i in 0..81 {
            if puzzle[i] != 0 {
                assert_eq!(puzzle[i], sol[i], "given changed at {i}");
            }
        }
    }

    #[test]
    fn solves_17_clue() {
        let g = parse_puzzle(SEVENTEEN).unwrap();
        let s = solve_up_to(&g, 2);
        assert_eq!(s.count, 1);
        let sol = s.first.unwrap();
        assert_valid_solution(&g.values(), &sol);
        assert!(Grid::from_values(&sol).is_solved());
        assert_eq!(count_line(SEVENTEEN, 2), Some(1));
        assert_eq!(count_values(&g.values(), 2), 1);
    }

    #[test]
    fn empty_grid_has_many() {
        assert_eq!(count_solutions(&Grid::empty(), 5), 5);
        let s = solve_values(&[0; 81], 1);
        assert_eq!(s.count, 1);
        assert_valid_solution(&[0; 81], &s.first.unwrap());
    }

    #[test]
    fn contradiction_has_none() {
        let mut v = [0u8; 81];
        v[0] = 1;
        v[10] = 1; // same box
        assert_eq!(solve_values(&v, 2).count, 0);
        let mut v = [0u8; 81];
        v[0] = 1;
        v[72] = 1; // same column, other band
        assert_eq!(solve_values(&v, 2), Solutions { count: 0, first: None });
    }

    #[test]
    fn hidden_contradiction_has_none() {
        // r1c1..r1c8 hold 1..8 and column 9 already has a 9: r1c9 has no candidate.
        let mut v = [0u8; 81];
        for (i, d) in (1..=8).enumerate() {
            v[i] = d;
        }
        v[80] = 9;
        assert_eq!(count_values(&v, 2), 0);
    }

    #[test]
    fn limit_zero_is_one() {
        assert_eq!(count_values(&[0; 81], 0), 1);
    }

    #[test]
    fn sukaku_masks_are_honoured() {
        let g = parse_puzzle(SEVENTEEN).unwrap();
        let sol = solve(&g).unwrap();
        // Every empty cell gets its solution digit plus one wrong digit: still unique, same answer.
        let mut masks = [0u16; 81];
        for i in 0..81 {
            let right = 1u16 << (sol[i] - 1);
            masks[i] = if g.values()[i] != 0 {
                right
            } else {
                right | 1 << (sol[i] % 9)
            };
        }
        let s = solve_candidates(&masks, 2);
        assert_eq!(s.count, 1);
        assert_eq!(s.first, Some(sol));
        // Removing the right digit from one cell leaves no solution.
        masks[1] &= !(1 << (sol[1] - 1));
        assert_eq!(solve_candidates(&masks, 2).count, 0);
        // The same through a Grid with pencil marks.
        let mut grid = Grid::empty();
        for c in Cell::all() {
            grid.set_candidates(c, Candidates::from_bits(masks[c.index()]));
        }
        assert_eq!(count_solutions(&grid, 2), 0);
    }

    #[test]
    fn sukaku_all_candidates_counts_many() {
        let masks = [0x1ffu16; 81];
        assert_eq!(solve_candidates(&masks, 3).count, 3);
        let mut masks = masks;
        masks[40] = 0;
        assert_eq!(solve_candidates(&masks, 3).count, 0);
    }

    #[test]
    fn bad_lines_rejected() {
        assert_eq!(count_line("123", 2), None);
        assert_eq!(count_line(&"x".repeat(81), 2), None);
    }
}
