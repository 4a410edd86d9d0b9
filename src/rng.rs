//! Deterministic random numbers.
//!
//! [`Rng`] is xoshiro256** (Blackman and Vigna) whose 256-bit state is filled from a single `u64`
//! seed by SplitMix64, as the authors recommend. It is small, fast, and reproducible across
//! platforms: the same seed gives the same sequence everywhere. It is not cryptographic; sealed
//! moves take their nonces from the operating system instead (see [`crate::commit`]).

/// The SplitMix64 generator, used only to expand a seed into xoshiro256** state.
#[derive(Clone, Debug)]
struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// A seeded xoshiro256** pseudo-random number generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose whole sequence is determined by `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut sm = SplitMix64 { state: seed };
        let s = [sm.next_u64(), sm.next_u64(), sm.next_u64(), sm.next_u64()];
        // SplitMix64 is a bijection of its counter, so four consecutive outputs are never all
        // zero (the one state xoshiro must avoid).
        debug_assert!(s != [0; 4]);
        Rng { s }
    }

    /// The next 64 uniformly distributed bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform `f64` in `[0, 1)` with 53 random bits (every multiple of 2⁻⁵³ equally likely).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `0..n`, without modulo bias (Lemire's multiply-and-reject method).
    ///
    /// # Panics
    /// Panics if `n == 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0): empty range");
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            // 2⁶⁴ mod n: the low products below it belong to an incomplete band and are redrawn.
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// An index into `weights`, drawn with probability proportional to its weight.
    ///
    /// Weights must be finite and non-negative (checked by `debug_assert!`); an index whose
    /// weight is zero is never chosen while any weight is positive. If no weight is positive,
    /// the index is drawn uniformly instead.
    ///
    /// # Panics
    /// Panics if `weights` is empty: there is no index to return.
    pub fn choose_weighted(&mut self, weights: &[f64]) -> usize {
        assert!(!weights.is_empty(), "Rng::choose_weighted: no weights");
        debug_assert!(
            weights.iter().all(|w| w.is_finite() && *w >= 0.0),
            "Rng::choose_weighted: weights must be finite and non-negative: {weights:?}"
        );
        let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
        if !(total > 0.0 && total.is_finite()) {
            return self.below(weights.len() as u64) as usize;
        }
        let target = self.next_f64() * total;
        let mut cumulative = 0.0;
        let mut last_positive = 0;
        for (i, &w) in weights.iter().enumerate() {
            if w > 0.0 {
                cumulative += w;
                last_positive = i;
                if target < cumulative {
                    return i;
                }
            }
        }
        // Rounding can leave `target` just above the running sum; the draw belongs to the last
        // index that has weight.
        last_positive
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_reference_outputs_for_seed_zero() {
        let mut sm = SplitMix64 { state: 0 };
        assert_eq!(sm.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(sm.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn seeding_uses_splitmix64_outputs_as_state() {
        let rng = Rng::new(0);
        assert_eq!(rng.s[0], 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.s[1], 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn xoshiro256starstar_matches_reference_outputs() {
        // The published outputs of the reference xoshiro256** implementation from state
        // [1, 2, 3, 4] (also the test vector of the rand_xoshiro crate). The first two follow by
        // hand: rotl(2 * 5, 7) * 9 = 11520, and after one step s[1] = 0.
        let mut rng = Rng { s: [1, 2, 3, 4] };
        let expected = [
            11520,
            0,
            1509978240,
            1215971899390074240,
            1216172134540287360,
            607988272756665600,
            16172922978634559625,
            8476171486693032832,
            10595114339597558777,
            2904607092377533576,
        ];
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
    }

    #[test]
    fn same_seed_same_sequence_different_seed_different_sequence() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let mut c = Rng::new(43);
        let xs: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..100).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
    }

    #[test]
    fn next_f64_is_in_unit_interval_and_spread() {
        let mut rng = Rng::new(7);
        let mut sum = 0.0;
        let n = 100_000;
        for _ in 0..n {
            let x = rng.next_f64();
            assert!((0.0..1.0).contains(&x));
            sum += x;
        }
        let mean = sum / f64::from(n);
        assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
    }

    #[test]
    fn below_stays_in_bounds_and_hits_every_value() {
        let mut rng = Rng::new(1);
        for n in [1u64, 2, 3, 7, 10, 1000] {
            let mut seen = vec![false; n.min(1000) as usize];
            for _ in 0..20_000 {
                let x = rng.below(n);
                assert!(x < n);
                seen[x as usize] = true;
            }
            assert!(seen.iter().all(|s| *s), "n = {n}");
        }
        for n in [u64::MAX, (1 << 63) + 1, 3 << 62] {
            for _ in 0..1000 {
                assert!(rng.below(n) < n);
            }
        }
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut rng = Rng::new(2);
        let mut counts = [0u32; 6];
        let draws = 60_000;
        for _ in 0..draws {
            counts[rng.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_500..=10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    #[should_panic]
    fn below_zero_panics() {
        Rng::new(0).below(0);
    }

    #[test]
    fn choose_weighted_never_picks_zero_weight_and_follows_weights() {
        let mut rng = Rng::new(3);
        let weights = [0.0, 1.0, 0.0, 3.0, 6.0, 0.0];
        let total: f64 = weights.iter().sum();
        let mut counts = [0u32; 6];
        let draws = 10_000;
        for _ in 0..draws {
            counts[rng.choose_weighted(&weights)] += 1;
        }
        for (i, &w) in weights.iter().enumerate() {
            let freq = f64::from(counts[i]) / f64::from(draws);
            if w == 0.0 {
                assert_eq!(counts[i], 0, "zero-weight index {i} picked: {counts:?}");
            } else {
                assert!((freq - w / total).abs() < 0.03, "index {i}: {counts:?}");
            }
        }
    }

    #[test]
    fn choose_weighted_with_single_positive_weight_always_picks_it() {
        let mut rng = Rng::new(4);
        for _ in 0..1000 {
            assert_eq!(rng.choose_weighted(&[0.0, 0.0, 1e-300, 0.0]), 2);
        }
    }

    #[test]
    fn choose_weighted_with_all_zero_weights_is_uniform() {
        let mut rng = Rng::new(5);
        let mut counts = [0u32; 4];
        for _ in 0..8_000 {
            counts[rng.choose_weighted(&[0.0; 4])] += 1;
        }
        for c in counts {
            assert!((1_700..=2_300).contains(&c), "{counts:?}");
        }
    }

    #[test]
    #[should_panic]
    fn choose_weighted_empty_panics() {
        Rng::new(0).choose_weighted(&[]);
    }
}
