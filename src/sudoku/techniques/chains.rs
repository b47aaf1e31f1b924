//! Shared machinery of the chain techniques (X-Chain, XY-Chain, AIC): a graph of strong and weak
//! links between chain nodes (a digit in one cell, or a digit grouped in the two or three cells
//! of one box∩line), built once per call from bitsets, and a breadth-first search for the
//! shortest alternating inference chain whose ends make progress; plus the conversion of a chain
//! into [`Step`] data (links in order, marked candidates) and its Eureka / Hodoku texts.
//!
//! It decides nothing by itself: each finder says which links it may use and what a chain's
//! ends give. Chains are sound by construction: a strong link `A = B` means "if A is false then
//! B is true", a weak link `A - B` means "A and B are not both true", and a chain starts false
//! at its first node and alternates strong and weak links up to a true last node, so at least
//! one of its two ends is true.

use super::super::grid::{Candidate, Grid};
use super::super::step::{Link, LinkKind, Node, Role, Step, Technique};
use super::super::types::{Candidates, Cell, CellSet, Digit, House};
use super::{Flow, GO_ON, Instances};

/// Index of a node in a [`Graph`].
pub(crate) type NodeId = u16;

/// "No node" in the per-candidate lookup table.
const NO_NODE: NodeId = NodeId::MAX;

/// "No parent" in the search's trail.
const NO_LIT: u32 = u32::MAX;

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
        let als_sets = (set.als_cells >= 2 && !set.bivalue_only)
            .then(|| super::als::collect(grid, set.als_cells));
        let alss: Vec<&super::als::Als> = als_sets
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

    fn strong_of(&self, id: usize) -> &[NodeId] {
        &self.strong[self.strong_start[id] as usize..self.strong_start[id + 1] as usize]
    }

    fn weak_of(&self, id: usize) -> &[NodeId] {
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

/// Candidates to eliminate, one cell set per digit.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct Elims([CellSet; 9]);

impl Elims {
    /// Whether nothing is eliminated.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|s| s.is_empty())
    }

    /// Adds `cells` for `digit`, keeping only cells where `grid` still has the candidate.
    pub(crate) fn add(&mut self, grid: &Grid, digit: Digit, cells: CellSet) {
        self.0[digit.index()] |= cells & grid.digit_cells(digit);
    }

    /// Adds every candidate of `grid` that conflicts with both nodes `p` and `q` of `g` (so is
    /// false when at least one of them is true).
    pub(crate) fn add_seeing_both(&mut self, g: &Graph, grid: &Grid, p: NodeId, q: NodeId) {
        let (np, nq) = (g.node(p), g.node(q));
        if np.digit == nq.digit {
            self.add(grid, np.digit, g.sees(p) & g.sees(q));
            return;
        }
        let (sp, sq) = (np.cells.len() == 1, nq.cells.len() == 1);
        if sp && sq && np.cells == nq.cells {
            if let Some(c) = np.cells.first() {
                for d in grid.candidates(c).iter() {
                    if d != np.digit && d != nq.digit {
                        self.add(grid, d, np.cells);
                    }
                }
            }
            return;
        }
        if sp {
            self.add(grid, nq.digit, np.cells & g.sees(q));
        }
        if sq {
            self.add(grid, np.digit, nq.cells & g.sees(p));
        }
    }

    /// Whether every elimination of `other` is also one of `self`.
    pub(crate) fn contains(&self, other: &Elims) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| b.is_subset(*a))
    }

    /// The eliminations in cell order, digit by digit.
    pub(crate) fn candidates(&self) -> Vec<Candidate> {
        let mut out = Vec::new();
        for d in Digit::ALL {
            for c in self.0[d.index()].iter() {
                out.push(Candidate::new(c, d));
            }
        }
        out
    }
}

/// The search's view of a chain just found: its first node (assumed false), its last node
/// (then true) and the way back through the trail.
pub(crate) struct Found<'a> {
    /// First node.
    pub start: NodeId,
    /// Last node.
    pub end: NodeId,
    parent: &'a [u32],
    end_lit: u32,
}

impl Found<'_> {
    /// The chain's nodes from start to end (strong link first, links alternating).
    pub(crate) fn nodes(&self) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(16);
        let mut lit = self.end_lit;
        while lit != NO_LIT {
            out.push((lit / 2) as NodeId);
            lit = self.parent[lit as usize];
        }
        out.reverse();
        out
    }
}

