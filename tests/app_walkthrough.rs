//! A new user's first session, clicked and typed through the real app (issue 14): open a
//! photo with "Open photo…" (the app's own picker, as on a desktop without a file-chooser
//! portal), read the first three explanations with Next, change a digit and undo it, reveal
//! a cell, save the picture as PNG. Every stage is checked and rendered on the CPU (wgpu on
//! Mesa's software Vulkan); the renders are the README's walk-through pictures.
//!
//! `WALKTHROUGH_SCREENSHOTS=assets/walkthrough cargo test --test app_walkthrough` writes them
//! (reduced to 800 px wide) into that folder; otherwise they go to the test's temporary
//! folder.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use sudoku_lens::app::{AppOptions, SudokuLensApp};
use sudoku_lens::sudoku::Cell;

mod common;

use common::app::{options, solved, step_until};

const WIDTH: f32 = 1100.0;
const HEIGHT: f32 = 720.0;

/// Where the renders go.
fn screenshot_dir() -> PathBuf {
    std::env::var_os("WALKTHROUGH_SCREENSHOTS")
        .filter(|v| !v.is_empty())
        .map_or_else(
            || Path::new(env!("CARGO_TARGET_TMPDIR")).join("walkthrough"),
            PathBuf::from,
        )
}

/// Renders the window and writes it, 800 px wide, as `name`.
fn shot(h: &mut Harness<'static, SudokuLensApp>, name: &str) {
    h.run_steps(2);
    let img = h.render().expect("wgpu renders (mesa-vulkan-drivers)");
    let w = 800;
    let hgt = (img.height() as f32 * w as f32 / img.width() as f32).round() as u32;
    let small = image::imageops::resize(&img, w, hgt, image::imageops::FilterType::Triangle);
    let small = image::DynamicImage::ImageRgba8(small).to_rgb8();
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir).unwrap();
    small.save(dir.join(name)).unwrap();
}

/// Types `folder` into the picker's folder field (replacing what is there) and goes there.
fn go_to_folder(h: &mut Harness<'static, SudokuLensApp>, folder: &Path) {
    let field = h
        .query_all_by_role(egui::accesskit::Role::TextInput)
        .next()
        .expect("the picker's folder field");
    field.focus();
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.query_all_by_role(egui::accesskit::Role::TextInput)
        .next()
        .unwrap()
        .type_text(&folder.display().to_string());
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
}

#[test]
fn a_new_users_first_session() {
    let photo_dir = common::shared_dataset("wichtounet-v2-train").join("images");
    // The folder as a user would type it (no `..`).
    let photo_dir = photo_dir.canonicalize().unwrap_or(photo_dir);
    let out = tempfile::tempdir().unwrap();
    let app = SudokuLensApp::new(
        AppOptions {
            in_app_file_picker: true,
            ..options()
        },
        None,
    );
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(WIDTH, HEIGHT))
        .wgpu()
        .build_ui_state(|ui, app: &mut SudokuLensApp| app.show(ui), app);
    h.run_steps(2);

    // 1. Open a photo: the button, the folder typed in, the file clicked, Open.
    h.get_by_label("Open photo…").click();
    h.run_steps(3);
    go_to_folder(&mut h, &photo_dir);
    h.get_by_label("image10.jpg").click();
    h.run_steps(2);
    shot(&mut h, "1-open-photo.png");
    h.get_by_label("Open").click();
    h.run_steps(2);
    step_until(
        &mut h,
        Duration::from_secs(180),
        "the photo to be read and solved",
        |a| solved(a) && !a.is_busy(),
    );
    assert!(
        h.state()
            .message()
            .is_some_and(|m| m.text.contains("image10.jpg")),
        "{:?}",
        h.state().message()
    );
    shot(&mut h, "2-first-step.png");

    // 2. The first three explanations: each step's plain sentence is on screen; Next moves on.
    for i in 0..3 {
        let sentence = {
            let walk = h.state().solve_state().walkthrough().unwrap();
            assert_eq!(walk.pos(), i);
            walk.current().unwrap().explanation()
        };
        assert!(!sentence.is_empty());
        let r = h.get_by_label(&sentence).rect();
        assert!(
            r.min.y >= 0.0 && r.max.y <= HEIGHT && r.max.x <= WIDTH,
            "step {}: its sentence is on screen ({r:?})",
            i + 1
        );
        if i == 2 {
            shot(&mut h, "3-third-explanation.png");
        }
        h.get_by_label("Next").click();
        h.run_steps(2);
    }

    // 3. A digit changed by mistake, and undone.
    let read = h.state().board().values;
    let given = (0..81).find(|&i| read[i] != 0).unwrap();
    let cell = Cell::from_index(given);
    h.get_by_label(&format!("{cell} {}", read[given])).click();
    h.run_steps(2);
    let wrong = if read[given] == 9 { 1 } else { read[given] + 1 };
    h.key_press(digit_key(wrong));
    h.run_steps(2);
    assert_eq!(h.state().board().values[given], wrong);
    shot(&mut h, "4-edit.png");
    h.get_by_label("Undo").click();
    h.run_steps(2);
    assert_eq!(
        h.state().board().values,
        read,
        "Undo puts the read digit back"
    );
    step_until(&mut h, Duration::from_secs(120), "the re-solve", solved);

    // 4. Reveal one empty cell.
    let empty = (0..81).find(|&i| read[i] == 0).unwrap();
    let cell = Cell::from_index(empty);
    h.get_by_label(&format!("{cell} empty")).click();
    h.run_steps(2);
    h.get_by_label("Reveal this cell").click();
    h.run_steps(2);
    let digit = h
        .state()
        .solve_state()
        .walkthrough()
        .unwrap()
        .explained()
        .solution[empty];
    shot(&mut h, "5-reveal-cell.png");

    // 5. Save the picture as PNG through the picker; it holds the photo and the revealed digit.
    h.get_by_label("Save PNG…").click();
    h.run_steps(3);
    go_to_folder(&mut h, out.path());
    h.get_by_label("Save").click();
    h.run_steps(3);
    let saved: Vec<PathBuf> = std::fs::read_dir(out.path())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let png = image::open(&saved[0])
        .expect("the saved PNG reads")
        .to_rgb8();
    let photo = image::open(photo_dir.join("image10.jpg")).unwrap();
    assert_eq!((png.width(), png.height()), (photo.width(), photo.height()));
    let blue = png.pixels().filter(|p| p.0 == [20, 90, 230]).count();
    assert!(blue > 20, "the revealed {digit} is drawn ({blue} px)");
    let saved_small = image::imageops::resize(
        &png,
        400,
        (png.height() as f32 * 400.0 / png.width() as f32).round() as u32,
        image::imageops::FilterType::Triangle,
    );
    saved_small
        .save(screenshot_dir().join("6-saved.png"))
        .unwrap();
}

fn digit_key(d: u8) -> egui::Key {
    use egui::Key::*;
    [Num1, Num2, Num3, Num4, Num5, Num6, Num7, Num8, Num9][usize::from(d.clamp(1, 9) - 1)]
}
