//! The default [`Pipeline`]: the real recognizer behind the app's seam.
//!
//! Photo: [`crate::scan::Scanner`] (detect → rectify → normalize → bundled classifier → repair
//! suggestion). Video: per frame `vision::detect_gray` feeds a [`LatticeTracker`] (with a cell
//! ink fingerprint, so a different puzzle is noticed); while it is locked the scanner reads
//! the cells along the detected lattice.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use image::{DynamicImage, GrayImage, RgbImage};

use crate::digits::CellReading;
use crate::scan::Scanner;
use crate::vision::tracker::CellFingerprint;
use crate::vision::{self, LatticeTracker, TrackerEvent, TrackerState};

use super::pipeline::{
    FrameAnalysis, LiveAnalyzer, LockState, PhotoScan, PhotoScanner, Pipeline, Reading,
};

/// Cell side of the small rectified grid the fingerprint is taken from.
const FINGERPRINT_CELL_PX: u32 = 16;

/// The bundled recognizer.
pub fn default_pipeline() -> Pipeline {
    Pipeline {
        photo: Arc::new(BundledPhotoScanner {
            scanner: Mutex::new(None),
        }),
        live: Arc::new(|| {
            let scanner = Scanner::with_default_model().map_err(|e| e.to_string())?;
            Ok(Box::new(BundledLiveAnalyzer {
                scanner,
                tracker: LatticeTracker::default(),
                started: Instant::now(),
            }) as Box<dyn LiveAnalyzer>)
        }),
    }
}

fn reading_of(values: &[u8; 81], readings: &[CellReading]) -> Reading {
    let mut confidence = [0f32; 81];
    for ((c, r), &v) in confidence.iter_mut().zip(readings).zip(values) {
        *c = r.value_probability(v);
    }
    Reading {
        values: *values,
        confidence,
    }
}

fn values_of(readings: &[CellReading]) -> [u8; 81] {
    let mut values = [0u8; 81];
    for (v, r) in values.iter_mut().zip(readings) {
        *v = r.class.value();
    }
    values
}

fn to_gray(image: &RgbImage) -> GrayImage {
    DynamicImage::ImageRgb8(image.clone()).to_luma8()
}

/// Photos: one [`Scanner`], loaded on first use (on the photo thread).
struct BundledPhotoScanner {
    scanner: Mutex<Option<Scanner>>,
}

impl PhotoScanner for BundledPhotoScanner {
    fn scan(&self, image: &RgbImage) -> Result<PhotoScan, String> {
        let gray = to_gray(image);
        let mut guard = self.scanner.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            *guard = Some(Scanner::with_default_model().map_err(|e| e.to_string())?);
        }
        let Some(scanner) = guard.as_mut() else {
            return Err("the digit model is unavailable".into());
        };
        let scan = scanner.scan_gray(&gray).map_err(|e| e.to_string())?;
        drop(guard);
        Ok(PhotoScan {
            lattice: Some(scan.detection.lattice()),
            reading: Some(reading_of(&scan.values, &scan.readings)),
            repair: scan.repair.filter(|r| !r.changes.is_empty()),
        })
    }
}

/// Video: detection + [`LatticeTracker`] per frame, cells read while locked.
struct BundledLiveAnalyzer {
    scanner: Scanner,
    tracker: LatticeTracker,
    started: Instant,
}

impl LiveAnalyzer for BundledLiveAnalyzer {
    fn analyze(&mut self, image: &RgbImage) -> FrameAnalysis {
        let gray = to_gray(image);
        let detection = vision::detect_gray(&gray).ok();
        let fingerprint = detection.as_ref().map(|d| {
            let grid = vision::rectify::warp_grid(&gray, &d.lattice(), FINGERPRINT_CELL_PX);
            CellFingerprint::from_grid(&grid, FINGERPRINT_CELL_PX)
        });
        let t_ms = self.started.elapsed().as_millis() as u64;
        let update = self.tracker.update(detection.as_ref(), fingerprint, t_ms);
        let lock = match update.state {
            TrackerState::Searching => LockState::Searching,
            TrackerState::Tracking => LockState::Tracking,
            TrackerState::Locked => LockState::Locked,
            TrackerState::Lost => LockState::Lost,
        };
        let reading = match (&detection, lock) {
            (Some(d), LockState::Locked) => self
                .scanner
                .read_cells(&gray, &d.lattice())
                .ok()
                .map(|r| reading_of(&values_of(&r), &r)),
            _ => None,
        };
        FrameAnalysis {
            lattice: update.lattice,
            lock,
            new_puzzle: update.event == TrackerEvent::NewPuzzle,
            reading,
        }
    }
}
