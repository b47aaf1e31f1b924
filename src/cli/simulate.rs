//! `sudoku-lens simulate`: writes seeded webcam clips (frames + truth.json, the layout of
//! `sudoku_lens::clip`) made from the photos of a data set. See README ("Simulated clips").

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use clap::{Args, ValueEnum};

use sudoku_lens::clip::ClipKind;
use sudoku_lens::dataset::{Dataset, NameList};
use sudoku_lens::synthetic::clip::{ClipOptions, FPS, KindChoice, PuzzleSource, write_clip};
use sudoku_lens::synthetic::{FontBank, FrameSize};

use super::progress::{Progress, ProgressArgs};

/// Which clips to make.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// A puzzle enters and is held (tremor, autofocus, sometimes a finger).
    Single,
    /// One puzzle leaves, another arrives.
    Swap,
    /// A printed page without a Sudoku (text, crosswords, tables, other grids).
    Nopuzzle,
    /// About 70 % single, 15 % swap, 15 % nopuzzle.
    Mix,
}

/// Clip frame sizes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ClipSizeArg {
    /// 640×480.
    Vga,
    /// 1280×720.
    Hd,
    /// Either, chosen per clip.
    Mixed,
}

/// Arguments of `simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Source data-set folder (images/, labels/, corners.csv); only photos with a corners
    /// row and labels are used.
    #[arg(long = "from")]
    pub from: PathBuf,
    /// Use only the photos this list names (one a line, extension optional, # comments).
    #[arg(long)]
    pub only: Option<PathBuf>,
    /// Output folder: clip k goes to OUT/clip_KKKK_KIND/ (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Random seed (same seed, same bytes; clip k does not depend on --clips).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of clips (0 to 100,000).
    #[arg(long, default_value_t = 10, value_parser = super::number_in(0usize..=100_000))]
    pub clips: usize,
    /// Kind of clip.
    #[arg(long, value_enum, default_value_t = KindArg::Mix)]
    pub kind: KindArg,
    /// Frame size.
    #[arg(long, value_enum, default_value_t = ClipSizeArg::Mixed)]
    pub size: ClipSizeArg,
    /// Frames a puzzle is held still: `MIN..MAX`, `MIN..` or `N` (default 40..60 for
    /// single and nopuzzle clips, 30..40 per puzzle for swaps).
    #[arg(long = "frames-steady", value_parser = parse_frames)]
    pub frames_steady: Option<(usize, Option<usize>)>,
    /// Folders searched (recursively) for the fonts of nopuzzle pages; repeatable.
    #[arg(long = "font-dir", default_value = "/usr/share/fonts")]
    pub font_dirs: Vec<PathBuf>,
    /// Threads drawing frames, 1 to 256 (default: every core).
    #[arg(long, value_parser = super::number_in(1usize..=256))]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Most steady frames a clip may ask for (an hour at 30 fps).
const MAX_STEADY_FRAMES: usize = 108_000;

