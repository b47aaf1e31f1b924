//! The per-photo settling of the printed/handwritten split (`digits::symmetry`) on a real
//! photo it was never fitted on: a held-back wichtounet-v2 newspaper page (image1008, in
//! `models/train/holdout/wichtounet.txt`), all printed, where one empty cell reads as a
//! stray digit. The page's givens are symmetric under a half turn and the stray digit's
//! partner cell is empty, so it is not a given: the scan's givens are exactly the printed
//! digits of the labels, and nothing printed is called handwriting.

mod common;

use sudoku_lens::dataset::Dataset;
use sudoku_lens::scan::Scanner;
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
