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

pub(crate) fn find(grid: &Grid) -> Option<Step> {
    let mut extra_cell = None;
    for c in grid.empty_cells().iter() {
        match grid.candidates(c).len() {
            2 => {}
            3 if extra_cell.is_none() => extra_cell = Some(c),
            _ => return None,
        }
    }
    let cell = extra_cell?;
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
        return Some(step);
    }
    None
}

/// `Bivalue Universal Grave + 1 => r5c3=7`
pub(crate) fn text(step: &Step) -> String {
    format!("{} => {}", step.technique.name(), step.effect_text())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[ignore]
    fn explore() {
        use crate::sudoku::techniques::xy_wing::rated;
        use crate::sudoku::techniques::*;
        let ratings: Vec<String> = std::env::var("RATINGS").unwrap_or("4.2,4.4,4.5,4.6,5.6,6.6,7.0".into()).split(',').map(|s| s.to_string()).collect();
        let rs: Vec<&str> = ratings.iter().map(|s| s.as_str()).collect();
        let n: usize = std::env::var("PER").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
        let t0 = std::time::Instant::now();
        let pos = rated::positions(&rated::puzzles(&rs, n));
        eprintln!("{} positions in {:?}", pos.len(), t0.elapsed());
        let finders: Vec<(&str, Box<dyn Fn(&Grid) -> Option<Step>>)> = vec![
            ("xy", Box::new(|g: &Grid| xy_wing::find(g))),
            ("xyz", Box::new(|g: &Grid| xyz_wing::find(g))),
            ("w", Box::new(|g: &Grid| w_wing::find(g))),
            ("trap", Box::new(|g: &Grid| simple_colors::find_trap(g))),
            ("wrap", Box::new(|g: &Grid| simple_colors::find_wrap(g))),
            ("ur1", Box::new(|g: &Grid| unique_rectangle::find(g, 1))),
            ("ur2", Box::new(|g: &Grid| unique_rectangle::find(g, 2))),
            ("ur3", Box::new(|g: &Grid| unique_rectangle::find(g, 3))),
            ("ur4", Box::new(|g: &Grid| unique_rectangle::find(g, 4))),
            ("bug", Box::new(|g: &Grid| super::find(g))),
            ("rp", Box::new(|g: &Grid| remote_pair::find(g))),
        ];
        for (name, f) in &finders {
            let t0 = std::time::Instant::now();
            let found = rated::check_finder(&pos, f);
            eprintln!("== {name}: {} hits, {:?}", found.len(), t0.elapsed());
            for (g, s) in found.iter().take(3) {
                eprintln!("{}\n  {}", g.to_sukaku(), s.text());
            }
        }
    }

    #[test]
    fn sound_on_bank_positions() {
        // Every position of the explained solves of real bank puzzles; each step checked against
        // the solution.
        let found = crate::sudoku::techniques::xy_wing::rated::check_finder(
            crate::sudoku::techniques::xy_wing::rated::bank_positions(),
            find,
        );
        eprintln!("BUG+1: found in {} positions", found.len());
    }
}
