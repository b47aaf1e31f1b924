//! The exact solver's state and its search (a child module of `solver`, whose doc describes
//! the design): [`Board`], the candidates of every digit band by band, with the propagation
//! (band tables, naked singles, column locks) and the guessing search over copies of it. It
//! knows nothing of [`Grid`](crate::sudoku::grid::Grid): the entry points in `solver` turn
//! puzzles into a board and count what the search reports to [`Ctx`].

use super::Ctx;
use super::tables::{BAND, BAND_KEEP, COL_INFO, COL_LOCK, COL0, PERM_INFO, ROWS_OF, SHRINK};

/// Whether this CPU has every feature [`Board::search_fast`] is compiled for: the bit
/// instructions and AVX2 of x86-64-v3 (nearly every x86-64 CPU since 2013–2015). The standard
/// library caches the answer, so asking once per solve costs a few loads.
#[cfg(target_arch = "x86_64")]
fn fast_cpu() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("avx")
        && std::arch::is_x86_feature_detected!("avx2")
}

/// Lanes per band: one per digit. (Padding to sixteen for vector code was measured slower: the
/// state copied at every guess grows and the hot paths are scalar anyway.)
const LANES: usize = 9;

/// One band: the possible cells of every digit (lane = digit index).
type Lanes = [u32; LANES];

/// The whole solver state; copied for each guess.
#[derive(Clone, Copy)]
pub(super) struct Board {
    /// `cand[band][digit_index]`: the band's cells where the digit is still possible.
    cand: [Lanes; 3],
    /// Per band, the digits (lanes) changed since they were last propagated.
    dirty: [u32; 3],
    /// Cells of each band not yet known to hold a digit.
    unsolved: [u32; 3],
    /// Cells of each band with exactly two candidates (valid after `naked_singles`).
    pairs: [u32; 3],
}

impl Board {
    fn empty() -> Board {
        let mut cand = [0u32; LANES];
        for lane in cand.iter_mut().take(9) {
            *lane = BAND;
        }
        Board {
            cand: [cand; 3],
            // Every digit is propagated at least once.
            dirty: [0x1ff; 3],
            unsolved: [BAND; 3],
            pairs: [0; 3],
        }
    }

    pub(super) fn from_values(values: &[u8; 81]) -> Option<Board> {
        let mut b = Board::empty();
        for (cell, &v) in values.iter().enumerate() {
            if (1..=9).contains(&v) && !b.assign(cell, usize::from(v - 1)) {
                return None;
            }
        }
        Some(b)
    }

    pub(super) fn from_masks(masks: &[u16; 81]) -> Option<Board> {
        let mut b = Board::empty();
        b.cand = [[0; LANES]; 3];
        for (cell, &m) in masks.iter().enumerate() {
            let band = cell / 27;
            let bit = 1u32 << (cell % 27);
            for d in 0..9 {
                if m & (1 << d) != 0 {
                    b.cand[band][d] |= bit;
                }
            }
        }
        for (cell, &m) in masks.iter().enumerate() {
            let m = m & 0x1ff;
            if m == 0 {
                return None;
            }
            if m.count_ones() == 1 && !b.assign(cell, m.trailing_zeros() as usize) {
                return None;
            }
        }
        Some(b)
    }

    /// Fixes digit index `d` in `cell` (0..81) and removes it from all peers in every band.
    /// False if the digit is no longer possible there.
    fn assign(&mut self, cell: usize, d: usize) -> bool {
        let band = cell / 27;
        let p = cell % 27;
        let bit = 1u32 << p;
        let d = d.min(LANES - 1);
        if self.cand[band][d] & bit == 0 {
            return false;
        }
        for lane in self.cand[band].iter_mut() {
            *lane &= !bit;
        }
        self.cand[band][d] = (self.cand[band][d] & BAND_KEEP[p & 31]) | bit;
        let col_keep = BAND & !(COL0 << (p % 9));
        for (other, lanes) in self.cand.iter_mut().enumerate() {
            if other != band {
                lanes[d] &= col_keep;
            }
        }
        self.unsolved[band] &= !bit;
        true
    }

