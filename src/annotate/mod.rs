//! Writing the solution onto the paper: the annotated PNG ([`annotate_photo`]: the photo with
//! the solution written into the empty cells through the lattice; [`render_board`]: for a typed
//! puzzle, a clean board with givens in black and the solution in blue), and the two pieces the
//! app's live overlay shares with it — the stroke digit font ([`strokes`]) and grid-to-image
//! [`projection`].
//!
//! Plain `image` buffers, no egui: the app draws the same strokes through the same projection
//! with its own painter.

pub mod projection;
pub mod strokes;

use image::{Rgb, RgbImage};
use imageproc::drawing::draw_filled_circle_mut;

use crate::vision::{Lattice, Point};

use projection::{image_from_grid, square_lattice};
use strokes::digit_strokes;

/// Colour of solution digits.
const SOLUTION_RGB: Rgb<u8> = Rgb([20, 90, 230]);
/// Colour of clue digits on a rendered board.
const CLUE_RGB: Rgb<u8> = Rgb([0, 0, 0]);
/// Colour of grid lines on a rendered board.
const LINE_RGB: Rgb<u8> = Rgb([60, 60, 60]);

/// What to draw.
#[derive(Clone, Copy, Debug)]
pub struct Annotation<'a> {
    /// The board's values (0 empty): cells filled here are not overwritten.
    pub values: &'a [u8; 81],
    /// The solution to write into the empty cells, if solved.
    pub solution: Option<&'a [u8; 81]>,
}

/// Draws `annotation` onto a copy of `photo` through `lattice`.
pub fn annotate_photo(photo: &RgbImage, lattice: &Lattice, annotation: Annotation<'_>) -> RgbImage {
    let mut out = photo.clone();
    let width = (lattice.mean_side() / 9.0 * 0.07).clamp(1.0, 6.0);
    if let Some(solution) = annotation.solution {
        draw_digits(
            &mut out,
            lattice,
            annotation.values,
            solution,
            width,
            SOLUTION_RGB,
        );
    }
    out
}

/// Renders the board alone, `side_px` pixels square.
pub fn render_board(side_px: u32, annotation: Annotation<'_>) -> RgbImage {
    let side_px = side_px.max(90);
    let mut out = RgbImage::from_pixel(side_px, side_px, Rgb([255, 255, 255]));
    let margin = side_px as f32 * 0.03;
    let lattice = square_lattice(margin, margin, side_px as f32 - 2.0 * margin);
    for i in 0..10 {
        let w = if i % 3 == 0 { 2.0 } else { 0.6 };
        let t = i as f32;
        stroke(
            &mut out,
            &[
                image_from_grid(&lattice, t, 0.0),
                image_from_grid(&lattice, t, 9.0),
            ],
            w,
            LINE_RGB,
        );
        stroke(
            &mut out,
            &[
                image_from_grid(&lattice, 0.0, t),
                image_from_grid(&lattice, 9.0, t),
            ],
            w,
            LINE_RGB,
        );
    }
    let width = side_px as f32 / 9.0 * 0.06;
    let no_values = [0u8; 81];
    draw_digits(
        &mut out,
        &lattice,
        &no_values,
        annotation.values,
        width,
        CLUE_RGB,
    );
    if let Some(solution) = annotation.solution {
        draw_digits(
            &mut out,
            &lattice,
            annotation.values,
            solution,
            width,
            SOLUTION_RGB,
        );
    }
    out
}

/// Writes `digits[i]` into every cell where `skip[i]` is 0.
fn draw_digits(
    img: &mut RgbImage,
    lattice: &Lattice,
    skip: &[u8; 81],
    digits: &[u8; 81],
    width: f32,
    color: Rgb<u8>,
) {
    for (i, (&skipped, &digit)) in skip.iter().zip(digits).enumerate() {
        if skipped != 0 || digit == 0 {
            continue;
        }
        let (row, col) = ((i / 9) as f32, (i % 9) as f32);
        for line in digit_strokes(digit) {
            let pts: Vec<Point> = line
                .iter()
                .map(|&(u, v)| image_from_grid(lattice, col + u, row + v))
                .collect();
            stroke(img, &pts, width, color);
        }
    }
}

/// Draws a polyline `width` pixels wide by stamping discs.
fn stroke(img: &mut RgbImage, pts: &[Point], width: f32, color: Rgb<u8>) {
    let radius = (width / 2.0).round().max(0.0) as i32;
    for pair in pts.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let steps = a.distance(b).ceil().max(1.0) as usize;
        for s in 0..=steps {
            let p = a.lerp(b, s as f32 / steps as f32);
            if p.is_finite() {
                draw_filled_circle_mut(
                    img,
                    (p.x.round() as i32, p.y.round() as i32),
                    radius,
                    color,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solution_ink_lands_only_in_empty_cells() {
        let mut values = [0u8; 81];
        values[0] = 5;
        let mut solution = [0u8; 81];
        solution[0] = 5;
        solution[80] = 7;
        let img = render_board(
            270,
            Annotation {
                values: &values,
                solution: Some(&solution),
            },
        );
        let lattice = square_lattice(270.0 * 0.03, 270.0 * 0.03, 270.0 * 0.94);
        let ink_in = |cell: usize, rgb: Rgb<u8>| {
            let [tl, _, br, _] = lattice.cell_quad(cell / 9, cell % 9);
            let mut n = 0;
            for y in (tl.y as u32 + 3)..(br.y as u32 - 2) {
                for x in (tl.x as u32 + 3)..(br.x as u32 - 2) {
                    n += usize::from(*img.get_pixel(x, y) == rgb);
                }
            }
            n
        };
        assert!(ink_in(0, CLUE_RGB) > 10, "the given 5 is drawn in black");
        assert_eq!(ink_in(0, SOLUTION_RGB), 0, "no solution ink over a given");
        assert!(
            ink_in(80, SOLUTION_RGB) > 10,
            "the solution 7 is drawn in blue"
        );
        assert_eq!(ink_in(40, SOLUTION_RGB) + ink_in(40, CLUE_RGB), 0);
    }

    #[test]
    fn photo_annotation_follows_the_lattice() {
        let photo = RgbImage::from_pixel(200, 200, Rgb([255, 255, 255]));
        let lattice = Lattice::from_corners([
            Point::new(20.0, 20.0),
            Point::new(180.0, 30.0),
            Point::new(170.0, 180.0),
            Point::new(30.0, 170.0),
        ]);
        let values = [0u8; 81];
        let mut solution = [0u8; 81];
        solution[40] = 8;
        let out = annotate_photo(
            &photo,
            &lattice,
            Annotation {
                values: &values,
                solution: Some(&solution),
            },
        );
        let c = lattice.cell_centre(4, 4);
        let near = |p: (u32, u32)| ((p.0 as f32 - c.x).powi(2) + (p.1 as f32 - c.y).powi(2)).sqrt();
        let blue: Vec<(u32, u32)> = out
            .enumerate_pixels()
            .filter(|(_, _, px)| **px == SOLUTION_RGB)
            .map(|(x, y, _)| (x, y))
            .collect();
        assert!(!blue.is_empty());
        assert!(
            blue.iter().all(|&p| near(p) < 12.0),
            "all ink within the centre cell"
        );
    }
}
