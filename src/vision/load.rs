//! Image loading for the vision pipeline: decode a photo file safely and upright.
//!
//! Owns the checks that keep hostile or broken files from exhausting memory, panicking or
//! being read as if whole (size read from the header before decoding, decoder allocation
//! limits, JPEG data checked block by block before it is decoded — see [`super::jpeg`] —
//! and PNG checksums) and honours the EXIF orientation tag. A damaged file is an error
//! ([`LoadError::Damaged`]), never a partly decoded picture. It does not convert colour or
//! resize; see `detect` for that.

use std::borrow::Cow;
use std::io::{BufRead, BufReader, Cursor, Read, Seek};
use std::path::{Path, PathBuf};

use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits};

use super::jpeg::{check_jpeg, is_jpeg};
use super::reduce::{self, ReduceError};

/// Largest image, in pixels (width × height), that is decoded; larger ones are refused from
/// their header alone. 64 MP covers current phone cameras.
pub const MAX_IMAGE_PIXELS: u64 = 64_000_000;

/// Largest image, in pixels, decoded at full size; a larger baseline JPEG or PNG is decoded
/// at a reduced size (`vision::reduce`), any other larger file is refused. With
/// a limit of 40 MB decoded this keeps any image input under about 100 MB of memory.
pub const MAX_FULL_PIXELS: u64 = 12_000_000;

/// Largest decoded picture, in bytes, made at full size (a 10 MP RGBA or 12 MP RGB photo).
const MAX_FULL_DECODE_BYTES: u64 = 40_000_000;

/// Largest allocation the decoder may make, in bytes (a 64 MP RGBA 16-bit image needs 512 MiB).
const MAX_DECODE_BYTES: u64 = 600 * 1024 * 1024;

/// Largest JPEG file read into memory for its integrity check, in bytes (a 64 MP photo at
/// the highest quality is about 40 MB).
const MAX_JPEG_FILE_BYTES: u64 = 200 * 1024 * 1024;

/// Why an image file could not be loaded. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened or read.
    #[error("cannot read image {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The bytes are not an image in a supported format.
    #[error("{path} is not a supported image (PNG, JPEG, BMP, TIFF, WebP, GIF, PNM)")]
    UnknownFormat {
        /// The file.
        path: PathBuf,
    },
    /// The header announces an image too large to decode safely.
    #[error(
        "{path} is {width}×{height} px, larger than the {max} px this program decodes; \
         downscale it first"
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Width from the header.
        width: u32,
        /// Height from the header.
        height: u32,
        /// The limit, [`MAX_IMAGE_PIXELS`].
        max: u64,
    },
    /// The header announces an image with no pixels.
    #[error("{path} has no pixels ({width}×{height})")]
    Empty {
        /// The file.
        path: PathBuf,
        /// Width from the header.
        width: u32,
        /// Height from the header.
        height: u32,
    },
    /// The file is damaged: cut short, or its data corrupt (a JPEG whose scan does not hold
    /// its blocks, a PNG chunk whose checksum fails). Nothing of it is read.
    #[error("{path} is a damaged file: {reason}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        reason: String,
    },
    /// The image data cannot be decoded (an unsupported variant, or a fault the format's own
    /// decoder found).
    #[error("cannot decode image {path}: {source}")]
    Decode {
        /// The file.
        path: PathBuf,
        /// The decoder's error.
        source: image::ImageError,
    },
}

