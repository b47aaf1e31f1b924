//! [`SudokuLensApp::apply`], the one place that carries out [`Command`]s, and the state changes
//! it shares with worker polling: starting and stopping sources, sending the board to the solver,
//! moving through the steps, and the status-bar message.
//!
//! Views never come here directly: they emit commands. Nothing here blocks on a worker (file
//! dialogs and the clipboard are the user's own modal actions).
//!
//! Laid out by area: this module holds `apply` itself and the status-bar message; `board` the
//! board's changes (solving, undo, the steps), `sources` starting and stopping the picture
//! sources, `files` the file chooser and the clipboard image.

mod board;
mod files;
mod sources;

use std::path::Path;
use std::sync::Arc;

use crate::camera::{self, FrameSource, ImageSequenceSource, NokhwaSource, Opener};
use crate::session::{Board, HintLevel};
use crate::sudoku::Cell;

use super::SudokuLensApp;
use super::command::Command;
use super::file_picker::PickerMode;
use super::state::{Message, Severity, SourceStatus};
use super::workers::{Notify, PhotoInput};
use files::rgba_to_rgb;

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
}
