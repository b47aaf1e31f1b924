//! Dumps the ink measurements (`vision::ink`) of every labelled digit cell of a photo set with
//! printed-givens masks, for fitting `digits::style` (`models/train/fit_style.py`). One
//! tab-separated line per digit cell of a photo whose grid is found: photo, cell index, label,
//! digit read, its confidence, printed (1/0 from the mask), then the raw measurements (paper
//! RGB, ink RGB, glyph box l/t/r/b, ink share, stroke; the grid lines' ink and paper RGB).
//!
//! ```sh
//! cargo run --release --no-default-features --example writing_features -- \
//!     DATASET_DIR GIVENS_DIR [EXCLUDE_LIST] > cells.tsv
//! ```

use std::path::PathBuf;

use anyhow::Context as _;
use sudoku_lens::dataset::{Dataset, NameList};
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
        let Some(lines) = measured.lines else {
            continue;
        };
        for i in 0..81 {
            if !(1..=9).contains(&labels[i]) {
                continue;
            }
            let r = &scan.readings[i];
            let f = |v: &[f32]| v.iter().map(|x| format!("{x:.4}")).collect::<Vec<_>>().join("\t");
            let cell = match measured.cells[i] {
                Some(c) => {
                    let mut v = Vec::new();
                    v.extend(c.paper);
                    v.extend(c.ink);
                    v.extend(c.bbox);
                    v.push(c.ink_share);
                    v.push(c.stroke);
                    f(&v)
                }
                None => f(&[f32::NAN; 12]),
            };
            let mut line = Vec::new();
            line.extend(lines.ink);
            line.extend(lines.paper);
            println!(
                "{}\t{i}\t{}\t{}\t{:.4}\t{}\t{cell}\t{}",
                photo.name,
                labels[i],
                r.class.value(),
                r.confidence,
                u8::from(mask[i]),
                f(&line)
            );
        }
    }
    Ok(())
}
