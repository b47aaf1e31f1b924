//! Training-data export: labelled, normalized cells from the photo data sets (read by
//! [`crate::dataset`]; cut with the ground-truth corners, with jittered corners and with the
//! detector's own lattice) and from synthetic renderings ([`super::synth`]).
//!
//! Every cell goes through `vision::rectify::cell_inputs`, exactly like
//! inference, so the model is trained on what it will see. Output is a folder with
//! `cells.u8` (N × 1024 bytes, ink × 255), `labels.u8` (N bytes, 0–10) and `meta.csv`
//! (one row per cell: index, label, source). It does not train anything.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use image::GrayImage;

use super::synth::render_cell;
use super::{Classifier, NUM_CLASSES};
use crate::dataset::{Dataset, DatasetError};
use crate::synthetic::{FontBank, Rng};
use crate::vision::rectify::cell_inputs;
use crate::vision::{CELL_INPUT_LEN, Lattice, Point, normalize_cell};

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// File system trouble.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The photo set does not read (a malformed corners.csv or label file).
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    /// A cell to write is malformed.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |source| ExportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes normalized labelled cells to a dataset folder.
pub struct CellWriter {
    dir: PathBuf,
    cells: BufWriter<File>,
    labels: BufWriter<File>,
    meta: BufWriter<File>,
    count: usize,
    per_class: [usize; NUM_CLASSES],
}

impl CellWriter {
    /// Creates (or truncates) `cells.u8`, `labels.u8` and `meta.csv` in `dir`.
    pub fn create(dir: &Path) -> Result<CellWriter, ExportError> {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        let open = |name: &str| -> Result<BufWriter<File>, ExportError> {
            let p = dir.join(name);
            Ok(BufWriter::new(File::create(&p).map_err(io_err(&p))?))
        };
        let mut meta = open("meta.csv")?;
        writeln!(meta, "index,label,source").map_err(io_err(dir))?;
        Ok(CellWriter {
            cells: open("cells.u8")?,
            labels: open("labels.u8")?,
            meta,
            dir: dir.to_path_buf(),
            count: 0,
            per_class: [0; NUM_CLASSES],
        })
    }

