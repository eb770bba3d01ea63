//! Float tricks on the IEEE-754 bit patterns, each named once with the reason it exists.
//!
//! Two kinds live here: exact integer forms of float operations (named masks, finiteness tests,
//! sign and order on the bits), which give the same answers as the float operations without the
//! library calls of soft-float targets; and the helpers that pick, per target, between such a
//! form and the float arithmetic it replaces (the choice is made in [`super::target`]). Every
//! pair gives the same result (tested below), so the choice never changes a state hash.
//!
//! ## Finiteness: one policy
//!
//! A mechanic asks "finite?" in one of these words, never in a form of its own:
//!
//! - one value: `x.is_finite()` (the standard test);
//! - several values at once: [`all_finite!`] — the float sum `x·0 + y·0 + … == 0` where floats are
//!   hardware, the largest magnitude pattern against [`MAX_FINITE`] where they are software
//!   ([`FLOAT_SUMS_BEAT_BIT_TESTS`]);
//! - a vector or a state: its `is_finite` method (`Vec2`, `Vec3` ([`finite3`]), `Quat`, the
//!   mechanics' state types), each [`all_finite!`] of its fields.
//!
//! The two forms behind [`all_finite!`] (`all_finite_by_sum!`, `all_finite_by_bits!`) are this
//! module's: `scripts/check-house-rules.sh` fails on a mechanic that names one, spells its own
//! (`x * 0.0`, a mask) or defines its own free `finite…` helper.

use super::target::FLOAT_SUMS_BEAT_BIT_TESTS;
use super::Vec3;

/// The sign bit; also the bits of `-0.0`.
pub(crate) const SIGN: u32 = 0x8000_0000;
/// Every bit but the sign: `bits & ABS` is the magnitude's pattern (`|x|`'s bits).
pub(crate) const ABS: u32 = 0x7fff_ffff;
/// Bits of `+∞`. A magnitude pattern above it is a NaN.
pub(crate) const INF: u32 = 0x7f80_0000;
/// Bits of `f32::MAX`, the largest finite value: a float is finite exactly when its magnitude
/// pattern is at most this.
pub(crate) const MAX_FINITE: u32 = 0x7f7f_ffff;
/// The significand field (the 23 stored bits of the fraction).
pub(crate) const MANTISSA: u32 = 0x007f_ffff;
/// The lowest exponent bit: the implicit leading one of a normal significand, and one step of the
/// exponent (adding it to a normal pattern doubles the value, subtracting it halves it).
pub(crate) const IMPLICIT: u32 = 0x0080_0000;

/// `x` positive and normal (neither zero, subnormal, infinite, NaN nor negative): its biased
/// exponent in `1..=254` with a clear sign bit, as one unsigned compare.
#[inline(always)]
pub(crate) fn positive_normal(x: f32) -> bool {
    x.to_bits().wrapping_sub(IMPLICIT) < INF - IMPLICIT
}

/// `min ≤ x ≤ f32::MAX` with a clear sign bit, where `min_bits` (at most [`MAX_FINITE`]) is
/// `min`'s pattern: one unsigned compare. Non-negative floats order like their patterns; a pattern
/// below `min_bits` wraps above the span, and so does every negative pattern and every NaN. Used
/// where a squared length must be in range (one branch instead of two float compares, and no
/// library call where floats are software).
#[inline(always)]
pub(crate) fn in_range_to_max(x: f32, min_bits: u32) -> bool {
    x.to_bits().wrapping_sub(min_bits) <= MAX_FINITE - min_bits
}

/// The magnitude pattern of `x` (`|x|`'s bits). Non-NaN magnitudes order like these integers, and
/// NaNs lie above `+∞`.
#[inline(always)]
pub(crate) const fn abs_bits(x: f32) -> u32 {
    x.to_bits() & ABS
}

