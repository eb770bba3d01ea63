//! The ground the mechanics probe: none, a flat plane, a tilted plane, the demo level, or a C
//! callback over your own level (optionally a world of solids, through a trace callback). C view
//! of `hopkit::ground`.

use crate::ptr;
use crate::status::{HkStatus, HK_ERR_INVALID_ARG};
use crate::types::HkVec3;
use crate::world::HkTrace;
use core::ffi::c_void;
use hopkit::collide::TraceResult;
use hopkit::ground::{FlatGround, GroundHit, GroundProbe, NoGround, PlaneGround, SurfaceMotion};
use hopkit::math::Vec3;
use hopkit_demo::level::DemoGround;

/// What a probe finds below a point.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkGroundHit {
    /// World height (Y) of the surface below the query point.
    pub height: f32,
    /// Unit surface normal (pointing up-ish).
    pub normal: HkVec3,
}

/// A ground probe implemented in C: write the surface directly below `point` to `*out_hit` and
/// return 1, or return 0 if there is no ground there. Must be pure (same point → same answer) for
/// determinism. A hit with a non-finite height or a zero/non-finite normal counts as no ground;
/// the normal is normalised. Must not unwind
/// (C++ exceptions, longjmp) through hopkit.
pub type HkGroundProbeFn = Option<
    unsafe extern "C" fn(user: *mut c_void, point: HkVec3, out_hit: *mut HkGroundHit) -> i32,
>;

/// Water reported by a C callback (optional, `HkGround::water`): write the height (world Y) of
/// the water surface in the column of `feet` to `*out_height` and return 1, or return 0 if there
/// is no water there. Must be pure. A non-finite height counts as no water. Must not unwind.
pub type HkGroundWaterFn =
    Option<unsafe extern "C" fn(user: *mut c_void, feet: HkVec3, out_height: *mut f32) -> i32>;

/// How the surface under a point moves (a moving platform): C view of
/// `hopkit::ground::SurfaceMotion`. The surface's velocity at `p` is
/// `velocity + yaw_rate·(r.z, 0, −r.x)` with `r = p − pivot`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkSurfaceMotion {
    /// Linear velocity of the surface, units/s.
    pub velocity: HkVec3,
    /// Turning rate about the vertical axis through `pivot`, rad/s, positive turning left.
    pub yaw_rate: f32,
    /// A point on the turning axis (only `x`, `z` matter).
    pub pivot: HkVec3,
}

/// Surface motion reported by a C callback (optional, `HkGround::surface_motion`): write how the
/// surface under `feet` moves to `*out_motion` and return 1, or return 0 for a still surface.
/// Asked only for a grounded character. Must be pure; must not unwind. Non-finite values are
/// handled by the core as for any probe (`movement::platform`: such a motion carries nothing).
pub type HkGroundMotionFn = Option<
    unsafe extern "C" fn(user: *mut c_void, feet: HkVec3, out_motion: *mut HkSurfaceMotion) -> i32,
>;

/// Overhead clearance reported by a C callback (optional, `HkGround::clearance`): write the free
/// height above `feet` (up to the ceiling), units, to `*out_height` and return 1, or return 0 if
/// nothing is overhead. A crouched character stands up only where this is at least its standing
/// height (`movement::crouch`). Must be pure; must not unwind. NaN counts as nothing overhead (as
/// the core's `GroundProbe::clearance`); zero or less as no room.
pub type HkGroundClearanceFn =
    Option<unsafe extern "C" fn(user: *mut c_void, feet: HkVec3, out_height: *mut f32) -> i32>;

/// A ladder reported by a C callback (optional, `HkGround::ladder`): if the character at `feet`
/// touches a climbable surface, write its normal (from the ladder towards the character; only
/// the horizontal part is used) to `*out_normal` and return 1, else return 0
/// (`movement::ladder`). Must be pure; must not unwind. A non-finite or vertical normal is no
/// ladder.
pub type HkGroundLadderFn =
    Option<unsafe extern "C" fn(user: *mut c_void, feet: HkVec3, out_normal: *mut HkVec3) -> i32>;

