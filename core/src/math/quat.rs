//! Unit quaternion for orientations (flyers, slope tilt, follower body).

use super::{scalar, Vec3};
use core::ops::Mul;

/// A rotation quaternion `(x, y, z, w)`, `w` the scalar part. Operations keep it unit length and
/// fall back to [`Quat::IDENTITY`] instead of producing NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Quat {
    /// Vector part, X.
    pub x: f32,
    /// Vector part, Y.
    pub y: f32,
    /// Vector part, Z.
    pub z: f32,
    /// Scalar part.
    pub w: f32,
}

impl Default for Quat {
    fn default() -> Self {
        Quat::IDENTITY
    }
}

impl Quat {
    /// Every component through [`super::scalar::flush_subnormal`].
    #[inline]
    pub fn flush_subnormal(self) -> Quat {
        use super::scalar::flush_subnormal as f;
        Quat {
            x: f(self.x),
            y: f(self.y),
            z: f(self.z),
            w: f(self.w),
        }
    }

    /// No rotation.
    pub const IDENTITY: Quat = Quat {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        w: 1.0,
    };

    /// Raw constructor (not normalised).
    #[inline]
    pub const fn from_xyzw(x: f32, y: f32, z: f32, w: f32) -> Self {
        Quat { x, y, z, w }
    }

    /// Rotation of `angle` radians about `axis` (normalised here; a zero/NaN axis gives identity).
    pub fn from_axis_angle(axis: Vec3, angle: f32) -> Quat {
        match axis.try_normalize() {
            Some(a) if angle.is_finite() => {
                let (s, c) = scalar::sin_cos(angle * 0.5);
                Quat::from_xyzw(a.x * s, a.y * s, a.z * s, c)
            }
            _ => Quat::IDENTITY,
        }
    }

    /// Rotation about +Y (yaw) by `yaw` radians; positive turns −Z towards −X (left).
    pub fn from_yaw(yaw: f32) -> Quat {
        // `from_axis_angle(Vec3::Y, yaw)` without normalising the unit axis (exactly `Vec3::Y`
        // back): `(0·s, 1·s, 0·s, c)`, the zeros taking the sign of `s` as the products do.
        if !yaw.is_finite() {
            return Quat::IDENTITY;
        }
        let (s, c) = scalar::sin_cos(yaw * 0.5);
        let zero = f32::from_bits(s.to_bits() & super::bits::SIGN);
        Quat::from_xyzw(zero, s, zero, c)
    }

    /// Shortest rotation taking direction `from` to direction `to` (both normalised here).
    ///
    /// Opposite vectors rotate 180° about an arbitrary axis perpendicular to `from`; zero or NaN
    /// input gives identity. Computed without trigonometry.
    pub fn from_rotation_arc(from: Vec3, to: Vec3) -> Quat {
        // Inputs whose squared length is exactly 1 (`Vec3::UP`, a flat ground normal) normalise
        // to themselves (1/√1 = 1): skip those square roots.
        let unit = |v: Vec3| {
            if v.length_squared().to_bits() == 1.0f32.to_bits() {
                Some(v)
            } else {
                v.try_normalize()
            }
        };
        let (Some(a), Some(b)) = (unit(from), unit(to)) else {
            return Quat::IDENTITY;
        };
        let d = a.dot(b);
        if d < -0.999_999 {
            let axis = a.any_orthonormal();
            return Quat::from_xyzw(axis.x, axis.y, axis.z, 0.0);
        }
        let c = a.cross(b);
        let q = Quat::from_xyzw(c.x, c.y, c.z, 1.0 + d);
        if q.dot(q).to_bits() == 4.0f32.to_bits() {
            // Parallel inputs: `normalize` would scale by 1/√4 = 0.5 exactly.
            return Quat::from_xyzw(q.x * 0.5, q.y * 0.5, q.z * 0.5, q.w * 0.5);
        }
        q.normalize()
    }

