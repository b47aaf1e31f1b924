//! Hostile inputs across the command line and the app: a seeded generator makes bad puzzle
//! text and files, damaged and odd images, broken data sets and name lists, unusable digit
//! models, out-of-range numbers for every numeric option, corrupt saved app state and bad
//! frame sources, and runs each — the CLI as a process (with a time limit), the app's start-up
//! and frame sources in process. None may panic or hang; every `--json` run must print JSON
//! only, with an `"error"` field when it fails.
//!
//! `HOSTILE_INPUTS` sets how many inputs (default 240, as CI runs it); `HOSTILE_SEED` the
//! seed; `HOSTILE_FROM` the first input's number (to split a long run). The full run of the report:
//! `HOSTILE_INPUTS=10000 cargo test --release --test hostile -- --nocapture`.

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sudoku_lens::synthetic::Rng;

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-lens");

/// Longest a CLI run may take before it counts as a hang (debug builds scan a large photo in
/// a few seconds).
const CLI_LIMIT: Duration = Duration::from_secs(60);

const PUZZLE: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

/// Numbers no option should take on trust.
const HOSTILE_NUMBERS: [&str; 22] = [
    "NaN",
    "nan",
    "inf",
    "-inf",
    "infinity",
    "-1",
    "0",
    "-0",
    "1e-30",
    "1e30",
    "1e38",
    "3.4e39",
    "18446744073709551616",
    "-9223372036854775809",
    "",
    " ",
    "abc",
    "1e",
    "0x10",
    "1,5",
    "9999999999",
    "0.0000001",
];

/// What one input did.
#[derive(Debug, Default)]
struct Tally {
    inputs: usize,
    by_kind: std::collections::BTreeMap<&'static str, usize>,
    failures: Vec<String>,
}

impl Tally {
    fn count(&mut self, kind: &'static str) {
        self.inputs += 1;
        *self.by_kind.entry(kind).or_default() += 1;
    }
}

/// Runs the CLI with `args` (stdin from `stdin`), checking: it ends within [`CLI_LIMIT`],
/// does not panic or die of a signal, exits 0, 1 or 2, and with `--json` prints only JSON
/// lines, one with `"error"` when it fails.
fn run_cli(
    tally: &mut Tally,
    kind: &'static str,
    args: &[String],
    stdin: &[u8],
    env: &[(&str, &Path)],
) {
    tally.count(kind);
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("RUST_BACKTRACE", "0")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the binary starts");
    let input = stdin.to_vec();
    let mut pipe = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > CLI_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = writer.join();
    let output = child.wait_with_output().expect("output");
    let shown = || {
        let a: Vec<String> = args.iter().map(|a| a.chars().take(120).collect()).collect();
        format!("{kind} {a:?}")
    };
    let Some(status) = status else {
        tally
            .failures
            .push(format!("HANG (> {CLI_LIMIT:?}): {}", shown()));
        return;
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    if stderr.contains("panicked at") || status.code() == Some(101) {
        tally.failures.push(format!(
            "PANIC: {}: {}",
            shown(),
            stderr.lines().take(3).collect::<Vec<_>>().join(" | ")
        ));
        return;
    }
    match status.code() {
        Some(0..=2) | Some(141) => {}
        code => {
            tally
                .failures
                .push(format!("EXIT {code:?}: {}: {stderr}", shown()));
            return;
        }
    }
    if args.iter().any(|a| a == "--json") {
        let stdout = String::from_utf8_lossy(&output.stdout);
        let objects: Result<Vec<serde_json::Value>, _> = stdout
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(serde_json::from_str)
            .collect();
        match objects {
            Err(e) => tally
                .failures
                .push(format!("NOT JSON ({e}): {}: {stdout:.200}", shown())),
            Ok(objects) if !status.success() && status.code() != Some(2) => {
                if !objects.iter().any(|o| o.get("error").is_some()) {
                    tally.failures.push(format!(
                        "JSON WITHOUT ERROR (exit {status}): {}: {stdout:.200}",
                        shown()
                    ));
                }
            }
            Ok(_) => {}
        }
    }
}

/// One random mutation of `bytes` (bit flips, byte runs, cuts, inserts).
fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..rng.between(1, 6) {
        let len = bytes.len();
        match rng.below(6) {
            0 if len > 0 => {
                let i = rng.below(len);
                bytes[i] ^= 1 << rng.below(8);
            }
            1 => bytes.truncate(rng.below(len + 1)),
            2 if len > 0 => {
                let a = rng.below(len);
                let b = (a + 1 + rng.below(32)).min(len);
                bytes.drain(a..b);
            }
            3 => {
                let at = rng.below(len + 1);
                let v = rng.below(256) as u8;
                bytes.splice(at..at, std::iter::repeat_n(v, rng.between(1, 40)));
            }
            4 if len > 0 => {
                let i = rng.below(len);
                bytes[i] = rng.below(256) as u8;
            }
            _ => {
                let at = rng.below(len + 1);
                let token: &[u8] = [
                    &b"\n"[..],
                    b"#",
                    b"|",
                    b".",
                    b"\xff\xd9",
                    b"10",
                    b"-1",
                    b"\xef\xbb\xbf",
                ][rng.below(8)];
                bytes.splice(at..at, token.iter().copied());
            }
        }
    }
}

