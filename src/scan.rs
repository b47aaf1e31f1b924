//! The photo → solution pipeline shared by the CLI and the app: detect the grid, rectify and
//! cut the 81 cells, normalize them, classify them in one batch, build the grid, check it
//! (conflicts, number of solutions), suggest a repair when it is not a proper puzzle, and
//! solve it (exactly; the explained solve is on demand through [`Scan::explain`]). A grid
//! that reads better turned (a photo rotated by 90/180/270° without an EXIF tag) is read and
//! re-indexed as the puzzle reads (`digits::orientation`).
//!
//! Owns the glue and the scan result type, not the pieces: detection and cells are `vision`,
//! the model and repair search `digits`, solving `sudoku`. A repair is only ever a
//! suggestion: [`Scan::values`] is always the grid as read.

use image::{DynamicImage, GrayImage};

use crate::digits::orientation::{Oriented, lattice_as_read, orient};
use crate::digits::{CellReading, Classifier, ModelError, Repair, suggest_repair};
use crate::sudoku::format::{boxed_board, values_line};
use crate::sudoku::solver::solve_values;
use crate::sudoku::{Cell, Explained, Grid, SolveError, solve_explained};
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

/// Two read cells that repeat a digit in a house.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadConflict {
    /// The repeated digit.
    pub digit: u8,
    /// First cell (reading order).
    pub first: Cell,
    /// Second cell.
    pub second: Cell,
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
    pub conflicts: Vec<ReadConflict>,
    /// Solutions of the read grid, counted up to 2 (0 with conflicts).
    pub solution_count: usize,
    /// The read grid's solution when it is unique.
    pub solution: Option<[u8; 81]>,
    /// When the read grid is not a proper puzzle: the most likely small change that makes it
    /// one.
    pub repair: Option<Repair>,
}

