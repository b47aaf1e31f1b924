//! Difficulty: a Sudoku-Explainer-like numeric rating (the hardest step on the solving path, each
//! step rated by [`step_rating`]: its technique's base value, [`Technique::se_rating`], plus
//! Sudoku Explainer's length bonus for chains) and a coarse [`Level`].
//!
//! Sudoku Explainer rates the path on which every step is the easiest-rated one available; our
//! solver takes the first technique in its own order. So the explained solve
//! (`explain::rate_path`) rates each position of its path by the easiest of its own step
//! ([`rating_in_position`]: with Sudoku Explainer's "direct" locked candidates and hidden
//! pairs/triples, which lead straight to a hidden single) and the steps of later techniques that
//! Sudoku Explainer also has ([`in_sudoku_explainer`]) that could rate lower there. A W-Wing,
//! which Sudoku Explainer lacks, rates as the mixed chain it would find for the same deduction.
//! On the first ten puzzles of every `se-rated` file (553 puzzles) the rank correlation with the
//! reference ratings is 0.948 (0.932 before these rules), on puzzles 11–20 (524, never looked
//! at while choosing them) 0.947 (0.935 before); since the Franken and Mutant fish moved after
//! the forcing chains, 0.948 and 0.952 (0.950 over all 14,394). Sudoku Explainer's chains link
//! single candidates only and it has no almost locked sets, so a grouped chain rates as the
//! Nishio or multiple forcing chain it needs (unless a chain of single candidates stands in)
//! and the ALS steps as multiple forcing chains (8.0): 0.955 and 0.952 (0.954 over all).
//!
//! The reference ratings come from Sukaku Explainer, whose default techniques add, below Sudoku
//! Explainer's chains, grouped turbot fish, single-digit chains of three and four strong links,
//! wings of a two-digit cell and an almost locked set, and unique loops (module `sukaku`: their
//! ratings, and which of our steps they cover). The explained solve (`explain::rate_path`) also
//! searches those wings, loops and grouped chains as stand-ins, and a stand-in lowers a
//! position's rating only when, after it, steps rated no higher reach everything the path's own
//! step did (an easier step that only delays the deduction leaves the position's rating as it
//! was). With both:
//! 0.966 on the first ten puzzles of each file, 0.974 on puzzles 11–20, 0.976 over all 14,394.
//! The gaps left: SE 5.8–6.1 (chains of four strong links) and the Nishio band 7.5–8.0.
//!
//! Level thresholds (on the rating `r`):
//!
//! | level   | rating        | typical hardest technique                                    |
//! |---------|---------------|--------------------------------------------------------------|
//! | Easy    | r < 2.5       | singles only                                                 |
//! | Medium  | 2.5 ≤ r < 4.0 | locked candidates, pairs, naked triple, X-Wing, Swordfish    |
//! | Hard    | 4.0 ≤ r < 6.0 | hidden triple, XY/XYZ-Wing, unique rectangles, quads, BUG+1  |
//! | Unfair  | 6.0 ≤ r < 7.5 | single-digit patterns, finned fish, coloring, X/XY-chains    |
//! | Extreme | r ≥ 7.5       | AIC, ALS, or logic ran out and a guess was needed            |

mod sukaku;

use std::fmt;

use super::grid::Grid;
use super::step::{LinkKind, Node, Role, Step, Technique};
use super::types::{Digit, House};

pub use super::rank::{RankCorrelation, spearman};

/// Coarse difficulty level; see the module docs for thresholds.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, serde::Serialize)]
pub enum Level {
    /// Singles only.
    Easy,
    /// Basic eliminations.
    Medium,
    /// Subsets of three and four, wings, uniqueness.
    Hard,
    /// Single-digit patterns, finned fish, coloring, short chains.
    Unfair,
    /// Long chains, ALS, or a guess.
    Extreme,
}

