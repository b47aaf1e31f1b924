//! The digits a printed page shows (a child module of `page`): a published puzzle's givens,
//! symmetric under a half turn and with exactly one solution (checked with the exact solver),
//! or now and then a whole solution. Nothing of how they are drawn.

use crate::synthetic::Rng;
use crate::synthetic::puzzle::{make_unique, random_solution};

/// 22–36 givens of a random solution, placed symmetrically under a half turn, then more
/// symmetric pairs until the puzzle has exactly one solution, as a published puzzle does
/// (sometimes the whole solution: a printed answer grid).
pub(super) fn printed_digits(rng: &mut Rng) -> [u8; 81] {
    let solution = random_solution(rng);
    if rng.chance(0.06) {
        return solution;
    }
    let givens = rng.between(22, 36);
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    let mut out = [0u8; 81];
    let mut count = 0;
    for &i in &order {
        if count >= givens {
            break;
        }
        if out[i] == 0 {
            out[i] = solution[i];
            out[80 - i] = solution[80 - i];
            count += if i == 40 { 1 } else { 2 };
        }
    }
    make_unique(&mut out, &solution, &order);
    out
}

#[cfg(test)]
mod unique_tests {
    use super::*;

    #[test]
    fn printed_puzzles_have_exactly_one_solution() {
        let mut rng = Rng::new(7);
        for _ in 0..40 {
            let givens = printed_digits(&mut rng);
            let n = givens.iter().filter(|&&v| v != 0).count();
            assert_eq!(
                crate::sudoku::solver::count_values(&givens, 2),
                1,
                "{n} givens"
            );
            assert!((17..=81).contains(&n));
            // Still symmetric under a half turn.
            assert!((0..81).all(|i| (givens[i] == 0) == (givens[80 - i] == 0)));
        }
    }
}
