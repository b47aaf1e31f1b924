//! Integrity of JPEG data, checked before decoding. The decoder behind `image` (zune-jpeg, in
//! its lenient mode) fills whatever it cannot read with gray and reports success, so a photo
//! cut short by a failed copy or with flipped bits would be read as if whole — and a grid read
//! from half a picture can be solved, wrongly, without a word. [`check_jpeg`] refuses such
//! data: it walks the marker segments (each must fit in the file; the image must end with its
//! EOI marker) and, for the common baseline Huffman-coded photos, decodes every block's
//! Huffman symbols without the pixel work: a scan must hold exactly its blocks — ending early
//! (truncated) or running on past them (bits flipped out of step) is damage, as is a symbol no
//! table knows, a coefficient beyond 63, or a coefficient value no picture of the frame's
//! sample precision can have (a flipped value bit, a changed quantization table: see
//! `entropy`). Progressive and other JPEG processes get the structural checks only; `load`
//! decodes those strictly.
//!
//! Owns nothing but the check; decoding stays with `image`. The scan walk and its tables are
//! `entropy`'s.

mod entropy;

use std::fmt;

use entropy::{HuffmanTables, QuantTables, skip_entropy_data, walk_scan};

/// Why JPEG data is damaged: what is wrong and at which byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JpegDamage {
    /// Byte offset in the file where the fault was found.
    pub offset: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for JpegDamage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.reason, self.offset)
    }
}

impl std::error::Error for JpegDamage {}

fn damage(offset: usize, reason: impl Into<String>) -> JpegDamage {
    JpegDamage {
        offset,
        reason: reason.into(),
    }
}

/// Whether `bytes` start like a JPEG file (SOI marker).
pub fn is_jpeg(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0xFF, 0xD8, 0xFF])
}

/// What [`check_jpeg`] found about the coding, for the caller to decide how to decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JpegCoding {
    /// Every scan's entropy-coded data was walked block by block (baseline Huffman coding).
    pub scans_verified: bool,
}

/// Checks JPEG `bytes` (see the module documentation). Data after the EOI marker (camera
/// trailers) is allowed.
pub fn check_jpeg(bytes: &[u8]) -> Result<JpegCoding, JpegDamage> {
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return Err(damage(0, "no JPEG start marker"));
    }
    let mut tables = HuffmanTables::default();
    let mut quant = QuantTables::default();
    let mut frame: Option<Frame> = None;
    let mut restart_interval = 0usize;
    let mut scans = 0usize;
    let mut all_verified = true;
    let mut pos = 2;
    loop {
        // A marker: 0xFF, optional 0xFF fill bytes, then the code.
        if pos >= bytes.len() {
            return Err(damage(
                pos,
                "the file ends before the JPEG end marker (truncated)",
            ));
        }
        if bytes[pos] != 0xFF {
            return Err(damage(pos, "a marker was expected here"));
        }
        while pos < bytes.len() && bytes[pos] == 0xFF {
            pos += 1;
        }
        let Some(&code) = bytes.get(pos) else {
            return Err(damage(
                pos,
                "the file ends before the JPEG end marker (truncated)",
            ));
        };
        let marker_at = pos - 1;
        pos += 1;
        match code {
            0xD9 => {
                return if scans == 0 {
                    Err(damage(marker_at, "the image has no scan data"))
                } else {
                    Ok(JpegCoding {
                        scans_verified: all_verified,
                    })
                };
            }
            0x01 | 0xD0..=0xD7 => {
                return Err(damage(marker_at, "a restart marker outside scan data"));
            }
            0x00 | 0xD8 => return Err(damage(marker_at, format!("marker 0xFF{code:02X} here"))),
            _ => {}
        }
        let Some(len_bytes) = bytes.get(pos..pos + 2) else {
            return Err(damage(
                pos,
                "the file ends inside a segment header (truncated)",
            ));
        };
        let len = usize::from(u16::from_be_bytes([len_bytes[0], len_bytes[1]]));
        if len < 2 {
            return Err(damage(pos, format!("segment length {len}")));
        }
        let Some(segment) = bytes.get(pos + 2..pos + len) else {
            return Err(damage(
                marker_at,
                format!(
                    "the file ends inside a {len}-byte segment (truncated, or a damaged length)"
                ),
            ));
        };
        let seg_at = pos + 2;
        pos += len;
        match code {
            0xC4 => tables.read(segment, seg_at)?,
            0xDB => quant.read(segment, seg_at)?,
            0xDD => {
                if segment.len() != 2 {
                    return Err(damage(seg_at, "restart interval segment of the wrong size"));
                }
                restart_interval = usize::from(u16::from_be_bytes([segment[0], segment[1]]));
            }
            0xC0..=0xCF if code != 0xC4 && code != 0xC8 && code != 0xCC => {
                if frame.is_some() {
                    return Err(damage(marker_at, "a second frame header"));
                }
                frame = Some(Frame::read(segment, seg_at, code)?);
            }
            0xDA => {
                let Some(f) = frame.as_ref() else {
                    return Err(damage(marker_at, "scan data before the frame header"));
                };
                let scan = Scan::read(segment, seg_at, f)?;
                scans += 1;
                let walked = if f.baseline_huffman && scan.sequential() {
                    walk_scan(bytes, pos, f, &scan, &tables, &quant, restart_interval)?
                } else {
                    None
                };
                pos = walked.unwrap_or_else(|| {
                    all_verified = false;
                    skip_entropy_data(bytes, pos)
                });
            }
            _ => {} // APPn, COM, DNL, …: length-checked above.
        }
    }
}

