//! W-Wing: two bivalue cells with the same digits `{x,w}` that do not see each other, and a
//! strong link on `w` (a house where `w` has exactly two places) with one end seeing each cell.
//! One end of the link is `w`, so one of the two cells is not `w` and therefore `x`: every cell
//! seeing both bivalue cells loses `x`.
//!
//! The step marks the bivalue cells' candidates [`Role::Base`] and the link ends' `w`
//! [`Role::Link`], records the link's house as [`Role::Link`], and stores the whole chain
//! `x = w - w = w - w = x` in `links`.

use super::super::grid::Grid;
use super::super::step::{Link, LinkKind, Node, Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, Cell, CellSet, Digit, House};
use super::super::notation::{cell_words, house_words};
use super::{Flow, GO_ON, Instances};

/// Reports the W-Wings (bivalue pairs in reading order) that eliminate something.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    let mut bivalue = CellSet::EMPTY;
    for c in grid.empty_cells().iter() {
        if grid.candidates(c).len() == 2 {
            bivalue.insert(c);
        }
    }
    for c1 in bivalue.iter() {
        let pair = grid.candidates(c1);
        let later = CellSet::from_bits(bivalue.bits() & !((2u128 << c1.index()) - 1));
        for c2 in (later & !c1.peers()).iter() {
            if grid.candidates(c2) != pair {
                continue;
            }
            let common = c1.peers() & c2.peers();
            for x in pair.iter() {
                if (common & grid.digit_cells(x)).is_empty() {
                    continue;
                }
                let Some(w) = (pair & !Candidates::single(x)).first() else {
                    continue;
                };
                if let Some(step) = with_link(grid, c1, c2, x, w) {
                    out.add(step)?;
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

/// Looks for a strong link on `w` joining the peers of `c1` and `c2`; builds the step.
fn with_link(grid: &Grid, c1: Cell, c2: Cell, x: Digit, w: Digit) -> Option<Step> {
    let ends = CellSet::single(c1) | CellSet::single(c2);
    for house in House::all() {
        let cells = grid.house_digit_cells(house, w);
        if cells.len() != 2 || !(cells & ends).is_empty() {
            continue;
        }
        let mut it = cells.iter();
        let (Some(l1), Some(l2)) = (it.next(), it.next()) else {
            continue;
        };
        let (near1, near2) = if c1.sees(l1) && c2.sees(l2) {
            (l1, l2)
        } else if c1.sees(l2) && c2.sees(l1) {
            (l2, l1)
        } else {
            continue;
        };
        let mut step = Step::new(Technique::WWing);
        if eliminate_where_possible(&mut step, grid, c1.peers() & c2.peers(), x) == 0 {
            return None;
        }
        step.digits = Candidates::single(x) | Candidates::single(w);
        step.houses.push((house, Role::Link));
        for c in [c1, c2] {
            step.mark(c, x, Role::Base);
            step.mark(c, w, Role::Base);
        }
        step.mark(near1, w, Role::Link);
        step.mark(near2, w, Role::Link);
        let chain = [
            (Node::cell(c1, x), Node::cell(c1, w), LinkKind::Strong),
            (Node::cell(c1, w), Node::cell(near1, w), LinkKind::Weak),
            (Node::cell(near1, w), Node::cell(near2, w), LinkKind::Strong),
            (Node::cell(near2, w), Node::cell(c2, w), LinkKind::Weak),
            (Node::cell(c2, w), Node::cell(c2, x), LinkKind::Strong),
        ];
        step.links = chain
            .into_iter()
            .map(|(from, to, kind)| Link { from, to, kind })
            .collect();
        return Some(step);
    }
    None
}

/// `W-Wing: 1/2 in r1c1,r5c5 connected by 2 in r1c4,r5c4 => r1c5<>1` (eliminated digit first,
/// then the link digit).
pub(crate) fn text(step: &Step) -> String {
    let link = step.marked(Role::Link).next();
    let cells = step.marked_cells(Role::Base);
    match link {
        Some(l) if cells.len() == 2 => {
            let w = l.digit;
            let x = (step.digits & !Candidates::single(w)).first();
            let x = x.map(|d| d.to_string()).unwrap_or_default();
            format!(
                "{}: {}/{} in {} connected by {} in {} => {}",
                step.technique.name(),
                x,
                w,
                cell_list(cells),
                w,
                cell_list(step.marked_cells(Role::Link)),
                step.effect_text()
            )
        }
        _ => super::plain_text(step),
    }
}

/// `r1c1,r5c5`: the cells in reading order, each written out.
fn cell_list(cells: CellSet) -> String {
    cells
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// "r1c1 and r5c5 hold only 2 and 7, and the 7 of column 4 is in r1c4 or r5c4, each seeing one
/// of them; so one of the two cells is 2, and r1c5 cannot be 2."
pub(crate) fn sentence(step: &Step) -> String {
    let w = step.marked(Role::Link).next().map(|c| c.digit);
    let house = step.houses_with(Role::Link).next();
    let (Some(w), Some(house)) = (w, house) else {
        return super::generic_sentence(step);
    };
    let Some(x) = (step.digits & !Candidates::single(w)).first() else {
        return super::generic_sentence(step);
    };
    let ends: Vec<String> = step.marked(Role::Link).map(|c| c.cell.to_string()).collect();
    format!(
        "{} hold only {x} and {w}, and the {w} of {} is in {}, each seeing one of them; so one \
         of the two cells is {x}, and {}.",
        cell_words(step.marked_cells(Role::Base).iter()),
        house_words(house),
        super::super::notation::join_words(&ends, "or"),
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

    /// r1c1 and r5c5 are {1,2}; 2 in column 4 only at r1c4 and r5c4 (1 everywhere).
    fn wing_grid() -> Grid {
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(0, 0), cands(&[1, 2]));
        g.set_candidates(Cell::at(4, 4), cands(&[1, 2]));
        for r in [1, 2, 3, 5, 6, 7, 8] {
            g.set_candidates(Cell::at(r, 3), cands(&[1, 3, 4, 5, 6, 7, 8, 9]));
        }
        g
    }

    #[test]
    fn textbook_wing() {
        let s = find(&wing_grid()).unwrap();
        assert_eq!(
            s.text(),
            "W-Wing: 1/2 in r1c1,r5c5 connected by 2 in r1c4,r5c4 => r1c5,r5c1<>1"
        );
        assert_eq!(s.links.len(), 5);
        assert_eq!(s.links[2].kind, LinkKind::Strong);
        assert_eq!(s.houses, vec![(House::col(3), Role::Link)]);
    }

    #[test]
    fn no_wing_without_the_strong_link() {
        let mut g = wing_grid();
        g.set_candidates(Cell::at(8, 3), cands(&[2, 3]));
        let s = find(&g);
        assert!(s.is_none(), "{:?}", s.map(|s| s.text()));
    }

    #[test]
    fn sound_on_bank_positions() {
        // Every position of the explained solves of real bank puzzles; each step checked against
        // the solution, and the finder must fire.
        crate::sudoku::techniques::xy_wing::rated::assert_sound_and_fires("W-Wing", 480, find);
    }

    /// A position reached while solving a bank puzzle: r6c3 and r9c2 are {1,6}; column 9 has
    /// 6 only in r6c9 and r9c9.
    const W_POSITION: &str = "
        .2..............8.......7..........91.3...........6......4.....1.3.5....1...5....
        ........91.3..6.......5..........7..1.3.........4............8.1.3..6....2.......
        1.3..6......4.....1....6..........8..2...........5..........7..1.3..6...........9
        1.3..6...........9.2...........5..........7.........8.1.3..6...1.3..6......4.....
        .......8...3.5.......4..........6...........91..........3.5.....2.............7..
        ......7..1...56...1....6.....3.........4......2...............91...56.8.1...56...
        1....6....2.........3.........4.........5..........7..1....6...........9.......8.
        ....5..........7.........8.1.............6...........9.2..........4.......3......
        ...4.....1....6...........9.2..............8...3......1...56.........7..1...56...";

    #[test]
    fn real_position() {
        use crate::sudoku::techniques::xy_wing::rated;
        let g = rated::position(W_POSITION);
        let s = (find)(&g).unwrap();
        assert_eq!(
            s.text(),
            "W-Wing: 1/6 in r6c3,r9c2 connected by 6 in r6c9,r9c9 => r6c2<>1"
        );
        rated::assert_agrees_with_solver(&g, &s);
    }
}
