//! The user's own modal actions behind [`SudokuLensApp::apply`] (a child module of `apply`):
//! choosing a file, with the system chooser on its own thread or the app's picker when that
//! cannot open, and turning a pasted clipboard image into a picture. What the chooser answers
//! comes in through `poll`.
//!
//! [`SudokuLensApp::apply`]: crate::app::SudokuLensApp::apply

use std::path::Path;
use std::sync::Arc;

use image::RgbImage;

use crate::app::SudokuLensApp;
use crate::app::file_picker::{FilePicker, PickerMode};
use crate::app::state::DialogAnswer;

impl SudokuLensApp {
    /// Asks for a file: the system chooser on its own thread (the UI keeps drawing; the
    /// answer comes through `ui.dialog_answers`), or the app's picker when the system one
    /// cannot open, saying why.
    pub(super) fn choose_file(&mut self, mode: PickerMode) {
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
    pub(in crate::app) fn open_picker(&mut self, mode: PickerMode, mut name: String, why: String) {
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
}

pub(super) fn rgba_to_rgb(width: usize, height: usize, rgba: &[u8]) -> Option<RgbImage> {
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
