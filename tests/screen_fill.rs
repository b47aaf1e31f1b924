//! End to end on a real X server (Xvfb): the test game (`examples/test_game.rs`) shows a
//! puzzle from ../shared/puzzles; `sudoku-lens scan --window` reads it exactly in each of the
//! five themes; `sudoku-lens fill` completes it and the game's state file holds the solved,
//! correct grid. A second test moves the game window mid-fill: the fill stops with the message
//! and types nothing more.
//!
//! Needs `Xvfb` (installed by .ci/setup-system.sh) and the test game binary, which `cargo
//! test` builds with the other examples (`cargo build --example test_game` for a targeted
//! run). Either missing is a test failure naming it, never a silent pass.

#[path = "common/data.rs"]
mod data;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use sudoku_lens::sudoku::Grid;
use sudoku_lens::sudoku::solver::solve;
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, InputFocus};

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-lens");

/// An Xvfb server, stopped on drop.
struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    fn start(salt: u32) -> Xvfb {
        // A display number of our own: the lock file tells which are taken.
        let base = 200 + (std::process::id() % 300) * 2 + salt;
        let n = (base..base + 50)
            .find(|n| !Path::new(&format!("/tmp/.X{n}-lock")).exists())
            .expect("a free X display number");
        let display = format!(":{n}");
        let child = Command::new("Xvfb")
            .args([&display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start Xvfb ({e}): the screen tests need it (apt-get install xvfb; \
                     .ci/setup-system.sh installs it)"
                )
            });
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
        wait_for(&socket, 15, &format!("Xvfb {display} did not come up"));
        Xvfb { child, display }
    }
}

/// Waits until `path` exists; fails with `what` after `seconds`.
fn wait_for(path: &Path, seconds: u64, what: &str) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(seconds),
            "{what} within {seconds} s ({} missing)",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running test game, stopped on drop.
struct Game {
    child: Child,
    state: PathBuf,
    givens: [u8; 81],
    title: String,
}

