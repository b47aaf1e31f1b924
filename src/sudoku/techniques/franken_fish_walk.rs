//! The search over base and cover sets of the Franken/Mutant fish (a child module of
//! `franken_fish`): [`Search`] chooses base houses with disjoint cells, then covers through the
//! lowest uncovered base cell or that cell as a fin, pruned by how many covers the cells still
//! apart need (`apart`) and by which cells can still lose the digit; [`Walk`] lets one such
//! search answer every technique and family at once. It builds the fish's [`Step`]; which
//! digits, sizes and families are asked, the memo and the texts are `franken_fish`'s.

use super::super::super::grid::{Candidate, Grid};
use super::super::super::step::{Role, Step, Technique};
use super::super::super::types::{Candidates, Cell, CellSet, Digit, House};
use super::apart::{OpenHouses, apart_at_most, closed_houses, kind_bits};
use super::{MAX_FINS, kind_index};
use std::cell::{Cell as Flag, RefCell};

pub(super) struct Search<'g> {
    grid: &'g Grid,
    d: Digit,
    pub(super) size: usize,
    finned: bool,
    mutant: bool,
    /// Per house index, the cells of the digit.
    pub(super) cells: [CellSet; 27],
    /// What a walk for all kinds still looks for ([`Search::first_all`]); unused otherwise.
    walk: Walk,
}

/// The six answers one walk gives ([`Search::first_all`]): technique and family, in the
/// order of [`Walk::found`] (category `2 × kind + finned`; kind 0 and 1 the two Franken
/// families of [`families`], kind 2 Mutant).
///
/// [`families`]: super::families
pub(super) const CATEGORIES: [(Technique, usize); 6] = [
    (Technique::FrankenFish, 0),
    (Technique::FinnedFrankenFish, 0),
    (Technique::FrankenFish, 1),
    (Technique::FinnedFrankenFish, 1),
    (Technique::MutantFish, 0),
    (Technique::FinnedMutantFish, 0),
];

/// The kinds of house (bit 0 rows, 1 columns, 2 boxes) the bases and the covers of each kind
/// of category may use: Franken rows and boxes against columns and boxes, its transpose, and
/// Mutant anything.
const CATEGORY_KINDS: [(u8, u8); 3] = [(0b101, 0b110), (0b110, 0b101), (0b111, 0b111)];

/// One walk of the finned Mutant search (every kind of house for bases and covers) that
/// finds, at once, the first plain and the first finned fish of both Franken families and of
/// Mutant fish. Each of those searches walks a tree whose nodes all lie in this one, in the
/// same order: base sets ascending (a family's sets are a subsequence), at each node the
/// covers through the lowest uncovered cell in row, column, box order (a family skips some),
/// the fin branch last; and every pruning of this walk is sound for each of them (its
/// narrowing of targets treats only the bases as closed houses, and a greedy count of cells
/// pairwise apart through more open houses still proves that many covers are needed; a plain
/// fish is one whose fins are none). So the first fish of each kind it meets is the one that
/// search finds first. As answers come in, the walk drops what only the answered ones need:
/// fin branches once no finned answer is pending, subtrees no pending kind can reach.
#[derive(Default)]
struct Walk {
    /// Whether this search is such a walk.
    on: Flag<bool>,
    /// Still looked for, per category.
    pending: Flag<[bool; 6]>,
    /// Found so far, per category.
    found: RefCell<[Option<Step>; 6]>,
}

/// Where a search for covers stands.
#[derive(Clone, Copy)]
struct Open {
    /// Every base cell.
    all_base: CellSet,
    /// The base cells still to cover: all but those set aside as fins.
    union: CellSet,
    /// The cells of the covers chosen.
    covered: CellSet,
    /// The cells set aside as fins.
    fins: CellSet,
    /// Cells that may still be eliminated: no choice below this point can eliminate
    /// elsewhere (see [`Search::targets_left`]).
    targets: CellSet,
    /// Whether `targets` is already narrowed for these covered cells and covers left: so at
    /// the root (by `bases`) and after a fin is set aside.
    narrowed: bool,
    /// The kinds of house among the bases and among the covers chosen ([`kind_bits`]).
    base_kinds: u8,
    cover_kinds: u8,
    /// The houses that cannot be covers: the bases and the kinds the family leaves out (bit
    /// `h` for house index `h`).
    closed: u32,
}

