//! Sue de Coq: two or three empty cells `C` where a box meets a line, with digits `V`; some
//! cells `L` of the line outside the box and `B` of the box outside the line, such that `L`'s
//! digits and `B`'s digits have none in common and the `n` cells of `C ∪ L ∪ B` hold exactly
//! `n` digits `D` between them.
//!
//! A digit of `L` cannot also be in `B`, so it lies in `C ∪ L` (all on the line) at most once;
//! likewise a digit of `B` in `C ∪ B` (all in the box), and a digit only in `C` once. So each of
//! the `n` digits appears exactly once: digits not in `B` are on the line's cells `C ∪ L` and
//! leave the rest of the line; digits not in `L` are in the box's cells `C ∪ B` and leave the
//! rest of the box.
//!
//! Marks: `C` [`Role::Base`], `L` [`Role::SetA`], `B` [`Role::SetB`]; the box and the line are
//! recorded as [`Role::Base`] houses (box first).

use super::super::grid::Grid;
use super::super::notation::{cell_words, compact_cells, digit_words, house_words};
use super::super::step::{Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, Cell, CellSet, House, HouseKind};
use super::{Flow, GO_ON, Instances};

/// Most cells taken from the line (and from the box) besides the intersection.
const MAX_SIDE: usize = 3;

/// Every Sue de Coq that removes a candidate, reported to `out` (boxes in order, rows then
/// columns).
pub(crate) fn search(grid: &Grid, out: &mut Instances) -> Flow {
    let empty = grid.empty_cells();
    for bx in House::of_kind(HouseKind::Box) {
        for line in House::of_kind(HouseKind::Row).chain(House::of_kind(HouseKind::Col)) {
            let inter = bx.cell_set() & line.cell_set() & empty;
            if inter.len() < 2 {
                continue;
            }
            for c_set in submasks(inter).filter(|s| s.len() >= 2) {
                let v = digits_of(grid, c_set);
                if v.len() < c_set.len() + 2 {
                    continue;
                }
                // Helper cells share a digit with the intersection and are not singles.
                let helpers = |area: CellSet| -> Vec<Cell> {
                    (area & empty)
                        .iter()
                        .filter(|&c| {
                            grid.candidates(c).len() >= 2 && !(grid.candidates(c) & v).is_empty()
                        })
                        .collect()
                };
                let line_rest = helpers(line.cell_set() & !bx.cell_set());
                let box_rest = helpers(bx.cell_set() & !line.cell_set());
                // The box's sets with their digits, once for every set of the line.
                let box_sets: Vec<(CellSet, Candidates)> = small_sets(&box_rest)
                    .into_iter()
                    .map(|b| (b, digits_of(grid, b)))
                    .collect();
                for l_set in small_sets(&line_rest) {
                    let vl = digits_of(grid, l_set);
                    for &(b_set, vb) in &box_sets {
                        if !(vl & vb).is_empty() {
                            continue;
                        }
                        let d = v | vl | vb;
                        if d.len() != c_set.len() + l_set.len() + b_set.len() {
                            continue;
                        }
                        let cells = Cells {
                            c: c_set,
                            l: l_set,
                            b: b_set,
                        };
                        if let Some(step) = build(grid, bx, line, cells, d, vl, vb) {
                            out.add(step)?;
                        }
                    }
                }
            }
        }
    }
    GO_ON
}

/// The first instance, for the tests.
#[cfg(test)]
fn find(grid: &Grid) -> Option<Step> {
    super::first(|out| search(grid, out))
}

/// The three groups of cells of a Sue de Coq.
#[derive(Clone, Copy)]
struct Cells {
    c: CellSet,
    l: CellSet,
    b: CellSet,
}

fn build(
    grid: &Grid,
    bx: House,
    line: House,
    cells: Cells,
    d: Candidates,
    vl: Candidates,
    vb: Candidates,
) -> Option<Step> {
    let line_targets = line.cell_set() & !cells.c & !cells.l;
    let box_targets = bx.cell_set() & !cells.c & !cells.b;
    let mut step = Step::new(Technique::SueDeCoq);
    let mut n = 0;
    for x in (d & !vb).iter() {
        n += eliminate_where_possible(&mut step, grid, line_targets, x);
    }
    for x in (d & !vl).iter() {
        n += eliminate_where_possible(&mut step, grid, box_targets, x);
    }
    if n == 0 {
        return None;
    }
    // Box and line may both remove a digit from one cell: keep each candidate once.
    step.eliminations.sort();
    step.eliminations.dedup();
    step.digits = d;
    step.houses.push((bx, Role::Base));
    step.houses.push((line, Role::Base));
    for (set, role) in [
        (cells.c, Role::Base),
        (cells.l, Role::SetA),
        (cells.b, Role::SetB),
    ] {
        for c in set.iter() {
            for x in grid.candidates(c).iter() {
                step.mark(c, x, role);
            }
        }
    }
    Some(step)
}

/// The union of the candidates of `cells`.
fn digits_of(grid: &Grid, cells: CellSet) -> Candidates {
    cells
        .iter()
        .fold(Candidates::NONE, |acc, c| acc | grid.candidates(c))
}

