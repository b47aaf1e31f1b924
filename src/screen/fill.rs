//! "Fill in the game": types a locked puzzle's solution into the game on the screen, only on
//! the user's explicit request. [`lock_on_screen`] captures the target through the live path
//! (the same `LiveReader` lock, read and solve as the camera) until it trusts a board with one
//! solution; [`plan`] turns that board into clicks (cell centre on the screen = capture offset
//! plus the lattice's cell centre) and digits; [`run_fill`] counts down, then clicks and types
//! cell by cell, stopping at once when the user presses Esc or moves the mouse, when the
//! target window moved, or when a re-capture every [`CHECK_EVERY_CELLS`] cells does not show
//! the typed digits where they belong.
//!
//! Input goes through [`Hands`] (enigo and the X11 watch in [`DesktopHands`]) and the checks
//! through [`Checker`] ([`ScreenChecker`]), so the order of actions and every stop are tested
//! without a display.

use std::time::{Duration, Instant};

use enigo::{Button, Coordinate, Direction, Enigo, Key, Keyboard as _, Mouse as _, Settings};

use super::x11::X11;
use super::{ScreenError, ScreenRect, ScreenSource, ScreenTarget, capture_rect, locate};
use crate::annotate::projection::image_from_grid;
use crate::live::LiveReader;
use crate::scan::{ScanError, Scanner};
use crate::sudoku::Grid;
use crate::vision::Lattice;

/// Cells typed between two re-captures that check the typed digits.
pub const CHECK_EVERY_CELLS: usize = 9;

/// How long a check looks for the typed digits before it stops the fill.
pub const CHECK_PATIENCE: Duration = Duration::from_millis(1500);

/// Why a fill did not run or stopped. Messages are written for the user; `typed` says how
/// many cells were typed before the stop.
#[derive(thiserror::Error, Debug)]
pub enum FillError {
    /// The screen could not be captured or the window not found.
    #[error(transparent)]
    Screen(#[from] ScreenError),
    /// The digit model failed.
    #[error(transparent)]
    Scan(#[from] ScanError),
    /// No trusted puzzle with one solution was seen in time.
    #[error(
        "no Sudoku with one solution was read on {target} within {seconds:.1} s (last state: {state})"
    )]
    NotLocked {
        /// What was captured.
        target: String,
        /// How long it tried.
        seconds: f32,
        /// The live path's last state (and problem, if any).
        state: String,
    },
    /// Simulated input is not possible.
    #[error("cannot simulate clicks and keys: {0}")]
    Input(String),
    /// The user stopped it.
    #[error("fill stopped: {reason} ({typed} cells typed)")]
    Aborted {
        /// Esc or mouse movement.
        reason: String,
        /// Cells typed before the stop.
        typed: usize,
    },
    /// The target window is no longer where it was when the puzzle was read.
    #[error(
        "fill stopped: the game window moved from {from} to {to} ({typed} cells typed); scan it again"
    )]
    Moved {
        /// Where it was.
        from: ScreenRect,
        /// Where it is.
        to: ScreenRect,
        /// Cells typed before the stop.
        typed: usize,
    },
    /// A re-capture does not show the typed digits where they belong.
    #[error(
        "fill stopped: the digits typed do not appear in the game at {cells} ({typed} cells typed); the game moved or takes input differently"
    )]
    NotShown {
        /// The cells that do not show their digit (`r1c2, …`).
        cells: String,
        /// Cells typed before the stop.
        typed: usize,
    },
}

/// A puzzle read and trusted on the screen, with where it is.
#[derive(Clone, Debug)]
pub struct LockedPuzzle {
    /// What was captured.
    pub target: ScreenTarget,
    /// Where the captured area was on the screen.
    pub target_rect: ScreenRect,
    /// Screen position of the capture's top-left pixel.
    pub origin: (i32, i32),
    /// The grid's lattice in capture pixels, as the puzzle reads.
    pub lattice: Lattice,
    /// The givens (0 empty) and the unique solution.
    pub givens: [u8; 81],
    /// The unique solution of `givens`.
    pub solution: [u8; 81],
    /// Frames captured until the lock.
    pub frames: u32,
    /// Time from the first capture to the lock.
    pub elapsed: Duration,
}

