//! The photo conditions the grid finder must cope with, one rendered image each: rotation up to
//! ±45°, perspective, mildly curved paper, dotted inner lines, a thick outer border, uneven
//! light with a hard shadow edge, and other print around the grid. Each image is rendered from
//! an exact map of the unit square, so every one of the 100 true line intersections is known:
//! the detector must put all four corners within 2 % of the grid side and every refined
//! intersection within 0.15 cell of the truth.

use image::{DynamicImage, GrayImage, Luma};
use sudoku_lens::eval::corner_error_pct;
use sudoku_lens::vision::{Homography, Lattice, Point, detect, mean_side};

/// How a test grid is printed and photographed.
#[derive(Clone, Copy)]
struct Scene {
    /// Where the grid's corners land (TL, TR, BR, BL), image pixels.
    corners: [Point; 4],
    /// Bow of the row lines (paper curl), in grid sides: row lines are displaced by
    /// `bend · sin(π·u)` along the columns.
    bend: f32,
    /// Inner thin lines printed as dots.
    dotted: bool,
    /// Outer border thickness, pixels (box lines are 3 px, thin lines 1.5 px).
    border_px: f32,
    /// Light falling off across the photo, with a hard shadow edge over part of the grid.
    shadow: bool,
    /// Headline, text columns and rules around the grid.
    print_around: bool,
}

const PAPER: f32 = 215.0;
const INK: f32 = 35.0;

impl Scene {
    fn new(corners: [Point; 4]) -> Scene {
        Scene {
            corners,
            bend: 0.0,
            dotted: false,
            border_px: 3.0,
            shadow: false,
            print_around: false,
        }
    }

    fn homography(&self) -> Homography {
        Homography::from_unit_square(self.corners).expect("a proper quad")
    }

    /// Where grid point `(u, v)` (unit square, u across) lands in the image.
    fn image_from_grid(&self, u: f32, v: f32) -> Point {
        let bent = v + self.bend * (std::f32::consts::PI * u).sin();
        self.homography().apply(Point::new(u, bent))
    }

    /// The true 10×10 intersections.
    fn lattice(&self) -> Lattice {
        let mut points_in_image = [[Point::default(); 10]; 10];
        for (r, row) in points_in_image.iter_mut().enumerate() {
            for (c, p) in row.iter_mut().enumerate() {
                *p = self.image_from_grid(c as f32 / 9.0, r as f32 / 9.0);
            }
        }
        Lattice { points_in_image }
    }

    fn render(&self) -> GrayImage {
        let (w, h) = (640u32, 480u32);
        let to_grid = self.homography().inverse().expect("invertible");
        let side_px = mean_side(self.corners);
        let mut img = GrayImage::new(w, h);
        for y in 0..h {
            for x in 0..w {
                let q = to_grid.apply(Point::new(x as f32, y as f32));
                let u = q.x;
                let v = q.y - self.bend * (std::f32::consts::PI * u).sin();
                // Column lines, then row lines (the same rule with the axes swapped).
                let mut ink = self
                    .line_ink(u, v, side_px)
                    .max(self.line_ink(v, u, side_px));
                if self.print_around {
                    ink = ink.max(print_ink(x, y, u, v));
                }
                let mut value = PAPER - (PAPER - INK) * ink;
                if self.shadow {
                    let light = 1.0 - 0.45 * x as f32 / w as f32;
                    let edge = if y as f32 > 0.6 * x as f32 + 120.0 {
                        0.7
                    } else {
                        1.0
                    };
                    value *= light * edge;
                }
                img.put_pixel(x, y, Luma([value.clamp(0.0, 255.0) as u8]));
            }
        }
        img
    }

    /// Ink of the column lines at grid point `(u, v)`: 1 on a line, 0 off it, antialiased.
    /// Called with `(v, u)` it gives the row lines.
    fn line_ink(&self, u: f32, v: f32, side_px: f32) -> f32 {
        let margin = self.border_px / side_px;
        if !(-margin..=1.0 + margin).contains(&v) {
            return 0.0;
        }
        let k = (u * 9.0).round().clamp(0.0, 9.0);
        let outer = k == 0.0 || k == 9.0;
        let thick = if outer {
            self.border_px
        } else if k % 3.0 == 0.0 {
            3.0
        } else {
            1.5
        };
        if self.dotted && k % 3.0 != 0.0 && (v * 9.0 * 4.0).fract() > 0.5 {
            return 0.0;
        }
        // Every line, the border too, is centred on its grid line (the lattice convention).
        let dist_px = (u - k / 9.0).abs() * side_px;
        (thick / 2.0 + 0.5 - dist_px).clamp(0.0, 1.0)
    }
}

