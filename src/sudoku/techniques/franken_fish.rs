//! Franken and Mutant fish (sizes 2 to 4, plain and finned): a fish whose base or cover houses
//! include boxes (Franken: rows and boxes against columns and boxes, or the transpose) or mix
//! rows and columns (Mutant). `n` base houses hold the digit in disjoint cells; `n` other cover
//! houses hold every one of those cells except a few fins. Each base house needs the digit
//! once, so `n` of the base cells are true, each in a different cover house (a cell seen by
//! two covers would be a candidate in both, but then two base truths would share a cover —
//! impossible, so the `n` truths fill the `n` covers). Unless a fin is true, the covers' other
//! cells lose the digit; with fins, only those that also see every fin.
//!
//! Plain rows/columns fish are left to the basic and finned fish. The base houses are
//! recorded as [`Role::Base`], the cover houses as [`Role::Cover`]; base candidates are marked
//! [`Role::Base`], fins [`Role::Fin`].

use super::super::grid::{Candidate, Grid};
use super::super::notation::{cell_words, house_words, join_words};
use super::super::step::{Role, Step, Technique};
use super::super::types::{Candidates, Cell, CellSet, Digit, House, HouseKind};
use super::{Flow, GO_ON, Instances};
use apart::{OpenHouses, apart_at_most};
use std::cell::{Cell as Flag, RefCell};
use std::collections::HashMap;

/// Most fins the cover search sets aside itself. Base cells that no cover holds when the last
/// cover is chosen are fins too, so a reported fish may show more (each elimination still sees
/// every fin).
const MAX_FINS: usize = 3;

/// The first fish of `technique` (Franken or Mutant, plain or finned) of each digit, size and
/// family of houses, reported to `out`: digits ascending, smallest first.
pub(crate) fn search(grid: &Grid, technique: Technique, out: &mut Instances) -> Flow {
    let (mutant, finned) = match technique {
        Technique::FrankenFish => (false, false),
        Technique::FinnedFrankenFish => (false, true),
        Technique::MutantFish => (true, false),
        Technique::FinnedMutantFish => (true, true),
        _ => return GO_ON,
    };
    for size in 2..=4 {
        for d in Digit::ALL {
            let search = Search::new(grid, d, size, mutant, finned);
            let digit_cells = grid.digit_cells(d);
            for (family, (base_kinds, cover_kinds)) in families(mutant).into_iter().enumerate() {
                let key = MemoKey {
                    technique,
                    size,
                    d,
                    family,
                    cells: digit_cells,
                };
                let found = memoized(key, || {
                    if finned {
                        return search.first(&base_kinds, &cover_kinds);
                    }
                    // The step solver asks for the finned fish right after finding no plain
                    // one: one walk of the finned search answers both (see [`Walk`]).
                    let [plain, with_fins] = search.first_both(&base_kinds, &cover_kinds);
                    let finned_key = MemoKey {
                        technique: finned_technique(technique),
                        ..key
                    };
                    remember(finned_key, with_fins);
                    plain
                });
                if let Some(step) = found {
                    out.add(step)?;
                }
            }
        }
    }
    GO_ON
}

/// What one search of a digit, size and family depends on: the fish of a digit is a function
/// of where that digit is still a candidate, and nothing else of the grid.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct MemoKey {
    technique: Technique,
    size: usize,
    d: Digit,
    family: usize,
    cells: CellSet,
}

/// Most searches remembered per thread before the memo starts afresh.
const MEMO_CAP: usize = 4096;

thread_local! {
    /// This thread's remembered searches (see [`memoized`]).
    static MEMO: RefCell<HashMap<MemoKey, Option<Step>>> = RefCell::new(HashMap::new());
}

/// The result of `search` for `key`, computed once per thread: the step solver asks the same
/// question at every step, and a step leaves most digits' candidates as they were, so most
/// answers are the last step's.
fn memoized(key: MemoKey, search: impl FnOnce() -> Option<Step>) -> Option<Step> {
    if let Some(found) = MEMO.with(|m| m.borrow().get(&key).cloned()) {
        return found;
    }
    let found = search();
    remember(key, found.clone());
    found
}

/// Records `found` as the answer for `key` in this thread's memo.
fn remember(key: MemoKey, found: Option<Step>) {
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MEMO_CAP {
            m.clear();
        }
        m.insert(key, found);
    });
}

