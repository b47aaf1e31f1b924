//! [`NokhwaSource`]: a webcam read through nokhwa's blocking [`nokhwa::Camera`], owned by the
//! capture thread.
//!
//! Format negotiation tries MJPEG first (small frames over USB), then YUYV, at the requested
//! resolution (closest match) or the camera's best, and finally anything the device offers.
//! MJPEG frames are decoded with the `image` crate; other formats with nokhwa's decoder inside
//! `catch_unwind`, because nokhwa's decoders panic on some corrupt frames. A bad frame is a
//! [`CameraError::CorruptFrame`] (skipped), never a crash.

use std::panic::{AssertUnwindSafe, catch_unwind};

use image::RgbImage;
use nokhwa::pixel_format::RgbFormat;
use nokhwa::utils::{
    ApiBackend, CameraFormat, CameraIndex, FrameFormat, RequestedFormat, RequestedFormatType,
    Resolution,
};
use nokhwa::{Camera, NokhwaError};

use super::{CameraError, FrameSource};
use crate::session::ResolutionRequest;

/// A camera the system reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CameraDescriptor {
    /// Index to open it with.
    pub index: u32,
    /// Human-readable name.
    pub name: String,
}

/// The cameras the system reports, in index order. An empty list (not an error) when there is
/// none.
pub fn list_cameras() -> Result<Vec<CameraDescriptor>, CameraError> {
    let infos = catch_unwind(|| nokhwa::query(ApiBackend::Auto))
        .map_err(|_| CameraError::Device("the camera backend panicked while listing".into()))?
        .map_err(classify)?;
    let mut cameras: Vec<CameraDescriptor> = infos
        .iter()
        .enumerate()
        .map(|(i, info)| CameraDescriptor {
            index: match info.index() {
                CameraIndex::Index(n) => *n,
                CameraIndex::String(s) => s.parse().unwrap_or(i as u32),
            },
            name: info.human_name(),
        })
        .collect();
    cameras.sort_by_key(|c| c.index);
    Ok(cameras)
}

/// Maps a nokhwa error to a [`CameraError`] the user can act on, from the OS error in its text.
pub fn classify(e: NokhwaError) -> CameraError {
    let text = e.to_string();
    let lower = text.to_ascii_lowercase();
    if lower.contains("permission denied") || lower.contains("os error 13") {
        CameraError::PermissionDenied(text)
    } else if lower.contains("busy") || lower.contains("os error 16") {
        CameraError::Busy(text)
    } else if lower.contains("no such file")
        || lower.contains("no such device")
        || lower.contains("os error 2)")
        || lower.contains("os error 19")
    {
        CameraError::NoCamera
    } else {
        CameraError::Device(text)
    }
}

/// A webcam delivering RGB frames.
pub struct NokhwaSource {
    camera: Camera,
    description: String,
}

impl std::fmt::Debug for NokhwaSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NokhwaSource")
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl NokhwaSource {
    /// Opens camera `index` and starts streaming, negotiating the format as described in the
    /// module docs.
    pub fn open(
        index: u32,
        resolution: Option<ResolutionRequest>,
    ) -> Result<NokhwaSource, CameraError> {
        let cameras = list_cameras()?;
        if cameras.is_empty() {
            return Err(CameraError::NoCamera);
        }
        let name = cameras
            .iter()
            .find(|c| c.index == index)
            .map(|c| c.name.clone())
            .ok_or(CameraError::NoCamera)?;
        let mut last_error = None;
        for request in format_requests(resolution) {
            let opened = catch_unwind(AssertUnwindSafe(|| {
                let mut camera = Camera::new(CameraIndex::Index(index), request.format())?;
                camera.open_stream()?;
                Ok::<Camera, NokhwaError>(camera)
            }));
            match opened {
                Ok(Ok(camera)) => {
                    let fmt = camera.camera_format();
                    let description = format!(
                        "{name} {}×{} {} @{} fps",
                        fmt.resolution().width(),
                        fmt.resolution().height(),
                        fmt.format(),
                        fmt.frame_rate()
                    );
                    tracing::info!(%description, "camera opened");
                    return Ok(NokhwaSource {
                        camera,
                        description,
                    });
                }
                Ok(Err(e)) => {
                    let e = classify(e);
                    tracing::debug!(error = %e, request = ?request, "camera format refused");
                    // Busy or forbidden devices will not open with another format either.
                    if matches!(
                        e,
                        CameraError::Busy(_)
                            | CameraError::PermissionDenied(_)
                            | CameraError::NoCamera
                    ) {
                        return Err(e);
                    }
                    last_error = Some(e);
                }
                Err(_) => {
                    last_error = Some(CameraError::Device(
                        "the camera backend panicked while opening".into(),
                    ));
                }
            }
        }
        Err(match last_error {
            Some(CameraError::Device(msg)) => CameraError::NoUsableFormat(msg),
            Some(e) => e,
            None => CameraError::NoUsableFormat("no format was accepted".into()),
        })
    }
}

/// One attempt of the format negotiation.
#[derive(Clone, Copy, Debug)]
struct FormatRequest {
    kind: RequestedFormatType,
    formats: &'static [FrameFormat],
}

