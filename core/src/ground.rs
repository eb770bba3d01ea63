//! The ground-probe interface the host implements, and ready-made grounds.
//!
//! # Example
//!
//! A host implements [`GroundProbe`] over its own level; here a terrace at height 2 for `x > 0`:
//!
//! ```
//! use hopkit::ground::{GroundHit, GroundProbe};
//! use hopkit::math::Vec3;
//!
//! struct Terrace;
//! impl GroundProbe for Terrace {
//!     fn probe(&self, p: Vec3) -> Option<GroundHit> {
//!         let height = if p.x > 0.0 { 2.0 } else { 0.0 };
//!         Some(GroundHit { height, normal: Vec3::UP })
//!     }
//! }
//! assert_eq!(Terrace.probe(Vec3::new(1.0, 5.0, 0.0)).unwrap().height, 2.0);
//! ```
//!
//! A probe answers "what is the ground directly below this point": its height and surface normal.
//! Mechanics that need the ground (movement's grounded test, ghost terrain avoidance, follower falling,
//! slope alignment) take `&impl GroundProbe`. Implementations must be pure (same query → same answer)
//! for determinism.

use crate::collide::{SolidFlags, TraceGuard, TraceResult};
use crate::math::{Vec2, Vec3};

/// What a probe finds below a point.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct GroundHit {
    /// World height (Y) of the ground surface below the query point.
    pub height: f32,
    /// Unit surface normal at that point (pointing away from the solid, usually up-ish).
    pub normal: Vec3,
}

/// The host's view of the ground. Implement it over your level, heightfield or collision world.
pub trait GroundProbe {
    /// The ground directly below (or at) `point`, or `None` if there is none (a pit, off the map).
    ///
    /// Only `point.x`/`point.z` select the column; `point.y` lets multi-level worlds choose the
    /// surface *below* the point. Must not return NaN; hopkit treats a non-finite hit as "no ground".
    fn probe(&self, point: Vec3) -> Option<GroundHit>;

    /// The height of [`GroundProbe::probe`]'s hit at `point`, if any: what the mechanics that
    /// need no normal ask (ghost terrain avoidance, the follower's body). The default is exactly
    /// `self.probe(point).map(|hit| hit.height)`; override it only with a cheaper way to the same
    /// value.
    #[inline]
    fn height(&self, point: Vec3) -> Option<f32> {
        self.probe(point).map(|hit| hit.height)
    }

    /// How the surface found by [`GroundProbe::probe`] at `point` moves: a moving platform's
    /// velocity and yaw rate ([`SurfaceMotion`]). A character standing on it is carried with it
    /// and keeps its velocity when it leaves (`movement::platform`). The default is
    /// [`SurfaceMotion::STILL`]: a probe that does not override it costs nothing (the mover's
    /// platform code folds away). Asked only for a grounded character, at its feet.
    #[inline]
    fn surface_motion(&self, point: Vec3) -> SurfaceMotion {
        let _ = point;
        SurfaceMotion::STILL
    }

    /// Free height above `feet` (up to the ceiling), units: a crouched character stands up only
    /// where this is at least its standing height (`movement::crouch`). The default is
    /// `f32::INFINITY`, nothing overhead. NaN also means nothing overhead; ≤ 0 means no room.
    /// Asked only when a crouched character wants to stand.
    #[inline]
    fn clearance(&self, feet: Vec3) -> f32 {
        let _ = feet;
        f32::INFINITY
    }

    /// A climbable surface (a ladder) the character at `feet` touches: its normal, pointing from
    /// the ladder towards the character (only the horizontal part is used), or `None`
    /// (`movement::ladder`). The default is `None`: no ladders, and nothing of the ladder code
    /// runs.
    #[inline]
    fn ladder(&self, feet: Vec3) -> Option<Vec3> {
        let _ = feet;
        None
    }

    /// True for a world of solids that the character's box collides with: walking and flying then
    /// sweep the box through [`GroundProbe::trace`] and slide along what it hits
    /// (`movement::slide`: walls, corners, ceilings, stairs, surf ramps), the ground is found by a
    /// trace down, and a crouched body stands up only where the standing box fits. The default,
    /// false, is the height-probe world (walls are ground more than `step_up` above the feet), and
    /// nothing of the slide code is compiled in. [`crate::collide::Solid`] turns a
    /// [`crate::collide::Tracer`] (the built-in [`crate::collide::World`], or a game's own
    /// physics) into such a probe.
    const SOLID: bool = false;