/// The finned form of a plain fish technique.
fn finned_technique(plain: Technique) -> Technique {
    match plain {
        Technique::MutantFish => Technique::FinnedMutantFish,
        _ => Technique::FinnedFrankenFish,
    }
}

/// The first instance, for the tests.
#[cfg(test)]
fn find(grid: &Grid, technique: Technique) -> Option<Step> {
    super::first(|out| search(grid, technique, out))
}

/// The (base kinds, cover kinds) families searched.
fn families(mutant: bool) -> Vec<([bool; 3], [bool; 3])> {
    // [rows, columns, boxes]
    if mutant {
        vec![([true, true, true], [true, true, true])]
    } else {
        vec![
            ([true, false, true], [false, true, true]),
            ([false, true, true], [true, false, true]),
        ]
    }
}

fn kind_index(h: House) -> usize {
    match h.kind() {
        HouseKind::Row => 0,
        HouseKind::Col => 1,
        HouseKind::Box => 2,
    }
}

struct Search<'g> {
    grid: &'g Grid,
    d: Digit,
    size: usize,
    finned: bool,
    mutant: bool,
    /// Per house index, the cells of the digit.
    cells: [CellSet; 27],
    /// What a walk for both kinds still looks for ([`Search::first_both`]); unused otherwise.
    walk: Walk,
}

