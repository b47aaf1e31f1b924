//! The app on a half-done puzzle (kittest): a recognizer double reads a photo's printed givens
//! and four handwritten entries, one of them wrong. The entries are checked against the
//! givens: the wrong one is named on the board, on the photo and in the panel with the step
//! that proves it; the walk goes on from the givens plus the right entries, and the switch
//! shows the full path from the printed givens. A model that cannot tell handwriting from
//! print says so.

#![cfg(feature = "gui")]

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::app::{PUZZLE_TEXT, harness_sized, step_until};
use egui_kittest::kittest::Queryable;
use sudoku_lens::app::pipeline::{PhotoScan, PhotoScanner, PhotoWriting, Reading};
use sudoku_lens::app::{AppOptions, Pipeline, SudokuLensApp};
use sudoku_lens::session::{LoadFailure, SolveState};
use sudoku_lens::sudoku::solver::solve_values;
use sudoku_lens::vision::{Lattice, Point};

/// Givens of the text puzzle plus handwritten entries: `entries` as (cell index, digit).
struct ReadsHalfDone {
    entries: Vec<(usize, u8)>,
    kinds: bool,
}

fn givens() -> [u8; 81] {
    std::array::from_fn(|i| PUZZLE_TEXT.as_bytes()[i] - b'0')
}

impl PhotoScanner for ReadsHalfDone {
    fn scan(&self, _image: &image::RgbImage) -> Result<PhotoScan, LoadFailure> {
        let mut values = givens();
        let mut entries = [false; 81];
        for &(i, d) in &self.entries {
            values[i] = d;
            entries[i] = true;
        }
        let mut pencil = [false; 81];
        pencil[80] = true;
        Ok(PhotoScan {
            lattice: Some(Lattice::from_corners([
                Point::new(20.0, 20.0),
                Point::new(280.0, 20.0),
                Point::new(280.0, 280.0),
                Point::new(20.0, 280.0),
            ])),
            reading: Some(Reading {
                values,
                confidence: [0.99; 81],
            }),
            repair: None,
            writing: self.kinds.then_some(PhotoWriting {
                entries,
                pencil,
                model_read: [0; 81],
            }),
        })
    }
}

fn app_on(scanner: ReadsHalfDone) -> egui_kittest::Harness<'static, SudokuLensApp> {
    app_on_with(scanner, false)
}

fn app_on_with(
    scanner: ReadsHalfDone,
    wgpu: bool,
) -> egui_kittest::Harness<'static, SudokuLensApp> {
    let dir = tempfile::tempdir().unwrap();
    let photo = dir.path().join("half-done.png");
    image::RgbImage::from_pixel(300, 300, image::Rgb([230, 230, 230]))
        .save(&photo)
        .unwrap();
    let base = sudoku_lens::app::wiring::default_pipeline();
    let app = SudokuLensApp::new(
        AppOptions {
            start_camera: false,
            fresh: true,
            photo: Some(photo),
            pipeline: Some(Pipeline {
                photo: Arc::new(scanner),
                live: base.live,
            }),
            ..AppOptions::default()
        },
        None,
    );
    let mut h = if wgpu {
        egui_kittest::Harness::builder()
            .with_size(egui::Vec2::new(1280.0, 800.0))
            .wgpu()
            .build_ui_state(|ui, app: &mut SudokuLensApp| app.show(ui), app)
    } else {
        harness_sized(app, 1280.0, 800.0)
    };
    step_until(
        &mut h,
        Duration::from_secs(60),
        "the photo read and solved",
        |a| !a.is_busy() && !matches!(a.solve_state(), SolveState::Idle | SolveState::Solving),
    );
    h.run_steps(2);
    h
}

