//! What follows from one assumption: the propagation engine behind the forcing chains and nets.
//!
//! A *literal* is a candidate assumed true ("r1c2=5") or false ("r1c2<>5"). From a premise the
//! [`Propagator`] derives literals breadth first, each with the reason it holds:
//!
//! - a true candidate makes every other candidate of its cell and every peer with its digit
//!   false (a weak link);
//! - [`Mode::Net`]: a cell left with one candidate makes it true (naked single) and a digit left
//!   with one place in a house makes that place true (hidden single), each with all the false
//!   candidates that emptied the cell or house as reasons;
//! - [`Mode::NetPlus`]: as [`Mode::Net`], and when the singles run dry, the basic patterns of
//!   `net_patterns` (locked candidates, hidden and naked pairs, X-Wings) on the grid as the
//!   assumption has changed it remove further candidates, each with the removed candidates the
//!   pattern rests on as reasons;
//! - [`Mode::Chains`]: only the strong links of the grid as it is (a cell with two candidates,
//!   a digit with two places in a house) make a candidate true, so every inference has one
//!   reason and each consequence lies at the end of a chain;
//! - [`Mode::Digit`]: only one digit and its hidden singles (Sudoku Explainer's Nishio).
//!
//! Propagation stops at a contradiction: a candidate both true and false, a cell with no
//! candidate, or a digit with no place in a house. The reasons of a derived literal are
//! recovered afterwards from its recorded cause and the derivation order, and turned into
//! [`Link`]s: a strong link reads "from is false, so to is true", a weak one "from is true, so
//! to is false", a pattern's "from is false, so (with the pattern's other reasons) to is false".

use super::super::grid::{Candidate, Grid};
use super::super::step::{Branch, Link, LinkKind, Node, Outcome, Step};
use super::super::types::{Cell, Digit, HOUSE_SETS, House, PEERS};
use super::net_patterns::{self, Patterns, View};

/// A candidate with a truth value: `(cell * 9 + digit index) * 2 + (1 if true)`.
pub(crate) type Lit = u16;

/// The literal "`cell` is (`on`) or is not (`!on`) `digit`".
pub(crate) fn lit(cell: Cell, digit: Digit, on: bool) -> Lit {
    ((cell.index() * 9 + digit.index()) * 2 + usize::from(on)) as Lit
}

/// The candidate of a literal.
pub(crate) fn candidate(l: Lit) -> Candidate {
    let k = usize::from(l / 2);
    Candidate::new(Cell::from_index(k / 9), Digit::from_index(k % 9))
}

/// Whether the literal says "true".
pub(crate) fn is_on(l: Lit) -> bool {
    l % 2 == 1
}

/// A literal in the usual notation: `r1c2=5` or `r1c2<>5`.
pub(crate) fn lit_text(l: Lit) -> String {
    let c = candidate(l);
    format!("{}{}{}", c.cell, if is_on(l) { "=" } else { "<>" }, c.digit)
}

/// Which inferences the propagation may use (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// Single-reason inferences along the grid's strong links.
    Chains,
    /// One digit only, with its hidden singles.
    Digit(Digit),
    /// Naked and hidden singles on the grid as the assumption changes it.
    Net,
    /// [`Mode::Net`] plus locked candidates, hidden and naked pairs and X-Wings once the
    /// singles run dry.
    NetPlus,
}

/// Why a literal was derived.
#[derive(Clone, Copy, Debug)]
enum Cause {
    /// The assumption itself.
    Premise,
    /// One reason: a weak link from a true literal, or a strong link from a false one.
    From(Lit),
    /// The cell has no other candidate left.
    NakedSingle,
    /// The digit has no other place in the house (index).
    HiddenSingle(u8),
    /// A basic pattern removed the candidate (index into the run's [`Patterns`]).
    Pattern(u16),
}

