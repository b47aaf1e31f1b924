//! End-to-end reading of real photos from the shared data sets (failing, with the path, where
//! they are missing). The figures in models/README.md come from `eval`; these tests are
//! regression guards with floors on the validation set.

mod common;

use sudoku_lens::eval::score_scan;
use sudoku_lens::scan::Scanner;
use sudoku_lens::vision::Lattice;

#[test]
fn reads_validation_cells_along_true_corners() {
    let photos = common::puzzle_sources("kubiesa-val");
    assert_eq!(
        photos.len(),
        80,
        "every kubiesa-val photo has corners and labels"
    );
    let mut scanner = Scanner::with_default_model().unwrap();
    let (mut cells, mut correct, mut digits, mut digits_correct) = (0, 0, 0, 0);
    // Every 8th photo: 10 photos, 810 cells, different puzzles and phones.
    for photo in photos.iter().step_by(8) {
        let image = sudoku_lens::vision::load_image(&photo.image_path)
            .unwrap()
            .to_luma8();
        let scan = scanner
            .scan_lattice(&image, &Lattice::from_corners(photo.corners))
            .unwrap();
        let score = score_scan(&scan, &photo.labels);
        cells += score.cells;
        correct += score.cells_correct;
        digits += score.digits;
        digits_correct += score.digits_correct;
    }
    let acc = correct as f64 / cells as f64;
    let dacc = digits_correct as f64 / digits as f64;
    eprintln!(
        "kubiesa-val subset: {cells} cells, accuracy {acc:.4}, digits {digits} accuracy {dacc:.4}"
    );
    assert!(cells >= 700);
    assert!(acc >= 0.99, "cell accuracy {acc}");
    assert!(dacc >= 0.985, "digit accuracy {dacc}");
}

/// The whole pipeline (detector, rectification, reader) on every kubiesa-val photo: the
/// issue's targets are 99.5 % of cells and 98 % of boards exact (measured 2026-11-29 with
/// `eval`: 99.97 % and 78/80); the boards floor sits four boards below today's.
#[test]
fn reads_every_validation_photo_through_the_detector() {
    let photos = common::puzzle_sources("kubiesa-val");
    let mut scanner = Scanner::with_default_model().unwrap();
    let (mut cells, mut correct, mut boards, mut exact) = (0, 0, 0, 0);
    for photo in &photos {
        boards += 1;
        cells += 81;
        let image = sudoku_lens::vision::load_image(&photo.image_path).unwrap();
        let Ok(scan) = scanner.scan(&image) else {
            continue;
        };
        let score = score_scan(&scan, &photo.labels);
        correct += score.cells_correct;
        exact += usize::from(score.exact);
    }
    let acc = correct as f64 / cells as f64;
    eprintln!(
        "kubiesa-val pipeline: {boards} photos, cell accuracy {acc:.4}, {exact} boards exact"
    );
    assert!(boards >= 80);
    assert!(acc >= 0.995, "cell accuracy {acc}");
    assert!(exact >= 74, "{exact} of {boards} boards exact");
}

/// The second look at doubtful cells (`digits::second_look`: each is cut again along the
/// lattice moved a little four ways and its readings averaged) over every training photo of
/// kubiesa-train and wichtounet-v2-train (the held-back fifth left out): against the first
/// look along the same detected lattice, it must put right many cells and spoil almost none.
/// With the embedded model of 2026-11-29 (stop 39) it puts 13 cells right in 10 photos, each
/// of which it makes exact, and spoils none (until then this test named seven photos the
/// second look made exact with the former model).
#[test]
fn a_second_look_at_doubtful_cells_reads_them_right() {
    let mut scanner = Scanner::with_default_model().unwrap();
    let (mut put_right, mut spoiled, mut made_exact) = (0, 0, 0);
    let photos = [
        ("kubiesa-train", common::puzzle_sources("kubiesa-train")),
        (
            "wichtounet-v2-train",
            common::training_sources("wichtounet-v2-train", "wichtounet.txt"),
        ),
    ];
    for (set, sources) in photos {
        for photo in sources {
            let image = sudoku_lens::vision::load_image(&photo.image_path).unwrap();
            let gray = image.to_luma8();
            let Ok(detection) = sudoku_lens::vision::detect_gray(&gray) else {
                continue;
            };
            let lattice = detection.lattice();
            let first = scanner.read_oriented(&gray, &lattice).unwrap();
            let closely = scanner.read_closely(&gray, &lattice).unwrap();
            let right = |readings: Vec<sudoku_lens::digits::CellReading>| {
                let scan = sudoku_lens::scan::Scan::from_readings(detection.clone(), readings);
                score_scan(&scan, &photo.labels).cells_correct
            };
            let (before, after) = (right(first.readings), right(closely.readings));
            if after != before {
                eprintln!("{set}/{}: {before} -> {after} cells right", photo.name);
            }
            put_right += after.saturating_sub(before);
            spoiled += before.saturating_sub(after);
            made_exact += usize::from(after == 81 && before < 81);
        }
    }
    assert!(
        put_right >= 8 && made_exact >= 6 && spoiled <= 1,
        "second look: {put_right} cells put right ({made_exact} photos made exact), {spoiled} spoiled"
    );
}