#[test]
fn wrong_entries_are_named_and_the_walk_goes_on_from_the_right_ones() {
    let g = givens();
    let solution = solve_values(&g, 1).first.unwrap();
    let empty: Vec<usize> = (0..81).filter(|&i| g[i] == 0).collect();
    // Three right entries, then one wrong one.
    let mut entries: Vec<(usize, u8)> = empty[..3].iter().map(|&i| (i, solution[i])).collect();
    let bad = empty[3];
    let wrong_digit = solution[bad] % 9 + 1;
    entries.push((bad, wrong_digit));
    let mut h = app_on(ReadsHalfDone {
        entries,
        kinds: true,
    });
    let cell = sudoku_lens::sudoku::Cell::from_index(bad);
    let check = h.state().check().expect("the entries are checked").clone();
    assert_eq!(check.wrong_cells(), vec![cell]);
    let why = check.wrong()[0].text();
    assert!(
        why.starts_with(&format!(
            "{cell}: you wrote {wrong_digit}, but {cell} must be {}",
            solution[bad]
        )),
        "{why}"
    );
    // On the board (red, the reason on hover), on the photo, in the panel.
    h.get_by_label(&format!("{cell} {wrong_digit}, your entry, wrong"));
    h.get_by_label(&format!(
        "{} {}, your entry",
        sudoku_lens::sudoku::Cell::from_index(empty[0]),
        solution[empty[0]]
    ));
    h.get_by_label(&format!("{cell} wrong on the photo"));
    h.get_by_label("Your entries: 3 right, 1 wrong.");
    h.get_by_label(&why);
    // The walk starts from the givens plus the three right entries, never the wrong one.
    let givens_count = g.iter().filter(|&&v| v != 0).count();
    let start = |a: &SudokuLensApp| {
        a.solve_state()
            .walkthrough()
            .map(|w| w.explained().puzzle.clone())
    };
    let from = start(h.state()).expect("solved");
    assert_eq!(from.filled_count(), givens_count + 3);
    assert_eq!(from.value(cell), None);
    let steps_on = h.state().solve_state().walkthrough().unwrap().len();
    // The switch: the full path from the printed givens.
    h.get_by_label("Full path from the start").click();
    step_until(&mut h, Duration::from_secs(60), "the full path", |a| {
        start(a).is_some_and(|p| p.filled_count() == givens_count)
    });
    let steps_full = h.state().solve_state().walkthrough().unwrap().len();
    assert!(steps_full > steps_on, "{steps_full} vs {steps_on}");
    assert_eq!(h.state().check().unwrap().wrong_cells(), vec![cell]);
}

#[test]
fn a_model_that_cannot_tell_handwriting_says_so() {
    let g = givens();
    let solution = solve_values(&g, 1).first.unwrap();
    let i = (0..81).find(|&i| g[i] == 0).unwrap();
    let h = app_on(ReadsHalfDone {
        entries: vec![(i, solution[i])],
        kinds: false,
    });
    let message = h.state().message().expect("a status message").text.clone();
    assert!(
        message.contains("cannot tell handwriting from print"),
        "{message}"
    );
    assert!(h.state().check().is_none());
    assert!(!h.state().board().has_entries());
}

/// Rendered: the entries are in pen colour and the wrong one's cell is red (on the board;
/// the photo gets a red outline).
#[test]
fn entries_are_drawn_in_pen_colour_and_the_wrong_one_red() {
    let g = givens();
    let solution = solve_values(&g, 1).first.unwrap();
    let empty: Vec<usize> = (0..81).filter(|&i| g[i] == 0).collect();
    let mut entries: Vec<(usize, u8)> = empty[..6].iter().map(|&i| (i, solution[i])).collect();
    entries.push((empty[6], solution[empty[6]] % 9 + 1));
    let mut h = app_on_with(
        ReadsHalfDone {
            entries,
            kinds: true,
        },
        true,
    );
    h.step();
    let img = match h.render() {
        Ok(img) => img,
        Err(e) => panic!("wgpu rendering failed (is mesa-vulkan-drivers installed?): {e}"),
    };
    img.save(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("app_halfdone.png"))
        .ok();
    let near = |c: [u8; 4], tolerance: i32| {
        img.pixels()
            .filter(|p| (0..3).all(|k| (i32::from(p.0[k]) - i32::from(c[k])).abs() <= tolerance))
            .count()
    };
    let pen = near(sudoku_lens::app::board_view::PEN_COLOR.to_array(), 12);
    let wrong_fill = near(sudoku_lens::app::board_view::WRONG_ENTRY_FILL.to_array(), 6);
    assert!(pen > 30, "pen-coloured pixels: {pen}");
    assert!(wrong_fill > 300, "wrong-entry cell pixels: {wrong_fill}");
}

