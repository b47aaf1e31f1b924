//! Simple Colors (single-digit coloring). For one digit, cells joined by conjugate pairs (a house
//! where the digit has exactly two places) form a chain in which exactly one of every linked two
//! holds the digit; coloring the chain with two alternating colors splits it into two classes, one
//! all true and one all false.
//!
//! Trap: a cell outside the chain that sees both colors loses the digit (one color is true).
//! Wrap: a color with two cells in one house cannot be the true one, so all its cells lose the
//! digit.
//!
//! The step marks the two classes [`Role::ColorA`] (the class of the first cell in reading
//! order) and [`Role::ColorB`], and records every conjugate pair of the chain as a strong link.

use super::super::grid::Grid;
use super::super::notation::cell_words;
use super::super::step::{Link, LinkKind, Node, Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, Cell, CellSet, Digit, House};
use super::{Flow, GO_ON, Instances};

/// Reports the Simple Colors Traps (digits ascending, clusters of at least four cells).
pub(crate) fn search_trap(grid: &Grid, out: &mut Instances) -> Flow {
    search(grid, Technique::SimpleColorsTrap, out)
}

/// Reports the Simple Colors Wraps (digits ascending).
pub(crate) fn search_wrap(grid: &Grid, out: &mut Instances) -> Flow {
    search(grid, Technique::SimpleColorsWrap, out)
}

#[cfg(test)]
pub(crate) fn find_trap(grid: &Grid) -> Option<Step> {
    super::first(|out| search_trap(grid, out))
}

#[cfg(test)]
pub(crate) fn find_wrap(grid: &Grid) -> Option<Step> {
    super::first(|out| search_wrap(grid, out))
}

/// Colors every conjugate-pair cluster of every digit and tries `t` (trap or wrap) on each.
fn search(grid: &Grid, t: Technique, out: &mut Instances) -> Flow {
    for d in Digit::ALL {
        let adj = conjugate_graph(grid, d);
        let mut todo = CellSet::EMPTY;
        for c in grid.digit_cells(d).iter() {
            if !adj[c.index()].is_empty() {
                todo.insert(c);
            }
        }
        while let Some(start) = todo.first() {
            let (a, b) = color(&adj, start);
            todo &= !(a | b);
            // Two linked cells of one color would mean the grid has no solution; such a cluster
            // proves nothing we want to state.
            if !(a & b).is_empty() {
                continue;
            }
            let step = match t {
                Technique::SimpleColorsTrap => trap(grid, d, a, b),
                _ => wrap(grid, d, a, b),
            };
            if let Some(step) = step {
                out.add(step)?;
            }
        }
    }
    GO_ON
}

/// For each cell, the cells it forms a conjugate pair with on `d`.
pub(super) fn conjugate_graph(grid: &Grid, d: Digit) -> [CellSet; 81] {
    let mut adj = [CellSet::EMPTY; 81];
    for h in House::all() {
        let cells = grid.house_digit_cells(h, d);
        if cells.len() == 2 {
            let mut it = cells.iter();
            if let (Some(p), Some(q)) = (it.next(), it.next()) {
                adj[p.index()].insert(q);
                adj[q.index()].insert(p);
            }
        }
    }
    adj
}

/// The two color classes of the cluster containing `start` (`start` in the first).
pub(super) fn color(adj: &[CellSet; 81], start: Cell) -> (CellSet, CellSet) {
    let mut a = CellSet::single(start);
    let mut b = CellSet::EMPTY;
    let mut frontier_a = a;
    let mut frontier_b = CellSet::EMPTY;
    while !frontier_a.is_empty() || !frontier_b.is_empty() {
        let mut next_b = CellSet::EMPTY;
        for c in frontier_a.iter() {
            next_b |= adj[c.index()];
        }
        let mut next_a = CellSet::EMPTY;
        for c in frontier_b.iter() {
            next_a |= adj[c.index()];
        }
        frontier_a = next_a & !a;
        frontier_b = next_b & !b;
        a |= frontier_a;
        b |= frontier_b;
    }
    (a, b)
}

/// Union of the peers of every cell of `set`.
pub(super) fn seen_by(set: CellSet) -> CellSet {
    let mut seen = CellSet::EMPTY;
    for c in set.iter() {
        seen |= c.peers();
    }
    seen
}

fn trap(grid: &Grid, d: Digit, a: CellSet, b: CellSet) -> Option<Step> {
    // Two or three cells can only trap inside one box, which Locked Candidates already says.
    if (a | b).len() < 4 {
        return None;
    }
    let targets = seen_by(a) & seen_by(b) & !(a | b);
    let mut step = Step::new(Technique::SimpleColorsTrap);
    if eliminate_where_possible(&mut step, grid, targets, d) == 0 {
        return None;
    }
    Some(describe_cluster(step, grid, d, a, b))
}

fn wrap(grid: &Grid, d: Digit, a: CellSet, b: CellSet) -> Option<Step> {
    let sees_itself = |set: CellSet| set.iter().any(|c| !(c.peers() & set).is_empty());
    let false_color = match (sees_itself(a), sees_itself(b)) {
        (true, false) => a,
        (false, true) => b,
        _ => return None,
    };
    let mut step = Step::new(Technique::SimpleColorsWrap);
    if eliminate_where_possible(&mut step, grid, false_color, d) == 0 {
        return None;
    }
    Some(describe_cluster(step, grid, d, a, b))
}

