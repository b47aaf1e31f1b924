//! What each assumption leads to on one grid, computed once and shared by the forcing searches.
//!
//! The step solver asks the forcing finders in turn on the same grid (chain contradiction,
//! chain verity, net contradiction, net verity, then the same two of the nets plus), and a
//! contradiction search and a verity search of one propagation [`Mode`] need the same runs:
//! every candidate assumed true, and some assumed false. [`with_runs`] keeps the runs of the
//! last grid seen (per thread, per mode) and computes each premise at most once, lazily, so the
//! later finders reuse the earlier ones' work. It owns no reasoning of its own: the propagation
//! is `implication`'s and the choice of deduction is `forcing`'s.

use std::cell::RefCell;

use super::super::grid::Grid;
use super::implication::{Lit, Mode, Propagator};

/// Number of literals (81 cells × 9 digits × true/false).
const LITS: usize = 1458;

/// What assuming one literal led to.
pub(crate) enum Run {
    /// A contradiction resting on `cost` facts (the premise and every literal it needed).
    Broken { cost: usize },
    /// No contradiction: what was derived (boxed: a broken run needs only its cost).
    Holds(Box<Case>),
}

/// What one consistent assumption led to: its true and false literals and their order.
pub(crate) struct Case {
    /// Cells derived true, one set per digit.
    pub(crate) on: [u128; 9],
    /// Cells derived false, one set per digit.
    pub(crate) off: [u128; 9],
    /// The literals in derivation order (the premise first): a literal's index is its rank, a
    /// stand-in for how many facts it rests on.
    pub(crate) order: Vec<Lit>,
}

/// The runs of one grid in one mode.
pub(crate) struct Runs {
    prop: Propagator,
    runs: Vec<Option<Run>>,
}

impl Runs {
    fn new(grid: &Grid, mode: Mode) -> Runs {
        Runs {
            prop: Propagator::new(grid, mode),
            runs: (0..LITS).map(|_| None).collect(),
        }
    }

    /// What assuming `premise` leads to (computed on first use). `premise` must be a literal
    /// of a candidate of the grid.
    pub(crate) fn get(&mut self, premise: Lit) -> &Run {
        let i = usize::from(premise);
        if self.runs[i].is_none() {
            let run = match self.prop.run(premise) {
                Some(out) => {
                    let targets = self.prop.outcome_literals(out);
                    Run::Broken {
                        cost: self.prop.ancestor_count(&targets),
                    }
                }
                None => Run::Holds(Box::new(Case {
                    on: self.prop.derived(true),
                    off: self.prop.derived(false),
                    order: self.prop.order().to_vec(),
                })),
            };
            self.runs[i] = Some(run);
        }
        // Just filled when it was empty.
        self.runs[i]
            .as_ref()
            .unwrap_or(&Run::Broken { cost: usize::MAX })
    }
}

/// The cached runs of the last grid seen on this thread, one entry per mode used.
type Cache = Option<(Grid, Vec<(Mode, Runs)>)>;

thread_local! {
    static CACHE: RefCell<Cache> = const { RefCell::new(None) };
}

/// Calls `f` with the runs of `grid` in `mode`, reusing those of an earlier call on the same
/// grid (a different grid drops the cache).
pub(crate) fn with_runs<R>(grid: &Grid, mode: Mode, f: impl FnOnce(&mut Runs) -> R) -> R {
    CACHE.with(|cell| {
        let mut cache = cell.borrow_mut();
        if cache.as_ref().is_none_or(|(g, _)| g != grid) {
            *cache = Some((grid.clone(), Vec::new()));
        }
        let Some((_, modes)) = cache.as_mut() else {
            // Set just above; a fresh, uncached set of runs keeps this total.
            return f(&mut Runs::new(grid, mode));
        };
        let i = match modes.iter().position(|(m, _)| *m == mode) {
            Some(i) => i,
            None => {
                modes.push((mode, Runs::new(grid, mode)));
                modes.len() - 1
            }
        };
        f(&mut modes[i].1)
    })
}
