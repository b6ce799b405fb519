//! Which x86-64 kernel tiers a process may use: those the CPU has, less
//! those named in the environment variable `NEARDUP_DISABLE_CPU_FEATURES`.
//!
//! The variable is read once a process: names separated by commas or
//! spaces, case ignored. `avx512` switches the AVX-512 kernels off (the
//! AVX2 ones run where the CPU has AVX2), `avx2` switches both off (the
//! portable code runs, as on a CPU without AVX2); any other name is
//! ignored. Every tier computes the same values (the kernels' tests hold
//! each to the portable code, and `scripts/test.sh` runs the golden
//! vectors under each tier), so this changes speed only: it is for
//! measuring and testing the fallbacks on a CPU that has the features
//! (BENCHMARKS.md, "Without AVX-512"), as NumPy's
//! `NPY_DISABLE_CPU_FEATURES` is.

use core::sync::atomic::{AtomicU8, Ordering};

/// A tier of kernels the variable can switch off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tier {
    /// AVX-512 (F, BW, DQ and the extensions some kernels add).
    Avx512,
    /// AVX2; switching it off switches AVX-512 off too.
    Avx2,
}

/// Bit 7: the variable was read; bit 0: AVX-512 off; bit 1: AVX2 off.
static OFF: AtomicU8 = AtomicU8::new(0);

/// Whether `tier` is switched off by `NEARDUP_DISABLE_CPU_FEATURES`. Cheap
/// after the first call (one relaxed load): the kernels ask it where they
/// ask `std` whether the CPU has their features.
#[inline]
pub(crate) fn switched_off(tier: Tier) -> bool {
    let mut off = OFF.load(Ordering::Relaxed);
    if off == 0 {
        off = read();
        // Threads that race here read the same variable: any store is right.
        OFF.store(off, Ordering::Relaxed);
    }
    off & match tier {
        Tier::Avx512 => 1,
        Tier::Avx2 => 2,
    } != 0
}

/// The variable's bits, bit 7 set.
#[cold]
fn read() -> u8 {
    let value = std::env::var("NEARDUP_DISABLE_CPU_FEATURES").unwrap_or_default();
    bits(&value)
}

/// The bits of a value of the variable, bit 7 set.
fn bits(value: &str) -> u8 {
    let named = |tier: &str| {
        value
            .split(|c: char| c == ',' || c.is_whitespace())
            .any(|n| n.eq_ignore_ascii_case(tier))
    };
    let avx2 = named("avx2");
    let avx512 = avx2 || named("avx512");
    0x80 | u8::from(avx512) | u8::from(avx2) << 1
}

#[cfg(test)]
mod tests {
    use super::bits;

    #[test]
    fn the_names_switch_off_their_tier_and_avx2_the_tier_above() {
        assert_eq!(bits(""), 0x80);
        assert_eq!(bits("avx512"), 0x81);
        assert_eq!(bits("AVX512"), 0x81);
        assert_eq!(bits("sse4, avx512"), 0x81);
        assert_eq!(bits("avx2"), 0x83);
        assert_eq!(bits("avx512 avx2"), 0x83);
        // A name is whole: neither a prefix nor a longer name counts.
        assert_eq!(bits("avx"), 0x80);
        assert_eq!(bits("avx512f"), 0x80);
        assert_eq!(bits("avx2x"), 0x80);
    }
}