/// A box trace reported by a C callback (optional, `HkGround::trace`): the game's own physics as
/// a world of solids. Sweep the box `mins..maxs` (relative to the feet, Y up: a standing body is
/// `(−r, 0, −r)..(r, h, r)`) from `start` to `end`; write where it stopped and what it hit to
/// `*out_trace` and return 1, or return 0 when nothing is in the way (the move completes;
/// `*out_trace` is not read). `*out_trace` holds the answer "nothing hit" when the callback is
/// called. A zero-length move (`start == end`) asks whether the box at `start` overlaps a solid
/// (`start_solid`). Must be pure; must not unwind.
///
/// With it, `hk_mover_step` collides and slides the body through your solids (walls, corners,
/// stairs, ceilings, surf ramps: the core's `movement::slide`), finds the ground with a trace
/// down and stands a crouched body up only where the standing box fits; `probe` is then asked
/// only by a crouch-jump in the air and the water jump, and `clearance` not at all.
///
/// The answer is made to keep the core's trace contract (never an error, never a bad number):
/// `all_solid` ≠ 0 means `start_solid`, `fraction` 0 and `end` = `start`; a NaN `fraction` is 0,
/// others are clamped into [0, 1]; a non-finite `end` is replaced by
/// `start + fraction·(end − start)`; a plane normal of length 1 (within 1e-4) is used as given,
/// another finite non-zero one is normalised, and a zero or non-finite normal or a non-finite
/// `dist` is "no plane" (a hit with no plane stops the move); `start_solid`/`all_solid` read any
/// non-zero value as 1; a `solid` outside 0 ..= 65,535 (e.g. `HK_SOLID_NONE`) is none; `flags`
/// pass through.
pub type HkGroundTraceFn = Option<
    unsafe extern "C" fn(
        user: *mut c_void,
        start: HkVec3,
        end: HkVec3,
        mins: HkVec3,
        maxs: HkVec3,
        out_trace: *mut HkTrace,
    ) -> i32,
>;

/// [`HkGround::kind`]: no ground anywhere (free fall).
pub const HK_GROUND_NONE: u32 = 0;
/// [`HkGround::kind`]: horizontal plane at `height`.
pub const HK_GROUND_FLAT: u32 = 1;
/// [`HkGround::kind`]: plane through `origin` with `normal` (normal.y must be > 0.01).
pub const HK_GROUND_PLANE: u32 = 2;
/// [`HkGround::kind`]: the demo level (arena floor at 0 with two ramps).
pub const HK_GROUND_DEMO: u32 = 3;
/// [`HkGround::kind`]: call `probe(user, point, &hit)`.
pub const HK_GROUND_CALLBACK: u32 = 4;

/// Which ground to probe. Only the fields of the chosen `kind` are read.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct HkGround {
    /// One of `HK_GROUND_*`.
    pub kind: u32,
    /// `HK_GROUND_FLAT`: plane height (world Y), finite.
    pub height: f32,
    /// `HK_GROUND_PLANE`: a point on the plane, finite.
    pub origin: HkVec3,
    /// `HK_GROUND_PLANE`: plane normal (normalised by hopkit), finite, `y > 0.01`.
    pub normal: HkVec3,
    /// `HK_GROUND_CALLBACK`: the probe, not NULL.
    pub probe: HkGroundProbeFn,
    /// `HK_GROUND_CALLBACK`: passed to `probe` (and the optional callbacks below) unchanged.
    pub user: *mut c_void,
    /// `HK_GROUND_CALLBACK`: the water surface (`movement::water`), or NULL: no water.
    pub water: HkGroundWaterFn,
    /// `HK_GROUND_CALLBACK`: how the ground moves (`movement::platform`), or NULL: still.
    pub surface_motion: HkGroundMotionFn,
    /// `HK_GROUND_CALLBACK`: room overhead (`movement::crouch`), or NULL: nothing overhead.
    pub clearance: HkGroundClearanceFn,
    /// `HK_GROUND_CALLBACK`: a ladder at the feet (`movement::ladder`), or NULL: no ladders.
    pub ladder: HkGroundLadderFn,
    /// `HK_GROUND_CALLBACK`: a box trace through your solids (`HkGroundTraceFn`): `hk_mover_step`
    /// then collides and slides; or NULL: the height-probe world (walls are ground more than
    /// `step_up` above the feet). Read only by `hk_mover_step` (ABI version 4).
    pub trace: HkGroundTraceFn,
}

