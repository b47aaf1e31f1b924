//! Handwritten entries read with the puzzle's solution as a prior. A page's printed givens
//! pin one solution, and a solver mostly writes that solution's digits: so a handwritten digit
//! the model doubts between, say, 1 and 7 is most likely the one the solution puts there.
//! Each entry's digit probabilities are weighed by [`RIGHT_ENTRY_PRIOR`] for the solution's
//! digit against an even share of the rest for each other digit (Bayes' rule over a
//! calibrated model), and the reading becomes the solution's digit only when that digit then
//! comes out on top of every class. A mistake written clearly keeps its reading (the model
//! gives the solution's digit almost nothing there), and a cell never becomes empty or another
//! wrong digit by it. A decided cell keeps the model's own probability of its digit as its
//! confidence, so it stays flagged uncertain: a mistake the model doubted is shown for the
//! user to look at (the check calls it unsure), never passed as right.
//!
//! When print is not told from handwriting well enough for the printed givens to be a proper
//! puzzle (a webcam frame of a page far along, where the ink looks alike), the solution comes
//! from the page's **sure** digits instead (not flagged, any writing): right digits all agree
//! with the one solution, and a sure mistake leaves them none, so then nothing is weighed.
//! Every doubtful digit is weighed by it the same way.
//!
//! Owns the prior and when it applies (printed givens, else sure digits, that are a proper
//! puzzle). It does not tell print from handwriting (`digits::style`, the model's `kind`) nor
//! read cells; pure arithmetic over [`CellReading`]s and the exact solver.

use super::{CellClass, CellReading, NUM_CLASSES, Writing};
use crate::sudoku::solver::solve_values;
use crate::sudoku::{MIN_CLUES, conflicts_of};

/// The prior probability that a handwritten entry is the solution's digit. Chosen a priori,
/// not fitted: most entries on a page are right, and at 0.9 a digit the model gives at least
/// 1/72 of the top digit's probability wins when the solution puts it there.
pub const RIGHT_ENTRY_PRIOR: f32 = 0.9;

/// The solution the printed givens of `readings` pin (81, row-major): the digits whose
/// reading is [`Writing::Printed`], when they are at least [`MIN_CLUES`] (17), clash nowhere
/// and have exactly one solution. `None` otherwise, and when no digit is called handwritten
/// (no entries, or print not told from handwriting).
pub fn solution_of_printed(readings: &[CellReading]) -> Option<[u8; 81]> {
    if readings.len() != 81
        || !readings
            .iter()
            .any(|r| r.writing() == Some(Writing::Handwritten))
    {
        return None;
    }
    solution_of_proper(&super::printed_values(readings))
}

/// The one solution of `values` when they are a proper puzzle of at least [`MIN_CLUES`] (17)
/// digits that clash nowhere; `None` otherwise.
fn solution_of_proper(values: &[u8; 81]) -> Option<[u8; 81]> {
    if values.iter().filter(|&&v| v != 0).count() < MIN_CLUES || !conflicts_of(values).is_empty() {
        return None;
    }
    // One search answers both "exactly one solution" and "which".
    let solutions = solve_values(values, 2);
    solutions.first.filter(|_| solutions.is_unique())
}

/// The solution the sure digits of `readings` pin (81, row-major): every digit reading not
/// flagged uncertain, printed or handwritten, when they are at least [`MIN_CLUES`] (17),
/// clash nowhere and have exactly one solution; `None` otherwise. The fallback of
/// [`weigh_entries_by_solution`] when print cannot be told from handwriting well enough for
/// [`solution_of_printed`] (a webcam frame of a page far along, where the style split calls
/// many entries print): a page's right digits all agree with its one solution, and a sure
/// mistake leaves the sure digits none, so nothing is weighed then.
pub fn solution_of_sure(readings: &[CellReading]) -> Option<[u8; 81]> {
    if readings.len() != 81 {
        return None;
    }
    let sure: [u8; 81] = std::array::from_fn(|i| {
        let r = &readings[i];
        if r.is_uncertain() { 0 } else { r.class.value() }
    });
    solution_of_proper(&sure)
}

