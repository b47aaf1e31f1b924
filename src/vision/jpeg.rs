//! Integrity of JPEG data, checked before decoding. The decoder behind `image` (zune-jpeg, in
//! its lenient mode) fills whatever it cannot read with gray and reports success, so a photo
//! cut short by a failed copy or with flipped bits would be read as if whole — and a grid read
//! from half a picture can be solved, wrongly, without a word. [`check_jpeg`] refuses such
//! data: it walks the marker segments (each must fit in the file; the image must end with its
//! EOI marker) and, for the common baseline Huffman-coded photos, decodes every block's
//! Huffman symbols without the pixel work: a scan must hold exactly its blocks — ending early
//! (truncated) or running on past them (bits flipped out of step) is damage, as is a symbol no
//! table knows or a coefficient beyond 63. Progressive and other JPEG processes get the
//! structural checks only; `load` decodes those strictly.
//!
//! Owns nothing but the check; decoding stays with `image`.

use std::fmt;

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
                    walk_scan(bytes, pos, f, &scan, &tables, restart_interval)?
                } else {
                    None
                };
                pos = walked.unwrap_or_else(|| {
                    all_verified = false;
                    skip_entropy_data(bytes, pos)
                });
            }
            _ => {} // APPn, COM, DQT, DNL, …: length-checked above.
        }
    }
}

