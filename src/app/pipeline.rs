//! The app's seam to the recognition pipeline: what the app needs from `scan`/`live`, as a
//! [`PhotoScanner`] for one still image and a factory of [`LiveAnalyzer`]s for a video stream
//! (the real one is [`crate::live::LiveReader`]). `wiring.rs` plugs the real pipeline in;
//! tests inject doubles.
//!
//! Pure data and traits: no egui, no threads (see `workers.rs`).

use std::sync::Arc;

use image::RgbImage;

use crate::digits::Repair;
use crate::live::LiveAnalyzer;
use crate::session::LoadFailure;
use crate::vision::Lattice;

/// The digits read from one image: value per cell (0 empty, pencil marks count as empty) and the
/// classifier's probability for that value.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// Values in reading order, 0 for empty.
    pub values: [u8; 81],
    /// Probability of each value, `0.0..=1.0`.
    pub confidence: [f32; 81],
}

impl Reading {
    /// Cells whose confidence is below `digits::UNCERTAIN_BELOW` (amber).
    pub fn uncertain(&self) -> [bool; 81] {
        self.confidence.map(crate::digits::is_uncertain)
    }
}

/// How the digits of a still photo were written: the handwritten entries and the pencil-mark
/// cells (from a model that tells handwriting from print).
#[derive(Clone, Debug, PartialEq)]
pub struct PhotoWriting {
    /// Cells holding a handwritten digit (the solver's entry).
    pub entries: [bool; 81],
    /// Cells holding pencil marks.
    pub pencil: [bool; 81],
    /// The digit the model itself read in each entry the puzzle decided otherwise, 0
    /// elsewhere (`Scan::entries_as_model_read`): the board's check judges it, as unsure.
    pub model_read: [u8; 81],
}

/// Everything a still photo yields.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PhotoScan {
    /// The grid lattice in image pixels, when a grid was found.
    pub lattice: Option<Lattice>,
    /// The digits, when a grid was found and read.
    pub reading: Option<Reading>,
    /// A repair, when the reading is not a valid unique puzzle (never one with no changes).
    pub repair: Option<Repair>,
    /// Handwritten entries and pencil marks; `None` when the model cannot tell handwriting
    /// from print (every digit is then a given).
    pub writing: Option<PhotoWriting>,
}

/// Scans one still image. Called on a worker thread.
pub trait PhotoScanner: Send + Sync {
    /// Finds and reads the grid; `Err` says why not (no grid found, model failed to load, …),
    /// worded for the user by [`LoadFailure::advice`].
    fn scan(&self, image: &RgbImage) -> Result<PhotoScan, LoadFailure>;
}

/// Makes a fresh [`LiveAnalyzer`] (one per camera session; called on the scanner thread, as
/// loading a model takes a while). `Err` carries a message for the status bar.
pub type LiveAnalyzerFactory = Arc<dyn Fn() -> Result<Box<dyn LiveAnalyzer>, String> + Send + Sync>;

/// The two entry points the app uses.
#[derive(Clone)]
pub struct Pipeline {
    /// Still photos.
    pub photo: Arc<dyn PhotoScanner>,
    /// Video.
    pub live: LiveAnalyzerFactory,
}

impl std::fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipeline").finish_non_exhaustive()
    }
}

/// A "scanner" that reads nothing and returns a grid already known (a restored photo whose
/// board was saved with its edits: the picture and its grid come back, the board stays).
#[derive(Clone, Copy, Debug)]
pub struct KnownGrid(pub Option<Lattice>);

impl PhotoScanner for KnownGrid {
    fn scan(&self, _image: &RgbImage) -> Result<PhotoScan, LoadFailure> {
        Ok(PhotoScan {
            lattice: self.0,
            reading: None,
            repair: None,
            writing: None,
        })
    }
}
