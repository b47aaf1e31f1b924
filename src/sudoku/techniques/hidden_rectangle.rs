//! Hidden Rectangle: four empty, non-given cells at the corners of a rectangle (two rows, two
//! columns, two boxes). One corner `A` holds exactly `a` and `b`. If `b` has only two places on
//! the row through the opposite corner `D` and only two on its column (each time `D` and the
//! rectangle corner on that line), then `D` cannot be `a`: with `D = a` the row and column
//! would put `b` in the two other corners, `A` (seeing them) would be `a`, and the four cells
//! would form the swappable deadly pattern.
//!
//! Only sound when the puzzle has exactly one solution (the dispatcher checks). The corners'
//! `a`/`b` are marked [`Role::SetA`], `A` is also marked [`Role::Pivot`], the strong links of
//! `b` are recorded as links and their lines as [`Role::Link`] houses.

use super::super::grid::Grid;
use super::super::notation::{cell_words, house_words, slash_digits};
use super::super::step::{Link, LinkKind, Node, Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, Cell, CellSet, House};
use super::unique_rectangle::rectangles;
use super::{Flow, GO_ON, Instances};

/// Every hidden rectangle that removes a candidate, reported to `out` (rectangles in order).
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    for corners in rectangles() {
        if corners
            .iter()
            .any(|&c| grid.value(c).is_some() || grid.is_given(c))
        {
            continue;
        }
        // Corner i's opposite is 3 - i; the corners sharing A's row and column are 1 and 2
        // apart (index xor 1 and xor 2).
        for i in 0..4 {
            let a_cell = corners[i];
            let ab = grid.candidates(a_cell);
            if ab.len() != 2 {
                continue;
            }
            let d_cell = corners[3 - i];
            let b_row = corners[i ^ 1]; // shares A's row, D's column
            let c_col = corners[i ^ 2]; // shares A's column, D's row
            for (u, v) in pairs(ab) {
                if !grid.has_candidate(d_cell, u) || !grid.has_candidate(d_cell, v) {
                    continue;
                }
                let row = House::row(d_cell.row());
                let col = House::col(d_cell.col());
                let in_row = CellSet::single(d_cell) | CellSet::single(c_col);
                let in_col = CellSet::single(d_cell) | CellSet::single(b_row);
                if grid.house_digit_cells(row, v) != in_row
                    || grid.house_digit_cells(col, v) != in_col
                {
                    continue;
                }
                let mut step = Step::new(Technique::HiddenRectangle);
                if eliminate_where_possible(&mut step, grid, CellSet::single(d_cell), u) == 0 {
                    continue;
                }
                step.digits = ab;
                for c in corners {
                    for d in (grid.candidates(c) & ab).iter() {
                        step.mark(c, d, Role::SetA);
                    }
                }
                step.mark(a_cell, u, Role::Pivot);
                step.houses.push((row, Role::Link));
                step.houses.push((col, Role::Link));
                for other in [c_col, b_row] {
                    step.links.push(Link {
                        from: Node::cell(d_cell, v),
                        to: Node::cell(other, v),
                        kind: LinkKind::Strong,
                    });
                }
                out.add(step)?;
            }
        }
    }
    GO_ON
}

/// The first instance, for the tests.
#[cfg(test)]
fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// Both orders of the two digits of a pair.
fn pairs(ab: Candidates) -> Vec<(super::super::types::Digit, super::super::types::Digit)> {
    let mut it = ab.iter();
    match (it.next(), it.next()) {
        (Some(a), Some(b)) => vec![(a, b), (b, a)],
        _ => Vec::new(),
    }
}

/// `Hidden Rectangle: 4/9 in r1c2,r1c7,r3c2,r3c7 => r3c7<>4`
pub(crate) fn text(step: &Step) -> String {
    let corners = step.marked_cells(Role::SetA);
    format!(
        "{}: {} in {} => {}",
        step.technique.name(),
        slash_digits(step.digits.iter()),
        corners
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(","),
        step.effect_text()
    )
}

/// "r1c2, r1c7, r3c2 and r3c7 must not end up holding only 4 and 9 (a second solution); if r3c7
/// were 4, the 9 of row 3 and column 7 (two places each) would fill r3c2 and r1c7, making r1c2
/// 4: the forbidden pattern. So r3c7 cannot be 4."
pub(crate) fn sentence(step: &Step) -> String {
    let corners = step.marked_cells(Role::SetA);
    let (Some(e), Some(link)) = (step.eliminations.first(), step.links.first()) else {
        return super::generic_sentence(step);
    };
    let lines: Vec<String> = step.houses_with(Role::Link).map(house_words).collect();
    let others: Vec<Cell> = step
        .links
        .iter()
        .filter_map(|l| l.to.cells.first())
        .collect();
    let pivot = step.marked_cells(Role::Pivot);
    format!(
        "{} must not end up holding only {} (the digits could be swapped, a second solution); \
         if {} were {}, the {} of {} (two places each) would fill {}, making {} {}: the \
         forbidden pattern. So {} cannot be {}.",
        cell_words(corners.iter()),
        slash_digits(step.digits.iter()).replace('/', " and "),
        e.cell,
        e.digit,
        link.from.digit,
        super::super::notation::join_words(&lines, "and"),
        cell_words(others),
        cell_words(pivot.iter()),
        e.digit,
        e.cell,
        e.digit
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;
    use crate::sudoku::types::Digit;

    fn d(n: u8) -> Digit {
        Digit::new(n).unwrap()
    }

    /// Rectangle r1c2, r1c7, r3c2, r3c7 (boxes 1 and 3) in an open grid: A = r1c2 {4,9};
    /// 9 only at r3c2/r3c7 in row 3 and at r1c7/r3c7 in column 7.
    fn position() -> Grid {
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(0, 1), cands("49"));
        for c in 0..9 {
            if c != 1 && c != 6 {
                g.eliminate(Cell::at(2, c), d(9));
            }
        }
        for r in 0..9 {
            if r != 0 && r != 2 {
                g.eliminate(Cell::at(r, 6), d(9));
            }
        }
        g
    }

    #[test]
    fn removes_the_other_digit_from_the_opposite_corner() {
        let g = position();
        let s = find(&g).unwrap();
        assert_eq!(
            s.text(),
            "Hidden Rectangle: 4/9 in r1c2,r1c7,r3c2,r3c7 => r3c7<>4"
        );
        assert_eq!(s.links.len(), 2);
        assert!(
            s.explanation().contains("r3c7 cannot be 4"),
            "{}",
            s.explanation()
        );
    }

    #[test]
    fn no_strong_link_no_hidden_rectangle() {
        // A third 9 in column 7 breaks the strong link through r3c7.
        let mut g = position();
        let mut c = g.candidates(Cell::at(5, 6));
        c.insert(d(9));
        g.set_candidates(Cell::at(5, 6), c);
        assert!(find(&g).is_none());
        // A given corner is no deadly pattern either.
        let given = grid(&format!("{}5{}", ".".repeat(24), ".".repeat(56)));
        assert!(find(&given).is_none());
    }
}
