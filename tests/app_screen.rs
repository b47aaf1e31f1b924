//! UI tests of the app's Screen source, driven through egui_kittest by accessibility labels:
//! the menu's choices (the whole screen, the monitor list, the window list, a rectangle),
//! their failures said in words, a rectangle dragged on a frozen screenshot (fed from a shared
//! photo through a `Desk` double) becoming the source, and "Fill in the game" enabled only for
//! a locked screen puzzle with one solution. The last test runs the real app (real desk, real
//! model) against the test game on an Xvfb server of its own and clicks the button: the game
//! ends up holding the solution.
//!
//! Threads report asynchronously, so each test steps the harness until a condition holds or a
//! deadline passes (the deadline only bounds a failure; nothing is timed).

mod common;
#[path = "common/desktop.rs"]
mod desktop;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use image::RgbImage;

use common::app::{
    PUZZLE_TEXT, Script, harness, locked_output, options, scripted_lattice, scripted_pipeline,
    solved, step_until,
};
use common::data;
use sudoku_lens::app::{AppOptions, Severity, SudokuLensApp};
use sudoku_lens::camera::{CameraError, FrameSource};
use sudoku_lens::live::{LiveOutput, LiveState, Overlay};
use sudoku_lens::screen::{
    Desk, DeskLists, MonitorInfo, ScreenCapture, ScreenError, ScreenRect, ScreenTarget, SystemDesk,
    WindowInfo,
};
use sudoku_lens::sudoku::solver::count_values;

type Opened = Arc<Mutex<Vec<(ScreenTarget, f32)>>>;

/// A desktop double: fixed lists, a frozen screenshot from an image, and sources that play
/// the part of the screenshot a target shows (or fail as told); every open is recorded.
struct StillDesk {
    screenshot: ScreenCapture,
    lists: DeskLists,
    open_error: Option<ScreenError>,
    opened: Opened,
}

impl Desk for StillDesk {
    fn lists(&self) -> DeskLists {
        self.lists.clone()
    }

    fn freeze(&self) -> Result<ScreenCapture, ScreenError> {
        Ok(self.screenshot.clone())
    }

    fn open(&self, target: &ScreenTarget, fps: f32) -> Result<Box<dyn FrameSource>, ScreenError> {
        self.opened.lock().unwrap().push((target.clone(), fps));
        if let Some(e) = &self.open_error {
            return Err(e.clone());
        }
        let image = match target {
            ScreenTarget::Region(r) => {
                let (x, y, w, h) = self
                    .screenshot
                    .rect_in_capture(*r)
                    .ok_or(ScreenError::OffScreen(*r))?;
                image::imageops::crop_imm(&self.screenshot.image, x, y, w, h).to_image()
            }
            _ => self.screenshot.image.clone(),
        };
        Ok(Box::new(StillScreen(image)))
    }
}

/// The screen as a still picture, delivered about ten times a second.
struct StillScreen(RgbImage);

impl FrameSource for StillScreen {
    fn describe(&self) -> String {
        format!("still screen {}×{}", self.0.width(), self.0.height())
    }
    fn next_frame(&mut self) -> Result<RgbImage, CameraError> {
        std::thread::sleep(Duration::from_millis(100));
        Ok(self.0.clone())
    }
}

/// The screenshot: a shared photo, placed at (100, 50) on the screen.
fn screenshot() -> ScreenCapture {
    let path = data::shared_dataset("wichtounet-v2-train").join("images/image10.jpg");
    let image = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgb8();
    ScreenCapture {
        image,
        origin: (100, 50),
    }
}

fn rect(x: i32, y: i32, width: u32, height: u32) -> ScreenRect {
    ScreenRect {
        x,
        y,
        width,
        height,
    }
}

fn two_monitors_and_a_game() -> DeskLists {
    DeskLists {
        monitors: Ok(vec![
            MonitorInfo {
                index: 0,
                name: "eDP-1".into(),
                rect: rect(0, 0, 1920, 1080),
                primary: true,
            },
            MonitorInfo {
                index: 1,
                name: "HDMI-2".into(),
                rect: rect(1920, 0, 1280, 1024),
                primary: false,
            },
        ]),
        windows: Ok(vec![WindowInfo {
            title: "Web Sudoku".into(),
            rect: rect(300, 200, 640, 700),
            pid: Some(1),
        }]),
    }
}

