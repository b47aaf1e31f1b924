//! Per-frame cost of the live path (`live::LiveReader`) on committed camera clips, single
//! thread: the whole clip is played through a reader (frames decoded beforehand), and the
//! criterion figure is the time per clip; divide by its frame count for the mean per frame.
//! Before criterion runs, the per-frame median and 95th percentile over five plays are
//! printed, since the target is on those: p50 ≤ 5 ms and p95 ≤ 15 ms at 640×480 once the
//! reader tracks (most frames skip full detection and re-reading).
//!
//! Clips: `benches/clips/vga_single` (640×480) and `benches/clips/hd_single` (1280×720), made
//! by `sudoku-lens simulate` (see their README.md). Run:
//! `cargo bench --no-default-features --bench live`.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use image::RgbImage;
use sudoku_lens::clip::clip_frames;
use sudoku_lens::live::LiveReader;
use sudoku_lens::live::replay::percentile;

/// The decoded frames of a committed clip; panics with the path when it is missing, so a
/// benchmark never silently measures nothing.
fn clip(name: &str) -> Vec<RgbImage> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/clips")
        .join(name);
    let frames = clip_frames(&dir).unwrap_or_else(|e| panic!("clip {}: {e}", dir.display()));
    frames
        .iter()
        .map(|p| {
            sudoku_lens::vision::load_image(p)
                .unwrap_or_else(|e| panic!("frame {}: {e}", p.display()))
                .to_rgb8()
        })
        .collect()
}

/// Plays `frames` at 30 fps through `reader` (reset first), returning milliseconds per frame.
fn play(reader: &mut LiveReader, frames: &[RgbImage]) -> Vec<f64> {
    reader.reset();
    frames
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let start = Instant::now();
            black_box(reader.push_frame(f, i as u64 * 1000 / 30));
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect()
}

fn bench_live(c: &mut Criterion) {
    let mut reader = LiveReader::with_default_model().expect("the bundled model loads");
    let mut group = c.benchmark_group("live");
    group.sample_size(10);
    for name in ["vga_single", "hd_single"] {
        let frames = clip(name);
        let mut ms = Vec::new();
        for _ in 0..5 {
            ms.extend(play(&mut reader, &frames));
        }
        println!(
            "live/{name}: {} frames, per frame p50 {:.2} ms, p95 {:.2} ms, mean {:.2} ms",
            frames.len(),
            percentile(&ms, 0.5),
            percentile(&ms, 0.95),
            ms.iter().sum::<f64>() / ms.len().max(1) as f64
        );
        group.bench_function(name, |b| b.iter(|| play(&mut reader, &frames)));
    }
    group.finish();
}

criterion_group!(benches, bench_live);
criterion_main!(benches);
