//! Remote Pair: a chain of at least four cells with the same two candidates `{a,b}`, each seeing
//! the next. Neighbours hold different digits, so the cells alternate `a b a b …`; two cells an
//! odd number of steps apart hold one `a` and one `b` between them, and every other cell seeing
//! both loses `a` and `b` (two neighbours would be a plain naked pair, so only cells 3, 5, …
//! apart count).
//!
//! The step stores the chain as weak links between neighbours, each labelled with the digit the
//! first cell would pass on (`r1c1 -2- r1c5` reads "if r1c1 is 2, r1c5 is not"); the labels
//! alternate starting with the smaller digit. Chain cells at even positions are marked
//! [`Role::ColorA`], odd ones [`Role::ColorB`].

use super::super::grid::Grid;
use super::super::notation::slash_digits;
use super::super::step::{Link, LinkKind, Node, Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, Cell, CellSet};
use super::super::notation::{cell_words, digit_words};
use super::{Flow, GO_ON, Instances};

/// The longest chain considered (cells); a chain through a pair's cells is never longer.
const MAX_CELLS: usize = 81;

/// Reports the Remote Pairs (pairs by their first cell in reading order) that eliminate
/// something.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    let mut bivalue = CellSet::EMPTY;
    for c in grid.empty_cells().iter() {
        if grid.candidates(c).len() == 2 {
            bivalue.insert(c);
        }
    }
    let mut done = CellSet::EMPTY;
    for first in bivalue.iter() {
        if done.contains(first) {
            continue;
        }
        let pair = grid.candidates(first);
        let mut group = CellSet::EMPTY;
        for c in bivalue.iter() {
            if grid.candidates(c) == pair {
                group.insert(c);
            }
        }
        done |= group;
        if group.len() < 4 {
            continue;
        }
        search_group(grid, pair, group, out)?;
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// Searches the cells `group` (all exactly `pair`) for two cells an odd distance (at least 3)
/// apart with a common peer holding a digit of the pair.
fn search_group(grid: &Grid, pair: Candidates, group: CellSet, out: &mut Instances) -> Flow {
    let mut pair_cells = CellSet::EMPTY;
    for d in pair.iter() {
        pair_cells |= grid.digit_cells(d);
    }
    // Chain cells are never targets: a group cell seeing both ends would make them 2 apart.
    pair_cells &= !group;
    let mut parent = [0u8; 81];
    for start in group.iter() {
        // Breadth-first search from `start` over the group's "sees" graph.
        let mut frontier = CellSet::single(start);
        let mut reached = frontier;
        let mut level = 0u8;
        while !frontier.is_empty() {
            level += 1;
            let mut next = CellSet::EMPTY;
            for c in frontier.iter() {
                for n in (c.peers() & group & !reached & !next).iter() {
                    parent[n.index()] = c.index() as u8;
                    next.insert(n);
                }
            }
            reached |= next;
            frontier = next;
            if level >= 3 && level % 2 == 1 {
                for end in next.iter() {
                    if end < start || (start.peers() & end.peers() & pair_cells).is_empty() {
                        continue;
                    }
                    let mut path = [start; MAX_CELLS];
                    let len = level as usize + 1;
                    let mut c = end;
                    for slot in path[..len].iter_mut().rev() {
                        *slot = c;
                        c = Cell::from_index(parent[c.index()] as usize);
                    }
                    out.add(build(grid, pair, &path[..len], pair_cells))?;
                }
            }
        }
    }
    GO_ON
}

/// The step for the chain `path` (alternating cells): eliminates the pair's digits from every
/// cell outside the chain that sees two chain cells an odd distance of at least 3 apart (cells
/// seeing two neighbours are a naked pair's business).
fn build(grid: &Grid, pair: Candidates, path: &[Cell], pair_cells: CellSet) -> Step {
    let mut step = Step::new(Technique::RemotePair);
    let mut targets = CellSet::EMPTY;
    for (i, &p) in path.iter().enumerate() {
        for &q in path.iter().skip(i + 3).step_by(2) {
            targets |= p.peers() & q.peers();
        }
    }
    targets &= pair_cells;
    for d in pair.iter() {
        eliminate_where_possible(&mut step, grid, targets, d);
    }
    step.digits = pair;
    let digits: Vec<_> = pair.iter().collect();
    for (i, &c) in path.iter().enumerate() {
        let role = if i % 2 == 0 {
            Role::ColorA
        } else {
            Role::ColorB
        };
        for &d in &digits {
            step.mark(c, d, role);
        }
        if let (Some(&next), Some(&label)) = (path.get(i + 1), digits.get(i % 2)) {
            step.links.push(Link {
                from: Node::cell(c, label),
                to: Node::cell(next, label),
                kind: LinkKind::Weak,
            });
        }
    }
    step
}

/// `Remote Pair: 2/7 r1c1 -2- r1c5 -7- r5c5 -2- r5c9 => r1c9<>2, r1c9<>7`
pub(crate) fn text(step: &Step) -> String {
    let Some(first) = step.links.first().and_then(|l| l.from.cells.first()) else {
        return super::plain_text(step);
    };
    let mut chain = first.to_string();
    for l in &step.links {
        if let Some(to) = l.to.cells.first() {
            chain.push_str(&format!(" -{}- {}", l.from.digit, to));
        }
    }
    format!(
        "{}: {} {} => {}",
        step.technique.name(),
        slash_digits(step.digits.iter()),
        chain,
        step.effect_text()
    )
}

/// "r1c1, r1c5, r4c5 and r4c9 hold only 2 and 7 and alternate along the chain, so r1c1 and
/// r4c9 hold one of each, and r1c9 cannot be 2 or 7."
pub(crate) fn sentence(step: &Step) -> String {
    let nodes = super::chains::link_nodes(&step.links);
    let cells: Vec<Cell> = nodes.iter().filter_map(|n| n.cells.first()).collect();
    let mut chain: Vec<Cell> = Vec::new();
    for c in cells {
        if !chain.contains(&c) {
            chain.push(c);
        }
    }
    let (Some(&first), Some(&last)) = (chain.first(), chain.last()) else {
        return super::generic_sentence(step);
    };
    format!(
        "{} hold only {} and alternate along the chain, so {} hold one of each, and {}.",
        cell_words(chain.iter().copied()),
        digit_words(step.digits, "and"),
        cell_words([first, last]),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;
    use crate::sudoku::types::Digit;

    fn pair_grid(cells: &[(usize, usize)]) -> Grid {
        let mut g = grid(&".".repeat(81));
        let pair: Candidates = [2, 7].into_iter().filter_map(Digit::new).collect();
        for &(r, c) in cells {
            g.set_candidates(Cell::at(r - 1, c - 1), pair);
        }
        g
    }

    #[test]
    fn four_cell_chain() {
        let g = pair_grid(&[(1, 1), (1, 5), (5, 5), (5, 9)]);
        let s = find(&g).unwrap();
        // Only r1c9 and r5c1 see both ends; cells seeing two neighbours are left alone.
        assert_eq!(
            s.text(),
            "Remote Pair: 2/7 r1c1 -2- r1c5 -7- r5c5 -2- r5c9 => r1c9,r5c1<>2, r1c9,r5c1<>7"
        );
        assert_eq!(s.links.len(), 3);
        assert_eq!(s.marked_cells(Role::ColorA).len(), 2);
    }

    #[test]
    fn three_cells_are_not_enough() {
        let g = pair_grid(&[(1, 1), (1, 5), (5, 5)]);
        assert!(find(&g).is_none());
    }

    #[test]
    fn sound_on_bank_positions() {
        // Every position of the explained solves of real bank puzzles; each step checked against
        // the solution, and the finder must fire.
        crate::sudoku::techniques::xy_wing::rated::assert_sound_and_fires("Remote Pair", 30, find);
    }

    /// A position reached while solving a bank puzzle: r2c1, r2c9, r3c8, r6c8 are all {2,3}; r6c1 sees both ends.
    const RP_POSITION: &str = "
        1..45....1..45........5..8...3...........6....2...........5..8.......7..........9
        .23...........6....23.....9....5..........7.........8....4.....1.........23......
        ......7....3.5.....23.5..8.........91...........4.........5..8..23...........6...
        ........9.......8....4...........7...23......1.............6.......5.....23......
        ..3.56....2.........3.5.......4.6...........9..3.56...1.....7.........8.1.34..7..
        ..3.56.........7..1.........2.4.6..........8...3.56...........9.23.......234.....
        12.45....1..45..........7...2.....8..2.4.............9..3...........6...1......8.
        .......8...34..........6...1..........34...........7...2...............9....5....
        123..............9.23.......2...6.8.....5......3..6...1.....7.....4.....1.....78.";

    #[test]
    fn real_position() {
        use crate::sudoku::techniques::xy_wing::rated;
        let g = rated::position(RP_POSITION);
        let s = (find)(&g).unwrap();
        assert_eq!(
            s.text(),
            "Remote Pair: 2/3 r2c1 -2- r2c9 -3- r3c8 -2- r6c8 => r6c1<>3"
        );
        rated::assert_agrees_with_solver(&g, &s);
    }
}
