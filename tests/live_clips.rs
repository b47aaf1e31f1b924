//! The live path on simulated camera clips of photos never trained on (the held-back fifth of
//! wichtounet's newspaper photos): a few short clips are written by the simulator and played
//! through `LiveReader` exactly as `sudoku-lens replay` plays them. Asserted: no frame ever
//! shows a wrong overlay (wrong givens, a stale puzzle after a swap, anything on a page without
//! a Sudoku); held puzzles are shown right within 15 frames (0.5 s) of holding still (a
//! regression floor at today's count, printed; the target of 95 % is not met yet); a swap gives the second puzzle a
//! new id; a still photo (kubiesa-val) fed repeatedly locks and then costs no work and
//! asks for no repaint; a still with doubtful cells, fed again only while the output
//! changes (as the app feeds one), still reaches its lock; a page whose first reads are
//! out of focus is not settled turned by them; a page that sharpens while held still is
//! searched in its sharp frames; a page tracked along a lattice whose reads are all refused
//! is detected again and shown; and a faint mark read half the time as a digit is not shown
//! as one.

mod common;

use std::path::{Path, PathBuf};

use image::imageops::FilterType;
use sudoku_lens::clip::{ClipKind, ClipTruth, TRUTH_FILE, clip_frames};
use sudoku_lens::dataset::Dataset;
use sudoku_lens::live::replay::{FrameRecord, replay_frames, summarize};
use sudoku_lens::live::{FrameWork, LiveConfig, LiveReader, LiveState};
use sudoku_lens::scan::Scanner;
use sudoku_lens::synthetic::clip::{ClipOptions, KindChoice, PuzzleSource, write_clip};
use sudoku_lens::synthetic::{FontBank, FrameSize};

/// Seed of the clips (the reader was tuned on clips of kubiesa-train and of the other four
/// fifths of wichtounet-v2-train).
const SEED: u64 = 20_261_122;

/// A folder of this test process's own for the clips of test `test` (tests run in parallel
/// and each removes its folder when done).
fn out_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sudoku-lens-live-clips-{}-{test}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes clip `k` of [`SEED`] of `kind` and `size`, held steady 20–24 frames.
fn make(
    out: &Path,
    k: usize,
    kind: ClipKind,
    size: FrameSize,
    puzzles: &[PuzzleSource],
) -> PathBuf {
    let fonts = (kind == ClipKind::Nopuzzle).then(page_fonts);
    write_clip(
        out,
        SEED,
        k,
        KindChoice::Only(kind),
        puzzles,
        fonts.as_ref(),
        &clip_options(size, Some((20, Some(24)))),
    )
    .expect("clip written")
    .dir
}

/// The fonts the simulator prints no-puzzle pages with.
fn page_fonts() -> FontBank {
    FontBank::from_dirs(&[PathBuf::from("/usr/share/fonts")])
        .expect("this test needs fonts under /usr/share/fonts (.ci/setup-system.sh)")
}

/// Clip options for frames of `size`, held steady `steady_frames` (`None`: the simulator's
/// default), written on every core.
fn clip_options(size: FrameSize, steady_frames: Option<(usize, Option<usize>)>) -> ClipOptions {
    ClipOptions {
        size,
        steady_frames,
        threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
    }
}

fn play(reader: &mut LiveReader, dir: &Path) -> (ClipTruth, Vec<FrameRecord>) {
    let truth = ClipTruth::read(&dir.join(TRUTH_FILE)).expect("truth reads");
    let frames = clip_frames(dir).expect("frames");
    reader.reset();
    let records = replay_frames(reader, &frames, truth.fps as f32, false, |_| {}).expect("replay");
    (truth, records)
}

