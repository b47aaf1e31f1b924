//! The basic patterns a Forcing Net Plus applies inside a propagation (Sudoku Explainer's
//! Dynamic Forcing Chains (+)): locked candidates, hidden pairs, naked pairs and X-Wings on the
//! grid as an assumption has changed it.
//!
//! Owns finding those patterns on the propagation's candidates and recording, for each, the
//! false candidates it rests on (its *parents*: the candidates of the pattern's houses or
//! cells that the propagation removed and whose absence makes the pattern) and the candidates
//! it removes. The propagation itself, and when these patterns are asked for, is
//! `implication`'s. A pattern already present on the grid the propagation started from rests
//! on no removed candidate and is skipped (as Sudoku Explainer does): the step solver applied
//! it before reaching the forcing nets.

use std::ops::Range;

use super::super::step::Technique;
use super::super::types::HOUSE_SETS;
use super::implication::{Lit, bits};

/// The propagation's state that the patterns are looked for in (one bit per cell or digit).
pub(crate) struct View<'a> {
    /// Candidates of each cell before the assumption.
    pub(crate) base_cands: &'a [u16; 81],
    /// Cells of each digit before the assumption.
    pub(crate) base_digit: &'a [u128; 9],
    /// Candidates of each cell now.
    pub(crate) cands: &'a [u16; 81],
    /// Cells of each digit now.
    pub(crate) digit: &'a [u128; 9],
    /// Houses (bit per house index) where each digit is placed, given or derived.
    pub(crate) done: &'a [u32; 9],
    /// Cells with a digit derived true.
    pub(crate) placed: u128,
}

/// One pattern found: which technique, the false literals it rests on, and the false literals
/// it derives (ranges into [`Patterns`]' literals).
struct Found {
    technique: Technique,
    parents: Range<u32>,
    eliminations: Range<u32>,
}

/// The patterns found in one propagation run, in the order found; a pattern's index is what a
/// derived literal's cause records.
#[derive(Default)]
pub(crate) struct Patterns {
    lits: Vec<Lit>,
    found: Vec<Found>,
}

impl Patterns {
    /// Forgets every pattern (a new run starts).
    pub(crate) fn clear(&mut self) {
        self.lits.clear();
        self.found.clear();
    }

    /// How many patterns have been found in this run.
    pub(crate) fn len(&self) -> usize {
        self.found.len()
    }

    /// The technique of pattern `i`.
    pub(crate) fn technique(&self, i: usize) -> Technique {
        self.found[i].technique
    }

    /// The false literals pattern `i` rests on.
    pub(crate) fn parents(&self, i: usize) -> &[Lit] {
        let r = &self.found[i].parents;
        &self.lits[r.start as usize..r.end as usize]
    }

    /// The false literals pattern `i` derives.
    pub(crate) fn eliminations(&self, i: usize) -> &[Lit] {
        let r = &self.found[i].eliminations;
        &self.lits[r.start as usize..r.end as usize]
    }

    /// Records a pattern: `parents` and `eliminations` are (cell, digit index) cell masks per
    /// digit, turned into false literals.
    fn push(
        &mut self,
        technique: Technique,
        parents: &[(usize, u128)],
        eliminations: &[(usize, u128)],
    ) {
        let start = self.lits.len() as u32;
        push_lits(&mut self.lits, parents);
        let mid = self.lits.len() as u32;
        push_lits(&mut self.lits, eliminations);
        let end = self.lits.len() as u32;
        self.found.push(Found {
            technique,
            parents: start..mid,
            eliminations: mid..end,
        });
    }
}

/// Appends the false literal of every (digit, cell) in `masks`.
fn push_lits(out: &mut Vec<Lit>, masks: &[(usize, u128)]) {
    for &(d, mut m) in masks {
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            out.push(((c * 9 + d) * 2) as Lit);
        }
    }
}

