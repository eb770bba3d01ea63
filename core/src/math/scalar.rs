//! Scalar maths backend, called explicitly so that host and target give the same bits.
//!
//! With the default `libm` feature every function is `libm`'s correctly-rounded (sqrt) or
//! high-accuracy (`atan2`, `acos`: ≤ 1 ulp) implementation. With the `micromath` feature the fast
//! approximations of `micromath` are used instead: `sqrt` (its estimate plus two Heron steps)
//! within about 1e-6 relative, `atan2` within about 4·10⁻³ rad, `acos` within about 10⁻² rad.
//! `sin`/`cos` are hopkit's own `f32` kernel (within [`SIN_COS_ABS_ERROR`], 1.2·10⁻⁷) with either
//! backend: faster than both libraries' and without `libm`'s `f64` arithmetic, which is software
//! on the Cortex-M4F and M0. Both backends are pure software and
//! deterministic across platforms; golden hashes are recorded with `libm`. `exp`, `ln`, `powf`,
//! `floor` and `round` always come from `libm` (micromath's are too coarse: `powf(0.9, 0.5)` gives
//! 0.913 instead of 0.949), so `libm` is linked in both configurations; they are off the hot paths.
//!
//! Never call the inherent `f32::sqrt`/`sin`/… in this crate: on a `std` host they may lower to
//! platform intrinsics or the system libm, which is exactly what breaks cross-platform replays.

/// The scalar maths backend this build uses: `"libm"` (default) or `"micromath"`.
///
/// Results that depend on the backend's roots and angles differ between the two (both are
/// deterministic across platforms): golden hashes and the state checksums of a ghost recording
/// hold for the backend that made them — the demo's bundled ghost recording was
/// recorded with `libm`, so [`crate::ghost::verify`] reports a desync for it under `micromath`.
/// Tools that store or compare hashes can record this next to them.
pub const BACKEND: &str = if cfg!(feature = "micromath") {
    "micromath"
} else {
    "libm"
};

#[cfg(not(feature = "micromath"))]
mod backend {
    /// `libm`'s correctly rounded `sqrtf`; on ARMv6-M (no 32×32→64 multiply, recognised as an Arm
    /// target without 32-bit compare-and-swap) hopkit's own 32-bit one, which gives the same bits
    /// (`math/sqrt32.rs`, internal) in about a third of the instructions there; on Arm with the
    /// hard-float ABI (Cortex-M4F, M33) the one refined in hardware `f32` arithmetic, the same bits
    /// again (`math/sqrt_fpu.rs`, internal) in about half of `libm`'s instructions.
    #[inline]
    pub(crate) fn sqrt(x: f32) -> f32 {
        use crate::math::target::{HARD_FLOAT_ARM, SOFT_FLOAT};
        if SOFT_FLOAT {
            crate::math::sqrt32::sqrt(x)
        } else if HARD_FLOAT_ARM {
            crate::math::sqrt_fpu::sqrt(x)
        } else {
            libm::sqrtf(x)
        }
    }
    #[inline]
    pub(crate) fn atan2(y: f32, x: f32) -> f32 {
        libm::atan2f(y, x)
    }
    #[inline]
    pub(crate) fn acos(x: f32) -> f32 {
        libm::acosf(x)
    }
}

#[cfg(feature = "micromath")]
mod backend {
    use micromath::F32Ext;
    #[inline]
    pub fn sqrt(x: f32) -> f32 {
        if x < 0.0 || x.is_nan() {
            return f32::NAN;
        }
        if x == 0.0 || x == f32::INFINITY {
            return x;
        }
        // micromath's bit-trick estimate is off by up to ~6 %; two Heron steps bring it to
        // ~1e-6 relative, still far cheaper than a correctly rounded software sqrt on Cortex-M.
        let mut r = F32Ext::sqrt(x);
        r = 0.5 * (r + x / r);
        0.5 * (r + x / r)
    }
    #[inline]
    pub fn atan2(y: f32, x: f32) -> f32 {
        F32Ext::atan2(y, x)
    }
    #[inline]
    pub fn acos(x: f32) -> f32 {
        F32Ext::acos(x)
    }
}