#[test]
fn simulated_clips_never_show_a_wrong_overlay_and_lock_in_time() {
    let puzzles = common::held_back_sources("wichtounet-v2-train", "wichtounet.txt");
    let out = out_dir("never-wrong");
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let clips = [
        (0, ClipKind::Single, FrameSize::Vga),
        (1, ClipKind::Single, FrameSize::Vga),
        (2, ClipKind::Single, FrameSize::Vga),
        (3, ClipKind::Single, FrameSize::Hd),
        (4, ClipKind::Swap, FrameSize::Vga),
        (5, ClipKind::Nopuzzle, FrameSize::Vga),
    ];
    let (mut puzzles_shown, mut puzzles_total, mut wrong, mut with_overlay) = (0, 0, 0, 0);
    for (k, kind, size) in clips {
        let dir = make(&out, k, kind, size, &puzzles);
        let (truth, records) = play(&mut reader, &dir);
        let s = summarize(&dir, &records, Some(&truth));
        eprintln!("{kind:?} {size:?}: {s:?}");
        wrong += s.frames_with_wrong_overlay.expect("scored against truth");
        with_overlay += s.frames_with_overlay;
        let latencies = match kind {
            ClipKind::Single => vec![s.lock_latency_ms],
            ClipKind::Swap => s.segment_latency_ms.clone(),
            ClipKind::Nopuzzle => {
                assert_eq!(
                    s.frames_with_overlay, 0,
                    "an overlay on a page without a Sudoku"
                );
                Vec::new()
            }
        };
        for l in latencies {
            puzzles_total += 1;
            puzzles_shown += usize::from(l.is_some_and(|ms| ms <= 500.0));
        }
        if kind == ClipKind::Swap && s.segment_latency_ms.iter().all(Option::is_some) {
            let ids: Vec<u64> = records
                .iter()
                .filter_map(|r| r.overlay.as_ref().map(|o| o.puzzle_id))
                .collect();
            let (first, last) = (ids.first(), ids.last());
            assert!(
                first.is_some() && last.is_some() && first != last,
                "the second puzzle of a swap must get a new id: {ids:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    eprintln!(
        "{puzzles_shown} of {puzzles_total} puzzles shown right within 0.5 s, {with_overlay} frames with an overlay"
    );
    assert_eq!(wrong, 0, "frames with a wrong overlay");
    assert!(with_overlay > 0);
    // Today all 6 puzzles of these short clips are shown within 0.5 s (the 50-clip figures
    // are in README "Live path"): a regression floor one below, for a CPU whose arithmetic
    // rounds a read differently, not the target.
    assert!(
        puzzles_shown >= 5,
        "only {puzzles_shown} of {puzzles_total} puzzles shown right within 0.5 s of holding still"
    );
}

/// Photo `name` of shared set `set` as one frame, and its givens (pencil-mark cells empty).
fn still_photo(set: &str, name: &str) -> (image::RgbImage, [u8; 81]) {
    let set = Dataset::open(common::shared_dataset(set)).expect("data set opens");
    let photo = set
        .photos
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{name} is not in the data set"));
    let labels = set.labels(photo).expect("labels").expect("labelled");
    let frame = sudoku_lens::vision::load_image(&photo.image_path)
        .expect("photo loads")
        .to_rgb8();
    (frame, labels.map(|v| if v > 9 { 0 } else { v }))
}

#[test]
fn a_still_picture_locks_then_costs_nothing_and_asks_for_no_repaint() {
    let (frame, givens) = still_photo("kubiesa-val", "01_28_iphone_14_1");
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let outputs: Vec<_> = (0..12).map(|i| reader.push_frame(&frame, i * 33)).collect();
    let locked = outputs
        .iter()
        .position(|o| o.state == LiveState::Locked)
        .expect("a still photo locks");
    assert!(locked <= 6, "locked only at frame {locked}");
    let overlay = outputs[locked]
        .overlay
        .as_ref()
        .expect("overlay when locked");
    assert_eq!(overlay.givens, givens);
    // Once locked, nothing changes: no work beyond the thumbnail, no repaint.
    for o in &outputs[locked + 1..] {
        assert_eq!(o.work, FrameWork::Unchanged);
        assert!(!o.read_cells && !o.changed, "{o:?}");
        assert!(o.overlay.is_some());
    }
    // A different picture (the page turned upside down) is noticed at once.
    let turned = image::imageops::rotate180(&frame);
    let o = reader.push_frame(&turned, 12 * 33);
    assert_ne!(o.work, FrameWork::Unchanged);
    assert!(o.changed);
}

/// A board whose full vote window earns no trust is read again every
/// `reread_untrusted_every_frames` frames: not on every frame (a hopeless board would cost a
/// model run per frame) and not never (its oldest, blurrier reads must slide out). Trust is
/// made unreachable here, so the window fills and stays untrusted.
#[test]
fn an_untrusted_full_window_is_read_every_few_frames() {
    let (frame, _) = still_photo("kubiesa-val", "01_28_iphone_14_1");
    let config = LiveConfig {
        // No vote reaches a mean probability above 1.
        trust_min_confidence: 1.5,
        ..LiveConfig::default()
    };
    let scanner = Scanner::with_default_model().expect("bundled model");
    let mut reader = LiveReader::new(scanner, config.clone());
    let outputs: Vec<_> = (0..40).map(|i| reader.push_frame(&frame, i * 33)).collect();
    assert!(outputs.iter().all(|o| o.overlay.is_none()));
    let reads: Vec<usize> = (0..outputs.len())
        .filter(|&i| outputs[i].read_cells)
        .collect();
    eprintln!("reads on frames {reads:?}");
    let window = config.vote_window;
    assert!(reads.len() > window + 5, "{reads:?}");
    let every = config.reread_untrusted_every_frames as usize;
    assert!(every > 1);
    // Until the window is full, every frame is read; then every `every`-th.
    assert!(
        reads[..window].windows(2).all(|w| w[1] == w[0] + 1),
        "{reads:?}"
    );
    assert!(
        reads[window - 1..].windows(2).all(|w| w[1] == w[0] + every),
        "{reads:?}"
    );
}

/// The app feeds a still picture again only while the output changes (and with its one
/// capture time). A photo whose read has doubtful cells needs more reads than a clear one;
/// that must show in the progress, or the still stalls in `Reading` for good (it did, on this
/// held-back newspaper photo).
#[test]
fn a_still_with_doubtful_cells_fed_while_its_output_changes_locks() {
    let (frame, givens) = still_photo("wichtounet-v2-train", "image1001");
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let mut outputs = Vec::new();
    loop {
        let o = reader.push_frame(&frame, 0);
        let changed = o.changed;
        outputs.push(o);
        if !changed || outputs.len() >= 40 {
            break;
        }
    }
    let clear_board_reads = reader.config().reads_to_trust;
    let doubtful = outputs
        .iter()
        .any(|o| o.progress.reads_needed > clear_board_reads);
    assert!(
        doubtful,
        "image1001 no longer reads with a doubtful cell: pick another held-back photo that does"
    );
    let last = outputs.last().expect("outputs");
    assert_eq!(
        last.state,
        LiveState::Locked,
        "stalled after {} feeds: {:?}",
        outputs.len(),
        last.progress
    );
    let overlay = last.overlay.as_ref().expect("overlay when locked");
    assert_eq!(overlay.givens, givens);
}

/// A page whose first reads are of frames still out of focus: those reads are sure of a few
/// digits, and a quarter turn can rank first on them. The turn must wait for a read sure of a
/// puzzle's worth of digits: settled by the first read (as it was), every later read of these
/// three held-back newspaper photos was of the page turned and none of them locked.
#[test]
fn blurred_first_reads_do_not_settle_the_grid_turned() {
    for name in ["image143", "image150", "image151"] {
        let (photo, givens) = still_photo("wichtounet-v2-train", name);
        // Squeezed into a 640×480 frame, as a camera's picture of it might be.
        let sharp = image::imageops::resize(&photo, 640, 480, FilterType::Triangle);
        let blurred = imageproc::filter::gaussian_blur_f32(&sharp, 4.0);
        let mut reader = LiveReader::with_default_model().expect("bundled model");
        let outputs: Vec<_> = (0..30u32)
            .map(|i| {
                // Eight frames out of focus, then sharp ones; one pixel differs from frame to
                // frame, as sensor noise would, so no frame is an unchanged still.
                let mut frame = if i < 8 {
                    blurred.clone()
                } else {
                    sharp.clone()
                };
                frame.get_pixel_mut(i % 7, 0).0[0] ^= 1;
                reader.push_frame(&frame, u64::from(i) * 33)
            })
            .collect();
        // The grid is held in the blurred frames, so they are read (turned first, on these
        // photos, by the orientation search).
        assert!(
            outputs[..8].iter().filter(|o| o.lattice.is_some()).count() >= 4,
            "{name}: the grid was not followed in the blurred frames (the test needs it)"
        );
        let locked = outputs
            .iter()
            .position(|o| o.state == LiveState::Locked)
            .unwrap_or_else(|| panic!("{name} never locks"));
        let overlay = outputs[locked]
            .overlay
            .as_ref()
            .expect("overlay when locked");
        assert_eq!(overlay.givens, givens, "{name}");
    }
}

/// A camera held still while its focus settles: the first frames show the page too poorly for
/// any detection, the later ones sharp, and all of them look the same to the change test.
/// The later frames must be searched: the first frame was once held and retried with every
/// try instead, then given up on, so the grid was never found (clips of held pages whose
/// focus settled late locked only once the camera moved). The poor frames here keep only
/// the pixels the change test samples (odd rows and columns) and are paper elsewhere, so
/// the change test cannot tell them from the sharp ones and no detection finds a grid in them.
#[test]
fn a_page_that_sharpens_while_held_still_is_found() {
    let (photo, givens) = still_photo("wichtounet-v2-train", "image1001");
    let sharp = image::imageops::resize(&photo, 640, 480, FilterType::Triangle);
    let mut poor = sharp.clone();
    for (x, y, p) in poor.enumerate_pixels_mut() {
        if x % 2 == 0 || y % 2 == 0 {
            *p = image::Rgb([255, 255, 255]);
        }
    }
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let outputs: Vec<_> = (0..40u32)
        .map(|i| {
            let mut frame = if i < 6 { poor.clone() } else { sharp.clone() };
            // Sensor noise: one sampled pixel differs from frame to frame, so no frame is an
            // unchanged still.
            frame.get_pixel_mut(2 * (i % 7) + 1, 1).0[0] ^= 1;
            reader.push_frame(&frame, u64::from(i) * 33)
        })
        .collect();
    assert!(
        outputs[..6].iter().all(|o| o.lattice.is_none()),
        "the grid was found in the poor frames (the test needs them unreadable)"
    );
    assert!(
        outputs[6..]
            .iter()
            .all(|o| o.work != FrameWork::Unchanged || o.lattice.is_some()),
        "a sharp frame was skipped as unchanged before the grid was found"
    );
    let found = outputs
        .iter()
        .position(|o| o.lattice.is_some())
        .expect("the grid is found once the page is sharp");
    assert!(found <= 8, "found only at frame {found}");
    let last = outputs.last().expect("outputs");
    assert_eq!(last.state, LiveState::Locked);
    let overlay = last.overlay.as_ref().expect("overlay when locked");
    assert_eq!(overlay.givens, givens);
}

/// Clip 1 of seed 3535 over wichtounet-v2-train's photos (as `sudoku-lens simulate --from
/// ../shared/datasets/wichtounet-v2-train --seed 3535` writes it; training photos): a swap at
/// 1280×720 whose first page, image1077, was tracked 6–7 % of the grid's side off after its
/// first detection. Every read along that lattice saw empty cells, ranked a quarter turn first
/// and was refused, so nothing was voted, no rule judged the board garbled, and the page was
/// followed unread for 35 frames until it left. Refused reads now call for a detection as a
/// garbled board does: both pages are shown, right.
#[test]
fn a_page_whose_reads_are_all_refused_is_detected_again_and_shown() {
    let puzzles = common::puzzle_sources("wichtounet-v2-train");
    let out = out_dir("refused");
    let report = write_clip(
        &out,
        3535,
        1,
        KindChoice::Mix,
        &puzzles,
        Some(&page_fonts()),
        &clip_options(FrameSize::Mixed, None),
    )
    .expect("clip written");
    assert_eq!(report.photos, ["image1077", "image174"], "the clip's pages");
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let (truth, records) = play(&mut reader, &report.dir);
    let s = summarize(&report.dir, &records, Some(&truth));
    let _ = std::fs::remove_dir_all(&out);
    eprintln!("{s:?}");
    assert_eq!(s.frames_with_wrong_overlay, Some(0));
    assert!(
        s.segment_latency_ms.iter().all(Option::is_some),
        "a page of the swap never shown: {:?}",
        s.segment_latency_ms
    );
}

/// A faint mark voted about half a digit, half empty is never shown as that digit: clip 8 of
/// `simulate --from kubiesa-train --size hd --kind single --seed 4331` (kubiesa-train: MIT,
/// A. Kubiesa; photos the model was trained on) holds a page with an erased pencil 7 in an
/// empty cell (r4c7). One sharp frame reads it as a 7 at 0.99, the others mostly as empty;
/// the 7 is the digit the solution puts there, so uniqueness and the solution let it by,
/// and before stop 43 the board was shown with a 7 the page does not hold for 11 frames.
#[test]
fn a_faint_mark_read_half_the_time_is_not_shown_as_a_digit() {
    let puzzles = common::puzzle_sources("kubiesa-train");
    let out = out_dir("faint-mark");
    let dir = write_clip(
        &out,
        4331,
        8,
        KindChoice::Only(ClipKind::Single),
        &puzzles,
        None,
        &clip_options(FrameSize::Hd, None),
    )
    .expect("clip written")
    .dir;
    let mut reader = LiveReader::with_default_model().expect("bundled model");
    let (truth, records) = play(&mut reader, &dir);
    let labels = truth.labels.expect("a single clip has labels");
    assert_eq!(labels[3 * 9 + 6], 0, "r4c7 is labelled empty");
    let s = summarize(&dir, &records, Some(&truth));
    let _ = std::fs::remove_dir_all(&out);
    eprintln!("{s:?}");
    assert_eq!(
        s.frames_with_wrong_overlay,
        Some(0),
        "frames with a wrong overlay"
    );
    for r in &records {
        if let Some(o) = &r.overlay {
            assert_ne!(o.givens[3 * 9 + 6], 7, "frame {}: r4c7 shown as 7", r.index);
        }
    }
}
