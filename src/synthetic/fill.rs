//! Filled-in pages: a real photo of a puzzle with one writer's handwriting added in its empty
//! cells, the solution's digits, drawn in perspective through the photo's grid corners.
//!
//! The shared half-done photos are mostly early in the game (kubiesa-train: 36 digits a photo),
//! while a user's page is often far along or finished: a grid full of handwriting is what a
//! webcam then has to find and read (digits touching thin lines, ink between every pair of
//! lines). This makes such pages from any photo set with corners and labels, for testing
//! detection and reading on them (and, through `synth webcam`, on webcam frames of them). The
//! strokes are [`handwriting`]'s, placed by the homography of the labelled corners (a flat
//! page: the photo's own curl is not followed), and inked over the photo multiplicatively so
//! the page's shading stays. A pure function of the inputs and the [`Rng`]; it knows nothing
//! of detection or reading.

use image::RgbImage;

use super::Rng;
use super::handwriting::{self, Pen, Writer};
use crate::sudoku::solver::solve_values;
use crate::vision::{Homography, Point};

/// A photo with handwriting added.
pub struct FilledPhoto {
    /// The photo with the new digits inked in.
    pub image: RgbImage,
    /// Its labels: the photo's, with every cell written in now holding its digit.
    pub labels: [u8; 81],
    /// How many cells were written in.
    pub written: usize,
}

/// Writes the solution's digit into each empty or pencil-marked cell (label 0 or 10) of the
/// photo `image`, each with probability `share`, in one random writer's hand. `corners` are
/// the grid's outer corners in `image` (TL, TR, BR, BL), `labels` its 81 labels. `None` when
/// the labels have no solution (a misread or unfinished label file) or the corners are
/// degenerate.
pub fn fill_photo(
    image: &RgbImage,
    corners: [Point; 4],
    labels: &[u8; 81],
    share: f32,
    rng: &mut Rng,
) -> Option<FilledPhoto> {
    fill_photo_with_pens(image, corners, labels, share, &[], 0.0, rng)
}

/// [`fill_photo`] by a writer whose pen is one of `pens` (any pen when empty; see
/// [`Writer::random_with_pen`]): pages finished in ink only, say, or in pencil only. Each
/// written cell is a mistake with probability `mistakes`: another digit than the solution's,
/// drawn evenly from the other eight (labelled as written). With `mistakes` 0 the pages are
/// those of the same `rng` without the option.
pub fn fill_photo_with_pens(
    image: &RgbImage,
    corners: [Point; 4],
    labels: &[u8; 81],
    share: f32,
    pens: &[Pen],
    mistakes: f32,
    rng: &mut Rng,
) -> Option<FilledPhoto> {
    let digits: [u8; 81] = std::array::from_fn(|i| if labels[i] <= 9 { labels[i] } else { 0 });
    let solution = solve_values(&digits, 1).first?;
    let to_image = Homography::from_unit_square(corners)?;
    let side_px = (corners[0].distance(corners[1])
        + corners[1].distance(corners[2])
        + corners[2].distance(corners[3])
        + corners[3].distance(corners[0]))
        / 4.0;
    let cell_px = side_px / 9.0;
    let writer = Writer::random_with_pen(rng, pens);
    let (w, h) = (image.width() as usize, image.height() as usize);
    let mut coverage = vec![0.0f32; w * h];
    let mut out_labels = *labels;
    let mut written = 0;
    for (i, label) in out_labels.iter_mut().enumerate() {
        if !(*label == 0 || *label == 10) || !rng.chance(share) {
            continue;
        }
        let digit = if mistakes > 0.0 && rng.chance(mistakes) {
            // One of the eight other digits, evenly.
            (solution[i] + rng.between(1, 8) as u8 - 1) % 9 + 1
        } else {
            solution[i]
        };
        let strokes = writer.strokes(digit, rng);
        let height = writer.height * rng.range(0.9, 1.1);
        // The cell's centre in grid units (cells), where the writer habitually puts digits.
        let (row, col) = ((i / 9) as f32, (i % 9) as f32);
        let cx = col + 0.5 + writer.offset.0 + 0.03 * rng.normal();
        let cy = row + 0.5 + writer.offset.1 + 0.03 * rng.normal();
        handwriting::rasterize(
            &strokes,
            |(x, y)| {
                let p =
                    to_image.apply(Point::new((cx + x * height) / 9.0, (cy + y * height) / 9.0));
                (p.x, p.y)
            },
            handwriting::Nib {
                width_px: (writer.stroke * height * cell_px).max(1.0),
                pressure: 0.25,
            },
            rng,
            &mut coverage,
            w,
            h,
        );
        *label = digit;
        written += 1;
    }
    let ink = pen_colour(writer.pen, rng);
    let grain = writer.pen == Pen::Pencil;
    let mut out = image.clone();
    for (p, &c) in out.pixels_mut().zip(&coverage) {
        if c <= 0.0 {
            continue;
        }
        let mut a = writer.darkness * c.min(1.0);
        if grain {
            a *= rng.range(0.55, 1.0);
        }
        // Ink absorbs light: the page's shading (a shadow, the light's gradient) stays.
        for (v, k) in p.0.iter_mut().zip(ink) {
            let absorbed = 1.0 - a * (1.0 - k);
            *v = (*v as f32 * absorbed).round().clamp(0.0, 255.0) as u8;
        }
    }
    Some(FilledPhoto {
        image: out,
        labels: out_labels,
        written,
    })
}

