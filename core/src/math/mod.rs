//! Small vector maths: [`Vec2`], [`Vec3`], [`Quat`] and the scalar backend [`scalar`].
//!
//! # Example
//!
//! ```
//! use hopkit::math::{scalar, yaw_forward, Vec2, Vec3};
//!
//! assert_eq!(Vec3::ZERO.normalize_or_zero(), Vec3::ZERO); // never NaN
//! assert_eq!(Vec2::new(f32::NAN, 1.0).try_normalize(), None);
//! let f = yaw_forward(0.0);
//! assert_eq!((f.x, f.y), (-0.0, -1.0)); // yaw 0 faces −Z (planar (x, z))
//! // The scalar backend: libm's sqrt is correctly rounded; micromath's (refined) within ~1e-6.
//! assert!((scalar::sqrt(2.0) - core::f32::consts::SQRT_2).abs() < 4e-6);
//! ```
//!
//! Frame: right-handed, **Y up**, ground plane X/Z, forward at yaw 0 is **−Z** (Bevy/Godot).
//! [`yaw_forward`] and [`yaw_right`] give the planar basis of a character with a given yaw.
//!
//! Every normalisation is guarded: `normalize_or_zero` returns the zero vector for zero, tiny,
//! NaN or infinite input, and `try_normalize` returns `None` there. Nothing here panics.

pub(crate) mod bits;
mod quat;
pub mod scalar;
// Backends of `scalar::sqrt` on some Arm targets (chosen there by `target`'s constants):
// implementation details, compiled on every target with the `libm` backend (and for their tests).
#[cfg(any(test, not(feature = "micromath")))]
mod sqrt32;
#[cfg(any(test, not(feature = "micromath")))]
mod sqrt_fpu;
pub(crate) mod target;
mod trig;
mod vec2;
mod vec3;

pub use bits::order_key;
pub use quat::Quat;
pub use vec2::Vec2;
pub use vec3::Vec3;

/// Squared length below which a vector is treated as zero by the normalisers (length 1e-6).
pub const NORMALIZE_EPSILON_SQ: f32 = 1.0e-12;

/// Planar forward direction (X, Z components) of a character with `yaw` radians: `(−sin, −cos)`;
/// a NaN or infinite `yaw` reads as 0.
///
/// Yaw 0 faces −Z; positive yaw turns left (counter-clockwise seen from above, +Y towards you).
#[inline]
pub fn yaw_forward(yaw: f32) -> Vec2 {
    let (s, c) = scalar::sin_cos(finite_yaw(yaw));
    Vec2::new(-s, -c)
}

/// Planar right direction (X, Z components) of a character with `yaw` radians: `(cos, −sin)`.
#[inline]
pub fn yaw_right(yaw: f32) -> Vec2 {
    let (s, c) = scalar::sin_cos(finite_yaw(yaw));
    Vec2::new(c, -s)
}

/// A yaw for the trigonometry: NaN and ±inf (no meaningful direction) read as 0, i.e. facing −Z.
#[inline]
fn finite_yaw(yaw: f32) -> f32 {
    if yaw.is_finite() {
        yaw
    } else {
        0.0
    }
}

/// Clamp `x` into `[lo, hi]` without panicking. NaN `x` returns `lo`; if `lo > hi`, returns `lo`.
#[inline]
pub fn clamp(x: f32, lo: f32, hi: f32) -> f32 {
    if x >= lo {
        if x <= hi {
            x
        } else if hi >= lo {
            hi
        } else {
            lo
        }
    } else {
        lo
    }
}

/// The seed's `Clip(val, min, max)` exactly: `val ≤ min → min`, `val ≤ max → val`, else `max`.
///
/// NaN `val` fails both comparisons and returns `max`, as in the seed; callers sanitise first.
#[inline]
pub fn clip(val: f32, min: f32, max: f32) -> f32 {
    if val <= min {
        return min;
    }
    if val <= max {
        return val;
    }
    max
}

/// `x` if finite, else `fallback`.
#[inline]
pub fn finite_or(x: f32, fallback: f32) -> f32 {
    if x.is_finite() {
        x
    } else {
        fallback
    }
}

/// Wrap an angle in radians into `(−π, π]`. Non-finite input returns 0.
///
/// Inline is only the common case `|a| < 3`, which is already wrapped (and which the general
/// formula returns unchanged: `(a + π)/τ` lies in `(0.02, 0.98)`, so it subtracts `τ·0 = +0`,
/// keeping even `−0` and subnormals); every other input calls one shared out-of-line copy. The
/// check compares the magnitude bits as integers: for non-NaN `f32` the magnitude orders as its
/// bit pattern, and NaN and ±∞ lie above every finite value, so they take the general path.
#[inline]
pub fn wrap_angle(a: f32) -> f32 {
    if bits::abs_bits(a) < WRAP_ANGLE_FAST_BITS {
        a
    } else {
        wrap_angle_general(a)
    }
}

/// `3.0f32.to_bits()`: below it (as magnitude bits) [`wrap_angle`] returns its input.
const WRAP_ANGLE_FAST_BITS: u32 = 0x4040_0000;

