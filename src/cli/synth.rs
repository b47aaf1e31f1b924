//! `sudoku-lens synth screens|webcam|print|screen-photos|fill`: writes seeded synthetic photo
//! data sets in the shared layout (images/, labels/, corners.csv). See models/README.md
//! ("Generated data").

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::{Args, Subcommand, ValueEnum};

use sudoku_lens::synthetic::handwriting::Pen;
use sudoku_lens::synthetic::rng::stable_hash;
use sudoku_lens::synthetic::{
    CameraPhoto, DatasetWriter, Degradation, FontBank, FontSplit, FrameSize, OutputFormat,
    PrintCamera, Rng, ScreenSpec, fill_photo_with_pens, print_photo, render_screen, sample_name,
    screen_photo, webcam_frame,
};
use sudoku_lens::vision::load_image;

use super::fixes::LabelFixesArgs;
use super::progress::{Progress, ProgressArgs};

/// Arguments of `synth`.
#[derive(Args, Debug)]
pub struct SynthArgs {
    #[command(subcommand)]
    pub command: SynthCommand,
}

/// The generators.
#[derive(Subcommand, Debug)]
pub enum SynthCommand {
    /// Rendered Sudoku app screenshots (phones and desktop windows, many themes and fonts).
    Screens(ScreensArgs),
    /// Webcam frames made from the photos of a data set (blur, exposure, noise, MJPEG).
    Webcam(WebcamArgs),
    /// Photographs of printed pages (newspapers, books, puzzle magazines) by a phone or a
    /// webcam.
    Print(PrintArgs),
    /// Photographs of a Sudoku app on a screen (monitor, laptop, tablet or phone: pixel
    /// stripes and moiré, backlight, bezel, reflections) by a phone or a webcam.
    ScreenPhotos(PrintArgs),
    /// The photos of a data set with handwriting added in their empty cells (pages far
    /// along or finished; `synth webcam --from` the result for webcam frames of them).
    Fill(FillArgs),
}

/// Arguments of `synth fill`.
#[derive(Args, Debug)]
pub struct FillArgs {
    /// Source data-set folder (images/, labels/, corners.csv); photos without corners or
    /// labels, or whose labels have no solution, are skipped.
    #[arg(long = "from")]
    pub from: PathBuf,
    #[command(flatten)]
    pub fixes: LabelFixesArgs,
    /// Output data-set folder (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Random seed (same seed, same files; a photo depends only on the seed and its name).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Share of the empty cells written in, 0 to 1 (1: finished pages).
    #[arg(long, default_value_t = 1.0, value_parser = super::number_in(0.0f32..=1.0))]
    pub share: f32,
    /// The pens the writers may use, comma-separated (default: any; a photo's writer is
    /// drawn until its pen is one of these).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub pens: Vec<PenArg>,
    /// Share of the written cells that are mistakes, 0 to 1: another digit than the
    /// solution's, labelled as written (a page to check the reader does not read the
    /// solution into it).
    #[arg(long, default_value_t = 0.0, value_parser = super::number_in(0.0f32..=1.0))]
    pub mistakes: f32,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// A writer's pen for `synth fill --pens`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum PenArg {
    /// Black or dark ball-point.
    Black,
    /// Blue ball-point.
    Blue,
    /// Graphite pencil.
    Pencil,
    /// Felt tip or marker.
    Felt,
}

impl From<PenArg> for Pen {
    fn from(pen: PenArg) -> Pen {
        match pen {
            PenArg::Black => Pen::Black,
            PenArg::Blue => Pen::Blue,
            PenArg::Pencil => Pen::Pencil,
            PenArg::Felt => Pen::Felt,
        }
    }
}

/// Which fonts `synth screens` may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FontsArg {
    /// Families not held out: for training data.
    Train,
    /// Held-out families only: for testing on unseen fonts.
    Heldout,
    /// Every font.
    All,
}

