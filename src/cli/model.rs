//! The digit-model arguments every reading command shares (`scan`, `check`, `eval`, `fill`,
//! `replay`): which ONNX model and which runtime. It loads the classifier; it does not read
//! pictures.

use std::path::PathBuf;

use clap::Args;

use sudoku_lens::digits::{Backend, Classifier};

/// `--model`, `--second-model`, `--no-second-model` and `--ort-lib`.
#[derive(Args, Debug, Default)]
pub struct ModelArgs {
    /// Digit model to use instead of the built-in ones (ONNX); it reads alone unless
    /// --second-model is given.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Second digit model (ONNX) asked about the cells the first doubts, instead of the
    /// built-in second model.
    #[arg(long, conflicts_with = "no_second_model")]
    pub second_model: Option<PathBuf>,
    /// Read with the first model alone, without a second opinion on doubtful cells.
    #[arg(long)]
    pub no_second_model: bool,
    /// Run the digit model on ONNX Runtime loaded from this shared library (needs the
    /// `onnxruntime` feature; default: $SUDOKU_LENS_ORT_LIB, else tract).
    #[arg(long)]
    pub ort_lib: Option<PathBuf>,
}

impl ModelArgs {
    /// The classifier these arguments name; an error names the model or library that failed.
    pub fn load(&self) -> anyhow::Result<Classifier> {
        let backend = Backend::choose(self.ort_lib.as_deref());
        let first = Classifier::load(self.model.as_deref(), backend.clone())?;
        Ok(match (&self.second_model, self.no_second_model) {
            (_, true) => first.without_second_opinion(),
            (Some(path), false) => {
                first.with_second_opinion(Classifier::load(Some(path), backend)?)
            }
            (None, false) => first,
        })
    }
}
