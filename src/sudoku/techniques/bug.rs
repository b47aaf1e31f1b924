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

use super::super::grid::{Candidate, Grid};
use super::super::step::{Role, Step, Technique};
use super::super::notation::cell_words;
use super::super::types::{Candidates, Cell, CellSet, Digit, House};
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

/// Most cells with more than two candidates a BUG+n is looked for in.
const MAX_POLY_CELLS: usize = 4;

/// BUG+n: every empty cell is bivalue except a few (up to [`MAX_POLY_CELLS`]) with more
/// candidates; keeping exactly one pair in each of those leaves a BUG in exactly one way. The
/// other candidates of those cells, the extras, cannot all be false (the puzzle would have two
/// solutions or none), so every candidate that conflicts with all extras goes. Sound only when
/// the puzzle has a unique solution. Extras are marked [`Role::Base`].
pub(crate) fn find_n(grid: &Grid) -> Option<Step> {
    let mut poly: Vec<Cell> = Vec::new();
    for c in grid.empty_cells().iter() {
        match grid.candidates(c).len() {
            2 => {}
            3 | 4 if poly.len() < MAX_POLY_CELLS => poly.push(c),
            _ => return None,
        }
    }
    if poly.is_empty() {
        return None;
    }
    // Every way of keeping a pair in each poly cell that leaves a BUG.
    let options: Vec<Vec<Candidates>> = poly
        .iter()
        .map(|&c| pairs_of(grid.candidates(c)))
        .collect();
    let mut found: Option<Vec<Candidates>> = None;
    let mut choice = vec![0usize; poly.len()];
    loop {
        let kept: Vec<Candidates> = choice.iter().zip(&options).map(|(&i, o)| o[i]).collect();
        if leaves_bug(grid, &poly, &kept) {
            if found.is_some() {
                return None; // two ways: the extras are not determined
            }
            found = Some(kept);
        }
        // Next combination.
        let mut k = 0;
        while k < choice.len() {
            choice[k] += 1;
            if choice[k] < options[k].len() {
                break;
            }
            choice[k] = 0;
            k += 1;
        }
        if k == choice.len() {
            break;
        }
    }
    let kept = found?;
    let extras: Vec<Candidate> = poly
        .iter()
        .zip(&kept)
        .flat_map(|(&c, &pair)| {
            (grid.candidates(c) & !pair)
                .iter()
                .map(move |d| Candidate::new(c, d))
        })
        .collect();
    if extras.len() < 2 {
        return None; // one extra candidate: BUG+1
    }
    let conflicts = |a: Candidate, b: Candidate| {
        if a.cell == b.cell {
            a.digit != b.digit
        } else {
            a.digit == b.digit && a.cell.sees(b.cell)
        }
    };
    let mut step = Step::new(Technique::BugPlusN);
    for c in grid.empty_cells().iter() {
        for d in grid.candidates(c).iter() {
            let cand = Candidate::new(c, d);
            if !extras.contains(&cand) && extras.iter().all(|&e| conflicts(cand, e)) {
                step.eliminations.push(cand);
            }
        }
    }
    if step.eliminations.is_empty() {
        return None;
    }
    for e in &extras {
        step.mark(e.cell, e.digit, Role::Base);
        step.digits.insert(e.digit);
    }
    Some(step)
}

/// The pairs of digits of a candidate set.
fn pairs_of(cands: Candidates) -> Vec<Candidates> {
    let ds: Vec<Digit> = cands.iter().collect();
    let mut out = Vec::new();
    for (i, &a) in ds.iter().enumerate() {
        for &b in &ds[i + 1..] {
            out.push(Candidates::single(a) | Candidates::single(b));
        }
    }
    out
}

/// Whether keeping only `kept[i]` in `poly[i]` gives every digit zero or two places in every
/// house.
fn leaves_bug(grid: &Grid, poly: &[Cell], kept: &[Candidates]) -> bool {
    House::all().all(|h| {
        Digit::ALL.iter().all(|&d| {
            let mut n = grid.house_digit_cells(h, d).len();
            for (&c, &pair) in poly.iter().zip(kept) {
                if h.cell_set().contains(c) && grid.has_candidate(c, d) && !pair.contains(d) {
                    n -= 1;
                }
            }
            n == 0 || n == 2
        })
    })
}

/// `Bivalue Universal Grave + 1 => r5c3=7`; BUG+n lists the extras:
/// `Bivalue Universal Grave + n: +5r1c2 +5r3c4 => r1c7<>5`
pub(crate) fn text(step: &Step) -> String {
    if step.technique == Technique::BugPlusN {
        let extras: Vec<String> = step
            .marked(Role::Base)
            .map(|c| format!("+{}{}", c.digit, c.cell))
            .collect();
        return format!(
            "{}: {} => {}",
            step.technique.name(),
            extras.join(" "),
            step.effect_text()
        );
    }
    format!("{} => {}", step.technique.name(), step.effect_text())
}

/// "Every unsolved cell has two candidates except r6c2; unless r6c2 is 6 every digit would have
/// two places in each house, a pattern with two solutions or none, so r6c2 is 6."
pub(crate) fn sentence(step: &Step) -> String {
    if step.technique == Technique::BugPlusN {
        let extras: Vec<String> = step
            .marked(Role::Base)
            .map(|c| format!("{} in {}", c.digit, c.cell))
            .collect();
        return format!(
            "Every unsolved cell has two candidates except {}; without the extras {} every digit \
             would have two places in each house, a pattern with two solutions or none, so one \
             of the extras is true and {}.",
            cell_words(step.marked_cells(Role::Base).iter()),
            super::super::notation::join_words(&extras, "and"),
            super::effect_words(step)
        );
    }
    let Some(p) = step.placements.first() else {
        return super::generic_sentence(step);
    };
    format!(
        "Every unsolved cell has two candidates except {}; unless it is {} every digit would \
         have two places in each house, a pattern with two solutions or none, so {} is {}.",
        cell_words([p.cell]),
        p.digit,
        p.cell,
        p.digit
    )
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
        // the solution, and the finder must fire.
        crate::sudoku::techniques::xy_wing::rated::assert_sound_and_fires("BUG+1", 1, find);
    }
}
