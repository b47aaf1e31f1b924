//! UI tests of the desktop app, driven through egui_kittest by accessibility labels, with real
//! worker threads: a shared photo played as a camera (image-sequence source), the live lock
//! progress and the board following the live path, no redrawing while idle, the board, step
//! navigation, editing and re-solving, camera failures, and persistence.
//!
//! Threads report asynchronously, so each test steps the harness until a condition holds or a
//! deadline passes (the deadline only bounds a failure; nothing is timed).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use image::RgbImage;

use sudoku_lens::app::pipeline::{PhotoScan, PhotoScanner, Pipeline, Reading};
use sudoku_lens::app::{AppOptions, Command, SudokuLensApp};
use sudoku_lens::camera::{CameraError, CaptureOptions, FrameSource, Opener};
use sudoku_lens::live::{LiveOutput, LiveState, LockProgress, VotedBoard};
use sudoku_lens::session::{LoadFailure, SolveState};
use sudoku_lens::sudoku::Cell;
use sudoku_lens::sudoku::parse::parse_labels;

mod common;

use common::app::{
    MemoryStorage, PUZZLE_TEXT, Script, harness, locked_output, options, scripted_lattice,
    scripted_pipeline, solved, step_until,
};

/// The photo set the app tests open photos from.
fn dataset() -> PathBuf {
    common::shared_dataset("wichtounet-v2-train")
}

/// A photo of wichtounet-v2-train's held-back fifth (`models/train/holdout/wichtounet.txt`),
/// for the tests that read through the real model: the model never trained on it.
const HELD_BACK_PHOTO: &str = "image1001";

fn photo(name: &str) -> PathBuf {
    dataset().join("images").join(format!("{name}.jpg"))
}

/// The givens of a dataset photo (pencil marks count as empty).
fn givens(name: &str) -> [u8; 81] {
    let text = std::fs::read_to_string(dataset().join("labels").join(format!("{name}.txt")))
        .expect("label file");
    parse_labels(&text)
        .expect("labels parse")
        .map(|v| if v > 9 { 0 } else { v })
}

/// Steps the UI until the board is solved; panics naming `what` after `limit_s` seconds.
fn wait_solved(h: &mut Harness<'static, SudokuLensApp>, limit_s: u64, what: &str) {
    step_until(h, Duration::from_secs(limit_s), what, solved);
}

/// The app with dataset photo `name` opened, read by `pipeline` (the real one when `None`).
fn photo_app(name: &str, pipeline: Option<Pipeline>) -> SudokuLensApp {
    SudokuLensApp::new(
        AppOptions {
            photo: Some(photo(name)),
            pipeline,
            ..options()
        },
        None,
    )
}

/// A recognizer double that "reads" fixed values, to test the UI independently of the model.
struct FixedScanner(Reading);

impl PhotoScanner for FixedScanner {
    fn scan(&self, _image: &RgbImage) -> Result<PhotoScan, LoadFailure> {
        Ok(PhotoScan {
            lattice: None,
            reading: Some(self.0.clone()),
            repair: None,
            writing: None,
        })
    }
}

fn fixed_pipeline(values: [u8; 81], uncertain_cell: Option<usize>) -> Pipeline {
    let mut confidence = [0.99f32; 81];
    if let Some(i) = uncertain_cell {
        confidence[i] = 0.4;
    }
    let base = sudoku_lens::app::wiring::default_pipeline();
    Pipeline {
        photo: Arc::new(FixedScanner(Reading { values, confidence })),
        live: base.live,
    }
}

/// The real pipeline on a shared photo played as a camera: the board shows the photo's givens,
/// the solution walk starts, and the lattice is locked on the paper.
#[test]
fn camera_source_reads_the_givens_of_a_shared_photo() {
    // Its read has doubtful cells, so the still must be analysed past the usual three reads
    // before it locks (it stalled in `Reading` until 2026-11-25).
    let name = HELD_BACK_PHOTO;
    let app = SudokuLensApp::new(
        AppOptions {
            source: Some(photo(name)),
            sequence_fps: Some(10.0),
            ..options()
        },
        None,
    );
    let mut h = harness(app);
    let want = givens(name);
    step_until(
        &mut h,
        Duration::from_secs(240),
        "the board to show the givens and solve",
        |a| a.board().values == want && solved(a),
    );
    assert_eq!(h.state().live_state(), LiveState::Locked);
    assert!(h.state().solution_on_picture());
    assert!(h.state().lattice().is_some());
    // Every given is on the board, labelled for assistive technology.
    let first_given = (0..81).find(|&i| want[i] != 0).unwrap();
    let label = format!("{} {}", Cell::from_index(first_given), want[first_given]);
    h.get_by_label(&label);
    assert!(h.state().stats().frames_shown > 0);
}