/// One walk of the finned search that finds the first plain fish and the first finned fish
/// at once. The finned search's tree holds every node of the plain one (the fin branches come
/// after the covers at each node, and its narrowing of targets keeps every cell a plain fish
/// below could eliminate — a plain fish is one whose fins are none), so the plain fish it
/// meets first is the one the plain search finds first. Once the finned fish is found, the
/// walk goes on as the plain search (no fin branches, the plain narrowing).
#[derive(Default)]
struct Walk {
    /// Whether this search is such a walk.
    on: Flag<bool>,
    /// Still looked for: the plain fish, the finned fish.
    pending: Flag<[bool; 2]>,
    /// Found so far: the plain fish, the finned fish.
    found: RefCell<[Option<Step>; 2]>,
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
    fn new(grid: &'g Grid, d: Digit, size: usize, mutant: bool, finned: bool) -> Self {
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

    /// The first fish of this search's kind for the family (`base_kinds`, `cover_kinds`).
    fn first(&self, base_kinds: &[bool; 3], cover_kinds: &[bool; 3]) -> Option<Step> {
        let mut base = Vec::with_capacity(self.size);
        let all = self.grid.digit_cells(self.d);
        self.bases(base_kinds, cover_kinds, 0, &mut base, CellSet::EMPTY, all)
    }

    /// The first plain fish and the first finned fish of the family, in one walk (see
    /// [`Walk`]; the search's own `finned` is not read).
    fn first_both(&self, base_kinds: &[bool; 3], cover_kinds: &[bool; 3]) -> [Option<Step>; 2] {
        self.walk.on.set(true);
        self.walk.pending.set([true, true]);
        *self.walk.found.borrow_mut() = [None, None];
        let _ = self.first(base_kinds, cover_kinds);
        self.walk.on.set(false);
        std::mem::take(&mut *self.walk.found.borrow_mut())
    }

    /// Whether fins are looked for: the search's kind, or in a walk, while the finned fish
    /// is still to be found.
    fn finned(&self) -> bool {
        if self.walk.on.get() {
            self.walk.pending.get()[1]
        } else {
            self.finned
        }
    }

    /// Chooses base houses (ascending, disjoint cells) from index `from`; `targets` as in
    /// [`Open::targets`].
    fn bases(
        &self,
        base_kinds: &[bool; 3],
        cover_kinds: &[bool; 3],
        from: usize,
        base: &mut Vec<usize>,
        union: CellSet,
        targets: CellSet,
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
            let found = self.bases(base_kinds, cover_kinds, h + 1, base, all_base, targets);
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
        const ROWS_COLS: u8 = 0b011;
        const BOXES: u8 = 0b100;
        let missing = if self.mutant {
            if base_kinds & ROWS_COLS == ROWS_COLS {
                0
            } else {
                (ROWS_COLS & !cover_kinds).count_ones() as usize
            }
        } else {
            usize::from((base_kinds | cover_kinds) & BOXES == 0)
        };
        missing <= left
    }

    fn check(&self, base: &[usize], cover: &[usize], covered: CellSet) -> Option<Step> {
        // Everything that can reject the fish first, without allocating: this runs for every
        // choice of houses.
        let (bk, ck) = (kinds(base), kinds(cover));
        let mixed = (bk[0] && bk[1]) || (ck[0] && ck[1]);
        let boxes = bk[2] || ck[2];
        if self.mutant != mixed || (!mixed && !boxes) {
            return None;
        }
        // Base cells: every candidate of the base houses; fins: those off the covers.
        let all_base: CellSet = base.iter().fold(CellSet::EMPTY, |a, &h| a | self.cells[h]);
        let fins = all_base & !covered;
        let finned = !fins.is_empty();
        if self.walk.on.get() {
            if !self.walk.pending.get()[usize::from(finned)] {
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
        let technique = match (self.mutant, finned) {
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
        if self.walk.on.get() {
            // Recorded; the walk stops once it has both.
            let mut pending = self.walk.pending.get();
            pending[usize::from(finned)] = false;
            self.walk.pending.set(pending);
            self.walk.found.borrow_mut()[usize::from(finned)] = Some(step.clone());
            if pending.contains(&true) {
                return None;
            }
        }
        Some(step)
    }
}

/// Which kinds of house (rows, columns, boxes) the houses `ids` include.
fn kinds(ids: &[usize]) -> [bool; 3] {
    let bits = kind_bits(ids);
    [bits & 1 != 0, bits & 2 != 0, bits & 4 != 0]
}

/// The kinds of house among the houses `ids`: bit 0 rows, bit 1 columns, bit 2 boxes (house
/// indexes run rows, columns, boxes, nine each).
fn kind_bits(ids: &[usize]) -> u8 {
    ids.iter().fold(0, |k, &h| k | 1 << (h / 9))
}

/// The houses that cannot cover a fish on the bases `base` with covers of `cover_kinds`: the
/// bases themselves and the houses of the other kinds (bit `h` for house index `h`).
fn closed_houses(base: &[usize], cover_kinds: &[bool; 3]) -> u32 {
    let kinds = (0..3)
        .filter(|&k| !cover_kinds[k])
        .fold(0u32, |m, k| m | 0x1ff << (9 * k));
    base.iter().fold(kinds, |m, &h| m | 1 << h)
}

/// The fish's size name: X-Wing, Swordfish, Jellyfish.
fn size_name(n: usize) -> &'static str {
    match n {
        2 => "X-Wing",
        3 => "Swordfish",
        _ => "Jellyfish",
    }
}

/// `Finned Franken Swordfish: 4 r25b7 c138 fr8c2 => r9c3<>4`
pub(crate) fn text(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::plain_text(step);
    };
    let group = |role: Role| -> String {
        step.houses_with(role)
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join("")
    };
    let n = step.houses_with(Role::Base).count();
    let name = step.technique.name().replace("Fish", size_name(n));
    let fins: Vec<String> = step
        .marked(Role::Fin)
        .map(|c| format!("f{}", c.cell))
        .collect();
    let fins = if fins.is_empty() {
        String::new()
    } else {
        format!(" {}", fins.join(" "))
    };
    format!(
        "{name}: {d} {} {}{fins} => {}",
        group(Role::Base),
        group(Role::Cover),
        step.effect_text()
    )
}

/// "The 4 of row 2, row 5 and box 7 can only go in column 1, column 3 and column 8 (or the fin
/// r8c2), so those get their 4 from there; r9c3, seeing the fin, cannot be 4 either way."
pub(crate) fn sentence(step: &Step) -> String {
    let Some(d) = step.digits.first() else {
        return super::generic_sentence(step);
    };
    let words = |role| -> String {
        let hs: Vec<String> = step.houses_with(role).map(house_words).collect();
        join_words(&hs, "and")
    };
    let fins = step.marked_cells(Role::Fin);
    if fins.is_empty() {
        return format!(
            "The {d} of {} can only go in {}, one in each, so those get their {d} from there and \
             {}.",
            words(Role::Base),
            words(Role::Cover),
            super::effect_words(step)
        );
    }
    format!(
        "The {d} of {} would only go in {} but for the fin {}; whether or not a fin holds it, {}.",
        words(Role::Base),
        words(Role::Cover),
        cell_words(fins.iter()),
        super::effect_words(step)
    )
}

#[path = "franken_fish_apart.rs"]
mod apart;

#[cfg(test)]
#[path = "franken_fish_reference.rs"]
mod reference;

#[cfg(test)]
#[path = "franken_fish_tests.rs"]
mod tests;