fn desk(lists: DeskLists, open_error: Option<ScreenError>) -> (Arc<StillDesk>, Opened) {
    let opened = Opened::default();
    let desk = StillDesk {
        screenshot: screenshot(),
        lists,
        open_error,
        opened: Arc::clone(&opened),
    };
    (Arc::new(desk), opened)
}

fn screen_app(desk: Arc<StillDesk>, script: Option<&Script>) -> SudokuLensApp {
    SudokuLensApp::new(
        AppOptions {
            desk: Some(desk),
            pipeline: script.map(scripted_pipeline),
            ..options()
        },
        None,
    )
}

/// Steps until the Screen menu's lists came in (the app asks for them on its first frame).
fn wait_listed(h: &mut Harness<'static, SudokuLensApp>) {
    step_until(h, Duration::from_secs(30), "the screen lists", |a| {
        a.screens_listed()
    });
}

/// Steps until a node labelled (containing) `text` is shown.
fn wait_label(h: &mut Harness<'static, SudokuLensApp>, text: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while h.query_all_by_label_contains(text).next().is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "no {text:?} shown; message: {:?}",
            h.state().message()
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    // A popup that grew is placed anew on the next frames: click where it settles.
    h.run_steps(3);
}

fn open_screen_menu(h: &mut Harness<'static, SudokuLensApp>) {
    h.get_by_label("Screen").click();
    h.run_steps(2);
}

/// From the open Screen menu, takes the frozen screenshot and waits until it is shown.
fn freeze(h: &mut Harness<'static, SudokuLensApp>) {
    h.get_by_label("Rectangle on a screenshot…").click();
    step_until(h, Duration::from_secs(30), "the frozen screenshot", |a| {
        a.region_pick() == Some(None)
    });
    h.run_steps(2);
}

/// Drags on the frozen screenshot from `from` to `to` (points), through the middle.
fn drag(h: &mut Harness<'static, SudokuLensApp>, from: egui::Pos2, to: egui::Pos2) {
    h.drag_at(from);
    h.step();
    h.hover_at(from + (to - from) / 2.0);
    h.step();
    h.hover_at(to);
    h.step();
    h.drop_at(to);
    h.run_steps(2);
}

fn fill_button_enabled(h: &Harness<'static, SudokuLensApp>) -> bool {
    !h.get_by_label("Fill in the game")
        .accesskit_node()
        .is_disabled()
}

#[test]
fn the_screen_menu_offers_the_whole_screen_each_monitor_the_windows_and_a_rectangle() {
    let (desk, opened) = desk(two_monitors_and_a_game(), None);
    let mut h = harness(screen_app(desk, None));
    wait_listed(&mut h);
    open_screen_menu(&mut h);
    wait_label(&mut h, "Monitor 1 HDMI-2: 1280×1024 at 1920,0");
    h.get_by_label("Monitor 0 eDP-1: 1920×1080 at 0,0 (primary)");
    h.get_by_label("Whole screen");
    h.get_by_label("Web Sudoku");
    h.get_by_label("Rectangle on a screenshot…");
    h.get_by_label("Monitor 1 HDMI-2: 1280×1024 at 1920,0")
        .click();
    step_until(
        &mut h,
        Duration::from_secs(30),
        "the monitor to be captured",
        |a| {
            a.screen_target() == Some(&ScreenTarget::Monitor(1))
                && matches!(
                    a.source_status(),
                    sudoku_lens::app::SourceStatus::CameraLive(_)
                )
        },
    );
    assert_eq!(
        opened.lock().unwrap().first(),
        Some(&(ScreenTarget::Monitor(1), 2.0)),
        "the monitor is captured at the default 2 per second"
    );
    // The whole screen, from the menu again.
    open_screen_menu(&mut h);
    h.get_by_label("Whole screen").click();
    step_until(&mut h, Duration::from_secs(30), "the whole screen", |a| {
        a.screen_target() == Some(&ScreenTarget::Whole)
    });
}

