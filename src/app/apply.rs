//! [`SudokuLensApp::apply`], the one place that carries out [`Command`]s, and the state changes
//! it shares with worker polling: starting and stopping sources, sending the board to the solver,
//! moving through the steps, and the status-bar message.
//!
//! Views never come here directly: they emit commands. Nothing here blocks on a worker (file
//! dialogs and the clipboard are the user's own modal actions).

use std::path::Path;
use std::sync::Arc;

use image::RgbImage;

use crate::camera::{self, FrameSource, ImageSequenceSource, NokhwaSource, Opener};
use crate::session::{Board, BoardAt, HintLevel, History, SolveState};
use crate::sudoku::Cell;

use super::SudokuLensApp;
use super::command::Command;
use super::diagnostics::RateMeter;
use super::file_picker::{FilePicker, PickerMode};
use super::pipeline::PhotoScanner;
use super::state::{CameraSession, DialogAnswer, Message, Severity, SourceStatus};
use super::workers::{Notify, PhotoInput, ScanWorker, SolveRequest, spawn_photo_scan};
use crate::live::LiveState;

impl SudokuLensApp {
    /// The UI's wake-up callback (a no-op before the first frame).
    pub(super) fn notify(&self) -> Notify {
        self.threads
            .notify
            .clone()
            .unwrap_or_else(|| Arc::new(|| {}))
    }

    /// Sets the status-bar message (and logs it).
    pub(super) fn say(&mut self, severity: Severity, text: impl Into<String>) {
        let text = text.into();
        match severity {
            Severity::Error => tracing::warn!(%text, "status"),
            _ => tracing::info!(%text, "status"),
        }
        self.ui.message = Some(Message { severity, text });
    }

    /// The board changed (new scan or edit): new generation, solve off the UI thread.
    pub(super) fn board_changed(&mut self, new_puzzle: bool) {
        self.puzzle.generation += 1;
        self.puzzle.check = None;
        if new_puzzle {
            self.ui.selected = None;
        }
        if self.puzzle.board.filled() == 0 {
            self.puzzle.solve = SolveState::Idle;
            return;
        }
        if let Some(why) = self.puzzle.board.unsolvable_reason() {
            self.puzzle.solve = SolveState::Unsolvable(why);
            return;
        }
        match &self.threads.solver {
            Some(solver) => {
                solver.request(SolveRequest {
                    generation: self.puzzle.generation,
                    values: self.puzzle.board.values,
                    entries: self.puzzle.board.entries,
                    from_start: self.puzzle.full_path,
                });
                self.puzzle.solve = SolveState::Solving;
            }
            None => self.puzzle.solve = SolveState::Unsolvable("the solver is not running".into()),
        }
    }

    /// Shows a new puzzle: a fresh history, nothing revealed, solved off the UI thread.
    pub(super) fn load_board(&mut self, board: Board) {
        self.puzzle.board = board;
        self.puzzle.edited = false;
        self.puzzle.camera = None;
        self.puzzle.history = History::default();
        self.puzzle.revealed = [false; 81];
        self.board_changed(true);
    }

    /// The board and the step the user is at on it, as undo and redo keep them.
    fn board_at(&self) -> BoardAt {
        BoardAt {
            board: self.puzzle.board.clone(),
            step: self.puzzle.solve.walkthrough().map_or(0, |w| w.pos()),
        }
    }

    /// A user action on the board: remembered for undo, then re-solved.
    fn edit_board(&mut self, action: impl FnOnce(&mut Board)) {
        let before = self.board_at();
        self.puzzle.history.record(before);
        action(&mut self.puzzle.board);
        self.puzzle.edited = true;
        self.puzzle.restore_step = None;
        self.board_changed(false);
    }

    /// A board from the history (undo/redo), back at the step the user was at on it.
    fn restore_board(&mut self, at: BoardAt) {
        self.puzzle.board = at.board;
        self.puzzle.edited = true;
        self.puzzle.restore_step = Some(at.step);
        self.board_changed(false);
    }

    // ----- the one place that changes state -----