/// Drives the harness for `span` the way eframe's event loop would and returns how many frames
/// it drew: a frame is drawn only when one is due — the last frame's own repaint delay ran out
/// (egui turns each immediate request into two frames), or a thread asked for a repaint.
fn frames_drawn_over(h: &mut Harness<'static, SudokuLensApp>, span: Duration) -> u64 {
    let due_at = |delay: Duration| Instant::now().checked_add(delay);
    let asked: Arc<Mutex<Option<Instant>>> = Arc::default();
    {
        let asked = Arc::clone(&asked);
        h.ctx.set_repaint_observer(move |info| {
            let mut a = asked.lock().unwrap();
            *a = match (*a, due_at(info.delay)) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            };
        });
    }
    let root = |h: &Harness<'static, SudokuLensApp>| {
        h.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay
    };
    let end = Instant::now() + span;
    let mut next = due_at(root(h));
    let mut frames = 0;
    while Instant::now() < end {
        if let Some(t) = asked.lock().unwrap().take() {
            next = Some(next.map_or(t, |n| n.min(t)));
        }
        if next.is_some_and(|t| t <= Instant::now()) {
            h.step();
            frames += 1;
            // What was asked during the frame is in its repaint delay.
            asked.lock().unwrap().take();
            next = due_at(root(h));
        } else {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    h.ctx.set_repaint_observer(|_| {});
    frames
}

/// A still photo played as a camera is captured once and analysed until it locks; after that
/// nothing wakes the UI: no frame is drawn and nothing is analysed over seconds of idling.
#[test]
fn a_locked_still_photo_draws_no_frames_while_idle() {
    // Its read has doubtful cells, so the still must be analysed past the usual three reads
    // before it locks (it stalled in `Reading` until 2026-11-25).
    let name = HELD_BACK_PHOTO;
    let app = SudokuLensApp::new(
        AppOptions {
            source: Some(photo(name)),
            ..options()
        },
        None,
    );
    let mut h = harness(app);
    step_until(
        &mut h,
        Duration::from_secs(240),
        "the still to lock and solve",
        |a| a.live_state() == LiveState::Locked && solved(a),
    );
    // Let the last wake-ups (the solve, the lock message) play out.
    frames_drawn_over(&mut h, Duration::from_millis(500));
    let before = h.state().stats();
    let idle = frames_drawn_over(&mut h, Duration::from_secs(3));
    let after = h.state().stats();
    assert_eq!(
        idle, 0,
        "frames drawn over 3 s of idling, locked on a still"
    );
    assert_eq!(after.repaints, before.repaints);
    assert_eq!(after.frames_captured, 1, "the still is captured once");
    assert_eq!(after.frames_analysed, before.frames_analysed);
    assert_eq!(h.state().board().values, givens(name));
    // The count is not trivially zero: a thread asking for a repaint gets frames drawn.
    let ctx = h.ctx.clone();
    let waker = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        ctx.request_repaint();
    });
    assert!(frames_drawn_over(&mut h, Duration::from_millis(300)) > 0);
    waker.join().unwrap();
}

/// A camera of changing 320×240 frames at about 30 fps.
struct TickingSource(u8);

impl FrameSource for TickingSource {
    fn describe(&self) -> String {
        "ticking test camera".into()
    }
    fn next_frame(&mut self) -> Result<RgbImage, CameraError> {
        std::thread::sleep(Duration::from_millis(30));
        self.0 = self.0.wrapping_add(1);
        Ok(RgbImage::from_pixel(
            320,
            240,
            image::Rgb([self.0, 200, 200]),
        ))
    }
}