impl Scan {
    /// Builds the verdict for 81 readings (conflicts, solutions, repair).
    pub fn from_readings(detection: GridDetection, readings: Vec<CellReading>) -> Scan {
        let mut values = [0u8; 81];
        for (v, r) in values.iter_mut().zip(&readings) {
            *v = r.class.value();
        }
        let conflicts: Vec<ReadConflict> = Grid::from_values(&values)
            .conflicts()
            .iter()
            .map(|c| ReadConflict {
                digit: c.digit.get(),
                first: c.first,
                second: c.second,
            })
            .collect();
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

    /// Scans a photo.
    pub fn scan(&mut self, image: &DynamicImage) -> Result<Scan, ScanError> {
        self.scan_gray(&crate::vision::to_gray(image))
    }

    /// Scans a grey photo: detection, then [`Scanner::scan_detection`].
    pub fn scan_gray(&mut self, gray: &GrayImage) -> Result<Scan, ScanError> {
        let detection = crate::vision::detect_gray(gray)?;
        self.scan_detection(gray, detection)
    }

    /// Reads the cells of an already located grid in the orientation that reads best (see
    /// `digits::orientation::orient`: one model run when the non-empty cells read surely
    /// upright, a second batch of the cells that are not surely empty, turned, otherwise), and
    /// re-indexes the detection as the puzzle reads.
    pub fn scan_detection(
        &mut self,
        gray: &GrayImage,
        detection: GridDetection,
    ) -> Result<Scan, ScanError> {
        let oriented = self.read_oriented(gray, &detection.lattice())?;
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
    /// (see [`Scanner::scan_detection`]); the readings are as the puzzle reads.
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

/// How a scan's readings compare with a labelled photo (labels 0–10, 10 = pencil marks,
/// counted as empty).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ReadScore {
    /// Cells compared (81).
    pub cells: usize,
    /// Cells whose solving value (digit or empty) is right.
    pub cells_correct: usize,
    /// Cells whose truth is a digit 1–9.
    pub digits: usize,
    /// … read as that digit.
    pub digits_correct: usize,
    /// Cells whose truth is empty or pencil marks.
    pub empties: usize,
    /// … read as empty or pencil marks.
    pub empties_correct: usize,
    /// All 81 cells right.
    pub exact: bool,
    /// The labelled grid has one solution and the scan's best solution equals it.
    pub solved_correct: bool,
}

/// Scores `scan` against `labels`.
pub fn score_scan(scan: &Scan, labels: &[u8; 81]) -> ReadScore {
    let mut s = ReadScore {
        cells: 81,
        ..ReadScore::default()
    };
    let truth = labels.map(|v| if (1..=9).contains(&v) { v } else { 0 });
    for (i, &t) in truth.iter().enumerate() {
        let read = scan.values[i];
        if read == t {
            s.cells_correct += 1;
        }
        if t == 0 {
            s.empties += 1;
            s.empties_correct += usize::from(read == 0);
        } else {
            s.digits += 1;
            s.digits_correct += usize::from(read == t);
        }
    }
    s.exact = s.cells_correct == 81;
    let true_solution = solve_values(&truth, 2);
    s.solved_correct = true_solution.count == 1 && scan.best_solution() == true_solution.first;
    s
}


impl Scan {
    /// The JSON report printed by `scan --json`: `grid` (81 chars, `.` empty), `confidence`
    /// (81), `uncertain` (cell names), `solution` (81 chars or null), `unique`, `repair`
    /// (null or `{changes, grid, solution}`), `conflicts`, `corners` (TL, TR, BR, BL as the
    /// puzzle reads), `rotation_deg` (how far the puzzle appears turned clockwise: 0, 90,
    /// 180 or 270).
    pub fn to_json(&self) -> serde_json::Value {
        let repair = self.repair.as_ref().map(|r| {
            serde_json::json!({
                "changes": r.changes.iter().map(|c| serde_json::json!({
                    "cell": c.cell.to_string(), "from": c.from, "to": c.to,
                    "probability": c.probability,
                })).collect::<Vec<_>>(),
                "grid": values_line(&r.values, '.'),
                "solution": values_line(&r.solution, '.'),
            })
        });
        serde_json::json!({
            "grid": values_line(&self.values, '.'),
            "confidence": self.readings.iter().map(|r| r.confidence).collect::<Vec<_>>(),
            "uncertain": self.uncertain_cells().iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "solution": self.best_solution().map(|s| values_line(&s, '.')),
            "unique": self.is_unique(),
            "repair": repair,
            "conflicts": self.conflicts.iter().map(|c| serde_json::json!({
                "digit": c.digit, "cells": [c.first.to_string(), c.second.to_string()],
            })).collect::<Vec<_>>(),
            "corners": self.detection.corners_in_image.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
            "rotation_deg": self.rotation_deg(),
        })
    }

    /// The human-readable report printed by `scan`: the read grid (uncertain cells marked
    /// `?`), conflicts, the repair suggestion if any, and the solution.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if self.quarter_turns != 0 {
            out.push_str(&format!(
                "the puzzle is turned {}° clockwise in the photo; read upright:\n",
                self.rotation_deg()
            ));
        }
        out.push_str("read grid (`?` before a cell marks an uncertain reading, `.` empty):\n");
        out.push_str(&boxed_board(&self.values, |c| {
            self.readings[c.index()].is_uncertain().then_some('?')
        }));
        for c in &self.conflicts {
            out.push_str(&format!(
                "conflict: {} appears in both {} and {}\n",
                c.digit, c.first, c.second
            ));
        }
        match (&self.solution, &self.repair) {
            (Some(_), _) => out.push_str("the read grid has exactly one solution\n"),
            (None, Some(r)) => {
                let why = if self.conflicts.is_empty() {
                    if self.solution_count == 0 {
                        "has no solution"
                    } else {
                        "has several solutions"
                    }
                } else {
                    "has conflicts"
                };
                out.push_str(&format!(
                    "the read grid {why}; suggested repair (not applied to the read grid):\n"
                ));
                for c in &r.changes {
                    let show = |v: u8| {
                        if v == 0 {
                            "empty".to_string()
                        } else {
                            v.to_string()
                        }
                    };
                    out.push_str(&format!(
                        "  {}: {} -> {} (p = {:.3})\n",
                        c.cell,
                        show(c.from),
                        show(c.to),
                        c.probability
                    ));
                }
            }
            (None, None) => {
                let why = match (self.conflicts.is_empty(), self.solution_count) {
                    (false, _) => "has conflicts",
                    (true, 0) => "has no solution",
                    _ => "has several solutions",
                };
                out.push_str(&format!(
                    "the read grid {why} and no repair of up to {MAX_REPAIR_CHANGES} cells was found\n"
                ));
            }
        }
        if let Some(s) = self.best_solution() {
            out.push_str(if self.solution.is_some() {
                "solution:\n"
            } else {
                "solution of the repaired grid:\n"
            });
            out.push_str(&boxed_board(&s, |_| None));
        }
        out
    }
}

