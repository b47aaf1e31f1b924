//! Basic Fish (X-Wing, Swordfish, Jellyfish): for one digit, `n` rows (the base) whose candidates
//! all lie in the same `n` columns (the cover). Each base row needs the digit once, in a
//! different cover column, so the base rows supply the digit of every cover column: the rest of
//! the cover columns loses it. The same with columns as base and rows as cover.
//!
//! Also holds the line geometry shared with `finned_fish` (per-line candidate masks, house
//! groups like `r15`).

use super::super::grid::{Candidate, Grid};
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, Cell, CellSet, Digit, House, HouseKind};
use super::super::notation::{house_words, join_words};
use super::{Flow, GO_ON, Instances};

/// Which lines form the base set: rows (cover = columns) or columns (cover = rows).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Orientation {
    /// Rows are the base, columns the cover.
    RowsBase,
    /// Columns are the base, rows the cover.
    ColsBase,
}

impl Orientation {
    /// Both orientations, rows-as-base first.
    pub(super) const BOTH: [Orientation; 2] = [Orientation::RowsBase, Orientation::ColsBase];

    /// Base line `i` (0..9) as a house.
    pub(super) fn base_house(self, i: usize) -> House {
        match self {
            Orientation::RowsBase => House::row(i),
            Orientation::ColsBase => House::col(i),
        }
    }

    /// Cover line `i` (0..9) as a house.
    pub(super) fn cover_house(self, i: usize) -> House {
        match self {
            Orientation::RowsBase => House::col(i),
            Orientation::ColsBase => House::row(i),
        }
    }

    /// For each base line, the cover lines (as a 9-bit mask) where `d` is a candidate.
    pub(super) fn line_masks(self, grid: &Grid, d: Digit) -> [u16; 9] {
        let mut masks = [0u16; 9];
        for c in grid.digit_cells(d).iter() {
            match self {
                Orientation::RowsBase => masks[c.row()] |= 1 << c.col(),
                Orientation::ColsBase => masks[c.col()] |= 1 << c.row(),
            }
        }
        masks
    }

    /// The union of the houses of the lines in `mask`, base (`true`) or cover (`false`) kind.
    pub(super) fn lines_cells(self, mask: u16, base: bool) -> CellSet {
        let mut set = CellSet::EMPTY;
        for i in bits(mask) {
            set |= if base {
                self.base_house(i).cell_set()
            } else {
                self.cover_house(i).cell_set()
            };
        }
        set
    }
}

/// Indices of the set bits of a 9-bit mask, ascending.
pub(super) fn bits(mask: u16) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        if rest == 0 {
            None
        } else {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(i)
        }
    })
}

/// The `k`-element subsets of the set bits of `mask`, as masks, in decreasing order. Walks all
/// `2^popcount(mask)` submasks, so meant for small masks (a box's three lines).
pub(super) fn k_subsets(mask: u16, k: usize) -> impl Iterator<Item = u16> {
    let mut next = Some(mask);
    std::iter::from_fn(move || {
        while let Some(current) = next {
            next = if current == 0 {
                None
            } else {
                Some((current - 1) & mask)
            };
            if current.count_ones() as usize == k {
                return Some(current);
            }
        }
        None
    })
}

/// A search over `k`-element subsets of nine items, each carrying a 9-bit mask, for subsets
/// whose masks together have at most `max_union` bits: a fish's base lines (masks: cover
/// lines), a subset's cells (masks: digits) or digits (masks: cells). Partial subsets whose
/// union is already too big are pruned, which makes the search cheap.
pub(super) struct SubsetSearch<'a> {
    /// Each item's mask.
    pub(super) items: &'a [u16; 9],
    /// The items that may be chosen (bit `i` = item `i`).
    pub(super) allowed: u16,
    /// The most bits the union of a reported subset may have.
    pub(super) max_union: u32,
}

