//! Photos turned by a quarter, half or three-quarter turn (pixels rotated, no EXIF tag) are read
//! upright: every kubiesa-val photo (MIT, A. Kubiesa) is rotated in memory and scanned, and the
//! reported turn, the 81 values and the re-indexed corners are checked against the upright
//! scan — exactly when the turned photo is read along the upright photo's lattice carried over
//! (the orientation step alone), and through the detector on the turned pixels, whose lattice
//! differs from the upright one by resampling (see that test for what it allows).

mod common;

use image::{GrayImage, imageops};
use sudoku_lens::dataset::Dataset;
use sudoku_lens::digits::orientation::turned;
use sudoku_lens::eval::score_scan;
use sudoku_lens::scan::Scanner;
use sudoku_lens::vision::{GridDetection, Lattice, Point};

/// Two classes closer than this in probability are a near tie (see the exact test).
const NEAR_TIE: f32 = 0.01;

/// `gray` turned `quarter_turns` times clockwise, and where a point of `gray` lands in it.
fn turn(gray: &GrayImage, quarter_turns: u8) -> (GrayImage, impl Fn(Point) -> Point) {
    let (w, h) = (gray.width() as f32, gray.height() as f32);
    let image = match quarter_turns {
        1 => imageops::rotate90(gray),
        2 => imageops::rotate180(gray),
        3 => imageops::rotate270(gray),
        _ => gray.clone(),
    };
    // Pixel centres: x' = h − 1 − y, y' = x for one clockwise quarter turn.
    let map = move |p: Point| match quarter_turns {
        1 => Point::new(h - 1.0 - p.y, p.x),
        2 => Point::new(w - 1.0 - p.x, h - 1.0 - p.y),
        3 => Point::new(p.y, w - 1.0 - p.x),
        _ => p,
    };
    (image, map)
}

/// The upright photo's lattice carried into the photo turned `quarter_turns` clockwise,
/// indexed as that image lies (`[0][0]` at its top-left), as the detector would give it.
fn carried_detection(
    upright: &GridDetection,
    quarter_turns: u8,
    map: impl Fn(Point) -> Point,
) -> GridDetection {
    let mut lattice_in_image = [[Point::default(); 10]; 10];
    for (r, row) in upright.lattice_in_image.iter().enumerate() {
        for (c, &p) in row.iter().enumerate() {
            let (ri, ci) = turned(r, c, 10, quarter_turns);
            lattice_in_image[ri][ci] = map(p);
        }
    }
    let lattice = Lattice {
        points_in_image: lattice_in_image,
    };
    GridDetection {
        corners_in_image: lattice.corners(),
        lattice_in_image,
        ..upright.clone()
    }
}

