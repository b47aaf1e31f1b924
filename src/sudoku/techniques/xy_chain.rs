//! XY-Chain: a chain of bivalue cells, each sharing a digit with the next one (the two cells
//! see each other). If the first cell is not `x` it holds its other digit, which the next cell
//! then cannot hold, and so on; the last cell then holds `x`. So one of the two end cells holds
//! `x`, and every cell that sees both ends loses `x`. XY-Wing is the three-cell case; this
//! finder returns the shortest chain (of any length) that eliminates something.

use super::super::grid::Grid;
use super::super::step::{Step, Technique};
use super::super::types::Candidates;
use super::chains::{self, Elims, Graph, LinkSet};
use super::{Flow, Instances};

/// Longest chain searched, in nodes (two per cell): every cell of the grid.
const MAX_NODES: usize = 2 * 81;

/// Reports the XY-Chains that eliminate a candidate (one: the shortest).
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    let g = Graph::build(
        grid,
        &LinkSet {
            digits: Candidates::ALL,
            bivalue_only: true,
            strong_in_cell: true,
            strong_in_house: false,
            weak_in_cell: false,
            weak_in_house: true,
            groups: false,
            als_cells: 0,
        },
    );
    let eval = |f: &chains::Found<'_>| {
        let (s, e) = (g.node(f.start), g.node(f.end));
        if s.digit != e.digit || s.cells == e.cells {
            return None;
        }
        let mut el = Elims::default();
        el.add_seeing_both(&g, grid, f.start, f.end);
        (!el.is_empty()).then_some(el)
    };
    chains::report(&g, 6, MAX_NODES, out, eval, |path, elims| {
        let mut step = chains::chain_step(Technique::XYChain, &g, path, false);
        step.eliminations = elims.candidates();
        step
    })
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// `XY-Chain: 1 1- r1c1 -3- r1c5 -7- r4c5 -1 => r4c1<>1`: the digit, then each cell with the
/// digit that links it to the next (Hodoku's form).
pub(crate) fn text(step: &Step) -> String {
    let nodes = chains::link_nodes(&step.links);
    let (Some(first), Some(last)) = (nodes.first(), nodes.last()) else {
        return super::plain_text(step);
    };
    let mut out = format!(
        "{}: {} {}- {}",
        step.technique.name(),
        first.digit,
        first.digit,
        first
            .cells
            .first()
            .map(|c| c.to_string())
            .unwrap_or_default()
    );
    // Nodes come in cell pairs (false digit, true digit); the true digit of one cell is the
    // digit of the weak link to the next.
    for pair in nodes.chunks(2).skip(1) {
        if let Some(n) = pair.first() {
            let cell = n.cells.first().map(|c| c.to_string()).unwrap_or_default();
            out.push_str(&format!(" -{}- {}", n.digit, cell));
        }
    }
    format!("{} -{} => {}", out, last.digit, step.effect_text())
}

/// "Along the 4 two-digit cells from r1c1 to r5c9, if r1c1 is not 1 the chain forces r5c9 to
/// be 1, so r1c9 and r5c1 cannot be 1."
pub(crate) fn sentence(step: &Step) -> String {
    let nodes = chains::link_nodes(&step.links);
    let (Some(first), Some(last)) = (nodes.first(), nodes.last()) else {
        return super::generic_sentence(step);
    };
    let (Some(a), Some(b)) = (first.cells.first(), last.cells.first()) else {
        return super::generic_sentence(step);
    };
    format!(
        "Along the {} two-digit cells from {a} to {b}, if {a} is not {} the chain forces {b} to \
         be {}, so {}.",
        nodes.len() / 2,
        first.digit,
        last.digit,
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use crate::sudoku::grid::Grid;
    use crate::sudoku::solver::solve;
    use crate::sudoku::types::{Candidates, Cell, Digit};

    fn pair(a: u8, b: u8) -> Candidates {
        [a, b].into_iter().filter_map(Digit::new).collect()
    }

    /// Four bivalue cells r1c1 {13}, r1c5 {37}, r5c5 {27}, r5c9 {12} in an otherwise open
    /// grid: no three of them make a chain with equal end digits, all four do (1 at both ends),
    /// so r1c9 and r5c1 (seeing both ends) lose 1.
    #[test]
    fn four_cell_chain() {
        let mut g = Grid::empty();
        g.set_candidates(Cell::at(0, 0), pair(1, 3));
        g.set_candidates(Cell::at(0, 4), pair(3, 7));
        g.set_candidates(Cell::at(4, 4), pair(7, 2));
        g.set_candidates(Cell::at(4, 8), pair(2, 1));
        let s = super::find(&g).unwrap();
        assert_eq!(
            s.text(),
            "XY-Chain: 1 1- r1c1 -3- r1c5 -7- r5c5 -2- r5c9 -1 => r1c9,r5c1<>1"
        );
        let solution = solve(&g).unwrap();
        for e in &s.eliminations {
            assert_ne!(solution[e.cell.index()], e.digit.get(), "{}", e.cell);
        }
    }

    #[test]
    fn chain_with_different_end_digits_is_not_an_xy_chain() {
        let mut g = Grid::empty();
        g.set_candidates(Cell::at(0, 0), pair(1, 3));
        g.set_candidates(Cell::at(0, 4), pair(3, 7));
        g.set_candidates(Cell::at(4, 4), pair(7, 2));
        assert!(super::find(&g).is_none());
    }
}
