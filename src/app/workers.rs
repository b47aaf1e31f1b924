//! The app's worker threads, each named and each talking to the UI only through a bounded
//! [`Mailbox`] (newest wins) plus a `notify` callback (the UI's `request_repaint`):
//!
//! - `solver`: checks a half-done board's handwritten entries and solves the board with the
//!   explained solver (`session::solve_progress`), newest request wins;
//! - `scanner`: feeds the newest camera frame (stale frames are dropped by the mailbox) to the
//!   live path ([`crate::live`]) and reports each [`ScanUpdate`], waking the UI only when
//!   there is something new to show;
//! - `photo-scan`: one per opened photo.
//!
//! The UI never waits on any of them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use image::RgbImage;

use crate::camera::{Frame, Mailbox};
use crate::live::{FrameWork, LiveOutput};
use crate::session::{Board, LoadFailure, solve_progress};
use crate::sudoku::{Check, Explained};

use super::pipeline::{LiveAnalyzerFactory, PhotoScan, PhotoScanner};

/// Wakes the UI.
pub type Notify = Arc<dyn Fn() + Send + Sync>;

/// A request to solve `values`, tagged with the board generation it belongs to.
#[derive(Clone, Debug)]
pub struct SolveRequest {
    /// Board generation (results of older generations are ignored).
    pub generation: u64,
    /// The values (0 empty).
    pub values: [u8; 81],
    /// Cells holding handwritten entries (checked against the other digits, the givens).
    pub entries: [bool; 81],
    /// Solve from the givens alone, not from the givens plus the right entries.
    pub from_start: bool,
}

/// The answer to a [`SolveRequest`].
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// The request's generation.
    pub generation: u64,
    /// The explained solution, or why there is none.
    pub result: Result<Arc<Explained>, String>,
    /// The handwritten entries' check, for a board with entries.
    pub check: Option<Arc<Check>>,
    /// How long solving took.
    pub took: Duration,
}

/// The solver thread.
#[derive(Debug)]
pub struct SolverWorker {
    requests: Arc<Mailbox<SolveRequest>>,
    /// Results, newest wins.
    pub results: Arc<Mailbox<SolveResult>>,
    thread: Option<JoinHandle<()>>,
}

impl SolverWorker {
    /// Starts the `solver` thread.
    pub fn start(notify: Notify) -> std::io::Result<SolverWorker> {
        let requests: Arc<Mailbox<SolveRequest>> = Arc::new(Mailbox::new());
        let results = Arc::new(Mailbox::new());
        let thread = {
            let requests = Arc::clone(&requests);
            let results = Arc::clone(&results);
            std::thread::Builder::new()
                .name("solver".into())
                .spawn(move || {
                    while !requests.is_closed() {
                        let Some(req) = requests.wait_take(Duration::from_millis(500)) else {
                            continue;
                        };
                        let start = Instant::now();
                        let board = Board::new(req.values, [false; 81], None)
                            .with_writing(req.entries, [false; 81]);
                        let (result, check) = match solve_progress(&board, req.from_start) {
                            Ok(p) => (Ok(Arc::new(p.explained)), p.check.map(Arc::new)),
                            Err(e) => (Err(e), None),
                        };
                        tracing::debug!(generation = req.generation, ok = result.is_ok(), "solved");
                        results.put(SolveResult {
                            generation: req.generation,
                            result,
                            check,
                            took: start.elapsed(),
                        });
                        notify();
                    }
                })?
        };
        Ok(SolverWorker {
            requests,
            results,
            thread: Some(thread),
        })
    }

    /// Asks for a solve; a pending older request is dropped.
    pub fn request(&self, req: SolveRequest) {
        self.requests.put(req);
    }
}

impl Drop for SolverWorker {
    fn drop(&mut self) {
        self.requests.close();
        // The thread exits after its current solve; do not block the UI on it.
        drop(self.thread.take());
    }
}

/// One analysed frame, as the scanner reports it.
#[derive(Clone, Debug)]
pub struct ScanUpdate {
    /// The analysed frame: `output.lattice` is in its pixels, so the view shows this picture
    /// and the overlay sits on the paper in it.
    pub frame: Frame,
    /// What the live path made of it.
    pub output: LiveOutput,
    /// Time spent analysing it.
    pub took: Duration,
    /// Frames analysed so far in this session (a still counted each time it is fed).
    pub frames_analysed: u64,
}

/// What the scanner puts in its mailbox: an analysed frame, or why live scanning stopped
/// (the analyzer could not be created, or it crashed).
pub type ScanReport = Result<ScanUpdate, String>;

