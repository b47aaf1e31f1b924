//! The app's runtime state, grouped by what it is about: the [`Threads`] the app runs, the
//! image [`SourceState`] (camera session or photo scan, and its [`SourceStatus`]), the
//! [`LiveView`] (the picture shown and the grid found on it), the [`PuzzleState`] (the board
//! and its solve) and the [`UiState`] that only the widgets care about. Measurements live in
//! `diagnostics`, persisted preferences in [`crate::session::Settings`].
//!
//! Plain fields, no behaviour beyond construction and resets: `SudokuLensApp::apply` and the
//! worker polling change them.

use std::sync::Arc;

use image::RgbImage;

use crate::camera::{CameraDescriptor, CameraError, CaptureHandle, Frame, Mailbox};
use crate::live::{LiveState, LockProgress, Overlay, VotedBoard};
use crate::screen::{Desk, DeskLists, ScreenCapture, ScreenError, ScreenRect, SystemDesk};
use crate::session::{Advice, Board, BoardAt, History, SolveState};
use crate::sudoku::Cell;
use crate::vision::Lattice;

use super::workers::{Notify, PhotoResult, ScanWorker, SolverWorker};

/// Where the image in the main view comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum SourceStatus {
    /// Nothing loaded.
    Idle,
    /// A photo is being scanned.
    Scanning(String),
    /// A photo was scanned.
    Photo(String),
    /// The camera is being opened.
    CameraOpening(String),
    /// The camera delivers frames.
    CameraLive(String),
    /// The camera failed (retrying).
    CameraFailed(CameraError),
    /// The camera stalled (reopening).
    CameraStalled,
    /// The frame source ended.
    CameraEnded,
    /// The camera was stopped by the user.
    CameraStopped,
}

impl std::fmt::Display for SourceStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceStatus::Idle => f.write_str("no source"),
            SourceStatus::Scanning(l) => write!(f, "scanning {l}…"),
            SourceStatus::Photo(l) => write!(f, "photo: {l}"),
            SourceStatus::CameraOpening(l) => write!(f, "opening {l}…"),
            SourceStatus::CameraLive(l) => write!(f, "camera: {l}"),
            SourceStatus::CameraFailed(_) => f.write_str("camera: failed"),
            SourceStatus::CameraStalled => f.write_str("camera: stalled"),
            SourceStatus::CameraEnded => f.write_str("camera: source ended"),
            SourceStatus::CameraStopped => f.write_str("camera: stopped"),
        }
    }
}

/// Severity of a status-bar message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Informational.
    Info,
    /// Something to look at.
    Warning,
    /// Something failed.
    Error,
}

/// The status-bar message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Severity.
    pub severity: Severity,
    /// Text.
    pub text: String,
}

/// The threads the app owns besides the camera's, and how they wake the UI.
#[derive(Default)]
pub(crate) struct Threads {
    /// The egui context, once the first frame ran (threads start then).
    pub ctx: Option<egui::Context>,
    /// Wakes the UI (`request_repaint`); `None` before the first frame.
    pub notify: Option<Notify>,
    /// The `solver` thread.
    pub solver: Option<SolverWorker>,
}

/// The image shown in the main view.
pub(crate) struct ViewImage {
    pub texture: egui::TextureHandle,
    pub image: Arc<RgbImage>,
}

/// A camera session: the capture threads and the scanner.
pub(crate) struct CameraSession {
    pub capture: CaptureHandle,
    pub scanner: Option<ScanWorker>,
    pub label: String,
}

