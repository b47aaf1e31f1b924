//! AIC (alternating inference chain) over any digits and cells, with grouped nodes (a digit in
//! two or three cells of one box∩line), and the nice loops built from it:
//!
//! - an open chain `A = … = B`: one of its ends is true, so every candidate that conflicts with
//!   both ends goes;
//! - a discontinuous loop `A = … = A`: if A were false it would be true, so A is placed;
//! - a continuous loop (the last node conflicts with the first, closing the chain with a weak
//!   link): every weak link of the loop becomes strong, so every candidate that conflicts with
//!   both ends of a weak link goes.
//!
//! (The discontinuous loop that removes its start, `A - … - A`, is the open chain between A's
//! two neighbours and is found as such.) The finder returns the shortest chain (up to 16
//! nodes) that makes progress. Single-digit and bivalue-only chains are found first by
//! X-Chain and XY-Chain.

use super::super::grid::{Candidate, Grid};
use super::super::step::{LinkKind, Step, Technique};
use super::super::types::Candidates;
use super::chains::{self, Elims, Graph, LinkSet, NodeId};
use super::{Flow, GO_ON, Instances};

/// Longest chain searched, in nodes.
const MAX_NODES: usize = 16;

/// What a chain gives.
enum Effect {
    /// A digit placed (discontinuous loop on a single candidate).
    Place(Candidate),
    /// Eliminations; `closed` for a continuous loop.
    Eliminate { elims: Elims, closed: bool },
}

/// Reports the AICs and nice loops that make progress (one: the shortest).
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    search_with(grid, Technique::Aic, 0, out)
}

/// The shortest AIC or nice loop that makes progress.
#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// Reports chains and nice loops over single, grouped and (with `als_cells` ≥ 2) ALS nodes
/// that make progress, as steps of `technique`. Asked for one: the shortest, except that a
/// continuous loop whose eliminations include the shortest open chain's is preferred to it, so
/// a loop is reported whole.
pub(crate) fn search_with(
    grid: &Grid,
    technique: Technique,
    als_cells: usize,
    out: &mut Instances,
) -> Flow {
    search_links(grid, technique, als_cells, true, out)
}

/// The shortest AIC or nice loop over single candidates only (no grouped or ALS nodes) that
/// makes progress: the chain Sudoku Explainer's forcing chains and cycles can find, which
/// rates a position where this solver's shortest chain is grouped.
pub(crate) fn find_ungrouped(grid: &Grid) -> Option<Step> {
    super::first(|out| search_links(grid, Technique::Aic, 0, false, out))
}

