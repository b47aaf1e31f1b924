//! Digit reading: turns the 81 normalized cell images of a rectified grid into per-cell class
//! probabilities, and proposes the most likely repair when the read grid is not a valid Sudoku.
//!
//! Owns the class scheme ([`CellClass`]), the ONNX model and its backends ([`Classifier`]:
//! tract by default, ONNX Runtime behind the `onnxruntime` feature), the one uncertainty
//! threshold ([`UNCERTAIN_BELOW`]) and how well confidences match accuracy ([`reliability`]),
//! the choice of a grid's orientation from its readings ([`orientation`]), the repair search
//! ([`repair`]), how printed givens are told from handwriting ([`Writing`]: the model's
//! optional second output, else per photo from the ink in [`style`]; scored against a givens
//! mask in [`writing`]) and the
//! training-data side (synthetic cells in [`synth`], labelled export in [`export`]). It does not find grids or cut cells (see `vision`) and does not solve
//! (see `sudoku`); the cell input is exactly `vision::normalize_cell`'s output.

pub mod classifier;
pub mod export;
pub mod font;
pub mod orientation;
pub mod pen_colour;
pub mod polarity;
pub mod puzzle_settle;
pub mod readings_by_puzzle;
pub mod reliability;
pub mod repair;
pub mod second_look;
pub mod second_opinion;
pub mod solution_prior;
pub mod style;
mod style_weights;
pub mod symmetry;
pub mod synth;
#[cfg(test)]
mod test_readings;
pub mod writing;

pub use classifier::{
    Backend, Classifier, EMBEDDED_MODEL, EMBEDDED_SECOND_MODEL, KIND_OUTPUT, LOGITS_OUTPUT,
    ModelError,
};
pub use repair::{Repair, RepairChange, suggest_repair};

use crate::sudoku::Digit;

/// Number of classifier outputs: 0 empty, 1–9 digits, 10 pencil marks.
pub const NUM_CLASSES: usize = 11;

/// Class index of a cell holding pencil-mark candidates (empty for solving).
pub const CLASS_PENCIL: u8 = 10;

/// Below this top-class probability a reading is reported as uncertain: the one threshold
/// behind [`CellReading::is_uncertain`], the app's amber cells and `eval`'s flagged shares.
/// Set for the current model; re-check it with `eval`'s reliability table after retraining.
pub const UNCERTAIN_BELOW: f32 = 0.9;

/// Whether a reading (or a vote) of this confidence is flagged uncertain: the one test
/// against [`UNCERTAIN_BELOW`].
pub fn is_uncertain(confidence: f32) -> bool {
    confidence < UNCERTAIN_BELOW
}

/// The digits of `readings` (row-major) called print ([`Writing::Printed`]), 0 elsewhere
/// (handwritten, without a call, not a digit, or past the end of a short slice).
pub fn printed_values(readings: &[CellReading]) -> [u8; 81] {
    std::array::from_fn(|i| match readings.get(i) {
        Some(r) if r.writing() == Some(Writing::Printed) => r.class.value(),
        _ => 0,
    })
}

/// The grid as read from `readings` (row-major): digits 1–9, 0 for empty and pencil-mark
/// cells, and 0 for cells past the end of a short slice.
pub fn read_values(readings: &[CellReading]) -> [u8; 81] {
    std::array::from_fn(|i| readings.get(i).map_or(0, |r| r.class.value()))
}

/// What a cell holds, as the classifier sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CellClass {
    /// Nothing written in the cell.
    Empty,
    /// A printed or handwritten digit.
    Digit(Digit),
    /// Small pencil-mark candidates: empty for solving.
    PencilMarks,
}

impl CellClass {
    /// The class for label/class index `0..=10`; `None` beyond.
    pub fn from_index(index: u8) -> Option<CellClass> {
        match index {
            0 => Some(CellClass::Empty),
            CLASS_PENCIL => Some(CellClass::PencilMarks),
            1..=9 => Digit::new(index).map(CellClass::Digit),
            _ => None,
        }
    }

    /// The label/class index `0..=10`.
    pub fn index(self) -> u8 {
        match self {
            CellClass::Empty => 0,
            CellClass::Digit(d) => d.get(),
            CellClass::PencilMarks => CLASS_PENCIL,
        }
    }

    /// The digit, if the cell holds one.
    pub fn digit(self) -> Option<Digit> {
        match self {
            CellClass::Digit(d) => Some(d),
            _ => None,
        }
    }

    /// The value for solving: the digit, or 0 for empty and pencil marks.
    pub fn value(self) -> u8 {
        self.digit().map_or(0, Digit::get)
    }
}

/// Above this probability of handwriting a digit cell is called handwritten (an entry of
/// the solver's), else printed (a given of the puzzle).
pub const HANDWRITTEN_FROM: f32 = 0.5;

/// How a digit was written: the model's second output (`kind`), or [`style`]'s call from the
/// photo's ink.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Writing {
    /// Typeset: a newspaper's or an app's digit, the puzzle's givens.
    Printed,
    /// Written by hand (pen or pencil): the solver's entries.
    Handwritten,
}

impl Writing {
    /// The training-label code of `kinds.u8` (1 printed, 2 handwritten; 0 means unknown).
    pub fn code(self) -> u8 {
        match self {
            Writing::Printed => 1,
            Writing::Handwritten => 2,
        }
    }

    /// The writing for a `kinds.u8` code (`None` for 0, unknown, and anything else).
    pub fn from_code(code: u8) -> Option<Writing> {
        match code {
            1 => Some(Writing::Printed),
            2 => Some(Writing::Handwritten),
            _ => None,
        }
    }
}

