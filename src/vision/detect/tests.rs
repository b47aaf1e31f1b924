//! Tests of the whole detection on drawn grids (a child module of `detect`, kept apart to hold
//! that file under ~600 lines), and the drawing helpers the stages' own tests share
//! ([`put_line`], [`draw_grid`]; `detect` imports them, so a stage's tests reach them as
//! `super::super::put_line`). Test code only: nothing here runs outside `cargo test`.

use image::Luma;

use super::*;

/// Draws a straight line `thick` px wide in gray level `v` (nearest pixels), for tests.
pub(super) fn put_line(img: &mut GrayImage, a: Point, b: Point, thick: f32, v: u8) {
    let len = a.distance(b).ceil() as usize * 2 + 1;
    for i in 0..=len {
        let q = a.lerp(b, i as f32 / len as f32);
        let t = thick / 2.0;
        let mut yy = (q.y - t).floor();
        while yy <= q.y + t {
            let mut xx = (q.x - t).floor();
            while xx <= q.x + t {
                if xx >= 0.0 && yy >= 0.0 && (xx as u32) < img.width() && (yy as u32) < img.height()
                {
                    img.put_pixel(xx as u32, yy as u32, image::Luma([v]));
                }
                xx += 1.0;
            }
            yy += 1.0;
        }
    }
}

/// Draws a 9×9 grid with corners `corners` in gray level 30: box lines `box_px` thick, thin
/// lines 1.5 px, for tests.
#[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
pub(super) fn draw_grid(img: &mut GrayImage, corners: [Point; 4], box_px: f32) {
    let p = Lattice::from_corners(corners).points_in_image;
    for i in 0..10 {
        let thick = if i % 3 == 0 { box_px } else { 1.5 };
        put_line(img, p[i][0], p[i][9], thick, 30);
        put_line(img, p[0][i], p[9][i], thick, 30);
    }
}

#[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
fn synthetic_grid(corners: [Point; 4]) -> GrayImage {
    let mut img = GrayImage::from_pixel(640, 480, Luma([210]));
    draw_grid(&mut img, corners, 4.0);
    img
}

/// A grid of 20-px cells whose box lines are black and whose thin lines are only 6 gray
/// levels darker than the paper (lost by the ink mask, as in a soft webcam frame), a
/// "digit" (a dark ring) in every cell, and a header bar joined to its top border, so
/// that neither its outline nor its cells are of use; `thin_lines` false leaves the
/// thin lines out (a 3×3 keypad of the same size).
#[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
/// A soft 180-px grid under a black header: box lines, thin lines only when `thin_lines`,
/// and a small "0" in every cell, or with `keypad` only in each box's middle cell (a 3×3
/// keypad: nine keys, one label each).
fn soft_full_grid(thin_lines: bool, keypad: bool) -> (GrayImage, [Point; 4]) {
    let mut img = GrayImage::from_pixel(640, 480, Luma([200]));
    let corners = [
        Point::new(220.0, 140.0),
        Point::new(400.0, 140.0),
        Point::new(400.0, 320.0),
        Point::new(220.0, 320.0),
    ];
    let p = Lattice::from_corners(corners).points_in_image;
    for i in 0..10 {
        let (thick, v) = if i % 3 == 0 { (3.0, 30) } else { (1.5, 194) };
        if i % 3 != 0 && !thin_lines {
            continue;
        }
        put_line(&mut img, p[i][0], p[i][9], thick, v);
        put_line(&mut img, p[0][i], p[9][i], thick, v);
    }
    for i in 0..9 {
        for j in 0..9 {
            if keypad && (i % 3 != 1 || j % 3 != 1) {
                continue;
            }
            let c = p[i][j].lerp(p[i + 1][j + 1], 0.5);
            for (dx, dy) in [(-3.0, -5.0), (3.0, -5.0), (3.0, 5.0), (-3.0, 5.0)] {
                let (a, b) = (
                    Point::new(c.x - 3.0, c.y + dy),
                    Point::new(c.x + 3.0, c.y + dy),
                );
                put_line(&mut img, a, b, 1.5, 40);
                let (a, b) = (
                    Point::new(c.x + dx, c.y - 5.0),
                    Point::new(c.x + dx, c.y + 5.0),
                );
                put_line(&mut img, a, b, 1.5, 40);
            }
        }
    }
    // The header: a black bar across the top border and beyond both sides.
    for y in 120..141 {
        put_line(
            &mut img,
            Point::new(160.0, y as f32),
            Point::new(460.0, y as f32),
            1.0,
            40,
        );
    }
    (img, corners)
}

