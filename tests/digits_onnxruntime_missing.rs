//! A missing or non-ONNX-Runtime library gives a clear error naming the path.
#![cfg(feature = "onnxruntime")]

use std::path::PathBuf;

use sudoku_lens::digits::{Backend, Classifier};

#[test]
fn missing_library_is_a_clear_error() {
    let err = Classifier::load(
        None,
        Backend::OnnxRuntime {
            library: PathBuf::from("/nonexistent/libonnxruntime.so"),
        },
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("/nonexistent/libonnxruntime.so"), "{text}");
    assert!(text.contains("onnxruntime"), "{text}");
}
