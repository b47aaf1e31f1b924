//! Turbot Fish: the length-4 single-digit chain `a = b - c = d` — two conjugate pairs (strong
//! links, in any house) whose inner ends `b` and `c` see each other — that is neither a
//! Skyscraper (two parallel line pairs joined along a line) nor a 2-String Kite (a row pair and a
//! column pair joined in a box), typically because one strong link is a box. One of the outer
//! ends `a`, `d` is true, so a candidate that sees both goes.
//!
//! The outer ends are marked [`Role::Base`], the inner ends [`Role::Link`]; `step.links` holds
//! the chain.

use super::super::grid::{Candidate, Grid};
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, Cell, CellSet, Digit, House, HouseKind};
use super::skyscraper::chain;
use super::super::notation::{cell_words, house_words, join_words};
use super::{Flow, GO_ON, Instances};

/// Reports the Turbot Fish that remove a candidate, digits in order.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    for d in Digit::ALL {
        // Every strong link of `d`: the houses where it is a conjugate pair.
        let mut links = [(Cell::from_index(0), Cell::from_index(0), House::row(0)); 27];
        let mut n = 0;
        for h in House::all() {
            let cells = grid.house_digit_cells(h, d);
            if cells.len() == 2 {
                let mut it = cells.iter();
                if let (Some(a), Some(b)) = (it.next(), it.next()) {
                    links[n] = (a, b, h);
                    n += 1;
                }
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let (p1, p2, h1) = links[i];
                let (q1, q2, h2) = links[j];
                for (a, b) in [(p1, p2), (p2, p1)] {
                    for (c, e) in [(q1, q2), (q2, q1)] {
                        if let Some(step) = build(grid, d, [a, b, c, e], h1, h2) {
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

/// The chain `a = b - c = e` (strong links in `h1`, `h2`) if it is a proper Turbot Fish that
/// removes something.
fn build(grid: &Grid, d: Digit, cells: [Cell; 4], h1: House, h2: House) -> Option<Step> {
    let [a, b, c, e] = cells;
    if a == c || a == e || b == c || b == e || !b.sees(c) {
        return None;
    }
    let set: CellSet = cells.into_iter().collect();
    let targets = a.peers() & e.peers() & grid.digit_cells(d) & !set;
    if targets.is_empty() || is_skyscraper_or_kite(grid, d, cells) {
        return None;
    }
    let weak = (CellSet::single(b) | CellSet::single(c)).common_house()?;
    let mut step = Step::new(Technique::TurbotFish);
    step.digits = Candidates::single(d);
    step.houses.push((h1, Role::Base));
    step.houses.push((h2, Role::Base));
    step.houses.push((weak, Role::Link));
    step.mark(a, d, Role::Base);
    step.mark(e, d, Role::Base);
    step.mark(b, d, Role::Link);
    step.mark(c, d, Role::Link);
    step.links = chain(d, cells);
    for t in targets.iter() {
        step.eliminations.push(Candidate::new(t, d));
    }
    Some(step)
}

/// Whether `x` and `y` are a conjugate pair of `d` in a line of `kind` (row or column).
fn line_pair(grid: &Grid, d: Digit, x: Cell, y: Cell, kind: HouseKind) -> bool {
    let line = match kind {
        HouseKind::Row if x.row() == y.row() => House::row(x.row()),
        HouseKind::Col if x.col() == y.col() => House::col(x.col()),
        _ => return false,
    };
    grid.house_digit_cells(line, d).len() == 2
}

/// Whether the chain `a = b - c = e` has the shape the Skyscraper or 2-String Kite finder reports
/// (or is an X-Wing), so that Turbot Fish leaves it to them.
fn is_skyscraper_or_kite(grid: &Grid, d: Digit, [a, b, c, e]: [Cell; 4]) -> bool {
    use HouseKind::{Col, Row};
    // Skyscraper / X-Wing: parallel line pairs whose inner ends share the crossing line.
    let parallel = (line_pair(grid, d, a, b, Row)
        && line_pair(grid, d, c, e, Row)
        && b.col() == c.col())
        || (line_pair(grid, d, a, b, Col) && line_pair(grid, d, c, e, Col) && b.row() == c.row());
    // Kite: a row pair and a column pair whose inner ends share a box the outer ends avoid.
    let crossed = (line_pair(grid, d, a, b, Row) && line_pair(grid, d, c, e, Col))
        || (line_pair(grid, d, a, b, Col) && line_pair(grid, d, c, e, Row));
    let kite = crossed
        && b.box_index() == c.box_index()
        && a.box_index() != b.box_index()
        && e.box_index() != b.box_index();
    parallel || kite
}

/// `Turbot Fish: 3 in r1c2,r5c8 (connected by r2c5,r5c4) => r1c8<>3`
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
    use crate::sudoku::step::LinkKind;
    use crate::sudoku::techniques::basic_fish::tests::{
        assert_single_digit_sound, assert_solver_sound, digit_grid,
    };
    use crate::sudoku::techniques::test_util::grid;

    #[test]
    fn box_pair_then_row_pair() {
        // 3: box 2 only r1c5/r3c4, row 5 only r5c4/r5c8; r3c4 and r5c4 share column 4. A full
        // placement (r1c1 r2c7 r3c4 r4c6 r5c8 r6c3 r7c2 r8c5 r9c9), the pattern's r1c5 and
        // r5c4, the target r1c8, and more cells so no other house is a pair.
        let g = digit_grid(
            3,
            "r1c1 r2c7 r3c4 r4c6 r5c8 r6c3 r7c2 r8c5 r9c9 r1c5 r5c4 r1c8 \
             r2c1 r2c9 r3c2 r3c9 r4c3 r4c7 r6c1 r6c6 r7c7 r7c9 r8c2 r8c6 \
             r9c3 r9c6 r9c8 r7c5 r8c4 r6c9",
        );
        let s = find(&g).unwrap();
        assert_eq!(
            s.text(),
            "Turbot Fish: 3 in r1c5,r5c8 (connected by r35c4) => r1c8<>3"
        );
        assert_eq!(s.links.len(), 3);
        assert_eq!(s.links[1].kind, LinkKind::Weak);
        assert_single_digit_sound(&g, &s);
    }

    #[test]
    fn real_position() {
        // Pencil marks of the SE-rated puzzle
        // 000690030000000004002007906050003008406010703200500040308100400600000000070058000
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            "1.....78....4.....1.....7.......6...........91...5....12..5..8...3......12....7..\
             1.....789.....6...1.3...7.9.23....8..23....8.1...5....1...5..8.1.....78....4.....\
             ....5....1.3.......2.........34...8...34...8.......7..........91......8......6...\
             1.....7.9....5....1.....7.9...4..7.9...4.67....3.......2...6....2...6..9.......8.\
             ...4............89.....6....2.....891.........2......9......7......5......3......\
             .2.........3....8...3...7......5..........78......6..91....6......4.....1.......9\
             ..3.......2......9.......8.1.........2...67...2...6..9...4......2....7.9....5....\
             .....6...12......9....5.....23...7.9.23...7.....4.....123....8.12....78912....7.9\
             1.......9......7.....4......23.....9....5...........8.123..6...12...6..912......9",
        );
        let s = super::find(&g).unwrap();
        assert_eq!(
            s.text(),
            "Turbot Fish: 1 in r3c8,r9c1 (connected by r38c2) => r9c8<>1"
        );
        assert_solver_sound(&g, &s);
    }
}
