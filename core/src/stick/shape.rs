//! 2-D stick shaping: scaled radial deadzone, outer saturation and a response curve.
//!
//! Applied to the **vector**, never per axis (a per-axis deadzone snaps diagonals onto the axes and
//! lets a drifting axis leak through). With `L = |v|` and `t` the remapped length:
//!
//! ```text
//! L ≤ inner            → t = 0                         (inside the deadzone: exactly zero)
//! inner < L < outer    → t = (L − inner) / (outer − inner)   (scaled: no jump at the edge)
//! L ≥ outer            → t = 1                         (outer saturation: the rim reaches 1)
//! t' = t + curve·(t³ − t)                              (cubic blend, t' = t at curve 0)
//! out = v · t' / L                                      (direction unchanged, |out| ≤ 1)
//! ```
//!
//! The response curve is a **cubic blend** `(1 − k)·t + k·t³`, written `t + k·(t³ − t)` so that
//! `t = 1` gives exactly 1 and `t = 0` exactly 0. It costs three multiplies and an add (no `powf`,
//! cheap on an FPU-less Cortex-M0) and is monotonic for every `k ∈ [0, 1]`; `k = 1` is a pure cube.
//! A calibrated square-gate corner (length √2) lands on the rim like any other point beyond
//! `outer`.

use crate::hash::{StateHash, StateHasher};
use crate::math::{clamp, Vec2};

/// Parameters of [`shape()`]. Lengths are unitless fractions of full calibrated deflection.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ShapeParams {
    /// Radius of the inner (scaled radial) deadzone; lengths at or below it read zero.
    /// Default `0.15`: covers the rest offset and centring slop of worn consumer potentiometer
    /// sticks (typically 5–10 % of travel) with a margin, and lies in the usual 0.1–0.25 range of
    /// game input layers. Sanitised: NaN/∞ → default, negative → 0.
    pub inner: f32,
    /// Radius at and beyond which the output length is exactly 1 (outer saturation).
    /// Default `0.95`: real sticks rarely reach the calibrated extreme in every direction (gate
    /// shape, calibration drift); without it some directions would never quite reach full speed.
    /// Sanitised: NaN/∞ → default, negative → 0. `outer ≤ inner` makes a step: any length beyond
    /// `inner` reads 1.
    pub outer: f32,
    /// Cubic blend amount `k` in `[0, 1]` of `t + k·(t³ − t)`: 0 = linear, 1 = cube (fine control
    /// near the centre). Default `0.0` so the walk speed stays proportional to deflection (analog
    /// walk); [`ShapeParams::look`] uses 0.5. Sanitised: NaN → 0, clamped into `[0, 1]`.
    pub curve: f32,
}

impl Default for ShapeParams {
    fn default() -> Self {
        Self::MOVE
    }
}

impl ShapeParams {
    /// Default for a movement stick: inner 0.15, outer 0.95, linear.
    pub const MOVE: ShapeParams = ShapeParams {
        inner: 0.15,
        outer: 0.95,
        curve: 0.0,
    };

    /// Movement-stick parameters (same as [`Default`]).
    pub const fn movement() -> Self {
        Self::MOVE
    }

    /// Camera/look stick: inner 0.15, outer 0.95, cubic blend 0.5 (slow, precise turns near the
    /// centre, full rate at the rim).
    pub const fn look() -> Self {
        ShapeParams {
            inner: 0.15,
            outer: 0.95,
            curve: 0.5,
        }
    }

    /// No deadzone, no saturation below length 1, linear: only clamps the length to ≤ 1. For
    /// already clean input (digital adapters, tests).
    pub const fn passthrough() -> Self {
        ShapeParams {
            inner: 0.0,
            outer: 1.0,
            curve: 0.0,
        }
    }

    /// The parameters [`shape()`] actually uses (see each field's sanitising rule).
    pub fn sanitized(self) -> Self {
        let len = |v: f32, d: f32| if v.is_finite() { v.max(0.0) } else { d };
        ShapeParams {
            inner: len(self.inner, Self::MOVE.inner),
            outer: len(self.outer, Self::MOVE.outer),
            curve: clamp(self.curve, 0.0, 1.0),
        }
    }

    /// Remapped length `t' ∈ [0, 1]` for an input length `len` (NaN or ≤ inner → 0).
    pub fn remap_length(&self, len: f32) -> f32 {
        let p = self.sanitized();
        remap(len, &p)
    }
}

/// Remapped length for already sanitised params.
#[inline]
fn remap(len: f32, p: &ShapeParams) -> f32 {
    if len.is_nan() || len <= p.inner {
        return 0.0;
    }
    let width = p.outer - p.inner;
    let t = if width > 0.0 {
        clamp((len - p.inner) / width, 0.0, 1.0)
    } else {
        1.0
    };
    t + p.curve * (t * t * t - t)
}