    /// Whether the movement checks [`GroundProbe::trace`]'s answers
    /// ([`crate::collide::TraceGuard`]): always, except for [`crate::collide::Solid`] of
    /// hopkit's own [`crate::collide::World`]. A probe that passes a [`crate::collide::Solid`]'s
    /// traces on unchanged may pass its guard on too.
    const TRACE_GUARD: TraceGuard = TraceGuard::ON;

    /// Sweep the box `mins..maxs` (relative to the feet) from `start` to `end` through the solids
    /// ([`crate::collide::Tracer::trace`]'s contract: finite values, `0 ≤ fraction ≤ 1`). Asked only
    /// when [`GroundProbe::SOLID`] is true; the default finds nothing in the way.
    #[inline]
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> TraceResult {
        let _ = (start, mins, maxs);
        TraceResult::clear(end)
    }

    /// Among solids ([`GroundProbe::SOLID`]): the moving solid that carries (the body stands on
    /// it) or pushes (it moved into the body) a body with the box `mins..maxs` at `feet`
    /// ([`crate::collide::Tracer::carrier`]); the movement moves the body with it, through a
    /// trace, and a rider keeps its velocity when it leaves it (`movement::platform`). Asked
    /// after [`GroundProbe::surface_motion`] found nothing moving, and only when
    /// [`GroundProbe::solid_flags`] has [`crate::collide::SolidFlags::MOVING`]. The default,
    /// `None`, costs nothing; [`crate::collide::Solid`] passes its tracer's answer on.
    #[inline]
    fn carrier(&self, feet: Vec3, mins: Vec3, maxs: Vec3) -> Option<crate::collide::Carrier> {
        let _ = (feet, mins, maxs);
        None
    }

    /// Among solids ([`GroundProbe::SOLID`]): the union of the flags of every solid
    /// ([`crate::collide::Tracer::flags_present`]), so the movement skips looking for what no
    /// solid is (a ladder, [`crate::collide::SolidFlags::LADDER`]: one trace a tick saved). The
    /// default, every flag, skips nothing.
    #[inline]
    fn solid_flags(&self) -> SolidFlags {
        SolidFlags(u32::MAX)
    }

    /// Among solids ([`GroundProbe::SOLID`]): false only when [`GroundProbe::trace`] of the same
    /// sweep cannot report a solid whose flags contain `flags`
    /// ([`crate::collide::Tracer::could_report`]), so the movement skips the ladder's trace away
    /// from every ladder. The default, true, skips nothing.
    #[inline]
    fn could_report(
        &self,
        flags: SolidFlags,
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
    ) -> bool {
        let _ = (flags, start, end, mins, maxs);
        true
    }

    /// The height (world Y) of the water surface in the column of `feet`, if there is water
    /// there: points of the column below it are in water (`movement::water`). The default is
    /// `None`: no water, and nothing of the water code runs. A non-finite height (NaN, ±inf)
    /// means no water. Asked at the feet (and, for a water jump, at a spot just ahead of them).
    #[inline]
    fn water(&self, feet: Vec3) -> Option<f32> {
        let _ = feet;
        None
    }
}

/// How a surface moves (a moving platform, a conveyor, a turntable): linear velocity plus a turn
/// about a vertical axis. The velocity of the surface at a point `p` is
/// `velocity + yaw_rate·(r.z, 0, −r.x)` with `r = p − pivot` ([`SurfaceMotion::point_velocity`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SurfaceMotion {
    /// Linear velocity of the surface, world units/s. Default zero.
    pub velocity: Vec3,
    /// Turning rate about the vertical axis through `pivot`, radians/s, positive turning left
    /// (the yaw convention: yaw 0 faces −Z). Default 0.
    pub yaw_rate: f32,
    /// A point on the vertical turning axis, world units (only `x`, `z` matter; ignored when
    /// `yaw_rate` is 0). Default the origin.
    pub pivot: Vec3,
}

impl Default for SurfaceMotion {
    fn default() -> Self {
        SurfaceMotion::STILL
    }
}

impl SurfaceMotion {
    /// A surface that does not move.
    pub const STILL: SurfaceMotion = SurfaceMotion {
        velocity: Vec3::ZERO,
        yaw_rate: 0.0,
        pivot: Vec3::ZERO,
    };

    /// Moving at `velocity` without turning.
    pub const fn translating(velocity: Vec3) -> SurfaceMotion {
        SurfaceMotion {
            velocity,
            yaw_rate: 0.0,
            pivot: Vec3::ZERO,
        }
    }

