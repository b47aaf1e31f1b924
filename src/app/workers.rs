//! The app's worker threads, each named and each talking to the UI only through a bounded
//! [`Mailbox`] (newest wins) plus a `notify` callback (the UI's `request_repaint`):
//!
//! - `solver`: solves the board with the explained solver, newest request wins;
//! - `scanner`: analyses the newest camera frame (stale frames are dropped by the mailbox),
//!   votes the digits over the last frames and reports a [`ScanUpdate`];
//! - `photo-scan`: one per opened photo.
//!
//! The UI never waits on any of them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use image::RgbImage;

use crate::camera::{Frame, Mailbox};
use crate::sudoku::{Explained, Grid, solve_explained};
use crate::vision::Lattice;

use super::pipeline::{
    LiveAnalyzerFactory, LockState, PhotoScan, PhotoScanner, VotedReading, Voter,
};

/// Wakes the UI.
pub type Notify = Arc<dyn Fn() + Send + Sync>;

/// Frames the voter looks back over.
pub const VOTE_WINDOW: usize = 9;
/// Votes needed before a locked grid's digits are reported.
pub const VOTE_MIN_FRAMES: usize = 3;

/// A request to solve `values`, tagged with the board generation it belongs to.
#[derive(Clone, Debug)]
pub struct SolveRequest {
    /// Board generation (results of older generations are ignored).
    pub generation: u64,
    /// The values (0 empty).
    pub values: [u8; 81],
}

/// The answer to a [`SolveRequest`].
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// The request's generation.
    pub generation: u64,
    /// The explained solution, or why there is none.
    pub result: Result<Arc<Explained>, String>,
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
                        let result = solve_explained(&Grid::from_values(&req.values))
                            .map(Arc::new)
                            .map_err(|e| e.to_string());
                        tracing::debug!(generation = req.generation, ok = result.is_ok(), "solved");
                        results.put(SolveResult {
                            generation: req.generation,
                            result,
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

/// What the scanner reports after each analysed frame.
#[derive(Clone, Debug)]
pub struct ScanUpdate {
    /// Sequence number of the analysed frame.
    pub frame_seq: u64,
    /// The lattice to draw.
    pub lattice: Option<Lattice>,
    /// Tracker state.
    pub lock: LockState,
    /// Increments whenever the tracked puzzle changes or is lost (votes restart).
    pub puzzle_serial: u64,
    /// The digits voted over the last frames (while locked, once enough frames agree).
    pub voted: Option<VotedReading>,
    /// Time spent analysing this frame.
    pub took: Duration,
    /// Frames analysed so far.
    pub frames_analysed: u64,
    /// Set when the analyzer could not be created (the scanner then stops).
    pub error: Option<String>,
}

/// The live scan thread.
#[derive(Debug)]
pub struct ScanWorker {
    /// Frames to analyse (the capture thread puts, newest wins).
    pub frames: Arc<Mailbox<Frame>>,
    /// Results, newest wins.
    pub updates: Arc<Mailbox<ScanUpdate>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ScanWorker {
    /// Starts the `scanner` thread, which creates its analyzer from `factory` (loading a model
    /// can take a while; the UI does not wait). An analyzer that cannot be created is reported
    /// as a [`ScanUpdate`] with `error` set.
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
                .spawn(move || {
                    let mut analyzer = match factory() {
                        Ok(a) => a,
                        Err(e) => {
                            updates.put(ScanUpdate {
                                frame_seq: 0,
                                lattice: None,
                                lock: LockState::Searching,
                                puzzle_serial: 0,
                                voted: None,
                                took: Duration::ZERO,
                                frames_analysed: 0,
                                error: Some(e),
                            });
                            notify();
                            return;
                        }
                    };
                    let mut voter = Voter::new(VOTE_WINDOW);
                    let mut serial = 0u64;
                    let mut analysed = 0u64;
                    let mut last_lock = LockState::Searching;
                    while !stop.load(Ordering::Acquire) {
                        let Some(frame) = frames.wait_take(Duration::from_millis(200)) else {
                            continue;
                        };
                        let start = Instant::now();
                        let a = analyzer.analyze(&frame.image);
                        analysed += 1;
                        let lost = matches!(a.lock, LockState::Lost | LockState::Searching)
                            && last_lock == LockState::Locked;
                        if a.new_puzzle || lost {
                            voter.clear();
                            serial += 1;
                        }
                        last_lock = a.lock;
                        if a.lock == LockState::Locked
                            && let Some(r) = a.reading
                        {
                            voter.push(r);
                        }
                        let voted = if a.lock == LockState::Locked {
                            voter.voted(VOTE_MIN_FRAMES)
                        } else {
                            None
                        };
                        let took = start.elapsed();
                        tracing::trace!(seq = frame.seq, lock = %a.lock, ms = took.as_millis() as u64, "frame analysed");
                        updates.put(ScanUpdate {
                            frame_seq: frame.seq,
                            lattice: a.lattice,
                            lock: a.lock,
                            puzzle_serial: serial,
                            voted,
                            took,
                            frames_analysed: analysed,
                            error: None,
                        });
                        notify();
                    }
                })
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
#[derive(Clone, Debug)]
pub struct PhotoResult {
    /// Which load it belongs to (older ones are ignored).
    pub generation: u64,
    /// The decoded photo (`None` when the file could not be read).
    pub image: Option<Arc<RgbImage>>,
    /// The scan, or the message why it failed.
    pub result: Result<PhotoScan, String>,
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
                        .map_err(|e| format!("cannot open {}: {e}", path.display())),
                };
                let (image, result) = match image {
                    Ok(image) => {
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            scanner.scan(&image)
                        }))
                        .unwrap_or_else(|_| Err("the recognizer crashed on this photo".into()));
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
            result: Err(format!("cannot start the photo scan thread: {e}")),
            took: Duration::ZERO,
        });
        notify();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        });
        let res = worker.results.wait_take(Duration::from_secs(30)).unwrap();
        assert_eq!(res.generation, 4);
        assert!(res.result.unwrap_err().contains("duplicate"));
    }
}
