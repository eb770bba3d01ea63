//! A small seeded pseudo-random generator (PCG32, XSH-RR variant) with no global state.
//!
//! # Example
//!
//! ```
//! use hopkit::rng::Pcg32;
//!
//! let mut a = Pcg32::new(42, 54);
//! let mut b = Pcg32::new(42, 54);
//! assert_eq!(a.next_u32(), b.next_u32()); // same seed, same sequence, every platform
//! assert!(a.below(6) < 6);
//! let x = a.range_f32(-1.0, 1.0);
//! assert!((-1.0..1.0).contains(&x));
//! ```
//!
//! Used for fleet start offsets and wander steering. Same seed → same sequence on every platform.
//! Not cryptographic.

/// PCG32 generator: 64-bit state, 64-bit odd increment, 32-bit output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Pcg32 {
    state: u64,
    inc: u64,
}

const MULT: u64 = 6_364_136_223_846_793_005;

impl Pcg32 {
    /// Seed with a value and a stream selector (as the reference `pcg32_srandom_r`).
    pub const fn new(seed: u64, stream: u64) -> Self {
        let inc = (stream << 1) | 1;
        // state = 0; step; state += seed; step
        let mut state: u64 = 0;
        state = state.wrapping_mul(MULT).wrapping_add(inc);
        state = state.wrapping_add(seed);
        state = state.wrapping_mul(MULT).wrapping_add(inc);
        Pcg32 { state, inc }
    }

    /// Seed with stream 0x5851f42d4c957f2d's default-style stream (`stream = 54`, as the reference demo).
    pub const fn seeded(seed: u64) -> Self {
        Pcg32::new(seed, 54)
    }

    /// Next 32 random bits.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(MULT).wrapping_add(self.inc);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// Uniform integer in `[0, bound)`, unbiased (rejection sampling). `bound == 0` returns 0.
    pub fn below(&mut self, bound: u32) -> u32 {
        if bound == 0 {
            return 0;
        }
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let r = self.next_u32();
            if r >= threshold {
                return r % bound;
            }
        }
    }

    /// Uniform `f32` in `[0, 1)` with 24 bits of precision.
    #[inline]
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// Uniform `f32` in `[lo, hi)`; returns `lo` if the range is empty or not finite.
    #[inline]
    pub fn range_f32(&mut self, lo: f32, hi: f32) -> f32 {
        let span = hi - lo;
        if span.is_nan() || span <= 0.0 || !span.is_finite() {
            return lo;
        }
        lo + span * self.next_f32()
    }

    /// Uniform `f32` in `[−1, 1)`.
    #[inline]
    pub fn signed_unit(&mut self) -> f32 {
        self.next_f32() * 2.0 - 1.0
    }
}

impl crate::hash::StateHash for Pcg32 {
    fn hash_state(&self, h: &mut crate::hash::StateHasher) {
        h.write_u64(self.state);
        h.write_u64(self.inc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_pcg32_reference() {
        // pcg32-global demo: pcg32_srandom_r(&rng, 42u, 54u) → first outputs.
        let mut r = Pcg32::new(42, 54);
        let expected = [
            0xa15c02b7u32,
            0x7b47f409,
            0xba1d3330,
            0x83d2f293,
            0xbfa4784b,
            0xcbed606e,
        ];
        for e in expected {
            assert_eq!(r.next_u32(), e);
        }
    }

    #[test]
    fn below_is_in_range_and_f32_in_unit() {
        let mut r = Pcg32::seeded(7);
        for _ in 0..1000 {
            assert!(r.below(30) < 30);
            let f = r.next_f32();
            assert!((0.0..1.0).contains(&f));
        }
        assert_eq!(r.below(0), 0);
        assert_eq!(r.range_f32(1.0, f32::NAN), 1.0);
    }
}
