//! hopkit's own `sin`/`cos`: single-precision, IEEE basic operations only, no `f64`.
//!
//! `libm`'s `sinf`/`cosf` are accurate to < 1 ulp everywhere, but they evaluate their
//! polynomials in `f64` and carry a Payne–Hanek reduction for huge arguments. On an FPU-less
//! Cortex-M0 that `f64` is software (≈ 8,300 instructions per `sin_cos`); on a Cortex-M4F, whose
//! FPU is single precision only, it still costs ≈ 2,750 instructions and ≈ 6 KiB of flash
//! (the reduction tables plus soft-float `f64` add/multiply). hopkit's angles are wrapped to
//! `(−π, π]` or are small rotation steps, so it does not need either.
//!
//! # Method
//! Cody–Waite reduction `r = x − j·π/2` with `j` the nearest integer to `x·2/π` and π/2 split into
//! three `f32` parts (the first two with short mantissas, so `j·P1` and `j·P2` are exact for
//! `|j| < 2¹³`), then the Cephes minimax polynomials for `sin` and `cos` on `|r| ≤ π/4`, and the
//! quadrant `j mod 4` picks and signs them.
//!
//! # Accuracy (measured against `f64` `libm` by the tests)
//! - `|x| ≤ 8192`: absolute error below [`SIN_COS_ABS_ERROR`] (measured 9.2·10⁻⁸, about 1.5 ulp of 1);
//! - larger finite `|x|`: first reduced exactly modulo the `f32` value of `2π` ([`rem_tau`], the
//!   bits of `libm::fmodf(x, TAU)`);
//!   that value exceeds `2π` by `1.7·10⁻⁷`, so the phase drifts by about `|x|·2.8·10⁻⁸` rad
//!   (`3·10⁻⁴` at `|x| = 10⁴`), but the result is always in `[−1, 1]`;
//! - NaN or ±∞ gives NaN, as `libm` does; `sin(−0) = −0`.
//!
//! Deterministic: `+ − ×` and one `f32 → i32` conversion, evaluated in a fixed order (Rust never
//! contracts into FMA), so every platform gets the same bits.

use super::bits::{ABS, IMPLICIT, INF, MANTISSA, SIGN};
use core::f32::consts::{FRAC_2_PI, TAU};

/// Worst absolute error of [`sin_cos`](crate::math::scalar::sin_cos) (and `sin`, `cos`) for `|x| ≤ 8192` (checked by the tests against `f64`).
pub const SIN_COS_ABS_ERROR: f32 = 1.2e-7;

/// Largest `|x|` reduced directly (see the module docs).
const DIRECT_LIMIT: f32 = 8192.0;

// π/2 = P1 + P2 + P3 (Cephes' split of π/4, doubled). P1 has 8 significant bits, P2 11.
const P1: f32 = 1.570_312_5;
const P2: f32 = 4.837_513e-4;
const P3: f32 = 7.549_79e-8;