fn scripted_camera_app(script: &Script) -> SudokuLensApp {
    let pipeline = scripted_pipeline(script);
    let opener: Opener = Arc::new(|| Ok(Box::new(TickingSource(0)) as Box<dyn FrameSource>));
    SudokuLensApp::new(
        AppOptions {
            custom_source: Some(("ticking test camera".into(), opener)),
            pipeline: Some(pipeline),
            ..options()
        },
        None,
    )
}

fn values_of(text: &str) -> [u8; 81] {
    let mut values = [0u8; 81];
    for (v, c) in values.iter_mut().zip(text.bytes()) {
        *v = c - b'0';
    }
    values
}

/// The status bar shows the lock progress; while reading, the board shows the voted digits
/// (uncertain ones amber); a trusted read is loaded and solved, and its solution is drawn only
/// on frames where the live path gives the overlay of the board's puzzle.
#[test]
fn lock_progress_reading_board_and_overlay_follow_the_live_path() {
    let lattice = scripted_lattice();
    let givens = values_of(PUZZLE_TEXT);
    let progress = |steady_frames, reads| LockProgress {
        steady_frames,
        steady_needed: 2,
        reads,
        reads_needed: 3,
        new_writing: false,
    };
    let script: Script = Arc::new(Mutex::new(LiveOutput {
        state: LiveState::Following,
        progress: progress(1, 0),
        puzzle_id: 7,
        lattice: Some(lattice),
        ..LiveOutput::default()
    }));
    let mut h = harness(scripted_camera_app(&script));
    let status = |h: &mut Harness<'static, SudokuLensApp>, text: &str| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while h.query_by_label(text).is_none() {
            assert!(Instant::now() < deadline, "no status {text:?}");
            h.step();
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    status(&mut h, "following 1/2 steady frames");
    assert_eq!(h.state().live_state(), LiveState::Following);
    assert!(!h.state().solution_on_picture());

    // Reading: the voted digits, one of them doubtful, are shown as "reading…".
    let mut confidence = [0.99f32; 81];
    confidence[2] = 0.3;
    *script.lock().unwrap() = LiveOutput {
        state: LiveState::Reading,
        progress: progress(2, 2),
        puzzle_id: 7,
        lattice: Some(lattice),
        board: Some(VotedBoard {
            values: givens,
            confidence,
            reads: 2,
        }),
        ..LiveOutput::default()
    };
    status(&mut h, "reading 2/3");
    h.get_by_label("Board — reading…");
    h.get_by_label_contains("1 cell(s) still uncertain");
    assert_eq!(
        h.state().board().filled(),
        0,
        "the board itself waits for trust"
    );

    // Locked with the overlay: the board loads the trusted givens and solves them.
    let solution = {
        let e =
            sudoku_lens::sudoku::solve_explained(&sudoku_lens::sudoku::Grid::from_values(&givens))
                .unwrap();
        e.solution
    };
    let locked = LiveOutput {
        progress: progress(2, 3),
        ..locked_output(7, lattice, givens, solution)
    };
    *script.lock().unwrap() = locked.clone();
    wait_solved(&mut h, 60, "the trusted read to solve");
    status(&mut h, "locked");
    assert_eq!(h.state().board().values, givens);
    assert!(h.state().solution_on_picture());
    // New writing being read on the locked page: said, and the overlay stays.
    *script.lock().unwrap() = LiveOutput {
        progress: LockProgress {
            new_writing: true,
            ..progress(2, 3)
        },
        ..locked.clone()
    };
    status(&mut h, "locked · reading new writing");
    assert!(h.state().solution_on_picture());
    *script.lock().unwrap() = locked.clone();
    status(&mut h, "locked");

    // A frame where the grid is not found carries no overlay: nothing is drawn on it.
    *script.lock().unwrap() = LiveOutput {
        overlay: None,
        lattice: None,
        ..locked.clone()
    };
    step_until(&mut h, Duration::from_secs(20), "the overlay to go", |a| {
        !a.solution_on_picture()
    });
    // Another puzzle's overlay is never drawn over the board's solution.
    *script.lock().unwrap() = LiveOutput {
        puzzle_id: 8,
        overlay: None,
        state: LiveState::Following,
        progress: progress(1, 0),
        ..locked
    };
    status(&mut h, "following 1/2 steady frames");
    assert!(!h.state().solution_on_picture());
    assert_eq!(
        h.state().board().values,
        givens,
        "the board stays until 8 is trusted"
    );
}

