//! How well a reading tells the puzzle's printed givens from the solver's handwriting, scored
//! against a printed-givens mask (`dataset::parse_givens`), and whether checking the entries
//! read (`sudoku::check_entries`) gives the verdict the labels and mask give. Pure arithmetic
//! over readings, labels and the mask; whoever reads photos (`eval`) supplies them.

use serde::Serialize;

use super::{CellReading, Writing};
use crate::sudoku::{Check, check_entries_read};

/// The verdict of checking a photo's entries: the wrong cells (row-major indices) of a puzzle
/// with exactly one solution; `None` for no verdict (the givens are not a proper puzzle, or
/// the entries could not be told apart).
pub type Verdict = Option<Vec<usize>>;

/// The verdict of `check_entries_read` on `givens` and `entries` read with `unsure` cells
/// (entries read unsure are never named wrong).
pub fn verdict_of(givens: &[u8; 81], entries: &[u8; 81], unsure: &[bool; 81]) -> Verdict {
    match check_entries_read(givens, entries, unsure) {
        check @ Check::Checked { unique: true, .. } => {
            Some(check.wrong_cells().iter().map(|c| c.index()).collect())
        }
        _ => None,
    }
}

/// `values` split by the printed-givens `mask`: (digits where printed, digits elsewhere).
pub fn split_by_mask(values: &[u8; 81], mask: &[bool; 81]) -> ([u8; 81], [u8; 81]) {
    let mut givens = [0u8; 81];
    let mut entries = [0u8; 81];
    for i in 0..81 {
        let v = if (1..=9).contains(&values[i]) {
            values[i]
        } else {
            0
        };
        if mask[i] {
            givens[i] = v;
        } else {
            entries[i] = v;
        }
    }
    (givens, entries)
}

/// The verdict the labels (0–10) and the printed-givens mask give: the truth a check of the
/// photo is scored against.
pub fn true_verdict(labels: &[u8; 81], mask: &[bool; 81]) -> Verdict {
    let (givens, entries) = split_by_mask(labels, mask);
    verdict_of(&givens, &entries, &[false; 81])
}

/// The printed/handwritten score of one photo.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GivensScore {
    /// Cells whose truth is a digit 1–9.
    pub digit_cells: usize,
    /// … whose printed/handwritten call matches the mask.
    pub kind_correct: usize,
    /// Digit cells (truth 1–9) that the reading also takes for a digit (any digit): the cells
    /// a printed/handwritten call is made on.
    pub read_digit_cells: usize,
    /// … whose call matches the mask.
    pub read_kind_correct: usize,
    /// Whether the printed givens were read exactly: every cell is called a printed digit
    /// exactly where the mask has one, with the right digit.
    pub givens_exact: bool,
    /// The digit cells called wrongly (row-major indices).
    pub kind_wrong: Vec<usize>,
}

/// Scores `readings` (81, row-major, as the puzzle reads) against `labels` (0–10) and the
/// printed-givens `mask`. A reading without a handwriting probability counts as a wrong
/// call; a cell the model does not read as a digit is called neither.
pub fn score_givens(readings: &[CellReading], labels: &[u8; 81], mask: &[bool; 81]) -> GivensScore {
    let mut score = GivensScore {
        givens_exact: readings.len() == 81,
        ..GivensScore::default()
    };
    for (i, r) in readings.iter().enumerate().take(81) {
        let truth_digit = (1..=9).contains(&labels[i]);
        let called = r.writing();
        if truth_digit {
            score.digit_cells += 1;
            let want = if mask[i] {
                Writing::Printed
            } else {
                Writing::Handwritten
            };
            if called == Some(want) {
                score.kind_correct += 1;
            } else {
                score.kind_wrong.push(i);
            }
            if r.class.digit().is_some() {
                score.read_digit_cells += 1;
                score.read_kind_correct += usize::from(called == Some(want));
            }
        }
        let read_given = called == Some(Writing::Printed);
        if read_given != mask[i] || (mask[i] && r.class.value() != labels[i]) {
            score.givens_exact = false;
        }
    }
    score
}