impl LockedPuzzle {
    /// The centre of cell `index` (row-major) in screen pixels.
    pub fn cell_centre_on_screen(&self, index: usize) -> (i32, i32) {
        let (row, col) = (index / 9, index % 9);
        let p = image_from_grid(&self.lattice, col as f32 + 0.5, row as f32 + 0.5);
        (
            self.origin.0 + p.x.round() as i32,
            self.origin.1 + p.y.round() as i32,
        )
    }
}

/// Captures `target` through the live path until it trusts a board (one solution), at most
/// for `timeout`. The captures are paced as the app's screen source paces them
/// ([`ScreenSource`] at `fps`: quick captures after a change, then the steady rate).
pub fn lock_on_screen(
    target: &ScreenTarget,
    fps: f32,
    reader: &mut LiveReader,
    timeout: Duration,
) -> Result<LockedPuzzle, FillError> {
    let start = Instant::now();
    let mut source = ScreenSource::open(target.clone(), fps)?;
    let mut frames = 0u32;
    loop {
        let shot = source.capture_next()?;
        let origin = shot.origin;
        frames += 1;
        let out = reader.push_frame(&shot.image, start.elapsed().as_millis() as u64);
        if let (Some(overlay), Some(lattice), Some(rect)) =
            (&out.overlay, &out.lattice, source.last_rect())
        {
            return Ok(LockedPuzzle {
                target: target.clone(),
                target_rect: rect,
                origin,
                lattice: *lattice,
                givens: overlay.givens,
                solution: overlay.solution,
                frames,
                elapsed: start.elapsed(),
            });
        }
        if start.elapsed() > timeout {
            let mut state = out.state.to_string();
            if let Some(e) = out.error {
                state.push_str(&format!(": {e}"));
            }
            return Err(FillError::NotLocked {
                target: target.to_string(),
                seconds: timeout.as_secs_f32(),
                state,
            });
        }
    }
}

/// Which cells to fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FillScope {
    /// Every empty cell.
    All,
    /// Only the cell(s) the next placing step of the explained solution fills.
    NextStep,
}

/// One cell to fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FillAction {
    /// The cell, row-major 0..81.
    pub index: usize,
    /// The digit to type.
    pub digit: u8,
    /// Where to click, screen pixels.
    pub at_screen: (i32, i32),
}

impl std::fmt::Display for FillAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "r{}c{}={} at ({}, {})",
            self.index / 9 + 1,
            self.index % 9 + 1,
            self.digit,
            self.at_screen.0,
            self.at_screen.1
        )
    }
}

/// The clicks and digits that fill `scope` of `puzzle`, in reading order.
pub fn plan(puzzle: &LockedPuzzle, scope: FillScope) -> Vec<FillAction> {
    let action = |index: usize| FillAction {
        index,
        digit: puzzle.solution[index],
        at_screen: puzzle.cell_centre_on_screen(index),
    };
    match scope {
        FillScope::All => (0..81)
            .filter(|&i| puzzle.givens[i] == 0)
            .map(action)
            .collect(),
        FillScope::NextStep => {
            let grid = Grid::from_values(&puzzle.givens);
            let steps = crate::sudoku::explain::solve_explained(&grid)
                .map(|e| e.steps)
                .unwrap_or_default();
            let mut cells: Vec<usize> = steps
                .iter()
                .find(|s| !s.placements.is_empty())
                .map(|s| s.placements.iter().map(|p| p.cell.index()).collect())
                .unwrap_or_default();
            cells.sort_unstable();
            cells.dedup();
            cells.into_iter().map(action).collect()
        }
    }
}

