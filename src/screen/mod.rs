//! The screen as a frame source (feature `gui`): what to capture ([`ScreenTarget`]: the whole
//! screen with every monitor in place, one monitor, a window found by its title, or a
//! rectangle), one capture with its offset on the screen ([`capture`] → [`ScreenCapture`]), and [`ScreenSource`], a
//! [`FrameSource`] that captures at a few frames per second so the screen goes through the
//! same live path (lock, read, solve, overlay) as a camera. `fill` types a solution back into a
//! game on the screen. `desk` lists the monitors and windows to choose from, freezes the whole
//! desktop for a rectangle to be dragged on, and blanks this process's own windows out of
//! every capture.
//!
//! Pixels come from `xcap` (X11, or Wayland through the desktop portal); windows are found and
//! the pointer and keyboard watched through X11 (`x11`), which works with or without a window
//! manager. Every failure is a [`ScreenError`] written for the user; nothing here panics on a
//! missing display. Knows nothing of egui and does not analyse frames.

pub mod desk;
pub mod fill;
mod x11;

use std::time::{Duration, Instant};

use image::RgbImage;

use crate::camera::{CameraError, FrameSource};

pub use crate::session::{DEFAULT_SCREEN_FPS, SCREEN_FPS_RANGE};
pub use desk::{Desk, DeskLists, MonitorInfo, SystemDesk, capture_desktop, list_monitors};
pub use x11::{WindowInfo, list_windows};

/// What part of the screen to capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScreenTarget {
    /// The whole screen: every monitor, each in its place on one picture spanning them all.
    Whole,
    /// One monitor, by its index in the monitor list (0-based).
    Monitor(usize),
    /// The window whose title matches (exactly, else the one containing it, ignoring case).
    Window(String),
    /// A rectangle in screen pixels.
    Region(ScreenRect),
}

impl std::fmt::Display for ScreenTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScreenTarget::Whole => f.write_str("the whole screen"),
            ScreenTarget::Monitor(i) => write!(f, "monitor {i}"),
            ScreenTarget::Window(name) => write!(f, "window \"{name}\""),
            ScreenTarget::Region(r) => write!(f, "region {r}"),
        }
    }
}

/// A rectangle on the screen, in screen pixels (the origin is the top-left of the virtual
/// screen spanning all monitors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenRect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
}

impl std::fmt::Display for ScreenRect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}+{}+{}", self.width, self.height, self.x, self.y)
    }
}

impl std::str::FromStr for ScreenRect {
    type Err = String;

    /// Parses `WxH+X+Y` (the X11 geometry form).
    fn from_str(s: &str) -> Result<ScreenRect, String> {
        let bad =
            || format!("\"{s}\" is not a rectangle: write WIDTHxHEIGHT+X+Y, e.g. 600x600+10+20");
        let (size, pos) = s.split_once('+').ok_or_else(bad)?;
        let (w, h) = size.split_once('x').ok_or_else(bad)?;
        let (x, y) = pos.split_once('+').ok_or_else(bad)?;
        let rect = ScreenRect {
            x: x.trim().parse().map_err(|_| bad())?,
            y: y.trim().parse().map_err(|_| bad())?,
            width: w.trim().parse().map_err(|_| bad())?,
            height: h.trim().parse().map_err(|_| bad())?,
        };
        if rect.width == 0 || rect.height == 0 {
            return Err(format!("\"{s}\": the rectangle is empty"));
        }
        Ok(rect)
    }
}