/// A C ground callback with its optional extras.
#[derive(Clone, Copy)]
pub(crate) struct Callbacks {
    probe: unsafe extern "C" fn(*mut c_void, HkVec3, *mut HkGroundHit) -> i32,
    user: *mut c_void,
    water: HkGroundWaterFn,
    surface_motion: HkGroundMotionFn,
    clearance: HkGroundClearanceFn,
    ladder: HkGroundLadderFn,
    trace: HkGroundTraceFn,
}

/// A validated ground, ready to probe.
#[derive(Clone, Copy)]
pub(crate) enum Ground {
    None,
    Flat(FlatGround),
    Plane(PlaneGround),
    Demo,
    Callback(Callbacks),
}

impl Ground {
    /// Validate a C ground description. NULL = no ground.
    ///
    /// # Safety
    /// `g` is NULL or points to a readable `HkGround`; a callback's `user` is valid for it.
    pub(crate) unsafe fn from_c(g: *const HkGround) -> Result<Ground, HkStatus> {
        if g.is_null() {
            return Ok(Ground::None);
        }
        let g = unsafe { ptr::read(g)? };
        match g.kind {
            HK_GROUND_NONE => Ok(Ground::None),
            HK_GROUND_FLAT => Ok(Ground::Flat(FlatGround::new(ptr::finite(g.height)?))),
            HK_GROUND_PLANE => {
                let o = g.origin.finite()?;
                let n = g.normal.finite()?;
                match n.try_normalize() {
                    Some(u) if u.y > 0.01 => Ok(Ground::Plane(PlaneGround::new(o, n))),
                    _ => Err(HK_ERR_INVALID_ARG),
                }
            }
            HK_GROUND_DEMO => Ok(Ground::Demo),
            HK_GROUND_CALLBACK => match g.probe {
                Some(probe) => Ok(Ground::Callback(Callbacks {
                    probe,
                    user: g.user,
                    water: g.water,
                    surface_motion: g.surface_motion,
                    clearance: g.clearance,
                    ladder: g.ladder,
                    trace: g.trace,
                })),
                None => Err(crate::status::HK_ERR_NULL),
            },
            _ => Err(HK_ERR_INVALID_ARG),
        }
    }
}

impl GroundProbe for Ground {
    fn probe(&self, point: Vec3) -> Option<GroundHit> {
        match *self {
            Ground::None => NoGround.probe(point),
            Ground::Flat(f) => f.probe(point),
            Ground::Plane(p) => p.probe(point),
            Ground::Demo => DemoGround.probe(point),
            Ground::Callback(c) => {
                let mut hit = HkGroundHit::default();
                // SAFETY: the caller promised `probe` is callable with `user` (HkGround docs).
                let found = unsafe { (c.probe)(c.user, point.into(), &mut hit) };
                let normal = Vec3::from(hit.normal).try_normalize();
                match normal {
                    Some(normal) if found != 0 && hit.height.is_finite() => Some(GroundHit {
                        height: hit.height,
                        normal,
                    }),
                    _ => None,
                }
            }
        }
    }

    fn water(&self, feet: Vec3) -> Option<f32> {
        let Ground::Callback(Callbacks {
            user,
            water: Some(w),
            ..
        }) = *self
        else {
            return None;
        };
        let mut height = f32::NAN;
        // SAFETY: the caller promised `w` is callable with `user` (HkGround docs).
        let found = unsafe { w(user, feet.into(), &mut height) };
        (found != 0 && height.is_finite()).then_some(height)
    }

