//! The toolbar's screen controls: the "Screen" source menu (a window picked from the list —
//! the app's own window is left out, so it never captures itself) and the "Fill in the game"
//! buttons, enabled only while a screen puzzle is locked with one solution and no fill runs.
//! Emits commands; `apply` carries them out.

use super::SudokuLensApp;
use super::command::Command;
use crate::screen::{self, ScreenTarget};

/// Titles containing this are the app's own windows, never offered for capture.
const OWN_TITLE: &str = "sudoku-lens";

impl SudokuLensApp {
    pub(super) fn screen_controls(&mut self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        let windows = self
            .source
            .windows
            .get_or_insert_with(|| {
                screen::list_windows().map(|mut list| {
                    list.retain(|w| !w.title.to_lowercase().contains(OWN_TITLE));
                    list.reverse();
                    list
                })
            })
            .clone();
        let selected = match &self.source.screen {
            Some(ScreenTarget::Window(name)) => name.clone(),
            Some(other) => other.to_string(),
            None => "off".into(),
        };
        egui::ComboBox::from_label("Screen")
            .selected_text(selected)
            .show_ui(ui, |ui| match &windows {
                Ok(list) if !list.is_empty() => {
                    for w in list {
                        let chosen = self.source.screen.as_ref()
                            == Some(&ScreenTarget::Window(w.title.clone()));
                        if ui.selectable_label(chosen, &w.title).clicked() {
                            cmds.push(Command::StartScreen(ScreenTarget::Window(w.title.clone())));
                        }
                    }
                }
                Ok(_) => {
                    ui.label("No other window found");
                }
                Err(e) => {
                    ui.label(e.to_string());
                }
            })
            .response
            .on_hover_text("Read a Sudoku shown in another window (2 captures per second)");
        if ui
            .button("Find windows")
            .on_hover_text("List the windows again")
            .clicked()
        {
            cmds.push(Command::RefreshWindows);
        }
        let can_fill =
            self.source.screen.is_some() && self.live.overlay.is_some() && !self.source.filling;
        let why = "Click each empty cell of the game and type its digit, after a 3 s countdown. \
                   Esc or moving the mouse stops it. Needs a locked screen puzzle with one solution.";
        if ui
            .add_enabled(can_fill, egui::Button::new("Fill in the game"))
            .on_hover_text(why)
            .on_disabled_hover_text(why)
            .clicked()
        {
            cmds.push(Command::FillGame { next_step: false });
        }
        if ui
            .add_enabled(can_fill, egui::Button::new("Do this step"))
            .on_hover_text("Type only the next step's digit into the game")
            .clicked()
        {
            cmds.push(Command::FillGame { next_step: true });
        }
    }
}