/// Why the screen could not be captured (or input not simulated). Messages are written for
/// the user.
#[derive(thiserror::Error, Debug, Clone, PartialEq)]
pub enum ScreenError {
    /// Neither `DISPLAY` nor `WAYLAND_DISPLAY` is set.
    #[error(
        "no display to capture: neither DISPLAY nor WAYLAND_DISPLAY is set (run inside a desktop session, or under Xvfb)"
    )]
    NoDisplay,
    /// The X server named by `DISPLAY` did not answer.
    #[error("cannot connect to the X display {display}: {reason}")]
    Connect {
        /// The display name.
        display: String,
        /// The connection error.
        reason: String,
    },
    /// A Wayland session refused or could not offer a screenshot.
    #[error(
        "the Wayland desktop did not allow a screen capture ({0}); it needs xdg-desktop-portal with a screenshot backend, and your permission when asked"
    )]
    WaylandRefused(String),
    /// Picking windows needs X11 (or XWayland).
    #[error(
        "finding a window by name needs X11 (or XWayland); on Wayland capture the screen or a region instead"
    )]
    WindowsNeedX11,
    /// No window matches the name.
    #[error("no window titled \"{name}\" is on the screen{}", list_hint(.titles))]
    WindowNotFound {
        /// The name asked for.
        name: String,
        /// Titles of the windows that are on screen (at most a few).
        titles: Vec<String>,
    },
    /// Several windows contain the name and none matches it exactly.
    #[error("several windows match \"{name}\": {}; give the whole title", .titles.join(", "))]
    AmbiguousWindow {
        /// The name asked for.
        name: String,
        /// The matching titles.
        titles: Vec<String>,
    },
    /// The monitor index is out of range.
    #[error("there is no monitor {index} (found {count})")]
    NoSuchMonitor {
        /// The index asked for.
        index: usize,
        /// Monitors found.
        count: usize,
    },
    /// The rectangle (or window) lies outside every monitor.
    #[error("{0} is not on any monitor")]
    OffScreen(ScreenRect),
    /// The capture library failed.
    #[error("screen capture failed: {0}")]
    Capture(String),
}

impl From<ScreenError> for CameraError {
    /// Failures that retrying cannot mend (no display, a refusing desktop, windows not
    /// reachable) stop the capture; the others are retried like an unplugged camera.
    fn from(e: ScreenError) -> CameraError {
        match e {
            ScreenError::NoDisplay
            | ScreenError::Connect { .. }
            | ScreenError::WaylandRefused(_)
            | ScreenError::WindowsNeedX11 => CameraError::ScreenUnavailable(e.to_string()),
            _ => CameraError::Screen(e.to_string()),
        }
    }
}

fn list_hint(titles: &[String]) -> String {
    if titles.is_empty() {
        " (no titled windows found)".into()
    } else {
        format!(" (windows: {})", titles.join(", "))
    }
}

/// One capture: the pixels and where they are on the screen.
#[derive(Clone, Debug)]
pub struct ScreenCapture {
    /// The captured pixels.
    pub image: RgbImage,
    /// Screen position of the image's top-left pixel (capture pixel `(x, y)` is screen pixel
    /// `(x + origin.0, y + origin.1)`).
    pub origin: (i32, i32),
}

impl ScreenCapture {
    /// The rectangle of the screen this capture shows, screen pixels.
    pub fn screen_rect(&self) -> ScreenRect {
        ScreenRect {
            x: self.origin.0,
            y: self.origin.1,
            width: self.image.width(),
            height: self.image.height(),
        }
    }
}

/// Whether this process runs in a Wayland session (where xcap captures through the portal).
pub fn is_wayland() -> bool {
    std::env::var_os("WAYLAND_DISPLAY").is_some()
        || std::env::var("XDG_SESSION_TYPE").is_ok_and(|t| t.eq_ignore_ascii_case("wayland"))
}

/// Checks that there is a display to talk to at all (before any library tries to connect).
pub fn check_display() -> Result<(), ScreenError> {
    let has = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    if !has("DISPLAY") && !has("WAYLAND_DISPLAY") {
        return Err(ScreenError::NoDisplay);
    }
    Ok(())
}

