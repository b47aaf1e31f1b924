//! The desktop app (eframe/egui): live camera scanning with an AR overlay, photo loading (open,
//! drop, paste, argument), an editable board, step-through explanations with hints, export and
//! persistence. Only egui code and the threads that feed it live here; the puzzle model is
//! [`crate::session`], the annotated PNG [`crate::annotate`].
//!
//! Shape: views (`panels`, `board_view`, `steps_view`, `image_view`) draw state and emit
//! [`Command`]s; [`SudokuLensApp::apply`] (`apply/`) is the one place that changes state, and
//! `poll.rs` the one place worker results come in. Work happens on named threads
//! (`camera-capture`/`camera-watchdog`, `scanner`, `solver`, `photo-scan`, and for the screen
//! `screen-list`, `screen-freeze`, `screen-fill`) that reach the UI only
//! through bounded newest-wins mailboxes followed by `request_repaint`, so the UI never waits on
//! the pipeline; nothing repaints on a timer except running ones (exit deadline, screenshot
//! mode), so an app with nothing new to show draws nothing. The live camera path is
//! [`crate::live`]; the scanner thread only runs it. The app's state is grouped in `state.rs`;
//! persisted [`Settings`] are kept apart from it. The recognizer is reached through the
//! [`pipeline`] seam.

mod apply;
pub mod board_view;
pub mod command;
mod diagnostics;
pub mod entries_view;
pub mod file_picker;
mod fill_worker;
pub mod geometry;
pub mod glossary_view;
pub mod image_view;
mod panels;
pub mod pipeline;
mod poll;
pub mod saved_state;
mod screen_view;
mod screen_worker;
mod state;
pub mod steps_view;
pub mod wiring;
pub mod workers;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use image::RgbImage;

use crate::annotate;
use crate::camera::{CaptureOptions, Opener};
use crate::live::{LiveState, LockProgress};
use crate::session::{
    Board, HintLevel, PUZZLE_KEY, SETTINGS_KEY, SavedPuzzle, Settings, SolveState,
};
use crate::sudoku::Cell;
use crate::vision::Lattice;

pub use command::Command;
pub use diagnostics::RunStats;
pub use pipeline::Pipeline;
pub use state::{Message, Severity, SourceStatus};

use diagnostics::Diagnostics;
use state::{LiveView, PuzzleState, SourceState, Threads, UiState};
use workers::{Notify, SolverWorker};

/// How the app is started.
#[derive(Clone)]
pub struct AppOptions {
    /// A photo to open at start.
    pub photo: Option<PathBuf>,
    /// An image file or folder of frames to play as the camera.
    pub source: Option<PathBuf>,
    /// Frame rate of `source` (default: the saved setting, 30).
    pub sequence_fps: Option<f32>,
    /// A custom frame source (tests): a description and its opener. Wins over `source`.
    pub custom_source: Option<(String, Opener)>,
    /// Start the real camera when no photo or source is given.
    pub start_camera: bool,
    /// Save a screenshot here once the pipeline settles, then exit.
    pub screenshot: Option<PathBuf>,
    /// Exit after this long (for measuring).
    pub exit_after: Option<Duration>,
    /// Ignore saved settings and puzzle, and save nothing.
    pub fresh: bool,
    /// The file the state is stored in ([`saved_state::state_file`]; `None` in tests): an
    /// entry that does not read is backed up there before it is overwritten.
    pub state_file: Option<PathBuf>,
    /// Messages from before the window opened (an unreadable state file moved aside).
    pub startup_notes: Vec<String>,
    /// The recognizer (default: [`wiring::default_pipeline`]).
    pub pipeline: Option<Pipeline>,
    /// Camera watchdog tuning.
    pub capture: CaptureOptions,
    /// Where to publish run statistics (read after the window closes).
    pub stats: Option<Arc<Mutex<RunStats>>>,
    /// Use the app's own file picker, never the system's (tests; desktops whose chooser
    /// misbehaves).
    pub in_app_file_picker: bool,
    /// The desktop the Screen source lists, freezes and captures (default:
    /// [`crate::screen::SystemDesk`]; tests give a fixed screenshot).
    pub desk: Option<Arc<dyn crate::screen::Desk>>,
}

impl Default for AppOptions {
    fn default() -> Self {
        AppOptions {
            photo: None,
            source: None,
            sequence_fps: None,
            custom_source: None,
            start_camera: true,
            screenshot: None,
            exit_after: None,
            fresh: false,
            state_file: None,
            startup_notes: Vec::new(),
            pipeline: None,
            capture: CaptureOptions::default(),
            stats: None,
            in_app_file_picker: false,
            desk: None,
        }
    }
}