/// Loads the image at `path`, rotated/flipped upright according to its EXIF orientation.
///
/// The size is read from the header first and images over [`MAX_IMAGE_PIXELS`] are refused
/// without decoding; corrupt, truncated or empty files give an error naming the path.
/// Any pixel type is accepted (gray, alpha, 16-bit); callers convert as they need.
pub fn load_image(path: impl AsRef<Path>) -> Result<DynamicImage, LoadError> {
    let path = path.as_ref();
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = BufReader::new(std::fs::File::open(path).map_err(io)?);
    if is_jpeg(file.fill_buf().map_err(io)?) {
        // JPEG data is checked whole before decoding (the decoder would fill gaps with gray).
        let mut bytes = Vec::new();
        file.take(MAX_JPEG_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_JPEG_FILE_BYTES {
            return Err(io(std::io::Error::other(format!(
                "a JPEG file over {} MB; downscale it first",
                MAX_JPEG_FILE_BYTES >> 20
            ))));
        }
        return load_image_from_memory(&bytes, &path.to_string_lossy());
    }
    decode(file, path, false)
}

/// Like [`load_image`] for bytes already in memory; `name` labels error messages.
pub fn load_image_from_memory(bytes: &[u8], name: &str) -> Result<DynamicImage, LoadError> {
    let path = Path::new(name);
    let mut baseline_jpeg = false;
    if is_jpeg(bytes) {
        let coding = check_jpeg(bytes).map_err(|e| LoadError::Damaged {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        baseline_jpeg = coding.scans_verified;
    }
    decode(Cursor::new(bytes), path, baseline_jpeg)
}

/// Whether a decoder's error means damaged data (rather than an unsupported variant).
fn is_damage(e: &ImageError) -> bool {
    match e {
        ImageError::Decoding(_) => true,
        ImageError::IoError(io) => io.kind() == std::io::ErrorKind::UnexpectedEof,
        _ => false,
    }
}

/// Decodes an image, at full size up to [`MAX_FULL_PIXELS`] / [`MAX_FULL_DECODE_BYTES`],
/// else reduced where the format allows (`baseline_jpeg`: the data was checked and holds
/// only baseline scans, which the scaled decoder reads without buffering coefficients).
fn decode<R: BufRead + Seek>(
    mut reader: R,
    path: &Path,
    baseline_jpeg: bool,
) -> Result<DynamicImage, LoadError> {
    let decode_err = |source: ImageError| {
        if is_damage(&source) {
            LoadError::Damaged {
                path: path.to_path_buf(),
                reason: source.to_string(),
            }
        } else {
            LoadError::Decode {
                path: path.to_path_buf(),
                source,
            }
        }
    };
    let guessed = ImageReader::new(&mut reader)
        .with_guessed_format()
        .map_err(|source| LoadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    let Some(format) = guessed.format() else {
        return Err(LoadError::UnknownFormat {
            path: path.to_path_buf(),
        });
    };
    let mut guessed = guessed;
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    guessed.limits(limits);
    let mut decoder = guessed.into_decoder().map_err(decode_err)?;
    let (width, height) = decoder.dimensions();
    if width == 0 || height == 0 {
        return Err(LoadError::Empty {
            path: path.to_path_buf(),
            width,
            height,
        });
    }
    if u64::from(width) * u64::from(height) > MAX_IMAGE_PIXELS {
        return Err(LoadError::TooLarge {
            path: path.to_path_buf(),
            width,
            height,
            max: MAX_IMAGE_PIXELS,
        });
    }
    // A broken EXIF block should not lose an otherwise good photo: fall back to upright.
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let pixels = u64::from(width) * u64::from(height);
    let mut image = if pixels <= MAX_FULL_PIXELS && decoder.total_bytes() <= MAX_FULL_DECODE_BYTES {
        DynamicImage::from_decoder(decoder).map_err(decode_err)?
    } else {
        let bytes_per_pixel = u64::from(decoder.color_type().bytes_per_pixel()).max(1);
        drop(decoder);
        let too_large = || LoadError::TooLarge {
            path: path.to_path_buf(),
            width,
            height,
            max: MAX_FULL_PIXELS.min(MAX_FULL_DECODE_BYTES / bytes_per_pixel),
        };
        reader.rewind().map_err(|source| LoadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let reduced = match format {
            ImageFormat::Jpeg if baseline_jpeg => reduce::jpeg(reader, width, height),
            ImageFormat::Png => reduce::png(reader),
            _ => return Err(too_large()),
        };
        match reduced {
            Ok(image) => image,
            Err(ReduceError::Unsupported) => return Err(too_large()),
            Err(ReduceError::Damaged(reason)) => {
                return Err(LoadError::Damaged {
                    path: path.to_path_buf(),
                    reason,
                });
            }
        }
    };
    image.apply_orientation(orientation);
    Ok(image)
}

/// The photo as 8-bit gray, with the same weights as `image`'s `to_luma8` (Rec. 709 luma,
/// rounded; at most one level from it) but a direct integer loop for 8-bit RGB/RGBA photos: `to_luma8` goes through
/// a generic colour-space conversion that cost more than a tenth of detection time.
pub fn to_gray(image: &DynamicImage) -> image::GrayImage {
    let fast = match image {
        DynamicImage::ImageLuma8(g) => return g.clone(),
        DynamicImage::ImageRgb8(rgb) => convert(rgb.as_raw(), 3, rgb.width(), rgb.height()),
        DynamicImage::ImageRgba8(rgba) => convert(rgba.as_raw(), 4, rgba.width(), rgba.height()),
        _ => None,
    };
    fast.unwrap_or_else(|| image.to_luma8())
}

/// The photo in 8-bit RGB when it has colour (borrowed when it is 8-bit RGB already), `None`
/// for a gray one.
pub fn colour_of(image: &DynamicImage) -> Option<Cow<'_, image::RgbImage>> {
    match image {
        DynamicImage::ImageRgb8(rgb) => Some(Cow::Borrowed(rgb)),
        other if other.color().has_color() => Some(Cow::Owned(other.to_rgb8())),
        _ => None,
    }
}

/// [`to_gray`] of an RGB frame, without wrapping (and copying) it into a `DynamicImage`.
pub fn rgb_to_gray(rgb: &image::RgbImage) -> image::GrayImage {
    convert(rgb.as_raw(), 3, rgb.width(), rgb.height())
        .unwrap_or_else(|| image::GrayImage::new(rgb.width(), rgb.height()))
}

/// Rec. 709 luma of packed 8-bit pixels with `channels` channels (RGB first).
fn convert(raw: &[u8], channels: usize, width: u32, height: u32) -> Option<image::GrayImage> {
    let mut gray = vec![0u8; raw.len() / channels.max(1)];
    for (out, p) in gray.iter_mut().zip(raw.chunks_exact(channels)) {
        *out = luma(p[0], p[1], p[2]);
    }
    image::GrayImage::from_raw(width, height, gray)
}

/// `(2126 r + 7152 g + 722 b + 5000) / 10000`: rounded Rec. 709 luma.
#[inline]
fn luma(r: u8, g: u8, b: u8) -> u8 {
    ((2126 * r as u32 + 7152 * g as u32 + 722 * b as u32 + 5000) / 10_000) as u8
}

#[cfg(test)]
mod gray_tests {
    use super::*;

    #[test]
    fn to_gray_matches_to_luma8() {
        let rgb = image::RgbImage::from_fn(37, 11, |x, y| {
            image::Rgb([(x * 7) as u8, (y * 23) as u8, ((x * y) % 256) as u8])
        });
        let image = DynamicImage::ImageRgb8(rgb);
        let reference = image.to_luma8();
        let rgba = DynamicImage::ImageRgba8(image.to_rgba8());
        for ours in [to_gray(&image), to_gray(&rgba)] {
            let worst = ours
                .as_raw()
                .iter()
                .zip(reference.as_raw())
                .map(|(a, b)| a.abs_diff(*b))
                .max();
            assert!(worst.is_some_and(|w| w <= 1), "{worst:?}");
        }
    }
}