impl FormatRequest {
    fn format(&self) -> RequestedFormat<'static> {
        RequestedFormat::with_formats(self.kind, self.formats)
    }
}

const MJPEG: &[FrameFormat] = &[FrameFormat::MJPEG];
const YUYV: &[FrameFormat] = &[FrameFormat::YUYV];
const ANY: &[FrameFormat] = &[
    FrameFormat::MJPEG,
    FrameFormat::YUYV,
    FrameFormat::NV12,
    FrameFormat::RAWRGB,
    FrameFormat::GRAY,
];

/// The negotiation order: MJPEG then YUYV at the wanted size, then anything.
fn format_requests(resolution: Option<ResolutionRequest>) -> Vec<FormatRequest> {
    let sized = |format: FrameFormat| match resolution {
        Some(r) => RequestedFormatType::Closest(CameraFormat::new(
            Resolution::new(r.width_px, r.height_px),
            format,
            30,
        )),
        None => RequestedFormatType::HighestResolution(Resolution::new(1280, 720)),
    };
    vec![
        FormatRequest {
            kind: sized(FrameFormat::MJPEG),
            formats: MJPEG,
        },
        FormatRequest {
            kind: sized(FrameFormat::YUYV),
            formats: YUYV,
        },
        FormatRequest {
            kind: RequestedFormatType::AbsoluteHighestFrameRate,
            formats: ANY,
        },
    ]
}

/// Decodes one raw camera buffer to RGB, containing decoder panics.
fn decode(buffer: &nokhwa::Buffer) -> Result<RgbImage, CameraError> {
    let decoded = catch_unwind(AssertUnwindSafe(|| {
        if buffer.source_frame_format() == FrameFormat::MJPEG {
            // Checked like a photo: a frame cut short or garbled in transfer is dropped, not
            // read half gray.
            crate::vision::load_image_from_memory(buffer.buffer(), "camera frame")
                .map(|img| img.to_rgb8())
                .map_err(|e| CameraError::CorruptFrame(e.to_string()))
        } else {
            buffer
                .decode_image::<RgbFormat>()
                .map_err(|e| CameraError::CorruptFrame(e.to_string()))
        }
    }));
    decoded.unwrap_or_else(|_| {
        Err(CameraError::CorruptFrame(
            "the frame decoder panicked".into(),
        ))
    })
}

impl FrameSource for NokhwaSource {
    fn describe(&self) -> String {
        self.description.clone()
    }

    fn next_frame(&mut self) -> Result<RgbImage, CameraError> {
        let buffer = catch_unwind(AssertUnwindSafe(|| self.camera.frame()))
            .map_err(|_| CameraError::CorruptFrame("the camera backend panicked".into()))?
            .map_err(|e| match classify(e) {
                CameraError::Device(msg) => CameraError::CorruptFrame(msg),
                other => other,
            })?;
        decode(&buffer)
    }
}

impl Drop for NokhwaSource {
    fn drop(&mut self) {
        if let Err(e) = self.camera.stop_stream() {
            tracing::debug!(error = %e, "stopping the camera stream");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_errors_are_classified() {
        let open = |msg: &str| NokhwaError::OpenDeviceError("/dev/video0".into(), msg.into());
        assert!(matches!(
            classify(open("Permission denied (os error 13)")),
            CameraError::PermissionDenied(_)
        ));
        assert!(matches!(
            classify(open("Device or resource busy (os error 16)")),
            CameraError::Busy(_)
        ));
        assert_eq!(
            classify(open("No such file or directory (os error 2)")),
            CameraError::NoCamera
        );
        assert!(matches!(
            classify(NokhwaError::GeneralError("weird".into())),
            CameraError::Device(_)
        ));
    }

    #[test]
    fn negotiation_prefers_mjpeg_then_yuyv() {
        let reqs = format_requests(Some(ResolutionRequest {
            width_px: 640,
            height_px: 480,
        }));
        assert_eq!(reqs[0].formats, MJPEG);
        assert_eq!(reqs[1].formats, YUYV);
        assert_eq!(reqs.len(), 3);
    }

    #[test]
    fn corrupt_mjpeg_is_an_error_not_a_panic() {
        let garbage = vec![0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4, 5];
        let buffer = nokhwa::Buffer::new(Resolution::new(64, 48), &garbage, FrameFormat::MJPEG);
        assert!(matches!(decode(&buffer), Err(CameraError::CorruptFrame(_))));
        let short_yuyv = vec![0u8; 10];
        let buffer = nokhwa::Buffer::new(Resolution::new(64, 48), &short_yuyv, FrameFormat::YUYV);
        assert!(matches!(decode(&buffer), Err(CameraError::CorruptFrame(_))));
    }

    #[test]
    fn listing_without_a_camera_is_empty_or_a_clear_error() {
        // This machine may or may not have a camera; either answer must not panic, and opening a
        // camera index that is not listed must say so.
        if let Ok(cams) = list_cameras()
            && cams.is_empty()
        {
            assert_eq!(
                NokhwaSource::open(0, None).unwrap_err(),
                CameraError::NoCamera
            );
        }
    }
}
