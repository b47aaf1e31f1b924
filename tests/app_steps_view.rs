//! UI tests of how a step is shown (issue 14): an eliminated candidate is drawn as its own
//! digit, struck, in its candidate position — also with Candidates off, so which digit goes is
//! readable on the board — and the step list keeps the current step in view (a jump to a
//! step scrolls to it; Home and End scroll to the first and the last step).
//!
//! The board is rendered on the CPU (wgpu on Mesa's software Vulkan) and its pixels are
//! looked at through the cells' accessible rectangles.

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use sudoku_lens::app::{Command, SudokuLensApp};
use sudoku_lens::sudoku::Candidate;

mod common;

use common::app::{harness_sized, options, solved, step_until};

/// top1465 #3 (a public collection): its second step is a pointing pair, and it takes over a
/// hundred steps, so the step list is far longer than a small window.
const POINTING: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

/// The app with `POINTING` loaded and solved, rendered with wgpu at `w`×`h`.
fn rendering_app(w: f32, h: f32) -> Harness<'static, SudokuLensApp> {
    let mut app = SudokuLensApp::new(options(), None);
    app.apply(Command::LoadPuzzleText(POINTING.into()));
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(w, h))
        .wgpu()
        .build_ui_state(|ui, app: &mut SudokuLensApp| app.show(ui), app);
    step_until(&mut h, Duration::from_secs(120), "the solve", solved);
    h.run_steps(2);
    h
}

/// Whether a pixel is the strike red (`ELIMINATION_COLOR`, 220/30/30, or anti-aliased
/// towards it).
fn is_red(p: &image::Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0;
    r > 150 && g < 110 && b < 110 && r as i32 - g as i32 > 80
}

/// Red pixels in each of the nine candidate squares of `cell`'s rectangle (index `digit - 1`).
fn red_by_candidate(img: &image::RgbaImage, cell: egui::Rect) -> [usize; 9] {
    let mut out = [0; 9];
    let third = cell.width() / 3.0;
    for y in cell.min.y.ceil() as u32..cell.max.y.floor() as u32 {
        for x in cell.min.x.ceil() as u32..cell.max.x.floor() as u32 {
            if x >= img.width() || y >= img.height() || !is_red(img.get_pixel(x, y)) {
                continue;
            }
            let col = (((x as f32 - cell.min.x) / third) as usize).min(2);
            let row = (((y as f32 - cell.min.y) / third) as usize).min(2);
            out[row * 3 + col] += 1;
        }
    }
    out
}

/// Dark (candidate-gray or black) pixels in `rect`.
fn dark_in(img: &image::RgbaImage, rect: egui::Rect) -> usize {
    let mut n = 0;
    for y in rect.min.y.ceil() as u32..rect.max.y.floor() as u32 {
        for x in rect.min.x.ceil() as u32..rect.max.x.floor() as u32 {
            let [r, g, b, _] = img.get_pixel(x, y).0;
            n += usize::from(r < 120 && g < 120 && b < 120);
        }
    }
    n
}

