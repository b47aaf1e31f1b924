//! Baseline Huffman-coded scan data, walked block by block without the pixel work (JPEG
//! Annex F decoding up to the quantized coefficients): a scan must hold exactly its blocks, in
//! step with its Huffman codes, and every coefficient, dequantized, must be one an 8-bit (or
//! 12-bit) picture can have. The second check sees what the first cannot: a flipped value bit
//! or a changed quantization table keeps the stream in step but, where it matters, makes a
//! block brighter than white or a coefficient larger than any 8×8 block of samples gives
//! (|F(u,v)| ≤ 1024 for 8-bit samples: the DC term is 8 × the block's mean, level-shifted).
//! A flip that stays within those bounds is invisible to any decoder: JPEG has no checksum.
//!
//! Owns the tables (Huffman, quantization) and the walk; the marker segments are `jpeg`'s.

use super::{Frame, JpegDamage, Scan, damage};

/// Largest dequantized coefficient magnitude for `precision`-bit samples, with room for the
/// encoder's rounding (half a quantization step) and its DCT's arithmetic (3 %).
fn coefficient_limit(precision: u8, step: u16) -> i64 {
    let exact: i64 = if precision > 8 { 16_384 } else { 1_024 };
    exact + exact / 32 + i64::from(step)
}

/// Quantization tables by id (0–3), in the zig-zag order the file stores them.
#[derive(Default)]
pub(super) struct QuantTables {
    tables: [Option<[u16; 64]>; 4],
}

impl QuantTables {
    /// Reads a DQT segment (one or more tables). A step of 0 is not allowed by the standard and
    /// is damage.
    pub(super) fn read(&mut self, mut s: &[u8], mut at: usize) -> Result<(), JpegDamage> {
        while let Some(&pq_tq) = s.first() {
            let (precision, id) = (usize::from(pq_tq >> 4), usize::from(pq_tq & 15));
            if precision > 1 || id > 3 {
                return Err(damage(
                    at,
                    format!("quantization table of precision {precision}, id {id}"),
                ));
            }
            let width = 1 + precision;
            let Some(values) = s.get(1..1 + 64 * width) else {
                return Err(damage(at, "quantization table longer than its segment"));
            };
            let mut table = [0u16; 64];
            for (step, v) in table.iter_mut().zip(values.chunks_exact(width)) {
                *step = if width == 2 {
                    u16::from_be_bytes([v[0], v[1]])
                } else {
                    u16::from(v[0])
                };
            }
            if table.contains(&0) {
                return Err(damage(at, "a quantization step of 0"));
            }
            self.tables[id] = Some(table);
            s = &s[1 + 64 * width..];
            at += 1 + 64 * width;
        }
        Ok(())
    }

    fn get(&self, id: usize) -> Option<&[u16; 64]> {
        self.tables.get(id)?.as_ref()
    }
}

/// Huffman tables by class (0 DC, 1 AC) and id (0–3), as canonical-code lookup data.
#[derive(Default)]
pub(super) struct HuffmanTables {
    tables: [[Option<Huffman>; 4]; 2],
}

