//! What the app remembers between runs, as serde data (the app stores it through eframe's
//! persistence): the user's [`Settings`] (with the [`ResolutionRequest`] they chose) and the
//! last puzzle with its edits ([`SavedPuzzle`]). Runtime state (frames, threads, status) is
//! deliberately not here, and neither is the storage itself.

use serde::{Deserialize, Serialize};

use crate::sudoku::Cell;

use super::board::Board;

/// Default capture rate of the screen source, frames per second.
pub const DEFAULT_SCREEN_FPS: f32 = 2.0;

/// Accepted capture rates of the screen source, frames per second (the saved setting, the
/// app's control); anything else captures at the default.
pub const SCREEN_FPS_RANGE: std::ops::RangeInclusive<f32> = 0.1..=30.0;

/// Frame rates accepted for an image sequence played as a camera (`--fps`, the saved
/// setting); anything else plays at the default.
pub const SEQUENCE_FPS_RANGE: std::ops::RangeInclusive<f32> = 0.1..=240.0;

/// Largest capture side a saved resolution may ask for, pixels.
const MAX_RESOLUTION_SIDE_PX: u32 = 16_384;

/// Storage key of [`Settings`].
pub const SETTINGS_KEY: &str = "sudoku-lens/settings";
/// Storage key of [`SavedPuzzle`].
pub const PUZZLE_KEY: &str = "sudoku-lens/puzzle";

/// A requested capture size (settings hold an `Option`: `None` is the camera's default).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct ResolutionRequest {
    /// Width in pixels.
    pub width_px: u32,
    /// Height in pixels.
    pub height_px: u32,
}

impl ResolutionRequest {
    /// The choices offered in the app, `None` meaning "camera default" first.
    pub const CHOICES: [Option<ResolutionRequest>; 4] = [
        None,
        Some(ResolutionRequest {
            width_px: 640,
            height_px: 480,
        }),
        Some(ResolutionRequest {
            width_px: 1280,
            height_px: 720,
        }),
        Some(ResolutionRequest {
            width_px: 1920,
            height_px: 1080,
        }),
    ];
}

impl std::fmt::Display for ResolutionRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}×{}", self.width_px, self.height_px)
    }
}

/// User preferences.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Camera index to open.
    pub camera_index: u32,
    /// Requested capture size (`None`: camera default).
    pub resolution: Option<ResolutionRequest>,
    /// Reveal steps gradually (technique → where → full step).
    pub hint_mode: bool,
    /// Draw the solution digits onto the photo.
    pub show_solution: bool,
    /// Show pencil-mark candidates on the board while stepping.
    pub show_candidates: bool,
    /// Frame rate of an image sequence played as a camera.
    pub sequence_fps: f32,
    /// Captures per second of the screen source (when nothing on it changes).
    pub screen_fps: f32,
    /// Folder of the last opened photo.
    pub last_dir: Option<std::path::PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            camera_index: 0,
            resolution: None,
            hint_mode: false,
            show_solution: false,
            show_candidates: true,
            sequence_fps: 30.0,
            screen_fps: DEFAULT_SCREEN_FPS,
            last_dir: None,
        }
    }
}

impl Settings {
    /// These settings with every value that makes no sense (a saved state edited by hand or
    /// damaged) replaced by its default, and one message per replaced value naming it.
    pub fn sanitized(self) -> (Settings, Vec<String>) {
        let default = Settings::default();
        let mut notes = Vec::new();
        let mut s = self;
        if !SEQUENCE_FPS_RANGE.contains(&s.sequence_fps) {
            notes.push(format!(
                "saved frame rate {} is not from {} to {}; using {}",
                s.sequence_fps,
                SEQUENCE_FPS_RANGE.start(),
                SEQUENCE_FPS_RANGE.end(),
                default.sequence_fps
            ));
            s.sequence_fps = default.sequence_fps;
        }
        if !SCREEN_FPS_RANGE.contains(&s.screen_fps) {
            notes.push(format!(
                "saved screen capture rate {} is not from {} to {}; using {}",
                s.screen_fps,
                SCREEN_FPS_RANGE.start(),
                SCREEN_FPS_RANGE.end(),
                default.screen_fps
            ));
            s.screen_fps = default.screen_fps;
        }
        if let Some(r) = s.resolution {
            let side = 1..=MAX_RESOLUTION_SIDE_PX;
            if !side.contains(&r.width_px) || !side.contains(&r.height_px) {
                notes.push(format!(
                    "saved camera resolution {r} is not a capture size; using the camera's default"
                ));
                s.resolution = default.resolution;
            }
        }
        (s, notes)
    }
}

/// The last puzzle, with the user's edits, as text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct SavedPuzzle {
    /// Recognized/loaded values, 81 characters (`.` empty).
    pub recognized: String,
    /// Current values, 81 characters (`.` empty).
    pub values: String,
    /// Indices of cells flagged uncertain.
    pub uncertain: Vec<u8>,
    /// Indices of cells read as handwritten entries (a half-done photo).
    pub entries: Vec<u8>,
    /// Indices of cells read as holding pencil marks.
    pub pencil: Vec<u8>,
    /// `[index, digit]` of each entry the puzzle decided otherwise than the model read it
    /// (the model's digit; see `Board::model_read`). Absent in older saved states.
    pub model_read: Vec<[u8; 2]>,
    /// Step position in the walkthrough.
    pub step: usize,
    /// Where the puzzle came from (file name, "camera", …).
    pub label: String,
    /// The photo file the puzzle was read from, shown again at restart if it is still there.
    pub photo: Option<std::path::PathBuf>,
    /// Where the grid is on that photo, in its pixels.
    pub lattice: Option<crate::vision::Lattice>,
}

