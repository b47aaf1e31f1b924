//! The per-photo settling of the printed/handwritten split on real photos:
//!
//! - by symmetry (`digits::symmetry`), on a photo it was never fitted on: a held-back
//!   wichtounet-v2 newspaper page (image1008, in `models/train/holdout/wichtounet.txt`), all
//!   printed, where one empty cell reads as a stray digit. The page's givens are symmetric
//!   under a half turn and the stray digit's partner cell is empty, so it is not a given:
//!   the scan's givens are exactly the printed digits of the labels, and nothing printed is
//!   called handwriting;
//! - by the font (`digits::font`), on a finished page: a kubiesa-train photo (03_02; MIT,
//!   A. Kubiesa; read from ../shared; its printed givens' mask is
//!   `models/train/givens/03_02.txt`) with every empty cell written in by
//!   `synthetic::fill_photo` (as `synth fill --seed 4301` makes it), a neat hand in a dark
//!   pen. Ink and size alone took nearly every digit for print; the scan's givens are now
//!   exactly the page's printed ones.

mod common;

use sudoku_lens::dataset::{Dataset, givens_file, read_givens};
use sudoku_lens::scan::Scanner;
use sudoku_lens::synthetic::rng::stable_hash;
use sudoku_lens::synthetic::{Rng, fill_photo};
use sudoku_lens::vision;

#[test]
fn a_symmetric_printed_page_keeps_exactly_its_printed_givens() {
    let set = Dataset::open(common::shared_dataset("wichtounet-v2-train")).expect("set opens");
    let photo = set
        .photos
        .iter()
        .find(|p| p.name == "image1008")
        .expect("image1008 is in wichtounet-v2-train");
    let labels = set.labels(photo).unwrap().expect("labelled");
    let mut scanner = Scanner::with_default_model().unwrap();
    let scan = scanner
        .scan(&vision::load_image(&photo.image_path).unwrap())
        .unwrap();
    let w = scan.written();
    assert!(w.kinds_known, "print not told from handwriting");
    let printed: [u8; 81] = labels.map(|v| if (1..=9).contains(&v) { v } else { 0 });
    assert_eq!(w.givens, printed, "givens of image1008");
    // Whatever else is read as an entry is not a printed digit of the page.
    let stray: Vec<usize> = (0..81).filter(|&i| w.entries[i] != 0).collect();
    assert!(
        stray.iter().all(|&i| labels[i] == 0),
        "a printed digit was called handwriting: {stray:?}"
    );
}

#[test]
fn a_finished_page_keeps_exactly_its_printed_givens() {
    let name = "03_02_honor_view_10_1";
    let (image, corners, labels) = common::kubiesa_train_page(name);
    let masks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/train/givens");
    let mask = read_givens(&givens_file(&masks, name).expect("a givens mask")).expect("mask");
    let mut rng = Rng::for_item(4301, stable_hash(name.as_bytes()));
    let filled = fill_photo(&image, corners, &labels, 1.0, &mut rng).expect("filled");
    assert!(
        filled.written >= 40,
        "a page far along: {} written",
        filled.written
    );
    let page = common::through_jpeg(&filled.image, 92);
    let mut scanner = Scanner::with_default_model().unwrap();
    let scan = scanner.scan(&page).unwrap();
    let w = scan.written();
    assert!(w.kinds_known, "print not told from handwriting");
    let printed: [u8; 81] = std::array::from_fn(|i| if mask[i] { labels[i] } else { 0 });
    assert_eq!(w.givens, printed, "givens of the finished page");
    let entries = (0..81).filter(|&i| w.entries[i] != 0).count();
    assert!(
        entries + printed.iter().filter(|&&v| v != 0).count() >= 75,
        "{entries} entries read"
    );
}
