//! Difficulty: a Sudoku-Explainer-like numeric rating (the hardest step on the solving path, on
//! the SE scale given by [`Technique::se_rating`]) and a coarse [`Level`].
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

use super::step::{Step, Technique};

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
    /// Rates a path of steps: the maximum SE rating over its steps.
    pub fn of_steps(steps: &[Step]) -> Rating {
        let hardest = steps.iter().map(|s| s.technique).max_by(|a, b| {
            a.se_rating()
                .partial_cmp(&b.se_rating())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let score = hardest.map_or(0.0, |t| t.se_rating());
        Rating {
            score,
            hardest,
            level: Level::from_rating(score),
        }
    }
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