/// Weighs every handwritten digit reading of `readings` (81, row-major) by the solution of
/// its printed givens ([`solution_of_printed`]): the digits' probabilities times
/// [`RIGHT_ENTRY_PRIOR`] for the solution's digit and `(1 − prior) / 8` for the others,
/// scaled back to the digits' own total (empty and pencil marks keep theirs). A reading of
/// another class whose solution digit is then the most probable class is decided as that
/// digit ([`CellReading::decided_as`]: the model's probabilities and its probability of the
/// digit as confidence; its `handwritten` call kept). Without that solution, every doubtful
/// digit reading, printed or handwritten, is weighed so by the solution of the sure digits
/// ([`solution_of_sure`]). Returns the decided cells, ascending. Does nothing without either
/// solution.
pub fn weigh_entries_by_solution(readings: &mut [CellReading]) -> Vec<usize> {
    let (solution, weighed): (_, fn(&CellReading) -> bool) =
        if let Some(solution) = solution_of_printed(readings) {
            (solution, |r| r.writing() == Some(Writing::Handwritten))
        } else if let Some(solution) = solution_of_sure(readings) {
            (solution, |r| r.class.digit().is_some() && r.is_uncertain())
        } else {
            return Vec::new();
        };
    let mut changed = Vec::new();
    for (i, reading) in readings.iter_mut().enumerate() {
        if !weighed(reading) {
            continue;
        }
        if let Some(decided) = decided(reading, solution[i]) {
            *reading = decided;
            changed.push(i);
        }
    }
    changed
}

