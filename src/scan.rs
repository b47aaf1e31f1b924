//! The photo → solution pipeline shared by the CLI and the app: detect the grid, rectify and
//! cut the 81 cells, normalize them, classify them in one batch, build the grid, check it
//! (conflicts, number of solutions), suggest a repair when it is not a proper puzzle, and
//! solve it (exactly; the explained solve is on demand through [`Scan::explain`]). Cells read
//! with doubt are cut and read again a little to each side (`digits::second_look`); a grid
//! whose ink does not say whether it is dark on light is read both ways (`digits::polarity`).
//! A grid that reads better turned (a photo rotated by 90/180/270° without an EXIF tag) is
//! read and re-indexed as the puzzle reads (`digits::orientation`).
//!
//! Owns the glue and the scan result type, not the pieces: detection and cells are `vision`,
//! the model and repair search `digits`, solving `sudoku`. A repair is only ever a
//! suggestion: [`Scan::values`] is always the grid as read. A half-done puzzle's digits are
//! split by how they were written ([`Scan::written`]: printed givens, handwritten entries,
//! pencil-mark cells) and the entries checked against the givens ([`Scan::check`]).

use std::borrow::Cow;

use image::{DynamicImage, GrayImage, RgbImage};

use crate::digits::orientation::{Oriented, lattice_as_read, orient};
use crate::digits::polarity::{Read, read_in_clearer_polarity};
use crate::digits::second_look::second_look;
use crate::digits::{
    CellClass, CellReading, Classifier, ModelError, Repair, Writing, read_values, suggest_repair,
};
use crate::sudoku::solver::solve_values;
use crate::sudoku::{
    Cell, Check, Conflict, Explained, Grid, SolveError, check_entries_as_model_read,
    solve_explained,
};
use crate::vision::rectify::{cell_inputs_of, grid_cell_crops};
use crate::vision::{GridDetection, Lattice, NoGrid};

/// Side of a rectified cell in pixels before normalization (training export uses it too).
pub const CELL_SIZE_PX: u32 = 40;

/// The most cells a repair may change.
pub const MAX_REPAIR_CHANGES: usize = 3;

