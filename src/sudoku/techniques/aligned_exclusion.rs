//! Aligned Pair and Triple Exclusion (Sudoku Explainer's rules): two or three cells of one
//! house (the base) and the cells with two (three) candidates that see all of them (the
//! excluders).
//! A combination of digits for the base cells is impossible when it repeats a digit in cells
//! that see each other, or when it takes every candidate of an excluder (the excluder would be
//! left empty). A base cell's digit that appears in no possible combination goes.
//!
//! The base cells' candidates are marked [`Role::Base`], the excluders' [`Role::Link`]; the
//! house is recorded as [`Role::Base`].

use super::super::grid::{Candidate, Grid};
use super::super::notation::{cell_words, compact_cells, house_words};
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, Cell, CellSet, House};
use super::{Flow, GO_ON, Instances};

/// Every aligned exclusion of `size` (2 or 3) base cells that removes a candidate, reported to
/// `out`.
pub(crate) fn search(grid: &Grid, size: usize, out: &mut Instances) -> Flow {
    let technique = match size {
        2 => Technique::AlignedPairExclusion,
        3 => Technique::AlignedTripleExclusion,
        _ => return GO_ON,
    };
    let max_excluder = size;
    let excluders_all: CellSet = grid
        .empty_cells()
        .iter()
        .filter(|&c| (2..=max_excluder).contains(&grid.candidates(c).len()))
        .collect();
    for house in House::all() {
        let open: Vec<Cell> = house
            .cells()
            .into_iter()
            .filter(|&c| (2..=5).contains(&grid.candidates(c).len()))
            .collect();
        for base in subsets(&open, size) {
            let set: CellSet = base.iter().copied().collect();
            // Cells in a box∩line are tried once, for their first house.
            if set.common_house() != Some(house) {
                continue;
            }
            // Excluders see every base cell (as in Sudoku Explainer) and hold only digits of
            // the base cells (else no combination can empty them).
            let digits = base
                .iter()
                .fold(Candidates::NONE, |acc, &c| acc | grid.candidates(c));
            let excluders: Vec<Cell> = (excluders_all & set.common_peers())
                .iter()
                .filter(|&e| (grid.candidates(e) & !digits).is_empty())
                .collect();
            if excluders.is_empty() {
                continue;
            }
            if let Some(step) = try_base(grid, technique, house, &base, &excluders) {
                out.add(step)?;
            }
        }
    }
    GO_ON
}

/// The first instance, for the tests.
#[cfg(test)]
fn find(grid: &Grid, size: usize) -> Option<Step> {
    super::first(|out| search(grid, size, out))
}

