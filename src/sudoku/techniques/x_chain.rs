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

/// Longest chain searched, in nodes.
const MAX_NODES: usize = 16;

/// The shortest X-Chain that eliminates a candidate.
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    let g = Graph::build(
        grid,
        &LinkSet {
            digits: Candidates::ALL,
            bivalue_only: false,
            strong_in_cell: false,
            strong_in_house: true,
            weak_in_cell: false,
            weak_in_house: true,
            groups: false,
        },
    );
    let (path, elims) = chains::shortest(&g, 4, MAX_NODES, |f| {
        if f.start == f.end {
            return None;
        }
        let mut e = Elims::default();
        e.add_seeing_both(&g, grid, f.start, f.end);
        (!e.is_empty()).then_some(e)
    })?;
    let mut step = chains::chain_step(Technique::XChain, &g, &path, false);
    step.eliminations = elims.candidates();
    Some(step)
}

/// `X-Chain: 9 r1c4 =9= r5c4 -9- r5c8 =9= r8c8 => r1c8,r8c4<>9`
pub(crate) fn text(step: &Step) -> String {
    let nodes = chains::link_nodes(&step.links);
    let Some(first) = nodes.first() else {
        return super::plain_text(step);
    };
    let cells = |n: &Node| compact_cells(n.cells.iter());
    let mut out = format!("{}: {} {}", step.technique.name(), first.digit, cells(first));
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

#[cfg(test)]
mod tests {
    use crate::sudoku::solver::solve;
    use crate::sudoku::techniques::test_util::*;

    #[test]
    fn placeholder() {
        let _ = (solve, grid);
    }
}
