//! The committed digit model under tract: agrees with PyTorch on the fixture crops, rejects missing / corrupt / wrong-shaped models with
//! errors naming the file, and still loads a model without the handwriting output.

use std::path::{Path, PathBuf};

use sudoku_lens::digits::{Backend, Classifier, ModelError};
use sudoku_lens::vision::CELL_INPUT_LEN;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Fixture crops (as exported for training) and PyTorch's classes and probabilities.
fn load_fixture() -> (Vec<Vec<f32>>, Vec<u8>, Vec<Vec<f32>>) {
    let bytes = std::fs::read(fixture("digit_crops.u8")).unwrap();
    let cells: Vec<Vec<f32>> = bytes
        .chunks_exact(CELL_INPUT_LEN)
        .map(|c| c.iter().map(|&b| b as f32 / 255.0).collect())
        .collect();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("digit_crops.json")).unwrap())
            .unwrap();
    let classes: Vec<u8> = json["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u8)
        .collect();
    let probs: Vec<Vec<f32>> = json["probabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            row.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap() as f32)
                .collect()
        })
        .collect();
    assert_eq!(cells.len(), classes.len());
    (cells, classes, probs)
}

#[test]
#[allow(clippy::needless_range_loop)] // k indexes two parallel probability arrays
fn tract_matches_pytorch_on_fixture_crops() {
    let (cells, classes, probs) = load_fixture();
    assert!(cells.len() >= 40, "fixture has {} crops", cells.len());
    // The fixture holds the first model's PyTorch outputs: read without the second opinion.
    let mut c = Classifier::embedded_first().unwrap();
    let readings = c.classify(&cells).unwrap();
    for (i, r) in readings.iter().enumerate() {
        assert_eq!(r.class.index(), classes[i], "crop {i}: {r:?}");
        for k in 0..11 {
            let d = (r.probabilities[k] - probs[i][k]).abs();
            assert!(
                d < 2e-3,
                "crop {i} class {k}: tract {} torch {}",
                r.probabilities[k],
                probs[i][k]
            );
        }
    }
    // The same crops one at a time give the same answers as the batch.
    let single = c.classify(&cells[..1]).unwrap();
    assert_eq!(single[0].class, readings[0].class);
    assert_eq!(single[0].handwritten, readings[0].handwritten);
}

#[test]
fn model_without_the_kind_output_still_loads() {
    let p = fixture("logits_only.onnx");
    let mut c = Classifier::load(Some(&p), Backend::Tract).unwrap();
    assert!(!c.has_kind_output());
    let (cells, _, _) = load_fixture();
    let readings = c.classify(&cells[..5]).unwrap();
    assert_eq!(readings.len(), 5);
    assert!(
        readings
            .iter()
            .all(|r| r.handwritten.is_none() && r.writing().is_none())
    );
}

#[test]
fn wrong_shaped_kind_output_is_rejected() {
    // logits [N,11] but kind [N,3].
    let p = fixture("wrong_kind_shape.onnx");
    let err = Classifier::load(Some(&p), Backend::Tract).unwrap_err();
    assert!(matches!(err, ModelError::Shape { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("wrong_kind_shape.onnx") && text.contains("kind"),
        "{text}"
    );
}

#[test]
fn fixture_model_file_equals_embedded_model() {
    let on_disk =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("models/digits.onnx")).unwrap();
    assert_eq!(on_disk, sudoku_lens::digits::EMBEDDED_MODEL);
    assert!(
        on_disk.len() < 2 * 1024 * 1024,
        "model is {} bytes",
        on_disk.len()
    );
}

#[test]
fn missing_model_error_names_the_path() {
    let err =
        Classifier::load(Some(Path::new("/nonexistent/digits.onnx")), Backend::Tract).unwrap_err();
    assert!(matches!(err, ModelError::Read { .. }));
    assert!(
        err.to_string().contains("/nonexistent/digits.onnx"),
        "{err}"
    );
}

#[test]
fn corrupt_model_error_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("broken.onnx");
    let mut bytes = sudoku_lens::digits::EMBEDDED_MODEL.to_vec();
    bytes.truncate(bytes.len() / 3);
    std::fs::write(&p, &bytes).unwrap();
    let err = Classifier::load(Some(&p), Backend::Tract).unwrap_err();
    assert!(err.to_string().contains("broken.onnx"), "{err}");
    std::fs::write(&p, b"not a model at all").unwrap();
    let err = Classifier::load(Some(&p), Backend::Tract).unwrap_err();
    assert!(err.to_string().contains("broken.onnx"), "{err}");
}

#[test]
fn wrong_shaped_model_is_rejected() {
    // A valid ONNX model that maps [N,1,32,32] to [N,10] (one class short).
    let p = fixture("wrong_shape.onnx");
    let err = Classifier::load(Some(&p), Backend::Tract).unwrap_err();
    assert!(matches!(err, ModelError::Shape { .. }), "{err:?}");
    assert!(err.to_string().contains("wrong_shape.onnx"), "{err}");
}

#[test]
fn bad_cell_length_is_an_error_not_a_panic() {
    let mut c = Classifier::new().unwrap();
    let err = c.classify(&[vec![0.0; 10]]).unwrap_err();
    assert!(matches!(err, ModelError::BadCell { index: 0, len: 10 }));
    assert!(c.classify(&[]).unwrap().is_empty());
}

#[test]
fn onnxruntime_backend_is_refused_after_tract() {
    let _ = Classifier::new().unwrap();
    let err = Classifier::load(
        None,
        Backend::OnnxRuntime {
            library: PathBuf::from("/nonexistent/libonnxruntime.so"),
        },
    )
    .unwrap_err();
    assert!(matches!(err, ModelError::Backend { .. }), "{err:?}");
}

/// The hostile models of `scripts/make_bad_models.py`: each loads as ONNX, and the load check
/// refuses it with a message naming the file and the fault.
#[test]
fn models_with_useless_output_fail_the_load_check() {
    for (name, kind, says) in [
        ("batch_one.onnx", "shape", "[1, 11]"),
        ("nan_scores.onnx", "output", "NaN"),
        ("inf_scores.onnx", "output", "inf"),
        ("constant_scores.onnx", "output", "same scores"),
        ("bad_kind.onnx", "shape", "second output"),
    ] {
        let err = Classifier::load(Some(&fixture(name)), Backend::Tract).unwrap_err();
        let matched = match kind {
            "shape" => matches!(err, ModelError::Shape { .. }),
            _ => matches!(err, ModelError::Output { .. }),
        };
        let text = err.to_string();
        assert!(matched, "{name}: {err:?}");
        assert!(text.contains(name) && text.contains(says), "{name}: {text}");
    }
}

/// A model with a second output (`kind`, [N,2]: printed vs handwritten) is accepted; its
/// digit scores are read from the first output.
#[test]
fn a_second_kind_output_is_accepted() {
    let mut c = Classifier::load(Some(&fixture("kind_output.onnx")), Backend::Tract).unwrap();
    let readings = c
        .classify(&[vec![0.0; CELL_INPUT_LEN], vec![1.0; CELL_INPUT_LEN]])
        .unwrap();
    assert_eq!(readings.len(), 2);
}
