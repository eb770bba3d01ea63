//! Two-component vector, used for planar (ground-plane) quantities and stick axes.

use super::{scalar, NORMALIZE_EPSILON_SQ};
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// A 2-D vector of `f32`.
///
/// For planar world quantities `x` is world X and `y` is world **Z** (see [`crate::math`]). For stick
/// axes and the seed's wish vector, `x`/`y` are documented where used (e.g. `(front, right)`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Vec2 {
    /// First component.
    pub x: f32,
    /// Second component.
    pub y: f32,
}

impl Vec2 {
    /// Both components through [`super::scalar::flush_subnormal`].
    #[inline]
    pub fn flush_subnormal(self) -> Vec2 {
        use super::scalar::flush_subnormal as f;
        Vec2::new(f(self.x), f(self.y))
    }

    /// `(0, 0)`.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };
    /// `(1, 0)`.
    pub const X: Vec2 = Vec2 { x: 1.0, y: 0.0 };
    /// `(0, 1)`.
    pub const Y: Vec2 = Vec2 { x: 0.0, y: 1.0 };

    /// New vector.
    #[inline]
    pub const fn new(x: f32, y: f32) -> Self {
        Vec2 { x, y }
    }
    /// Dot product.
    #[inline]
    pub fn dot(self, o: Vec2) -> f32 {
        self.x * o.x + self.y * o.y
    }
    /// 2-D cross product (z of the 3-D cross): `self.x·o.y − self.y·o.x`.
    #[inline]
    pub fn perp_dot(self, o: Vec2) -> f32 {
        self.x * o.y - self.y * o.x
    }
    /// Squared length.
    #[inline]
    pub fn length_squared(self) -> f32 {
        self.dot(self)
    }
    /// Length.
    #[inline]
    pub fn length(self) -> f32 {
        scalar::sqrt(self.length_squared())
    }
    /// True if both components are finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        // In this target's cheaper exact form (`math::bits::all_finite!`).
        super::bits::all_finite!(self.x, self.y)
    }
    /// Unit vector, or `None` for zero, tiny (length < 1e-6), NaN or infinite input.
    #[inline]
    pub fn try_normalize(self) -> Option<Vec2> {
        let l2 = self.length_squared();
        if l2 > NORMALIZE_EPSILON_SQ && l2.is_finite() {
            let inv = 1.0 / scalar::sqrt(l2);
            Some(self * inv)
        } else {
            None
        }
    }
    /// Unit vector, or zero for zero, tiny, NaN or infinite input (never NaN).
    #[inline]
    pub fn normalize_or_zero(self) -> Vec2 {
        self.try_normalize().unwrap_or(Vec2::ZERO)
    }
    /// Scale down to at most `max` length (`max ≥ 0`); non-finite input gives zero.
    #[inline]
    pub fn clamp_length_max(self, max: f32) -> Vec2 {
        let l2 = self.length_squared();
        if !l2.is_finite() {
            return Vec2::ZERO;
        }
        if l2 > max * max {
            let l = scalar::sqrt(l2);
            self * (max / l)
        } else {
            self
        }
    }
    /// Linear interpolation `self + (o − self)·t`.
    #[inline]
    pub fn lerp(self, o: Vec2, t: f32) -> Vec2 {
        self + (o - self) * t
    }
    /// Rotate by 90° counter-clockwise: `(−y, x)`.
    #[inline]
    pub fn perp(self) -> Vec2 {
        Vec2::new(-self.y, self.x)
    }
    /// Distance to `o`.
    #[inline]
    pub fn distance(self, o: Vec2) -> f32 {
        (self - o).length()
    }
    /// Replace non-finite components with 0.
    #[inline]
    pub fn sanitize(self) -> Vec2 {
        Vec2::new(super::finite_or(self.x, 0.0), super::finite_or(self.y, 0.0))
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    #[inline]
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl Sub for Vec2 {
    type Output = Vec2;
    #[inline]
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl Mul<f32> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn mul(self, s: f32) -> Vec2 {
        Vec2::new(self.x * s, self.y * s)
    }
}
impl Mul<Vec2> for f32 {
    type Output = Vec2;
    #[inline]
    fn mul(self, v: Vec2) -> Vec2 {
        v * self
    }
}
impl Div<f32> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn div(self, s: f32) -> Vec2 {
        Vec2::new(self.x / s, self.y / s)
    }
}
impl Neg for Vec2 {
    type Output = Vec2;
    #[inline]
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}
impl AddAssign for Vec2 {
    #[inline]
    fn add_assign(&mut self, o: Vec2) {
        *self = *self + o;
    }
}
impl SubAssign for Vec2 {
    #[inline]
    fn sub_assign(&mut self, o: Vec2) {
        *self = *self - o;
    }
}
impl MulAssign<f32> for Vec2 {
    #[inline]
    fn mul_assign(&mut self, s: f32) {
        *self = *self * s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_is_zero_safe() {
        assert_eq!(Vec2::ZERO.normalize_or_zero(), Vec2::ZERO);
        assert_eq!(Vec2::new(f32::NAN, 1.0).normalize_or_zero(), Vec2::ZERO);
        assert_eq!(
            Vec2::new(f32::INFINITY, 1.0).normalize_or_zero(),
            Vec2::ZERO
        );
        assert!(Vec2::new(1e-30, 0.0).try_normalize().is_none());
        let n = Vec2::new(3.0, 4.0).normalize_or_zero();
        assert!((n.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn clamp_length() {
        let v = Vec2::new(3.0, 4.0).clamp_length_max(1.0);
        assert!((v.length() - 1.0).abs() < 1e-6);
        assert_eq!(
            Vec2::new(0.1, 0.0).clamp_length_max(1.0),
            Vec2::new(0.1, 0.0)
        );
        assert_eq!(Vec2::new(f32::NAN, 0.0).clamp_length_max(1.0), Vec2::ZERO);
    }
}
