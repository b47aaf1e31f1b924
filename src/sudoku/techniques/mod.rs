//! The solving techniques, one file each, and the dispatch from [`Technique`] to the finder, the
//! notation and the plain-sentence generator in that file.
//!
//! Every finder has the same contract: given a grid whose candidates are consistent with its
//! digits, return the first instance of the pattern that makes progress (places a digit or
//! removes at least one existing candidate), or `None`. A finder never guesses and never
//! consults the solution. Finders do not mutate the grid; the caller applies the step.

use super::grid::Grid;
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
mod remote_pair;
mod simple_colors;
mod skyscraper;
mod sue_de_coq;
mod turbot_fish;
mod two_string_kite;
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

/// Finds the first instance of `technique` in `grid`, or `None`. [`Technique::Guess`] is not a
/// pattern and always gives `None` here (the step solver makes guesses).
pub fn find(technique: Technique, grid: &Grid, ctx: &Context) -> Option<Step> {
    use Technique::*;
    if technique.needs_unique() && !ctx.unique {
        return None;
    }
    match technique {
        FullHouse => full_house::find(grid),
        HiddenSingle => hidden_single::find(grid),
        NakedSingle => naked_single::find(grid),
        LockedCandidatesPointing => locked_candidates::find_pointing(grid),
        LockedCandidatesClaiming => locked_candidates::find_claiming(grid),
        NakedPair => naked_subset::find(grid, 2),
        NakedTriple => naked_subset::find(grid, 3),
        NakedQuad => naked_subset::find(grid, 4),
        HiddenPair => hidden_subset::find(grid, 2),
        HiddenTriple => hidden_subset::find(grid, 3),
        HiddenQuad => hidden_subset::find(grid, 4),
        XWing => basic_fish::find(grid, 2),
        Swordfish => basic_fish::find(grid, 3),
        Jellyfish => basic_fish::find(grid, 4),
        FinnedXWing => finned_fish::find(grid, 2, false),
        SashimiXWing => finned_fish::find(grid, 2, true),
        FinnedSwordfish => finned_fish::find(grid, 3, false),
        SashimiSwordfish => finned_fish::find(grid, 3, true),
        FinnedJellyfish => finned_fish::find(grid, 4, false),
        SashimiJellyfish => finned_fish::find(grid, 4, true),
        Skyscraper => skyscraper::find(grid),
        TwoStringKite => two_string_kite::find(grid),
        TurbotFish => turbot_fish::find(grid),
        EmptyRectangle => empty_rectangle::find(grid),
        XYWing => xy_wing::find(grid),
        XYZWing => xyz_wing::find(grid),
        WWing => w_wing::find(grid),
        SimpleColorsTrap => simple_colors::find_trap(grid),
        SimpleColorsWrap => simple_colors::find_wrap(grid),
        UniqueRectangle1 => unique_rectangle::find(grid, 1),
        UniqueRectangle2 => unique_rectangle::find(grid, 2),
        UniqueRectangle3 => unique_rectangle::find(grid, 3),
        UniqueRectangle4 => unique_rectangle::find(grid, 4),
        UniqueRectangle5 => unique_rectangle::find(grid, 5),
        UniqueRectangle6 => unique_rectangle::find(grid, 6),
        HiddenRectangle => hidden_rectangle::find(grid),
        AvoidableRectangle1 => avoidable_rectangle::find(grid, 1),
        AvoidableRectangle2 => avoidable_rectangle::find(grid, 2),
        BugPlusOne => bug::find(grid),
        BugPlusN => bug::find_n(grid),
        AlignedPairExclusion => aligned_exclusion::find(grid, 2),
        AlignedTripleExclusion => aligned_exclusion::find(grid, 3),
        MultiColors1 => multi_colors::find(grid, 1),
        MultiColors2 => multi_colors::find(grid, 2),
        AlsXyWing => als_xy_wing::find(grid),
        AlsChain => als_chain::find(grid),
        SueDeCoq => sue_de_coq::find(grid),
        FrankenFish | FinnedFrankenFish | MutantFish | FinnedMutantFish => {
            franken_fish::find(grid, technique)
        }
        DeathBlossom => death_blossom::find(grid),
        RemotePair => remote_pair::find(grid),
        XChain => x_chain::find(grid),
        XYChain => xy_chain::find(grid),
        Aic => aic::find(grid),
        AlsXz => als_xz::find(grid),
        ForcingChainContradiction | ForcingNetContradiction => {
            forcing::find_contradiction(grid, technique)
        }
        ForcingChainVerity | ForcingNetVerity => forcing::find_verity(grid, technique),
        Guess => None,
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
        FrankenFish | FinnedFrankenFish | MutantFish | FinnedMutantFish => {
            franken_fish::text(step)
        }
        DeathBlossom => death_blossom::text(step),
        RemotePair => remote_pair::text(step),
        XChain => x_chain::text(step),
        XYChain => xy_chain::text(step),
        Aic | AlsChain => aic::text(step),
        AlsXz => als_xz::text(step),
        ForcingChainContradiction | ForcingChainVerity | ForcingNetContradiction
        | ForcingNetVerity => forcing::text(step),
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
        ForcingChainContradiction | ForcingChainVerity | ForcingNetContradiction
        | ForcingNetVerity => forcing::sentence(step),
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
