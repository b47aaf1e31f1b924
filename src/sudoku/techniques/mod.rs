//! The solving techniques, one file each, and the dispatch from [`Technique`] to the finder and
//! the notation and plain-sentence generators in that file.
//!
//! Every finder has the same contract: given a grid whose candidates are consistent with its
//! digits, report each instance of the pattern that makes progress (places a digit or removes
//! at least one existing candidate) to an [`Instances`] collector, in its own search order,
//! until the collector says stop (`?` on [`Instances::add`]). Asked for one, a finder gives
//! the instance it prefers (the first found, or the shortest chain); asked for all, every one.
//! A finder never guesses and never consults the solution. Finders do not mutate the grid; the
//! caller applies the step.

use std::ops::ControlFlow;

use super::grid::{Candidate, Grid};
use super::step::{Step, Technique};

mod aic;
mod aligned_exclusion;
mod als;
mod als_chain;
mod als_xy_wing;
mod als_xz;
mod avoidable_rectangle;
mod basic_fish;
mod bug;
mod chains;
mod death_blossom;
mod empty_rectangle;
mod finned_fish;
mod forcing;
mod forcing_cache;
mod franken_fish;
mod full_house;
mod hidden_rectangle;
mod hidden_single;
mod hidden_subset;
mod implication;
mod locked_candidates;
mod multi_colors;
mod naked_single;
mod naked_subset;
mod net_patterns;
mod remote_pair;
mod simple_colors;
mod skyscraper;
mod sue_de_coq;
mod turbot_fish;
mod two_string_kite;
mod unique_loop;
mod unique_rectangle;
mod w_wing;
mod x_chain;
mod xy_chain;
mod xy_wing;
mod xyz_wing;

/// What a finder may assume about the puzzle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context {
    /// The puzzle is known to have exactly one solution, so uniqueness techniques (Unique
    /// Rectangles, BUG+1) are sound.
    pub unique: bool,
}

/// Whether a finder should go on looking (`Continue`) or stop (`Break`).
pub type Flow = ControlFlow<()>;

/// Go on looking: what a finder returns when its search is over.
pub(crate) const GO_ON: Flow = ControlFlow::Continue(());

/// Collects the instances a finder reports and tells it when to stop: after the first, or
/// after `limit` distinct deductions (two instances with the same technique, placements and
/// eliminations count once).
#[derive(Debug)]
pub struct Instances {
    steps: Vec<Step>,
    limit: usize,
}

impl Instances {
    /// Wants one instance: the finder's preferred one.
    pub fn first() -> Instances {
        Instances::up_to(1)
    }

    /// Wants every instance, up to `limit` distinct deductions (`limit` 0 is 1).
    pub fn up_to(limit: usize) -> Instances {
        Instances {
            steps: Vec::new(),
            limit: limit.max(1),
        }
    }

    /// Whether more than one instance is wanted (finders that pick the best of several, such
    /// as the shortest chain, then report each as they find it).
    pub fn wants_all(&self) -> bool {
        self.limit > 1
    }

    /// Records `step` unless an instance with the same deduction is already recorded; `Break`
    /// once enough are recorded.
    pub fn add(&mut self, step: Step) -> Flow {
        let key = deduction(&step);
        if !self.steps.iter().any(|s| deduction(s) == key) {
            self.steps.push(step);
        }
        if self.steps.len() >= self.limit {
            ControlFlow::Break(())
        } else {
            GO_ON
        }
    }

    /// The instances recorded, in the order found.
    pub fn into_steps(self) -> Vec<Step> {
        self.steps
    }

    /// The first instance recorded.
    pub fn into_first(self) -> Option<Step> {
        self.steps.into_iter().next()
    }
}

/// The instance a search reports first (its preferred one): for the finders called outside
/// the solving order (rating's stand-ins) and for tests of one finder.
pub(crate) fn first(search: impl FnOnce(&mut Instances) -> Flow) -> Option<Step> {
    let mut out = Instances::first();
    let _ = search(&mut out);
    out.into_first()
}

/// What a step concludes, independent of the order it lists things in.
fn deduction(step: &Step) -> (Technique, Vec<Candidate>, Vec<Candidate>) {
    let mut placements = step.placements.clone();
    placements.sort_unstable();
    let mut eliminations = step.eliminations.clone();
    eliminations.sort_unstable();
    (step.technique, placements, eliminations)
}