/// Simulated input and the watch on the user's own input.
pub trait Hands {
    /// Moves the pointer to `at` (screen pixels) and clicks there.
    fn click(&mut self, at: (i32, i32)) -> Result<(), FillError>;
    /// Types one digit key.
    fn type_digit(&mut self, digit: u8) -> Result<(), FillError>;
    /// Why the user wants it to stop, if they do: Esc held, or the pointer not at
    /// `pointer_should_be` (where the fill last put it, or where it was at the start).
    fn interrupted(&mut self, pointer_should_be: (i32, i32)) -> Result<Option<String>, FillError>;
    /// Where the pointer is now.
    fn pointer(&mut self) -> Result<(i32, i32), FillError>;
}

/// The checks between cells.
pub trait Checker {
    /// Fails when the target is no longer where it was (`typed` cells typed so far).
    fn still_in_place(&mut self, typed: usize) -> Result<(), FillError>;
    /// Re-captures and fails unless each of `recent` shows its digit (`typed` so far).
    fn shows_typed(&mut self, recent: &[FillAction], typed: usize) -> Result<(), FillError>;
}

/// Pacing of a fill.
#[derive(Clone, Copy, Debug)]
pub struct FillPacing {
    /// The countdown before the first click.
    pub countdown: Duration,
    /// Pause after a click before the key, and after the key before the next cell.
    pub settle: Duration,
}

impl Default for FillPacing {
    fn default() -> Self {
        FillPacing {
            countdown: Duration::from_secs(3),
            settle: Duration::from_millis(40),
        }
    }
}

/// What a fill is doing, for the caller's display.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FillProgress {
    /// Seconds left before the first click.
    Countdown(u32),
    /// A cell was typed (`done` of `total`).
    Typed {
        /// Cells typed.
        done: usize,
        /// Cells to type.
        total: usize,
    },
}

/// Counts down, then fills `actions` one by one; stops at the first interruption or failed
/// check. Returns the number of cells typed.
pub fn run_fill(
    actions: &[FillAction],
    pacing: FillPacing,
    hands: &mut dyn Hands,
    checker: &mut dyn Checker,
    progress: &mut dyn FnMut(FillProgress),
) -> Result<usize, FillError> {
    let mut pointer = hands.pointer()?;
    let stop = |reason: String, typed: usize| FillError::Aborted { reason, typed };
    let countdown_end = Instant::now() + pacing.countdown;
    let mut last_shown = u32::MAX;
    while let Some(left) = countdown_end.checked_duration_since(Instant::now()) {
        let seconds = left.as_secs_f32().ceil() as u32;
        if seconds != last_shown {
            progress(FillProgress::Countdown(seconds));
            last_shown = seconds;
        }
        if let Some(reason) = hands.interrupted(pointer)? {
            return Err(stop(reason, 0));
        }
        std::thread::sleep(left.min(Duration::from_millis(30)));
    }
    for (typed, action) in actions.iter().enumerate() {
        if let Some(reason) = hands.interrupted(pointer)? {
            return Err(stop(reason, typed));
        }
        checker.still_in_place(typed)?;
        hands.click(action.at_screen)?;
        pointer = action.at_screen;
        std::thread::sleep(pacing.settle);
        if let Some(reason) = hands.interrupted(pointer)? {
            return Err(stop(reason, typed));
        }
        // Again before the key: a game that moved as the click went out has had the settle
        // time to show it, and a click is harmless where a digit is not.
        checker.still_in_place(typed)?;
        hands.type_digit(action.digit)?;
        std::thread::sleep(pacing.settle);
        let done = typed + 1;
        progress(FillProgress::Typed {
            done,
            total: actions.len(),
        });
        if done % CHECK_EVERY_CELLS == 0 || done == actions.len() {
            let from = (done - 1) / CHECK_EVERY_CELLS * CHECK_EVERY_CELLS;
            checker.shows_typed(&actions[from..done], done)?;
        }
    }
    Ok(actions.len())
}

