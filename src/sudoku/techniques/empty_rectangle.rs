//! Empty Rectangle: a box whose candidates of a digit all lie on one row `R` and one column `C`
//! of the box (a cross, with candidates on both arms), combined with a conjugate pair outside
//! the box. If the pair is in a column `X` with one end on row `R`, its other end `(S, X)` or
//! the box's column `C` holds the digit; so `(S, C)` cannot (it would empty the box). Likewise
//! with a row pair with one end on column `C`, which eliminates at `(R, S)`.
//!
//! As a grouped chain: `far end = near end - box row group = box column group`, and the target
//! sees both ends. The box candidates are marked [`Role::Base`], the pair [`Role::Link`] (near
//! end first).

use super::super::grid::{Candidate, Grid};
use super::super::step::{Link, LinkKind, Node, Role, Step, Technique};
use super::super::types::{Candidates, Cell, CellSet, Digit, House, HouseKind};
use super::super::notation::{house_words, join_words};
use super::{Flow, GO_ON, Instances};

/// Reports the Empty Rectangles that remove a candidate: digits in order, boxes in order.
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    for d in Digit::ALL {
        let cells_d = grid.digit_cells(d);
        for bx in House::of_kind(HouseKind::Box) {
            let in_box = cells_d & bx.cell_set();
            if in_box.len() < 2 {
                continue;
            }
            let b = bx.number();
            let (band, stack) = (b / 3 * 3, b % 3 * 3);
            for r in band..band + 3 {
                for c in stack..stack + 3 {
                    let row = House::row(r);
                    let col = House::col(c);
                    let row_arm = in_box & row.cell_set() & !col.cell_set();
                    let col_arm = in_box & col.cell_set() & !row.cell_set();
                    if !in_box.is_subset(row.cell_set() | col.cell_set())
                        || row_arm.is_empty()
                        || col_arm.is_empty()
                    {
                        continue;
                    }
                    let er = Er {
                        d,
                        bx,
                        row,
                        col,
                        in_box,
                    };
                    er.with_pairs(grid, out)?;
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

/// A box of digit `d` whose candidates `in_box` lie on `row` and `col`.
struct Er {
    d: Digit,
    bx: House,
    row: House,
    col: House,
    in_box: CellSet,
}

impl Er {
    /// Tries every conjugate pair that starts on one of the cross lines outside the box.
    fn with_pairs(&self, grid: &Grid, out: &mut Instances) -> Flow {
        let cells_d = grid.digit_cells(self.d);
        let band = self.bx.number() / 3;
        let stack = self.bx.number() % 3;
        // Column pairs with one end on the ER row, the other outside the box's band.
        for near in (cells_d & self.row.cell_set() & !self.bx.cell_set()).iter() {
            let pair_line = House::col(near.col());
            let Some(far) = other_of_pair(grid, self.d, pair_line, near) else {
                continue;
            };
            if far.row() / 3 == band {
                continue;
            }
            let target = Cell::at(far.row(), self.col.number());
            if let Some(step) = self.build(grid, pair_line, near, far, target, self.row) {
                out.add(step)?;
            }
        }
        // Row pairs with one end on the ER column, the other outside the box's stack.
        for near in (cells_d & self.col.cell_set() & !self.bx.cell_set()).iter() {
            let pair_line = House::row(near.row());
            let Some(far) = other_of_pair(grid, self.d, pair_line, near) else {
                continue;
            };
            if far.col() / 3 == stack {
                continue;
            }
            let target = Cell::at(self.row.number(), far.col());
            if let Some(step) = self.build(grid, pair_line, near, far, target, self.col) {
                out.add(step)?;
            }
        }
        GO_ON
    }

    /// The step removing `d` from `target`: `far = near` in `pair_line`, `near` sees the box
    /// cells on `near_line`, which are strongly linked in the box to the rest of its candidates
    /// (all on the other cross line, which the target is on).
    #[allow(clippy::too_many_arguments)]
    fn build(
        &self,
        grid: &Grid,
        pair_line: House,
        near: Cell,
        far: Cell,
        target: Cell,
        near_line: House,
    ) -> Option<Step> {
        if !grid.has_candidate(target, self.d) {
            return None;
        }
        let d = self.d;
        let near_group = self.in_box & near_line.cell_set();
        let far_group = self.in_box & !near_line.cell_set();
        let mut step = Step::new(Technique::EmptyRectangle);
        step.digits = Candidates::single(d);
        step.houses.push((self.bx, Role::Base));
        step.houses.push((pair_line, Role::Link));
        step.houses.push((self.row, Role::Cover));
        step.houses.push((self.col, Role::Cover));
        for c in self.in_box.iter() {
            step.mark(c, d, Role::Base);
        }
        step.mark(near, d, Role::Link);
        step.mark(far, d, Role::Link);
        let group = |cells| Node { cells, digit: d };
        step.links = vec![
            Link {
                from: Node::cell(far, d),
                to: Node::cell(near, d),
                kind: LinkKind::Strong,
            },
            Link {
                from: Node::cell(near, d),
                to: group(near_group),
                kind: LinkKind::Weak,
            },
            Link {
                from: group(near_group),
                to: group(far_group),
                kind: LinkKind::Strong,
            },
        ];
        step.eliminations.push(Candidate::new(target, d));
        Some(step)
    }
}

/// The other cell of `house` holding `d` when `near` and it are the only two.
fn other_of_pair(grid: &Grid, d: Digit, house: House, near: Cell) -> Option<Cell> {
    let cells = grid.house_digit_cells(house, d);
    if cells.len() != 2 || !cells.contains(near) {
        return None;
    }
    (cells & !CellSet::single(near)).first()
}

/// `Empty Rectangle: 9 in b1 (r3c8/r7c8) => r7c2<>9` (digit, box, the conjugate pair near end
/// first).
pub(crate) fn text(step: &Step) -> String {
    let (Some(d), Some(bx)) = (step.digits.first(), step.houses_with(Role::Base).next()) else {
        return super::plain_text(step);
    };
    let pair: Vec<String> = step
        .marked(Role::Link)
        .map(|c| c.cell.to_string())
        .collect();
    format!(
        "{}: {} in {} ({}) => {}",
        step.technique.name(),
        d,
        bx,
        pair.join("/"),
        step.effect_text()
    )
}

/// "In box 5 the 4 can only be on row 4 or column 5, and the 4 of column 8 is in r4c8 or r7c8;
/// either way r7c5 cannot be 4."
pub(crate) fn sentence(step: &Step) -> String {
    let bx = step.houses_with(Role::Base).next();
    let pair = step.houses_with(Role::Link).next();
    let cross: Vec<String> = step.houses_with(Role::Cover).map(house_words).collect();
    let (Some(d), Some(bx), Some(pair), [r, c]) = (step.digits.first(), bx, pair, &cross[..])
    else {
        return super::generic_sentence(step);
    };
    let ends: Vec<String> = step.marked(Role::Link).map(|c| c.cell.to_string()).collect();
    format!(
        "In {} the {d} can only be on {r} or {c}, and the {d} of {} is in {}; either way {}.",
        house_words(bx),
        house_words(pair),
        join_words(&ends, "or"),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::basic_fish::tests::{
        assert_single_digit_sound, assert_solver_sound, digit_grid,
    };
    use crate::sudoku::techniques::test_util::grid;

    #[test]
    fn box_1_with_column_8_pair() {
        // 9: box 1 only r1c2 (column 2) and r3c1 (row 3); column 8 only r3c8/r7c8; the target
        // r7c2. A full placement (r1c7 r2c5 r3c1 r4c3 r5c6 r6c9 r7c8 r8c4 r9c2) and more cells
        // so no other line through box 1's cross lines is a pair.
        let g = digit_grid(
            9,
            "r1c7 r2c5 r3c1 r4c3 r5c6 r6c9 r7c8 r8c4 r9c2 r1c2 r3c8 r7c2 \
             r5c1 r8c1 r6c3 r9c3 r2c4 r5c4 r4c5 r9c5 r2c6 r8c6 r4c7 r6c7 \
             r2c9 r4c9 r1c5",
        );
        let s = find(&g).unwrap();
        assert_eq!(s.text(), "Empty Rectangle: 9 in b1 (r3c8/r7c8) => r7c2<>9");
        assert_eq!(s.links.len(), 3);
        assert_single_digit_sound(&g, &s);
    }

    #[test]
    fn real_position() {
        // Pencil marks of the SE-rated puzzle
        // 700084009040093010000050000590000000431000796000000041000010000010860030200340008
        // at this step. Text checked by hand, eliminations against the exact solver.
        let g = grid(
            "......7...2..5......3......1...............8....4..........6....2..5............9\
             .....6......4......2..5..8..2....7..........9..3.......2.....8.1.........2..5.7..\
             1.........2.....8.........9.....6.......5.....2....7....34......2....78...34.....\
             ....5............9.....6......4...........7..1.........23....8..2.....8..23......\
             ...4.......3......1............5.....2..............8.......7..........9.....6...\
             .......8..2....7...2....7..........9..3...........6.......5.......4.....1........\
             ..3..........5678....45.78..2....7..1.........2..5.7..........9.2..56....2.45.7..\
             ........91...........45.7.........8......6....2..5.7...2.4.......3.......2.45.7..\
             .2...........567......5.7....3.........4.............91............567.........8.",
        );
        let s = super::find(&g).unwrap();
        assert_eq!(s.text(), "Empty Rectangle: 2 in b3 (r2c4/r7c4) => r7c8<>2");
        assert_solver_sound(&g, &s);
    }
}
