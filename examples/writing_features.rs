//! Dumps the printed/handwritten inputs (`digits::style::cell_features`) of every labelled
//! digit cell of a photo set with printed-givens masks, for fitting the network of
//! `digits::style` (`models/train/fit_style.py`). One tab-separated line per digit cell of a
//! photo whose grid is found: photo, cell index, label, digit read, printed (1/0 from the
//! mask), then the features (empty when the cell's ink could not be measured).
//!
//! With `THIN=1` in the environment every photo is dumped a second time (named `NAME#thin`)
//! with most of its printed digits taken away (read as empty; 17–24 kept, chosen by a seeded
//! generator): a puzzle far along, where the entries outnumber the givens, which the
//! training photos show rarely.
//!
//! ```sh
//! cargo run --release --no-default-features --example writing_features -- \
//!     DATASET_DIR GIVENS_DIR [EXCLUDE_LIST] > cells.tsv
//! ```

use std::path::PathBuf;

use anyhow::Context as _;
use sudoku_lens::dataset::{Dataset, NameList};
use sudoku_lens::digits::style::cell_features;
use sudoku_lens::digits::{CellReading, NUM_CLASSES};
use sudoku_lens::scan::Scanner;
use sudoku_lens::vision::{self, ink};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let usage = "usage: writing_features DATASET_DIR GIVENS_DIR [EXCLUDE_LIST]";
    let dir = args.next().context(usage)?;
    let givens = args.next().context(usage)?;
    let exclude = args.next().map(|p| NameList::read(&p)).transpose()?;
    let ds = Dataset::open(&dir)?
        .select(None, exclude.as_ref())?
        .with_givens_dir(&givens)?;
    let mut scanner = Scanner::with_default_model()?;
    for photo in &ds.photos {
        let (Some(labels), Some(mask)) = (ds.labels(photo)?, ds.givens(photo)?) else {
            continue;
        };
        let image = vision::load_image(&photo.image_path)?;
        let gray = vision::to_gray(&image);
        let Ok(detection) = vision::detect_gray(&gray) else {
            eprintln!("#skip {} no grid", photo.name);
            continue;
        };
        let Ok(scan) = scanner.scan_detection(&gray, detection) else {
            continue;
        };
        let measured = ink::measure_grid(&image.to_rgb8(), &scan.detection.lattice(), |_| true);
        dump(&photo.name, &measured, &scan.readings, &labels, &mask);
        if std::env::var_os("THIN").is_some() {
            let thin = thinned(&photo.name, &scan.readings, &mask);
            dump(
                &format!("{}#thin", photo.name),
                &measured,
                &thin,
                &labels,
                &mask,
            );
        }
    }
    Ok(())
}

/// The readings with all but 17–24 of the printed digit cells read as empty (seeded by the
/// photo's name).
fn thinned(name: &str, readings: &[CellReading], mask: &[bool; 81]) -> Vec<CellReading> {
    let mut state = name.bytes().fold(0x9E37_79B9_7F4A_7C15u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
    });
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let mut printed: Vec<usize> = (0..81)
        .filter(|&i| mask[i] && readings[i].class.digit().is_some())
        .collect();
    for k in (1..printed.len()).rev() {
        printed.swap(k, next() % (k + 1));
    }
    let keep = 17 + next() % 8;
    let mut out = readings.to_vec();
    for &i in printed.iter().skip(keep) {
        let mut p = [0.0f32; NUM_CLASSES];
        p[0] = 1.0;
        out[i] = CellReading::from_probabilities(p);
    }
    out
}

fn dump(
    name: &str,
    measured: &ink::GridInk,
    readings: &[CellReading],
    labels: &[u8; 81],
    mask: &[bool; 81],
) {
    let features = cell_features(measured, readings);
    for i in 0..81 {
        if !(1..=9).contains(&labels[i]) || readings[i].class.digit().is_none() {
            continue;
        }
        let f = features[i]
            .map(|f| {
                f.iter()
                    .map(|x| format!("{x:.5}"))
                    .collect::<Vec<_>>()
                    .join("\t")
            })
            .unwrap_or_default();
        println!(
            "{name}\t{i}\t{}\t{}\t{}\t{f}",
            labels[i],
            readings[i].class.value(),
            u8::from(mask[i]),
        );
    }
}