/// [`search_with`], with grouped nodes only when `groups`.
fn search_links(
    grid: &Grid,
    technique: Technique,
    als_cells: usize,
    groups: bool,
    out: &mut Instances,
) -> Flow {
    let g = Graph::build(
        grid,
        &LinkSet {
            digits: Candidates::ALL,
            bivalue_only: false,
            strong_in_cell: true,
            strong_in_house: true,
            weak_in_cell: true,
            weak_in_house: true,
            groups,
            als_cells,
        },
    );
    let make = |path: &[NodeId], effect: Effect| match effect {
        Effect::Place(p) => {
            let mut step = chains::chain_step(technique, &g, path, false);
            step.placements.push(p);
            step
        }
        Effect::Eliminate { elims, closed } => {
            let mut step = chains::chain_step(technique, &g, path, closed);
            step.eliminations = elims.candidates();
            step
        }
    };
    if out.wants_all() {
        return chains::each(
            &g,
            4,
            MAX_NODES,
            |f| evaluate(&g, grid, f, false),
            |path, effect| out.add(make(&path, effect)),
        );
    }
    // The shortest open chain and the shortest continuous loop, in one walk.
    let [open, looped] = chains::shortest_two(
        &g,
        4,
        MAX_NODES,
        [false, true].map(|loops_only| {
            let g = &g;
            Some(move |f: &chains::Found<'_>| evaluate(g, grid, f, loops_only))
        }),
    );
    let best = match (open, looped) {
        (Some(o), Some(l)) => match (&o.1, &l.1) {
            (
                Effect::Eliminate {
                    elims: eo,
                    closed: false,
                },
                Effect::Eliminate { elims: el, .. },
            ) if el.contains(eo) => Some(l),
            _ => Some(o),
        },
        (o, l) => o.or(l),
    };
    match best {
        Some((path, effect)) => out.add(make(&path, effect)),
        None => GO_ON,
    }
}

/// What the chain `f` gives (only continuous loops when `loops_only`).
fn evaluate(g: &Graph, grid: &Grid, f: &chains::Found<'_>, loops_only: bool) -> Option<Effect> {
    if f.start == f.end {
        if loops_only {
            return None;
        }
        let node = g.node(f.start);
        return match node.cells.first() {
            Some(c) if node.cells.len() == 1 => Some(Effect::Place(Candidate::new(c, node.digit))),
            _ => {
                // A group that must hold its digit clears the cells that see it all.
                let mut elims = Elims::default();
                elims.add(grid, node.digit, g.sees(f.start));
                (!elims.is_empty()).then_some(Effect::Eliminate {
                    elims,
                    closed: false,
                })
            }
        };
    }
    let closed = g.conflict(f.end, f.start);
    if loops_only && !closed {
        return None;
    }
    let mut elims = Elims::default();
    elims.add_seeing_both(g, grid, f.start, f.end);
    if closed {
        loop_eliminations(g, grid, &f.nodes(), &mut elims);
    }
    (!elims.is_empty()).then_some(Effect::Eliminate { elims, closed })
}

/// Adds the eliminations of a continuous loop: both ends of every weak link (the links between
/// nodes 1–2, 3–4, …, and the closing link from the last node to the first).
fn loop_eliminations(g: &Graph, grid: &Grid, nodes: &[NodeId], elims: &mut Elims) {
    for pair in nodes[1..].chunks(2) {
        if let [a, b] = *pair {
            elims.add_seeing_both(g, grid, a, b);
        }
    }
    if let (Some(&first), Some(&last)) = (nodes.first(), nodes.last()) {
        elims.add_seeing_both(g, grid, last, first);
    }
}

/// `AIC: (5=3)r1c2 - (3=7)r4c2 = (7)r4c8 - … => r1c8<>5`; a loop back to its start is called a
/// nice loop, e.g. `AIC (continuous nice loop): (4)r1c1 = … - (4)r1c1 => …`.
pub(crate) fn text(step: &Step) -> String {
    let (Some(first), Some(last)) = (step.links.first(), step.links.last()) else {
        return super::plain_text(step);
    };
    let kind = if last.to != first.from {
        ""
    } else if last.kind == LinkKind::Weak {
        " (continuous nice loop)"
    } else {
        " (discontinuous nice loop)"
    };
    format!(
        "{}{}: {} => {}",
        step.technique.name(),
        kind,
        chains::eureka(&step.links),
        step.effect_text()
    )
}

/// "At least one end of the chain, 5 in r1c2 or 5 in r1c8, is true, so r3c5 cannot be 5." For a
/// loop: "The chain closes into a loop (8 links), so each of its weak links is strong too, and
/// …"; for a discontinuous loop: "Assuming 4 is not in r1c1, the chain comes back and puts it
/// there, so r1c1 is 4."
pub(crate) fn sentence(step: &Step) -> String {
    let (Some(first), Some(last)) = (step.links.first(), step.links.last()) else {
        return super::generic_sentence(step);
    };
    let cells =
        |n: &super::super::step::Node| super::super::notation::compact_cells(n.cells.iter());
    if last.to == first.from {
        if last.kind == LinkKind::Weak {
            return format!(
                "The chain closes into a loop ({} links), so each of its weak links is strong \
                 as well, and {}.",
                step.links.len(),
                super::effect_words(step)
            );
        }
        return format!(
            "If {} were not in {}, the chain ({} links) would put it back there, so {}.",
            first.from.digit,
            cells(&first.from),
            step.links.len(),
            super::effect_words(step)
        );
    }
    format!(
        "At least one end of the chain ({} links), {} in {} or {} in {}, is true, so {}.",
        step.links.len(),
        first.from.digit,
        cells(&first.from),
        last.to.digit,
        cells(&last.to),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use crate::sudoku::grid::Grid;
    use crate::sudoku::solver::solve;
    use crate::sudoku::step::LinkKind;
    use crate::sudoku::types::{Candidates, Cell, Digit};

    fn digits(ds: &[u8]) -> Candidates {
        ds.iter().copied().filter_map(Digit::new).collect()
    }

    fn assert_sound(g: &Grid, s: &crate::sudoku::step::Step) {
        let solution = solve(g).unwrap();
        for e in &s.eliminations {
            assert_ne!(solution[e.cell.index()], e.digit.get(), "{}", e.cell);
        }
        for p in &s.placements {
            assert_eq!(solution[p.cell.index()], p.digit.get(), "{}", p.cell);
        }
    }

    /// Bivalue r1c2 {35} and r4c2 {37}, and 7 only in r1c8 and r4c8 of c8: if r1c2 is not 5
    /// it is 3, so r4c2 is 7, so r4c8 is not 7 and r1c8 is. Either way r1c8 is not 5.
    #[test]
    fn mixed_chain_bivalue_cells_and_conjugate_pair() {
        let mut g = Grid::empty();
        g.set_candidates(Cell::at(0, 1), digits(&[3, 5]));
        g.set_candidates(Cell::at(3, 1), digits(&[3, 7]));
        let seven = Digit::new(7).unwrap();
        for row in [1, 2, 4, 5, 6, 7, 8] {
            g.eliminate(Cell::at(row, 7), seven);
        }
        let s = super::find(&g).unwrap();
        assert_eq!(
            s.text(),
            "AIC: (5=3)r1c2 - (3=7)r4c2 - (7)r4c8 = (7)r1c8 => r1c8<>5"
        );
        let kinds: Vec<LinkKind> = s.links.iter().map(|l| l.kind).collect();
        assert_eq!(
            kinds,
            [
                LinkKind::Strong,
                LinkKind::Weak,
                LinkKind::Strong,
                LinkKind::Weak,
                LinkKind::Strong
            ]
        );
        assert_sound(&g, &s);
    }

    /// 5 in r1 only at r1c1 and the group r1c56, in c4 only at r2c4 and r8c4: if r1c1 is not 5
    /// then the group holds it, so r2c4 does not and r8c4 does. r8c1 sees both ends.
    #[test]
    fn grouped_chain() {
        let five = Digit::new(5).unwrap();
        let mut g = Grid::empty();
        for col in [1, 2, 3, 6, 7, 8] {
            g.eliminate(Cell::at(0, col), five);
        }
        for row in [0, 2, 3, 4, 5, 6, 8] {
            g.eliminate(Cell::at(row, 3), five);
        }
        let s = super::find(&g).unwrap();
        assert_eq!(
            s.text(),
            "AIC: (5)r1c1 = (5)r1c56 - (5)r2c4 = (5)r8c4 => r8c1<>5"
        );
        assert_eq!(s.links[0].to.cells.len(), 2);
        assert_sound(&g, &s);
    }

    /// 5 only in c1 and c5 of rows 1 and 5 (an X-Wing read as a loop): the weak links in c1 and
    /// c5 become strong, so the rest of both columns loses 5.
    #[test]
    fn continuous_loop() {
        let five = Digit::new(5).unwrap();
        let mut g = Grid::empty();
        for row in [0, 4] {
            for col in [1, 2, 3, 5, 6, 7, 8] {
                g.eliminate(Cell::at(row, col), five);
            }
        }
        let s = super::find(&g).unwrap();
        assert_eq!(
            s.text(),
            "AIC (continuous nice loop): (5)r1c1 = (5)r1c5 - (5)r5c5 = (5)r5c1 - (5)r1c1 \
             => r2346789c15<>5"
        );
        assert_eq!(s.links.len(), 4);
        assert_eq!(s.links[3].kind, LinkKind::Weak);
        assert_sound(&g, &s);
    }
}
