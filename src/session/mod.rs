//! The puzzle being worked on, as plain data: the [`Board`] (recognized digits, user edits,
//! uncertain and conflicting cells, the suggested repair, a half-done puzzle's handwritten
//! entries and pencil-mark cells), the [`Progress`] of a half-done puzzle (its entries checked,
//! the position to go on from), the [`Walkthrough`] of its explained
//! solution with the [`SolveState`], the undo [`History`] of board edits, what is remembered
//! between runs ([`Settings`], [`SavedPuzzle`]), and why a photo did not load in plain words
//! ([`LoadFailure`], [`Advice`]).
//!
//! No egui, no threads and no storage: the app renders this, changes it only through its
//! commands, runs the solver on its own thread and hands the persisted types to eframe.

pub mod board;
pub mod history;
pub mod persist;
pub mod progress;
pub mod trouble;
pub mod walkthrough;

pub use board::{Board, MIN_CLUES, repair_summary};
pub use history::{BoardAt, History};
pub use persist::{
    DEFAULT_SCREEN_FPS, PUZZLE_KEY, ResolutionRequest, SCREEN_FPS_RANGE, SEQUENCE_FPS_RANGE,
    SETTINGS_KEY, SavedPuzzle, Settings,
};
pub use progress::{Progress, solve_progress, start_position};
pub use trouble::{Advice, LoadFailure};
pub use walkthrough::{HintLevel, SolveState, Walkthrough};
