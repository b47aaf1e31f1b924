//! Hidden Single: a digit with one possible place in a house goes there. Boxes are searched
//! before lines, as a human scans them first.

use super::super::grid::Grid;
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, Digit, House, HouseKind};
use super::super::notation::house_words;
use super::{Flow, GO_ON, Instances};

/// Reports every digit with one place left in a house.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    let houses = House::of_kind(HouseKind::Box)
        .chain(House::of_kind(HouseKind::Row))
        .chain(House::of_kind(HouseKind::Col));
    for h in houses {
        for d in Digit::ALL {
            let cells = grid.house_digit_cells(h, d);
            if cells.len() == 1 {
                let Some(cell) = cells.first() else {
                    continue;
                };
                let mut step = Step::new(Technique::HiddenSingle).place(cell, d);
                step.digits = Candidates::single(d);
                step.houses.push((h, Role::Base));
                step.mark(cell, d, Role::Base);
                out.add(step)?;
            }
        }
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// `Hidden Single: r9c3=7`
pub(crate) fn text(step: &Step) -> String {
    super::plain_text(step)
}

/// "In box 7, the 7 can only go in r9c3, so r9c3 is 7."
pub(crate) fn sentence(step: &Step) -> String {
    match (step.placements.first(), step.houses.first()) {
        (Some(p), Some((h, _))) => format!(
            "In {}, the {} can only go in {}, so {} is {}.",
            house_words(*h),
            p.digit,
            p.cell,
            p.cell,
            p.digit
        ),
        _ => super::generic_sentence(step),
    }
}

#[cfg(test)]
mod tests {
    use crate::sudoku::techniques::test_util::*;

    #[test]
    fn only_place_in_box() {
        // 7s in r7, r8 (outside box 7) and c1, c2 (r4c1, r1c2) leave r9c3 as box 7's only 7.
        let g = grid(
            ".7.......\
             .........\
             .........\
             7........\
             .........\
             .........\
             ...7.....\
             ......7..\
             .........",
        );
        let s = super::find(&g).unwrap();
        assert_eq!(s.text(), "Hidden Single: r9c3=7");
        assert_eq!(s.houses[0].0.to_string(), "b7");
    }
}