    /// Places digit index `d` at position `p` of `band` during the search: clears the digit's
    /// row and box peers in the band; propagation does the rest.
    #[inline(always)]
    fn place(&mut self, band: usize, d: usize, p: u32) {
        let d = d.min(LANES - 1);
        self.cand[band][d] &= BAND_KEEP[(p & 31) as usize];
        self.dirty[band] |= 1 << d;
    }

    /// The lanes of `band` holding `bit`, as a bit mask.
    #[inline(always)]
    fn digits_at(&self, band: usize, bit: u32) -> u32 {
        let cand = &self.cand[band];
        let mut mask = 0u32;
        for (i, &lane) in cand.iter().enumerate() {
            mask |= u32::from(lane & bit != 0) << i;
        }
        mask
    }

    /// Propagates digit index `d` in band `B` (see the module doc of `solver`). False on
    /// contradiction.
    #[inline(always)]
    fn update<const B: usize>(&mut self, d: usize) -> bool {
        let d = d.min(LANES - 1);
        let x = self.cand[B][d];
        let minirows = (SHRINK[(x & 0x1ff) as usize]
            | SHRINK[((x >> 9) & 0x1ff) as usize] << 3
            | SHRINK[((x >> 18) & 0x1ff) as usize] << 6)
            & 0x1ff;
        let perm = PERM_INFO[minirows as usize];
        let y = x & perm as u32;
        if y == 0 {
            return false;
        }
        self.cand[B][d] = y;
        let cols = (y | y >> 9 | y >> 18) & 0x1ff;
        let col_info = COL_INFO[cols as usize];
        let keep = col_info as u32;
        self.restrict((B + 1) % 3, d, keep);
        self.restrict((B + 2) % 3, d, keep);
        let solved_minirows = ((perm & col_info) >> 32) as u32 & 0x1ff;
        let solved = y & ROWS_OF[solved_minirows as usize];
        // Cells solved before were already cleared from the other digits.
        let new = solved & self.unsolved[B];
        if new != 0 {
            self.unsolved[B] ^= new;
            let mut changed = 0u32;
            for (i, lane) in self.cand[B].iter_mut().enumerate().take(9) {
                let old = *lane;
                *lane = old & !new;
                changed |= u32::from(*lane != old) << i;
            }
            self.cand[B][d] = y;
            self.dirty[B] |= changed & !(1u32 << d);
        }
        true
    }

    /// Keeps only `keep` of digit index `d` in `band`, marking the lane dirty if it shrank.
    #[inline(always)]
    fn restrict(&mut self, band: usize, d: usize, keep: u32) {
        let d = d.min(LANES - 1);
        let old = self.cand[band][d];
        let new = old & keep;
        self.cand[band][d] = new;
        self.dirty[band] |= u32::from(new != old) << d;
    }

    /// One sweep of band `B`: propagates the digits dirty now; those it dirties again wait for
    /// the next sweep. False on contradiction.
    #[inline(always)]
    fn sweep_band<const B: usize>(&mut self) -> bool {
        let mut dirty = self.dirty[B];
        self.dirty[B] = 0;
        while dirty != 0 {
            let d = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            if !self.update::<B>(d) {
                return false;
            }
        }
        true
    }

    /// Propagates band `B` until none of its digits changes. False on contradiction.
    #[inline(always)]
    fn settle_band<const B: usize>(&mut self) -> bool {
        loop {
            let dirty = self.dirty[B];
            if dirty == 0 {
                return true;
            }
            self.dirty[B] = dirty & (dirty - 1);
            if !self.update::<B>(dirty.trailing_zeros() as usize) {
                return false;
            }
        }
    }

    /// Propagates the givens until nothing changes, settling each band before the next. False
    /// on contradiction.
    ///
    /// At the root every digit is dirty, and there settling takes about 12 % fewer updates than
    /// sweeps (17-clue puzzles, mostly solved here, are 3 % faster); after a guess only a few
    /// digits are, and sweeps win.
    fn settle(&mut self) -> bool {
        loop {
            if !(self.settle_band::<0>() && self.settle_band::<1>() && self.settle_band::<2>()) {
                return false;
            }
            // Band 2 is settled; bands 0 and 1 may have been touched by its column claims.
            if self.dirty[0] | self.dirty[1] == 0 {
                return true;
            }
        }
    }

