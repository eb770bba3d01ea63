//! From shaped sticks to what the simulation consumes: the seed's wish vector (left stick) and a
//! view yaw rate (right stick).
//!
//! # Wish convention (seed 000)
//!
//! The seed defines the input vector in the character's `(front, right)` frame: W only =
//! `(1, 0)`, W+D = `(1/√2, 1/√2)`, W+D+A = `(1, 0)`. [`Wish`] keeps those two components as named
//! fields (no `x`/`y` ambiguity) plus the magnitude:
//!
//! - `front`, `right`: a **unit** direction (`front² + right² = 1` up to rounding), or both 0.
//! - `magnitude`: how far the stick is pushed, in `[0, 1]` — multiply the maximum speed by it
//!   for analog walking (the seed's keys always give 1).
//!
//! From a stick: **up = front, right = right**, i.e. `front = stick.y`, `right = stick.x`
//! (normalised). Movement code gets a world direction with [`Wish::world_direction`].
//!
//! # Look convention
//!
//! Pushing the right stick to the right turns the view to the right. hopkit's yaw is positive to
//! the **left** (counter-clockwise seen from above), so [`look_rate`] returns `−x · max_rate`.

use super::shape::stick_length;
use crate::math::{clamp, yaw_forward, yaw_right, Vec2, NORMALIZE_EPSILON_SQ};

/// Movement wish in the character's frame: unit `(front, right)` direction and a magnitude.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Wish {
    /// Forward component of the unit direction (+1 = straight ahead, −1 = straight back).
    pub front: f32,
    /// Rightward component of the unit direction (+1 = to the character's right).
    pub right: f32,
    /// Stick deflection in `[0, 1]` (0 exactly when the direction is zero).
    pub magnitude: f32,
}

impl Wish {
    /// No movement wanted.
    pub const ZERO: Wish = Wish {
        front: 0.0,
        right: 0.0,
        magnitude: 0.0,
    };

    /// True if nothing is wished (magnitude 0).
    pub fn is_zero(&self) -> bool {
        self.magnitude.is_nan() || self.magnitude <= 0.0
    }

    /// The unit direction as a `Vec2` in the seed's tuple order: `x = front`, `y = right`.
    pub fn front_right(&self) -> Vec2 {
        Vec2::new(self.front, self.right)
    }

    /// Unit planar **world** direction (X, Z) for a character with `yaw` radians:
    /// `front · yaw_forward(yaw) + right · yaw_right(yaw)`. Zero wish gives zero.
    pub fn world_direction(&self, yaw: f32) -> Vec2 {
        if self.is_zero() {
            return Vec2::ZERO;
        }
        yaw_forward(yaw) * self.front + yaw_right(yaw) * self.right
    }

    /// The wish as a stick vector again (`x = right · magnitude`, `y = front · magnitude`).
    pub fn to_stick(&self) -> Vec2 {
        Vec2::new(self.right * self.magnitude, self.front * self.magnitude)
    }
}

/// Squared-length tolerance within which a stick counts as exactly on the rim (about 8 ulps of 1).
pub const RIM_EPSILON_SQ: f32 = 1.0e-6;

/// The seed's wish from a shaped stick (`x` = right, `y` = up/forward, length ≤ 1).
///
/// Direction = `(stick.y, stick.x) / |stick|`, magnitude = `min(|stick|, 1)`. A stick whose squared
/// length is within [`RIM_EPSILON_SQ`] of 1 is taken as unit already: direction = the stick's own
/// components, magnitude exactly 1 — so `(1/√2, 1/√2)` gives exactly `front = right = 1/√2`,
/// magnitude 1 (the seed's W+D; `FRAC_1_SQRT_2²·2` is 0.99999994 in `f32`, and renormalising would
/// move it by an ulp). Zero, tiny (length < 1e-6), NaN, infinite or overflowing (`|stick|²` = ∞)
/// sticks give [`Wish::ZERO`].
pub fn wish_from_stick(stick: Vec2) -> Wish {
    let l2 = stick.length_squared();
    if !l2.is_finite() || l2 <= NORMALIZE_EPSILON_SQ {
        return Wish::ZERO;
    }
    if (l2 - 1.0).abs() <= RIM_EPSILON_SQ {
        return Wish {
            front: stick.y,
            right: stick.x,
            magnitude: 1.0,
        };
    }
    let len = stick_length(stick, l2);
    Wish {
        front: stick.y / len,
        right: stick.x / len,
        magnitude: if len < 1.0 { len } else { 1.0 },
    }
}

