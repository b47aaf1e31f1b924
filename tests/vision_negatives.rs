//! Negative images: pictures that are not a Sudoku must give "no grid" (≥ 95 %) and never
//! panic. Every image is generated here from a seeded generator, so the set is reproducible.

use image::{GrayImage, Luma};
use sudoku_lens::synthetic::Rng;
use sudoku_lens::vision::detect_gray;

fn rect(img: &mut GrayImage, x0: f32, y0: f32, x1: f32, y1: f32, v: u8) {
    let (w, h) = img.dimensions();
    let (xa, xb) = (x0.max(0.0) as u32, (x1.max(0.0) as u32).min(w));
    let (ya, yb) = (y0.max(0.0) as u32, (y1.max(0.0) as u32).min(h));
    for y in ya..yb {
        for x in xa..xb {
            img.put_pixel(x, y, Luma([v]));
        }
    }
}

fn paper(rng: &mut Rng) -> GrayImage {
    let base = rng.range(170.0, 235.0) as u8;
    let mut img = GrayImage::from_pixel(640, 480, Luma([base]));
    // A soft shadow band.
    let x0 = rng.range(0.0, 600.0);
    for y in 0..480 {
        for x in (x0 as u32)..640 {
            let p = img.get_pixel(x, y).0[0];
            img.put_pixel(x, y, Luma([p.saturating_sub(40)]));
        }
    }
    img
}

/// An `n × n` line grid (thick outer border), optionally with black squares (crossword).
fn line_grid(rng: &mut Rng, n: u32, black_squares: bool) -> GrayImage {
    let mut img = paper(rng);
    let side = rng.range(250.0, 420.0);
    let (x0, y0) = (
        rng.range(10.0, 630.0 - side),
        rng.range(10.0, 470.0 - side.min(460.0)),
    );
    let cell = side / n as f32;
    let ink = rng.range(10.0, 70.0) as u8;
    for i in 0..=n {
        let t = if i == 0 || i == n { 4.0 } else { 1.5 };
        let p = i as f32 * cell;
        rect(
            &mut img,
            x0 + p - t / 2.0,
            y0,
            x0 + p + t / 2.0,
            y0 + side,
            ink,
        );
        rect(
            &mut img,
            x0,
            y0 + p - t / 2.0,
            x0 + side,
            y0 + p + t / 2.0,
            ink,
        );
    }
    if black_squares {
        for r in 0..n {
            for c in 0..n {
                if rng.next_u64().is_multiple_of(5) {
                    let (cx, cy) = (x0 + c as f32 * cell, y0 + r as f32 * cell);
                    rect(&mut img, cx, cy, cx + cell, cy + cell, ink);
                }
            }
        }
    }
    img
}

fn chessboard(rng: &mut Rng) -> GrayImage {
    let mut img = paper(rng);
    let side = rng.range(240.0, 440.0);
    let cell = side / 8.0;
    let (x0, y0) = (
        rng.range(0.0, 640.0 - side),
        rng.range(0.0, (480.0 - side).max(1.0)),
    );
    for r in 0..8 {
        for c in 0..8 {
            if (r + c) % 2 == 0 {
                let (cx, cy) = (x0 + c as f32 * cell, y0 + r as f32 * cell);
                rect(&mut img, cx, cy, cx + cell, cy + cell, 30);
            }
        }
    }
    img
}

fn text_page(rng: &mut Rng) -> GrayImage {
    let mut img = paper(rng);
    let mut y = rng.range(5.0, 20.0);
    let line_h = rng.range(10.0, 22.0);
    while y < 470.0 {
        let mut x = rng.range(5.0, 20.0);
        while x < 620.0 {
            let word = rng.range(10.0, 60.0);
            // Letters: small dark blobs with gaps.
            let mut lx = x;
            while lx < x + word {
                let lw = rng.range(2.0, 6.0);
                rect(
                    &mut img,
                    lx,
                    y,
                    lx + lw,
                    y + line_h * rng.range(0.5, 0.8),
                    25,
                );
                lx += lw + 2.0;
            }
            x += word + rng.range(5.0, 12.0);
        }
        y += line_h * 1.5;
    }
    img
}

fn noise(rng: &mut Rng) -> GrayImage {
    let mut img = GrayImage::new(640, 480);
    for p in img.pixels_mut() {
        p.0[0] = (rng.next_u64() % 256) as u8;
    }
    img
}

#[test]
fn non_sudoku_images_give_no_grid() {
    let mut rng = Rng::new(0x5EED);
    let mut total = 0;
    let mut false_grids = Vec::new();
    type Gen = fn(&mut Rng) -> GrayImage;
    let kinds: [(&str, Gen); 8] = [
        ("blank", paper),
        ("text", text_page),
        ("noise", noise),
        ("chessboard", chessboard),
        ("grid8", |r| line_grid(r, 8, false)),
        ("grid10", |r| line_grid(r, 10, false)),
        ("grid18", |r| line_grid(r, 18, false)),
        ("crossword15", |r| line_grid(r, 15, true)),
    ];
    for (name, make) in kinds {
        for i in 0..6 {
            let img = make(&mut rng);
            total += 1;
            if let Ok(d) = detect_gray(&img) {
                false_grids.push(format!("{name}#{i} (score {:.2})", d.score));
            }
        }
    }
    let rate = false_grids.len() as f32 / total as f32;
    eprintln!(
        "{} of {total} negatives gave a grid: {false_grids:?}",
        false_grids.len()
    );
    assert!(
        rate <= 0.05,
        "{} of {total} negatives gave a grid: {false_grids:?}",
        false_grids.len()
    );
}