/// Worst absolute error of the trigonometric functions ([`sin`], [`cos`], and the angles of
/// [`acos`]/[`atan2`]) with the active backend, a bound for results built from a few of them such
/// as rotations: `1e-6` with `libm`, `2e-3` with `micromath` (its `acos`/`atan2`).
#[cfg(not(feature = "micromath"))]
pub const TRIG_ABS_ERROR: f32 = 1.0e-6;
/// Worst absolute error of the trigonometric functions ([`sin`], [`cos`], and the angles of
/// [`acos`]/[`atan2`]) with the active backend, a bound for results built from a few of them such
/// as rotations: `1e-6` with `libm`, `2e-3` with `micromath` (its `acos`/`atan2`).
#[cfg(feature = "micromath")]
pub const TRIG_ABS_ERROR: f32 = 2.0e-3;

/// Square root. Negative or NaN input gives NaN (callers guard).
#[inline]
pub fn sqrt(x: f32) -> f32 {
    backend::sqrt(x)
}
/// Fast reciprocal square root `1/√x` for finite `x ≥ 1e-30`, within 7.3e-7 relative (measured
/// over every binade from 1e-30 to 1e30; a bit-level estimate refined by two Newton steps, ≈ 12
/// instructions on a Cortex-M4F against ≈ 85 for a correctly rounded software `sqrt` + a divide).
///
/// Made of IEEE-754 basic operations only (integer shift/subtract, multiply, subtract), so it gives
/// the same bits on every platform and with either backend. Out-of-range input (NaN, ≤ 1e-30, inf)
/// returns 0; callers guard before using it.
#[inline]
pub fn rsqrt(x: f32) -> f32 {
    if !(1.0e-30..=f32::MAX).contains(&x) {
        return 0.0;
    }
    rsqrt_in_range(x)
}

/// [`rsqrt`] without the range guard, for callers that already checked `1e-30 ≤ x ≤ f32::MAX`
/// (outside that range the result is meaningless — and may differ between platforms: a caller
/// must discard it — but never a panic).
#[inline]
pub fn rsqrt_in_range(x: f32) -> f32 {
    // Moroz et al. (2019, "Modification of the fast inverse square root algorithm"): magic
    // constant 0x5F1FFFF9 with a modified first Newton step (max relative error 8.75e-4), then
    // one standard Newton step (7.3e-7 measured). Two dependent steps keep the latency close to a
    // hardware sqrt + divide on desktop CPUs while staying far cheaper than a software sqrt.
    let mut y = f32::from_bits(0x5f1f_fff9u32.wrapping_sub(x.to_bits() >> 1));
    y = (0.703_952_26 * y) * (2.389_244_6 - x * y * y);
    y *= 1.5 - half_normal(x) * y * y;
    y
}

// The target classes of the float tricks here and in `movement` (defined in `super::target`).
use super::bits;
use super::target::inline_policy;
pub(crate) use super::target::{HARD_FLOAT_ARM, SOFT_FLOAT};

/// `0.5 · x` for a normal `x` whose half is normal too (`x ≥ 2⁻¹²⁵`, as in
/// [`rsqrt_in_range`]'s range), exactly. Where floats are software this is one integer subtraction
/// from the exponent field (exact by IEEE 754: the significand is unchanged); elsewhere the
/// multiply. Outside that range the two differ (the subtraction is then meaningless).
#[inline]
pub(crate) fn half_normal(x: f32) -> f32 {
    if SOFT_FLOAT {
        half_by_exponent(x)
    } else {
        0.5 * x
    }
}

#[inline]
pub(crate) fn half_by_exponent(x: f32) -> f32 {
    f32::from_bits(x.to_bits().wrapping_sub(bits::IMPLICIT))
}

