//! Shared helpers of the integration tests: where the shared data sets are, failing loudly
//! when they are missing (a test never passes silently without its data), and the photos of
//! a set as clip-simulator sources. Included with `mod common;` by the tests that use it.

#![allow(dead_code)] // each test binary uses its own part

use std::path::PathBuf;

use sudoku_lens::dataset::{Dataset, NameList};
use sudoku_lens::synthetic::clip::PuzzleSource;

/// The shared photo set `name` (`../shared/datasets/NAME` beside the repository); panics
/// with the path when it is not there.
pub fn shared_dataset(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets")
        .join(name);
    assert!(
        root.join("images").is_dir(),
        "this test needs the {name} photo set at {} (see ../shared/datasets/README.md)",
        root.display()
    );
    root
}

/// Every labelled photo with corners of the shared set `name`, as clip sources.
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

/// The photos of the shared set `name` that the held-back list `list` (a file under
/// `models/train/holdout/`) names, as clip sources: photos never trained on.
pub fn held_back_sources(name: &str, list: &str) -> Vec<PuzzleSource> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models/train/holdout")
        .join(list);
    let names = NameList::read(&path).expect("the held-back list reads");
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
