//! Naked Subsets (Pair, Triple, Quadruple): `n` empty cells of one house whose candidates
//! together are exactly `n` digits. Those digits must fill those cells, so every other cell of
//! the house — and of any other house holding all `n` cells (a pair in a row and a box) — loses
//! them.
//!
//! Houses are searched boxes first, then rows, then columns.

use super::super::grid::Grid;
use super::super::notation::compact_cells;
use super::super::step::{Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, CellSet, House};
use super::super::notation::{cell_words, digit_words, house_words, join_words};
use super::basic_fish::{bits, subsets_in_houses};
use super::{Flow, GO_ON, Instances};

/// Reports the naked subsets of `size` (2, 3 or 4) that remove a candidate.
pub(crate) fn search(grid: &Grid, size: usize, out: &mut Instances) -> Flow {
    let technique = match size {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        4 => Technique::NakedQuad,
        _ => return GO_ON,
    };
    subsets_in_houses(
        size,
        |cells| {
            // Cells that can take part: empty, with 2..=size candidates; masks are their
            // digits.
            let mut digits = [0u16; 9];
            let mut eligible = 0u16;
            for (i, &c) in cells.iter().enumerate() {
                let cands = grid.candidates(c);
                digits[i] = cands.bits();
                if grid.value(c).is_none() && (2..=size).contains(&cands.len()) {
                    eligible |= 1 << i;
                }
            }
            (digits, eligible)
        },
        |house, cells, pick, union| {
            let set: CellSet = bits(pick).map(|i| cells[i]).collect();
            build(grid, technique, house, set, Candidates::from_bits(union))
        },
        out,
    )
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid, size: usize) -> Option<Step> {
    super::first(|out| search(grid, size, out))
}

/// The step for `digits` locked in `cells` (found in `house`): the digits leave every other cell
/// of each house that holds all the cells.
fn build(
    grid: &Grid,
    technique: Technique,
    house: House,
    cells: CellSet,
    digits: Candidates,
) -> Option<Step> {
    let mut step = Step::new(technique);
    step.digits = digits;
    step.houses.push((house, Role::Base));
    for h in House::all() {
        if h != house && cells.is_subset(h.cell_set()) {
            step.houses.push((h, Role::Base));
        }
    }
    let mut targets = CellSet::EMPTY;
    for (h, _) in &step.houses {
        targets |= h.cell_set();
    }
    targets &= !cells;
    let mut removed = 0;
    for d in digits.iter() {
        removed += eliminate_where_possible(&mut step, grid, targets, d);
    }
    if removed == 0 {
        return None;
    }
    for c in cells.iter() {
        for d in grid.candidates(c).iter() {
            step.mark(c, d, Role::Base);
        }
    }
    Some(step)
}

/// `Naked Pair: 1,5 in r1c24 => r1c3<>1, r1c56<>5`
pub(crate) fn text(step: &Step) -> String {
    let digits: Vec<String> = step.digits.iter().map(|d| d.to_string()).collect();
    format!(
        "{}: {} in {} => {}",
        step.technique.name(),
        digits.join(","),
        compact_cells(step.marked_cells(Role::Base).iter()),
        step.effect_text()
    )
}