impl std::fmt::Debug for AppOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppOptions")
            .field("photo", &self.photo)
            .field("source", &self.source)
            .field("screenshot", &self.screenshot)
            .field("fresh", &self.fresh)
            .finish_non_exhaustive()
    }
}

/// The app. Create with [`SudokuLensApp::new`]; draw with [`SudokuLensApp::show`] (eframe calls
/// it through [`eframe::App::ui`]; tests call it through egui_kittest).
pub struct SudokuLensApp {
    options: AppOptions,
    settings: Settings,
    pipeline: Pipeline,
    threads: Threads,
    source: SourceState,
    live: LiveView,
    puzzle: PuzzleState,
    ui: UiState,
    diag: Diagnostics,
}

impl std::fmt::Debug for SudokuLensApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SudokuLensApp")
            .field("source_status", &self.source.status)
            .field("live", &self.live.state)
            .field("board", &self.puzzle.board.to_text())
            .finish_non_exhaustive()
    }
}

impl SudokuLensApp {
    /// A new app; restores settings and the last puzzle from `storage` unless `options.fresh`.
    /// Threads start on the first [`SudokuLensApp::show`].
    pub fn new(options: AppOptions, storage: Option<&dyn eframe::Storage>) -> SudokuLensApp {
        let restored = match (options.fresh, storage) {
            (false, Some(s)) => saved_state::restore(s),
            _ => saved_state::Restored::default(),
        };
        let mut notes = options.startup_notes.clone();
        notes.extend(restored.notes);
        if restored.damaged
            && let Some(path) = &options.state_file
        {
            notes.push(saved_state::back_up(path));
        }
        let (settings, saved) = (restored.settings, restored.puzzle);
        let pipeline = options
            .pipeline
            .clone()
            .unwrap_or_else(wiring::default_pipeline);
        let diag = Diagnostics::new(options.screenshot.clone());
        let mut puzzle = PuzzleState::default();
        if let Some(saved) = saved
            && let Some(board) = saved.restore()
        {
            puzzle.board = board;
            puzzle.label = saved.label.clone();
            puzzle.restore_step = Some(saved.step);
            puzzle.edited = true;
            puzzle.restore_photo = saved.restorable_photo();
        }
        let mut app = SudokuLensApp {
            options,
            settings,
            pipeline,
            threads: Threads::default(),
            source: SourceState::default(),
            live: LiveView::default(),
            puzzle,
            ui: UiState::default(),
            diag,
        };
        if let Some(desk) = &app.options.desk {
            app.source.desk = Arc::clone(desk);
        }
        if !notes.is_empty() {
            app.say(Severity::Warning, notes.join("; "));
        }
        app
    }

    // ----- read access (views, tests) -----

    /// The board.
    pub fn board(&self) -> &Board {
        &self.puzzle.board
    }

    /// The solve state.
    pub fn solve_state(&self) -> &SolveState {
        &self.puzzle.solve
    }

    /// The handwritten entries' check of the board shown (boards with entries, once solved).
    pub fn check(&self) -> Option<&crate::sudoku::Check> {
        self.puzzle.check.as_deref()
    }

    /// The source status.
    pub fn source_status(&self) -> &SourceStatus {
        &self.source.status
    }

    /// The status-bar message.
    pub fn message(&self) -> Option<&Message> {
        self.ui.message.as_ref()
    }

    /// Where the live path stands (a read photo counts as locked).
    pub fn live_state(&self) -> LiveState {
        self.live.state
    }

    /// Progress of the live path towards a lock.
    pub fn lock_progress(&self) -> LockProgress {
        self.live.progress
    }

