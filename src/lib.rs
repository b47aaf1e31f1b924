//! sudoku-lens: find a Sudoku in a photo, read its digits and solve it the way a strong human
//! would, one explained deduction at a time.
//!
//! The library is layered (see `ARCHITECTURE.md`): [`sudoku`] is the pure puzzle engine and
//! knows nothing of images.
#![forbid(unsafe_code)]

pub mod sudoku;
pub mod vision;
