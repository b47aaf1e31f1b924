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
#[path = "common/desktop.rs"]
mod desktop;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use desktop::{Xvfb, grid_text, read_state, solution, start_game};

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-lens");

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

#[test]
fn scan_reads_the_game_in_every_theme_and_fill_completes_it() {
    let x = Xvfb::start();
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
    let x = Xvfb::start();
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
fn without_a_display_a_portal_or_the_window_the_commands_say_so() {
    let o = Command::new(BIN)
        .args(["scan", "--screen"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("sudoku-lens runs");
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("no display to capture"), "{}", text(&o));
    // A Wayland session whose compositor and desktop portal cannot be reached: the capture
    // is refused with what it needs, and windows are not looked for by name there.
    let runtime = tempfile::tempdir().expect("runtime dir");
    let wayland = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .env_remove("DISPLAY")
            .env("WAYLAND_DISPLAY", "wayland-sudoku-lens-test-none")
            .env("XDG_RUNTIME_DIR", runtime.path())
            .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
            .output()
            .expect("sudoku-lens runs")
    };
    let o = wayland(&["scan", "--screen"]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("the Wayland desktop did not allow a screen capture")
            && text(&o).contains("xdg-desktop-portal"),
        "{}",
        text(&o)
    );
    let o = wayland(&["scan", "--screen", "--window", "Any Game"]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("needs X11 (or XWayland)"), "{}", text(&o));
    let x = Xvfb::start();
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