    /// Appends one normalized cell (`CELL_INPUT_LEN` values in 0..1) with its label.
    pub fn push(&mut self, normalized: &[f32], label: u8, source: &str) -> Result<(), ExportError> {
        if normalized.len() != CELL_INPUT_LEN || label as usize >= NUM_CLASSES {
            return Err(ExportError::Format {
                path: self.dir.clone(),
                message: format!("bad cell ({} values, label {label})", normalized.len()),
            });
        }
        let bytes: Vec<u8> = normalized
            .iter()
            .map(|&v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
            .collect();
        let dir = self.dir.clone();
        self.cells.write_all(&bytes).map_err(io_err(&dir))?;
        self.labels.write_all(&[label]).map_err(io_err(&dir))?;
        writeln!(self.meta, "{},{label},{source}", self.count).map_err(io_err(&dir))?;
        self.count += 1;
        self.per_class[label as usize] += 1;
        Ok(())
    }

    /// Cells written so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Cells written per class.
    pub fn per_class(&self) -> [usize; NUM_CLASSES] {
        self.per_class
    }

    /// Flushes all files.
    pub fn finish(mut self) -> Result<usize, ExportError> {
        let dir = self.dir.clone();
        self.cells.flush().map_err(io_err(&dir))?;
        self.labels.flush().map_err(io_err(&dir))?;
        self.meta.flush().map_err(io_err(&dir))?;
        Ok(self.count)
    }
}

/// Options for exporting real cells from photos.
#[derive(Clone, Debug)]
pub struct PhotoExportOptions {
    /// Rectified cell side in pixels (use the scan pipeline's value).
    pub cell_size_px: u32,
    /// Extra copies with every ground-truth corner moved at random by up to this fraction of
    /// the grid side (detector jitter).
    pub jitter_fraction: f32,
    /// How many jittered copies per photo.
    pub jitter_copies: usize,
    /// Also cut the cells with the detector's own lattice when it agrees with the ground truth.
    pub use_detector: bool,
    /// Largest distance of a detector lattice point from the true one, as a fraction of the
    /// grid side, for the detector's cut to be used (farther means another grid or a badly
    /// bent one, whose cells would carry wrong labels).
    pub detector_tolerance: f32,
    /// Oversampling of non-empty cells (each digit / pencil cell is written this many times
    /// per cut; empties once) — balances the classes.
    pub ink_repeats: usize,
    /// Photo names (file stems) left out: a held-back evaluation split.
    pub exclude: HashSet<String>,
}

/// Share of a photo's labelled digit cells that the current model must read as labelled for
/// the detector's lattice to stand in for missing ground-truth corners. A lattice shifted by
/// a cell or on another grid reads other digits there, so it cannot pass; a right lattice
/// passes even where the model is still weak (a new handwriting style).
pub const VERIFY_DIGIT_SHARE: f32 = 0.6;

/// Counts from one export step.
#[derive(Clone, Debug, Default)]
pub struct PhotoExportStats {
    /// Labelled photos read.
    pub photos: usize,
    /// Photos without a label file (nothing to export).
    pub no_labels: usize,
    /// Photos without ground-truth corners.
    pub no_corners: usize,
    /// … of which the detector's lattice, checked by the model's reading, was used.
    pub verified_without_corners: usize,
    /// Photos left out by [`PhotoExportOptions::exclude`].
    pub excluded: usize,
    /// Photos where the detector's lattice was used too.
    pub detector_used: usize,
    /// Cells written.
    pub cells: usize,
}

/// The detector's lattice of a photo without ground-truth corners, when `classifier` reads
/// at least [`VERIFY_DIGIT_SHARE`] of the labelled digit cells (and at least ten) under it as
/// labelled; `None` otherwise.
fn verified_detection(
    image: &GrayImage,
    labels: &[u8; 81],
    classifier: &mut Classifier,
    cell_size_px: u32,
) -> Option<Lattice> {
    let lattice = crate::vision::detect_gray(image).ok()?.lattice();
    let cells = cell_inputs(image, &lattice, cell_size_px);
    let readings = classifier.classify(&cells).ok()?;
    let digits: Vec<usize> = (0..81).filter(|&i| (1..=9).contains(&labels[i])).collect();
    let agree = digits
        .iter()
        .filter(|&&i| readings[i].class.value() == labels[i])
        .count();
    (digits.len() >= 10 && agree as f32 >= VERIFY_DIGIT_SHARE * digits.len() as f32)
        .then_some(lattice)
}

/// Exports the real cells of every photo in `set_dir`, tagging rows with `set_name`. Photos
/// without ground-truth corners are cut along the detector's lattice when `verifier` is given
/// and confirms it (see [`VERIFY_DIGIT_SHARE`]), and skipped otherwise.
pub fn export_photo_set(
    writer: &mut CellWriter,
    set_dir: &Path,
    set_name: &str,
    options: &PhotoExportOptions,
    rng: &mut Rng,
    mut verifier: Option<&mut Classifier>,
) -> Result<PhotoExportStats, ExportError> {
    let set = Dataset::open(set_dir)?;
    let mut stats = PhotoExportStats::default();
    for photo in &set.photos {
        let Some(labels) = set.labels(photo)? else {
            stats.no_labels += 1;
            continue;
        };
        stats.photos += 1;
        if options.exclude.contains(&photo.name) {
            stats.excluded += 1;
            continue;
        }
        let image = match crate::vision::load_image(&photo.image_path) {
            Ok(i) => i.to_luma8(),
            Err(e) => {
                tracing::warn!("skipping {}: {e}", photo.image_path.display());
                continue;
            }
        };
        let (corners, checked) = match photo.corners_in_image {
            Some(c) => (c, None),
            None => {
                stats.no_corners += 1;
                let found = verifier.as_deref_mut().and_then(|classifier| {
                    verified_detection(&image, &labels, classifier, options.cell_size_px)
                });
                let Some(lattice) = found else { continue };
                stats.verified_without_corners += 1;
                (lattice.corners(), Some(lattice))
            }
        };
        let truth = checked.unwrap_or_else(|| Lattice::from_corners(corners));
        let mut lattices = vec![(if checked.is_some() { "detector" } else { "gt" }, truth)];
        let side = truth.mean_side();
        for _ in 0..options.jitter_copies {
            let moved = corners.map(|p| {
                Point::new(
                    p.x + rng.range(-1.0, 1.0) * options.jitter_fraction * side,
                    p.y + rng.range(-1.0, 1.0) * options.jitter_fraction * side,
                )
            });
            lattices.push(("jitter", Lattice::from_corners(moved)));
        }
        if options.use_detector
            && checked.is_none()
            && let Ok(det) = crate::vision::detect_gray(&image)
        {
            let lat = det.lattice();
            // Only a detection that found this grid (lattice points near the true ones) is a
            // faithful cut; others would teach wrong labels.
            if lat.max_distance(&truth) < options.detector_tolerance * side {
                lattices.push(("detector", lat));
                stats.detector_used += 1;
            }
        }
        for (kind, lattice) in &lattices {
            let cells = cell_inputs(&image, lattice, options.cell_size_px);
            for (i, cell) in cells.iter().enumerate() {
                let label = labels[i];
                let repeats = if label == 0 {
                    1
                } else {
                    options.ink_repeats.max(1)
                };
                for _ in 0..repeats {
                    writer.push(
                        cell,
                        label,
                        &format!(
                            "{set_name}/{}/{kind}/r{}c{}",
                            photo.name,
                            i / 9 + 1,
                            i % 9 + 1
                        ),
                    )?;
                    stats.cells += 1;
                }
            }
        }
    }
    Ok(stats)
}

/// Writes `per_class` synthetic cells of each class 0–10.
pub fn export_synthetic(
    writer: &mut CellWriter,
    bank: &FontBank,
    per_class: usize,
    cell_size_px: u32,
    rng: &mut Rng,
) -> Result<usize, ExportError> {
    let mut n = 0;
    for i in 0..per_class {
        for class in 0..NUM_CLASSES as u8 {
            let crop = render_cell(bank, class, rng, cell_size_px);
            writer.push(&normalize_cell(&crop), class, &format!("synthetic/{i}"))?;
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writer_round_trips_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = CellWriter::create(dir.path()).unwrap();
        let mut cell = vec![0.0f32; CELL_INPUT_LEN];
        cell[5] = 1.0;
        w.push(&cell, 7, "t").unwrap();
        assert!(w.push(&cell[..10], 7, "t").is_err());
        assert_eq!(w.finish().unwrap(), 1);
        let bytes = std::fs::read(dir.path().join("cells.u8")).unwrap();
        assert_eq!(bytes.len(), CELL_INPUT_LEN);
        assert_eq!(bytes[5], 255);
        assert_eq!(
            std::fs::read(dir.path().join("labels.u8")).unwrap(),
            vec![7]
        );
    }
}