impl<'g> Search<'g> {
    pub(super) fn new(grid: &'g Grid, d: Digit, size: usize, mutant: bool, finned: bool) -> Self {
        Search {
            grid,
            d,
            size,
            finned,
            mutant,
            cells: std::array::from_fn(|h| grid.house_digit_cells(House::from_index(h), d)),
            walk: Walk::default(),
        }
    }

    /// The first fish of this search's kind for the family (`base_kinds`, `cover_kinds`),
    /// by its own walk (the tests compare [`Search::first_all`] with it).
    #[cfg(test)]
    pub(super) fn first(&self, base_kinds: &[bool; 3], cover_kinds: &[bool; 3]) -> Option<Step> {
        let mut base = Vec::with_capacity(self.size);
        let all = self.grid.digit_cells(self.d);
        self.bases(
            base_kinds,
            cover_kinds,
            0,
            &mut base,
            CellSet::EMPTY,
            all,
            None,
        )
    }

    /// The first fish of each category of [`CATEGORIES`], in one walk (see [`Walk`]; the
    /// search's own `finned` and `mutant` are not read). With `touched` (bit `h` for house
    /// index `h`), only base sets that hold one of those houses are walked: the caller knows
    /// every fish has one (see [`touched_since_fish_free`]).
    ///
    /// [`touched_since_fish_free`]: super::memo::touched_since_fish_free
    pub(super) fn first_all(&self, touched: Option<u32>) -> [Option<Step>; 6] {
        self.walk.on.set(true);
        self.walk.pending.set([true; 6]);
        *self.walk.found.borrow_mut() = Default::default();
        let mut base = Vec::with_capacity(self.size);
        let all = self.grid.digit_cells(self.d);
        let every = [true; 3];
        let _ = self.bases(&every, &every, 0, &mut base, CellSet::EMPTY, all, touched);
        self.walk.on.set(false);
        std::mem::take(&mut *self.walk.found.borrow_mut())
    }

    /// Whether fins are looked for: the search's kind, or in a walk, while a finned answer
    /// is still pending.
    fn finned(&self) -> bool {
        if self.walk.on.get() {
            let p = self.walk.pending.get();
            p[1] || p[3] || p[5]
        } else {
            self.finned
        }
    }

