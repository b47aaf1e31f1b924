//! The screen source's one-off jobs, each on a named thread so the UI never waits on the X
//! server or a capture: listing the monitors and windows (`screen-list`) and taking the frozen
//! screenshot a rectangle is dragged on (`screen-freeze`). Each answer goes into a newest-wins
//! mailbox followed by `request_repaint`; `poll` takes it.

use std::sync::Arc;

use super::workers::Notify;
use crate::camera::Mailbox;
use crate::screen::{Desk, DeskLists, ScreenCapture, ScreenError};

/// Lists the monitors and windows of `desk` on the `screen-list` thread.
pub(crate) fn spawn_lists(
    desk: Arc<dyn Desk>,
    answers: Arc<Mailbox<DeskLists>>,
    notify: Notify,
) -> std::io::Result<()> {
    spawn_job("screen-list", answers, notify, move || desk.lists())
}

/// Takes a frozen screenshot of `desk` on the `screen-freeze` thread.
pub(crate) fn spawn_freeze(
    desk: Arc<dyn Desk>,
    answers: Arc<Mailbox<Result<ScreenCapture, ScreenError>>>,
    notify: Notify,
) -> std::io::Result<()> {
    spawn_job("screen-freeze", answers, notify, move || desk.freeze())
}

/// Runs `job` once on a thread named `name`, puts its answer in `answers` and wakes the UI.
fn spawn_job<T: Send + 'static>(
    name: &str,
    answers: Arc<Mailbox<T>>,
    notify: Notify,
    job: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            answers.put(job());
            notify();
        })
        .map(|_| ())
}
