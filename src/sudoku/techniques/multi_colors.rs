//! Multi-Colors: two separate clusters of one digit, each colored in two classes along its
//! conjugate pairs (see Simple Colors: one class of each cluster is all true).
//!
//! - Type 1: a cell of class `A1` of the first cluster sees a cell of class `B1` of the second,
//!   so `A1` and `B1` are not both true: `A2` or `B2` is. A cell seeing both an `A2` and a `B2`
//!   cell loses the digit.
//! - Type 2: class `A1` sees both classes of the second cluster (one of which is true), so `A1`
//!   is false and all its cells lose the digit.
//!
//! The first cluster's classes are marked [`Role::ColorA`]/[`Role::ColorB`], the second's
//! [`Role::SetA`]/[`Role::SetB`]; the conjugate pairs of both are strong links.

use super::super::grid::Grid;
use super::super::notation::{cell_words, compact_cells};
use super::super::step::{Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, CellSet, Digit};
use super::simple_colors::{cluster_links, color, conjugate_graph, seen_by};

/// The first multi-colors step of `kind` (1 or 2), digits ascending.
pub(crate) fn find(grid: &Grid, kind: u8) -> Option<Step> {
    for d in Digit::ALL {
        let clusters = clusters(grid, d);
        for (i, &(a1, a2)) in clusters.iter().enumerate() {
            for (j, &(b1, b2)) in clusters.iter().enumerate() {
                if i == j || (kind == 1 && j < i) {
                    continue;
                }
                let step = match kind {
                    1 => type1(grid, d, [a1, a2], [b1, b2]),
                    _ => type2(grid, d, [a1, a2], [b1, b2]),
                };
                if step.is_some() {
                    return step;
                }
            }
        }
    }
    None
}

/// The two-colored clusters of `d` (at least two cells, consistent coloring).
fn clusters(grid: &Grid, d: Digit) -> Vec<(CellSet, CellSet)> {
    let adj = conjugate_graph(grid, d);
    let mut todo: CellSet = grid
        .digit_cells(d)
        .iter()
        .filter(|c| !adj[c.index()].is_empty())
        .collect();
    let mut out = Vec::new();
    while let Some(start) = todo.first() {
        let (a, b) = color(&adj, start);
        todo &= !(a | b);
        if (a & b).is_empty() {
            out.push((a, b));
        }
    }
    out
}

/// Whether some cell of `x` sees some cell of `y`.
fn sees(x: CellSet, y: CellSet) -> bool {
    !(seen_by(x) & y).is_empty()
}

fn type1(grid: &Grid, d: Digit, a: [CellSet; 2], b: [CellSet; 2]) -> Option<Step> {
    for i in 0..2 {
        for j in 0..2 {
            if !sees(a[i], b[j]) {
                continue;
            }
            let (a_true, b_true) = (a[1 - i], b[1 - j]);
            let targets = seen_by(a_true) & seen_by(b_true) & !(a[0] | a[1] | b[0] | b[1]);
            let mut step = Step::new(Technique::MultiColors1);
            if eliminate_where_possible(&mut step, grid, targets, d) == 0 {
                continue;
            }
            return Some(describe(step, grid, d, [a[i], a_true], [b[j], b_true]));
        }
    }
    None
}

fn type2(grid: &Grid, d: Digit, a: [CellSet; 2], b: [CellSet; 2]) -> Option<Step> {
    for i in 0..2 {
        if !(sees(a[i], b[0]) && sees(a[i], b[1])) {
            continue;
        }
        let mut step = Step::new(Technique::MultiColors2);
        if eliminate_where_possible(&mut step, grid, a[i], d) == 0 {
            continue;
        }
        return Some(describe(step, grid, d, [a[i], a[1 - i]], b));
    }
    None
}

