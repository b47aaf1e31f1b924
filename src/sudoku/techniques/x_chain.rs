//! X-Chain: an alternating chain of one digit, conjugate pairs (strong links) joined by cells
//! that see each other (weak links), starting and ending with a strong link. One of the two
//! ends holds the digit, so every cell that sees both ends loses it. Turbot fish, skyscraper
//! and 2-string kite are its four-node cases; this finder returns the shortest chain (up to
//! 16 nodes) that eliminates something. Grouped nodes are left to the AIC finder.

use super::super::grid::Grid;
use super::super::notation::compact_cells;
use super::super::step::{LinkKind, Node, Step, Technique};
use super::super::types::Candidates;
use super::chains::{self, Elims, Graph, LinkSet};
use super::{Flow, Instances};

/// Longest chain searched, in nodes.
const MAX_NODES: usize = 16;

/// Reports the X-Chains that eliminate a candidate (one: the shortest).
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    search_with(grid, out, false, MAX_NODES)
}

/// Longest grouped chain searched for rating, in nodes: four strong links.
const GROUPED_MAX_NODES: usize = 8;

/// The shortest X-Chain of up to four strong links whose nodes may be groups (a digit's two or
/// three cells in one box∩line): Sukaku Explainer's grouped strong-linked fish, for rating
/// (see `rating`); the explained path leaves grouped chains to the AIC finder.
pub(crate) fn find_grouped(grid: &Grid) -> Option<Step> {
    super::first(|out| search_with(grid, out, true, GROUPED_MAX_NODES))
}

/// Reports the X-Chains (grouped nodes with `groups`) of up to `max_nodes` nodes that eliminate
/// a candidate; one: the shortest.
fn search_with(grid: &Grid, out: &mut Instances, groups: bool, max_nodes: usize) -> Flow {
    let g = Graph::build(
        grid,
        &LinkSet {
            digits: Candidates::ALL,
            bivalue_only: false,
            strong_in_cell: false,
            strong_in_house: true,
            weak_in_cell: false,
            weak_in_house: true,
            groups,
            als_cells: 0,
        },
    );
    let eval = |f: &chains::Found<'_>| {
        if f.start == f.end {
            return None;
        }
        let mut e = Elims::default();
        e.add_seeing_both(&g, grid, f.start, f.end);
        (!e.is_empty()).then_some(e)
    };
    chains::report(&g, 4, max_nodes, out, eval, |path, elims| {
        let mut step = chains::chain_step(Technique::XChain, &g, path, false);
        step.eliminations = elims.candidates();
        step
    })
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// `X-Chain: 9 r1c4 =9= r5c4 -9- r5c8 =9= r8c8 => r1c8,r8c4<>9`
pub(crate) fn text(step: &Step) -> String {
    let nodes = chains::link_nodes(&step.links);
    let Some(first) = nodes.first() else {
        return super::plain_text(step);
    };
    let cells = |n: &Node| compact_cells(n.cells.iter());
    let mut out = format!(
        "{}: {} {}",
        step.technique.name(),
        first.digit,
        cells(first)
    );
    for link in &step.links {
        let sym = if link.kind == LinkKind::Strong {
            '='
        } else {
            '-'
        };
        out.push_str(&format!(" {sym}{}{sym} {}", link.to.digit, cells(&link.to)));
    }
    format!("{} => {}", out, step.effect_text())
}

/// "Following the 9s from r1c4 to r8c8 (strong and weak links in turn), one of the two ends is
/// 9, so r1c8 and r8c4 cannot be 9."
pub(crate) fn sentence(step: &Step) -> String {
    let nodes = chains::link_nodes(&step.links);
    let (Some(first), Some(last)) = (nodes.first(), nodes.last()) else {
        return super::generic_sentence(step);
    };
    format!(
        "Following the {}s from {} to {} ({} links, strong and weak in turn), one of the two \
         ends is {}, so {}.",
        first.digit,
        super::super::notation::compact_cells(first.cells.iter()),
        super::super::notation::compact_cells(last.cells.iter()),
        step.links.len(),
        first.digit,
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use crate::sudoku::grid::Grid;
    use crate::sudoku::solver::solve;
    use crate::sudoku::types::{Cell, Digit};

    /// An empty grid where 9 has exactly two places in c1 (r1, r5), c5 (r5, r8) and c8 (r8,
    /// r2): no four-node chain eliminates anything, the six-node chain
    /// r1c1 = r5c1 - r5c5 = r8c5 - r8c8 = r2c8 does (cells seeing r1c1 and r2c8).
    #[test]
    fn six_node_chain_over_three_conjugate_columns() {
        let nine = Digit::new(9).unwrap();
        let mut g = Grid::empty();
        for (col, keep) in [(0, [0, 4]), (4, [4, 7]), (7, [7, 1])] {
            for row in 0..9 {
                if !keep.contains(&row) {
                    g.eliminate(Cell::at(row, col), nine);
                }
            }
        }
        let s = super::find(&g).unwrap();
        assert_eq!(
            s.text(),
            "X-Chain: 9 r1c1 =9= r5c1 -9- r5c5 =9= r8c5 -9- r8c8 =9= r2c8 => r1c79,r2c23<>9"
        );
        assert_eq!(s.links.len(), 5);
        let solution = solve(&g).unwrap();
        for e in &s.eliminations {
            assert_ne!(solution[e.cell.index()], e.digit.get(), "{}", e.cell);
        }
    }

    #[test]
    fn nothing_without_conjugate_pairs() {
        assert!(super::find(&Grid::empty()).is_none());
    }
}
