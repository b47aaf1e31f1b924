//! Grid detection speed on real photos, single thread: `vision::detect` on decoded images
//! (grayscale conversion included, file decoding excluded).
//!
//! Targets: ≤ 10 ms median at 640×480 (wichtounet photos), ≤ 30 ms at 1600×1200 (kubiesa).
//! Run: `cargo bench --no-default-features --bench vision`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sudoku_lens::vision;

#[path = "../tests/common/data.rs"]
mod data;

fn photos(set: &str, names: &[&str]) -> Vec<image::DynamicImage> {
    let dir = data::shared_dataset(set).join("images");
    names
        .iter()
        .filter_map(|n| vision::load_image(dir.join(n)).ok())
        .collect()
}

fn bench_detect(c: &mut Criterion) {
    let small = photos(
        "wichtounet-v2-train",
        &[
            "image1.jpg",
            "image10.jpg",
            "image100.jpg",
            "image101.jpg",
            "image102.jpg",
        ],
    );
    let large = photos(
        "kubiesa-train",
        &[
            "02_17_honor_view_10_0.jpg",
            "02_17_honor_view_10_1.jpg",
            "02_17_iphone_14_0.jpg",
        ],
    );
    let mut group = c.benchmark_group("detect");
    for (label, set) in [("640x480", &small), ("1600x1200", &large)] {
        if set.is_empty() {
            continue;
        }
        let mut i = 0;
        group.bench_function(label, |b| {
            b.iter(|| {
                i = (i + 1) % set.len();
                black_box(vision::detect(black_box(&set[i])).is_ok())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_detect);
criterion_main!(benches);
