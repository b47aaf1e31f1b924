//! UI tests of the app as a casual solver meets it (issue 14), through egui_kittest with the
//! real worker threads: a photo that does not load changes nothing and says why in plain
//! words; the step controls stay in view in small windows; every board change can be undone
//! and reverted; the solution stays hidden until revealed, and Save PNG writes what is shown;
//! the help overlay; each step's plain sentence and its technique's glossary; hints that do not give the step away; a repair summary the font can draw.
//!
//! Threads report asynchronously, so tests step the harness until a condition holds or a
//! deadline passes (the deadline only bounds a failure; nothing is timed).

use std::path::PathBuf;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use sudoku_lens::app::{AppOptions, Command, SudokuLensApp};
use sudoku_lens::session::SolveState;
use sudoku_lens::sudoku::Cell;

mod common;

use common::app::{MemoryStorage, PUZZLE_TEXT, harness_sized, options, solved, step_until};

/// The app at `w`×`h` with the text puzzle loaded and solved.
fn puzzle_app(w: f32, h: f32) -> Harness<'static, SudokuLensApp> {
    let mut app = SudokuLensApp::new(options(), None);
    app.apply(Command::LoadPuzzleText(PUZZLE_TEXT.into()));
    let mut h = harness_sized(app, w, h);
    step_until(&mut h, Duration::from_secs(60), "the solve", solved);
    h.step();
    h
}

/// The solution of the solved puzzle on the board.
fn solution_of(app: &SudokuLensApp) -> [u8; 81] {
    app.solve_state()
        .walkthrough()
        .expect("a solved puzzle")
        .explained()
        .solution
}

fn step_pos(app: &SudokuLensApp) -> usize {
    app.solve_state()
        .walkthrough()
        .map_or(usize::MAX, |w| w.pos())
}

/// Loads `path` as a photo and waits until the load is over.
fn load_and_wait(h: &mut Harness<'static, SudokuLensApp>, path: PathBuf) {
    h.state_mut().apply(Command::LoadPhoto(path));
    step_until(h, Duration::from_secs(120), "the load to end", |a| {
        !a.is_busy()
    });
    h.step();
}

/// A damaged JPEG, a file that is no picture, and a picture with no grid: each leaves the
/// puzzle, its name and its solve as they were, and says what went wrong and what to try, in
/// words that are not cut off in an 800-wide window.
#[test]
fn a_photo_that_does_not_load_changes_nothing_and_says_why() {
    let mut h = puzzle_app(800.0, 600.0);
    h.state_mut().apply(Command::NextStep);
    h.step();
    let board = h.state().board().clone();
    let dir = tempfile::tempdir().unwrap();

    // A real photo cut in half.
    let photo = common::shared_dataset("wichtounet-v2-train").join("images/image1.jpg");
    let bytes = std::fs::read(&photo).expect("the shared photo");
    let cut = dir.path().join("cut.jpg");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    // Not a picture at all.
    let text = dir.path().join("notes.png");
    std::fs::write(&text, "shopping list").unwrap();
    // A picture without a grid.
    let blank = dir.path().join("blank.png");
    image::RgbImage::from_pixel(600, 600, image::Rgb([250, 250, 250]))
        .save(&blank)
        .unwrap();

    for (path, says, try_this) in [
        (
            cut,
            "cut.jpg is damaged",
            "Copy or download the photo again",
        ),
        (text, "notes.png is not a picture", "PNG, JPEG"),
        (
            blank,
            "No Sudoku grid found in blank.png",
            "all four corners",
        ),
    ] {
        load_and_wait(&mut h, path);
        let app = h.state();
        assert_eq!(app.board(), &board, "the board is untouched");
        assert!(solved(app) && step_pos(app) == 1, "the walk is untouched");
        let message = app.message().expect("a message").text.clone();
        assert!(message.contains(says), "{message}");
        assert!(message.contains(try_this), "{message}");
        assert!(!message.contains("lattice"), "no jargon: {message}");
        // The board keeps its name; the explanation is shown, whole, on screen.
        h.get_by_label("Board — pasted text");
        // Shown over the picture (headline and advice) and in the status line.
        for part in [says, try_this] {
            let rects: Vec<_> = h
                .query_all_by_label_contains(part)
                .map(|n| n.rect())
                .collect();
            assert!(rects.len() >= 2, "{part} shown: {rects:?}");
            for r in rects {
                assert!(r.max.x <= 800.0 && r.max.y <= 600.0, "cut off: {r:?}");
            }
        }
        // The status line wraps the long message inside the window.
        let status = h
            .query_all_by_label(&message)
            .map(|n| n.rect())
            .collect::<Vec<_>>();
        assert!(!status.is_empty(), "the message is in the status line");
        assert!(status.iter().all(|r| r.max.x <= 800.0), "{status:?}");
    }
    h.get_by_label("Dismiss").click();
    h.step();
    h.step();
    // Only the status line still says it.
    assert_eq!(h.query_all_by_label_contains("all four corners").count(), 1);
}

