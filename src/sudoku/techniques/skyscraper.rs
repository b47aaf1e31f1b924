//! Skyscraper: two parallel lines (two columns, or two rows) that each hold a digit exactly
//! twice — two conjugate pairs — with one end of each pair on a common crossing line. The two
//! ends on that line cannot both be true, so one of the two far ends (the tops of the towers) is:
//! a candidate that sees both tops goes.
//!
//! As a chain: `top1 = base1 - base2 = top2` (strong, weak, strong). The tops are marked
//! [`Role::Base`], the connected cells [`Role::Link`].

use super::super::grid::{Candidate, Grid};
use super::super::notation::compact_cells;
use super::super::step::{Link, LinkKind, Node, Role, Step, Technique};
use super::super::types::{Candidates, Cell, CellSet, Digit, House, HouseKind};
use super::super::notation::{cell_words, house_words, join_words};
use super::{Flow, GO_ON, Instances};

/// Reports the skyscrapers that remove a candidate: digits in order, column pairs before row
/// pairs.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    for d in Digit::ALL {
        let cells_d = grid.digit_cells(d);
        for kind in [HouseKind::Col, HouseKind::Row] {
            // The lines of `kind` where `d` is a conjugate pair.
            let mut pairs = [(Cell::from_index(0), Cell::from_index(0), House::row(0)); 9];
            let mut n = 0;
            for line in House::of_kind(kind) {
                let cells = cells_d & line.cell_set();
                if cells.len() == 2 {
                    let mut it = cells.iter();
                    if let (Some(a), Some(b)) = (it.next(), it.next()) {
                        pairs[n] = (a, b, line);
                        n += 1;
                    }
                }
            }
            for i in 0..n {
                for j in i + 1..n {
                    if let Some(step) = try_pair(grid, d, pairs[i], pairs[j], kind) {
                        out.add(step)?;
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

/// The position of `c` along a line of `kind` (its row for a column, its column for a row).
fn along(c: Cell, kind: HouseKind) -> usize {
    match kind {
        HouseKind::Col => c.row(),
        _ => c.col(),
    }
}

/// Two parallel conjugate pairs: a skyscraper when exactly one end of each lies on a common
/// crossing line.
fn try_pair(
    grid: &Grid,
    d: Digit,
    (a1, a2, line_a): (Cell, Cell, House),
    (b1, b2, line_b): (Cell, Cell, House),
    kind: HouseKind,
) -> Option<Step> {
    for (base_a, top_a) in [(a1, a2), (a2, a1)] {
        for (base_b, top_b) in [(b1, b2), (b2, b1)] {
            if along(base_a, kind) != along(base_b, kind)
                || along(top_a, kind) == along(top_b, kind)
            {
                continue;
            }
            let tops = CellSet::single(top_a) | CellSet::single(top_b);
            let targets = tops.common_peers() & grid.digit_cells(d);
            if targets.is_empty() {
                continue;
            }
            let cross = if kind == HouseKind::Col {
                House::row(base_a.row())
            } else {
                House::col(base_a.col())
            };
            let mut step = Step::new(Technique::Skyscraper);
            step.digits = Candidates::single(d);
            step.houses.push((line_a, Role::Base));
            step.houses.push((line_b, Role::Base));
            step.houses.push((cross, Role::Link));
            step.mark(top_a, d, Role::Base);
            step.mark(top_b, d, Role::Base);
            step.mark(base_a, d, Role::Link);
            step.mark(base_b, d, Role::Link);
            step.links = chain(d, [top_a, base_a, base_b, top_b]);
            for c in targets.iter() {
                step.eliminations.push(Candidate::new(c, d));
            }
            return Some(step);
        }
    }
    None
}

/// The links of a length-4 single-digit chain `a = b - c = e` over single cells.
pub(super) fn chain(d: Digit, [a, b, c, e]: [Cell; 4]) -> Vec<Link> {
    let link = |from, to, kind| Link {
        from: Node::cell(from, d),
        to: Node::cell(to, d),
        kind,
    };
    vec![
        link(a, b, LinkKind::Strong),
        link(b, c, LinkKind::Weak),
        link(c, e, LinkKind::Strong),
    ]
}

/// `Skyscraper: 4 in r5c4,r6c7 (connected by r3c47) => r5c9,r6c6<>4`. Shared by the other
/// length-4 single-digit chains (2-String Kite, Turbot Fish).
pub(crate) fn text(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::plain_text(step);
    };
    format!(
        "{}: {} in {} (connected by {}) => {}",
        step.technique.name(),
        d,
        compact_cells(step.marked(Role::Base).map(|c| c.cell)),
        compact_cells(step.marked(Role::Link).map(|c| c.cell)),
        step.effect_text()
    )
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
    fn columns_joined_on_row_3() {
        // 4: column 4 only r3/r5, column 7 only r3/r6 (joined in row 3). A full placement
        // (r1c1 r2c8 r3c4 r4c2 r5c6 r6c7 r7c3 r8c5 r9c9), the pattern's r3c7 and r5c4, the
        // targets r5c9 and r6c6, and more cells so every other column holds 4 three times.
        let g = digit_grid(
            4,
            "r1c1 r2c8 r3c4 r4c2 r5c6 r6c7 r7c3 r8c5 r9c9 r3c7 r5c4 r5c9 \
             r6c6 r2c1 r9c1 r8c2 r1c2 r4c3 r8c3 r1c5 r4c5 r7c6 r1c8 r7c8 \
             r7c9",
        );
        let s = find(&g).unwrap();
        assert_eq!(
            s.text(),
            "Skyscraper: 4 in r5c4,r6c7 (connected by r3c47) => r5c9,r6c6<>4"
        );
        assert_eq!(s.links.len(), 3);
        assert_eq!(s.links[0].kind, LinkKind::Strong);
        assert_eq!(s.links[1].kind, LinkKind::Weak);
        assert_single_digit_sound(&g, &s);
    }

    #[test]
    fn real_position() {
        // Pencil marks of the SE-rated puzzle
        // 900605004070800050005047200307000061006000500590000407003750600050001080700304005
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            "........9.2.....8.1.............6....23..........5......3....8.......7.....4.....\
             .2...6.........7.....4............8.1.........23........3.....9....5.........6..9\
             .....6.8...3..........5............9...4...........7...2.......1.............6.8.\
             ..3.........4...........7......5.....2......9.2.....89.......89.....6...1........\
             12.....8.12.....8......6......4...........7....3....89....5......3.....9.2.....89\
             ....5............9.2.....8.1..........3....8......6......4......23............7..\
             12.....8.12.....8...3............7......5...........89.....6......4......2......9\
             ...4.........5............9.2............6...1..............7.........8...3......\
             ......7.......6....2.....8...3.............89...4.....1.........2......9....5....",
        );
        let s = super::find(&g).unwrap();
        assert_eq!(
            s.text(),
            "Skyscraper: 9 in r4c5,r5c8 (connected by r9c58) => r4c7,r5c6<>9"
        );
        assert_solver_sound(&g, &s);
    }
}
