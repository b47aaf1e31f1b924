//! The UI tests' shared harness (gui builds only): the app's test options, a kittest harness
//! of a given size, stepping until a condition holds, and an in-memory eframe storage.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use image::RgbImage;

use sudoku_lens::app::pipeline::Pipeline;
use sudoku_lens::app::{AppOptions, SudokuLensApp};
use sudoku_lens::live::{FrameWork, LiveAnalyzer, LiveOutput, LiveState, Overlay};
use sudoku_lens::session::SolveState;
use sudoku_lens::vision::{Lattice, Point};

/// A puzzle typed or pasted as text (Project Euler's first).
pub const PUZZLE_TEXT: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

/// No camera, no saved state.
pub fn options() -> AppOptions {
    AppOptions {
        start_camera: false,
        fresh: true,
        ..AppOptions::default()
    }
}

/// The app in a `w`×`h` window.
pub fn harness_sized(app: SudokuLensApp, w: f32, h: f32) -> Harness<'static, SudokuLensApp> {
    Harness::builder()
        .with_size(egui::Vec2::new(w, h))
        .build_ui_state(|ui, app: &mut SudokuLensApp| app.show(ui), app)
}

/// The app in a 1280×800 window.
pub fn harness(app: SudokuLensApp) -> Harness<'static, SudokuLensApp> {
    harness_sized(app, 1280.0, 800.0)
}

/// Steps the UI until `cond` holds; panics with `what` after `limit` (the limit only bounds
/// a failure; nothing is timed).
pub fn step_until(
    h: &mut Harness<'static, SudokuLensApp>,
    limit: Duration,
    what: &str,
    cond: impl Fn(&SudokuLensApp) -> bool,
) {
    let deadline = Instant::now() + limit;
    loop {
        h.step();
        if cond(h.state()) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; app: {:?}, message: {:?}",
            h.state(),
            h.state().message()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn solved(app: &SudokuLensApp) -> bool {
    matches!(app.solve_state(), SolveState::Solved(_))
}

/// What the scripted analyzer says about every frame; the test changes it as it goes.
pub type Script = Arc<Mutex<LiveOutput>>;

/// A live analyzer double that says what its script says, whatever the frame.
pub struct ScriptedAnalyzer(pub Script);

impl LiveAnalyzer for ScriptedAnalyzer {
    fn analyze(&mut self, _frame: &RgbImage, _t_ms: u64) -> LiveOutput {
        let mut out = self.0.lock().unwrap().clone();
        out.work = FrameWork::Tracked;
        out.changed = true;
        out
    }
}

/// A square lattice of a scripted frame (image pixels).
pub fn scripted_lattice() -> Lattice {
    Lattice::from_corners([
        Point::new(40.0, 20.0),
        Point::new(240.0, 20.0),
        Point::new(240.0, 220.0),
        Point::new(40.0, 220.0),
    ])
}

/// A scripted frame locked on puzzle `puzzle_id` with the trusted `givens` and `solution`.
pub fn locked_output(
    puzzle_id: u64,
    lattice: Lattice,
    givens: [u8; 81],
    solution: [u8; 81],
) -> LiveOutput {
    LiveOutput {
        state: LiveState::Locked,
        puzzle_id,
        lattice: Some(lattice),
        overlay: Some(Arc::new(Overlay::unsplit(puzzle_id, givens, solution))),
        ..LiveOutput::default()
    }
}

/// The real photo scanner with the scripted live analyzer.
pub fn scripted_pipeline(script: &Script) -> Pipeline {
    let base = sudoku_lens::app::wiring::default_pipeline();
    let script = Arc::clone(script);
    Pipeline {
        photo: base.photo,
        live: Arc::new(move || {
            Ok(Box::new(ScriptedAnalyzer(Arc::clone(&script))) as Box<dyn LiveAnalyzer>)
        }),
    }
}

/// eframe's storage in memory, as its file storage holds the strings.
#[derive(Default)]
pub struct MemoryStorage(pub HashMap<String, String>);

impl eframe::Storage for MemoryStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}