/// A photo opened through the real recognizer shows its givens.
#[test]
fn photo_reads_the_givens() {
    let name = HELD_BACK_PHOTO;
    let mut h = harness(photo_app(name, None));
    step_until(
        &mut h,
        Duration::from_secs(240),
        "the photo to be read and solved",
        |a| !a.is_busy() && solved(a),
    );
    assert_eq!(h.state().board().values, givens(name));
}

/// Stepping forward moves the highlight; editing a cell re-solves from the edited board.
#[test]
fn steps_highlight_and_edits_resolve() {
    let name = "image10";
    let want = givens(name);
    let first_given = want.iter().position(|&v| v != 0);
    let mut h = harness(photo_app(name, Some(fixed_pipeline(want, first_given))));
    wait_solved(&mut h, 120, "the puzzle to solve");
    assert_eq!(h.state().board().values, want);
    // The doubtful reading is flagged.
    assert_eq!(
        h.state().board().uncertain.iter().filter(|&&u| u).count(),
        1
    );

    let walk = |a: &SudokuLensApp| a.solve_state().walkthrough().map(|w| (w.pos(), w.len()));
    assert_eq!(walk(h.state()).map(|w| w.0), Some(0));
    let before = h.state().highlighted_cells();
    assert!(!before.is_empty(), "the first step highlights cells");

    h.get_by_label("Next").click();
    h.step();
    h.step();
    assert_eq!(walk(h.state()).map(|w| w.0), Some(1));
    let mut moved = h.state().highlighted_cells() != before;
    // Two consecutive steps can share cells; stepping on must change the highlight soon.
    for _ in 0..3 {
        if moved {
            break;
        }
        h.key_press(egui::Key::ArrowRight);
        h.step();
        moved = h.state().highlighted_cells() != before;
    }
    assert!(moved, "stepping forward changes the highlighted cells");

    // Keyboard: End goes past the last step, Home back to the start.
    h.key_press(egui::Key::End);
    h.step();
    let (pos, len) = walk(h.state()).unwrap();
    assert_eq!(pos, len);
    assert!(h.state().highlighted_cells().is_empty());
    h.key_press(egui::Key::Home);
    h.step();
    assert_eq!(walk(h.state()).map(|w| w.0), Some(0));

    // Edit: put the solution digit into the first empty cell; the board re-solves.
    let (cell, digit) = {
        let w = h.state().solve_state().walkthrough().unwrap();
        let i = (0..81).find(|&i| want[i] == 0).unwrap();
        (Cell::from_index(i), w.explained().solution[i])
    };
    let steps_before = walk(h.state()).unwrap().1;
    h.get_by_label(&format!("{cell} empty")).click();
    h.step();
    assert_eq!(h.state().selected_cell(), Some(cell));
    h.key_press(num_key(digit));
    h.step();
    assert_eq!(h.state().board().values[cell.index()], digit);
    assert!(h.state().board().is_edited(cell));
    wait_solved(&mut h, 120, "the edited board to re-solve");
    let w = h.state().solve_state().walkthrough().unwrap();
    assert_eq!(w.explained().puzzle.values()[cell.index()], digit);
    assert!(w.len() < steps_before, "one cell fewer to solve");
    h.get_by_label(&format!("{cell} {digit}"));

    // A digit that repeats in the row turns the board unsolvable, in red.
    let row_digit = (0..9)
        .map(|c| h.state().board().values[cell.row() * 9 + c])
        .find(|&v| v != 0 && v != digit)
        .unwrap();
    h.key_press(num_key(row_digit));
    h.step();
    assert!(h.state().board().conflicts()[cell.index()]);
    assert!(matches!(h.state().solve_state(), SolveState::Unsolvable(_)));
    // Shown under the board and in the steps panel.
    assert!(
        !h.query_all_by_label_contains("repeat a digit")
            .collect::<Vec<_>>()
            .is_empty()
    );
}