/// A camera of one unchanging 320×240 page at about 30 fps.
struct StillCamera;

impl sudoku_lens::camera::FrameSource for StillCamera {
    fn describe(&self) -> String {
        "still test camera".into()
    }
    fn next_frame(&mut self) -> Result<image::RgbImage, sudoku_lens::camera::CameraError> {
        std::thread::sleep(Duration::from_millis(30));
        Ok(image::RgbImage::from_pixel(
            320,
            240,
            image::Rgb([220, 220, 220]),
        ))
    }
}

/// The camera path: a locked half-done board (as `LiveReader` splits it) goes on the board as
/// a photo's does — the entries checked against the printed givens, the wrong one named red,
/// and outlined on the paper while the camera shows that page, not on another one.
#[test]
fn a_locked_camera_board_checks_its_entries_like_a_photo() {
    use std::sync::Mutex;
    use sudoku_lens::live::{LiveOutput, Overlay};
    let g = givens();
    let solution = solve_values(&g, 1).first.unwrap();
    let empty: Vec<usize> = (0..81).filter(|&i| g[i] == 0).collect();
    let (right, bad) = (empty[0], empty[1]);
    let wrong_digit = solution[bad] % 9 + 1;
    let mut read = g;
    read[right] = solution[right];
    read[bad] = wrong_digit;
    let mut overlay = Overlay::unsplit(7, read, solution);
    overlay.written.givens = g;
    overlay.written.entries[right] = solution[right];
    overlay.written.entries[bad] = wrong_digit;
    overlay.written.kinds_known = true;
    let script: common::app::Script = Arc::new(Mutex::new(LiveOutput {
        overlay: Some(Arc::new(overlay)),
        ..common::app::locked_output(7, common::app::scripted_lattice(), read, solution)
    }));
    let opener: sudoku_lens::camera::Opener =
        Arc::new(|| Ok(Box::new(StillCamera) as Box<dyn sudoku_lens::camera::FrameSource>));
    let app = SudokuLensApp::new(
        AppOptions {
            custom_source: Some(("still test camera".into(), opener)),
            pipeline: Some(common::app::scripted_pipeline(&script)),
            ..common::app::options()
        },
        None,
    );
    let mut h = harness_sized(app, 1280.0, 800.0);
    step_until(
        &mut h,
        Duration::from_secs(60),
        "the camera board checked",
        |a| a.check().is_some(),
    );
    let cell = sudoku_lens::sudoku::Cell::from_index(bad);
    let check = h.state().check().expect("the entries are checked").clone();
    assert_eq!(check.wrong_cells(), vec![cell]);
    h.run_steps(2);
    h.get_by_label(&format!("{cell} {wrong_digit}, your entry, wrong"));
    // On the paper too, while the camera shows this board's page.
    let on_photo = format!("{cell} wrong on the photo");
    h.get_by_label(&on_photo);
    // The camera moves to another page (another puzzle followed, no overlay): the board
    // keeps its check, but nothing of it is outlined on the new page.
    let lattice = common::app::scripted_lattice();
    *script.lock().unwrap() = LiveOutput {
        state: sudoku_lens::live::LiveState::Following,
        puzzle_id: 8,
        lattice: Some(lattice),
        overlay: None,
        ..LiveOutput::default()
    };
    step_until(
        &mut h,
        Duration::from_secs(20),
        "another page followed",
        |a| a.live_state() == sudoku_lens::live::LiveState::Following,
    );
    h.run_steps(2);
    h.get_by_label(&format!("{cell} {wrong_digit}, your entry, wrong"));
    assert!(
        h.query_by_label(&on_photo).is_none(),
        "a wrong entry outlined on another page"
    );
}
