//! `sudoku-lens dataset`: exports labelled, normalized training cells for the digit model
//! (real cells from photo data sets plus synthetic font renderings). See models/README.md.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use clap::Args;

use sudoku_lens::dataset::NameList;
use sudoku_lens::digits::Classifier;
use sudoku_lens::digits::export::{
    CellWriter, PhotoExportOptions, export_handwritten, export_photo_set, export_synthetic,
};
use sudoku_lens::scan::CELL_SIZE_PX;
use sudoku_lens::synthetic::{FontBank, FontSplit, Rng};

use super::fixes::LabelFixesArgs;
use super::progress::{Progress, ProgressArgs};

/// Arguments of `dataset`.
#[derive(Args, Debug)]
pub struct DatasetArgs {
    /// Output folder (cells.u8, labels.u8, meta.csv).
    #[arg(long)]
    pub out: PathBuf,
    /// A photo data set folder (images/, labels/, corners.csv); repeatable.
    #[arg(long = "photos")]
    pub photos: Vec<PathBuf>,
    /// Synthetic font cells per class (0–10).
    #[arg(long, default_value_t = 0, value_parser = super::number_in(0usize..=10_000_000))]
    pub synthetic_per_class: usize,
    /// Synthetic handwritten cells per class (0–10), each group of 11 by a new writer.
    #[arg(long, default_value_t = 0, value_parser = super::number_in(0usize..=10_000_000))]
    pub handwriting_per_class: usize,
    /// Extra cuts of each photo with synthetic handwriting written into its empty cells.
    #[arg(long, default_value_t = 0, value_parser = super::number_in(0usize..=1000))]
    pub handwriting_copies: usize,
    /// Share of the empty cells of a handwriting cut that get a handwritten digit.
    #[arg(long, default_value_t = 0.5, value_parser = super::number_in(0.0f32..=1.0))]
    pub handwriting_share: f32,
    /// A folder of printed-givens masks (`NAME.txt` or `PUZZLE.txt` for photos
    /// `PUZZLE_…`, 9 rows of 0/1), searched before a set's own `givens/`; repeatable.
    #[arg(long = "givens")]
    pub givens: Vec<PathBuf>,
    #[command(flatten)]
    pub fixes: LabelFixesArgs,
    /// A set (folder name) whose digits are all printed where a photo has no givens mask;
    /// repeatable.
    #[arg(long = "all-printed")]
    pub all_printed: Vec<String>,
    /// Font folders searched (recursively) for synthetic digits. Only the training families
    /// are used (`FontSplit::Train`): the held-out families stay unseen for the test sets.
    #[arg(long = "fonts", default_value = "/usr/share/fonts")]
    pub fonts: Vec<PathBuf>,
    /// Jittered-corner copies of each photo (0 to 1000).
    #[arg(long, default_value_t = 2, value_parser = super::number_in(0usize..=1000))]
    pub jitter_copies: usize,
    /// Corner jitter, as a fraction of the grid side (0 to 0.5).
    #[arg(long, default_value_t = 0.012, value_parser = super::number_in(0.0f32..=0.5))]
    pub jitter: f32,
    /// Do not add cells cut along the detector's own lattice.
    #[arg(long)]
    pub no_detector: bool,
    /// Use the detector's cut only when all its lattice points lie within this fraction of
    /// the grid side of the true ones (0 to 1).
    #[arg(long, default_value_t = 0.04, value_parser = super::number_in(0.0f32..=1.0))]
    pub detector_tolerance: f32,
    /// Write every non-empty real cell this many times per cut (class balance; 1 to 1000).
    #[arg(long, default_value_t = 1, value_parser = super::number_in(1usize..=1000))]
    pub ink_repeats: usize,
    /// Random seed (same seed, same data).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Allow a folder whose name ends in `-val` (validation data must not be trained on).
    #[arg(long)]
    pub allow_validation: bool,
    /// A file of photo names (one per line, `#` comments) never exported: a held-back
    /// evaluation split such as models/train/holdout/*.txt; repeatable.
    #[arg(long = "exclude")]
    pub exclude: Vec<PathBuf>,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Runs `dataset`.
pub fn run(args: DatasetArgs) -> anyhow::Result<ExitCode> {
    for p in &args.photos {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.ends_with("-val") && !args.allow_validation {
            bail!(
                "{} looks like a validation set; refusing to export it for training (--allow-validation overrides)",
                p.display()
            );
        }
    }
    let mut rng = Rng::new(args.seed);
    let mut writer = CellWriter::create(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let mut exclude = std::collections::HashSet::new();
    for list in &args.exclude {
        exclude.extend(
            NameList::read(list)?
                .names
                .into_iter()
                .map(|(_, name)| name),
        );
    }
    // Photos without ground-truth corners are cut along the detector's lattice when the
    // embedded first model confirms it (alone: the committed cells were exported so).
    let mut verifier = Classifier::embedded_first().context("loading the embedded digit model")?;
    let options = PhotoExportOptions {
        cell_size_px: CELL_SIZE_PX,
        jitter_fraction: args.jitter,
        jitter_copies: args.jitter_copies,
        use_detector: !args.no_detector,
        detector_tolerance: args.detector_tolerance,
        ink_repeats: args.ink_repeats,
        exclude,
        givens_dirs: args.givens.clone(),
        label_fixes: args.fixes.label_fixes.clone(),
        printed_sets: args.all_printed.iter().cloned().collect(),
        handwriting_copies: args.handwriting_copies,
        handwriting_share: args.handwriting_share,
    };
    // One step per photo set, then the synthetic and handwritten cells.
    let parts = args.photos.len()
        + usize::from(args.synthetic_per_class > 0)
        + usize::from(args.handwriting_per_class > 0);
    let bar = Progress::new(args.progress, Some(parts as u64), "parts");
    for dir in &args.photos {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        bar.set_message(name.clone());
        let stats = export_photo_set(
            &mut writer,
            dir,
            &name,
            &options,
            &mut rng,
            Some(&mut verifier),
        )
        .with_context(|| format!("exporting {}", dir.display()))?;
        bar.inc();
        bar.println(format!(
            "{name}: {} labelled photos ({} without labels left out; {} held back; {} without \
             corners, {} of them cut along the model-checked detector lattice), detector \
             lattice also used on {}, {} cells ({} with synthetic handwriting)",
            stats.photos,
            stats.no_labels,
            stats.excluded,
            stats.no_corners,
            stats.verified_without_corners,
            stats.detector_used,
            stats.cells,
            stats.handwritten_composites
        ));
    }
    if args.synthetic_per_class > 0 {
        // Training cells: never the held-out families, which the `--fonts heldout` test
        // screenshots and pages are drawn in.
        let bank = FontBank::from_dirs_split(&args.fonts, FontSplit::Train)?;
        bar.set_message("synthetic cells");
        bar.println(format!("synthetic: {} fonts", bank.len()));
        let n = export_synthetic(
            &mut writer,
            &bank,
            args.synthetic_per_class,
            CELL_SIZE_PX,
            &mut rng,
        )?;
        bar.inc();
        bar.println(format!("synthetic: {n} cells"));
    }
    if args.handwriting_per_class > 0 {
        bar.set_message("handwritten cells");
        let n = export_handwritten(
            &mut writer,
            args.handwriting_per_class,
            CELL_SIZE_PX,
            &mut rng,
        )?;
        bar.inc();
        bar.println(format!("handwriting: {n} cells"));
    }
    bar.finish();
    let per_class = writer.per_class();
    let total = writer.finish()?;
    eprintln!(
        "wrote {total} cells to {}; per class {per_class:?}",
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
