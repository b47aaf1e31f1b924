//! The app's own file picker, used when the system file chooser cannot open (no portal, no
//! zenity — rfd would fail silently) or did not: a window over the app listing one folder
//! ([`crate::browse::list_folder`]), with a folder field, Up, and for saving a file name.
//! Emits [`Command`]s only; the folder listing is the library's.

use std::path::PathBuf;

use crate::browse::{IMAGE_EXTENSIONS, Listing, list_folder};

use super::command::Command;

/// Open a photo, or save the annotated PNG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickerMode {
    /// Choose an image to open.
    Open,
    /// Choose where to write the PNG.
    Save,
}

/// The picker's state while it is open.
#[derive(Clone, Debug)]
pub struct FilePicker {
    /// What it is for.
    pub mode: PickerMode,
    /// Why the app's picker is shown instead of the system's.
    pub why: String,
    /// The folder typed in the field.
    pub dir_text: String,
    /// The file name (chosen in the list, or typed when saving).
    pub name: String,
    /// The folder's contents, or why it cannot be listed.
    pub listing: Result<Listing, String>,
}

impl FilePicker {
    /// A picker in `dir` (the working folder when `None`).
    pub fn new(mode: PickerMode, dir: Option<PathBuf>, name: String, why: String) -> FilePicker {
        let dir = dir
            .filter(|d| d.is_dir())
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        let mut picker = FilePicker {
            mode,
            why,
            dir_text: dir.display().to_string(),
            name,
            listing: Err(String::new()),
        };
        picker.go_to(dir);
        picker
    }

    /// Lists `dir`.
    pub fn go_to(&mut self, dir: PathBuf) {
        let extensions: &[&str] = match self.mode {
            PickerMode::Open => &IMAGE_EXTENSIONS,
            PickerMode::Save => &["png"],
        };
        self.dir_text = dir.display().to_string();
        self.listing = list_folder(&dir, extensions)
            .map_err(|e| format!("cannot list {}: {e}", dir.display()));
    }

    fn dir(&self) -> PathBuf {
        PathBuf::from(&self.dir_text)
    }

    /// Draws the window; returns `false` once it is done (chosen or cancelled).
    pub fn ui(&mut self, ctx: &egui::Context, cmds: &mut Vec<Command>) -> bool {
        let title = match self.mode {
            PickerMode::Open => "Open a Sudoku photo",
            PickerMode::Save => "Save the picture as PNG",
        };
        let mut keep = true;
        let mut go: Option<PathBuf> = None;
        egui::Window::new(title)
            .collapsible(false)
            .default_size([480.0, 420.0])
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ctx, |ui| {
                if !self.why.is_empty() {
                    ui.add(egui::Label::new(egui::RichText::new(&self.why).weak()).wrap());
                }
                ui.horizontal(|ui| {
                    if ui.button("Up").clicked()
                        && let Some(parent) = self.dir().parent()
                    {
                        go = Some(parent.to_path_buf());
                    }
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut self.dir_text)
                            .desired_width(360.0)
                            .hint_text("folder"),
                    );
                    if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                        go = Some(self.dir());
                    }
                });
                egui::ScrollArea::vertical()
                    .max_height(260.0)
                    .auto_shrink([false, true])
                    .show(ui, |ui| match &self.listing {
                        Ok(listing) => {
                            for f in &listing.folders {
                                if ui.selectable_label(false, format!("{f}/")).clicked() {
                                    go = Some(listing.dir.join(f));
                                }
                            }
                            for f in &listing.files {
                                let chosen = ui.selectable_label(self.name == *f, f.as_str());
                                if chosen.clicked() {
                                    self.name.clone_from(f);
                                }
                                if chosen.double_clicked() {
                                    self.name.clone_from(f);
                                    keep = !self.finish(cmds);
                                }
                            }
                            if listing.folders.is_empty() && listing.files.is_empty() {
                                ui.weak("No pictures in this folder.");
                            }
                        }
                        Err(e) => {
                            ui.colored_label(egui::Color32::from_rgb(200, 40, 30), e);
                        }
                    });
                ui.horizontal(|ui| {
                    ui.label("File:");
                    ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(300.0));
                });
                ui.horizontal(|ui| {
                    let action = match self.mode {
                        PickerMode::Open => "Open",
                        PickerMode::Save => "Save",
                    };
                    if ui
                        .add_enabled(!self.name.trim().is_empty(), egui::Button::new(action))
                        .clicked()
                    {
                        keep = !self.finish(cmds);
                    }
                    if ui.button("Cancel").clicked() {
                        keep = false;
                    }
                });
            });
        if let Some(dir) = go {
            self.go_to(dir);
        }
        keep
    }

    /// Emits the command for the chosen file; `true` when one was chosen.
    fn finish(&self, cmds: &mut Vec<Command>) -> bool {
        let name = self.name.trim();
        if name.is_empty() {
            return false;
        }
        let path = self.dir().join(name);
        cmds.push(match self.mode {
            PickerMode::Open => Command::LoadPhoto(path),
            PickerMode::Save => Command::SaveAnnotated(path),
        });
        true
    }
}