/// Webcam frames of bold printed pages with shaded boxes (our generators;
/// `tests/fixtures/bold-print-webcam/README.md`): measured against each cell's median, which
/// is ink, their paper weighs as light ink, so the masses say light on dark, though not
/// clearly. Read both ways, the dark-on-light reading is the surer, and it is right
/// (`digits::polarity`; before it, 66 and 60 of their 81 cells were read right).
#[test]
fn a_page_whose_ink_masses_mislead_is_read_in_the_polarity_that_reads_surely() {
    use sudoku_lens::vision::{Polarity, PolarityEvidence, rectify::grid_cell_crops};
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bold-print-webcam");
    let set = sudoku_lens::dataset::Dataset::open(&dir).unwrap();
    assert_eq!(set.photos.len(), 2);
    let mut scanner = Scanner::with_default_model().unwrap();
    for photo in &set.photos {
        let labels = set.labels(photo).unwrap().unwrap();
        let image = sudoku_lens::vision::load_image(&photo.image_path).unwrap();
        let scan = scanner.scan(&image).unwrap();
        let gray = image.to_luma8();
        let crops = grid_cell_crops(
            &gray,
            &scan.detection.lattice(),
            sudoku_lens::scan::CELL_SIZE_PX,
        );
        let evidence = PolarityEvidence::of(&crops);
        assert!(
            !evidence.is_clear() && evidence.polarity() == Polarity::LightOnDark,
            "{}: the masses mislead ({evidence:?})",
            photo.name
        );
        let score = score_scan(&scan, &labels);
        assert!(
            score.exact,
            "{}: {} of 81 cells right",
            photo.name, score.cells_correct
        );
    }
}

/// Six photos of wichtounet-v2-train's held-back fifth (`models/train/holdout/wichtounet.txt`):
/// the model never trained on them.
#[test]
fn scans_a_photo_end_to_end_and_solves_it() {
    let photos = common::held_back_sources("wichtounet-v2-train", "wichtounet.txt");
    assert!(photos.len() >= 6, "{} held-back photos", photos.len());
    let mut scanner = Scanner::with_default_model().unwrap();
    let mut solved_right = 0;
    let mut tried = 0;
    for photo in photos.iter().take(6) {
        let image = sudoku_lens::vision::load_image(&photo.image_path).unwrap();
        let Ok(scan) = scanner.scan(&image) else {
            continue;
        };
        tried += 1;
        let truth: Vec<u8> = photo
            .labels
            .iter()
            .map(|&v| if v == 10 { 0 } else { v })
            .collect();
        let truth_solution = sudoku_lens::sudoku::solver::solve_values(
            &<[u8; 81]>::try_from(truth.as_slice()).unwrap(),
            1,
        )
        .first;
        if scan.best_solution().is_some() && scan.best_solution() == truth_solution {
            solved_right += 1;
        }
    }
    eprintln!("wichtounet held-back first 6: detected {tried}, solved right {solved_right}");
    assert!(solved_right >= 4, "solved right {solved_right} of {tried}");
}

/// Rozet's photos (MIT, F. Rozet) print each grid on a grey box offset behind it, so the
/// grid's ink outline is the union of both along two whole sides. Every second photo of the
/// held-back fifth (never trained on), through the detector: the cells must be read along the
/// grid, not along the union bent to fit (before the cell holes of a poorly fitting outline
/// were tried, 92.3 % of these cells; since, 97.6 %).
#[test]
fn reads_held_back_rozet_photos_whose_grid_merges_with_a_box_behind_it() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models/train/holdout/rozet-handwritten.txt");
    let held_back = sudoku_lens::dataset::NameList::read(&path).unwrap();
    let set = sudoku_lens::dataset::Dataset::open(common::shared_dataset("rozet-handwritten"))
        .unwrap()
        .with_label_fixes(&label_fixes())
        .unwrap();
    let mut photos: Vec<_> = set
        .photos
        .iter()
        .filter(|p| held_back.names.iter().any(|(_, n)| *n == p.name))
        .collect();
    photos.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(photos.len(), 80, "the held-back fifth of rozet-handwritten");
    let mut scanner = Scanner::with_default_model().unwrap();
    let (mut cells, mut correct) = (0, 0);
    for photo in photos.iter().step_by(2) {
        let labels = set.labels(photo).unwrap().unwrap();
        let image = sudoku_lens::vision::load_image(&photo.image_path).unwrap();
        cells += 81;
        if let Ok(scan) = scanner.scan(&image) {
            correct += score_scan(&scan, &labels).cells_correct;
        }
    }
    eprintln!("rozet held-back, every 2nd photo: {correct}/{cells} cells");
    assert!(correct * 100 >= cells * 97, "{correct}/{cells} cells");
}