/// Bits of the three houses of each cell (row, column, box indices into [`HOUSE_SETS`]).
fn cell_houses(c: usize) -> [usize; 3] {
    [c / 9, 9 + c % 9, 18 + (c / 27) * 3 + (c % 9) / 3]
}

/// Propagates assumptions over one grid; reusable across premises.
pub(crate) struct Propagator {
    mode: Mode,
    base_cands: [u16; 81],
    base_digit: [u128; 9],
    base_done: [u32; 9],
    cands: [u16; 81],
    digit: [u128; 9],
    placed: u128,
    done: [u32; 9],
    on: [u128; 9],
    off: [u128; 9],
    stamp: Vec<u16>,
    cause: Vec<Cause>,
    order: Vec<Lit>,
    /// The patterns [`Mode::NetPlus`] applied in the last run.
    patterns: Patterns,
    contradiction: Option<Outcome>,
    /// Scratch for [`Propagator::ancestor_count`]: the generation a literal was last seen in.
    seen: Vec<u32>,
    generation: u32,
    stack: Vec<Lit>,
}

impl Propagator {
    /// A propagator over `grid` with the inferences of `mode`.
    pub(crate) fn new(grid: &Grid, mode: Mode) -> Propagator {
        let mut base_cands = [0u16; 81];
        for c in Cell::all() {
            base_cands[c.index()] = grid.candidates(c).bits();
        }
        let mut base_digit = [0u128; 9];
        let mut base_done = [0u32; 9];
        for d in Digit::ALL {
            base_digit[d.index()] = grid.digit_cells(d).bits();
        }
        for c in Cell::all() {
            if let Some(d) = grid.value(c) {
                for h in cell_houses(c.index()) {
                    base_done[d.index()] |= 1 << h;
                }
            }
        }
        Propagator {
            mode,
            base_cands,
            base_digit,
            base_done,
            cands: base_cands,
            digit: base_digit,
            placed: 0,
            done: base_done,
            on: [0; 9],
            off: [0; 9],
            stamp: vec![0; 1458],
            cause: vec![Cause::Premise; 1458],
            order: Vec::with_capacity(512),
            patterns: Patterns::default(),
            contradiction: None,
            seen: vec![0; 1458],
            generation: 0,
            stack: Vec::with_capacity(256),
        }
    }

    /// Assumes `premise` and derives everything the mode allows, stopping at a contradiction.
    /// Returns the contradiction, if any.
    pub(crate) fn run(&mut self, premise: Lit) -> Option<Outcome> {
        self.cands = self.base_cands;
        self.digit = self.base_digit;
        self.done = self.base_done;
        self.placed = 0;
        self.on = [0; 9];
        self.off = [0; 9];
        self.order.clear();
        self.patterns.clear();
        self.contradiction = None;
        self.derive(premise, Cause::Premise);
        let mut head = 0;
        loop {
            while head < self.order.len() && self.contradiction.is_none() {
                let l = self.order[head];
                head += 1;
                let k = usize::from(l / 2);
                if is_on(l) {
                    self.apply_on(k / 9, k % 9, l);
                } else {
                    self.apply_off(k / 9, k % 9, l);
                }
            }
            if self.mode != Mode::NetPlus || self.contradiction.is_some() || !self.apply_patterns()
            {
                return self.contradiction;
            }
        }
    }

    /// [`Mode::NetPlus`], once the singles have run dry: derives what the first kind of basic
    /// pattern found removes. Returns whether anything new was derived.
    fn apply_patterns(&mut self) -> bool {
        let first = self.patterns.len();
        let view = View {
            base_cands: &self.base_cands,
            base_digit: &self.base_digit,
            cands: &self.cands,
            digit: &self.digit,
            done: &self.done,
            placed: self.placed,
        };
        if !net_patterns::find(&view, &mut self.patterns) {
            return false;
        }
        let before = self.order.len();
        let patterns = std::mem::take(&mut self.patterns);
        for i in first..patterns.len() {
            for &l in patterns.eliminations(i) {
                self.derive(l, Cause::Pattern(i as u16));
            }
        }
        self.patterns = patterns;
        self.order.len() > before || self.contradiction.is_some()
    }

