//! The desktop app (eframe/egui): live camera scanning with an AR overlay, photo loading (open,
//! drop, paste, argument), an editable board, step-through explanations with hints, export and
//! persistence.
//!
//! Shape: views draw state and emit [`Command`]s; [`SudokuLensApp::apply`] is the one place that
//! changes state. Work happens on named threads (`camera-capture`/`camera-watchdog`, `scanner`,
//! `solver`, `photo-scan`) that reach the UI only through bounded newest-wins mailboxes followed
//! by `request_repaint`, so the UI never waits on the pipeline. Persisted [`Settings`] are kept
//! apart from runtime state. The recognizer is reached through the [`pipeline`] seam.

pub mod annotate;
pub mod board_view;
pub mod command;
pub mod geometry;
pub mod image_view;
pub mod pipeline;
pub mod session;
pub mod settings;
pub mod steps_view;
pub mod strokes;
pub mod wiring;
pub mod workers;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui::{Color32, RichText, Vec2};
use image::RgbImage;

use crate::camera::{
    self, CameraDescriptor, CameraError, CaptureEvent, CaptureHandle, CaptureOptions, Frame,
    FrameSource, ImageSequenceSource, Mailbox, NokhwaSource, Opener,
};
use crate::sudoku::Cell;
use crate::vision::Lattice;

pub use command::Command;
pub use pipeline::{LockState, Pipeline};
pub use session::{Board, HintLevel, SolveState, Walkthrough};
pub use settings::{SavedPuzzle, Settings};

use workers::{
    Notify, PhotoInput, PhotoResult, ScanWorker, SolveRequest, SolverWorker, spawn_photo_scan,
};

/// Fewer givens than this cannot make a unique Sudoku; such boards are not solved.
pub const MIN_CLUES: usize = 17;

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
    /// The recognizer (default: [`wiring::default_pipeline`]).
    pub pipeline: Option<Pipeline>,
    /// Camera watchdog tuning.
    pub capture: CaptureOptions,
    /// Where to publish run statistics (read after the window closes).
    pub stats: Option<Arc<Mutex<RunStats>>>,
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
            pipeline: None,
            capture: CaptureOptions::default(),
            stats: None,
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

/// Rates measured while running (frames per second over the last seconds, and totals).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunStats {
    /// UI repaints per second.
    pub repaint_fps: f32,
    /// Camera frames shown per second.
    pub camera_fps: f32,
    /// Frames analysed per second by the scanner.
    pub scan_fps: f32,
    /// UI repaints in total.
    pub repaints: u64,
    /// Camera frames shown in total.
    pub frames_shown: u64,
    /// Frames the capture thread delivered in total.
    pub frames_captured: u64,
    /// Frames analysed in total.
    pub frames_analysed: u64,
    /// Slowest UI frame (time inside `show`), milliseconds.
    pub worst_ui_frame_ms: f32,
}

/// Events per second over a sliding window.
#[derive(Clone, Debug, Default)]
struct RateMeter {
    times: VecDeque<Instant>,
    total: u64,
}

impl RateMeter {
    const WINDOW: Duration = Duration::from_secs(2);

    fn tick(&mut self, now: Instant) {
        self.total += 1;
        self.times.push_back(now);
        while self.times.front().is_some_and(|t| now - *t > Self::WINDOW) {
            self.times.pop_front();
        }
    }

    fn rate(&self) -> f32 {
        match (self.times.front(), self.times.back()) {
            (Some(a), Some(b)) if self.times.len() > 1 && b > a => {
                (self.times.len() - 1) as f32 / (*b - *a).as_secs_f32()
            }
            _ => 0.0,
        }
    }
}

/// Where the image in the main view comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum SourceStatus {
    /// Nothing loaded.
    Idle,
    /// A photo is being scanned.
    Scanning(String),
    /// A photo was scanned.
    Photo(String),
    /// The camera is being opened.
    CameraOpening(String),
    /// The camera delivers frames.
    CameraLive(String),
    /// The camera failed (retrying).
    CameraFailed(CameraError),
    /// The camera stalled (reopening).
    CameraStalled,
    /// The frame source ended.
    CameraEnded,
    /// The camera was stopped by the user.
    CameraStopped,
}

impl std::fmt::Display for SourceStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceStatus::Idle => f.write_str("no source"),
            SourceStatus::Scanning(l) => write!(f, "scanning {l}…"),
            SourceStatus::Photo(l) => write!(f, "photo: {l}"),
            SourceStatus::CameraOpening(l) => write!(f, "opening {l}…"),
            SourceStatus::CameraLive(l) => write!(f, "camera: {l}"),
            SourceStatus::CameraFailed(_) => f.write_str("camera: failed"),
            SourceStatus::CameraStalled => f.write_str("camera: stalled"),
            SourceStatus::CameraEnded => f.write_str("camera: source ended"),
            SourceStatus::CameraStopped => f.write_str("camera: stopped"),
        }
    }
}

/// Severity of a status-bar message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Informational.
    Info,
    /// Something to look at.
    Warning,
    /// Something failed.
    Error,
}

/// The status-bar message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Severity.
    pub severity: Severity,
    /// Text.
    pub text: String,
}

/// The image shown in the main view.
struct ViewImage {
    texture: egui::TextureHandle,
    image: Arc<RgbImage>,
}

/// A camera session: the capture threads and the scanner.
struct CameraSession {
    capture: CaptureHandle,
    scanner: Option<ScanWorker>,
    label: String,
}

