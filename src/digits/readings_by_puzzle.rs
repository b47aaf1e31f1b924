//! Doubtful readings settled by the puzzle. A published puzzle's givens have exactly one
//! solution, so when the digits read as print clash, have no solution or have several, some
//! given was misread: a faint digit read empty, a blurred 6 read 5, a stain read as a digit.
//! And a page whose reading still clashes or has no solution after that may have a doubtful
//! digit misread anywhere (print taken for handwriting, a stain). When one small change among
//! the **doubtful** cells (flagged uncertain) makes the digits a proper puzzle, and no other
//! change of the same size comes near it in likelihood, the reading is taken to be that. A
//! changed cell keeps the model's probabilities and its confidence, so it stays flagged for
//! the user to look at; a sure reading is never changed, and an ambiguous case changes nothing
//! (the read grid and the repair suggestion stay). A clearly written mistake is sure, so it
//! stays as written.
//!
//! Owns the rule and its two scopes ([`Scope`]). It neither tells print from handwriting
//! (`digits::style`, the model's `kind`) nor reads cells; `digits::solution_prior` weighs the
//! entries by the settled givens' solution between the two scopes
//! (`Scan::settle_readings_by_puzzle`).
//! Pure arithmetic over [`CellReading`]s and the exact solver. The live path applies the same
//! principle to its votes (`live::clues`).

use super::repair::{Change, for_each_change_set, is_valid_unique};
use super::{CellClass, CellReading, Writing};
use crate::sudoku::conflicts_of;
use crate::sudoku::solver::solve_values;

/// The most cells changed.
const MAX_CHANGES: usize = 2;

/// The least probability the model must give a value for a doubtful cell to be changed to it:
/// one chance in ten.
const MIN_NEW_VALUE_PROBABILITY: f32 = 0.1;

/// The cheapest change is taken only when every other change of as many cells that also makes
/// the digits proper is at least this many times less likely.
const MIN_LIKELIHOOD_RATIO_TO_NEXT: f32 = 4.0;

/// The most single-cell options searched (cheapest first); pairs of them bound the solver
/// calls to a few hundred.
const MAX_OPTIONS: usize = 16;

/// What [`decide_by_puzzle`] must make a proper puzzle, and which doubtful cells it may
/// change for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The digits called print (a published puzzle's givens). Doubtful cells that are not
    /// handwritten entries nor pencil marks may change, to any value: a faint given read
    /// empty comes back, a stain read as a digit goes. Needs print told from handwriting.
    Givens,
    /// The whole read grid. Doubtful digit cells of any writing may change to another digit,
    /// and those not called handwriting to empty too (a solver's writing, a mistake perhaps,
    /// is never taken away); an empty cell is never filled (a solver's blank is not a
    /// misread).
    Grid,
}

/// Decides doubtful `readings` (81, row-major) by the puzzle (see the module doc): when the
/// `scope`'s digits are not a proper puzzle and a change of at most `MAX_CHANGES` (2) doubtful
/// cells the scope lets change, each to a value of probability ≥ `MIN_NEW_VALUE_PROBABILITY`
/// (0.1), makes them one, and no other change of as many cells comes within a factor
/// `MIN_LIKELIHOOD_RATIO_TO_NEXT` (4) of its likelihood, those cells are decided as the new
/// values ([`CellReading::decided_as`]; a digit placed in an empty cell is called print).
/// Several solutions allow only empty cells to take a digit; a clash or none, only digits to
/// change. Returns the changed cells, ascending; empty when nothing changed.
pub fn decide_by_puzzle(readings: &mut [CellReading], scope: Scope) -> Vec<usize> {
    if readings.len() != 81 {
        return Vec::new();
    }
    let values = match scope {
        // Print not told from handwriting: no givens to settle.
        Scope::Givens
            if readings
                .iter()
                .any(|r| r.class.digit().is_some() && r.writing().is_none()) =>
        {
            return Vec::new();
        }
        Scope::Givens => super::printed_values(readings),
        Scope::Grid => super::read_values(readings),
    };
    // What failed says what to look for: several solutions mean a digit is missing (a faint
    // given read empty), so only an empty cell may take a digit; a clash or no solution
    // means a digit is wrong, so only a digit may change (to another, or to empty). Changing
    // digits of a grid with several solutions would pin it to some solution, not the page's.
    let missing = if conflicts_of(&values).is_empty() {
        match solve_values(&values, 2).count {
            1 => return Vec::new(),
            n => n > 1,
        }
    } else {
        false
    };
    let mut options: Vec<Change> = Vec::new();
    for (i, r) in readings.iter().enumerate() {
        let may_change = r.is_uncertain()
            && match scope {
                Scope::Givens => {
                    r.class != CellClass::PencilMarks && r.writing() != Some(Writing::Handwritten)
                }
                Scope::Grid => r.class.digit().is_some(),
            };
        if !may_change {
            continue;
        }
        // A solver's writing is never taken away by the puzzle: a mistake must stay in view.
        let may_clear = scope == Scope::Givens || r.writing() != Some(Writing::Handwritten);
        for to in 0..=9u8 {
            let kind_fits = if missing {
                values[i] == 0
            } else {
                values[i] != 0 && (to != 0 || may_clear)
            };
            let change = Change::of(r, i, values[i], to);
            if to != values[i] && kind_fits && change.probability >= MIN_NEW_VALUE_PROBABILITY {
                options.push(change);
            }
        }
    }
    options.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    options.truncate(MAX_OPTIONS);
    // The fewest changes that work decide: an ambiguous one-cell change is not passed over
    // for a two-cell one.
    let Some(found) = (1..=MAX_CHANGES)
        .map(|n| repairs_of(&values, &options, n))
        .find(|found| !found.is_empty())
    else {
        return Vec::new();
    };
    let Some(chosen) = unambiguous(found) else {
        return Vec::new();
    };
    let mut changed = Vec::with_capacity(chosen.len());
    for c in chosen {
        let Some(class) = CellClass::from_index(c.to) else {
            continue;
        };
        let was_digit = readings[c.cell].class.digit().is_some();
        let decided = readings[c.cell].clone().decided_as(class);
        readings[c.cell] = if c.to == 0 || was_digit {
            decided
        } else {
            decided.with_handwritten(0.0)
        };
        changed.push(c.cell);
    }
    changed.sort_unstable();
    changed
}

