use std::time::Instant;
fn main() {
    let dir = std::env::args().nth(1).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jpg"))
        .collect();
    files.sort();
    let frames: Vec<image::RgbImage> = files
        .iter()
        .take(20)
        .map(|p| image::open(p).unwrap().to_rgb8())
        .collect();
    let t = Instant::now();
    let mut grays = vec![];
    for f in &frames {
        grays.push(sudoku_lens::vision::rgb_to_gray(f));
    }
    println!(
        "rgb_to_gray {:.2} ms",
        t.elapsed().as_secs_f64() * 1e3 / 20.0
    );
    let t = Instant::now();
    let mut n = 0;
    for g in &grays {
        if sudoku_lens::vision::detect::prefers_inverted(g) {
            n += 1;
        }
    }
    println!(
        "prefers_inverted {:.2} ms ({n})",
        t.elapsed().as_secs_f64() * 1e3 / 20.0
    );
    let t = Instant::now();
    for f in &frames {
        std::hint::black_box(sudoku_lens::live::Thumbnail::of(f));
    }
    println!("thumb {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / 20.0);
}
