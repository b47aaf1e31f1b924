//! The printed/handwritten split of a photo settled by the puzzle itself: printed givens
//! alone have exactly one solution, so when the split's givens do not, the least sure calls
//! are flipped until they do (if a few flips can do it). A puzzle that is not a published one
//! keeps its calls. Pure arithmetic over readings and logits; `digits::style` runs it after
//! the colour and symmetry checks.

use super::repair::is_valid_unique;

/// The most calls [`settle_by_puzzle`] flips, and how unsure (|logit|) a call must be to be
/// flipped.
const MAX_FLIPS: usize = 2;
const FLIP_BELOW_LOGIT: f32 = 4.0;
const FLIP_CANDIDATES: usize = 8;

/// The givens a split calls: the digit of `values` in every cell whose `logits` of
/// handwriting is at most 0 (printed), 0 elsewhere (handwritten, or not a digit: `None`).
pub(super) fn givens_called(values: &[u8; 81], logits: &[Option<f32>]) -> [u8; 81] {
    std::array::from_fn(|i| match logits.get(i) {
        Some(Some(l)) if *l <= 0.0 => values[i],
        _ => 0,
    })
}

/// The split of `values` (digits 1–9, 0 empty) into givens by the `logits` of handwriting
/// (`None`: not a digit), settled by the puzzle: when the givens called (logit ≤ 0) are not a
/// proper puzzle, the smallest set of at most `MAX_FLIPS` (2) of the least sure calls (|logit|
/// below `FLIP_BELOW_LOGIT` (4)) whose flip makes them one is flipped, least total |logit|
/// first. Returns the logits with the flipped ones negated; unchanged when the givens are
/// proper already or no small flip makes them so (a puzzle that is not a published one).
pub fn settle_by_puzzle(values: &[u8; 81], logits: &[Option<f32>]) -> Vec<Option<f32>> {
    let givens_of = |flip: &[usize]| -> [u8; 81] {
        std::array::from_fn(|i| {
            let Some(Some(l)) = logits.get(i) else {
                return 0;
            };
            let handwritten = (*l > 0.0) != flip.contains(&i);
            if handwritten { 0 } else { values[i] }
        })
    };
    if is_valid_unique(&givens_of(&[])) {
        return logits.to_vec();
    }
    let mut unsure: Vec<(usize, f32)> = logits
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.map(|l| (i, l.abs())))
        .filter(|&(_, a)| a < FLIP_BELOW_LOGIT)
        .collect();
    unsure.sort_by(|a, b| a.1.total_cmp(&b.1));
    unsure.truncate(FLIP_CANDIDATES);
    let mut tries: Vec<(f32, Vec<usize>)> = unsure.iter().map(|&(i, a)| (a, vec![i])).collect();
    if MAX_FLIPS >= 2 {
        for (x, &(i, a)) in unsure.iter().enumerate() {
            for &(j, b) in &unsure[x + 1..] {
                tries.push((a + b, vec![i, j]));
            }
        }
    }
    tries.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, flip) in tries {
        if is_valid_unique(&givens_of(&flip)) {
            return logits
                .iter()
                .enumerate()
                .map(|(i, l)| l.map(|l| if flip.contains(&i) { -l } else { l }))
                .collect();
        }
    }
    logits.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::solver::count_values;

    #[test]
    fn the_puzzle_settles_unsure_calls_only() {
        let puzzle =
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
        let values = crate::sudoku::parse_values(puzzle).unwrap();
        let sure: Vec<Option<f32>> = (0..81).map(|i| (values[i] != 0).then_some(-8.0)).collect();
        assert_eq!(settle_by_puzzle(&values, &sure), sure);
        // An entry (r1c1) with the digit of r1c3 taken for print without much conviction:
        // the givens repeat a digit, so it is flipped to handwriting.
        let mut v = values;
        v[0] = values[2];
        let mut logits = sure.clone();
        logits[0] = Some(-1.0);
        let settled = settle_by_puzzle(&v, &logits);
        assert_eq!(settled[0], Some(1.0));
        assert_eq!(settled[2], Some(-8.0));
        // The same call made surely is left alone: no proper puzzle is reached.
        logits[0] = Some(-9.0);
        assert_eq!(settle_by_puzzle(&v, &logits), logits);
        // Givens with several solutions take back an unsure entry that makes them unique.
        let mut fewer = values;
        let mut logits = sure.clone();
        let removed = (0..81).filter(|&i| values[i] != 0).find(|&i| {
            let mut g = values;
            g[i] = 0;
            count_values(&g, 2) > 1
        });
        let r = removed.expect("a clue whose removal leaves several solutions");
        fewer[r] = values[r];
        logits[r] = Some(2.0);
        assert_eq!(settle_by_puzzle(&fewer, &logits)[r], Some(-2.0));
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        use proptest::test_runner::{Config, RngSeed};

        proptest! {
            #![proptest_config(Config {
                cases: 64,
                rng_seed: RngSeed::Fixed(20_261_125),
                failure_persistence: None,
                ..Config::default()
            })]

            /// Whatever the calls, settling flips only unsure calls, at most two, keeps every
            /// cell's kind of entry (digit or not), and what it returns is proper whenever it
            /// flipped something.
            #[test]
            fn settling_flips_few_unsure_calls(
                logits in proptest::collection::vec(-9.0f32..9.0, 81),
                drop in proptest::collection::vec(0usize..81, 0..12),
            ) {
                let puzzle = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
                let givens = crate::sudoku::parse_values(puzzle).unwrap();
                let solution = crate::sudoku::solver::solve_values(&givens, 1).first.unwrap();
                // The solution with a few cells left empty: givens and entries alike.
                let mut values = solution;
                for &d in &drop {
                    values[d] = 0;
                }
                let calls: Vec<Option<f32>> =
                    (0..81).map(|i| (values[i] != 0).then_some(logits[i])).collect();
                let settled = settle_by_puzzle(&values, &calls);
                prop_assert_eq!(settled.len(), 81);
                let mut flipped = 0;
                for i in 0..81 {
                    prop_assert_eq!(settled[i].is_some(), calls[i].is_some());
                    if let (Some(a), Some(b)) = (calls[i], settled[i])
                        && a != b
                    {
                        flipped += 1;
                        prop_assert!(a.abs() < FLIP_BELOW_LOGIT && b == -a);
                    }
                }
                prop_assert!(flipped <= MAX_FLIPS);
                if flipped > 0 {
                    prop_assert!(is_valid_unique(&givens_called(&values, &settled)));
                }
            }
        }
    }
}