    /// The lattice drawn over the view, if any.
    pub fn lattice(&self) -> Option<&Lattice> {
        self.live.lattice.as_ref()
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The cells the board highlights for the current step (pattern cells, and at full reveal
    /// the placements and the cells losing candidates), in cell order.
    pub fn highlighted_cells(&self) -> Vec<Cell> {
        let hint = self.settings.hint_mode.then(|| {
            self.puzzle
                .solve
                .walkthrough()
                .map_or(HintLevel::Technique, |w| w.hint)
        });
        let Some(full) = board_view::step_visibility(hint) else {
            return Vec::new();
        };
        let Some(step) = self.puzzle.solve.walkthrough().and_then(|w| w.current()) else {
            return Vec::new();
        };
        board_view::step_cells(step, full).iter().collect()
    }

    /// Whether the main view writes solution digits onto the picture now: a photo that was
    /// read, or a camera frame on which the live path found the grid of a trusted read of the
    /// board's puzzle (never a stale lattice, never another puzzle's paper), with the board
    /// solved; which digits is [`SudokuLensApp::shown_solution`].
    pub fn solution_on_picture(&self) -> bool {
        self.overlay_on_picture()
            && self.live.lattice.is_some()
            && self.puzzle.solve.walkthrough().is_some()
    }

    /// Whether the solve of the board may be drawn on the picture shown (see
    /// [`SudokuLensApp::solution_on_picture`]).
    fn overlay_on_picture(&self) -> bool {
        match &self.source.camera {
            None => true,
            Some(_) => self.live.overlay.as_ref().is_some_and(|o| {
                self.puzzle
                    .camera
                    .is_some_and(|c| c.puzzle_id == o.puzzle_id)
            }),
        }
    }

    /// What the Screen source captures, while it runs.
    pub fn screen_target(&self) -> Option<&crate::screen::ScreenTarget> {
        self.source.screen.as_ref()
    }

    /// The rectangle dragged on the frozen screenshot so far (screen pixels), while the
    /// screenshot is shown; `Some(None)`: shown, nothing dragged yet.
    pub fn region_pick(&self) -> Option<Option<crate::screen::ScreenRect>> {
        self.ui.region_pick.as_ref().map(|p| p.rect)
    }

    /// Whether "Fill in the game" may run: the Screen source is on, the live path holds a
    /// trusted read of the puzzle there (which it gives only for a board with exactly one
    /// solution), the board shown solves with one solution, and no fill runs.
    pub fn can_fill(&self) -> bool {
        self.source.screen.is_some()
            && self.live.overlay.is_some()
            && self
                .puzzle
                .solve
                .walkthrough()
                .is_some_and(|w| w.explained().unique)
            && !self.source.filling
    }

    /// Whether the Screen menu's monitor and window lists have come in.
    pub fn screens_listed(&self) -> bool {
        self.source.screens.is_some()
    }

    /// How the last "Fill in the game" ended (`Ok`: what it typed; `Err`: why it stopped),
    /// once one has.
    pub fn fill_outcome(&self) -> Option<&Result<String, String>> {
        self.source.fill_outcome.as_ref()
    }

    /// The selected cell.
    pub fn selected_cell(&self) -> Option<Cell> {
        self.ui.selected
    }

    /// Whether a photo scan or a solve is still running.
    pub fn is_busy(&self) -> bool {
        self.source.photo_pending || matches!(self.puzzle.solve, SolveState::Solving)
    }

    /// The cells whose solution digit is shown: all with "Show solution" (reveal all), else
    /// the ones the user revealed.
    pub fn revealed_cells(&self) -> [bool; 81] {
        if self.settings.show_solution && !self.settings.hint_mode {
            [true; 81]
        } else {
            self.puzzle.revealed
        }
    }

    /// The solution digits shown now, 0 elsewhere: the revealed cells and the digits placed by
    /// the steps before the current one (nothing when not solved).
    pub fn shown_solution(&self) -> Option<[u8; 81]> {
        let walk = self.puzzle.solve.walkthrough()?;
        let solution = &walk.explained().solution;
        let revealed = self.revealed_cells();
        let placed = walk.grid();
        Some(std::array::from_fn(|i| {
            let cell = Cell::from_index(i);
            if revealed[i] || placed.value(cell).is_some() {
                solution[i]
            } else {
                0
            }
        }))
    }

    /// The annotated PNG of what is shown: the photo (or, with no photo or no grid on it, a
    /// rendered board) with the digits shown on the board written in (see
    /// [`SudokuLensApp::shown_solution`]).
    pub fn annotated_image(&self) -> RgbImage {
        let shown = self.shown_solution();
        let annotation = annotate::Annotation {
            values: &self.puzzle.board.values,
            solution: shown.as_ref(),
        };
        match (&self.live.image, &self.live.lattice) {
            (Some(view), Some(lattice)) => {
                annotate::annotate_photo(&view.image, lattice, annotation)
            }
            _ => annotate::render_board(720, annotation),
        }
    }

    // ----- the frame -----

    /// Draws one frame and applies what the user asked for. Never blocks on workers.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let frame_start = Instant::now();
        let ctx = ui.ctx().clone();
        self.ensure_started(&ctx);
        self.diag.repaints.tick(frame_start);
        self.poll_workers(&ctx);

        let mut cmds = Vec::new();
        self.collect_input(&ctx, &mut cmds);

        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui, &mut cmds));
        egui::Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        egui::Panel::right("side")
            .resizable(true)
            .default_size(470.0)
            .min_size(300.0)
            .show(ui, |ui| self.side_ui(ui, &mut cmds));
        egui::CentralPanel::default().show(ui, |ui| {
            if self.ui.region_pick.is_some() {
                self.region_pick_ui(ui, &mut cmds);
            } else {
                self.main_view_ui(ui, &mut cmds);
            }
        });
        self.help_ui(&ctx, &mut cmds);
        if let Some(technique) = self.ui.glossary {
            let step = self.solve_state().walkthrough().and_then(|w| w.current());
            glossary_view::glossary_ui(&ctx, technique, step, &mut cmds);
        }
        if let Some(picker) = &mut self.ui.picker
            && !picker.ui(&ctx, &mut cmds)
        {
            self.ui.picker = None;
        }