/// The screenshot-and-exit plan of `--screenshot`.
struct ScreenshotPlan {
    path: PathBuf,
    started: Instant,
    settled_frames: u32,
    requested: bool,
    done: Arc<Mailbox<Result<(), String>>>,
}

/// Longest wait for the pipeline to settle before the screenshot is taken anyway.
const SCREENSHOT_DEADLINE: Duration = Duration::from_secs(60);

/// The app. Create with [`SudokuLensApp::new`]; draw with [`SudokuLensApp::show`] (eframe calls
/// it through [`eframe::App::ui`]; tests call it through egui_kittest).
pub struct SudokuLensApp {
    options: AppOptions,
    settings: Settings,
    pipeline: Pipeline,
    notify: Option<Notify>,
    ctx: Option<egui::Context>,
    started: bool,

    // Sources and workers.
    cameras: Option<Result<Vec<CameraDescriptor>, CameraError>>,
    camera: Option<CameraSession>,
    ui_frames: Arc<Mailbox<Frame>>,
    solver: Option<SolverWorker>,
    photo_results: Arc<Mailbox<PhotoResult>>,
    photo_generation: u64,
    photo_pending: bool,

    // What is shown.
    view: Option<ViewImage>,
    lattice: Option<Lattice>,
    lock: LockState,
    puzzle_serial: u64,
    /// The camera puzzle serial the board was read from (`None`: not from the camera).
    overlay_serial: Option<u64>,
    source_status: SourceStatus,
    message: Option<Message>,
    hovering_files: bool,
    /// Seconds without frames of the last stall, until the camera reopens.
    last_stall: Option<f32>,

    // The puzzle.
    board: Board,
    board_label: String,
    board_generation: u64,
    board_edited: bool,
    solve: SolveState,
    restore_step: Option<usize>,
    selected: Option<Cell>,

    // Measurements.
    repaints: RateMeter,
    frames_shown: RateMeter,
    scans: RateMeter,
    frames_analysed: u64,
    worst_ui_frame: Duration,
    opened_at: Instant,
    screenshot: Option<ScreenshotPlan>,
}

impl std::fmt::Debug for SudokuLensApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SudokuLensApp")
            .field("source_status", &self.source_status)
            .field("lock", &self.lock)
            .field("board", &self.board.to_text())
            .finish_non_exhaustive()
    }
}

impl SudokuLensApp {
    /// A new app; restores settings and the last puzzle from `storage` unless `options.fresh`.
    /// Threads start on the first [`SudokuLensApp::show`].
    pub fn new(options: AppOptions, storage: Option<&dyn eframe::Storage>) -> SudokuLensApp {
        let (settings, saved) = match (options.fresh, storage) {
            (false, Some(s)) => (
                eframe::get_value::<Settings>(s, settings::SETTINGS_KEY).unwrap_or_default(),
                eframe::get_value::<SavedPuzzle>(s, settings::PUZZLE_KEY),
            ),
            _ => (Settings::default(), None),
        };
        let pipeline = options
            .pipeline
            .clone()
            .unwrap_or_else(wiring::default_pipeline);
        let screenshot = options.screenshot.clone().map(|path| ScreenshotPlan {
            path,
            started: Instant::now(),
            settled_frames: 0,
            requested: false,
            done: Arc::new(Mailbox::new()),
        });
        let mut app = SudokuLensApp {
            options,
            settings,
            pipeline,
            notify: None,
            ctx: None,
            started: false,
            cameras: None,
            camera: None,
            ui_frames: Arc::new(Mailbox::new()),
            solver: None,
            photo_results: Arc::new(Mailbox::new()),
            photo_generation: 0,
            photo_pending: false,
            view: None,
            lattice: None,
            lock: LockState::Searching,
            puzzle_serial: 0,
            overlay_serial: None,
            source_status: SourceStatus::Idle,
            message: None,
            hovering_files: false,
            last_stall: None,
            board: Board::default(),
            board_label: String::new(),
            board_generation: 0,
            board_edited: false,
            solve: SolveState::Idle,
            restore_step: None,
            selected: None,
            repaints: RateMeter::default(),
            frames_shown: RateMeter::default(),
            scans: RateMeter::default(),
            frames_analysed: 0,
            worst_ui_frame: Duration::ZERO,
            opened_at: Instant::now(),
            screenshot,
        };
        if let Some(saved) = saved
            && let Some(board) = saved.restore()
        {
            app.board = board;
            app.board_label = saved.label.clone();
            app.restore_step = Some(saved.step);
            app.board_edited = true;
        }
        app
    }

    // ----- read access (views, tests) -----

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The solve state.
    pub fn solve_state(&self) -> &SolveState {
        &self.solve
    }

    /// The source status.
    pub fn source_status(&self) -> &SourceStatus {
        &self.source_status
    }

    /// The status-bar message.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// The tracker state of the live view.
    pub fn lock_state(&self) -> LockState {
        self.lock
    }