/// On the step that removes candidates, each removed candidate is red (its digit, struck) in
/// its own candidate square — the square names the digit — and nowhere else in its cell; with Candidates off the removed candidates still show while the other candidates
/// of those cells are gone.
#[test]
fn a_removed_candidate_is_its_struck_digit_also_with_candidates_off() {
    let mut h = rendering_app(1280.0, 800.0);
    let step_index = {
        let w = h.state().solve_state().walkthrough().unwrap();
        (0..w.len())
            .find(|&i| !w.explained().steps[i].eliminations.is_empty())
            .expect("an elimination step")
    };
    h.state_mut().apply(Command::GoToStep(step_index));
    h.run_steps(2);
    // The step stays the same below: only the Candidates switch changes.
    let step = h
        .state()
        .solve_state()
        .walkthrough()
        .unwrap()
        .current()
        .unwrap()
        .clone();
    let eliminations: Vec<Candidate> = step.eliminations.clone();
    assert!(!eliminations.is_empty());

    for candidates_on in [true, false] {
        h.state_mut()
            .apply(Command::SetShowCandidates(candidates_on));
        h.run_steps(2);
        let img = h.render().expect("wgpu renders (mesa-vulkan-drivers)");
        let ppp = img.width() as f32 / 1280.0;
        for e in &eliminations {
            let cell = h.get_by_label(&format!("{} empty", e.cell)).rect();
            let cell = egui::Rect::from_min_max(
                (cell.min.to_vec2() * ppp).to_pos2(),
                (cell.max.to_vec2() * ppp).to_pos2(),
            );
            let red = red_by_candidate(&img, cell);
            let k = usize::from(e.digit.get() - 1);
            // A strike: a 2-point line 0.37 of the cell long, diagonally.
            let strike = (2.0 * ppp * 0.37 * cell.width() / ppp) as usize;
            assert!(
                red[k] >= strike,
                "candidates {candidates_on}: {} in {} has {} red px in its square (a strike \
                 is about {strike}): {red:?}",
                e.digit.get(),
                e.cell,
                red[k]
            );
            let elsewhere: usize = red
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != k)
                .map(|(_, n)| n)
                .sum();
            assert!(
                elsewhere * 10 < red[k],
                "candidates {candidates_on}: red outside {}'s square in {}: {red:?}",
                e.digit.get(),
                e.cell
            );
        }
        // With Candidates off, the other candidates of a struck cell are not drawn: a
        // square of a digit the step does not touch holds no dark ink.
        let grid = h
            .state()
            .solve_state()
            .walkthrough()
            .unwrap()
            .grid()
            .clone();
        let e = eliminations[0];
        let cell = h.get_by_label(&format!("{} empty", e.cell)).rect();
        let third = cell.width() * ppp / 3.0;
        let others: Vec<u8> = grid
            .candidates(e.cell)
            .iter()
            .map(|d| d.get())
            .filter(|&d| {
                let c = Candidate::new(e.cell, sudoku_lens::sudoku::Digit::new(d).unwrap());
                !step.eliminations.contains(&c)
                    && !step.placements.contains(&c)
                    && !step.marks.iter().any(|m| m.candidate == c)
            })
            .collect();
        assert!(!others.is_empty(), "{} has other candidates", e.cell);
        let ink: usize = others
            .iter()
            .map(|&d| {
                let k = f32::from(d - 1);
                let min = egui::pos2(
                    cell.min.x * ppp + (k % 3.0) * third,
                    cell.min.y * ppp + (k / 3.0).floor() * third,
                );
                dark_in(
                    &img,
                    egui::Rect::from_min_size(min, egui::vec2(third, third)).shrink(2.0),
                )
            })
            .sum();
        if candidates_on {
            assert!(
                ink > 10 * others.len(),
                "candidates on: {others:?} drawn ({ink} px)"
            );
        } else {
            assert_eq!(ink, 0, "candidates off: {others:?} in {} not drawn", e.cell);
        }
    }
}

/// Label of step `i` (0-based) in the list.
fn step_label(h: &Harness<'static, SudokuLensApp>, i: usize) -> String {
    let w = h.state().solve_state().walkthrough().unwrap();
    format!("{}. {}", i + 1, w.text(i))
}

/// Whether step `i`'s row in the list is inside the window of height `height`.
fn on_screen(h: &Harness<'static, SudokuLensApp>, i: usize, height: f32) -> bool {
    let r = h.get_by_label(&step_label(h, i)).rect();
    r.min.y >= 0.0 && r.max.y <= height
}

/// In an 800×600 window the list of over a hundred steps opens at the first step; a jump to
/// a step in the middle scrolls to it; End scrolls to the last step and Home back to the
/// first.
#[test]
fn the_step_list_follows_the_current_step_and_home_end() {
    let (w, height) = (800.0, 600.0);
    let mut h = harness_sized(SudokuLensApp::new(options(), None), w, height);
    h.state_mut()
        .apply(Command::LoadPuzzleText(POINTING.into()));
    step_until(&mut h, Duration::from_secs(120), "the solve", solved);
    h.run_steps(3);
    let n = h.state().solve_state().walkthrough().unwrap().len();
    assert!(n > 50, "{n} steps");
    assert!(on_screen(&h, 0, height), "opens at the first step");
    assert!(
        !on_screen(&h, n - 1, height),
        "the list is longer than the window"
    );

    let middle = n / 2;
    h.state_mut().apply(Command::GoToStep(middle));
    h.run_steps(3);
    assert!(on_screen(&h, middle, height), "a jump scrolls to the step");
    assert!(!on_screen(&h, 0, height) && !on_screen(&h, n - 1, height));

    h.key_press(egui::Key::End);
    h.run_steps(3);
    assert!(on_screen(&h, n - 1, height), "End shows the last step");
    assert!(!on_screen(&h, 0, height));

    h.key_press(egui::Key::Home);
    h.run_steps(3);
    assert!(on_screen(&h, 0, height), "Home shows the first step");
    assert!(!on_screen(&h, n - 1, height));
}
