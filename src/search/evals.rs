//! The static evaluations of one search, kept by position key: a quiescence node whose
//! position the search has already evaluated (a transposition, or the same leaf reached again
//! by the next iteration or a re-search) reads its score instead of computing it again. One
//! 8-byte entry per slot, replaced on every miss; a score is kept only when it fits 16 bits.

/// log2 of the slots: 2^15 entries, 256 KiB (2^13 and 2^17 searched no faster: a Gladiator
/// depth-6 search from the start, `benches/alt_search.rs`, 2026-12-07).
const BITS: u32 = 15;

/// The cache (empty, and never consulted, for a game whose evaluation it may not keep: see
/// [`super::Searchable::CACHE_EVALUATION`]).
pub(super) struct Evals {
    /// Each slot: bits 17–63 of the key, a set bit 16 (so an empty slot matches no key), and
    /// the score's 16 bits.
    slots: Vec<u64>,
}

/// A slot's tag for `key`: its bits 17–63 (bits 0–14 pick the slot) and bit 16 set.
#[inline(always)]
fn tag(key: u64) -> u64 {
    (key >> 17 << 17) | 1 << 16
}

impl Evals {
    /// A cache with slots when `enabled`, else one that keeps nothing.
    pub(super) fn new(enabled: bool) -> Evals {
        Evals {
            slots: if enabled {
                vec![0; 1 << BITS]
            } else {
                Vec::new()
            },
        }
    }

    /// Starts the slot of `key` on its way into the cache (a child's, before its evaluation).
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        if let Some(slot) = self.slots.get(key as usize & ((1 << BITS) - 1)) {
            super::table::prefetch_line(slot);
        }
    }

    /// The score of the position with key `key`: the kept one, or `evaluate()` (then kept).
    #[inline(always)]
    pub(super) fn get(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        let Some(slot) = self.slots.get_mut(key as usize & ((1 << BITS) - 1)) else {
            return evaluate();
        };
        let tag = tag(key);
        if *slot & !0xffff == tag {
            return i32::from(*slot as u16 as i16);
        }
        let score = evaluate();
        if let Ok(short) = i16::try_from(score) {
            *slot = tag | u64::from(short as u16);
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept score comes back, with its sign; another key on the same slot replaces it; a
    /// score beyond 16 bits is computed every time; a disabled cache always computes.
    #[test]
    fn a_kept_score_comes_back_for_its_key_only() {
        let mut evals = Evals::new(true);
        let key = 0x1234_5678_9abc_def0_u64;
        assert_eq!(evals.get(key, || -321), -321);
        assert_eq!(evals.get(key, || panic!("kept")), -321);
        // The same slot (the low 15 bits), another key: computed, and now kept instead.
        let other = key ^ 1 << 40;
        assert_eq!(evals.get(other, || 77), 77);
        assert_eq!(evals.get(other, || panic!("kept")), 77);
        assert_eq!(evals.get(key, || -5), -5);
        // An empty slot's zero is no score: key 0 is computed.
        assert_eq!(evals.get(0, || 9), 9);
        assert_eq!(evals.get(0, || panic!("kept")), 9);
        let mut computed = 0;
        for _ in 0..2 {
            evals.get(3, || {
                computed += 1;
                40_000
            });
        }
        assert_eq!(computed, 2);
        let mut off = Evals::new(false);
        let mut computed = 0;
        for _ in 0..2 {
            assert_eq!(
                off.get(key, || {
                    computed += 1;
                    12
                }),
                12
            );
        }
        assert_eq!(computed, 2);
    }
}