    /// Applies one command.
    pub fn apply(&mut self, cmd: Command) {
        tracing::debug!(?cmd, "command");
        match cmd {
            Command::OpenPhotoDialog => self.choose_file(PickerMode::Open),
            Command::LoadPhoto(path) => {
                self.settings.last_dir = path.parent().map(Path::to_path_buf);
                let label = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                self.start_photo_scan(PhotoInput::File(path), label);
            }
            Command::LoadImage { image, label } => {
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
                Ok(board) => {
                    self.puzzle.label = "pasted text".into();
                    self.puzzle.photo = None;
                    self.live.lattice = None;
                    self.load_board(board);
                    self.say(Severity::Info, "puzzle pasted");
                }
                Err(e) => self.say(
                    Severity::Warning,
                    format!("the pasted text is not a puzzle (81 digits, 0 or . for empty): {e}"),
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
                if self.source.camera.is_some() {
                    self.stop_camera();
                    self.source.status = SourceStatus::CameraStopped;
                }
            }
            Command::SelectCamera(i) => {
                self.settings.camera_index = i;
                if self.source.camera.is_some() {
                    self.apply(Command::StartCamera);
                }
            }
            Command::SelectResolution(r) => {
                self.settings.resolution = r;
                if self.source.camera.is_some() {
                    self.apply(Command::StartCamera);
                }
            }
            Command::StartScreen(target) => {
                let fps = self.settings.screen_fps;
                let label = target.to_string();
                let for_opener = target.clone();
                let desk = Arc::clone(&self.source.desk);
                let opener: Opener = Arc::new(move || {
                    desk.open(&for_opener, fps)
                        .map_err(camera::CameraError::from)
                });
                self.ui.region_pick = None;
                self.start_capture(label, opener);
                self.source.screen = Some(target);
            }
            Command::RefreshScreens => self.refresh_screens(),
            Command::FreezeScreen => {
                if self.source.freezing {
                    return;
                }
                let desk = Arc::clone(&self.source.desk);
                let answers = Arc::clone(&self.source.freeze_results);
                match super::screen_worker::spawn_freeze(desk, answers, self.notify()) {
                    Ok(()) => {
                        self.source.freezing = true;
                        self.say(
                            Severity::Info,
                            "taking a screenshot to pick a rectangle on…",
                        );
                    }
                    Err(e) => self.say(
                        Severity::Error,
                        format!("cannot start the screenshot thread: {e}"),
                    ),
                }
            }
            Command::DragRegion { from_px, to_px } => {
                if let Some(pick) = &mut self.ui.region_pick {
                    pick.rect = pick.capture.rect_between(from_px, to_px);
                }
            }
            Command::CaptureRegion => {
                let rect = self.ui.region_pick.as_ref().and_then(|p| p.rect);
                match rect {
                    Some(rect) => self.apply(Command::StartScreen(
                        crate::screen::ScreenTarget::Region(rect),
                    )),
                    None => self.say(
                        Severity::Warning,
                        "drag a rectangle around the puzzle on the screenshot first",
                    ),
                }
            }
            Command::CancelRegion => self.ui.region_pick = None,
            Command::SetScreenFps(fps) => {
                if crate::screen::SCREEN_FPS_RANGE.contains(&fps) {
                    self.settings.screen_fps = fps;
                    if let Some(target) = self.source.screen.clone() {
                        self.apply(Command::StartScreen(target));
                    }
                }
            }
            Command::FillGame { next_step } => self.start_fill(next_step),
            Command::RefreshCameras => {
                self.source.cameras = Some(camera::list_cameras());
            }
            Command::SelectCell(c) => self.ui.selected = c,
            Command::MoveSelection { rows, cols } => {
                if let Some(c) = self.ui.selected {
                    let row = (c.row() as i32 + rows).clamp(0, 8) as usize;
                    let col = (c.col() as i32 + cols).clamp(0, 8) as usize;
                    self.ui.selected = Some(Cell::from_index(row * 9 + col));
                }
            }
            Command::SetCell { cell, value } => {
                if self.puzzle.board.values[cell.index()] != value {
                    self.edit_board(|b| b.set(cell, value));
                }
            }
            Command::DeleteCell(cell) => {
                // A corrected misread goes back to what was read; otherwise the cell empties.
                let value = if self.puzzle.board.is_edited(cell) {
                    self.puzzle.board.recognized[cell.index()]
                } else {
                    0
                };
                self.apply(Command::SetCell { cell, value });
            }
            Command::RevertCell(cell) => {
                if self.puzzle.board.is_edited(cell) {
                    self.edit_board(|b| b.revert(cell));
                }
            }
            Command::RevertBoard => {
                if Cell::all().any(|c| self.puzzle.board.is_edited(c)) {
                    self.edit_board(|b| {
                        for c in Cell::all() {
                            b.revert(c);
                        }
                    });
                    self.say(Severity::Info, "board reverted to what was read");
                }
            }
            Command::Undo => match self.puzzle.history.undo(&self.board_at()) {
                Some(board) => self.restore_board(board),
                None => self.say(Severity::Info, "nothing to undo"),
            },
            Command::Redo => match self.puzzle.history.redo(&self.board_at()) {
                Some(board) => self.restore_board(board),
                None => self.say(Severity::Info, "nothing to redo"),
            },
            Command::RevealCell(cell) => self.puzzle.revealed[cell.index()] = true,
            Command::ToggleHelp => self.ui.help_open = !self.ui.help_open,
            Command::ToggleGlossary(t) => {
                self.ui.glossary = if self.ui.glossary == Some(t) {
                    None
                } else {
                    Some(t)
                };
            }
            Command::CloseGlossary => self.ui.glossary = None,
            Command::DismissProblem => self.ui.load_problem = None,
            Command::AcceptRepair => {
                if self.puzzle.board.repair.is_some() {
                    self.edit_board(Board::accept_repair);
                }
            }
            Command::RejectRepair => self.puzzle.board.repair = None,
            Command::FirstStep => self.walk(|_, _| 0),
            Command::PreviousStep => self.walk(|pos, _| pos.saturating_sub(1)),
            Command::NextStep => self.walk(|pos, _| pos + 1),
            Command::LastStep => self.walk(|_, len| len),
            Command::GoToStep(n) => self.walk(|_, _| n),
            Command::RevealHint => {
                if let Some(w) = self.puzzle.solve.walkthrough_mut() {
                    w.hint = w.hint.next();
                }
            }
            Command::SetHintMode(on) => {
                self.settings.hint_mode = on;
                if let Some(w) = self.puzzle.solve.walkthrough_mut() {
                    w.hint = HintLevel::default();
                }
            }
            Command::SetShowSolution(on) => self.settings.show_solution = on,
            Command::SetShowCandidates(on) => self.settings.show_candidates = on,
            Command::SetFullPath(on) => {
                if self.puzzle.full_path != on {
                    self.puzzle.full_path = on;
                    self.board_changed(false);
                }
            }
            Command::CopyPuzzle => {
                let text = self.puzzle.board.to_text();
                if let Some(ctx) = &self.threads.ctx {
                    ctx.copy_text(text);
                }
                self.say(Severity::Info, "puzzle copied as 81 characters");
            }
            Command::SaveAnnotatedDialog => self.choose_file(PickerMode::Save),
            Command::SaveAnnotated(path) => match self.annotated_image().save(&path) {
                Ok(()) => {
                    self.settings.last_dir = path.parent().map(Path::to_path_buf);
                    self.say(Severity::Info, format!("saved {}", path.display()));
                }
                Err(e) => self.say(
                    Severity::Error,
                    format!("cannot save {}: {e}", path.display()),
                ),
            },
            Command::ClearBoard => {
                if self.puzzle.board.filled() > 0 {
                    self.edit_board(|b| *b = Board::default());
                    self.say(Severity::Info, "board cleared — Ctrl+Z brings it back");
                }
            }
        }
    }

    /// Asks for a file: the system chooser on its own thread (the UI keeps drawing; the
    /// answer comes through `ui.dialog_answers`), or the app's picker when the system one
    /// cannot open, saying why.
    fn choose_file(&mut self, mode: PickerMode) {
        if self.ui.dialog_open || self.ui.picker.is_some() {
            return;
        }
        let name = match mode {
            PickerMode::Open => String::new(),
            PickerMode::Save => format!("{}-annotated.png", file_stem(&self.puzzle.label)),
        };
        let why = if self.options.in_app_file_picker {
            Err(String::new())
        } else {
            crate::browse::system_chooser().map_err(|why| {
                format!("The system file chooser cannot open: {why}. Choose the file here.")
            })
        };
        if let Err(why) = why {
            self.open_picker(mode, name, why);
            return;
        }
        let dir = self.settings.last_dir.clone();
        let answers = Arc::clone(&self.ui.dialog_answers);
        let notify = self.notify();
        let spawned = std::thread::Builder::new()
            .name("file-dialog".into())
            .spawn(move || {
                let opened = std::time::Instant::now();
                let mut dialog = rfd::FileDialog::new();
                if let Some(dir) = &dir {
                    dialog = dialog.set_directory(dir);
                }
                let path = match mode {
                    PickerMode::Open => dialog
                        .set_title("Open a Sudoku photo")
                        .add_filter("Images", &crate::browse::IMAGE_EXTENSIONS)
                        .pick_file(),
                    PickerMode::Save => dialog
                        .set_title("Save the picture as PNG")
                        .set_file_name(name)
                        .add_filter("PNG", &["png"])
                        .save_file(),
                };
                answers.put(DialogAnswer {
                    mode,
                    path,
                    open_for: opened.elapsed(),
                });
                notify();
            });
        match spawned {
            Ok(_) => self.ui.dialog_open = true,
            Err(e) => self.open_picker(
                mode,
                String::new(),
                format!("The system file chooser cannot open ({e}). Choose the file here."),
            ),
        }
    }

    /// Opens the app's own file picker.
    pub(super) fn open_picker(&mut self, mode: PickerMode, mut name: String, why: String) {
        if mode == PickerMode::Save && name.is_empty() {
            name = format!("{}-annotated.png", file_stem(&self.puzzle.label));
        }
        self.ui.picker = Some(FilePicker::new(
            mode,
            self.settings.last_dir.clone(),
            name,
            why,
        ));
    }

    /// Stops the camera and scans a photo on the `photo-scan` thread. The picture, grid and
    /// puzzle shown stay as they are until the photo reads; a photo that does not read
    /// changes nothing but the message.
    pub(super) fn start_photo_scan(&mut self, input: PhotoInput, label: String) {
        let scanner = Arc::clone(&self.pipeline.photo);
        self.start_photo_load(input, label, scanner);
    }

    /// [`Self::start_photo_scan`] with a given scanner.
    pub(super) fn start_photo_load(
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

    fn walk(&mut self, target: impl FnOnce(usize, usize) -> usize) {
        if let Some(w) = self.puzzle.solve.walkthrough_mut() {
            let pos = target(w.pos(), w.len());
            w.go_to(pos);
        }
    }

    pub(super) fn start_capture(&mut self, label: String, opener: Opener) {
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
    fn refresh_screens(&mut self) {
        if self.source.screens_pending {
            return;
        }
        let desk = Arc::clone(&self.source.desk);
        let answers = Arc::clone(&self.source.screens_results);
        match super::screen_worker::spawn_lists(desk, answers, self.notify()) {
            Ok(()) => self.source.screens_pending = true,
            Err(e) => self.say(
                Severity::Error,
                format!("cannot start the screen listing thread: {e}"),
            ),
        }
    }

    /// Starts "Fill in the game" on the screen target being captured, if a puzzle with one
    /// solution is locked there and no fill runs.
    fn start_fill(&mut self, next_step: bool) {
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
        match super::fill_worker::start(target.clone(), scope, notes, self.notify()) {
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

    pub(super) fn stop_camera(&mut self) {
        self.source.screen = None;
        if let Some(cam) = self.source.camera.take() {
            tracing::debug!(label = %cam.label, "camera stopped");
            cam.capture.stop();
        }
        // A frame already in the mailbox belongs to the stopped session.
        let _ = self.source.ui_frames.take();
    }
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
    fn clipboard_rgba_converts_and_rejects_bad_sizes() {
        let rgba = [1, 2, 3, 255, 4, 5, 6, 255];
        let rgb = rgba_to_rgb(2, 1, &rgba).unwrap();
        assert_eq!(rgb.as_raw(), &vec![1, 2, 3, 4, 5, 6]);
        assert!(rgba_to_rgb(3, 1, &rgba).is_none());
        assert_eq!(file_stem("image12.jpg"), "image12");
        assert_eq!(file_stem(""), "sudoku");
    }
}