    /// Propagates until nothing changes. False on contradiction.
    #[inline(always)]
    fn propagate(&mut self) -> bool {
        loop {
            if !(self.sweep_band::<0>() && self.sweep_band::<1>() && self.sweep_band::<2>()) {
                return false;
            }
            if self.dirty[0] | self.dirty[1] | self.dirty[2] == 0 {
                return true;
            }
        }
    }

    /// Places naked singles and records bivalue cells. `None` on an empty cell, otherwise
    /// whether anything was placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Option<bool> {
        let mut placed = false;
        for band in 0..3 {
            let mut c1 = 0u32;
            let mut c2 = 0u32;
            let mut c3 = 0u32;
            for &x in &self.cand[band][..9] {
                c3 |= c2 & x;
                c2 |= c1 & x;
                c1 |= x;
            }
            if c1 != BAND {
                return None;
            }
            self.pairs[band] = c2 & !c3;
            let mut singles = c1 & !c2 & self.unsolved[band];
            while singles != 0 {
                let p = singles.trailing_zeros();
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                let digits = self.digits_at(band, bit);
                if digits == 0 {
                    // An earlier single in this band took the cell's last digit.
                    return None;
                }
                self.place(band, digits.trailing_zeros() as usize, p);
                placed = true;
            }
        }
        Some(placed)
    }

    /// Applies column locks (see the module doc of `solver`), marking the lanes that shrank
    /// dirty. `None` when a column has lost a digit entirely, otherwise whether anything shrank.
    #[inline(always)]
    fn column_locks(&mut self) -> Option<bool> {
        // Per band and digit, the columns where the band may still hold the digit. Written
        // branch-free over all lanes: a branchy per-digit version cost twice as much.
        let mut cols = [[0u32; LANES]; 3];
        for (band, lanes) in self.cand.iter().enumerate() {
            for (c, &x) in cols[band].iter_mut().zip(lanes) {
                *c = (x | x >> 9 | x >> 18) & 0x1ff;
            }
        }
        let mut missing = 0u32;
        for ((&c0, &c1), &c2) in cols[0].iter().zip(&cols[1]).zip(&cols[2]) {
            missing |= (c0 | c1 | c2) ^ 0x1ff;
        }
        if missing != 0 {
            return None;
        }
        let mut changed = 0u32;
        for band in 0..3 {
            let (o1, o2) = (&cols[(band + 1) % 3], &cols[(band + 2) % 3]);
            let mut dirty = 0u32;
            for d in 0..LANES {
                let only = cols[band][d] & !(o1[d] | o2[d]);
                let old = self.cand[band][d];
                let new = old & COL_LOCK[(only & 0x1ff) as usize];
                self.cand[band][d] = new;
                dirty |= u32::from(new != old) << d;
            }
            self.dirty[band] |= dirty;
            changed |= dirty;
        }
        Some(changed != 0)
    }

    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    fn extract(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (band, lanes) in self.cand.iter().enumerate() {
            for (d, &lane) in lanes.iter().enumerate().take(9) {
                let mut x = lane;
                while x != 0 {
                    let p = x.trailing_zeros() as usize;
                    x &= x - 1;
                    if let Some(v) = out.get_mut(band * 27 + p) {
                        *v = d as u8 + 1;
                    }
                }
            }
        }
        out
    }

    /// Settles the givens, then propagates and guesses recursively, reporting solutions to
    /// `ctx`: with the code compiled for the CPU's bit-counting instructions when it has them
    /// (see [`fast_cpu`]).
    pub(super) fn search(&mut self, ctx: &mut Ctx) {
        if !self.settle() {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if fast_cpu() {
            self.descend::<true>(ctx);
            return;
        }
        self.search_plain(ctx);
    }

    /// The search for any x86-64 (or other) CPU.
    #[inline(never)]
    pub(super) fn search_plain(&mut self, ctx: &mut Ctx) {
        self.search_body::<false>(ctx);
    }

    /// The search compiled for the features [`fast_cpu`] checks: `count_ones` becomes one
    /// `popcnt`, `trailing_zeros` one `tzcnt`, and/not pairs one `andn`, and the nine-lane loops
    /// use AVX2 (about 5–10 % faster overall, measured against the plain build).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx,avx2")]
    fn search_fast(&mut self, ctx: &mut Ctx) {
        self.search_body::<true>(ctx);
    }

    /// Recurses into the same flavour of search as the caller.
    #[inline(always)]
    fn descend<const FAST: bool>(&mut self, ctx: &mut Ctx) {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            #[allow(unsafe_code)]
            // SAFETY: FAST is only true where `fast_cpu` has checked that the CPU has every
            // feature `search_fast` is compiled for (in `search`, and below `search_fast`).
            unsafe {
                self.search_fast(ctx);
            }
            return;
        }
        self.search_plain(ctx);
    }

    #[inline(always)]
    fn search_body<const FAST: bool>(&mut self, ctx: &mut Ctx) {
        loop {
            if !self.propagate() {
                return;
            }
            if self.is_solved() {
                ctx.count += 1;
                if ctx.want_first && ctx.first.is_none() {
                    ctx.first = Some(self.extract());
                }
                return;
            }
            match self.naked_singles() {
                None => return,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.column_locks() {
                None => return,
                Some(true) => continue,
                Some(false) => break,
            }
        }
        self.guess::<FAST>(ctx);
    }

    #[inline(always)]
    fn guess<const FAST: bool>(&mut self, ctx: &mut Ctx) {
        // The cell to branch on: the bivalue cell whose digits are candidates in the most
        // unsolved peers (a cheap stand-in for "the guess that propagates furthest"; it cuts
        // the search tree by about a third on hard puzzles against taking the first bivalue
        // cell), else the first unsolved cell with three candidates, else the first unsolved
        // cell.
        let mut choice = None;
        let mut best = 0;
        for band in 0..3 {
            let pairs = self.pairs[band];
            let mut rest = pairs;
            while rest != 0 {
                let p = rest.trailing_zeros();
                rest &= rest - 1;
                // The candidates its two digits would remove from unsolved peers, bivalue peers
                // (which that turns into singles) counting three times.
                let col = COL0 << (p % 9);
                let digits = self.digits_at(band, 1 << p);
                let d1 = (digits.trailing_zeros() as usize).min(8);
                let d2 = ((digits & digits.wrapping_sub(1)).trailing_zeros() as usize).min(8);
                let (nb, ab) = ((band + 1) % 3, (band + 2) % 3);
                let near = (self.cand[band][d1] | self.cand[band][d2])
                    & !BAND_KEEP[(p & 31) as usize]
                    & self.unsolved[band];
                let next = (self.cand[nb][d1] | self.cand[nb][d2]) & col & self.unsolved[nb];
                let after = (self.cand[ab][d1] | self.cand[ab][d2]) & col & self.unsolved[ab];
                let peers = near.count_ones() + next.count_ones() + after.count_ones();
                let pair_peers = (near & pairs).count_ones()
                    + (next & self.pairs[nb]).count_ones()
                    + (after & self.pairs[ab]).count_ones();
                let score = peers + 2 * pair_peers + 1;
                if score > best {
                    best = score;
                    choice = Some((band, 1u32 << p));
                }
            }
        }
        if choice.is_none() {
            for band in 0..3 {
                let (mut c1, mut c2, mut c3, mut c4) = (0u32, 0u32, 0u32, 0u32);
                for &x in &self.cand[band][..9] {
                    c4 |= c3 & x;
                    c3 |= c2 & x;
                    c2 |= c1 & x;
                    c1 |= x;
                }
                let three = c3 & !c4 & self.unsolved[band];
                if three != 0 {
                    choice = Some((band, three));
                    break;
                }
                if choice.is_none() && self.unsolved[band] != 0 {
                    choice = Some((band, self.unsolved[band]));
                }
            }
        }
        let Some((band, cells)) = choice else {
            return;
        };
        let p = cells.trailing_zeros();
        let bit = cells & cells.wrapping_neg();
        let mut digits = self.digits_at(band, bit);
        // Every digit but the last on a copy; the last one in place.
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                self.place(band, d, p);
                self.descend::<FAST>(ctx);
                return;
            }
            let mut copy = *self;
            copy.place(band, d, p);
            copy.descend::<FAST>(ctx);
            if ctx.count >= ctx.limit {
                return;
            }
        }
    }
}
