//! Full House: the last empty cell of a house takes the one digit the house is missing.

use super::super::grid::Grid;
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, House};
use super::super::notation::house_words;
use super::{Flow, GO_ON, Instances};

/// Reports every house with one empty cell left.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    for h in House::all() {
        let empty: Vec<_> = h
            .cells()
            .into_iter()
            .filter(|&c| grid.value(c).is_none())
            .collect();
        if let [cell] = empty[..] {
            let Some(d) = grid.candidates(cell).single_digit() else {
                continue;
            };
            let mut step = Step::new(Technique::FullHouse).place(cell, d);
            step.digits = Candidates::single(d);
            step.houses.push((h, Role::Base));
            out.add(step)?;
        }
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// `Full House: r1c1=5`
pub(crate) fn text(step: &Step) -> String {
    super::plain_text(step)
}

/// "r1c1 is the last empty cell of row 1, so it takes the missing 5."
pub(crate) fn sentence(step: &Step) -> String {
    match (step.placements.first(), step.houses.first()) {
        (Some(p), Some((h, _))) => format!(
            "{} is the last empty cell of {}, so it takes the missing {}.",
            p.cell,
            house_words(*h),
            p.digit
        ),
        _ => super::generic_sentence(step),
    }
}

#[cfg(test)]
mod tests {
    use crate::sudoku::techniques::test_util::*;

    #[test]
    fn last_cell_of_row() {
        let g = grid(
            "12345678.\
             .........\
             .........\
             .........\
             .........\
             .........\
             .........\
             .........\
             .........",
        );
        let s = super::find(&g).unwrap();
        assert_eq!(s.text(), "Full House: r1c9=9");
    }
}