/// Where pictures come from: the camera session, or the photo being scanned.
pub(crate) struct SourceState {
    /// The cameras found (listed on first use of the camera menu).
    pub cameras: Option<Result<Vec<CameraDescriptor>, CameraError>>,
    /// The running camera, if any.
    pub camera: Option<CameraSession>,
    /// Camera frames for the UI (newest wins).
    pub ui_frames: Arc<Mailbox<Frame>>,
    /// Photo scan results (newest wins).
    pub photo_results: Arc<Mailbox<PhotoResult>>,
    /// The generation of the newest photo load; older results are ignored.
    pub photo_generation: u64,
    /// Whether a photo scan of `photo_generation` is running.
    pub photo_pending: bool,
    /// The label of the photo being scanned (the puzzle's label changes only if it reads).
    pub pending_label: String,
    /// The file of the photo being scanned (`None`: pasted or dropped pixels).
    pub pending_path: Option<std::path::PathBuf>,
    /// What the status said before the scan began (restored when the scan fails).
    pub status_before_scan: SourceStatus,
    /// What the status bar says about the source.
    pub status: SourceStatus,
    /// Seconds without frames of the last stall, until the camera reopens.
    pub last_stall: Option<f32>,
    /// What the running capture shows when it is the screen (`None`: a camera or sequence).
    pub screen: Option<crate::screen::ScreenTarget>,
    /// The desktop the screen source is chosen from and captured through.
    pub desk: Arc<dyn Desk>,
    /// The monitors and windows the screen source can capture (listed on a worker thread on
    /// first use of its menu).
    pub screens: Option<DeskLists>,
    /// Whether a listing runs.
    pub screens_pending: bool,
    /// When the lists last came in.
    pub screens_listed_at: Option<std::time::Instant>,
    /// The listing's answer (newest wins).
    pub screens_results: Arc<Mailbox<DeskLists>>,
    /// The frozen screenshot's answer (newest wins).
    pub freeze_results: Arc<Mailbox<Result<super::screen_worker::Frozen, ScreenError>>>,
    /// Whether a frozen screenshot is being taken.
    pub freezing: bool,
    /// Notes of the running "Fill in the game" (newest wins).
    pub fill_notes: Arc<Mailbox<super::fill_worker::FillNote>>,
    /// Whether a fill is running.
    pub filling: bool,
    /// How the last fill ended: what it did, or why it stopped.
    pub fill_outcome: Option<Result<String, String>>,
    /// The screen target to capture again once the running fill ends.
    pub resume_after_fill: Option<crate::screen::ScreenTarget>,
    /// Whether the next opened source goes unannounced (the capture resumed after a fill,
    /// whose outcome the status bar keeps).
    pub quiet_open: bool,
}

impl Default for SourceState {
    fn default() -> Self {
        SourceState {
            cameras: None,
            camera: None,
            ui_frames: Arc::new(Mailbox::new()),
            photo_results: Arc::new(Mailbox::new()),
            photo_generation: 0,
            photo_pending: false,
            pending_label: String::new(),
            pending_path: None,
            status_before_scan: SourceStatus::Idle,
            status: SourceStatus::Idle,
            last_stall: None,
            screen: None,
            desk: Arc::new(SystemDesk),
            screens: None,
            screens_pending: false,
            screens_listed_at: None,
            screens_results: Arc::new(Mailbox::new()),
            freeze_results: Arc::new(Mailbox::new()),
            freezing: false,
            fill_notes: Arc::new(Mailbox::new()),
            filling: false,
            fill_outcome: None,
            resume_after_fill: None,
            quiet_open: false,
        }
    }
}

/// What the main view shows: the picture, the grid found on it, and where the live path
/// stands on it.
#[derive(Default)]
pub(crate) struct LiveView {
    /// The camera frame (the one the scanner analysed, when it runs) or photo.
    pub image: Option<ViewImage>,
    /// The lattice drawn over it, in image pixels, as the puzzle reads.
    pub lattice: Option<Lattice>,
    /// The live state (a read photo counts as locked).
    pub state: LiveState,
    /// Progress towards a lock, for the status bar.
    pub progress: LockProgress,
    /// The puzzle in view, as the live path identifies it.
    pub puzzle_id: u64,
    /// The trusted board and solution, only while this frame shows its grid.
    pub overlay: Option<Arc<Overlay>>,
    /// The digits voted so far for the puzzle in view.
    pub reading: Option<VotedBoard>,
}