target::inline_policy! { shared_except_m0:
    /// [`wrap_angle`] for any input: not inlined (an `fmod` call, a division and a `floor`, ≈ 100
    /// bytes of code that would otherwise be copied into every caller), except on ARMv6-M (no
    /// 32-bit atomics, as in [`scalar::round`]), where flash is not the limit and its callers'
    /// ticks run ≈ 100 instructions faster with it inline.
    fn wrap_angle_general(a: f32) -> f32 {
        if !a.is_finite() {
            return 0.0;
        }
        let tau = core::f32::consts::TAU;
        // Beyond 2^20 rad the floor formula loses all precision (wrap_angle(1e30) gave 7.6e22):
        // reduce exactly with fmod first (`fmod` is exact in IEEE arithmetic: `trig::rem_tau`).
        let a = if a.abs() > 1_048_576.0 {
            trig::rem_tau(a)
        } else {
            a
        };
        let mut r = a - tau * scalar::floor((a + core::f32::consts::PI) / tau);
        if r <= -core::f32::consts::PI {
            r += tau;
        }
        if r > core::f32::consts::PI {
            r -= tau;
        }
        r
    }
}

/// Move `current` towards `target` by at most `max_delta` (both finite; `max_delta ≥ 0`).
#[inline]
pub(crate) fn approach(current: f32, target: f32, max_delta: f32) -> f32 {
    let d = target - current;
    if d > max_delta {
        current + max_delta
    } else if d < -max_delta {
        current - max_delta
    } else {
        target
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamp_never_panics_and_handles_nan() {
        assert_eq!(clamp(f32::NAN, 0.0, 1.0), 0.0);
        assert_eq!(clamp(2.0, 0.0, 1.0), 1.0);
        assert_eq!(clamp(-2.0, 0.0, 1.0), 0.0);
        assert_eq!(clamp(0.5, 1.0, 0.0), 1.0);
    }

    #[test]
    fn clip_matches_seed() {
        assert_eq!(clip(-1.0, 0.0, 2.0), 0.0);
        assert_eq!(clip(1.5, 0.0, 2.0), 1.5);
        assert_eq!(clip(3.0, 0.0, 2.0), 2.0);
    }

    #[test]
    fn yaw_basis_is_right_handed_y_up() {
        let f = yaw_forward(0.0);
        let r = yaw_right(0.0);
        assert_eq!((f.x, f.y), (0.0, -1.0));
        assert_eq!((r.x, r.y), (1.0, 0.0));
        // Turning left by 90° faces −X.
        let f = yaw_forward(core::f32::consts::FRAC_PI_2);
        assert!((f.x + 1.0).abs() < 1e-6 && f.y.abs() < 1e-6);
    }

    #[test]
    fn wrap_angle_range() {
        for i in -100..100 {
            let a = i as f32 * 0.37;
            let w = wrap_angle(a);
            assert!(w > -core::f32::consts::PI - 1e-6 && w <= core::f32::consts::PI + 1e-6);
            assert!((scalar::sin(w) - scalar::sin(a)).abs() < 1e-4);
        }
        assert_eq!(wrap_angle(f32::NAN), 0.0);
    }

    /// `wrap_angle` as it was written before its fast paths: the test oracle.
    fn wrap_angle_formula(a: f32) -> f32 {
        if !a.is_finite() {
            return 0.0;
        }
        let tau = core::f32::consts::TAU;
        let a = if a.abs() > 1_048_576.0 {
            libm::fmodf(a, tau)
        } else {
            a
        };
        let mut r = a - tau * scalar::floor((a + core::f32::consts::PI) / tau);
        if r <= -core::f32::consts::PI {
            r += tau;
        }
        if r > core::f32::consts::PI {
            r -= tau;
        }
        r
    }

    /// `wrap_angle` (inline `|a| < 3` path, out-of-line general path) gives exactly the bits of
    /// the plain formula.
    #[test]
    fn wrap_angle_is_bit_identical_to_the_formula() {
        assert_eq!(WRAP_ANGLE_FAST_BITS, 3.0f32.to_bits());
        let check = |a: f32| {
            let (got, want) = (wrap_angle(a), wrap_angle_formula(a));
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "wrap_angle({a:e}) bits {:#x}",
                a.to_bits()
            );
        };
        // Every 4099th f32 bit pattern (±0, subnormals, normals, ±∞, NaNs).
        let mut b = 0u32;
        loop {
            check(f32::from_bits(b));
            match b.checked_add(4099) {
                Some(n) => b = n,
                None => break,
            }
        }
        // Every third f32 with 2 ≤ |a| < 32 (around the fast path's edge and the floor's steps).
        for e in [2.0f32, -2.0] {
            let e = e.to_bits();
            for d in (0..4 << 23).step_by(3) {
                check(f32::from_bits(e + d));
            }
        }
        // Densely around where the floor changes (a = ±π, ±3π, ±5π) and the fast path's edge.
        let pi = core::f32::consts::PI;
        for edge in [
            3.0f32,
            pi,
            3.0 * pi,
            5.0 * pi,
            core::f32::consts::TAU,
            0.0,
            1e-38,
        ] {
            for sign in [1.0f32, -1.0] {
                let e = (edge * sign).to_bits();
                for d in 0..20_000u32 {
                    check(f32::from_bits(e.wrapping_add(d)));
                    check(f32::from_bits(e.wrapping_sub(d)));
                }
            }
        }
        let mut x = 0x1234_5678u32;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            check(f32::from_bits(x));
            check(f32::from_bits(x) * 1e-30); // small values
            check((x as f32) * (8.0 / u32::MAX as f32) - 4.0); // (−4, 4)
        }
        for v in [
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            -0.0,
            0.0,
            2.999_999_8,
            -2.999_999_8,
        ] {
            check(v);
        }
    }
}