#[test]
fn a_desktop_that_cannot_be_captured_says_why() {
    let lists = DeskLists {
        monitors: Err(ScreenError::NoDisplay),
        windows: Err(ScreenError::WindowsNeedX11),
    };
    let (desk, _) = desk(lists, Some(ScreenError::NoDisplay));
    let mut h = harness(screen_app(desk, None));
    wait_listed(&mut h);
    open_screen_menu(&mut h);
    wait_label(&mut h, "no display to capture");
    h.get_by_label_contains("finding a window by name needs X11");
    h.get_by_label("Whole screen").click();
    step_until(
        &mut h,
        Duration::from_secs(30),
        "the capture failure in the status bar",
        |a| {
            a.message().is_some_and(|m| {
                m.severity == Severity::Error && m.text.contains("no display to capture")
            })
        },
    );
    // Retrying cannot give a display: the capture stops instead of failing again and again.
    step_until(
        &mut h,
        Duration::from_secs(10),
        "the capture to stop",
        |a| a.screen_target().is_none(),
    );
}

#[test]
fn a_rectangle_dragged_on_a_frozen_screenshot_becomes_the_screen_source() {
    let (desk, opened) = desk(two_monitors_and_a_game(), None);
    let shot = screenshot();
    let (w, hgt) = (shot.image.width() as f32, shot.image.height() as f32);
    let mut h = harness(screen_app(desk, None));
    wait_listed(&mut h);
    open_screen_menu(&mut h);
    freeze(&mut h);
    assert!(
        h.get_by_label("Capture this rectangle")
            .accesskit_node()
            .is_disabled(),
        "nothing dragged yet"
    );
    let view = h.get_by_label("frozen screenshot").rect();
    let at = |fx: f32, fy: f32| view.min + egui::vec2(view.width() * fx, view.height() * fy);
    // A click is no rectangle.
    h.drag_at(at(0.5, 0.5));
    h.step();
    h.drop_at(at(0.5, 0.5));
    h.run_steps(2);
    assert_eq!(h.state().region_pick(), Some(None));
    // A drag from a quarter to three quarters of the picture, bottom-right to top-left.
    drag(&mut h, at(0.75, 0.8), at(0.25, 0.2));
    let picked = h
        .state()
        .region_pick()
        .flatten()
        .expect("a rectangle was dragged");
    // Screen pixels: the screenshot's place on the screen plus the dragged part of it (within
    // a pixel or two of rounding between points and pixels).
    let near = |got: i64, want: f32| (got as f32 - want).abs() <= 2.0;
    assert!(
        near(picked.x as i64, 100.0 + 0.25 * w)
            && near(picked.y as i64, 50.0 + 0.2 * hgt)
            && near(picked.width as i64, 0.5 * w)
            && near(picked.height as i64, 0.6 * hgt),
        "{picked} for a {w}×{hgt} screenshot at 100,50"
    );
    // Esc closes the screenshot; taking it again starts afresh.
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert_eq!(h.state().region_pick(), None);
    open_screen_menu(&mut h);
    freeze(&mut h);
    drag(&mut h, at(0.75, 0.8), at(0.25, 0.2));
    assert_eq!(h.state().region_pick(), Some(Some(picked)));
    h.get_by_label("Capture this rectangle").click();
    step_until(
        &mut h,
        Duration::from_secs(30),
        "the rectangle to be captured",
        |a| {
            a.screen_target() == Some(&ScreenTarget::Region(picked))
                && a.region_pick().is_none()
                && matches!(
                    a.source_status(),
                    sudoku_lens::app::SourceStatus::CameraLive(_)
                )
        },
    );
    assert_eq!(
        opened.lock().unwrap().last(),
        Some(&(ScreenTarget::Region(picked), 2.0))
    );
    // The capture rate is the user's: another rate restarts the capture at it.
    h.get_by_label("captures/s").click();
    h.run_steps(2);
    h.get_by_label("5").click();
    step_until(&mut h, Duration::from_secs(30), "a capture at 5/s", |_| {
        opened.lock().unwrap().last() == Some(&(ScreenTarget::Region(picked), 5.0))
    });
    assert_eq!(h.state().settings().screen_fps, 5.0);
}

fn values_of(text: &str) -> [u8; 81] {
    std::array::from_fn(|i| text.as_bytes()[i] - b'0')
}

fn locked_on(givens: [u8; 81], solution: [u8; 81]) -> LiveOutput {
    locked_output(7, scripted_lattice(), givens, solution)
}

