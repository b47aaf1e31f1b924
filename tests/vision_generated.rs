//! Recognition on pictures from the committed generators, never trained on: app screenshots
//! rendered in the held-out font families (seed 9001, all theme families: dark, black, navy,
//! pastel, tiled boxes, number pads beside the grid), webcam photos of such screenshots on a
//! screen (seed 6464: pixel stripes and moiré, glare, bezel), slight webcam degradations of
//! kubiesa-val at 640×480 (seed 9002), and single frames that once failed (webcam frames of
//! training photos, printed pages). Each test prints its counts.
//!
//! The floors are regression guards set just below today's counts, not the product's
//! targets (99 % of screenshots found, 98 % exact; 90 % of webcam frames exact), which are
//! not reached yet: see README "Recognition quality".

mod common;

use sudoku_lens::dataset::Dataset;
use sudoku_lens::eval::{CORNER_TOLERANCE_PCT, corner_error_pct, score_scan};
use sudoku_lens::scan::Scanner;
use sudoku_lens::synthetic::{
    FontBank, FontSplit, PrintCamera, Rng, ScreenSpec, fill_photo, print_photo, render_screen,
    screen_photo,
};
use sudoku_lens::vision::load_image;

/// Found within 3 % of the side, and read exactly.
#[derive(Default, Debug)]
struct Counts {
    pictures: usize,
    found: usize,
    exact: usize,
}

fn check(
    counts: &mut Counts,
    scanner: &mut Scanner,
    image: &image::DynamicImage,
    labels: &[u8; 81],
    corners: [sudoku_lens::vision::Point; 4],
) {
    counts.pictures += 1;
    let Ok(scan) = scanner.scan(image) else {
        return;
    };
    if corner_error_pct(scan.detection.corners_in_image, corners) <= CORNER_TOLERANCE_PCT {
        counts.found += 1;
        counts.exact += usize::from(score_scan(&scan, labels).exact);
    }
}

/// [`check`] on screenshot `item` of `seed`, rendered as `synth screens` draws it.
fn check_screen(
    counts: &mut Counts,
    scanner: &mut Scanner,
    fonts: &FontBank,
    seed: u64,
    item: u64,
) {
    let spec = ScreenSpec::random(&mut Rng::for_item(seed, item), fonts);
    let screen = render_screen(&spec, fonts);
    let image = image::DynamicImage::ImageRgb8(screen.image);
    check(
        counts,
        scanner,
        &image,
        &screen.labels,
        screen.corners_in_image,
    );
}

/// The font families of `split` under /usr/share/fonts.
fn fonts(split: FontSplit) -> FontBank {
    FontBank::from_dirs_split(&[std::path::PathBuf::from("/usr/share/fonts")], split)
        .expect("fonts under /usr/share/fonts (models/README.md lists the packages)")
}

#[test]
fn screenshots_in_held_out_fonts_are_found_and_read() {
    let fonts = fonts(FontSplit::Heldout);
    let mut scanner = Scanner::with_default_model().expect("embedded model");
    let mut counts = Counts::default();
    for i in 0..60u64 {
        check_screen(&mut counts, &mut scanner, &fonts, 9001, i);
    }
    println!("held-out-font screenshots: {counts:?}");
    // 58 found and 57 exact since the screen stage (2026-11-25; 45 and 40 before it).
    assert!(counts.found >= 56, "{counts:?}");
    assert!(counts.exact >= 55, "{counts:?}");
}

/// Webcam frames of app screenshots in the held-out font families shown on a screen, as
/// `synth screen-photos --seed 6464 --fonts heldout --camera webcam` makes them. Photos of
/// screens are read far worse than the screenshots themselves: the display's stripes beat
/// into moiré that empty cells are read as digits from, and glare and faint lines hide grids
/// (README "Recognition quality").
#[test]
fn webcam_photos_of_screens_in_held_out_fonts_are_found_and_read() {
    let fonts = fonts(FontSplit::Heldout);
    let mut scanner = Scanner::with_default_model().expect("embedded model");
    let mut counts = Counts::default();
    for i in 0..20u64 {
        let photo = screen_photo(&mut Rng::for_item(6464, i), &fonts, PrintCamera::Webcam)
            .expect("a photo of a screen");
        let image = common::through_jpeg(&photo.image, photo.jpeg_quality);
        check(
            &mut counts,
            &mut scanner,
            &image,
            &photo.labels,
            photo.corners_in_image,
        );
    }
    println!("webcam photos of screens: {counts:?}");
    // 14 found within 3 % and 12 of them exact when the generator came (2026-11-30, stop 54;
    // `eval` also counts an exact board found more than 3 % off).
    assert!(counts.found >= 13, "{counts:?}");
    assert!(counts.exact >= 11, "{counts:?}");
}

