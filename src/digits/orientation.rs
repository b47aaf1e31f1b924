//! Orientation of a read grid: a photo whose pixels are turned by a quarter, half or
//! three-quarter turn (no EXIF tag to undo it) gives a lattice indexed as the image lies, so
//! the cells come out permuted and each digit lies on its side. This module picks the turn
//! under which the classifier reads the digit cells most confidently, and owns the one
//! quarter-turn convention used to permute cells, rotate cell inputs and re-index lattices.
//!
//! Convention: `quarter_turns` (0–3) says how far the puzzle appears turned *clockwise* in the
//! image. Under `k` turns, the puzzle's `(row, col)` on an `n`×`n` grid (9 cells or 10 lattice
//! lines a side, or the pixels of a square cell input) lies at the image's [`turned`]`(row,
//! col, n, k)`.
//!
//! It does not cut or normalize cells (see `vision`) nor run the model itself: the caller
//! passes a classify function, so the choice is testable without a model.

use super::{CellClass, CellReading, read_values};
use crate::sudoku::conflicts_of;
use crate::vision::{CELL_INPUT_PX, Point};

/// An upright reading that calls a cell empty with at least this probability is not re-read
/// under the other turns: a blank cell reads the same in any orientation. Digits lying on their
/// side are sometimes read as empty, with up to 0.95–0.99 (kubiesa-val, rozet-handwritten
/// turned in memory, today's model), so only near-certain empties are left out.
pub const SURELY_EMPTY_FROM: f32 = 0.99;

/// The grid is taken as upright without a second model run when the geometric mean of the
/// confidences of its non-empty readings (digits, pencil marks) reaches this, i.e. when
/// [`reading_score`] over them is at least its log. Measured with today's model over every
/// second photo of the shared sets turned by 90/180/270°: no turned grid reaches 0.85
/// (rozet-handwritten's best: 0.849; kubiesa, wichtounet-v2: 0.77 at most), while upright
/// kubiesa grids all pass and wichtounet-v2's 96 % do. Tied to the model's calibration:
/// re-check it (with `tests/orientation.rs`) after retraining.
pub const UPRIGHT_MEAN_CONFIDENCE_FROM: f64 = 0.9;

/// A turn replaces the whole reading, so it is taken only when it reads better than upright
/// *and* its own geometric mean confidence over the re-read cells reaches this. Without the
/// floor, two upright wichtounet-mixed photos (handwritten digits pasted into every empty
/// cell, read 75 % right) read "better" upside down (0.67 against 0.60). Turned kubiesa and
/// wichtounet-v2 photos read at 0.79 or more in their right turn; rozet-handwritten ones at
/// 0.58 or more (5 % of them below the floor stay unturned).
pub const TURNED_MEAN_CONFIDENCE_FROM: f64 = 0.7;

/// A turn is not taken when it reads fewer than this share of the cells the upright reading
/// calls non-empty (digits, pencil marks) as non-empty: ink is the same in every turn, so a
/// turn that wins by reading inked cells as empty is a misreading, not an orientation.
/// Measured with today's model on turned copies of kubiesa-train, rozet-handwritten's
/// training part and 640×480 webcam frames of wichtounet-v2-train and kubiesa-train (dev
/// sets, 661 grids read in a turn): the right turn reads at least 0.77 of the sideways
/// reading's non-empty cells (most the same number); the wrong turns that won on upright
/// webcam frames of wichtounet-v2-train read 0.00–0.11 of them.
pub const TURNED_LEAST_INK_SHARE: f64 = 0.5;

/// Where the puzzle's `(row, col)` of an `n`×`n` grid lies in the image when the puzzle
/// appears turned `quarter_turns` clockwise (taken modulo 4). `row`, `col` must be `< n`.
pub fn turned(row: usize, col: usize, n: usize, quarter_turns: u8) -> (usize, usize) {
    let last = n.saturating_sub(1);
    match quarter_turns % 4 {
        0 => (row, col),
        1 => (col, last - row),
        2 => (last - row, last - col),
        _ => (last - col, row),
    }
}

/// The image's row-major cell index (0–80) of the puzzle's cell `index_as_read` (0–80, as the
/// puzzle reads) under `quarter_turns`.
pub fn cell_index_in_image(index_as_read: usize, quarter_turns: u8) -> usize {
    let (r, c) = turned(index_as_read / 9, index_as_read % 9, 9, quarter_turns);
    r * 9 + c
}

