//! Measurements and screenshot mode: the [`RunStats`] the app publishes (repaint, camera and
//! scan rates, totals, the slowest UI frame), the sliding-window rate meters behind them, and
//! the `--screenshot` plan (wait for the pipeline to settle, save the window, close).
//!
//! Observes the app; changes nothing the user sees except closing the window when asked to.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::camera::Mailbox;
use crate::session::SolveState;

use super::SudokuLensApp;
use super::state::SourceStatus;
use crate::live::LiveState;

/// Rates measured while running (frames per second over the last seconds, and totals).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunStats {
    /// UI repaints per second.
    pub repaint_fps: f32,
    /// Camera frames shown per second.
    pub camera_fps: f32,
    /// Frames analysed per second by the scanner.
    pub scan_fps: f32,
    /// UI repaints in total.
    pub repaints: u64,
    /// Camera frames shown in total.
    pub frames_shown: u64,
    /// Frames the capture thread delivered in total.
    pub frames_captured: u64,
    /// Frames analysed in total.
    pub frames_analysed: u64,
    /// Slowest UI frame (time inside `show`), milliseconds.
    pub worst_ui_frame_ms: f32,
}

/// Events per second over a sliding window, from a running total.
#[derive(Clone, Debug, Default)]
pub(crate) struct RateMeter {
    /// (when, total then), oldest first, within the window.
    samples: VecDeque<(Instant, u64)>,
    total: u64,
}

impl RateMeter {
    const WINDOW: Duration = Duration::from_secs(2);

    /// One more event at `now`.
    pub(crate) fn tick(&mut self, now: Instant) {
        self.observe(now, self.total + 1);
    }

    /// The running total is `total` at `now` (for counts kept elsewhere, e.g. by a worker).
    pub(crate) fn observe(&mut self, now: Instant, total: u64) {
        self.total = total.max(self.total);
        self.samples.push_back((now, self.total));
        while self
            .samples
            .front()
            .is_some_and(|(t, _)| now.saturating_duration_since(*t) > Self::WINDOW)
        {
            self.samples.pop_front();
        }
    }

    /// Events per second between the oldest and newest sample in the window.
    pub(crate) fn rate(&self) -> f32 {
        match (self.samples.front(), self.samples.back()) {
            (Some((t0, n0)), Some((t1, n1))) if t1 > t0 => {
                (n1 - n0) as f32 / (*t1 - *t0).as_secs_f32()
            }
            _ => 0.0,
        }
    }

    /// Events in total.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }
}

/// The screenshot-and-exit plan of `--screenshot`.
pub(crate) struct ScreenshotPlan {
    path: PathBuf,
    started: Instant,
    settled_frames: u32,
    requested: bool,
    done: Arc<Mailbox<Result<(), String>>>,
}

impl ScreenshotPlan {
    /// A plan to save the window to `path`, starting now.
    pub(crate) fn new(path: PathBuf) -> ScreenshotPlan {
        ScreenshotPlan {
            path,
            started: Instant::now(),
            settled_frames: 0,
            requested: false,
            done: Arc::new(Mailbox::new()),
        }
    }
}

/// Longest wait for the pipeline to settle before the screenshot is taken anyway.
const SCREENSHOT_DEADLINE: Duration = Duration::from_secs(60);
/// On a live source, the screenshot waits this long so the rate meters (2 s window) are full.
const SCREENSHOT_WARM_UP: Duration = Duration::from_secs(3);

/// What the app measures about itself, and the screenshot plan.
pub(crate) struct Diagnostics {
    pub repaints: RateMeter,
    pub frames_shown: RateMeter,
    pub scans: RateMeter,
    pub frames_analysed: u64,
    pub worst_ui_frame: Duration,
    pub opened_at: Instant,
    pub screenshot: Option<ScreenshotPlan>,
}

impl Diagnostics {
    /// Fresh meters; a screenshot plan when `screenshot` names a file.
    pub(crate) fn new(screenshot: Option<PathBuf>) -> Diagnostics {
        Diagnostics {
            repaints: RateMeter::default(),
            frames_shown: RateMeter::default(),
            scans: RateMeter::default(),
            frames_analysed: 0,
            worst_ui_frame: Duration::ZERO,
            opened_at: Instant::now(),
            screenshot: screenshot.map(ScreenshotPlan::new),
        }
    }
}

