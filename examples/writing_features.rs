//! Dumps the printed/handwritten inputs (`digits::style::cell_features`) of every labelled
//! digit cell of a photo set with printed-givens masks, for fitting the network of
//! `digits::style` (`models/train/fit_style.py`). One tab-separated line per digit cell of a
//! photo whose grid is found: photo, cell index, label, digit read, printed (1/0 from the
//! mask), then the features (empty when the cell's ink could not be measured).
//!
//! ```sh
//! cargo run --release --no-default-features --example writing_features -- \
//!     DATASET_DIR GIVENS_DIR [EXCLUDE_LIST] > cells.tsv
//! ```

use std::path::PathBuf;

use anyhow::Context as _;
use sudoku_lens::dataset::{Dataset, NameList};
use sudoku_lens::digits::style::cell_features;
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
        let measured = ink::measure_grid(&image.to_rgb8(), &scan.detection.lattice());
        let features = cell_features(&measured, &scan.readings);
        for i in 0..81 {
            if !(1..=9).contains(&labels[i]) || scan.readings[i].class.digit().is_none() {
                continue;
            }
            let f = features[i]
                .map(|f| f.iter().map(|x| format!("{x:.5}")).collect::<Vec<_>>().join("\t"))
                .unwrap_or_default();
            println!(
                "{}\t{i}\t{}\t{}\t{}\t{f}",
                photo.name,
                labels[i],
                scan.readings[i].class.value(),
                u8::from(mask[i]),
            );
        }
    }
    Ok(())
}
