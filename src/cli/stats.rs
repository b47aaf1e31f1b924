//! A streaming histogram for the batch commands' timing summaries: quantiles over millions of
//! values in constant memory.

/// Values below this are counted exactly.
const EXACT: usize = 1 << 16;
/// Above [`EXACT`], buckets grow by this ratio (quantiles within 1 %).
const RATIO: f64 = 1.01;
/// Log buckets: enough to reach past `u64::MAX` from [`EXACT`].
const LOG_BUCKETS: usize = 3400;

/// Counts of non-negative integers (microseconds, say): exact below 65,536, within 1 % above.
pub struct Histogram {
    exact: Vec<u64>,
    log: Vec<u64>,
    n: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            exact: vec![0; EXACT],
            log: vec![0; LOG_BUCKETS],
            n: 0,
        }
    }
}

impl Histogram {
    /// Counts `v`.
    pub fn add(&mut self, v: u64) {
        match usize::try_from(v) {
            Ok(i) if i < EXACT => self.exact[i] += 1,
            _ => {
                let b = ((v as f64 / EXACT as f64).ln() / RATIO.ln()) as usize;
                self.log[b.min(LOG_BUCKETS - 1)] += 1;
            }
        }
        self.n += 1;
    }

    /// How many values were counted.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// The value of rank `round((n - 1) q)` in sorted order (the lower edge of its bucket above
    /// 65,535); 0 when empty.
    pub fn quantile(&self, q: f64) -> u64 {
        if self.n == 0 {
            return 0;
        }
        let rank = ((self.n - 1) as f64 * q.clamp(0.0, 1.0)).round() as u64;
        let mut seen = 0u64;
        for (i, &c) in self.exact.iter().enumerate() {
            seen += c;
            if seen > rank {
                return i as u64;
            }
        }
        for (b, &c) in self.log.iter().enumerate() {
            seen += c;
            if seen > rank {
                return (EXACT as f64 * RATIO.powi(b as i32)) as u64;
            }
        }
        u64::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_exact_below_the_log_range_and_close_above() {
        let mut h = Histogram::default();
        assert_eq!(h.quantile(0.5), 0);
        for v in [5, 1, 3, 2, 4] {
            h.add(v);
        }
        assert_eq!(h.len(), 5);
        assert_eq!(h.quantile(0.5), 3);
        assert_eq!(h.quantile(0.0), 1);
        assert_eq!(h.quantile(1.0), 5);
        let mut h = Histogram::default();
        for v in 0..100u64 {
            h.add(1_000_000 + v * 10_000);
        }
        let p50 = h.quantile(0.5) as f64;
        assert!((p50 / 1_500_000.0 - 1.0).abs() < 0.02, "{p50}");
        h.add(u64::MAX);
        assert!(h.quantile(1.0) > 1 << 60);
    }
}
