//! The clip simulator writes clips that `clip::ClipTruth::read` accepts and whose truth
//! matches the frames: one short VGA clip of each kind from kubiesa-val (frame counts, corners
//! inside the frame, occlusions while steady, swap segments in order with different puzzles,
//! the grid moving before `steady_from_frame` and still after it), the same seed writing the
//! same bytes, and clear CLI errors.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use sudoku_lens::clip::{ClipKind, ClipTruth, TRUTH_FILE, clip_dirs, clip_frames};
use sudoku_lens::synthetic::clip::{ClipOptions, KindChoice, PuzzleSource, write_clip};
use sudoku_lens::synthetic::{FontBank, FrameSize};
use sudoku_lens::vision::{Point, load_image};

const SEED: u64 = 4242;
/// Clip indices (of `SEED`) used per kind; the single clip is one with a finger.
const SINGLE_K: usize = 0;
const SWAP_K: usize = 1;
const NOPUZZLE_K: usize = 2;

fn options() -> ClipOptions {
    ClipOptions {
        size: FrameSize::Vga,
        steady_frames: Some((8, Some(10))),
        threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
    }
}

fn fonts() -> FontBank {
    FontBank::from_dirs(&[PathBuf::from("/usr/share/fonts")])
        .expect("this test needs fonts under /usr/share/fonts")
}

fn make(out: &Path, k: usize, kind: ClipKind, puzzles: &[PuzzleSource]) -> PathBuf {
    let fonts = (kind == ClipKind::Nopuzzle).then(fonts);
    let report = write_clip(
        out,
        SEED,
        k,
        KindChoice::Only(kind),
        puzzles,
        fonts.as_ref(),
        &options(),
    )
    .expect("clip written");
    assert_eq!(report.kind, kind);
    assert_eq!(report.size, (640, 480));
    report.dir
}

/// Reads a clip back and checks what every kind shares.
fn read_back(dir: &Path, kind: ClipKind) -> ClipTruth {
    let truth = ClipTruth::read(&dir.join(TRUTH_FILE)).expect("truth.json reads back");
    truth.validate().expect("truth validates");
    assert_eq!(truth.kind, kind);
    assert_eq!(truth.fps, 30.0);
    let frames = clip_frames(dir).expect("frames");
    assert_eq!(frames.len(), truth.num_frames);
    for f in [&frames[0], &frames[frames.len() - 1]] {
        let img = load_image(f).expect("frame decodes");
        assert_eq!((img.width(), img.height()), (640, 480), "{}", f.display());
    }
    for (k, c) in truth.corners_per_frame.iter().enumerate() {
        if let Some(c) = c {
            for p in c {
                assert!(
                    (0.0..=639.0).contains(&p.x) && (0.0..=479.0).contains(&p.y),
                    "frame {k}: corner {p:?} outside the frame"
                );
            }
        }
    }
    truth
}

fn mean_shift(a: [Point; 4], b: [Point; 4]) -> f32 {
    (0..4).map(|i| a[i].distance(b[i])).sum::<f32>() / 4.0
}

/// The grid is wholly in view and still (small tremor) from `steady` to `end` (exclusive),
/// and before `steady` it was elsewhere or out of view.
fn check_steady(truth: &ClipTruth, first: usize, steady: usize, end: usize) {
    let at = |k: usize| {
        truth
            .corners_at(k)
            .unwrap_or_else(|| panic!("frame {k}: no corners while steady"))
    };
    for k in steady + 1..end {
        let d = mean_shift(at(k - 1), at(k));
        assert!(d < 6.0, "frame {k}: grid moved {d:.1} px while steady");
    }
    match truth.corners_at(first) {
        None => {}
        Some(c) => {
            let d = mean_shift(c, at(steady));
            assert!(d > 20.0, "frame {first}: only {d:.1} px from rest at entry");
        }
    }
    assert!(steady > first, "an entry precedes the steady frames");
}