/// Finds, over all start nodes, the shortest chain `start = n1 - n2 = … = end` with between
/// `min_nodes` and `max_nodes` nodes for which `eval` gives a result; returns its nodes and the
/// result. `eval` sees each (start, end) pair once per start, nearest ends first. Chains that
/// repeat a node are skipped, except a last node equal to the first (a discontinuous loop).
pub(crate) fn shortest<R>(
    g: &Graph,
    min_nodes: usize,
    max_nodes: usize,
    eval: impl FnMut(&Found<'_>) -> Option<R>,
) -> Option<(Vec<NodeId>, R)> {
    let [best, _] = shortest_two(g, min_nodes, max_nodes, [Some(eval), None]);
    best
}

/// [`shortest`] for each of two evaluations (`None`: not searched) in one walk: what two
/// calls of [`shortest`] give, each chain reached once for both.
pub(crate) fn shortest_two<R, E: FnMut(&Found<'_>) -> Option<R>>(
    g: &Graph,
    min_nodes: usize,
    max_nodes: usize,
    evals: [Option<E>; 2],
) -> [Option<(Vec<NodeId>, R)>; 2] {
    let mut search = Shortest {
        bound: [max_nodes; 2],
        done: evals.each_ref().map(Option::is_none),
        asked: evals.each_ref().map(Option::is_some),
        evals,
        best: [None, None],
    };
    walk(g, min_nodes, &mut search);
    search.best
}

/// Like [`shortest`], but hands every chain with a result to `emit` (for each start, the
/// shortest chain to each end, nearest ends first) until `emit` says stop.
pub(crate) fn each<R>(
    g: &Graph,
    min_nodes: usize,
    max_nodes: usize,
    eval: impl FnMut(&Found<'_>) -> Option<R>,
    emit: impl FnMut(Vec<NodeId>, R) -> Flow,
) -> Flow {
    let mut search = Each {
        max_nodes,
        eval,
        emit,
        stopped: false,
    };
    walk(g, min_nodes, &mut search);
    if search.stopped {
        Flow::Break(())
    } else {
        GO_ON
    }
}

/// Reports chains to `out`: the shortest one when one instance is wanted, else every one
/// [`each`] finds; `make` turns a chain and its result into the step.
pub(crate) fn report<R>(
    g: &Graph,
    min_nodes: usize,
    max_nodes: usize,
    out: &mut Instances,
    eval: impl FnMut(&Found<'_>) -> Option<R>,
    mut make: impl FnMut(&[NodeId], R) -> Step,
) -> Flow {
    if out.wants_all() {
        each(g, min_nodes, max_nodes, eval, |path, r| {
            out.add(make(&path, r))
        })
    } else {
        match shortest(g, min_nodes, max_nodes, eval) {
            Some((path, r)) => out.add(make(&path, r)),
            None => GO_ON,
        }
    }
}

/// What the walk does after a chain is reached.
enum Next {
    /// Go on from the same start.
    Go,
    /// Go to the next start.
    Restart,
    /// End the search.
    Stop,
}

/// A search over the chains [`walk`] reaches.
trait Visit {
    /// Most nodes a chain from the current start may have and still be looked at.
    fn bound(&self) -> usize;
    /// A new start node begins.
    fn start(&mut self);
    /// The chain `f`, of `nodes` nodes, is reached.
    fn reached(&mut self, f: &Found<'_>, nodes: usize) -> Next;
}

/// The chain `f`, with `eval`'s result for it, when there is one and the chain repeats no
/// node (but a last node equal to the first).
fn simple_result<R>(
    f: &Found<'_>,
    eval: &mut impl FnMut(&Found<'_>) -> Option<R>,
) -> Option<(Vec<NodeId>, R)> {
    let r = eval(f)?;
    let path = f.nodes();
    simple(&path).then_some((path, r))
}

/// [`shortest_two`]'s search: per evaluation, the shortest chain so far and the bound it sets
/// on later starts; each evaluation stops at its first chain from a start.
struct Shortest<R, E> {
    evals: [Option<E>; 2],
    bound: [usize; 2],
    /// Whether each evaluation is done with the current start (or not asked).
    done: [bool; 2],
    asked: [bool; 2],
    best: [Option<(Vec<NodeId>, R)>; 2],
}

impl<R, E: FnMut(&Found<'_>) -> Option<R>> Visit for Shortest<R, E> {
    fn bound(&self) -> usize {
        (0..2)
            .filter(|&k| !self.done[k])
            .map(|k| self.bound[k])
            .max()
            .unwrap_or(0)
    }

    fn start(&mut self) {
        self.done = self.asked.map(|a| !a);
    }

    fn reached(&mut self, f: &Found<'_>, nodes: usize) -> Next {
        for k in 0..2 {
            if self.done[k] || nodes > self.bound[k] {
                continue;
            }
            let Some(eval) = self.evals[k].as_mut() else {
                continue;
            };
            if let Some(found) = simple_result(f, eval) {
                self.best[k] = Some(found);
                self.bound[k] = nodes - 1;
                self.done[k] = true;
            }
        }
        if self.done.iter().all(|&d| d) {
            Next::Restart
        } else {
            Next::Go
        }
    }
}

/// [`each`]'s search.
struct Each<E, M> {
    max_nodes: usize,
    eval: E,
    emit: M,
    stopped: bool,
}

impl<R, E, M> Visit for Each<E, M>
where
    E: FnMut(&Found<'_>) -> Option<R>,
    M: FnMut(Vec<NodeId>, R) -> Flow,
{
    fn bound(&self) -> usize {
        self.max_nodes
    }

    fn start(&mut self) {}

    fn reached(&mut self, f: &Found<'_>, _nodes: usize) -> Next {
        match simple_result(f, &mut self.eval) {
            Some((path, r)) => {
                if (self.emit)(path, r).is_break() {
                    self.stopped = true;
                    Next::Stop
                } else {
                    Next::Go
                }
            }
            None => Next::Go,
        }
    }
}

/// The breadth-first search behind [`shortest`] and [`each`]: from every start node with a
/// strong link, alternating strong and weak links, every chain of at least `min_nodes` nodes
/// (and at most `search`'s bound) that ends true goes to `search`.
fn walk(g: &Graph, min_nodes: usize, search: &mut impl Visit) {
    let n = g.len();
    // Literal 2*i is "node i is false", 2*i+1 "node i is true".
    let mut stamp = vec![0u32; 2 * n];
    let mut parent = vec![NO_LIT; 2 * n];
    let mut depth = vec![0u8; 2 * n];
    let mut queue: Vec<u32> = Vec::with_capacity(2 * n);
    for s in 0..n {
        if g.strong_of(s).is_empty() {
            continue;
        }
        search.start();
        let generation = s as u32 + 1;
        queue.clear();
        let start_lit = 2 * s as u32;
        stamp[start_lit as usize] = generation;
        parent[start_lit as usize] = NO_LIT;
        depth[start_lit as usize] = 0;
        queue.push(start_lit);
        let mut head = 0;
        'bfs: while head < queue.len() {
            let lit = queue[head];
            head += 1;
            let links = depth[lit as usize] as usize;
            if links + 2 > search.bound() {
                break;
            }
            let node = (lit / 2) as usize;
            let is_true = lit % 2 == 1;
            let next = if is_true {
                g.weak_of(node)
            } else {
                g.strong_of(node)
            };
            for &t in next {
                let tl = 2 * t as u32 + u32::from(!is_true);
                if stamp[tl as usize] == generation {
                    continue;
                }
                stamp[tl as usize] = generation;
                parent[tl as usize] = lit;
                depth[tl as usize] = (links + 1) as u8;
                if !is_true && links + 2 >= min_nodes {
                    let found = Found {
                        start: s as NodeId,
                        end: t,
                        parent: &parent,
                        end_lit: tl,
                    };
                    match search.reached(&found, links + 2) {
                        Next::Go => {}
                        Next::Restart => break 'bfs,
                        Next::Stop => return,
                    }
                }
                queue.push(tl);
            }
        }
    }
}

/// Whether `path` repeats no node (a last node equal to the first is allowed).
fn simple(path: &[NodeId]) -> bool {
    let inner = match path {
        [first, .., last] if first == last => &path[..path.len() - 1],
        _ => path,
    };
    inner
        .iter()
        .enumerate()
        .all(|(i, n)| !inner[i + 1..].contains(n))
}

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
    let cells = |n: &Node| super::super::notation::compact_cells(n.cells.iter());
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

/// Explained solves of real puzzle sets: the chain techniques must never contradict the
/// solution, and the ignored `chain_stats` prints the no-guess share per SE rating and the
/// median solve time on top1465.
#[cfg(test)]
mod real_puzzles {
    use std::path::PathBuf;
    use std::time::Instant;

    use crate::sudoku::explain::solve_explained;
    use crate::sudoku::grid::Grid;
    use crate::sudoku::parse::parse_puzzle;
    use crate::sudoku::step::Technique;

    fn puzzle_dir() -> PathBuf {
        crate::test_data::shared_puzzles()
    }

    /// Up to `limit` puzzles of a set file (`puzzle` or `id puzzle rating` lines).
    fn load(name: &str, limit: usize) -> Vec<Grid> {
        let path = puzzle_dir().join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        crate::sudoku::collection_puzzles(&text)
            .take(limit)
            .map(|(_, p)| parse_puzzle(p).expect("set puzzle parses"))
            .collect()
    }

    fn se_files(from: f32, to: f32) -> Vec<String> {
        let mut out: Vec<(f32, String)> = std::fs::read_dir(puzzle_dir().join("se-rated"))
            .expect("se-rated directory")
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                let r: f32 = name.trim_end_matches(".txt").parse().ok()?;
                (r >= from - 1e-3 && r <= to + 1e-3).then_some((r, name))
            })
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out.into_iter()
            .map(|(_, n)| format!("se-rated/{n}"))
            .collect()
    }

    #[test]
    fn chains_never_contradict_the_solution() {
        let mut sets: Vec<(String, usize)> =
            se_files(6.6, 9.3).into_iter().map(|f| (f, 3)).collect();
        sets.push(("top1465.txt".to_string(), 30));
        let mut chain_steps = 0;
        for (name, n) in sets {
            for (i, g) in load(&name, n).iter().enumerate() {
                let e = solve_explained(g).expect("set puzzle solves");
                let bad: Vec<String> = e.rejected.iter().map(|s| s.text()).collect();
                assert!(bad.is_empty(), "{name} #{i}: {bad:?}");
                chain_steps += e
                    .steps
                    .iter()
                    .filter(|s| {
                        matches!(
                            s.technique,
                            Technique::XChain
                                | Technique::XYChain
                                | Technique::Aic
                                | Technique::AlsXz
                        )
                    })
                    .count();
            }
        }
        assert!(chain_steps > 0, "no chain step was used at all");
    }

    /// `cargo test --lib chain_stats -- --ignored --nocapture`; `CHAIN_STATS_N` puzzles per
    /// file (default 40).
    #[test]
    #[ignore]
    fn chain_stats() {
        let n: usize = std::env::var("CHAIN_STATS_N")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(40);
        let mut counts = std::collections::BTreeMap::<Technique, usize>::new();
        for name in se_files(0.0, 20.0) {
            let grids = load(&name, n);
            let mut no_guess = 0;
            for g in &grids {
                let e = solve_explained(g).expect("set puzzle solves");
                assert!(e.rejected.is_empty(), "{name}: {:?}", e.rejected[0].text());
                if e.guesses == 0 {
                    no_guess += 1;
                }
                for s in &e.steps {
                    *counts.entry(s.technique).or_default() += 1;
                }
            }
            println!(
                "{name}: {no_guess}/{} without guesses ({:.0} %)",
                grids.len(),
                100.0 * no_guess as f64 / grids.len().max(1) as f64
            );
        }
        let grids = load("top1465.txt", n.max(100));
        let mut ms = Vec::new();
        let mut no_guess = 0;
        for g in &grids {
            let t = Instant::now();
            let e = solve_explained(g).expect("top1465 puzzle solves");
            ms.push(t.elapsed().as_secs_f64() * 1e3);
            assert!(e.rejected.is_empty(), "top1465: {:?}", e.rejected[0].text());
            if e.guesses == 0 {
                no_guess += 1;
            }
            for s in &e.steps {
                *counts.entry(s.technique).or_default() += 1;
            }
        }
        ms.sort_by(f64::total_cmp);
        println!(
            "top1465: {no_guess}/{} without guesses; explained solve median {:.2} ms, max {:.1} ms",
            grids.len(),
            ms[ms.len() / 2],
            ms[ms.len() - 1]
        );
        println!("steps by technique: {counts:?}");
    }
}