/// Every set of `n` options in distinct cells that makes `values` a proper puzzle, with its
/// total cost.
fn repairs_of(values: &[u8; 81], options: &[Change], n: usize) -> Vec<(f32, Vec<Change>)> {
    let mut found = Vec::new();
    for_each_change_set(values, options, n, &mut |chosen, cost, changed| {
        if is_valid_unique(changed) {
            found.push((cost, chosen.to_vec()));
        }
    });
    found
}

/// The cheapest of `found` when it is [`MIN_LIKELIHOOD_RATIO_TO_NEXT`] times likelier than
/// the next; `None` when two come too close to choose (or there is none).
fn unambiguous(mut found: Vec<(f32, Vec<Change>)>) -> Option<Vec<Change>> {
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut sets = found.into_iter();
    let (best_cost, best) = sets.next()?;
    match sets.next() {
        Some((next_cost, _)) if next_cost - best_cost < MIN_LIKELIHOOD_RATIO_TO_NEXT.ln() => None,
        _ => Some(best),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::test_readings::{doubtful, sure, values};
    use crate::sudoku::SEVENTEEN_CLUES as PUZZLE;
    use crate::sudoku::solver::solve_values;

    /// A solved grid and four of its cells that form a unique rectangle (two rows of one band,
    /// two columns of different stacks, digits `a b / b a`): with all four empty the grid has
    /// two solutions, and any one of them filled pins it.
    fn rectangle() -> ([u8; 81], [usize; 4]) {
        let solution = solve_values(&values(PUZZLE), 1).first.expect("a solution");
        for r1 in 0..9 {
            for r2 in (r1 + 1)..(r1 / 3 * 3 + 3) {
                for c1 in 0..9 {
                    for c2 in (c1 / 3 * 3 + 3)..9 {
                        let [x, y, z, w] = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                        if solution[x] == solution[w] && solution[y] == solution[z] {
                            return (solution, [x, y, z, w]);
                        }
                    }
                }
            }
        }
        panic!("the solution holds no unique rectangle");
    }

    /// A page whose printed givens are the solution but three cells of the rectangle (one
    /// solution), those three read empty surely; the rectangle's printed cell (the clue every
    /// solution needs), a cell of the rectangle left blank (the rival), and the solution.
    fn printed_page() -> (Vec<CellReading>, usize, usize, [u8; 81]) {
        let (solution, [clue, rival, c, d]) = rectangle();
        let readings = (0..81)
            .map(|i| {
                if [rival, c, d].contains(&i) {
                    sure(0, 0.05)
                } else {
                    sure(solution[i], 0.05)
                }
            })
            .collect();
        (readings, clue, rival, solution)
    }

    #[test]
    fn a_faint_given_the_puzzle_needs_is_read_back_and_stays_flagged() {
        let (page, clue, _, solution) = printed_page();
        let digit = solution[clue];
        let mut readings = page.clone();
        readings[clue] = doubtful(0, 0.7, digit, 0.27, 0.05);
        let grid_before = readings.clone();
        assert_eq!(decide_by_puzzle(&mut readings, Scope::Givens), vec![clue]);
        let r = &readings[clue];
        assert_eq!(r.class.value(), digit);
        assert!(r.is_uncertain(), "a decided cell stays flagged");
        assert_eq!(r.writing(), Some(Writing::Printed));
        // Proper now: nothing more to do, in either scope.
        let before = readings.clone();
        assert!(decide_by_puzzle(&mut readings, Scope::Givens).is_empty());
        assert!(decide_by_puzzle(&mut readings, Scope::Grid).is_empty());
        assert_eq!(readings, before);
        // The grid scope never fills an empty cell.
        let mut readings = grid_before;
        assert!(decide_by_puzzle(&mut readings, Scope::Grid).is_empty());
        assert_eq!(readings[clue].class.value(), 0);
    }

    #[test]
    fn sure_unlikely_or_ambiguous_changes_are_not_made() {
        let (page, clue, rival, solution) = printed_page();
        let digit = solution[clue];
        // Read empty surely, or the digit under one chance in ten: the reading stands.
        for reading in [
            doubtful(0, 0.95, digit, 0.04, 0.05),
            doubtful(0, 0.85, digit, 0.08, 0.05),
        ] {
            let mut readings = page.clone();
            readings[clue] = reading;
            let before = readings.clone();
            assert!(decide_by_puzzle(&mut readings, Scope::Givens).is_empty());
            assert_eq!(readings, before);
        }
        // A second doubtful cell whose digit would pin the puzzle as well: near in
        // likelihood, nothing is decided; four times less likely, the clue wins.
        let mut readings = page.clone();
        readings[clue] = doubtful(0, 0.6, digit, 0.35, 0.05);
        readings[rival] = doubtful(0, 0.6, solution[rival], 0.3, 0.05);
        let before = readings.clone();
        assert!(decide_by_puzzle(&mut readings, Scope::Givens).is_empty());
        assert_eq!(readings, before);
        readings[rival] = doubtful(0, 0.85, solution[rival], 0.11, 0.05);
        assert_eq!(decide_by_puzzle(&mut readings, Scope::Givens), vec![clue]);
    }

    #[test]
    fn givens_scope_leaves_entries_pencil_marks_and_unknown_kinds_alone() {
        let (page, clue, _, solution) = printed_page();
        let digit = solution[clue];
        // The clue's cell read as pencil marks: not a given to restore.
        let mut readings = page.clone();
        readings[clue] = doubtful(10, 0.7, digit, 0.27, 0.05);
        assert!(decide_by_puzzle(&mut readings, Scope::Givens).is_empty());
        // The clue written by hand, doubtfully: an entry, not a given.
        let mut readings = page.clone();
        let other = digit % 9 + 1;
        readings[clue] = doubtful(other, 0.6, digit, 0.35, 0.9);
        assert!(decide_by_puzzle(&mut readings, Scope::Givens).is_empty());
        // Print not told from handwriting: no givens to settle.
        let mut readings = page.clone();
        readings[clue] = doubtful(0, 0.7, digit, 0.27, 0.05);
        for r in &mut readings {
            r.handwritten = None;
        }
        assert!(decide_by_puzzle(&mut readings, Scope::Givens).is_empty());
    }

    #[test]
    fn grid_scope_mends_a_doubtful_digit_of_any_writing_but_not_a_clear_mistake() {
        let (page, clue, _, solution) = printed_page();
        let digit = solution[clue];
        // The page finished by hand, and a blurred given taken for handwriting and misread:
        // the whole grid breaks the rules; its second choice mends it.
        let mut finished: Vec<CellReading> = page
            .iter()
            .enumerate()
            .map(|(i, r)| {
                if r.class.digit().is_some() {
                    r.clone()
                } else {
                    sure(solution[i], 0.95)
                }
            })
            .collect();
        let wrong = digit % 9 + 1;
        finished[clue] = doubtful(wrong, 0.7, digit, 0.2, 0.8);
        let mut readings = finished.clone();
        assert_eq!(decide_by_puzzle(&mut readings, Scope::Grid), vec![clue]);
        assert_eq!(readings[clue].class.value(), digit);
        assert!(readings[clue].is_uncertain());
        assert_eq!(readings[clue].writing(), Some(Writing::Handwritten));
        // Written clearly wrong: the reading stands (a mistake is shown as written).
        let mut readings = finished;
        readings[clue] = doubtful(wrong, 0.95, digit, 0.04, 0.8);
        let before = readings.clone();
        assert!(decide_by_puzzle(&mut readings, Scope::Grid).is_empty());
        assert_eq!(readings, before);
    }
}