/// Why a photo could not be scanned.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    /// No grid was found.
    #[error("no Sudoku grid found: {0}")]
    NoGrid(#[from] NoGrid),
    /// The digit model failed.
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// Everything a scan found.
#[derive(Clone, Debug)]
pub struct Scan {
    /// Where the grid is in the photo, indexed as the puzzle reads (`lattice_in_image[0][0]`
    /// and `corners_in_image[0]` are the puzzle's top-left even in a turned photo). For a
    /// [`Scanner::scan_lattice`] call: the given lattice, score 1.
    pub detection: GridDetection,
    /// How far the puzzle appears turned clockwise in the photo, in quarter turns (0–3); the
    /// readings and `detection` are already re-indexed as the puzzle reads.
    pub quarter_turns: u8,
    /// One reading per cell, row-major.
    pub readings: Vec<CellReading>,
    /// The grid as read: digits 1–9, 0 for empty and pencil-mark cells.
    pub values: [u8; 81],
    /// Repeated digits among the read cells.
    pub conflicts: Vec<Conflict>,
    /// Solutions of the read grid, counted up to 2 (0 with conflicts).
    pub solution_count: usize,
    /// The read grid's solution when it is unique.
    pub solution: Option<[u8; 81]>,
    /// When the read grid is not a proper puzzle: the most likely small change that makes it
    /// one.
    pub repair: Option<Repair>,
    /// Cells whose digit the solution decided: handwritten entries by the printed givens'
    /// solution, or, when those are no proper puzzle, doubtful digits of either writing by the
    /// sure digits' solution. The model read another class, and the solution's digit came out
    /// on top once weighed by the prior (`digits::solution_prior`, applied by
    /// [`Scan::tell_writing`]). Their readings stay flagged uncertain.
    pub entries_by_solution: Vec<Cell>,
    /// Doubtful cells the puzzle decided: the printed givens (or the whole grid) as read were
    /// not a proper puzzle, and one small, unambiguous change of these cells made them one
    /// (`digits::readings_by_puzzle`, applied by [`Scan::tell_writing`]). Their readings stay
    /// flagged uncertain.
    pub decided_by_puzzle: Vec<Cell>,
}

impl Scan {
    /// Builds the verdict for 81 readings (conflicts, solutions, repair).
    pub fn from_readings(detection: GridDetection, readings: Vec<CellReading>) -> Scan {
        let values = read_values(&readings);
        let conflicts = Grid::from_values(&values).conflicts();
        let (solution_count, solution) = if conflicts.is_empty() {
            let s = solve_values(&values, 2);
            (s.count, if s.count == 1 { s.first } else { None })
        } else {
            (0, None)
        };
        let repair = if solution.is_some() {
            None
        } else {
            suggest_repair(&readings, MAX_REPAIR_CHANGES)
        };
        Scan {
            detection,
            quarter_turns: 0,
            readings,
            values,
            conflicts,
            solution_count,
            solution,
            repair,
            entries_by_solution: Vec::new(),
            decided_by_puzzle: Vec::new(),
        }
    }

    /// Whether the read grid is a proper puzzle (no conflict, exactly one solution).
    pub fn is_unique(&self) -> bool {
        self.solution.is_some()
    }

    /// The best available solution: the read grid's, else the suggested repair's.
    pub fn best_solution(&self) -> Option<[u8; 81]> {
        self.solution
            .or_else(|| self.repair.as_ref().map(|r| r.solution))
    }

    /// How far the puzzle appears turned clockwise in the photo, in degrees (0, 90, 180, 270).
    pub fn rotation_deg(&self) -> u16 {
        90 * u16::from(self.quarter_turns % 4)
    }

    /// Cells whose reading is uncertain, row-major.
    pub fn uncertain_cells(&self) -> Vec<Cell> {
        self.readings
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_uncertain())
            .map(|(i, _)| Cell::from_index(i))
            .collect()
    }

    /// The read grid as a puzzle (givens = read digits).
    pub fn grid(&self) -> Grid {
        Grid::from_values(&self.values)
    }

    /// The read digits split into printed givens and handwritten entries, and the
    /// pencil-mark cells. Without a handwriting probability on every digit reading (neither
    /// the model's `kind` output nor [`Scan::tell_writing`] gave one) every digit counts as a
    /// given and `kinds_known` is false.
    pub fn written(&self) -> Written {
        Written::of(&self.readings)
    }

    /// Checks the handwritten entries against the printed givens (see
    /// `sudoku::check_entries_read`: an entry read uncertain that disagrees with the solution
    /// is unsure, not wrong); refused when they were not told apart. An entry the solution or
    /// the puzzle decided ([`Scan::entries_by_solution`], [`Scan::decided_by_puzzle`]) is
    /// checked as the model read it, so it comes out unsure: the check never calls right what
    /// only the puzzle made right.
    pub fn check(&self) -> Result<Check, CheckUnavailable> {
        let w = self.written();
        if !w.kinds_known {
            return Err(CheckUnavailable::NoKindOutput);
        }
        Ok(check_entries_as_model_read(
            &w.givens,
            &w.entries,
            &self.uncertain_mask(),
            &self.entries_as_model_read(),
        ))
    }

    /// The digit the model itself read in each handwritten entry that the solution or the
    /// puzzle decided otherwise ([`Scan::entries_by_solution`], [`Scan::decided_by_puzzle`]);
    /// 0 elsewhere. A check of the entries judges these digits, as unsure.
    pub fn entries_as_model_read(&self) -> [u8; 81] {
        let entries = self.written().entries;
        let mut read = [0u8; 81];
        for cell in self
            .entries_by_solution
            .iter()
            .chain(&self.decided_by_puzzle)
        {
            let i = cell.index();
            if entries[i] != 0 {
                read[i] = self.readings.get(i).and_then(model_digit).unwrap_or(0);
            }
        }
        read
    }

    /// Tells the printed givens from the handwriting by the ink of the photo (see
    /// `digits::style`: per photo, from glyph size, ink colour and stroke against the print's),
    /// when the model did not (no `kind` output), then settles the readings by the puzzle
    /// ([`Scan::settle_readings_by_puzzle`]).
    /// `photo` is the colour image the detection's lattice lies in. Leaves the calls alone
    /// when the ink cannot be measured.
    pub fn tell_writing(&mut self, photo: &RgbImage) {
        if self.needs_writing() {
            let readings = &self.readings;
            let ink = crate::vision::ink::measure_grid(photo, &self.detection.lattice(), |i| {
                readings.get(i).is_some_and(|r| r.class.digit().is_some())
            });
            crate::digits::style::fill_handwriting(&mut self.readings, &ink);
        }
        self.settle_readings_by_puzzle();
    }

    /// Settles the doubtful readings by the puzzle the page must hold (one solution), in three
    /// steps: first doubtful givens, when print was told from handwriting and the givens as
    /// read are not a proper puzzle but one small change makes them one
    /// (`digits::readings_by_puzzle`, recorded in [`Scan::decided_by_puzzle`]); then doubtful
    /// digits weighed by the solution of the givens, or else of the sure digits
    /// (`digits::solution_prior`: a digit that then comes out on top is read; recorded in
    /// [`Scan::entries_by_solution`]); last, doubtful digits anywhere, when the whole grid is
    /// still not a proper puzzle but one small change makes it one (recorded in
    /// [`Scan::decided_by_puzzle`]). When a reading changed, the verdict is rebuilt (values,
    /// conflicts, solution, repair).
    pub fn settle_readings_by_puzzle(&mut self) {
        use crate::digits::readings_by_puzzle::{Scope, decide_by_puzzle};
        // A proper read grid agrees with its one solution in every digit, so neither the
        // prior nor the grid step can change a reading (the solver calls are spared); only a
        // given missing from printed givens that the entries pinned can still come back.
        let proper = self.is_unique();
        let has_entries = self
            .readings
            .iter()
            .any(|r| r.writing() == Some(Writing::Handwritten));
        let mut decided = if proper && !has_entries {
            Vec::new()
        } else {
            decide_by_puzzle(&mut self.readings, Scope::Givens)
        };
        if proper && decided.is_empty() {
            return;
        }
        let entries = crate::digits::solution_prior::weigh_entries_by_solution(&mut self.readings);
        decided.extend(decide_by_puzzle(&mut self.readings, Scope::Grid));
        if decided.is_empty() && entries.is_empty() {
            return;
        }
        decided.sort_unstable();
        decided.dedup();
        let readings = std::mem::take(&mut self.readings);
        let mut rebuilt = Scan::from_readings(self.detection.clone(), readings);
        rebuilt.quarter_turns = self.quarter_turns;
        rebuilt.decided_by_puzzle = decided.into_iter().map(Cell::from_index).collect();
        rebuilt.entries_by_solution = entries.into_iter().map(Cell::from_index).collect();
        *self = rebuilt;
    }

    /// [`Scan::tell_writing`] on a decoded photo; the photo's ink is measured only when some
    /// digit reading lacks its call. `colour` is the photo's [`crate::vision::colour_of`] when
    /// the caller made it already (for detection); otherwise the photo is converted here (no
    /// copy when it is RGB).
    pub fn tell_writing_in(&mut self, photo: &DynamicImage, colour: Option<&RgbImage>) {
        if !self.needs_writing() {
            self.settle_readings_by_puzzle();
            return;
        }
        let rgb = match colour {
            Some(rgb) => Cow::Borrowed(rgb),
            None => crate::vision::colour_of(photo).unwrap_or_else(|| Cow::Owned(photo.to_rgb8())),
        };
        self.tell_writing(&rgb);
    }

    /// Whether some digit reading lacks its printed/handwritten call.
    pub fn needs_writing(&self) -> bool {
        self.readings
            .iter()
            .any(|r| r.class.digit().is_some() && r.handwritten.is_none())
    }

    /// Whether each cell's reading is uncertain, row-major.
    pub fn uncertain_mask(&self) -> [bool; 81] {
        std::array::from_fn(|i| self.readings.get(i).is_some_and(CellReading::is_uncertain))
    }

    /// Explained, step-by-step solve of the read grid (or of the repaired grid when the read
    /// one is not a proper puzzle and a repair exists).
    pub fn explain(&self) -> Result<Explained, SolveError> {
        let values = match (&self.solution, &self.repair) {
            (None, Some(r)) => r.values,
            _ => self.values,
        };
        solve_explained(&Grid::from_values(&values))
    }
}