/// One component of the frame.
struct Component {
    id: u8,
    /// Horizontal and vertical sampling factors (1–4).
    h: usize,
    v: usize,
    /// Id of its quantization table (0–3).
    quant_table: usize,
}

/// The frame header: size, sample precision and components.
struct Frame {
    width: usize,
    height: usize,
    /// Bits per sample (8 for nearly every photo, 12 for some medical and raw pictures).
    precision: u8,
    components: Vec<Component>,
    max_h: usize,
    max_v: usize,
    /// Largest DC difference size in bits (11 for 8-bit samples, 15 for 12-bit).
    max_dc_bits: u8,
    /// SOF0/SOF1: sequential Huffman coding, walked block by block.
    baseline_huffman: bool,
}

impl Frame {
    fn read(s: &[u8], at: usize, code: u8) -> Result<Frame, JpegDamage> {
        if s.len() < 6 {
            return Err(damage(at, "frame header too short"));
        }
        let height = usize::from(u16::from_be_bytes([s[1], s[2]]));
        let width = usize::from(u16::from_be_bytes([s[3], s[4]]));
        let n = usize::from(s[5]);
        if n == 0 || s.len() != 6 + 3 * n {
            return Err(damage(
                at,
                format!("frame header of {} bytes for {n} components", s.len()),
            ));
        }
        if width == 0 {
            return Err(damage(at, "frame width 0"));
        }
        let mut components = Vec::with_capacity(n);
        for c in s[6..].chunks_exact(3) {
            let (h, v) = (usize::from(c[1] >> 4), usize::from(c[1] & 15));
            if !(1..=4).contains(&h) || !(1..=4).contains(&v) {
                return Err(damage(at, format!("sampling factors {h}×{v}")));
            }
            if c[2] > 3 {
                return Err(damage(at, format!("quantization table id {}", c[2])));
            }
            components.push(Component {
                id: c[0],
                h,
                v,
                quant_table: usize::from(c[2]),
            });
        }
        let max_h = components.iter().map(|c| c.h).max().unwrap_or(1);
        let max_v = components.iter().map(|c| c.v).max().unwrap_or(1);
        Ok(Frame {
            width,
            height,
            precision: s[0],
            components,
            max_h,
            max_v,
            max_dc_bits: if s[0] > 8 { 15 } else { 11 },
            // A height of 0 (announced later by DNL) is left to the decoder.
            baseline_huffman: matches!(code, 0xC0 | 0xC1) && height > 0,
        })
    }
}

/// A scan header: its components (frame index, DC table, AC table) and spectral range.
struct Scan {
    components: Vec<(usize, usize, usize)>,
    spectral: (u8, u8),
    approximation: u8,
}

impl Scan {
    fn read(s: &[u8], at: usize, frame: &Frame) -> Result<Scan, JpegDamage> {
        let n = usize::from(*s.first().unwrap_or(&0));
        if n == 0 || n > 4 || s.len() != 4 + 2 * n {
            return Err(damage(
                at,
                format!("scan header of {} bytes for {n} components", s.len()),
            ));
        }
        let mut components = Vec::with_capacity(n);
        for c in s[1..1 + 2 * n].chunks_exact(2) {
            let Some(index) = frame.components.iter().position(|f| f.id == c[0]) else {
                return Err(damage(
                    at,
                    format!("scan names component {} the frame lacks", c[0]),
                ));
            };
            components.push((index, usize::from(c[1] >> 4), usize::from(c[1] & 15)));
        }
        let tail = &s[1 + 2 * n..];
        Ok(Scan {
            components,
            spectral: (tail[0], tail[1]),
            approximation: tail[2],
        })
    }