/// `reading` decided as `right` (1–9) when the prior that a solver writes the solution's
/// digit makes `right` the most probable class while the model read another class: the
/// model's probabilities stay, and the confidence becomes its probability of `right`, so the
/// decided cell stays flagged uncertain.
fn decided(reading: &CellReading, right: u8) -> Option<CellReading> {
    let right_class = CellClass::from_index(right).filter(|c| c.digit().is_some())?;
    if reading.class == right_class {
        return None;
    }
    let wrong_prior = (1.0 - RIGHT_ENTRY_PRIOR) / 8.0;
    let prior = |digit: usize| {
        if digit == usize::from(right) {
            RIGHT_ENTRY_PRIOR
        } else {
            wrong_prior
        }
    };
    let p = &reading.probabilities;
    let digit_mass: f32 = p[1..=9].iter().sum();
    let weighed_mass: f32 = (1..=9).map(|d| p[d] * prior(d)).sum();
    if weighed_mass <= 0.0 || !weighed_mass.is_finite() {
        return None;
    }
    // The posterior of each class: the digits weighed, then scaled back to their own total.
    let scale = digit_mass / weighed_mass;
    let posterior = |class: usize| match class {
        1..=9 => p[class] * prior(class) * scale,
        _ => p[class],
    };
    let right_posterior = posterior(usize::from(right));
    let on_top = (0..NUM_CLASSES)
        .filter(|&c| c != usize::from(right))
        .all(|c| posterior(c) < right_posterior);
    on_top.then(|| reading.clone().decided_as(right_class))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::digits::test_readings::{self, sure, values};
    use crate::sudoku::SEVENTEEN_CLUES as PUZZLE;

    /// A page of the puzzle ([`page`]) with its first handwritten cell, that cell's solution
    /// digit and another digit.
    struct Entry {
        readings: Vec<CellReading>,
        cell: usize,
        right: u8,
        wrong: u8,
    }

    fn entry_page() -> Entry {
        let (readings, solution) = page();
        let cell = (0..81)
            .find(|&i| values(PUZZLE)[i] == 0)
            .expect("an empty cell");
        Entry {
            readings,
            cell,
            right: solution[cell],
            wrong: solution[cell] % 9 + 1,
        }
    }

    /// The puzzle's givens printed, and every other cell handwritten with its solution digit.
    fn page() -> (Vec<CellReading>, [u8; 81]) {
        let givens = values(PUZZLE);
        let solution = solve_values(&givens, 1)
            .first
            .expect("the puzzle has a solution");
        let readings = (0..81)
            .map(|i| {
                if givens[i] != 0 {
                    sure(givens[i], 0.05)
                } else {
                    sure(solution[i], 0.95)
                }
            })
            .collect();
        (readings, solution)
    }

    /// A doubtful handwritten reading (see `test_readings::doubtful`).
    fn doubtful(top: u8, top_p: f32, other: u8, other_p: f32) -> CellReading {
        test_readings::doubtful(top, top_p, other, other_p, 0.9)
    }

    #[test]
    fn a_doubtful_entry_is_read_as_the_solution_s_digit() {
        let mut e = entry_page();
        e.readings[e.cell] = doubtful(e.wrong, 0.7, e.right, 0.25);
        assert_eq!(weigh_entries_by_solution(&mut e.readings), vec![e.cell]);
        assert_eq!(e.readings[e.cell].class.value(), e.right);
        assert_eq!(
            e.readings[e.cell].confidence, 0.25,
            "the model's own probability of it"
        );
        assert!(
            e.readings[e.cell].is_uncertain(),
            "a decided cell stays flagged"
        );
        assert_eq!(e.readings[e.cell].writing(), Some(Writing::Handwritten));
        // Read as the solution's digit already: left alone.
        let before = e.readings.clone();
        assert!(weigh_entries_by_solution(&mut e.readings).is_empty());
        assert_eq!(e.readings, before);
    }

    #[test]
    fn a_mistake_written_clearly_keeps_its_reading() {
        let mut e = entry_page();
        e.readings[e.cell] = doubtful(e.wrong, 0.995, e.right, 0.0001);
        let before = e.readings[e.cell].clone();
        assert!(weigh_entries_by_solution(&mut e.readings).is_empty());
        assert_eq!(e.readings[e.cell], before);
    }

    #[test]
    fn a_doubtful_cell_never_becomes_empty_or_another_wrong_digit() {
        let mut e = entry_page();
        // Empty close behind, the solution's digit far behind: weighing would hand the top to
        // "empty", so the reading stays as it was.
        let mut p = [0.001; NUM_CLASSES];
        p[usize::from(e.wrong)] = 0.5;
        p[0] = 0.45;
        p[usize::from(e.right)] = 0.002;
        let total: f32 = p.iter().sum();
        let p = p.map(|q| q / total);
        e.readings[e.cell] = CellReading::from_probabilities(p).with_handwritten(0.9);
        let before = e.readings[e.cell].clone();
        assert!(weigh_entries_by_solution(&mut e.readings).is_empty());
        assert_eq!(e.readings[e.cell], before);
    }

    #[test]
    fn printed_digits_are_not_weighed_and_pages_fall_back_to_their_sure_digits() {
        let givens = values(PUZZLE);
        let (mut readings, _) = page();
        // A doubtful printed digit is a given: the prior is built from it, never applied to it.
        let given = (0..81).find(|&i| givens[i] != 0).expect("a given");
        let other = givens[given] % 9 + 1;
        let mut printed = doubtful(givens[given], 0.6, other, 0.35);
        printed.handwritten = Some(0.1);
        readings[given] = printed.clone();
        let Entry {
            cell, right, wrong, ..
        } = entry_page();
        readings[cell] = doubtful(wrong, 0.7, right, 0.25);
        assert_eq!(weigh_entries_by_solution(&mut readings), vec![cell]);
        assert_eq!(readings[given], printed);

        // One printed given fewer: 16 givens are no proper puzzle. The sure digits (the
        // givens and the sure entries) pin the solution instead, and decide the doubtful entry.
        let (mut readings, solution) = page();
        readings[given] = sure(givens[given], 0.95);
        readings[cell] = doubtful(wrong, 0.7, right, 0.25);
        assert!(solution_of_printed(&readings).is_none());
        assert_eq!(solution_of_sure(&readings), Some(solution));
        assert_eq!(weigh_entries_by_solution(&mut readings), vec![cell]);
        assert!(readings[cell].is_uncertain());
        // That entry and every other doubtful: 16 sure digits pin nothing, nothing is weighed.
        let (mut readings, _) = page();
        for (i, r) in readings.iter_mut().enumerate() {
            if givens[i] == 0 || i == given {
                *r = doubtful(solution[i], 0.8, solution[i] % 9 + 1, 0.15);
            }
        }
        readings[cell] = doubtful(wrong, 0.7, right, 0.25);
        let before = readings.clone();
        assert!(solution_of_sure(&readings).is_none());
        assert!(weigh_entries_by_solution(&mut readings).is_empty());
        assert_eq!(readings, before);
        // A sure mistake among the sure digits: they pin no solution, nothing is weighed.
        let (mut readings, _) = page();
        readings[given] = sure(givens[given], 0.95);
        readings[cell] = doubtful(wrong, 0.7, right, 0.25);
        let other_cell = (0..81)
            .find(|&i| givens[i] == 0 && i != cell)
            .expect("another entry");
        readings[other_cell] = sure(solution[other_cell] % 9 + 1, 0.95);
        let before = readings.clone();
        assert!(solution_of_sure(&readings).is_none());
        assert!(weigh_entries_by_solution(&mut readings).is_empty());
        assert_eq!(readings, before);

        // Print not told from handwriting and every digit sure: nothing to weigh.
        let (readings, _) = page();
        let mut unknown: Vec<CellReading> = readings
            .into_iter()
            .map(|mut r| {
                r.handwritten = None;
                r
            })
            .collect();
        assert!(solution_of_printed(&unknown).is_none());
        assert!(weigh_entries_by_solution(&mut unknown).is_empty());
    }
}