impl Drop for Game {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn test_game_binary() -> PathBuf {
    // target/<profile>/deps/screen_fill-… → target/<profile>/examples/test_game
    let exe = std::env::current_exe().expect("test binary path");
    let path = exe
        .parent()
        .and_then(Path::parent)
        .map(|p| p.join("examples").join("test_game"))
        .expect("target folder");
    assert!(
        path.is_file(),
        "the test game is not built at {}: run `cargo build --example test_game` (a plain \
         `cargo test` builds it)",
        path.display()
    );
    path
}

fn puzzle_line(index: usize) -> [u8; 81] {
    let path = data::shared_puzzle_path("top1465.txt");
    let text = std::fs::read_to_string(&path).expect("puzzle file");
    let line = text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .nth(index)
        .expect("puzzle line");
    let mut v = [0u8; 81];
    for (cell, c) in v.iter_mut().zip(line.chars()) {
        *cell = c.to_digit(10).unwrap_or(0) as u8;
    }
    v
}

fn start_game(x: &Xvfb, dir: &Path, theme: &str, line: usize, extra: &[&str]) -> Game {
    let state = dir.join(format!("{theme}-{line}.txt"));
    let title = format!("Test Sudoku {theme}");
    let puzzles = data::shared_puzzle_path("top1465.txt");
    let child = Command::new(test_game_binary())
        .args([
            "--puzzle",
            &puzzles.to_string_lossy(),
            "--line",
            &line.to_string(),
        ])
        .args([
            "--theme",
            theme,
            "--title",
            &title,
            "--state",
            &state.to_string_lossy(),
        ])
        .args(extra)
        .env("DISPLAY", &x.display)
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("test game starts");
    wait_for(&state, 20, "the test game wrote no state");
    // The first frames are drawn after the state is written.
    std::thread::sleep(Duration::from_millis(1500));
    focus_window(x, &title);
    Game {
        child,
        state,
        givens: puzzle_line(line),
        title,
    }
}

/// Gives the keyboard focus to the top-level window titled `title`, as a desktop's window
/// manager does when a window opens or is clicked (Xvfb runs none, and the game, like any
/// winit app, takes keys only while it has the focus). Waits up to 20 s for the window to
/// appear: on a loaded machine the game's window can come well after its state file.
fn focus_window(x: &Xvfb, title: &str) {
    let (conn, screen) = x11rb::connect(Some(&x.display)).expect("connect to Xvfb");
    let root = conn.setup().roots[screen].root;
    let find = || {
        let tree = conn
            .query_tree(root)
            .expect("query_tree")
            .reply()
            .expect("window tree");
        tree.children.into_iter().find(|&w| {
            conn.get_property(false, w, AtomEnum::WM_NAME, AtomEnum::ANY, 0, 256)
                .ok()
                .and_then(|c| c.reply().ok())
                .is_some_and(|r| r.value == title.as_bytes())
        })
    };
    // Focusing a window that is not mapped yet is an X error: that is retried too.
    let focused = |w| {
        conn.set_input_focus(InputFocus::PARENT, w, x11rb::CURRENT_TIME)
            .ok()
            .is_some_and(|c| c.check().is_ok())
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let window = find();
        if window.is_some_and(focused) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no top-level window titled {title} on {} took the focus within 20 s (found: {})",
            x.display,
            window.is_some()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn run_cli(x: &Xvfb, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("DISPLAY", &x.display)
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("sudoku-lens runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `scan --window` until the game has drawn (a capture before its first frame finds no grid);
/// then the reading is final.
fn scan_window(x: &Xvfb, title: &str) -> serde_json::Value {
    let start = Instant::now();
    loop {
        let o = run_cli(x, &["scan", "--window", title, "--json"]);
        if o.status.success() {
            return serde_json::from_slice(&o.stdout).expect("scan JSON");
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "scan --window {title} failed: {}",
            text(&o)
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

fn grid_text(v: &[u8; 81]) -> String {
    v.iter().map(|d| char::from(b'0' + d)).collect()
}

fn read_state(game: &Game) -> String {
    std::fs::read_to_string(&game.state)
        .expect("state file")
        .trim()
        .to_string()
}

fn solution(givens: &[u8; 81]) -> [u8; 81] {
    solve(&Grid::from_values(givens)).expect("the shared puzzle solves")
}

#[test]
fn scan_reads_the_game_in_every_theme_and_fill_completes_it() {
    let x = Xvfb::start(0);
    let dir = tempfile::tempdir().expect("temp dir");
    for (k, theme) in ["light", "dark", "boxes", "highlight", "pencil"]
        .iter()
        .enumerate()
    {
        let game = start_game(&x, dir.path(), theme, 10 + 7 * k, &[]);
        let scan = scan_window(&x, &game.title);
        assert_eq!(
            scan["grid"].as_str().map(str::to_string),
            Some(grid_text(&game.givens).replace('0', ".")),
            "theme {theme}: {scan}"
        );
        if *theme == "light" || *theme == "pencil" {
            let o = run_cli(&x, &["fill", "--window", &game.title, "--countdown", "0.5"]);
            assert!(o.status.success(), "fill in theme {theme}: {}", text(&o));
            // The figures, for the log (speed is measured, not asserted, here).
            for line in text(&o)
                .lines()
                .filter(|l| l.contains("locked and solved") || l.starts_with("filled"))
            {
                eprintln!("{theme}: {line}");
            }
            assert!(text(&o).contains("filled"), "{}", text(&o));
            assert_eq!(
                read_state(&game),
                grid_text(&solution(&game.givens)),
                "theme {theme}: the game does not hold the solution after the fill: {}",
                text(&o)
            );
        }
    }
}

#[test]
fn a_game_window_that_moves_mid_fill_stops_it_with_nothing_more_typed() {
    let x = Xvfb::start(1);
    let dir = tempfile::tempdir().expect("temp dir");
    let moved_after = 12;
    let game = start_game(
        &x,
        dir.path(),
        "light",
        3,
        &[
            "--move-after",
            &moved_after.to_string(),
            "--move-by",
            "150,80",
        ],
    );
    let o = run_cli(
        &x,
        &[
            "fill",
            "--window",
            &game.title,
            "--countdown",
            "0.5",
            "--settle-ms",
            "250",
        ],
    );
    let out = text(&o);
    eprintln!("{out}");
    assert!(!o.status.success(), "the fill went on: {out}");
    assert!(out.contains("moved"), "{out}");
    let state: Vec<u8> = read_state(&game).bytes().map(|b| b - b'0').collect();
    let solved = solution(&game.givens);
    let typed: Vec<usize> = (0..81)
        .filter(|&i| game.givens[i] == 0 && state[i] != 0)
        .collect();
    assert_eq!(typed.len(), moved_after, "{out}\nstate {state:?}");
    for i in typed {
        assert_eq!(state[i], solved[i], "cell {i}");
    }
}

#[test]
fn without_a_display_or_the_window_the_commands_say_so() {
    let o = Command::new(BIN)
        .args(["scan", "--screen"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("sudoku-lens runs");
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("no display to capture"), "{}", text(&o));
    let x = Xvfb::start(2);
    let o = run_cli(
        &x,
        &["fill", "--window", "No Such Game", "--countdown", "0"],
    );
    assert!(!o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("no window titled \"No Such Game\""),
        "{}",
        text(&o)
    );
}