/// The conjugate pairs of `d` inside `cluster`, as strong links (a pair in one line and one
/// box once).
pub(super) fn cluster_links(grid: &Grid, d: Digit, cluster: CellSet) -> Vec<Link> {
    let mut links: Vec<Link> = Vec::new();
    for h in House::all() {
        let cells = grid.house_digit_cells(h, d);
        if cells.len() != 2 || !cells.is_subset(cluster) {
            continue;
        }
        let mut it = cells.iter();
        if let (Some(p), Some(q)) = (it.next(), it.next()) {
            let link = Link {
                from: Node::cell(p, d),
                to: Node::cell(q, d),
                kind: LinkKind::Strong,
            };
            if !links.contains(&link) {
                links.push(link);
            }
        }
    }
    links
}

/// Adds the digit, the colored candidates and the cluster's conjugate pairs to `step`.
fn describe_cluster(mut step: Step, grid: &Grid, d: Digit, a: CellSet, b: CellSet) -> Step {
    step.digits = Candidates::single(d);
    for c in a.iter() {
        step.mark(c, d, Role::ColorA);
    }
    for c in b.iter() {
        step.mark(c, d, Role::ColorB);
    }
    for link in cluster_links(grid, d, a | b) {
        step.links.push(link);
    }
    step
}

/// `Simple Colors Trap: 7 (r1c2,r3c4) / (r1c5,r4c9) => r3c5<>7`
pub(crate) fn text(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::plain_text(step);
    };
    let list = |role: Role| {
        step.marked_cells(role)
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}: {} ({}) / ({}) => {}",
        step.technique.name(),
        d,
        list(Role::ColorA),
        list(Role::ColorB),
        step.effect_text()
    )
}

/// Trap: "Painting the 7s linked in pairs in two colors (r1c2 and r3c4 / r1c5 and r4c9), one
/// color is all true; r3c5 sees both colors, so r3c5 cannot be 7." Wrap: "…, r1c2 and r1c5 of
/// one color share a house, so that color is false and r1c2 … cannot be 7."
pub(crate) fn sentence(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::generic_sentence(step);
    };
    let (a, b) = (
        step.marked_cells(Role::ColorA),
        step.marked_cells(Role::ColorB),
    );
    let painted = format!(
        "Painting the {d}s linked in pairs in two colors ({} / {}), one color is all true",
        cell_words(a.iter()),
        cell_words(b.iter())
    );
    if step.technique == Technique::SimpleColorsWrap {
        let removed: CellSet = step.eliminations.iter().map(|e| e.cell).collect();
        return format!(
            "{painted}; two cells of the color {} share a house, so that color is false and {}.",
            cell_words(removed.iter()),
            super::effect_words(step)
        );
    }
    format!(
        "{painted}; {} sees both colors, so {}.",
        cell_words(step.eliminations.iter().map(|e| e.cell)),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;

    /// Chain r1c1 =r1= r1c9 =c9= r9c9 =r9= r9c2 (colors A B A B); the other 7s share their
    /// houses with at least two more, except the separate pairs r4c1-r6c2 (b4) and r3c3-r7c3 (c3).
    const CHAIN: [(usize, usize); 4] = [(1, 1), (1, 9), (9, 9), (9, 2)];
    const OTHERS: [(usize, usize); 6] = [(2, 2), (8, 1), (4, 1), (6, 2), (3, 3), (7, 3)];

    #[test]
    fn trap_removes_cells_seeing_both_colors() {
        let g = digit_only_in(7, &[CHAIN.as_slice(), OTHERS.as_slice()].concat());
        let s = find_trap(&g).unwrap();
        // r2c2 sees r1c1 (b1) and r9c2 (c2); r8c1 sees r1c1 (c1) and r9c2 (b7).
        assert_eq!(
            s.text(),
            "Simple Colors Trap: 7 (r1c1,r9c9) / (r1c9,r9c2) => r2c2,r8c1<>7"
        );
        assert_eq!(s.links.len(), 3);
        assert!(s.links.iter().all(|l| l.kind == LinkKind::Strong));
        assert!(find_wrap(&g).is_none(), "no color sees itself");
    }

    #[test]
    fn wrap_removes_the_color_that_sees_itself() {
        // Without r3c3, box 1 links r1c1 to r2c2, which gets r9c2's color: both in column 2.
        let mut cells = CHAIN.to_vec();
        cells.extend(OTHERS.iter().filter(|&&rc| rc != (3, 3)));
        let g = digit_only_in(7, &cells);
        let s = find_wrap(&g).unwrap();
        assert_eq!(
            s.text(),
            "Simple Colors Wrap: 7 (r1c1,r9c9) / (r1c9,r2c2,r9c2) => r1c9,r29c2<>7"
        );
    }

    #[test]
    fn sound_on_bank_positions() {
        use crate::sudoku::techniques::xy_wing::rated;
        rated::assert_sound_and_fires("Simple Colors trap", 1000, find_trap);
        rated::assert_sound_and_fires("Simple Colors wrap", 95, find_wrap);
    }
}
