//! XYZ-Wing: a trivalue pivot `{x,y,z}` sees two bivalue pincers `{x,z}` and `{y,z}`. Whatever
//! the pivot takes, one of the three cells holds `z`, so every cell that sees all three loses
//! `z` (such cells are in the pivot's box or line, so there are at most two of them).
//!
//! Marks, digits and text follow XY-Wing's conventions (pivot first, then the pincer with the
//! smaller other digit).

use super::super::grid::Grid;
use super::super::step::{Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Cell, CellSet, Digit};
use super::super::notation::{cell_words, digit_words};
use super::{Flow, GO_ON, Instances};

/// Reports the XYZ-Wings (pivots in reading order) that eliminate something.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    let mut bivalue = CellSet::EMPTY;
    let mut trivalue = CellSet::EMPTY;
    for c in grid.empty_cells().iter() {
        match grid.candidates(c).len() {
            2 => bivalue.insert(c),
            3 => trivalue.insert(c),
            _ => {}
        }
    }
    for pivot in trivalue.iter() {
        let pc = grid.candidates(pivot);
        // Pincers are bivalue peers whose digits are both in the pivot.
        let mut arms = CellSet::EMPTY;
        for c in (bivalue & pivot.peers()).iter() {
            if (grid.candidates(c) & !pc).is_empty() {
                arms.insert(c);
            }
        }
        for a in arms.iter() {
            let later = CellSet::from_bits(arms.bits() & !((2u128 << a.index()) - 1));
            for b in later.iter() {
                let (ca, cb) = (grid.candidates(a), grid.candidates(b));
                // Distinct pairs sharing exactly z cover the pivot: {x,z} | {y,z} = {x,y,z}.
                let Some(z) = (ca & cb).single_digit() else {
                    continue;
                };
                if (ca | cb) != pc {
                    continue;
                }
                if let Some(step) = build(grid, pivot, a, b, z) {
                    out.add(step)?;
                }
            }
        }
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

fn build(grid: &Grid, pivot: Cell, a: Cell, b: Cell, z: Digit) -> Option<Step> {
    let targets = pivot.peers() & a.peers() & b.peers();
    let mut step = Step::new(Technique::XYZWing);
    if eliminate_where_possible(&mut step, grid, targets, z) == 0 {
        return None;
    }
    step.digits = grid.candidates(pivot);
    for d in grid.candidates(pivot).iter() {
        step.mark(pivot, d, Role::Pivot);
    }
    for cell in [a, b] {
        for d in grid.candidates(cell).iter() {
            step.mark(cell, d, Role::Pincer);
        }
    }
    Some(step)
}

/// `XYZ-Wing: 1/2/3 in r1c1,r1c5,r2c2 => r1c3<>3`
pub(crate) fn text(step: &Step) -> String {
    super::xy_wing::text(step)
}

/// "Whatever the pivot r2c2 holds (1, 3 or 6), one of r2c2, r3c1 and r9c2 is 1, so r2c1 cannot
/// be 1."
pub(crate) fn sentence(step: &Step) -> String {
    let (Some(pivot), Some(z)) = (
        step.marked_cells(Role::Pivot).first(),
        step.eliminations.first().map(|e| e.digit),
    ) else {
        return super::generic_sentence(step);
    };
    let all = step.marked_cells(Role::Pivot) | step.marked_cells(Role::Pincer);
    format!(
        "Whatever the pivot {pivot} holds ({}), one of {} is {z}, so {}.",
        digit_words(step.digits, "or"),
        cell_words(all.iter()),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;
    use crate::sudoku::types::Candidates;

    fn cands(ds: &[u8]) -> Candidates {
        ds.iter().filter_map(|&n| Digit::new(n)).collect()
    }

    #[test]
    fn textbook_wing_on_open_grid() {
        // Pivot r1c1 {1,2,3}, pincers r1c5 {1,3} (row) and r2c2 {2,3} (box): only r1c2 and r1c3
        // see all three.
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(0, 0), cands(&[1, 2, 3]));
        g.set_candidates(Cell::at(0, 4), cands(&[1, 3]));
        g.set_candidates(Cell::at(1, 1), cands(&[2, 3]));
        g.set_candidates(Cell::at(0, 1), cands(&[4, 5]));
        let s = find(&g).unwrap();
        assert_eq!(s.text(), "XYZ-Wing: 1/2/3 in r1c1,r1c5,r2c2 => r1c3<>3");
        assert_eq!(s.digits, cands(&[1, 2, 3]));
    }

    #[test]
    fn pincers_must_share_one_digit_of_the_pivot() {
        // {1,3} and {1,3}: a naked pair with the pivot's digits, not a wing.
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(0, 0), cands(&[1, 2, 3]));
        g.set_candidates(Cell::at(0, 4), cands(&[1, 3]));
        g.set_candidates(Cell::at(1, 1), cands(&[1, 3]));
        assert!(find(&g).is_none());
    }

    #[test]
    fn sound_on_bank_positions() {
        // Every position of the explained solves of real bank puzzles; each step checked against
        // the solution, and the finder must fire.
        crate::sudoku::techniques::xy_wing::rated::assert_sound_and_fires("XYZ-Wing", 510, find);
    }
}