/// Marks the classes (the first of each pair is the class that sees the other cluster) and
/// adds both clusters' strong links.
fn describe(mut step: Step, grid: &Grid, d: Digit, a: [CellSet; 2], b: [CellSet; 2]) -> Step {
    step.digits = Candidates::single(d);
    for (set, role) in [
        (a[0], Role::ColorA),
        (a[1], Role::ColorB),
        (b[0], Role::SetA),
        (b[1], Role::SetB),
    ] {
        for c in set.iter() {
            step.mark(c, d, role);
        }
    }
    step.links = cluster_links(grid, d, a[0] | a[1]);
    step.links.extend(cluster_links(grid, d, b[0] | b[1]));
    step
}

/// `Multi-Colors Type 1: 4 (r1c1,r5c2)/(r1c7) + (r2c3)/(r8c3,r9c9) => r8c7<>4`: the digit,
/// then each cluster's two classes, the class that sees the other cluster first.
pub(crate) fn text(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::plain_text(step);
    };
    let list = |r: Role| compact_cells(step.marked_cells(r).iter());
    format!(
        "{}: {} ({})/({}) + ({})/({}) => {}",
        step.technique.name(),
        d,
        list(Role::ColorA),
        list(Role::ColorB),
        list(Role::SetA),
        list(Role::SetB),
        step.effect_text()
    )
}

/// Type 1: "Painting two clusters of 4s in two colors each, r1c1 (first cluster) sees r2c3
/// (second), so one of r1c7 and r8c3 … holds the 4, and r8c7 cannot be 4." Type 2: "…, the
/// color of r1c1 sees both colors of the other cluster, so it is false and r1c1 … cannot be 4."
pub(crate) fn sentence(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::generic_sentence(step);
    };
    let cells = |r: Role| cell_words(step.marked_cells(r).iter());
    if step.technique == Technique::MultiColors2 {
        return format!(
            "Painting two clusters of {d}s in two colors each (one color of each is all true), \
             the color of {} sees both colors of the other cluster, so it is false and {}.",
            cells(Role::ColorA),
            super::effect_words(step)
        );
    }
    format!(
        "Painting two clusters of {d}s in two colors each (one color of each is all true), the \
         colors of {} and of {} see each other and cannot both be true, so {} or {} holds the \
         {d}, and {}.",
        cells(Role::ColorA),
        cells(Role::SetA),
        cells(Role::ColorB),
        cells(Role::SetB),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;
    use crate::sudoku::types::Cell;

    #[test]
    fn type_1_two_linked_clusters() {
        // Cluster 1: r1c1 =c1= r5c1 (column 1 holds only these two 7s); cluster 2:
        // r1c8 =b3= r1c9 (box 3 holds only these two). r1c1 sees r1c8 (row 1), so not both are
        // 7: r5c1 or r1c9 is. r5c9 sees both (row 5, column 9) and loses 7.
        let g = digit_only_in(
            7,
            &[
                (1, 1),
                (5, 1),
                (5, 4),
                (8, 4),
                (1, 4),
                (1, 8),
                (5, 8),
                (8, 8),
                (1, 9),
                (5, 9),
                (8, 9),
            ],
        );
        let s = find(&g, 1).expect("multi-colors type 1");
        assert!(
            s.eliminations
                .iter()
                .any(|e| e.cell == Cell::at(4, 8) && e.digit.get() == 7),
            "{}",
            s.text()
        );
        assert!(
            s.explanation().contains("r5c9 cannot be 7"),
            "{}",
            s.explanation()
        );
    }

    #[test]
    fn unlinked_clusters_give_nothing() {
        // The same clusters without a cell of one seeing a cell of the other.
        let g = digit_only_in(
            7,
            &[
                (1, 1),
                (5, 1),
                (6, 5),
                (9, 5),
                (2, 8),
                (3, 8),
                (4, 8),
                (7, 9),
                (8, 9),
                (9, 9),
            ],
        );
        assert!(find(&g, 1).is_none());
        assert!(find(&g, 2).is_none());
    }
}