/// Where `target` is on the screen right now (the window's content area for a window).
pub fn locate(target: &ScreenTarget) -> Result<ScreenRect, ScreenError> {
    check_display()?;
    match target {
        ScreenTarget::Region(r) => {
            if !is_wayland() {
                x11::X11::connect()?;
            }
            Ok(*r)
        }
        ScreenTarget::Window(name) => {
            if std::env::var_os("DISPLAY").is_none() {
                return Err(ScreenError::WindowsNeedX11);
            }
            x11::find_window(name).map(|w| w.rect)
        }
        ScreenTarget::Whole | ScreenTarget::Monitor(_) => {
            if !is_wayland() {
                // A clear "cannot connect to :N" before xcap's bare connection error.
                x11::X11::connect()?;
            }
            let monitors = xcap::Monitor::all().map_err(capture_error)?;
            let count = monitors.len();
            if let ScreenTarget::Monitor(index) = *target {
                let monitor = monitors
                    .get(index)
                    .ok_or(ScreenError::NoSuchMonitor { index, count })?;
                return monitor_rect(monitor);
            }
            let rects = monitors
                .iter()
                .map(monitor_rect)
                .collect::<Result<Vec<_>, _>>()?;
            rects
                .into_iter()
                .reduce(union)
                .ok_or(ScreenError::NoSuchMonitor { index: 0, count })
        }
    }
}

/// Captures `target` once.
pub fn capture(target: &ScreenTarget) -> Result<ScreenCapture, ScreenError> {
    let rect = locate(target)?;
    capture_rect(rect)
}

/// Captures a rectangle of the screen: every monitor it overlaps, each in its place (black
/// where no monitor shows), cropped to the part of `rect` the monitors show.
pub fn capture_rect(rect: ScreenRect) -> Result<ScreenCapture, ScreenError> {
    check_display()?;
    let mut parts = Vec::new();
    for monitor in xcap::Monitor::all().map_err(capture_error)? {
        let m = monitor_rect(&monitor)?;
        if let Some(clip) = intersect(rect, m) {
            parts.push((monitor, m, clip));
        }
    }
    let mut shots = Vec::with_capacity(parts.len());
    for (monitor, m, clip) in parts {
        let rgba = monitor
            .capture_region(
                (clip.x - m.x) as u32,
                (clip.y - m.y) as u32,
                clip.width,
                clip.height,
            )
            .map_err(capture_error)?;
        shots.push(ScreenCapture {
            image: image::DynamicImage::ImageRgba8(rgba).to_rgb8(),
            origin: (clip.x, clip.y),
        });
    }
    join_captures(shots).ok_or(ScreenError::OffScreen(rect))
}

/// Captures of parts of the screen (one per monitor) joined into one picture spanning them
/// all, each in its place, black where none shows; `None` for no part.
fn join_captures(mut parts: Vec<ScreenCapture>) -> Option<ScreenCapture> {
    let span = parts.iter().map(ScreenCapture::screen_rect).reduce(union)?;
    if parts.len() == 1 {
        return parts.pop();
    }
    let mut image = RgbImage::new(span.width, span.height);
    for part in &parts {
        let (x, y) = (part.origin.0 - span.x, part.origin.1 - span.y);
        image::imageops::replace(&mut image, &part.image, x as i64, y as i64);
    }
    Some(ScreenCapture {
        image,
        origin: (span.x, span.y),
    })
}

fn monitor_rect(monitor: &xcap::Monitor) -> Result<ScreenRect, ScreenError> {
    Ok(ScreenRect {
        x: monitor.x().map_err(capture_error)?,
        y: monitor.y().map_err(capture_error)?,
        width: monitor.width().map_err(capture_error)?,
        height: monitor.height().map_err(capture_error)?,
    })
}

/// The smallest rectangle holding both.
fn union(a: ScreenRect, b: ScreenRect) -> ScreenRect {
    let x0 = a.x.min(b.x);
    let y0 = a.y.min(b.y);
    let x1 = (a.x as i64 + a.width as i64).max(b.x as i64 + b.width as i64);
    let y1 = (a.y as i64 + a.height as i64).max(b.y as i64 + b.height as i64);
    ScreenRect {
        x: x0,
        y: y0,
        width: (x1 - x0 as i64) as u32,
        height: (y1 - y0 as i64) as u32,
    }
}

