//! The default [`Pipeline`]: the real recognizer behind the app's seam.
//!
//! Photo: [`crate::scan::Scanner`] (detect → rectify → normalize → bundled classifier → repair
//! suggestion). Video: a [`LiveReader`] with the bundled model per camera session (tracking,
//! voting, lock and solve are the `live` module's).

use std::sync::{Arc, Mutex};

use image::RgbImage;

use crate::digits::CellReading;
use crate::live::{LiveAnalyzer, LiveReader};
use crate::scan::Scanner;
use crate::session::LoadFailure;

use super::pipeline::{PhotoScan, PhotoScanner, PhotoWriting, Pipeline, Reading};

/// The bundled recognizer.
pub fn default_pipeline() -> Pipeline {
    Pipeline {
        photo: Arc::new(BundledPhotoScanner {
            scanner: Mutex::new(None),
        }),
        live: Arc::new(|| {
            LiveReader::with_default_model()
                .map(|reader| Box::new(reader) as Box<dyn LiveAnalyzer>)
                .map_err(|e| e.to_string())
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

/// Photos: one [`Scanner`], loaded on first use (on the photo thread).
struct BundledPhotoScanner {
    scanner: Mutex<Option<Scanner>>,
}

impl PhotoScanner for BundledPhotoScanner {
    fn scan(&self, image: &RgbImage) -> Result<PhotoScan, LoadFailure> {
        let gray = crate::vision::rgb_to_gray(image);
        let mut guard = self.scanner.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            *guard = Some(
                Scanner::with_default_model().map_err(|e| LoadFailure::Reader(e.to_string()))?,
            );
        }
        let Some(scanner) = guard.as_mut() else {
            return Err(LoadFailure::Reader("the digit model is unavailable".into()));
        };
        let mut scan = scanner.scan_with_colour(&gray, Some(image))?;
        drop(guard);
        scan.tell_writing(image);
        let written = scan.written();
        // With handwritten entries the repair of all digits as givens does not apply: the
        // entries are checked against the printed digits instead.
        let has_entries = written.entries.iter().any(|&v| v != 0);
        let writing = written.kinds_known.then(|| PhotoWriting {
            entries: written.entries.map(|v| v != 0),
            pencil: written.pencil,
            model_read: scan.entries_as_model_read(),
        });
        Ok(PhotoScan {
            writing,
            lattice: Some(scan.detection.lattice()),
            reading: Some(reading_of(&scan.values, &scan.readings)),
            repair: scan
                .repair
                .filter(|r| !r.changes.is_empty() && !has_entries),
        })
    }
}