    /// Dot product of the 4-vectors.
    #[inline]
    pub fn dot(self, o: Quat) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z + self.w * o.w
    }

    /// Unit-length copy; zero/NaN gives identity.
    pub fn normalize(self) -> Quat {
        let l2 = self.dot(self);
        if l2.to_bits() == 0x3f80_0000 {
            // l2 == 1: the scale 1/√1 is exactly 1 and would change no component.
            return self;
        }
        // `l2 > 1e-12 && l2.is_finite()` as one unsigned range test on the bits (negative
        // values and NaN fall outside, as the float tests say).
        const LO: u32 = 1.0e-12f32.to_bits() + 1;
        if l2.to_bits().wrapping_sub(LO) < f32::INFINITY.to_bits() - LO {
            let inv = 1.0 / scalar::sqrt(l2);
            Quat::from_xyzw(self.x * inv, self.y * inv, self.z * inv, self.w * inv)
        } else {
            Quat::IDENTITY
        }
    }

    /// The component bits `[x, y, z, w]` (exact identity test, e.g. for caches keyed by an
    /// orientation: `-0.0` and `0.0` differ, a NaN equals itself).
    #[inline]
    pub fn to_bits(self) -> [u32; 4] {
        [
            self.x.to_bits(),
            self.y.to_bits(),
            self.z.to_bits(),
            self.w.to_bits(),
        ]
    }

    /// True if the components of `self` and `o` have the same bits (see [`Quat::to_bits`]);
    /// branch-free integer work.
    #[inline]
    pub(crate) fn bits_eq(self, o: Quat) -> bool {
        let (a, b) = (self.to_bits(), o.to_bits());
        ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3])) == 0
    }

    /// `self * (v.x, v.y, v.z, 1)`: the Hamilton product with a quaternion whose scalar part is
    /// exactly 1 (the small-angle rotation `(ω·dt/2, 1)`). The same bits as the full product for
    /// finite input (`a·1 = a` exactly), four multiplications fewer.
    #[inline]
    pub(crate) fn mul_xyz1(self, v: Vec3) -> Quat {
        let a = self;
        Quat::from_xyzw(
            a.w * v.x + a.x + a.y * v.z - a.z * v.y,
            a.w * v.y - a.x * v.z + a.y + a.z * v.x,
            a.w * v.z + a.x * v.y - a.y * v.x + a.z,
            a.w - a.x * v.x - a.y * v.y - a.z * v.z,
        )
    }

    /// Inverse of a unit quaternion.
    #[inline]
    pub fn conjugate(self) -> Quat {
        Quat::from_xyzw(-self.x, -self.y, -self.z, self.w)
    }

    /// True if all components are finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        // In this target's cheaper exact form (`math::bits::all_finite!`).
        super::bits::all_finite!(self.x, self.y, self.z, self.w)
    }

    /// Rotate a vector.
    #[inline]
    pub fn rotate(self, v: Vec3) -> Vec3 {
        // v' = v + 2w(q×v) + 2 q×(q×v)
        let q = Vec3::new(self.x, self.y, self.z);
        let t = q.cross(v) * 2.0;
        v + t * self.w + q.cross(t)
    }

    /// Angle of this rotation in radians, in `[0, π]`.
    pub fn angle(self) -> f32 {
        2.0 * scalar::acos(self.w.abs())
    }

    /// Angle in radians between two orientations, in `[0, π]`.
    pub fn angle_between(self, o: Quat) -> f32 {
        2.0 * scalar::acos(self.dot(o).abs())
    }

    /// Spherical interpolation along the shortest arc, `t` in `[0, 1]`.
    pub fn slerp(self, o: Quat, t: f32) -> Quat {
        let mut d = self.dot(o);
        let mut o = o;
        if d < 0.0 {
            d = -d;
            o = Quat::from_xyzw(-o.x, -o.y, -o.z, -o.w);
        }
        if d > 0.9995 {
            // Nearly parallel: normalised lerp is exact enough and avoids dividing by sin ≈ 0.
            return Quat::from_xyzw(
                self.x + (o.x - self.x) * t,
                self.y + (o.y - self.y) * t,
                self.z + (o.z - self.z) * t,
                self.w + (o.w - self.w) * t,
            )
            .normalize();
        }
        let theta = scalar::acos(d);
        let s = scalar::sin(theta);
        let a = scalar::sin((1.0 - t) * theta) / s;
        let b = scalar::sin(t * theta) / s;
        Quat::from_xyzw(
            self.x * a + o.x * b,
            self.y * a + o.y * b,
            self.z * a + o.z * b,
            self.w * a + o.w * b,
        )
        .normalize()
    }

    /// Rotate from `self` towards `to` by at most `max_angle` radians (Unity's `RotateTowards`).
    /// A negative or NaN `max_angle` leaves `self` unchanged; reaching the target returns it exactly.
    pub fn rotate_towards(self, to: Quat, max_angle: f32) -> Quat {
        if max_angle.is_nan() || max_angle <= 0.0 {
            return self;
        }
        let angle = self.angle_between(to);
        if angle <= max_angle || angle == 0.0 {
            return to;
        }
        self.slerp(to, max_angle / angle)
    }
}

impl Mul for Quat {
    type Output = Quat;
    /// Hamilton product: `(a * b).rotate(v) == a.rotate(b.rotate(v))`.
    #[inline]
    fn mul(self, b: Quat) -> Quat {
        let a = self;
        Quat::from_xyzw(
            a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        )
    }
}