/// The overlap of two rectangles, if any.
fn intersect(a: ScreenRect, b: ScreenRect) -> Option<ScreenRect> {
    let x0 = a.x.max(b.x);
    let y0 = a.y.max(b.y);
    let x1 = (a.x as i64 + a.width as i64).min(b.x as i64 + b.width as i64);
    let y1 = (a.y as i64 + a.height as i64).min(b.y as i64 + b.height as i64);
    (x1 > x0 as i64 && y1 > y0 as i64).then(|| ScreenRect {
        x: x0,
        y: y0,
        width: (x1 - x0 as i64) as u32,
        height: (y1 - y0 as i64) as u32,
    })
}

fn capture_error(e: xcap::XCapError) -> ScreenError {
    if is_wayland() {
        ScreenError::WaylandRefused(e.to_string())
    } else {
        ScreenError::Capture(e.to_string())
    }
}

/// Captures in a row, [`QUICK_INTERVAL`] apart, after the picture changed: enough for the live
/// path to see a steady grid and vote its reads (2 steady frames, then 3 reads), so a new
/// puzzle locks within a fraction of a second instead of waiting seconds at the steady rate.
pub const QUICK_FRAMES_AFTER_CHANGE: u32 = 5;

/// Time between the quick captures after a change.
pub const QUICK_INTERVAL: Duration = Duration::from_millis(50);

/// The screen played as a camera: captures `target` at a steady rate, and quickly for a few
/// frames whenever the picture changed (a screen, unlike a camera, is still until something
/// on it changes; then the live path needs a few frames to lock). A window that is not found
/// (closed, renamed) is reported as a device error and retried by the capture thread's stall
/// handling like an unplugged camera.
#[derive(Debug)]
pub struct ScreenSource {
    target: ScreenTarget,
    frame_interval: Duration,
    next_due: Option<Instant>,
    last: Option<(ScreenRect, ScreenCapture)>,
    quick_left: u32,
}

impl ScreenSource {
    /// A source capturing `target` at `fps` frames per second (outside [`SCREEN_FPS_RANGE`]:
    /// [`DEFAULT_SCREEN_FPS`]). Checks once that the target can be captured.
    pub fn open(target: ScreenTarget, fps: f32) -> Result<ScreenSource, ScreenError> {
        locate(&target)?;
        let fps = if SCREEN_FPS_RANGE.contains(&fps) {
            fps
        } else {
            DEFAULT_SCREEN_FPS
        };
        Ok(ScreenSource {
            target,
            frame_interval: Duration::from_secs_f32(1.0 / fps),
            next_due: None,
            last: None,
            quick_left: 0,
        })
    }

    /// Waits until the next capture is due, captures, and schedules the one after.
    pub fn capture_next(&mut self) -> Result<&ScreenCapture, ScreenError> {
        if let Some(due) = self.next_due {
            let now = Instant::now();
            if due > now {
                std::thread::sleep(due - now);
            }
        }
        let rect = locate(&self.target)?;
        let mut shot = capture_rect(rect)?;
        // The app's own window never goes into its own analysis.
        desk::blank_own_windows(&mut shot);
        let changed = self
            .last
            .as_ref()
            .is_none_or(|(r, s)| *r != rect || s.image != shot.image);
        let wait;
        (wait, self.quick_left) = next_wait(changed, self.quick_left, self.frame_interval);
        self.next_due = Some(Instant::now() + wait);
        Ok(&self.last.insert((rect, shot)).1)
    }

    /// Where the target was on the screen at the last capture.
    pub fn last_rect(&self) -> Option<ScreenRect> {
        self.last.as_ref().map(|(r, _)| *r)
    }
}

/// The wait before the next capture and the quick captures left after it: a change starts
/// [`QUICK_FRAMES_AFTER_CHANGE`] quick captures, then the steady `interval` comes back.
fn next_wait(changed: bool, quick_left: u32, interval: Duration) -> (Duration, u32) {
    let quick_left = if changed {
        QUICK_FRAMES_AFTER_CHANGE
    } else {
        quick_left
    };
    match quick_left {
        0 => (interval, 0),
        n => (QUICK_INTERVAL.min(interval), n - 1),
    }
}

impl FrameSource for ScreenSource {
    fn describe(&self) -> String {
        format!("screen: {}", self.target)
    }

