//! Checking half-done puzzles on real photos: kubiesa-val pictures of newspaper puzzles part
//! filled in by hand, read through a label-driven test double (each cell read as its label,
//! printed or handwritten as the committed givens mask says), with one handwritten digit
//! edited wrong: `Scan::check` names exactly that cell, with the digit it must hold and the
//! step that places it; readings that were never told apart are refused rather than guessed.
//! Also: with the bundled model (no handwriting output) `check` tells print from handwriting
//! by the photo's ink and gives the mask's verdict on held-out photos.

mod common;

use std::path::Path;
use std::process::Command;

use sudoku_lens::dataset::Dataset;
use sudoku_lens::digits::writing::{true_verdict, verdict_of};
use sudoku_lens::digits::{CellReading, NUM_CLASSES};
use sudoku_lens::scan::{CheckUnavailable, Scan, Scanner};
use sudoku_lens::sudoku::{Cell, Check, Verdict};
use sudoku_lens::vision;

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-lens");

/// The test double's reading of one cell: its label for certain, handwritten by the mask.
fn reading(label: u8, printed: bool, kinds: bool) -> CellReading {
    let mut p = [0.0f32; NUM_CLASSES];
    p[label as usize] = 1.0;
    let r = CellReading::from_probabilities(p);
    if kinds {
        r.with_handwritten(if printed { 0.02 } else { 0.97 })
    } else {
        r
    }
}

fn scan_of(
    detection: &vision::GridDetection,
    labels: &[u8; 81],
    mask: &[bool; 81],
    kinds: bool,
) -> Scan {
    let readings = (0..81)
        .map(|i| reading(labels[i], mask[i], kinds))
        .collect();
    Scan::from_readings(detection.clone(), readings)
}

/// A wrong digit for cell `k` that repeats nothing in its houses (a quiet mistake), else any
/// other digit.
fn wrong_digit(labels: &[u8; 81], k: usize) -> u8 {
    let cell = Cell::from_index(k);
    let seen = |d: u8| (0..81).any(|j| j != k && labels[j] == d && cell.sees(Cell::from_index(j)));
    (1..=9)
        .find(|&d| d != labels[k] && !seen(d))
        .unwrap_or(labels[k] % 9 + 1)
}

#[test]
fn check_names_exactly_the_entry_edited_wrong() {
    let set = Dataset::open(common::shared_dataset("kubiesa-val"))
        .unwrap()
        .with_givens_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("models/train/givens"))
        .unwrap();
    let mut checked = 0;
    // One photo of each of a few puzzles (the four photos of a puzzle share its page).
    for photo in set.photos.iter().step_by(4).take(3) {
        let labels = set
            .labels(photo)
            .unwrap()
            .expect("kubiesa photos are labelled");
        let mask = set
            .givens(photo)
            .unwrap()
            .expect("every kubiesa puzzle has a mask");
        let gray = vision::to_gray(&vision::load_image(&photo.image_path).unwrap());
        let detection =
            vision::detect_gray(&gray).unwrap_or_else(|e| panic!("{}: no grid: {e}", photo.name));
        let entries: Vec<usize> = (0..81)
            .filter(|&i| !mask[i] && (1..=9).contains(&labels[i]))
            .collect();
        if entries.is_empty() {
            continue;
        }
        // As written: every entry is right.
        let scan = scan_of(&detection, &labels, &mask, true);
        let w = scan.written();
        assert!(w.kinds_known);
        assert_eq!(
            w.entries.iter().filter(|&&v| v != 0).count(),
            entries.len(),
            "{}",
            photo.name
        );
        assert_eq!(
            w.pencil.iter().filter(|&&p| p).count(),
            labels.iter().filter(|&&v| v == 10).count()
        );
        let check = scan.check().unwrap();
        let Check::Checked {
            entries: e, unique, ..
        } = &check
        else {
            panic!("{}: {check:?}", photo.name)
        };
        assert!(unique, "{}", photo.name);
        assert!(
            e.iter().all(|e| e.verdict == Verdict::Right),
            "{}",
            photo.name
        );
        // One entry edited wrong: exactly that cell is named, with what it must be.
        let k = entries[entries.len() / 2];
        let mut edited = labels;
        edited[k] = wrong_digit(&labels, k);
        let check = scan_of(&detection, &edited, &mask, true).check().unwrap();
        let cell = Cell::from_index(k);
        assert_eq!(check.wrong_cells(), vec![cell], "{}", photo.name);
        let text = check.wrong()[0].text();
        assert!(
            text.starts_with(&format!(
                "{cell}: you wrote {}, but {cell} must be {} — ",
                edited[k], labels[k]
            )),
            "{}: {text}",
            photo.name
        );
        // Going on from there: the givens plus the right entries, never the wrong one.
        let givens = scan_of(&detection, &edited, &mask, true).written().givens;
        let position = check.position(&givens).unwrap();
        assert_eq!(position.value(cell), None);
        assert_eq!(
            position.filled_count(),
            mask.iter().filter(|&&m| m).count() + entries.len() - 1
        );
        // Readings never told apart (no `kind` output, no ink measured): no check, never a
        // guess.
        assert_eq!(
            scan_of(&detection, &edited, &mask, false).check(),
            Err(CheckUnavailable::NoKindOutput)
        );
        checked += 1;
    }
    assert!(checked >= 2, "only {checked} half-done photos checked");
}