/// The digit the model itself found most probable in `reading` (its class may have been
/// decided otherwise: `CellReading::decided_as`).
fn model_digit(reading: &CellReading) -> Option<u8> {
    (1..=9u8).max_by(|&a, &b| {
        reading.probabilities[usize::from(a)].total_cmp(&reading.probabilities[usize::from(b)])
    })
}

/// The read digits split by how they were written (see [`Scan::written`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Printed digits (the puzzle's givens), 0 elsewhere. Every digit when the kinds are not
    /// known.
    pub givens: [u8; 81],
    /// Handwritten digits (the solver's entries), 0 elsewhere; all 0 when the kinds are not
    /// known.
    pub entries: [u8; 81],
    /// Cells read as holding pencil marks.
    pub pencil: [bool; 81],
    /// Whether print was told from handwriting (the model's `kind` output, or the ink by
    /// [`Scan::tell_writing`]). When false, `givens` holds every digit.
    pub kinds_known: bool,
}

impl Written {
    /// The split of 81 readings (row-major, as the puzzle reads; see [`Scan::written`]): a
    /// digit is an entry when its reading calls it handwritten, a given otherwise; every digit
    /// is a given, and `kinds_known` false, unless every digit reading has its call.
    pub fn of(readings: &[CellReading]) -> Written {
        let kinds_known = readings.iter().any(|r| r.handwritten.is_some())
            && readings
                .iter()
                .all(|r| r.class.digit().is_none() || r.handwritten.is_some());
        let mut w = Written {
            givens: [0; 81],
            entries: [0; 81],
            pencil: [false; 81],
            kinds_known,
        };
        for (i, r) in readings.iter().enumerate().take(81) {
            w.pencil[i] = r.class == CellClass::PencilMarks;
            let value = r.class.value();
            if kinds_known && r.writing() == Some(Writing::Handwritten) {
                w.entries[i] = value;
            } else {
                w.givens[i] = value;
            }
        }
        w
    }
}

