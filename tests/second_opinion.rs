//! The second opinion on doubtful cells (`digits::second_opinion`): the embedded second model
//! is the file in `models/`, and a webcam frame that the first model alone misreads is read
//! exactly with it.

mod common;

use std::path::Path;

use sudoku_lens::digits::Classifier;
use sudoku_lens::eval::score_scan;
use sudoku_lens::scan::Scanner;
use sudoku_lens::synthetic::Rng;
use sudoku_lens::synthetic::rng::stable_hash;

#[test]
fn second_model_file_equals_the_embedded_one() {
    let on_disk =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("models/digits-second.onnx"))
            .unwrap();
    assert_eq!(on_disk, sudoku_lens::digits::EMBEDDED_SECOND_MODEL);
    let pair = Classifier::new().unwrap();
    assert_eq!(pair.second_opinion_name(), Some("embedded second model"));
    assert_eq!(
        Classifier::embedded_first().unwrap().second_opinion_name(),
        None
    );
}

/// The kubiesa-train page 02_22_honor_view_10_0 (MIT, A. Kubiesa) as `synth webcam --seed 31
/// --size 640x480` makes it (the dev set `wc-kt-31` of models/README.md): a 640×480 frame
/// whose r2c6, a cell of pencil marks, the first model alone reads as a 2, doubtfully. With the
/// second model's reading it is no digit, and the board is read exactly.
#[test]
fn a_webcam_frame_the_first_model_misreads_is_read_exactly_with_the_second_opinion() {
    let name = "02_22_honor_view_10_0";
    let (source, corners, labels) = common::kubiesa_train_page(name);
    // As `synth webcam` seeds the frame: the set's seed, the photo's name, copy 0.
    let mut rng = Rng::for_item(31, stable_hash(name.as_bytes()));
    let (image, _) = common::vga_webcam_jpeg(&source, corners, &mut rng);

    let mut alone = Scanner::new(Classifier::embedded_first().unwrap());
    let scan = alone.scan(&image).expect("the grid is found");
    let score = score_scan(&scan, &labels);
    assert!(
        !score.exact,
        "the first model alone read it exactly: {score:?}"
    );
    let r2c6 = &scan.readings[9 + 5];
    assert_eq!(labels[9 + 5], 10, "r2c6 holds pencil marks");
    assert!(
        r2c6.class.value() != 0 && r2c6.confidence < 0.97,
        "r2c6 alone: {r2c6:?}"
    );

    let mut pair = Scanner::with_default_model().unwrap();
    let scan = pair.scan(&image).expect("the grid is found");
    assert!(
        score_scan(&scan, &labels).exact,
        "{:?}",
        scan.readings[9 + 5]
    );
}