/// At 800×600, 1024×700 and 1366×768 the step buttons and the current step's text are on
/// screen, above the status bar, without scrolling.
#[test]
fn the_steps_stay_in_view_in_small_windows() {
    for (w, hgt) in [(800.0, 600.0), (1024.0, 700.0), (1366.0, 768.0)] {
        let mut h = puzzle_app(w, hgt);
        h.run_steps(3);
        let status_top = h.get_by_label_contains(" fps").rect().min.y;
        let text = h
            .state()
            .solve_state()
            .walkthrough()
            .unwrap()
            .text(0)
            .to_string();
        for (what, r) in [
            ("Next", h.get_by_label("Next").rect()),
            ("Previous", h.get_by_label("Previous").rect()),
            ("the current step", h.get_by_label(&text).rect()),
        ] {
            assert!(
                r.min.y >= 0.0 && r.max.y <= status_top && r.max.x <= w,
                "{w}×{hgt}: {what} at {r:?} is not visible (status bar at {status_top})"
            );
        }
        h.get_by_label("Next").click();
        h.run_steps(2);
        assert_eq!(step_pos(h.state()), 1, "{w}×{hgt}: Next works");
    }
}

/// Edits, Clear and reverts are undone and redone with Ctrl+Z / Ctrl+Shift+Z; Delete on a
/// corrected digit puts back what was read; arrows move the selected cell, not the step.
#[test]
fn board_changes_undo_redo_and_revert() {
    let mut h = puzzle_app(1280.0, 800.0);
    let read = h.state().board().clone();
    let cell = Cell::from_index(2); // read as 3
    assert_eq!(read.values[2], 3);
    h.get_by_label(&format!("{cell} 3")).click();
    h.step();
    assert_eq!(h.state().selected_cell(), Some(cell));
    h.key_press(egui::Key::Num8);
    h.step();
    assert_eq!(h.state().board().values[2], 8);
    // Delete on the corrected cell restores what was read.
    h.key_press(egui::Key::Delete);
    h.step();
    assert_eq!(h.state().board().values[2], 3);
    // Undo brings the 8 back, redo the 3.
    let undo = egui::Modifiers::COMMAND;
    h.key_press_modifiers(undo, egui::Key::Z);
    h.step();
    assert_eq!(h.state().board().values[2], 8);
    h.key_press_modifiers(undo | egui::Modifiers::SHIFT, egui::Key::Z);
    h.step();
    assert_eq!(h.state().board().values[2], 3);

    // Arrows move the selection while a cell is selected, and leave the step alone. Each edit
    // above solved the board again on the solver's thread: the step is read once that is done
    // (read before, it was none, and the solve that ended between the arrows set it).
    step_until(
        &mut h,
        Duration::from_secs(60),
        "the solve after the edits",
        solved,
    );
    let pos = step_pos(h.state());
    h.key_press(egui::Key::ArrowRight);
    h.step();
    h.key_press(egui::Key::ArrowDown);
    h.step();
    assert_eq!(h.state().selected_cell(), Some(Cell::from_index(9 + 3)));
    assert_eq!(step_pos(h.state()), pos);

    // Revert to what was read, for the board, is undoable too.
    h.state_mut().apply(Command::SetCell {
        cell: Cell::from_index(0),
        value: 4,
    });
    h.step();
    h.get_by_label("Revert to what was read").click();
    h.step();
    assert_eq!(h.state().board().values, read.values);
    h.key_press_modifiers(undo, egui::Key::Z);
    h.step();
    assert_eq!(h.state().board().values[0], 4);

    // Clear empties the board and Ctrl+Z brings it back.
    let before = h.state().board().values;
    h.get_by_label("Clear").click();
    h.step();
    assert_eq!(h.state().board().filled(), 0);
    h.get_by_label("Undo").click();
    h.step();
    assert_eq!(h.state().board().values, before);
    step_until(&mut h, Duration::from_secs(60), "the re-solve", solved);
}

