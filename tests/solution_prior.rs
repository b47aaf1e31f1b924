//! Handwritten entries read with the puzzle's solution as a prior (`digits::solution_prior`)
//! on real photos:
//!
//! - finished pages the model never trained on: six held-back photos of
//!   `wichtounet-mixed-train` (CC BY 4.0, B. Wicht & J. Hennebert; read from ../shared; named in
//!   `models/train/holdout/wichtounet.txt`), a newspaper puzzle with a handwritten digit pasted
//!   into every empty cell. The model doubts some of those digits; the solution of the printed
//!   givens decides them, and every decided cell stays flagged uncertain;
//! - a page with mistakes: a kubiesa-train photo (03_02; MIT, A. Kubiesa; read from ../shared)
//!   with every empty cell written in by `synthetic::fill_photo_with_pens`, three in ten of
//!   them another digit than the solution's. No mistake may pass as right: read as written, or
//!   read as the solution's digit only while flagged and checked as unsure (on this page the
//!   model doubts one mistake, r2c8, enough for the solution to decide it). The app's board
//!   check, which keeps the digit the model read there (`Board::model_read`), must agree;
//! - webcam frames (`synth webcam --seed 5003 --size 640x480`, made in the test) of three
//!   wichtounet-mixed training photos (CC BY 4.0, B. Wicht & J. Hennebert; read from ../shared), whose ink the style split cannot tell apart (it calls
//!   dozens of pasted digits print, so the printed givens are no proper puzzle): the solution
//!   of the sure digits weighs the doubtful ones instead.

mod common;

use sudoku_lens::scan::Scanner;
use sudoku_lens::session::{Board, solve_progress};
use sudoku_lens::sudoku::solver::solve_values;
use sudoku_lens::sudoku::{Check, Verdict};
use sudoku_lens::synthetic::rng::stable_hash;
use sudoku_lens::synthetic::{Rng, fill_photo_with_pens};

/// Held-back finished pages on which the model doubts some handwriting (chosen by
/// `scan --json`'s `entries_by_solution` when the rule was added: 18 decided cells).
const FINISHED_PAGES: [&str; 6] = [
    "image1001",
    "image1036",
    "image113",
    "image29",
    "image44",
    "image61",
];

#[test]
fn doubtful_handwriting_on_finished_pages_is_read_as_the_solution_has_it() {
    let (_, held_back) = common::held_back_list("wichtounet.txt");
    let mut scanner = Scanner::with_default_model().unwrap();
    let (mut decided, mut cells_right) = (0, 0);
    for name in FINISHED_PAGES {
        assert!(
            held_back.names.iter().any(|(_, n)| n == name),
            "{name} is held back"
        );
        let (photo, _, labels) = common::named_photo("wichtounet-mixed-train", name);
        let scan = scanner.scan(&photo).unwrap();
        common::assert_decided_right_and_flagged(name, &scan, &labels, &scan.entries_by_solution);
        decided += scan.entries_by_solution.len();
        cells_right += (0..81)
            .filter(|&i| scan.values[i] == labels[i] % 10)
            .count();
    }
    // Without the prior these pages read 465 of 486 cells right, the 18 decided ones wrong.
    assert!(
        decided >= 12,
        "only {decided} cells decided by the solution"
    );
    assert!(cells_right >= 480, "{cells_right} of 486 cells read right");
}

#[test]
fn mistakes_never_pass_as_right() {
    let name = "03_02_honor_view_10_1";
    let (image, corners, labels) = common::kubiesa_train_page(name);
    let digits = labels.map(|v| if v <= 9 { v } else { 0 });
    let solution = solve_values(&digits, 1).first.expect("a solution");
    let mut rng = Rng::for_item(4901, stable_hash(name.as_bytes()));
    let filled =
        fill_photo_with_pens(&image, corners, &labels, 1.0, &[], 0.3, &mut rng).expect("filled");
    let mistakes: Vec<usize> = (0..81)
        .filter(|&i| filled.labels[i] != solution[i])
        .collect();
    assert!(mistakes.len() >= 8, "{} mistakes written", mistakes.len());
    let page = common::through_jpeg(&filled.image, 92);
    let mut scanner = Scanner::with_default_model().unwrap();
    let scan = scanner.scan(&page).unwrap();
    let Ok(Check::Checked { entries, .. }) = scan.check() else {
        panic!("the page is checked");
    };
    // The app's photo board, as `app::wiring` builds it from the scan, and its check.
    let written = scan.written();
    let board = Board::new(scan.values, scan.uncertain_mask(), None)
        .with_writing(written.entries.map(|v| v != 0), written.pencil)
        .with_model_read(scan.entries_as_model_read());
    let Some(Check::Checked {
        entries: board_entries,
        ..
    }) = solve_progress(&board, false)
        .expect("the board solves")
        .check
    else {
        panic!("the board's entries are checked");
    };
    let mut read_as_written = 0;
    for &i in &mistakes {
        if scan.values[i] == filled.labels[i] {
            read_as_written += 1;
        }
        if scan.values[i] == solution[i] {
            assert!(
                scan.readings[i].is_uncertain(),
                "mistake in cell {i} read as the solution's digit without a flag"
            );
        }
        for (whose, checked) in [
            ("check", &entries),
            ("the app's board check", &board_entries),
        ] {
            if let Some(e) = checked.iter().find(|e| e.cell.index() == i) {
                assert_ne!(
                    e.verdict,
                    Verdict::Right,
                    "mistake in cell {i} called right by {whose}"
                );
            }
        }
    }
    assert!(
        2 * read_as_written >= mistakes.len(),
        "{read_as_written} of {} mistakes read as written",
        mistakes.len()
    );
}

/// Training photos of wichtounet-mixed whose webcam frames (seed 5003) the sure digits' solution
/// mends (when the fallback was added: 7, 6 and 7 handwritten digits decided, 3 cells of
/// image160 still wrong).
const WEBCAM_PAGES: [&str; 3] = ["image1049", "image160", "image178"];

#[test]
fn webcam_frames_whose_print_is_not_told_apart_are_read_with_the_sure_digits_solution() {
    let mut scanner = Scanner::with_default_model().unwrap();
    let (mut decided, mut wrong) = (0, 0);
    for name in WEBCAM_PAGES {
        let (photo, corners, labels) = common::named_photo("wichtounet-mixed-train", name);
        let mut rng = Rng::for_item(5003, stable_hash(name.as_bytes()));
        let corners = corners.expect("corners");
        let (frame, _) = common::vga_webcam_jpeg(&photo.to_rgb8(), corners, &mut rng);
        let scan = scanner.scan(&frame).unwrap();
        common::assert_decided_right_and_flagged(name, &scan, &labels, &scan.entries_by_solution);
        decided += scan.entries_by_solution.len();
        let wrong_here = (0..81)
            .filter(|&i| scan.values[i] != labels[i] % 10)
            .count();
        println!(
            "{name}: {} decided, {wrong_here} wrong",
            scan.entries_by_solution.len()
        );
        wrong += wrong_here;
    }
    // Without the sure digits' solution these frames read 23 cells wrong.
    assert!(decided >= 16, "only {decided} cells decided");
    assert!(wrong <= 5, "{wrong} cells read wrong");
}
