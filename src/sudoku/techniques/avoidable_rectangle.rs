//! Avoidable Rectangles: like Unique Rectangles, but some corners are already solved — placed
//! while solving, never givens. If the four corners (two rows, two columns, two boxes) ended up
//! as `a b / b a` with no given among them, the two digits could be swapped for a second
//! solution; so in a puzzle with one solution the move completing that pattern is wrong.
//!
//! - Type 1: three corners are solved as `a`, `b`, `b` (the lone `a` diagonal to the empty
//!   fourth corner): the fourth corner cannot be `a`.
//! - Type 2: two corners are solved; the two empty ones hold the digit that would complete the
//!   pattern plus the same single extra digit `x`. One of them is `x`, so cells seeing both
//!   lose `x`.
//!
//! Only sound when the puzzle has exactly one solution (the dispatcher checks). The solved
//! corners are marked with their digit [`Role::SetA`], the empty corners' pattern digit
//! [`Role::SetA`] and their extra [`Role::SetB`].

use super::super::grid::Grid;
use super::super::notation::{cell_words, slash_digits};
use super::super::step::{Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, Cell, CellSet, Digit};
use super::unique_rectangle::rectangles;

/// The first avoidable rectangle of `kind` (1 or 2) that removes a candidate.
pub(crate) fn find(grid: &Grid, kind: u8) -> Option<Step> {
    for corners in rectangles() {
        if corners.iter().any(|&c| grid.is_given(c)) {
            continue;
        }
        let solved: Vec<usize> = (0..4).filter(|&i| grid.value(corners[i]).is_some()).collect();
        let step = match (kind, solved.len()) {
            (1, 3) => type1(grid, corners),
            (2, 2) => type2(grid, corners, &solved),
            _ => None,
        };
        if step.is_some() {
            return step;
        }
    }
    None
}

fn type1(grid: &Grid, corners: [Cell; 4]) -> Option<Step> {
    let i = (0..4).find(|&i| grid.value(corners[i]).is_none())?;
    let a = grid.value(corners[3 - i])?;
    let b = grid.value(corners[i ^ 1])?;
    if grid.value(corners[i ^ 2]) != Some(b) || a == b {
        return None;
    }
    let mut step = Step::new(Technique::AvoidableRectangle1);
    if eliminate_where_possible(&mut step, grid, CellSet::single(corners[i]), a) == 0 {
        return None;
    }
    step.digits = Candidates::single(a) | Candidates::single(b);
    for (j, &c) in corners.iter().enumerate() {
        if let Some(v) = grid.value(c) {
            step.mark(c, v, Role::SetA);
        } else if j == i {
            step.mark(c, a, Role::SetA);
        }
    }
    Some(step)
}

fn type2(grid: &Grid, corners: [Cell; 4], solved: &[usize]) -> Option<Step> {
    let (s0, s1) = (solved[0], solved[1]);
    let (v0, v1) = (grid.value(corners[s0])?, grid.value(corners[s1])?);
    // The solved corners share a line and differ; each empty corner would take the digit of
    // its diagonal opposite. (Solved on a diagonal, the pattern's other digit is unknown.)
    if s0 + s1 == 3 || v0 == v1 {
        return None;
    }
    let empty: Vec<usize> = (0..4).filter(|i| !solved.contains(i)).collect();
    let need: Vec<Digit> = empty
        .iter()
        .map(|&i| grid.value(corners[3 - i]))
        .collect::<Option<_>>()?;
    let mut x = None;
    for (k, &i) in empty.iter().enumerate() {
        let cands = grid.candidates(corners[i]);
        if !cands.contains(need[k]) || cands.len() != 2 {
            return None;
        }
        let extra = (cands & !Candidates::single(need[k])).single_digit()?;
        if x.is_some_and(|e| e != extra) {
            return None;
        }
        x = Some(extra);
    }
    let x = x?;
    let cells: CellSet = empty.iter().map(|&i| corners[i]).collect();
    let mut step = Step::new(Technique::AvoidableRectangle2);
    if eliminate_where_possible(&mut step, grid, cells.common_peers(), x) == 0 {
        return None;
    }
    step.digits = Candidates::single(v0) | Candidates::single(v1) | Candidates::single(x);
    for &i in solved {
        if let Some(v) = grid.value(corners[i]) {
            step.mark(corners[i], v, Role::SetA);
        }
    }
    for (k, &i) in empty.iter().enumerate() {
        step.mark(corners[i], need[k], Role::SetA);
        step.mark(corners[i], x, Role::SetB);
    }
    Some(step)
}