impl SudokuLensApp {
    /// Current measurements.
    pub fn stats(&self) -> RunStats {
        RunStats {
            repaint_fps: self.diag.repaints.rate(),
            camera_fps: self.diag.frames_shown.rate(),
            scan_fps: self.diag.scans.rate(),
            repaints: self.diag.repaints.total(),
            frames_shown: self.diag.frames_shown.total(),
            frames_captured: self
                .source
                .camera
                .as_ref()
                .map_or(0, |c| c.capture.frames_captured()),
            frames_analysed: self.diag.frames_analysed,
            worst_ui_frame_ms: self.diag.worst_ui_frame.as_secs_f32() * 1000.0,
        }
    }

    // ----- screenshot mode -----

    /// Whether the pipeline has settled (screenshot mode waits for it).
    fn settled(&self) -> bool {
        let solved_or_final = !matches!(self.puzzle.solve, SolveState::Solving);
        match &self.source.camera {
            Some(_) => {
                (self.live.state == LiveState::Locked
                    && matches!(
                        self.puzzle.solve,
                        SolveState::Solved(_) | SolveState::Unsolvable(_)
                    ))
                    || matches!(
                        self.source.status,
                        SourceStatus::CameraFailed(_) | SourceStatus::CameraEnded
                    )
            }
            None => !self.source.photo_pending && solved_or_final && self.live.image.is_some(),
        }
    }

    /// Screenshot mode: once settled, save the window and close it.
    pub(super) fn screenshot_logic(&mut self, ctx: &egui::Context) {
        let settled = self.settled();
        let stats = self.stats();
        let Some(plan) = &mut self.diag.screenshot else {
            return;
        };
        if let Some(result) = plan.done.take() {
            match result {
                Ok(()) => tracing::info!(path = %plan.path.display(), "screenshot saved"),
                Err(e) => tracing::error!(error = %e, "screenshot failed"),
            }
            if let Some(out) = &self.options.stats {
                *out.lock().unwrap_or_else(|e| e.into_inner()) = stats;
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        if plan.requested {
            return;
        }
        let elapsed = plan.started.elapsed();
        let timed_out = elapsed > SCREENSHOT_DEADLINE;
        if !(settled || timed_out) {
            // Workers wake the UI when something changes; only the deadline is a timer.
            ctx.request_repaint_after(SCREENSHOT_DEADLINE.saturating_sub(elapsed));
            return;
        }
        plan.settled_frames += 1;
        // A few frames after settling, so textures and layout are final; on a live source let
        // the rate meters fill so the status bar shows real figures.
        let warm_after = if self.source.camera.is_some() {
            SCREENSHOT_WARM_UP
        } else {
            Duration::ZERO
        };
        if elapsed < warm_after {
            ctx.request_repaint_after(warm_after - elapsed);
            return;
        }
        if plan.settled_frames >= 5 {
            plan.requested = true;
            let path = plan.path.clone();
            let done = Arc::clone(&plan.done);
            let repaint = ctx.clone();
            ctx.request_screenshot(move |img| {
                let rgba: Vec<u8> = img
                    .pixels
                    .iter()
                    .flat_map(|p| p.to_srgba_unmultiplied())
                    .collect();
                let saved = image::save_buffer(
                    &path,
                    &rgba,
                    img.size[0] as u32,
                    img.size[1] as u32,
                    image::ExtendedColorType::Rgba8,
                )
                .map_err(|e| e.to_string());
                done.put(saved);
                repaint.request_repaint();
            });
        }
        // The settled frames are counted one repaint at a time, and the screenshot is taken
        // of the next frame.
        ctx.request_repaint();
    }

    /// Hands the measurements to whoever asked for them (`AppOptions::stats`).
    pub(super) fn publish_stats(&self) {
        if let Some(out) = &self.options.stats {
            *out.lock().unwrap_or_else(|e| e.into_inner()) = self.stats();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_meter_measures_events_per_second() {
        let mut m = RateMeter::default();
        let t0 = Instant::now();
        for i in 0..11 {
            m.tick(t0 + Duration::from_millis(100 * i));
        }
        assert!((m.rate() - 10.0).abs() < 0.01, "{}", m.rate());
        assert_eq!(m.total(), 11);
        // Counts kept elsewhere: 30 more over the next second.
        m.observe(t0 + Duration::from_millis(2000), 41);
        assert_eq!(m.total(), 41);
        assert!((m.rate() - 20.0).abs() < 0.01, "{}", m.rate());
    }
}