    /// The literals derived by the last run, in order (the premise first).
    pub(crate) fn order(&self) -> &[Lit] {
        &self.order
    }

    /// Whether the last run derived `l`.
    #[cfg(test)]
    pub(crate) fn holds(&self, l: Lit) -> bool {
        let k = usize::from(l / 2);
        let set = if is_on(l) { &self.on } else { &self.off };
        set[k % 9] & (1u128 << (k / 9)) != 0
    }

    /// The true (`on`) or false literals derived by the last run, one cell set per digit.
    pub(crate) fn derived(&self, on: bool) -> [u128; 9] {
        if on { self.on } else { self.off }
    }

    /// When `l` was derived in the last run (its index in [`Propagator::order`]).
    pub(crate) fn stamp(&self, l: Lit) -> usize {
        usize::from(self.stamp[usize::from(l)])
    }

    fn derive(&mut self, l: Lit, cause: Cause) {
        if self.contradiction.is_some() {
            return;
        }
        let k = usize::from(l / 2);
        let (c, d) = (k / 9, k % 9);
        let bit = 1u128 << c;
        if is_on(l) {
            if self.on[d] & bit != 0 {
                return;
            }
            self.on[d] |= bit;
            if self.off[d] & bit != 0 {
                self.contradiction = Some(Outcome::Both(candidate(l)));
            }
        } else {
            if self.off[d] & bit != 0 || self.base_cands[c] & (1 << d) == 0 {
                return;
            }
            self.off[d] |= bit;
            if self.on[d] & bit != 0 {
                self.contradiction = Some(Outcome::Both(candidate(l)));
            }
        }
        self.stamp[usize::from(l)] = self.order.len() as u16;
        self.cause[usize::from(l)] = cause;
        self.order.push(l);
    }

    fn apply_on(&mut self, c: usize, d: usize, l: Lit) {
        self.placed |= 1u128 << c;
        for h in cell_houses(c) {
            self.done[d] |= 1 << h;
        }
        if !matches!(self.mode, Mode::Digit(_)) {
            let mut others = self.cands[c] & !(1 << d);
            while others != 0 {
                let e = others.trailing_zeros() as usize;
                others &= others - 1;
                self.derive(((c * 9 + e) * 2) as Lit, Cause::From(l));
            }
        }
        let mut peers = PEERS[c].bits() & self.digit[d];
        while peers != 0 {
            let p = peers.trailing_zeros() as usize;
            peers &= peers - 1;
            self.derive(((p * 9 + d) * 2) as Lit, Cause::From(l));
        }
    }

    fn apply_off(&mut self, c: usize, d: usize, l: Lit) {
        let bit = 1u128 << c;
        self.cands[c] &= !(1 << d);
        self.digit[d] &= !bit;
        let unplaced = self.placed & bit == 0;
        match self.mode {
            Mode::Net | Mode::NetPlus if unplaced => match self.cands[c].count_ones() {
                0 => {
                    self.contradiction = Some(Outcome::NoCandidate(Cell::from_index(c)));
                    return;
                }
                1 => {
                    let e = self.cands[c].trailing_zeros() as usize;
                    self.derive(((c * 9 + e) * 2 + 1) as Lit, Cause::NakedSingle);
                }
                _ => {}
            },
            Mode::Chains if unplaced && self.base_cands[c].count_ones() == 2 => {
                let e = (self.base_cands[c] & !(1 << d)).trailing_zeros() as usize;
                self.derive(((c * 9 + e) * 2 + 1) as Lit, Cause::From(l));
            }
            _ => {}
        }
        for h in cell_houses(c) {
            if self.done[d] & (1 << h) != 0 {
                continue;
            }
            let house = HOUSE_SETS[h].bits();
            if self.mode == Mode::Chains {
                let base = self.base_digit[d] & house;
                if base.count_ones() == 2 {
                    let o = (base & !bit).trailing_zeros() as usize;
                    self.derive(((o * 9 + d) * 2 + 1) as Lit, Cause::From(l));
                }
                continue;
            }
            let rest = self.digit[d] & house;
            match rest.count_ones() {
                0 => {
                    self.contradiction =
                        Some(Outcome::NoPlace(House::from_index(h), Digit::from_index(d)));
                    return;
                }
                1 => {
                    let o = rest.trailing_zeros() as usize;
                    self.derive(((o * 9 + d) * 2 + 1) as Lit, Cause::HiddenSingle(h as u8));
                }
                _ => {}
            }
        }
    }