/// The non-empty subsets of a set of at most three cells.
fn submasks(set: CellSet) -> impl Iterator<Item = CellSet> {
    let cells: Vec<Cell> = set.iter().collect();
    (1u32..(1 << cells.len())).map(move |m| {
        cells
            .iter()
            .enumerate()
            .filter(|(i, _)| m & (1 << i) != 0)
            .map(|(_, &c)| c)
            .collect()
    })
}

/// The sets of one to [`MAX_SIDE`] cells of `cells`.
fn small_sets(cells: &[Cell]) -> Vec<CellSet> {
    let mut out = Vec::new();
    let n = cells.len();
    for m in 1u32..(1 << n) {
        if m.count_ones() as usize <= MAX_SIDE {
            out.push(
                cells
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| m & (1 << i) != 0)
                    .map(|(_, &c)| c)
                    .collect(),
            );
        }
    }
    out
}

/// `Sue de Coq: r1c12 {1257} + r1c7 {17} + r3c3 {25} => r1c9<>1, r2c1<>5`: the intersection,
/// the line cells, the box cells (each with their digits).
pub(crate) fn text(step: &Step) -> String {
    let group = |role: Role| {
        let digits: Candidates = step.marked(role).map(|c| c.digit).collect();
        format!(
            "{} {{{}}}",
            compact_cells(step.marked_cells(role).iter()),
            digits
        )
    };
    format!(
        "{}: {} + {} + {} => {}",
        step.technique.name(),
        group(Role::Base),
        group(Role::SetA),
        group(Role::SetB),
        step.effect_text()
    )
}

/// "Where box 1 meets row 1, r1c1 and r1c2 hold 1, 2, 5 and 7; with r1c7 of the row (1 and 7)
/// and r3c3 of the box (2 and 5), these 4 cells hold exactly 4 digits, each once, so …"
pub(crate) fn sentence(step: &Step) -> String {
    let houses: Vec<House> = step.houses_with(Role::Base).collect();
    let [bx, line] = houses[..] else {
        return super::generic_sentence(step);
    };
    let digits = |role: Role| -> Candidates { step.marked(role).map(|c| c.digit).collect() };
    let n = step.marked_cells(Role::Base).len()
        + step.marked_cells(Role::SetA).len()
        + step.marked_cells(Role::SetB).len();
    format!(
        "Where {} meets {}, {} hold {}; with {} of the {} ({}) and {} of the box ({}), these {n} \
         cells hold exactly {n} digits, each once, so {}.",
        house_words(bx),
        house_words(line),
        cell_words(step.marked_cells(Role::Base).iter()),
        digit_words(digits(Role::Base), "and"),
        cell_words(step.marked_cells(Role::SetA).iter()),
        house_words(line).split(' ').next().unwrap_or("line"),
        digit_words(digits(Role::SetA), "and"),
        cell_words(step.marked_cells(Role::SetB).iter()),
        digit_words(digits(Role::SetB), "and"),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;

    /// r1c1 {1,2,5,7} and r1c2 {1,2,5,7} (box 1 ∩ row 1), r1c7 {1,7} in row 1, r3c3 {2,5} in
    /// box 1: four cells, four digits. 1 and 7 stay on row 1's cells, 2 and 5 in box 1's.
    fn position(box_cell: &str) -> Grid {
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(0, 0), cands("1257"));
        g.set_candidates(Cell::at(0, 1), cands("1257"));
        g.set_candidates(Cell::at(0, 6), cands("17"));
        g.set_candidates(Cell::at(2, 2), cands(box_cell));
        g
    }

    #[test]
    fn classic_sue_de_coq() {
        let g = position("25");
        let s = find(&g).unwrap();
        assert!(
            s.text()
                .starts_with("Sue de Coq: r1c12 {1257} + r1c7 {17} + r3c3 {25} => "),
            "{}",
            s.text()
        );
        // Row 1 outside the pattern loses 1, 2, 5, 7? No: 2 and 5 only leave the row if they
        // are not in the box cell's digits — they are, so the row loses 1 and 7 (and 2, 5 as
        // digits of C not in L... they are in B, so they stay possible on the row).
        let one = crate::sudoku::Digit::new(1).unwrap();
        let two = crate::sudoku::Digit::new(2).unwrap();
        assert!(
            s.eliminations
                .iter()
                .any(|e| e.cell == Cell::at(0, 8) && e.digit == one)
        );
        assert!(
            !s.eliminations
                .iter()
                .any(|e| e.cell == Cell::at(0, 8) && e.digit == two)
        );
        assert!(
            s.eliminations
                .iter()
                .any(|e| e.cell == Cell::at(1, 0) && e.digit == two)
        );
        assert!(
            !s.eliminations
                .iter()
                .any(|e| e.cell == Cell::at(1, 0) && e.digit == one)
        );
        assert!(
            s.explanation().contains("4 cells hold exactly 4 digits"),
            "{}",
            s.explanation()
        );
    }

    #[test]
    fn overlapping_helpers_give_nothing() {
        // r3c3 {1,5} shares 1 with the line cell: no Sue de Coq.
        assert!(find(&position("15")).is_none());
    }
}