/// Arguments of `synth screens`.
#[derive(Args, Debug)]
pub struct ScreensArgs {
    /// Output data-set folder (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Number of screenshots (0 to 1,000,000).
    #[arg(long, default_value_t = 80, value_parser = super::number_in(0usize..=1_000_000))]
    pub count: usize,
    /// Random seed (same seed, same files; screenshot k does not depend on --count).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Font split.
    #[arg(long, value_enum, default_value_t = FontsArg::All)]
    pub fonts: FontsArg,
    /// Folders searched (recursively) for fonts; repeatable.
    #[arg(long = "font-dir", default_value = "/usr/share/fonts")]
    pub font_dirs: Vec<PathBuf>,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Arguments of `synth print` and `synth screen-photos`.
#[derive(Args, Debug)]
pub struct PrintArgs {
    /// Output data-set folder (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Number of photos (0 to 1,000,000).
    #[arg(long, default_value_t = 80, value_parser = super::number_in(0usize..=1_000_000))]
    pub count: usize,
    /// Random seed (same seed, same files; photo k does not depend on --count).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Font split.
    #[arg(long, value_enum, default_value_t = FontsArg::All)]
    pub fonts: FontsArg,
    /// Folders searched (recursively) for fonts; repeatable.
    #[arg(long = "font-dir", default_value = "/usr/share/fonts")]
    pub font_dirs: Vec<PathBuf>,
    /// The camera.
    #[arg(long, value_enum, default_value_t = CameraArg::Mixed)]
    pub camera: CameraArg,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Cameras of `synth print`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum CameraArg {
    /// Phone photos (long side 1600–3264 px).
    Phone,
    /// Webcam frames (640×480 or 1280×720).
    Webcam,
    /// Either, per photo.
    Mixed,
}

/// Webcam frame sizes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SizeArg {
    /// 640×480.
    #[value(name = "640x480")]
    Vga,
    /// 1280×720.
    #[value(name = "1280x720")]
    Hd,
    /// Either, per frame.
    Mixed,
}

/// Arguments of `synth webcam`.
#[derive(Args, Debug)]
pub struct WebcamArgs {
    /// Source data-set folder (images/, labels/, corners.csv); photos without corners are
    /// skipped.
    #[arg(long = "from")]
    pub from: PathBuf,
    #[command(flatten)]
    pub fixes: LabelFixesArgs,
    /// Output data-set folder (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Random seed (same seed, same files; a frame depends only on the seed, the photo's
    /// name and the copy number).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Frame size.
    #[arg(long, value_enum, default_value_t = SizeArg::Mixed)]
    pub size: SizeArg,
    /// Frames per photo (1 to 1000).
    #[arg(long, default_value_t = 1, value_parser = super::number_in(1usize..=1000))]
    pub copies: usize,
    /// Stronger blur and noise than a webcam held still gives (training data; test sets use
    /// the default, slight degradation).
    #[arg(long)]
    pub harsh: bool,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Runs `synth`.
pub fn run(args: SynthArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        SynthCommand::Screens(a) => run_screens(a),
        SynthCommand::Webcam(a) => run_webcam(a),
        SynthCommand::Print(a) => run_print(a),
        SynthCommand::ScreenPhotos(a) => run_screen_photos(a),
        SynthCommand::Fill(a) => run_fill(a),
    }
}

impl FontsArg {
    fn split(self) -> FontSplit {
        match self {
            FontsArg::Train => FontSplit::Train,
            FontsArg::Heldout => FontSplit::Heldout,
            FontsArg::All => FontSplit::All,
        }
    }
}

fn run_screens(args: ScreensArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let split = args.fonts.split();
    let fonts = FontBank::from_dirs_split(&args.font_dirs, split)?;
    let mut writer = DatasetWriter::create(&args.out)
        .with_context(|| format!("creating data set {}", args.out.display()))?;
    let mut jpeg = 0;
    let bar = Progress::new(args.progress, Some(args.count as u64), "screenshots");
    for i in 0..args.count {
        let mut rng = Rng::for_item(args.seed, i as u64);
        let spec = ScreenSpec::random(&mut rng, &fonts);
        let screen = render_screen(&spec, &fonts);
        if matches!(screen.format, OutputFormat::Jpeg(_)) {
            jpeg += 1;
        }
        writer.write(
            &format!("screen_{i:05}"),
            &screen.image,
            screen.format,
            Some(&screen.labels),
            screen.corners_in_image,
        )?;
        bar.inc();
    }
    bar.finish();
    let n = writer.finish()?;
    eprintln!(
        "wrote {n} screenshots ({} PNG, {jpeg} JPEG) to {} with {} {:?} fonts in {:.1} s",
        n - jpeg,
        args.out.display(),
        fonts.len(),
        split,
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn run_print(args: PrintArgs) -> anyhow::Result<ExitCode> {
    write_photos(
        args,
        "photos of printed pages",
        "print",
        "none of the fonts has Latin letters for the page's text",
        print_photo,
    )
}

fn run_screen_photos(args: PrintArgs) -> anyhow::Result<ExitCode> {
    write_photos(
        args,
        "photos of screens",
        "screenphoto",
        "the camera's pose could not be placed in the frame",
        screen_photo,
    )
}

/// Writes `args.count` photos made by `make` (`what` for messages, files `PREFIX_00000.jpg`,
/// …); photo k is made from the seed and k alone. `make` giving none for a photo is an error
/// that says which photo, with which fonts, and `none` (why the generator gives none).
fn write_photos(
    args: PrintArgs,
    what: &str,
    prefix: &str,
    none: &str,
    make: impl Fn(&mut Rng, &FontBank, PrintCamera) -> Option<CameraPhoto>,
) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let split = args.fonts.split();
    let fonts = FontBank::from_dirs_split(&args.font_dirs, split)?;
    let camera = match args.camera {
        CameraArg::Phone => PrintCamera::Phone,
        CameraArg::Webcam => PrintCamera::Webcam,
        CameraArg::Mixed => PrintCamera::Mixed,
    };
    let mut writer = DatasetWriter::create(&args.out)
        .with_context(|| format!("creating data set {}", args.out.display()))?;
    let bar = Progress::new(args.progress, Some(args.count as u64), "photos");
    for i in 0..args.count {
        let mut rng = Rng::for_item(args.seed, i as u64);
        let photo = make(&mut rng, &fonts, camera).with_context(|| {
            format!(
                "photo {i} of seed {} could not be made with the {} {split:?} fonts: {none}",
                args.seed,
                fonts.len()
            )
        })?;
        writer.write(
            &format!("{prefix}_{i:05}"),
            &photo.image,
            OutputFormat::Jpeg(photo.jpeg_quality),
            Some(&photo.labels),
            photo.corners_in_image,
        )?;
        bar.inc();
    }
    bar.finish();
    let n = writer.finish()?;
    eprintln!(
        "wrote {n} {what} to {} with {} {:?} fonts in {:.1} s",
        args.out.display(),
        fonts.len(),
        split,
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn run_webcam(args: WebcamArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let size = match args.size {
        SizeArg::Vga => FrameSize::Vga,
        SizeArg::Hd => FrameSize::Hd,
        SizeArg::Mixed => FrameSize::Mixed,
    };
    let source = args.fixes.open(&args.from)?;
    let mut writer = DatasetWriter::create(&args.out)
        .with_context(|| format!("creating data set {}", args.out.display()))?;
    let (mut used, mut no_corners, mut degenerate) = (0, 0, 0);
    let bar = Progress::new(args.progress, Some(source.photos.len() as u64), "photos");
    for (i, photo) in source.photos.iter().enumerate() {
        bar.set_position(i as u64);
        let Some(corners) = photo.corners_in_image else {
            no_corners += 1;
            continue;
        };
        let labels = source.labels(photo)?;
        let image = load_image(&photo.image_path)?.to_rgb8();
        used += 1;
        let degradation = if args.harsh {
            Degradation::Harsh
        } else {
            Degradation::Slight
        };
        for k in 0..args.copies {
            let mut rng = Rng::for_item(args.seed, stable_hash(photo.name.as_bytes()) ^ k as u64);
            let frame_size = size.pick(&mut rng);
            let Some(frame) = webcam_frame(&image, corners, &mut rng, frame_size, degradation)
            else {
                degenerate += 1;
                continue;
            };
            writer.write(
                &format!("{}_cam{k}", sample_name(&photo.name)),
                &frame.image,
                OutputFormat::Jpeg(frame.jpeg_quality),
                labels.as_ref(),
                frame.corners_in_image,
            )?;
        }
    }
    bar.finish();
    let n = writer.finish()?;
    eprintln!(
        "wrote {n} webcam frames from {used} photos of {} to {} ({no_corners} photos without \
         corners skipped, {degenerate} degenerate outlines) in {:.1} s",
        args.from.display(),
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn run_fill(args: FillArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let source = args.fixes.open(&args.from)?;
    let mut writer = DatasetWriter::create(&args.out)
        .with_context(|| format!("creating data set {}", args.out.display()))?;
    let pens: Vec<Pen> = args.pens.iter().map(|&p| p.into()).collect();
    let (mut skipped, mut cells) = (0, 0);
    let bar = Progress::new(args.progress, Some(source.photos.len() as u64), "photos");
    for (i, photo) in source.photos.iter().enumerate() {
        bar.set_position(i as u64);
        let (Some(corners), Some(labels)) = (photo.corners_in_image, source.labels(photo)?) else {
            skipped += 1;
            continue;
        };
        let image = load_image(&photo.image_path)?.to_rgb8();
        let mut rng = Rng::for_item(args.seed, stable_hash(photo.name.as_bytes()));
        let Some(filled) = fill_photo_with_pens(
            &image,
            corners,
            &labels,
            args.share,
            &pens,
            args.mistakes,
            &mut rng,
        ) else {
            skipped += 1;
            continue;
        };
        cells += filled.written;
        writer.write(
            &format!("{}_fill", sample_name(&photo.name)),
            &filled.image,
            OutputFormat::Jpeg(92),
            Some(&filled.labels),
            corners,
        )?;
    }
    bar.finish();
    let n = writer.finish()?;
    eprintln!(
        "wrote {n} filled-in photos ({cells} cells written) from {} to {} ({skipped} photos \
         without corners, labels or a solution skipped) in {:.1} s",
        args.from.display(),
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
