//! Measures the ink colour of every labelled digit cell of a photo set along the lattice the
//! detector finds, for `models/train/make_givens.py` (rozet-handwritten: black print, blue
//! pen). Prints one tab-separated line per digit cell: photo, cell (`r1c2`), label, blue
//! excess (B − R of the cell's darkest pixels beyond what a black ink of that darkness shows
//! on that paper), contrast (paper luma − ink luma), the cell's corners in the image
//! (`x,y` TL TR BR BL, for looking at it), and the ink's and the paper's mean colour
//! (`r,g,b`; a red or magenta pen shows no blue excess but its own hue). A photo whose grid
//! is not found, or whose found grid reads fewer than 60 % of its labelled digits (the
//! lattice is off the grid), is listed as `#skip NAME why`.
//!
//! ```sh
//! cargo run --release --no-default-features --example ink_colour -- ../shared/datasets/rozet-handwritten > /tmp/ink.tsv
//! ```

use std::path::PathBuf;

use anyhow::Context as _;
use image::RgbImage;
use sudoku_lens::dataset::Dataset;
use sudoku_lens::scan::Scanner;
use sudoku_lens::vision::{self, Homography, Lattice, Point};

/// Paper and ink colour of one cell: the mean of its lightest 40 % and darkest 8 % pixels
/// on a 24×24 sampling of the middle 70 % of the cell.
fn cell_colours(image: &RgbImage, quad: [Point; 4]) -> Option<([f32; 3], [f32; 3])> {
    let h = Homography::from_unit_square(quad)?;
    let mut px: Vec<[f32; 3]> = Vec::with_capacity(576);
    for j in 0..24 {
        for i in 0..24 {
            let u = 0.15 + 0.7 * (i as f32 + 0.5) / 24.0;
            let v = 0.15 + 0.7 * (j as f32 + 0.5) / 24.0;
            let p = h.apply(Point::new(u, v));
            let (x, y) = (p.x.round(), p.y.round());
            if x < 0.0 || y < 0.0 || x >= image.width() as f32 || y >= image.height() as f32 {
                continue;
            }
            let c = image.get_pixel(x as u32, y as u32).0;
            px.push([c[0] as f32, c[1] as f32, c[2] as f32]);
        }
    }
    if px.len() < 100 {
        return None;
    }
    let luma = |c: &[f32; 3]| 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
    px.sort_by(|a, b| luma(a).total_cmp(&luma(b)));
    let mean = |s: &[[f32; 3]]| {
        let n = s.len().max(1) as f32;
        let mut m = [0.0; 3];
        for c in s {
            for k in 0..3 {
                m[k] += c[k] / n;
            }
        }
        m
    };
    let n = px.len();
    Some((mean(&px[n * 60 / 100..]), mean(&px[..n * 8 / 100])))
}

fn main() -> anyhow::Result<()> {
    let dir: PathBuf = std::env::args_os()
        .nth(1)
        .context("usage: ink_colour DATASET_DIR")?
        .into();
    let ds = Dataset::open(&dir)?;
    let mut scanner = Scanner::with_default_model()?;
    println!("photo\tcell\tlabel\tblue_excess\tcontrast\tquad\tink_rgb\tpaper_rgb");
    for photo in &ds.photos {
        let Some(labels) = ds.labels(photo)? else {
            continue;
        };
        let image = vision::load_image(&photo.image_path)?;
        let gray = vision::to_gray(&image);
        let Ok(detection) = vision::detect_gray(&gray) else {
            println!("#skip {} no grid", photo.name);
            continue;
        };
        let Ok(scan) = scanner.scan_detection(&gray, detection) else {
            println!("#skip {} not read", photo.name);
            continue;
        };
        let digits: Vec<usize> = (0..81).filter(|&i| (1..=9).contains(&labels[i])).collect();
        let agree = digits
            .iter()
            .filter(|&&i| scan.values[i] == labels[i])
            .count();
        if digits.is_empty() || (agree as f32) < 0.6 * digits.len() as f32 {
            println!(
                "#skip {} {agree} of {} digits read",
                photo.name,
                digits.len()
            );
            continue;
        }
        let rgb = image.to_rgb8();
        let lattice = Lattice {
            points_in_image: scan.detection.lattice_in_image,
        };
        for &i in &digits {
            let quad = lattice.cell_quad(i / 9, i % 9);
            let Some((paper, ink)) = cell_colours(&rgb, quad) else {
                continue;
            };
            let corners: Vec<String> = quad
                .iter()
                .map(|p| format!("{:.0},{:.0}", p.x, p.y))
                .collect();
            let luma = |c: [f32; 3]| 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
            let t = luma(ink) / luma(paper).max(1.0);
            let excess = (ink[2] - ink[0]) - t * (paper[2] - paper[0]);
            let rgb = |c: [f32; 3]| format!("{:.0},{:.0},{:.0}", c[0], c[1], c[2]);
            println!(
                "{}\tr{}c{}\t{}\t{excess:.1}\t{:.1}\t{}\t{}\t{}",
                photo.name,
                i / 9 + 1,
                i % 9 + 1,
                labels[i],
                luma(paper) - luma(ink),
                corners.join(" "),
                rgb(ink),
                rgb(paper)
            );
        }
    }
    Ok(())
}