    /// The lattice drawn over the view, if any.
    pub fn lattice(&self) -> Option<&Lattice> {
        self.lattice.as_ref()
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The cells the board highlights for the current step (pattern cells, and at full reveal
    /// the placements and the cells losing candidates), in cell order.
    pub fn highlighted_cells(&self) -> Vec<Cell> {
        let hint = self.settings.hint_mode.then(|| {
            self.solve
                .walkthrough()
                .map_or(HintLevel::Technique, |w| w.hint)
        });
        let Some(full) = board_view::step_visibility(hint) else {
            return Vec::new();
        };
        let Some(step) = self.solve.walkthrough().and_then(|w| w.current()) else {
            return Vec::new();
        };
        board_view::step_cells(step, full).iter().collect()
    }

    /// The selected cell.
    pub fn selected_cell(&self) -> Option<Cell> {
        self.selected
    }

    /// Whether a photo scan or a solve is still running.
    pub fn is_busy(&self) -> bool {
        self.photo_pending || matches!(self.solve, SolveState::Solving)
    }

    /// Current measurements.
    pub fn stats(&self) -> RunStats {
        RunStats {
            repaint_fps: self.repaints.rate(),
            camera_fps: self.frames_shown.rate(),
            scan_fps: self.scans.rate(),
            repaints: self.repaints.total,
            frames_shown: self.frames_shown.total,
            frames_captured: self
                .camera
                .as_ref()
                .map_or(0, |c| c.capture.frames_captured()),
            frames_analysed: self.frames_analysed,
            worst_ui_frame_ms: self.worst_ui_frame.as_secs_f32() * 1000.0,
        }
    }

    /// The annotated PNG of the current state: the photo with the solution written on it, or a
    /// rendered board when there is no photo or no lattice.
    pub fn annotated_image(&self) -> RgbImage {
        let solution = self.solve.walkthrough().map(|w| &w.explained().solution);
        let annotation = annotate::Annotation {
            values: &self.board.values,
            solution,
        };
        match (&self.view, &self.lattice) {
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
        self.repaints.tick(frame_start);
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
        egui::CentralPanel::default().show(ui, |ui| self.main_view_ui(ui));

        for cmd in cmds {
            self.apply(cmd);
        }
        self.screenshot_logic(&ctx);
        if let Some(limit) = self.options.exit_after
            && self.opened_at.elapsed() >= limit
        {
            self.publish_stats();
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        // A live camera repaints on every frame through the capture thread; the rate meters
        // and spinners need an occasional repaint of their own.
        ctx.request_repaint_after(Duration::from_millis(250));
        self.worst_ui_frame = self.worst_ui_frame.max(frame_start.elapsed());
    }

    fn ensure_started(&mut self, ctx: &egui::Context) {
        if self.started {
            return;
        }
        self.started = true;
        self.ctx = Some(ctx.clone());
        let repaint_ctx = ctx.clone();
        let notify: Notify = Arc::new(move || repaint_ctx.request_repaint());
        self.notify = Some(Arc::clone(&notify));
        match SolverWorker::start(notify) {
            Ok(w) => self.solver = Some(w),
            Err(e) => self.say(
                Severity::Error,
                format!("cannot start the solver thread: {e}"),
            ),
        }
        if self.board.filled() > 0 {
            self.board_changed(false);
        }
        if let Some((label, opener)) = self.options.custom_source.clone() {
            self.start_capture(label, opener);
        } else if let Some(path) = self.options.source.clone() {
            self.apply(Command::StartSequence(path));
        } else if let Some(path) = self.options.photo.clone() {
            self.apply(Command::LoadPhoto(path));
        } else if self.options.start_camera && self.options.screenshot.is_none() {
            self.apply(Command::StartCamera);
        }
    }

    fn notify(&self) -> Notify {
        self.notify.clone().unwrap_or_else(|| Arc::new(|| {}))
    }

    fn say(&mut self, severity: Severity, text: impl Into<String>) {
        let text = text.into();
        match severity {
            Severity::Error => tracing::warn!(%text, "status"),
            _ => tracing::info!(%text, "status"),
        }
        self.message = Some(Message { severity, text });
    }

    // ----- workers → state -----

    fn poll_workers(&mut self, ctx: &egui::Context) {
        let now = Instant::now();
        // Capture events.
        let mut events = Vec::new();
        if let Some(cam) = &self.camera {
            while let Some(e) = cam.capture.try_event() {
                events.push(e);
            }
        }
        for e in events {
            self.on_capture_event(e);
        }
        // Newest camera frame.
        if let Some(frame) = self.ui_frames.take() {
            self.frames_shown.tick(now);
            tracing::trace!(seq = frame.seq, "frame shown");
            self.set_view_image(ctx, frame.image);
        }
        // Scanner.
        let update = self
            .camera
            .as_ref()
            .and_then(|c| c.scanner.as_ref())
            .and_then(|s| s.updates.take());
        if let Some(u) = update {
            if let Some(e) = u.error {
                self.say(Severity::Error, format!("live scanning unavailable: {e}"));
                if let Some(cam) = &mut self.camera {
                    cam.scanner = None;
                }
                return;
            }
            self.scans.tick(now);
            self.frames_analysed = u.frames_analysed;
            self.lock = u.lock;
            self.lattice = u.lattice;
            if u.puzzle_serial != self.puzzle_serial {
                // The solution on screen belongs to the paper that is gone: stop drawing it.
                self.puzzle_serial = u.puzzle_serial;
                self.board_edited = false;
                self.say(
                    Severity::Info,
                    "grid lost or puzzle changed — overlay cleared",
                );
            }
            if let Some(voted) = u.voted
                && voted.values != self.board.recognized
                && !self.board_edited
            {
                self.board = Board::new(voted.values, voted.uncertain, None);
                self.board_label = "camera".into();
                self.overlay_serial = Some(u.puzzle_serial);
                self.board_changed(true);
            }
        }
        // Photo scan.
        if let Some(r) = self.photo_results.take()
            && r.generation == self.photo_generation
        {
            self.photo_pending = false;
            let label = self.board_label.clone();
            if let Some(image) = r.image {
                self.set_view_image(ctx, image);
            }
            match r.result {
                Ok(scan) => {
                    self.lattice = scan.lattice;
                    self.lock = LockState::Locked;
                    self.source_status = SourceStatus::Photo(label.clone());
                    if let Some(reading) = scan.reading {
                        let uncertain = reading.uncertain();
                        self.board = Board::new(reading.values, uncertain, scan.repair);
                        self.overlay_serial = None;
                        self.board_edited = false;
                        self.board_changed(true);
                        let n = self.board.filled();
                        self.say(
                            Severity::Info,
                            format!("read {n} digits from {label} in {} ms", r.took.as_millis()),
                        );
                    }
                }
                Err(msg) => {
                    self.lattice = None;
                    self.lock = LockState::Searching;
                    self.source_status = SourceStatus::Photo(label);
                    self.say(Severity::Error, msg);
                }
            }
        }
        // Solver.
        let result = self.solver.as_ref().and_then(|s| s.results.take());
        if let Some(r) = result
            && r.generation == self.board_generation
        {
            self.solve = match r.result {
                Ok(explained) => {
                    let mut walk = Walkthrough::new(explained);
                    if let Some(step) = self.restore_step.take() {
                        walk.go_to(step);
                    }
                    tracing::debug!(
                        ms = r.took.as_millis() as u64,
                        steps = walk.len(),
                        "solve shown"
                    );
                    SolveState::Solved(Box::new(walk))
                }
                Err(msg) => SolveState::Unsolvable(msg),
            };
        }
    }

    fn on_capture_event(&mut self, e: CaptureEvent) {
        match e {
            CaptureEvent::Opened(desc) => {
                self.source_status = SourceStatus::CameraLive(desc.clone());
                match self.last_stall.take() {
                    // Keep the stall visible: the reopen usually follows within milliseconds.
                    Some(secs) => self.say(
                        Severity::Warning,
                        format!("camera stalled (no frame for {secs:.1} s) — reopened {desc}"),
                    ),
                    None => self.say(Severity::Info, format!("camera opened: {desc}")),
                }
            }
            CaptureEvent::Failed(err) => {
                self.say(Severity::Error, err.to_string());
                self.source_status = SourceStatus::CameraFailed(err);
            }
            CaptureEvent::Stalled(err) => {
                if let CameraError::Stalled(secs) = err {
                    self.last_stall = Some(secs);
                }
                self.say(Severity::Warning, err.to_string());
                self.source_status = SourceStatus::CameraStalled;
            }
            CaptureEvent::Ended => {
                self.source_status = SourceStatus::CameraEnded;
                self.say(Severity::Info, "the frame source ended");
            }
        }
    }

    fn set_view_image(&mut self, ctx: &egui::Context, image: Arc<RgbImage>) {
        let size = [image.width() as usize, image.height() as usize];
        let color = egui::ColorImage::from_rgb(size, image.as_raw());
        match &mut self.view {
            Some(v) => {
                v.texture.set(color, egui::TextureOptions::LINEAR);
                v.image = image;
            }
            None => {
                let texture = ctx.load_texture("main-view", color, egui::TextureOptions::LINEAR);
                self.view = Some(ViewImage { texture, image });
            }
        }
    }

    /// The board changed (new scan or edit): new generation, solve off the UI thread.
    fn board_changed(&mut self, new_puzzle: bool) {
        self.board_generation += 1;
        if new_puzzle {
            self.selected = None;
        }
        let filled = self.board.filled();
        if filled == 0 {
            self.solve = SolveState::Idle;
            return;
        }
        if filled < MIN_CLUES {
            self.solve = SolveState::Unsolvable(format!(
                "only {filled} digits — a Sudoku needs at least {MIN_CLUES}"
            ));
            return;
        }
        if self.board.conflicts().iter().any(|&c| c) {
            self.solve = SolveState::Unsolvable("the red cells repeat a digit".into());
            return;
        }
        match &self.solver {
            Some(solver) => {
                solver.request(SolveRequest {
                    generation: self.board_generation,
                    values: self.board.values,
                });
                self.solve = SolveState::Solving;
            }
            None => self.solve = SolveState::Unsolvable("the solver is not running".into()),
        }
    }

    // ----- input → commands -----

    fn collect_input(&mut self, ctx: &egui::Context, cmds: &mut Vec<Command>) {
        let (events, dropped, hovering) = ctx.input(|i| {
            (
                i.events.clone(),
                i.raw.dropped_files.clone(),
                !i.raw.hovered_files.is_empty(),
            )
        });
        self.hovering_files = hovering;
        for f in dropped {
            cmds.push(Command::LoadPhoto(f.path().to_path_buf()));
        }
        for e in events {
            match e {
                egui::Event::Paste(text) => cmds.push(Command::LoadPuzzleText(text)),
                egui::Event::PasteImage(img) => {
                    let rgb = color_image_to_rgb(&img);
                    cmds.push(Command::LoadImage {
                        image: Arc::new(rgb),
                        label: "pasted image".into(),
                    });
                }
                egui::Event::Copy => cmds.push(Command::CopyPuzzle),
                _ => {}
            }
        }
        ctx.input_mut(|i| {
            if i.consume_key(egui::Modifiers::COMMAND, egui::Key::O) {
                cmds.push(Command::OpenPhotoDialog);
            }
            if i.consume_key(egui::Modifiers::COMMAND, egui::Key::S) {
                cmds.push(Command::SaveAnnotatedDialog);
            }
            if i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowRight) {
                cmds.push(Command::NextStep);
            }
            if i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowLeft) {
                cmds.push(Command::PreviousStep);
            }
            if i.consume_key(egui::Modifiers::NONE, egui::Key::Home) {
                cmds.push(Command::FirstStep);
            }
            if i.consume_key(egui::Modifiers::NONE, egui::Key::End) {
                cmds.push(Command::LastStep);
            }
            if i.consume_key(egui::Modifiers::NONE, egui::Key::H) {
                cmds.push(Command::RevealHint);
            }
        });
    }

    // ----- the one place that changes state -----

    /// Applies one command.
    pub fn apply(&mut self, cmd: Command) {
        tracing::debug!(?cmd, "command");
        match cmd {
            Command::OpenPhotoDialog => {
                let mut dialog = rfd::FileDialog::new()
                    .set_title("Open a Sudoku photo")
                    .add_filter(
                        "Images",
                        &[
                            "jpg", "jpeg", "png", "bmp", "webp", "tif", "tiff", "gif", "pnm",
                        ],
                    );
                if let Some(dir) = &self.settings.last_dir {
                    dialog = dialog.set_directory(dir);
                }
                if let Some(path) = dialog.pick_file() {
                    self.apply(Command::LoadPhoto(path));
                }
            }
            Command::LoadPhoto(path) => {
                self.settings.last_dir = path.parent().map(Path::to_path_buf);
                let label = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                self.start_photo_scan(PhotoInput::File(path), label);
            }
            Command::LoadImage { image, label } => {
                if let Some(ctx) = self.ctx.clone() {
                    self.set_view_image(&ctx, Arc::clone(&image));
                }
                self.start_photo_scan(PhotoInput::Image(image), label);
            }
            Command::PasteFromClipboard => {
                let pasted = arboard::Clipboard::new().and_then(|mut c| match c.get_image() {
                    Ok(img) => Ok(Ok((img.width, img.height, img.bytes.into_owned()))),
                    Err(_) => c.get_text().map(Err),
                });
                match pasted {
                    Ok(Ok((w, h, rgba))) => {
                        let rgb = rgba_to_rgb(w, h, &rgba);
                        match rgb {
                            Some(image) => self.apply(Command::LoadImage {
                                image: Arc::new(image),
                                label: "pasted image".into(),
                            }),
                            None => self.say(Severity::Error, "the clipboard image is malformed"),
                        }
                    }
                    Ok(Err(text)) => self.apply(Command::LoadPuzzleText(text)),
                    Err(e) => self.say(Severity::Error, format!("nothing to paste: {e}")),
                }
            }
            Command::LoadPuzzleText(text) => match Board::from_text(&text) {
                Some(board) => {
                    self.board = board;
                    self.board_label = "pasted text".into();
                    self.board_edited = false;
                    self.lattice = None;
                    self.board_changed(true);
                    self.say(Severity::Info, "puzzle pasted");
                }
                None => self.say(
                    Severity::Warning,
                    "the pasted text is not a puzzle (81 digits, 0 or . for empty)",
                ),
            },
            Command::StartCamera => {
                let index = self.settings.camera_index;
                let resolution = self.settings.resolution;
                let opener: Opener = Arc::new(move || {
                    NokhwaSource::open(index, resolution)
                        .map(|s| Box::new(s) as Box<dyn FrameSource>)
                });
                self.start_capture(format!("camera {index}"), opener);
            }
            Command::StartSequence(path) => {
                let fps = self
                    .options
                    .sequence_fps
                    .unwrap_or(self.settings.sequence_fps);
                let label = path.display().to_string();
                let opener: Opener = Arc::new(move || {
                    ImageSequenceSource::open(&path, fps, true)
                        .map(|s| Box::new(s) as Box<dyn FrameSource>)
                });
                self.start_capture(label, opener);
            }
            Command::StopCamera => {
                if self.camera.is_some() {
                    self.stop_camera();
                    self.source_status = SourceStatus::CameraStopped;
                }
            }
            Command::SelectCamera(i) => {
                self.settings.camera_index = i;
                if self.camera.is_some() {
                    self.apply(Command::StartCamera);
                }
            }
            Command::SelectResolution(r) => {
                self.settings.resolution = r;
                if self.camera.is_some() {
                    self.apply(Command::StartCamera);
                }
            }
            Command::RefreshCameras => {
                self.cameras = Some(camera::list_cameras());
            }
            Command::SelectCell(c) => self.selected = c,
            Command::SetCell { cell, value } => {
                if self.board.values[cell.index()] != value {
                    self.board.set(cell, value);
                    self.board_edited = true;
                    self.restore_step = None;
                    self.board_changed(false);
                }
            }
            Command::AcceptRepair => {
                self.board.accept_repair();
                self.board_edited = true;
                self.board_changed(false);
            }
            Command::RejectRepair => self.board.repair = None,
            Command::FirstStep => self.walk(|_, _| 0),
            Command::PreviousStep => self.walk(|pos, _| pos.saturating_sub(1)),
            Command::NextStep => self.walk(|pos, _| pos + 1),
            Command::LastStep => self.walk(|_, len| len),
            Command::GoToStep(n) => self.walk(|_, _| n),
            Command::RevealHint => {
                if let Some(w) = self.solve.walkthrough_mut() {
                    w.hint = w.hint.next();
                }
            }
            Command::SetHintMode(on) => {
                self.settings.hint_mode = on;
                if let Some(w) = self.solve.walkthrough_mut() {
                    w.hint = HintLevel::default();
                }
            }
            Command::SetShowSolution(on) => self.settings.show_solution = on,
            Command::SetShowCandidates(on) => self.settings.show_candidates = on,
            Command::CopyPuzzle => {
                let text = self.board.to_text();
                if let Some(ctx) = &self.ctx {
                    ctx.copy_text(text);
                }
                self.say(Severity::Info, "puzzle copied as 81 characters");
            }
            Command::SaveAnnotatedDialog => {
                let name = format!("{}-annotated.png", file_stem(&self.board_label));
                let mut dialog = rfd::FileDialog::new()
                    .set_title("Save annotated PNG")
                    .set_file_name(name)
                    .add_filter("PNG", &["png"]);
                if let Some(dir) = &self.settings.last_dir {
                    dialog = dialog.set_directory(dir);
                }
                if let Some(path) = dialog.save_file() {
                    self.apply(Command::SaveAnnotated(path));
                }
            }
            Command::SaveAnnotated(path) => match self.annotated_image().save(&path) {
                Ok(()) => self.say(Severity::Info, format!("saved {}", path.display())),
                Err(e) => self.say(
                    Severity::Error,
                    format!("cannot save {}: {e}", path.display()),
                ),
            },
            Command::ClearBoard => {
                self.board = Board::default();
                self.board_label.clear();
                self.board_edited = false;
                self.board_changed(true);
            }
        }
    }

    /// Stops the camera and scans a photo on the `photo-scan` thread.
    fn start_photo_scan(&mut self, input: PhotoInput, label: String) {
        self.stop_camera();
        self.lattice = None;
        self.lock = LockState::Searching;
        self.board_label = label.clone();
        self.source_status = SourceStatus::Scanning(label);
        self.photo_generation += 1;
        self.photo_pending = true;
        spawn_photo_scan(
            Arc::clone(&self.pipeline.photo),
            input,
            self.photo_generation,
            Arc::clone(&self.photo_results),
            self.notify(),
        );
    }

    fn walk(&mut self, target: impl FnOnce(usize, usize) -> usize) {
        if let Some(w) = self.solve.walkthrough_mut() {
            let pos = target(w.pos(), w.len());
            w.go_to(pos);
        }
    }

    fn start_capture(&mut self, label: String, opener: Opener) {
        self.stop_camera();
        let notify = self.notify();
        let scanner = match ScanWorker::start(&self.pipeline.live, Arc::clone(&notify)) {
            Ok(s) => Some(s),
            Err(msg) => {
                self.say(Severity::Error, format!("live scanning unavailable: {msg}"));
                None
            }
        };
        let mut sinks = vec![Arc::clone(&self.ui_frames)];
        if let Some(s) = &scanner {
            sinks.push(Arc::clone(&s.frames));
        }
        match camera::capture::start(opener, sinks, notify, self.options.capture) {
            Ok(capture) => {
                self.source_status = SourceStatus::CameraOpening(label.clone());
                self.lattice = None;
                self.lock = LockState::Searching;
                self.board_edited = false;
                self.camera = Some(CameraSession {
                    capture,
                    scanner,
                    label,
                });
            }
            Err(e) => self.say(
                Severity::Error,
                format!("cannot start the capture thread: {e}"),
            ),
        }
    }

    fn stop_camera(&mut self) {
        if let Some(cam) = self.camera.take() {
            tracing::debug!(label = %cam.label, "camera stopped");
            cam.capture.stop();
        }
        // A frame already in the mailbox belongs to the stopped session.
        let _ = self.ui_frames.take();
    }

    // ----- views -----

    fn toolbar_ui(&mut self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("Open photo…").on_hover_text("Ctrl+O").clicked() {
                cmds.push(Command::OpenPhotoDialog);
            }
            if ui
                .button("Paste")
                .on_hover_text("Ctrl+V: an image, or a puzzle as text")
                .clicked()
            {
                cmds.push(Command::PasteFromClipboard);
            }
            ui.separator();
            if self.camera.is_some() {
                if ui.button("Stop camera").clicked() {
                    cmds.push(Command::StopCamera);
                }
            } else if ui.button("Start camera").clicked() {
                cmds.push(Command::StartCamera);
            }
            let cameras = self
                .cameras
                .get_or_insert_with(camera::list_cameras)
                .clone();
            let selected_name = match &cameras {
                Ok(list) => list
                    .iter()
                    .find(|c| c.index == self.settings.camera_index)
                    .map_or_else(
                        || format!("camera {}", self.settings.camera_index),
                        |c| c.name.clone(),
                    ),
                Err(_) => "no camera".into(),
            };
            egui::ComboBox::from_label("Camera")
                .selected_text(selected_name)
                .show_ui(ui, |ui| match &cameras {
                    Ok(list) if !list.is_empty() => {
                        for c in list {
                            if ui
                                .selectable_label(c.index == self.settings.camera_index, &c.name)
                                .clicked()
                            {
                                cmds.push(Command::SelectCamera(c.index));
                            }
                        }
                    }
                    Ok(_) => {
                        ui.label("No camera found");
                    }
                    Err(e) => {
                        ui.label(e.to_string());
                    }
                });
            if ui
                .button("Rescan")
                .on_hover_text("Look for cameras again")
                .clicked()
            {
                cmds.push(Command::RefreshCameras);
            }
            let res_text = |r: Option<camera::ResolutionRequest>| {
                r.map_or("default".to_string(), |r| r.to_string())
            };
            egui::ComboBox::from_label("Resolution")
                .selected_text(res_text(self.settings.resolution))
                .show_ui(ui, |ui| {
                    for r in camera::ResolutionRequest::CHOICES {
                        if ui
                            .selectable_label(r == self.settings.resolution, res_text(r))
                            .clicked()
                        {
                            cmds.push(Command::SelectResolution(r));
                        }
                    }
                });
            ui.separator();
            let mut show_solution = self.settings.show_solution;
            if ui.checkbox(&mut show_solution, "Show solution").changed() {
                cmds.push(Command::SetShowSolution(show_solution));
            }
            let mut show_candidates = self.settings.show_candidates;
            if ui.checkbox(&mut show_candidates, "Candidates").changed() {
                cmds.push(Command::SetShowCandidates(show_candidates));
            }
            ui.separator();
            if ui
                .button("Copy puzzle")
                .on_hover_text("81 characters, . for empty")
                .clicked()
            {
                cmds.push(Command::CopyPuzzle);
            }
            if ui.button("Save PNG…").on_hover_text("Ctrl+S").clicked() {
                cmds.push(Command::SaveAnnotatedDialog);
            }
            if ui.button("Clear").clicked() {
                cmds.push(Command::ClearBoard);
            }
        });
    }