/// Why a scan's entries cannot be checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckUnavailable {
    /// Neither the digit model (no `kind` output) nor the photo's ink (a gray image, or grid
    /// lines that could not be measured) told printed givens from handwriting.
    #[error(
        "printed givens could not be told from handwritten entries (the digit model has no \
         `kind` output and the photo's ink could not be measured), so entries cannot be checked"
    )]
    NoKindOutput,
}

/// Runs the pipeline; holds the loaded classifier.
#[derive(Debug)]
pub struct Scanner {
    classifier: Classifier,
}

impl Scanner {
    /// A scanner around a loaded classifier.
    pub fn new(classifier: Classifier) -> Scanner {
        Scanner { classifier }
    }

    /// The embedded model on tract.
    pub fn with_default_model() -> Result<Scanner, ScanError> {
        Ok(Scanner::new(Classifier::new()?))
    }

    /// The classifier (e.g. for batch inference on other cells).
    pub fn classifier_mut(&mut self) -> &mut Classifier {
        &mut self.classifier
    }

    /// Scans a photo (its colour, where it has some, helps find a screenshot's grid), telling
    /// printed givens from handwriting by its ink where the model does not
    /// ([`Scan::tell_writing`]).
    pub fn scan(&mut self, image: &DynamicImage) -> Result<Scan, ScanError> {
        let gray = crate::vision::to_gray(image);
        let colour = crate::vision::colour_of(image);
        let mut scan = self.scan_with_colour(&gray, colour.as_deref())?;
        scan.tell_writing_in(image, colour.as_deref());
        Ok(scan)
    }

    /// Scans a grey photo whose colour (`colour`, the same picture) may be at hand:
    /// detection, then [`Scanner::scan_detection`] on the gray.
    pub fn scan_with_colour(
        &mut self,
        gray: &GrayImage,
        colour: Option<&RgbImage>,
    ) -> Result<Scan, ScanError> {
        let detection = crate::vision::detect_with_colour(
            gray,
            colour,
            &crate::vision::DetectOptions::default(),
            None,
        )?;
        self.scan_detection(gray, detection)
    }

    /// Scans a grey photo: detection, then [`Scanner::scan_detection`].
    pub fn scan_gray(&mut self, gray: &GrayImage) -> Result<Scan, ScanError> {
        self.scan_with_colour(gray, None)
    }

