//! [`Solid`]: a [`Tracer`] as the movement's ground probe, so a character collides with it.

use super::flags::SolidFlags;
use super::trace::{TraceGuard, TraceResult, Tracer};
use crate::ground::{GroundHit, GroundProbe};
use crate::math::Vec3;

/// How far below a point [`Solid`]'s [`GroundProbe::probe`] looks for ground, and above it its
/// [`GroundProbe::clearance`] looks for a ceiling, world units (a point trace: one grid column).
pub const PROBE_REACH: f32 = 65_536.0;

/// A [`Tracer`] as a [`GroundProbe`] with [`GroundProbe::SOLID`] set: `movement::step` on it
/// sweeps the character's box through the solids and slides along them (`movement::slide`).
///
/// ```
/// use hopkit::collide::{Brush, Solid, World};
/// use hopkit::ground::GroundProbe;
/// use hopkit::math::Vec3;
/// use hopkit::movement::{self, MoveInput, MoveParams, MoverState};
///
/// let mut level = World::<8>::new();
/// level.push(Brush::aabb(Vec3::new(-512.0, -16.0, -512.0), Vec3::new(512.0, 0.0, 512.0)).unwrap()).unwrap();
/// level.push(Brush::aabb(Vec3::new(-512.0, 0.0, -96.0), Vec3::new(512.0, 128.0, -80.0)).unwrap()).unwrap();
/// let solid = Solid(&level);
/// assert_eq!(solid.height(Vec3::new(0.0, 50.0, 0.0)), Some(0.0));
///
/// // Run at the wall (forward is −Z) for two seconds: stopped 1/8 unit in front of it.
/// let params = MoveParams::quake3();
/// let mut s = MoverState::new(Vec3::new(0.0, 0.125, 0.0));
/// let run = MoveInput::with_yaw(hopkit::math::Vec2::new(1.0, 0.0), false, 0.0);
/// for _ in 0..120 {
///     movement::step(&mut s, &params, &run, &solid, 1.0 / 60.0);
/// }
/// assert!(s.grounded && (s.position.z - (-80.0 + 15.0 + 0.125)).abs() < 1e-3);
/// ```
///
/// Its other answers come from point traces ([`PROBE_REACH`] long): `probe` is the first surface
/// below the point, `clearance` the free height above it. Ladders are the solids with
/// [`SolidFlags::LADDER`] (the movement finds them with a trace). Moving solids
/// ([`World::move_solid`](super::World::move_solid)) carry and push bodies through
/// [`GroundProbe::carrier`]. Water is the tracer's ([`Tracer::water`]): a
/// [`World`](super::World)'s water volumes ([`World::add_water`](super::World::add_water)).
/// Other moving surfaces (conveyors, turntables) are not solids: it reports none (wrap the world
/// in a probe of your own that adds them, with `SOLID` set and `trace` and `solid_flags` passed
/// on).
#[derive(Clone, Copy, Debug)]
pub struct Solid<T>(pub T);

impl<T: Tracer> GroundProbe for Solid<T> {
    const SOLID: bool = true;
    const TRACE_GUARD: TraceGuard = T::GUARD;

    #[inline]
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> TraceResult {
        self.0.trace(start, end, mins, maxs)
    }

    #[inline]
    fn solid_flags(&self) -> SolidFlags {
        self.0.flags_present()
    }

    #[inline]
    fn could_report(
        &self,
        flags: SolidFlags,
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
    ) -> bool {
        self.0.could_report(flags, start, end, mins, maxs)
    }

    #[inline]
    fn carrier(&self, feet: Vec3, mins: Vec3, maxs: Vec3) -> Option<super::trace::Carrier> {
        self.0.carrier(feet, mins, maxs)
    }

    /// The tracer's water ([`Tracer::water`]): for a [`World`](super::World), the surface of its
    /// highest water volume that contains `feet`.
    #[inline]
    fn water(&self, feet: Vec3) -> Option<f32> {
        self.0.water(feet)
    }

    fn probe(&self, point: Vec3) -> Option<GroundHit> {
        let below = Vec3::new(point.x, point.y - PROBE_REACH, point.z);
        let t = self.0.trace(point, below, Vec3::ZERO, Vec3::ZERO);
        if t.fraction >= 1.0 || t.start_solid {
            return None;
        }
        // The surface itself, not the trace's end (a skin above it): the plane's height in the
        // point's column.
        let n = t.plane.normal;
        let on_plane = (t.plane.dist - n.x * point.x - n.z * point.z) / n.y;
        let height = if n.y > 0.0 && on_plane.is_finite() {
            on_plane
        } else {
            t.end.y
        };
        Some(GroundHit { height, normal: n })
    }

    fn clearance(&self, feet: Vec3) -> f32 {
        let above = Vec3::new(feet.x, feet.y + PROBE_REACH, feet.z);
        let t = self.0.trace(feet, above, Vec3::ZERO, Vec3::ZERO);
        if t.start_solid {
            0.0
        } else if t.fraction < 1.0 {
            t.end.y - feet.y
        } else {
            f32::INFINITY
        }
    }
}

impl<T: Tracer + ?Sized> Tracer for &T {
    const GUARD: TraceGuard = T::GUARD;

    #[inline]
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> TraceResult {
        (**self).trace(start, end, mins, maxs)
    }

    #[inline]
    fn contents(&self, position: Vec3, mins: Vec3, maxs: Vec3) -> super::trace::Contents {
        (**self).contents(position, mins, maxs)
    }

    #[inline]
    fn flags_present(&self) -> SolidFlags {
        (**self).flags_present()
    }

    #[inline]
    fn could_report(
        &self,
        flags: SolidFlags,
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
    ) -> bool {
        (**self).could_report(flags, start, end, mins, maxs)
    }

    #[inline]
    fn carrier(&self, feet: Vec3, mins: Vec3, maxs: Vec3) -> Option<super::trace::Carrier> {
        (**self).carrier(feet, mins, maxs)
    }

    #[inline]
    fn water(&self, point: Vec3) -> Option<f32> {
        (**self).water(point)
    }
}