impl LiveView {
    /// Forgets the grid (lattice, progress, overlay, reading) but keeps the picture.
    pub fn forget_grid(&mut self, state: LiveState) {
        self.lattice = None;
        self.state = state;
        self.progress = LockProgress::default();
        self.overlay = None;
        self.reading = None;
    }
}

/// The puzzle being worked on and its solve.
pub(crate) struct PuzzleState {
    /// The board.
    pub board: Board,
    /// Where it came from (file name, "camera", …).
    pub label: String,
    /// Bumped on every change; solver results of older generations are ignored.
    pub generation: u64,
    /// Whether the user changed the board since it was read (the camera then leaves it alone).
    pub edited: bool,
    /// The solve of the current generation.
    pub solve: SolveState,
    /// The handwritten entries' check of the current generation (boards with entries).
    pub check: Option<Arc<crate::sudoku::Check>>,
    /// Walk the full path from the printed givens, not from the givens plus the right
    /// entries.
    pub full_path: bool,
    /// The step to go to once the restored puzzle is solved.
    pub restore_step: Option<usize>,
    /// The camera puzzle the board was loaded from (`None`: not from the camera session).
    pub camera: Option<CameraPuzzle>,
    /// Boards before the user's actions, for undo/redo.
    pub history: History<BoardAt>,
    /// Cells whose solution the user revealed.
    pub revealed: [bool; 81],
    /// The photo file the board was read from, if any (restored at restart).
    pub photo: Option<std::path::PathBuf>,
    /// A saved photo to show again at start, with the grid found on it then.
    pub restore_photo: Option<(std::path::PathBuf, Option<Lattice>)>,
}

impl Default for PuzzleState {
    fn default() -> Self {
        PuzzleState {
            board: Board::default(),
            label: String::new(),
            generation: 0,
            edited: false,
            solve: SolveState::default(),
            check: None,
            full_path: false,
            restore_step: None,
            camera: None,
            history: History::default(),
            revealed: [false; 81],
            photo: None,
            restore_photo: None,
        }
    }
}

/// Which live read a board was loaded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CameraPuzzle {
    /// The live path's puzzle id.
    pub puzzle_id: u64,
    /// The trusted givens that were loaded.
    pub givens: [u8; 81],
}

/// State only the widgets care about.
#[derive(Default)]
pub(crate) struct UiState {
    /// The selected board cell.
    pub selected: Option<Cell>,
    /// The status-bar message.
    pub message: Option<Message>,
    /// Whether files are dragged over the window.
    pub hovering_files: bool,
    /// The last photo that did not load, explained (shown until dismissed or a load works).
    pub load_problem: Option<Advice>,
    /// Whether the help overlay is open.
    pub help_open: bool,
    /// The technique the glossary window shows, while open.
    pub glossary: Option<crate::sudoku::Technique>,
    /// The step-list position last scrolled to (`None`: scroll on the next frame).
    pub steps_scrolled_to: Option<usize>,
    /// The app's own file picker, while open.
    pub picker: Option<super::file_picker::FilePicker>,
    /// The answer of the system file chooser running on its thread (newest wins).
    pub dialog_answers: Arc<Mailbox<DialogAnswer>>,
    /// Whether a system file chooser is open.
    pub dialog_open: bool,
    /// The frozen screenshot a rectangle is being dragged on, while open.
    pub region_pick: Option<RegionPick>,
}

/// The frozen screenshot shown to drag the screen source's rectangle on.
pub(crate) struct RegionPick {
    /// The screenshot and where it is on the screen.
    pub capture: Arc<ScreenCapture>,
    /// It as a texture.
    pub texture: egui::TextureHandle,
    /// The rectangle dragged so far, screen pixels.
    pub rect: Option<ScreenRect>,
}

/// What the system file chooser answered.
#[derive(Debug)]
pub(crate) struct DialogAnswer {
    /// What it was for.
    pub mode: super::file_picker::PickerMode,
    /// The chosen file (`None`: cancelled, or it never opened).
    pub path: Option<std::path::PathBuf>,
    /// How long it was open (a "cancel" within moments means it never showed).
    pub open_for: std::time::Duration,
}
