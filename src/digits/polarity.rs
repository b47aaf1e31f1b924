//! Ink polarity settled by reading: when the ink masses of a grid's cells do not say clearly
//! whether its digits are dark on light or light on dark (`vision::PolarityEvidence`), the
//! cells are normalized both ways and read both ways, and the polarity that reads more surely
//! wins.
//!
//! Why: the masses are measured against each cell's median, and in a blurred webcam frame of a
//! page with bold digits that fill the cell's middle, or with shaded boxes, the median is ink
//! and the paper around the strokes counts as light ink: such a page can weigh out as light on
//! dark. Read inverted, its thin strokes and light digits are lost (a printed page read 63 of
//! 81 cells right). The model itself tells which way reads as digits.
//!
//! Owns the choice, not the masses (`vision::normalize`) nor the model (the caller passes the
//! classify function). Clear grids (every photo of the shared sets, 199 of 200 screenshots)
//! pay nothing.

use image::GrayImage;

use super::CellReading;
use super::orientation::reading_score;
use crate::vision::{Polarity, PolarityEvidence, normalize_cells_as};

/// A grid's cells as the classifier reads them, in the polarity chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    /// The normalized inputs, one per crop.
    pub inputs: Vec<Vec<f32>>,
    /// Their readings.
    pub readings: Vec<CellReading>,
    /// The polarity they were normalized in.
    pub polarity: Polarity,
}

/// Normalizes and reads a grid's cell `crops` in the polarity their ink masses give; when the
/// masses are not clear ([`PolarityEvidence::is_clear`]), also in the other polarity, keeping
/// whichever reads with the better [`reading_score`] over all cells (ties keep the masses'
/// choice).
pub fn read_in_clearer_polarity<E>(
    crops: &[GrayImage],
    mut classify: impl FnMut(&[Vec<f32>]) -> Result<Vec<CellReading>, E>,
) -> Result<Read, E> {
    let evidence = PolarityEvidence::of(crops);
    let polarity = evidence.polarity();
    let inputs = normalize_cells_as(crops, polarity);
    let readings = classify(&inputs)?;
    let first = Read {
        inputs,
        readings,
        polarity,
    };
    if evidence.is_clear() {
        return Ok(first);
    }
    let polarity = polarity.other();
    let inputs = normalize_cells_as(crops, polarity);
    let readings = classify(&inputs)?;
    let other = Read {
        inputs,
        readings,
        polarity,
    };
    let score = |r: &Read| reading_score(&r.readings).unwrap_or(f64::NEG_INFINITY);
    tracing::debug!(
        masses = ?evidence,
        first = score(&first),
        other = score(&other),
        "ink polarity unclear: read both ways"
    );
    Ok(if score(&other) > score(&first) {
        other
    } else {
        first
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A 40-px cell of paper `paper` with a `ring`-px square of ink `ring_ink` in its middle
    /// and a `core`-px square of ink `core_ink` inside that.
    fn cell(paper: u8, (ring_ink, ring): (u8, u32), (core_ink, core): (u8, u32)) -> GrayImage {
        let mut c = GrayImage::from_pixel(40, 40, Luma([paper]));
        for (ink, size) in [(ring_ink, ring), (core_ink, core)] {
            let lo = 20 - size / 2;
            for y in lo..lo + size {
                for x in lo..lo + size {
                    c.put_pixel(x, y, Luma([ink]));
                }
            }
        }
        c
    }

    /// A fake model: sure of a cell whose input's middle is ink (near 1), unsure otherwise.
    fn classify(inputs: &[Vec<f32>]) -> Result<Vec<CellReading>, ()> {
        Ok(inputs
            .iter()
            .map(|v| {
                let middle = v[16 * 32 + 16];
                let mut p = [0.01; 11];
                p[if middle > 0.5 { 1 } else { 0 }] = if middle > 0.5 { 0.9 } else { 0.5 };
                CellReading::from_probabilities(p)
            })
            .collect())
    }

    /// [`read_in_clearer_polarity`] with the fake model, and how many times it ran.
    fn read_counting_runs(crops: &[GrayImage]) -> (Read, usize) {
        let mut runs = 0;
        let read = read_in_clearer_polarity(crops, |c| {
            runs += 1;
            classify(c)
        })
        .unwrap();
        (read, runs)
    }

    #[test]
    fn clear_masses_are_read_once() {
        // Small dark marks on white paper: dark on light, one model run.
        let crops: Vec<GrayImage> = (0..81).map(|_| cell(230, (20, 6), (20, 6))).collect();
        let (read, runs) = read_counting_runs(&crops);
        assert_eq!(runs, 1);
        assert_eq!(read.polarity, Polarity::DarkOnLight);
    }

    #[test]
    fn unclear_masses_are_settled_by_the_better_reading() {
        // Bold marks that fill most of a cell's middle (a 14-px core inside an 18-px square of
        // lighter ink) weigh mostly as light ink: measured against the middle's median, which is
        // ink, the paper around them is lighter. With a third of the cells holding smaller
        // solid marks, the masses tip the wrong way, but not clearly.
        let page = |paper: u8, core: u8, ring: u8, small: u8| -> Vec<GrayImage> {
            (0..81)
                .map(|i| {
                    if i % 3 == 0 {
                        cell(paper, (small, 14), (small, 14))
                    } else {
                        cell(paper, (ring, 18), (core, 14))
                    }
                })
                .collect()
        };
        let crops = page(230, 0, 60, 20);
        let evidence = PolarityEvidence::of(&crops);
        assert!(!evidence.is_clear(), "{evidence:?}");
        assert_eq!(evidence.polarity(), Polarity::LightOnDark, "{evidence:?}");
        let (read, runs) = read_counting_runs(&crops);
        assert_eq!(runs, 2);
        assert_eq!(read.polarity, Polarity::DarkOnLight);
        assert!(read.readings.iter().all(|r| r.class.value() == 1));
        assert_eq!(
            read.inputs,
            normalize_cells_as(&crops, Polarity::DarkOnLight)
        );
        // The same page inverted (light marks on a dark ground) reads light on dark.
        let read = read_in_clearer_polarity(&page(25, 255, 195, 235), classify).unwrap();
        assert_eq!(read.polarity, Polarity::LightOnDark);
    }
}