    /// The reasons of derived literal `l` (literals derived before it).
    pub(crate) fn parents(&self, l: Lit) -> Vec<Lit> {
        let k = usize::from(l / 2);
        let (c, d) = (k / 9, k % 9);
        match self.cause[usize::from(l)] {
            Cause::Premise => Vec::new(),
            Cause::From(p) => vec![p],
            Cause::NakedSingle => (0..9)
                .filter(|&e| e != d && self.base_cands[c] & (1 << e) != 0)
                .map(|e| ((c * 9 + e) * 2) as Lit)
                .collect(),
            Cause::HiddenSingle(h) => {
                let cells = self.base_digit[d] & HOUSE_SETS[usize::from(h)].bits() & !(1 << c);
                bits(cells).map(|o| ((o * 9 + d) * 2) as Lit).collect()
            }
            Cause::Pattern(i) => self.patterns.parents(usize::from(i)).to_vec(),
        }
    }

    /// The literals that make `outcome` (a contradiction, or a literal the run derived).
    pub(crate) fn outcome_literals(&self, outcome: Outcome) -> Vec<Lit> {
        match outcome {
            Outcome::True(c) => vec![lit(c.cell, c.digit, true)],
            Outcome::False(c) => vec![lit(c.cell, c.digit, false)],
            Outcome::Both(c) => vec![lit(c.cell, c.digit, true), lit(c.cell, c.digit, false)],
            Outcome::NoCandidate(cell) => {
                let cands = self.base_cands[cell.index()];
                (0..9)
                    .filter(|&e| cands & (1 << e) != 0)
                    .map(|e| ((cell.index() * 9 + e) * 2) as Lit)
                    .collect()
            }
            Outcome::NoPlace(h, d) => {
                let cells = self.base_digit[d.index()] & h.cell_set().bits();
                bits(cells)
                    .map(|o| ((o * 9 + d.index()) * 2) as Lit)
                    .collect()
            }
        }
    }

    /// Calls `f` with each reason of derived literal `l` (what [`Propagator::parents`] lists),
    /// without allocating.
    fn for_each_parent(&self, l: Lit, mut f: impl FnMut(Lit)) {
        let k = usize::from(l / 2);
        let (c, d) = (k / 9, k % 9);
        match self.cause[usize::from(l)] {
            Cause::Premise => {}
            Cause::From(p) => f(p),
            Cause::NakedSingle => {
                let mut m = self.base_cands[c] & !(1 << d);
                while m != 0 {
                    let e = m.trailing_zeros() as usize;
                    m &= m - 1;
                    f(((c * 9 + e) * 2) as Lit);
                }
            }
            Cause::HiddenSingle(h) => {
                let cells = self.base_digit[d] & HOUSE_SETS[usize::from(h)].bits() & !(1 << c);
                for o in bits(cells) {
                    f(((o * 9 + d) * 2) as Lit);
                }
            }
            Cause::Pattern(i) => {
                for &p in self.patterns.parents(usize::from(i)) {
                    f(p);
                }
            }
        }
    }