impl HuffmanTables {
    pub(super) fn read(&mut self, mut s: &[u8], mut at: usize) -> Result<(), JpegDamage> {
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

/// Bits a [`Huffman`] code's fast table is indexed by: most codes of a photo's tables are
/// this short.
const FAST_BITS: u8 = 9;

/// One canonical Huffman code (JPEG Annex C/F): per code length, the largest code and where its
/// symbols start.
struct Huffman {
    max_code: [i32; 17],
    val_offset: [i32; 17],
    symbols: Vec<u8>,
    /// For every [`FAST_BITS`]-bit prefix, the length and symbol of the code
    /// [`Huffman::decode_bit_by_bit`] reads from bits starting so (`(0, _)` when it reads
    /// more bits than these, or fails).
    fast: Vec<(u8, u8)>,
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
        let mut table = Huffman {
            max_code,
            val_offset,
            symbols: symbols.to_vec(),
            fast: Vec::with_capacity(1 << FAST_BITS),
        };
        // Each prefix walked as `decode_bit_by_bit` walks its bits, so the table says what the
        // walk says even for a damaged table's codes.
        for prefix in 0..1u32 << FAST_BITS {
            let mut code = 0i32;
            let mut entry = (0, 0);
            for len in 1..=FAST_BITS {
                code = (code << 1) | ((prefix >> (FAST_BITS - len)) & 1) as i32;
                if let Some(ends) = table.code_ends(code, usize::from(len)) {
                    // A code without a symbol is left to the walk, which reports it.
                    entry = ends.map_or((0, 0), |symbol| (len, symbol));
                    break;
                }
            }
            table.fast.push(entry);
        }
        Ok(table)
    }

    /// Where the canonical walk stands after reading the `len`-bit `code`: `None` while it
    /// must read on, else the code's symbol (`None` inside when the table has none for it).
    fn code_ends(&self, code: i32, len: usize) -> Option<Option<u8>> {
        (code <= self.max_code[len]).then(|| {
            usize::try_from(code + self.val_offset[len])
                .ok()
                .and_then(|i| self.symbols.get(i).copied())
        })
    }

    /// The next symbol. Where the next [`FAST_BITS`] bits are at hand (no marker or end of
    /// data before them) and name a code that short, it is looked up and its bits consumed
    /// at once; otherwise [`Huffman::decode_bit_by_bit`] reads it. The same symbols, reader
    /// state and errors either way.
    fn decode(&self, bits: &mut BitReader<'_>) -> Result<u8, JpegDamage> {
        if let Some(prefix) = bits.peek(FAST_BITS)
            && let Some(&(len, symbol)) = self.fast.get(prefix as usize)
            && len > 0
        {
            bits.consume(len);
            return Ok(symbol);
        }
        self.decode_bit_by_bit(bits)
    }

    /// The next symbol, read a bit at a time (JPEG's DECODE procedure).
    fn decode_bit_by_bit(&self, bits: &mut BitReader<'_>) -> Result<u8, JpegDamage> {
        let mut code = 0i32;
        for len in 1..=16 {
            code = (code << 1) | i32::from(bits.bit()?);
            if let Some(ends) = self.code_ends(code, len) {
                return ends.ok_or_else(|| damage(bits.pos, "Huffman code without a symbol"));
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
            self.load_byte()?;
        }
        self.left -= 1;
        Ok((self.current >> self.left) & 1)
    }

    /// Loads the next data byte into `current` ([`data_byte`]), or says why there is none.
    fn load_byte(&mut self) -> Result<(), JpegDamage> {
        let (byte, next) = data_byte(self.bytes, self.pos).map_err(|why| damage(self.pos, why))?;
        self.pos = next;
        self.current = byte;
        self.left = 8;
        Ok(())
    }

    /// The next `n` bits (at most 16) without consuming them; `None` when a marker or the end
    /// of the data comes first (then [`BitReader::bit`] says which).
    fn peek(&self, n: u8) -> Option<u32> {
        let mut acc = u32::from(self.current) & ((1u32 << self.left) - 1);
        let (mut have, mut pos) = (self.left, self.pos);
        while have < n {
            let (byte, next) = data_byte(self.bytes, pos).ok()?;
            pos = next;
            acc = (acc << 8) | u32::from(byte);
            have += 8;
        }
        Some((acc >> (have - n)) & ((1u32 << n) - 1))
    }

    /// Consumes `n` bits that [`BitReader::peek`] found at hand: the state [`BitReader::bit`]
    /// leaves after as many calls.
    fn consume(&mut self, mut n: u8) {
        while n > 0 {
            // Never fails for bits `peek` found at hand.
            if self.left == 0 && self.load_byte().is_err() {
                return;
            }
            let take = n.min(self.left);
            self.left -= take;
            n -= take;
        }
    }

    /// The next `size` bits as a signed coefficient value (JPEG's EXTEND: a leading 0 bit
    /// means negative). Where the bits are at hand (see [`BitReader::peek`]) they are taken at
    /// once, else [`BitReader::value_bit_by_bit`] reads them: the same values, state and errors.
    fn value(&mut self, size: u8) -> Result<i64, JpegDamage> {
        match self.peek(size) {
            Some(v) => {
                self.consume(size);
                Ok(extend(i64::from(v), size))
            }
            None => self.value_bit_by_bit(size),
        }
    }

    /// [`BitReader::value`], read a bit at a time (JPEG's RECEIVE and EXTEND procedures).
    fn value_bit_by_bit(&mut self, size: u8) -> Result<i64, JpegDamage> {
        let mut v = 0i64;
        for _ in 0..size {
            v = (v << 1) | i64::from(self.bit()?);
        }
        Ok(extend(v, size))
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

/// The data byte of entropy-coded `bytes` at `pos` and the position after it (a stuffed
/// `FF 00` is one `FF`), or why there is none: the end of the file or a marker. The one home
/// of byte stuffing for [`BitReader::load_byte`] and [`BitReader::peek`].
fn data_byte(bytes: &[u8], pos: usize) -> Result<(u8, usize), &'static str> {
    const TRUNCATED: &str = "the file ends inside scan data (truncated)";
    let byte = *bytes.get(pos).ok_or(TRUNCATED)?;
    if byte != 0xFF {
        return Ok((byte, pos + 1));
    }
    match bytes.get(pos + 1) {
        Some(0x00) => Ok((0xFF, pos + 2)),
        Some(_) => Err("scan data ends before its last block (truncated or corrupt)"),
        None => Err(TRUNCATED),
    }
}

/// JPEG's EXTEND: `size` bits `v` as a signed value (a leading 0 bit means negative).
fn extend(v: i64, size: u8) -> i64 {
    if size > 0 && v < 1 << (size - 1) {
        v - (1 << size) + 1
    } else {
        v
    }
}

/// Walks a sequential Huffman scan starting at `start` (just after its header): every block's
/// DC and AC symbols, restart markers in order. Returns the offset of the marker after it;
/// `None` when the scan uses a table the file does not define (Motion-JPEG camera frames
/// rely on the standard tables): then only the structure is checked.
pub(super) fn walk_scan(
    bytes: &[u8],
    start: usize,
    frame: &Frame,
    scan: &Scan,
    tables: &HuffmanTables,
    quant: &QuantTables,
    restart_interval: usize,
) -> Result<Option<usize>, JpegDamage> {
    let mut units = Vec::with_capacity(scan.components.len());
    for &(index, dc, ac) in &scan.components {
        let component = &frame.components[index];
        let (Some(dc), Some(ac)) = (tables.get(0, dc), tables.get(1, ac)) else {
            return Ok(None);
        };
        // Without its table the decoder refuses the file; the values are then not checked.
        let steps = quant.get(component.quant_table);
        units.push((component.h, component.v, dc, ac, steps));
    }
    // An interleaved scan codes MCUs of h×v blocks per component; a one-component scan codes
    // that component's blocks one by one over its own size.
    let (mcus, blocks_per_mcu): (usize, Vec<usize>) = if units.len() == 1 {
        let (h, v, ..) = units[0];
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
    // Each component's DC prediction (the previous block's DC), reset at every restart.
    let mut predictions = vec![0i64; units.len()];
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
            predictions.fill(0);
        }
        for ((&(_, _, dc, ac, steps), &blocks), prediction) in
            units.iter().zip(&blocks_per_mcu).zip(&mut predictions)
        {
            for _ in 0..blocks {
                let size = dc.decode(&mut bits)?;
                if size > frame.max_dc_bits {
                    return Err(damage(bits.pos, format!("DC difference of {size} bits")));
                }
                *prediction += bits.value(size)?;
                if let Some(steps) = steps {
                    check_coefficient(*prediction, steps[0], frame.precision, bits.pos, "DC")?;
                }
                let mut k = 1;
                while k < 64 {
                    let rs = ac.decode(&mut bits)?;
                    let (run, size) = (usize::from(rs >> 4), rs & 15);
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
                    let value = bits.value(size)?;
                    if let Some(steps) = steps {
                        check_coefficient(value, steps[k], frame.precision, bits.pos, "AC")?;
                    }
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

/// A dequantized coefficient beyond what `precision`-bit samples allow is damage: a flipped
/// value bit or a changed quantization table.
fn check_coefficient(
    value: i64,
    step: u16,
    precision: u8,
    at: usize,
    what: &str,
) -> Result<(), JpegDamage> {
    let dequantized = value.saturating_mul(i64::from(step)).abs();
    if dequantized > coefficient_limit(precision, step) {
        return Err(damage(
            at,
            format!(
                "a block's {what} coefficient of {dequantized}, beyond what {precision}-bit \
                 samples allow (corrupt data or quantization table)"
            ),
        ));
    }
    Ok(())
}

/// The offset of the first marker after entropy-coded data starting at `start` (stuffed bytes
/// and restart markers are part of the data); the end of `bytes` when there is none.
pub(super) fn skip_entropy_data(bytes: &[u8], start: usize) -> usize {
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

    /// A reader's whole state, to compare two.
    fn state(r: &BitReader<'_>) -> (usize, u8, u8) {
        (r.pos, r.current, r.left)
    }

    proptest::proptest! {
        /// The table and the taken-at-once bits decode what the bit-by-bit walk decodes, leave
        /// the reader where it leaves it and fail where and as it fails: on random tables
        /// (complete or not) and random data with stuffed bytes, markers and early ends.
        #[test]
        fn fast_decoding_is_the_bit_by_bit_walk(
            // No 1-bit code and at most two of each other length: always a valid table
            // (full or not); a symbol list shorter than its counts leaves codes without one.
            counts in proptest::collection::vec(0u8..3, 15),
            symbols in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
            data in proptest::collection::vec(
                proptest::prop_oneof![
                    8 => proptest::prelude::any::<u8>(),
                    1 => proptest::strategy::Just(0xFF),
                    1 => proptest::strategy::Just(0x00),
                ],
                0..64,
            ),
            sizes in proptest::collection::vec(0u8..16, 1..40),
        ) {
            let mut all = [0u8; 16];
            all[1..].copy_from_slice(&counts);
            let table = Huffman::new(&all, &symbols, 0).unwrap();
            let new = |data| BitReader { bytes: data, pos: 0, current: 0, left: 0 };
            let (mut fast, mut walk) = (new(&data), new(&data));
            for &size in &sizes {
                let (a, b) = (table.decode(&mut fast), table.decode_bit_by_bit(&mut walk));
                proptest::prop_assert_eq!(&a, &b);
                proptest::prop_assert_eq!(state(&fast), state(&walk));
                if a.is_err() {
                    break;
                }
                let (a, b) = (fast.value(size), walk.value_bit_by_bit(size));
                proptest::prop_assert_eq!(&a, &b);
                proptest::prop_assert_eq!(state(&fast), state(&walk));
                if a.is_err() {
                    break;
                }
            }
        }
    }
}
