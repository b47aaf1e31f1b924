//! A second look at the cells a still picture's first reading doubts: each is cut again along
//! the lattice moved a little four ways (left, right, up, down), read again, and its
//! probabilities become the mean of the five readings.
//!
//! Why: a cell is cut along a lattice that is off by a pixel or two somewhere (a webcam frame's
//! blur, a bent page, 17-px cells), and a digit that touches the cut's edge, or a grid line
//! that reaches into it, is what the model most often misreads. Readings of a few cuts around
//! the lattice disagree where one cut was unlucky; their mean follows the cuts that see the
//! glyph whole. Sure cells are left alone, so a clean picture costs nothing more.
//!
//! Owns which cells get a second look, the shifts, and how readings are combined. It does not
//! cut cells (the caller passes a function that cuts given cells along a shifted lattice, as
//! `vision::rectify::cell_inputs_of` does) nor run the model (the caller passes the classify
//! function), so the rule is testable without either. The live path does not use it:
//! there, readings of successive frames are already averaged (`live::votes`). Tried there at
//! stop 42 (every read of a settled turn): no wrong overlay, but fewer dev clips shown right
//! within 0.5 s (158 → 155 of 165).

use super::CellReading;
use super::orientation::{cell_index_in_image, cell_input_upright};

/// A reading whose top probability is below this gets a second look. Chosen on dev sets
/// (printed pages and screenshots in fonts never trained on, webcam frames, the training parts
/// of the handwriting sets): 0.97 and 0.999 gave the same boards, 0.97 re-reads fewer cells.
pub const DOUBTFUL_BELOW: f32 = 0.97;

/// How far the lattice is moved for each second cut, in cell sides. 0.06 of a cell is a
/// pixel or two at webcam sizes: within the detector's usual error, small enough that a
/// neighbour's digit does not come in. 0.08 and 0.1 read the same on the dev sets.
pub const SHIFT_CELLS: f32 = 0.06;

/// The four moves of the lattice, in cell sides along its rows and columns.
pub const SHIFTS: [(f32, f32); 4] = [
    (-SHIFT_CELLS, 0.0),
    (SHIFT_CELLS, 0.0),
    (0.0, -SHIFT_CELLS),
    (0.0, SHIFT_CELLS),
];

/// The indices of the readings whose confidence is below [`DOUBTFUL_BELOW`], in order: the
/// cells a second look (and `second_opinion`'s second model) reads again.
pub fn doubtful_cells(readings: &[CellReading]) -> Vec<usize> {
    (0..readings.len())
        .filter(|&i| readings[i].confidence < DOUBTFUL_BELOW)
        .collect()
}