/// Along the carried-over lattice the turned photo's cells are the upright ones' pixels turned,
/// up to float rounding in the warp (a pixel here and there one gray level off), so the turn
/// must be found and every value match — except on a cell whose two best classes are within
/// [`NEAR_TIE`] in the upright reading, where one level decides (01_01_honor_view_10_1 r2c2:
/// 1 at 0.3697 against 2 at 0.3690, four pixels one level apart).
#[test]
fn turned_photos_read_exactly_like_upright_ones_along_the_same_lattice() {
    let ds = Dataset::open(common::shared_dataset("kubiesa-val")).unwrap();
    assert_eq!(ds.photos.len(), 80);
    let mut scanner = Scanner::with_default_model().unwrap();
    let mut failures = Vec::new();
    let mut near_ties = Vec::new();
    for photo in &ds.photos {
        let gray = sudoku_lens::vision::load_image(&photo.image_path)
            .unwrap()
            .to_luma8();
        let upright = scanner
            .scan_gray(&gray)
            .unwrap_or_else(|e| panic!("{}: {e}", photo.name));
        assert_eq!(upright.quarter_turns, 0, "{} upright", photo.name);
        for k in 1..4u8 {
            let (turned_gray, map) = turn(&gray, k);
            let detection = carried_detection(&upright.detection, k, &map);
            let scan = scanner.scan_detection(&turned_gray, detection).unwrap();
            let name = format!("{} turned {}°", photo.name, 90 * u16::from(k));
            let mut differ = Vec::new();
            for i in (0..81).filter(|&i| scan.values[i] != upright.values[i]) {
                let mut p = upright.readings[i].probabilities;
                p.sort_by(|a, b| b.total_cmp(a));
                let cell = format!("r{}c{}", i / 9 + 1, i % 9 + 1);
                if p[0] - p[1] < NEAR_TIE {
                    near_ties.push(format!("{name} {cell}"));
                } else {
                    differ.push(cell);
                }
            }
            let corner_px = upright
                .detection
                .corners_in_image
                .iter()
                .zip(&scan.detection.corners_in_image)
                .map(|(&u, &t)| map(u).distance(t))
                .fold(0.0f32, f32::max);
            if scan.quarter_turns != k || !differ.is_empty() || corner_px > 0.01 {
                failures.push(format!(
                    "{name}: read as {}°, cells {differ:?} differ, corners {corner_px} px off",
                    scan.rotation_deg()
                ));
            }
        }
    }
    eprintln!(
        "kubiesa-val turned along the upright lattice: 240 scans, {} near-tie cells differ {near_ties:?}",
        near_ties.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Through the detector, the turned photo's lattice is found anew on resampled pixels and
/// lands up to a few pixels (in a few photos, much further) away from the upright one, and two
/// turned photos give no grid at all today (01_04_iphone_14_1 at 270°, 01_27_iphone_14_0 at
/// 90°: detector faults, not orientation ones). So: every grid found must be read in the
/// right turn, and read against the labels about as well as the upright photos are (cells
/// that differ from the upright reading are listed for inspection: they are the uncertain,
/// near-tie readings).
#[test]
fn turned_photos_read_like_upright_ones() {
    let ds = Dataset::open(common::shared_dataset("kubiesa-val")).unwrap();
    assert_eq!(ds.photos.len(), 80);
    let mut scanner = Scanner::with_default_model().unwrap();
    let (mut missed, mut wrong_turn, mut differ) = (Vec::new(), Vec::new(), Vec::new());
    let (mut cells, mut upright_correct, mut turned_correct) = (0, 0, 0);
    for photo in &ds.photos {
        let labels = ds.labels(photo).unwrap().expect("kubiesa-val is labelled");
        let gray = sudoku_lens::vision::load_image(&photo.image_path)
            .unwrap()
            .to_luma8();
        let upright = scanner
            .scan_gray(&gray)
            .unwrap_or_else(|e| panic!("{}: {e}", photo.name));
        let upright_score = score_scan(&upright, &labels);
        for k in 1..4u8 {
            let name = format!("{} turned {}°", photo.name, 90 * u16::from(k));
            let (turned_gray, _) = turn(&gray, k);
            let scan = match scanner.scan_gray(&turned_gray) {
                Ok(s) => s,
                Err(e) => {
                    missed.push(format!("{name}: {e}"));
                    continue;
                }
            };
            if scan.quarter_turns != k {
                wrong_turn.push(format!("{name}: read as {}°", scan.rotation_deg()));
            }
            cells += 81;
            upright_correct += upright_score.cells_correct;
            turned_correct += score_scan(&scan, &labels).cells_correct;
            for i in (0..81).filter(|&i| scan.values[i] != upright.values[i]) {
                differ.push(format!(
                    "{name} r{}c{}: {} at {:.2} (upright {} at {:.2})",
                    i / 9 + 1,
                    i % 9 + 1,
                    scan.values[i],
                    scan.readings[i].confidence,
                    upright.values[i],
                    upright.readings[i].confidence
                ));
            }
        }
    }
    let acc = |n: usize| n as f64 / cells.max(1) as f64;
    eprintln!(
        "kubiesa-val turned through the detector: {} of 240 found, {} in the wrong turn; \
         cell accuracy {:.4} turned, {:.4} upright on the same photos; {} cells differ:\n{}",
        240 - missed.len(),
        wrong_turn.len(),
        acc(turned_correct),
        acc(upright_correct),
        differ.len(),
        differ.join("\n")
    );
    assert!(wrong_turn.is_empty(), "{}", wrong_turn.join("\n"));
    assert!(missed.len() <= 2, "{}", missed.join("\n"));
    // Measured: 0.9979 turned against 0.9989 upright, most of the gap in one photo
    // (01_06_honor_view_10_1, whose turned lattice lands a grid line off at 90° and 180°).
    assert!(
        acc(turned_correct) >= acc(upright_correct) - 0.002,
        "turned {} upright {}",
        acc(turned_correct),
        acc(upright_correct)
    );
}

/// Blurred 640×480 webcam frames of upright wichtounet-v2-train photos (CC BY 4.0, B. Wicht &
/// J. Hennebert), copy 0 of `synth webcam --seed SEED --size 640x480`: the upright reading is
/// unsure (faint small print), and until 2026-12-01 a quarter turn scored higher by reading
/// the sideways glyphs as confidently empty cells, so 26–31 cells came out wrong. A turn must
/// now read about as many cells as ink as upright does (`TURNED_LEAST_INK_SHARE`).
#[test]
fn blurred_webcam_frames_of_upright_photos_are_not_read_turned() {
    let mut scanner = Scanner::with_default_model().unwrap();
    for (name, seed) in [("image163", 5002), ("image147", 5003), ("image168", 5003)] {
        let (photo, corners, _) = common::named_photo("wichtounet-v2-train", name);
        // The generator's own seeding of copy 0 (`synth webcam`).
        let mut rng = sudoku_lens::synthetic::Rng::for_item(
            seed,
            sudoku_lens::synthetic::rng::stable_hash(name.as_bytes()),
        );
        let corners = corners.expect("wichtounet-v2 has corners");
        let (image, _) = common::vga_webcam_jpeg(&photo.to_rgb8(), corners, &mut rng);
        let scan = scanner
            .scan_gray(&image.to_luma8())
            .unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}"));
        assert_eq!(scan.quarter_turns, 0, "{name}, seed {seed}");
    }
}