/// An integer that orders like `x` among non-NaN floats: `a < b` ⇔ `order_key(a) < order_key(b)`
/// and `a == b` ⇔ equal keys (`−0.0` and `+0.0` both 0), for every `a`, `b` that is not a NaN
/// (the caller rules NaNs out first). The magnitude pattern, negated for a set sign bit: integer
/// compares where float compares are library calls (the box trace's bounds on soft-float targets,
/// the demo's in-view test of its blocks). Public as [`crate::math::order_key`]; `const`, so a
/// table of constant bounds can hold the keys.
#[inline(always)]
pub const fn order_key(x: f32) -> i32 {
    let m = abs_bits(x) as i32;
    if x.to_bits() & SIGN != 0 {
        -m
    } else {
        m
    }
}

/// The values all finite, on the bits: the largest magnitude pattern is at most [`MAX_FINITE`].
/// Integer work, no float operation (each is a library call on soft-float targets): [`all_finite!`]'s
/// form there. A macro, not a function of an array: straight-line code at every optimisation
/// level (a loop over an array is not unrolled in the size-optimised firmware images).
macro_rules! all_finite_by_bits {
    ($first:expr $(, $x:expr)* $(,)?) => {
        $crate::math::bits::abs_bits($first) $(.max($crate::math::bits::abs_bits($x)))*
            <= $crate::math::bits::MAX_FINITE
    };
}
pub(crate) use all_finite_by_bits;

/// Bit 31 set exactly when `x` is ±inf or NaN (its exponent is all ones), every other bit clear
/// for finite `x`: `(bits & exponent) + 1` (one step of the exponent) carries into bit 31 only from
/// an all-ones exponent. OR the flags of many values and test [`NONFINITE`] once to check them all:
/// `(nonfinite_flag(a) | nonfinite_flag(b)) & NONFINITE == 0` ⇔ `a.is_finite() && b.is_finite()`
/// (`all_finite_by_flags!`).
#[cfg(test)]
#[inline(always)]
pub(crate) fn nonfinite_flag(x: f32) -> u32 {
    (x.to_bits() & INF).wrapping_add(IMPLICIT)
}

/// The bit of [`nonfinite_flag`] that marks a non-finite value.
#[cfg(test)]
pub(crate) const NONFINITE: u32 = SIGN;

/// The values all finite, on the bits: one OR over their [`nonfinite_flag`]s and one test (three
/// integer operations a value, no branch). The tests' check of [`nonfinite_flag`]; no mechanic runs
/// it: as [`all_finite!`]'s soft-float form it tipped the RP2040 image's inliner (opt-level 3)
/// into keeping the frame's renderer out of line, +14,000 cycles of draw and over the frame budget
/// (issue 36 §4), and on the Cortex-M0 it was no faster than the magnitude form.
#[cfg(test)]
macro_rules! all_finite_by_flags {
    ($first:expr $(, $x:expr)* $(,)?) => {
        ($crate::math::bits::nonfinite_flag($first)
            $(| $crate::math::bits::nonfinite_flag($x))*)
            & $crate::math::bits::NONFINITE
            == 0
    };
}

/// The values all finite, as a float sum: `x·0` is ±0 for a finite `x` and NaN for ±∞ or NaN,
/// so `x₀·0 + x₁·0 + …` is zero exactly when every `xᵢ` is finite. Keeps the values in the float
/// registers (one multiply-add each with an FPU).
macro_rules! all_finite_by_sum {
    ($first:expr $(, $x:expr)* $(,)?) => {
        ($first * 0.0 $(+ $x * 0.0)*) == 0.0
    };
}
pub(crate) use all_finite_by_sum;

/// The values all finite: the core's one finiteness policy for more than one value (module docs).
/// In this target's cheaper form ([`FLOAT_SUMS_BEAT_BIT_TESTS`]): the float sum
/// (`all_finite_by_sum!`) where floats are hardware, the largest magnitude pattern
/// (`all_finite_by_bits!`) where they are software.
macro_rules! all_finite {
    ($($x:expr),+ $(,)?) => {
        if $crate::math::target::FLOAT_SUMS_BEAT_BIT_TESTS {
            $crate::math::bits::all_finite_by_sum!($($x),+)
        } else {
            $crate::math::bits::all_finite_by_bits!($($x),+)
        }
    };
}
pub(crate) use all_finite;

