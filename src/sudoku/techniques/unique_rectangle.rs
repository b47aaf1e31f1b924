//! Unique Rectangles, types 1 to 4. Four empty cells at the corners of a rectangle spanning two
//! rows, two columns and exactly two boxes, all holding candidates `a` and `b`, must not end up
//! as the "deadly pattern" `a b / b a`: its two digits could be swapped, giving a second
//! solution. So in a puzzle with a unique solution:
//!
//! * Type 1: three corners are exactly `{a,b}`; the fourth loses `a` and `b`.
//! * Type 2: two corners on one line (the floor) are `{a,b}`, the other two (the roof) are both
//!   `{a,b,x}`; one roof cell is `x`, so cells seeing both lose `x`.
//! * Type 3: as type 2, but the roof's extra digits `X` together with `k - 1` other cells of a
//!   house holding both roof cells form a naked subset of size `k`; the rest of the house loses
//!   those digits.
//! * Type 4: as type 2, but one of `a`, `b` is confined, in a house holding both roof cells, to
//!   the roof; the roof loses the other.
//!
//! Only sound when the puzzle has exactly one solution (the dispatcher checks); filled or given
//! cells are never corners. The step marks the corners' `a`/`b` [`Role::SetA`] and the roof's
//! extra candidates [`Role::SetB`]; for types 3 and 4 the house is recorded as [`Role::Base`]
//! and type 3's subset cells are marked [`Role::Base`].

use super::super::grid::Grid;
use super::super::notation::slash_digits;
use super::super::notation::{cell_words, digit_words, house_words};
use super::super::step::{Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, Cell, CellSet, Digit, House};
use super::{Flow, GO_ON, Instances};

/// Every rectangle of four cells spanning two rows, two columns and exactly two boxes, as
/// `[r1c1, r1c2, r2c1, r2c2]` (rows, then columns ascending); computed once.
pub(super) fn rectangles() -> impl Iterator<Item = [Cell; 4]> {
    static ALL: std::sync::OnceLock<Vec<[Cell; 4]>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        for r1 in 0..9 {
            for r2 in r1 + 1..9 {
                for c1 in 0..9 {
                    for c2 in c1 + 1..9 {
                        // Two rows of one band and columns of two stacks, or the other way.
                        if (r1 / 3 == r2 / 3) != (c1 / 3 == c2 / 3) {
                            out.push([
                                Cell::at(r1, c1),
                                Cell::at(r1, c2),
                                Cell::at(r2, c1),
                                Cell::at(r2, c2),
                            ]);
                        }
                    }
                }
            }
        }
        out
    })
    .iter()
    .copied()
}