/// Finds the preferred instance of `technique` in `grid`, or `None`. [`Technique::Guess`] is
/// not a pattern and always gives `None` here (the step solver makes guesses).
pub fn find(technique: Technique, grid: &Grid, ctx: &Context) -> Option<Step> {
    let mut out = Instances::first();
    collect(technique, grid, ctx, &mut out);
    out.into_first()
}

/// Every instance of `technique` in `grid` (distinct deductions, at most `limit`), in the
/// finder's search order.
pub fn find_all(technique: Technique, grid: &Grid, ctx: &Context, limit: usize) -> Vec<Step> {
    let mut out = Instances::up_to(limit);
    collect(technique, grid, ctx, &mut out);
    out.into_steps()
}

/// The shortest AIC or nice loop of single candidates (no grouped nodes) that makes progress
/// in `grid`: what Sudoku Explainer's chains can find, for rating (see `explain::rate_path`).
pub fn ungrouped_chain(grid: &Grid) -> Option<Step> {
    aic::find_ungrouped(grid)
}

/// The smallest ALS-XZ of a two-digit cell and a set holding its digits, with as many digits
/// as cells: Sukaku Explainer's wings, for rating (see `explain::rate_path`).
pub fn bivalue_wing(grid: &Grid) -> Option<Step> {
    als_xz::find_bivalue_wing(grid)
}

/// The shortest unique loop (6 to 10 cells, types 1, 2 and 4) that eliminates a candidate, as
/// a unique rectangle step with the loop's cells as corners: Sukaku Explainer's unique loops,
/// for rating (see `explain::rate_path`). Only for a puzzle with one solution.
pub fn unique_loop(grid: &Grid) -> Option<Step> {
    unique_loop::find(grid)
}

/// The shortest X-Chain of up to four strong links with grouped nodes allowed: Sukaku
/// Explainer's grouped strong-linked fish, for rating (see `explain::rate_path`).
pub fn grouped_x_chain(grid: &Grid) -> Option<Step> {
    x_chain::find_grouped(grid)
}

/// Runs the finder of `technique` over `grid`, reporting to `out`.
pub fn collect(technique: Technique, grid: &Grid, ctx: &Context, out: &mut Instances) {
    use Technique::*;
    if technique.needs_unique() && !ctx.unique {
        return;
    }
    let _: Flow = match technique {
        FullHouse => full_house::search(grid, out),
        HiddenSingle => hidden_single::search(grid, out),
        NakedSingle => naked_single::search(grid, out),
        LockedCandidatesPointing => locked_candidates::search_pointing(grid, out),
        LockedCandidatesClaiming => locked_candidates::search_claiming(grid, out),
        NakedPair => naked_subset::search(grid, 2, out),
        NakedTriple => naked_subset::search(grid, 3, out),
        NakedQuad => naked_subset::search(grid, 4, out),
        HiddenPair => hidden_subset::search(grid, 2, out),
        HiddenTriple => hidden_subset::search(grid, 3, out),
        HiddenQuad => hidden_subset::search(grid, 4, out),
        XWing => basic_fish::search(grid, 2, out),
        Swordfish => basic_fish::search(grid, 3, out),
        Jellyfish => basic_fish::search(grid, 4, out),
        FinnedXWing => finned_fish::search(grid, 2, false, out),
        SashimiXWing => finned_fish::search(grid, 2, true, out),
        FinnedSwordfish => finned_fish::search(grid, 3, false, out),
        SashimiSwordfish => finned_fish::search(grid, 3, true, out),
        FinnedJellyfish => finned_fish::search(grid, 4, false, out),
        SashimiJellyfish => finned_fish::search(grid, 4, true, out),
        Skyscraper => skyscraper::search(grid, out),
        TwoStringKite => two_string_kite::search(grid, out),
        TurbotFish => turbot_fish::search(grid, out),
        EmptyRectangle => empty_rectangle::search(grid, out),
        XYWing => xy_wing::search(grid, out),
        XYZWing => xyz_wing::search(grid, out),
        WWing => w_wing::search(grid, out),
        SimpleColorsTrap => simple_colors::search_trap(grid, out),
        SimpleColorsWrap => simple_colors::search_wrap(grid, out),
        UniqueRectangle1 => unique_rectangle::search(grid, 1, out),
        UniqueRectangle2 => unique_rectangle::search(grid, 2, out),
        UniqueRectangle3 => unique_rectangle::search(grid, 3, out),
        UniqueRectangle4 => unique_rectangle::search(grid, 4, out),
        UniqueRectangle5 => unique_rectangle::search(grid, 5, out),
        UniqueRectangle6 => unique_rectangle::search(grid, 6, out),
        BugPlusOne => bug::search(grid, out),
        RemotePair => remote_pair::search(grid, out),
        XChain => x_chain::search(grid, out),
        XYChain => xy_chain::search(grid, out),
        Aic => aic::search(grid, out),
        AlsXz => als_xz::search(grid, out),
        HiddenRectangle => hidden_rectangle::search(grid, out),
        // Avoidable Rectangles, BUG+n, Multi-Colors, ALS-XY-Wing, Death Blossom and the
        // verities report their preferred instance only.
        AvoidableRectangle1 => one(out, avoidable_rectangle::find(grid, 1)),
        AvoidableRectangle2 => one(out, avoidable_rectangle::find(grid, 2)),
        BugPlusN => one(out, bug::find_n(grid)),
        AlignedPairExclusion => aligned_exclusion::search(grid, 2, out),
        AlignedTripleExclusion => aligned_exclusion::search(grid, 3, out),
        MultiColors1 => one(out, multi_colors::find(grid, 1)),
        MultiColors2 => one(out, multi_colors::find(grid, 2)),
        AlsXyWing => one(out, als_xy_wing::find(grid)),
        AlsChain => als_chain::search(grid, out),
        SueDeCoq => sue_de_coq::search(grid, out),
        FrankenFish | FinnedFrankenFish | MutantFish | FinnedMutantFish => {
            franken_fish::search(grid, technique, out)
        }
        DeathBlossom => one(out, death_blossom::find(grid)),
        ForcingChainContradiction | ForcingNetContradiction | ForcingNetPlusContradiction => {
            forcing::search_contradiction(grid, technique, out)
        }
        ForcingChainVerity | ForcingNetVerity | ForcingNetPlusVerity => {
            one(out, forcing::find_verity(grid, technique))
        }
        Guess => GO_ON,
    };
}

