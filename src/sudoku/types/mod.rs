//! The domain's value types: [`Digit`], [`Cell`], [`House`], [`Candidates`] and [`CellSet`],
//! plus the fixed geometry tables (houses of a cell, cells of a house, peers).
//!
//! Everything here is `Copy`, allocation-free and const-constructible; it owns no puzzle state
//! (that is [`crate::sudoku::Grid`]). One file per type (`digit`, `cell`, `house`, `candidates`,
//! `cell_set`), each with its printing, serde form and tests, and the tables in `geometry`;
//! everything is used through this module's re-exports.

mod candidates;
mod cell;
mod cell_set;
mod digit;
mod geometry;
mod house;

pub use candidates::Candidates;
pub use cell::{Cell, CellNameError};
pub use cell_set::CellSet;
pub use digit::Digit;
pub use geometry::{HOUSE_CELLS, HOUSE_SETS, PEERS};
pub use house::{House, HouseKind};
