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

use crate::sudoku::Grid;
use crate::sudoku::solver::count_values;

/// The fewest givens a symmetric split may leave (no proper puzzle has fewer than 17).
const MIN_GIVENS: usize = 17;

/// The most calls the symmetric split may change, as a share of the digit cells.
const MAX_CHANGED_SHARE: f32 = 0.25;

/// The most |logit| of handwriting a changed call may have had (surer calls are kept, and
/// the photo then keeps all its calls).
const MAX_CHANGED_LOGIT: f32 = 6.0;

/// Whether `givens` (0 = empty) are a proper puzzle: no repeated digit, exactly one solution.
pub(super) fn is_proper(givens: &[u8; 81]) -> bool {
    Grid::from_values(givens).conflicts().is_empty() && count_values(givens, 2) == 1
}

/// The split of `values` (digits 1–9, 0 empty) by the `logits` of handwriting (`None`: not
/// a digit; positive: handwritten) made symmetric under a half turn: each pair of partner
/// digit cells takes the call of their summed logits, a digit whose partner holds none is
/// handwritten, the centre keeps its call. It is adopted when it changes no call surer than
/// `MAX_CHANGED_LOGIT`, at most `MAX_CHANGED_SHARE` of the calls, leaves at least
/// `MIN_GIVENS` givens, and those givens are a proper puzzle; a changed call's logit is then
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
    if givens.iter().filter(|&&v| v != 0).count() < MIN_GIVENS || !is_proper(&givens) {
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