/// Undo and redo take the user back to the step they were at on that board, not to step 1:
/// walk to step 5, change a digit (a new puzzle, its steps from the start), Undo — step 5
/// again, with the same sentence.
#[test]
fn undo_goes_back_to_the_step_the_user_was_at() {
    let mut h = puzzle_app(1280.0, 800.0);
    h.state_mut().apply(Command::GoToStep(5));
    h.step();
    assert_eq!(step_pos(h.state()), 5);
    let text_at_5 =
        |a: &SudokuLensApp| a.solve_state().walkthrough().map(|w| w.text(4).to_string());
    let sentence = text_at_5(h.state());
    let empty = (0..81)
        .find(|&i| h.state().board().values[i] == 0)
        .expect("an empty cell");
    let solution = solution_of(h.state());
    h.state_mut().apply(Command::SetCell {
        cell: Cell::from_index(empty),
        value: solution[empty],
    });
    step_until(
        &mut h,
        Duration::from_secs(60),
        "the edited board's solve",
        |a| solved(a) && step_pos(a) == 0,
    );
    h.state_mut().apply(Command::Undo);
    step_until(
        &mut h,
        Duration::from_secs(60),
        "the undone board's solve",
        solved,
    );
    assert_eq!(h.state().board().values[empty], 0);
    assert_eq!(step_pos(h.state()), 5, "undo went back to step 5");
    assert_eq!(text_at_5(h.state()), sentence);
    // Redo: the edited board, at the step the user was at on it (its start).
    h.state_mut().apply(Command::Redo);
    step_until(
        &mut h,
        Duration::from_secs(60),
        "the redone board's solve",
        solved,
    );
    assert_eq!(h.state().board().values[empty], solution[empty]);
    assert_eq!(step_pos(h.state()), 0);
}

/// The solution is hidden until asked for: a PNG saved at the start holds only the givens;
/// a revealed cell adds exactly its digit; "Show solution" reveals all. The PNG is what is
/// shown.
#[test]
fn the_solution_is_hidden_until_revealed_and_the_png_shows_what_is_shown() {
    let mut h = puzzle_app(1280.0, 800.0);
    assert!(!h.state().settings().show_solution, "hidden by default");
    let dir = tempfile::tempdir().unwrap();
    let blue_in = |h: &mut Harness<'static, SudokuLensApp>, name: &str| {
        let path = dir.path().join(name);
        h.state_mut().apply(Command::SaveAnnotated(path.clone()));
        let img = image::open(&path).expect("a PNG").to_rgb8();
        img.pixels().filter(|p| p.0 == [20, 90, 230]).count()
    };
    assert_eq!(
        blue_in(&mut h, "start.png"),
        0,
        "no solution digit at the start"
    );
    let empty = (0..81).find(|&i| h.state().board().values[i] == 0).unwrap();
    let cell = Cell::from_index(empty);
    h.get_by_label(&format!("{cell} empty")).click();
    h.run_steps(2);
    h.get_by_label("Reveal this cell").click();
    h.run_steps(2);
    let one = blue_in(&mut h, "one.png");
    assert!(one > 20, "the revealed digit is written ({one} px)");
    h.get_by_label("Show solution").click();
    h.run_steps(2);
    let all = blue_in(&mut h, "all.png");
    assert!(
        all > 20 * one,
        "every empty cell is written ({all} px vs {one})"
    );
}

