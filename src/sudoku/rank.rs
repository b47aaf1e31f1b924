//! Rank correlation: Spearman's coefficient of paired samples, at once ([`spearman`]) or
//! streamed in memory that grows with the distinct pairs only ([`RankCorrelation`]), to compare
//! our ratings with reference ones.

use std::collections::BTreeMap;

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
