//! Locked Candidates. Type 1 (Pointing): a digit's candidates in a box all lie on one line, so
//! the rest of that line loses it. Type 2 (Claiming): a line's candidates all lie in one box, so
//! the rest of that box loses it.

use super::super::grid::Grid;
use super::super::step::{Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, Digit, House, HouseKind};
use super::super::notation::house_words;
use super::{Flow, GO_ON, Instances};

/// Pointing: for each box and digit, candidates confined to one row or column.
pub(crate) fn search_pointing(grid: &Grid, out: &mut Instances) -> Flow {
    for d in Digit::ALL {
        for b in House::of_kind(HouseKind::Box) {
            let cells = grid.house_digit_cells(b, d);
            if cells.len() < 2 {
                continue;
            }
            for line in House::of_kind(HouseKind::Row).chain(House::of_kind(HouseKind::Col)) {
                if cells.is_subset(line.cell_set())
                    && let Some(step) = build(grid, Technique::LockedCandidatesPointing, d, b, line)
                {
                    out.add(step)?;
                }
            }
        }
    }
    GO_ON
}

/// Claiming: for each row/column and digit, candidates confined to one box.
pub(crate) fn search_claiming(grid: &Grid, out: &mut Instances) -> Flow {
    for d in Digit::ALL {
        for line in House::of_kind(HouseKind::Row).chain(House::of_kind(HouseKind::Col)) {
            let cells = grid.house_digit_cells(line, d);
            if cells.len() < 2 {
                continue;
            }
            for b in House::of_kind(HouseKind::Box) {
                if cells.is_subset(b.cell_set())
                    && let Some(step) = build(grid, Technique::LockedCandidatesClaiming, d, line, b)
                {
                    out.add(step)?;
                }
            }
        }
    }
    GO_ON
}

#[cfg(test)]
pub(crate) fn find_pointing(grid: &Grid) -> Option<Step> {
    super::first(|out| search_pointing(grid, out))
}

#[cfg(test)]
pub(crate) fn find_claiming(grid: &Grid) -> Option<Step> {
    super::first(|out| search_claiming(grid, out))
}

/// Builds the step for candidates of `d` in `base` confined to `cover`: eliminate from the rest
/// of `cover`.
fn build(grid: &Grid, t: Technique, d: Digit, base: House, cover: House) -> Option<Step> {
    let pattern = grid.house_digit_cells(base, d);
    let mut step = Step::new(t);
    let targets = cover.cell_set() & !base.cell_set();
    if eliminate_where_possible(&mut step, grid, targets, d) == 0 {
        return None;
    }
    step.digits = Candidates::single(d);
    step.houses.push((base, Role::Base));
    step.houses.push((cover, Role::Cover));
    for c in pattern.iter() {
        step.mark(c, d, Role::Base);
    }
    Some(step)
}

/// `Locked Candidates Type 1 (Pointing): 5 in b4 => r123c3<>5`
pub(crate) fn text(step: &Step) -> String {
    let base = step.houses_with(Role::Base).next();
    let digit = step.digits.first();
    match (base, digit) {
        (Some(b), Some(d)) => format!(
            "{}: {} in {} => {}",
            step.technique.name(),
            d,
            b,
            step.effect_text()
        ),
        _ => super::plain_text(step),
    }
}

/// "In box 7, the 1 can only go in row 7, so no other cell of row 7 can be 1."
pub(crate) fn sentence(step: &Step) -> String {
    let base = step.houses_with(Role::Base).next();
    let cover = step.houses_with(Role::Cover).next();
    match (base, cover, step.digits.first()) {
        (Some(b), Some(c), Some(d)) => format!(
            "In {}, the {d} can only go in {}, so no other cell of {} can be {d}.",
            house_words(b),
            house_words(c),
            house_words(c)
        ),
        _ => super::generic_sentence(step),
    }
}

#[cfg(test)]
mod tests {
    use crate::sudoku::techniques::test_util::*;

    #[test]
    fn pointing_in_box_1() {
        // r1-3c12 are filled, so box 1's 5 is confined to c3 and the rest of c3 loses it.
        let g = grid(
            "12.......\
             34.......\
             67.......\
             .........\
             .........\
             .........\
             .........\
             .........\
             .........",
        );
        let s = super::find_pointing(&g).unwrap();
        assert_eq!(
            s.text(),
            "Locked Candidates Type 1 (Pointing): 5 in b1 => r456789c3<>5"
        );
    }

    #[test]
    fn claiming_in_row() {
        // Row 1's 3 can only go in box 1 (r1c4-9 are filled), so the rest of box 1 loses it.
        let g = grid(
            "...124567\
             .........\
             .........\
             .........\
             .........\
             .........\
             .........\
             .........\
             .........",
        );
        let s = super::find_claiming(&g).unwrap();
        assert_eq!(
            s.text(),
            "Locked Candidates Type 2 (Claiming): 3 in r1 => r23c123<>3"
        );
    }
}