/// Parses `MIN..MAX`, `MIN..=MAX`, `MIN..` or `N`.
fn parse_frames(text: &str) -> Result<(usize, Option<usize>), String> {
    let num = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{s}` is not a frame count (use MIN..MAX, MIN.. or N)"))
    };
    let (lo, hi) = match text.split_once("..") {
        None => {
            let n = num(text)?;
            (n, Some(n))
        }
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            (
                num(a)?,
                if b.trim().is_empty() {
                    None
                } else {
                    Some(num(b)?)
                },
            )
        }
    };
    if lo == 0 || hi.is_some_and(|h| h < lo) || lo.max(hi.unwrap_or(lo)) > MAX_STEADY_FRAMES {
        return Err(format!(
            "`{text}`: need 1 <= MIN <= MAX <= {MAX_STEADY_FRAMES} (use MIN..MAX, MIN.. or N)"
        ));
    }
    Ok((lo, hi))
}

/// Runs `simulate`.
pub fn run(args: SimulateArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    if !args.from.is_dir() {
        bail!("data set folder {} does not exist", args.from.display());
    }
    let ds = Dataset::open(&args.from)
        .with_context(|| format!("reading data set {}", args.from.display()))?;
    let only = args.only.as_deref().map(NameList::read).transpose()?;
    let ds = ds.select(only.as_ref(), None)?;
    let mut puzzles = Vec::new();
    for photo in &ds.photos {
        let (Some(corners), Some(labels)) = (photo.corners_in_image, ds.labels(photo)?) else {
            continue;
        };
        puzzles.push(PuzzleSource {
            name: photo.name.clone(),
            image_path: photo.image_path.clone(),
            corners,
            labels,
        });
    }
    let kinds = match args.kind {
        KindArg::Single => KindChoice::Only(ClipKind::Single),
        KindArg::Swap => KindChoice::Only(ClipKind::Swap),
        KindArg::Nopuzzle => KindChoice::Only(ClipKind::Nopuzzle),
        KindArg::Mix => KindChoice::Mix,
    };
    if puzzles.is_empty() && args.kind != KindArg::Nopuzzle {
        bail!(
            "no usable photos in {}{}: a puzzle clip needs a photo with a corners.csv row and \
             a label file",
            args.from.display(),
            args.only
                .as_ref()
                .map(|l| format!(" (restricted by {})", l.display()))
                .unwrap_or_default()
        );
    }
    let fonts = if args.kind == KindArg::Nopuzzle || args.kind == KindArg::Mix {
        Some(FontBank::from_dirs(&args.font_dirs).context("loading fonts for nopuzzle pages")?)
    } else {
        None
    };
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create output folder {}", args.out.display()))?;
    let probe = args.out.join(".simulate-write-test");
    std::fs::write(&probe, b"")
        .with_context(|| format!("cannot write into output folder {}", args.out.display()))?;
    let _ = std::fs::remove_file(&probe);

    let options = ClipOptions {
        size: match args.size {
            ClipSizeArg::Vga => FrameSize::Vga,
            ClipSizeArg::Hd => FrameSize::Hd,
            ClipSizeArg::Mixed => FrameSize::Mixed,
        },
        steady_frames: args.frames_steady,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    };
    let (mut by_kind, mut frames, mut bytes) = ([0usize; 3], 0usize, 0u64);
    let mut sizes = std::collections::BTreeMap::new();
    let bar = Progress::new(args.progress, Some(args.clips as u64), "clips");
    for k in 0..args.clips {
        let clip_start = Instant::now();
        let report = write_clip(
            &args.out,
            args.seed,
            k,
            kinds,
            &puzzles,
            fonts.as_ref(),
            &options,
        )
        .with_context(|| format!("making clip {k}"))?;
        let what = match (&report.hard_negative, report.photos.is_empty()) {
            (Some(h), _) => format!("page ({h:?})"),
            (None, false) => report.photos.join(" → "),
            (None, true) => String::new(),
        };
        bar.println(format!(
            "{}: {}×{}, {} frames, {:.1} MB, {what} ({:.1} s)",
            report.dir.display(),
            report.size.0,
            report.size.1,
            report.frames,
            report.bytes as f64 / 1e6,
            clip_start.elapsed().as_secs_f64()
        ));
        bar.inc();
        let i = ClipKind::ALL
            .iter()
            .position(|k| *k == report.kind)
            .unwrap_or(0);
        by_kind[i] += 1;
        frames += report.frames;
        bytes += report.bytes;
        *sizes
            .entry(format!("{}x{}", report.size.0, report.size.1))
            .or_insert(0) += 1;
    }
    bar.finish();
    let sizes: Vec<String> = sizes.iter().map(|(s, n)| format!("{n} {s}")).collect();
    eprintln!(
        "wrote {} clips ({} single, {} swap, {} nopuzzle; {}) to {}: {frames} frames = {:.1} s \
         of video at {FPS} fps, {:.1} MB, in {:.1} s",
        args.clips,
        by_kind[0],
        by_kind[1],
        by_kind[2],
        if sizes.is_empty() {
            "none".into()
        } else {
            sizes.join(", ")
        },
        args.out.display(),
        frames as f64 / f64::from(FPS),
        bytes as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_ranges_parse() {
        assert_eq!(parse_frames("40..60"), Ok((40, Some(60))));
        assert_eq!(parse_frames("40..=60"), Ok((40, Some(60))));
        assert_eq!(parse_frames("12.."), Ok((12, None)));
        assert_eq!(parse_frames("8"), Ok((8, Some(8))));
        assert!(parse_frames("9..3").is_err());
        assert!(parse_frames("0..3").is_err());
        assert!(parse_frames("a..3").is_err());
    }
}