        for cmd in cmds {
            self.apply(cmd);
        }
        self.screenshot_logic(&ctx);
        // No periodic repaint: the UI is redrawn on input, when a thread reports something new
        // (a camera frame, a capture event, a scan that changed what is shown, a solve, a photo
        // scan), and by running timers and animations only: the exit deadline here, screenshot
        // mode, egui's own spinners.
        if let Some(limit) = self.options.exit_after {
            let left = limit.saturating_sub(self.diag.opened_at.elapsed());
            if left.is_zero() {
                self.publish_stats();
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            } else {
                ctx.request_repaint_after(left);
            }
        }
        self.diag.worst_ui_frame = self.diag.worst_ui_frame.max(frame_start.elapsed());
    }

    fn ensure_started(&mut self, ctx: &egui::Context) {
        if self.threads.ctx.is_some() {
            return;
        }
        self.threads.ctx = Some(ctx.clone());
        let repaint_ctx = ctx.clone();
        let notify: Notify = Arc::new(move || repaint_ctx.request_repaint());
        self.threads.notify = Some(Arc::clone(&notify));
        match SolverWorker::start(notify) {
            Ok(w) => self.threads.solver = Some(w),
            Err(e) => self.say(
                Severity::Error,
                format!("cannot start the solver thread: {e}"),
            ),
        }
        if self.puzzle.board.filled() > 0 {
            self.board_changed(false);
        }
        // The Screen menu's lists, ready before it first opens.
        self.apply(Command::RefreshScreens);
        if let Some((label, opener)) = self.options.custom_source.clone() {
            self.start_capture(label, opener);
        } else if let Some(path) = self.options.source.clone() {
            self.apply(Command::StartSequence(path));
        } else if let Some(path) = self.options.photo.clone() {
            self.apply(Command::LoadPhoto(path));
        } else if let Some((path, lattice)) = self.puzzle.restore_photo.take() {
            // The saved board (with its edits) stays; only the picture and its grid come back.
            let label = self.puzzle.label.clone();
            let known: Arc<dyn pipeline::PhotoScanner> = Arc::new(pipeline::KnownGrid(lattice));
            self.start_photo_load(workers::PhotoInput::File(path), label, known);
        } else if self.options.start_camera && self.options.screenshot.is_none() {
            self.apply(Command::StartCamera);
        }
    }

    fn saved_puzzle(&self) -> SavedPuzzle {
        let step = self.puzzle.solve.walkthrough().map_or(0, |w| w.pos());
        let mut saved = SavedPuzzle::capture(&self.puzzle.board, step, &self.puzzle.label);
        if self.source.camera.is_none() {
            saved.photo.clone_from(&self.puzzle.photo);
            saved.lattice = self.live.lattice.filter(|_| saved.photo.is_some());
        }
        saved
    }
}

impl eframe::App for SudokuLensApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.options.fresh || self.options.screenshot.is_some() {
            return;
        }
        eframe::set_value(storage, SETTINGS_KEY, &self.settings);
        eframe::set_value(storage, PUZZLE_KEY, &self.saved_puzzle());
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.publish_stats();
        self.stop_camera();
    }
}

/// Runs the app in a native window until it is closed.
pub fn run(mut options: AppOptions) -> Result<(), eframe::Error> {
    if !options.fresh {
        options.state_file = saved_state::state_file();
        if let Some(note) = options
            .state_file
            .as_deref()
            .and_then(saved_state::check_state_file)
        {
            options.startup_notes.push(note);
        }
    }
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("sudoku-lens")
            .with_app_id(saved_state::APP_ID)
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([800.0, 560.0])
            .with_drag_and_drop(true),
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::run_native(
        "sudoku-lens",
        native,
        Box::new(move |cc| Ok(Box::new(SudokuLensApp::new(options, cc.storage)))),
    )
}
