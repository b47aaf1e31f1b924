//! The chain nodes of one position and the strong and weak links between them: a [`Graph`]
//! built once per finder call, from bitsets, with the nodes and links a [`LinkSet`] allows. A
//! node is a digit in one cell, a digit grouped in the two or three cells of one box∩line, or
//! the places of a digit in an almost locked set.
//!
//! It does not search the graph (`search` does) and knows nothing of what a chain's ends give
//! (each finder says, with `Elims`).

use crate::sudoku::grid::Grid;
use crate::sudoku::step::Node;
use crate::sudoku::techniques::als;
use crate::sudoku::types::{Candidates, Cell, CellSet, Digit, House};

/// Index of a node in a [`Graph`].
pub(crate) type NodeId = u16;

/// "No node" in the per-candidate lookup table.
const NO_NODE: NodeId = NodeId::MAX;

/// Which nodes and links a [`Graph`] holds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LinkSet {
    /// Only candidates of these digits become nodes.
    pub digits: Candidates,
    /// Only candidates of bivalue cells become nodes (XY-Chain).
    pub bivalue_only: bool,
    /// The two candidates of a bivalue cell are strongly linked.
    pub strong_in_cell: bool,
    /// The two places of a digit in a house (conjugate pair, possibly grouped) are strongly
    /// linked.
    pub strong_in_house: bool,
    /// Two candidates of one cell are weakly linked.
    pub weak_in_cell: bool,
    /// Two nodes of a digit that see each other are weakly linked.
    pub weak_in_house: bool,
    /// Add grouped nodes (a digit in two or three cells of one box∩line).
    pub groups: bool,
    /// Add the almost locked sets of 2 up to this many cells as nodes (0: none): one node per
    /// digit of a set (its places), the digits of one set strongly linked (see `als`).
    pub als_cells: usize,
}

/// The strong and weak links between the chain nodes of one position, in compressed adjacency
/// form (built once per finder call).
pub(crate) struct Graph {
    nodes: Vec<Node>,
    /// For each node, the cells that see every cell of the node (the node's own cells excluded).
    sees: Vec<CellSet>,
    strong_start: Vec<u32>,
    strong: Vec<NodeId>,
    weak_start: Vec<u32>,
    weak: Vec<NodeId>,
}

