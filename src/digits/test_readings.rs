//! Readings made by hand for the unit tests of the puzzle's help (`solution_prior`,
//! `readings_by_puzzle`): a cell the model is sure of, a cell it doubts between two classes,
//! and a puzzle line as values. Test-only.

use super::{CellReading, NUM_CLASSES};

/// The values of an 81-digit puzzle line (`0` empty).
pub(crate) fn values(text: &str) -> [u8; 81] {
    std::array::from_fn(|i| text.as_bytes()[i] - b'0')
}

/// A reading of `value` (class 0–10) the model is sure of, with its probability of
/// handwriting.
pub(crate) fn sure(value: u8, handwritten: f32) -> CellReading {
    let mut p = [0.0005; NUM_CLASSES];
    p[usize::from(value)] = 1.0 - 0.0005 * (NUM_CLASSES as f32 - 1.0);
    CellReading::from_probabilities(p).with_handwritten(handwritten)
}

/// A doubtful reading: class `top` at `top_p`, `other` at `other_p`, the rest shared evenly,
/// with its probability of handwriting.
pub(crate) fn doubtful(
    top: u8,
    top_p: f32,
    other: u8,
    other_p: f32,
    handwritten: f32,
) -> CellReading {
    let rest = (1.0 - top_p - other_p) / (NUM_CLASSES as f32 - 2.0);
    let mut p = [rest; NUM_CLASSES];
    p[usize::from(top)] = top_p;
    p[usize::from(other)] = other_p;
    CellReading::from_probabilities(p).with_handwritten(handwritten)
}