/// The `k`-element subsets of `cells`, in order.
fn subsets(cells: &[Cell], k: usize) -> Vec<Vec<Cell>> {
    let mut out = Vec::new();
    let n = cells.len();
    if k > n {
        return out;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        out.push(idx.iter().map(|&i| cells[i]).collect());
        let mut i = k;
        while i > 0 && idx[i - 1] == n - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        idx[i - 1] += 1;
        for j in i..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

fn try_base(
    grid: &Grid,
    technique: Technique,
    house: House,
    base: &[Cell],
    excluders: &[Cell],
) -> Option<Step> {
    let cands: Vec<Vec<_>> = base
        .iter()
        .map(|&c| grid.candidates(c).iter().collect())
        .collect();
    // Digits of each base cell that appear in at least one possible combination.
    let mut possible = vec![Candidates::NONE; base.len()];
    let mut used = vec![false; excluders.len()];
    let mut combo = vec![0usize; base.len()];
    // At most three base cells: the combination in a fixed array, as this runs for every one.
    let &first = cands.first().and_then(|c| c.first())?;
    if base.len() > 3 {
        return None; // pairs and triples only
    }
    let mut buf = [first; 3];
    loop {
        for (i, &k) in combo.iter().enumerate() {
            buf[i] = cands[i][k];
        }
        let digits = &buf[..base.len()];
        let repeats = (0..base.len())
            .any(|i| (i + 1..base.len()).any(|j| digits[i] == digits[j] && base[i].sees(base[j])));
        let killer = if repeats {
            None
        } else {
            excluders.iter().position(|&e| {
                let taken: Candidates = base
                    .iter()
                    .zip(digits)
                    .filter(|(b, _)| b.sees(e))
                    .map(|(_, &d)| d)
                    .collect();
                (grid.candidates(e) & !taken).is_empty()
            })
        };
        match (repeats, killer) {
            (false, None) => {
                for (p, &d) in possible.iter_mut().zip(digits) {
                    p.insert(d);
                }
            }
            (false, Some(k)) => used[k] = true,
            _ => {}
        }
        let mut i = 0;
        while i < combo.len() {
            combo[i] += 1;
            if combo[i] < cands[i].len() {
                break;
            }
            combo[i] = 0;
            i += 1;
        }
        if i == combo.len() {
            break;
        }
    }
    let mut step = Step::new(technique);
    for (i, &c) in base.iter().enumerate() {
        for d in (grid.candidates(c) & !possible[i]).iter() {
            step.eliminations.push(Candidate::new(c, d));
        }
    }
    if step.eliminations.is_empty() {
        return None;
    }
    step.houses.push((house, Role::Base));
    for &c in base {
        for d in grid.candidates(c).iter() {
            step.mark(c, d, Role::Base);
            step.digits.insert(d);
        }
    }
    for (k, &e) in excluders.iter().enumerate() {
        if used[k] {
            for d in grid.candidates(e).iter() {
                step.mark(e, d, Role::Link);
            }
        }
    }
    Some(step)
}

/// `Aligned Pair Exclusion: r1c2,r1c5 (excluders r2c3,r3c4) => r1c2<>7`
pub(crate) fn text(step: &Step) -> String {
    format!(
        "{}: {} (excluders {}) => {}",
        step.technique.name(),
        compact_cells(step.marked_cells(Role::Base).iter()),
        compact_cells(step.marked_cells(Role::Link).iter()),
        step.effect_text()
    )
}

/// "Trying every combination of digits for r1c2 and r1c5 (row 1), each one with 7 in r1c2
/// repeats a digit or empties one of r2c3 and r3c4, so r1c2 cannot be 7."
pub(crate) fn sentence(step: &Step) -> String {
    let Some((house, _)) = step.houses.first() else {
        return super::generic_sentence(step);
    };
    format!(
        "Trying every combination of digits for {} ({}), each one that uses a removed digit \
         repeats a digit or leaves one of {} with no candidate, so {}.",
        cell_words(step.marked_cells(Role::Base).iter()),
        house_words(*house),
        cell_words(step.marked_cells(Role::Link).iter()),
        super::effect_words(step)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;

    /// Base r1c1 {1,2,3} and r1c2 {1,2}; excluders r1c5 {1,3} (row 1) and r2c3 {2,3} (box 1)
    /// each see both. r1c1=3 with r1c2=1 empties r1c5; with r1c2=2 it empties r2c3: 3 goes.
    fn position(third: &str) -> Grid {
        let mut g = grid(&".".repeat(81));
        g.set_candidates(Cell::at(0, 0), cands("123"));
        g.set_candidates(Cell::at(0, 1), cands("12"));
        g.set_candidates(Cell::at(0, 4), cands("13"));
        g.set_candidates(Cell::at(1, 2), cands(third));
        g
    }

    #[test]
    fn pair_exclusion_by_two_excluders() {
        let g = position("23");
        let s = find(&g, 2).unwrap();
        assert_eq!(
            s.text(),
            "Aligned Pair Exclusion: r1c12 (excluders r1c5,r2c3) => r1c1<>3"
        );
        assert!(s.explanation().contains("r1c1 cannot be 3"));
    }

    #[test]
    fn no_exclusion_without_a_killing_excluder() {
        // r2c3 {2,4}: r1c1=3, r1c2=2 leaves it 4, so 3 stays possible.
        assert!(find(&position("24"), 2).is_none());
    }
}