/// F1 opens the help with the shortcuts, Esc closes it; the "where" hint names houses only
/// (no cell, no digit); a repair summary uses only glyphs the app's font has.
#[test]
fn help_hints_and_repair_words() {
    let mut h = puzzle_app(1280.0, 800.0);
    h.key_press(egui::Key::Questionmark);
    h.run_steps(2);
    h.get_by_label("Help — keyboard and mouse");
    h.get_by_label("Ctrl+Z / Ctrl+Shift+Z");
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(h.query_by_label("Help — keyboard and mouse").is_none());

    h.get_by_label("Hint mode").click();
    h.run_steps(2);
    h.get_by_label("Show where").click();
    h.run_steps(2);
    let where_text = h
        .get_by_label_contains("Look at: ")
        .value()
        .unwrap_or_default();
    let label = h
        .query_all_by_label_contains("Look at: ")
        .next()
        .map(|n| format!("{n:?}"))
        .unwrap_or_default();
    let cell_like = |t: &str| {
        t.as_bytes()
            .windows(4)
            .any(|w| w[0] == b'r' && w[1].is_ascii_digit() && w[2] == b'c' && w[3].is_ascii_digit())
    };
    assert!(!cell_like(&where_text) && !cell_like(&label), "{label}");
    assert!(!label.contains("digit"), "{label}");

    use sudoku_lens::digits::{Repair, RepairChange};
    let summary = sudoku_lens::session::repair_summary(&Repair {
        changes: vec![RepairChange {
            cell: Cell::from_index(42),
            from: 8,
            to: 6,
            probability: 0.5,
        }],
        values: [0; 81],
        solution: [0; 81],
        cost: 1.0,
    });
    let font = egui::FontId::proportional(14.0);
    let missing: Vec<char> = h.ctx.fonts_mut(|f| {
        summary
            .chars()
            .filter(|&c| !f.has_glyph(&font, c))
            .collect()
    });
    assert!(missing.is_empty(), "{summary}: no glyph for {missing:?}");
}

/// Where the system file chooser cannot open, Open and Save use the app's own picker (a
/// window listing the folder) and say why; choosing a file there opens or saves it.
#[test]
fn the_in_app_file_picker_opens_and_saves() {
    let mut app = SudokuLensApp::new(
        AppOptions {
            in_app_file_picker: true,
            ..options()
        },
        None,
    );
    app.apply(Command::LoadPuzzleText(PUZZLE_TEXT.into()));
    let mut h = harness_sized(app, 1024.0, 700.0);
    step_until(&mut h, Duration::from_secs(60), "the solve", solved);
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("holiday")).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a picture").unwrap();
    // Saving first: the picker starts in the working folder; type the folder in.
    h.get_by_label("Save PNG…").click();
    h.run_steps(4);
    h.get_by_label("Save the picture as PNG");
    h.state_mut()
        .apply(Command::SaveAnnotated(dir.path().join("first.png")));
    h.run_steps(4);
    // The picker now opens where the last file went, and lists pictures and folders only.
    h.get_by_label("Cancel").click();
    h.run_steps(4);
    h.get_by_label("Open photo…").click();
    h.run_steps(4);
    h.get_by_label("Open a Sudoku photo");
    h.get_by_label("first.png");
    h.get_by_label("holiday/");
    assert!(h.query_by_label("notes.txt").is_none());
    h.get_by_label("first.png").click();
    h.run_steps(4);
    h.get_by_label("Open").click();
    h.run_steps(4);
    assert!(
        h.query_by_label("Open a Sudoku photo").is_none(),
        "the picker closed"
    );
    step_until(&mut h, Duration::from_secs(120), "the photo load", |a| {
        !a.is_busy() && a.message().is_some_and(|m| m.text.contains("first.png"))
    });
    // Save through the picker: the suggested name, one click.
    h.get_by_label("Save PNG…").click();
    h.run_steps(4);
    h.get_by_label("Save").click();
    h.run_steps(4);
    let saved: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with("-annotated.png"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
}