impl Graph {
    /// Builds the graph of `grid` with the links `set` allows.
    pub(crate) fn build(grid: &Grid, set: &LinkSet) -> Graph {
        let mut nodes: Vec<Node> = Vec::with_capacity(256);
        let mut sees: Vec<CellSet> = Vec::with_capacity(256);
        let mut single = [NO_NODE; 729];
        let mut bivalue = CellSet::EMPTY;
        for c in Cell::all() {
            if grid.candidates(c).len() == 2 {
                bivalue.insert(c);
            }
        }
        let mut node_cells = [CellSet::EMPTY; 9];
        for d in set.digits.iter() {
            let mut cells = grid.digit_cells(d);
            if set.bivalue_only {
                cells &= bivalue;
            }
            node_cells[d.index()] = cells;
            for c in cells.iter() {
                single[c.index() * 9 + d.index()] = nodes.len() as NodeId;
                nodes.push(Node::cell(c, d));
                sees.push(c.peers());
            }
        }
        // Groups (and ALS nodes) of digit d occupy nodes[group_range[d].0 .. group_range[d].1].
        let mut group_range = [(0usize, 0usize); 9];
        let als_sets =
            (set.als_cells >= 2 && !set.bivalue_only).then(|| als::collect(grid, set.als_cells));
        let alss: Vec<&als::Als> = als_sets
            .as_deref()
            .map(|sets| sets.iter().filter(|a| a.cells.len() >= 2).collect())
            .unwrap_or_default();
        let mut als_nodes: Vec<Vec<NodeId>> = vec![Vec::new(); alss.len()];
        for d in set.digits.iter() {
            let from = nodes.len();
            if set.groups && !set.bivalue_only {
                let dc = grid.digit_cells(d);
                for b in 0..9 {
                    let bx = House::boxed(b).cell_set();
                    let (r0, c0) = ((b / 3) * 3, (b % 3) * 3);
                    for line in (r0..r0 + 3)
                        .map(House::row)
                        .chain((c0..c0 + 3).map(House::col))
                    {
                        let seg = bx & line.cell_set() & dc;
                        if seg.len() >= 2 {
                            nodes.push(Node {
                                cells: seg,
                                digit: d,
                            });
                            sees.push(seg.common_peers());
                        }
                    }
                }
            }
            // ALS nodes: the places of d in each set, shared with an equal node if any.
            for (i, als) in alss.iter().enumerate() {
                let places = als.places[d.index()];
                let id = match places.len() {
                    0 => continue,
                    1 => places
                        .first()
                        .map_or(NO_NODE, |c| single[c.index() * 9 + d.index()]),
                    _ => match (from..nodes.len()).find(|&k| nodes[k].cells == places) {
                        Some(k) => k as NodeId,
                        None => {
                            nodes.push(Node {
                                cells: places,
                                digit: d,
                            });
                            sees.push(places.common_peers());
                            (nodes.len() - 1) as NodeId
                        }
                    },
                };
                if id != NO_NODE {
                    als_nodes[i].push(id);
                }
            }
            group_range[d.index()] = (from, nodes.len());
        }
        let group_with = |d: Digit, cells: CellSet| -> Option<NodeId> {
            let (a, b) = group_range[d.index()];
            (a..b)
                .find(|&i| nodes[i].cells == cells)
                .map(|i| i as NodeId)
        };

        let mut strong: Vec<(NodeId, NodeId)> = Vec::new();
        let mut weak: Vec<(NodeId, NodeId)> = Vec::new();
        // Of any two digits of an ALS at least one is in it.
        for ids in &als_nodes {
            for &a in ids {
                for &b in ids {
                    if a != b {
                        strong.push((a, b));
                    }
                }
            }
        }
        if set.strong_in_cell {
            for c in bivalue.iter() {
                let mut ids = grid
                    .candidates(c)
                    .iter()
                    .map(|d| single[c.index() * 9 + d.index()]);
                if let (Some(a), Some(b)) = (ids.next(), ids.next())
                    && a != NO_NODE
                    && b != NO_NODE
                {
                    strong.push((a, b));
                    strong.push((b, a));
                }
            }
        }
        if set.strong_in_house {
            for h in House::all() {
                for d in set.digits.iter() {
                    let cells = grid.house_digit_cells(h, d);
                    if cells.len() < 2 {
                        continue;
                    }
                    // Every node of d inside h whose complement in h is one node.
                    let (ga, gb) = group_range[d.index()];
                    let singles = (cells & node_cells[d.index()])
                        .iter()
                        .map(|c| single[c.index() * 9 + d.index()]);
                    let groups = (ga..gb)
                        .filter(|&i| nodes[i].cells.is_subset(h.cell_set()))
                        .map(|i| i as NodeId);
                    for a in singles.chain(groups) {
                        let rest = cells & !nodes[a as usize].cells;
                        let b = if rest.len() == 1 {
                            rest.first()
                                .map(|c| single[c.index() * 9 + d.index()])
                                .unwrap_or(NO_NODE)
                        } else {
                            group_with(d, rest).unwrap_or(NO_NODE)
                        };
                        if b != NO_NODE {
                            strong.push((a, b));
                        }
                    }
                }
            }
        }
        if set.weak_in_cell {
            for c in Cell::all() {
                let cands = grid.candidates(c) & set.digits;
                if cands.len() < 2 {
                    continue;
                }
                for d1 in cands.iter() {
                    let a = single[c.index() * 9 + d1.index()];
                    for d2 in cands.iter() {
                        let b = single[c.index() * 9 + d2.index()];
                        if d1 != d2 && a != NO_NODE && b != NO_NODE {
                            weak.push((a, b));
                        }
                    }
                }
            }
        }
        if set.weak_in_house {
            for (a, node) in nodes.iter().enumerate() {
                let d = node.digit;
                let seen = sees[a];
                for c in (seen & node_cells[d.index()]).iter() {
                    weak.push((a as NodeId, single[c.index() * 9 + d.index()]));
                }
                let (ga, gb) = group_range[d.index()];
                for (g, group) in nodes.iter().enumerate().take(gb).skip(ga) {
                    if group.cells.is_subset(seen) {
                        weak.push((a as NodeId, g as NodeId));
                    }
                }
            }
        }
        let (strong_start, strong) = compress(nodes.len(), strong);
        let (weak_start, weak) = compress(nodes.len(), weak);
        Graph {
            nodes,
            sees,
            strong_start,
            strong,
            weak_start,
            weak,
        }
    }