/// Reports `step`, if any, to `out`: for finders that give one preferred instance.
fn one(out: &mut Instances, step: Option<Step>) -> Flow {
    match step {
        Some(s) => out.add(s),
        None => GO_ON,
    }
}

/// The step's text in the usual notation, generated by its technique's module.
pub fn describe(step: &Step) -> String {
    use Technique::*;
    match step.technique {
        FullHouse => full_house::text(step),
        HiddenSingle => hidden_single::text(step),
        NakedSingle => naked_single::text(step),
        LockedCandidatesPointing | LockedCandidatesClaiming => locked_candidates::text(step),
        NakedPair | NakedTriple | NakedQuad => naked_subset::text(step),
        HiddenPair | HiddenTriple | HiddenQuad => hidden_subset::text(step),
        XWing | Swordfish | Jellyfish => basic_fish::text(step),
        FinnedXWing | SashimiXWing | FinnedSwordfish | SashimiSwordfish | FinnedJellyfish
        | SashimiJellyfish => finned_fish::text(step),
        Skyscraper => skyscraper::text(step),
        TwoStringKite => two_string_kite::text(step),
        TurbotFish => turbot_fish::text(step),
        EmptyRectangle => empty_rectangle::text(step),
        XYWing => xy_wing::text(step),
        XYZWing => xyz_wing::text(step),
        WWing => w_wing::text(step),
        SimpleColorsTrap | SimpleColorsWrap => simple_colors::text(step),
        UniqueRectangle1 | UniqueRectangle2 | UniqueRectangle3 | UniqueRectangle4
        | UniqueRectangle5 | UniqueRectangle6 => unique_rectangle::text(step),
        HiddenRectangle => hidden_rectangle::text(step),
        AvoidableRectangle1 | AvoidableRectangle2 => avoidable_rectangle::text(step),
        BugPlusOne | BugPlusN => bug::text(step),
        AlignedPairExclusion | AlignedTripleExclusion => aligned_exclusion::text(step),
        MultiColors1 | MultiColors2 => multi_colors::text(step),
        AlsXyWing => als_xy_wing::text(step),
        SueDeCoq => sue_de_coq::text(step),
        FrankenFish | FinnedFrankenFish | MutantFish | FinnedMutantFish => franken_fish::text(step),
        DeathBlossom => death_blossom::text(step),
        RemotePair => remote_pair::text(step),
        XChain => x_chain::text(step),
        XYChain => xy_chain::text(step),
        Aic | AlsChain => aic::text(step),
        AlsXz => als_xz::text(step),
        ForcingChainContradiction
        | ForcingChainVerity
        | ForcingNetContradiction
        | ForcingNetVerity
        | ForcingNetPlusContradiction
        | ForcingNetPlusVerity => forcing::text(step),
        Guess => format!("Guess: {}", step.effect_text()),
    }
}

