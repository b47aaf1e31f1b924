//! The printed/handwritten split of a page far along, settled by how exactly the print repeats.
//!
//! `digits::style` calls a digit printed when its ink, size and stroke sit close to the
//! print's. On a page far along or finished, a neat hand in a dark pen comes that close, and
//! the entries (up to 60 of them) are then all called givens. No published puzzle gives that
//! many: short of a printed solution, a puzzle has at most [`MAX_GIVENS`]. The glyphs
//! themselves still tell the two apart, since a font repeats exactly (two prints of one
//! digit correlate ~0.98) and a hand does not (~0.7). So when a photo's split calls more
//! than [`MAX_GIVENS`] givens, [`settle_by_font`] calls each digit by how alike it is to the
//! print's other glyphs of that digit, and adopts the result only when it leaves a proper
//! puzzle. A printed solution (every digit alike) keeps its calls. Pure arithmetic over
//! readings, logits and glyph likeness; the likeness itself is measured in `digits::style`.

use super::puzzle_settle::givens_called;
use super::repair::is_valid_unique;
use crate::sudoku::MIN_CLUES;

/// The most givens a published puzzle has (the easiest ones give about 40).
pub const MAX_GIVENS: usize = 45;

/// The least likeness (normalized correlation of glyph shapes) to another print of the same
/// digit that still reads as that font: between a font's ~0.98 and a hand's ~0.7.
pub const FONT_MATCH: f32 = 0.85;

/// The split of `values` (digits 1–9, 0 empty) by the `logits` of handwriting (`None`: not
/// a digit; positive: handwritten), settled by `font_match` (per cell, the likeness of its
/// glyph to the most alike print of the same digit; `None` where the print holds no other
/// such glyph). When the split calls more than [`MAX_GIVENS`] givens, every digit with a
/// `font_match` is called printed exactly when that is at least [`FONT_MATCH`] (the others
/// keep their call); the new split is adopted when its givens number `MIN_CLUES` (17) to
/// [`MAX_GIVENS`] and are a proper puzzle, with each changed call's logit negated.
/// Otherwise the logits come back unchanged.
pub fn settle_by_font(
    values: &[u8; 81],
    logits: &[Option<f32>],
    font_match: &[Option<f32>],
) -> Vec<Option<f32>> {
    let called_givens = logits.iter().flatten().filter(|&&l| l <= 0.0).count();
    if called_givens <= MAX_GIVENS {
        return logits.to_vec();
    }
    let settled: Vec<Option<f32>> = logits
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let l = (*l)?;
            let Some(m) = font_match.get(i).copied().flatten() else {
                return Some(l);
            };
            let printed = m >= FONT_MATCH;
            Some(if printed == (l <= 0.0) { l } else { -l })
        })
        .collect();
    let givens = givens_called(values, &settled);
    let count = givens.iter().filter(|&&v| v != 0).count();
    if (MIN_CLUES..=MAX_GIVENS).contains(&count) && is_valid_unique(&givens) {
        settled
    } else {
        logits.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::parse::parse_values;
    use crate::sudoku::solver::solve_values;

    /// A solved grid, and a proper puzzle of it (top1465's first puzzle).
    fn solved_and_givens() -> ([u8; 81], [bool; 81]) {
        let puzzle = parse_values(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        )
        .expect("puzzle");
        let solutions = solve_values(&puzzle, 2);
        assert_eq!(solutions.count, 1);
        let values = solutions.first.expect("solved");
        (values, std::array::from_fn(|i| puzzle[i] != 0))
    }

    #[test]
    fn a_finished_page_called_all_printed_is_split_by_the_font() {
        let (values, givens) = solved_and_givens();
        // Every digit called printed, the entries only a little less surely.
        let logits: Vec<Option<f32>> = (0..81)
            .map(|i| Some(if givens[i] { -6.0 } else { -1.5 }))
            .collect();
        let font: Vec<Option<f32>> = (0..81)
            .map(|i| Some(if givens[i] { 0.97 } else { 0.6 }))
            .collect();
        let settled = settle_by_font(&values, &logits, &font);
        for i in 0..81 {
            let l = settled[i].expect("a digit");
            assert_eq!(l <= 0.0, givens[i], "cell {i}");
        }
        // A changed call keeps its size, turned.
        let entry = (0..81).find(|&i| !givens[i]).expect("an entry");
        assert_eq!(settled[entry], Some(1.5));
    }

    #[test]
    fn a_printed_solution_keeps_its_calls() {
        let (values, _) = solved_and_givens();
        let logits: Vec<Option<f32>> = vec![Some(-5.0); 81];
        let font: Vec<Option<f32>> = vec![Some(0.98); 81];
        assert_eq!(settle_by_font(&values, &logits, &font), logits);
    }

    #[test]
    fn a_split_with_few_givens_is_left_alone() {
        let (values, givens) = solved_and_givens();
        let logits: Vec<Option<f32>> = (0..81)
            .map(|i| Some(if givens[i] { -6.0 } else { 3.0 }))
            .collect();
        // Even a font match that disagrees everywhere does not touch a plausible split.
        let font: Vec<Option<f32>> = vec![Some(0.5); 81];
        assert_eq!(settle_by_font(&values, &logits, &font), logits);
    }

    #[test]
    fn a_font_split_that_is_no_puzzle_is_refused() {
        let (values, _) = solved_and_givens();
        let logits: Vec<Option<f32>> = vec![Some(-4.0); 81];
        // The font would keep only the first row's nine digits: too few for a puzzle.
        let font: Vec<Option<f32>> = (0..81)
            .map(|i| Some(if i < 9 { 0.97 } else { 0.5 }))
            .collect();
        assert_eq!(settle_by_font(&values, &logits, &font), logits);
    }
}