/// A repeated digit is named with its cells and house; a board with no solution says where it
/// runs dry.
#[test]
fn conflicts_and_no_solution_say_where() {
    let mut h = puzzle_app(1280.0, 800.0);
    let board = h.state().board().clone();
    let solution = solution_of(h.state());
    h.state_mut().apply(Command::SetCell {
        cell: Cell::from_index(0),
        value: 3,
    });
    h.run_steps(2);
    // Under the board and in the steps panel.
    assert_eq!(
        h.query_all_by_label_contains("3 is in both r1c1 and r1c3 (row 1)")
            .count(),
        2
    );
    h.state_mut().apply(Command::Undo);
    // A wrong digit that repeats nothing.
    let (cell, value) = (0..81)
        .filter(|&i| board.values[i] == 0)
        .flat_map(|i| (1..=9u8).map(move |v| (i, v)))
        .find(|&(i, v)| {
            let mut b = board.clone();
            b.set(Cell::from_index(i), v);
            v != solution[i] && b.conflict_words().is_none()
        })
        .unwrap();
    h.state_mut().apply(Command::SetCell {
        cell: Cell::from_index(cell),
        value,
    });
    step_until(&mut h, Duration::from_secs(60), "the failed solve", |a| {
        matches!(a.solve_state(), SolveState::Unsolvable(_))
    });
    h.run_steps(2);
    let said = h
        .get_by_label_contains("Cannot solve")
        .value()
        .unwrap_or_default();
    let node = format!("{:?}", h.get_by_label_contains("Cannot solve"));
    assert!(
        node.contains("no possible digit") || node.contains("no place left"),
        "{said} {node}"
    );
}

/// With no camera the capture stops instead of retrying (and logging) every few seconds, and
/// the toolbar offers "Start camera" again.
#[test]
fn no_camera_offers_start_camera() {
    use sudoku_lens::camera::{CameraError, Opener};
    let opener: Opener = std::sync::Arc::new(|| Err(CameraError::NoCamera));
    let app = SudokuLensApp::new(
        AppOptions {
            custom_source: Some(("test camera".into(), opener)),
            ..options()
        },
        None,
    );
    let mut h = harness_sized(app, 1280.0, 800.0);
    step_until(&mut h, Duration::from_secs(20), "the failure", |a| {
        a.message()
            .is_some_and(|m| m.text.contains("no camera found"))
    });
    h.run_steps(2);
    h.get_by_label("Start camera");
    assert!(h.query_by_label("Stop camera").is_none());
}

/// `sudoku-lens PHOTO` means the app on that photo (a missing one is named), not an unknown
/// subcommand.
#[test]
fn a_photo_argument_opens_the_app_on_it() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-lens"))
        .arg("/nonexistent/page.jpg")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("no such photo: /nonexistent/page.jpg"),
        "{err}"
    );
    assert!(!err.contains("unrecognized subcommand"), "{err}");
}

/// A recognizer double: "reads" the text puzzle on a fixed grid.
struct ReadsPuzzle;

