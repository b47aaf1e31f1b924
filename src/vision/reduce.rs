//! Decoding large photos at a reduced size, so that no image input — a 48 MP phone photo or a
//! decompression bomb of a few kilobytes that claims 64 MP — costs more memory than a
//! 12 MP photo decoded whole.
//!
//! A baseline JPEG is decoded by `jpeg-decoder` with its scaled inverse DCT (1/2, 1/4 or
//! 1/8 of each side: the full-size picture never exists); a PNG is read row by row by the
//! `png` crate and area-averaged by a whole factor as the rows come (8-bit samples, alpha
//! kept). [`super::load`] decides when to come here and keeps the checks that refuse damaged
//! data; this module owns only the reduced decoders. A grid needs a few hundred pixels a side,
//! so the reduced picture (at most [`MAX_REDUCED_PIXELS`]) reads as well as the original.

use std::io::{BufRead, Seek};

use image::DynamicImage;

/// Largest picture, in pixels, that a reduced decode produces.
pub const MAX_REDUCED_PIXELS: u64 = 8_000_000;

/// Why a reduced decode failed (the caller names the file).
#[derive(Debug)]
pub(super) enum ReduceError {
    /// The data is damaged or cut short.
    Damaged(String),
    /// A variant this path cannot reduce (interlaced PNG, an unusual JPEG layout).
    Unsupported,
}

/// The smallest power-of-two divisor `k` (1, 2, 4 or 8) of each side such that the picture
/// has at most [`MAX_REDUCED_PIXELS`] pixels; 8 when none does.
fn jpeg_factor(width: u32, height: u32) -> u32 {
    let pixels = u64::from(width) * u64::from(height);
    [1u32, 2, 4, 8]
        .into_iter()
        .find(|&k| pixels / u64::from(k * k) <= MAX_REDUCED_PIXELS)
        .unwrap_or(8)
}

/// Decodes a baseline JPEG at the scale of [`jpeg_factor`].
pub(super) fn jpeg<R: BufRead>(
    reader: R,
    width: u32,
    height: u32,
) -> Result<DynamicImage, ReduceError> {
    let k = jpeg_factor(width, height);
    let mut decoder = jpeg_decoder::Decoder::new(reader);
    let damaged = |e: jpeg_decoder::Error| match e {
        jpeg_decoder::Error::Unsupported(_) => ReduceError::Unsupported,
        other => ReduceError::Damaged(other.to_string()),
    };
    let want = |side: u32| u16::try_from(side.div_ceil(k)).unwrap_or(u16::MAX);
    let (w, h) = decoder.scale(want(width), want(height)).map_err(damaged)?;
    let pixels = decoder.decode().map_err(damaged)?;
    let info = decoder
        .info()
        .ok_or_else(|| ReduceError::Damaged("no frame header".into()))?;
    let (w, h) = (u32::from(w), u32::from(h));
    let image = match info.pixel_format {
        jpeg_decoder::PixelFormat::L8 => {
            image::GrayImage::from_raw(w, h, pixels).map(DynamicImage::ImageLuma8)
        }
        jpeg_decoder::PixelFormat::RGB24 => {
            image::RgbImage::from_raw(w, h, pixels).map(DynamicImage::ImageRgb8)
        }
        _ => return Err(ReduceError::Unsupported),
    };
    image.ok_or_else(|| ReduceError::Damaged("decoded data does not fill the picture".into()))
}

