//! The optional native backend: ONNX Runtime loaded at run time must give the same classes as
//! tract (the fixture expectations, which tract is tested against in `digits_model.rs`).
//! Built only with `--features onnxruntime`, and ignored unless asked for (it needs ONNX
//! Runtime's library, which CI does not install): run it with
//! `SUDOKU_LENS_ORT_LIB=/path/libonnxruntime.so cargo test --features onnxruntime --test
//! digits_onnxruntime -- --ignored`; asked for without the library, it fails. Its own test
//! binary: `ort` holds one backend per process.
#![cfg(feature = "onnxruntime")]

use std::path::{Path, PathBuf};

use sudoku_lens::digits::{Backend, Classifier, ModelError};
use sudoku_lens::vision::CELL_INPUT_LEN;

fn library() -> PathBuf {
    let p = PathBuf::from(
        std::env::var_os("SUDOKU_LENS_ORT_LIB")
            .expect("set SUDOKU_LENS_ORT_LIB to libonnxruntime.so (>= 1.24)"),
    );
    assert!(p.is_file(), "SUDOKU_LENS_ORT_LIB: no file {}", p.display());
    p
}

#[test]
#[ignore = "needs ONNX Runtime's library: SUDOKU_LENS_ORT_LIB=… cargo test --features onnxruntime -- --ignored"]
fn onnxruntime_matches_fixture_classes() {
    let lib = library();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let bytes = std::fs::read(fixtures.join("digit_crops.u8")).unwrap();
    let cells: Vec<Vec<f32>> = bytes
        .chunks_exact(CELL_INPUT_LEN)
        .map(|c| c.iter().map(|&b| b as f32 / 255.0).collect())
        .collect();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("digit_crops.json")).unwrap())
            .unwrap();
    let classes: Vec<u64> = json["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    // The fixture's classes are the first model's: read without the second opinion.
    let mut c = Classifier::load(None, Backend::OnnxRuntime { library: lib })
        .unwrap()
        .without_second_opinion();
    let readings = c.classify(&cells).unwrap();
    for (i, r) in readings.iter().enumerate() {
        assert_eq!(u64::from(r.class.index()), classes[i], "crop {i}");
    }
    // Tract cannot be bound in the same process afterwards: a clear error, not a switch.
    let err = Classifier::load(None, Backend::Tract).unwrap_err();
    assert!(matches!(err, ModelError::Backend { .. }));
}