/// Screenshots (seed 77, training font families) whose grids the ink-mask stages alone
/// did not find: a dark grid of separate tiles full of digits (2: "ink between grid lines"),
/// a navy grid with light lines (6: refinement pulled onto the digits), pastel tiles about
/// as bright as the page (32, 58), a dark window whose title bar lies a cell above the grid
/// (134). The screen stage (`vision::detect::screen`) measures them exactly.
#[test]
fn screenshots_the_ink_mask_missed_are_read_exactly() {
    let fonts = fonts(FontSplit::Train);
    let mut scanner = Scanner::with_default_model().expect("embedded model");
    for k in [2u64, 6, 32, 58, 134] {
        let mut counts = Counts::default();
        check_screen(&mut counts, &mut scanner, &fonts, 77, k);
        assert_eq!(counts.exact, 1, "screenshot {k} of seed 77: {counts:?}");
    }
}

#[test]
fn slight_webcam_frames_of_kubiesa_val_are_found_and_read() {
    let set = Dataset::open(common::shared_dataset("kubiesa-val")).expect("kubiesa-val opens");
    let mut scanner = Scanner::with_default_model().expect("embedded model");
    let mut counts = Counts::default();
    // Every fourth photo: 20 frames keep the test quick in the dev profile.
    for (k, photo) in set.photos.iter().enumerate().step_by(4) {
        let corners = photo.corners_in_image.expect("kubiesa-val has corners");
        let labels = set.labels(photo).expect("labels").expect("labelled");
        let source = load_image(&photo.image_path).expect("photo").to_rgb8();
        let mut rng = Rng::for_item(9002, k as u64);
        let (image, corners_in_frame) = common::vga_webcam_jpeg(&source, corners, &mut rng);
        check(&mut counts, &mut scanner, &image, &labels, corners_in_frame);
    }
    println!("kubiesa-val webcam frames: {counts:?}");
    assert_eq!(counts.pictures, 20);
    assert!(counts.found >= 13, "{counts:?}");
    assert!(counts.exact >= 10, "{counts:?}");
}

/// A half-done kubiesa-train page (MIT, A. Kubiesa) as `synth webcam --size 640x480` makes it
/// at three seeds: a grid of ~21-px cells whose thin lines the ink mask loses while its digits'
/// blurred strokes stay, merged with the page edge above it. Before the box holes and the
/// gray-level half-way test (2026-11-28) none of the three was found ("ink between grid
/// lines"). Detection only: the photo is training data for the digit model, not for the
/// detector, which no data set trains.
#[test]
fn soft_webcam_frames_whose_thin_lines_the_mask_loses_are_found() {
    let name = "02_18_iphone_14_0";
    for seed in [31, 32, 9002] {
        let (image, corners_in_frame, _) = kubiesa_train_webcam_frame(name, seed);
        assert_found_near(&image, corners_in_frame, &format!("seed {seed}"));
    }
}

/// A webcam frame of a printed page (`synth print --camera webcam --seed 777 --fonts train`,
/// photo 54): the grid's right border runs a few pixels from the page panel's, so its outline
/// merged with the panel and only the cell holes give it. A digit touching a thin line merges
/// two cells near the middle into one hole half a cell off the lattice; taken as a lattice
/// step it made the walk index every other row. Before the fix (2026-11-28): "no grid"
/// (uneven line spacing of the panel's outline).
#[test]
fn cells_merged_by_a_digit_do_not_mislead_the_cell_walk() {
    let (image, corners_in_image) = printed_page(777, 54, PrintCamera::Webcam);
    assert_found_near(&image, corners_in_image, "the page");
}

