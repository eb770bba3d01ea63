//! Three-component vector for world positions, velocities and directions (Y up).

use super::{scalar, Vec2, NORMALIZE_EPSILON_SQ};
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// A 3-D vector of `f32`. Right-handed, Y up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Vec3 {
    /// X (right at yaw 0).
    pub x: f32,
    /// Y (up).
    pub y: f32,
    /// Z (backwards at yaw 0; forward is −Z).
    pub z: f32,
}

impl Vec3 {
    /// Every component through [`super::scalar::flush_subnormal`].
    #[inline]
    pub fn flush_subnormal(self) -> Vec3 {
        use super::scalar::flush_subnormal as f;
        Vec3::new(f(self.x), f(self.y), f(self.z))
    }

    /// `(0, 0, 0)`.
    pub const ZERO: Vec3 = Vec3 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };
    /// `(1, 0, 0)`.
    pub const X: Vec3 = Vec3 {
        x: 1.0,
        y: 0.0,
        z: 0.0,
    };
    /// Up, `(0, 1, 0)`.
    pub const Y: Vec3 = Vec3 {
        x: 0.0,
        y: 1.0,
        z: 0.0,
    };
    /// `(0, 0, 1)`.
    pub const Z: Vec3 = Vec3 {
        x: 0.0,
        y: 0.0,
        z: 1.0,
    };
    /// World up, `(0, 1, 0)`.
    pub const UP: Vec3 = Vec3::Y;
    /// Forward at identity orientation, `(0, 0, −1)`.
    pub const FORWARD: Vec3 = Vec3 {
        x: 0.0,
        y: 0.0,
        z: -1.0,
    };

    /// New vector.
    #[inline]
    pub const fn new(x: f32, y: f32, z: f32) -> Self {
        Vec3 { x, y, z }
    }
    /// From a planar vector `(x, z)` and a height `y`.
    #[inline]
    pub const fn from_planar(p: Vec2, y: f32) -> Self {
        Vec3 { x: p.x, y, z: p.y }
    }
    /// The planar part `(x, z)` as a [`Vec2`].
    #[inline]
    pub const fn planar(self) -> Vec2 {
        Vec2 {
            x: self.x,
            y: self.z,
        }
    }
    /// Dot product.
    #[inline]
    pub fn dot(self, o: Vec3) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    /// Cross product (right-handed).
    #[inline]
    pub fn cross(self, o: Vec3) -> Vec3 {
        Vec3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
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
    /// True if all components are finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        // In this target's cheaper exact form (`math::bits::all_finite!`).
        super::bits::finite3(self)
    }
    /// Unit vector, or `None` for zero, tiny (length < 1e-6), NaN or infinite input.
    #[inline]
    pub fn try_normalize(self) -> Option<Vec3> {
        let l2 = self.length_squared();
        if l2 > NORMALIZE_EPSILON_SQ && l2.is_finite() {
            Some(self * (1.0 / scalar::sqrt(l2)))
        } else {
            None
        }
    }
    /// Unit vector, or zero for zero, tiny, NaN or infinite input (never NaN).
    #[inline]
    pub fn normalize_or_zero(self) -> Vec3 {
        self.try_normalize().unwrap_or(Vec3::ZERO)
    }
    /// Scale down to at most `max` length; non-finite input gives zero.
    #[inline]
    pub fn clamp_length_max(self, max: f32) -> Vec3 {
        let l2 = self.length_squared();
        if !l2.is_finite() {
            return Vec3::ZERO;
        }
        if l2 > max * max {
            self * (max / scalar::sqrt(l2))
        } else {
            self
        }
    }
    /// Linear interpolation `self + (o − self)·t`.
    #[inline]
    pub fn lerp(self, o: Vec3, t: f32) -> Vec3 {
        self + (o - self) * t
    }
    /// Distance to `o`.
    #[inline]
    pub fn distance(self, o: Vec3) -> f32 {
        (self - o).length()
    }
    /// Any unit vector perpendicular to `self` (which should be unit length).
    #[inline]
    pub fn any_orthonormal(self) -> Vec3 {
        let a = if self.x.abs() < 0.9 { Vec3::X } else { Vec3::Y };
        self.cross(a).normalize_or_zero()
    }
    /// Replace non-finite components with 0.
    #[inline]
    pub fn sanitize(self) -> Vec3 {
        Vec3::new(
            super::finite_or(self.x, 0.0),
            super::finite_or(self.y, 0.0),
            super::finite_or(self.z, 0.0),
        )
    }
}

impl Add for Vec3 {
    type Output = Vec3;
    #[inline]
    fn add(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}
impl Sub for Vec3 {
    type Output = Vec3;
    #[inline]
    fn sub(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}
impl Mul<f32> for Vec3 {
    type Output = Vec3;
    #[inline]
    fn mul(self, s: f32) -> Vec3 {
        Vec3::new(self.x * s, self.y * s, self.z * s)
    }
}
impl Mul<Vec3> for f32 {
    type Output = Vec3;
    #[inline]
    fn mul(self, v: Vec3) -> Vec3 {
        v * self
    }
}
impl Div<f32> for Vec3 {
    type Output = Vec3;
    #[inline]
    fn div(self, s: f32) -> Vec3 {
        Vec3::new(self.x / s, self.y / s, self.z / s)
    }
}
impl Neg for Vec3 {
    type Output = Vec3;
    #[inline]
    fn neg(self) -> Vec3 {
        Vec3::new(-self.x, -self.y, -self.z)
    }
}
impl AddAssign for Vec3 {
    #[inline]
    fn add_assign(&mut self, o: Vec3) {
        *self = *self + o;
    }
}
impl SubAssign for Vec3 {
    #[inline]
    fn sub_assign(&mut self, o: Vec3) {
        *self = *self - o;
    }
}
impl MulAssign<f32> for Vec3 {
    #[inline]
    fn mul_assign(&mut self, s: f32) {
        *self = *self * s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_is_right_handed() {
        assert_eq!(Vec3::X.cross(Vec3::Y), Vec3::Z);
        assert_eq!(Vec3::Y.cross(Vec3::Z), Vec3::X);
    }

    #[test]
    fn normalize_is_zero_safe() {
        assert_eq!(Vec3::ZERO.normalize_or_zero(), Vec3::ZERO);
        assert!(Vec3::new(f32::NAN, 0.0, 0.0).try_normalize().is_none());
        let o = Vec3::Y.any_orthonormal();
        assert!(o.dot(Vec3::Y).abs() < 1e-6 && (o.length() - 1.0).abs() < 1e-6);
    }
}