/// Finds every instance of the first kind of pattern (locked candidates, hidden pair, naked
/// pair, X-Wing, in that order, as Sudoku Explainer tries them) that removes a candidate and
/// rests on at least one removed candidate, and records them in `out`. Returns whether any
/// was found.
pub(crate) fn find(view: &View, out: &mut Patterns) -> bool {
    let before = out.len();
    locked_candidates(view, out);
    if out.len() == before {
        hidden_pairs(view, out);
    }
    if out.len() == before {
        naked_pairs(view, out);
    }
    if out.len() == before {
        x_wings(view, out);
    }
    out.len() > before
}

/// The three houses of a cell (row, column, box indices into [`HOUSE_SETS`]).
fn cell_houses(c: usize) -> [usize; 3] {
    [c / 9, 9 + c % 9, 18 + (c / 27) * 3 + (c % 9) / 3]
}

fn house(h: usize) -> u128 {
    HOUSE_SETS[h].bits()
}

/// A digit's places in a house all inside one crossing house (a box's in one line: pointing;
/// a line's in one box: claiming) remove it from the rest of the crossing house.
fn locked_candidates(view: &View, out: &mut Patterns) {
    for d in 0..9 {
        for h in 0..27 {
            if view.done[d] & (1 << h) != 0 {
                continue;
            }
            let places = view.digit[d] & house(h);
            if places.count_ones() < 2 {
                continue;
            }
            for h2 in cell_houses(places.trailing_zeros() as usize) {
                if h2 == h || places & !house(h2) != 0 {
                    continue;
                }
                let eliminations = view.digit[d] & house(h2) & !house(h);
                let parents = view.base_digit[d] & house(h) & !house(h2);
                if eliminations != 0 && parents != 0 {
                    let technique = if h >= 18 {
                        Technique::LockedCandidatesPointing
                    } else {
                        Technique::LockedCandidatesClaiming
                    };
                    out.push(technique, &[(d, parents)], &[(d, eliminations)]);
                }
            }
        }
    }
}

/// Calls `f` with every two of `items` (index, key) that share their key, in order. At most
/// nine items: a house's cells or digits, or a digit's lines of one kind.
fn same_key_pairs<K: Copy + PartialEq>(
    items: impl Iterator<Item = (usize, K)>,
    mut f: impl FnMut((usize, K), (usize, K)),
) {
    let mut seen: [Option<(usize, K)>; 9] = [None; 9];
    for (n, item) in items.take(9).enumerate() {
        for &(i, key) in seen[..n].iter().flatten() {
            if key == item.1 {
                f((i, key), item);
            }
        }
        seen[n] = Some(item);
    }
}

/// Two digits with the same two places in a house remove every other digit from those cells.
fn hidden_pairs(view: &View, out: &mut Patterns) {
    for h in 0..27 {
        let twos = (0..9)
            .filter(|&d| view.done[d] & (1 << h) == 0)
            .map(|d| (d, view.digit[d] & house(h)))
            .filter(|(_, places)| places.count_ones() == 2);
        same_key_pairs(twos, |(d1, cells), (d2, _)| {
            let keep = (1u16 << d1) | (1 << d2);
            let mut eliminations = [(0usize, 0u128); 9];
            for (e, slot) in eliminations.iter_mut().enumerate() {
                let m = if keep & (1 << e) != 0 {
                    0
                } else {
                    view.digit[e] & cells
                };
                *slot = (e, m);
            }
            let parents = [
                (d1, view.base_digit[d1] & house(h) & !cells),
                (d2, view.base_digit[d2] & house(h) & !cells),
            ];
            if eliminations.iter().any(|e| e.1 != 0) && parents.iter().any(|p| p.1 != 0) {
                out.push(Technique::HiddenPair, &parents, &eliminations);
            }
        });
    }
}