/// A lattice indexed as the image lies, re-indexed as the puzzle reads: `[0][0]` becomes the
/// puzzle's top-left corner.
pub fn lattice_as_read(
    lattice_in_image: &[[Point; 10]; 10],
    quarter_turns: u8,
) -> [[Point; 10]; 10] {
    std::array::from_fn(|r| {
        std::array::from_fn(|c| {
            let (ri, ci) = turned(r, c, 10, quarter_turns);
            lattice_in_image[ri][ci]
        })
    })
}

/// A normalized cell input (`CELL_INPUT_PX`² values, row-major) cut from an image in which the
/// puzzle appears turned `quarter_turns` clockwise, turned back upright. Inputs of another
/// length are returned unchanged.
pub fn cell_input_upright(input_in_image: &[f32], quarter_turns: u8) -> Vec<f32> {
    let n = CELL_INPUT_PX as usize;
    if input_in_image.len() != n * n || quarter_turns.is_multiple_of(4) {
        return input_in_image.to_vec();
    }
    let mut out = Vec::with_capacity(n * n);
    for y in 0..n {
        for x in 0..n {
            let (yi, xi) = turned(y, x, n, quarter_turns);
            out.push(input_in_image[yi * n + xi]);
        }
    }
    out
}

/// How confidently a set of readings is read: the mean natural log of each reading's top
/// probability (0 is certain; the log keeps one hopeless cell from hiding behind many sure
/// ones). `None` for no readings.
pub fn reading_score<'a>(readings: impl IntoIterator<Item = &'a CellReading>) -> Option<f64> {
    let (mut sum, mut n) = (0.0f64, 0usize);
    for r in readings {
        sum += f64::from(r.confidence.max(1e-12)).ln();
        n += 1;
    }
    (n > 0).then(|| sum / n as f64)
}

/// The grid's readings in the orientation the puzzle reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Oriented {
    /// How far the puzzle appears turned clockwise in the image (0–3).
    pub quarter_turns: u8,
    /// One reading per cell, row-major as the puzzle reads.
    pub readings: Vec<CellReading>,
}

