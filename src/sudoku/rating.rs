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
//! the forcing chains, 0.948 and 0.952 (0.950 over all 14,394). The main gaps left: SE 4.6–6.0 puzzles where
//! our path needs an XY-chain (6.7–7.0), and SE 7.5–8.5 puzzles we solve with AICs (7.1–7.3).
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

use std::collections::BTreeMap;
use std::fmt;

use super::grid::Grid;
use super::step::{LinkKind, Node, Role, Step, Technique};
use super::types::{Digit, House};

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
    match technique {
        HiddenSingle => 1.2,
        LockedCandidatesPointing => 1.7,
        LockedCandidatesClaiming => 1.9,
        HiddenPair => 2.0,
        HiddenTriple => 2.5,
        t => t.se_rating(),
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
            base + length_bonus(cells.len() + step.links.len() + 4)
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
    let base = match (is_loop, in_cell && in_house) {
        (_, true) => 7.0,
        (true, false) => 6.5,
        (false, false) => 6.6,
    };
    // Sudoku Explainer counts the chain's nodes plus the target, assumed true and found false.
    base + length_bonus(step.links.len() + 3)
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

/// Spearman rank correlation of paired samples (ties get their average rank). `None` when there
/// are fewer than two pairs, the lengths differ, or one side is constant. Pairs with a NaN are
/// left out.
pub fn spearman(xs: &[f64], ys: &[f64]) -> Option<f64> {
    if xs.len() != ys.len() {
        return None;
    }
    let mut acc = RankCorrelation::default();
    for (&x, &y) in xs.iter().zip(ys) {
        acc.add(x, y);
    }
    acc.spearman()
}

/// A value ordered by [`f64::total_cmp`], for map keys.
#[derive(Clone, Copy, Debug)]
struct Key(f64);

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.0.total_cmp(&other.0).is_eq()
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Spearman's rank correlation accumulated one pair at a time, in memory that grows with the
/// number of *distinct* pairs, not of pairs: ratings take few values, so a stream of millions
/// of rated puzzles needs a few kilobytes. Ties get their average rank, as in [`spearman`].
#[derive(Clone, Debug, Default)]
pub struct RankCorrelation {
    pairs: BTreeMap<(Key, Key), u64>,
    n: u64,
}

impl RankCorrelation {
    /// Adds one pair; a pair with a NaN is left out.
    pub fn add(&mut self, x: f64, y: f64) {
        if x.is_nan() || y.is_nan() {
            return;
        }
        *self.pairs.entry((Key(x), Key(y))).or_default() += 1;
        self.n += 1;
    }

    /// Number of pairs added.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// Whether no pair was added.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The correlation; `None` with fewer than two pairs or when one side is constant.
    pub fn spearman(&self) -> Option<f64> {
        if self.n < 2 {
            return None;
        }
        let mut xs: BTreeMap<Key, u64> = BTreeMap::new();
        let mut ys: BTreeMap<Key, u64> = BTreeMap::new();
        for (&(x, y), &w) in &self.pairs {
            *xs.entry(x).or_default() += w;
            *ys.entry(y).or_default() += w;
        }
        // Average rank of each distinct value, centred on the mean rank (n + 1) / 2.
        let mean = (self.n as f64 + 1.0) / 2.0;
        let centred_ranks = |counts: &BTreeMap<Key, u64>| -> (BTreeMap<Key, f64>, f64) {
            let mut below = 0u64;
            let mut ranks = BTreeMap::new();
            let mut spread = 0.0;
            for (&v, &c) in counts {
                let r = below as f64 + (c as f64 + 1.0) / 2.0 - mean;
                ranks.insert(v, r);
                spread += c as f64 * r * r;
                below += c;
            }
            (ranks, spread)
        };
        let (rx, saa) = centred_ranks(&xs);
        let (ry, sbb) = centred_ranks(&ys);
        if saa == 0.0 || sbb == 0.0 {
            return None;
        }
        let sab: f64 = self
            .pairs
            .iter()
            .map(|(&(x, y), &w)| w as f64 * rx[&x] * ry[&y])
            .sum();
        Some(sab / (saa * sbb).sqrt())
    }
}

#[cfg(test)]
mod stats_tests {
    use super::spearman;

    #[test]
    fn spearman_basics() {
        let x = [1.0, 2.0, 3.0, 4.0];
        assert!((spearman(&x, &[10.0, 20.0, 30.0, 40.0]).unwrap() - 1.0).abs() < 1e-12);
        assert!((spearman(&x, &[4.0, 3.0, 2.0, 1.0]).unwrap() + 1.0).abs() < 1e-12);
        assert_eq!(spearman(&x, &[1.0, 1.0, 1.0, 1.0]), None);
        // Ties: ranks averaged.
        let r = spearman(&[1.0, 1.0, 2.0], &[1.0, 2.0, 3.0]).unwrap();
        assert!((r - 0.75f64.sqrt()).abs() < 1e-12, "{r}");
        assert_eq!(spearman(&x, &[1.0]), None);
    }

    #[test]
    fn streamed_correlation_equals_the_textbook_formula() {
        // Without ties Spearman is 1 - 6 Σd² / (n (n² - 1)).
        let x = [3.0, 1.0, 4.0, 1.5, 5.0, 9.0, 2.0, 6.0];
        let y = [2.0, 7.0, 1.0, 8.0, 2.8, 1.8, 2.9, 0.5];
        let rank = |v: &[f64], i: usize| v.iter().filter(|&&o| o < v[i]).count() as f64;
        let n = x.len() as f64;
        let d2: f64 = (0..x.len())
            .map(|i| (rank(&x, i) - rank(&y, i)).powi(2))
            .sum();
        let want = 1.0 - 6.0 * d2 / (n * (n * n - 1.0));
        let mut acc = super::RankCorrelation::default();
        for (a, b) in x.iter().zip(&y) {
            acc.add(*a, *b);
        }
        acc.add(f64::NAN, 1.0);
        assert_eq!(acc.len(), 8);
        assert!((acc.spearman().unwrap() - want).abs() < 1e-12);
    }
}
