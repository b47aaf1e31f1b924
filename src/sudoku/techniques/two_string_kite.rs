//! 2-String Kite: a digit is a conjugate pair in a row and in a column, and one cell of each
//! pair lies in the same box (the two cells differ and the other two ends are outside that box).
//! The two box cells cannot both be true, so one of the far ends is: a candidate that sees both
//! ends goes.
//!
//! As a chain: `end1 = box1 - box2 = end2` (row strong, box weak, column strong). The ends are
//! marked [`Role::Base`], the box cells [`Role::Link`].

use super::super::grid::{Candidate, Grid};
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, Cell, CellSet, Digit, House, HouseKind};
use super::skyscraper::chain;
use super::super::notation::{cell_words, house_words, join_words};
use super::{Flow, GO_ON, Instances};

/// The conjugate pairs of `d` in houses of `kind`: up to nine `(cell, cell, house)`.
pub(super) fn conjugate_pairs(
    grid: &Grid,
    d: Digit,
    kind: HouseKind,
    out: &mut [(Cell, Cell, House); 9],
) -> usize {
    let mut n = 0;
    for h in House::of_kind(kind) {
        let cells = grid.house_digit_cells(h, d);
        if cells.len() == 2 {
            let mut it = cells.iter();
            if let (Some(a), Some(b)) = (it.next(), it.next()) {
                out[n] = (a, b, h);
                n += 1;
            }
        }
    }
    n
}

/// Reports the 2-String Kites that remove a candidate, digits in order.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    let blank = (Cell::from_index(0), Cell::from_index(0), House::row(0));
    for d in Digit::ALL {
        let mut rows = [blank; 9];
        let mut cols = [blank; 9];
        let n_rows = conjugate_pairs(grid, d, HouseKind::Row, &mut rows);
        let n_cols = conjugate_pairs(grid, d, HouseKind::Col, &mut cols);
        for &(r1, r2, row) in &rows[..n_rows] {
            for &(c1, c2, col) in &cols[..n_cols] {
                for (end_r, box_r) in [(r1, r2), (r2, r1)] {
                    for (box_c, end_c) in [(c1, c2), (c2, c1)] {
                        if let Some(step) = build(grid, d, [end_r, box_r, box_c, end_c], row, col) {
                            out.add(step)?;
                        }
                    }
                }
            }
        }
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// The kite `end_r = box_r - box_c = end_c` if its shape holds and it removes something.
fn build(grid: &Grid, d: Digit, cells: [Cell; 4], row: House, col: House) -> Option<Step> {
    let [end_r, box_r, box_c, end_c] = cells;
    let bx = box_r.box_index();
    if box_c.box_index() != bx
        || box_r == box_c
        || end_r.box_index() == bx
        || end_c.box_index() == bx
        || end_r == end_c
    {
        return None;
    }
    let ends = CellSet::single(end_r) | CellSet::single(end_c);
    let targets = ends.common_peers() & grid.digit_cells(d);
    if targets.is_empty() {
        return None;
    }
    let mut step = Step::new(Technique::TwoStringKite);
    step.digits = Candidates::single(d);
    step.houses.push((row, Role::Base));
    step.houses.push((col, Role::Base));
    step.houses.push((House::boxed(bx), Role::Link));
    step.mark(end_r, d, Role::Base);
    step.mark(end_c, d, Role::Base);
    step.mark(box_r, d, Role::Link);
    step.mark(box_c, d, Role::Link);
    step.links = chain(d, cells);
    for c in targets.iter() {
        step.eliminations.push(Candidate::new(c, d));
    }
    Some(step)
}

/// `2-String Kite: 5 in r2c6,r7c1 (connected by r7c5,r8c6) => r2c1<>5`
pub(crate) fn text(step: &Step) -> String {
    super::skyscraper::text(step)
}

/// "The 4 has exactly two places in column 4 and in column 7; r3c4 and r3c7 cannot both be 4,
/// so one of r5c4 and r6c7 is, and r5c9 cannot be 4."
pub(crate) fn sentence(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::generic_sentence(step);
    };
    let hs: Vec<String> = step.houses_with(Role::Base).map(house_words).collect();
    format!(
        "The {d} has exactly two places in {}; {} cannot both be {d}, so one of {} is {d}, and \
         {}.",
        join_words(&hs, "and in"),
        cell_words(step.marked_cells(Role::Link).iter()),
        cell_words(step.marked_cells(Role::Base).iter()),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::basic_fish::tests::{
        assert_single_digit_sound, assert_solver_sound, digit_grid,
    };
    use crate::sudoku::techniques::test_util::grid;

    #[test]
    fn row_7_and_column_6_through_box_8() {
        // 5: row 7 only c1/c5, column 6 only r2/r8; r7c5 and r8c6 share box 8. A full
        // placement (r1c3 r2c6 r3c8 r4c1 r5c4 r6c9 r7c5 r8c7 r9c2), the pattern's r7c1 and r8c6,
        // the target r2c1, and more cells so no other line is a pair.
        let g = digit_grid(
            5,
            "r1c3 r2c6 r3c8 r4c1 r5c4 r6c9 r7c5 r8c7 r9c2 r7c1 r8c6 r2c1 \
             r1c4 r1c9 r2c9 r3c2 r3c4 r4c3 r4c8 r5c2 r5c7 r6c3 r6c8 r8c2 \
             r9c4 r9c8 r5c3 r9c7",
        );
        let s = find(&g).unwrap();
        assert_eq!(
            s.text(),
            "2-String Kite: 5 in r2c6,r7c1 (connected by r7c5,r8c6) => r2c1<>5"
        );
        assert_eq!(s.houses_with(Role::Link).next(), Some(House::boxed(7)));
        assert_single_digit_sound(&g, &s);
    }

    #[test]
    fn real_position() {
        // Pencil marks of the SE-rated puzzle
        // 000302000060508010700000006004701600020090080001080900007000300800107005090050040
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            "1..4.....1..4.........5..8...3...........6....2...........5..8.......7..........9\
             .23...........6...........9....5..........7.........8....4.....1.........23......\
             ......7....3.5.....23.5..8.........91...........4.........5..8..23...........6...\
             ........9.......8....4...........7...23......1.............6.......5.....23......\
             ..3.56....2.........3.5.......4.............9..3.56...1.....7.........8.1.....7..\
             ..3.56.........7..1.........2...6..........8...3.56...........9.23.........4.....\
             12.45....1..45..........7...2.....8..2.4.............9..3...........6...1......8.\
             .......8...34..........6...1..........34...........7...2...............9....5....\
             123..............9.23.......2...6.8.....5......3..6...1.....7.....4.....1.....78.",
        );
        let s = super::find(&g).unwrap();
        assert_eq!(
            s.text(),
            "2-String Kite: 3 in r2c1,r6c8 (connected by r2c9,r3c8) => r6c1<>3"
        );
        assert_solver_sound(&g, &s);
    }
}