/// `Avoidable Rectangle Type 1: 2/7 in r1c1,r1c4,r2c1,r2c4 => r2c4<>2`
pub(crate) fn text(step: &Step) -> String {
    let corners = step.marked_cells(Role::SetA);
    let digits: Candidates = step.marked(Role::SetA).map(|c| c.digit).collect();
    format!(
        "{}: {} in {} => {}",
        step.technique.name(),
        slash_digits(digits.iter()),
        corners
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(","),
        step.effect_text()
    )
}

/// "r1c1, r1c4 and r2c1 were solved as 2, 7 and 7 (none a given), so r2c4 cannot be 2: the four
/// cells would hold a pattern whose digits could be swapped, a second solution."
pub(crate) fn sentence(step: &Step) -> String {
    let solved: Vec<String> = step
        .marked(Role::SetA)
        .filter(|c| !step.marked_cells(Role::SetB).contains(c.cell))
        .filter(|c| !step.eliminations.iter().any(|e| e.cell == c.cell))
        .map(|c| format!("{} as {}", c.cell, c.digit))
        .collect();
    let why = "the four corners would hold two digits that could be swapped, a second solution";
    if step.technique == Technique::AvoidableRectangle2 {
        let extra = step.marked(Role::SetB).next().map(|c| c.digit);
        if let Some(x) = extra {
            return format!(
                "With {} solved (none a given), {} must not take the rest of the pattern, since \
                 {why}; so one of them is {x}, and {}.",
                super::super::notation::join_words(&solved, "and"),
                cell_words(step.marked_cells(Role::SetB).iter()),
                super::effect_words(step)
            );
        }
    }
    format!(
        "With {} solved (none a given), {}, since {why}.",
        super::super::notation::join_words(&solved, "and"),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;

    fn d(n: u8) -> Digit {
        Digit::new(n).unwrap()
    }

    #[test]
    fn type_1_placed_corners() {
        // r1c1=2, r1c4=7, r2c1=7 placed (not givens): r2c4 cannot be 2.
        let mut g = grid(&".".repeat(81));
        g.place(Cell::at(0, 0), d(2));
        g.place(Cell::at(0, 3), d(7));
        g.place(Cell::at(1, 0), d(7));
        let s = find(&g, 1).unwrap();
        assert_eq!(
            s.text(),
            "Avoidable Rectangle Type 1: 2/7 in r1c1,r1c4,r2c1,r2c4 => r2c4<>2"
        );
        assert!(s.explanation().contains("r2c4 cannot be 2"), "{}", s.explanation());
        // The same corners as givens prove nothing.
        let given = grid(&format!("2..7.....7{}", ".".repeat(71)));
        assert!(find(&given, 1).is_none());
    }

    #[test]
    fn type_2_shared_extra() {
        // r1c1=2 and r1c4=7 placed; r2c1 {7,5} and r2c4 {2,5}: one of them is 5.
        let mut g = grid(&".".repeat(81));
        g.place(Cell::at(0, 0), d(2));
        g.place(Cell::at(0, 3), d(7));
        g.set_candidates(Cell::at(1, 0), cands("57"));
        g.set_candidates(Cell::at(1, 3), cands("25"));
        let s = find(&g, 2).unwrap();
        assert!(s.eliminations.iter().all(|e| e.digit == d(5) && e.cell.row() == 1));
        assert_eq!(
            s.text(),
            "Avoidable Rectangle Type 2: 2/7 in r1c1,r1c4,r2c1,r2c4 => r2c2356789<>5"
        );
        // A different extra in each cell gives nothing.
        g.set_candidates(Cell::at(1, 3), cands("26"));
        assert!(find(&g, 2).is_none());
    }
}