impl Mul<Vec3> for Quat {
    type Output = Vec3;
    #[inline]
    fn mul(self, v: Vec3) -> Vec3 {
        self.rotate(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::scalar;

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5 + 4.0 * scalar::TRIG_ABS_ERROR
    }

    #[test]
    fn rotation_arc_maps_from_to() {
        let a = Vec3::Y;
        let b = Vec3::new(1.0, 1.0, 0.0).normalize_or_zero();
        assert!(close(Quat::from_rotation_arc(a, b).rotate(a), b));
        // Opposite vectors.
        let q = Quat::from_rotation_arc(Vec3::Y, -Vec3::Y);
        assert!(close(q.rotate(Vec3::Y), -Vec3::Y));
        assert_eq!(Quat::from_rotation_arc(Vec3::ZERO, Vec3::Y), Quat::IDENTITY);
    }

    #[test]
    fn yaw_turns_left() {
        let q = Quat::from_yaw(core::f32::consts::FRAC_PI_2);
        assert!(close(q.rotate(Vec3::FORWARD), Vec3::new(-1.0, 0.0, 0.0)));
    }

    #[test]
    fn rotate_towards_limits_angle() {
        let to = Quat::from_axis_angle(Vec3::X, 1.0);
        let r = Quat::IDENTITY.rotate_towards(to, 0.25);
        assert!((r.angle() - 0.25).abs() < 1e-4 + 8.0 * scalar::TRIG_ABS_ERROR);
        assert_eq!(Quat::IDENTITY.rotate_towards(to, 2.0), to);
        assert_eq!(Quat::IDENTITY.rotate_towards(to, f32::NAN), Quat::IDENTITY);
    }

    #[test]
    fn from_yaw_is_the_axis_angle_rotation_bit_for_bit() {
        for i in -700..700 {
            let yaw = i as f32 * 0.013;
            assert_eq!(
                Quat::from_yaw(yaw).to_bits(),
                Quat::from_axis_angle(Vec3::Y, yaw).to_bits(),
                "{yaw}"
            );
        }
        for yaw in [0.0, -0.0, f32::NAN, f32::INFINITY, 1.0e30, -1.0e-40] {
            assert_eq!(
                Quat::from_yaw(yaw).to_bits(),
                Quat::from_axis_angle(Vec3::Y, yaw).to_bits()
            );
        }
    }

    #[test]
    fn rotation_arc_shortcuts_match_the_general_formula() {
        let general = |from: Vec3, to: Vec3| {
            let (Some(a), Some(b)) = (from.try_normalize(), to.try_normalize()) else {
                return Quat::IDENTITY;
            };
            let d = a.dot(b);
            if d < -0.999_999 {
                let axis = a.any_orthonormal();
                return Quat::from_xyzw(axis.x, axis.y, axis.z, 0.0);
            }
            let c = a.cross(b);
            Quat::from_xyzw(c.x, c.y, c.z, 1.0 + d).normalize()
        };
        let vs = [
            Vec3::UP,
            Vec3::new(-0.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, -0.0),
            Vec3::new(0.6, 0.8, 0.0),
            Vec3::new(0.0, 0.8, -0.6),
            Vec3::new(0.3, 2.0, 0.1),
            -Vec3::UP,
            Vec3::ZERO,
            Vec3::X,
        ];
        for &a in &vs {
            for &b in &vs {
                assert_eq!(
                    Quat::from_rotation_arc(a, b).to_bits(),
                    general(a, b).to_bits(),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn normalize_range_test_is_the_float_test() {
        let mut bits = 0u32;
        loop {
            let l2 = f32::from_bits(bits);
            const LO: u32 = 1.0e-12f32.to_bits() + 1;
            let fast = bits.wrapping_sub(LO) < f32::INFINITY.to_bits() - LO;
            assert_eq!(fast, l2 > 1.0e-12 && l2.is_finite(), "{bits:#x}");
            match bits.checked_add(7_919) {
                Some(n) => bits = n,
                None => break,
            }
        }
        assert_eq!(
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0).normalize(),
            Quat::IDENTITY
        );
        let big = Quat::from_xyzw(3.0e38, 3.0e38, 0.0, 0.0).normalize();
        assert_eq!(big, Quat::IDENTITY);
    }

    #[test]
    fn normalize_keeps_unit_input() {
        let q = Quat::from_xyzw(0.0, 0.6, 0.0, 0.8);
        assert_eq!(q.dot(q), 1.0);
        assert_eq!(q.normalize().to_bits(), q.to_bits());
    }

    #[test]
    fn mul_xyz1_matches_the_full_product() {
        let a = Quat::from_axis_angle(Vec3::new(0.3, -1.0, 0.2), 0.9);
        for v in [
            Vec3::new(0.01, -0.02, 0.003),
            Vec3::ZERO,
            Vec3::new(-0.0, 0.0, -0.0),
            Vec3::new(1.0e-3, 5.0, -7.0),
        ] {
            let full = a * Quat::from_xyzw(v.x, v.y, v.z, 1.0);
            assert_eq!(a.mul_xyz1(v).to_bits(), full.to_bits());
        }
    }

    #[test]
    fn product_composes() {
        let a = Quat::from_axis_angle(Vec3::X, 0.3);
        let b = Quat::from_axis_angle(Vec3::Y, 0.7);
        let v = Vec3::new(0.2, -0.5, 0.9);
        assert!(close((a * b).rotate(v), a.rotate(b.rotate(v))));
    }
}
