//! Seeded generators of synthetic photo data sets, written in the shared layout
//! (`images/`, `labels/`, `corners.csv`) so that they serve both as training data for the
//! digit reader and as test sets for grid detection.
//!
//! Owns the generators: rendered Sudoku app screenshots ([`layout`] decides, [`screens`]
//! draws the grid and `chrome` the app around it; phones and desktop windows, seven theme families, tiles, highlights, pencil marks,
//! number pads) and webcam frames made from real photos ([`webcam`]: a homography into a
//! 640×480 or 1280×720 frame, blur, exposure and colour drift, vignetting, noise, MJPEG), plus
//! filled-in pages ([`fill`]: one writer's handwriting added to the empty cells of real
//! photos, for pages far along or finished), photographs of printed pages ([`mod@print`]) and
//! of app screenshots shown on a screen ([`mod@screen_photo`]: the display's pixel stripes and
//! moiré, backlight, bezel and reflections), and
//! the clip simulator ([`mod@clip`]: short webcam clips of those photos — a page entering,
//! held with tremor, covered by a finger, swapped, or a page with no Sudoku — in the
//! `crate::clip` layout). The image formation both camera generators share is [`optics`].
//! Also the shared pieces: the one random generator ([`Rng`]), the system fonts and their
//! train / held-out split ([`fonts`]), stroke-drawn handwritten digits in a writer's style
//! ([`handwriting`]), valid puzzle content ([`puzzle`]), rasterizing
//! ([`draw`]) and the data-set writer ([`mod@write`]). Everything is a pure function of a seed
//! and its inputs (same seed, same bytes). It does not detect, read or solve anything.

mod chrome;
pub mod clip;
pub mod draw;
pub mod fill;
pub mod fonts;
pub mod handwriting;
pub mod layout;
pub mod optics;
pub mod print;
pub mod puzzle;
pub mod rng;
pub mod screen_photo;
pub mod screens;
pub mod theme;
pub mod webcam;
pub mod write;

pub use fill::{FilledPhoto, fill_photo, fill_photo_with_pens};
pub use fonts::{DigitFont, FontBank, FontError, FontSplit};
pub use layout::{OutputFormat, ScreenSpec};
pub use print::{CameraPhoto, PrintCamera, print_photo};
pub use rng::Rng;
pub use screen_photo::screen_photo;
pub use screens::{RenderedScreen, render_screen};
pub use theme::ThemeFamily;
pub use webcam::{Degradation, FrameSize, WebcamFrame, webcam_frame};
pub use write::{DatasetWriter, WriteError, sample_name};