/// `(sin x, cos x)` for `x` in radians (see the module docs for accuracy and special values).
///
/// Not `#[inline]`: about 40 instructions of straight-line code, called from a dozen places
/// (yaw vectors, quaternions, slerp), so one copy is smaller and the call costs little.
pub(crate) fn sin_cos(x: f32) -> (f32, f32) {
    if !x.is_finite() {
        return (f32::NAN, f32::NAN);
    }
    if x == 0.0 {
        return (x, 1.0); // keeps the sign of zero
    }
    let x = if x.abs() > DIRECT_LIMIT {
        rem_tau(x)
    } else {
        x
    };
    let t = x * FRAC_2_PI;
    // Nearest integer, ties away from zero; |t| ≤ 5216 here, so the conversion is exact.
    let j = (if t < 0.0 { t - 0.5 } else { t + 0.5 }) as i32;
    let jf = j as f32;
    let r = ((x - jf * P1) - jf * P2) - jf * P3;
    let z = r * r;
    let s = r + r * z * ((-1.951_529_6e-4 * z + 8.332_161e-3) * z - 1.666_665_5e-1);
    let c = 1.0 - 0.5 * z + z * z * ((2.443_315_7e-5 * z - 1.388_731_6e-3) * z + 4.166_664_6e-2);
    match j & 3 {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// `x` modulo the `f32` value of `2π` ([`TAU`]), exactly: the bits of `libm::fmodf(x, TAU)` for
/// every finite `x` (the result has the sign of `x` and `|result| < TAU`; `fmod` is exact in IEEE
/// arithmetic, so any correct method gives these bits). NaN for non-finite `x`.
///
/// Restoring long division of the 24-bit mantissas, one bit per exponent step (musl's `fmodf`
/// with the divisor fixed): about 5 integer operations per binade of `x` above `TAU`. It replaces
/// `libm`'s generic `fmod`, whose assertions bring panic paths and their message strings into the
/// images (≈ 0.9 KB of the WASM-4 cart). Used only for huge arguments ([`sin_cos`] beyond
/// ±8192, [`crate::math::wrap_angle`] beyond ±2²⁰).
pub(crate) fn rem_tau(x: f32) -> f32 {
    const TAU_BITS: u32 = TAU.to_bits();
    const TAU_EXP: u32 = TAU_BITS >> 23;
    const TAU_MANT: u32 = (TAU_BITS & MANTISSA) | IMPLICIT;
    let bits = x.to_bits();
    let sign = bits & SIGN;
    let abs = bits & ABS;
    if abs >= INF {
        return f32::NAN;
    }
    if abs < TAU_BITS {
        return x;
    }
    // x = m·2^(e − 150) with e ≥ TAU_EXP; reduce m modulo TAU_MANT while shifting e down to
    // TAU_EXP (m < 2·TAU_MANT < 2²⁵ throughout).
    let mut e = abs >> 23;
    let mut m = (abs & MANTISSA) | IMPLICIT;
    loop {
        if m >= TAU_MANT {
            m = m.wrapping_sub(TAU_MANT);
        }
        if e <= TAU_EXP {
            break;
        }
        m <<= 1;
        e = e.wrapping_sub(1);
    }
    if m == 0 {
        return f32::from_bits(sign);
    }
    // A non-zero remainder is a multiple of 2^(TAU_EXP − 150) below TAU: normal, so normalising
    // takes at most 23 steps and keeps e ≥ TAU_EXP − 23 > 0.
    while m & IMPLICIT == 0 {
        m <<= 1;
        e = e.wrapping_sub(1);
    }
    f32::from_bits(sign | e << 23 | (m & MANTISSA))
}

/// `sin x` (see [`sin_cos`]).
#[inline]
pub(crate) fn sin(x: f32) -> f32 {
    sin_cos(x).0
}

/// `cos x` (see [`sin_cos`]).
#[inline]
pub(crate) fn cos(x: f32) -> f32 {
    sin_cos(x).1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(x: f32) -> (f64, f64) {
        let (s, c) = sin_cos(x);
        let xd = x as f64;
        (
            (s as f64 - libm::sin(xd)).abs(),
            (c as f64 - libm::cos(xd)).abs(),
        )
    }

    #[test]
    fn accurate_within_the_direct_range() {
        let mut worst = 0.0f64;
        let mut worst_small = 0.0f64;
        // Dense near zero, then a sweep of the whole direct range.
        let mut i = 0u32;
        while i <= 2_000_000 {
            let x = -4.0 + 8.0 * (i as f32 / 2_000_000.0);
            let (es, ec) = err(x);
            worst_small = worst_small.max(es.max(ec));
            i += 1;
        }
        let mut x = -DIRECT_LIMIT;
        while x <= DIRECT_LIMIT {
            let (es, ec) = err(x);
            worst = worst.max(es.max(ec));
            x += 0.003_17;
        }
        assert!(
            worst_small < 1.0e-7,
            "worst |error| on [-4, 4]: {worst_small:e}"
        );
        assert!(
            worst < SIN_COS_ABS_ERROR as f64,
            "worst |error| on ±8192: {worst:e}"
        );
    }

    /// `rem_tau` gives exactly the bits of `libm::fmodf(x, TAU)` (NaN for non-finite `x`).
    #[test]
    fn rem_tau_is_libm_fmodf() {
        let check = |x: f32| {
            let (got, want) = (rem_tau(x), libm::fmodf(x, TAU));
            if x.is_finite() {
                assert_eq!(
                    got.to_bits(),
                    want.to_bits(),
                    "rem_tau({x:e}) bits {:#x}",
                    x.to_bits()
                );
            } else {
                assert!(got.is_nan() && want.is_nan(), "rem_tau({x:e})");
            }
        };
        // Every 257th bit pattern (all binades, both signs, zeros, subnormals, ±∞, NaNs).
        let mut b = 0u32;
        loop {
            check(f32::from_bits(b));
            match b.checked_add(257) {
                Some(n) => b = n,
                None => break,
            }
        }
        // Densely around multiples of TAU (where the remainder is 0 or about TAU) and TAU itself.
        for k in [1.0f32, 2.0, 3.0, 7.0, 1000.0, 1303.0, 1.0e6, 3.0e7] {
            for sign in [1.0f32, -1.0] {
                let c = (TAU * k * sign).to_bits();
                for d in 0..5_000u32 {
                    check(f32::from_bits(c.wrapping_add(d)));
                    check(f32::from_bits(c.wrapping_sub(d)));
                }
            }
        }
        for x in [
            0.0f32,
            -0.0,
            TAU,
            -TAU,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            8192.5,
        ] {
            check(x);
        }
    }

    #[test]
    fn special_values() {
        let (s, c) = sin_cos(0.0);
        assert_eq!((s.to_bits(), c), (0.0f32.to_bits(), 1.0));
        assert_eq!(sin(-0.0).to_bits(), (-0.0f32).to_bits());
        for x in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let (s, c) = sin_cos(x);
            assert!(s.is_nan() && c.is_nan());
        }
        // Quadrant boundaries keep the right signs.
        use core::f32::consts::{FRAC_PI_2, PI};
        assert!((sin(FRAC_PI_2) - 1.0).abs() < 1e-7 && cos(FRAC_PI_2).abs() < 1e-7);
        assert!(sin(PI).abs() < 1e-7 && (cos(PI) + 1.0).abs() < 1e-7);
        assert!((sin(-FRAC_PI_2) + 1.0).abs() < 1e-7);
    }

    #[test]
    fn huge_arguments_stay_bounded() {
        let mut x = DIRECT_LIMIT;
        while x < f32::MAX / 4.0 {
            for v in [x, -x, x * 1.37] {
                let (s, c) = sin_cos(v);
                assert!(
                    (-1.0..=1.0).contains(&s) && (-1.0..=1.0).contains(&c),
                    "{v}"
                );
            }
            x *= 3.1;
        }
        let (s, c) = sin_cos(f32::MAX);
        assert!(s.abs() <= 1.0 && c.abs() <= 1.0);
        // Just past the direct range the phase is still close.
        let (es, ec) = err(10_000.5);
        assert!(es.max(ec) < 1e-3);
    }

    #[test]
    fn outputs_never_leave_the_unit_range() {
        for i in 0..=1_400_000 {
            let x = -7.0 + i as f32 * 1.0e-5;
            let (s, c) = sin_cos(x);
            assert!(s.abs() <= 1.0 && c.abs() <= 1.0, "{x}");
        }
    }
}
