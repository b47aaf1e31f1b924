//! Workers → state: once per UI frame, [`SudokuLensApp::poll_workers`] takes what the capture
//! thread, the scanner, the photo scan and the solver left in their mailboxes (never waiting)
//! and updates the source, the live view and the puzzle — including the board following the
//! live path (a trusted read of a new puzzle is loaded and solved).

use std::sync::Arc;
use std::time::{Duration, Instant};

use image::RgbImage;

use crate::camera::{CameraError, CaptureEvent};
use crate::live::{LiveState, Overlay};
use crate::session::{Board, SolveState, Walkthrough};

use super::SudokuLensApp;
use super::command::Command;
use super::file_picker::PickerMode;
use super::state::{CameraPuzzle, RegionPick, Severity, SourceStatus, ViewImage};
use super::workers::ScanUpdate;

impl SudokuLensApp {
    /// Takes what the workers reported since the last frame and updates the state.
    pub(super) fn poll_workers(&mut self, ctx: &egui::Context) {
        let now = Instant::now();
        // Capture events.
        let mut events = Vec::new();
        if let Some(cam) = &self.source.camera {
            while let Some(e) = cam.capture.try_event() {
                events.push(e);
            }
        }
        for e in events {
            self.on_capture_event(e);
        }
        if let Some(note) = self.source.fill_notes.take() {
            self.source.filling = !note.finished;
            if note.finished {
                self.source.fill_outcome = Some(if note.failed {
                    Err(note.text.clone())
                } else {
                    Ok(note.text.clone())
                });
                if let Some(target) = self.source.resume_after_fill.take() {
                    self.apply(Command::StartScreen(target));
                    // The fill's outcome stays in the status bar, not "opened".
                    self.source.quiet_open = true;
                }
            }
            let severity = if note.failed {
                Severity::Error
            } else {
                Severity::Info
            };
            self.say(severity, note.text);
        }
        self.poll_screen_jobs(ctx);
        // Scanner: the frame it analysed, with what it found there.
        let report = self
            .source
            .camera
            .as_ref()
            .and_then(|c| c.scanner.as_ref())
            .and_then(|s| s.updates.take());
        match report {
            Some(Ok(update)) => self.on_scan_update(ctx, now, update),
            Some(Err(e)) => {
                self.say(Severity::Error, format!("live scanning unavailable: {e}"));
                self.live.forget_grid(LiveState::Searching);
                if let Some(cam) = &mut self.source.camera {
                    cam.scanner = None;
                    // Without a scanner the view shows the raw frames, each waking the UI.
                    cam.capture.set_frame_notify(true);
                }
            }
            None => {}
        }
        // Raw camera frames, only when no scanner runs.
        let scanning = self
            .source
            .camera
            .as_ref()
            .is_some_and(|c| c.scanner.is_some());
        if !scanning && let Some(frame) = self.source.ui_frames.take() {
            self.diag.frames_shown.tick(now);
            tracing::trace!(seq = frame.seq, "frame shown");
            self.set_view_image(ctx, frame.image);
        }
        // Photo scan.
        if let Some(r) = self.source.photo_results.take()
            && r.generation == self.source.photo_generation
        {
            self.source.photo_pending = false;
            let label = std::mem::take(&mut self.source.pending_label);
            let path = self.source.pending_path.take();
            match r.result {
                Ok(scan) => {
                    if let Some(image) = r.image {
                        self.set_view_image(ctx, image);
                    }
                    self.ui.load_problem = None;
                    self.live.forget_grid(LiveState::Locked);
                    self.live.lattice = scan.lattice;
                    self.source.status = SourceStatus::Photo(label.clone());
                    self.puzzle.label = label.clone();
                    self.puzzle.photo = path;
                    if let Some(reading) = scan.reading {
                        let uncertain = reading.uncertain();
                        let mut board = Board::new(reading.values, uncertain, scan.repair);
                        if let Some(w) = &scan.writing {
                            board = board
                                .with_writing(w.entries, w.pencil)
                                .with_model_read(w.model_read);
                        }
                        self.load_board(board);
                        let n = self.puzzle.board.filled();
                        let entries = self.puzzle.board.entries.iter().filter(|&&e| e).count();
                        let writing = match &scan.writing {
                            Some(_) if entries > 0 => {
                                format!(
                                    " ({entries} handwritten, checked against the printed ones)"
                                )
                            }
                            Some(_) => String::new(),
                            None => " (this model cannot tell handwriting from print: every digit \
                                     is taken as printed)"
                                .to_string(),
                        };
                        self.say(
                            Severity::Info,
                            format!(
                                "read {n} digits{writing} from {label} in {} ms",
                                r.took.as_millis()
                            ),
                        );
                    }
                }
                Err(failure) => {
                    // Nothing the user had is touched: picture, grid, puzzle and its name stay.
                    self.source.status = self.source.status_before_scan.clone();
                    let advice = failure.advice(&label);
                    tracing::warn!(detail = %advice.detail, "photo not loaded");
                    self.say(Severity::Error, advice.summary());
                    self.ui.load_problem = Some(advice);
                }
            }
        }
        // The system file chooser.
        if let Some(answer) = self.ui.dialog_answers.take() {
            self.ui.dialog_open = false;
            match answer.path {
                Some(path) => self.apply(match answer.mode {
                    PickerMode::Open => Command::LoadPhoto(path),
                    PickerMode::Save => Command::SaveAnnotated(path),
                }),
                // No one cancels a dialog that fast: it never showed (rfd says nothing).
                None if answer.open_for < Duration::from_millis(300) => self.open_picker(
                    answer.mode,
                    String::new(),
                    "The system file chooser did not open. Choose the file here.".into(),
                ),
                None => {}
            }
        }
        // Solver.
        let result = self.threads.solver.as_ref().and_then(|s| s.results.take());
        if let Some(r) = result
            && r.generation == self.puzzle.generation
        {
            self.puzzle.check = r.check;
            self.puzzle.solve = match r.result {
                Ok(explained) => {
                    let mut walk = Walkthrough::new(explained);
                    if let Some(step) = self.puzzle.restore_step.take() {
                        walk.go_to(step);
                    }
                    tracing::debug!(
                        ms = r.took.as_millis() as u64,
                        steps = walk.len(),
                        "solve shown"
                    );
                    SolveState::Solved(Box::new(walk))
                }
                // With handwritten entries only the printed givens were solved.
                Err(msg) if self.puzzle.board.has_entries() => SolveState::Unsolvable(msg),
                Err(msg) => SolveState::Unsolvable(match self.puzzle.board.dead_end() {
                    Some(place) => format!("{msg}: {place}"),
                    None => format!(
                        "{msg} — a digit is wrong somewhere; check the amber and edited cells"
                    ),
                }),
            };
        }
    }