/// Chooses the orientation of a grid from its 81 cell inputs (image order) and their upright
/// readings, calling `classify` only when needed.
///
/// Cheap common case: when the upright non-empty readings are sure on average
/// ([`UPRIGHT_MEAN_CONFIDENCE_FROM`]), or there are none, the grid is taken as upright without
/// another model run. Otherwise the cells that are not surely empty ([`SURELY_EMPTY_FROM`])
/// are classified once more, turned back by one, two and three quarter turns, in one batch,
/// and the turn with the best [`reading_score`] over those cells wins if it beats upright and
/// reaches [`TURNED_MEAN_CONFIDENCE_FROM`] (ties keep the smaller turn, upright first); a
/// turned grid's other cells are then read turned back as well, and the turn is kept only if
/// its grid repeats no more digits in a house than the upright one. Every
/// such cell votes, so the 6/9 swap under a half turn cannot decide alone. Readings that are not 81 long are returned upright as they are.
pub fn orient<E>(
    inputs_in_image: &[Vec<f32>],
    upright: Vec<CellReading>,
    mut classify: impl FnMut(&[Vec<f32>]) -> Result<Vec<CellReading>, E>,
) -> Result<Oriented, E> {
    let keep_upright = |readings| Oriented {
        quarter_turns: 0,
        readings,
    };
    if upright.len() != 81 || inputs_in_image.len() != 81 {
        return Ok(keep_upright(upright));
    }
    let non_empty = upright.iter().filter(|r| r.class != CellClass::Empty);
    match reading_score(non_empty) {
        Some(score) if score < UPRIGHT_MEAN_CONFIDENCE_FROM.ln() => {}
        _ => return Ok(keep_upright(upright)),
    }
    let evidence: Vec<usize> = (0..81)
        .filter(|&i| {
            !(upright[i].class == CellClass::Empty && upright[i].confidence >= SURELY_EMPTY_FROM)
        })
        .collect();
    if evidence.is_empty() {
        return Ok(keep_upright(upright));
    }
    let batch: Vec<Vec<f32>> = (1..4u8)
        .flat_map(|k| {
            evidence
                .iter()
                .map(move |&i| cell_input_upright(&inputs_in_image[i], k))
        })
        .collect();
    let turned_readings = classify(&batch)?;
    if turned_readings.len() != batch.len() {
        return Ok(keep_upright(upright));
    }
    // Per turn, the re-read evidence cells (image order); turn 0 is the upright reading.
    let per_turn: Vec<&[CellReading]> = turned_readings.chunks(evidence.len()).collect();
    let score_of = |k: usize| -> f64 {
        let score = if k == 0 {
            reading_score(evidence.iter().map(|&i| &upright[i]))
        } else {
            reading_score(per_turn[k - 1])
        };
        score.unwrap_or(f64::NEG_INFINITY)
    };
    let mut best = 0usize;
    for k in 1..4 {
        if score_of(k) > score_of(best) {
            best = k;
        }
    }
    if best == 0 || score_of(best) < TURNED_MEAN_CONFIDENCE_FROM.ln() {
        return Ok(keep_upright(upright));
    }
    // Ink does not change with a turn: a blurred upright grid read unsurely can score lower
    // than a turn that calls most of its digits empty with confidence (a webcam frame's
    // sideways glyphs look like nothing). The right turn of a turned grid reads about as many
    // cells as ink as its sideways reading does.
    let inked_upright = non_empty_count(evidence.iter().map(|&i| &upright[i]));
    let inked_turned = non_empty_count(per_turn[best - 1]);
    if (inked_turned as f64) < TURNED_LEAST_INK_SHARE * inked_upright as f64 {
        return Ok(keep_upright(upright));
    }
    let quarter_turns = best as u8;
    // The cells left out of the vote were surely empty read sideways; read them once more
    // turned back too (a faint digit in a shadowed cell can look empty only sideways). Only
    // turned grids pay for this batch.
    let rest: Vec<usize> = (0..81)
        .filter(|i| evidence.binary_search(i).is_err())
        .collect();
    let rest_inputs: Vec<Vec<f32>> = rest
        .iter()
        .map(|&i| cell_input_upright(&inputs_in_image[i], quarter_turns))
        .collect();
    let rest_readings = if rest.is_empty() {
        Vec::new()
    } else {
        classify(&rest_inputs)?
    };
    let readings: Vec<CellReading> = (0..81)
        .map(|p| {
            let i = cell_index_in_image(p, quarter_turns);
            match evidence.binary_search(&i) {
                Ok(slot) => per_turn[best - 1][slot].clone(),
                Err(_) => match rest.binary_search(&i) {
                    Ok(slot) if rest_readings.len() == rest.len() => rest_readings[slot].clone(),
                    _ => upright[i].clone(),
                },
            }
        })
        .collect();
    // A grid read in the wrong turn is a jumble of misread glyphs and repeats digits in its
    // houses; a blurred but upright grid read unsurely (small print in a webcam frame) may
    // still score lower than such a jumble. The turn must not repeat more digits than upright.
    if repeats(&readings) > repeats(&upright) {
        return Ok(keep_upright(upright));
    }
    Ok(Oriented {
        quarter_turns,
        readings,
    })
}

/// How many readings are not empty (digits or pencil marks).
fn non_empty_count<'a>(readings: impl IntoIterator<Item = &'a CellReading>) -> usize {
    readings
        .into_iter()
        .filter(|r| r.class != CellClass::Empty)
        .count()
}

