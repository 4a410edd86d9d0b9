//! Bit counting for the sealed search's hot path, with the processor's `popcnt` instruction
//! when it has one.
//!
//! Release builds target baseline x86-64 (so that `cargo run --release` runs on any x86-64),
//! where `u32::count_ones` is a dozen shifts and masks. [`popcount`] instead asks the CPU once
//! (`is_x86_feature_detected!`, cached by the standard library: one load and a predictable
//! branch per call) and then issues `popcnt` as inline assembly, which needs no
//! `#[target_feature]` on the callers. A build with `-C target-cpu=native` (or any target
//! with `popcnt`) compiles it to the plain instruction with no check at all.

/// The number of set bits of `x`.
#[inline(always)]
pub(crate) fn popcount(x: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            let n: u32;
            // SAFETY: `popcnt` exists on this CPU (checked just above); it reads one
            // register and writes another, touching neither memory nor the stack.
            unsafe {
                std::arch::asm!(
                    "popcnt {n:e}, {x:e}",
                    x = in(reg) x,
                    n = lateout(reg) n,
                    options(pure, nomem, nostack)
                );
            }
            return n;
        }
    }
    x.count_ones()
}

#[cfg(test)]
mod tests {
    use super::popcount;

    #[test]
    fn counts_bits_like_the_definition() {
        let mut x = 0x9e37_79b9u32;
        for _ in 0..10_000 {
            let slow = (0..32).filter(|i| x >> i & 1 == 1).count() as u32;
            assert_eq!(popcount(x), slow, "{x:#x}");
            x = x.wrapping_mul(0x2c1b_3c6d).wrapping_add(0x297a_2d39) ^ (x >> 7);
        }
        assert_eq!(popcount(0), 0);
        assert_eq!(popcount(u32::MAX), 32);
    }
}
