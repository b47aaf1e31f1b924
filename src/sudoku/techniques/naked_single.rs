//! Naked Single: a cell with exactly one candidate takes it.

use super::super::grid::Grid;
use super::super::step::{Role, Step, Technique};
use super::super::types::Candidates;
use super::{Flow, GO_ON, Instances};

/// Reports every cell with one candidate.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    for cell in grid.empty_cells().iter() {
        if let Some(d) = grid.candidates(cell).single_digit() {
            let mut step = Step::new(Technique::NakedSingle).place(cell, d);
            step.digits = Candidates::single(d);
            step.mark(cell, d, Role::Base);
            out.add(step)?;
        }
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// `Naked Single: r4c5=2`
pub(crate) fn text(step: &Step) -> String {
    super::plain_text(step)
}

/// "Every digit but 2 is already in the row, column or box of r4c5, so r4c5 is 2."
pub(crate) fn sentence(step: &Step) -> String {
    match step.placements.first() {
        Some(p) => format!(
            "Every digit but {} is already in the row, column or box of {}, so {} is {}.",
            p.digit, p.cell, p.cell, p.digit
        ),
        None => super::generic_sentence(step),
    }
}

#[cfg(test)]
mod tests {
    use crate::sudoku::techniques::test_util::*;

    #[test]
    fn cell_with_one_candidate() {
        // r1c1 sees 1-8 (row: 1234, column: 5678) and nothing else is forced.
        let g = grid(
            ".1234....\
             5........\
             6........\
             7........\
             8........\
             .........\
             .........\
             .........\
             .........",
        );
        let s = super::find(&g).unwrap();
        assert_eq!(s.text(), "Naked Single: r1c1=9");
    }
}
