//! The printed/handwritten split of a photo settled by the symmetry of its printed givens.
//!
//! Most published puzzles place their givens symmetrically under a half turn: cell `i` holds
//! a given exactly when cell `80 − i` does. Handwriting follows no such rule, so on a puzzle
//! whose givens are symmetric, a digit whose partner cell is empty cannot be a given, and two
//! partner digits are both givens or both entries. [`settle_by_symmetry`] tests that
//! hypothesis per photo on the calls of `digits::style` and adopts the symmetric split only
//! when it is cheap (few, unsure calls change) and makes the givens a proper puzzle; a
//! puzzle laid out otherwise (an asymmetric one, a page of handwriting only) keeps its calls.
//! Pure arithmetic over readings and logits; it does not look at ink.

use super::repair::is_valid_unique;
use crate::sudoku::MIN_CLUES;

/// The most calls the symmetric split may change, as a share of the digit cells.
const MAX_CHANGED_SHARE: f32 = 0.25;

/// The most |logit| of handwriting a changed call may have had (surer calls are kept, and
/// the photo then keeps all its calls).
const MAX_CHANGED_LOGIT: f32 = 6.0;

/// The split of `values` (digits 1–9, 0 empty) by the `logits` of handwriting (`None`: not
/// a digit; positive: handwritten) made symmetric under a half turn: each pair of partner
/// digit cells takes the call of their summed logits, a digit whose partner holds none is
/// handwritten, the centre keeps its call. It is adopted when it changes no call surer than
/// `MAX_CHANGED_LOGIT`, at most `MAX_CHANGED_SHARE` of the calls, leaves at least
/// `MIN_CLUES` (17) givens, and those givens are a proper puzzle; a changed call's logit is then
/// negated. Otherwise (an asymmetric puzzle) the logits come back unchanged.
pub fn settle_by_symmetry(values: &[u8; 81], logits: &[Option<f32>]) -> Vec<Option<f32>> {
    let logit = |i: usize| logits.get(i).copied().flatten();
    let mut handwritten: [Option<bool>; 81] = [None; 81];
    for i in 0..=40 {
        let j = 80 - i;
        let call = match (logit(i), logit(j)) {
            _ if i == j => logit(i).map(|l| l > 0.0),
            (Some(a), Some(b)) => Some(a + b > 0.0),
            (None, None) => None,
            _ => Some(true),
        };
        handwritten[i] = logit(i).and(call);
        handwritten[j] = logit(j).and(call);
    }
    let mut changed = 0usize;
    let mut digits = 0usize;
    for (i, h) in handwritten.iter().enumerate() {
        let (Some(h), Some(l)) = (h, logit(i)) else {
            continue;
        };
        digits += 1;
        if *h != (l > 0.0) {
            if l.abs() > MAX_CHANGED_LOGIT {
                return logits.to_vec();
            }
            changed += 1;
        }
    }
    if changed == 0 || changed as f32 > MAX_CHANGED_SHARE * digits as f32 {
        return logits.to_vec();
    }
    let givens: [u8; 81] = std::array::from_fn(|i| {
        if handwritten[i] == Some(false) {
            values[i]
        } else {
            0
        }
    });
    if givens.iter().filter(|&&v| v != 0).count() < MIN_CLUES || !is_valid_unique(&givens) {
        return logits.to_vec();
    }
    (0..logits.len())
        .map(|i| {
            let l = logit(i)?;
            Some(match handwritten.get(i).copied().flatten() {
                Some(h) if h != (l > 0.0) => -l,
                _ => l,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::parse_values;
    use crate::sudoku::solver::solve_values;

    /// Givens placed symmetrically under a half turn (Project Euler's first grid).
    const SYMMETRIC: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
    /// Givens placed with no symmetry (top1465, first puzzle).
    const ASYMMETRIC: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    /// The puzzle's givens plus the solution's digits in `entries`, and calls of `given` on
    /// the givens and `entry` on the entries.
    fn photo(
        puzzle: &str,
        entries: &[usize],
        given: f32,
        entry: f32,
    ) -> ([u8; 81], Vec<Option<f32>>) {
        let givens = parse_values(puzzle).unwrap();
        let solution = solve_values(&givens, 1).first.unwrap();
        let mut values = givens;
        let mut logits = vec![None; 81];
        for i in 0..81 {
            if givens[i] != 0 {
                logits[i] = Some(given);
            } else if entries.contains(&i) {
                values[i] = solution[i];
                logits[i] = Some(entry);
            }
        }
        (values, logits)
    }

    fn empty_cells(puzzle: &str) -> Vec<usize> {
        let v = parse_values(puzzle).unwrap();
        (0..81).filter(|&i| v[i] == 0).collect()
    }

    #[test]
    fn an_entry_whose_partner_is_empty_is_handwriting() {
        // Entries in empty cells whose partners stay empty, one of them taken for print
        // without much conviction: symmetry makes it handwriting.
        let empty = empty_cells(SYMMETRIC);
        let entries: Vec<usize> = empty.iter().copied().filter(|&i| i < 40).take(6).collect();
        let (values, mut logits) = photo(SYMMETRIC, &entries, -5.0, 3.0);
        logits[entries[0]] = Some(-2.0);
        let settled = settle_by_symmetry(&values, &logits);
        assert_eq!(settled[entries[0]], Some(2.0));
        for i in 0..81 {
            if i != entries[0] {
                assert_eq!(settled[i], logits[i], "cell {i}");
            }
        }
    }

    #[test]
    fn a_given_whose_partner_is_printed_is_print() {
        let (values, mut logits) = photo(SYMMETRIC, &empty_cells(SYMMETRIC)[..8], -5.0, 3.0);
        let given = (0..81)
            .find(|&i| values[i] != 0 && logits[i] == Some(-5.0))
            .unwrap();
        logits[given] = Some(1.5);
        assert_eq!(settle_by_symmetry(&values, &logits)[given], Some(-1.5));
    }

    #[test]
    fn asymmetric_or_settled_puzzles_keep_their_calls() {
        // An asymmetric newspaper puzzle, all printed: many givens lack a printed partner,
        // but they are sure calls, and fewer givens would not be a proper puzzle.
        let (values, logits) = photo(ASYMMETRIC, &[], -5.0, 3.0);
        assert_eq!(settle_by_symmetry(&values, &logits), logits);
        // Even when the calls are unsure: the symmetric part alone is not a proper puzzle.
        let (values, logits) = photo(ASYMMETRIC, &[], -0.5, 3.0);
        assert_eq!(settle_by_symmetry(&values, &logits), logits);
        // A symmetric puzzle already split symmetrically.
        let (values, logits) = photo(SYMMETRIC, &empty_cells(SYMMETRIC), -5.0, 3.0);
        assert_eq!(settle_by_symmetry(&values, &logits), logits);
        // All handwritten: no givens to settle.
        let (values, logits) = photo(SYMMETRIC, &empty_cells(SYMMETRIC), 4.0, 3.0);
        assert_eq!(settle_by_symmetry(&values, &logits), logits);
    }

    #[test]
    fn sure_or_many_changes_are_not_made() {
        let empty = empty_cells(SYMMETRIC);
        let entries: Vec<usize> = empty.iter().copied().filter(|&i| i < 40).take(6).collect();
        // A sure call against symmetry: the photo keeps its calls.
        let (values, mut logits) = photo(SYMMETRIC, &entries, -5.0, 3.0);
        logits[entries[0]] = Some(-(MAX_CHANGED_LOGIT + 1.0));
        assert_eq!(settle_by_symmetry(&values, &logits), logits);
        // Every entry called print: more than a quarter of the calls would change.
        let (values, logits) = photo(SYMMETRIC, &empty[..20], -5.0, -1.0);
        assert_eq!(settle_by_symmetry(&values, &logits), logits);
    }
}