/// Shape a calibrated stick vector (components usually in `[−1, 1]`): scaled radial deadzone,
/// outer saturation, response curve. See [`ShapeParams`] and `core/src/stick/shape.rs` for the formula.
///
/// The result has the input's direction, length in `[0, 1]` (`length_squared() ≤ 1` holds
/// exactly), is exactly zero inside the deadzone, and is continuous in the input. NaN/∞
/// components give zero. The deadzone and saturation tests compare squared lengths, so "inside"
/// and "on the rim" do not depend on the accuracy of the `sqrt` backend; an axis-aligned stick on
/// the rim gives exactly `±1`.
pub fn shape(v: Vec2, params: &ShapeParams) -> Vec2 {
    match polar(v, &params.sanitized()) {
        // A curve of a tiny deflection can fall into subnormals: flush them (the stick feeds
        // every mechanic's state).
        Some((dir, t)) => within_unit(dir * t).flush_subnormal(),
        None => Vec2::ZERO,
    }
}

/// The stick's length after shaping, in `[0, 1]` (what [`shape()`] scales the direction to;
/// exactly `1.0` at and beyond `outer`), for callers that need the magnitude without the vector.
pub fn shaped_length(v: Vec2, params: &ShapeParams) -> f32 {
    match polar(v, &params.sanitized()) {
        Some((_, t)) => t,
        None => 0.0,
    }
}

/// Direction `v / |v|` and remapped length `t ∈ (0, 1]`, or `None` inside the deadzone or for
/// non-finite input.
fn polar(v: Vec2, p: &ShapeParams) -> Option<(Vec2, f32)> {
    if !v.is_finite() {
        return None;
    }
    let l2 = v.length_squared();
    if !l2.is_finite() {
        // |v|² overflowed (components beyond ~1.8e19): far beyond any rim, so t = 1; rescale
        // into the unit box so the direction survives.
        let v = v * (1.0 / v.x.abs().max(v.y.abs()));
        let len = stick_length(v, v.length_squared());
        return Some((Vec2::new(v.x / len, v.y / len), 1.0));
    }
    if l2 <= p.inner * p.inner {
        return None;
    }
    let len = stick_length(v, l2);
    if len.is_nan() || len <= 0.0 {
        return None;
    }
    let t = if l2 >= p.outer * p.outer {
        1.0
    } else {
        remap(len, p)
    };
    if t.is_nan() || t <= 0.0 {
        return None;
    }
    Some((Vec2::new(v.x / len, v.y / len), t))
}

/// Length of `v` given `l2 = |v|²`: exact for axis-aligned vectors, else the backend `sqrt`.
///
/// With the `micromath` backend, whose `sqrt` is only a first approximation (measured: up to 6 %
/// off, `sqrt(2)` → 1.5), three Heron steps `s ← (s + l2/s)/2` bring it to `f32` precision
/// (error 6 % → 2·10⁻³ → 2·10⁻⁶ → rounding), so unit vectors stay unit on both backends.
pub(crate) fn stick_length(v: Vec2, l2: f32) -> f32 {
    if v.x == 0.0 {
        return v.y.abs();
    }
    if v.y == 0.0 {
        return v.x.abs();
    }
    refine_sqrt(crate::math::scalar::sqrt(l2), l2)
}

#[cfg(feature = "micromath")]
#[inline]
fn refine_sqrt(mut s: f32, l2: f32) -> f32 {
    if !(s > 0.0 && s.is_finite()) {
        return s;
    }
    for _ in 0..3 {
        s = 0.5 * (s + l2 / s);
    }
    s
}

#[cfg(not(feature = "micromath"))]
#[inline]
fn refine_sqrt(s: f32, _l2: f32) -> f32 {
    s
}

/// Make `length_squared() ≤ 1` hold exactly for a vector whose length is at most 1 up to rounding.
///
/// `dir·t` with `|dir| = 1 ± ε` can overshoot by a few ulps. One Newton step of `1/√x` from 1,
/// `v·(3 − |v|²)/2`, lands at or below 1 for any `|v|² ∈ (1, 3)`; then up to 8 nudges by
/// `1 − 2⁻²³` (about 2 ulps each) absorb its own rounding; a final halving loop (exact in binary)
/// makes the bound unconditional.
#[inline]
fn within_unit(mut v: Vec2) -> Vec2 {
    const NUDGE: f32 = 1.0 - 1.0 / 8_388_608.0; // 1 − 2⁻²³
    let l2 = v.length_squared();
    if l2 <= 1.0 {
        return v;
    }
    if l2 < 3.0 {
        v *= (3.0 - l2) * 0.5;
    }
    for _ in 0..8 {
        if v.length_squared() <= 1.0 {
            return v;
        }
        v *= NUDGE;
    }
    for _ in 0..160 {
        if v.length_squared() <= 1.0 {
            break;
        }
        v *= 0.5;
    }
    v
}

impl StateHash for ShapeParams {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_f32(self.inner);
        h.write_f32(self.outer);
        h.write_f32(self.curve);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::scalar::{sin_cos, sqrt};

    const P: ShapeParams = ShapeParams::MOVE;

    fn at(angle: f32, len: f32) -> Vec2 {
        let (s, c) = sin_cos(angle);
        Vec2::new(c * len, s * len)
    }