/// View yaw rate in rad/s from a shaped right stick: `−clamp(stick.x, −1, 1) · max_rate_rad_per_s`.
///
/// Pushing right gives a **negative** rate (turns right; positive yaw turns left in hopkit). Only
/// `x` is used. NaN `x` or a non-finite `max_rate_rad_per_s` gives 0; a negative max rate inverts
/// the control. Typical max rate: π rad/s (half a turn per second).
pub fn look_rate(stick: Vec2, max_rate_rad_per_s: f32) -> f32 {
    if !max_rate_rad_per_s.is_finite() {
        return 0.0;
    }
    let x = clamp(stick.x, -1.0, 1.0);
    if stick.x.is_nan() || x == 0.0 {
        return 0.0;
    }
    -x * max_rate_rad_per_s
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f32::consts::{FRAC_1_SQRT_2, PI};

    #[test]
    fn stick_up_is_front_right_is_right() {
        let w = wish_from_stick(Vec2::new(0.0, 1.0));
        assert_eq!((w.front, w.right, w.magnitude), (1.0, 0.0, 1.0));
        let w = wish_from_stick(Vec2::new(0.5, 0.0));
        assert_eq!((w.front, w.right, w.magnitude), (0.0, 1.0, 0.5));
        assert_eq!(w.front_right(), Vec2::new(0.0, 1.0));
        assert_eq!(w.to_stick(), Vec2::new(0.5, 0.0));
    }

    #[test]
    fn diagonal_is_seed_exact() {
        let w = wish_from_stick(Vec2::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2));
        assert_eq!(
            (w.front, w.right, w.magnitude),
            (FRAC_1_SQRT_2, FRAC_1_SQRT_2, 1.0)
        );
    }

    #[test]
    fn zero_safe() {
        assert_eq!(wish_from_stick(Vec2::ZERO), Wish::ZERO);
        assert_eq!(wish_from_stick(Vec2::new(f32::NAN, 0.5)), Wish::ZERO);
        assert_eq!(wish_from_stick(Vec2::new(f32::INFINITY, 0.0)), Wish::ZERO);
        assert!(Wish::ZERO.is_zero());
        assert_eq!(Wish::ZERO.world_direction(1.0), Vec2::ZERO);
        let w = wish_from_stick(Vec2::new(3.0, 4.0));
        assert_eq!(w.magnitude, 1.0);
    }

    #[test]
    fn world_direction_follows_yaw() {
        let fwd = wish_from_stick(Vec2::new(0.0, 1.0));
        assert_eq!(fwd.world_direction(0.0), Vec2::new(0.0, -1.0)); // yaw 0 faces −Z
        let right = wish_from_stick(Vec2::new(1.0, 0.0));
        assert_eq!(right.world_direction(0.0), Vec2::new(1.0, 0.0)); // right is +X
    }

    #[test]
    fn look_right_is_negative_yaw() {
        assert_eq!(look_rate(Vec2::new(1.0, 0.0), PI), -PI);
        assert_eq!(look_rate(Vec2::new(-0.5, 0.9), 2.0), 1.0);
        assert_eq!(look_rate(Vec2::new(5.0, 0.0), 2.0), -2.0);
        assert_eq!(look_rate(Vec2::new(f32::NAN, 0.0), 2.0), 0.0);
        assert_eq!(look_rate(Vec2::new(1.0, 0.0), f32::INFINITY), 0.0);
        assert_eq!(look_rate(Vec2::ZERO, 2.0), 0.0);
    }
}