/// The real desktop: enigo for input (XTEST on X11), X11 for the Esc/pointer watch.
pub struct DesktopHands {
    enigo: Enigo,
    x11: X11,
}

impl DesktopHands {
    /// Connects to the display for input.
    pub fn new() -> Result<DesktopHands, FillError> {
        let x11 = X11::connect()?;
        let settings = Settings {
            linux_delay: 1,
            ..Settings::default()
        };
        let enigo = Enigo::new(&settings).map_err(|e| FillError::Input(e.to_string()))?;
        Ok(DesktopHands { enigo, x11 })
    }
}

impl Hands for DesktopHands {
    fn click(&mut self, at: (i32, i32)) -> Result<(), FillError> {
        let input = |e: enigo::InputError| FillError::Input(e.to_string());
        self.enigo
            .move_mouse(at.0, at.1, Coordinate::Abs)
            .map_err(input)?;
        self.enigo
            .button(Button::Left, Direction::Click)
            .map_err(input)
    }

    fn type_digit(&mut self, digit: u8) -> Result<(), FillError> {
        let c = char::from_digit(digit as u32, 10)
            .ok_or_else(|| FillError::Input(format!("{digit} is not a digit")))?;
        self.enigo
            .key(Key::Unicode(c), Direction::Click)
            .map_err(|e| FillError::Input(e.to_string()))
    }

    fn interrupted(&mut self, pointer_should_be: (i32, i32)) -> Result<Option<String>, FillError> {
        if self.x11.escape_down()? {
            return Ok(Some("Esc pressed".into()));
        }
        let now = self.x11.pointer()?;
        let moved = (now.0 - pointer_should_be.0)
            .abs()
            .max((now.1 - pointer_should_be.1).abs());
        Ok((moved > 2).then(|| "the mouse was moved".to_string()))
    }

    fn pointer(&mut self) -> Result<(i32, i32), FillError> {
        Ok(self.x11.pointer()?)
    }
}

/// Checks against the real screen: the target's position, and the typed digits read through
/// the locked lattice by the digit model.
pub struct ScreenChecker {
    puzzle: LockedPuzzle,
    scanner: Scanner,
}

impl ScreenChecker {
    /// Checks for `puzzle`, reading with `scanner`.
    pub fn new(puzzle: LockedPuzzle, scanner: Scanner) -> ScreenChecker {
        ScreenChecker { puzzle, scanner }
    }
}

impl Checker for ScreenChecker {
    fn still_in_place(&mut self, typed: usize) -> Result<(), FillError> {
        let now = locate(&self.puzzle.target)?;
        let was = self.puzzle.target_rect;
        if (now.x, now.y) != (was.x, was.y) {
            return Err(FillError::Moved {
                from: was,
                to: now,
                typed,
            });
        }
        Ok(())
    }

    fn shows_typed(&mut self, recent: &[FillAction], typed: usize) -> Result<(), FillError> {
        // A game redraws on its own time (a busy machine, an animation): look again for a
        // while before calling the digits missing.
        let deadline = Instant::now() + CHECK_PATIENCE;
        loop {
            let shot = capture_rect(self.puzzle.target_rect)?;
            let gray = crate::vision::rgb_to_gray(&shot.image);
            let readings = self.scanner.read_cells(&gray, &self.puzzle.lattice)?;
            let wrong: Vec<String> = recent
                .iter()
                .filter(|a| readings.get(a.index).map(|r| r.class.value()) != Some(a.digit))
                .map(|a| format!("r{}c{}", a.index / 9 + 1, a.index % 9 + 1))
                .collect();
            if wrong.is_empty() {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(FillError::NotShown {
                    cells: wrong.join(", "),
                    typed,
                });
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

#[cfg(test)]
#[path = "fill_tests.rs"]
mod tests;
