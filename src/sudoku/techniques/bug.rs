//! Bivalue Universal Grave + 1. In a "BUG" every empty cell has two candidates and every digit
//! has exactly two places in every house where it is still open; such a position has no solution
//! or at least two (giving every cell its other candidate is again a solution). When all empty
//! cells but one are bivalue and that one has three candidates, removing the digit that appears
//! three times in its row, column and box would leave a BUG — so in a puzzle with a unique
//! solution that digit goes there.
//!
//! Only sound when the puzzle has exactly one solution (the dispatcher checks). The step marks
//! the digit in the trivalue cell [`Role::Base`], its other places in the cell's three houses
//! [`Role::Link`], and records those houses as [`Role::Base`].

use super::super::grid::Grid;
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, CellSet, Digit, House};
use super::{Flow, GO_ON, Instances};

/// The BUG+1 placement, if the position is a BUG plus one trivalue cell. Sound only when the
/// puzzle has a unique solution.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    let mut extra_cell = None;
    for c in grid.empty_cells().iter() {
        match grid.candidates(c).len() {
            2 => {}
            3 if extra_cell.is_none() => extra_cell = Some(c),
            _ => return GO_ON,
        }
    }
    let Some(cell) = extra_cell else {
        return GO_ON;
    };
    let houses = cell.houses();
    for d in grid.candidates(cell).iter() {
        // Without `d` in `cell`, every digit must have 0 or 2 places in every house.
        let is_bug = House::all().all(|h| {
            Digit::ALL.iter().all(|&e| {
                let mut n = grid.house_digit_cells(h, e).len();
                if e == d && houses.contains(&h) {
                    n = n.saturating_sub(1);
                }
                n == 0 || n == 2
            })
        });
        if !is_bug {
            continue;
        }
        let mut step = Step::new(Technique::BugPlusOne).place(cell, d);
        step.digits = Candidates::single(d);
        step.mark(cell, d, Role::Base);
        let mut others = CellSet::EMPTY;
        for h in houses {
            step.houses.push((h, Role::Base));
            others |= grid.house_digit_cells(h, d);
        }
        others.remove(cell);
        for c in others.iter() {
            step.mark(c, d, Role::Link);
        }
        out.add(step)?;
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// `Bivalue Universal Grave + 1 => r5c3=7`
pub(crate) fn text(step: &Step) -> String {
    format!("{} => {}", step.technique.name(), step.effect_text())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::solver::solve_up_to;
    use crate::sudoku::techniques::xy_wing::rated;
    use crate::sudoku::types::Cell;

    /// A position reached while solving a bank puzzle (one of `rated::RATINGS`): pencil marks,
    /// a solved cell written as its single digit. Every empty cell is bivalue except r6c2
    /// {1,5,6}.
    const BUG_POSITION: &str = "
        .2..............8.......7..........9..3...........6......4.........5....1........
        ........9..3..6.......5..........7..1...........4............8...3..6....2.......
        1.3.........4.....1....6..........8..2...........5..........7....3..6...........9
        ..3..6...........9.2...........5..........7.........8...3..6...1...........4.....
        .......8...3.5.......4..........6...........91..........3.5.....2.............7..
        ......7..1...56...1....6.....3.........4......2...............9.......8.....56...
        1....6....2.........3.........4.........5..........7..1....6...........9.......8.
        ....5..........7.........8.1.............6...........9.2..........4.......3......
        ...4.....1....6...........9.2..............8...3......1...5..........7......56...";

    #[test]
    fn bug_plus_one_on_a_real_position() {
        let g = rated::position(BUG_POSITION);
        let s = find(&g).unwrap();
        assert_eq!(s.text(), "Bivalue Universal Grave + 1 => r6c2=6");
        assert_eq!(s.houses.len(), 3);
        // Without 6, r6c2 would leave a BUG: 6 is the digit seen three times in r6, c2 and b4.
        let sols = solve_up_to(&g, 2);
        assert!(sols.is_unique());
        assert_eq!(sols.first.unwrap()[Cell::at(5, 1).index()], 6);
    }

    #[test]
    fn a_second_trivalue_cell_is_no_bug_plus_one() {
        let mut g = rated::position(BUG_POSITION);
        let two = g
            .empty_cells()
            .iter()
            .find(|&c| g.candidates(c).len() == 2)
            .unwrap();
        let extra = (!g.candidates(two)).first().unwrap();
        let mut cands = g.candidates(two);
        cands.insert(extra);
        g.set_candidates(two, cands);
        assert!(find(&g).is_none());
    }

    #[test]
    fn sound_on_bank_positions() {
        // Every position of the explained solves of real bank puzzles; each step checked against
        // the solution.
        let found = rated::check_finder(rated::bank_positions(), find);
        eprintln!("BUG+1: found in {} positions", found.len());
    }
}
