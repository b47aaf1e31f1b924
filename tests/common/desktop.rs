//! The desktop the screen tests run on: an Xvfb server of their own, the test game
//! (`examples/test_game.rs`) started on it with a puzzle from ../shared/puzzles and given the
//! keyboard focus, and its state file read back. Included by path (`#[path =
//! "common/desktop.rs"] mod desktop;`) next to `common/data.rs`, which it uses as `data`.
//!
//! Needs `Xvfb` (installed by .ci/setup-system.sh) and the test game binary, which `cargo
//! test` builds with the other examples; either missing is a test failure naming it.

#![allow(dead_code)] // each test binary uses its own part

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sudoku_lens::sudoku::Grid;
use sudoku_lens::sudoku::solver::solve;
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, InputFocus};

use super::data;

/// An Xvfb server, stopped on drop.
pub struct Xvfb {
    child: Child,
    pub display: String,
}

impl Xvfb {
    /// Starts a server on a display number it picks itself (`-displayfd`): tests that start
    /// servers at the same time, in one binary or several, never share one.
    pub fn start() -> Xvfb {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x1024x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start Xvfb ({e}): the screen tests need it (apt-get install xvfb; \
                     .ci/setup-system.sh installs it)"
                )
            });
        // Xvfb writes the number once it accepts connections.
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            let _ = BufReader::new(out).read_line(&mut line);
        }
        let n: u32 = line
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("Xvfb gave no display number (it said {line:?})"));
        let display = format!(":{n}");
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
        wait_for(&socket, 15, &format!("Xvfb {display} did not come up"));
        Xvfb { child, display }
    }
}

/// Waits until `path` exists; fails with `what` after `seconds`.
pub fn wait_for(path: &Path, seconds: u64, what: &str) {
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
pub struct Game {
    child: Child,
    pub state: PathBuf,
    pub givens: [u8; 81],
    pub title: String,
}

impl Game {
    /// The game's process id (its window's `_NET_WM_PID`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
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

pub fn start_game(x: &Xvfb, dir: &Path, theme: &str, line: usize, extra: &[&str]) -> Game {
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
pub fn focus_window(x: &Xvfb, title: &str) {
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

pub fn grid_text(v: &[u8; 81]) -> String {
    v.iter().map(|d| char::from(b'0' + d)).collect()
}

pub fn read_state(game: &Game) -> String {
    std::fs::read_to_string(&game.state)
        .expect("state file")
        .trim()
        .to_string()
}

pub fn solution(givens: &[u8; 81]) -> [u8; 81] {
    solve(&Grid::from_values(givens)).expect("the shared puzzle solves")
}
