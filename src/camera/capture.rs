//! The capture threads: [`start`] spawns a supervisor thread (`camera-watchdog`) that opens the
//! source on a capture thread (`camera-capture`), forwards the newest frame to every sink
//! [`Mailbox`], reports [`CaptureEvent`]s over a bounded channel, and reopens the source when no
//! frame arrived for [`CaptureOptions::stall_after`] or when opening failed.
//!
//! A capture thread blocked inside a driver call cannot be interrupted; the watchdog abandons
//! it (its frames are ignored from then on, and it exits when the call returns) and opens a
//! fresh one. A still source ([`FrameSource::is_still`]) is read once per open: its capture
//! thread ends after the one frame, and the watchdog does not count the silence as a stall.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{CameraError, Frame, FrameSource, Mailbox};

/// Creates a frame source; called on the capture thread, again after every stall or failure.
pub type Opener = Arc<dyn Fn() -> Result<Box<dyn FrameSource>, CameraError> + Send + Sync>;

/// What the capture machinery tells its owner. Sent over a bounded channel; the owner is
/// woken with `notify` after each event.
#[derive(Clone, Debug, PartialEq)]
pub enum CaptureEvent {
    /// The source opened; the text describes it.
    Opened(String),
    /// Opening or reading failed; the watchdog retries after [`CaptureOptions::retry_after`].
    Failed(CameraError),
    /// No frame for longer than [`CaptureOptions::stall_after`]; the source is being reopened.
    Stalled(CameraError),
    /// A finite source ended; capture stopped.
    Ended,
}

/// Capture tuning.
#[derive(Clone, Copy, Debug)]
pub struct CaptureOptions {
    /// No frame for this long counts as a stall (the source is reopened).
    pub stall_after: Duration,
    /// Wait this long before reopening after a failure.
    pub retry_after: Duration,
    /// Give up after this many failed opens in a row (`None`: never).
    pub max_failed_opens: Option<u32>,
}

impl Default for CaptureOptions {
    fn default() -> Self {
        CaptureOptions {
            stall_after: Duration::from_secs(2),
            retry_after: Duration::from_secs(2),
            max_failed_opens: None,
        }
    }
}

/// A running capture; dropping it stops the threads (without waiting for a blocked driver).
#[derive(Debug)]
pub struct CaptureHandle {
    events: Receiver<CaptureEvent>,
    stop: Arc<AtomicBool>,
    frames_captured: Arc<AtomicU64>,
    notify_frames: Arc<AtomicBool>,
    supervisor: Option<JoinHandle<()>>,
}

impl CaptureHandle {
    /// The next pending event, if any (never blocks).
    pub fn try_event(&self) -> Option<CaptureEvent> {
        self.events.try_recv().ok()
    }

    /// Frames delivered so far, over all reopenings.
    pub fn frames_captured(&self) -> u64 {
        self.frames_captured.load(Ordering::Relaxed)
    }

    /// Whether the supervisor has finished (source ended, gave up, or stopped).
    pub fn is_finished(&self) -> bool {
        self.supervisor.as_ref().is_none_or(|h| h.is_finished())
    }

    /// Whether `notify` is called after every frame (the default) or only after events: a
    /// consumer that wakes the UI itself once it has worked on a frame turns it off.
    pub fn set_frame_notify(&self, on: bool) {
        self.notify_frames.store(on, Ordering::Release);
    }

    /// Asks the threads to stop; returns at once.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }
}

impl Drop for CaptureHandle {
    fn drop(&mut self) {
        self.stop();
    }
}

/// State shared between the watchdog and one capture thread.
struct Session {
    abandoned: AtomicBool,
    last_activity: Mutex<Instant>,
    /// Set by the capture thread when it stops on its own (failure or end of source).
    outcome: Mutex<Option<CaptureEvent>>,
    opened: AtomicBool,
    /// Set when a still source delivered its frame: silence from now on is not a stall.
    still: AtomicBool,
}

impl Session {
    fn new() -> Session {
        Session {
            abandoned: AtomicBool::new(false),
            last_activity: Mutex::new(Instant::now()),
            outcome: Mutex::new(None),
            opened: AtomicBool::new(false),
            still: AtomicBool::new(false),
        }
    }

