//! The exact solver's lookup tables, built at compile time. Cell position inside a band:
//! `p = 9 * row_in_band + col` (0..27). Minirow index inside a band: `3 * row_in_band +
//! box_in_band` (0..9).

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;
/// Column 0 of a band (bits 0, 9, 18); shift left by the column.
pub(super) const COL0: u32 = 1 | 1 << 9 | 1 << 18;
/// Box 0 of a band; shift left by 3 × box.
pub(super) const BOX0: u32 = 0o007_007_007;

/// For a digit placed at band position `p`: the band's cells that are *not* its row or box peers
/// (the cell itself kept). Indexed by `p & 31` so the index needs no bounds check.
pub(super) static BAND_KEEP: [u32; 32] = build_band_keep();

const fn build_band_keep() -> [u32; 32] {
    let mut out = [BAND; 32];
    let mut p = 0;
    while p < 27 {
        let row = p / 9;
        let bx = (p % 9) / 3;
        let peers = (0x1ff << (9 * row)) | (BOX0 << (3 * bx));
        out[p] = (BAND & !peers) | (1 << p);
        p += 1;
    }
    out
}

/// Row of the band (9 bits) → which of its three minirows are non-empty (3 bits).
pub(super) static SHRINK: [u32; 512] = build_shrink();

const fn build_shrink() -> [u32; 512] {
    let mut out = [0u32; 512];
    let mut r = 0;
    while r < 512 {
        let mut s = 0;
        if r & 0o007 != 0 {
            s |= 1;
        }
        if r & 0o070 != 0 {
            s |= 2;
        }
        if r & 0o700 != 0 {
            s |= 4;
        }
        out[r] = s;
        r += 1;
    }
    out
}

/// Minirow mask (9 bits) → in the low 32 bits, the cells of the minirows that take part in at
/// least one way of putting the digit once in each row and each box of the band (0: no way at
/// all); in the high 32 bits, the *locked* minirows among them: the only one left in their row.
pub(super) static PERM_INFO: [u64; 512] = build_perm_info();

const fn build_perm_info() -> [u64; 512] {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = [0u64; 512];
    let mut m = 0;
    while m < 512 {
        let mut minirows = 0usize;
        let mut i = 0;
        while i < 6 {
            let p = PERMS[i];
            let bits = (1 << p[0]) | (1 << (3 + p[1])) | (1 << (6 + p[2]));
            if m & bits == bits {
                minirows |= bits;
            }
            i += 1;
        }
        let mut cells = 0u64;
        let mut locked = 0u64;
        let mut k = 0;
        while k < 9 {
            if minirows & (1 << k) != 0 {
                cells |= 0b111 << ((k / 3) * 9 + (k % 3) * 3);
                let row = (minirows >> (3 * (k / 3))) & 7;
                if row.count_ones() == 1 {
                    locked |= 1 << k;
                }
            }
            k += 1;
        }
        out[m] = cells | locked << 32;
        m += 1;
    }
    out
}

/// Columns where a band may hold the digit (9 bits) → in the low 32 bits, the mask to keep in
/// the digit's two other bands (a box of the band with one column left claims that column); in
/// the high 32 bits, the minirows of those single-column boxes.
pub(super) static COL_INFO: [u64; 512] = build_col_info();

const fn build_col_info() -> [u64; 512] {
    let mut out = [0u64; 512];
    let mut c = 0;
    while c < 512 {
        let mut claimed = 0u32;
        let mut single_boxes = 0u32;
        let mut k = 0;
        while k < 3 {
            let t = (c >> (3 * k)) & 7;
            if t == 1 || t == 2 || t == 4 {
                claimed |= (t as u32) << (3 * k);
                single_boxes |= 0o111 << k;
            }
            k += 1;
        }
        let keep = BAND & !(claimed | claimed << 9 | claimed << 18);
        out[c] = keep as u64 | (single_boxes as u64) << 32;
        c += 1;
    }
    out
}

/// Minirow mask (9 bits) → the cells of the rows holding any of them. A locked minirow in a
/// single-column box is a row with one cell left: a placed digit.
pub(super) static ROWS_OF: [u32; 512] = build_rows_of();

const fn build_rows_of() -> [u32; 512] {
    let mut out = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut rows = 0u32;
        let mut r = 0;
        while r < 3 {
            if (m >> (3 * r)) & 7 != 0 {
                rows |= 0x1ff << (9 * r);
            }
            r += 1;
        }
        out[m] = rows;
        m += 1;
    }
    out
}

/// Columns of a band where the digit's column holds it in no other band (9 bits) → the band's
/// cells to keep: a box with such columns must take the digit in one of them.
pub(super) static COL_LOCK: [u32; 512] = build_col_lock();

const fn build_col_lock() -> [u32; 512] {
    let mut out = [BAND; 512];
    let mut c = 0;
    while c < 512 {
        let mut keep = BAND;
        let mut k = 0;
        while k < 3 {
            let t = ((c >> (3 * k)) & 7) as u32;
            if t != 0 {
                let box_cells = BOX0 << (3 * k);
                let cols = (t << (3 * k)) * COL0;
                keep &= !box_cells | cols;
            }
            k += 1;
        }
        out[c] = keep;
        c += 1;
    }
    out
}
