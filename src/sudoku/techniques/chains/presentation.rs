//! A found chain as [`Step`] data ([`chain_step`]: its links in order, its candidates marked)
//! and as Eureka text ([`eureka`]), and a step's chain read back from its links
//! ([`link_nodes`]).
//!
//! It neither searches nor judges chains: the finders hand it a chain already found and add
//! their own eliminations and sentences.

use super::graph::{Graph, NodeId};
use crate::sudoku::grid::Candidate;
use crate::sudoku::step::{Link, LinkKind, Node, Role, Step, Technique};

/// Builds the step for chain `path` of `g` (links alternate strong, weak, …, strong): records
/// the links in order (plus a closing weak link back to the start when `closed`), marks every
/// chain candidate (true ends [`Role::ColorA`], false ends [`Role::ColorB`]) and the digits.
pub(crate) fn chain_step(technique: Technique, g: &Graph, path: &[NodeId], closed: bool) -> Step {
    let mut step = Step::new(technique);
    for (i, pair) in path.windows(2).enumerate() {
        step.links.push(Link {
            from: g.node(pair[0]),
            to: g.node(pair[1]),
            kind: if i % 2 == 0 {
                LinkKind::Strong
            } else {
                LinkKind::Weak
            },
        });
    }
    if closed && let (Some(&last), Some(&first)) = (path.last(), path.first()) {
        step.links.push(Link {
            from: g.node(last),
            to: g.node(first),
            kind: LinkKind::Weak,
        });
    }
    for (i, &id) in path.iter().enumerate() {
        let node = g.node(id);
        step.digits.insert(node.digit);
        let role = if i % 2 == 0 {
            Role::ColorB
        } else {
            Role::ColorA
        };
        for c in node.cells.iter() {
            let cand = Candidate::new(c, node.digit);
            if !step.marks.iter().any(|m| m.candidate == cand) {
                step.mark(c, node.digit, role);
            }
        }
    }
    step
}

/// The nodes of a step's chain in order: the first link's start, then every link's end.
pub(crate) fn link_nodes(links: &[Link]) -> Vec<Node> {
    let mut out: Vec<Node> = links.iter().take(1).map(|l| l.from).collect();
    out.extend(links.iter().map(|l| l.to));
    out
}

/// The chain in Eureka notation, e.g. `(5=3)r1c2 - (3=7)r4c2 = (7)r4c8`: two candidates of one
/// cell joined by a link are written together.
pub(crate) fn eureka(links: &[Link]) -> String {
    let nodes = link_nodes(links);
    let sym = |k: LinkKind| if k == LinkKind::Strong { '=' } else { '-' };
    let cells = |n: &Node| crate::sudoku::notation::compact_cells(n.cells.iter());
    let mut out = String::new();
    let mut i = 0;
    while i < nodes.len() {
        if i > 0 {
            out.push(' ');
            out.push(sym(links[i - 1].kind));
            out.push(' ');
        }
        let n = nodes[i];
        match nodes.get(i + 1) {
            Some(m) if n.cells.len() == 1 && m.cells == n.cells && m.digit != n.digit => {
                out.push_str(&format!(
                    "({}{}{}){}",
                    n.digit,
                    sym(links[i].kind),
                    m.digit,
                    cells(&n)
                ));
                i += 2;
            }
            _ => {
                out.push_str(&format!("({}){}", n.digit, cells(&n)));
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::types::{Cell, Digit};

    #[test]
    fn eureka_joins_cell_pairs() {
        let d = |n| Digit::new(n).unwrap();
        let n = |r, c, dd| Node::cell(Cell::at(r, c), d(dd));
        let links = [
            Link {
                from: n(0, 1, 5),
                to: n(0, 1, 3),
                kind: LinkKind::Strong,
            },
            Link {
                from: n(0, 1, 3),
                to: n(3, 1, 3),
                kind: LinkKind::Weak,
            },
            Link {
                from: n(3, 1, 3),
                to: n(3, 1, 7),
                kind: LinkKind::Strong,
            },
            Link {
                from: n(3, 1, 7),
                to: n(3, 7, 7),
                kind: LinkKind::Weak,
            },
            Link {
                from: n(3, 7, 7),
                to: n(0, 7, 7),
                kind: LinkKind::Strong,
            },
        ];
        assert_eq!(eureka(&links), "(5=3)r1c2 - (3=7)r4c2 - (7)r4c8 = (7)r1c8");
    }
}