/// Text-like print outside the grid: a headline band above it, columns of word blocks to the
/// left and right, and a rule under it (grid coordinates, so it follows the page).
fn print_ink(x: u32, y: u32, u: f32, v: f32) -> f32 {
    let inside = (-0.06..=1.06).contains(&u) && (-0.06..=1.06).contains(&v);
    if inside {
        return 0.0;
    }
    let headline = (-0.22..-0.12).contains(&v) && (0.0..0.8).contains(&u);
    let rule = (1.10..1.12).contains(&v) && (-0.3..1.3).contains(&u);
    let column = !(-0.1..=1.1).contains(&u) && (-0.2..1.2).contains(&v);
    let letter =
        !(x / 3 + y / 7).is_multiple_of(3) && (y / 9).is_multiple_of(2) && (x / 23) % 4 != 3;
    if rule || ((headline || column) && letter) {
        1.0
    } else {
        0.0
    }
}

fn rotated_square(centre: Point, half_side: f32, degrees: f32) -> [Point; 4] {
    let (s, c) = degrees.to_radians().sin_cos();
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(x, y)| {
        Point::new(
            centre.x + half_side * (x * c - y * s),
            centre.y + half_side * (x * s + y * c),
        )
    })
}

fn upright() -> [Point; 4] {
    [
        Point::new(150.0, 70.0),
        Point::new(490.0, 70.0),
        Point::new(490.0, 410.0),
        Point::new(150.0, 410.0),
    ]
}

/// Detects the grid in `scene` and checks corners and every refined intersection.
fn check(what: &str, scene: Scene) {
    let rendered = scene.render();
    // To look at the scenes: VISION_CONDITIONS_DUMP=DIR cargo test --test vision_conditions
    if let Some(dir) = std::env::var_os("VISION_CONDITIONS_DUMP") {
        let name = what.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
        rendered
            .save(std::path::Path::new(&dir).join(format!("{name}.png")))
            .expect("dump folder writable");
    }
    let image = DynamicImage::ImageLuma8(rendered);
    let found = detect(&image).unwrap_or_else(|e| panic!("{what}: {e}"));
    let truth = scene.lattice();
    let side = truth.mean_side();
    // The puzzle's top-left is wherever the photo's top-left corner of the grid is: compare
    // the found corners with the true ones in the detector's order.
    let err = corner_error_pct(found.corners_in_image, truth.corners());
    assert!(
        err < 2.0,
        "{what}: corners {:?} vs {:?} ({err:.1} %)",
        found.corners_in_image,
        truth.corners()
    );
    let cell = side / 9.0;
    let worst = found.lattice().max_distance(&truth) / cell;
    assert!(
        worst < 0.15,
        "{what}: an intersection is {worst:.2} cell off"
    );
    eprintln!(
        "{what}: worst intersection {worst:.3} cell, score {:.2}",
        found.score
    );
}

#[test]
fn rotated_by_up_to_45_degrees() {
    for degrees in [-44.0, -30.0, 15.0, 44.0] {
        // A grid turned by more than 45° reads from another corner; ±44° keeps the order.
        let corners = rotated_square(Point::new(320.0, 240.0), 150.0, degrees);
        check(&format!("rotated {degrees}°"), Scene::new(corners));
    }
}

#[test]
fn in_moderate_perspective() {
    let corners = [
        Point::new(190.0, 60.0),
        Point::new(470.0, 75.0),
        Point::new(560.0, 430.0),
        Point::new(90.0, 410.0),
    ];
    check("perspective", Scene::new(corners));
}

#[test]
fn on_mildly_curved_paper_the_refined_lattice_follows_the_lines() {
    let scene = Scene {
        bend: 0.025,
        ..Scene::new(upright())
    };
    // One homography through the true corners misses the bowed middle rows by more than
    // the tolerance, so passing takes the refined intersections.
    let flat = Lattice::from_corners(scene.lattice().corners());
    let cell = scene.lattice().mean_side() / 9.0;
    assert!(flat.max_distance(&scene.lattice()) / cell > 0.15);
    check("curved", scene);
}

