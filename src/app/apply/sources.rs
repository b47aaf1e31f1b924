//! Starting and stopping the picture sources behind [`SudokuLensApp::apply`] (a child module of
//! `apply`): a photo scanned on its own thread, a capture (camera, image sequence or screen)
//! with its live scanner, the screen listing, and filling the game on the screen. Each starts
//! a worker and returns; what the workers send back is `poll`'s.
//!
//! [`SudokuLensApp::apply`]: crate::app::SudokuLensApp::apply

use std::sync::Arc;

use crate::app::SudokuLensApp;
use crate::app::diagnostics::RateMeter;
use crate::app::pipeline::PhotoScanner;
use crate::app::state::{CameraSession, Severity, SourceStatus};
use crate::app::workers::{PhotoInput, ScanWorker, spawn_photo_scan};
use crate::camera::{self, Opener};
use crate::live::LiveState;

impl SudokuLensApp {
    /// Stops the camera and scans a photo on the `photo-scan` thread. The picture, grid and
    /// puzzle shown stay as they are until the photo reads; a photo that does not read
    /// changes nothing but the message.
    pub(super) fn start_photo_scan(&mut self, input: PhotoInput, label: String) {
        let scanner = Arc::clone(&self.pipeline.photo);
        self.start_photo_load(input, label, scanner);
    }

    /// [`Self::start_photo_scan`] with a given scanner.
    pub(in crate::app) fn start_photo_load(
        &mut self,
        input: PhotoInput,
        label: String,
        scanner: Arc<dyn PhotoScanner>,
    ) {
        self.stop_camera();
        if !self.source.photo_pending {
            self.source.status_before_scan = self.source.status.clone();
        }
        self.source.pending_path = match &input {
            PhotoInput::File(path) => Some(path.clone()),
            PhotoInput::Image(_) => None,
        };
        self.source.pending_label = label.clone();
        self.source.status = SourceStatus::Scanning(label);
        self.source.photo_generation += 1;
        self.source.photo_pending = true;
        spawn_photo_scan(
            scanner,
            input,
            self.source.photo_generation,
            Arc::clone(&self.source.photo_results),
            self.notify(),
        );
    }

    pub(in crate::app) fn start_capture(&mut self, label: String, opener: Opener) {
        self.stop_camera();
        let notify = self.notify();
        let scanner = match ScanWorker::start(&self.pipeline.live, Arc::clone(&notify)) {
            Ok(s) => Some(s),
            Err(msg) => {
                self.say(Severity::Error, format!("live scanning unavailable: {msg}"));
                None
            }
        };
        let mut sinks = vec![Arc::clone(&self.source.ui_frames)];
        if let Some(s) = &scanner {
            sinks.push(Arc::clone(&s.frames));
        }
        match camera::capture::start(opener, sinks, notify, self.options.capture) {
            Ok(capture) => {
                // With a scanner the view shows the frames it analysed (their lattice and
                // overlay belong to them), and the scanner wakes the UI when one shows
                // something new; raw frames are shown only without one.
                capture.set_frame_notify(scanner.is_none());
                self.source.status = SourceStatus::CameraOpening(label.clone());
                self.live.forget_grid(LiveState::Searching);
                self.puzzle.edited = false;
                // Puzzle ids are the new session's own: none of them is the board's.
                self.puzzle.camera = None;
                // The scanner counts this session's frames from zero.
                self.diag.scans = RateMeter::default();
                self.diag.frames_analysed = 0;
                self.source.camera = Some(CameraSession {
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

    /// Lists the monitors and windows again, on the `screen-list` thread (one listing at a
    /// time).
    pub(super) fn refresh_screens(&mut self) {
        if self.source.screens_pending {
            return;
        }
        let desk = Arc::clone(&self.source.desk);
        let answers = Arc::clone(&self.source.screens_results);
        match crate::app::screen_worker::spawn_lists(desk, answers, self.notify()) {
            Ok(()) => self.source.screens_pending = true,
            Err(e) => self.say(
                Severity::Error,
                format!("cannot start the screen listing thread: {e}"),
            ),
        }
    }

    /// Starts "Fill in the game" on the screen target being captured, if a puzzle with one
    /// solution is locked there and no fill runs.
    pub(super) fn start_fill(&mut self, next_step: bool) {
        let Some(target) = self.source.screen.clone() else {
            self.say(Severity::Warning, "fill needs the screen as the source");
            return;
        };
        if !self.can_fill() {
            return;
        }
        let scope = if next_step {
            crate::screen::fill::FillScope::NextStep
        } else {
            crate::screen::fill::FillScope::All
        };
        let notes = Arc::clone(&self.source.fill_notes);
        match crate::app::fill_worker::start(target.clone(), scope, notes, self.notify()) {
            Ok(()) => {
                self.source.filling = true;
                self.source.fill_outcome = None;
                // The live view rests while the game is typed into: its captures and reads
                // would take the processor from the game (which then lags behind the keys);
                // it comes back when the fill ends.
                self.stop_camera();
                self.source.resume_after_fill = Some(target);
                self.say(
                    Severity::Info,
                    "reading the game before filling it… (the live view pauses meanwhile)",
                );
            }
            Err(e) => self.say(Severity::Error, format!("cannot start the fill: {e}")),
        }
    }

    pub(in crate::app) fn stop_camera(&mut self) {
        self.source.screen = None;
        if let Some(cam) = self.source.camera.take() {
            tracing::debug!(label = %cam.label, "camera stopped");
            cam.capture.stop();
        }
        // A frame already in the mailbox belongs to the stopped session.
        let _ = self.source.ui_frames.take();
    }
}
