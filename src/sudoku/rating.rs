//! Difficulty: a Sudoku-Explainer-like numeric rating (the hardest step on the solving path, each
//! step rated by [`step_rating`]: its technique's base value, [`Technique::se_rating`], plus
//! Sudoku Explainer's length bonus for chains) and a coarse [`Level`].
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

use std::fmt;

use super::step::{LinkKind, Node, Step, Technique};

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
    /// Rates a path of steps: the maximum rating over its steps.
    pub fn of_steps(steps: &[Step]) -> Rating {
        let hardest = steps
            .iter()
            .map(|s| (s.rating(), s.technique))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let score = hardest.map_or(0.0, |h| h.0);
        Rating {
            score,
            hardest: hardest.map(|h| h.1),
            level: Level::from_rating(score),
        }
    }
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
        XChain | XYChain | RemotePair | Aic => chain_rating(step),
        // Rated as the chain through the sets' cells that would find the same deduction.
        AlsChain | AlsXz | AlsXyWing | DeathBlossom | SueDeCoq => {
            let cells: super::types::CellSet = step.marks.iter().map(|m| m.candidate.cell).collect();
            base + length_bonus(cells.len() + step.links.len() + 4)
        }
        ForcingChainContradiction | ForcingChainVerity | ForcingNetContradiction
        | ForcingNetVerity => base + length_bonus(branch_complexity(step)),
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
            let from_true = l.kind == LinkKind::Weak;
            for fact in [(l.from, from_true), (l.to, !from_true)] {
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
/// are fewer than two pairs, the lengths differ, or one side is constant.
pub fn spearman(xs: &[f64], ys: &[f64]) -> Option<f64> {
    if xs.len() != ys.len() || xs.len() < 2 {
        return None;
    }
    let rx = ranks(xs);
    let ry = ranks(ys);
    pearson(&rx, &ry)
}

fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].partial_cmp(&v[b]).unwrap_or(std::cmp::Ordering::Equal));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = avg;
        }
        i = j + 1;
    }
    r
}

fn pearson(a: &[f64], b: &[f64]) -> Option<f64> {
    let n = a.len() as f64;
    let ma = a.iter().sum::<f64>() / n;
    let mb = b.iter().sum::<f64>() / n;
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa == 0.0 || sbb == 0.0 {
        None
    } else {
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
        assert!(r > 0.8 && r < 0.9, "{r}");
    }
}