/// Two cells of a house left with the same two digits remove those digits from the house's
/// other cells.
fn naked_pairs(view: &View, out: &mut Patterns) {
    for h in 0..27 {
        let twos = bits(house(h) & !view.placed)
            .map(|c| (c, view.cands[c]))
            .filter(|(_, cands)| cands.count_ones() == 2);
        same_key_pairs(twos, |(a, pair), (b, _)| {
            let cells = (1u128 << a) | (1u128 << b);
            let mut eliminations = [(0usize, 0u128); 2];
            let mut digits = pair;
            for slot in &mut eliminations {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                *slot = (d, view.digit[d] & house(h) & !cells);
            }
            // Each removed candidate of the two cells, as one (digit, cells) mask each.
            let mut parents = [(0usize, 0u128); 9];
            for (e, slot) in parents.iter_mut().enumerate() {
                let mut m = 0u128;
                for c in [a, b] {
                    if view.base_cands[c] & !pair & (1 << e) != 0 {
                        m |= 1u128 << c;
                    }
                }
                *slot = (e, m);
            }
            if eliminations.iter().any(|e| e.1 != 0) && parents.iter().any(|p| p.1 != 0) {
                out.push(Technique::NakedPair, &parents, &eliminations);
            }
        });
    }
}

/// A digit with its places in two rows (columns) inside the same two columns (rows) is removed
/// from the rest of those columns (rows).
fn x_wings(view: &View, out: &mut Patterns) {
    for d in 0..9 {
        for lines in [0..9, 9..18] {
            let twos = lines
                .filter(|&h| view.done[d] & (1 << h) == 0)
                .map(|h| (h, view.digit[d] & house(h)))
                .filter(|(_, places)| places.count_ones() == 2)
                .map(|(h, places)| (h, crossing_lines(h, places)));
            same_key_pairs(twos, |(h1, cross), (h2, _)| {
                let base = house(h1) | house(h2);
                let offset = if h1 < 9 { 9 } else { 0 };
                let cover = (0..9)
                    .filter(|&i| cross & (1 << i) != 0)
                    .fold(0u128, |acc, i| acc | house(offset + i));
                let eliminations = view.digit[d] & cover & !base;
                let parents = view.base_digit[d] & base & !cover;
                if eliminations != 0 && parents != 0 {
                    out.push(Technique::XWing, &[(d, parents)], &[(d, eliminations)]);
                }
            });
        }
    }
}