impl Level {
    /// The level for a numeric rating.
    pub fn from_rating(r: f32) -> Level {
        if r < 2.5 {
            Level::Easy
        } else if r < 4.0 {
            Level::Medium
        } else if r < 6.0 {
            Level::Hard
        } else if r < 7.5 {
            Level::Unfair
        } else {
            Level::Extreme
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// The rating of a solving path.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rating {
    /// SE-scale rating of the hardest step (0.0 for a path with no steps).
    pub score: f32,
    /// The technique of the hardest step, if any.
    pub hardest: Option<Technique>,
    /// The level for `score`.
    pub level: Level,
}

impl Rating {
    /// Rates a path of steps: the maximum rating over its steps, each rated by
    /// [`step_rating`] alone (without the position, so no step is seen as "direct").
    pub fn of_steps(steps: &[Step]) -> Rating {
        Self::of_ratings(steps.iter().map(|s| (s.rating(), s.technique)))
    }

    /// Rates a path from each step's rating and technique: the maximum rating.
    pub fn of_ratings(ratings: impl Iterator<Item = (f32, Technique)>) -> Rating {
        let hardest = ratings.max_by(|a, b| a.0.total_cmp(&b.0));
        // Ratings are tenths on Sudoku Explainer's scale; sums of tenths are rounded back.
        let score = hardest.map_or(0.0, |h| (h.0 * 10.0).round() / 10.0);
        Rating {
            score,
            hardest: hardest.map(|h| h.1),
            level: Level::from_rating(score),
        }
    }
}

/// The rating of `step` taken in `grid` (the position before it): [`step_rating`], except for
/// Sudoku Explainer's "direct" variants. Sudoku Explainer rates locked candidates and hidden
/// pairs and triples lower when their eliminations leave one of the removed digits with a
/// single place in a house (a hidden single the step exists to reach): direct pointing 1.7,
/// direct claiming 1.9, direct hidden pair 2.0, direct hidden triple 2.5.
pub fn rating_in_position(step: &Step, grid: &Grid) -> f32 {
    use Technique::*;
    let direct = match step.technique {
        LockedCandidatesPointing => 1.7,
        LockedCandidatesClaiming => 1.9,
        HiddenPair => 2.0,
        HiddenTriple => 2.5,
        _ => return step_rating(step),
    };
    if yields_hidden_single(step, grid) {
        direct
    } else {
        step_rating(step)
    }
}

/// Whether Sudoku Explainer (and Sukaku Explainer, which rated the reference sets) can take a
/// step of `technique` itself, so that an easier step of it in a position lowers that
/// position's rating. Its uniqueness techniques are unique rectangles and loops of types 1–4
/// only; the other uniqueness patterns have no counterpart there.
pub fn in_sudoku_explainer(technique: Technique) -> bool {
    use Technique::*;
    !matches!(
        technique,
        UniqueRectangle5
            | UniqueRectangle6
            | HiddenRectangle
            | AvoidableRectangle1
            | AvoidableRectangle2
    )
}

/// The lowest rating a step of `technique` can have: its direct rating for the techniques that
/// have a direct variant (see [`rating_in_position`]), else its base rating.
pub fn lowest_rating(technique: Technique) -> f32 {
    use Technique::*;
    if let Some(r) = sukaku::lowest(technique) {
        return r;
    }
    match technique {
        HiddenSingle => 1.2,
        LockedCandidatesPointing => 1.7,
        LockedCandidatesClaiming => 1.9,
        HiddenPair => 2.0,
        HiddenTriple => 2.5,
        AlsXz | AlsXyWing | AlsChain | DeathBlossom => als_base(technique),
        t => t.se_rating(),
    }
}

/// The base rating of a step over almost locked sets: Sudoku Explainer has no almost locked
/// sets, and its chains (up to the dynamic ones, 8.5) infer a candidate from a single place or
/// a single candidate only, never from a set locked by the loss of one digit; what it finds
/// for such a deduction is a multiple forcing chain (8.0), one branch per candidate of a set.
/// Sue de Coq keeps its own base: its sets split one box∩line, where Sudoku Explainer's
/// aligned pair exclusion (6.2) finds the same eliminations.
fn als_base(technique: Technique) -> f32 {
    match technique {
        Technique::SueDeCoq => technique.se_rating(),
        _ => 8.0,
    }
}

/// Whether applying `step`'s eliminations in `grid` leaves an eliminated digit with exactly
/// one place (where it had more than one) in a house where Sudoku Explainer looks for it: for a
/// hidden set its own house; for locked candidates a house of the same kind as the one whose
/// candidates are locked (pointing from a box: another box; claiming from a line: a parallel
/// line), through an eliminated cell.
fn yields_hidden_single(step: &Step, grid: &Grid) -> bool {
    let Some(base) = step.houses_with(Role::Base).next() else {
        return false;
    };
    let mut after = grid.clone();
    for e in &step.eliminations {
        after.eliminate(e.cell, e.digit);
    }
    let became_single = |h: House, d: Digit| {
        !grid.house_has_digit(h, d)
            && grid.house_digit_cells(h, d).len() > 1
            && after.house_digit_cells(h, d).len() == 1
    };
    step.eliminations.iter().any(|e| match step.technique {
        Technique::HiddenPair | Technique::HiddenTriple => became_single(base, e.digit),
        _ => e
            .cell
            .houses()
            .into_iter()
            .any(|h| h.kind() == base.kind() && h != base && became_single(h, e.digit)),
    })
}

/// The rating of one step: the technique's base rating, except that a hidden single in a box
/// rates 1.2 (as in Sudoku Explainer), and chains, loops and forcing chains/nets are rated as
/// Sudoku Explainer rates them: a base by kind plus a bonus growing with their length.
pub fn step_rating(step: &Step) -> f32 {
    use Technique::*;
    if let Some(r) = sukaku::rating(step) {
        return r;
    }
    let base = step.technique.se_rating();
    match step.technique {
        HiddenSingle
            if step
                .houses
                .first()
                .is_some_and(|(h, _)| h.kind() == super::types::HouseKind::Box) =>
        {
            1.2
        }
        XChain | XYChain | RemotePair | Aic | WWing => chain_rating(step),
        // Rated as the chain through the sets' cells that would find the same deduction.
        AlsChain | AlsXz | AlsXyWing | DeathBlossom | SueDeCoq => {
            let cells: super::types::CellSet =
                step.marks.iter().map(|m| m.candidate.cell).collect();
            als_base(step.technique) + length_bonus(cells.len() + step.links.len() + 4)
        }
        ForcingChainContradiction
        | ForcingChainVerity
        | ForcingNetContradiction
        | ForcingNetVerity
        | ForcingNetPlusContradiction
        | ForcingNetPlusVerity => base + length_bonus(branch_complexity(step)),
        _ => base,
    }
}

/// An alternating chain or loop rated as Sudoku Explainer rates it: 6.6 for a chain whose
/// strong links are all in houses (X) or all in cells (Y), 7.0 when it mixes both, 6.5 and
/// 7.0 for loops, plus the length bonus for its nodes.
fn chain_rating(step: &Step) -> f32 {
    let (Some(first), Some(last)) = (step.links.first(), step.links.last()) else {
        return step.technique.se_rating();
    };
    let strong = step.links.iter().filter(|l| l.kind == LinkKind::Strong);
    let mut in_cell = false;
    let mut in_house = false;
    for l in strong {
        if l.from.digit == l.to.digit {
            in_house = true;
        } else {
            in_cell = true;
        }
    }
    let is_loop = last.to == first.from;
    if let Some(rating) = grouped_chain_rating(step) {
        return rating;
    }
    let base = match (is_loop, in_cell && in_house) {
        (_, true) => 7.0,
        (true, false) => 6.5,
        (false, false) => 6.6,
    };
    // Sudoku Explainer counts the chain's nodes plus the target, assumed true and found false.
    base + length_bonus(step.links.len() + 3)
}

/// A chain with a grouped node (a digit in two or three cells of a box∩line) rated as the
/// forcing chain Sudoku Explainer needs for it; `None` for a chain of single candidates.
///
/// Sudoku Explainer's chains and cycles (6.5–7.0) link single candidates only, so it cannot
/// take a grouped link there. A single-digit chain is a Nishio forcing chain for it (7.5: the
/// group's cells turned off leave the digit's last place in the box), a chain over several
/// digits a multiple (region) forcing chain over the group's cells (8.0). Either is rated
/// with the length bonus for every candidate of the chain plus the assumption and its
/// refutation, as Sudoku Explainer counts each candidate of a group as a link of its chain.
fn grouped_chain_rating(step: &Step) -> Option<f32> {
    let first = step.links.first()?;
    let nodes: Vec<Node> = std::iter::once(first.from)
        .chain(step.links.iter().map(|l| l.to))
        .collect();
    if nodes.iter().all(|n| n.cells.len() == 1) {
        return None;
    }
    let one_digit = nodes.iter().all(|n| n.digit == first.from.digit);
    let base = if one_digit { 7.5 } else { 8.0 };
    let candidates: usize = nodes.iter().map(|n| n.cells.len()).sum();
    Some(base + length_bonus(candidates + 2))
}

/// The number of distinct (candidate, true/false) facts over all branches of a forcing step:
/// Sudoku Explainer's "complexity" of a forcing chain.
fn branch_complexity(step: &Step) -> usize {
    let mut total = 0;
    for b in &step.branches {
        let mut seen: Vec<(Node, bool)> = Vec::new();
        for l in step.links.get(b.links.clone()).unwrap_or(&[]) {
            for fact in [(l.from, l.kind.from_is_true()), (l.to, l.kind.to_is_true())] {
                if !seen.contains(&fact) {
                    seen.push(fact);
                }
            }
        }
        total += seen.len().max(1);
    }
    total
}

/// Sudoku Explainer's length bonus: +0.1 each time the length (complexity − 2) passes 4, 6, 8,
/// 12, 16, 24, 32, 48, … (the ceiling grows by 3/2 and 4/3 in turn).
pub fn length_bonus(complexity: usize) -> f32 {
    let length = complexity.saturating_sub(2);
    let mut ceil = 4usize;
    let mut tenths = 0u32;
    let mut odd = false;
    while length > ceil {
        tenths += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    tenths as f32 / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds() {
        assert_eq!(Level::from_rating(1.5), Level::Easy);
        assert_eq!(Level::from_rating(2.6), Level::Medium);
        assert_eq!(Level::from_rating(4.2), Level::Hard);
        assert_eq!(Level::from_rating(6.6), Level::Unfair);
        assert_eq!(Level::from_rating(10.0), Level::Extreme);
    }

    #[test]
    fn length_bonus_steps() {
        assert_eq!(length_bonus(6), 0.0);
        assert_eq!(length_bonus(7), 0.1);
        assert_eq!(length_bonus(9), 0.2);
        assert_eq!(length_bonus(10), 0.2);
        assert_eq!(length_bonus(11), 0.3);
        assert_eq!(length_bonus(15), 0.4);
        assert!((length_bonus(100) - 1.0).abs() < 1e-6);
    }

    /// Puzzles from the Sudoku Exchange bank (public domain) with their Sukaku Explainer rating.
    fn explained(puzzle: &str) -> crate::sudoku::Explained {
        let grid = crate::sudoku::parse::parse_puzzle(puzzle).expect("test puzzle parses");
        crate::sudoku::solve_explained(&grid).expect("test puzzle solves")
    }

    #[test]
    fn direct_steps_rate_below_plain_ones() {
        // SE 2.5: our path's hardest steps are plain claiming (2.8) and pointing (2.6), but in
        // those positions Sudoku Explainer takes a direct step leading to a hidden single.
        for (puzzle, plain) in [
            (
                "840902075002060100000514000000000000200040008010090030000000000097000360008607400",
                2.8,
            ),
            (
                "020000010900000006765000349002000400004579100500000003000803000009020700030010080",
                2.6,
            ),
        ] {
            let e = explained(puzzle);
            assert_eq!(Rating::of_steps(&e.steps).score, plain, "{puzzle}");
            assert_eq!(e.rating.score, 2.5, "{puzzle}");
            assert_eq!(e.guesses, 0);
        }
    }

    #[test]
    fn a_direct_step_needs_the_hidden_single() {
        // Every locked-candidates instance along some SE 2.5 paths: direct exactly when one of
        // its eliminations leaves the digit one place in a house of the base's kind.
        let ctx = crate::sudoku::techniques::Context { unique: true };
        let (mut direct, mut plain) = (0, 0);
        for puzzle in [
            "840902075002060100000514000000000000200040008010090030000000000097000360008607400",
            "680020049005914800900000005000183000030050090000000000009231700050060010010507020",
            "700080002080507090009040100000708000360020079900000001800205006002010700400000003",
            "004609200080030070500020003600000008093000720200000009300010005010070090009208100",
        ] {
            let e = explained(puzzle);
            let mut grid = e.puzzle.clone();
            for path_step in &e.steps {
                for t in [
                    Technique::LockedCandidatesPointing,
                    Technique::LockedCandidatesClaiming,
                ] {
                    for step in crate::sudoku::techniques::find_all(t, &grid, &ctx, 64) {
                        let base = step.houses_with(Role::Base).next().unwrap();
                        let mut after = grid.clone();
                        step.apply(&mut after);
                        let single = step.eliminations.iter().any(|el| {
                            el.cell.houses().into_iter().any(|h| {
                                h.kind() == base.kind()
                                    && after.house_digit_cells(h, el.digit).len() == 1
                                    && grid.house_digit_cells(h, el.digit).len() > 1
                            })
                        });
                        let r = rating_in_position(&step, &grid);
                        if single {
                            direct += 1;
                            assert!(r < step_rating(&step), "{}", step.text());
                        } else {
                            plain += 1;
                            assert_eq!(r, step_rating(&step), "{}", step.text());
                        }
                    }
                }
                path_step.apply(&mut grid);
            }
        }
        assert!(direct > 0, "some locked-candidates step is direct");
        assert!(plain > 0, "some locked-candidates step is plain");
    }

    #[test]
    fn w_wing_rates_as_a_mixed_chain_unless_an_easier_step_stands_in() {
        // SE 4.5: our path's hardest step is a W-Wing; as a chain (mixed strong links, 5 links)
        // it rates 7.1, but a unique rectangle (4.5) is available in its position.
        let e = explained(
            "203709105000000000860000027000000000100432008007805600000000000075000490030506080",
        );
        let w = e.steps.iter().find(|s| s.technique == Technique::WWing);
        let w = w.expect("the path has a W-Wing");
        assert!((step_rating(w) - 7.1).abs() < 1e-6, "{}", step_rating(w));
        assert_eq!(e.rating.score, 4.5);
        assert!(in_sudoku_explainer(Technique::UniqueRectangle1));
        assert!(!in_sudoku_explainer(Technique::HiddenRectangle));
    }

    /// A chain step of `technique` through `nodes` (cells by index, one digit each; a node of
    /// two cells is a group), strong and weak links alternating from a strong one.
    fn chain(technique: Technique, nodes: &[(&[usize], u8)]) -> Step {
        use crate::sudoku::types::{Cell, CellSet};
        let node = |(cells, d): &(&[usize], u8)| Node {
            cells: cells
                .iter()
                .map(|&i| Cell::from_index(i))
                .collect::<CellSet>(),
            digit: Digit::new(*d).expect("digit 1-9"),
        };
        let mut step = Step::new(technique);
        for (i, pair) in nodes.windows(2).enumerate() {
            step.links.push(crate::sudoku::step::Link {
                from: node(&pair[0]),
                to: node(&pair[1]),
                kind: if i % 2 == 0 {
                    LinkKind::Strong
                } else {
                    LinkKind::Weak
                },
            });
        }
        step
    }

    /// Asserts that `step` rates `expected` (to floating-point rounding).
    fn assert_rates(step: &Step, expected: f32) {
        let rating = step_rating(step);
        assert!((rating - expected).abs() < 1e-6, "{rating} vs {expected}");
    }

    #[test]
    fn a_grouped_chain_rates_as_the_forcing_chain_sudoku_explainer_needs() {
        // 5 in r1c1 = r1c5 - r2c4/r3c4 (a group in box 2, column 4) = r8c4: two strong links,
        // Sukaku Explainer's 2-string kite (4.1), grouped 4.3.
        let plain = chain(
            Technique::Aic,
            &[(&[0], 5), (&[4], 5), (&[12], 5), (&[66], 5)],
        );
        assert_rates(&plain, 4.1);
        let grouped = chain(
            Technique::Aic,
            &[(&[0], 5), (&[4], 5), (&[12, 21], 5), (&[66], 5)],
        );
        assert_rates(&grouped, 4.3);
        // Five strong links of one digit, one to the group r3c8/r3c9: no chain of single
        // candidates, so Sudoku Explainer needs a Nishio chain, 7.5 + 0.3 for its 11
        // candidates + 2.
        let long = chain(
            Technique::Aic,
            &[
                (&[0], 5),
                (&[4], 5),
                (&[22], 5),
                (&[25, 26], 5),
                (&[62], 5),
                (&[56], 5),
                (&[74], 5),
                (&[80], 5),
                (&[44], 5),
                (&[36], 5),
            ],
        );
        assert_rates(&long, 7.8);
        // Over two digits (5 and 7 in r1c1 first): a multiple forcing chain, 8.0 + 0.1.
        let mixed = chain(
            Technique::Aic,
            &[(&[0], 7), (&[0], 5), (&[4], 5), (&[12, 21], 5)],
        );
        assert_rates(&mixed, 8.1);
    }

    #[test]
    fn almost_locked_sets_rate_as_multiple_forcing_chains() {
        for t in [
            Technique::AlsXz,
            Technique::AlsXyWing,
            Technique::AlsChain,
            Technique::DeathBlossom,
        ] {
            assert_eq!(step_rating(&Step::new(t)), 8.0, "{t:?}");
            assert_eq!(lowest_rating(t), 8.0, "{t:?}");
        }
        assert_eq!(step_rating(&Step::new(Technique::SueDeCoq)), 7.0);
    }

    #[test]
    fn hardest_step_wins() {
        let steps = vec![
            Step::new(Technique::HiddenSingle),
            Step::new(Technique::XWing),
            Step::new(Technique::NakedSingle),
        ];
        let r = Rating::of_steps(&steps);
        assert_eq!(r.hardest, Some(Technique::XWing));
        assert_eq!(r.level, Level::Medium);
    }
}
