//! The screen source's one-off jobs, each on a named thread so the UI never waits on the X
//! server or a capture: listing the monitors and windows (`screen-list`) and taking the frozen
//! screenshot a rectangle is dragged on (`screen-freeze`). Each answer goes into a newest-wins
//! mailbox followed by `request_repaint`; `poll` takes it.

use std::sync::Arc;

use image::RgbImage;

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

/// The longest side of the frozen screenshot's picture on screen: a desktop of several large
/// monitors is shown reduced (a texture that size fits every GPU), while the rectangle is still
/// mapped through the full capture.
pub(crate) const MAX_PREVIEW_SIDE_PX: u32 = 4096;

/// A frozen screenshot and the picture of it to show.
pub(crate) struct Frozen {
    /// The capture, full size, with its place on the screen.
    pub capture: ScreenCapture,
    /// It reduced to at most [`MAX_PREVIEW_SIDE_PX`] a side (the capture itself when smaller).
    pub preview: RgbImage,
}

/// Takes a frozen screenshot of `desk` on the `screen-freeze` thread.
pub(crate) fn spawn_freeze(
    desk: Arc<dyn Desk>,
    answers: Arc<Mailbox<Result<Frozen, ScreenError>>>,
    notify: Notify,
) -> std::io::Result<()> {
    spawn_job("screen-freeze", answers, notify, move || {
        desk.freeze().map(|capture| Frozen {
            preview: preview_of(&capture.image),
            capture,
        })
    })
}

fn preview_of(image: &RgbImage) -> RgbImage {
    let longest = image.width().max(image.height());
    if longest <= MAX_PREVIEW_SIDE_PX {
        return image.clone();
    }
    let scale = MAX_PREVIEW_SIDE_PX as f32 / longest as f32;
    let w = ((image.width() as f32 * scale).round() as u32).max(1);
    let h = ((image.height() as f32 * scale).round() as u32).max(1);
    image::imageops::resize(image, w, h, image::imageops::FilterType::Triangle)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_desktop_is_shown_reduced_a_small_one_as_it_is() {
        let small = RgbImage::new(1920, 1080);
        assert_eq!(preview_of(&small).dimensions(), (1920, 1080));
        let wide = RgbImage::new(3 * 3840, 2160);
        assert_eq!(preview_of(&wide).dimensions(), (4096, 768));
    }
}