#[test]
fn fill_in_the_game_is_enabled_only_for_a_locked_screen_puzzle_with_one_solution() {
    let givens = values_of(PUZZLE_TEXT);
    let solution =
        sudoku_lens::sudoku::solver::solve(&sudoku_lens::sudoku::Grid::from_values(&givens))
            .expect("the puzzle solves");
    let script: Script = Arc::new(Mutex::new(LiveOutput {
        state: LiveState::Following,
        puzzle_id: 7,
        ..LiveOutput::default()
    }));
    let (desk, _) = desk(two_monitors_and_a_game(), None);
    let mut h = harness(screen_app(desk, Some(&script)));
    h.run_steps(2);
    assert!(!fill_button_enabled(&h), "no source");
    wait_listed(&mut h);
    open_screen_menu(&mut h);
    wait_label(&mut h, "Web Sudoku");
    h.get_by_label("Web Sudoku").click();
    step_until(&mut h, Duration::from_secs(30), "following", |a| {
        a.live_state() == LiveState::Following
    });
    assert!(!fill_button_enabled(&h), "not locked yet");

    *script.lock().unwrap() = locked_on(givens, solution);
    step_until(&mut h, Duration::from_secs(60), "the lock to solve", |a| {
        solved(a) && a.board().values == givens
    });
    h.run_steps(2);
    assert!(h.state().can_fill());
    assert!(fill_button_enabled(&h), "locked with one solution");

    // A board with several solutions (givens taken away from the end until it has more than
    // one, still enough to be worth solving): never typed into a game.
    let mut sparse = givens;
    for i in (0..81).rev() {
        if count_values(&sparse, 2) > 1 {
            break;
        }
        sparse[i] = 0;
    }
    let clues = sparse.iter().filter(|&&v| v != 0).count();
    assert!(count_values(&sparse, 2) > 1 && clues >= 17, "{clues} clues");
    *script.lock().unwrap() = LiveOutput {
        puzzle_id: 8,
        overlay: Some(Arc::new(Overlay::unsplit(8, sparse, solution))),
        ..locked_on(sparse, solution)
    };
    step_until(&mut h, Duration::from_secs(60), "the sparse board", |a| {
        solved(a) && a.board().values == sparse
    });
    h.run_steps(2);
    assert!(
        !h.state().can_fill() && !fill_button_enabled(&h),
        "several solutions"
    );
}

/// The game's title and process id, for the inner test run in a process of its own on the
/// Xvfb display.
const GAME_TITLE_VAR: &str = "SUDOKU_LENS_TEST_GAME_TITLE";
const GAME_PID_VAR: &str = "SUDOKU_LENS_TEST_GAME_PID";
/// How the inner test picks the game: `window` (from the list) or `rectangle` (dragged on the
/// frozen screenshot).
const PICK_VAR: &str = "SUDOKU_LENS_TEST_PICK";

/// The real app on an Xvfb server with the test game: the Screen menu lists the game's
/// window, the app locks on it through the real model, "Fill in the game" becomes enabled,
/// and clicking it types the solution into the game. The app runs in a child test process
/// whose `DISPLAY` is the test's own server (the display is process-wide).
#[test]
fn the_fill_button_fills_the_test_game_under_xvfb() {
    fill_through_the_app("light", 21, "window");
}

/// As above, the game read through a rectangle dragged around it on the app's frozen
/// screenshot of the real (Xvfb) screen.
#[test]
fn a_rectangle_dragged_around_the_game_is_read_and_filled_under_xvfb() {
    fill_through_the_app("dark", 33, "rectangle");
}