/// The step's plain sentence, generated by its technique's module from the step's data.
pub fn explain(step: &Step) -> String {
    use Technique::*;
    match step.technique {
        FullHouse => full_house::sentence(step),
        HiddenSingle => hidden_single::sentence(step),
        NakedSingle => naked_single::sentence(step),
        LockedCandidatesPointing | LockedCandidatesClaiming => locked_candidates::sentence(step),
        NakedPair | NakedTriple | NakedQuad => naked_subset::sentence(step),
        HiddenPair | HiddenTriple | HiddenQuad => hidden_subset::sentence(step),
        XWing | Swordfish | Jellyfish => basic_fish::sentence(step),
        FinnedXWing | SashimiXWing | FinnedSwordfish | SashimiSwordfish | FinnedJellyfish
        | SashimiJellyfish => finned_fish::sentence(step),
        Skyscraper => skyscraper::sentence(step),
        TwoStringKite => two_string_kite::sentence(step),
        TurbotFish => turbot_fish::sentence(step),
        EmptyRectangle => empty_rectangle::sentence(step),
        XYWing => xy_wing::sentence(step),
        XYZWing => xyz_wing::sentence(step),
        WWing => w_wing::sentence(step),
        SimpleColorsTrap | SimpleColorsWrap => simple_colors::sentence(step),
        UniqueRectangle1 | UniqueRectangle2 | UniqueRectangle3 | UniqueRectangle4
        | UniqueRectangle5 | UniqueRectangle6 => unique_rectangle::sentence(step),
        HiddenRectangle => hidden_rectangle::sentence(step),
        AvoidableRectangle1 | AvoidableRectangle2 => avoidable_rectangle::sentence(step),
        BugPlusOne | BugPlusN => bug::sentence(step),
        AlignedPairExclusion | AlignedTripleExclusion => aligned_exclusion::sentence(step),
        MultiColors1 | MultiColors2 => multi_colors::sentence(step),
        AlsXyWing => als_xy_wing::sentence(step),
        SueDeCoq => sue_de_coq::sentence(step),
        FrankenFish | FinnedFrankenFish | MutantFish | FinnedMutantFish => {
            franken_fish::sentence(step)
        }
        DeathBlossom => death_blossom::sentence(step),
        RemotePair => remote_pair::sentence(step),
        XChain => x_chain::sentence(step),
        XYChain => xy_chain::sentence(step),
        Aic | AlsChain => aic::sentence(step),
        AlsXz => als_xz::sentence(step),
        ForcingChainContradiction
        | ForcingChainVerity
        | ForcingNetContradiction
        | ForcingNetVerity
        | ForcingNetPlusContradiction
        | ForcingNetPlusVerity => forcing::sentence(step),
        Guess => match step.placements.first() {
            Some(p) => format!(
                "No known logic step applies here, so the solver places the solution's {} in \
                 {} (a cell with the fewest candidates) and goes on.",
                p.digit, p.cell
            ),
            None => generic_sentence(step),
        },
    }
}

/// The effect of a step in words: "r1c2 must be 5" / "r1c2 and r5c2 cannot be 4".
pub(crate) fn effect_words(step: &Step) -> String {
    use super::notation::{cell_words, join_words};
    let mut parts: Vec<String> = step
        .placements
        .iter()
        .map(|p| format!("{} must be {}", p.cell, p.digit))
        .collect();
    let mut digits: Vec<_> = step.eliminations.iter().map(|e| e.digit).collect();
    digits.sort();
    digits.dedup();
    for d in digits {
        let cells: Vec<_> = step
            .eliminations
            .iter()
            .filter(|e| e.digit == d)
            .map(|e| e.cell)
            .collect();
        parts.push(format!("{} cannot be {d}", cell_words(cells)));
    }
    join_words(&parts, "and")
}

/// A sentence from the technique's title and the step's effect, for steps whose module has no
/// more specific sentence.
pub(crate) fn generic_sentence(step: &Step) -> String {
    format!("{}: {}.", step.technique.title(), effect_words(step))
}

/// A generic `Name: effect` text, for stubs and simple techniques.
pub(crate) fn plain_text(step: &Step) -> String {
    format!("{}: {}", step.technique.name(), step.effect_text())
}

#[cfg(test)]
pub(crate) mod test_util;