/// [`Vec3::is_finite`] in this target's cheaper form ([`all_finite`]).
#[inline(always)]
pub(crate) fn finite3(v: Vec3) -> bool {
    all_finite!(v.x, v.y, v.z)
}

/// `x + 0.0`: `x`, except that `−0.0` becomes `+0.0`. Where floats are software, on the bits (a
/// NaN then comes back unchanged where the addition might quiet it: callers must not hash a NaN).
#[inline(always)]
pub(crate) fn plus_zero(x: f32) -> f32 {
    if FLOAT_SUMS_BEAT_BIT_TESTS {
        x + 0.0
    } else {
        plus_zero_by_bits(x)
    }
}

/// [`plus_zero`] on the bits.
#[inline(always)]
pub(crate) fn plus_zero_by_bits(x: f32) -> f32 {
    if x.to_bits() == SIGN {
        0.0
    } else {
        x
    }
}

/// True when every component of `v` is exactly `+0.0` (not `-0.0`): adding such a `v` changes a
/// value at most by [`plus_zero`].
#[inline(always)]
pub(crate) fn is_plus_zero3(v: Vec3) -> bool {
    (v.x.to_bits() | v.y.to_bits() | v.z.to_bits()) == 0
}

/// `x + x`, exactly. Where floats are software, a normal `x` whose double stays finite is doubled
/// on the bits (exponent + 1: the same result) instead of by a library addition.
#[inline]
pub(crate) fn twice(x: f32) -> f32 {
    if FLOAT_SUMS_BEAT_BIT_TESTS {
        x + x
    } else {
        twice_by_exponent(x)
    }
}

/// [`twice`] on the bits where the exponent allows, else the addition.
#[inline]
pub(crate) fn twice_by_exponent(x: f32) -> f32 {
    let b = x.to_bits();
    if ((b >> 23) & 0xff).wrapping_sub(1) < 253 {
        return f32::from_bits(b.wrapping_add(0x0080_0000)); // exponent ≤ 253: no carry out
    }
    // Out of line: an inlined `x + x` is cheap enough in IR for LLVM to compute it
    // unconditionally and select, which would bring the library call back.
    sum_with_itself(x)
}

/// `x + x`, never inlined (see [`twice_by_exponent`]).
#[inline(never)]
fn sum_with_itself(x: f32) -> f32 {
    x + x
}