/// Photo `index` of `synth print --seed SEED --fonts train` with `camera`, as stored (JPEG),
/// and the grid's corners in it.
fn printed_page(
    seed: u64,
    index: u64,
    camera: PrintCamera,
) -> (image::DynamicImage, [sudoku_lens::vision::Point; 4]) {
    let fonts = fonts(FontSplit::Train);
    let photo = print_photo(&mut Rng::for_item(seed, index), &fonts, camera).expect("a page");
    (
        common::through_jpeg(&photo.image, photo.jpeg_quality),
        photo.corners_in_image,
    )
}

/// A kubiesa-train page (MIT, A. Kubiesa) finished by `synth fill --seed 1` (handwriting in
/// every empty cell) in a frame as `synth webcam --seed 31 --size 640x480` makes it: a grid of
/// ~20-px cells whose light gray thin lines are gone even in gray levels (contrast under two
/// levels), its box lines dark. Before the centred-marks rule (2026-11-28) it was "no grid"
/// (uneven line spacing, the outline's own lattice failing for its thin lines). Detection
/// only, as above.
#[test]
fn a_finished_page_whose_thin_lines_a_soft_frame_lost_is_found_by_its_digits() {
    let (image, corners_in_frame, _) = filled_webcam_frame("02_17_honor_view_10_1", 1, 31, 0);
    assert_found_near(&image, corners_in_frame, "the frame");
}

/// A printed page (`synth print --seed 5050 --fonts train`, photo 6) whose puzzle frame holds
/// its title band above the grid: the frame's lattice, a row up and the grid's last row left
/// out, validated until 2026-11-30. Its first row has no line across it
/// (`Rejection::BandWithoutLines`), and the grid itself is found. Detection only.
#[test]
fn a_title_band_inside_the_puzzles_frame_is_not_taken_for_a_row() {
    let (image, corners_in_image) = printed_page(5050, 6, PrintCamera::Mixed);
    assert_found_near(&image, corners_in_image, "the page");
}

/// wichtounet-v2-train's image183 (CC BY 4.0, B. Wicht & J. Hennebert) in a frame as `synth
/// webcam --seed 5001 --size 640x480` makes it: the grid's cell holes placed a row up, the
/// missing row laid over the page's top edge, validated a little better (0.855) than the right
/// placement (0.846) until 2026-11-30. Placements are now ranked by their emptiest row too,
/// and the right one wins. Detection only: no data set trains the detector.
#[test]
fn cell_holes_are_not_placed_a_row_over_the_page_edge() {
    let name = "image183";
    let (photo, corners, _) = common::named_photo("wichtounet-v2-train", name);
    // The generator's own seeding of copy 0 (`synth webcam`).
    let mut rng = Rng::for_item(
        5001,
        sudoku_lens::synthetic::rng::stable_hash(name.as_bytes()),
    );
    let corners = corners.expect("wichtounet-v2 has corners");
    let (image, corners_in_frame) = common::vga_webcam_jpeg(&photo.to_rgb8(), corners, &mut rng);
    assert_found_near(&image, corners_in_frame, "the frame");
}

/// wichtounet-v2-train photos (CC BY 4.0, B. Wicht & J. Hennebert) in frames as `synth webcam
/// --size 640x480` makes them (copy 0): dim frames whose grid outline cut across a faint
/// corner, a row or column inside it. Refinement locked the points near that corner onto the
/// next line, and the folded lattice still validated on the lines it found, 8–21 % of the
/// side off, with misread border cells. Until 2026-12-01; a valid lattice whose points sit
/// well off the homography of the rest is now refined again from that homography, and the
/// result, a flat grid's lattice, validates better. Detection only: no data set trains the
/// detector.
#[test]
fn lattices_folded_near_a_corner_are_refined_again() {
    for (name, seed) in [("image56", 5001), ("image180", 5001), ("image188", 5003)] {
        let (photo, corners, _) = common::named_photo("wichtounet-v2-train", name);
        // The generator's own seeding of copy 0 (`synth webcam`).
        let mut rng = Rng::for_item(
            seed,
            sudoku_lens::synthetic::rng::stable_hash(name.as_bytes()),
        );
        let corners = corners.expect("wichtounet-v2 has corners");
        let (image, corners_in_frame) =
            common::vga_webcam_jpeg(&photo.to_rgb8(), corners, &mut rng);
        assert_found_near(&image, corners_in_frame, &format!("{name}, seed {seed}"));
    }
}