    /// How many literals `targets` rest on (themselves included): `ancestors(targets).len()`,
    /// without allocating (the contradiction searches count this for every broken premise).
    pub(crate) fn ancestor_count(&mut self, targets: &[Lit]) -> usize {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.extend_from_slice(targets);
        let mut count = 0;
        while let Some(l) = stack.pop() {
            let seen = &mut self.seen[usize::from(l)];
            if *seen == generation {
                continue;
            }
            *seen = generation;
            count += 1;
            self.for_each_parent(l, |p| stack.push(p));
        }
        self.stack = stack;
        count
    }

    /// Every literal `targets` rest on (themselves included), in derivation order.
    pub(crate) fn ancestors(&self, targets: &[Lit]) -> Vec<Lit> {
        let mut seen = vec![false; 1458];
        let mut todo: Vec<Lit> = targets.to_vec();
        let mut out = Vec::new();
        while let Some(l) = todo.pop() {
            if std::mem::replace(&mut seen[usize::from(l)], true) {
                continue;
            }
            out.push(l);
            todo.extend(self.parents(l));
        }
        out.sort_by_key(|&l| self.stamp(l));
        out
    }

    /// Appends the last run as a branch of `step`: the links to `outcome` from every literal
    /// it rests on, and marks for the candidates involved.
    pub(crate) fn add_branch(&self, step: &mut Step, outcome: Outcome) {
        let Some(&premise) = self.order.first() else {
            return;
        };
        let targets = self.outcome_literals(outcome);
        let start = step.links.len();
        for l in self.ancestors(&targets) {
            let kind = match self.cause[usize::from(l)] {
                Cause::Pattern(i) => LinkKind::Pattern(self.patterns.technique(usize::from(i))),
                _ if is_on(l) => LinkKind::Strong,
                _ => LinkKind::Weak,
            };
            for p in self.parents(l) {
                step.links.push(Link {
                    from: node(p),
                    to: node(l),
                    kind,
                });
            }
        }
        step.branches.push(Branch {
            premise: candidate(premise),
            premise_true: is_on(premise),
            links: start..step.links.len(),
            outcome,
        });
    }
}

/// The chain node of a literal's candidate.
fn node(l: Lit) -> Node {
    let c = candidate(l);
    Node::cell(c.cell, c.digit)
}

