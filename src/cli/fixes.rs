//! The `--label-fixes` argument the data-set commands share (`dataset`, `eval`, `synth
//! webcam`, `synth fill`): corrected truth kept outside a shared set. It opens the set with
//! the fixes applied; reading and checking them is `dataset`'s.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::Args;

use sudoku_lens::dataset::Dataset;

/// `--label-fixes DIR`.
#[derive(Args, Debug, Default)]
pub struct LabelFixesArgs {
    /// Corrected truth: `DIR/SET/NAME.txt` replaces `labels/NAME.txt` of the photo NAME,
    /// and the rows of `DIR/SET/corners.csv` its corner rows, in the set whose folder is
    /// named SET (see models/train/label-fixes).
    #[arg(long, value_name = "DIR")]
    pub label_fixes: Option<PathBuf>,
}

impl LabelFixesArgs {
    /// The data set at `root`, with the fixes applied when given; an error names the set or
    /// the fixes folder (and, from `dataset`, the file and line).
    pub fn open(&self, root: &Path) -> anyhow::Result<Dataset> {
        let set =
            Dataset::open(root).with_context(|| format!("reading data set {}", root.display()))?;
        Ok(match &self.label_fixes {
            Some(dir) => set
                .with_label_fixes(dir)
                .with_context(|| format!("applying the fixes in {}", dir.display()))?,
            None => set,
        })
    }
}
