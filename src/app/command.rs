//! [`Command`]: everything the user (or a test) can ask the app to do. Views only emit commands;
//! `SudokuLensApp::apply` is the one place that changes state, so every action has one code path
//! whether it comes from a button, a shortcut, a drop or the command line.

use std::path::PathBuf;
use std::sync::Arc;

use image::RgbImage;

use crate::session::ResolutionRequest;
use crate::sudoku::Cell;

/// A user intention.
#[derive(Clone, Debug)]
pub enum Command {
    /// Show the Open dialog and load the chosen photo.
    OpenPhotoDialog,
    /// Load a photo file.
    LoadPhoto(PathBuf),
    /// Load a decoded image (drop, paste) with a label for the status bar.
    LoadImage {
        /// The pixels.
        image: Arc<RgbImage>,
        /// Where it came from.
        label: String,
    },
    /// Paste from the system clipboard (an image, or a puzzle as text).
    PasteFromClipboard,
    /// Load a puzzle typed or pasted as text.
    LoadPuzzleText(String),
    /// Start the selected camera.
    StartCamera,
    /// Play an image file or folder as the camera.
    StartSequence(PathBuf),
    /// Stop the camera (keeps the last frame and puzzle).
    StopCamera,
    /// Choose the camera index.
    SelectCamera(u32),
    /// Choose the capture resolution (`None`: default); restarts a running camera.
    SelectResolution(Option<ResolutionRequest>),
    /// Re-list the cameras.
    RefreshCameras,
    /// Capture part of the screen as the live source.
    StartScreen(crate::screen::ScreenTarget),
    /// Re-list the monitors and windows the screen source can capture (on a worker thread).
    RefreshScreens,
    /// Take a frozen screenshot of the whole desktop to drag a rectangle on.
    FreezeScreen,
    /// The rectangle dragged on the frozen screenshot, corner to corner in its pixels.
    DragRegion {
        /// Where the drag began, screenshot pixels.
        from_px: (f32, f32),
        /// Where it is now, screenshot pixels.
        to_px: (f32, f32),
    },
    /// Capture the rectangle dragged on the frozen screenshot as the live source.
    CaptureRegion,
    /// Close the frozen screenshot without choosing a rectangle.
    CancelRegion,
    /// Captures per second of the screen source (restarts a running screen capture).
    SetScreenFps(f32),
    /// Type the locked screen puzzle's solution into the game (the explicit request): every
    /// empty cell, or only the next step's.
    FillGame {
        /// Only the cell(s) of the next placing step.
        next_step: bool,
    },
    /// Select a board cell (or none).
    SelectCell(Option<Cell>),
    /// Type a digit into a cell (0 clears).
    SetCell {
        /// The cell.
        cell: Cell,
        /// 1–9, or 0 to clear.
        value: u8,
    },
    /// Move the selection (arrow keys while a cell is selected).
    MoveSelection {
        /// Rows down (negative: up).
        rows: i32,
        /// Columns right (negative: left).
        cols: i32,
    },
    /// Delete in a cell: a corrected digit goes back to what was read, else the cell empties.
    DeleteCell(Cell),
    /// Put a cell back to what was read.
    RevertCell(Cell),
    /// Put the whole board back to what was read.
    RevertBoard,
    /// Take back the last board change (edit, repair, revert, Clear).
    Undo,
    /// Do again what was undone.
    Redo,
    /// Show the solution of one cell.
    RevealCell(Cell),
    /// Open or close the help overlay.
    ToggleHelp,
    /// Open the glossary window on a technique (or close it if it shows that one).
    ToggleGlossary(crate::sudoku::Technique),
    /// Close the glossary window.
    CloseGlossary,
    /// Close the explanation of a photo that did not load.
    DismissProblem,
    /// Apply the suggested repair.
    AcceptRepair,
    /// Dismiss the suggested repair.
    RejectRepair,
    /// Go to the first step.
    FirstStep,
    /// Go back one step.
    PreviousStep,
    /// Go forward one step.
    NextStep,
    /// Go past the last step (solved).
    LastStep,
    /// Go to step `n` (0-based).
    GoToStep(usize),
    /// Reveal the next hint level of the current step.
    RevealHint,
    /// Turn hint mode on or off.
    SetHintMode(bool),
    /// Draw the solution on the photo or not.
    SetShowSolution(bool),
    /// Show candidates on the board or not.
    SetShowCandidates(bool),
    /// On a half-done puzzle: walk the full path from the printed givens (`true`) or go on
    /// from the givens plus the right handwritten entries (`false`).
    SetFullPath(bool),
    /// Copy the puzzle as 81 characters to the clipboard.
    CopyPuzzle,
    /// Show the Save dialog and write the annotated PNG.
    SaveAnnotatedDialog,
    /// Write the annotated PNG to a path.
    SaveAnnotated(PathBuf),
    /// Empty the board (undoable).
    ClearBoard,
}