impl sudoku_lens::app::pipeline::PhotoScanner for ReadsPuzzle {
    fn scan(
        &self,
        _image: &image::RgbImage,
    ) -> Result<sudoku_lens::app::pipeline::PhotoScan, sudoku_lens::session::LoadFailure> {
        use sudoku_lens::vision::{Lattice, Point};
        let values: [u8; 81] = std::array::from_fn(|i| PUZZLE_TEXT.as_bytes()[i] - b'0');
        Ok(sudoku_lens::app::pipeline::PhotoScan {
            lattice: Some(Lattice::from_corners([
                Point::new(20.0, 20.0),
                Point::new(280.0, 20.0),
                Point::new(280.0, 280.0),
                Point::new(20.0, 280.0),
            ])),
            reading: Some(sudoku_lens::app::pipeline::Reading {
                values,
                confidence: [0.99; 81],
            }),
            repair: None,
            writing: None,
        })
    }
}

/// The last photo comes back at restart with its grid and the edited puzzle read from it.
#[test]
fn the_last_photo_is_restored_with_its_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let photo = dir.path().join("page.png");
    image::RgbImage::from_pixel(300, 300, image::Rgb([230, 230, 230]))
        .save(&photo)
        .unwrap();
    let mut storage = MemoryStorage::default();
    let lattice = {
        let base = sudoku_lens::app::wiring::default_pipeline();
        let app = SudokuLensApp::new(
            AppOptions {
                start_camera: false,
                photo: Some(photo.clone()),
                pipeline: Some(sudoku_lens::app::Pipeline {
                    photo: std::sync::Arc::new(ReadsPuzzle),
                    live: base.live,
                }),
                ..AppOptions::default()
            },
            None,
        );
        let mut h = harness_sized(app, 1280.0, 800.0);
        step_until(&mut h, Duration::from_secs(60), "the photo read", |a| {
            !a.is_busy() && solved(a)
        });
        h.state_mut().apply(Command::SetCell {
            cell: Cell::from_index(0),
            value: 4,
        });
        let lattice = *h.state().lattice().expect("a grid on the photo");
        eframe::App::save(h.state_mut(), &mut storage);
        lattice
    };
    let app = SudokuLensApp::new(
        AppOptions {
            start_camera: false,
            ..AppOptions::default()
        },
        Some(&storage),
    );
    let mut h = harness_sized(app, 1280.0, 800.0);
    step_until(&mut h, Duration::from_secs(60), "the photo back", |a| {
        !a.is_busy() && a.lattice().is_some() && solved(a)
    });
    assert_eq!(h.state().lattice(), Some(&lattice));
    assert_eq!(h.state().board().values[0], 4, "the edit is kept");
    h.run_steps(2);
    h.get_by_label("Board — page.png");
    h.get_by_label("camera or photo view");
}

/// The current step shows its plain sentence under its notation; its technique's name opens
/// the glossary window (what the pattern is, the step's sentence), and so does F1 while a step
/// is current; Esc closes it. `?` still opens the help.
#[test]
fn the_step_shows_its_sentence_and_opens_the_glossary() {
    let mut h = puzzle_app(1280.0, 800.0);
    let (sentence, technique) = {
        let walk = h.state().solve_state().walkthrough().expect("solved");
        let step = walk.current().expect("a first step");
        (step.explanation(), step.technique)
    };
    assert!(!sentence.is_empty());
    h.get_by_label(&sentence);
    let title = format!("Glossary — {technique}");
    let entry = sudoku_lens::sudoku::glossary::entry(technique);
    assert!(h.query_by_label(&title).is_none());

    // Click on the technique's name.
    h.get_by_label(&technique.to_string()).click();
    h.run_steps(3);
    h.get_by_label(&title);
    h.get_by_label(entry);
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(h.query_by_label(&title).is_none());

    // F1 while a step is current.
    h.key_press(egui::Key::F1);
    h.run_steps(2);
    h.get_by_label(&title);
    assert!(h.query_by_label("Help — keyboard and mouse").is_none());
    h.key_press(egui::Key::F1);
    h.run_steps(2);
    assert!(h.query_by_label(&title).is_none());

    // Hint mode: the first level (the technique) opens it too.
    h.get_by_label("Hint mode").click();
    h.run_steps(2);
    h.get_by_label(&format!("Try: {technique}")).click();
    h.run_steps(2);
    h.get_by_label(&title);
}