    /// A sequential scan: all 64 coefficients at full precision.
    fn sequential(&self) -> bool {
        self.spectral == (0, 63) && self.approximation == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small baseline JPEG of a gray gradient with some texture, as `image` encodes it.
    fn sample(quality: u8) -> Vec<u8> {
        let img = image::GrayImage::from_fn(61, 47, |x, y| {
            image::Luma([((x * 4 + y * 3) % 256) as u8 ^ ((x * y) % 7) as u8])
        });
        let mut out = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality)
            .encode_image(&img)
            .unwrap();
        out
    }

    fn colour_sample() -> Vec<u8> {
        let img = image::RgbImage::from_fn(50, 34, |x, y| {
            image::Rgb([(x * 5) as u8, (y * 7) as u8, ((x ^ y) * 3) as u8])
        });
        let mut out = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85)
            .encode_image(&img)
            .unwrap();
        out
    }

    #[test]
    fn whole_files_pass_and_are_walked() {
        for bytes in [sample(90), sample(30), colour_sample()] {
            assert_eq!(
                check_jpeg(&bytes),
                Ok(JpegCoding {
                    scans_verified: true
                })
            );
            // A camera trailer after the end marker is allowed.
            let mut trailer = bytes.clone();
            trailer.extend_from_slice(b"trailing maker data");
            assert!(check_jpeg(&trailer).is_ok());
        }
    }

    /// The offset of the first quantization step in `bytes` (after `FF DB`, length, Pq/Tq).
    fn first_quant_step(bytes: &[u8]) -> usize {
        bytes.windows(2).position(|w| w == [0xFF, 0xDB]).unwrap() + 5
    }

    #[test]
    fn a_changed_quantization_table_is_refused_where_no_picture_has_its_coefficients() {
        for bytes in [sample(90), sample(30), colour_sample()] {
            let at = first_quant_step(&bytes);
            // Steps 7 times as coarse: the blocks' means would lie far beyond white and black.
            let mut coarse = bytes.clone();
            for step in &mut coarse[at..at + 64] {
                *step = step.saturating_mul(7);
            }
            let damage = check_jpeg(&coarse).unwrap_err();
            assert!(damage.reason.contains("coefficient"), "{damage}");
            // A step of 0 is not allowed at all.
            let mut zero = bytes.clone();
            zero[at + 10] = 0;
            assert!(check_jpeg(&zero).unwrap_err().reason.contains("step of 0"));
            // Slightly finer steps leave every coefficient possible: still a valid file.
            let mut finer = bytes.clone();
            for step in &mut finer[at..at + 64] {
                *step = (*step / 2).max(1);
            }
            assert!(check_jpeg(&finer).is_ok());
        }
    }

    #[test]
    fn every_truncation_is_refused() {
        for bytes in [sample(90), colour_sample()] {
            for cut in (0..bytes.len() - 1).step_by(3) {
                assert!(
                    check_jpeg(&bytes[..cut]).is_err(),
                    "cut at {cut} of {} passed",
                    bytes.len()
                );
            }
        }
    }

    #[test]
    fn bit_flips_that_break_the_huffman_stream_are_refused() {
        let bytes = colour_sample();
        let scan_start = bytes.windows(2).rposition(|w| w == [0xFF, 0xDA]).unwrap() + 14;
        let (mut refused, mut total) = (0, 0);
        for pos in scan_start..bytes.len() - 2 {
            for bit in 0..8 {
                let mut damaged = bytes.clone();
                damaged[pos] ^= 1 << bit;
                total += 1;
                refused += usize::from(check_jpeg(&damaged).is_err());
            }
        }
        // Flips of a coefficient's value bits keep the stream in step and no decoder can see
        // them (JPEG has no checksum); flips of Huffman codes put it out of step and are
        // refused: a third of all single flips in this small, finely quantized picture
        // (1249 of 3840), more where coarser quantization leaves fewer value bits.
        assert!(refused * 4 >= total, "{refused} of {total} refused");
    }
}
