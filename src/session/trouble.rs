//! Why a photo did not load, in words for someone who is not a programmer: the
//! [`LoadFailure`] (typed, from the loader and the scanner) and its [`Advice`] — a headline
//! that says what went wrong, what to try, and the technical detail kept for a bug report.
//!
//! Owns only the wording; the app decides where to show it, and a failed load never changes
//! the puzzle being worked on (that is the app's contract, tested there).

use std::path::Path;

use crate::scan::ScanError;
use crate::vision::{LoadError, NoGrid};

/// Why a photo could not be turned into a puzzle.
#[derive(Debug, thiserror::Error)]
pub enum LoadFailure {
    /// The file could not be read or decoded.
    #[error(transparent)]
    File(#[from] LoadError),
    /// The picture was read but no Sudoku grid was found on it.
    #[error("no Sudoku grid found: {0}")]
    NoGrid(#[from] NoGrid),
    /// The digit reader (model) is unavailable.
    #[error("the digit reader is unavailable: {0}")]
    Reader(String),
    /// The recognizer crashed on this picture.
    #[error("the recognizer crashed on this photo")]
    Crashed,
    /// The work could not be started (no thread).
    #[error("{0}")]
    Internal(String),
}

impl From<ScanError> for LoadFailure {
    fn from(e: ScanError) -> Self {
        match e {
            ScanError::NoGrid(g) => LoadFailure::NoGrid(g),
            ScanError::Model(m) => LoadFailure::Reader(m.to_string()),
        }
    }
}

/// A failure explained: what went wrong, what to try, and the technical detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advice {
    /// One plain sentence: what went wrong.
    pub headline: String,
    /// What the user can do about it.
    pub try_this: String,
    /// The technical message (for a bug report), never shown alone.
    pub detail: String,
}

impl Advice {
    /// Headline and advice as one message (for a status line or a log).
    pub fn summary(&self) -> String {
        format!("{} — {}", self.headline, self.try_this)
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

impl LoadFailure {
    /// The failure in plain words for `label` (the file name or "pasted image").
    pub fn advice(&self, label: &str) -> Advice {
        let detail = self.to_string();
        let (headline, try_this) = match self {
            LoadFailure::File(e) => file_advice(e),
            LoadFailure::NoGrid(NoGrid::TooSmall { width, height }) => (
                format!("{label} is too small ({width}×{height} pixels) to read a Sudoku from."),
                "Use a larger photo: the grid should be at least 250 pixels across.".to_string(),
            ),
            LoadFailure::NoGrid(_) => (
                format!("No Sudoku grid found in {label}."),
                "Make sure all four corners of the grid are in the picture, the page is flat \
                 and evenly lit, and the grid fills a good part of the photo."
                    .to_string(),
            ),
            LoadFailure::Reader(_) => (
                "The digit reader could not be started.".to_string(),
                "The model file that reads the digits is missing or damaged: reinstall \
                 sudoku-lens, or type the puzzle in (paste 81 digits)."
                    .to_string(),
            ),
            LoadFailure::Crashed => (
                format!("Reading {label} failed unexpectedly."),
                "Try another photo of the same page; please report this photo as a bug."
                    .to_string(),
            ),
            LoadFailure::Internal(_) => (
                format!("{label} could not be read."),
                "Try again; if it keeps failing, restart sudoku-lens.".to_string(),
            ),
        };
        Advice {
            headline,
            try_this,
            detail,
        }
    }
}

fn file_advice(e: &LoadError) -> (String, String) {
    match e {
        LoadError::Io { path, source } => {
            let name = file_name(path);
            match source.kind() {
                std::io::ErrorKind::NotFound => (
                    format!("{name} does not exist (any more)."),
                    "Check the file name, or open the photo again from where it is now."
                        .to_string(),
                ),
                std::io::ErrorKind::PermissionDenied => (
                    format!("You are not allowed to read {name}."),
                    "Copy the photo somewhere you can read it, or change its permissions."
                        .to_string(),
                ),
                _ => (
                    format!("{name} could not be read."),
                    "Check that the file is still there and the disk is readable, then try \
                     again."
                        .to_string(),
                ),
            }
        }
        LoadError::UnknownFormat { path } => (
            format!("{} is not a picture sudoku-lens can open.", file_name(path)),
            "Open a photo or screenshot in PNG, JPEG, BMP, TIFF, WebP, GIF or PNM format."
                .to_string(),
        ),
        LoadError::TooLarge { path, .. } => (
            format!("{} is too large a picture to open safely.", file_name(path)),
            "Scale it down (64 megapixels at most) and open it again.".to_string(),
        ),
        LoadError::Empty { path, .. } => (
            format!("{} holds no picture (it has no pixels).", file_name(path)),
            "Open another photo.".to_string(),
        ),
        LoadError::Damaged { path, .. } => (
            format!(
                "{} is damaged: it was cut short or its data is corrupt, so it was not read.",
                file_name(path)
            ),
            "Copy or download the photo again, or take a new one.".to_string(),
        ),
        LoadError::Decode { path, .. } => (
            format!(
                "{} uses a kind of image sudoku-lens cannot decode.",
                file_name(path)
            ),
            "Save it as PNG or JPEG (e.g. with a screenshot or an image editor) and open that."
                .to_string(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn every_failure_says_what_happened_and_what_to_try() {
        let path = PathBuf::from("/photos/page.jpg");
        let failures = [
            LoadFailure::File(LoadError::Damaged {
                path: path.clone(),
                reason: "scan ends in block 40".into(),
            }),
            LoadFailure::File(LoadError::UnknownFormat { path: path.clone() }),
            LoadFailure::File(LoadError::Io {
                path: path.clone(),
                source: std::io::Error::from(std::io::ErrorKind::NotFound),
            }),
            LoadFailure::NoGrid(NoGrid::NoOutline),
            LoadFailure::NoGrid(NoGrid::TooSmall {
                width: 20,
                height: 10,
            }),
            LoadFailure::Reader("model.onnx: no such file".into()),
            LoadFailure::Crashed,
            LoadFailure::Internal("no thread".into()),
        ];
        for f in &failures {
            let a = f.advice("page.jpg");
            assert!(a.headline.ends_with('.'), "{a:?}");
            assert!(!a.try_this.is_empty(), "{a:?}");
            assert_eq!(a.detail, f.to_string());
            // Plain words: the jargon stays in the detail.
            for jargon in ["lattice", "quadrilateral", "block 40", "Os {"] {
                assert!(!a.summary().contains(jargon), "{jargon} in {a:?}");
            }
        }
        assert!(
            failures[0]
                .advice("x")
                .headline
                .contains("page.jpg is damaged")
        );
        assert!(
            failures[3]
                .advice("page.jpg")
                .try_this
                .contains("all four corners")
        );
    }
}