    fn touch(&self) {
        *self.last_activity.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    fn idle_for(&self) -> Duration {
        self.last_activity
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }

    fn finish(&self, event: CaptureEvent) {
        *self.outcome.lock().unwrap_or_else(|e| e.into_inner()) = Some(event);
    }

    fn take_outcome(&self) -> Option<CaptureEvent> {
        self.outcome
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

/// Everything a capture thread needs.
struct CaptureContext {
    opener: Opener,
    sinks: Vec<Arc<Mailbox<Frame>>>,
    notify: Arc<dyn Fn() + Send + Sync>,
    events: SyncSender<CaptureEvent>,
    stop: Arc<AtomicBool>,
    frames_captured: Arc<AtomicU64>,
    notify_frames: Arc<AtomicBool>,
}

impl CaptureContext {
    fn send(&self, event: CaptureEvent) {
        match self.events.try_send(event) {
            Ok(()) => {}
            Err(TrySendError::Full(e)) => tracing::warn!(event = ?e, "capture event dropped"),
            Err(TrySendError::Disconnected(_)) => {}
        }
        (self.notify)();
    }
}

/// Starts capturing from the sources `opener` creates. Every frame goes to each of `sinks`
/// (newest wins); `notify` is called after every event and, unless turned off with
/// [`CaptureHandle::set_frame_notify`], every frame (pass the UI's `request_repaint`). Fails
/// only when a thread cannot be spawned.
pub fn start(
    opener: Opener,
    sinks: Vec<Arc<Mailbox<Frame>>>,
    notify: Arc<dyn Fn() + Send + Sync>,
    options: CaptureOptions,
) -> std::io::Result<CaptureHandle> {
    let (tx, rx) = sync_channel(32);
    let stop = Arc::new(AtomicBool::new(false));
    let frames_captured = Arc::new(AtomicU64::new(0));
    let notify_frames = Arc::new(AtomicBool::new(true));
    let ctx = Arc::new(CaptureContext {
        opener,
        sinks,
        notify,
        events: tx,
        stop: Arc::clone(&stop),
        frames_captured: Arc::clone(&frames_captured),
        notify_frames: Arc::clone(&notify_frames),
    });
    let supervisor = std::thread::Builder::new()
        .name("camera-watchdog".into())
        .spawn(move || watchdog(ctx, options))?;
    Ok(CaptureHandle {
        events: rx,
        stop,
        frames_captured,
        notify_frames,
        supervisor: Some(supervisor),
    })
}

fn watchdog(ctx: Arc<CaptureContext>, options: CaptureOptions) {
    let tick = Duration::from_millis(50).min(options.stall_after / 4);
    let mut failed_opens = 0u32;
    'sessions: while !ctx.stop.load(Ordering::Acquire) {
        let session = Arc::new(Session::new());
        let spawned = {
            let ctx = Arc::clone(&ctx);
            let session = Arc::clone(&session);
            std::thread::Builder::new()
                .name("camera-capture".into())
                .spawn(move || capture_loop(&ctx, &session))
        };
        if let Err(e) = spawned {
            ctx.send(CaptureEvent::Failed(CameraError::Device(format!(
                "cannot start the capture thread: {e}"
            ))));
            return;
        }
        loop {
            std::thread::sleep(tick);
            if ctx.stop.load(Ordering::Acquire) {
                session.abandoned.store(true, Ordering::Release);
                break 'sessions;
            }
            match session.take_outcome() {
                Some(CaptureEvent::Ended) => {
                    ctx.send(CaptureEvent::Ended);
                    return;
                }
                Some(CaptureEvent::Failed(e)) => {
                    let opened = session.opened.load(Ordering::Acquire);
                    failed_opens = if opened { 0 } else { failed_opens + 1 };
                    ctx.send(CaptureEvent::Failed(e));
                    if options
                        .max_failed_opens
                        .is_some_and(|max| failed_opens >= max)
                    {
                        return;
                    }
                    if !sleep_unless_stopped(&ctx.stop, options.retry_after) {
                        return;
                    }
                    continue 'sessions;
                }
                Some(other) => ctx.send(other),
                None => {}
            }
            let idle = session.idle_for();
            if idle >= options.stall_after && !session.still.load(Ordering::Acquire) {
                session.abandoned.store(true, Ordering::Release);
                ctx.send(CaptureEvent::Stalled(CameraError::Stalled(
                    idle.as_secs_f32(),
                )));
                continue 'sessions;
            }
        }
    }
}

/// Sleeps `total` in small slices; false when asked to stop meanwhile.
fn sleep_unless_stopped(stop: &AtomicBool, total: Duration) -> bool {
    let until = Instant::now() + total;
    while Instant::now() < until {
        if stop.load(Ordering::Acquire) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    !stop.load(Ordering::Acquire)
}

fn capture_loop(ctx: &CaptureContext, session: &Session) {
    let mut source = match (ctx.opener)() {
        Ok(s) => s,
        Err(e) => {
            session.finish(CaptureEvent::Failed(e));
            return;
        }
    };
    if session.abandoned.load(Ordering::Acquire) {
        return;
    }
    session.opened.store(true, Ordering::Release);
    session.touch();
    ctx.send(CaptureEvent::Opened(source.describe()));
    let mut seq = 0u64;
    loop {
        if session.abandoned.load(Ordering::Acquire) || ctx.stop.load(Ordering::Acquire) {
            return;
        }
        match source.next_frame() {
            Ok(image) => {
                if session.abandoned.load(Ordering::Acquire) {
                    return;
                }
                session.touch();
                let still = source.is_still();
                let frame = Frame {
                    image: Arc::new(image),
                    seq,
                    captured_at: Instant::now(),
                    still,
                };
                seq += 1;
                ctx.frames_captured.fetch_add(1, Ordering::Relaxed);
                for sink in &ctx.sinks {
                    sink.put(frame.clone());
                }
                tracing::trace!(seq = frame.seq, "frame captured");
                if ctx.notify_frames.load(Ordering::Acquire) {
                    (ctx.notify)();
                }
                if still {
                    // Reading it again would only repeat the same picture (and make every
                    // consumer redo its work): the one frame stays in the sinks' hands.
                    session.still.store(true, Ordering::Release);
                    tracing::debug!("still source delivered its frame");
                    return;
                }
            }
            Err(e) if e.is_transient() => {
                tracing::debug!(error = %e, "skipping a bad frame");
            }
            Err(CameraError::Ended) => {
                session.finish(CaptureEvent::Ended);
                return;
            }
            Err(e) => {
                session.finish(CaptureEvent::Failed(e));
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Counting {
        n: u8,
        stall_at: Option<u8>,
        limit: u8,
    }

    impl FrameSource for Counting {
        fn describe(&self) -> String {
            "counting".into()
        }
        fn next_frame(&mut self) -> Result<image::RgbImage, CameraError> {
            if self.n >= self.limit {
                return Err(CameraError::Ended);
            }
            if Some(self.n) == self.stall_at {
                std::thread::sleep(Duration::from_millis(400));
            }
            std::thread::sleep(Duration::from_millis(5));
            self.n += 1;
            if self.n == 2 {
                return Err(CameraError::CorruptFrame("bad".into()));
            }
            Ok(image::RgbImage::from_pixel(
                2,
                2,
                image::Rgb([self.n, 0, 0]),
            ))
        }
    }

    fn events_until(
        handle: &CaptureHandle,
        want: impl Fn(&CaptureEvent) -> bool,
    ) -> Vec<CaptureEvent> {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut seen = Vec::new();
        while Instant::now() < deadline {
            if let Some(e) = handle.try_event() {
                let done = want(&e);
                seen.push(e);
                if done {
                    break;
                }
            } else {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        seen
    }

    #[test]
    fn frames_flow_corrupt_frames_are_skipped_and_end_is_reported() {
        let sink = Arc::new(Mailbox::new());
        let opener: Opener = Arc::new(|| {
            Ok(Box::new(Counting {
                n: 0,
                stall_at: None,
                limit: 6,
            }) as Box<dyn FrameSource>)
        });
        let handle = start(
            opener,
            vec![Arc::clone(&sink)],
            Arc::new(|| {}),
            CaptureOptions::default(),
        )
        .unwrap();
        let events = events_until(&handle, |e| *e == CaptureEvent::Ended);
        assert_eq!(
            events.first(),
            Some(&CaptureEvent::Opened("counting".into()))
        );
        assert_eq!(events.last(), Some(&CaptureEvent::Ended));
        // 6 reads, one corrupt: 5 frames; the newest (value 6) is in the mailbox.
        assert_eq!(handle.frames_captured(), 5);
        assert_eq!(sink.take().map(|f| f.image[(0, 0)][0]), Some(6));
    }

    #[test]
    fn a_stall_is_reported_and_the_source_reopened() {
        let opens = Arc::new(AtomicU64::new(0));
        let opens2 = Arc::clone(&opens);
        let opener: Opener = Arc::new(move || {
            let first = opens2.fetch_add(1, Ordering::SeqCst) == 0;
            Ok(Box::new(Counting {
                n: 0,
                stall_at: first.then_some(3),
                limit: 200,
            }) as Box<dyn FrameSource>)
        });
        let options = CaptureOptions {
            stall_after: Duration::from_millis(150),
            ..CaptureOptions::default()
        };
        let handle = start(opener, vec![], Arc::new(|| {}), options).unwrap();
        let events = events_until(&handle, |e| {
            matches!(e, CaptureEvent::Opened(_)) && opens.load(Ordering::SeqCst) >= 2
        });
        assert!(
            events
                .iter()
                .any(|e| matches!(e, CaptureEvent::Stalled(CameraError::Stalled(_)))),
            "{events:?}"
        );
        assert!(opens.load(Ordering::SeqCst) >= 2);
    }

    struct Still {
        reads: Arc<AtomicU64>,
    }

    impl FrameSource for Still {
        fn describe(&self) -> String {
            "still".into()
        }
        fn next_frame(&mut self) -> Result<image::RgbImage, CameraError> {
            self.reads.fetch_add(1, Ordering::SeqCst);
            Ok(image::RgbImage::from_pixel(2, 2, image::Rgb([9, 9, 9])))
        }
        fn is_still(&self) -> bool {
            true
        }
    }

    #[test]
    fn a_still_source_is_read_once_and_its_silence_is_no_stall() {
        let reads = Arc::new(AtomicU64::new(0));
        let reads2 = Arc::clone(&reads);
        let opener: Opener = Arc::new(move || {
            Ok(Box::new(Still {
                reads: Arc::clone(&reads2),
            }) as Box<dyn FrameSource>)
        });
        let sink = Arc::new(Mailbox::new());
        let notified = Arc::new(AtomicU64::new(0));
        let notified2 = Arc::clone(&notified);
        let options = CaptureOptions {
            stall_after: Duration::from_millis(60),
            ..CaptureOptions::default()
        };
        let handle = start(
            opener,
            vec![Arc::clone(&sink)],
            Arc::new(move || {
                notified2.fetch_add(1, Ordering::SeqCst);
            }),
            options,
        )
        .unwrap();
        // Five stall periods of silence.
        std::thread::sleep(Duration::from_millis(300));
        let mut events = Vec::new();
        while let Some(e) = handle.try_event() {
            events.push(e);
        }
        assert_eq!(events, vec![CaptureEvent::Opened("still".into())]);
        assert_eq!(reads.load(Ordering::SeqCst), 1);
        assert_eq!(handle.frames_captured(), 1);
        assert!(sink.take().is_some_and(|f| f.still) && sink.take().is_none());
        // One wake-up for the event, one for the frame; nothing while idle.
        assert_eq!(notified.load(Ordering::SeqCst), 2);
        assert!(!handle.is_finished(), "a still source stays open");
    }

    #[test]
    fn failed_opens_are_reported_and_retried_up_to_the_limit() {
        let opener: Opener = Arc::new(|| Err(CameraError::Busy("held by another app".into())));
        let options = CaptureOptions {
            retry_after: Duration::from_millis(10),
            max_failed_opens: Some(2),
            ..CaptureOptions::default()
        };
        let handle = start(opener, vec![], Arc::new(|| {}), options).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while !handle.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let mut events = Vec::new();
        while let Some(e) = handle.try_event() {
            events.push(e);
        }
        assert_eq!(
            events,
            vec![CaptureEvent::Failed(CameraError::Busy("held by another app".into())); 2]
        );
    }
}