/// The live scan thread: a thin loop around a [`crate::live::LiveAnalyzer`].
#[derive(Debug)]
pub struct ScanWorker {
    /// Frames to analyse (the capture thread puts, newest wins).
    pub frames: Arc<Mailbox<Frame>>,
    /// Reports, newest wins.
    pub updates: Arc<Mailbox<ScanReport>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ScanWorker {
    /// Starts the `scanner` thread, which creates its analyzer from `factory` (loading a model
    /// can take a while; the UI does not wait) and then analyses the newest frame, again and
    /// again. Every analysed frame is put into `updates`, but the UI is woken (`notify`) only
    /// when there is something new to show: the output changed, the picture itself changed,
    /// or an error. A still frame ([`Frame::still`]) is fed again while that changes the
    /// output — the analyzer finds the picture unchanged and reuses its work, and the
    /// repeated sightings are what lets it hold still, read and lock — and then left alone.
    pub fn start(factory: &LiveAnalyzerFactory, notify: Notify) -> Result<ScanWorker, String> {
        let factory = Arc::clone(factory);
        let frames: Arc<Mailbox<Frame>> = Arc::new(Mailbox::new());
        let updates = Arc::new(Mailbox::new());
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let frames = Arc::clone(&frames);
            let updates = Arc::clone(&updates);
            let stop = Arc::clone(&stop);
            std::thread::Builder::new()
                .name("scanner".into())
                .spawn(move || scan_loop(&factory, &frames, &updates, &stop, &notify))
                .map_err(|e| format!("cannot start the scanner thread: {e}"))?
        };
        Ok(ScanWorker {
            frames,
            updates,
            stop,
            thread: Some(thread),
        })
    }
}

fn scan_loop(
    factory: &LiveAnalyzerFactory,
    frames: &Mailbox<Frame>,
    updates: &Mailbox<ScanReport>,
    stop: &AtomicBool,
    notify: &Notify,
) {
    let epoch = Instant::now();
    let fail = |message: String| {
        updates.put(Err(message));
        notify();
    };
    let mut analyzer = match factory() {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let mut analysed = 0u64;
    let mut again: Option<Frame> = None;
    while !stop.load(Ordering::Acquire) {
        let frame = match again.take() {
            // A newer frame wins over feeding the still again.
            Some(still) => frames.take().unwrap_or(still),
            None => match frames.wait_take(Duration::from_millis(200)) {
                Some(frame) => frame,
                None => continue,
            },
        };
        let t_ms = frame
            .captured_at
            .saturating_duration_since(epoch)
            .as_millis() as u64;
        let start = Instant::now();
        let analysed_frame = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            analyzer.analyze(&frame.image, t_ms)
        }));
        let Ok(output) = analysed_frame else {
            return fail("the live recognizer crashed".into());
        };
        analysed += 1;
        let took = start.elapsed();
        tracing::trace!(
            seq = frame.seq,
            state = %output.state,
            work = ?output.work,
            changed = output.changed,
            ms = took.as_millis() as u64,
            "frame analysed"
        );
        let wake = output.changed || output.work != FrameWork::Unchanged || output.error.is_some();
        if frame.still && output.changed {
            again = Some(frame.clone());
        }
        updates.put(Ok(ScanUpdate {
            frame,
            output,
            took,
            frames_analysed: analysed,
        }));
        if wake {
            notify();
        }
    }
}

impl Drop for ScanWorker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        self.frames.close();
        drop(self.thread.take());
    }
}

/// What to scan: a file (decoded on the worker) or pixels already in memory.
#[derive(Clone, Debug)]
pub enum PhotoInput {
    /// A photo file.
    File(std::path::PathBuf),
    /// Decoded pixels (pasted or dropped as data).
    Image(Arc<RgbImage>),
}

/// The result of scanning one photo.
#[derive(Debug)]
pub struct PhotoResult {
    /// Which load it belongs to (older ones are ignored).
    pub generation: u64,
    /// The decoded photo (`None` when the file could not be read).
    pub image: Option<Arc<RgbImage>>,
    /// The scan, or why it failed.
    pub result: Result<PhotoScan, LoadFailure>,
    /// How long it took.
    pub took: Duration,
}

