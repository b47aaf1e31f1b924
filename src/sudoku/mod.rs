//! The puzzle engine: domain types, parsers, the exact solver, the human-style explained solver
//! with one file per technique, the glossary, and the difficulty rating.
//!
//! Pure logic: knows nothing of images, models or GUIs, and depends only on std, serde,
//! thiserror and tracing.

pub mod check;
pub mod explain;
pub mod format;
pub mod glossary;
pub mod grid;
pub mod hodoku;
pub mod notation;
pub mod parse;
pub mod rank;
pub mod rating;
pub mod solver;
pub mod step;
pub mod technique;
pub mod techniques;
pub mod types;

pub use check::{
    Check, EntryCheck, Proof, Verdict, check_entries, check_entries_as_model_read,
    check_entries_read,
};
pub use explain::{Explained, SolveError, solve_explained};
pub use grid::{Candidate, Conflict, Grid, conflicts_of};
pub use parse::{
    Entry, MAX_PUZZLE_TEXT, ParseError, collection_entry, collection_puzzles, parse_puzzle,
    parse_values,
};
pub use rating::{Level, RankCorrelation, Rating, spearman};
pub use solver::MIN_CLUES;

/// A proper puzzle of 17 clues, every one needed (the first of ../shared's 17-clue.txt), for
/// tests.
#[cfg(test)]
pub(crate) const SEVENTEEN_CLUES: &str =
    "000000000000000001000002030000003020001040000005000060030000004070080009620007000";
pub use step::{Branch, Link, LinkKind, Mark, Node, Outcome, Role, Step};
pub use technique::Technique;
pub use types::{Candidates, Cell, CellSet, Digit, House, HouseKind};
