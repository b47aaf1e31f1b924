//! `sudoku-lens replay DIR`: plays a folder of frames (or a folder of such clips) through the
//! live path the app runs, printing what it would show per frame and a scored summary when
//! the clip has a `truth.json`. Parsing and printing only; the loop and the scores are
//! `live::replay`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use serde_json::json;

use sudoku_lens::clip::{ClipTruth, clip_dirs, clip_frames};
use sudoku_lens::live::replay::{ClipSummary, FrameRecord, overall, replay_frames, summarize};
use sudoku_lens::live::{LiveConfig, LiveReader, digits_text};
use sudoku_lens::scan::Scanner;

use super::model::ModelArgs;
use super::progress::{Progress, ProgressArgs};

/// Arguments of `replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A folder of frames (any sorted image names, optional truth.json), or a folder of such
    /// clip folders.
    pub dir: PathBuf,
    /// JSON lines: one object per frame, one summary per clip, one overall line.
    #[arg(long)]
    pub json: bool,
    /// Frame rate of the clip, 0.1 to 1000 (default: the truth file's, else 30).
    #[arg(long, value_parser = super::number_in(0.1f32..=1000.0))]
    pub fps: Option<f32>,
    /// Feed frames at the clip's pace, dropping those that arrive while the reader is busy.
    #[arg(long)]
    pub realtime: bool,
    /// Print only the summaries (no per-frame lines).
    #[arg(long)]
    pub summary_only: bool,
    /// Lock latency bound of the overall line, milliseconds (0 to 10,000,000).
    #[arg(long, default_value_t = 500.0, value_parser = super::number_in(0.0f64..=1e7))]
    pub within_ms: f64,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Runs `replay`.
pub fn run(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    if !args.dir.is_dir() {
        anyhow::bail!("{} is not a folder of frames", args.dir.display());
    }
    let own_frames = clip_frames(&args.dir).unwrap_or_default();
    let clips: Vec<PathBuf> = if own_frames.is_empty() {
        clip_dirs(&args.dir).with_context(|| format!("reading {}", args.dir.display()))?
    } else {
        vec![args.dir.clone()]
    };
    if clips.is_empty() {
        anyhow::bail!("{} holds no frames and no clip folders", args.dir.display());
    }
    let total_frames: usize = clips
        .iter()
        .map(|c| clip_frames(c).map_or(0, |f| f.len()))
        .sum();
    let bar = Progress::new(args.progress, Some(total_frames as u64), "frames");
    let mut results = Vec::new();
    for clip in &clips {
        // A fresh reader per clip: a clip is one camera session.
        let classifier = args.model.load().context("loading the digit model")?;
        let mut reader = LiveReader::new(Scanner::new(classifier), LiveConfig::default());
        bar.set_message(
            clip.file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        );
        let (summary, records) = replay_clip(&mut reader, clip, &args, &bar)?;
        bar.suspend(|| print_summary(&summary, args.json));
        results.push((summary, records));
    }
    bar.finish();
    if clips.len() > 1 {
        let total = overall(&results, args.within_ms);
        if args.json {
            println!("{}", json!({ "overall": total }));
        } else {
            println!(
                "overall: {} clips, {} frames; puzzles shown right within {} ms: {}/{}; \
                 latency p50 {:.0} ms, p95 {:.0} ms; frames with overlay {}, wrong {}; \
                 ms/frame p50 {:.2}, p95 {:.2}",
                total.clips,
                total.frames,
                total.within_ms,
                total.puzzles_locked_in_time,
                total.puzzles,
                total.latency_p50_ms,
                total.latency_p95_ms,
                total.frames_with_overlay,
                total.frames_with_wrong_overlay,
                total.ms_p50,
                total.ms_p95,
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn replay_clip(
    reader: &mut LiveReader,
    clip: &Path,
    args: &ReplayArgs,
    bar: &Progress,
) -> anyhow::Result<(ClipSummary, Vec<FrameRecord>)> {
    let frames = clip_frames(clip).with_context(|| format!("reading {}", clip.display()))?;
    let truth_path = clip.join("truth.json");
    let truth = if truth_path.is_file() {
        Some(ClipTruth::read(&truth_path)?)
    } else {
        None
    };
    let fps = args
        .fps
        .or(truth.as_ref().map(|t| t.fps as f32))
        .unwrap_or(30.0);
    let per_frame = !args.summary_only;
    let json = args.json;
    let records = replay_frames(reader, &frames, fps, args.realtime, |r| {
        if per_frame {
            bar.suspend(|| print_frame(r, json));
        }
        bar.inc();
    })?;
    Ok((summarize(clip, &records, truth.as_ref()), records))
}

fn print_frame(r: &FrameRecord, json: bool) {
    if json {
        let corners = r.corners.map(|c| {
            c.iter()
                .flat_map(|p| [round2(p.x), round2(p.y)])
                .collect::<Vec<_>>()
        });
        // puzzle_id, givens, solution (81 digits each) and the split (`written`).
        let overlay = r
            .overlay
            .as_ref()
            .and_then(|o| serde_json::to_value(o.as_ref()).ok());
        println!(
            "{}",
            json!({
                "frame": r.index,
                "state": r.state,
                "corners": corners,
                "overlay": overlay,
                "work": r.work,
                "read": r.read_cells,
                "dropped": r.dropped,
                "ms": round2(r.ms as f32),
            })
        );
    } else {
        let overlay = r.overlay.as_ref().map_or("-".to_string(), |o| {
            format!("puzzle {} {}", o.puzzle_id, digits_text(&o.givens))
        });
        println!(
            "frame {:4} {:9} {:9} {:6.2} ms{} overlay {}",
            r.index,
            r.state.to_string(),
            format!("{:?}", r.work).to_lowercase(),
            r.ms,
            if r.dropped { " dropped" } else { "" },
            overlay
        );
    }
}

fn round2(v: f32) -> f64 {
    (f64::from(v) * 100.0).round() / 100.0
}

fn print_summary(s: &ClipSummary, json: bool) {
    if json {
        println!("{}", json!({ "summary": s }));
        return;
    }
    let show = |v: Option<f64>| v.map_or("never".to_string(), |v| format!("{v:.0} ms"));
    let wrong = s
        .frames_with_wrong_overlay
        .map_or("no truth".to_string(), |w| w.to_string());
    println!(
        "{}: {} frames, first lock at {}, lock latency {}, {} frames with overlay, wrong {}, \
         ms/frame p50 {:.2} p95 {:.2}",
        s.clip,
        s.frames,
        s.first_lock_frame
            .map_or("never".to_string(), |f| format!("frame {f}")),
        show(s.lock_latency_ms),
        s.frames_with_overlay,
        wrong,
        s.ms_p50,
        s.ms_p95,
    );
}