    fn on_capture_event(&mut self, e: CaptureEvent) {
        match e {
            CaptureEvent::Opened(desc) => {
                self.source.status = SourceStatus::CameraLive(desc.clone());
                match self.source.last_stall.take() {
                    // Keep the stall visible: the reopen usually follows within milliseconds.
                    Some(secs) => self.say(
                        Severity::Warning,
                        format!("camera stalled (no frame for {secs:.1} s) — reopened {desc}"),
                    ),
                    None if std::mem::take(&mut self.source.quiet_open) => {}
                    None => self.say(Severity::Info, format!("camera opened: {desc}")),
                }
            }
            CaptureEvent::Failed(err) => {
                self.say(Severity::Error, err.to_string());
                // Retrying cannot help without a camera or the right to use it: stop (the
                // toolbar offers "Start camera" again) instead of failing every few seconds.
                if matches!(
                    err,
                    CameraError::NoCamera
                        | CameraError::PermissionDenied(_)
                        | CameraError::ScreenUnavailable(_)
                ) {
                    self.stop_camera();
                }
                self.source.status = SourceStatus::CameraFailed(err);
            }
            CaptureEvent::Stalled(err) => {
                if let CameraError::Stalled(secs) = err {
                    self.source.last_stall = Some(secs);
                }
                self.say(Severity::Warning, err.to_string());
                self.source.status = SourceStatus::CameraStalled;
            }
            CaptureEvent::Ended => {
                self.source.status = SourceStatus::CameraEnded;
                self.say(Severity::Info, "the frame source ended");
            }
        }
    }

