//! Where the shared data lives, for the tests, the benches and the library's own unit tests
//! (the one home of that lookup; included with `#[path]` where `tests/common` is not a
//! module): `../shared` beside the repository, as in CI; `SUDOKU_LENS_DATASETS` and
//! `SUDOKU_LENS_PUZZLES` point elsewhere. A test that needs the data fails with the path when
//! it is missing — it never passes silently.

#![allow(dead_code)] // each crate that includes this file uses its own part

use std::path::PathBuf;

/// The folder of the shared photo sets (`$SUDOKU_LENS_DATASETS`, else `../shared/datasets`).
pub fn shared_datasets() -> PathBuf {
    std::env::var_os("SUDOKU_LENS_DATASETS")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"))
}

/// The folder of the shared puzzle collections (`$SUDOKU_LENS_PUZZLES`, else
/// `../shared/puzzles`).
pub fn shared_puzzles() -> PathBuf {
    std::env::var_os("SUDOKU_LENS_PUZZLES")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/puzzles"))
}

/// The shared photo set `name`, when it is there (for benches, which may run without it).
pub fn find_shared_dataset(name: &str) -> Option<PathBuf> {
    let root = shared_datasets().join(name);
    root.join("images").is_dir().then_some(root)
}

/// The shared photo set `name`; panics with the path when it is not there.
pub fn shared_dataset(name: &str) -> PathBuf {
    find_shared_dataset(name).unwrap_or_else(|| {
        panic!(
            "this test needs the {name} photo set at {} (see ../shared/datasets/README.md; \
             SUDOKU_LENS_DATASETS points elsewhere)",
            shared_datasets().join(name).display()
        )
    })
}

/// The shared puzzle file (or folder) `relative` (`top1465.txt`, `se-rated/4.2.txt`); panics
/// with the path when it is not there.
pub fn shared_puzzle_path(relative: &str) -> PathBuf {
    let path = shared_puzzles().join(relative);
    assert!(
        path.exists(),
        "this test needs the puzzle collection {} (see ../shared/puzzles; SUDOKU_LENS_PUZZLES \
         points elsewhere)",
        path.display()
    );
    path
}