/// The bundled model has no handwriting output: print is told from handwriting by the
/// photo's ink (`digits::style`, fitted on training photos only). On half-done kubiesa-val
/// photos (never fitted on; one photo of each of five puzzles, taken by position, not by how
/// they read) `Scan::check` gives the verdict the labels and the committed mask give (which
/// entries are wrong: none here) on at least four, and `sudoku-lens check` runs on one.
#[test]
fn check_with_the_bundled_model_gives_the_masks_verdict() {
    let set = Dataset::open(common::shared_dataset("kubiesa-val"))
        .unwrap()
        .with_givens_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("models/train/givens"))
        .unwrap();
    let mut scanner = Scanner::with_default_model().unwrap();
    let photos: Vec<_> = set.photos.iter().step_by(16).take(5).collect();
    let mut right = Vec::new();
    for photo in &photos {
        let labels = set.labels(photo).unwrap().expect("labelled");
        let mask = set
            .givens(photo)
            .unwrap()
            .expect("every kubiesa puzzle has a mask");
        let scan = scanner
            .scan(&vision::load_image(&photo.image_path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", photo.name));
        let w = scan.written();
        assert!(
            w.kinds_known,
            "{}: print not told from handwriting",
            photo.name
        );
        assert!(scan.check().is_ok(), "{}", photo.name);
        let truth = true_verdict(&labels, &mask);
        assert!(
            truth.is_some(),
            "{}: the mask is not a proper puzzle",
            photo.name
        );
        if verdict_of(&w.givens, &w.entries, &scan.uncertain_mask()) == truth {
            right.push(photo.name.clone());
        }
    }
    assert!(right.len() >= 4, "right verdict only on {right:?} of 5");
    let out = Command::new(BIN)
        .args(["check", "--json"])
        .arg(&photos[0].image_path)
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        json["givens"].as_str().is_some_and(|g| g.len() == 81),
        "{json}"
    );
}

/// `scan --json` with a model that has the handwriting output (the fixture's tiny random
/// model, so the digits themselves mean nothing): every read digit is in exactly one of
/// `givens` and `entries`, and `pencil` marks cells only where the grid reads empty.
#[test]
fn scan_json_splits_every_digit_into_givens_or_entries() {
    let set = Dataset::open(common::shared_dataset("kubiesa-val")).unwrap();
    let out = Command::new(BIN)
        .args(["scan", "--json", "--model"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kind_output.onnx"))
        .arg(&set.photos[0].image_path)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(json["kinds_known"], true, "{json}");
    let field = |k: &str| json[k].as_str().unwrap().chars().collect::<Vec<char>>();
    let (grid, givens, entries, pencil) = (
        field("grid"),
        field("givens"),
        field("entries"),
        field("pencil"),
    );
    for f in [&givens, &entries, &pencil] {
        assert_eq!(f.len(), 81);
    }
    for i in 0..81 {
        let split = match (givens[i], entries[i]) {
            ('.', e) => e,
            (g, '.') => g,
            _ => panic!("cell {i} is both a given and an entry: {json}"),
        };
        assert_eq!(split, grid[i], "cell {i}");
        assert!(
            pencil[i] == '.' || (pencil[i] == 'p' && grid[i] == '.'),
            "cell {i}"
        );
    }
}
