//! sudoku-lens: find a Sudoku in a photo, read its digits and solve it the way a strong human
//! would, one explained deduction at a time.
//!
//! The library is layered (see `ARCHITECTURE.md`): [`sudoku`] is the pure puzzle engine and
//! knows nothing of images.
// `deny`, not `forbid`: the optional ONNX Runtime loader (digits::classifier) needs one
// audited `#[allow(unsafe_code)]` function to call into the shared library.
#![deny(unsafe_code)]

pub mod annotate;
#[cfg(feature = "gui")]
pub mod app;
pub mod browse;
#[cfg(feature = "gui")]
pub mod camera;
pub mod clip;
pub mod dataset;
pub mod digits;
pub mod eval;
pub mod live;
pub mod scan;
#[cfg(feature = "gui")]
pub mod screen;
pub mod session;
pub mod sudoku;
pub mod synthetic;
pub mod timing;
pub mod vision;

/// Where the shared test data is (the one lookup, shared with the integration tests).
#[cfg(test)]
#[path = "../tests/common/data.rs"]
pub(crate) mod test_data;
