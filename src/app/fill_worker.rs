//! The "Fill in the game" worker: a named thread that reads the screen target once more
//! through the live path (`screen::fill::lock_on_screen`), plans the clicks, counts down and
//! types (`screen::fill::run_fill`), reporting each stage as a [`FillNote`] through a
//! newest-wins mailbox and `request_repaint`. Started only by the button (the explicit
//! request); the UI thread never blocks on it.

use std::sync::Arc;
use std::time::Duration;

use super::workers::Notify;
use crate::camera::Mailbox;
use crate::live::LiveReader;
use crate::scan::Scanner;
use crate::screen::ScreenTarget;
use crate::screen::fill::{
    DesktopHands, FillError, FillPacing, FillProgress, FillScope, ScreenChecker, lock_on_screen,
    plan, run_fill,
};

/// How long the worker tries to read the puzzle before giving up.
const READ_TIMEOUT: Duration = Duration::from_secs(8);

/// What the fill is doing, for the status bar.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FillNote {
    /// The message.
    pub text: String,
    /// Whether the fill is over (done, stopped or failed).
    pub finished: bool,
    /// Whether it ended in an error.
    pub failed: bool,
}

/// Starts the fill of `target` on its own thread.
pub(crate) fn start(
    target: ScreenTarget,
    scope: FillScope,
    notes: Arc<Mailbox<FillNote>>,
    notify: Notify,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("screen-fill".into())
        .spawn(move || {
            let say = |text: String, finished: bool, failed: bool| {
                notes.put(FillNote {
                    text,
                    finished,
                    failed,
                });
                notify();
            };
            match fill(&target, scope, &say) {
                Ok(n) => say(format!("filled {n} cell(s) in {target}"), true, false),
                Err(e) => say(e.to_string(), true, true),
            }
        })
        .map(|_| ())
}

fn fill(
    target: &ScreenTarget,
    scope: FillScope,
    say: &dyn Fn(String, bool, bool),
) -> Result<usize, FillError> {
    let mut reader = LiveReader::with_default_model()?;
    let puzzle = lock_on_screen(
        target,
        crate::screen::DEFAULT_SCREEN_FPS,
        &mut reader,
        READ_TIMEOUT,
    )?;
    let actions = plan(&puzzle, scope);
    if actions.is_empty() {
        return Ok(0);
    }
    let first = actions[0];
    let plan_text = format!(
        "will click {} cell(s) in {target} (first {first}) and type their digits — Esc or move the mouse to stop",
        actions.len()
    );
    let mut hands = DesktopHands::new()?;
    let mut checker = ScreenChecker::new(puzzle, Scanner::with_default_model()?);
    run_fill(
        &actions,
        FillPacing::default(),
        &mut hands,
        &mut checker,
        &mut |p| match p {
            FillProgress::Countdown(s) => {
                say(format!("{plan_text}: typing in {s} s"), false, false)
            }
            FillProgress::Typed { done, total } => say(
                format!("typed {done}/{total} — Esc or move the mouse to stop"),
                false,
                false,
            ),
        },
    )
}