    /// Turning at `yaw_rate` rad/s about the vertical axis through `pivot`.
    pub const fn rotating(pivot: Vec3, yaw_rate: f32) -> SurfaceMotion {
        SurfaceMotion {
            velocity: Vec3::ZERO,
            yaw_rate,
            pivot,
        }
    }

    /// True when the surface neither moves nor turns (exactly zero velocity and yaw rate).
    #[inline]
    pub fn is_still(&self) -> bool {
        self.velocity.x == 0.0
            && self.velocity.y == 0.0
            && self.velocity.z == 0.0
            && self.yaw_rate == 0.0
    }

    /// The surface's velocity at `p`: `velocity + yaw_rate·(r.z, 0, −r.x)`, `r = p − pivot`.
    #[inline]
    pub fn point_velocity(&self, p: Vec3) -> Vec3 {
        let (rx, rz) = (p.x - self.pivot.x, p.z - self.pivot.z);
        Vec3::new(
            self.velocity.x + self.yaw_rate * rz,
            self.velocity.y,
            self.velocity.z - self.yaw_rate * rx,
        )
    }
}

/// An infinite horizontal plane at `height`, normal +Y.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FlatGround {
    /// Plane height (world Y). Default 0.
    pub height: f32,
}

impl FlatGround {
    /// A plane at `height`.
    pub const fn new(height: f32) -> Self {
        FlatGround { height }
    }
}

impl GroundProbe for FlatGround {
    fn probe(&self, point: Vec3) -> Option<GroundHit> {
        if point.y.is_nan() {
            return None;
        }
        Some(GroundHit {
            height: self.height,
            normal: Vec3::UP,
        })
    }
}

/// No ground anywhere (free fall, space scenes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct NoGround;

impl GroundProbe for NoGround {
    fn probe(&self, _point: Vec3) -> Option<GroundHit> {
        None
    }
}

/// A plane through `origin` with a tilted `normal` (a ramp that extends forever). Useful in tests.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PlaneGround {
    /// A point on the plane.
    pub origin: Vec3,
    /// Unit normal; must have a positive Y component (else the plane has no "below").
    pub normal: Vec3,
}

impl PlaneGround {
    /// A plane through `origin` with `normal` (normalised here; a normal with `y ≤ 0.01` or NaN
    /// becomes +Y so the plane stays probe-able).
    pub fn new(origin: Vec3, normal: Vec3) -> Self {
        let n = match normal.try_normalize() {
            Some(n) if n.y > 0.01 => n,
            _ => Vec3::UP,
        };
        PlaneGround { origin, normal: n }
    }
    /// A ramp rising along planar direction `uphill` at `angle` radians from horizontal.
    pub fn ramp(origin: Vec3, uphill: Vec2, angle: f32) -> Self {
        let d = uphill.normalize_or_zero();
        let (s, c) = crate::math::scalar::sin_cos(angle);
        // Normal tilts away from the uphill direction.
        PlaneGround::new(origin, Vec3::new(-d.x * s, c, -d.y * s))
    }
}

impl GroundProbe for PlaneGround {
    fn probe(&self, point: Vec3) -> Option<GroundHit> {
        if !point.is_finite() {
            return None;
        }
        let n = self.normal;
        // n·(p − o) = 0 → y = o.y − (n.x(px−ox) + n.z(pz−oz)) / n.y
        let height = self.origin.y
            - (n.x * (point.x - self.origin.x) + n.z * (point.z - self.origin.z)) / n.y;
        if height.is_finite() {
            Some(GroundHit { height, normal: n })
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramp_rises_uphill() {
        let r = PlaneGround::ramp(
            Vec3::ZERO,
            Vec2::new(1.0, 0.0),
            core::f32::consts::FRAC_PI_6,
        );
        let h = r.probe(Vec3::new(1.0, 10.0, 0.0)).unwrap();
        let tol = 1e-4 + 4.0 * crate::math::scalar::TRIG_ABS_ERROR;
        assert!((h.height - 0.577_35).abs() < tol, "{}", h.height);
        assert!((h.normal.y - 0.866_025).abs() < tol);
        assert!(r.probe(Vec3::new(f32::NAN, 0.0, 0.0)).is_none());
    }

    #[test]
    fn flat_and_none() {
        assert_eq!(FlatGround::new(2.0).probe(Vec3::ZERO).unwrap().height, 2.0);
        assert!(NoGround.probe(Vec3::ZERO).is_none());
    }
}
