//! The desktop as a place to choose a screen source from: the monitors ([`list_monitors`]),
//! the windows, a frozen screenshot of the whole desktop ([`capture_desktop`]) and the
//! rectangle dragged on it ([`ScreenCapture::rect_between`]: capture pixels → screen pixels);
//! this process's own windows blanked out of every capture ([`blank_own_windows`]), so the
//! app never reads its own copy of a puzzle. [`Desk`] is the seam the app reaches all of it
//! through ([`SystemDesk`] in production, a fixed screenshot in tests). No egui here.

use image::Rgb;

use super::{
    ScreenCapture, ScreenError, ScreenRect, ScreenSource, ScreenTarget, WindowInfo, capture_error,
    check_display, intersect, is_wayland, list_windows, monitor_rect, x11,
};
use crate::camera::FrameSource;

/// The grey painted where the app's own windows are in a capture.
pub const BLANKED: Rgb<u8> = Rgb([128, 128, 128]);

/// A rectangle dragged smaller than this (either side, screen pixels) is no choice.
pub const MIN_REGION_PX: u32 = 24;

/// One monitor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MonitorInfo {
    /// Its index in the monitor list (what [`ScreenTarget::Monitor`] takes).
    pub index: usize,
    /// Its name as the system gives it (e.g. `HDMI-1`; may be empty).
    pub name: String,
    /// Where it is, screen pixels.
    pub rect: ScreenRect,
    /// Whether it is the primary monitor.
    pub primary: bool,
}

impl std::fmt::Display for MonitorInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Monitor {}", self.index)?;
        if !self.name.is_empty() {
            write!(f, " {}", self.name)?;
        }
        let r = self.rect;
        write!(f, ": {}×{} at {},{}", r.width, r.height, r.x, r.y)?;
        if self.primary {
            f.write_str(" (primary)")?;
        }
        Ok(())
    }
}

/// The monitors, in the order [`ScreenTarget::Monitor`] counts them.
pub fn list_monitors() -> Result<Vec<MonitorInfo>, ScreenError> {
    check_display()?;
    if !is_wayland() {
        x11::X11::connect()?;
    }
    let monitors = xcap::Monitor::all().map_err(capture_error)?;
    monitors
        .iter()
        .enumerate()
        .map(|(index, m)| {
            Ok(MonitorInfo {
                index,
                name: m.name().unwrap_or_default(),
                rect: monitor_rect(m)?,
                primary: m.is_primary().unwrap_or(false),
            })
        })
        .collect()
}

/// One capture of the whole desktop: every monitor in place on one image spanning them all
/// (black where no monitor is), this process's windows blanked.
pub fn capture_desktop() -> Result<ScreenCapture, ScreenError> {
    let mut capture = super::capture(&ScreenTarget::Whole)?;
    blank_own_windows(&mut capture);
    Ok(capture)
}

/// Paints [`BLANKED`] over the parts of `capture` that show any of `rects` (screen pixels).
pub fn blank_rects(capture: &mut ScreenCapture, rects: &[ScreenRect]) {
    for r in rects {
        let Some((x0, y0, width, height)) = capture.rect_in_capture(*r) else {
            continue;
        };
        for y in y0..y0 + height {
            for x in x0..x0 + width {
                capture.image.put_pixel(x, y, BLANKED);
            }
        }
    }
}

/// Blanks this process's own windows (the app's) out of `capture`, where windows can be
/// listed (X11, XWayland); elsewhere the capture is left as it is.
pub fn blank_own_windows(capture: &mut ScreenCapture) {
    let own = x11::own_window_rects();
    if !own.is_empty() {
        blank_rects(capture, &own);
    }
}

impl ScreenCapture {
    /// The screen rectangle between two corners given in this capture's pixels (in any
    /// order; clamped to the capture), or `None` when it is smaller than [`MIN_REGION_PX`]
    /// either way (a click, not a drag).
    pub fn rect_between(&self, a_px: (f32, f32), b_px: (f32, f32)) -> Option<ScreenRect> {
        let (w, h) = (self.image.width() as f32, self.image.height() as f32);
        let clamp = |v: f32, max: f32| {
            if v.is_finite() {
                v.clamp(0.0, max)
            } else {
                0.0
            }
        };
        let (ax, bx) = (clamp(a_px.0, w), clamp(b_px.0, w));
        let (ay, by) = (clamp(a_px.1, h), clamp(b_px.1, h));
        let (x0, x1) = (ax.min(bx).round() as u32, ax.max(bx).round() as u32);
        let (y0, y1) = (ay.min(by).round() as u32, ay.max(by).round() as u32);
        let (width, height) = (x1 - x0, y1 - y0);
        (width >= MIN_REGION_PX && height >= MIN_REGION_PX).then(|| ScreenRect {
            x: self.origin.0 + x0 as i32,
            y: self.origin.1 + y0 as i32,
            width,
            height,
        })
    }

