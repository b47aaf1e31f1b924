//! Shared helpers of the integration tests: where the shared data is (`data`, failing loudly
//! when it is missing: a test never passes silently without its data), and the labelled
//! photos of a set. Included with `mod common;` by the tests that use it.

#![allow(dead_code)] // each test binary uses its own part

#[cfg(feature = "gui")]
pub mod app;
pub mod data;

use std::path::PathBuf;

#[allow(unused_imports)] // each test binary uses its own part
pub use data::{shared_dataset, shared_datasets, shared_puzzle_path, shared_puzzles};
use sudoku_lens::dataset::{Dataset, NameList};
use sudoku_lens::synthetic::clip::PuzzleSource;
use sudoku_lens::vision::load_image;

/// Every labelled photo with corners of the shared set `name` (image, corners, labels; also
/// the clip simulator's sources).
pub fn puzzle_sources(name: &str) -> Vec<PuzzleSource> {
    let set = Dataset::open(shared_dataset(name)).expect("the data set opens");
    set.photos
        .iter()
        .filter_map(|p| {
            Some(PuzzleSource {
                name: p.name.clone(),
                image_path: p.image_path.clone(),
                corners: p.corners_in_image?,
                labels: set.labels(p).expect("labels read")?,
            })
        })
        .collect()
}

/// The held-back list `list` (a file under `models/train/holdout/`) and its path.
pub fn held_back_list(list: &str) -> (PathBuf, NameList) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models/train/holdout")
        .join(list);
    let names = NameList::read(&path).expect("the held-back list reads");
    (path, names)
}

/// The photos of the shared set `name` that the held-back list `list` (a file under
/// `models/train/holdout/`) names, as clip sources: photos never trained on.
pub fn held_back_sources(name: &str, list: &str) -> Vec<PuzzleSource> {
    let (path, names) = held_back_list(list);
    let sources: Vec<PuzzleSource> = puzzle_sources(name)
        .into_iter()
        .filter(|p| names.names.iter().any(|(_, n)| *n == p.name))
        .collect();
    assert!(
        !sources.is_empty(),
        "no photo of {name} is on {}",
        path.display()
    );
    sources
}

/// The photos of the shared set `name` that the held-back list `list` does not name: its
/// training part.
pub fn training_sources(name: &str, list: &str) -> Vec<PuzzleSource> {
    let (_, names) = held_back_list(list);
    puzzle_sources(name)
        .into_iter()
        .filter(|p| !names.names.iter().any(|(_, n)| *n == p.name))
        .collect()
}

/// The kubiesa-train photo `name` (MIT, A. Kubiesa): its pixels, labelled corners and labels.
pub fn kubiesa_train_page(
    name: &str,
) -> (image::RgbImage, [sudoku_lens::vision::Point; 4], [u8; 81]) {
    let (image, corners, labels) = named_photo("kubiesa-train", name);
    (
        image.to_rgb8(),
        corners.expect("kubiesa-train has corners"),
        labels,
    )
}

/// The photo `name` of the shared set `set` as decoded, its corners (if the set has them) and
/// its labels; panics naming what is missing.
pub fn named_photo(
    set: &str,
    name: &str,
) -> (
    image::DynamicImage,
    Option<[sudoku_lens::vision::Point; 4]>,
    [u8; 81],
) {
    let data = Dataset::open(shared_dataset(set)).expect("the set opens");
    let photo = data
        .photos
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{name} is not a photo of {set}"));
    let labels = data
        .labels(photo)
        .expect("labels")
        .unwrap_or_else(|| panic!("{name} of {set} has no labels"));
    let image = load_image(&photo.image_path).expect("photo");
    (image, photo.corners_in_image, labels)
}

/// Asserts that each of `cells` of `scan` (cells the puzzle or its solution decided) reads
/// its label and stays flagged uncertain; `name` names the photo in the message.
pub fn assert_decided_right_and_flagged(
    name: &str,
    scan: &sudoku_lens::scan::Scan,
    labels: &[u8; 81],
    cells: &[sudoku_lens::sudoku::Cell],
) {
    for cell in cells {
        let i = cell.index();
        assert_eq!(scan.values[i], labels[i], "{name} {cell}: decided wrong");
        assert!(
            scan.readings[i].is_uncertain(),
            "{name} {cell}: a decided cell must stay flagged"
        );
    }
}

/// A slightly degraded 640×480 webcam frame of `source` as `synth webcam --size 640x480` makes
/// it from `rng`, through the camera's MJPEG compression as the generator stores it, with the
/// grid's corners in the frame.
pub fn vga_webcam_jpeg(
    source: &image::RgbImage,
    corners: [sudoku_lens::vision::Point; 4],
    rng: &mut sudoku_lens::synthetic::Rng,
) -> (image::DynamicImage, [sudoku_lens::vision::Point; 4]) {
    use sudoku_lens::synthetic::{Degradation, webcam_frame};
    let frame =
        webcam_frame(source, corners, rng, (640, 480), Degradation::Slight).expect("a frame");
    (
        through_jpeg(&frame.image, frame.jpeg_quality),
        frame.corners_in_image,
    )
}

/// `image` as a generator stores it (JPEG of `quality`) and a loader reads it back.
pub fn through_jpeg(image: &image::RgbImage, quality: u8) -> image::DynamicImage {
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, quality)
        .encode_image(image)
        .expect("encode");
    image::load_from_memory(&jpeg).expect("decode")
}
