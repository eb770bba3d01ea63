//! Plain-data maths types crossing the boundary (C mirrors of `hopkit::math`).
//!
//! Conventions as in the core: right-handed, Y up, ground plane X/Z, yaw 0 faces −Z and positive
//! yaw turns left. A planar `HkVec2` is `(x, z)` of the world (its `y` field holds world Z); a
//! stick `HkVec2` is `x` = right, `y` = up/forward.

use crate::ptr::finite;
use crate::status::HkStatus;
use hopkit::math::{Quat, Vec2, Vec3};

/// A 2-D vector (planar world `(x, z)`, or a stick `(right, up)`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkVec2 {
    /// X component.
    pub x: f32,
    /// Y component (world Z for planar vectors, up/forward for sticks).
    pub y: f32,
}

/// A 3-D vector, world units.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkVec3 {
    /// X component.
    pub x: f32,
    /// Y component (up).
    pub y: f32,
    /// Z component.
    pub z: f32,
}

/// A rotation quaternion `(x, y, z, w)`; identity is `(0, 0, 0, 1)`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkQuat {
    /// Vector part X.
    pub x: f32,
    /// Vector part Y.
    pub y: f32,
    /// Vector part Z.
    pub z: f32,
    /// Scalar part.
    pub w: f32,
}

impl From<Vec2> for HkVec2 {
    fn from(v: Vec2) -> Self {
        HkVec2 { x: v.x, y: v.y }
    }
}
impl From<HkVec2> for Vec2 {
    fn from(v: HkVec2) -> Self {
        Vec2::new(v.x, v.y)
    }
}
impl From<Vec3> for HkVec3 {
    fn from(v: Vec3) -> Self {
        HkVec3 {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}
impl From<HkVec3> for Vec3 {
    fn from(v: HkVec3) -> Self {
        Vec3::new(v.x, v.y, v.z)
    }
}
impl From<Quat> for HkQuat {
    fn from(q: Quat) -> Self {
        HkQuat {
            x: q.x,
            y: q.y,
            z: q.z,
            w: q.w,
        }
    }
}
impl From<HkQuat> for Quat {
    fn from(q: HkQuat) -> Self {
        Quat {
            x: q.x,
            y: q.y,
            z: q.z,
            w: q.w,
        }
    }
}

impl HkVec2 {
    /// The vector if both components are finite, else `HK_ERR_INVALID_ARG`.
    pub fn finite(self) -> Result<Vec2, HkStatus> {
        Ok(Vec2::new(finite(self.x)?, finite(self.y)?))
    }
}

impl HkVec3 {
    /// The vector if all components are finite, else `HK_ERR_INVALID_ARG`.
    pub fn finite(self) -> Result<Vec3, HkStatus> {
        Ok(Vec3::new(finite(self.x)?, finite(self.y)?, finite(self.z)?))
    }
}

impl HkQuat {
    /// The quaternion if all components are finite and it is not zero, else `HK_ERR_INVALID_ARG`.
    /// (It is renormalised by the core.)
    pub fn finite(self) -> Result<Quat, HkStatus> {
        let q = Quat {
            x: finite(self.x)?,
            y: finite(self.y)?,
            z: finite(self.z)?,
            w: finite(self.w)?,
        };
        let n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if n.is_finite() && n > 1.0e-12 {
            Ok(q)
        } else {
            Err(crate::status::HK_ERR_INVALID_ARG)
        }
    }
}