/// Decodes (if needed) and scans `input` on a new `photo-scan` thread, and puts the result
/// into `results`.
pub fn spawn_photo_scan(
    scanner: Arc<dyn PhotoScanner>,
    input: PhotoInput,
    generation: u64,
    results: Arc<Mailbox<PhotoResult>>,
    notify: Notify,
) {
    let spawned = std::thread::Builder::new()
        .name("photo-scan".into())
        .spawn({
            let results = Arc::clone(&results);
            let notify = Arc::clone(&notify);
            move || {
                let start = Instant::now();
                let image = match input {
                    PhotoInput::Image(img) => Ok(img),
                    PhotoInput::File(path) => crate::vision::load_image(&path)
                        .map(|img| Arc::new(img.to_rgb8()))
                        .map_err(LoadFailure::File),
                };
                let (image, result) = match image {
                    Ok(image) => {
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            scanner.scan(&image)
                        }))
                        .unwrap_or(Err(LoadFailure::Crashed));
                        (Some(image), result)
                    }
                    Err(e) => (None, Err(e)),
                };
                results.put(PhotoResult {
                    generation,
                    image,
                    result,
                    took: start.elapsed(),
                });
                notify();
            }
        });
    if let Err(e) = spawned {
        results.put(PhotoResult {
            generation,
            image: None,
            result: Err(LoadFailure::Internal(format!(
                "cannot start the photo scan thread: {e}"
            ))),
            took: Duration::ZERO,
        });
        notify();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::LiveAnalyzer;
    use std::sync::atomic::AtomicU64;

    /// Says "changed" for the first `changes` frames, then "unchanged", and counts calls.
    struct Settling {
        calls: Arc<AtomicU64>,
        changes: u64,
    }

    impl LiveAnalyzer for Settling {
        fn analyze(&mut self, _frame: &RgbImage, _t_ms: u64) -> LiveOutput {
            let n = self.calls.fetch_add(1, Ordering::SeqCst);
            LiveOutput {
                changed: n < self.changes,
                work: if n == 0 {
                    FrameWork::Detected
                } else {
                    FrameWork::Unchanged
                },
                ..LiveOutput::default()
            }
        }
    }

    fn frame(seq: u64, still: bool) -> Frame {
        Frame {
            image: Arc::new(RgbImage::new(4, 4)),
            seq,
            captured_at: Instant::now(),
            still,
        }
    }

    fn counting() -> (Notify, Arc<AtomicU64>) {
        let n = Arc::new(AtomicU64::new(0));
        let n2 = Arc::clone(&n);
        let notify: Notify = Arc::new(move || {
            n2.fetch_add(1, Ordering::SeqCst);
        });
        (notify, n)
    }

    fn scanner(changes: u64) -> (ScanWorker, Arc<AtomicU64>, Arc<AtomicU64>) {
        let calls = Arc::new(AtomicU64::new(0));
        let calls2 = Arc::clone(&calls);
        let factory: LiveAnalyzerFactory = Arc::new(move || {
            Ok(Box::new(Settling {
                calls: Arc::clone(&calls2),
                changes,
            }) as Box<dyn LiveAnalyzer>)
        });
        let (notify, woken) = counting();
        (ScanWorker::start(&factory, notify).unwrap(), calls, woken)
    }

    #[test]
    fn a_still_is_fed_again_until_it_settles_and_only_changes_wake_the_ui() {
        let (worker, calls, woken) = scanner(4);
        worker.frames.put(frame(0, true));
        std::thread::sleep(Duration::from_millis(400));
        // Four outputs changed, the fifth did not: feeding stops there.
        assert_eq!(calls.load(Ordering::SeqCst), 5);
        assert_eq!(woken.load(Ordering::SeqCst), 4);
        let last = worker.updates.take().unwrap().unwrap();
        assert_eq!((last.frame.seq, last.frames_analysed), (0, 5));
        assert!(!last.output.changed);
    }

    #[test]
    fn a_camera_frame_is_analysed_once_and_unchanged_pictures_stay_quiet() {
        let (worker, calls, woken) = scanner(1);
        worker.frames.put(frame(0, false));
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert_eq!(woken.load(Ordering::SeqCst), 1);
        // The same picture again: analysed, reported, but nobody is woken.
        worker.frames.put(frame(1, false));
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        assert_eq!(woken.load(Ordering::SeqCst), 1);
        assert_eq!(worker.updates.take().unwrap().unwrap().frame.seq, 1);
    }

    #[test]
    fn an_analyzer_that_cannot_be_made_is_reported() {
        let factory: LiveAnalyzerFactory = Arc::new(|| Err("no model".into()));
        let (notify, woken) = counting();
        let worker = ScanWorker::start(&factory, notify).unwrap();
        let report = worker.updates.wait_take(Duration::from_secs(5));
        assert_eq!(report.map(|r| r.err()), Some(Some("no model".to_string())));
        // The report is put before the UI is woken.
        let deadline = Instant::now() + Duration::from_secs(5);
        while woken.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(woken.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn solver_answers_the_newest_request() {
        let worker = SolverWorker::start(Arc::new(|| {})).unwrap();
        let text =
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
        let mut values = [0u8; 81];
        for (v, c) in values.iter_mut().zip(text.bytes()) {
            *v = c - b'0';
        }
        worker.request(SolveRequest {
            generation: 3,
            values,
            entries: [false; 81],
            from_start: false,
        });
        let res = worker.results.wait_take(Duration::from_secs(30)).unwrap();
        assert_eq!(res.generation, 3);
        let e = res.result.unwrap();
        assert!(e.unique && !e.steps.is_empty());

        let mut bad = values;
        bad[0] = 3; // repeats r1c3's 3
        worker.request(SolveRequest {
            generation: 4,
            values: bad,
            entries: [false; 81],
            from_start: false,
        });
        let res = worker.results.wait_take(Duration::from_secs(30)).unwrap();
        assert_eq!(res.generation, 4);
        assert!(res.result.unwrap_err().contains("duplicate"));
    }
}