/// The score of a photo whose grid was not found: every digit cell wrong (none read),
/// givens not exact.
pub fn missed_givens(labels: &[u8; 81]) -> GivensScore {
    let kind_wrong: Vec<usize> = (0..81).filter(|&i| (1..=9).contains(&labels[i])).collect();
    GivensScore {
        digit_cells: kind_wrong.len(),
        givens_exact: false,
        kind_wrong,
        ..GivensScore::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::NUM_CLASSES;

    fn read(value: u8, handwritten: Option<f32>) -> CellReading {
        let mut p = [0.0f32; NUM_CLASSES];
        p[value as usize] = 1.0;
        let r = CellReading::from_probabilities(p);
        match handwritten {
            Some(h) => r.with_handwritten(h),
            None => r,
        }
    }

    #[test]
    fn verdicts_name_the_wrong_entries() {
        let labels = crate::sudoku::parse_values(
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
        )
        .unwrap();
        let mask = labels.map(|v| v != 0);
        let solution = crate::sudoku::solver::solve_values(&labels, 1)
            .first
            .unwrap();
        let mut half = labels;
        half[0] = solution[0];
        half[1] = solution[1] % 9 + 1; // a wrong entry
        half[4] = 10; // pencil marks
        assert_eq!(true_verdict(&half, &mask), Some(vec![1]));
        assert_eq!(true_verdict(&labels, &mask), Some(vec![]));
        // Every digit taken for print: the givens have no solution, no verdict.
        assert_eq!(true_verdict(&half, &[true; 81]), None);
        let (g, e) = split_by_mask(&half, &mask);
        assert_eq!((g[0], e[0], e[1], e[4]), (0, solution[0], half[1], 0));
    }

    #[test]
    fn calls_are_scored_on_digit_cells_and_givens_need_every_cell() {
        let mut labels = [0u8; 81];
        let mut mask = [false; 81];
        labels[0] = 5; // printed
        mask[0] = true;
        labels[1] = 7; // handwritten
        labels[2] = 10; // pencil marks
        let mut readings: Vec<CellReading> = (0..81).map(|_| read(0, Some(0.0))).collect();
        readings[0] = read(5, Some(0.1));
        readings[1] = read(7, Some(0.9));
        let s = score_givens(&readings, &labels, &mask);
        assert_eq!((s.digit_cells, s.kind_correct), (2, 2));
        assert_eq!((s.read_digit_cells, s.read_kind_correct), (2, 2));
        assert!(s.givens_exact);
        // A printed digit read as empty: a wrong call, but not on a cell read as a digit.
        let mut unread = readings.clone();
        unread[0] = read(0, Some(0.1));
        let s = score_givens(&unread, &labels, &mask);
        assert_eq!(
            (s.kind_correct, s.read_digit_cells, s.read_kind_correct),
            (1, 1, 1)
        );
        // The entry taken for print: a wrong call and a wrong set of givens.
        readings[1] = read(7, Some(0.2));
        let s = score_givens(&readings, &labels, &mask);
        assert_eq!((s.kind_correct, s.kind_wrong.clone()), (1, vec![1]));
        assert!(!s.givens_exact);
        // A given read as the wrong digit: the call is right, the givens are not.
        readings[1] = read(7, Some(0.9));
        readings[0] = read(6, Some(0.1));
        let s = score_givens(&readings, &labels, &mask);
        assert_eq!(s.kind_correct, 2);
        assert!(!s.givens_exact);
        // No handwriting output: no call is right.
        let plain: Vec<CellReading> = (0..81).map(|i| read(labels[i] % 10, None)).collect();
        let s = score_givens(&plain, &labels, &mask);
        assert_eq!(s.kind_correct, 0);
        assert!(!s.givens_exact);
        let m = missed_givens(&labels);
        assert_eq!((m.digit_cells, m.kind_wrong), (2, vec![0, 1]));
    }
}
