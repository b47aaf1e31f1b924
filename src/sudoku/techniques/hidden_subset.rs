//! Hidden Subsets (Pair, Triple, Quadruple): `n` digits of one house that can only go in the
//! same `n` cells. Those cells must hold exactly those digits, so every other candidate of those
//! cells goes.
//!
//! Houses are searched boxes first, then rows, then columns.

use super::super::grid::{Candidate, Grid};
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, CellSet, House};
use super::super::notation::{cell_words, digit_words, house_words};
use super::basic_fish::{bits, subsets_in_houses};
use super::{Flow, GO_ON, Instances};

/// Reports the hidden subsets of `size` (2, 3 or 4) that remove a candidate.
pub(crate) fn search(grid: &Grid, size: usize, out: &mut Instances) -> Flow {
    let technique = match size {
        2 => Technique::HiddenPair,
        3 => Technique::HiddenTriple,
        4 => Technique::HiddenQuad,
        _ => return GO_ON,
    };
    subsets_in_houses(
        size,
        |cells| {
            // Digits that can take part: not yet placed, with 1..=size places in the house;
            // masks are their places (positions within the house).
            let mut places = [0u16; 9];
            for (i, &c) in cells.iter().enumerate() {
                for d in grid.candidates(c).iter() {
                    places[d.index()] |= 1 << i;
                }
            }
            let mut eligible = 0u16;
            for (d, p) in places.iter().enumerate() {
                if (1..=size as u32).contains(&p.count_ones()) {
                    eligible |= 1 << d;
                }
            }
            (places, eligible)
        },
        |house, cells, pick, union| {
            let set: CellSet = bits(union).map(|i| cells[i]).collect();
            build(grid, technique, house, set, Candidates::from_bits(pick))
        },
        out,
    )
}

#[cfg(test)]
pub(crate) fn find(grid: &Grid, size: usize) -> Option<Step> {
    super::first(|out| search(grid, size, out))
}

/// The step for `digits` confined to `cells` of `house`: the cells lose every other digit.
fn build(
    grid: &Grid,
    technique: Technique,
    house: House,
    cells: CellSet,
    digits: Candidates,
) -> Option<Step> {
    let mut step = Step::new(technique);
    for c in cells.iter() {
        for d in (grid.candidates(c) & !digits).iter() {
            step.eliminations.push(Candidate::new(c, d));
        }
    }
    if step.eliminations.is_empty() {
        return None;
    }
    step.digits = digits;
    step.houses.push((house, Role::Base));
    for c in cells.iter() {
        for d in (grid.candidates(c) & digits).iter() {
            step.mark(c, d, Role::Base);
        }
    }
    Some(step)
}

/// `Hidden Pair: 3,8 in r2c17 => r2c1<>1, r2c7<>6`
pub(crate) fn text(step: &Step) -> String {
    // Same layout as naked subsets: the digits, then the cells holding them.
    super::naked_subset::text(step)
}

/// "In row 2, 3 and 8 can only go in r2c1 and r2c7, so those cells hold them and r2c1 cannot be
/// 1 …"
pub(crate) fn sentence(step: &Step) -> String {
    let Some(h) = step.houses_with(Role::Base).next() else {
        return super::generic_sentence(step);
    };
    format!(
        "In {}, {} can only go in {}, so those cells hold them and {}.",
        house_words(h),
        digit_words(step.digits, "and"),
        cell_words(step.marked_cells(Role::Base).iter()),
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
        // Row 2 by hand: 3 and 8 only in r2c1 and r2c7.
        let mut g = Grid::empty();
        let row = [
            "138", "12", "245", "2459", "4567", "5679", "3689", "2479", "1245",
        ];
        for (col, s) in row.iter().enumerate() {
            g.set_candidates(Cell::at(1, col), cands(s));
        }
        // Rows 1 and 3 keep all candidates, so no box or column holds a hidden subset.
        let s = super::find(&g, 2).unwrap();
        assert_eq!(
            s.text(),
            "Hidden Pair: 3,8 in r2c17 => r2c1<>1, r2c7<>6, r2c7<>9"
        );
        assert_eq!(s.houses[0].0.to_string(), "r2");
        assert_eq!(s.eliminations.len(), 3);
    }

    #[test]
    fn triple_in_a_real_position() {
        // Pencil marks of the SE-rated puzzle
        // 105208403000000000060704010000000000602000105030080060010090050206503901900106007
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            "1..............7.9....5.....2............6..........8....4...........7.9..3......\
             ..34..78..2.........34..78...3.....91.3.5....1...5...9....5678.......78......6.8.\
             ..3....8......6.....3....89......7....3.5.......4......2..5..8.1.........2.....89\
             ...45.78....4..7891..4..789.....6...123.5.7..12..5.7.9.23...78..234..789.2.4...89\
             .....6......4..789.2.........34....9..3...7........7.91..........34..789....5....\
             ...45.7....3......1..4..7.9...4....9.......8.12..5.7.9.2....7.......6....2.4....9\
             ..34..7..1..........34..7.........8.........9.2....7...23..6.......5.....2.4.6...\
             .2..........4..78......6.......5.......4..7....3..............9...4...8.1........\
             ........9....5......34...8.1.........2.4..........6....23....8..234...8.......7..",
        );
        let s = super::find(&g, 3).unwrap();
        assert_eq!(
            s.text(),
            "Hidden Triple: 1,2,5 in r4c56,r6c6 => r4c5<>3, r4c56,r6c6<>7, r46c6<>9"
        );
        assert_solver_sound(&g, &s);
    }

    #[test]
    fn quad_in_a_real_position() {
        // Pencil marks of the SE-rated puzzle
        // 004076000105034000300000062090000600640000071001000020410000007000420309000950100
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            "........9.2..........4............8.......7.......6.......5....1..........3......\
             1.............6.......5.....2.........3.........4...........7..........9.......8.\
             ..3............78.......78.1...5....1.......9....5...9...4..........6....2.......\
             .2..5.78.........9.2....78.1.....7..1..4...8..2.....8......6.....3.........45....\
             .....6......4......23........3.5...........89.23.5...........89......7..1........\
             ....5.78...3.5.78.1..........3..67.....4.6.89..3....89.......89.2..........45....\
             ...4.....1................9..3..6........6.8...3....8..2...........5..........7..\
             ....5.7......5.7.......6......4......2.......1..........3.............8.........9\
             .2.....8...3....8..23....8.........9....5..........7..1...........4..........6...",
        );
        let s = super::find(&g, 4).unwrap();
        assert_eq!(
            s.text(),
            "Hidden Quadruple: 1,4,6,7 in r46c45 => r6c4<>3, r46c5<>8, r6c5<>9"
        );
        assert_solver_sound(&g, &s);
    }
}
