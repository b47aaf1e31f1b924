//! Unique loops: the unique rectangle's deadly pattern on 6, 8 or 10 cells. Cells holding two
//! digits `a` and `b`, joined in a closed loop where each step stays in a house and every row,
//! column and box holds none or two of them, could swap `a` and `b` without breaking a house:
//! a puzzle with one solution cannot end with only `a` and `b` there. So (type 1) the one cell
//! with other digits holds one of those; (type 2) when the two cells with other digits have
//! the same one extra digit, one of them holds it, and cells seeing both lose it; (type 4) when
//! two such cells share a house where `a` has no other place, they hold `a` and lose `b`.
//!
//! Found for rating only (`rating::sukaku`: Sukaku Explainer's unique loops, rated as its unique
//! rectangles plus the loop's length), as steps of the unique rectangle of the same type with
//! the loop's cells marked as corners; the explained path takes rectangles only.

use super::super::grid::Grid;
use super::super::step::{Role, Step, Technique, eliminate_where_possible};
use super::super::types::{Candidates, Cell, CellSet, Digit};

/// Longest loop searched, in cells.
const MAX_CELLS: usize = 10;

/// A unique loop of 6 to 10 cells (types 1, 2 and 4) that eliminates a candidate: the shortest
/// found, for rating.
pub(crate) fn find(grid: &Grid) -> Option<Step> {
    let mut best: Option<Step> = None;
    for (i, &a) in Digit::ALL.iter().enumerate() {
        for &b in &Digit::ALL[i + 1..] {
            let ab = Candidates::single(a) | Candidates::single(b);
            let holders: CellSet = grid
                .empty_cells()
                .iter()
                .filter(|&c| grid.candidates(c) & ab == ab)
                .collect();
            let bivalue: Vec<Cell> = holders
                .iter()
                .filter(|&c| grid.candidates(c) == ab)
                .collect();
            // Six cells at least, two of them at most with other digits.
            if holders.len() < 6 || bivalue.len() < 4 {
                continue;
            }
            for &start in &bivalue {
                let mut path = vec![start];
                let mut counts = [0u8; 27];
                add(&mut counts, start, 1);
                search(grid, holders, (a, b), &mut path, &mut counts, &mut best);
            }
        }
    }
    best
}

/// Adds `delta` to the counts of `cell`'s three houses.
fn add(counts: &mut [u8; 27], cell: Cell, delta: i8) {
    for h in cell.houses() {
        let i = h.index();
        counts[i] = counts[i].wrapping_add_signed(delta);
    }
}

/// Extends `path` (a loop's cells so far, from a two-digit cell) depth first; a closed loop that
/// eliminates something and is shorter than `best` replaces it.
fn search(
    grid: &Grid,
    holders: CellSet,
    (a, b): (Digit, Digit),
    path: &mut Vec<Cell>,
    counts: &mut [u8; 27],
    best: &mut Option<Step>,
) {
    let ab = Candidates::single(a) | Candidates::single(b);
    let limit = best
        .as_ref()
        .map_or(MAX_CELLS, |b| b.marked_cells(Role::SetA).len() - 2);
    let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
        return;
    };
    if path.len() >= 6
        && path.len().is_multiple_of(2)
        && last.sees(first)
        && counts.iter().all(|&n| n == 0 || n == 2)
        && alternates(path)
        && let Some(step) = deduce(grid, path, (a, b))
    {
        *best = Some(step);
        return;
    }
    if path.len() >= limit {
        return;
    }
    let extras = path.iter().filter(|&&c| grid.candidates(c) != ab).count();
    for next in (holders & last.peers()).iter() {
        if path.contains(&next) || next < first && grid.candidates(next) == ab {
            continue;
        }
        let extra = usize::from(grid.candidates(next) != ab);
        if extras + extra > 2 || next.houses().iter().any(|h| counts[h.index()] >= 2) {
            continue;
        }
        path.push(next);
        add(counts, next, 1);
        search(grid, holders, (a, b), path, counts, best);
        add(counts, next, -1);
        path.pop();
    }
}

/// Whether `a` and `b` can alternate around the loop `cells`: any two of its cells that share
/// a house are an odd number of steps apart.
fn alternates(cells: &[Cell]) -> bool {
    cells.iter().enumerate().all(|(i, c)| {
        cells[i + 1..]
            .iter()
            .enumerate()
            .all(|(k, d)| k % 2 == 0 || !c.sees(*d))
    })
}

/// The deduction of the closed loop `cells` on digits `a` and `b`, if it eliminates something.
fn deduce(grid: &Grid, cells: &[Cell], (a, b): (Digit, Digit)) -> Option<Step> {
    let ab = Candidates::single(a) | Candidates::single(b);
    let extra: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|&c| grid.candidates(c) != ab)
        .collect();
    let mut step;
    match extra.as_slice() {
        [one] => {
            step = Step::new(Technique::UniqueRectangle1);
            let target = CellSet::single(*one);
            eliminate_where_possible(&mut step, grid, target, a);
            eliminate_where_possible(&mut step, grid, target, b);
        }
        [e1, e2] => {
            let x1 = grid.candidates(*e1) & !ab;
            let pair = CellSet::single(*e1) | CellSet::single(*e2);
            if x1 == grid.candidates(*e2) & !ab
                && let Some(x) = x1.single_digit()
            {
                step = Step::new(Technique::UniqueRectangle2);
                eliminate_where_possible(&mut step, grid, pair.common_peers(), x);
            } else {
                step = Step::new(Technique::UniqueRectangle4);
                let house = pair.common_house()?;
                for (keep, lose) in [(a, b), (b, a)] {
                    if grid.house_digit_cells(house, keep) == pair {
                        eliminate_where_possible(&mut step, grid, pair, lose);
                        break;
                    }
                }
            }
        }
        _ => return None,
    }
    if step.eliminations.is_empty() {
        return None;
    }
    step.digits = ab;
    for &c in cells {
        for d in ab.iter() {
            step.mark(c, d, Role::SetA);
        }
    }
    Some(step)
}

#[cfg(test)]
mod tests {
    use super::super::super::types::House;
    use super::*;

    #[test]
    fn loops_found_along_solves_are_sound_and_closed() {
        // Sudoku Exchange bank puzzles (public domain) rated 4.6 by Sukaku Explainer, where it
        // takes a unique loop and our path an XY-Chain.
        let mut found = 0;
        for puzzle in [
            "007908013109000670000010900006700000780000045000001700003080000065000801820509400",
            "900704000060002048400000000005009000340185026000300900000000002650400010000603004",
            "004005000932000000005040829040060200508000607007080090851070400000000975000600100",
        ] {
            let grid = crate::sudoku::parse::parse_puzzle(puzzle).expect("parses");
            let e = crate::sudoku::solve_explained(&grid).expect("solves");
            let mut g = e.puzzle.clone();
            for path_step in &e.steps {
                if let Some(step) = find(&g) {
                    found += 1;
                    let cells = step.marked_cells(Role::SetA);
                    assert!((6..=MAX_CELLS).contains(&cells.len()), "{}", step.text());
                    for h in (0..27).map(House::from_index) {
                        let n = (h.cell_set() & cells).len();
                        assert!(n == 0 || n == 2, "{h}: {n} loop cells");
                    }
                    for el in &step.eliminations {
                        let solved = e.solution[el.cell.index()];
                        assert_ne!(solved, el.digit.get(), "{puzzle}: removes {el:?}");
                    }
                }
                path_step.apply(&mut g);
            }
        }
        assert!(found > 0, "some position holds a unique loop");
    }
}
