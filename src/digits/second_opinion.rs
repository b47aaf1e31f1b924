//! A second opinion on the cells the digit model doubts: a second model, trained on another
//! mix of the same data, reads every cell whose first reading is below
//! [`DOUBTFUL_BELOW`](super::second_look::DOUBTFUL_BELOW), and the cell's probabilities
//! become the mean of the two readings.
//!
//! Why: two models trained apart err apart. On puzzles neither had seen (the kubiesa fold of
//! `models/README.md`, "A second opinion"), the bundled recipe alone read 139 of 160 boards
//! exactly and trusted a faint pen digit read as empty for 25 frames of a clip; with a
//! second model trained with more webcam frames of real handwriting, on doubtful cells only,
//! 144 and no wrong frame. Sure cells keep the first model's reading, so a clean picture
//! costs nothing more and reads as before.
//!
//! Owns which cells get the second opinion and how the readings are combined. It does not
//! run models: [`Classifier`](super::Classifier) passes its second model's reading function.
//! The printed/handwritten call (`CellReading::handwritten`) stays the first reading's.

use super::second_look::doubtful_cells;
use super::{CellReading, NUM_CLASSES};

/// Gives every reading of `readings` whose confidence is below
/// [`DOUBTFUL_BELOW`](super::second_look::DOUBTFUL_BELOW) ([`doubtful_cells`]) a second
/// opinion: `read_again(cells)` reads the cells of those indices (in that order) with the
/// second model and returns their class probabilities; each such reading becomes the mean of
/// the two distributions (its `handwritten` kept). Returns how many cells were read again; a
/// reply of another length leaves every reading as it was.
pub fn second_opinion<E>(
    readings: &mut [CellReading],
    read_again: impl FnOnce(&[usize]) -> Result<Vec<[f32; NUM_CLASSES]>, E>,
) -> Result<usize, E> {
    let doubtful = doubtful_cells(readings);
    if doubtful.is_empty() {
        return Ok(0);
    }
    let again = read_again(&doubtful)?;
    if again.len() != doubtful.len() {
        return Ok(0);
    }
    for (&i, other) in doubtful.iter().zip(&again) {
        let first = &readings[i];
        let mean: [f32; NUM_CLASSES] =
            std::array::from_fn(|c| (first.probabilities[c] + other[c]) / 2.0);
        let handwritten = first.handwritten;
        readings[i] = CellReading {
            handwritten,
            ..CellReading::from_probabilities(mean)
        };
    }
    Ok(doubtful.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::CellClass;
    use crate::sudoku::Digit;

    fn reading(class: usize, p: f32) -> CellReading {
        let rest = (1.0 - p) / (NUM_CLASSES - 1) as f32;
        let mut probabilities = [rest; NUM_CLASSES];
        probabilities[class] = p;
        CellReading::from_probabilities(probabilities)
    }

    fn distribution(class: usize, p: f32) -> [f32; NUM_CLASSES] {
        reading(class, p).probabilities
    }

    #[test]
    fn only_doubtful_cells_are_read_again_and_averaged() {
        // A sure 5, a doubtful 0 (empty) that the second model reads as a sure 2, and a
        // doubtful 7 that the second model agrees with.
        let mut readings = vec![reading(5, 0.999), reading(0, 0.6), reading(7, 0.8)];
        readings[1].handwritten = Some(0.9);
        let mut asked = Vec::new();
        let n = second_opinion(&mut readings, |cells| {
            asked = cells.to_vec();
            Ok::<_, ()>(vec![distribution(2, 0.95), distribution(7, 0.9)])
        })
        .unwrap();
        assert_eq!(n, 2);
        assert_eq!(asked, vec![1, 2]);
        assert_eq!(readings[0], reading(5, 0.999));
        assert_eq!(readings[1].class, CellClass::Digit(Digit::new(2).unwrap()));
        assert!((readings[1].probabilities[0] - (0.6 + 0.005) / 2.0).abs() < 1e-6);
        assert_eq!(readings[1].handwritten, Some(0.9));
        assert_eq!(readings[2].class, CellClass::Digit(Digit::new(7).unwrap()));
        assert!((readings[2].confidence - 0.85).abs() < 1e-6);
        let total: f32 = readings[1].probabilities.iter().sum();
        assert!((total - 1.0).abs() < 1e-5);
    }

    #[test]
    fn sure_readings_ask_nothing_and_a_short_reply_changes_nothing() {
        let mut sure = vec![reading(3, 0.99); 81];
        let n = second_opinion(&mut sure, |_| -> Result<_, ()> {
            panic!("no cell is doubtful")
        })
        .unwrap();
        assert_eq!(n, 0);
        let mut doubtful = vec![reading(3, 0.5); 3];
        let before = doubtful.clone();
        let n = second_opinion(&mut doubtful, |_| Ok::<_, ()>(vec![distribution(4, 1.0)])).unwrap();
        assert_eq!((n, doubtful), (0, before));
        let failed = second_opinion(&mut [reading(3, 0.5)], |_| Err("model failed"));
        assert_eq!(failed, Err("model failed"));
    }
}