/// The frame header: size and components (id, sampling factors).
struct Frame {
    width: usize,
    height: usize,
    components: Vec<(u8, usize, usize)>,
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
            components.push((c[0], h, v));
        }
        let max_h = components.iter().map(|c| c.1).max().unwrap_or(1);
        let max_v = components.iter().map(|c| c.2).max().unwrap_or(1);
        Ok(Frame {
            width,
            height,
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
            let Some(index) = frame.components.iter().position(|f| f.0 == c[0]) else {
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

/// Huffman tables by class (0 DC, 1 AC) and id (0–3), as canonical-code lookup data.
#[derive(Default)]
struct HuffmanTables {
    tables: [[Option<Huffman>; 4]; 2],
}

impl HuffmanTables {
    fn read(&mut self, mut s: &[u8], mut at: usize) -> Result<(), JpegDamage> {
        while !s.is_empty() {
            if s.len() < 17 {
                return Err(damage(at, "Huffman table segment too short"));
            }
            let (class, id) = (usize::from(s[0] >> 4), usize::from(s[0] & 15));
            if class > 1 || id > 3 {
                return Err(damage(at, format!("Huffman table class {class} id {id}")));
            }
            let counts: [u8; 16] = s[1..17].try_into().unwrap_or([0; 16]);
            let total: usize = counts.iter().map(|&c| usize::from(c)).sum();
            let Some(symbols) = s.get(17..17 + total) else {
                return Err(damage(at, "Huffman table longer than its segment"));
            };
            self.tables[class][id] = Some(Huffman::new(&counts, symbols, at)?);
            s = &s[17 + total..];
            at += 17 + total;
        }
        Ok(())
    }

    fn get(&self, class: usize, id: usize) -> Option<&Huffman> {
        self.tables.get(class)?.get(id)?.as_ref()
    }
}

/// One canonical Huffman code (JPEG Annex C/F): per code length, the largest code and where its
/// symbols start.
struct Huffman {
    max_code: [i32; 17],
    val_offset: [i32; 17],
    symbols: Vec<u8>,
}

impl Huffman {
    fn new(counts: &[u8; 16], symbols: &[u8], at: usize) -> Result<Huffman, JpegDamage> {
        let mut max_code = [-1i32; 17];
        let mut val_offset = [0i32; 17];
        let (mut code, mut k) = (0i32, 0i32);
        for len in 1..=16 {
            let n = i32::from(counts[len - 1]);
            if n > 0 {
                val_offset[len] = k - code;
                code += n;
                k += n;
                max_code[len] = code - 1;
                if code > (1 << len) {
                    return Err(damage(at, "Huffman table with more codes than fit"));
                }
            }
            code <<= 1;
        }
        Ok(Huffman {
            max_code,
            val_offset,
            symbols: symbols.to_vec(),
        })
    }

    fn decode(&self, bits: &mut BitReader<'_>) -> Result<u8, JpegDamage> {
        let mut code = 0i32;
        for len in 1..=16 {
            code = (code << 1) | i32::from(bits.bit()?);
            if code <= self.max_code[len] {
                let index = (code + self.val_offset[len]) as usize;
                return self
                    .symbols
                    .get(index)
                    .copied()
                    .ok_or_else(|| damage(bits.pos, "Huffman code without a symbol"));
            }
        }
        Err(damage(
            bits.pos,
            "a bit pattern no Huffman code has (corrupt data)",
        ))
    }
}

/// Bits of entropy-coded data: stuffed zero bytes removed, stopping at the next marker.
struct BitReader<'a> {
    bytes: &'a [u8],
    pos: usize,
    current: u8,
    left: u8,
}

impl BitReader<'_> {
    fn bit(&mut self) -> Result<u8, JpegDamage> {
        if self.left == 0 {
            let byte = *self
                .bytes
                .get(self.pos)
                .ok_or_else(|| damage(self.pos, "the file ends inside scan data (truncated)"))?;
            if byte == 0xFF {
                match self.bytes.get(self.pos + 1) {
                    Some(0x00) => self.pos += 1,
                    Some(_) => {
                        return Err(damage(
                            self.pos,
                            "scan data ends before its last block (truncated or corrupt)",
                        ));
                    }
                    None => {
                        return Err(damage(
                            self.pos,
                            "the file ends inside scan data (truncated)",
                        ));
                    }
                }
            }
            self.pos += 1;
            self.current = byte;
            self.left = 8;
        }
        self.left -= 1;
        Ok((self.current >> self.left) & 1)
    }

    fn bits(&mut self, n: usize) -> Result<(), JpegDamage> {
        for _ in 0..n {
            self.bit()?;
        }
        Ok(())
    }

    /// Drops the padding bits of the current byte; the data must now be at a marker (fill
    /// bytes allowed). Returns the marker's offset.
    fn at_marker(&mut self) -> Result<usize, JpegDamage> {
        self.left = 0;
        match (self.bytes.get(self.pos), self.bytes.get(self.pos + 1)) {
            (Some(0xFF), Some(&m)) if m != 0x00 => Ok(self.pos),
            (None, _) | (Some(0xFF), None) => Err(damage(
                self.pos,
                "the file ends after the scan data (truncated)",
            )),
            _ => Err(damage(
                self.pos,
                "scan data runs on past its last block (corrupt data out of step)",
            )),
        }
    }
}

/// Walks a sequential Huffman scan starting at `start` (just after its header): every block's
/// DC and AC symbols, restart markers in order. Returns the offset of the marker after it;
/// `None` when the scan uses a table the file does not define (Motion-JPEG camera frames
/// rely on the standard tables): then only the structure is checked.
fn walk_scan(
    bytes: &[u8],
    start: usize,
    frame: &Frame,
    scan: &Scan,
    tables: &HuffmanTables,
    restart_interval: usize,
) -> Result<Option<usize>, JpegDamage> {
    let mut units = Vec::with_capacity(scan.components.len());
    for &(index, dc, ac) in &scan.components {
        let (_, h, v) = frame.components[index];
        let (Some(dc), Some(ac)) = (tables.get(0, dc), tables.get(1, ac)) else {
            return Ok(None);
        };
        units.push((h, v, dc, ac));
    }
    // An interleaved scan codes MCUs of h×v blocks per component; a one-component scan codes
    // that component's blocks one by one over its own size.
    let (mcus, blocks_per_mcu): (usize, Vec<usize>) = if units.len() == 1 {
        let (h, v, _, _) = units[0];
        let w = (frame.width * h).div_ceil(frame.max_h);
        let ht = (frame.height * v).div_ceil(frame.max_v);
        (w.div_ceil(8) * ht.div_ceil(8), vec![1])
    } else {
        let cols = frame.width.div_ceil(8 * frame.max_h);
        let rows = frame.height.div_ceil(8 * frame.max_v);
        (cols * rows, units.iter().map(|u| u.0 * u.1).collect())
    };
    let mut bits = BitReader {
        bytes,
        pos: start,
        current: 0,
        left: 0,
    };
    let mut next_restart = 0u8;
    for mcu in 0..mcus {
        if restart_interval > 0 && mcu > 0 && mcu % restart_interval == 0 {
            let at = bits.at_marker()?;
            if bytes[at + 1] != 0xD0 + next_restart {
                return Err(damage(
                    at,
                    format!(
                        "restart marker {} expected, found 0xFF{:02X} (truncated or corrupt)",
                        next_restart,
                        bytes[at + 1]
                    ),
                ));
            }
            next_restart = (next_restart + 1) % 8;
            bits.pos = at + 2;
        }
        for (unit, &blocks) in units.iter().zip(&blocks_per_mcu) {
            for _ in 0..blocks {
                let (dc, ac) = (unit.2, unit.3);
                let size = dc.decode(&mut bits)?;
                if size > frame.max_dc_bits {
                    return Err(damage(bits.pos, format!("DC difference of {size} bits")));
                }
                bits.bits(usize::from(size))?;
                let mut k = 1;
                while k < 64 {
                    let rs = ac.decode(&mut bits)?;
                    let (run, size) = (usize::from(rs >> 4), usize::from(rs & 15));
                    if size == 0 {
                        if run == 15 {
                            k += 16;
                            continue;
                        }
                        break; // end of block
                    }
                    k += run;
                    if k > 63 {
                        return Err(damage(
                            bits.pos,
                            "a coefficient beyond the 64th (corrupt data)",
                        ));
                    }
                    bits.bits(size)?;
                    k += 1;
                }
                if k > 64 {
                    return Err(damage(
                        bits.pos,
                        "a zero run past the block's end (corrupt data)",
                    ));
                }
            }
        }
    }
    bits.at_marker().map(Some)
}

/// The offset of the first marker after entropy-coded data starting at `start` (stuffed bytes
/// and restart markers are part of the data); the end of `bytes` when there is none.
fn skip_entropy_data(bytes: &[u8], start: usize) -> usize {
    let mut pos = start;
    while pos + 1 < bytes.len() {
        if bytes[pos] == 0xFF {
            let m = bytes[pos + 1];
            if m != 0x00 && !(0xD0..=0xD7).contains(&m) && m != 0xFF {
                return pos;
            }
        }
        pos += 1;
    }
    bytes.len()
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