    /// Takes one analysed frame: shows it with its lattice, follows the live state, and loads
    /// the board when a trusted read of a puzzle arrives that the board does not hold yet.
    fn on_scan_update(&mut self, ctx: &egui::Context, now: Instant, update: ScanUpdate) {
        self.diag.scans.observe(now, update.frames_analysed);
        self.diag.frames_analysed = update.frames_analysed;
        let same_picture = self
            .live
            .image
            .as_ref()
            .is_some_and(|v| Arc::ptr_eq(&v.image, &update.frame.image));
        if !same_picture {
            self.diag.frames_shown.tick(now);
            tracing::trace!(seq = update.frame.seq, "frame shown");
            self.set_view_image(ctx, update.frame.image);
        }
        let out = update.output;
        if let Some(e) = out.error {
            self.say(Severity::Warning, e);
        }
        if out.puzzle_id != self.live.puzzle_id {
            self.live.puzzle_id = out.puzzle_id;
            if self.puzzle.camera.is_some() {
                // The board belongs to the paper that is gone; the overlay is withheld
                // (it carries the new puzzle's id) until the new one is trusted.
                self.say(Severity::Info, "another puzzle in view — reading it");
            }
        }
        if out.state == LiveState::Lost && self.live.state != LiveState::Lost {
            self.say(Severity::Info, "grid lost — overlay cleared");
        }
        self.live.state = out.state;
        self.live.progress = out.progress;
        self.live.lattice = out.lattice;
        self.live.reading = out.board;
        self.live.overlay = out.overlay;
        if let Some(overlay) = self.live.overlay.clone() {
            self.follow_trusted_read(&overlay);
        }
    }

    /// Loads the trusted givens of the puzzle in view unless the board already holds them,
    /// or holds the user's edits of that same puzzle. Solving goes through the solver thread
    /// as for any board (its explained solution drives the steps).
    fn follow_trusted_read(&mut self, overlay: &Overlay) {
        let read = CameraPuzzle {
            puzzle_id: overlay.puzzle_id,
            givens: overlay.givens,
        };
        let same_paper = self
            .puzzle
            .camera
            .is_some_and(|c| c.puzzle_id == read.puzzle_id);
        if self.puzzle.camera == Some(read) || (same_paper && self.puzzle.edited) {
            return;
        }
        self.puzzle.label = "camera".into();
        self.puzzle.photo = None;
        // A half-done page: its entries go on the board as the photo path puts a photo's
        // (pen colour, checked against the printed digits, wrong ones red).
        let mut board = Board::new(read.givens, overlay.unsure, None);
        if overlay.written.kinds_known {
            board = board.with_writing(
                overlay.written.entries.map(|v| v != 0),
                overlay.written.pencil,
            );
        }
        self.load_board(board);
        self.puzzle.camera = Some(read);
        let entries = self.puzzle.board.entries.iter().filter(|&&e| e).count();
        let writing = if entries > 0 {
            format!(" ({entries} handwritten, checked against the printed ones)")
        } else {
            String::new()
        };
        self.say(
            Severity::Info,
            format!(
                "locked: read {} digits{writing}",
                self.puzzle.board.filled()
            ),
        );
    }

    pub(super) fn set_view_image(&mut self, ctx: &egui::Context, image: Arc<RgbImage>) {
        let size = [image.width() as usize, image.height() as usize];
        let color = egui::ColorImage::from_rgb(size, image.as_raw());
        match &mut self.live.image {
            Some(v) => {
                v.texture.set(color, egui::TextureOptions::LINEAR);
                v.image = image;
            }
            None => {
                let texture = ctx.load_texture("main-view", color, egui::TextureOptions::LINEAR);
                self.live.image = Some(ViewImage { texture, image });
            }
        }
    }

    /// The screen source's one-off jobs: the monitor and window lists, the frozen screenshot.
    fn poll_screen_jobs(&mut self, ctx: &egui::Context) {
        if let Some(lists) = self.source.screens_results.take() {
            self.source.screens_pending = false;
            self.source.screens = Some(lists);
            self.source.screens_listed_at = Some(Instant::now());
        }
        match self.source.freeze_results.take() {
            Some(Ok(super::screen_worker::Frozen { capture, preview })) => {
                self.source.freezing = false;
                // The picture may be reduced; the rectangle maps through the full capture.
                let size = [preview.width() as usize, preview.height() as usize];
                let color = egui::ColorImage::from_rgb(size, preview.as_raw());
                let texture =
                    ctx.load_texture("frozen-screen", color, egui::TextureOptions::LINEAR);
                self.ui.region_pick = Some(RegionPick {
                    capture: Arc::new(capture),
                    texture,
                    rect: None,
                });
                self.say(
                    Severity::Info,
                    "drag a rectangle around the puzzle, then \"Capture this rectangle\"",
                );
            }
            Some(Err(e)) => {
                self.source.freezing = false;
                self.say(Severity::Error, format!("cannot take the screenshot: {e}"));
            }
            None => {}
        }
    }
}