fn num_key(d: u8) -> egui::Key {
    [
        egui::Key::Num0,
        egui::Key::Num1,
        egui::Key::Num2,
        egui::Key::Num3,
        egui::Key::Num4,
        egui::Key::Num5,
        egui::Key::Num6,
        egui::Key::Num7,
        egui::Key::Num8,
        egui::Key::Num9,
    ][usize::from(d)]
}

/// An uncertain reading does not hide the step's highlight (the casual-solver issue, item 5):
/// the cell a step places, read as doubtful, still shows the placement green inside, framed
/// by an amber outline (it was filled amber over the green).
#[test]
fn an_uncertain_cell_keeps_the_step_highlight() {
    let name = "image10";
    let want = givens(name);
    // Which cell a step places, and which step (solved once with nothing doubtful).
    let mut h = harness(photo_app(name, Some(fixed_pipeline(want, None))));
    wait_solved(&mut h, 120, "the puzzle to solve");
    let (step, placed) = {
        let steps = &h
            .state()
            .solve_state()
            .walkthrough()
            .unwrap()
            .explained()
            .steps;
        let k = steps
            .iter()
            .position(|s| !s.placements.is_empty())
            .expect("a step that places a digit");
        (k, steps[k].placements[0].cell)
    };
    let app = photo_app(name, Some(fixed_pipeline(want, Some(placed.index()))));
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1280.0, 800.0))
        .wgpu()
        .build_ui_state(|ui, app: &mut SudokuLensApp| app.show(ui), app);
    wait_solved(&mut h, 120, "the puzzle to solve again");
    assert!(h.state().board().uncertain[placed.index()]);
    h.state_mut().apply(Command::GoToStep(step));
    h.run_steps(2);
    assert!(h.state().highlighted_cells().contains(&placed));
    let img = h.render().expect("wgpu renders (mesa-vulkan-drivers)");
    let ppp = img.width() as f32 / 1280.0;
    let r = h.get_by_label(&format!("{placed} empty")).rect();
    let r = egui::Rect::from_min_max(
        (r.min.to_vec2() * ppp).to_pos2(),
        (r.max.to_vec2() * ppp).to_pos2(),
    );
    let count = |rect: egui::Rect, is: &dyn Fn([u8; 4]) -> bool| {
        let mut n = 0;
        for y in rect.min.y.ceil() as u32..rect.max.y.floor() as u32 {
            for x in rect.min.x.ceil() as u32..rect.max.x.floor() as u32 {
                n += usize::from(is(img.get_pixel(x, y).0));
            }
        }
        n
    };
    let inner = r.shrink(r.width() * 0.2);
    let inner_px = (inner.width() * inner.height()) as usize;
    // PLACEMENT_FILL is 120/220/130; UNCERTAIN_COLOR 255/176/30.
    let green = count(inner, &|[r, g, b, _]| g > 180 && r < 170 && b < 180);
    let amber = count(r, &|[r, g, b, _]| {
        r > 220 && (140..=200).contains(&g) && b < 90
    });
    assert!(
        green * 2 > inner_px,
        "the placement highlight shows inside the doubtful cell: {green} of {inner_px} px green"
    );
    assert!(
        amber as f32 > 2.0 * r.width(),
        "the doubtful cell has its amber outline: {amber} px"
    );
}

/// Hint mode reveals the technique first, then where, then the full step.
#[test]
fn hint_mode_reveals_gradually() {
    let name = "image10";
    let mut h = harness(photo_app(name, Some(fixed_pipeline(givens(name), None))));
    wait_solved(&mut h, 120, "the puzzle to solve");
    // The side panel scrolls (to the current step, too): bring the toggle into view first.
    h.get_by_label("Hint mode").scroll_to_me();
    h.step();
    h.get_by_label("Hint mode").click();
    h.step();
    h.step();
    assert!(h.state().settings().hint_mode);
    h.get_by_label_contains("Try: ");
    assert!(
        h.state().highlighted_cells().is_empty(),
        "nothing highlighted before 'where'"
    );
    h.get_by_label("Show where").click();
    h.step();
    h.step();
    h.get_by_label_contains("Look at: ");
    assert!(!h.state().highlighted_cells().is_empty());
    h.get_by_label("Show step").click();
    h.step();
    h.step();
    let text = h
        .state()
        .solve_state()
        .walkthrough()
        .unwrap()
        .text(0)
        .to_string();
    h.get_by_label(&text);
}