    fn next_frame(&mut self) -> Result<RgbImage, CameraError> {
        self.capture_next()
            .map(|shot| shot.image.clone())
            .map_err(CameraError::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_parse_in_x11_geometry_form() {
        let r: ScreenRect = "600x400+10+-20".parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            r,
            ScreenRect {
                x: 10,
                y: -20,
                width: 600,
                height: 400
            }
        );
        assert!("600x400".parse::<ScreenRect>().is_err());
        assert!("0x400+0+0".parse::<ScreenRect>().is_err());
        assert!("axb+1+2".parse::<ScreenRect>().is_err());
    }

    #[test]
    fn intersection_clips_to_the_monitor() {
        let m = ScreenRect {
            x: 0,
            y: 0,
            width: 100,
            height: 100,
        };
        let r = ScreenRect {
            x: 80,
            y: -10,
            width: 50,
            height: 50,
        };
        assert_eq!(
            intersect(r, m),
            Some(ScreenRect {
                x: 80,
                y: 0,
                width: 20,
                height: 40
            })
        );
        let away = ScreenRect { x: 200, ..r };
        assert_eq!(intersect(away, m), None);
    }

    #[test]
    fn monitors_are_joined_in_place_with_black_between() {
        let shot = |x, y, w, h, v| ScreenCapture {
            image: RgbImage::from_pixel(w, h, image::Rgb([v, v, v])),
            origin: (x, y),
        };
        // A 40×30 monitor left of the origin, a 50×20 one to its right and 10 px lower.
        let joined = join_captures(vec![shot(-40, 0, 40, 30, 100), shot(0, 10, 50, 20, 200)])
            .unwrap_or_else(|| panic!("joined"));
        assert_eq!(joined.origin, (-40, 0));
        assert_eq!(joined.image.dimensions(), (90, 30));
        let at = |x: u32, y: u32| joined.image.get_pixel(x, y).0[0];
        assert_eq!((at(0, 0), at(39, 29)), (100, 100));
        assert_eq!((at(40, 10), at(89, 29)), (200, 200));
        // Above the right monitor no monitor shows.
        assert_eq!(at(60, 5), 0);
        // Screen pixel (10, 15) is capture pixel (50, 15), on the right monitor.
        assert_eq!(at((10 - joined.origin.0) as u32, 15), 200);
        // One part comes back as it is; none is no capture.
        let one = join_captures(vec![shot(5, 6, 7, 8, 9)]).unwrap_or_else(|| panic!("one"));
        assert_eq!((one.origin, one.image.dimensions()), ((5, 6), (7, 8)));
        assert!(join_captures(Vec::new()).is_none());
    }

    #[test]
    fn a_change_brings_quick_captures_then_the_steady_rate() {
        let steady = Duration::from_millis(500);
        // First capture (a change): quick captures follow.
        let (mut wait, mut left) = next_wait(true, 0, steady);
        let mut waits = vec![wait];
        for _ in 0..7 {
            (wait, left) = next_wait(false, left, steady);
            waits.push(wait);
        }
        let quick = QUICK_FRAMES_AFTER_CHANGE as usize;
        assert!(
            waits[..quick].iter().all(|&w| w == QUICK_INTERVAL),
            "{waits:?}"
        );
        assert!(waits[quick..].iter().all(|&w| w == steady), "{waits:?}");
        // A change while steady starts them again; a steady rate faster than quick stays.
        assert_eq!(
            next_wait(true, 0, steady),
            (QUICK_INTERVAL, quick as u32 - 1)
        );
        let fast = Duration::from_millis(20);
        assert_eq!(next_wait(true, 0, fast).0, fast);
    }

    #[test]
    fn missing_display_is_an_error_not_a_panic() {
        // Only meaningful where no display is set; elsewhere the message is still checked.
        let msg = ScreenError::NoDisplay.to_string();
        assert!(msg.contains("DISPLAY"), "{msg}");
        let e = ScreenError::WindowNotFound {
            name: "Game".into(),
            titles: vec!["Terminal".into()],
        };
        assert_eq!(
            e.to_string(),
            "no window titled \"Game\" is on the screen (windows: Terminal)"
        );
    }
}