/// Two training photos of rozet's (MIT, F. Rozet) whose grid merged with the grey box behind
/// it into one outline that still validated above the stage's "enough" score (0.87 and 0.90):
/// the lattice was bent to the union or ran a row into the box, and 52 and 60 cells were
/// misread. Such an outline's cell holes are tried too, and their lattice wins.
#[test]
fn a_grid_merged_with_its_box_yet_validating_well_is_read_along_its_cell_holes() {
    let set =
        sudoku_lens::dataset::Dataset::open(common::shared_dataset("rozet-handwritten")).unwrap();
    let mut scanner = Scanner::with_default_model().unwrap();
    for name in ["rozet_0095", "rozet_0276"] {
        let photo = set.photos.iter().find(|p| p.name == name).unwrap();
        let labels = set.labels(photo).unwrap().unwrap();
        let image = sudoku_lens::vision::load_image(&photo.image_path).unwrap();
        let scan = scanner.scan(&image).unwrap();
        let score = score_scan(&scan, &labels);
        assert_eq!(score.cells_correct, 81, "{name}: {score:?}");
    }
}

fn label_fixes() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/train/label-fixes")
}

/// Every committed label fix (models/train/label-fixes: rozet_0270 and rozet_0271 of rozet's
/// set, MIT, F. Rozet, carry each other's label files) is what the photo shows: read through
/// the detector, the photo agrees with its fix in every cell and with its own label file in
/// fewer than half its cells.
#[test]
fn the_committed_label_fixes_are_what_the_photos_show() {
    let set = || {
        sudoku_lens::dataset::Dataset::open(common::shared_dataset("rozet-handwritten")).unwrap()
    };
    let (own, fixed) = (set(), set().with_label_fixes(&label_fixes()).unwrap());
    let mut scanner = Scanner::with_default_model().unwrap();
    let mut checked = 0;
    for (photo, fix) in own.photos.iter().zip(&fixed.photos) {
        if photo.label_path == fix.label_path {
            continue;
        }
        let image = sudoku_lens::vision::load_image(&photo.image_path).unwrap();
        let scan = scanner.scan(&image).unwrap();
        let with_fix = score_scan(&scan, &fixed.labels(fix).unwrap().unwrap());
        let with_own = score_scan(&scan, &own.labels(photo).unwrap().unwrap());
        assert_eq!(with_fix.cells_correct, 81, "{}: {with_fix:?}", photo.name);
        assert!(with_own.cells_correct < 41, "{}: {with_own:?}", photo.name);
        checked += 1;
    }
    assert_eq!(checked, 2, "the two swapped rozet label files");
}

/// A printed page of our generator (`tests/fixtures/print-page-stray-holes/README.md`) whose
/// grid merges with the box round the puzzle: found from its cell holes, though the walk over
/// them reaches a few holes of the small printed solution under it (until that walk was cut
/// to the 9×9 window holding most holes, it was refused and no grid was found), and read
/// exactly.
#[test]
fn a_grid_whose_cell_holes_reach_into_other_print_is_found_from_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/print-page-stray-holes");
    let set = sudoku_lens::dataset::Dataset::open(&dir).unwrap();
    let photo = &set.photos[0];
    let labels = set.labels(photo).unwrap().unwrap();
    let image = sudoku_lens::vision::load_image(&photo.image_path).unwrap();
    let scan = Scanner::with_default_model().unwrap().scan(&image).unwrap();
    let truth = photo.corners_in_image.unwrap();
    let err = sudoku_lens::eval::corner_error_pct(scan.detection.corners_in_image, truth);
    assert!(err < 3.0, "corners {err:.1} % of the side off");
    let score = score_scan(&scan, &labels);
    assert!(score.exact, "{} of 81 cells right", score.cells_correct);
}