#[test]
fn clips_of_each_kind_read_back_with_consistent_truth() {
    let puzzles = common::puzzle_sources("kubiesa-val");
    let out = tempfile::tempdir().expect("temp dir");

    let single = make(out.path(), SINGLE_K, ClipKind::Single, &puzzles);
    let t = read_back(&single, ClipKind::Single);
    assert!(t.labels.is_some() && t.segments.is_none());
    check_steady(&t, 0, t.steady_from_frame, t.num_frames);
    assert!(
        !t.occluded_frames.is_empty() && t.occluded_frames.len() <= 2,
        "clip {SINGLE_K} of seed {SEED} should have a finger (pick another index if the \
         generator changed): {:?}",
        t.occluded_frames
    );
    for &k in &t.occluded_frames {
        assert!(
            (t.steady_from_frame..t.num_frames).contains(&k),
            "occluded frame {k} outside the steady range"
        );
    }

    let swap = make(out.path(), SWAP_K, ClipKind::Swap, &puzzles);
    let t = read_back(&swap, ClipKind::Swap);
    assert!(t.labels.is_none());
    let segs = t.segments.as_ref().expect("segments");
    assert_eq!(segs.len(), 2);
    let (a, b) = (&segs[0], &segs[1]);
    assert_eq!(a.from_frame, 0);
    assert!(a.to_frame < b.from_frame, "{a:?} {b:?}");
    assert_eq!(b.to_frame, t.num_frames - 1);
    assert_ne!(a.labels, b.labels);
    assert_eq!(Some(t.steady_from_frame), a.steady_from_frame);
    let (sa, sb) = (
        a.steady_from_frame.expect("A steady"),
        b.steady_from_frame.expect("B steady"),
    );
    check_steady(&t, 0, sa, sa + 8);
    check_steady(&t, b.from_frame, sb, t.num_frames);
    assert_eq!(t.labels_at(sa), Some(a.labels));
    assert_eq!(t.labels_at(sb), Some(b.labels));
    // A leaves: the grid is out of view before B arrives.
    for k in a.to_frame + 1..b.from_frame {
        assert_eq!(t.labels_at(k), None);
    }

    let none = make(out.path(), NOPUZZLE_K, ClipKind::Nopuzzle, &puzzles);
    let t = read_back(&none, ClipKind::Nopuzzle);
    assert!(t.labels.is_none() && t.segments.is_none());
    assert!(t.corners_per_frame.iter().all(Option::is_none));
    assert!(t.steady_from_frame > 0);

    let dirs = clip_dirs(out.path()).expect("clip folders");
    assert_eq!(dirs, vec![single.clone(), swap, none]);

    // Same seed, same bytes.
    let again = tempfile::tempdir().expect("temp dir");
    let repeat = make(again.path(), SINGLE_K, ClipKind::Single, &puzzles);
    let files = |dir: &Path| {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .expect("list")
            .map(|e| {
                let p = e.expect("entry").path();
                let name = p.file_name().expect("name").to_string_lossy().into_owned();
                (name, std::fs::read(&p).expect("read"))
            })
            .collect();
        v.sort();
        v
    };
    let (first, second) = (files(&single), files(&repeat));
    assert_eq!(first.len(), second.len());
    for ((na, a), (nb, b)) in first.iter().zip(&second) {
        assert_eq!(na, nb);
        assert!(a == b, "{na} differs between two runs of the same seed");
    }
}

#[test]
fn simulate_reports_bad_inputs_clearly() {
    let bin = env!("CARGO_BIN_EXE_sudoku-lens");
    let tmp = tempfile::tempdir().expect("temp dir");
    let missing = tmp.path().join("no-such-set");
    let out = Command::new(bin)
        .args(["simulate", "--from"])
        .arg(&missing)
        .arg("--out")
        .arg(tmp.path().join("clips"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no-such-set") && !err.contains("panicked"),
        "{err}"
    );

    // A data set without labels has no usable photos.
    let empty = tmp.path().join("empty-set");
    std::fs::create_dir_all(empty.join("images")).expect("mkdir");
    let out = Command::new(bin)
        .args(["simulate", "--kind", "single", "--from"])
        .arg(&empty)
        .arg("--out")
        .arg(tmp.path().join("clips"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no usable photos") && err.contains("empty-set"),
        "{err}"
    );

    // An output path that is a file.
    let file = tmp.path().join("a-file");
    std::fs::write(&file, b"x").expect("write");
    let out = Command::new(bin)
        .args(["simulate", "--kind", "single", "--from"])
        .arg(common::shared_dataset("kubiesa-val"))
        .arg("--out")
        .arg(&file)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("a-file") && !err.contains("panicked"), "{err}");
}

#[test]
fn committed_benchmark_clips_read_back() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/clips");
    let dirs = clip_dirs(&root).expect("benches/clips holds clips");
    let names: Vec<String> = dirs
        .iter()
        .map(|d| d.file_name().expect("name").to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["hd_single", "vga_single"]);
    for (dir, (size, limit)) in dirs
        .iter()
        .zip([((1280, 720), 3_000_000), ((640, 480), 2_000_000)])
    {
        let truth = ClipTruth::read(&dir.join(TRUTH_FILE)).expect("truth reads");
        assert_eq!(truth.kind, ClipKind::Single);
        let frames = clip_frames(dir).expect("frames");
        assert_eq!(frames.len(), truth.num_frames);
        let img = load_image(&frames[0]).expect("decodes");
        assert_eq!((img.width(), img.height()), size);
        let bytes: u64 = std::fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").metadata().expect("meta").len())
            .sum();
        assert!(bytes <= limit, "{}: {bytes} bytes", dir.display());
        check_steady(&truth, 0, truth.steady_from_frame, truth.num_frames);
    }
}
