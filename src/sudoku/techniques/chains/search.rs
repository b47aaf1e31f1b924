//! The breadth-first search for alternating inference chains over a [`Graph`]: from every start
//! node with a strong link, strong and weak links in turn, each chain that ends true handed to
//! the finder's `eval`; the shortest chain with a result ([`shortest`], [`shortest_two`]),
//! every one ([`each`]), or whichever of the two a finder's [`Instances`] wants ([`report`]).
//!
//! It does not build the graph (`graph`), judge what a chain's ends give (the finder's `eval`)
//! or turn a chain into a step (`presentation`).

use super::graph::{Graph, NodeId};
use crate::sudoku::step::Step;
use crate::sudoku::techniques::{Flow, GO_ON, Instances};

/// "No parent" in the search's trail.
const NO_LIT: u32 = u32::MAX;

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