    fn surface_motion(&self, feet: Vec3) -> SurfaceMotion {
        let Ground::Callback(Callbacks {
            user,
            surface_motion: Some(f),
            ..
        }) = *self
        else {
            return SurfaceMotion::STILL;
        };
        let mut m = HkSurfaceMotion::default();
        // SAFETY: the caller promised `f` is callable with `user` (HkGround docs).
        if unsafe { f(user, feet.into(), &mut m) } == 0 {
            return SurfaceMotion::STILL;
        }
        SurfaceMotion {
            velocity: m.velocity.into(),
            yaw_rate: m.yaw_rate,
            pivot: m.pivot.into(),
        }
    }

    fn clearance(&self, feet: Vec3) -> f32 {
        let Ground::Callback(Callbacks {
            user,
            clearance: Some(f),
            ..
        }) = *self
        else {
            return f32::INFINITY;
        };
        let mut height = f32::NAN;
        // SAFETY: the caller promised `f` is callable with `user` (HkGround docs).
        if unsafe { f(user, feet.into(), &mut height) } == 0 {
            return f32::INFINITY;
        }
        height
    }

    fn ladder(&self, feet: Vec3) -> Option<Vec3> {
        let Ground::Callback(Callbacks {
            user,
            ladder: Some(f),
            ..
        }) = *self
        else {
            return None;
        };
        let mut n = HkVec3::default();
        // SAFETY: the caller promised `f` is callable with `user` (HkGround docs).
        let found = unsafe { f(user, feet.into(), &mut n) };
        (found != 0).then(|| n.into())
    }
}

/// A callback ground with a trace callback: a world of solids ([`GroundProbe::SOLID`]), so the
/// mover collides and slides through the game's own physics. Its other answers are the callback
/// ground's. `GroundProbe::SOLID` is a constant, hence a type of its own, chosen at run time by
/// `hk_mover_step` ([`Ground::traced`]).
#[derive(Clone, Copy)]
pub(crate) struct Traced {
    ground: Ground,
    trace: unsafe extern "C" fn(*mut c_void, HkVec3, HkVec3, HkVec3, HkVec3, *mut HkTrace) -> i32,
    user: *mut c_void,
}

impl Ground {
    /// The solid world of a callback ground whose `trace` is set; `None` for every other ground.
    pub(crate) fn traced(self) -> Option<Traced> {
        match self {
            Ground::Callback(Callbacks {
                trace: Some(trace),
                user,
                ..
            }) => Some(Traced {
                ground: self,
                trace,
                user,
            }),
            _ => None,
        }
    }
}

impl GroundProbe for Traced {
    const SOLID: bool = true;

    #[inline]
    fn probe(&self, point: Vec3) -> Option<GroundHit> {
        self.ground.probe(point)
    }

    #[inline]
    fn surface_motion(&self, point: Vec3) -> SurfaceMotion {
        self.ground.surface_motion(point)
    }

    #[inline]
    fn clearance(&self, feet: Vec3) -> f32 {
        self.ground.clearance(feet)
    }

    #[inline]
    fn ladder(&self, feet: Vec3) -> Option<Vec3> {
        self.ground.ladder(feet)
    }

    #[inline]
    fn water(&self, feet: Vec3) -> Option<f32> {
        self.ground.water(feet)
    }

    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> TraceResult {
        let mut t = HkTrace::from(TraceResult::clear(end));
        // SAFETY: the caller promised `trace` is callable with `user` (HkGround docs).
        let found = unsafe {
            (self.trace)(
                self.user,
                start.into(),
                end.into(),
                mins.into(),
                maxs.into(),
                &mut t,
            )
        };
        if found == 0 {
            return TraceResult::clear(end);
        }
        t.to_core(start, end)
    }
}