    /// Where screen rectangle `rect` lies in this capture's pixels (`x, y, width, height`),
    /// clipped to the capture; `None` when it shows none of it.
    pub fn rect_in_capture(&self, rect: ScreenRect) -> Option<(u32, u32, u32, u32)> {
        let shown = self.screen_rect();
        intersect(rect, shown).map(|r| {
            (
                (r.x - shown.x) as u32,
                (r.y - shown.y) as u32,
                r.width,
                r.height,
            )
        })
    }
}

/// What the screen source can be chosen from.
#[derive(Clone, Debug, PartialEq)]
pub struct DeskLists {
    /// The monitors, or why they could not be listed.
    pub monitors: Result<Vec<MonitorInfo>, ScreenError>,
    /// The other windows (this process's left out), topmost first, or why they could not be
    /// listed.
    pub windows: Result<Vec<WindowInfo>, ScreenError>,
}

/// The desktop as the app reaches it. Every call may block (X11 round trips, captures): call
/// them off the UI thread.
pub trait Desk: Send + Sync {
    /// The monitors and the other windows.
    fn lists(&self) -> DeskLists;
    /// A frozen screenshot of the whole desktop, this process's windows blanked.
    fn freeze(&self) -> Result<ScreenCapture, ScreenError>;
    /// A frame source capturing `target` at `fps` frames per second.
    fn open(&self, target: &ScreenTarget, fps: f32) -> Result<Box<dyn FrameSource>, ScreenError>;
}

/// The real desktop (xcap and X11).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemDesk;

impl Desk for SystemDesk {
    fn lists(&self) -> DeskLists {
        DeskLists {
            monitors: list_monitors(),
            windows: list_windows().map(|list| {
                let mut others: Vec<WindowInfo> =
                    list.into_iter().filter(|w| !w.is_own()).collect();
                others.reverse();
                others
            }),
        }
    }

    fn freeze(&self) -> Result<ScreenCapture, ScreenError> {
        capture_desktop()
    }

    fn open(&self, target: &ScreenTarget, fps: f32) -> Result<Box<dyn FrameSource>, ScreenError> {
        ScreenSource::open(target.clone(), fps).map(|s| Box::new(s) as Box<dyn FrameSource>)
    }
}

#[cfg(test)]
mod tests {
    use image::RgbImage;

    use super::*;

    fn capture(origin: (i32, i32)) -> ScreenCapture {
        ScreenCapture {
            image: RgbImage::from_pixel(200, 100, Rgb([10, 20, 30])),
            origin,
        }
    }

    #[test]
    fn a_drag_becomes_a_screen_rectangle_clamped_to_the_capture() {
        let c = capture((-50, 30));
        // Dragged up and to the left, past the capture's edge.
        assert_eq!(
            c.rect_between((120.0, 80.0), (-10.0, 20.0)),
            Some(ScreenRect {
                x: -50,
                y: 50,
                width: 120,
                height: 60
            })
        );
        // A click (or a sliver) is no rectangle.
        assert_eq!(c.rect_between((5.0, 5.0), (6.0, 90.0)), None);
        assert_eq!(
            c.rect_between((f32::NAN, 5.0), (60.0, 90.0)).map(|r| r.x),
            Some(-50)
        );
        let r = ScreenRect {
            x: 0,
            y: 0,
            width: 500,
            height: 500,
        };
        assert_eq!(c.rect_in_capture(r), Some((50, 0, 150, 100)));
    }

    #[test]
    fn own_windows_are_blanked_where_they_overlap_the_capture() {
        let mut c = capture((100, 100));
        let window = ScreenRect {
            x: 250,
            y: 180,
            width: 100,
            height: 100,
        };
        blank_rects(&mut c, &[window]);
        assert_eq!(*c.image.get_pixel(150, 80), BLANKED);
        assert_eq!(*c.image.get_pixel(199, 99), BLANKED);
        assert_eq!(*c.image.get_pixel(149, 80), Rgb([10, 20, 30]));
        assert_eq!(*c.image.get_pixel(150, 79), Rgb([10, 20, 30]));
        let blanked = c.image.pixels().filter(|p| **p == BLANKED).count();
        assert_eq!(blanked, 50 * 20);
    }

    #[test]
    fn monitors_read_as_a_list_entry() {
        let m = MonitorInfo {
            index: 1,
            name: "HDMI-1".into(),
            rect: ScreenRect {
                x: 1920,
                y: 0,
                width: 1280,
                height: 1024,
            },
            primary: false,
        };
        assert_eq!(m.to_string(), "Monitor 1 HDMI-1: 1280×1024 at 1920,0");
    }
}