/// Kubiesa-train pages (MIT, A. Kubiesa) photographed under a lamp with the phone's hard
/// shadow across the grid, in frames as `synth webcam --size 640x480` makes them (seeds 7002
/// and 7003, copy 0). The box-mean threshold marks a band of the shadow's side of its edge as
/// ink: it joins the grid's outline to the shadow's and fills the half-way lines, so until
/// 2026-11-30 none of the three was found ("ink between grid lines"). With ink kept only where
/// it is darker than the paper's own level too (`DetectOptions::ink_below_background`, the
/// still picture's last try) each is found. Detection only: no data set trains the detector.
#[test]
fn grids_under_a_hard_shadow_are_found() {
    for (name, seed) in [
        ("02_19_honor_view_10_1", 7002),
        ("02_21_honor_view_10_1", 7003),
        ("02_22_honor_view_10_1", 7003),
    ] {
        let (image, corners_in_frame, _) = kubiesa_train_webcam_frame(name, seed);
        assert_found_near(&image, corners_in_frame, &format!("{name}, seed {seed}"));
    }
}

/// Copy 0 of the 640×480 frames `synth webcam --seed SEED --size 640x480` makes of
/// kubiesa-train page `name` (MIT, A. Kubiesa): the frame, the grid's corners in it and the
/// page's labels.
fn kubiesa_train_webcam_frame(
    name: &str,
    seed: u64,
) -> (
    image::DynamicImage,
    [sudoku_lens::vision::Point; 4],
    [u8; 81],
) {
    let (source, corners, labels) = common::kubiesa_train_page(name);
    // The generator's own seeding of copy 0.
    let mut rng = Rng::for_item(
        seed,
        sudoku_lens::synthetic::rng::stable_hash(name.as_bytes()),
    );
    let (image, corners_in_frame) = common::vga_webcam_jpeg(&source, corners, &mut rng);
    (image, corners_in_frame, labels)
}

/// Asserts that the detector finds a grid in `image` (`what`, for the messages) with every
/// corner within [`CORNER_TOLERANCE_PCT`] of `corners_in_image`.
fn assert_found_near(
    image: &image::DynamicImage,
    corners_in_image: [sudoku_lens::vision::Point; 4],
    what: &str,
) {
    let found =
        sudoku_lens::vision::detect(image).unwrap_or_else(|e| panic!("{what}: no grid: {e}"));
    let err = corner_error_pct(found.corners_in_image, corners_in_image);
    assert!(err < CORNER_TOLERANCE_PCT, "{what}: corners {err:.1} % off");
}

/// Kubiesa-train page `name` (MIT, A. Kubiesa) finished by `synth fill --seed FILL_SEED`
/// (default pens), in copy `copy` of the frames `synth webcam --seed WEBCAM_SEED --size
/// 640x480` makes of it: the frame, the grid's corners in it and the filled page's labels.
fn filled_webcam_frame(
    name: &str,
    fill_seed: u64,
    webcam_seed: u64,
    copy: u64,
) -> (
    image::DynamicImage,
    [sudoku_lens::vision::Point; 4],
    [u8; 81],
) {
    let (source, corners, labels) = common::kubiesa_train_page(name);
    let hash = sudoku_lens::synthetic::rng::stable_hash;
    let mut fill_rng = Rng::for_item(fill_seed, hash(name.as_bytes()));
    let filled = fill_photo(&source, corners, &labels, 1.0, &mut fill_rng).expect("solvable");
    assert!(filled.written > 30, "a page far along: {}", filled.written);
    let filled_jpeg = common::through_jpeg(&filled.image, 92).to_rgb8();
    // `synth webcam` seeds copy k with the photo's hash xor k.
    let mut rng = Rng::for_item(webcam_seed, hash(format!("{name}_fill").as_bytes()) ^ copy);
    let (image, corners_in_frame) = common::vga_webcam_jpeg(&filled_jpeg, corners, &mut rng);
    (image, corners_in_frame, filled.labels)
}