/// Starts Xvfb and the test game (`theme`, puzzle `line`), runs the inner test on that
/// display with the game picked by `how` ("window" or "rectangle"), and checks the game ends
/// up holding the solution.
fn fill_through_the_app(theme: &str, line: usize, how: &str) {
    let x = desktop::Xvfb::start();
    let dir = tempfile::tempdir().expect("temp dir");
    let game = desktop::start_game(&x, dir.path(), theme, line, &[]);
    let exe = std::env::current_exe().expect("test binary");
    let out = std::process::Command::new(exe)
        .args([
            "--ignored",
            "--exact",
            "app_on_the_xvfb_display_fills_the_game",
            "--nocapture",
        ])
        .env("DISPLAY", &x.display)
        .env_remove("WAYLAND_DISPLAY")
        .env(GAME_TITLE_VAR, &game.title)
        .env(GAME_PID_VAR, game.pid().to_string())
        .env(PICK_VAR, how)
        .output()
        .expect("the inner test runs");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The inner test's own account (what the fill said), for the log.
    for line in log.lines().filter(|l| l.starts_with("the fill:")) {
        eprintln!("{how}: {line}");
    }
    assert!(
        out.status.success(),
        "the app did not fill the game:\n{log}"
    );
    assert!(
        log.contains("1 passed"),
        "the inner test did not run:\n{log}"
    );
    assert_eq!(
        desktop::read_state(&game),
        desktop::grid_text(&desktop::solution(&game.givens)),
        "the game does not hold the solution:\n{log}"
    );
}

/// Freezes the screen from the open Screen menu, drags a rectangle a little larger than
/// `around` (screen pixels) on the screenshot and captures it.
fn drag_around(h: &mut Harness<'static, SudokuLensApp>, around: ScreenRect) {
    freeze(h);
    let view = h.get_by_label("frozen screenshot").rect();
    let points_per_px = view.width() / 1280.0;
    let at = |x: i32, y: i32| view.min + egui::vec2(x as f32, y as f32) * points_per_px;
    let margin = 12;
    let (x0, y0) = ((around.x - margin).max(0), (around.y - margin).max(0));
    let x1 = (around.x + around.width as i32 + margin).min(1279);
    let y1 = (around.y + around.height as i32 + margin).min(1023);
    drag(h, at(x0, y0), at(x1, y1));
    let picked = h
        .state()
        .region_pick()
        .flatten()
        .expect("a rectangle was dragged");
    // Within the rounding of points to pixels, the game and the margin around it.
    let slack = (2.0 / points_per_px).ceil() as i32;
    assert!(
        (picked.x - x0).abs() <= slack
            && (picked.y - y0).abs() <= slack
            && (picked.x + picked.width as i32 - x1).abs() <= slack
            && (picked.y + picked.height as i32 - y1).abs() <= slack,
        "{picked} for {around} and a margin of {margin}"
    );
    h.get_by_label("Capture this rectangle").click();
    step_until(h, Duration::from_secs(30), "the rectangle captured", |a| {
        a.screen_target() == Some(&ScreenTarget::Region(picked))
    });
}

/// A window of this process (as the app's own is) is not offered and is blanked out of every
/// capture, while the plain capture shows it.
fn own_windows_are_left_out_of_lists_and_captures() {
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::{
        AtomEnum, ConnectionExt as _, CreateWindowAux, PropMode, WindowClass,
    };
    use x11rb::wrapper::ConnectionExt as _;

    let at = rect(900, 700, 200, 150);
    let title = "sudoku-lens own window";
    let (conn, screen) = x11rb::connect(None).expect("connect to the test display");
    let (root, visual) = {
        let s = &conn.setup().roots[screen];
        (s.root, s.root_visual)
    };
    let id = conn.generate_id().expect("a window id");
    let red = 0x00ff_0000;
    conn.create_window(
        x11rb::COPY_DEPTH_FROM_PARENT,
        id,
        root,
        at.x as i16,
        at.y as i16,
        at.width as u16,
        at.height as u16,
        0,
        WindowClass::INPUT_OUTPUT,
        visual,
        &CreateWindowAux::new().background_pixel(red),
    )
    .expect("create_window");
    let pid_atom = conn
        .intern_atom(false, b"_NET_WM_PID")
        .expect("intern_atom")
        .reply()
        .expect("_NET_WM_PID")
        .atom;
    conn.change_property32(
        PropMode::REPLACE,
        id,
        pid_atom,
        AtomEnum::CARDINAL,
        &[std::process::id()],
    )
    .expect("pid");
    conn.change_property8(
        PropMode::REPLACE,
        id,
        AtomEnum::WM_NAME,
        AtomEnum::STRING,
        title.as_bytes(),
    )
    .expect("title");
    conn.map_window(id).expect("map");
    conn.sync().expect("sync");
    let centre = rect(at.x + 90, at.y + 65, 20, 20);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let plain = sudoku_lens::screen::capture_rect(centre).expect("capture");
        if plain.image.pixels().all(|p| p.0 == [255, 0, 0]) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the test window never showed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let all = sudoku_lens::screen::list_windows().expect("windows");
    assert!(
        all.iter()
            .any(|w| w.title == title && w.is_own() && w.rect == at),
        "{all:?}"
    );
    let offered = SystemDesk.lists().windows.expect("windows");
    assert!(!offered.iter().any(|w| w.title == title), "{offered:?}");
    let frozen = SystemDesk.freeze().expect("frozen screenshot");
    let blanked = sudoku_lens::screen::desk::BLANKED;
    let (x, y, w, h) = frozen.rect_in_capture(at).expect("on the screenshot");
    for (dx, dy) in [(0, 0), (w - 1, h - 1), (w / 2, h / 2)] {
        assert_eq!(*frozen.image.get_pixel(x + dx, y + dy), blanked);
    }
    assert_ne!(*frozen.image.get_pixel(x - 1, y + 5), blanked);
    // The screen source blanks it too.
    let mut source = sudoku_lens::screen::ScreenSource::open(ScreenTarget::Region(at), 2.0)
        .expect("a source on the rectangle");
    let frame = source.next_frame().expect("a frame");
    assert!(frame.pixels().all(|p| *p == blanked));
    drop(conn);
}