#[cfg(test)]
mod tests {
    /// [`order_key`] orders every pair of non-NaN values of a mixed list as the float compares do.
    #[test]
    fn order_key_orders_like_the_floats() {
        let mut v = std::vec![
            0.0f32,
            -0.0,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::from_bits(1),
            -f32::from_bits(1),
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1.0,
            -1.0,
            0.125,
            -0.125,
            1_048_576.0,
            -1_048_576.0,
        ];
        let mut seed = 0x2545_f491u32;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let x = f32::from_bits(seed);
            if !x.is_nan() {
                v.push(x);
            }
        }
        for &a in &v {
            for &b in v.iter().take(200) {
                assert_eq!(order_key(a) < order_key(b), a < b, "{a:e} < {b:e}");
                assert_eq!(order_key(a) == order_key(b), a == b, "{a:e} == {b:e}");
            }
        }
    }

    use super::*;

    fn specials() -> [f32; 16] {
        [
            0.0,
            -0.0,
            f32::from_bits(1),
            -f32::from_bits(1),
            f32::MIN_POSITIVE,
            1.0,
            -2.5,
            3.0e38,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7f80_0001),
            f32::from_bits(0xffff_ffff),
        ]
    }

    #[test]
    fn masks_are_what_they_name() {
        assert_eq!(MAX_FINITE, f32::MAX.to_bits());
        assert_eq!(INF, f32::INFINITY.to_bits());
        assert_eq!(SIGN, (-0.0f32).to_bits());
        assert_eq!(ABS, !SIGN);
        assert_eq!(MANTISSA, f32::MIN_POSITIVE.to_bits() - 1);
        assert_eq!(IMPLICIT, f32::MIN_POSITIVE.to_bits());
        assert_eq!(INF & MANTISSA, 0);
        assert_eq!(SIGN | INF | MANTISSA, u32::MAX);
    }

    #[test]
    fn finiteness_forms_agree() {
        let s = specials();
        for &a in &s {
            assert_eq!(all_finite_by_bits!(a), a.is_finite(), "{a:?}");
            assert_eq!(all_finite_by_flags!(a), a.is_finite(), "{a:?}");
            assert_eq!(positive_normal(a), a.is_normal() && a > 0.0, "{a:?}");
            assert_eq!(all_finite_by_sum!(a), a.is_finite(), "{a:?}");
            for &b in &s {
                for &c in &s {
                    let want = a.is_finite() && b.is_finite() && c.is_finite();
                    assert_eq!(all_finite_by_bits!(a, b, c), want, "{a:?} {b:?} {c:?}");
                    assert_eq!(all_finite_by_sum!(a, b, c), want, "{a:?} {b:?} {c:?}");
                    assert_eq!(all_finite_by_flags!(a, b, c), want, "{a:?} {b:?} {c:?}");
                    assert_eq!(finite3(Vec3::new(a, b, c)), want, "{a:?} {b:?} {c:?}");
                }
                let want = a.is_finite() && b.is_finite();
                assert_eq!(all_finite!(a, b), want);
                // Eight values, as the mover state's test: a bad one anywhere in the list.
                for i in 0..8 {
                    let mut v = [1.0, -f32::MAX, 0.0, -0.0, 3.0e-39, f32::MAX, -2.5, 1.0e-45];
                    v[i] = a;
                    v[(i + 3) % 8] = b;
                    let [p, q, r, s, t, u, w, x] = v;
                    assert_eq!(all_finite_by_sum!(p, q, r, s, t, u, w, x), want, "{v:?}");
                    assert_eq!(all_finite_by_flags!(p, q, r, s, t, u, w, x), want, "{v:?}");
                    assert_eq!(all_finite_by_bits!(p, q, r, s, t, u, w, x), want, "{v:?}");
                }
                assert_eq!(all_finite!(a, 1.0, 2.0, b, 0.0, 3.0, 4.0, -5.0, 6.0), want);
            }
        }
    }

    #[test]
    fn in_range_to_max_is_the_float_range() {
        let mut xs = specials().to_vec();
        let mut rng = crate::rng::Pcg32::seeded(31);
        xs.extend((0..20_000).map(|_| f32::from_bits(rng.next_u32())));
        for min in [0.0, f32::from_bits(1), 1.0e-12, 1.0, 3.0e38, f32::MAX] {
            for min_bits in [
                min.to_bits(),
                min.to_bits().saturating_add(1).min(MAX_FINITE),
            ] {
                let lo = f32::from_bits(min_bits);
                for &x in &xs {
                    let want = x.is_sign_positive() && lo <= x && x <= f32::MAX;
                    assert_eq!(in_range_to_max(x, min_bits), want, "{x:?} from {lo:?}");
                }
            }
        }
    }

    #[test]
    fn plus_zero_forms_agree() {
        for x in specials() {
            let want = x + 0.0;
            if x.is_nan() {
                assert!(plus_zero_by_bits(x).is_nan() && plus_zero(x).is_nan());
                continue;
            }
            assert_eq!(plus_zero_by_bits(x).to_bits(), want.to_bits(), "{x:?}");
            assert_eq!(plus_zero(x).to_bits(), want.to_bits(), "{x:?}");
        }
        assert!(is_plus_zero3(Vec3::ZERO));
        assert!(!is_plus_zero3(Vec3::new(0.0, -0.0, 0.0)));
        assert!(!is_plus_zero3(Vec3::new(0.0, 0.0, 1.0e-45)));
    }

    #[test]
    fn twice_is_the_sum() {
        let mut b = 0u32;
        loop {
            let x = f32::from_bits(b);
            let want = x + x;
            for got in [twice(x), twice_by_exponent(x)] {
                if want.is_nan() {
                    assert!(got.is_nan(), "{b:#x}");
                } else {
                    assert_eq!(got.to_bits(), want.to_bits(), "{b:#x}");
                }
            }
            match b.checked_add(4_099) {
                Some(n) => b = n,
                None => break,
            }
        }
    }
}