struct FailingOpen;
struct StallingSource {
    frames: u32,
}

impl FrameSource for StallingSource {
    fn describe(&self) -> String {
        "stalling test camera".into()
    }
    fn next_frame(&mut self) -> Result<RgbImage, CameraError> {
        if self.frames >= 2 {
            // Simulates a driver that stops delivering; returns eventually so the thread ends.
            std::thread::sleep(Duration::from_secs(3));
            return Err(CameraError::Ended);
        }
        self.frames += 1;
        std::thread::sleep(Duration::from_millis(30));
        Ok(RgbImage::from_pixel(64, 48, image::Rgb([200, 200, 200])))
    }
}

impl FailingOpen {
    fn opener(err: CameraError) -> Opener {
        Arc::new(move || Err(err.clone()))
    }
}

fn camera_app(opener: Opener) -> SudokuLensApp {
    SudokuLensApp::new(
        AppOptions {
            custom_source: Some(("test camera".into(), opener)),
            capture: CaptureOptions {
                stall_after: Duration::from_millis(400),
                retry_after: Duration::from_millis(200),
                max_failed_opens: None,
            },
            ..options()
        },
        None,
    )
}

/// A camera that cannot be opened shows why in the status bar.
#[test]
fn camera_open_failures_show_their_message() {
    for (err, text) in [
        (CameraError::Busy("held".into()), "the camera is busy"),
        (
            CameraError::PermissionDenied("EACCES".into()),
            "permission denied",
        ),
        (CameraError::NoCamera, "no camera found"),
    ] {
        let mut h = harness(camera_app(FailingOpen::opener(err.clone())));
        step_until(&mut h, Duration::from_secs(20), text, |a| {
            a.message().is_some_and(|m| m.text.contains(text))
        });
        h.get_by_label_contains(text);
        assert_eq!(
            h.state().source_status(),
            &sudoku_lens::app::SourceStatus::CameraFailed(err)
        );
    }
}

/// A camera that stops delivering frames is reported as stalled and reopened.
#[test]
fn camera_stall_is_reported() {
    let opener: Opener =
        Arc::new(|| Ok(Box::new(StallingSource { frames: 0 }) as Box<dyn FrameSource>));
    let mut h = harness(camera_app(opener));
    step_until(&mut h, Duration::from_secs(20), "frames to arrive", |a| {
        a.stats().frames_shown > 0
    });
    step_until(&mut h, Duration::from_secs(20), "the stall message", |a| {
        a.message()
            .is_some_and(|m| m.text.contains("camera stalled"))
    });
    h.get_by_label_contains("camera stalled");
    // The watchdog reopens the source: it opens again and frames flow again.
    step_until(
        &mut h,
        Duration::from_secs(20),
        "the camera to reopen",
        |a| {
            matches!(
                a.source_status(),
                sudoku_lens::app::SourceStatus::CameraLive(_)
            )
        },
    );
}

/// With no camera on the machine, starting the real camera says so.
#[test]
fn real_camera_absence_is_explained() {
    if !sudoku_lens::camera::list_cameras().is_ok_and(|c| c.is_empty()) {
        return; // This machine has a camera (or cannot list them): nothing to check here.
    }
    let mut h = harness(SudokuLensApp::new(options(), None));
    h.state_mut().apply(Command::StartCamera);
    step_until(
        &mut h,
        Duration::from_secs(20),
        "the no-camera message",
        |a| {
            a.message()
                .is_some_and(|m| m.text.contains("no camera found"))
        },
    );
}