/// The classifier's verdict on one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct CellReading {
    /// Softmax probabilities, indexed by class (0 empty, 1–9, 10 pencil marks); they sum to 1.
    pub probabilities: [f32; NUM_CLASSES],
    /// The most probable class, or the class evidence beyond the cell decided
    /// ([`CellReading::decided_as`]).
    pub class: CellClass,
    /// Probability of `class`.
    pub confidence: f32,
    /// Probability that the cell's ink is handwriting rather than print, from the model's
    /// second output or, for a model without it, from the photo's ink
    /// ([`style::fill_handwriting`]); `None` when neither gave one. Meaningful for digit
    /// cells only.
    pub handwritten: Option<f32>,
}

impl CellReading {
    /// A reading from raw logits (softmax is applied here). Non-finite logits count as very
    /// unlikely, so the result is always a valid distribution.
    pub fn from_logits(logits: &[f32; NUM_CLASSES]) -> CellReading {
        let clean = logits.map(|x| if x.is_finite() { x } else { -1e9 });
        let max = clean.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let exps = clean.map(|x| (x - max).exp());
        let sum: f32 = exps.iter().sum();
        let probabilities = exps.map(|e| e / sum.max(f32::MIN_POSITIVE));
        CellReading::from_probabilities(probabilities)
    }

    /// A reading from probabilities (class = arg max; ties go to the lower index).
    pub fn from_probabilities(probabilities: [f32; NUM_CLASSES]) -> CellReading {
        let mut best = 0usize;
        for (i, &p) in probabilities.iter().enumerate() {
            if p > probabilities[best] {
                best = i;
            }
        }
        CellReading {
            probabilities,
            class: CellClass::from_index(best as u8).unwrap_or(CellClass::Empty),
            confidence: probabilities[best],
            handwritten: None,
        }
    }

    /// The reading with `class` decided by evidence beyond the cell (the puzzle's solution,
    /// `solution_prior`): the probabilities stay the model's, and the confidence becomes the
    /// model's probability of `class`, so a class the model doubted stays flagged uncertain.
    pub fn decided_as(mut self, class: CellClass) -> CellReading {
        self.confidence = self.probabilities[usize::from(class.index())];
        self.class = class;
        self
    }

    /// The reading with a probability of handwriting (clamped to 0..1; a non-finite value
    /// counts as unknown).
    pub fn with_handwritten(mut self, probability: f32) -> CellReading {
        self.handwritten = probability.is_finite().then(|| probability.clamp(0.0, 1.0));
        self
    }

    /// How the cell's digit was written: `None` for a cell without a digit or a model
    /// without the `kind` output.
    pub fn writing(&self) -> Option<Writing> {
        self.class.digit()?;
        let p = self.handwritten?;
        Some(if p > HANDWRITTEN_FROM {
            Writing::Handwritten
        } else {
            Writing::Printed
        })
    }

    /// Probability that the cell is empty for solving (empty or pencil marks).
    pub fn empty_probability(&self) -> f32 {
        self.probabilities[0] + self.probabilities[CLASS_PENCIL as usize]
    }

    /// Probability of solving value `value` (0 = empty incl. pencil marks, 1–9 digits).
    pub fn value_probability(&self, value: u8) -> f32 {
        match value {
            0 => self.empty_probability(),
            1..=9 => self.probabilities[value as usize],
            _ => 0.0,
        }
    }

    /// Whether the reading is too unsure to trust without a look.
    pub fn is_uncertain(&self) -> bool {
        is_uncertain(self.confidence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_picks_largest_logit() {
        let mut logits = [0.0f32; NUM_CLASSES];
        logits[7] = 5.0;
        let r = CellReading::from_logits(&logits);
        assert_eq!(r.class.index(), 7);
        let sum: f32 = r.probabilities.iter().sum();
        assert!((sum - 1.0).abs() < 1e-5);
        assert!(r.confidence > 0.9);
        assert!(!r.is_uncertain());
    }

    #[test]
    fn nan_logits_do_not_poison() {
        let mut logits = [f32::NAN; NUM_CLASSES];
        logits[0] = 1.0;
        let r = CellReading::from_logits(&logits);
        assert_eq!(r.class, CellClass::Empty);
        assert!(r.probabilities.iter().all(|p| p.is_finite()));
    }

    #[test]
    fn writing_needs_a_digit_and_the_kind_output() {
        let mut logits = [0.0f32; NUM_CLASSES];
        logits[4] = 6.0;
        let r = CellReading::from_logits(&logits);
        assert_eq!(r.writing(), None);
        assert_eq!(
            r.clone().with_handwritten(0.8).writing(),
            Some(Writing::Handwritten)
        );
        assert_eq!(
            r.clone().with_handwritten(0.2).writing(),
            Some(Writing::Printed)
        );
        assert_eq!(r.clone().with_handwritten(f32::NAN).handwritten, None);
        let mut empty = [0.0f32; NUM_CLASSES];
        empty[0] = 6.0;
        assert_eq!(
            CellReading::from_logits(&empty)
                .with_handwritten(0.9)
                .writing(),
            None
        );
        for w in [Writing::Printed, Writing::Handwritten] {
            assert_eq!(Writing::from_code(w.code()), Some(w));
        }
        assert_eq!(Writing::from_code(0), None);
    }

    #[test]
    fn class_indices_round_trip() {
        for i in 0..=10u8 {
            let c = CellClass::from_index(i).unwrap();
            assert_eq!(c.index(), i);
        }
        assert_eq!(CellClass::from_index(11), None);
        assert_eq!(CellClass::PencilMarks.value(), 0);
    }
}
