//! Digit-reader speed: one 81-cell batch through the embedded model on tract, and the whole
//! scan as `sudoku-lens scan` runs it on a decoded photo (gray and colour made from it →
//! detection → cells → readings → printed givens told from handwriting by their ink →
//! validation → solution) of a 640×480 and a 1600×1200 photo from the shared data sets
//! (skipped when they are absent), and of the 640×480 photo turned a quarter turn (the
//! orientation fallback: a second batch of the non-empty cells).
//!
//! `SUDOKU_LENS_BENCH_MODEL=path.onnx` times that model instead of the embedded one in the
//! batch bench (to compare candidate architectures under tract before committing one).

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use sudoku_lens::digits::{Backend, Classifier};
use sudoku_lens::scan::Scanner;
use sudoku_lens::vision::CELL_INPUT_LEN;

#[path = "../tests/common/data.rs"]
mod data;

fn batch(c: &mut Criterion) {
    let model = std::env::var_os("SUDOKU_LENS_BENCH_MODEL")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let mut classifier =
        Classifier::load(model.as_deref(), Backend::Tract).expect("digit model loads");
    eprintln!("batch81 model: {}", classifier.model_name());
    // Realistic input: a blank-ish cell and a stroke pattern, alternating.
    let cells: Vec<Vec<f32>> = (0..81)
        .map(|i| {
            (0..CELL_INPUT_LEN)
                .map(|j| {
                    if i % 2 == 0 && (j % 32) / 4 == 4 {
                        0.9
                    } else {
                        0.02
                    }
                })
                .collect()
        })
        .collect();
    // The peer in the same run: the first model alone (the cost without the second opinion).
    let mut first_alone = Classifier::load(model.as_deref(), Backend::Tract)
        .expect("digit model loads")
        .without_second_opinion();
    let doubtful = sudoku_lens::digits::second_look::doubtful_cells(
        &first_alone.classify(&cells).expect("runs"),
    )
    .len();
    eprintln!(
        "batch81 second opinion: {:?} ({doubtful} of 81 cells doubtful)",
        classifier.second_opinion_name()
    );
    c.bench_function("digits/batch81_tract_first_alone", |b| {
        b.iter(|| {
            first_alone
                .classify(std::hint::black_box(&cells))
                .expect("runs")
        })
    });
    c.bench_function("digits/batch81_tract", |b| {
        b.iter(|| {
            classifier
                .classify(std::hint::black_box(&cells))
                .expect("runs")
        })
    });
}

fn whole_scan(c: &mut Criterion) {
    let root = data::shared_datasets();
    if !root.is_dir() {
        eprintln!("skipped whole-scan benches: {} not found", root.display());
        return;
    }
    let mut scanner = Scanner::with_default_model().expect("embedded model loads");
    let photos = [
        (
            "scan/640x480",
            root.join("wichtounet-v2-train/images/image1.jpg"),
        ),
        (
            "scan/1600x1200",
            root.join("kubiesa-val/images/01_01_honor_view_10_0.jpg"),
        ),
    ];
    for (name, path) in photos {
        let Ok(image) = sudoku_lens::vision::load_image(&path) else {
            eprintln!("skipped {name}: cannot load {}", path.display());
            continue;
        };
        eprintln!(
            "{name}: {}×{} from {}",
            image.width(),
            image.height(),
            path.display()
        );
        c.bench_function(name, |b| {
            b.iter(|| {
                scanner
                    .scan(std::hint::black_box(&image))
                    .map(|s| s.best_solution())
            })
        });
        if name == "scan/640x480" {
            let turned = image.rotate90();
            c.bench_function("scan/640x480_turned90", |b| {
                b.iter(|| {
                    scanner
                        .scan(std::hint::black_box(&turned))
                        .map(|s| (s.quarter_turns, s.best_solution()))
                })
            });
        }
    }
}

criterion_group!(benches, batch, whole_scan);
criterion_main!(benches);