/// Settings and the last puzzle with its edits survive a restart.
#[test]
fn settings_and_edited_puzzle_persist() {
    let mut storage = MemoryStorage::default();
    {
        let mut app = SudokuLensApp::new(
            AppOptions {
                start_camera: false,
                ..AppOptions::default()
            },
            None,
        );
        app.apply(Command::LoadPuzzleText(PUZZLE_TEXT.into()));
        app.apply(Command::SetCell {
            cell: Cell::from_index(0),
            value: 4,
        });
        app.apply(Command::SetHintMode(true));
        eframe::App::save(&mut app, &mut storage);
    }
    let restored = SudokuLensApp::new(
        AppOptions {
            start_camera: false,
            ..AppOptions::default()
        },
        Some(&storage),
    );
    assert!(restored.settings().hint_mode);
    assert_eq!(restored.board().values[0], 4);
    assert!(restored.board().is_edited(Cell::from_index(0)));
    assert_eq!(restored.board().recognized[0], 0);
    let mut h = harness(restored);
    wait_solved(&mut h, 60, "the restored puzzle to solve");
}

/// A saved state that does not read starts the app clean, says so in the status bar and keeps
/// the old file as `app.ron.bak`; a nonsense frame rate falls back to the default.
#[test]
fn a_corrupt_saved_state_is_kept_and_reported() {
    use sudoku_lens::app::Severity;
    use sudoku_lens::session::{PUZZLE_KEY, SETTINGS_KEY, Settings};

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("app.ron");
    std::fs::write(&file, "old state").unwrap();
    let mut storage = MemoryStorage::default();
    eframe::set_value(
        &mut storage,
        SETTINGS_KEY,
        &Settings {
            sequence_fps: 1e-30,
            ..Settings::default()
        },
    );
    eframe::Storage::set_string(&mut storage, PUZZLE_KEY, "(values: \"12".into());
    let app = SudokuLensApp::new(
        AppOptions {
            start_camera: false,
            state_file: Some(file.clone()),
            ..AppOptions::default()
        },
        Some(&storage),
    );
    let message = app.message().expect("a status message");
    assert_eq!(message.severity, Severity::Warning);
    for says in ["frame rate", "saved puzzle was unreadable", "app.ron.bak"] {
        assert!(message.text.contains(says), "{says}: {}", message.text);
    }
    assert_eq!(
        app.settings().sequence_fps,
        Settings::default().sequence_fps
    );
    assert!(app.board().values.iter().all(|&v| v == 0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("app.ron.bak")).unwrap(),
        "old state"
    );
}

/// The annotated PNG writes the solution into the empty cells once it is shown (reveal all).
#[test]
fn annotated_png_is_saved() {
    let mut h = harness(SudokuLensApp::new(options(), None));
    h.state_mut()
        .apply(Command::LoadPuzzleText(PUZZLE_TEXT.into()));
    h.state_mut().apply(Command::SetShowSolution(true));
    wait_solved(&mut h, 60, "the puzzle to solve");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.png");
    h.state_mut().apply(Command::SaveAnnotated(path.clone()));
    let img = image::open(&path).expect("a PNG was written").to_rgb8();
    assert_eq!(img.width(), 720);
    let blue = img.pixels().filter(|p| p.0 == [20, 90, 230]).count();
    assert!(blue > 500, "solution digits drawn ({blue} px)");
    h.step();
    h.get_by_label_contains("saved");
}

/// The whole window renders on the CPU (wgpu on Mesa's software Vulkan), with the board drawn.
#[test]
fn window_renders_with_wgpu() {
    let mut app = SudokuLensApp::new(options(), None);
    app.apply(Command::LoadPuzzleText(PUZZLE_TEXT.into()));
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1280.0, 800.0))
        .wgpu()
        .build_ui_state(|ui, app: &mut SudokuLensApp| app.show(ui), app);
    wait_solved(&mut h, 60, "the puzzle to solve");
    h.step();
    let img = match h.render() {
        Ok(img) => img,
        Err(e) => panic!("wgpu rendering failed (is mesa-vulkan-drivers installed?): {e}"),
    };
    assert_eq!((img.width(), img.height()), (1280, 800));
    // The board's white background fills a large share of the side panel.
    let white = img
        .pixels()
        .filter(|p| p.0[0] > 245 && p.0[1] > 245 && p.0[2] > 245)
        .count();
    assert!(white > 100_000, "white board pixels: {white}");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("app_window.png");
    img.save(&out).ok();
}