    #[test]
    fn inside_deadzone_is_exactly_zero() {
        assert_eq!(shape(Vec2::new(0.1, 0.1), &P), Vec2::ZERO);
        assert_eq!(shape(Vec2::new(0.15, 0.0), &P), Vec2::ZERO);
        assert_eq!(shape(Vec2::ZERO, &P), Vec2::ZERO);
    }

    #[test]
    fn no_jump_at_inner_edge() {
        // Just past the edge the output is tiny, and it grows continuously.
        let eps = 1e-4;
        let out = shape(Vec2::new(0.15 + eps, 0.0), &P);
        assert!(out.x > 0.0 && out.x < 2.0 * eps / 0.8, "{out:?}");
        let mut prev = 0.0;
        for i in 0..=1000 {
            let len = 0.14 + i as f32 * 0.001;
            let l = shape(at(0.7, len), &P).length();
            assert!(
                l >= prev - 1e-6 && l - prev < 0.002,
                "len {len}: {prev} → {l}"
            );
            prev = l;
        }
    }

    #[test]
    fn rim_reaches_exactly_one() {
        assert_eq!(shape(Vec2::new(1.0, 0.0), &P), Vec2::new(1.0, 0.0));
        assert_eq!(shape(Vec2::new(0.0, -0.95), &P), Vec2::new(0.0, -1.0));
        assert_eq!(shaped_length(Vec2::new(0.6, 0.8), &P), 1.0);
        // Square-gate corner.
        let c = shape(Vec2::new(1.0, 1.0), &P);
        assert!(c.length_squared() <= 1.0 && c.length() > 1.0 - 1e-6);
        assert_eq!(c.x, c.y);
    }

    #[test]
    fn direction_preserved_radially() {
        // 30° stays 30° (a per-axis deadzone would zero the 0.1 y component and snap to 0°).
        for len in [0.2, 0.4, 0.7, 0.95, 1.2] {
            let v = at(core::f32::consts::FRAC_PI_6, len);
            let out = shape(v, &P);
            // Same direction: parallel (cross product ~0) and same sense (dot > 0).
            assert!(
                out.perp_dot(v).abs() <= 1e-6 * out.length() * v.length(),
                "{len}"
            );
            assert!(out.dot(v) > 0.0);
            assert!((out.y / out.x - v.y / v.x).abs() < 1e-6, "{len}: {out:?}");
        }
        let v = Vec2::new(0.9, 0.1);
        let out = shape(v, &P);
        assert!(out.y > 0.0);
        assert!((out.y / out.x - v.y / v.x).abs() < 1e-6);
    }

    #[test]
    fn curve_shapes_magnitude_only() {
        let look = ShapeParams::look();
        let lin = shape(at(1.0, 0.55), &P);
        let cub = shape(at(1.0, 0.55), &look);
        assert!(cub.length() < lin.length());
        assert!(cub.perp_dot(lin).abs() < 1e-6);
        assert_eq!(shaped_length(Vec2::new(0.0, 1.0), &look), 1.0);
        // Monotonic for the full cube.
        let cube = ShapeParams { curve: 1.0, ..P };
        let mut prev = 0.0;
        for i in 0..=100 {
            let t = cube.remap_length(i as f32 / 100.0);
            assert!(t >= prev);
            prev = t;
        }
    }

    #[test]
    fn degenerate_params_and_inputs() {
        let step = ShapeParams {
            inner: 0.5,
            outer: 0.2,
            curve: 0.0,
        };
        assert_eq!(shape(Vec2::new(0.4, 0.0), &step), Vec2::ZERO);
        assert_eq!(shape(Vec2::new(0.6, 0.0), &step), Vec2::new(1.0, 0.0));
        let nan = ShapeParams {
            inner: f32::NAN,
            outer: f32::INFINITY,
            curve: f32::NAN,
        };
        assert_eq!(nan.sanitized(), P);
        assert_eq!(shape(Vec2::new(f32::NAN, 1.0), &P), Vec2::ZERO);
        assert_eq!(shape(Vec2::new(f32::INFINITY, 0.0), &P), Vec2::ZERO);
        let huge = shape(Vec2::new(3.0e38, -3.0e38), &P);
        assert!(huge.is_finite() && huge.length_squared() <= 1.0);
        assert!(huge.length() > 0.999 && huge.x == -huge.y);
        let tiny = shape(Vec2::new(1e-30, 0.0), &ShapeParams::passthrough());
        assert!(tiny.is_finite() && tiny.length_squared() <= 1.0);
    }

    #[test]
    fn length_never_exceeds_one() {
        let mut rng = crate::rng::Pcg32::seeded(7);
        for _ in 0..20_000 {
            let v = Vec2::new(rng.range_f32(-1.5, 1.5), rng.range_f32(-1.5, 1.5));
            let out = shape(v, &P);
            assert!(
                out.length_squared() <= 1.0 && out.length() <= 1.0,
                "{v:?} → {out:?}"
            );
        }
        let d = 1.0 / sqrt(2.0);
        assert!(shape(Vec2::new(d, d), &P).length_squared() <= 1.0);
    }
}