impl SavedPuzzle {
    /// Captures `board` at walkthrough position `step`.
    pub fn capture(board: &Board, step: usize, label: &str) -> SavedPuzzle {
        let recognized = Board::new(board.recognized, [false; 81], None).to_text();
        SavedPuzzle {
            recognized,
            values: board.to_text(),
            uncertain: indices(&board.uncertain),
            entries: indices(&board.entries),
            pencil: indices(&board.pencil),
            model_read: (0..81u8)
                .filter_map(|i| {
                    let digit = board.model_read[usize::from(i)];
                    (digit != 0).then_some([i, digit])
                })
                .collect(),
            step,
            label: label.to_string(),
            photo: None,
            lattice: None,
        }
    }

    /// The photo to show again and the grid on it: the file when it still exists, and the
    /// lattice only when every point is a finite pixel position (a damaged or hand-edited
    /// state file draws nothing odd).
    pub fn restorable_photo(&self) -> Option<(std::path::PathBuf, Option<crate::vision::Lattice>)> {
        let photo = self.photo.clone().filter(|p| p.is_file())?;
        let lattice = self.lattice.filter(|l| {
            l.points_in_image
                .iter()
                .flatten()
                .all(|p| p.x.is_finite() && p.y.is_finite() && p.x.abs() < 1e6 && p.y.abs() < 1e6)
        });
        Some((photo, lattice))
    }

    /// The board it describes; `None` when the text is malformed (then nothing is restored).
    pub fn restore(&self) -> Option<Board> {
        let recognized = Board::from_text(&self.recognized).ok()?;
        let values = Board::from_text(&self.values).ok()?;
        let mut board = Board::new(recognized.values, [false; 81], None);
        for c in Cell::all() {
            board.values[c.index()] = values.values[c.index()];
        }
        for (list, flags) in [
            (&self.uncertain, &mut board.uncertain),
            (&self.entries, &mut board.entries),
            (&self.pencil, &mut board.pencil),
        ] {
            for &i in list {
                if let Some(c) = Cell::new(usize::from(i)) {
                    flags[c.index()] = true;
                }
            }
        }
        // A hand-edited pair naming no cell or no digit is dropped.
        for &[i, digit] in &self.model_read {
            if let Some(c) = Cell::new(usize::from(i))
                && (1..=9).contains(&digit)
            {
                board.model_read[c.index()] = digit;
            }
        }
        Some(board)
    }
}

/// The indices of the cells flagged in `flags`.
fn indices(flags: &[bool; 81]) -> Vec<u8> {
    (0..81u8).filter(|&i| flags[usize::from(i)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_puzzle_round_trips_edits_and_flags() {
        let text =
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
        let mut board = Board::from_text(text).unwrap();
        board.set(Cell::from_index(0), 4);
        board.uncertain[5] = true;
        board.entries[1] = true;
        board.pencil[3] = true;
        board.model_read[1] = 7;
        let saved = SavedPuzzle::capture(&board, 7, "photo.jpg");
        let json = serde_json::to_string(&saved).unwrap();
        let back: SavedPuzzle = serde_json::from_str(&json).unwrap();
        assert_eq!(back.step, 7);
        let restored = back.restore().unwrap();
        assert_eq!(restored, board);
        assert!(restored.is_edited(Cell::from_index(0)));
        assert!(SavedPuzzle::default().restore().is_none());
    }

    #[test]
    fn nonsense_settings_fall_back_to_defaults_with_a_message() {
        let good = Settings {
            sequence_fps: 12.5,
            ..Settings::default()
        };
        assert_eq!(good.clone().sanitized(), (good, Vec::new()));
        for fps in [1e-30, 0.0, -3.0, f32::NAN, f32::INFINITY, 1e30] {
            let (s, notes) = Settings {
                sequence_fps: fps,
                ..Settings::default()
            }
            .sanitized();
            assert_eq!(s.sequence_fps, Settings::default().sequence_fps);
            assert!(
                notes.len() == 1 && notes[0].contains("frame rate"),
                "{notes:?}"
            );
        }
        let (s, notes) = Settings {
            screen_fps: 0.0,
            ..Settings::default()
        }
        .sanitized();
        assert_eq!(s.screen_fps, DEFAULT_SCREEN_FPS);
        assert!(
            notes.len() == 1 && notes[0].contains("screen capture rate"),
            "{notes:?}"
        );
        let (s, notes) = Settings {
            resolution: Some(ResolutionRequest {
                width_px: 0,
                height_px: 4_000_000_000,
            }),
            ..Settings::default()
        }
        .sanitized();
        assert_eq!(s.resolution, None);
        assert!(notes[0].contains("resolution"), "{notes:?}");
    }

    #[test]
    fn settings_fill_missing_fields_with_defaults() {
        let s: Settings = serde_json::from_str(r#"{"hint_mode": true}"#).unwrap();
        assert!(s.hint_mode);
        assert_eq!(s.sequence_fps, Settings::default().sequence_fps);
    }
}