/// Gives every reading of `readings` (81, as the puzzle reads, in a picture where the puzzle
/// appears turned `quarter_turns` clockwise) whose confidence is below [`DOUBTFUL_BELOW`] a
/// second look: `cut_shifted(dx, dy, cells)` cuts the inputs of `cells` (row-major indices in
/// the image, in that order) along the lattice moved by `(dx, dy)` cell sides, `classify`
/// reads a batch. The doubtful cells' readings
/// become the mean of their first reading and the four shifted ones (the first reading's
/// `handwritten` is kept). Returns how many cells were looked at again; readings that are not
/// 81, or cuts or batches of another length, leave everything as it was.
pub fn second_look<E>(
    readings: &mut [CellReading],
    quarter_turns: u8,
    mut cut_shifted: impl FnMut(f32, f32, &[usize]) -> Vec<Vec<f32>>,
    mut classify: impl FnMut(&[Vec<f32>]) -> Result<Vec<CellReading>, E>,
) -> Result<usize, E> {
    if readings.len() != 81 {
        return Ok(0);
    }
    let doubtful = doubtful_cells(readings);
    if doubtful.is_empty() {
        return Ok(0);
    }
    let in_image: Vec<usize> = doubtful
        .iter()
        .map(|&i| cell_index_in_image(i, quarter_turns))
        .collect();
    // One batch for the four cuts: the doubtful cells of each, turned upright.
    let mut batch = Vec::with_capacity(doubtful.len() * SHIFTS.len());
    for (dx, dy) in SHIFTS {
        let cut = cut_shifted(dx, dy, &in_image);
        if cut.len() != in_image.len() {
            return Ok(0);
        }
        batch.extend(cut.iter().map(|c| cell_input_upright(c, quarter_turns)));
    }
    let again = classify(&batch)?;
    if again.len() != batch.len() {
        return Ok(0);
    }
    let looks = (SHIFTS.len() + 1) as f32;
    for (slot, &i) in doubtful.iter().enumerate() {
        let mut sum = readings[i].probabilities;
        for shifted in again.iter().skip(slot).step_by(doubtful.len()) {
            for (s, p) in sum.iter_mut().zip(shifted.probabilities) {
                *s += p;
            }
        }
        let mut reading = CellReading::from_probabilities(sum.map(|s| s / looks));
        reading.handwritten = readings[i].handwritten;
        readings[i] = reading;
    }
    Ok(doubtful.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::NUM_CLASSES;

    fn reading(class: usize, p: f32) -> CellReading {
        let mut probabilities = [(1.0 - p) / (NUM_CLASSES - 1) as f32; NUM_CLASSES];
        probabilities[class] = p;
        CellReading::from_probabilities(probabilities)
    }

    /// Cell inputs that encode their image index and the cut's shift, for a fake classifier.
    fn cut(dx: f32, dy: f32, cells: &[usize]) -> Vec<Vec<f32>> {
        cells
            .iter()
            .map(|&i| {
                let mut v = vec![0.0; crate::vision::CELL_INPUT_LEN];
                v[0] = i as f32;
                v[1] = dx;
                v[2] = dy;
                v
            })
            .collect()
    }

    #[test]
    fn sure_cells_are_not_read_again() {
        let mut readings: Vec<CellReading> = (0..81).map(|_| reading(0, 0.99)).collect();
        let before = readings.clone();
        let looked = second_look(
            &mut readings,
            0,
            |_, _, _| panic!("no cut is needed"),
            |_: &[Vec<f32>]| -> Result<Vec<CellReading>, ()> { panic!("no read is needed") },
        );
        assert_eq!(looked, Ok(0));
        assert_eq!(readings, before);
    }

    #[test]
    fn a_doubtful_cell_takes_the_mean_of_five_readings() {
        // r3c4 reads 8 at 0.5 (3 next) upright; the shifted cuts read 3 at 0.9 but for one
        // (shifted right) that reads 8 at 0.9: the mean says 3.
        let mut readings: Vec<CellReading> = (0..81).map(|_| reading(0, 0.99)).collect();
        let cell = 2 * 9 + 3;
        let mut first = [0.0; NUM_CLASSES];
        first[8] = 0.5;
        first[3] = 0.4;
        first[0] = 0.1;
        readings[cell] = CellReading::from_probabilities(first);
        let mut seen = Vec::new();
        let looked = second_look(&mut readings, 0, cut, |batch: &[Vec<f32>]| {
            seen.extend(batch.iter().map(|v| (v[0] as usize, v[1], v[2])));
            Ok::<_, ()>(
                batch
                    .iter()
                    .map(|v| {
                        if v[1] > 0.0 {
                            reading(8, 0.9)
                        } else {
                            reading(3, 0.9)
                        }
                    })
                    .collect(),
            )
        });
        assert_eq!(looked, Ok(1));
        assert_eq!(seen.len(), 4, "one cell, four cuts, one batch");
        assert!(seen.iter().all(|&(i, _, _)| i == cell));
        let r = &readings[cell];
        assert_eq!(r.class.value(), 3);
        let expected_3 = (0.4 + 3.0 * 0.9 + 0.01) / 5.0;
        assert!((r.probabilities[3] - expected_3).abs() < 1e-5, "{r:?}");
        assert!((r.probabilities.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert_eq!(
            readings[0],
            reading(0, 0.99),
            "sure cells keep their reading"
        );
    }

    #[test]
    fn a_turned_grid_reads_the_cell_it_shows_turned_upright() {
        // Under a quarter turn the puzzle's r1c1 lies at the image's r1c9 (index 8), on its side.
        let mut readings: Vec<CellReading> = (0..81).map(|_| reading(0, 0.99)).collect();
        readings[0] = reading(5, 0.6);
        let mut cells = Vec::new();
        second_look(&mut readings, 1, cut, |batch: &[Vec<f32>]| {
            cells.extend(batch.iter().cloned());
            Ok::<_, ()>(batch.iter().map(|_| reading(5, 0.9)).collect())
        })
        .unwrap();
        let expected: Vec<Vec<f32>> = SHIFTS
            .iter()
            .map(|&(dx, dy)| cell_input_upright(&cut(dx, dy, &[8])[0], 1))
            .collect();
        assert_eq!(cells, expected);
        assert_ne!(
            cells[0],
            cut(SHIFTS[0].0, SHIFTS[0].1, &[8])[0],
            "turned upright"
        );
        assert_eq!(readings[0].class.value(), 5);
    }

    #[test]
    fn a_reading_that_is_not_81_cells_is_left_as_it_is() {
        let mut readings = vec![reading(4, 0.5); 9];
        let looked = second_look(&mut readings, 0, cut, |b: &[Vec<f32>]| {
            Ok::<_, ()>(b.iter().map(|_| reading(1, 0.99)).collect())
        });
        assert_eq!(looked, Ok(0));
        assert!(readings.iter().all(|r| r.probabilities[4] == 0.5));
    }
}
