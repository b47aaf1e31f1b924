//! [`ImageSequenceSource`]: an image file, or a folder of frames in name order, played as a
//! camera at a fixed frame rate. Used by `--source PATH`, demos and the app tests, which need a
//! camera on machines that have none. A single image played looping is a still
//! ([`FrameSource::is_still`]): it is delivered once per open, not re-sent at the frame rate.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use image::RgbImage;

use super::{CameraError, FrameSource};
use crate::session::{SEQUENCE_FPS_RANGE, Settings};

/// File extensions read as frames (lower case).
const FRAME_EXTENSIONS: [&str; 8] = ["jpg", "jpeg", "png", "bmp", "tif", "tiff", "webp", "pnm"];

/// Plays one image or a folder of images as a camera.
#[derive(Debug)]
pub struct ImageSequenceSource {
    path: PathBuf,
    frames: Vec<PathBuf>,
    /// The decoded image when there is exactly one frame (decoded once, repeated).
    single: Option<RgbImage>,
    next_index: usize,
    looping: bool,
    frame_interval: Duration,
    next_due: Option<Instant>,
}

impl ImageSequenceSource {
    /// Opens `path` (an image file or a folder of images) to play at `fps` frames per second,
    /// looping forever when `looping`. Fails when the path holds no readable image.
    pub fn open(path: &Path, fps: f32, looping: bool) -> Result<ImageSequenceSource, CameraError> {
        let err = |reason: String| CameraError::Sequence {
            path: path.to_path_buf(),
            reason,
        };
        let frames = if path.is_dir() {
            let mut frames: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| err(e.to_string()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && is_frame_file(p))
                .collect();
            frames.sort();
            frames
        } else if path.is_file() {
            vec![path.to_path_buf()]
        } else {
            return Err(err("no such file or folder".into()));
        };
        if frames.is_empty() {
            return Err(err("the folder holds no image files".into()));
        }
        let single = if frames.len() == 1 {
            Some(decode(&frames[0]).map_err(err)?)
        } else {
            None
        };
        // Any rate outside the accepted range (NaN, 0, 1e-30 — whose interval overflows a
        // `Duration` — or 1e30) plays at the default instead of failing the capture thread.
        let fps = if SEQUENCE_FPS_RANGE.contains(&fps) {
            fps
        } else {
            tracing::warn!("frame rate {fps} outside {SEQUENCE_FPS_RANGE:?}; playing at 30 fps");
            Settings::default().sequence_fps
        };
        Ok(ImageSequenceSource {
            path: path.to_path_buf(),
            frames,
            single,
            next_index: 0,
            looping,
            frame_interval: Duration::from_secs_f32(1.0 / fps),
            next_due: None,
        })
    }

    /// Number of frame files.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Always false: an opened sequence has at least one frame.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    fn pace(&mut self) {
        let now = Instant::now();
        let due = self.next_due.unwrap_or(now);
        if due > now {
            std::thread::sleep(due - now);
        }
        // Schedule from the due time, not from now, so the average rate is exact; but never
        // build up a debt of frames after a long pause.
        let next = due + self.frame_interval;
        self.next_due = Some(if next < now { now } else { next });
    }
}

fn is_frame_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| FRAME_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// A frame file through the checked loader (size limits, damaged files refused).
fn decode(path: &Path) -> Result<RgbImage, String> {
    crate::vision::load_image(path)
        .map(|img| img.to_rgb8())
        .map_err(|e| e.to_string())
}

impl FrameSource for ImageSequenceSource {
    fn describe(&self) -> String {
        if self.frames.len() == 1 {
            format!("image {} as camera", self.path.display())
        } else {
            format!(
                "{} frames from {} as camera",
                self.frames.len(),
                self.path.display()
            )
        }
    }

    fn is_still(&self) -> bool {
        self.single.is_some() && self.looping
    }

    fn next_frame(&mut self) -> Result<RgbImage, CameraError> {
        if self.next_index >= self.frames.len() {
            if !self.looping {
                return Err(CameraError::Ended);
            }
            self.next_index = 0;
        }
        self.pace();
        let index = self.next_index;
        self.next_index += 1;
        if let Some(img) = &self.single {
            return Ok(img.clone());
        }
        decode(&self.frames[index]).map_err(|reason| CameraError::Sequence {
            path: self.frames[index].clone(),
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_frames(dir: &Path, n: u8) {
        for i in 0..n {
            let img = RgbImage::from_pixel(8, 6, image::Rgb([i * 10, 0, 0]));
            img.save(dir.join(format!("f{i:02}.png"))).ok();
        }
        std::fs::write(dir.join("notes.txt"), "not a frame").ok();
    }

    #[test]
    fn folder_plays_in_name_order_and_ends_without_looping() {
        let dir = tempfile::tempdir().unwrap();
        write_frames(dir.path(), 3);
        let mut src = ImageSequenceSource::open(dir.path(), 1000.0, false).unwrap();
        assert_eq!(src.len(), 3);
        let reds: Vec<u8> = (0..3)
            .map(|_| src.next_frame().unwrap()[(0, 0)][0])
            .collect();
        assert_eq!(reds, vec![0, 10, 20]);
        assert_eq!(src.next_frame().unwrap_err(), CameraError::Ended);
    }

    #[test]
    fn looping_restarts_and_rate_is_paced() {
        let dir = tempfile::tempdir().unwrap();
        write_frames(dir.path(), 2);
        let mut src = ImageSequenceSource::open(dir.path(), 100.0, true).unwrap();
        let start = Instant::now();
        let reds: Vec<u8> = (0..5)
            .map(|_| src.next_frame().unwrap()[(0, 0)][0])
            .collect();
        assert_eq!(reds, vec![0, 10, 0, 10, 0]);
        // 5 frames at 100 fps: the 5th is due 40 ms after the first.
        assert!(start.elapsed() >= Duration::from_millis(35));
    }

    #[test]
    fn one_image_looping_is_a_still() {
        let dir = tempfile::tempdir().unwrap();
        write_frames(dir.path(), 1);
        let file = dir.path().join("f00.png");
        assert!(
            ImageSequenceSource::open(&file, 30.0, true)
                .unwrap()
                .is_still()
        );
        let mut once = ImageSequenceSource::open(&file, 30.0, false).unwrap();
        assert!(!once.is_still());
        assert!(once.next_frame().is_ok());
        assert_eq!(once.next_frame().unwrap_err(), CameraError::Ended);
        write_frames(dir.path(), 2);
        assert!(
            !ImageSequenceSource::open(dir.path(), 30.0, true)
                .unwrap()
                .is_still()
        );
    }

    #[test]
    fn missing_and_empty_paths_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            ImageSequenceSource::open(dir.path(), 30.0, true),
            Err(CameraError::Sequence { .. })
        ));
        assert!(matches!(
            ImageSequenceSource::open(&dir.path().join("nope.jpg"), 30.0, true),
            Err(CameraError::Sequence { .. })
        ));
    }
}