/// How many pairs of cells repeat a digit in a house, for 81 readings row-major.
fn repeats(readings: &[CellReading]) -> usize {
    conflicts_of(&read_values(readings)).len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::NUM_CLASSES;
    use image::{GrayImage, Luma, imageops};

    #[test]
    fn a_quarter_turn_moves_the_top_left_to_the_top_right() {
        assert_eq!(turned(0, 0, 10, 1), (0, 9));
        assert_eq!(turned(0, 0, 10, 2), (9, 9));
        assert_eq!(turned(0, 0, 10, 3), (9, 0));
        // The puzzle's top row runs down the image's right column.
        assert_eq!(turned(0, 4, 9, 1), (4, 8));
        // Four quarter turns are none; each turn is a permutation of the cells.
        for k in 0..4u8 {
            let mut seen = [false; 81];
            for i in 0..81 {
                let j = cell_index_in_image(i, k);
                assert!(!seen[j]);
                seen[j] = true;
                let (mut r, mut c) = (i / 9, i % 9);
                for _ in 0..4 {
                    (r, c) = turned(r, c, 9, k);
                }
                assert_eq!((r, c), (i / 9, i % 9));
            }
        }
    }

    #[test]
    fn turned_lattice_puts_the_puzzle_corners_first() {
        let lattice_in_image: [[Point; 10]; 10] =
            std::array::from_fn(|r| std::array::from_fn(|c| Point::new(c as f32, r as f32)));
        let as_read = lattice_as_read(&lattice_in_image, 1);
        // Turned clockwise: the puzzle's top-left is the image's top-right, its top-right the
        // image's bottom-right.
        assert_eq!(as_read[0][0], Point::new(9.0, 0.0));
        assert_eq!(as_read[0][9], Point::new(9.0, 9.0));
        assert_eq!(as_read[9][0], Point::new(0.0, 0.0));
        assert_eq!(lattice_as_read(&lattice_in_image, 0), lattice_in_image);
    }

    /// A cell input with one ink blob near the top-left, as a `GrayImage` (ink dark).
    fn marked_cell() -> GrayImage {
        let mut img = GrayImage::from_pixel(CELL_INPUT_PX, CELL_INPUT_PX, Luma([255]));
        for y in 2..9 {
            for x in 3..6 {
                img.put_pixel(x, y, Luma([0]));
            }
        }
        img
    }

    fn as_input(img: &GrayImage) -> Vec<f32> {
        img.pixels()
            .map(|p| 1.0 - f32::from(p.0[0]) / 255.0)
            .collect()
    }

    #[test]
    fn cell_inputs_turn_back_upright() {
        let upright = marked_cell();
        let mut in_image = upright.clone();
        for k in 0..4u8 {
            // `rotate90` turns the pixels clockwise, as the photo was turned.
            assert_eq!(
                cell_input_upright(&as_input(&in_image), k),
                as_input(&upright),
                "{k}"
            );
            in_image = imageops::rotate90(&in_image);
        }
    }

    /// A stand-in model: a cell whose ink blob sits in the top-left quadrant reads as digit
    /// `1 + (index of the blob's row) % 9` with probability 0.99; ink elsewhere reads as
    /// a 50/50 guess; no ink reads as surely empty.
    fn fake_classify(cells: &[Vec<f32>]) -> Result<Vec<CellReading>, ()> {
        let n = CELL_INPUT_PX as usize;
        Ok(cells
            .iter()
            .map(|c| {
                let mut p = [0.0f32; NUM_CLASSES];
                let ink: Vec<usize> = (0..c.len()).filter(|&i| c[i] > 0.5).collect();
                match ink.first() {
                    None => p[0] = 1.0,
                    Some(&i) if i / n < n / 2 && i % n < n / 2 => {
                        p[1 + (i / n) % 9] = 0.99;
                        p[0] = 0.01;
                    }
                    Some(_) => {
                        p[5] = 0.5;
                        p[6] = 0.5;
                    }
                }
                CellReading::from_probabilities(p)
            })
            .collect())
    }

    #[test]
    fn picks_the_turn_that_reads_the_digits_and_reorders_the_cells() {
        let blank = vec![0.0f32; CELL_INPUT_PX as usize * CELL_INPUT_PX as usize];
        // Digits in the puzzle's first row and on its diagonal.
        let puzzle_has_digit = |p: usize| p < 9 || p.is_multiple_of(10);
        for k in 0..4u8 {
            let mut cell_in_image = marked_cell();
            for _ in 0..k {
                cell_in_image = imageops::rotate90(&cell_in_image);
            }
            let mut inputs_in_image = vec![blank.clone(); 81];
            for p in (0..81).filter(|&p| puzzle_has_digit(p)) {
                inputs_in_image[cell_index_in_image(p, k)] = as_input(&cell_in_image);
            }
            let upright = fake_classify(&inputs_in_image).unwrap();
            let mut calls = 0;
            let oriented = orient(&inputs_in_image, upright, |c| {
                calls += 1;
                fake_classify(c)
            })
            .unwrap();
            assert_eq!(oriented.quarter_turns, k);
            // Upright and sure: no second model run; turned: the vote's batch, then the
            // cells left out of the vote, turned back.
            assert_eq!(calls, if k == 0 { 0 } else { 2 });
            for (p, r) in oriented.readings.iter().enumerate() {
                assert_eq!(r.class == CellClass::Empty, !puzzle_has_digit(p), "{k} {p}");
            }
        }
    }

    #[test]
    fn an_unsure_turn_does_not_replace_an_unsure_upright_reading() {
        let input = vec![0.5f32; CELL_INPUT_PX as usize * CELL_INPUT_PX as usize];
        let digit_at = |p: f32| {
            let mut probs = [(1.0 - p) / 10.0; NUM_CLASSES];
            probs[4] = p;
            CellReading::from_probabilities(probs)
        };
        let upright = vec![digit_at(0.5); 81];
        // Every turn reads better than upright, but none is sure enough to take over.
        let oriented = orient(&vec![input; 81], upright.clone(), |c| {
            Ok::<_, ()>(vec![digit_at(0.65); c.len()])
        })
        .unwrap();
        assert_eq!(oriented.quarter_turns, 0);
        assert_eq!(oriented.readings, upright);
    }

    /// A webcam frame of small blurred print (`synth print --camera webcam`) read its digits
    /// unsurely upright, and more surely upside down as a jumble of repeated digits.
    #[test]
    fn a_turn_that_repeats_digits_does_not_replace_an_upright_reading() {
        let input = vec![0.5f32; CELL_INPUT_PX as usize * CELL_INPUT_PX as usize];
        let digit = |d: usize, p: f32| {
            let mut probs = [(1.0 - p) / 10.0; NUM_CLASSES];
            probs[d] = p;
            CellReading::from_probabilities(probs)
        };
        // Upright: the first row reads 1–9, unsurely, and nothing else is written.
        let upright: Vec<CellReading> = (0..81)
            .map(|i| {
                if i < 9 {
                    digit(i + 1, 0.6)
                } else {
                    digit(0, 0.9)
                }
            })
            .collect();
        // Turned: surer, but the row reads 8 eight times.
        let oriented = orient(&vec![input; 81], upright.clone(), |c| {
            Ok::<_, ()>(vec![digit(8, 0.95); c.len()])
        })
        .unwrap();
        assert_eq!(oriented.quarter_turns, 0);
        assert_eq!(oriented.readings, upright);
    }

    /// A 640×480 webcam frame of a wichtounet-v2 photo (blurred small print) read its digits
    /// unsurely upright, and more surely a quarter turn away, where the sideways glyphs read
    /// as empty cells: 30 cells came out wrong.
    #[test]
    fn a_turn_that_reads_the_ink_as_empty_does_not_replace_an_upright_reading() {
        let input = vec![0.5f32; CELL_INPUT_PX as usize * CELL_INPUT_PX as usize];
        let digit = |d: usize, p: f32| {
            let mut probs = [(1.0 - p) / 10.0; NUM_CLASSES];
            probs[d] = p;
            CellReading::from_probabilities(probs)
        };
        // Upright: the first row reads 1–9 unsurely, the rest is empty.
        let upright: Vec<CellReading> = (0..81)
            .map(|i| {
                if i < 9 {
                    digit(i + 1, 0.6)
                } else {
                    digit(0, 0.9)
                }
            })
            .collect();
        // Turned: every cell surely empty, which repeats nothing and scores higher.
        let all_empty = |c: &[Vec<f32>]| Ok::<_, ()>(vec![digit(0, 0.99); c.len()]);
        let oriented = orient(&vec![input.clone(); 81], upright.clone(), all_empty).unwrap();
        assert_eq!(oriented.quarter_turns, 0);
        assert_eq!(oriented.readings, upright);
        // The same turn reading half of the digits as digits is a turn the ink allows.
        let half_inked = |c: &[Vec<f32>]| {
            Ok::<_, ()>(
                (0..c.len())
                    .map(|i| match i % 81 {
                        j @ 0..5 => digit(j + 1, 0.99),
                        _ => digit(0, 0.99),
                    })
                    .collect(),
            )
        };
        let oriented = orient(&vec![input; 81], upright, half_inked).unwrap();
        assert_ne!(oriented.quarter_turns, 0);
    }

    #[test]
    fn scores_prefer_confident_readings() {
        let sure = CellReading::from_probabilities({
            let mut p = [0.0; NUM_CLASSES];
            p[3] = 1.0;
            p
        });
        let unsure = CellReading::from_probabilities({
            let mut p = [0.0; NUM_CLASSES];
            p[3] = 0.6;
            p[8] = 0.4;
            p
        });
        assert_eq!(reading_score([&sure]), Some(0.0));
        assert!(reading_score([&sure, &unsure]).unwrap() < -0.2);
        assert_eq!(reading_score([]), None);
    }
}
