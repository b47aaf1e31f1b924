//! The digit-model arguments every reading command shares (`scan`, `check`, `eval`, `fill`,
//! `replay`): which ONNX model and which runtime. It loads the classifier; it does not read
//! pictures.

use std::path::PathBuf;

use clap::Args;

use sudoku_lens::digits::{Backend, Classifier};

/// `--model` and `--ort-lib`.
#[derive(Args, Debug, Default)]
pub struct ModelArgs {
    /// Digit model to use instead of the built-in one (ONNX).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Run the digit model on ONNX Runtime loaded from this shared library (needs the
    /// `onnxruntime` feature; default: $SUDOKU_LENS_ORT_LIB, else tract).
    #[arg(long)]
    pub ort_lib: Option<PathBuf>,
}

impl ModelArgs {
    /// The classifier these arguments name; an error names the model or library that failed.
    pub fn load(&self) -> anyhow::Result<Classifier> {
        Ok(Classifier::load(
            self.model.as_deref(),
            Backend::choose(self.ort_lib.as_deref()),
        )?)
    }
}