/// "In row 1, r1c2 and r1c4 can only hold 1 and 5, one each, so r1c3 cannot be 1 and r1c5 and
/// r1c6 cannot be 5."
pub(crate) fn sentence(step: &Step) -> String {
    let houses: Vec<String> = step.houses_with(Role::Base).map(house_words).collect();
    format!(
        "In {}, {} can only hold {}, one each, so {}.",
        join_words(&houses, "and"),
        cell_words(step.marked_cells(Role::Base).iter()),
        digit_words(step.digits, "and"),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use crate::sudoku::grid::Grid;
    use crate::sudoku::techniques::basic_fish::tests::assert_solver_sound;
    use crate::sudoku::techniques::test_util::{cands, grid};
    use crate::sudoku::types::Cell;

    #[test]
    fn pair_in_a_row() {
        // Row 1 pencil marks set by hand: r1c2 and r1c4 hold only {1,5}.
        let mut g = Grid::empty();
        let row = [
            "1234", "15", "1567", "15", "2567", "3568", "789", "789", "2346",
        ];
        for (col, s) in row.iter().enumerate() {
            g.set_candidates(Cell::at(0, col), cands(s));
        }
        let s = super::find(&g, 2).unwrap();
        assert_eq!(s.text(), "Naked Pair: 1,5 in r1c24 => r1c13<>1, r1c356<>5");
        assert_eq!(s.houses[0].0.to_string(), "r1");
        // No three cells of any house hold only three digits.
        assert!(super::find(&g, 3).is_none());
    }

    #[test]
    fn pair_in_row_and_box_clears_both() {
        let mut g = Grid::empty();
        g.set_candidates(Cell::at(0, 0), cands("47"));
        g.set_candidates(Cell::at(0, 2), cands("47"));
        let s = super::find(&g, 2).unwrap();
        // Box 1 is searched first; the pair also shares row 1, so both houses lose 4 and 7.
        assert_eq!(
            s.text(),
            "Naked Pair: 4,7 in r1c13 => r1c2456789,r23c123<>4, r1c2456789,r23c123<>7"
        );
        assert_eq!(s.houses.len(), 2);
    }

    #[test]
    fn triple_in_a_real_position() {
        // Pencil marks of the SE-rated puzzle
        // 048003000000400207020050008400000030003070100070000009500040010806001000000900820
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            ".....6..9...4............8.......7...2.........3..........56.......56..91........\
             ..3..........56...1...5...9...4.....1......89.....6.89.2............6..9......7..\
             1....6..9.2.............7..1....6.......5.........6..9..3.........4............8.\
             ...4.........56.8.1...5...91...56...1......89.2...6.89......7....3.......2..5....\
             .2...6..9....56.8...3..........56.........7...2.4.6.891............56.8..2.45....\
             12...6.........7..1...5......3......1......8..2.4.6.8....456.......56.8.........9\
             ....5......3.......2..............8....4...........7..........91.............6...\
             .......8.........9.....6....2.........3......1...........45..........7.....45....\
             ......7..1...........4.............9.....6.......5...........8..2.........3......",
        );
        let s = super::find(&g, 3).unwrap();
        assert_eq!(
            s.text(),
            "Naked Triple: 5,6,8 in r5c248 => r5c9<>5, r5c16<>6, r5c6<>8"
        );
        assert_solver_sound(&g, &s);
    }

    #[test]
    fn quad_in_a_real_position() {
        // Pencil marks of the SE-rated puzzle
        // 004100708000800030000700064300020001060000020800090005240003000090007000608005900
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            "....5...9.23.........4.....1..........3..6....2...6.........7......5...9.......8.\
             ......7..12..5.........6..........8....45.....2.4....912..5......3.......2......9\
             1...5...9.......8.123.5..........7....3.5.....2......912..5.........6......4.....\
             ..3..........5.7......5.7.9...456....2..........4.6.8....4.6.8....4..7891........\
             ...4..........6...1...5...9..3.5..........7..1......8...3....8..2.........3.....9\
             .......8.12....7..12....7....34.6...........91..4.6.....34.6......4..7......5....\
             .2..........4.....1...5.7..........91....6.8...3..........5..8.1...5..8......67..\
             1...5............91.3.5.......4.6...1..4.6.8.......7...2345..8.1..45..8..23..6...\
             .....6.....3...7.........8..2.......1..4.........5............91..4.......3...7..",
        );
        let s = super::find(&g, 4).unwrap();
        assert_eq!(
            s.text(),
            "Naked Quadruple: 1,4,5,8 in r7c78,r89c8 => r8c7<>4, r8c7<>5, r8c7<>8"
        );
        assert_solver_sound(&g, &s);
    }
}
