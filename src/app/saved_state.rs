//! The app's saved state (eframe's `app.ron`: settings, the last puzzle, window geometry) as
//! it is restored: a file or an entry that does not read is kept beside it as `app.ron.bak`
//! and reported in the status bar, and the app starts clean — nothing the user had is lost
//! without a word, and nonsense values fall back to their defaults with a message.
//!
//! Owns the checks and the backup; the values themselves are `session::persist`'s.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::session::{PUZZLE_KEY, SETTINGS_KEY, SavedPuzzle, Settings};

/// The app id eframe stores the state under (its folder name).
pub(crate) const APP_ID: &str = "sudoku-lens";

/// Where eframe keeps the app's state on this machine, when it has a place for it.
pub fn state_file() -> Option<PathBuf> {
    eframe::storage_dir(APP_ID).map(|dir| dir.join("app.ron"))
}

/// Where an unreadable state file is kept: `app.ron.bak` beside it.
pub fn backup_path(state_file: &Path) -> PathBuf {
    let mut name = state_file.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    state_file.with_file_name(name)
}

/// Checks the state file before eframe reads it (eframe would drop a file it cannot parse
/// and overwrite it on exit). A file that does not parse is moved to [`backup_path`] so the
/// app starts clean; returns the message for the status bar, `None` when all is well (or
/// there is no file yet).
pub fn check_state_file(path: &Path) -> Option<String> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            return Some(format!(
                "cannot read the saved state {}: {e}; starting without it",
                path.display()
            ));
        }
    };
    let parsed = std::str::from_utf8(&text)
        .map_err(|e| e.to_string())
        .and_then(|t| ron::from_str::<HashMap<String, String>>(t).map_err(|e| e.to_string()));
    let why = parsed.err()?;
    let backup = backup_path(path);
    Some(match std::fs::rename(path, &backup) {
        Ok(()) => format!(
            "the saved state was unreadable ({why}); kept as {} and started clean",
            backup.display()
        ),
        Err(e) => format!(
            "the saved state {} was unreadable ({why}) and could not be kept as {}: {e}",
            path.display(),
            backup.display()
        ),
    })
}

/// What was restored from storage, and what could not be.
#[derive(Debug, Default)]
pub struct Restored {
    /// The settings (defaults where the saved ones did not read or made no sense).
    pub settings: Settings,
    /// The last puzzle, when it read.
    pub puzzle: Option<SavedPuzzle>,
    /// One message per problem, for the status bar.
    pub notes: Vec<String>,
    /// Whether an entry did not read at all (the state file deserves a backup).
    pub damaged: bool,
}

/// Reads the settings and the last puzzle from `storage`, checking each.
pub fn restore(storage: &dyn eframe::Storage) -> Restored {
    let mut out = Restored::default();
    if let Some(text) = storage.get_string(SETTINGS_KEY) {
        match ron::from_str::<Settings>(&text) {
            Ok(s) => {
                let (settings, notes) = s.sanitized();
                out.settings = settings;
                out.notes.extend(notes);
            }
            Err(e) => {
                out.damaged = true;
                out.notes.push(format!(
                    "the saved settings were unreadable ({e}); defaults used"
                ));
            }
        }
    }
    if let Some(text) = storage.get_string(PUZZLE_KEY) {
        match ron::from_str::<SavedPuzzle>(&text) {
            Ok(p) if p.restore().is_some() || p == SavedPuzzle::default() => {
                out.puzzle = Some(p);
            }
            Ok(_) => {
                out.damaged = true;
                out.notes
                    .push("the saved puzzle was malformed; starting with an empty board".into());
            }
            Err(e) => {
                out.damaged = true;
                out.notes.push(format!(
                    "the saved puzzle was unreadable ({e}); starting with an empty board"
                ));
            }
        }
    }
    out
}

/// Copies the state file to [`backup_path`] (an entry of it did not read and will be
/// overwritten on exit); the message says where the copy is.
pub fn back_up(path: &Path) -> String {
    let backup = backup_path(path);
    match std::fs::copy(path, &backup) {
        Ok(_) => format!("the old state is kept as {}", backup.display()),
        Err(e) => format!("it could not be kept as {}: {e}", backup.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eframe::Storage as _;

    /// A storage of plain strings, as eframe's file storage holds them.
    #[derive(Default)]
    struct Memory(HashMap<String, String>);

    impl eframe::Storage for Memory {
        fn get_string(&self, key: &str) -> Option<String> {
            self.0.get(key).cloned()
        }
        fn set_string(&mut self, key: &str, value: String) {
            self.0.insert(key.into(), value);
        }
        fn remove_string(&mut self, key: &str) {
            self.0.remove(key);
        }
        fn flush(&mut self) {}
    }

    #[test]
    fn an_unparsable_state_file_is_moved_aside_with_a_message() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.ron");
        assert_eq!(check_state_file(&path), None, "no file yet");
        std::fs::write(&path, "{\"a\": \"b\"}").unwrap();
        assert_eq!(check_state_file(&path), None, "a good file stays");
        for junk in [
            &b"{\"sudoku-lens/settings\": \"(cam"[..],
            b"\xff\xfe\x00",
            b"",
        ] {
            std::fs::write(&path, junk).unwrap();
            let note = check_state_file(&path).expect("reported");
            assert!(
                note.contains("unreadable") && note.contains("app.ron.bak"),
                "{note}"
            );
            assert!(!path.exists());
            assert_eq!(std::fs::read(dir.path().join("app.ron.bak")).unwrap(), junk);
        }
    }

    #[test]
    fn unreadable_or_nonsense_entries_start_clean_with_a_message() {
        let mut storage = Memory::default();
        let restored = restore(&storage);
        assert!(restored.notes.is_empty() && !restored.damaged);

        let settings = Settings {
            sequence_fps: 1e-30,
            hint_mode: true,
            ..Settings::default()
        };
        eframe::set_value(&mut storage, SETTINGS_KEY, &settings);
        let restored = restore(&storage);
        assert!(restored.settings.hint_mode, "good values are kept");
        assert_eq!(restored.settings.sequence_fps, 30.0);
        assert!(!restored.damaged && restored.notes[0].contains("frame rate"));

        storage.set_string(SETTINGS_KEY, "(camera_index: \"x\"".into());
        storage.set_string(PUZZLE_KEY, "(values: \"12\")".into());
        let restored = restore(&storage);
        assert!(restored.damaged);
        assert_eq!(restored.settings, Settings::default());
        assert!(restored.puzzle.is_none());
        assert_eq!(restored.notes.len(), 2, "{:?}", restored.notes);
    }
}
