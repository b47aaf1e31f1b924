//! The window's panels — toolbar, status bar, side panel (board, repair, steps) and the main
//! view — and the input that is not a widget's (drops, pastes, shortcuts). Everything here
//! reads state and emits [`Command`]s; nothing changes state.

use std::sync::Arc;

use egui::{Color32, RichText, Vec2};
use image::RgbImage;

use crate::camera;
use crate::session::{Board, HintLevel, ResolutionRequest, repair_summary};

use super::command::Command;
use super::state::Severity;
use super::{SudokuLensApp, board_view, image_view, steps_view};
use crate::live::{LiveState, LockProgress};

impl SudokuLensApp {
    // ----- input → commands -----

    /// Turns drops, pastes and shortcuts into commands.
    pub(super) fn collect_input(&mut self, ctx: &egui::Context, cmds: &mut Vec<Command>) {
        let (events, dropped, hovering) = ctx.input(|i| {
            (
                i.events.clone(),
                i.raw.dropped_files.clone(),
                !i.raw.hovered_files.is_empty(),
            )
        });
        self.ui.hovering_files = hovering;
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
        let selected = self.ui.selected.is_some();
        let current_technique = self
            .solve_state()
            .walkthrough()
            .and_then(|w| w.current())
            .map(|s| s.technique);
        ctx.input_mut(|i| {
            let shift_command = egui::Modifiers::COMMAND | egui::Modifiers::SHIFT;
            if i.consume_key(shift_command, egui::Key::Z)
                || i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y)
            {
                cmds.push(Command::Redo);
            }
            if i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z) {
                cmds.push(Command::Undo);
            }
            // F1 explains the current step's technique; with no step it opens the help.
            if i.consume_key(egui::Modifiers::NONE, egui::Key::F1) {
                cmds.push(match current_technique {
                    Some(t) => Command::ToggleGlossary(t),
                    None => Command::ToggleHelp,
                });
            }
            if i.consume_key(egui::Modifiers::NONE, egui::Key::Questionmark) {
                cmds.push(Command::ToggleHelp);
            }
            if self.ui.glossary.is_some() && i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)
            {
                cmds.push(Command::CloseGlossary);
            }
            if self.ui.help_open && i.consume_key(egui::Modifiers::NONE, egui::Key::Escape) {
                cmds.push(Command::ToggleHelp);
            }
            if self.ui.region_pick.is_some()
                && i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)
            {
                cmds.push(Command::CancelRegion);
            }
            if selected {
                // Arrows move the selected cell; Esc (in the board) lets go of it.
                for (key, rows, cols) in [
                    (egui::Key::ArrowUp, -1, 0),
                    (egui::Key::ArrowDown, 1, 0),
                    (egui::Key::ArrowLeft, 0, -1),
                    (egui::Key::ArrowRight, 0, 1),
                ] {
                    if i.consume_key(egui::Modifiers::NONE, key) {
                        cmds.push(Command::MoveSelection { rows, cols });
                    }
                }
            }
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

    pub(super) fn toolbar_ui(&mut self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
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
            if self.source.camera.is_some() {
                if ui.button("Stop camera").clicked() {
                    cmds.push(Command::StopCamera);
                }
            } else if ui.button("Start camera").clicked() {
                cmds.push(Command::StartCamera);
            }
            let cameras = self
                .source
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
                .button("Find cameras")
                .on_hover_text("Look for cameras again")
                .clicked()
            {
                cmds.push(Command::RefreshCameras);
            }
            let res_text =
                |r: Option<ResolutionRequest>| r.map_or("default".to_string(), |r| r.to_string());
            egui::ComboBox::from_label("Resolution")
                .selected_text(res_text(self.settings.resolution))
                .show_ui(ui, |ui| {
                    for r in ResolutionRequest::CHOICES {
                        if ui
                            .selectable_label(r == self.settings.resolution, res_text(r))
                            .clicked()
                        {
                            cmds.push(Command::SelectResolution(r));
                        }
                    }
                });
            ui.separator();
            self.screen_controls(ui, cmds);
            ui.separator();
            let history = &self.puzzle.history;
            if ui
                .add_enabled(history.can_undo(), egui::Button::new("Undo"))
                .on_hover_text("Ctrl+Z")
                .clicked()
            {
                cmds.push(Command::Undo);
            }
            if ui
                .add_enabled(history.can_redo(), egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Shift+Z")
                .clicked()
            {
                cmds.push(Command::Redo);
            }
            let edited = crate::sudoku::Cell::all().any(|c| self.puzzle.board.is_edited(c));
            if ui
                .add_enabled(edited, egui::Button::new("Revert to what was read"))
                .on_hover_text("Undo every edit of the board")
                .clicked()
            {
                cmds.push(Command::RevertBoard);
            }
            ui.separator();
            let mut show_solution = self.settings.show_solution;
            if ui
                .checkbox(&mut show_solution, "Show solution")
                .on_hover_text("Reveal all: the solution on the board and on the photo")
                .changed()
            {
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
            if ui
                .button("Clear")
                .on_hover_text("Empty the board (Ctrl+Z brings it back)")
                .clicked()
            {
                cmds.push(Command::ClearBoard);
            }
            if ui.button("Help").on_hover_text("?").clicked() {
                cmds.push(Command::ToggleHelp);
            }
        });
    }

    pub(super) fn status_ui(&self, ui: &mut egui::Ui) {
        let stats = self.stats();
        ui.horizontal(|ui| {
            ui.label(self.source.status.to_string());
            ui.separator();
            if self.source.camera.is_some() {
                ui.label(format!(
                    "camera {:.1} fps · scan {:.1} fps",
                    stats.camera_fps, stats.scan_fps
                ));
                ui.separator();
                let color = match self.live.state {
                    LiveState::Locked => Color32::from_rgb(40, 170, 70),
                    LiveState::Following | LiveState::Reading => Color32::from_rgb(230, 140, 20),
                    LiveState::Searching => ui.visuals().weak_text_color(),
                    LiveState::Lost => Color32::from_rgb(220, 60, 40),
                };
                ui.colored_label(color, lock_status(self.live.state, &self.live.progress));
                if matches!(self.live.state, LiveState::Following | LiveState::Reading) {
                    // Not animated: it moves only when the progress does.
                    ui.add(
                        egui::ProgressBar::new(self.live.progress.fraction()).desired_width(80.0),
                    );
                }
                ui.separator();
            }
            ui.label(format!("ui {:.0} fps", stats.repaint_fps));
        });
        if let Some(m) = &self.ui.message {
            let color = match m.severity {
                Severity::Info => ui.visuals().text_color(),
                Severity::Warning => Color32::from_rgb(230, 150, 20),
                Severity::Error => Color32::from_rgb(220, 60, 40),
            };
            // On its own line, wrapped: a long message is never cut off.
            ui.add(egui::Label::new(RichText::new(&m.text).color(color)).wrap());
        }
    }

    /// The side panel, scrolling when it does not fit; the board shrinks first so that the
    /// step controls and the current step stay in view down to an 800×600 window.
    pub(super) fn side_ui(&mut self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        let max_side = (ui.available_height() - STEPS_RESERVE).max(board_view::MIN_SIDE);
        egui::ScrollArea::vertical()
            .id_salt("side-panel")
            .auto_shrink([false, false])
            .show(ui, |ui| self.side_contents_ui(ui, max_side, cmds));
    }

    fn side_contents_ui(&mut self, ui: &mut egui::Ui, max_side: f32, cmds: &mut Vec<Command>) {
        if let Some(reading) = self.reading_board() {
            ui.heading("Board — reading…");
            let view = board_view::BoardView {
                board: &reading,
                check: None,
                walk: None,
                selected: None,
                show_candidates: false,
                hint: None,
                revealed: &[false; 81],
                max_side,
            };
            // Shown, not edited: the digits are still being voted.
            board_view::board_ui(ui, view, &mut Vec::new());
            let uncertain = reading.uncertain.iter().filter(|&&u| u).count();
            ui.colored_label(
                board_view::UNCERTAIN_COLOR,
                format!("{uncertain} cell(s) still uncertain — hold the paper still."),
            );
            return;
        }
        let label = if self.puzzle.label.is_empty() {
            "Board".to_string()
        } else {
            format!("Board — {}", self.puzzle.label)
        };
        ui.heading(label);
        let hint = self.settings.hint_mode.then(|| {
            self.puzzle
                .solve
                .walkthrough()
                .map_or(HintLevel::Technique, |w| w.hint)
        });
        let revealed = self.revealed_cells();
        let view = board_view::BoardView {
            board: &self.puzzle.board,
            check: self.puzzle.check.as_deref(),
            walk: self.puzzle.solve.walkthrough(),
            selected: self.ui.selected,
            show_candidates: self.settings.show_candidates,
            hint,
            revealed: &revealed,
            max_side,
        };
        board_view::board_ui(ui, view, cmds);
        super::entries_view::entries_ui(
            ui,
            &self.puzzle.board,
            self.puzzle.check.as_deref(),
            self.puzzle.full_path,
            self.ui.selected,
            cmds,
        );
        let uncertain = self.puzzle.board.uncertain.iter().filter(|&&u| u).count();
        let conflicts = self.puzzle.board.conflict_words();
        if uncertain > 0 {
            ui.colored_label(
                board_view::UNCERTAIN_COLOR,
                format!("{uncertain} uncertain cell(s): check them against the paper."),
            );
        }
        if let Some(words) = conflicts {
            ui.add(
                egui::Label::new(
                    RichText::new(format!("The red cells repeat a digit: {words}."))
                        .color(board_view::CONFLICT_FILL),
                )
                .wrap(),
            );
        }
        if let Some(repair) = &self.puzzle.board.repair {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("Suggested fix: {}", repair_summary(repair)));
                if ui.button("Accept").clicked() {
                    cmds.push(Command::AcceptRepair);
                }
                if ui.button("Dismiss").clicked() {
                    cmds.push(Command::RejectRepair);
                }
            });
        }
        if let Some(cell) = self.ui.selected {
            ui.horizontal_wrapped(|ui| {
                let i = cell.index();
                let solved = self.puzzle.solve.walkthrough().is_some();
                if solved
                    && self.puzzle.board.values[i] == 0
                    && !revealed[i]
                    && ui.button("Reveal this cell").clicked()
                {
                    cmds.push(Command::RevealCell(cell));
                }
                if self.puzzle.board.is_edited(cell)
                    && ui.button("Revert to what was read").clicked()
                {
                    cmds.push(Command::RevertCell(cell));
                }
            });
            ui.weak(
                "Type 1–9 to set the selected cell, 0 to clear, Delete to restore what was \
                 read, arrows to move, Esc to deselect.",
            );
        }
        ui.separator();
        let scroll = self.ui.steps_scrolled_to != self.puzzle.solve.walkthrough().map(|w| w.pos());
        steps_view::steps_ui(
            ui,
            &self.puzzle.solve,
            self.settings.hint_mode,
            scroll,
            cmds,
        );
        self.ui.steps_scrolled_to = self.puzzle.solve.walkthrough().map(|w| w.pos());
    }

    /// The digits being voted for a puzzle in view that is not yet trusted, as a board to show
    /// instead of the puzzle's ("reading…", uncertain cells amber).
    fn reading_board(&self) -> Option<Board> {
        if self.source.camera.is_none() || self.live.state != LiveState::Reading {
            return None;
        }
        let voted = self.live.reading.as_ref()?;
        Some(Board::new(voted.values, voted.uncertain(), None))
    }

    pub(super) fn main_view_ui(&mut self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        self.load_problem_ui(ui, cmds);
        let Some(view) = &self.live.image else {
            image_view::empty_view_ui(ui, self.ui.hovering_files);
            return;
        };
        let walk = self.puzzle.solve.walkthrough();
        let same_paper = self.overlay_on_picture();
        let shown = self.shown_solution().filter(|_| same_paper);
        let solution = shown.as_ref().map(|s| (&self.puzzle.board.values, s));
        let visible = board_view::step_visibility(
            self.settings
                .hint_mode
                .then(|| walk.map_or(HintLevel::Technique, |w| w.hint)),
        );
        let step = walk
            .filter(|_| same_paper)
            .and_then(|w| w.current())
            .and_then(|s| visible.map(|full| (s, full)));
        // The board's wrong entries are outlined on this picture only when it shows the
        // board's paper (a camera that moved to another page shows none).
        let wrong = if same_paper {
            super::entries_view::wrong_entries(self.puzzle.check.as_deref())
        } else {
            Vec::new()
        };
        let overlay = image_view::Overlay {
            lattice: self.live.lattice.as_ref(),
            state: self.live.state,
            solution,
            step,
            wrong: &wrong,
        };
        let size = Vec2::new(view.image.width() as f32, view.image.height() as f32);
        image_view::image_ui(ui, &view.texture, size, overlay);
        if self.source.photo_pending {
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
}

/// The shortcuts the help overlay lists: keys, what they do.
pub const SHORTCUTS: [(&str, &str); 15] = [
    ("?", "open or close this help"),
    (
        "F1",
        "explain the current step's technique (glossary); this help when there is no step",
    ),
    ("Ctrl+O", "open a photo"),
    ("Ctrl+V", "paste a photo, or a puzzle as 81 digits"),
    ("Ctrl+S", "save the picture as shown (PNG)"),
    ("Ctrl+C", "copy the puzzle as 81 characters"),
    ("Ctrl+Z / Ctrl+Shift+Z", "undo / redo a change of the board"),
    (
        "Right / Left arrow",
        "next / previous step (no cell selected)",
    ),
    ("Home / End", "first step / solved"),
    ("H", "hint mode: reveal the next part of the step"),
    (
        "click a cell",
        "select it; right-click to reveal or revert it",
    ),
    ("1–9, 0", "set the selected cell, clear it"),
    (
        "Delete",
        "put a corrected cell back to what was read (else clear it)",
    ),
    ("arrows", "move the selected cell"),
    ("Esc", "let go of the cell, close this help or the glossary"),
];

impl SudokuLensApp {
    /// The help overlay (?): the shortcuts.
    pub(super) fn help_ui(&mut self, ctx: &egui::Context, cmds: &mut Vec<Command>) {
        if !self.ui.help_open {
            return;
        }
        let mut open = true;
        egui::Window::new("Help — keyboard and mouse")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, Vec2::ZERO)
            .show(ctx, |ui| {
                egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                    for (keys, what) in SHORTCUTS {
                        ui.label(RichText::new(keys).strong());
                        ui.label(what);
                        ui.end_row();
                    }
                });
            });
        if !open {
            cmds.push(Command::ToggleHelp);
        }
    }

    /// A photo that did not load, explained over the main view until dismissed.
    pub(super) fn load_problem_ui(&self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        let Some(advice) = &self.ui.load_problem else {
            return;
        };
        egui::Frame::group(ui.style())
            .fill(Color32::from_rgb(255, 236, 230))
            .show(ui, |ui| {
                ui.add(
                    egui::Label::new(
                        RichText::new(&advice.headline)
                            .strong()
                            .color(Color32::from_rgb(150, 20, 10)),
                    )
                    .wrap(),
                );
                ui.add(
                    egui::Label::new(RichText::new(&advice.try_this).color(Color32::from_gray(30)))
                        .wrap(),
                );
                if ui.button("Dismiss").clicked() {
                    cmds.push(Command::DismissProblem);
                }
                ui.collapsing("Details", |ui| {
                    ui.add(egui::Label::new(&advice.detail).wrap());
                });
            });
    }
}

/// Height kept below the board for the step controls and the current step, points.
const STEPS_RESERVE: f32 = 250.0;

/// The status-bar words for where the live path stands, e.g. `following 1/2 steady frames`,
/// `reading 2/3`, `locked`, `locked · reading new writing`.
pub(super) fn lock_status(state: LiveState, progress: &LockProgress) -> String {
    match state {
        LiveState::Following => format!(
            "following {}/{} steady frames",
            progress.steady_frames, progress.steady_needed
        ),
        LiveState::Reading => format!("reading {}/{}", progress.reads, progress.reads_needed),
        LiveState::Locked if progress.new_writing => "locked · reading new writing".to_string(),
        LiveState::Searching | LiveState::Locked | LiveState::Lost => state.to_string(),
    }
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