impl SubsetSearch<'_> {
    /// Calls `visit(chosen, union)` for each `k`-subset (chosen items as a bit mask) whose
    /// union is small enough, in increasing order of `chosen`, until `visit` returns `Some`.
    pub(super) fn first<T>(
        &self,
        k: usize,
        visit: &mut impl FnMut(u16, u16) -> Option<T>,
    ) -> Option<T> {
        self.rec(k, 9, 0, 0, visit)
    }

    /// Chooses `k` more items among those below index `below` (highest first, which yields
    /// increasing `chosen` order).
    fn rec<T>(
        &self,
        k: usize,
        below: usize,
        chosen: u16,
        union: u16,
        visit: &mut impl FnMut(u16, u16) -> Option<T>,
    ) -> Option<T> {
        if k == 0 {
            return visit(chosen, union);
        }
        for i in (k - 1)..below {
            if self.allowed & (1 << i) == 0 {
                continue;
            }
            let u = union | self.items[i];
            if u.count_ones() > self.max_union {
                continue;
            }
            if let Some(t) = self.rec(k - 1, i, chosen | 1 << i, u, visit) {
                return Some(t);
            }
        }
        None
    }
}

/// Reports the steps of naked or hidden subsets of `size` items, searching each house in turn
/// (boxes, then rows, then columns). `masks(cells)` gives the house's nine items' masks and
/// which items may be chosen; `build(house, chosen, union)` is called for each choice of `size`
/// items whose masks together have exactly `size` bits.
pub(super) fn subsets_in_houses(
    size: usize,
    mut masks: impl FnMut(&[Cell; 9]) -> ([u16; 9], u16),
    mut build: impl FnMut(House, &[Cell; 9], u16, u16) -> Option<Step>,
    out: &mut Instances,
) -> Flow {
    let houses = House::of_kind(HouseKind::Box)
        .chain(House::of_kind(HouseKind::Row))
        .chain(House::of_kind(HouseKind::Col));
    for house in houses {
        let cells = house.cells();
        let (items, allowed) = masks(&cells);
        let search = SubsetSearch {
            items: &items,
            allowed,
            max_union: size as u32,
        };
        let found = search.first(size, &mut |chosen, union| {
            if union.count_ones() as usize != size {
                return None;
            }
            build(house, &cells, chosen, union).and_then(|s| out.add(s).break_value())
        });
        if found.is_some() {
            return Flow::Break(());
        }
    }
    GO_ON
}

/// Houses of one kind written together: `r15`, `c279`. Empty input gives an empty string.
pub(super) fn house_group(houses: impl Iterator<Item = House>) -> String {
    let mut out = String::new();
    for h in houses {
        if out.is_empty() {
            out = h.to_string();
        } else {
            out.push(char::from(b'1' + h.number() as u8));
        }
    }
    out
}

/// The technique for a basic fish of `size` base lines.
fn technique(size: usize) -> Option<Technique> {
    match size {
        2 => Some(Technique::XWing),
        3 => Some(Technique::Swordfish),
        4 => Some(Technique::Jellyfish),
        _ => None,
    }
}

