//! [`Plane`]: a unit normal and a distance, the face of a brush (and the surface a trace hits).

use crate::math::{finite_or, Vec3};

/// A plane `normal · p = dist`; the solid side is `normal · p < dist` (the normal points out of
/// the solid, as in Quake's brush sides).
///
/// Planes made by [`Plane::new`] have a unit normal and a finite distance; [`Plane::NONE`] (zero
/// normal) is the "no surface" answer of a trace that hit nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Plane {
    /// Unit normal, pointing out of the solid (dimensionless). Zero only in [`Plane::NONE`].
    pub normal: Vec3,
    /// Signed distance of the plane from the origin along `normal`, world units.
    pub dist: f32,
}

impl Plane {
    /// No plane: zero normal, distance 0 (what a trace reports when it hit nothing).
    pub const NONE: Plane = Plane {
        normal: Vec3::ZERO,
        dist: 0.0,
    };

    /// The plane `normal · p = dist`, with `normal` normalised (and `dist` divided by its length).
    /// `None` when the normal is zero, tiny (length < 1e-6), NaN or infinite, or when `dist` (after
    /// the scaling) is not finite or beyond ±2·[`MAX_COORD`](super::MAX_COORD).
    pub fn new(normal: Vec3, dist: f32) -> Option<Plane> {
        let len = normal.length();
        let unit = normal.try_normalize()?;
        // `len` ≥ 1e-6 here (try_normalize succeeded), so the divide is guarded.
        let d = finite_or(dist / len, f32::INFINITY);
        if d.abs() > 2.0 * super::MAX_COORD {
            return None;
        }
        Some(Plane {
            normal: unit,
            dist: d,
        })
    }

    /// The plane through `point` with normal `normal` (normalised as in [`Plane::new`]).
    pub fn through(normal: Vec3, point: Vec3) -> Option<Plane> {
        let unit = normal.try_normalize()?;
        Plane::new(unit, unit.dot(point))
    }

    /// Signed distance of `p` from the plane: positive on the open side, negative inside.
    #[inline]
    pub fn distance(&self, p: Vec3) -> f32 {
        self.normal.dot(p) - self.dist
    }

    /// True when the normal is exactly a signed coordinate axis (two components zero).
    #[inline]
    pub fn is_axial(&self) -> bool {
        let n = self.normal;
        let zeros = (n.x == 0.0) as u8 + (n.y == 0.0) as u8 + (n.z == 0.0) as u8;
        zeros >= 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_normalises_and_rejects_degenerate() {
        let p = Plane::new(Vec3::new(0.0, 2.0, 0.0), 4.0).unwrap();
        assert_eq!(p.normal, Vec3::Y);
        assert_eq!(p.dist, 2.0);
        assert!(p.is_axial());
        assert_eq!(p.distance(Vec3::new(5.0, 3.0, 1.0)), 1.0);
        assert!(Plane::new(Vec3::ZERO, 1.0).is_none());
        assert!(Plane::new(Vec3::new(f32::NAN, 1.0, 0.0), 1.0).is_none());
        assert!(Plane::new(Vec3::Y, f32::INFINITY).is_none());
        assert!(Plane::new(Vec3::Y, 1.0e30).is_none());
        assert!(Plane::new(Vec3::new(1e-7, 0.0, 0.0), 1.0).is_none());
        let s = Plane::through(Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, 0.0, 0.0)).unwrap();
        assert!(!s.is_axial());
        assert!((s.dist - core::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6);
    }
}
