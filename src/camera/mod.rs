//! Frame sources for live scanning: a webcam through nokhwa ([`NokhwaSource`]), or an image
//! file / folder of frames played as a camera ([`ImageSequenceSource`], used by tests, demos and
//! `--source PATH`; a single image is a still, delivered once per open). [`capture::start`]
//! runs a source on its own named thread, hands the newest frame to consumers through
//! [`Mailbox`]es and restarts a source that stalls.
//!
//! Knows nothing of egui: consumers pass a `notify` callback (the app passes
//! `egui::Context::request_repaint`). Does not analyse frames; that is `live`.

pub mod capture;
pub mod mailbox;
pub mod nokhwa_source;
pub mod sequence;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use image::RgbImage;

pub use capture::{CaptureEvent, CaptureHandle, CaptureOptions, Opener};
pub use mailbox::Mailbox;
pub use nokhwa_source::{CameraDescriptor, NokhwaSource, list_cameras};
pub use sequence::ImageSequenceSource;

/// One captured frame, shared cheaply between the UI and the scan worker.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The pixels.
    pub image: Arc<RgbImage>,
    /// Sequence number within one capture session (starts at 0).
    pub seq: u64,
    /// When the frame was captured.
    pub captured_at: Instant,
    /// Whether it comes from a still source ([`FrameSource::is_still`]): no other frame follows
    /// until the source is reopened.
    pub still: bool,
}

/// Why a frame source could not deliver frames. Messages are written for the status bar.
#[derive(thiserror::Error, Debug, Clone, PartialEq)]
pub enum CameraError {
    /// No camera device is connected (or none is visible to this process).
    #[error("no camera found — connect one, or open a photo (Ctrl+O)")]
    NoCamera,
    /// The device exists but another program holds it.
    #[error("the camera is busy (another program is using it): {0}")]
    Busy(String),
    /// The OS refused access to the device.
    #[error(
        "permission denied opening the camera (on Linux: add yourself to the `video` group): {0}"
    )]
    PermissionDenied(String),
    /// The camera offers no pixel format we can decode.
    #[error("the camera offers no usable format (tried MJPEG, then YUYV): {0}")]
    NoUsableFormat(String),
    /// One frame could not be decoded (corrupt MJPEG data and the like); the next may be fine.
    #[error("a camera frame could not be decoded: {0}")]
    CorruptFrame(String),
    /// The source delivered no frame for too long.
    #[error("camera stalled: no frame for {0:.1} s — reopening")]
    Stalled(f32),
    /// A finite source (a non-looping image sequence) has no more frames.
    #[error("the frame source ended")]
    Ended,
    /// An image file or folder used as a source could not be read.
    #[error("cannot play {path} as a camera: {reason}")]
    Sequence {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// Any other device error, with the backend's message.
    #[error("camera error: {0}")]
    Device(String),
    /// The screen source could not capture this time (a window closed or moved off the
    /// screen, a capture failed); retried like an unplugged camera.
    #[error("screen capture: {0}")]
    Screen(String),
    /// The screen cannot be captured at all here (no display, the desktop refused, windows
    /// cannot be found): retrying cannot help.
    #[error("{0}")]
    ScreenUnavailable(String),
}

impl CameraError {
    /// Whether the capture loop should skip this error and read the next frame.
    pub fn is_transient(&self) -> bool {
        matches!(self, CameraError::CorruptFrame(_))
    }
}

/// Something that produces frames one at a time, like a camera. Lives on the capture thread
/// (it need not be `Send`: [`capture::start`] creates it there through an [`Opener`]).
pub trait FrameSource {
    /// A short description for the status bar, e.g. `USB Camera 1280×720 MJPEG`.
    fn describe(&self) -> String;

    /// Blocks until the next frame is available and returns it. A source paces itself (a camera
    /// at its frame rate, an image sequence at its configured rate).
    fn next_frame(&mut self) -> Result<RgbImage, CameraError>;

    /// Whether this is a still picture: one frame per open says everything it has, so the
    /// capture thread delivers that frame once and then stops reading (without counting a
    /// stall) until the source is reopened. Default: false, a stream of frames.
    fn is_still(&self) -> bool {
        false
    }
}
