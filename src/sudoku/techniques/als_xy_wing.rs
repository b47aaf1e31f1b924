//! ALS-XY-Wing: three almost locked sets (see `als`) — a pivot `C` and two wings `A` and `B`.
//! `A` and `C` share a restricted common digit `X`, `B` and `C` another one `Y`. `C` can miss
//! at most one digit, so it holds `X` or `Y`; then `A` lacks `X` or `B` lacks `Y`, and that set
//! is locked. So a digit `Z` (not `X` or `Y`) common to `A` and `B` is in one of them, and
//! every cell that sees all `Z` of both loses it.
//!
//! The wings are marked [`Role::SetA`] and [`Role::SetB`], the pivot [`Role::Pivot`], the
//! restricted commons [`Role::Common`]; the three houses are recorded in those roles.

use super::super::grid::Grid;
use super::super::notation::{cell_words, compact_cells, digit_words};
use super::super::step::{Role, Step, Technique};
use super::als::{Als, collect};
use super::chains::Elims;

/// Largest ALS searched, in cells.
const MAX_CELLS: usize = 4;

/// The ALS-XY-Wing with the fewest cells that eliminates a candidate.
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    let sets = collect(grid, MAX_CELLS);
    let mut best: Option<(usize, [usize; 3], [super::super::types::Digit; 2], Elims)> = None;
    for (ci, c) in sets.iter().enumerate() {
        // Sets with a restricted common digit with the pivot.
        let linked: Vec<(usize, super::super::types::Candidates)> = sets
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != ci)
            .map(|(i, s)| (i, s.restricted_commons(c)))
            .filter(|(_, rc)| !rc.is_empty())
            .collect();
        for (k, &(ai, arc)) in linked.iter().enumerate() {
            for &(bi, brc) in &linked[k + 1..] {
                let (a, b) = (&sets[ai], &sets[bi]);
                let size = a.cells.len() + b.cells.len() + c.cells.len();
                if best.as_ref().is_some_and(|x| x.0 <= size) || !(a.cells & b.cells).is_empty()
                {
                    continue;
                }
                for x in arc.iter() {
                    for y in brc.iter().filter(|&y| y != x) {
                        let elims = eliminations(grid, a, b, x, y);
                        if !elims.is_empty() {
                            best = Some((size, [ai, bi, ci], [x, y], elims));
                        }
                    }
                }
            }
        }
    }
    let (_, [ai, bi, ci], [x, y], elims) = best?;
    let (a, b, c) = (&sets[ai], &sets[bi], &sets[ci]);
    let mut step = Step::new(Technique::AlsXyWing);
    step.eliminations = elims.candidates();
    step.houses.push((a.house, Role::SetA));
    step.houses.push((b.house, Role::SetB));
    step.houses.push((c.house, Role::Pivot));
    for (set, role) in [(a, Role::SetA), (b, Role::SetB), (c, Role::Pivot)] {
        for cell in set.cells.iter() {
            for d in grid.candidates(cell).iter() {
                step.mark(cell, d, role);
                step.digits.insert(d);
            }
        }
    }
    for (d, sets) in [(x, [a, c]), (y, [b, c])] {
        for s in sets {
            for cell in s.places[d.index()].iter() {
                step.mark(cell, d, Role::Common);
            }
        }
    }
    Some(step)
}

/// Eliminations of the wing `a`–`b` through a pivot linked by `x` (to `a`) and `y` (to `b`).
fn eliminations(
    grid: &Grid,
    a: &Als,
    b: &Als,
    x: super::super::types::Digit,
    y: super::super::types::Digit,
) -> Elims {
    let mut elims = Elims::default();
    for z in (a.digits & b.digits).iter() {
        if z != x && z != y {
            elims.add(grid, z, a.seeing_both(b, z));
        }
    }
    elims
}

/// The cells and digits of the set marked `role`, as `r1c12 {125}`.
pub(super) fn set_text(step: &Step, role: Role) -> String {
    let digits: super::super::types::Candidates = step.marked(role).map(|c| c.digit).collect();
    format!(
        "{} {{{}}}",
        compact_cells(step.marked_cells(role).iter()),
        digits
    )
}

/// The restricted common digits, in the pivot's cells order (X for A, then Y for B).
fn commons(step: &Step) -> (String, String) {
    let common = |role: Role| -> String {
        let set = step.marked_cells(role);
        step.marked(Role::Common)
            .find(|c| set.contains(c.cell))
            .map(|c| c.digit.to_string())
            .unwrap_or_default()
    };
    (common(Role::SetA), common(Role::SetB))
}

/// `ALS-XY-Wing: A=r1c12 {125}, B=r5c7 {59}, C=r5c2 {19}, X=1, Y=9 => r1c7<>5`
pub(crate) fn text(step: &Step) -> String {
    let (x, y) = commons(step);
    format!(
        "{}: A={}, B={}, C={}, X={x}, Y={y} => {}",
        step.technique.name(),
        set_text(step, Role::SetA),
        set_text(step, Role::SetB),
        set_text(step, Role::Pivot),
        step.effect_text()
    )
}

/// "The group r5c2 (1 and 9) must keep 1 or 9, so r1c1 and r1c2 lose 1 or r5c7 loses 9, and
/// that group is then locked; either way 5 is in one of the two groups, so r1c7 cannot be 5."
pub(crate) fn sentence(step: &Step) -> String {
    let (x, y) = commons(step);
    let pivot_digits: super::super::types::Candidates =
        step.marked(Role::Pivot).map(|c| c.digit).collect();
    let z: Vec<String> = step
        .eliminations
        .iter()
        .map(|e| e.digit.to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    format!(
        "The group {} ({}) keeps {x} or {y}, so the group {} loses {x} or the group {} loses \
         {y}, and that group is then locked; either way {} is in one of those two groups, so {}.",
        cell_words(step.marked_cells(Role::Pivot).iter()),
        digit_words(pivot_digits, "and"),
        cell_words(step.marked_cells(Role::SetA).iter()),
        cell_words(step.marked_cells(Role::SetB).iter()),
        super::super::notation::join_words(&z, "or"),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;
    use crate::sudoku::types::Cell;

    /// Pivot C = r5c5 {1,9}; A = r1c5 {1,5} (column 5, X = 1); B = r5c1 {9,5} (row 5, Y = 9).
    /// C is 1 or 9, so A or B is 5: r1c1 (seeing both) loses 5.
    #[test]
    fn three_bivalue_cells() {
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(4, 4), cands("19"));
        g.set_candidates(Cell::at(0, 4), cands("15"));
        g.set_candidates(Cell::at(4, 0), cands("59"));
        let s = find(&g).unwrap();
        assert_eq!(
            s.text(),
            "ALS-XY-Wing: A=r1c5 {15}, B=r5c1 {59}, C=r5c5 {19}, X=1, Y=9 => r1c1<>5"
        );
        assert!(s.explanation().contains("r1c1 cannot be 5"), "{}", s.explanation());
    }

    #[test]
    fn wings_without_a_common_digit_give_nothing() {
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(4, 4), cands("19"));
        g.set_candidates(Cell::at(0, 4), cands("15"));
        g.set_candidates(Cell::at(4, 0), cands("69"));
        assert!(find(&g).is_none());
    }
}