/// The share of each colour channel the pen's ink lets through.
fn pen_colour(pen: Pen, rng: &mut Rng) -> [f32; 3] {
    match pen {
        Pen::Black => [0.12, 0.12, 0.15],
        Pen::Blue => [
            rng.range(0.1, 0.25),
            rng.range(0.2, 0.35),
            rng.range(0.6, 0.8),
        ],
        Pen::Pencil => [0.35, 0.35, 0.37],
        Pen::Felt => *rng
            .choose(&[[0.08, 0.08, 0.1], [0.1, 0.15, 0.55], [0.1, 0.4, 0.15]])
            .unwrap_or(&[0.08, 0.08, 0.1]),
    }
}

#[cfg(test)]
mod tests {
    use image::Rgb;

    use super::*;

    /// A puzzle's labels: the first row of a solution given, the rest empty but for one
    /// pencil-mark cell.
    fn labels() -> [u8; 81] {
        let mut labels = [0u8; 81];
        labels[..9].copy_from_slice(&[5, 3, 4, 6, 7, 8, 9, 1, 2]);
        labels[40] = 10;
        labels
    }

    fn corners() -> [Point; 4] {
        [
            Point::new(20.0, 30.0),
            Point::new(300.0, 20.0),
            Point::new(310.0, 300.0),
            Point::new(15.0, 290.0),
        ]
    }

    #[test]
    fn writes_a_consistent_solution_into_every_empty_cell_and_inks_them() {
        let paper = RgbImage::from_pixel(330, 320, Rgb([230, 225, 210]));
        let mut rng = Rng::new(7);
        let filled = fill_photo(&paper, corners(), &labels(), 1.0, &mut rng).expect("a solution");
        assert_eq!(filled.written, 72);
        assert!(filled.labels.iter().all(|&l| (1..=9).contains(&l)));
        assert_eq!(
            filled.labels[..9],
            labels()[..9],
            "the photo's digits are kept"
        );
        let values = filled.labels;
        assert_eq!(
            crate::sudoku::solver::count_values(&values, 2),
            1,
            "the labels are a solved grid"
        );
        // Every written cell has ink near its centre; the given row's cells have none.
        let h = Homography::from_unit_square(corners()).unwrap();
        let darkest_near = |row: usize, col: usize| {
            let c = h.apply(Point::new(
                (col as f32 + 0.5) / 9.0,
                (row as f32 + 0.5) / 9.0,
            ));
            let mut darkest = 255u8;
            for dy in -8..=8 {
                for dx in -8..=8 {
                    let (x, y) = ((c.x as i32 + dx) as u32, (c.y as i32 + dy) as u32);
                    darkest = darkest.min(filled.image.get_pixel(x, y).0[1]);
                }
            }
            darkest
        };
        assert_eq!(darkest_near(0, 4), 225, "a given's cell is left alone");
        let inked = (9..81)
            .filter(|&i| darkest_near(i / 9, i % 9) < 190)
            .count();
        assert!(inked >= 70, "only {inked} of 72 written cells are inked");
    }

    #[test]
    fn same_seed_same_page_and_share_zero_writes_nothing() {
        let paper = RgbImage::from_pixel(330, 320, Rgb([230, 225, 210]));
        let a = fill_photo(&paper, corners(), &labels(), 0.5, &mut Rng::new(3)).unwrap();
        let b = fill_photo(&paper, corners(), &labels(), 0.5, &mut Rng::new(3)).unwrap();
        assert_eq!(a.image, b.image);
        assert_eq!(a.labels, b.labels);
        let none = fill_photo(&paper, corners(), &labels(), 0.0, &mut Rng::new(3)).unwrap();
        assert_eq!(none.written, 0);
        assert_eq!(none.image, paper);
        assert_eq!(none.labels, labels());
    }

    #[test]
    fn mistakes_write_other_digits_than_the_solution_s_and_label_them_as_written() {
        let paper = RgbImage::from_pixel(330, 320, Rgb([230, 225, 210]));
        let digits: [u8; 81] = std::array::from_fn(|i| labels()[i] % 10);
        let solution = solve_values(&digits, 1).first.expect("a solution");
        let all = fill_photo_with_pens(
            &paper,
            corners(),
            &labels(),
            1.0,
            &[],
            1.0,
            &mut Rng::new(5),
        )
        .expect("a solution");
        assert_eq!(all.written, 72);
        for (i, (&written, &right)) in all.labels.iter().zip(&solution).enumerate().skip(9) {
            assert!((1..=9).contains(&written));
            assert_ne!(written, right, "cell {i} holds the solution's digit");
        }
        let none = fill_photo_with_pens(
            &paper,
            corners(),
            &labels(),
            0.5,
            &[],
            0.0,
            &mut Rng::new(3),
        )
        .expect("a solution");
        let plain =
            fill_photo(&paper, corners(), &labels(), 0.5, &mut Rng::new(3)).expect("a solution");
        assert_eq!(
            none.image, plain.image,
            "no mistakes: the page of the same seed"
        );
        assert_eq!(none.labels, plain.labels);
    }

    #[test]
    fn labels_without_a_solution_give_none() {
        let mut labels = labels();
        labels[9] = 5; // a second 5 in column 1
        let paper = RgbImage::from_pixel(330, 320, Rgb([230, 225, 210]));
        assert!(fill_photo(&paper, corners(), &labels, 1.0, &mut Rng::new(1)).is_none());
    }
}