    /// Number of nodes.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The node with index `id`.
    pub(crate) fn node(&self, id: NodeId) -> Node {
        self.nodes[id as usize]
    }

    /// Cells that see every cell of node `id` (its own cells excluded).
    pub(crate) fn sees(&self, id: NodeId) -> CellSet {
        self.sees[id as usize]
    }

    pub(super) fn strong_of(&self, id: usize) -> &[NodeId] {
        &self.strong[self.strong_start[id] as usize..self.strong_start[id + 1] as usize]
    }

    pub(super) fn weak_of(&self, id: usize) -> &[NodeId] {
        &self.weak[self.weak_start[id] as usize..self.weak_start[id + 1] as usize]
    }

    /// Whether nodes `a` and `b` cannot both be true (same digit in cells that all see each
    /// other, or two digits of one cell).
    pub(crate) fn conflict(&self, a: NodeId, b: NodeId) -> bool {
        let (na, nb) = (self.node(a), self.node(b));
        if na.digit == nb.digit {
            nb.cells.is_subset(self.sees(a))
        } else {
            na.cells.len() == 1 && na.cells == nb.cells
        }
    }
}

/// Sorts and deduplicates `edges` and returns them in compressed adjacency form: each node's
/// targets ascending, without repeats. Bucketed by source node first (a counting sort), so
/// only each node's few targets are sorted.
fn compress(n: usize, edges: Vec<(NodeId, NodeId)>) -> (Vec<u32>, Vec<NodeId>) {
    let mut bucket = vec![0usize; n + 1];
    for &(a, _) in &edges {
        bucket[a as usize + 1] += 1;
    }
    for i in 1..=n {
        bucket[i] += bucket[i - 1];
    }
    let mut next = bucket.clone();
    let mut targets: Vec<NodeId> = vec![0; edges.len()];
    for &(a, b) in &edges {
        targets[next[a as usize]] = b;
        next[a as usize] += 1;
    }
    let mut start = vec![0u32; n + 1];
    let mut out = Vec::with_capacity(edges.len());
    for a in 0..n {
        let own = &mut targets[bucket[a]..bucket[a + 1]];
        own.sort_unstable();
        let first = out.len();
        for &b in own.iter() {
            if out.len() == first || out.last() != Some(&b) {
                out.push(b);
            }
        }
        start[a + 1] = out.len() as u32;
    }
    (start, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;

    fn all_links() -> LinkSet {
        LinkSet {
            digits: Candidates::ALL,
            bivalue_only: false,
            strong_in_cell: true,
            strong_in_house: true,
            weak_in_cell: true,
            weak_in_house: true,
            groups: true,
            als_cells: 0,
        }
    }

    /// Every strong link of the graph is a real strong link of the position: exactly the two
    /// nodes cover a house's places for the digit, or they are the two candidates of a cell.
    #[test]
    fn links_are_sound_on_a_real_position() {
        let g = grid(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        );
        let graph = Graph::build(&g, &all_links());
        assert!(graph.len() > 200);
        let mut groups = 0;
        for a in 0..graph.len() {
            let na = graph.node(a as NodeId);
            if na.cells.len() > 1 {
                groups += 1;
                assert!(na.cells.len() <= 3 && na.cells.common_house().is_some());
            }
            for &b in graph.strong_of(a) {
                let nb = graph.node(b);
                if na.digit == nb.digit {
                    let both = na.cells | nb.cells;
                    let house = House::all().find(|h| {
                        both.is_subset(h.cell_set()) && g.house_digit_cells(*h, na.digit) == both
                    });
                    assert!(house.is_some(), "{na} = {nb}");
                    assert!((na.cells & nb.cells).is_empty());
                } else {
                    assert_eq!(na.cells, nb.cells);
                    let c = na.cells.first().unwrap();
                    assert_eq!(g.candidates(c).len(), 2);
                }
            }
            for &b in graph.weak_of(a) {
                assert!(graph.conflict(a as NodeId, b), "{na} - {}", graph.node(b));
            }
        }
        assert!(groups > 0);
    }

    #[test]
    fn compress_sorts_and_dedups_each_nodes_targets() {
        let edges = vec![(2, 5), (0, 3), (2, 1), (0, 3), (3, 0), (2, 5), (0, 1)];
        let (start, targets) = compress(4, edges);
        assert_eq!(start, vec![0, 2, 2, 4, 5]);
        assert_eq!(targets, vec![1, 3, 1, 5, 0]);
    }
}
