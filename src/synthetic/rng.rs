//! The one random generator of the synthetic-data code (SplitMix64): every generated cell,
//! screenshot and webcam frame is reproducible from a seed without a random-number crate.
//!
//! Owns the bit stream and the few draws built on it (uniform, normal, choice, shuffle). It
//! knows nothing of images or fonts.

/// A small deterministic random generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// An independent generator for item `index` of a stream seeded with `seed`: item `k`
    /// is the same however many items are made.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        let mut mix = Rng::new(seed);
        let base = mix.next_u64();
        let mut item = Rng::new(base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        // One draw decorrelates neighbouring indices.
        item.next_u64();
        item
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform integer in `0..n` (`n` 0 gives 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// Uniform integer in `lo..=hi` (`lo` when `hi < lo`).
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f32) -> bool {
        self.unit() < p
    }

    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f32 {
        let u1 = self.unit().max(1e-7);
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
    }

    /// A uniformly chosen element of `items` (`None` when empty).
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.below(items.len()))
        }
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// 64-bit FNV-1a of `bytes`: a hash that never changes between builds or Rust releases
/// (unlike `std`'s `DefaultHasher`), for decisions that must stay fixed (font split, per-name
/// seeds).
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_uniformish() {
        let mut a = Rng::new(3);
        let mut b = Rng::new(3);
        let xs: Vec<f32> = (0..1000).map(|_| a.unit()).collect();
        let ys: Vec<f32> = (0..1000).map(|_| b.unit()).collect();
        assert_eq!(xs, ys);
        let mean = xs.iter().sum::<f32>() / 1000.0;
        assert!((mean - 0.5).abs() < 0.05, "mean {mean}");
        assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)));
    }

    #[test]
    fn item_streams_differ_and_repeat() {
        let first: Vec<u64> = (0..4).map(|i| Rng::for_item(7, i).next_u64()).collect();
        let again: Vec<u64> = (0..4).map(|i| Rng::for_item(7, i).next_u64()).collect();
        assert_eq!(first, again);
        let mut sorted = first.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 4);
        assert_ne!(Rng::for_item(8, 0).next_u64(), first[0]);
    }

    #[test]
    fn stable_hash_is_fnv1a() {
        // Reference values of 64-bit FNV-1a.
        assert_eq!(stable_hash(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(stable_hash(b"a"), 0xAF63_DC4C_8601_EC8C);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = Rng::new(5);
        let mut v: Vec<usize> = (0..50).collect();
        rng.shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }
}