/// The lines crossing line `h` at `places` (columns for a row, rows for a column), one bit
/// per line index 0–8.
fn crossing_lines(h: usize, mut places: u128) -> u16 {
    let mut out = 0u16;
    while places != 0 {
        let c = places.trailing_zeros() as usize;
        places &= places - 1;
        out |= 1 << if h < 9 { c % 9 } else { c / 9 };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::grid::Grid;
    use crate::sudoku::techniques::implication::{lit, lit_text};
    use crate::sudoku::techniques::test_util::*;
    use crate::sudoku::types::{Cell, Digit};

    /// The patterns `find` reports when the propagation has taken `base` to `now`, as
    /// (technique, parents, eliminations) in the usual notation.
    fn found(base: &Grid, now: &Grid) -> Vec<(Technique, Vec<String>, Vec<String>)> {
        let arrays = |g: &Grid| {
            let mut cands = [0u16; 81];
            for c in Cell::all() {
                cands[c.index()] = g.candidates(c).bits();
            }
            let mut digit = [0u128; 9];
            for d in Digit::ALL {
                digit[d.index()] = g.digit_cells(d).bits();
            }
            (cands, digit)
        };
        let (base_cands, base_digit) = arrays(base);
        let (cands, digit) = arrays(now);
        let view = View {
            base_cands: &base_cands,
            base_digit: &base_digit,
            cands: &cands,
            digit: &digit,
            done: &[0; 9],
            placed: 0,
        };
        let mut out = Patterns::default();
        let any = find(&view, &mut out);
        assert_eq!(any, out.len() > 0);
        let text = |ls: &[Lit]| ls.iter().map(|&l| lit_text(l)).collect::<Vec<_>>();
        (0..out.len())
            .map(|i| {
                (
                    out.technique(i),
                    text(out.parents(i)),
                    text(out.eliminations(i)),
                )
            })
            .collect()
    }

    fn open() -> Grid {
        grid(&".".repeat(81))
    }

    /// Removes `digits` from the cells (one-based row, column).
    fn remove(g: &mut Grid, digits: &[u8], cells: &[(usize, usize)]) {
        for &(r, c) in cells {
            for &d in digits {
                g.eliminate(Cell::at(r - 1, c - 1), Digit::new(d).unwrap());
            }
        }
    }

    fn row(r: usize, cols: std::ops::RangeInclusive<usize>) -> Vec<(usize, usize)> {
        cols.map(|c| (r, c)).collect()
    }

    #[test]
    fn pointing_rests_on_the_removed_candidates() {
        // Box 1 has no 5 in row 2; the net removed the 5s of r1c1-3: the box's 5 points along
        // row 3.
        let mut base = open();
        remove(&mut base, &[5], &row(2, 1..=3));
        let mut now = base.clone();
        remove(&mut now, &[5], &row(1, 1..=3));
        let f = found(&base, &now);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, Technique::LockedCandidatesPointing);
        assert_eq!(f[0].1, ["r1c1<>5", "r1c2<>5", "r1c3<>5"]);
        assert_eq!(f[0].2.len(), 6);
        assert!(
            f[0].2
                .iter()
                .all(|e| e.starts_with("r3c") && e.ends_with("<>5"))
        );
    }

    #[test]
    fn a_pattern_of_the_starting_grid_is_not_reported() {
        // The same pointing 5, already there before the assumption: nothing rests on the net.
        let mut base = open();
        remove(&mut base, &[5], &row(1, 1..=3));
        remove(&mut base, &[5], &row(2, 1..=3));
        assert!(found(&base, &base).is_empty());
        assert!(found(&open(), &open()).is_empty());
    }

    #[test]
    fn hidden_pair_in_row_and_box() {
        // 1 and 2 only in r1c1 and r1c2 once the net removed them from the rest of row 1 (box
        // 1's other rows had none before): a hidden pair of row 1, resting on the 14 removed
        // candidates, and of box 1, resting on those of r1c3.
        let mut base = open();
        remove(&mut base, &[1, 2], &[row(2, 1..=3), row(3, 1..=3)].concat());
        let mut now = base.clone();
        remove(&mut now, &[1, 2], &row(1, 3..=9));
        let f = found(&base, &now);
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(
            f.iter()
                .all(|p| p.0 == Technique::HiddenPair && p.2.len() == 14)
        );
        assert_eq!(f[0].1.len(), 14);
        assert_eq!(f[1].1, ["r1c3<>1", "r1c3<>2"]);
        assert!(f[0].2.contains(&String::from("r1c2<>9")));
    }

    #[test]
    fn naked_pair_in_row_and_box() {
        let base = open();
        let mut now = base.clone();
        remove(&mut now, &[3, 4, 5, 6, 7, 8, 9], &row(1, 1..=2));
        let f = found(&base, &now);
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(
            f.iter()
                .all(|p| p.0 == Technique::NakedPair && p.1.len() == 14)
        );
        // Row 1 (seven cells) and box 1 (seven cells) lose the 1 and the 2.
        assert!(f.iter().all(|p| p.2.len() == 14));
        assert!(f[0].2.contains(&String::from("r1c9<>2")));
    }

    #[test]
    fn x_wing() {
        // 7 in rows 1 and 5 only in columns 2 and 8.
        let base = open();
        let mut now = base.clone();
        let mut cells = Vec::new();
        for r in [1, 5] {
            cells.extend((1..=9).filter(|&c| c != 2 && c != 8).map(|c| (r, c)));
        }
        remove(&mut now, &[7], &cells);
        let f = found(&base, &now);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, Technique::XWing);
        assert_eq!(f[0].1.len(), 14);
        assert_eq!(f[0].2.len(), 14);
        let gone = lit_text(lit(Cell::at(8, 7), Digit::new(7).unwrap(), false));
        assert!(f[0].2.contains(&gone), "{:?}", f[0].2);
    }
}