/// Sine of `x` radians: hopkit's own single-precision kernel with either backend (Cody–Waite
/// reduction, Cephes polynomials; within [`SIN_COS_ABS_ERROR`] for `|x| ≤ 8192`).
#[inline]
pub fn sin(x: f32) -> f32 {
    super::trig::sin(x)
}
/// Cosine of `x` radians (the kernel of [`sin`]).
#[inline]
pub fn cos(x: f32) -> f32 {
    super::trig::cos(x)
}
/// `(sin x, cos x)` (the kernel of [`sin`]).
#[inline]
pub fn sin_cos(x: f32) -> (f32, f32) {
    super::trig::sin_cos(x)
}
/// Four-quadrant arctangent of `y/x` in radians.
#[inline]
pub fn atan2(y: f32, x: f32) -> f32 {
    backend::atan2(y, x)
}
/// Arc cosine, input clamped to `[−1, 1]` first so rounding never yields NaN. NaN input gives 0.
#[inline]
pub fn acos(x: f32) -> f32 {
    backend::acos(super::clamp(x, -1.0, 1.0))
}
/// `e^x`.
#[inline]
pub fn exp(x: f32) -> f32 {
    libm::expf(x)
}
/// Natural logarithm.
#[inline]
pub fn ln(x: f32) -> f32 {
    libm::logf(x)
}
/// `x^y`.
#[inline]
pub fn powf(x: f32, y: f32) -> f32 {
    libm::powf(x, y)
}
/// Largest integer not greater than `x`.
#[inline]
pub fn floor(x: f32) -> f32 {
    libm::floorf(x)
}
inline_policy! { shared_except_m0:
    /// Nearest integer, ties away from zero.
    ///
    /// Not inlined (≈ 760 bytes less in the Cortex-M4F board image): `libm`'s `roundf` is ≈ 50
    /// bytes of integer code, and the renderers call it from a dozen places, none of them per pixel
    /// (the core itself does not use it). Except on ARMv6-M (no 32-bit atomics, as in [`sqrt`]),
    /// where flash is not the limit and the call would cost the frame ≈ 250 instructions.
    pub fn round(x: f32) -> f32 {
        libm::roundf(x)
    }
}

/// `x > 0.0`. Where floats are software, on the bits: positive non-NaN patterns are
/// `1..=0x7f80_0000` (a float compare is a library call on a Cortex-M0; an FPU compares faster).
#[inline]
pub(crate) fn positive(x: f32) -> bool {
    if SOFT_FLOAT {
        positive_bits(x)
    } else {
        x > 0.0
    }
}

/// `x > 0.0` on the bits (+0 excluded, +inf included, NaN and negatives fail, as the compare),
/// on every target: for callers that want the integer test whatever the float unit.
#[inline]
pub(crate) fn positive_bits(x: f32) -> bool {
    x.to_bits().wrapping_sub(1) < bits::INF
}

/// `+0.0 ≤ x < +inf` on the bits: the patterns of `+0` and the positive finite numbers are
/// `0..0x7f80_0000`; `−0`, negatives, `±inf` and NaN all fail. One integer compare, for a value
/// that must be a non-negative finite count-down (a timer) and is checked on every step.
#[inline(always)]
pub(crate) fn nonnegative_finite_bits(x: f32) -> bool {
    x.to_bits() < bits::INF
}

// A value's non-finite flag (bit 31 set exactly for ±inf and NaN), ORed over many values and
// tested once: defined with the other finiteness tests in `math::bits` (the tests' form; no target
// policy picks it today).
#[cfg(test)]
use super::bits::{nonfinite_flag, NONFINITE};
pub use super::trig::SIN_COS_ABS_ERROR;