/// Reads a PNG row by row and area-averages it by the smallest whole factor that brings it
/// within [`MAX_REDUCED_PIXELS`].
pub(super) fn png<R: BufRead + Seek>(reader: R) -> Result<DynamicImage, ReduceError> {
    let format = |e: png::DecodingError| match e {
        png::DecodingError::Parameter(_) => ReduceError::Unsupported,
        other => ReduceError::Damaged(other.to_string()),
    };
    // Only one row and the reduced picture are held; the decoder's own buffers are small.
    let mut decoder = png::Decoder::new_with_limits(reader, png::Limits { bytes: 64 << 20 });
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(format)?;
    if reader.info().interlaced {
        return Err(ReduceError::Unsupported);
    }
    let (width, height) = (reader.info().width, reader.info().height);
    let channels = match reader.output_color_type() {
        (png::ColorType::Grayscale, png::BitDepth::Eight) => 1,
        (png::ColorType::GrayscaleAlpha, png::BitDepth::Eight) => 2,
        (png::ColorType::Rgb, png::BitDepth::Eight) => 3,
        (png::ColorType::Rgba, png::BitDepth::Eight) => 4,
        _ => return Err(ReduceError::Unsupported),
    };
    let pixels = u64::from(width) * u64::from(height);
    let mut k = 1u32;
    while pixels / u64::from(k * k) > MAX_REDUCED_PIXELS {
        k += 1;
    }
    let (out_w, out_h) = ((width / k).max(1), (height / k).max(1));
    let row_len = out_w as usize * channels;
    let mut sums = vec![0u32; row_len];
    let mut out = Vec::with_capacity(row_len * out_h as usize);
    let mut rows_in_band = 0u32;
    for _ in 0..height {
        let row = reader
            .next_row()
            .map_err(format)?
            .ok_or_else(|| ReduceError::Damaged("image data ends early".into()))?;
        if out.len() == row_len * out_h as usize {
            continue; // rows past the last whole band (fewer than k)
        }
        let data = row.data();
        for (x_out, sum) in sums.chunks_exact_mut(channels).enumerate() {
            let start = x_out * k as usize * channels;
            for px in data[start..start + k as usize * channels].chunks_exact(channels) {
                for (s, &v) in sum.iter_mut().zip(px) {
                    *s += u32::from(v);
                }
            }
        }
        rows_in_band += 1;
        if rows_in_band == k {
            let n = k * k;
            out.extend(sums.iter().map(|&s| ((s + n / 2) / n) as u8));
            sums.fill(0);
            rows_in_band = 0;
        }
    }
    reader.finish().map_err(format)?;
    let image = match channels {
        1 => image::GrayImage::from_raw(out_w, out_h, out).map(DynamicImage::ImageLuma8),
        2 => image::GrayAlphaImage::from_raw(out_w, out_h, out).map(DynamicImage::ImageLumaA8),
        3 => image::RgbImage::from_raw(out_w, out_h, out).map(DynamicImage::ImageRgb8),
        _ => image::RgbaImage::from_raw(out_w, out_h, out).map(DynamicImage::ImageRgba8),
    };
    image.ok_or_else(|| ReduceError::Damaged("decoded data does not fill the picture".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jpeg_factor_brings_the_picture_within_the_limit() {
        assert_eq!(jpeg_factor(4000, 2000), 1);
        assert_eq!(jpeg_factor(6000, 4000), 2);
        assert_eq!(jpeg_factor(8000, 8000), 4);
        assert_eq!(jpeg_factor(65500, 65500), 8);
    }

    #[test]
    fn a_png_is_area_averaged_row_by_row() {
        // 3000×3000 (9 MP > 8 MP) → factor 2 → 1500×1500; a 2×2 checker averages to 128.
        let img = image::GrayImage::from_fn(3000, 3000, |x, y| {
            image::Luma([if (x + y) % 2 == 0 { 0 } else { 255 }])
        });
        let mut bytes = std::io::Cursor::new(Vec::new());
        img.write_to(&mut bytes, image::ImageFormat::Png).unwrap();
        bytes.set_position(0);
        let out = png(bytes).unwrap().to_luma8();
        assert_eq!(out.dimensions(), (1500, 1500));
        assert!(out.pixels().all(|p| p.0[0] == 128));
    }

    #[test]
    fn a_jpeg_is_decoded_at_half_scale() {
        // 4096×3072 (12.6 MP > 8 MP) → half of each side.
        let img = image::GrayImage::from_fn(4096, 3072, |x, _| image::Luma([(x / 16) as u8]));
        let mut bytes = std::io::Cursor::new(Vec::new());
        img.write_to(&mut bytes, image::ImageFormat::Jpeg).unwrap();
        bytes.set_position(0);
        let out = jpeg(bytes, 4096, 3072).unwrap();
        assert_eq!((out.width(), out.height()), (2048, 1536));
        let gray = out.to_luma8();
        // Still the same ramp: column 1000 of the half is column 2000 of the whole.
        assert!((i32::from(gray.get_pixel(1000, 700).0[0]) - 125).abs() <= 2);
    }
}