#[test]
fn with_dotted_inner_lines_and_a_thick_border() {
    check(
        "dotted",
        Scene {
            dotted: true,
            ..Scene::new(upright())
        },
    );
    check(
        "thick border",
        Scene {
            border_px: 8.0,
            ..Scene::new(upright())
        },
    );
}

#[test]
fn under_uneven_light_with_a_shadow_edge() {
    check(
        "shadow",
        Scene {
            shadow: true,
            ..Scene::new(rotated_square(Point::new(320.0, 240.0), 160.0, 8.0))
        },
    );
}

#[test]
fn among_other_print() {
    let corners = rotated_square(Point::new(320.0, 235.0), 130.0, -6.0);
    check(
        "print around",
        Scene {
            print_around: true,
            ..Scene::new(corners)
        },
    );
}

mod properties {
    //! Property tests of the detector (proptest, fixed seed, so a run is reproducible): a
    //! grid rendered under a random homography — any rotation up to ±40°, perspective up to a
    //! fifth of the side, 200–400 px — is found with its corners within 2 % of the side; and
    //! detection returns (a grid or a reason) on random pictures, never panicking.

    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed};

    /// Corners of a grid of side `side` around `centre`, turned by `degrees`, each corner
    /// then moved by its `jitter` (fractions of the side): a random homography.
    fn quad(centre: (f32, f32), side: f32, degrees: f32, jitter: [(f32, f32); 4]) -> [Point; 4] {
        let q = rotated_square(Point::new(centre.0, centre.1), side / 2.0, degrees);
        std::array::from_fn(|i| {
            Point::new(q[i].x + jitter[i].0 * side, q[i].y + jitter[i].1 * side)
        })
    }

    fn fits(corners: &[Point; 4]) -> bool {
        corners
            .iter()
            .all(|p| (8.0..632.0).contains(&p.x) && (8.0..472.0).contains(&p.y))
    }

    proptest! {
        #![proptest_config(Config {
            cases: 24,
            rng_seed: RngSeed::Fixed(20_261_124),
            failure_persistence: None,
            ..Config::default()
        })]

        #[test]
        fn a_grid_under_a_random_homography_is_found(
            cx in 250.0f32..390.0,
            cy in 190.0f32..290.0,
            side in 200.0f32..400.0,
            degrees in -40.0f32..40.0,
            jitter in proptest::array::uniform4((-0.1f32..0.1, -0.1f32..0.1)),
        ) {
            let corners = quad((cx, cy), side, degrees, jitter);
            prop_assume!(fits(&corners));
            let scene = Scene::new(corners);
            let found = detect(&DynamicImage::ImageLuma8(scene.render()))
                .map_err(|e| TestCaseError::fail(format!("{corners:?}: {e}")))?;
            let err = corner_error_pct(found.corners_in_image, scene.lattice().corners());
            prop_assert!(err < 2.0, "{corners:?}: found {:?} ({err:.1} %)", found.corners_in_image);
        }

        #[test]
        fn detection_never_panics_on_random_pictures(
            w in 1u32..240,
            h in 1u32..240,
            seed in any::<u64>(),
            kind in 0u8..4,
        ) {
            let mut rng = sudoku_lens::synthetic::Rng::new(seed);
            let mut img = GrayImage::new(w, h);
            match kind {
                // Noise.
                0 => img.pixels_mut().for_each(|p| p.0[0] = rng.below(256) as u8),
                // Flat.
                1 => img.pixels_mut().for_each(|p| p.0[0] = (seed % 256) as u8),
                // Random dark rectangles and lines on paper.
                _ => {
                    img.pixels_mut().for_each(|p| p.0[0] = 220);
                    for _ in 0..rng.between(1, 40) {
                        let (x0, y0) = (rng.below(w as usize) as u32, rng.below(h as usize) as u32);
                        let (rw, rh) = if kind == 2 {
                            (rng.between(1, 3) as u32, rng.between(1, h as usize) as u32)
                        } else {
                            (rng.between(1, w as usize) as u32, rng.between(1, 3) as u32)
                        };
                        for y in y0..(y0 + rh).min(h) {
                            for x in x0..(x0 + rw).min(w) {
                                img.put_pixel(x, y, Luma([20]));
                            }
                        }
                    }
                }
            }
            // Either a grid or a reason; a panic fails the property.
            let _ = detect(&DynamicImage::ImageLuma8(img));
        }
    }
}