/// Indices of the set bits of a cell mask.
pub(crate) fn bits(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::techniques::test_util::*;

    fn c(r: usize, col: usize) -> Cell {
        Cell::at(r - 1, col - 1)
    }
    fn d(n: u8) -> Digit {
        Digit::new(n).unwrap()
    }

    #[test]
    fn net_singles_and_contradiction() {
        // Row 1 holds 1..7 in c1..c7; r1c8 and r1c9 are {8,9}. Assuming r1c8=8 makes r1c9=9.
        let g = grid(
            "1234567..........................................................................",
        );
        let mut p = Propagator::new(&g, Mode::Net);
        assert_eq!(p.run(lit(c(1, 8), d(8), true)), None);
        assert!(p.holds(lit(c(1, 9), d(9), true)));
        assert!(p.holds(lit(c(2, 9), d(9), false)));
        let path = p.ancestors(&[lit(c(1, 9), d(9), true)]);
        let text: Vec<String> = path.iter().map(|&l| lit_text(l)).collect();
        // r1c9=9 as the row's only place for 9 once r1c8 took 8.
        assert_eq!(text, ["r1c8=8", "r1c8<>9", "r1c9=9"]);
        assert_eq!(p.run(lit(c(1, 9), d(8), true)), None);
        assert!(p.holds(lit(c(1, 8), d(9), true)));
    }

    #[test]
    fn net_plus_locks_candidates_where_net_stops() {
        // Row 2 has no 5 in box 1. Assuming r1c4=5 removes the 5s of r2c4-6, so row 2's 5 is
        // in box 3 and r3c7 cannot be 5: a claiming step inside the net, which the plain net
        // (singles only) does not make.
        let mut g = grid(&".".repeat(81));
        for col in 1..=3 {
            g.eliminate(c(2, col), d(5));
        }
        let premise = lit(c(1, 4), d(5), true);
        let target = lit(c(3, 7), d(5), false);
        let mut net = Propagator::new(&g, Mode::Net);
        assert_eq!(net.run(premise), None);
        assert!(!net.holds(target));
        let mut plus = Propagator::new(&g, Mode::NetPlus);
        assert_eq!(plus.run(premise), None);
        assert!(plus.holds(target));
        let parents: Vec<String> = plus.parents(target).iter().map(|&l| lit_text(l)).collect();
        assert_eq!(parents, ["r2c4<>5", "r2c5<>5", "r2c6<>5"]);
        assert_eq!(plus.ancestor_count(&[target]), 5);
        let mut step = Step::new(crate::sudoku::Technique::ForcingNetPlusVerity);
        plus.add_branch(&mut step, Outcome::False(candidate(target)));
        let pattern = LinkKind::Pattern(crate::sudoku::Technique::LockedCandidatesClaiming);
        let into_target: Vec<&Link> = step.links.iter().filter(|l| l.to == node(target)).collect();
        assert_eq!(into_target.len(), 3);
        assert!(into_target.iter().all(|l| l.kind == pattern));
        assert!(
            into_target
                .iter()
                .all(|l| !l.kind.from_is_true() && !l.kind.to_is_true())
        );
    }

    #[test]
    fn chains_need_strong_links_of_the_grid() {
        // r1c8/r1c9 {8,9}: the cell pair is bivalue, so chains follow it too.
        let g = grid(
            "1234567..........................................................................",
        );
        let mut p = Propagator::new(&g, Mode::Chains);
        p.run(lit(c(1, 8), d(8), true));
        assert!(p.holds(lit(c(1, 9), d(9), true)));
        // An open grid has no strong link: nothing beyond the weak links.
        let open = grid(&".".repeat(81));
        let mut q = Propagator::new(&open, Mode::Chains);
        q.run(lit(c(5, 5), d(5), true));
        assert_eq!(q.order().len(), 1 + 8 + 20);
    }

    #[test]
    fn contradiction_has_reasons() {
        // Row 1 holds 1..6; 9s in r4c7 and r7c8 leave r1c7, r1c8 {7,8} and r1c9 {7,8,9}.
        // Assuming r1c9=7 leaves 9 no place in row 1 (r1c7 and r1c8 see a 9): a contradiction.
        let g = grid(&format!(
            "123456...{}......9..{}.......9.{}",
            ".".repeat(18),
            ".".repeat(18),
            ".".repeat(18)
        ));
        let mut p = Propagator::new(&g, Mode::Net);
        let out = p.run(lit(c(1, 9), d(7), true)).expect("contradiction");
        assert!(
            matches!(
                out,
                Outcome::Both(_) | Outcome::NoCandidate(_) | Outcome::NoPlace(..)
            ),
            "{out:?}"
        );
        let mut step = Step::new(crate::sudoku::Technique::ForcingNetContradiction);
        p.add_branch(&mut step, out);
        assert_eq!(step.branches.len(), 1);
        assert!(!step.links.is_empty(), "{:?}", step.links);
        // Every link's source was derived before its target.
        for l in &step.links {
            let from = lit(
                l.from.cells.first().unwrap(),
                l.from.digit,
                l.kind == LinkKind::Weak,
            );
            let to = lit(
                l.to.cells.first().unwrap(),
                l.to.digit,
                l.kind == LinkKind::Strong,
            );
            assert!(p.stamp(from) < p.stamp(to));
        }
        // Assuming r1c9=9 (the truth) is consistent.
        assert_eq!(p.run(lit(c(1, 9), d(9), true)), None);
    }
}