#[test]
#[ignore = "run by fill_through_the_app on a display of its own"]
fn app_on_the_xvfb_display_fills_the_game() {
    let title = std::env::var(GAME_TITLE_VAR)
        .unwrap_or_else(|_| panic!("{GAME_TITLE_VAR} unset: run the outer test"));
    let pid: u32 = std::env::var(GAME_PID_VAR)
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("{GAME_PID_VAR} unset: run the outer test"));
    // The real desktop: Xvfb's one 1280×1024 screen, the game's window owned by the game
    // (the owner is how the app tells its own window, which it blanks, from the others).
    let lists = SystemDesk.lists();
    assert_eq!(
        lists
            .monitors
            .as_ref()
            .map(|m| m.iter().map(|m| m.rect).collect::<Vec<_>>()),
        Ok(vec![rect(0, 0, 1280, 1024)]),
        "{lists:?}"
    );
    let game = lists
        .windows
        .as_ref()
        .expect("windows listed")
        .iter()
        .find(|w| w.title == title)
        .cloned()
        .unwrap_or_else(|| panic!("the game is not listed: {lists:?}"));
    assert_eq!(game.pid, Some(pid), "{game:?}");
    assert!(!game.is_own());
    let frozen = SystemDesk.freeze().expect("a frozen screenshot of Xvfb");
    assert_eq!(
        (frozen.image.dimensions(), frozen.origin),
        ((1280, 1024), (0, 0))
    );
    let how = std::env::var(PICK_VAR).unwrap_or_default();
    if how == "window" {
        own_windows_are_left_out_of_lists_and_captures();
    }

    let mut h = harness(SudokuLensApp::new(options(), None));
    h.run_steps(2);
    assert!(!fill_button_enabled(&h));
    wait_listed(&mut h);
    open_screen_menu(&mut h);
    h.get_by_label_contains("1280×1024 at 0,0");
    match how.as_str() {
        "window" => {
            wait_label(&mut h, &title);
            h.get_by_label(&title).click();
        }
        "rectangle" => drag_around(&mut h, game.rect),
        other => panic!("{PICK_VAR}={other:?}: window or rectangle"),
    }
    step_until(
        &mut h,
        Duration::from_secs(180),
        "the game's puzzle to lock and solve",
        |a| a.can_fill(),
    );
    h.run_steps(2);
    assert!(fill_button_enabled(&h));
    h.get_by_label("Fill in the game").click();
    step_until(&mut h, Duration::from_secs(180), "the fill to end", |a| {
        a.fill_outcome().is_some()
    });
    let outcome = h.state().fill_outcome().cloned();
    eprintln!("the fill: {outcome:?}");
    assert!(
        outcome
            .as_ref()
            .is_some_and(|o| o.as_ref().is_ok_and(|text| text.starts_with("filled"))),
        "the fill did not finish: {outcome:?}"
    );
    // The live view, paused while typing, captures the game again.
    step_until(
        &mut h,
        Duration::from_secs(30),
        "the capture to resume",
        |a| a.screen_target().is_some(),
    );
}