/// Reports the basic fish of `size` (2, 3 or 4) that remove a candidate: digits in order, rows
/// as base before columns.
pub(crate) fn search(grid: &Grid, size: usize, out: &mut Instances) -> Flow {
    let Some(technique) = technique(size) else {
        return GO_ON;
    };
    for d in Digit::ALL {
        let cells_d = grid.digit_cells(d);
        for o in Orientation::BOTH {
            let masks = o.line_masks(grid, d);
            let mut eligible = 0u16;
            for (i, m) in masks.iter().enumerate() {
                if (1..=size as u32).contains(&m.count_ones()) {
                    eligible |= 1 << i;
                }
            }
            if (eligible.count_ones() as usize) < size {
                continue;
            }
            let search = SubsetSearch {
                items: &masks,
                allowed: eligible,
                max_union: size as u32,
            };
            let found = search.first(size, &mut |base, cover| {
                if cover.count_ones() as usize != size {
                    return None;
                }
                let base_cells = o.lines_cells(base, true);
                let targets = o.lines_cells(cover, false) & !base_cells & cells_d;
                if targets.is_empty() {
                    return None;
                }
                let mut step = Step::new(technique);
                step.digits = Candidates::single(d);
                for i in bits(base) {
                    step.houses.push((o.base_house(i), Role::Base));
                }
                for i in bits(cover) {
                    step.houses.push((o.cover_house(i), Role::Cover));
                }
                for c in (base_cells & cells_d).iter() {
                    step.mark(c, d, Role::Base);
                }
                for c in targets.iter() {
                    step.eliminations.push(Candidate::new(c, d));
                }
                out.add(step).break_value()
            });
            if found.is_some() {
                return Flow::Break(());
            }
        }
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid, size: usize) -> Option<Step> {
    super::first(|out| search(grid, size, out))
}

/// `X-Wing: 4 r15 c27 => r3c2<>4` (digit, base lines, cover lines).
pub(crate) fn text(step: &Step) -> String {
    match step.digits.first() {
        Some(d) => format!(
            "{}: {} {} {} => {}",
            step.technique.name(),
            d,
            house_group(step.houses_with(Role::Base)),
            house_group(step.houses_with(Role::Cover)),
            step.effect_text()
        ),
        None => super::plain_text(step),
    }
}

/// "The 4 of rows 1 and 5 can only go in columns 2 and 7, so those columns get their 4 from
/// these rows and r3c2 cannot be 4."
pub(crate) fn sentence(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::generic_sentence(step);
    };
    let words = |role| -> String {
        let hs: Vec<String> = step.houses_with(role).map(house_words).collect();
        join_words(&hs, "and")
    };
    format!(
        "The {d} of {} can only go in {}, so those get their {d} from there and {}.",
        words(Role::Base),
        words(Role::Cover),
        super::effect_words(step)
    )
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::sudoku::solver::count_solutions;
    use crate::sudoku::techniques::test_util::grid;
    use crate::sudoku::types::Cell;

    /// Asserts, with the exact solver, that `grid` has one solution and that forcing any
    /// elimination of `step` leaves none.
    pub(in crate::sudoku::techniques) fn assert_solver_sound(grid: &Grid, step: &Step) {
        assert_eq!(count_solutions(grid, 2), 1, "test position must be unique");
        assert!(!step.eliminations.is_empty());
        for e in &step.eliminations {
            let mut forced = grid.clone();
            forced.set_candidates(e.cell, Candidates::single(e.digit));
            assert_eq!(
                count_solutions(&forced, 1),
                0,
                "{} removes a solution {e}",
                step.text()
            );
        }
    }

    /// Whether some placement of `d` — once in every row, column and box, using only `d`'s
    /// candidate cells and the cells already holding `d` — puts `d` in `target`. The exact,
    /// single-digit oracle that tests check fish and chain eliminations against.
    pub(in crate::sudoku::techniques) fn digit_can_go(grid: &Grid, d: Digit, target: Cell) -> bool {
        fn place(rows: &[u16; 9], r: usize, cols: u16, boxes: u16) -> bool {
            if r == 9 {
                return true;
            }
            let mut m = rows[r] & !cols;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                let b = (r / 3) * 3 + c / 3;
                if boxes & (1 << b) == 0 && place(rows, r + 1, cols | 1 << c, boxes | 1 << b) {
                    return true;
                }
            }
            false
        }
        let mut rows = [0u16; 9];
        for c in Cell::all() {
            if grid.has_candidate(c, d) || grid.value(c) == Some(d) {
                rows[c.row()] |= 1 << c.col();
            }
        }
        rows[target.row()] &= 1 << target.col();
        place(&rows, 0, 0, 0)
    }

    /// A grid where digit `d` is a candidate exactly in `cells` (every other cell keeps all
    /// other digits): a single-digit pattern drawn by hand. `cells` is a space-separated list
    /// like `"r1c2 r5c7"`.
    pub(in crate::sudoku::techniques) fn digit_grid(d: u8, cells: &str) -> Grid {
        let d = Digit::new(d).expect("digit 1-9");
        let mut g = Grid::empty();
        let mut keep = CellSet::EMPTY;
        for token in cells.split_whitespace() {
            let b = token.as_bytes();
            assert!(
                b.len() == 4 && b[0] == b'r' && b[2] == b'c',
                "bad cell {token}"
            );
            keep.insert(Cell::at((b[1] - b'1') as usize, (b[3] - b'1') as usize));
        }
        for c in Cell::all() {
            if !keep.contains(c) {
                let mut cands = Candidates::ALL;
                cands.remove(d);
                g.set_candidates(c, cands);
            }
        }
        g
    }

    /// Asserts, with the single-digit oracle, that no elimination of `step` could be a solution.
    pub(in crate::sudoku::techniques) fn assert_single_digit_sound(grid: &Grid, step: &Step) {
        assert!(!step.eliminations.is_empty());
        // The position itself must admit the digit somewhere, or every check below is vacuous.
        let d = step.eliminations[0].digit;
        assert!(grid.digit_cells(d).iter().any(|c| digit_can_go(grid, d, c)));
        for e in &step.eliminations {
            assert!(
                !digit_can_go(grid, e.digit, e.cell),
                "{} removes a possible {e}",
                step.text()
            );
        }
    }

    /// 4: a full placement (r1c2 r2c5 r3c9 r4c6 r5c7 r6c1 r7c3 r8c8 r9c4) plus r1c7, r5c2 (rows 1
    /// and 5 only in columns 2 and 7), r3c2, r8c2 in column 2 and a second cell in the other rows.
    const X_WING_4: &str =
        "r1c2 r2c5 r3c9 r4c6 r5c7 r6c1 r7c3 r8c8 r9c4 r1c7 r5c2 r3c2 r8c2 r2c1 r4c4 r6c9 r7c8 r9c5";

    #[test]
    fn x_wing_rows() {
        let g = digit_grid(4, X_WING_4);
        let s = find(&g, 2).unwrap();
        assert_eq!(s.text(), "X-Wing: 4 r15 c27 => r38c2<>4");
        assert_eq!(s.marked_cells(Role::Base).len(), 4);
        assert_single_digit_sound(&g, &s);
    }

    #[test]
    fn swordfish_columns() {
        // 7 in columns 1, 5 and 8 only in rows 2, 4, 9 (2-2-2 shape).
        // A full placement of 7 (r1c4 r2c1 r3c7 r4c5 r5c3 r6c9 r7c6 r8c2 r9c8), then r4c1, r9c5,
        // r2c8 for the fish, the targets r2c3, r4c6, r9c9, and three more cells in every other
        // row so nothing smaller forms.
        let g = digit_grid(
            7,
            "r1c4 r2c1 r3c7 r4c5 r5c3 r6c9 r7c6 r8c2 r9c8 r4c1 r9c5 r2c8 \
             r2c3 r4c6 r9c9 r1c2 r1c6 r1c7 r3c2 r3c4 r3c9 r5c4 r5c6 r5c9 \
             r6c2 r6c3 r6c7 r7c3 r7c4 r7c7 r8c3 r8c6 r8c9",
        );
        assert!(find(&g, 2).is_none());
        let s = find(&g, 3).unwrap();
        assert_eq!(s.text(), "Swordfish: 7 c158 r249 => r2c3,r4c6,r9c9<>7");
        assert_single_digit_sound(&g, &s);
    }

    #[test]
    fn oracle_sees_a_forced_digit() {
        let g = digit_grid(4, X_WING_4);
        let four = Digit::new(4).unwrap();
        assert!(!digit_can_go(&g, four, Cell::at(2, 1)));
        assert!(digit_can_go(&g, four, Cell::at(2, 8)));
    }

    /// Every finder of the subset, fish and short single-digit chain files.
    fn my_finders(grid: &Grid) -> Vec<Step> {
        use crate::sudoku::techniques as t;
        let mut out = Vec::new();
        for size in 2..=4 {
            out.extend(t::naked_subset::find(grid, size));
            out.extend(t::hidden_subset::find(grid, size));
            out.extend(find(grid, size));
            out.extend(t::finned_fish::find(grid, size, false));
            out.extend(t::finned_fish::find(grid, size, true));
        }
        out.extend(t::skyscraper::find(grid));
        out.extend(t::two_string_kite::find(grid));
        out.extend(t::turbot_fish::find(grid));
        out.extend(t::empty_rectangle::find(grid));
        out
    }

    #[test]
    fn sound_along_explained_solves() {
        // The first puzzles of several Sudoku Explainer ratings: the explained solve rejects
        // nothing, and at every position of its path each finder here either finds nothing or
        // a step that removes existing candidates and no solution digit.
        let dir = crate::test_data::shared_puzzle_path("se-rated");
        let mut checked = 0;
        let mut found = std::collections::BTreeMap::new();
        for rating in [
            "3.0", "3.4", "3.8", "4.2", "4.6", "5.0", "5.4", "5.8", "6.2", "6.6",
        ] {
            let path = dir.join(format!("{rating}.txt"));
            let text = std::fs::read_to_string(&path).expect("se-rated puzzle file");
            for (_, p) in crate::sudoku::collection_puzzles(&text).take(6) {
                let puzzle = crate::sudoku::parse::parse_puzzle(p).expect("puzzle parses");
                let e = crate::sudoku::solve_explained(&puzzle).expect("puzzle solves");
                assert!(e.rejected.is_empty(), "{p}: rejected {:?}", e.rejected);
                let mut g = puzzle.clone();
                for step in &e.steps {
                    for s in my_finders(&g) {
                        assert!(s.makes_progress(&g), "{p}: {} makes no progress", s.text());
                        assert!(
                            !crate::sudoku::explain::contradicts(&s, &e.solution),
                            "{p}: {} contradicts the solution in {}",
                            s.text(),
                            g.to_sukaku()
                        );
                        *found.entry(s.technique).or_insert(0) += 1;
                    }
                    step.apply(&mut g);
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
        // The sample exercises the common patterns, not just empty results.
        for t in [
            Technique::NakedPair,
            Technique::HiddenPair,
            Technique::XWing,
        ] {
            assert!(found.contains_key(&t), "{t} never found; found {found:?}");
        }
    }

    #[test]
    fn jellyfish_in_a_real_position() {
        // Pencil marks of the SE-rated puzzle
        // 150000609000094003709000200090306000070000030000501020007000102900810000206000098
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            "1............5......34......2....7...23....8...3...78......6......4...8.........9\
             .....6....2..............8.1................9...4.........5..........7....3......\
             ......7....34.............9.....6.....3.5..8...3.5..8..2..........4...8.1........\
             ...4...8.........9.2.........3.........4..78......6......4..78.1............5....\
             ....5..........7..1.........2.4....9.2.4...8........89...4...8...3...........6...\
             ..34...8......6.....34.........5.......4..78.1................9.2..........4..7..\
             ..34............8.......7.....4....9.....6.....3.....91............5.....2.......\
             ........9..34.........5...........8.1.........2.........34..7.......6......4..7..\
             .2.......1.............6......4..7....345......3.5.7....34.............9.......8.",
        );
        let s = super::find(&g, 4).unwrap();
        assert_eq!(s.text(), "Jellyfish: 4 r4579 c1457 => r6c15,r8c7<>4");
        assert_solver_sound(&g, &s);
    }
}
