//! A correctly rounded `f32` square root for CPUs with a hardware single-precision divide and a
//! 32×32→64 multiply but no square-root instruction hopkit may use (the Cortex-M4F and M33: core
//! is `forbid(unsafe_code)`, so no `VSQRT.F32` by inline assembly).
//!
//! A correctly rounded square root has exactly one right answer for every input (IEEE 754), so
//! this gives **the same bits** as `libm::sqrtf` for every input: a bit-trick estimate refined by
//! three Heron steps in plain IEEE `f32` arithmetic (`+`, `·`, `/`, each correctly rounded on every
//! platform, never fused), then an exact integer test of the result against the two rounding
//! midpoints around it, which moves it by at most one ulp to the correctly rounded one. Zero,
//! subnormal, infinite, NaN and negative inputs go to `libm::sqrtf`. Checked against `libm` over
//! every 2³¹ non-negative bit pattern by the ignored test `exhaustive_against_libm`, and on a
//! sample in the default tests. About half the instructions of `libm`'s on the M4F, where
//! [`super::scalar::sqrt`] uses it (ARM with the hard-float ABI).

use super::bits::{positive_normal, IMPLICIT, MANTISSA};

/// Square root of `x`, correctly rounded (round to nearest, ties to even): the bits of
/// `libm::sqrtf(x)` for every `x`.
#[inline(never)]
pub(crate) fn sqrt(x: f32) -> f32 {
    let bits = x.to_bits();
    // Positive normal numbers only; the rest (±0, subnormals, +∞, NaN, negatives) is rare.
    if !positive_normal(x) {
        return libm::sqrtf(x);
    }
    // Within about 3.5 %, then Heron: 6·10⁻⁴, 2·10⁻⁷, then rounding-limited (an ulp or so).
    let mut y = f32::from_bits((bits >> 1).wrapping_add(0x1fbd_1df5));
    y = 0.5 * (y + x / y);
    y = 0.5 * (y + x / y);
    y = 0.5 * (y + x / y);
    // x = mx · 2^(ex − 150), y = my · 2^(ey − 150) (biased exponents, mx and my in [2²³, 2²⁴)).
    // y is within an ulp of √x (the exhaustive test checks that one step up or down suffices).
    let yb = y.to_bits();
    let ey = (yb >> 23) as i32;
    let my = u64::from((yb & MANTISSA) | IMPLICIT);
    // (midpoint)² < x ⟺ (2·my + 1)² < mx · 2^s with the upper midpoint (2·my + 1) · 2^(ey − 151);
    // s is 24, 25 or 26 for any y that close, so mx · 2^(s − 24) fits in 32 bits.
    let s = ((bits >> 23) as i32)
        .wrapping_sub(ey.wrapping_mul(2))
        .wrapping_add(128);
    if !(0..=7).contains(&s) {
        return libm::sqrtf(x);
    }
    let rhs = u64::from(((bits & MANTISSA) | IMPLICIT) << s) << 24;
    // Wrapping arithmetic (all bounded: my < 2²⁴, yb a finite positive float's bits) keeps
    // overflow checks out of the per-tick path.
    let up = my.wrapping_mul(2).wrapping_add(1);
    if up.wrapping_mul(up) < rhs {
        return f32::from_bits(yb.wrapping_add(1)); // √x above the upper midpoint
    }
    // The lower midpoint; at a power of two the float below is half an ulp away.
    let (lo, rhs) = if my == u64::from(IMPLICIT) {
        (my.wrapping_mul(4).wrapping_sub(1), rhs << 2)
    } else {
        (my.wrapping_mul(2).wrapping_sub(1), rhs)
    };
    if lo.wrapping_mul(lo) > rhs {
        return f32::from_bits(yb.wrapping_sub(1)); // √x below the lower midpoint
    }
    f32::from_bits(yb)
}

#[cfg(test)]
mod tests {
    use super::sqrt;

    fn check(b: u32) {
        let x = f32::from_bits(b);
        let (got, want) = (sqrt(x), libm::sqrtf(x));
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "sqrt({x:e} = {b:#010x}) = {got:e}, libm {want:e}"
        );
    }

    #[test]
    fn same_bits_as_libm_on_a_sample() {
        for b in [
            0,
            1,
            0x007f_ffff,
            0x0080_0000,
            0x0080_0001,
            0x3f80_0000,
            0x3f80_0001,
            0x3f7f_ffff,
            0x4000_0000,
            0x7f7f_ffff,
            0x7f80_0000,
            0x7fc0_0000,
            0x8000_0000,
            0xbf80_0000,
            0xff80_0000,
        ] {
            check(b);
        }
        // Every 997th non-negative pattern (2.2 M values, every binade).
        let mut b = 0u32;
        while b < 0x7f80_0000 {
            check(b);
            b += 997;
        }
        // Around perfect squares and powers of two.
        for i in 1u32..4096 {
            let s = (i as f32) * (i as f32);
            let sb = s.to_bits();
            for d in 0..3 {
                check(sb - d);
                check(sb + d);
            }
        }
        for e in 1u32..255 {
            for d in 0..8 {
                check((e << 23) + d);
                check((e << 23) - d);
            }
        }
    }

    /// All 2^31 non-negative patterns (`cargo test -p hopkit --release --lib sqrt_fpu --
    /// --ignored`).
    #[test]
    #[ignore = "exhaustive: 2^31 inputs, run in release"]
    fn exhaustive_against_libm() {
        for b in 0..=0x7fff_ffffu32 {
            check(b);
        }
    }
}
