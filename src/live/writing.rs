//! Printed givens versus handwriting for the live path: the voted board of a half-done
//! puzzle is split into the newspaper's printed givens, the solver's handwritten entries and
//! the pencil-mark cells, so that the lock solves the printed puzzle and checks the entries
//! (as `scan` does for a photo).
//!
//! The split is made once per voted board that is ready to be trusted, not per frame: the
//! ink of the current colour frame is measured along the lattice (`vision::ink`) and the
//! voted readings' probability of handwriting is filled from it (`digits::style`) when the
//! model has no `kind` output; a model with one gives it with every read. Owns no state and
//! decides no trust (`reader`).

use image::RgbImage;

use super::vote::{VotedBoard, Votes};
use crate::digits::{CLASS_PENCIL, CellClass, CellReading, NUM_CLASSES};
use crate::scan::Written;
use crate::vision::Lattice;

/// The split of `voted` into printed givens, handwritten entries and pencil-mark cells.
/// `frame` is the colour frame `lattice` (as the puzzle reads) lies in; `last` the latest
/// read (81 readings as the puzzle reads): where the model called print or handwriting its
/// calls are taken, and its pencil-mark cells are the ones marked (the vote counts pencil
/// marks as empty). `kinds_known` is false (every digit a given) when the ink could not be
/// measured.
pub(super) fn split_voted(
    frame: &RgbImage,
    lattice: &Lattice,
    voted: &VotedBoard,
    votes: &Votes,
    last: &[CellReading],
) -> Written {
    let mut readings: Vec<CellReading> = (0..81)
        .map(|i| {
            let mut p = [0f32; NUM_CLASSES];
            for (v, slot) in p.iter_mut().enumerate().take(10) {
                *slot = votes.mean_probability(i, v as u8);
            }
            let last = last.get(i);
            if voted.values[i] == 0 && last.is_some_and(|r| r.class == CellClass::PencilMarks) {
                p[CLASS_PENCIL as usize] = p[0];
                p[0] = 0.0;
            }
            let mut r = CellReading::from_probabilities(p);
            r.handwritten = last.and_then(|l| l.handwritten);
            r
        })
        .collect();
    if readings.iter().all(|r| r.handwritten.is_none()) {
        let ink = crate::vision::ink::measure_grid(frame, lattice, |i| {
            voted.values.get(i).is_some_and(|&v| v != 0)
        });
        crate::digits::style::fill_handwriting(&mut readings, &ink);
    }
    Written::of(&readings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(class: usize, handwritten: Option<f32>) -> CellReading {
        let mut p = [0.0f32; NUM_CLASSES];
        p[class] = 1.0;
        let mut r = CellReading::from_probabilities(p);
        r.handwritten = handwritten;
        r
    }

    /// A model that calls print and handwriting itself: its calls split the vote, and the
    /// last read's pencil marks are kept; no ink is measured (a blank frame would give none).
    #[test]
    fn the_models_calls_split_the_vote_and_pencil_marks_are_kept() {
        let mut last: Vec<CellReading> = (0..81).map(|_| reading(0, None)).collect();
        last[0] = reading(5, Some(0.1));
        last[1] = reading(7, Some(0.9));
        last[2] = reading(CLASS_PENCIL as usize, None);
        let mut votes = Votes::new(4);
        votes.push(&last);
        let voted = votes.voted().expect("one read");
        let frame = RgbImage::new(90, 90);
        let lattice = Lattice {
            points_in_image: std::array::from_fn(|r| {
                std::array::from_fn(|c| crate::vision::Point {
                    x: c as f32 * 10.0,
                    y: r as f32 * 10.0,
                })
            }),
        };
        let w = split_voted(&frame, &lattice, &voted, &votes, &last);
        assert!(w.kinds_known);
        assert_eq!((w.givens[0], w.entries[0]), (5, 0));
        assert_eq!((w.givens[1], w.entries[1]), (0, 7));
        assert!(w.pencil[2] && !w.pencil[0]);
        assert_eq!(w.givens[2] + w.entries[2], 0);
    }
}
