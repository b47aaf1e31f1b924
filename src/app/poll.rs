//! Workers → state: once per UI frame, [`SudokuLensApp::poll_workers`] takes what the capture
//! thread, the scanner, the photo scan and the solver left in their mailboxes (never waiting)
//! and updates the source, the live view and the puzzle.

use std::sync::Arc;
use std::time::Instant;

use image::RgbImage;

use crate::camera::{CameraError, CaptureEvent};
use crate::session::{Board, SolveState, Walkthrough};

use super::SudokuLensApp;
use super::pipeline::LockState;
use super::state::{Severity, SourceStatus, ViewImage};

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
        // Newest camera frame.
        if let Some(frame) = self.source.ui_frames.take() {
            self.diag.frames_shown.tick(now);
            tracing::trace!(seq = frame.seq, "frame shown");
            self.set_view_image(ctx, frame.image);
        }
        // Scanner.
        let update = self
            .source
            .camera
            .as_ref()
            .and_then(|c| c.scanner.as_ref())
            .and_then(|s| s.updates.take());
        if let Some(u) = update {
            if let Some(e) = u.error {
                self.say(Severity::Error, format!("live scanning unavailable: {e}"));
                if let Some(cam) = &mut self.source.camera {
                    cam.scanner = None;
                }
                return;
            }
            self.diag.scans.tick(now);
            self.diag.frames_analysed = u.frames_analysed;
            self.live.lock = u.lock;
            self.live.lattice = u.lattice;
            if u.puzzle_serial != self.live.puzzle_serial {
                // The solution on screen belongs to the paper that is gone: stop drawing it.
                self.live.puzzle_serial = u.puzzle_serial;
                self.puzzle.edited = false;
                self.say(
                    Severity::Info,
                    "grid lost or puzzle changed — overlay cleared",
                );
            }
            if let Some(voted) = u.voted
                && voted.values != self.puzzle.board.recognized
                && !self.puzzle.edited
            {
                self.puzzle.board = Board::new(voted.values, voted.uncertain, None);
                self.puzzle.label = "camera".into();
                self.puzzle.camera_serial = Some(u.puzzle_serial);
                self.board_changed(true);
            }
        }
        // Photo scan.
        if let Some(r) = self.source.photo_results.take()
            && r.generation == self.source.photo_generation
        {
            self.source.photo_pending = false;
            let label = self.puzzle.label.clone();
            if let Some(image) = r.image {
                self.set_view_image(ctx, image);
            }
            match r.result {
                Ok(scan) => {
                    self.live.lattice = scan.lattice;
                    self.live.lock = LockState::Locked;
                    self.source.status = SourceStatus::Photo(label.clone());
                    if let Some(reading) = scan.reading {
                        let uncertain = reading.uncertain();
                        self.puzzle.board = Board::new(reading.values, uncertain, scan.repair);
                        self.puzzle.camera_serial = None;
                        self.puzzle.edited = false;
                        self.board_changed(true);
                        let n = self.puzzle.board.filled();
                        self.say(
                            Severity::Info,
                            format!("read {n} digits from {label} in {} ms", r.took.as_millis()),
                        );
                    }
                }
                Err(msg) => {
                    self.live.lattice = None;
                    self.live.lock = LockState::Searching;
                    self.source.status = SourceStatus::Photo(label);
                    self.say(Severity::Error, msg);
                }
            }
        }
        // Solver.
        let result = self.threads.solver.as_ref().and_then(|s| s.results.take());
        if let Some(r) = result
            && r.generation == self.puzzle.generation
        {
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
                Err(msg) => SolveState::Unsolvable(msg),
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
                    None => self.say(Severity::Info, format!("camera opened: {desc}")),
                }
            }
            CaptureEvent::Failed(err) => {
                self.say(Severity::Error, err.to_string());
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
}