/// Reports the Unique Rectangles of type `kind` (1 to 6; anything else finds nothing) that make
/// progress. Sound only when the puzzle has a unique solution.
///
/// The digits `a`, `b` come from the corners holding exactly two candidates; the other corners
/// need only hold one of them ("missing candidates" are fine): if all four cells ended up with
/// `a` or `b` they would form the deadly pattern whatever candidates were removed before.
pub(crate) fn search(grid: &Grid, kind: u8, out: &mut Instances) -> Flow {
    for corners in rectangles() {
        if corners
            .iter()
            .any(|&c| grid.value(c).is_some() || grid.is_given(c))
        {
            continue;
        }
        let mut tried = Candidates::NONE;
        for &c in &corners {
            let ab = grid.candidates(c);
            if ab.len() != 2 || tried == ab {
                continue;
            }
            tried = ab;
            if corners
                .iter()
                .any(|&o| (grid.candidates(o) & ab).is_empty())
            {
                continue;
            }
            let mut it = ab.iter();
            if let (Some(a), Some(b)) = (it.next(), it.next())
                && let Some(step) = try_kind(grid, kind, corners, a, b)
            {
                out.add(step)?;
            }
        }
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid, kind: u8) -> Option<Step> {
    super::first(|out| search(grid, kind, out))
}

/// The two-cell lines of a rectangle `[r1c1, r1c2, r2c1, r2c2]` as (floor, roof) index pairs.
const FLOOR_ROOF: [([usize; 2], [usize; 2]); 4] = [
    ([0, 1], [2, 3]),
    ([2, 3], [0, 1]),
    ([0, 2], [1, 3]),
    ([1, 3], [0, 2]),
];

fn try_kind(grid: &Grid, kind: u8, corners: [Cell; 4], a: Digit, b: Digit) -> Option<Step> {
    let ab = Candidates::single(a) | Candidates::single(b);
    let bivalue: [bool; 4] = corners.map(|c| grid.candidates(c) == ab);
    let n_bivalue = bivalue.iter().filter(|&&x| x).count();
    if kind == 1 {
        if n_bivalue != 3 {
            return None;
        }
        let i = bivalue.iter().position(|&x| !x)?;
        let target = CellSet::single(corners[i]);
        let mut step = Step::new(Technique::UniqueRectangle1);
        eliminate_where_possible(&mut step, grid, target, a);
        eliminate_where_possible(&mut step, grid, target, b);
        return Some(mark(step, grid, corners, ab, [corners[i], corners[i]]));
    }
    match kind {
        5 => return type5(grid, corners, ab, bivalue),
        6 => return type6(grid, corners, a, b, bivalue),
        _ => {}
    }
    if n_bivalue != 2 {
        return None;
    }
    let (_, roof_ix) = FLOOR_ROOF
        .into_iter()
        .find(|(floor, _)| bivalue[floor[0]] && bivalue[floor[1]])?;
    let roof = [corners[roof_ix[0]], corners[roof_ix[1]]];
    let extra = [
        grid.candidates(roof[0]) & !ab,
        grid.candidates(roof[1]) & !ab,
    ];
    match kind {
        2 => type2(grid, corners, ab, roof, extra),
        3 => type3(grid, corners, ab, roof, extra[0] | extra[1]),
        4 => type4(grid, corners, a, b, roof),
        _ => None,
    }
}

/// Adds the digits, the corners' `a`/`b` marks and the roof's extra marks.
fn mark(mut step: Step, grid: &Grid, corners: [Cell; 4], ab: Candidates, roof: [Cell; 2]) -> Step {
    step.digits = ab;
    let roof_set = CellSet::single(roof[0]) | CellSet::single(roof[1]);
    for c in corners {
        for d in (grid.candidates(c) & ab).iter() {
            step.mark(c, d, Role::SetA);
        }
    }
    for c in roof_set.iter() {
        for d in (grid.candidates(c) & !ab).iter() {
            step.mark(c, d, Role::SetB);
        }
    }
    step
}

/// Type 5: one or two corners hold exactly `a` and `b`; the others (not two on one line, which
/// is type 2) all hold the same single extra digit `x`. One of them is `x`, so cells seeing all
/// of them lose it.
fn type5(grid: &Grid, corners: [Cell; 4], ab: Candidates, bivalue: [bool; 4]) -> Option<Step> {
    let extra: Vec<Cell> = (0..4)
        .filter(|&i| !bivalue[i])
        .map(|i| corners[i])
        .collect();
    let in_line = |p: Cell, q: Cell| p.row() == q.row() || p.col() == q.col();
    if !(2..=3).contains(&extra.len()) || (extra.len() == 2 && in_line(extra[0], extra[1])) {
        return None;
    }
    let x = (grid.candidates(extra[0]) & !ab).single_digit()?;
    if extra
        .iter()
        .any(|&c| grid.candidates(c) & !ab != Candidates::single(x))
    {
        return None;
    }
    let cells: CellSet = extra.iter().copied().collect();
    let mut step = Step::new(Technique::UniqueRectangle5);
    if eliminate_where_possible(&mut step, grid, cells.common_peers(), x) == 0 {
        return None;
    }
    let mut step = mark(step, grid, corners, ab, [extra[0], extra[1]]);
    if let Some(&third) = extra.get(2) {
        step.mark(third, x, Role::SetB);
    }
    Some(step)
}

/// Type 6: two diagonal corners hold exactly `a` and `b`, and one of the digits appears in the
/// rectangle's two rows and two columns only at its corners (an X-Wing). The digit is on one
/// diagonal; on the other it would leave the bivalue corners the other digit, the deadly
/// pattern. So the two other corners lose it.
fn type6(grid: &Grid, corners: [Cell; 4], a: Digit, b: Digit, bivalue: [bool; 4]) -> Option<Step> {
    let ab = Candidates::single(a) | Candidates::single(b);
    let diagonal = match bivalue {
        [true, false, false, true] => [1, 2],
        [false, true, true, false] => [0, 3],
        _ => return None,
    };
    let rect: CellSet = corners.iter().copied().collect();
    let lines = [
        House::row(corners[0].row()),
        House::row(corners[3].row()),
        House::col(corners[0].col()),
        House::col(corners[3].col()),
    ];
    for u in [a, b] {
        if lines
            .iter()
            .any(|h| !grid.house_digit_cells(*h, u).is_subset(rect))
        {
            continue;
        }
        let others: CellSet = diagonal.iter().map(|&i| corners[i]).collect();
        let mut step = Step::new(Technique::UniqueRectangle6);
        if eliminate_where_possible(&mut step, grid, others, u) == 0 {
            continue;
        }
        let mut step = mark(
            step,
            grid,
            corners,
            ab,
            [corners[diagonal[0]], corners[diagonal[1]]],
        );
        for h in lines {
            step.houses.push((h, Role::Base));
        }
        return Some(step);
    }
    None
}

/// Houses holding both roof cells: their line, and their box when they share one.
fn roof_houses(roof: [Cell; 2]) -> impl Iterator<Item = House> {
    let [p, q] = roof;
    let line = if p.row() == q.row() {
        House::row(p.row())
    } else {
        House::col(p.col())
    };
    let boxed = (p.box_index() == q.box_index()).then(|| House::boxed(p.box_index()));
    std::iter::once(line).chain(boxed)
}

fn type2(
    grid: &Grid,
    corners: [Cell; 4],
    ab: Candidates,
    roof: [Cell; 2],
    extra: [Candidates; 2],
) -> Option<Step> {
    let x = extra[0].single_digit()?;
    if extra[1] != extra[0] {
        return None;
    }
    let mut step = Step::new(Technique::UniqueRectangle2);
    if eliminate_where_possible(&mut step, grid, roof[0].peers() & roof[1].peers(), x) == 0 {
        return None;
    }
    Some(mark(step, grid, corners, ab, roof))
}

fn type3(
    grid: &Grid,
    corners: [Cell; 4],
    ab: Candidates,
    roof: [Cell; 2],
    extra: Candidates,
) -> Option<Step> {
    let roof_set = CellSet::single(roof[0]) | CellSet::single(roof[1]);
    for house in roof_houses(roof) {
        // Empty cells of the house that could join a subset of at most four digits.
        let mut others = [roof[0]; 9];
        let mut n = 0;
        for c in house.cells() {
            let cands = grid.candidates(c);
            if !roof_set.contains(c) && !cands.is_empty() && (cands | extra).len() <= 4 {
                others[n] = c;
                n += 1;
            }
        }
        for subset in 1u32..(1 << n) {
            let size = subset.count_ones() as usize;
            if size > 3 {
                continue;
            }
            let mut digits = extra;
            let mut cells = CellSet::EMPTY;
            for (i, &c) in others[..n].iter().enumerate() {
                if subset & (1 << i) != 0 {
                    digits |= grid.candidates(c);
                    cells.insert(c);
                }
            }
            if digits.len() != size + 1 {
                continue;
            }
            let targets = house.cell_set() & !roof_set & !cells;
            let mut step = Step::new(Technique::UniqueRectangle3);
            let mut removed = 0;
            for d in digits.iter() {
                removed += eliminate_where_possible(&mut step, grid, targets, d);
            }
            if removed == 0 {
                continue;
            }
            let mut step = mark(step, grid, corners, ab, roof);
            step.houses.push((house, Role::Base));
            for c in cells.iter() {
                for d in grid.candidates(c).iter() {
                    step.mark(c, d, Role::Base);
                }
            }
            return Some(step);
        }
    }
    None
}

fn type4(grid: &Grid, corners: [Cell; 4], a: Digit, b: Digit, roof: [Cell; 2]) -> Option<Step> {
    let ab = Candidates::single(a) | Candidates::single(b);
    let roof_set = CellSet::single(roof[0]) | CellSet::single(roof[1]);
    for house in roof_houses(roof) {
        for (locked, removed) in [(a, b), (b, a)] {
            if grid.house_digit_cells(house, locked) != roof_set {
                continue;
            }
            let mut step = Step::new(Technique::UniqueRectangle4);
            if eliminate_where_possible(&mut step, grid, roof_set, removed) == 0 {
                continue;
            }
            let mut step = mark(step, grid, corners, ab, roof);
            step.houses.push((house, Role::Base));
            return Some(step);
        }
    }
    None
}

/// `Unique Rectangle Type 1: 4/9 in r1c2,r1c7,r8c2,r8c7 => r8c7<>4, r8c7<>9`
pub(crate) fn text(step: &Step) -> String {
    let corners = step.marked_cells(Role::SetA);
    if corners.len() != 4 || step.digits.len() != 2 {
        return super::plain_text(step);
    }
    format!(
        "{}: {} in {} => {}",
        step.technique.name(),
        slash_digits(step.digits.iter()),
        corners
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(","),
        step.effect_text()
    )
}

/// "r1c2, r1c7, r3c2 and r3c7 must not end up holding only 4 and 9 (they could be swapped, a
/// second solution); the only way out is …, so r3c7 cannot be 4 or 9."
pub(crate) fn sentence(step: &Step) -> String {
    let corners = step.marked_cells(Role::SetA);
    if corners.len() != 4 || step.digits.len() != 2 {
        return super::generic_sentence(step);
    }
    let extras: Candidates = step.marked(Role::SetB).map(|c| c.digit).collect();
    let extra_cells = step.marked_cells(Role::SetB);
    let why = match step.technique {
        Technique::UniqueRectangle1 => format!(
            "{} is the only corner that can break the pattern",
            cell_words(extra_cells.iter())
        ),
        Technique::UniqueRectangle2 | Technique::UniqueRectangle5 => format!(
            "one of {} must be {}",
            cell_words(extra_cells.iter()),
            digit_words(extras, "or")
        ),
        Technique::UniqueRectangle3 => match step.houses_with(Role::Base).next() {
            Some(h) => format!(
                "{} must hold one of {}, which with {} fills a set of {}",
                cell_words(extra_cells.iter()),
                digit_words(extras, "or"),
                cell_words(step.marked_cells(Role::Base).iter()),
                house_words(h)
            ),
            None => String::from("the extra digits form a set"),
        },
        Technique::UniqueRectangle4 | Technique::UniqueRectangle6 => String::from(
            "one of the rectangle's digits is locked in two corners, so the other cannot \
             join it there",
        ),
        _ => String::from("the pattern must be broken"),
    };
    format!(
        "{} must not end up holding only {} (the two digits could be swapped, giving a second \
         solution); {why}, so {}.",
        cell_words(corners.iter()),
        digit_words(step.digits, "and"),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;

    fn cands(ds: &[u8]) -> Candidates {
        ds.iter().filter_map(|&n| Digit::new(n)).collect()
    }

    /// An open grid with the rectangle r1c2, r1c7, r3c2, r3c7 (boxes 1 and 3): the floor
    /// r1c2, r1c7 is {4,9}, the roof gets `roof`.
    fn rectangle(roof: [&[u8]; 2]) -> Grid {
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(0, 1), cands(&[4, 9]));
        g.set_candidates(Cell::at(0, 6), cands(&[4, 9]));
        g.set_candidates(Cell::at(2, 1), cands(roof[0]));
        g.set_candidates(Cell::at(2, 6), cands(roof[1]));
        g
    }

    #[test]
    fn type_1_clears_the_fourth_corner() {
        let g = rectangle([&[4, 9], &[1, 4, 9]]);
        let s = find(&g, 1).unwrap();
        assert_eq!(
            s.text(),
            "Unique Rectangle Type 1: 4/9 in r1c2,r1c7,r3c2,r3c7 => r3c7<>4, r3c7<>9"
        );
        assert_eq!(s.marked_cells(Role::SetA).len(), 4);
        assert_eq!(s.marked_cells(Role::SetB), CellSet::single(Cell::at(2, 6)));
        for kind in [2, 3, 4] {
            assert!(find(&g, kind).is_none());
        }
    }

    #[test]
    fn a_given_corner_is_no_deadly_pattern() {
        // r3c7 is a given 1: r1c2, r1c7, r3c2 {4,9} plus a filled cell proves nothing.
        let mut g = grid(&format!("{}1{}", ".".repeat(24), ".".repeat(56)));
        for (r, c) in [(0, 1), (0, 6), (2, 1)] {
            g.set_candidates(Cell::at(r, c), cands(&[4, 9]));
        }
        assert!(g.is_given(Cell::at(2, 6)));
        for kind in 1..=4 {
            assert!(find(&g, kind).is_none());
        }
    }

    #[test]
    fn type_2_removes_the_common_extra_from_the_roofs_peers() {
        let g = rectangle([&[1, 4, 9], &[1, 4, 9]]);
        let s = find(&g, 2).unwrap();
        assert_eq!(
            s.text(),
            "Unique Rectangle Type 2: 4/9 in r1c2,r1c7,r3c2,r3c7 => r3c1345689<>1"
        );
        assert!(find(&g, 1).is_none());
    }

    #[test]
    fn type_3_pseudo_cell_forms_a_naked_pair() {
        // Roof extras {1,2} and r3c5 {1,2}: a naked pair on row 3.
        let mut g = rectangle([&[1, 4, 9], &[2, 4, 9]]);
        g.set_candidates(Cell::at(2, 4), cands(&[1, 2]));
        let s = find(&g, 3).unwrap();
        assert_eq!(
            s.text(),
            "Unique Rectangle Type 3: 4/9 in r1c2,r1c7,r3c2,r3c7 => r3c134689<>1, r3c134689<>2"
        );
        assert_eq!(s.houses, vec![(House::row(2), Role::Base)]);
        assert!(find(&g, 2).is_none(), "different extras are no type 2");
    }

    #[test]
    fn type_4_strong_link_in_the_roof() {
        // 4 in row 3 only in the roof: one roof cell is 4, so neither may be 9.
        let mut g = rectangle([&[1, 4, 9], &[2, 4, 9]]);
        for c in 0..9 {
            if c != 1 && c != 6 {
                g.eliminate(Cell::at(2, c), Digit::new(4).unwrap());
            }
        }
        let s = find(&g, 4).unwrap();
        assert_eq!(
            s.text(),
            "Unique Rectangle Type 4: 4/9 in r1c2,r1c7,r3c2,r3c7 => r3c27<>9"
        );
    }

    #[test]
    fn sound_on_bank_positions() {
        use crate::sudoku::techniques::xy_wing::rated;
        for (kind, at_least) in [(1, 250), (2, 90), (3, 460), (4, 215)] {
            rated::assert_sound_and_fires(&format!("UR type {kind}"), at_least, |g| find(g, kind));
        }
    }

    /// A position reached while solving a bank puzzle: floor r5c7, r5c9 {1,7}; roof r2c7 {1,7,8}, r2c9 {1,6,7,8}; with r2c3 {1,8} and r2c8 {1,6} the roof extras {6,8} form a naked triple {1,6,8} in row 2.
    const UR3_POSITION: &str = "
        .2....78.12.........3..............91......8......6......4.........5....12....78.
        ...4.678.1..4.6..91......8...3..........5.....2.......1.....78.1....6...1....678.
        .2...6.8.12...6.......5.......4.....1......8.......7..........91.3..6...123..6.8.
        1............5.....2.............7....3.........4..........6..........8.........9
        ..3.............8......6.......5.....2...............91.....7.....4.....1.....7..
        ........9......7.....4.....1.............6..........8...3.......2...........5....
        .....6.8...3..............9.2..........4.........5....1......8.......7..1....6.8.
        .2.4...8.12.4.....1......8......6.........7....3..........5............91..4...8.
        ....5.......4.6.........7.........8.........91.........2.........3..6.....34.6...";

    #[test]
    fn real_position() {
        use crate::sudoku::techniques::xy_wing::rated;
        let g = rated::position(UR3_POSITION);
        let s = find(&g, 3).unwrap();
        assert_eq!(
            s.text(),
            "Unique Rectangle Type 3: 1/7 in r2c7,r2c9,r5c7,r5c9 => r2c2<>1, r2c12<>6, r2c1<>8"
        );
        rated::assert_agrees_with_solver(&g, &s);
    }
}
