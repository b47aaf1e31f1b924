//! The vision command line: `scan --debug` writes every stage image, `scan --json` reports a
//! turned photo's rotation, `eval` reads the data-set layout (corners optional, subsets by
//! name lists) and ends its JSON output with the summary object (misread cells per photo,
//! exact-board count, reliability table), and a missing or malformed data set or list gets an
//! error naming the file and line. Photos come from `../shared/datasets` and are
//! copied only into temporary folders.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-lens");

fn kubiesa_val() -> PathBuf {
    common::shared_dataset("kubiesa-val")
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A two-photo data set in the shared layout, copied from kubiesa-val (MIT, A. Kubiesa), with
/// `corners` as its corners.csv.
fn small_set(dir: &Path, corners: impl FnOnce(&str) -> String) -> [&'static str; 2] {
    let names = ["01_01_honor_view_10_0", "02_15_iphone_14_1"];
    let src = kubiesa_val();
    std::fs::create_dir_all(dir.join("images")).unwrap();
    std::fs::create_dir_all(dir.join("labels")).unwrap();
    for n in names {
        for (sub, ext) in [("images", "jpg"), ("labels", "txt")] {
            let file = format!("{n}.{ext}");
            std::fs::copy(src.join(sub).join(&file), dir.join(sub).join(&file)).unwrap();
        }
    }
    let all = std::fs::read_to_string(src.join("corners.csv")).unwrap();
    let mut csv = String::new();
    for line in all.lines() {
        if line.starts_with("name,") || names.iter().any(|n| line.starts_with(&format!("{n},"))) {
            csv.push_str(line);
            csv.push('\n');
        }
    }
    std::fs::write(dir.join("corners.csv"), corners(&csv)).unwrap();
    names
}

#[test]
fn scan_debug_writes_every_stage_image() {
    let dir = tempfile::tempdir().unwrap();
    let photo = kubiesa_val().join("images/01_01_honor_view_10_0.jpg");
    let out = dir.path().join("stages");
    let o = run(&[
        "scan",
        photo.to_str().unwrap(),
        "--debug",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (w, h) = image::image_dimensions(&photo).unwrap();
    for name in [
        "1-threshold.png",
        "2-lines.png",
        "2-candidates.png",
        "2-candidate-0.png",
        "3-lattice.png",
        "4-grid.png",
    ] {
        let (sw, sh) = image::image_dimensions(out.join(name))
            .unwrap_or_else(|e| panic!("{name} is not a readable image: {e}"));
        match name {
            // The chosen lattice is drawn on the photo itself.
            "3-lattice.png" => assert_eq!((sw, sh), (w, h)),
            // The rectified grid is square.
            "4-grid.png" => assert_eq!(sw, sh),
            // Working-size stages: the long side is the detector's working size.
            _ => assert_eq!(sw.max(sh), 640, "{name}"),
        }
    }
}

#[test]
fn eval_json_ends_with_the_summary_object() {
    let dir = tempfile::tempdir().unwrap();
    small_set(dir.path(), str::to_string);
    let o = run(&[
        "eval",
        dir.path().to_str().unwrap(),
        "--json",
        "--detect-only",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "one line per photo, then the summary");
    let summary: serde_json::Value = serde_json::from_str(lines[2]).expect("JSON summary");
    for key in [
        "images",
        "grids_found",
        "images_with_corners",
        "corner_err_mean_pct",
        "corner_err_max_pct",
        "within_3pct",
        "ms_median",
        "ms_p95",
    ] {
        assert!(summary.get(key).is_some(), "summary lacks {key}: {summary}");
    }
    assert_eq!(summary["images"], 2);
    assert_eq!(summary["grids_found"], 2);
    assert_eq!(summary["within_3pct"], 1.0);
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert!(first["corner_err_pct"].as_f64().unwrap() < 3.0);
}

#[test]
fn eval_names_the_missing_or_malformed_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-set");
    let o = run(&["eval", missing.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(err.contains("no-such-set"), "{err}");
    // The cause is said once.
    assert_eq!(err.matches("No such file").count(), 1, "{err}");

    // A number that is not one, on the second photo's row (line 3 of corners.csv).
    let set = dir.path().join("bad");
    small_set(&set, |csv| {
        let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
        lines[2] = lines[2].replacen(',', ",12x,", 1);
        lines.join("\n")
    });
    let o = run(&["eval", set.to_str().unwrap(), "--detect-only"]);
    assert_ne!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(err.contains("corners.csv:3"), "{err}");
}

/// Runs `eval --json` on `set` with `extra` arguments; returns the per-image objects and the
/// summary.
fn eval_json(set: &Path, extra: &[&str]) -> (Vec<serde_json::Value>, serde_json::Value) {
    let mut args = vec!["eval", set.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut objects: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    let summary = objects.pop().expect("summary line");
    (objects, summary)
}

#[test]
fn eval_reports_misreads_exact_boards_and_reliability() {
    let dir = tempfile::tempdir().unwrap();
    small_set(dir.path(), str::to_string);
    let (images, summary) = eval_json(dir.path(), &[]);
    assert_eq!(images.len(), 2);
    assert_eq!(summary["cells"], 162);
    // Each photo's `wrong` list holds exactly its misread cells, in solving values.
    let mut exact = 0;
    for i in &images {
        let wrong = i["wrong"].as_array().unwrap();
        let d = &i["digits"];
        let misread = d["cells"].as_u64().unwrap() - d["cells_correct"].as_u64().unwrap();
        assert_eq!(wrong.len() as u64, misread, "{i}");
        assert_eq!(d["exact"], wrong.is_empty());
        exact += usize::from(wrong.is_empty());
        for w in wrong {
            assert_ne!(w["read"], w["truth"], "{w}");
            assert!(w["truth"].as_u64().unwrap() <= 9 && w["read"].as_u64().unwrap() <= 9);
            assert!(w["cell"].as_str().unwrap().starts_with('r'));
        }
        assert_eq!(d["rotation_deg"], 0);
    }
    assert_eq!(summary["boards_exact_count"], exact);
    assert!(exact >= 1, "{images:?}");
    assert_eq!(summary["boards_exact"], exact as f64 / 2.0);
    let bins = summary["reliability"].as_array().unwrap();
    assert_eq!(bins.len(), 7);
    assert_eq!(bins[0]["lo"], 0.0);
    assert_eq!(bins[6]["hi"], 1.0);
    let cells: u64 = bins.iter().map(|b| b["cells"].as_u64().unwrap()).sum();
    assert_eq!(cells, 162, "every read cell falls in one bin");
    let correct: u64 = bins.iter().map(|b| b["correct"].as_u64().unwrap()).sum();
    let cell_accuracy = summary["cell_accuracy"].as_f64().unwrap();
    assert!((correct as f64 / 162.0 - cell_accuracy).abs() < 1e-9);
    let share = summary["flagged_correct_share"].as_f64().unwrap();
    assert!((0.0..0.2).contains(&share), "{share}");
    // A share of misreads exists only when something was misread.
    assert_eq!(
        summary["flagged_wrong_share"].is_null(),
        exact == 2,
        "{summary}"
    );
}

#[test]
fn eval_lists_a_misread_cell_with_its_values() {
    let dir = tempfile::tempdir().unwrap();
    let [_, second] = small_set(dir.path(), str::to_string);
    // Falsify the second photo's label at r1c1 and r1c2: the true readings become misreads.
    let label = dir.path().join(format!("labels/{second}.txt"));
    let text = std::fs::read_to_string(&label).unwrap();
    let mut rows: Vec<Vec<u8>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .collect();
    let value = |v: u8| if v == 10 { 0 } else { v };
    let truth = [value(rows[0][0]), value(rows[0][1])];
    rows[0][0] = if truth[0] == 0 { 5 } else { 0 };
    rows[0][1] = if truth[1] == 7 { 8 } else { 7 };
    let lines: Vec<String> = rows
        .iter()
        .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    std::fs::write(&label, lines.join("\n")).unwrap();
    let (images, _) = eval_json(dir.path(), &[]);
    let wrong = images[1]["wrong"].as_array().unwrap();
    let find = |cell: &str| {
        wrong
            .iter()
            .find(|w| w["cell"] == cell)
            .unwrap_or_else(|| panic!("{cell} not listed: {wrong:?}"))
    };
    assert_eq!(find("r1c1")["read"], truth[0]);
    assert_eq!(find("r1c1")["truth"], rows[0][0]);
    assert_eq!(find("r1c2")["read"], truth[1]);
    assert_eq!(find("r1c2")["truth"], rows[0][1]);
    // Text mode names the cells too, and counts the exact boards.
    let o = run(&["eval", dir.path().to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    let show = |v: u8| {
        if v == 0 {
            ".".to_string()
        } else {
            v.to_string()
        }
    };
    let listed = format!("r1c1 {} (is {})", show(truth[0]), show(rows[0][0]));
    assert!(text.contains(&listed), "{listed} missing from:\n{text}");
    assert!(text.contains("boards exact "), "{text}");
    assert!(text.contains("flagged uncertain"), "{text}");
}

#[test]
fn eval_reads_cells_only_without_corners() {
    let dir = tempfile::tempdir().unwrap();
    small_set(dir.path(), str::to_string);
    std::fs::remove_file(dir.path().join("corners.csv")).unwrap();
    let (images, summary) = eval_json(dir.path(), &[]);
    assert_eq!(summary["images"], 2);
    assert_eq!(summary["images_with_corners"], 0);
    for key in [
        "corner_err_mean_pct",
        "corner_err_max_pct",
        "corner_out_median_pct",
        "within_3pct",
    ] {
        assert!(summary[key].is_null(), "{key}: {summary}");
    }
    assert_eq!(summary["cells"], 162);
    assert!(summary["cell_accuracy"].as_f64().unwrap() > 0.99);
    assert!(images[0]["corner_err_pct"].is_null());

    // A corners row for one photo only: corner figures over that photo.
    small_set(dir.path(), |csv| {
        csv.lines().take(2).collect::<Vec<_>>().join("\n")
    });
    let (_, summary) = eval_json(dir.path(), &["--detect-only"]);
    assert_eq!(summary["images_with_corners"], 1);
    assert_eq!(summary["within_3pct"], 1.0);
}

#[test]
fn eval_only_and_exclude_restrict_the_set() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    let [first, second] = small_set(&set, str::to_string);
    let list = dir.path().join("held-back.txt");
    std::fs::write(&list, format!("# held back\n{second}.jpg\n")).unwrap();
    let l = list.to_str().unwrap();
    let (images, summary) = eval_json(&set, &["--detect-only", "--only", l]);
    assert_eq!(summary["images"], 1);
    assert_eq!(images[0]["name"], second);
    let (images, _) = eval_json(&set, &["--detect-only", "--exclude", l]);
    assert_eq!(images.len(), 1);
    assert_eq!(images[0]["name"], first);

    std::fs::write(&list, format!("{first}\nno_such_photo\n")).unwrap();
    let o = run(&["eval", set.to_str().unwrap(), "--detect-only", "--only", l]);
    assert_ne!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(
        err.contains("held-back.txt:2") && err.contains("no_such_photo"),
        "{err}"
    );
}

#[test]
fn scan_json_reports_a_turned_photo_upright() {
    let dir = tempfile::tempdir().unwrap();
    let name = "01_01_honor_view_10_0";
    let photo = kubiesa_val().join(format!("images/{name}.jpg"));
    let upright = run(&["scan", photo.to_str().unwrap(), "--json"]);
    assert_eq!(upright.status.code(), Some(0), "{}", stderr(&upright));
    let upright: serde_json::Value = serde_json::from_slice(&upright.stdout).unwrap();
    assert_eq!(upright["rotation_deg"], 0);
    let turned = dir.path().join("turned.png");
    image::imageops::rotate270(&image::open(&photo).unwrap().to_luma8())
        .save(&turned)
        .unwrap();
    let o = run(&["scan", turned.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let scan: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(scan["rotation_deg"], 270);
    assert_eq!(scan["grid"], upright["grid"]);
}

/// `--json` output is one JSON object whatever happens: a photo without a grid, a file that
/// is not an image, a missing file — each an object with an `"error"`, exit 1.
#[test]
fn scan_json_is_json_on_every_failure() {
    let dir = tempfile::tempdir().unwrap();
    let blank = dir.path().join("blank.png");
    image::GrayImage::from_pixel(320, 240, image::Luma([200]))
        .save(&blank)
        .unwrap();
    let text = dir.path().join("notes.jpg");
    std::fs::write(&text, "not a picture").unwrap();
    let missing = dir.path().join("missing.jpg");
    for (path, says) in [
        (&blank, "no Sudoku grid found"),
        (&text, "notes.jpg"),
        (&missing, "missing.jpg"),
    ] {
        let o = run(&["scan", path.to_str().unwrap(), "--json"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{path:?}: not one JSON object ({e}): {:?}", o.stdout));
        let error = v["error"].as_str().expect("an error field");
        assert!(error.contains(says), "{error}");
    }
}

/// A model that cannot be used is reported even for a photo in which no grid is found.
#[test]
fn a_bad_model_is_reported_without_a_grid() {
    let dir = tempfile::tempdir().unwrap();
    let blank = dir.path().join("blank.png");
    save_blank_frame(&blank);
    let model = nan_model();
    let o = run(&[
        "scan",
        blank.to_str().unwrap(),
        "--model",
        model.to_str().unwrap(),
    ]);
    assert_fails_naming_the_nan_model(&o);
}

/// A plain grey 320×240 picture (no grid): only the model can fail on it.
fn save_blank_frame(path: &Path) {
    image::GrayImage::from_pixel(320, 240, image::Luma([200]))
        .save(path)
        .unwrap();
}

/// A model whose scores are NaN (`scripts/make_bad_models.py`).
fn nan_model() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nan_scores.onnx")
}

fn assert_fails_naming_the_nan_model(o: &Output) {
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(o);
    assert!(
        err.contains("nan_scores.onnx") && err.contains("NaN"),
        "{err}"
    );
}

/// `replay --model` loads the named model for the clip (the same as `scan`'s): an unusable
/// one stops the replay with an error naming it, before any frame is played.
#[test]
fn replay_names_a_bad_model() {
    let dir = tempfile::tempdir().unwrap();
    let clip = dir.path().join("clip");
    std::fs::create_dir(&clip).unwrap();
    save_blank_frame(&clip.join("frame_0000.png"));
    let model = nan_model();
    let o = run(&[
        "replay",
        clip.to_str().unwrap(),
        "--json",
        "--model",
        model.to_str().unwrap(),
    ]);
    assert_fails_naming_the_nan_model(&o);
    // With --json the only line is the error object: no frame was played.
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert!(
        v["error"].as_str().unwrap().contains("nan_scores.onnx"),
        "{v}"
    );
}

/// `--second-model` loads the named second model beside the first: an unusable one stops
/// the scan with an error naming it; `--no-second-model` reads with the first alone and
/// cannot be combined with `--second-model`.
#[test]
fn scan_names_a_bad_second_model_and_reads_without_one() {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.png");
    save_blank_frame(&frame);
    let model = nan_model();
    let o = run(&[
        "scan",
        frame.to_str().unwrap(),
        "--second-model",
        model.to_str().unwrap(),
    ]);
    assert_fails_naming_the_nan_model(&o);
    let o = run(&["scan", frame.to_str().unwrap(), "--no-second-model"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("no Sudoku grid"), "{}", stderr(&o));
    let o = run(&[
        "scan",
        frame.to_str().unwrap(),
        "--no-second-model",
        "--second-model",
        model.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// `SUDOKU_LENS_ORT_LIB` left set for another build does not stop a build without ONNX
/// Runtime: a warning, and the scan runs on tract.
#[cfg(not(feature = "onnxruntime"))]
#[test]
fn ort_library_variable_is_ignored_without_the_feature() {
    let photo = kubiesa_val().join("images/01_01_honor_view_10_0.jpg");
    let o = Command::new(BIN)
        .args(["scan", photo.to_str().unwrap(), "--json"])
        .env("SUDOKU_LENS_ORT_LIB", "/nonexistent/libonnxruntime.so")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("tract"), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["solution"].is_string(), "{v}");
}

/// Malformed label files are reported with file and line, never dropped from the figures;
/// `eval --json` then prints one object with the error.
#[test]
fn eval_reports_malformed_labels_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let [first, second] = small_set(dir.path(), str::to_string);
    let row = "0 0 0 0 0 0 0 0 0\n";
    std::fs::write(
        dir.path().join(format!("labels/{first}.txt")),
        row.repeat(8),
    )
    .unwrap();
    std::fs::write(
        dir.path().join(format!("labels/{second}.txt")),
        format!("{}0 0 11 0 0 0 0 0 0\n", row.repeat(4)),
    )
    .unwrap();
    let o = run(&["eval", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(&format!("{first}.txt:8")), "{err}");
    assert!(
        err.contains(&format!("{second}.txt:5")) && err.contains("\"11\""),
        "{err}"
    );
    let o = run(&["eval", dir.path().to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert!(
        v["error"].as_str().unwrap().contains("malformed label"),
        "{v}"
    );
}

/// corners.csv saved with a byte-order mark reads; corners far beyond any photo are refused
/// by line (they once printed "NaN %").
#[test]
fn eval_reads_a_bom_and_refuses_absurd_corners() {
    let dir = tempfile::tempdir().unwrap();
    small_set(dir.path(), |csv| format!("\u{feff}{csv}"));
    let (_, summary) = eval_json(dir.path(), &["--detect-only"]);
    assert_eq!(summary["within_3pct"], 1.0);
    small_set(dir.path(), |csv| {
        let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
        let name = lines[1].split(',').next().unwrap().to_string();
        lines[1] = format!("{name},1e38,1e38,1e38,1e38,1e38,1e38,1e38,1e38");
        lines.join("\n")
    });
    let o = run(&["eval", dir.path().to_str().unwrap(), "--detect-only"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("corners.csv:2") && !err.contains("NaN"),
        "{err}"
    );
}