/// A kubiesa-train page finished in blue pen ([`filled_webcam_frame`]: fill seed 4401,
/// webcam seed 4411, copy 1): a grid of ~17-px cells whose thin lines the mask lost, and
/// whose tall digits cover the vertical half-way lines through the cells' middles along
/// three quarters of their length (in the mask and in gray levels) while leaving their cell
/// ends clear. Before 2026-11-29 it was "no grid" (uneven line spacing; its outline's own
/// lattice taken for a finer grid). Detection only, as above.
#[test]
fn a_finished_page_of_tall_digits_in_small_cells_is_not_taken_for_a_finer_grid() {
    let (image, corners_in_frame, _) = filled_webcam_frame("02_22_iphone_14_1", 4401, 4411, 1);
    assert_found_near(&image, corners_in_frame, "the frame");
}

/// A finished kubiesa-train page ([`filled_webcam_frame`]: fill seed 4401, webcam seed 4411,
/// copy 0) whose outline is a little off its border: only the lattice with its box lines
/// fitted as wholes sits on the grid, and there the digits' tops and bottoms, close to the
/// faint thin row lines, hide them in gray levels while the thin column lines show. The
/// column lines and the digits centred in the cells stand in for the row lines; the frame
/// is then read exactly. Before 2026-11-29 it was "no grid" (uneven line spacing).
#[test]
fn a_finished_page_whose_row_lines_its_digits_hide_is_found_and_read() {
    let (image, corners_in_frame, labels) =
        filled_webcam_frame("03_09_honor_view_10_1", 4401, 4411, 0);
    assert_found_near(&image, corners_in_frame, "the frame");
    let mut scanner = Scanner::with_default_model().expect("embedded model");
    let scan = scanner.scan(&image).expect("a scan");
    assert!(score_scan(&scan, &labels).exact, "read {:?}", scan.values);
}

/// A kubiesa-train page (MIT, A. Kubiesa) in a frame as `synth webcam --seed 4405 --size
/// 640x480` makes it: the grid is 40 % of the frame's height (~22-px cells), and at the
/// frame's own pixels no lattice of it validates. Searched again in a crop around its
/// outline enlarged twice (`vision::detect::zoom`), it is found, and read with no sure
/// misreading: every cell right but at most two, each flagged uncertain. (Until 2026-11-29
/// this test used `02_22_honor_view_10_0` in seed 31's frame, found at its own pixels since
/// the fitted lattice's thin row lines may be hidden by digits.) The live path never zooms;
/// still pictures do.
#[test]
fn a_small_grid_in_a_webcam_frame_is_found_in_an_enlarged_crop() {
    use sudoku_lens::vision::{DetectOptions, detect_with, to_gray};
    let (image, corners_in_frame, labels) =
        kubiesa_train_webcam_frame("02_19_honor_view_10_1", 4405);
    let gray = to_gray(&image);
    let no_zoom = DetectOptions {
        zoom: false,
        ..DetectOptions::default()
    };
    assert!(
        detect_with(&gray, &no_zoom, None).is_err(),
        "not found at the frame's own pixels"
    );
    let found = detect_with(&gray, &DetectOptions::default(), None)
        .unwrap_or_else(|e| panic!("no grid in the enlarged crop: {e}"));
    let err = corner_error_pct(found.corners_in_image, corners_in_frame);
    assert!(err < CORNER_TOLERANCE_PCT, "corners {err:.1} % off");
    let mut scanner = Scanner::with_default_model().expect("embedded model");
    let scan = scanner.scan(&image).expect("a scan");
    let truth = sudoku_lens::eval::truth_values(&labels);
    let wrong: Vec<usize> = (0..81).filter(|&i| scan.values[i] != truth[i]).collect();
    assert!(wrong.len() <= 2, "{} cells misread", wrong.len());
    for i in wrong {
        assert!(
            scan.readings[i].is_uncertain(),
            "cell {i} misread as {} and not flagged",
            scan.values[i]
        );
    }
}