/// `x`, with a subnormal value replaced by a zero of the same sign (`±0.0` and normal numbers,
/// infinities and NaN pass unchanged).
///
/// Mechanics call this on their state at the end of each step ("flush to zero", done in software
/// with integer operations so it is identical on every platform and independent of FTZ/DAZ
/// modes). Without it a component decaying by a constant factor per tick (friction, the
/// follower's ×0.9) sinks into subnormals and, because rounding can return the smallest subnormal
/// to itself, stays there — and subnormal arithmetic is up to 100× slower on x86.
#[inline]
pub fn flush_subnormal(x: f32) -> f32 {
    let b = x.to_bits();
    // Exponent bits all zero: ±0 or subnormal. Keep only the sign then.
    let keep = ((b & bits::INF) != 0) as u32;
    f32::from_bits(b & (bits::SIGN | keep.wrapping_neg()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn positive_is_the_float_compare() {
        let mut bits = 0u32;
        loop {
            let x = f32::from_bits(bits);
            assert_eq!(super::positive_bits(x), x > 0.0, "{bits:#x}");
            assert_eq!(super::positive(x), x > 0.0, "{bits:#x}");
            match bits.checked_add(7_919) {
                Some(n) => bits = n,
                None => break,
            }
        }
        for x in [
            0.0,
            -0.0,
            1.0e-45,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ] {
            assert_eq!(super::positive_bits(x), x > 0.0, "{x}");
            assert_eq!(super::positive(x), x > 0.0, "{x}");
        }
    }

    use super::*;

    #[test]
    fn nonfinite_flag_is_not_is_finite() {
        let special = [
            0.0,
            -0.0,
            f32::from_bits(1),
            f32::MIN_POSITIVE,
            1.0,
            -3.0e38,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7f80_0001),
            f32::from_bits(0xffff_ffff),
        ];
        for &a in &special {
            assert_eq!(nonfinite_flag(a) & NONFINITE == 0, a.is_finite(), "{a:?}");
            for &b in &special {
                let both = (nonfinite_flag(a) | nonfinite_flag(b)) & NONFINITE == 0;
                assert_eq!(both, a.is_finite() && b.is_finite(), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn flush_subnormal_keeps_everything_but_subnormals() {
        let tiny = f32::from_bits(1); // the smallest subnormal
        assert_eq!(flush_subnormal(tiny).to_bits(), 0);
        assert_eq!(flush_subnormal(-tiny).to_bits(), 0x8000_0000);
        assert_eq!(flush_subnormal(f32::MIN_POSITIVE * 0.5).to_bits(), 0);
        for x in [
            0.0,
            -0.0,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            1.0,
            -3.0e38,
            f32::INFINITY,
        ] {
            assert_eq!(flush_subnormal(x).to_bits(), x.to_bits());
        }
        assert!(flush_subnormal(f32::NAN).is_nan());
        // 0.98 × the smallest subnormal rounds back to it: the stall the flush prevents.
        assert_eq!((tiny * 0.98).to_bits(), 1);
    }

    #[test]
    fn backend_accuracy() {
        assert!((sqrt(4.0) - 2.0).abs() < 1e-5);
        assert!((sqrt(2.0) - core::f32::consts::SQRT_2).abs() < 1e-5);
        assert_eq!(sqrt(0.0), 0.0);
        assert!((sin(1.0) - 0.841_470_96).abs() < 2e-3);
        assert!((cos(1.0) - 0.540_302_3).abs() < 2e-3);
        assert!((atan2(1.0, 1.0) - core::f32::consts::FRAC_PI_4).abs() < 5e-3);
        assert!(acos(2.0).abs() < 1e-2);
        for i in 1..2000 {
            let x = i as f32 * 0.731;
            let r = sqrt(x);
            assert!(((r * r - x) / x).abs() < 1e-5, "sqrt({x}) = {r}");
        }
        assert!(sqrt(-1.0).is_nan());
    }

    #[test]
    fn half_by_exponent_is_the_multiply_for_normal_halves() {
        let mut rng = crate::rng::Pcg32::seeded(5);
        let specials = [
            0x0100_0000u32,
            0x0100_0001,
            0x3f80_0000,
            0x7f7f_ffff,
            0x0da2_4260,
        ];
        let randoms = (0..1_000_000).map(|_| rng.next_u32());
        for b in specials
            .iter()
            .flat_map(|&b| [b, b | 0x8000_0000])
            .chain(randoms)
        {
            let e = (b >> 23) & 0xff;
            if !(2..=254).contains(&e) {
                continue; // zero, subnormals, the smallest normals, inf, NaN: not its domain
            }
            let x = f32::from_bits(b);
            assert_eq!(
                half_by_exponent(x).to_bits(),
                (0.5 * x).to_bits(),
                "{b:#010x}"
            );
        }
    }

    #[test]
    fn rsqrt_accuracy_and_guards() {
        let mut worst = 0.0f32;
        let mut x = 1.0e-30f32;
        while x < 1.0e30 {
            let r = rsqrt(x);
            let exact = (1.0 / libm::sqrt(x as f64)) as f32;
            worst = worst.max(((r - exact) / exact).abs());
            x *= 1.013_7;
        }
        assert!(worst < 7.5e-7, "worst relative error {worst}");
        assert_eq!(rsqrt(0.0), 0.0);
        assert_eq!(rsqrt(f32::NAN), 0.0);
        assert_eq!(rsqrt(f32::INFINITY), 0.0);
        assert_eq!(rsqrt(-4.0), 0.0);
    }
}
