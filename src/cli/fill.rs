//! `sudoku-lens fill [--window NAME | --monitor N | --region RECT] [--next-step]`: reads the
//! Sudoku on the screen through the live path until it is locked with one solution, prints
//! what it will type and where, counts down, then clicks each empty cell and types its digit
//! (`screen::fill`). Esc or moving the mouse stops it at once. Prints the capture-to-solved
//! and fill times. Running this command is the explicit request to type.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::Args;

use sudoku_lens::live::{LiveConfig, LiveReader, digits_text};
use sudoku_lens::scan::Scanner;
use sudoku_lens::screen::DEFAULT_SCREEN_FPS;
use sudoku_lens::screen::fill::{
    DesktopHands, FillPacing, FillProgress, FillScope, ScreenChecker, lock_on_screen, plan,
    run_fill,
};

use super::model::ModelArgs;
use super::number_in;
use super::screen::ScreenArgs;

/// Arguments of `fill`.
#[derive(Args, Debug)]
pub struct FillArgs {
    /// What to capture (default: the whole screen, every monitor).
    #[command(flatten)]
    pub target: ScreenArgs,
    /// Fill only the cell(s) of the next step that places a digit ("do this step for me").
    #[arg(long)]
    pub next_step: bool,
    /// Seconds to count down before the first click (time to change your mind: Esc).
    #[arg(long, default_value = "3", value_parser = number_in(0.0f32..=30.0))]
    pub countdown: f32,
    /// Pause after each click and each key, milliseconds (slow games need more).
    #[arg(long, default_value = "40", value_parser = number_in(0u64..=2000))]
    pub settle_ms: u64,
    /// Seconds to try reading a puzzle with one solution before giving up.
    #[arg(long, default_value = "10", value_parser = number_in(0.5f32..=120.0))]
    pub read_timeout: f32,
    /// Only show what would be typed; type nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// The digit model (`--model`, `--ort-lib`).
    #[command(flatten)]
    pub model: ModelArgs,
}

/// Runs `fill`.
pub fn run(args: FillArgs) -> anyhow::Result<ExitCode> {
    let load = || -> anyhow::Result<Scanner> { Ok(Scanner::new(args.model.load()?)) };
    let mut reader = LiveReader::new(load()?, LiveConfig::default());
    let target = args.target.target();
    let puzzle = lock_on_screen(
        &target,
        DEFAULT_SCREEN_FPS,
        &mut reader,
        Duration::from_secs_f32(args.read_timeout),
    )?;
    println!(
        "read {target}: locked and solved in {:.0} ms from the first capture ({} captures, paced \
         as the app's {DEFAULT_SCREEN_FPS} fps screen source)",
        puzzle.elapsed.as_secs_f64() * 1000.0,
        puzzle.frames
    );
    println!("puzzle   {}", digits_text(&puzzle.givens));
    println!("solution {}", digits_text(&puzzle.solution));
    let scope = if args.next_step {
        FillScope::NextStep
    } else {
        FillScope::All
    };
    let actions = plan(&puzzle, scope);
    if actions.is_empty() {
        println!("nothing to fill: every cell already has a digit");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "will click {} cell(s) in {} and type their digits:",
        actions.len(),
        puzzle.target_rect
    );
    for chunk in actions.chunks(9) {
        let line: Vec<String> = chunk.iter().map(|a| a.to_string()).collect();
        println!("  {}", line.join("  "));
    }
    if args.dry_run {
        println!("dry run: nothing typed");
        return Ok(ExitCode::SUCCESS);
    }
    let mut hands = DesktopHands::new()?;
    let mut checker = ScreenChecker::new(puzzle, load()?);
    let pacing = FillPacing {
        countdown: Duration::from_secs_f32(args.countdown),
        settle: Duration::from_millis(args.settle_ms),
    };
    eprintln!("press Esc or move the mouse to stop");
    let start = Instant::now();
    let typed = run_fill(
        &actions,
        pacing,
        &mut hands,
        &mut checker,
        &mut |p| match p {
            FillProgress::Countdown(s) => eprintln!("typing in {s} s…"),
            FillProgress::Typed { done, total } => {
                if done % 9 == 0 || done == total {
                    eprintln!("typed {done}/{total}");
                }
            }
        },
    )
    .context("filling the game")?;
    let seconds = (start.elapsed().saturating_sub(pacing.countdown)).as_secs_f64();
    println!("filled {typed} cells in {seconds:.2} s");
    Ok(ExitCode::SUCCESS)
}
