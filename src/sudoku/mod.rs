//! The puzzle engine: domain types, parsers, the exact solver, the human-style explained solver
//! with one file per technique, and the difficulty rating.
//!
//! Pure logic: knows nothing of images, models or GUIs, and depends only on std, serde and
//! thiserror.

pub mod explain;
pub mod grid;
pub mod notation;
pub mod parse;
pub mod rating;
pub mod solver;
pub mod step;
pub mod techniques;
pub mod types;

pub use explain::{Explained, SolveError, solve_explained};
pub use grid::{Candidate, Conflict, Grid};
pub use parse::{ParseError, collection_puzzles, parse_puzzle};
pub use rating::{Level, Rating, spearman};
pub use solver::MIN_CLUES;
pub use step::{Link, LinkKind, Mark, Node, Role, Step, Technique};
pub use types::{Candidates, Cell, CellSet, Digit, House, HouseKind};