/// Hostile puzzle text: mutated puzzles, pencil marks and boards, random characters, long
/// runs, empty.
fn puzzle_text(rng: &mut Rng) -> Vec<u8> {
    let grid = sudoku_lens::sudoku::parse_puzzle(PUZZLE).expect("puzzle");
    let base = match rng.below(5) {
        0 => grid.to_sukaku(),
        1 => grid.to_pretty(),
        2 => "9".repeat(rng.between(0, 5000)),
        3 => String::new(),
        _ => PUZZLE.to_string(),
    };
    let mut bytes = base.into_bytes();
    if rng.chance(0.85) {
        mutate(rng, &mut bytes);
    }
    bytes
}

/// Test inputs shared by the generators: photos to damage, a small data set, models.
struct Material {
    dir: tempfile::TempDir,
    images: Vec<Vec<u8>>,
    set: PathBuf,
}

impl Material {
    fn new() -> Material {
        let dir = tempfile::tempdir().expect("temp dir");
        let kubiesa = common::shared_dataset("kubiesa-val");
        let names = ["01_01_honor_view_10_0", "02_15_iphone_14_1"];
        let mut images = Vec::new();
        let set = dir.path().join("set");
        std::fs::create_dir_all(set.join("images")).unwrap();
        std::fs::create_dir_all(set.join("labels")).unwrap();
        for n in names {
            let photo = kubiesa.join(format!("images/{n}.jpg"));
            // A smaller copy keeps each scan quick; the original too, for its real structure.
            let small = sudoku_lens::vision::load_image(&photo)
                .expect("photo")
                .resize(480, 480, image::imageops::FilterType::Triangle);
            for format in [image::ImageFormat::Jpeg, image::ImageFormat::Png] {
                let mut out = std::io::Cursor::new(Vec::new());
                small.to_rgb8().write_to(&mut out, format).unwrap();
                images.push(out.into_inner());
            }
            images.push(std::fs::read(&photo).unwrap());
            std::fs::copy(&photo, set.join(format!("images/{n}.jpg"))).unwrap();
            std::fs::copy(
                kubiesa.join(format!("labels/{n}.txt")),
                set.join(format!("labels/{n}.txt")),
            )
            .unwrap();
        }
        Material { dir, images, set }
    }

    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// One CLI input of kind `k`.
fn cli_input(rng: &mut Rng, m: &Material, tally: &mut Tally, k: usize) {
    let json = rng.chance(0.5);
    let mut args: Vec<String>;
    let with_json = |mut a: Vec<String>| {
        if json {
            a.push("--json".into());
        }
        a
    };
    match k % 9 {
        0 | 1 => {
            // solve / hint on text, a file or stdin.
            let text = puzzle_text(rng);
            let cmd = if rng.chance(0.7) { "solve" } else { "hint" };
            let (arg, stdin) = match rng.below(3) {
                0 => (String::from_utf8_lossy(&text).replace('\0', ""), Vec::new()),
                1 => (s(&m.file("puzzle.txt", &text)), Vec::new()),
                _ => ("-".to_string(), text),
            };
            args = with_json(vec![cmd.into(), arg]);
            if cmd == "hint" && rng.chance(0.3) {
                args.extend([
                    "--technique".into(),
                    ["x-wing", "", "nonsense", "ALS-XZ"][rng.below(4)].into(),
                ]);
            }
            run_cli(tally, "cli solve/hint", &args, &stdin, &[]);
        }
        2 => {
            // rate on a file of mutated lines.
            let mut text = Vec::new();
            for _ in 0..rng.between(0, 6) {
                text.extend(puzzle_text(rng));
                text.push(b'\n');
            }
            let f = m.file("rate.txt", &text);
            args = vec!["rate".into(), s(&f)];
            if rng.chance(0.3) {
                args.push(s(&m.dir.path().join("no-such-file.txt")));
            }
            run_cli(tally, "cli rate", &args, &[], &[]);
        }
        3 | 4 => {
            // scan of a damaged or odd image.
            let mut bytes = m.images[rng.below(m.images.len())].clone();
            mutate(rng, &mut bytes);
            let f = m.file(["scan.jpg", "scan.png", "scan.bin"][rng.below(3)], &bytes);
            args = with_json(vec!["scan".into(), s(&f)]);
            if rng.chance(0.1) {
                args.extend(["--debug".into(), s(&m.dir.path().join("debug"))]);
            }
            run_cli(tally, "cli scan", &args, &[], &[]);
        }
        5 => {
            // scan with an unusable model or ONNX Runtime setting.
            let mut model = sudoku_lens::digits::EMBEDDED_MODEL.to_vec();
            mutate(rng, &mut model);
            let f = m.file("model.onnx", &model);
            let photo = m.file("photo.jpg", &m.images[0]);
            args = with_json(vec!["scan".into(), s(&photo), "--model".into(), s(&f)]);
            let lib = m.dir.path().join("libonnxruntime.so");
            let env: Vec<(&str, &Path)> = if rng.chance(0.5) {
                vec![("SUDOKU_LENS_ORT_LIB", lib.as_path())]
            } else {
                Vec::new()
            };
            run_cli(tally, "cli scan --model", &args, &[], &env);
        }
        6 => {
            // eval on a data set with broken labels, corners or images.
            let set = m.dir.path().join(format!("eval{}", rng.below(4)));
            let _ = std::fs::remove_dir_all(&set);
            copy_dir(&m.set, &set);
            let label = set.join("labels/01_01_honor_view_10_0.txt");
            let mut bytes = std::fs::read(&label).unwrap();
            if rng.chance(0.6) {
                mutate(rng, &mut bytes);
                std::fs::write(&label, bytes).unwrap();
            }
            let mut csv = b"name,tl_x,tl_y,tr_x,tr_y,br_x,br_y,bl_x,bl_y\n01_01_honor_view_10_0,193,438,1012,423,1026,1287,153,1268\n".to_vec();
            if rng.chance(0.6) {
                mutate(rng, &mut csv);
            }
            std::fs::write(set.join("corners.csv"), csv).unwrap();
            if rng.chance(0.3) {
                let img = set.join("images/02_15_iphone_14_1.jpg");
                let mut bytes = std::fs::read(&img).unwrap();
                mutate(rng, &mut bytes);
                std::fs::write(&img, bytes).unwrap();
            }
            args = with_json(vec!["eval".into(), s(&set)]);
            if rng.chance(0.5) {
                args.push("--detect-only".into());
            }
            if rng.chance(0.3) {
                let mut list = b"01_01_honor_view_10_0\n# held back\n".to_vec();
                mutate(rng, &mut list);
                args.extend(["--only".into(), s(&m.file("only.txt", &list))]);
            }
            run_cli(tally, "cli eval", &args, &[], &[]);
        }
        7 => {
            // Every numeric option with a hostile number.
            let v = HOSTILE_NUMBERS[rng.below(HOSTILE_NUMBERS.len())].to_string();
            let out_file = m.file("not-a-folder", b"x");
            let missing = s(&m.dir.path().join("missing"));
            args = match rng.below(8) {
                0 => vec![
                    "app".into(),
                    "--no-camera".into(),
                    "--fresh".into(),
                    "--exit-after".into(),
                    v,
                ],
                1 => vec![
                    "app".into(),
                    "--no-camera".into(),
                    "--fresh".into(),
                    "--exit-after".into(),
                    "0".into(),
                    "--fps".into(),
                    v,
                ],
                2 => with_json(vec!["replay".into(), missing, "--fps".into(), v]),
                3 => with_json(vec!["replay".into(), missing, "--within-ms".into(), v]),
                4 => vec![
                    "dataset".into(),
                    "--out".into(),
                    s(&out_file),
                    [
                        "--jitter",
                        "--detector-tolerance",
                        "--jitter-copies",
                        "--ink-repeats",
                        "--synthetic-per-class",
                        "--seed",
                    ][rng.below(6)]
                    .into(),
                    v,
                ],
                5 => vec![
                    "synth".into(),
                    "screens".into(),
                    "--out".into(),
                    s(&out_file),
                    ["--count", "--seed"][rng.below(2)].into(),
                    v,
                ],
                6 => vec![
                    "simulate".into(),
                    "--from".into(),
                    missing,
                    "--out".into(),
                    s(&out_file),
                    ["--clips", "--threads", "--frames-steady", "--seed"][rng.below(4)].into(),
                    v,
                ],
                _ => vec![
                    "synth".into(),
                    "webcam".into(),
                    "--from".into(),
                    missing,
                    "--out".into(),
                    s(&out_file),
                    "--copies".into(),
                    v,
                ],
            };
            run_cli(tally, "cli numeric option", &args, &[], &[]);
        }
        _ => {
            // The app's start with a corrupt saved state (no display: it reports and exits).
            let data = m.dir.path().join("xdg");
            let state = data.join("sudoku-lens");
            std::fs::create_dir_all(&state).unwrap();
            let mut ron = br#"{"sudoku-lens/settings":"(camera_index:0,resolution:None,hint_mode:false,show_solution:true,show_candidates:true,sequence_fps:30.0,last_dir:None)","sudoku-lens/puzzle":"(recognized:\"\",values:\"\",uncertain:[],step:0,label:\"\")"}"#.to_vec();
            mutate(rng, &mut ron);
            std::fs::write(state.join("app.ron"), ron).unwrap();
            args = vec![
                "app".into(),
                "--no-camera".into(),
                "--exit-after".into(),
                "0".into(),
            ];
            run_cli(
                tally,
                "cli app start",
                &args,
                &[],
                &[("XDG_DATA_HOME", data.as_path())],
            );
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// In-process inputs: the library entry points the CLI and the app call, with a panic or an
/// over-long call counted as a failure.
fn in_process(
    rng: &mut Rng,
    m: &Material,
    tally: &mut Tally,
    k: usize,
    scanner: &mut sudoku_lens::scan::Scanner,
) {
    let started = Instant::now();
    let mut kind = "";
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match k % 5 {
        0 | 1 => {
            kind = "lib image load+scan";
            let mut bytes = m.images[rng.below(m.images.len())].clone();
            mutate(rng, &mut bytes);
            if let Ok(image) = sudoku_lens::vision::load_image_from_memory(&bytes, "hostile") {
                let _ = scanner.scan(&image);
            }
        }
        2 => {
            kind = "lib puzzle text";
            let text = puzzle_text(rng);
            if let Ok(grid) = sudoku_lens::sudoku::parse_puzzle(&String::from_utf8_lossy(&text)) {
                let _ = sudoku_lens::sudoku::solver::count_values(&grid.values(), 2);
            }
        }
        3 => {
            kind = "app saved state";
            app_state(rng, m);
        }
        _ => {
            kind = "app frame source";
            frame_source(rng, m);
        }
    }));
    tally.count(if kind.is_empty() { "in-process" } else { kind });
    if outcome.is_err() {
        tally
            .failures
            .push(format!("PANIC in process: {kind} (input {k})"));
    }
    if started.elapsed() > Duration::from_secs(30) {
        tally.failures.push(format!(
            "SLOW in process: {kind} (input {k}) took {:?}",
            started.elapsed()
        ));
    }
}

#[cfg(feature = "gui")]
fn app_state(rng: &mut Rng, m: &Material) {
    use sudoku_lens::app::saved_state;
    use sudoku_lens::session::{PUZZLE_KEY, SETTINGS_KEY, SavedPuzzle, Settings};

    struct Memory(std::collections::HashMap<String, String>);
    impl eframe::Storage for Memory {
        fn get_string(&self, key: &str) -> Option<String> {
            self.0.get(key).cloned()
        }
        fn set_string(&mut self, key: &str, value: String) {
            self.0.insert(key.into(), value);
        }
        fn remove_string(&mut self, key: &str) {
            self.0.remove(key);
        }
        fn flush(&mut self) {}
    }
    let mut storage = Memory(Default::default());
    let settings = Settings {
        sequence_fps: [30.0, 1e-30, f32::NAN, f32::INFINITY, -1.0, 1e30][rng.below(6)],
        ..Settings::default()
    };
    eframe::set_value(&mut storage, SETTINGS_KEY, &settings);
    let board = sudoku_lens::session::Board::from_text(PUZZLE).expect("board");
    eframe::set_value(
        &mut storage,
        PUZZLE_KEY,
        &SavedPuzzle::capture(&board, rng.below(1000), "x"),
    );
    for key in [SETTINGS_KEY, PUZZLE_KEY] {
        if rng.chance(0.5) {
            let mut bytes = storage.0[key].clone().into_bytes();
            mutate(rng, &mut bytes);
            storage
                .0
                .insert(key.into(), String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    let file = m.dir.path().join("state").join("app.ron");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, format!("{:?}", storage.0)).unwrap();
    let _ = saved_state::check_state_file(&file);
    let app = sudoku_lens::app::SudokuLensApp::new(
        sudoku_lens::app::AppOptions {
            start_camera: false,
            state_file: Some(file),
            ..Default::default()
        },
        Some(&storage),
    );
    let fps = app.settings().sequence_fps;
    assert!(
        sudoku_lens::session::SEQUENCE_FPS_RANGE.contains(&fps),
        "{fps}"
    );
}

#[cfg(not(feature = "gui"))]
fn app_state(rng: &mut Rng, _m: &Material) {
    use sudoku_lens::session::{SavedPuzzle, Settings};
    let mut bytes = serde_json::to_vec(&Settings::default()).unwrap();
    mutate(rng, &mut bytes);
    if let Ok(s) = serde_json::from_slice::<Settings>(&bytes) {
        let _ = s.sanitized();
    }
    let mut bytes = serde_json::to_vec(&SavedPuzzle::default()).unwrap();
    mutate(rng, &mut bytes);
    if let Ok(p) = serde_json::from_slice::<SavedPuzzle>(&bytes) {
        let _ = p.restore();
    }
}

#[cfg(feature = "gui")]
fn frame_source(rng: &mut Rng, m: &Material) {
    use sudoku_lens::camera::{FrameSource, ImageSequenceSource};
    let dir = m.dir.path().join(format!("frames{}", rng.below(3)));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..rng.between(0, 3) {
        let mut bytes = m.images[rng.below(m.images.len())].clone();
        if rng.chance(0.7) {
            mutate(rng, &mut bytes);
        }
        std::fs::write(dir.join(format!("f{i}.jpg")), bytes).unwrap();
    }
    let fps = [30.0, 1e-30, f32::NAN, 0.0, -5.0, 1e30, 240.0, f32::INFINITY][rng.below(8)];
    if let Ok(mut source) = ImageSequenceSource::open(&dir, fps, false) {
        for _ in 0..3 {
            let _ = source.next_frame();
        }
    }
}

#[cfg(not(feature = "gui"))]
fn frame_source(rng: &mut Rng, m: &Material) {
    // Without the app, the frames the app would play go through the loader alone.
    let mut bytes = m.images[rng.below(m.images.len())].clone();
    mutate(rng, &mut bytes);
    let _ = sudoku_lens::vision::load_image_from_memory(&bytes, "frame");
}

#[test]
fn hostile_inputs_never_panic_or_hang() {
    let total = std::env::var("HOSTILE_INPUTS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(240);
    let seed = std::env::var("HOSTILE_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(16);
    // Inputs are independent (one seeded generator each), so a long run can be split:
    // HOSTILE_FROM=5000 HOSTILE_INPUTS=5000 runs the second half of a 10,000 run.
    let from = std::env::var("HOSTILE_FROM")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(0);
    let material = Material::new();
    let mut scanner = sudoku_lens::scan::Scanner::with_default_model().expect("model");
    let mut tally = Tally::default();
    let started = Instant::now();
    for k in from..from + total {
        if k > from && (k - from).is_multiple_of(500) {
            eprintln!(
                "hostile inputs {from}..{k} done in {:.0?}, failures so far: {}",
                started.elapsed(),
                tally.failures.len()
            );
        }
        let mut rng = Rng::for_item(seed, k as u64);
        // Two in five inputs run the CLI as a process, the rest in process.
        if k % 5 < 2 {
            cli_input(&mut rng, &material, &mut tally, k / 5 * 2 + k % 5);
        } else {
            in_process(
                &mut rng,
                &material,
                &mut tally,
                k / 5 * 3 + k % 5 - 2,
                &mut scanner,
            );
        }
    }
    eprintln!(
        "FIGURE_HOSTILE inputs {from}..{} (seed {seed}): {} in {:.0?}, by kind {:?}; failures: {}",
        from + total,
        tally.inputs,
        started.elapsed(),
        tally.by_kind,
        tally.failures.len()
    );
    assert!(tally.failures.is_empty(), "{:#?}", tally.failures);
}

/// A Wayland session whose compositor and desktop portal cannot be reached: `scan --screen`
/// is refused with what it needs, and windows are not looked for by name there. (Here, not
/// beside the Xvfb tests: those run at the same time within their binary.)
#[test]
fn screen_capture_on_wayland_without_a_portal_says_what_it_needs() {
    let runtime = tempfile::tempdir().expect("runtime dir");
    let wayland = |args: &[&str]| {
        let o = Command::new(BIN)
            .args(args)
            .env_remove("DISPLAY")
            .env("WAYLAND_DISPLAY", "wayland-sudoku-lens-test-none")
            .env("XDG_RUNTIME_DIR", runtime.path())
            .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
            .output()
            .expect("sudoku-lens runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        (o.status.success(), text)
    };
    let (ok, text) = wayland(&["scan", "--screen"]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("the Wayland desktop did not allow a screen capture")
            && text.contains("xdg-desktop-portal"),
        "{text}"
    );
    let (ok, text) = wayland(&["scan", "--screen", "--window", "Any Game"]);
    assert!(!ok, "{text}");
    assert!(text.contains("needs X11 (or XWayland)"), "{text}");
}