    /// Chooses base houses (ascending, disjoint cells) from index `from`; `targets` as in
    /// [`Open::targets`]; with `need`, the base set must still take one of those houses.
    #[allow(clippy::too_many_arguments)]
    fn bases(
        &self,
        base_kinds: &[bool; 3],
        cover_kinds: &[bool; 3],
        from: usize,
        base: &mut Vec<usize>,
        union: CellSet,
        targets: CellSet,
        need: Option<u32>,
    ) -> Option<Step> {
        if base.len() == self.size {
            let mut cover = Vec::with_capacity(self.size);
            let open = Open {
                all_base: union,
                union,
                covered: CellSet::EMPTY,
                fins: CellSet::EMPTY,
                targets,
                narrowed: true,
                base_kinds: kind_bits(base),
                cover_kinds: 0,
                closed: closed_houses(base, cover_kinds),
            };
            return self.covers(base, cover_kinds, &mut cover, open);
        }
        for h in from..27 {
            let cells = self.cells[h];
            if cells.len() < 2
                || !base_kinds[kind_index(House::from_index(h))]
                || !(cells & union).is_empty()
            {
                continue;
            }
            // A base set that cannot take a needed house any more is skipped before its
            // targets are narrowed.
            let need = need.filter(|&m| m >> h & 1 == 0);
            if need.is_some_and(|m| base.len() + 1 == self.size || m >> (h + 1) == 0) {
                continue;
            }
            let all_base = union | cells;
            // The houses closed once `h` is a base too.
            let closed = closed_houses(base, cover_kinds) | 1 << h;
            let targets = self.targets_left(
                all_base,
                all_base,
                CellSet::EMPTY,
                self.size,
                targets,
                closed,
            );
            if targets.is_empty() {
                continue;
            }
            base.push(h);
            let found = self.bases(
                base_kinds,
                cover_kinds,
                h + 1,
                base,
                all_base,
                targets,
                need,
            );
            base.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Chooses cover houses so that the lowest uncovered base cell is covered next, or left
    /// as a fin.
    fn covers(
        &self,
        base: &[usize],
        cover_kinds: &[bool; 3],
        cover: &mut Vec<usize>,
        open: Open,
    ) -> Option<Step> {
        if cover.len() == self.size {
            return self.check(base, cover, open.covered);
        }
        let left = self.size - cover.len();
        if !self.kinds_reachable(open.base_kinds, open.cover_kinds, left) {
            return None;
        }
        let targets = if open.narrowed {
            open.targets
        } else {
            self.targets_left(
                open.all_base & !open.covered,
                open.all_base,
                open.covered,
                left,
                open.targets,
                open.closed,
            )
        };
        if targets.is_empty() {
            return None;
        }
        let open = Open {
            targets,
            narrowed: false,
            ..open
        };
        let Some(first) = (open.union & !open.covered).first() else {
            return None; // everything covered with covers to spare: a smaller fish
        };
        for h in first.houses() {
            let hi = h.index();
            if !cover_kinds[kind_index(h)] || base.contains(&hi) || cover.contains(&hi) {
                continue;
            }
            cover.push(hi);
            let open = Open {
                covered: open.covered | self.cells[hi],
                cover_kinds: open.cover_kinds | 1 << (hi / 9),
                ..open
            };
            let found = self.covers(base, cover_kinds, cover, open);
            cover.pop();
            if found.is_some() {
                return found;
            }
        }
        // The lowest uncovered cell as a fin, as long as the fins still see a candidate they
        // could remove (outside the base cells).
        if self.finned() && open.fins.len() < MAX_FINS {
            let without = CellSet::single(first);
            let fins = open.fins | without;
            let union = open.union & !without;
            if (fins.common_peers() & self.grid.digit_cells(self.d) & !union).is_empty() {
                return None;
            }
            let open = Open {
                union,
                fins,
                narrowed: true,
                ..open
            };
            return self.covers(base, cover_kinds, cover, open);
        }
        None
    }

    /// Of `targets`, the cells that a fish may still eliminate once the base cells `uncovered`
    /// (not covered yet) end covered by `covers` more houses, up to the fins a finned fish
    /// allows; `all_base` is every base cell so far, `covered` the cells of the covers
    /// chosen, `closed` the houses that cannot be covers (bases and the kinds the family
    /// leaves out; bases still to come only close more). Only a cell left out is one no
    /// choice can eliminate at, so a search may drop it, and skip a choice where none is
    /// left, without changing what it finds. A fish eliminates only at candidates off its
    /// base cells; cells pairwise sharing no house outside `closed` need one cover each, and
    /// base cells left uncovered are fins. A finned fish eliminates only
    /// at a covered cell that sees every fin: so it must see all of `uncovered` but what the
    /// covers can still take — one cover fewer when it is not covered yet, as a cover through
    /// it holds only cells it sees.
    fn targets_left(
        &self,
        uncovered: CellSet,
        all_base: CellSet,
        covered: CellSet,
        covers: usize,
        targets: CellSet,
        closed: u32,
    ) -> CellSet {
        let targets = targets & !all_base;
        let open = OpenHouses::outside(closed);
        if !self.finned() {
            return if apart_at_most(uncovered, covers, &open) {
                targets
            } else {
                CellSet::EMPTY
            };
        }
        // Four fins pairwise apart have no common peer (a peer sees each through a different
        // one of its three houses): the quick test before the one per target.
        if !apart_at_most(uncovered, covers + 3, &OpenHouses::ALL) {
            return CellSet::EMPTY;
        }
        // Covered targets may leave `covers` cells apart unseen, the others one fewer; plain
        // bit loops, as this runs at every step of the search.
        let mut kept = 0u128;
        for (group, left) in [
            (targets & covered, Some(covers)),
            (targets & !covered, covers.checked_sub(1)),
        ] {
            let Some(left) = left else { continue };
            // Neighbouring targets often leave the same cells unseen: the last answer is kept.
            let mut last = (u128::MAX, false);
            let mut bits = group.bits();
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let unseen = uncovered & !Cell::from_index(i).peers();
                if unseen.bits() != last.0 {
                    last = (unseen.bits(), apart_at_most(unseen, left, &open));
                }
                if last.1 {
                    kept |= 1 << i;
                }
            }
        }
        CellSet::from_bits(kept)
    }

    /// Whether `left` more covers can still give the houses this fish needs: a Mutant fish
    /// rows and columns together among its bases or its covers, a Franken fish a box (its
    /// families never mix rows and columns).
    fn kinds_reachable(&self, base_kinds: u8, cover_kinds: u8, left: usize) -> bool {
        if self.walk.on.get() {
            // A walk goes on while some pending category can still be reached.
            let pending = self.walk.pending.get();
            return (0..3).any(|kind| {
                let (bases_may, covers_may) = CATEGORY_KINDS[kind];
                (pending[2 * kind] || pending[2 * kind + 1])
                    && base_kinds & !bases_may == 0
                    && cover_kinds & !covers_may == 0
                    && kinds_missing(kind == 2, base_kinds, cover_kinds) <= left
            });
        }
        kinds_missing(self.mutant, base_kinds, cover_kinds) <= left
    }

    pub(super) fn check(&self, base: &[usize], cover: &[usize], covered: CellSet) -> Option<Step> {
        // Everything that can reject the fish first, without allocating: this runs for every
        // choice of houses.
        let (bk, ck) = (kind_bits(base), kind_bits(cover));
        let mixed = bk & 0b011 == 0b011 || ck & 0b011 == 0b011;
        let boxes = (bk | ck) & 0b100 != 0;
        if !mixed && !boxes {
            return None;
        }
        let walk = self.walk.on.get();
        if !walk && self.mutant != mixed {
            return None;
        }
        // Base cells: every candidate of the base houses; fins: those off the covers.
        let all_base: CellSet = base.iter().fold(CellSet::EMPTY, |a, &h| a | self.cells[h]);
        let fins = all_base & !covered;
        let finned = !fins.is_empty();
        // In a walk, the pending categories this fish answers.
        let mut answers = [false; 6];
        if walk {
            let pending = self.walk.pending.get();
            for kind in 0..3 {
                let (bases_may, covers_may) = CATEGORY_KINDS[kind];
                answers[2 * kind + usize::from(finned)] = pending[2 * kind + usize::from(finned)]
                    && (kind == 2) == mixed
                    && bk & !bases_may == 0
                    && ck & !covers_may == 0;
            }
            if !answers.contains(&true) {
                return None;
            }
        } else if finned != self.finned {
            return None;
        }
        let mut targets = covered & !all_base & self.grid.digit_cells(self.d);
        if !fins.is_empty() {
            targets &= fins.common_peers();
        }
        if targets.is_empty() {
            return None;
        }
        let houses = |ids: &[usize]| {
            ids.iter()
                .map(|&h| House::from_index(h))
                .collect::<Vec<_>>()
        };
        let (bh, ch) = (houses(base), houses(cover));
        let technique = match (mixed, finned) {
            (false, false) => Technique::FrankenFish,
            (false, true) => Technique::FinnedFrankenFish,
            (true, false) => Technique::MutantFish,
            (true, true) => Technique::FinnedMutantFish,
        };
        let mut step = Step::new(technique);
        step.digits = Candidates::single(self.d);
        for h in bh {
            step.houses.push((h, Role::Base));
        }
        for h in ch {
            step.houses.push((h, Role::Cover));
        }
        for c in (all_base & covered).iter() {
            step.mark(c, self.d, Role::Base);
        }
        for c in fins.iter() {
            step.mark(c, self.d, Role::Fin);
        }
        for c in targets.iter() {
            step.eliminations.push(Candidate::new(c, self.d));
        }
        if walk {
            // Recorded; the walk stops once it has every answer.
            let mut pending = self.walk.pending.get();
            let mut found = self.walk.found.borrow_mut();
            for (category, _) in answers.iter().enumerate().filter(|(_, a)| **a) {
                pending[category] = false;
                found[category] = Some(step.clone());
            }
            self.walk.pending.set(pending);
            if pending.contains(&true) {
                return None;
            }
        }
        Some(step)
    }
}

/// How many more covers a fish needs for its kinds: a Mutant fish (`mutant`) rows and
/// columns together among its bases or its covers, a Franken fish a box (its families never mix
/// rows and columns).
fn kinds_missing(mutant: bool, base_kinds: u8, cover_kinds: u8) -> usize {
    const ROWS_COLS: u8 = 0b011;
    const BOXES: u8 = 0b100;
    if mutant {
        if base_kinds & ROWS_COLS == ROWS_COLS {
            0
        } else {
            (ROWS_COLS & !cover_kinds).count_ones() as usize
        }
    } else {
        usize::from((base_kinds | cover_kinds) & BOXES == 0)
    }
}
