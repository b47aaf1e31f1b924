//! The vision command line: `scan --debug` writes every stage image, `eval` reads the data-set
//! layout and ends its JSON output with the summary object, and a missing or malformed data
//! set gets an error naming the file and line. Photos come from `../shared/datasets` and are
//! copied only into temporary folders.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-lens");

fn kubiesa_val() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/kubiesa-val")
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