    fn status_ui(&self, ui: &mut egui::Ui) {
        let stats = self.stats();
        ui.horizontal(|ui| {
            ui.label(self.source_status.to_string());
            ui.separator();
            if self.camera.is_some() {
                ui.label(format!(
                    "camera {:.1} fps · scan {:.1} fps",
                    stats.camera_fps, stats.scan_fps
                ));
                ui.separator();
                let (text, color) = match self.lock {
                    LockState::Locked => ("locked", Color32::from_rgb(40, 170, 70)),
                    LockState::Tracking => ("tracking", Color32::from_rgb(230, 140, 20)),
                    LockState::Searching => ("searching", ui.visuals().weak_text_color()),
                    LockState::Lost => ("lost", Color32::from_rgb(220, 60, 40)),
                };
                ui.colored_label(color, text);
                ui.separator();
            }
            ui.label(format!("ui {:.0} fps", stats.repaint_fps));
            if let Some(m) = &self.message {
                ui.separator();
                let color = match m.severity {
                    Severity::Info => ui.visuals().text_color(),
                    Severity::Warning => Color32::from_rgb(230, 150, 20),
                    Severity::Error => Color32::from_rgb(220, 60, 40),
                };
                ui.colored_label(color, &m.text);
            }
        });
    }

    fn side_ui(&mut self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        let label = if self.board_label.is_empty() {
            "Board".to_string()
        } else {
            format!("Board — {}", self.board_label)
        };
        ui.heading(label);
        let hint = self.settings.hint_mode.then(|| {
            self.solve
                .walkthrough()
                .map_or(HintLevel::Technique, |w| w.hint)
        });
        let view = board_view::BoardView {
            board: &self.board,
            walk: self.solve.walkthrough(),
            selected: self.selected,
            show_candidates: self.settings.show_candidates,
            hint,
        };
        board_view::board_ui(ui, view, cmds);
        let uncertain = self.board.uncertain.iter().filter(|&&u| u).count();
        let conflicts = self.board.conflicts().iter().filter(|&&c| c).count();
        if uncertain > 0 {
            ui.colored_label(
                board_view::UNCERTAIN_FILL,
                format!("{uncertain} uncertain cell(s): check them against the paper."),
            );
        }
        if conflicts > 0 {
            ui.colored_label(
                board_view::CONFLICT_FILL,
                format!("{conflicts} cells repeat a digit."),
            );
        }
        if let Some(repair) = &self.board.repair {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("Suggested fix: {}", repair.summary()));
                if ui.button("Accept").clicked() {
                    cmds.push(Command::AcceptRepair);
                }
                if ui.button("Dismiss").clicked() {
                    cmds.push(Command::RejectRepair);
                }
            });
        }
        if self.selected.is_some() {
            ui.weak("Type 1–9 to set the selected cell, 0 or Delete to clear, Esc to deselect.");
        }
        ui.separator();
        steps_view::steps_ui(ui, &self.solve, self.settings.hint_mode, cmds);
    }

    fn main_view_ui(&mut self, ui: &mut egui::Ui) {
        let Some(view) = &self.view else {
            image_view::empty_view_ui(ui, self.hovering_files);
            return;
        };
        let walk = self.solve.walkthrough();
        // On a live camera, only the puzzle the board was read from gets the solution drawn.
        let same_paper = self.camera.is_none() || self.overlay_serial == Some(self.puzzle_serial);
        let solution = walk
            .filter(|_| same_paper && self.settings.show_solution && !self.settings.hint_mode)
            .map(|w| (&self.board.values, &w.explained().solution));
        let visible = board_view::step_visibility(
            self.settings
                .hint_mode
                .then(|| walk.map_or(HintLevel::Technique, |w| w.hint)),
        );
        let step = walk
            .filter(|_| same_paper)
            .and_then(|w| w.current())
            .and_then(|s| visible.map(|full| (s, full)));
        let overlay = image_view::Overlay {
            lattice: self.lattice.as_ref(),
            lock: self.lock,
            solution,
            step,
        };
        let size = Vec2::new(view.image.width() as f32, view.image.height() as f32);
        image_view::image_ui(ui, &view.texture, size, overlay);
        if self.photo_pending {
            ui.put(
                egui::Rect::from_min_size(
                    ui.min_rect().min + Vec2::splat(12.0),
                    Vec2::new(200.0, 24.0),
                ),
                egui::Label::new(
                    RichText::new("Reading the photo…")
                        .background_color(Color32::from_black_alpha(160))
                        .color(Color32::WHITE),
                ),
            );
        }
    }

    // ----- screenshot mode -----

    fn settled(&self) -> bool {
        let solved_or_final = !matches!(self.solve, SolveState::Solving);
        match &self.camera {
            Some(_) => {
                (self.lock == LockState::Locked
                    && matches!(
                        self.solve,
                        SolveState::Solved(_) | SolveState::Unsolvable(_)
                    ))
                    || matches!(
                        self.source_status,
                        SourceStatus::CameraFailed(_) | SourceStatus::CameraEnded
                    )
            }
            None => !self.photo_pending && solved_or_final && self.view.is_some(),
        }
    }

    fn screenshot_logic(&mut self, ctx: &egui::Context) {
        let settled = self.settled();
        let stats = self.stats();
        let Some(plan) = &mut self.screenshot else {
            return;
        };
        if let Some(result) = plan.done.take() {
            match result {
                Ok(()) => tracing::info!(path = %plan.path.display(), "screenshot saved"),
                Err(e) => tracing::error!(error = %e, "screenshot failed"),
            }
            if let Some(out) = &self.options.stats {
                *out.lock().unwrap_or_else(|e| e.into_inner()) = stats;
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        if plan.requested {
            return;
        }
        let timed_out = plan.started.elapsed() > SCREENSHOT_DEADLINE;
        if settled || timed_out {
            plan.settled_frames += 1;
        }
        // A few frames after settling, so textures and layout are final; on a live source let
        // the rate meters fill (2 s) so the status bar shows real figures.
        let warm = self.camera.is_none() || plan.started.elapsed() > Duration::from_secs(3);
        if plan.settled_frames >= 5 && warm {
            plan.requested = true;
            let path = plan.path.clone();
            let done = Arc::clone(&plan.done);
            let repaint = ctx.clone();
            ctx.request_screenshot(move |img| {
                let rgba: Vec<u8> = img
                    .pixels
                    .iter()
                    .flat_map(|p| p.to_srgba_unmultiplied())
                    .collect();
                let saved = image::save_buffer(
                    &path,
                    &rgba,
                    img.size[0] as u32,
                    img.size[1] as u32,
                    image::ExtendedColorType::Rgba8,
                )
                .map_err(|e| e.to_string());
                done.put(saved);
                repaint.request_repaint();
            });
        }
        ctx.request_repaint();
    }

    fn publish_stats(&self) {
        if let Some(out) = &self.options.stats {
            *out.lock().unwrap_or_else(|e| e.into_inner()) = self.stats();
        }
    }

    fn saved_puzzle(&self) -> SavedPuzzle {
        let step = self.solve.walkthrough().map_or(0, |w| w.pos());
        SavedPuzzle::capture(&self.board, step, &self.board_label)
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
        eframe::set_value(storage, settings::SETTINGS_KEY, &self.settings);
        eframe::set_value(storage, settings::PUZZLE_KEY, &self.saved_puzzle());
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.publish_stats();
        self.stop_camera();
    }
}

/// Runs the app in a native window until it is closed.
pub fn run(options: AppOptions) -> Result<(), eframe::Error> {
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("sudoku-lens")
            .with_app_id("sudoku-lens")
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

fn color_image_to_rgb(img: &egui::ColorImage) -> RgbImage {
    let [w, h] = img.size;
    let mut out = RgbImage::new(w as u32, h as u32);
    for (px, c) in out.pixels_mut().zip(img.pixels.iter()) {
        let [r, g, b, _] = c.to_srgba_unmultiplied();
        *px = image::Rgb([r, g, b]);
    }
    out
}

fn rgba_to_rgb(width: usize, height: usize, rgba: &[u8]) -> Option<RgbImage> {
    if rgba.len() != width * height * 4 {
        return None;
    }
    let rgb: Vec<u8> = rgba
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    RgbImage::from_raw(width as u32, height as u32, rgb)
}

fn file_stem(label: &str) -> String {
    let stem = Path::new(label)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if stem.is_empty() {
        "sudoku".into()
    } else {
        stem
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_meter_measures_events_per_second() {
        let mut m = RateMeter::default();
        let t0 = Instant::now();
        for i in 0..11 {
            m.tick(t0 + Duration::from_millis(100 * i));
        }
        assert!((m.rate() - 10.0).abs() < 0.01, "{}", m.rate());
        assert_eq!(m.total, 11);
    }

    #[test]
    fn clipboard_rgba_converts_and_rejects_bad_sizes() {
        let rgba = [1, 2, 3, 255, 4, 5, 6, 255];
        let rgb = rgba_to_rgb(2, 1, &rgba).unwrap();
        assert_eq!(rgb.as_raw(), &vec![1, 2, 3, 4, 5, 6]);
        assert!(rgba_to_rgb(3, 1, &rgba).is_none());
        assert_eq!(file_stem("image12.jpg"), "image12");
        assert_eq!(file_stem(""), "sudoku");
    }
}