    /// Reads the cells of an already located grid in the orientation that reads best (see
    /// `digits::orientation::orient`: one model run when the non-empty cells read surely
    /// upright, a second batch of the cells that are not surely empty, turned, otherwise) with
    /// [`Scanner::read_closely`], and re-indexes the detection as the puzzle reads.
    pub fn scan_detection(
        &mut self,
        gray: &GrayImage,
        detection: GridDetection,
    ) -> Result<Scan, ScanError> {
        let oriented = self.read_closely(gray, &detection.lattice())?;
        let k = oriented.quarter_turns;
        let detection = if k == 0 {
            detection
        } else {
            let lattice_in_image = lattice_as_read(&detection.lattice_in_image, k);
            let lattice = Lattice {
                points_in_image: lattice_in_image,
            };
            GridDetection {
                corners_in_image: lattice.corners(),
                lattice_in_image,
                ..detection
            }
        };
        let mut scan = Scan::from_readings(detection, oriented.readings);
        scan.quarter_turns = k;
        Ok(scan)
    }

    /// Reads the 81 cells under `lattice` (image order) in the orientation that reads best
    /// (see [`Scanner::scan_detection`]), in the ink polarity their masses give; the readings
    /// are as the puzzle reads. One read of one frame: the live path's first reads of a page,
    /// whose doubts the votes of later frames settle.
    pub fn read_oriented(
        &mut self,
        gray: &GrayImage,
        lattice: &Lattice,
    ) -> Result<Oriented, ScanError> {
        let inputs = cell_inputs(gray, lattice);
        let upright = self.classifier.classify(&inputs)?;
        let classifier = &mut self.classifier;
        Ok(orient(&inputs, upright, |cells| {
            classifier.classify(cells)
        })?)
    }

    /// [`Scanner::read_oriented`] for a still picture, which has no next frame: a grid whose
    /// ink masses leave its polarity unclear is read both ways (`digits::polarity`), and the
    /// cells read with doubt get a second look along the lattice moved a little four ways
    /// (`digits::second_look`).
    pub fn read_closely(
        &mut self,
        gray: &GrayImage,
        lattice: &Lattice,
    ) -> Result<Oriented, ScanError> {
        let crops = grid_cell_crops(gray, lattice, CELL_SIZE_PX);
        let classifier = &mut self.classifier;
        let Read {
            inputs,
            readings: upright,
            polarity,
        } = read_in_clearer_polarity(&crops, |cells| classifier.classify(cells))?;
        let mut oriented = orient(&inputs, upright, |cells| classifier.classify(cells))?;
        second_look(
            &mut oriented.readings,
            oriented.quarter_turns,
            |dx, dy, cells| {
                let shifted = lattice.shifted_by_cells(dx, dy);
                cell_inputs_of(gray, &shifted, cells, CELL_SIZE_PX, polarity)
            },
            |cells| classifier.classify(cells),
        )?;
        Ok(oriented)
    }

    /// Reads the cells along a known lattice (e.g. ground-truth corners) without detection,
    /// taking the lattice's `[0][0]` as the puzzle's top-left (no orientation search).
    pub fn scan_lattice(&mut self, gray: &GrayImage, lattice: &Lattice) -> Result<Scan, ScanError> {
        let readings = self.read_cells(gray, lattice)?;
        let detection = GridDetection {
            corners_in_image: lattice.corners(),
            lattice_in_image: lattice.points_in_image,
            score: 1.0,
        };
        Ok(Scan::from_readings(detection, readings))
    }

    /// Rectifies, cuts, normalizes and classifies the 81 cells under `lattice`, in the
    /// lattice's own order (no orientation search: the app's live view reads steady frames
    /// of a lattice it tracks).
    pub fn read_cells(
        &mut self,
        gray: &GrayImage,
        lattice: &Lattice,
    ) -> Result<Vec<CellReading>, ScanError> {
        Ok(self.classifier.classify(&cell_inputs(gray, lattice))?)
    }
}

/// The 81 normalized classifier inputs under `lattice`, row-major in the lattice's order.
fn cell_inputs(gray: &GrayImage, lattice: &Lattice) -> Vec<Vec<f32>> {
    crate::vision::rectify::cell_inputs(gray, lattice, CELL_SIZE_PX)
}