#[test]
fn a_soft_full_grid_under_a_header_is_found_and_a_keypad_is_no_grid() {
    // As the live path asks: no finer ink step, no Hough lines.
    let options = DetectOptions {
        effort: Effort::Contours,
        ..DetectOptions::default()
    };
    // With its thin lines, and with thin lines too light for a small soft frame to show
    // at all: the digits centred in every cell place them.
    for thin_lines in [true, false] {
        let (img, corners) = soft_full_grid(thin_lines, false);
        let det = detect_with(&img, &options, None).expect("grid from its box holes");
        for (a, b) in det.corners_in_image.iter().zip(corners) {
            assert!(
                a.distance(b) < 4.0,
                "thin lines {thin_lines}: {a:?} vs {b:?}"
            );
        }
    }
    // A 3×3 keypad is no Sudoku: its nine keys are box holes on a 3×3 lattice, but the
    // gray levels show no thin lines and it has one label a key, not nine digits a box.
    let (keypad, _) = soft_full_grid(false, true);
    assert!(detect_with(&keypad, &options, None).is_err());
    assert!(detect_gray(&keypad).is_err());
}

#[test]
fn finds_a_synthetic_rotated_grid() {
    let c = Point::new(320.0, 240.0);
    let angle = 0.5f32;
    let half = 170.0;
    let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(x, y)| {
        let (s, co) = angle.sin_cos();
        Point::new(c.x + half * (x * co - y * s), c.y + half * (x * s + y * co))
    });
    let img = synthetic_grid(corners);
    let det = detect_gray(&img).expect("grid");
    for (a, b) in det.corners_in_image.iter().zip(corners) {
        assert!(a.distance(b) < 4.0, "{a:?} vs {b:?}");
    }
}

#[test]
#[allow(clippy::needless_range_loop)] // rows and columns of the lattice are indexed symmetrically
fn prefers_the_puzzle_merged_with_a_fold_over_a_small_printed_solution() {
    // The puzzle's border touches a fold line that runs to a rule down the page margin,
    // so its outline is no quad; a small solution grid sits clean in the corner.
    let mut img = GrayImage::from_pixel(640, 480, Luma([210]));
    let puzzle = [
        Point::new(100.0, 40.0),
        Point::new(400.0, 40.0),
        Point::new(400.0, 340.0),
        Point::new(100.0, 340.0),
    ];
    for corners in [
        puzzle,
        [
            Point::new(470.0, 320.0),
            Point::new(620.0, 320.0),
            Point::new(620.0, 470.0),
            Point::new(470.0, 470.0),
        ],
    ] {
        draw_grid(&mut img, corners, 3.0);
    }
    put_line(
        &mut img,
        Point::new(20.0, 0.0),
        Point::new(20.0, 479.0),
        3.0,
        30,
    );
    put_line(
        &mut img,
        Point::new(20.0, 205.0),
        Point::new(635.0, 220.0),
        3.0,
        60,
    );
    let det = detect_gray(&img).expect("grid");
    for (a, b) in det.corners_in_image.iter().zip(puzzle) {
        assert!(a.distance(b) < 4.0, "{a:?} vs {b:?}");
    }
}
