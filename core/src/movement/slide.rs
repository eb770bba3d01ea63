//! The body against solids: Quake III's collide-and-slide, for a probe that is a world of solids
//! ([`GroundProbe::SOLID`]; [`crate::collide::Solid`] makes one of a [`crate::collide::World`]).
//! The walking tick ([`super::walk`]) calls these instead of the height probe's move.
//!
//! - [`slide_move`] is `PM_SlideMove` (`bg_slidemove.c`): the body's box is swept along the
//!   velocity; at each hit the velocity is clipped against the plane ([`clip_velocity`], a little
//!   over, `OVERCLIP`) and the rest of the tick's time is moved again — at most [`MAX_BUMPS`]
//!   traces and [`MAX_CLIP_PLANES`] planes. Against two planes it slides along their crease, at
//!   three it stops; it never turns against the ground plane or its own first direction, and it
//!   stops when the velocity would turn against the original one (Quake II's rule: no corner
//!   oscillation).
//! - [`step_slide_move`] is `PM_StepSlideMove`: when the slide hit something, the same move is
//!   tried again from `step_up` higher and pushed back down; the stepped result is kept when it
//!   went further and came down on walkable ground (QuakeWorld's test), so stairs are climbed at
//!   any speed and tick rate, and never while still moving up without ground below.
//! - [`ground_trace`] is `PM_GroundTrace` with Source's `StayOnGround`: a trace down by
//!   `ground_snap` (by `step_down` for a character that was grounded and did not jump, so it
//!   follows stairs and slopes down); walkable ground grounds the body (its feet moved onto the
//!   trace's end, a skin above the surface), steeper ground does not — the body slides on it in
//!   the air, where air-strafing gains speed: **surf** (`MoveParams::surf` off makes such ramps
//!   walls). A body stuck in a solid is nudged out as `PM_CorrectAllSolid` does (farther than
//!   Quake's one unit, up to a body's width), or left where it is.
//!
//! Differences from Quake III, all documented in docs/movement-features.md ("Collision"): Y is up
//! and positions are the feet; gravity is applied half before and half after the move (hopkit's
//! rule everywhere) instead of `PM_SlideMove`'s averaged end velocity; on the ground the velocity
//! is moved along the ground plane keeping its planar part (hopkit keeps planar speed on ramps)
//! and the vertical part is dropped again after the move, so walking over the top of a ramp does
//! not launch; the stepped move is kept only when it helps (QuakeWorld); the ground trace snaps.
//! Speed thresholds scale with `max_speed` (Quake's 0.1 u/s at 320).

use super::params::MoveParams;
use super::state::MoverState;
use crate::collide::TraceResult;
use crate::ground::GroundProbe;
use crate::math::{finite_or, scalar, Vec3};

/// Planes one slide move remembers (Quake III `MAX_CLIP_PLANES`).
pub(crate) const MAX_CLIP_PLANES: usize = 5;
/// Traces one slide move makes at most (Quake III's `numbumps`).
pub(crate) const MAX_BUMPS: usize = 4;
/// Quake III `OVERCLIP`: a clipped velocity leaves the plane a little (0.1 %), so the next trace
/// does not hit the same plane again.
pub(crate) const OVERCLIP: f32 = 1.001;

/// The probe's trace ([`GroundProbe::trace`]), its answer made safe to use whatever the probe
/// (a game's own physics) returned: a fraction that is NaN or out of `[0, 1]` is clamped (NaN: 0),
/// an end that is not finite is the start (no move), a normal that is not finite is no plane.
/// For the built-in world, which keeps the contract, nothing changes. One home for this guard:
/// every trace of the slide code goes through it.
#[inline]
pub(crate) fn trace<P: GroundProbe>(
    probe: &P,
    start: Vec3,
    end: Vec3,
    mins: Vec3,
    maxs: Vec3,
) -> TraceResult {
    let mut t = probe.trace(start, end, mins, maxs);
    if !P::TRACE_GUARD.is_on() {
        return t;
    }
    if !(t.fraction >= 0.0) {
        t.fraction = 0.0;
    } else if t.fraction > 1.0 {
        t.fraction = 1.0;
    }
    if !t.end.is_finite() {
        t.end = start;
    }
    if !t.plane.normal.is_finite() {
        t.plane.normal = Vec3::ZERO;
    }
    t
}

/// What a slide or step move hit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlideHits {
    /// Something was hit (the move was clipped).
    pub hit: bool,
    /// A plane too steep to stand on was hit: a wall, a ceiling, a surf ramp.
    pub wall: bool,
    /// The body is stuck inside a solid for the whole move (it did not move).
    pub stuck: bool,
}

/// The body's box around the feet: `(−r, 0, −r)..(r, h, r)` with `r = body_radius` and `h` the
/// standing or crouched height ([`super::crouch::height`]); negative or non-finite sizes are 0.
#[inline]
pub fn body_box(state: &MoverState, params: &MoveParams) -> (Vec3, Vec3) {
    let size = positive_or_zero;
    let r = size(params.body_radius);
    let h = size(super::crouch::height(state, params));
    (Vec3::new(-r, 0.0, -r), Vec3::new(r, h, r))
}

/// `x` when `0 < x ≤ f32::MAX`, else 0: one unsigned compare on the bits (non-negative floats
/// order like their patterns; zero, negatives, infinities and NaNs fall outside).
#[inline(always)]
fn positive_or_zero(x: f32) -> f32 {
    if crate::math::bits::in_range_to_max(x, 1) {
        x
    } else {
        0.0
    }
}

/// Quake III `PM_ClipVelocity`: `v` without its part into the plane of normal `n`, taken off a
/// little more (`overbounce`) so it leaves the plane.
#[inline]
pub(crate) fn clip_velocity(v: Vec3, n: Vec3, overbounce: f32) -> Vec3 {
    let backoff = v.dot(n);
    let backoff = if backoff < 0.0 {
        backoff * overbounce
    } else {
        backoff / overbounce
    };
    v - n * backoff
}

/// Quake's 0.1 units/s "entering a plane" threshold, scaled to the preset's speeds (0.1 at a
/// `max_speed` of 320); 0 for a bad `max_speed`.
#[inline]
fn entering_speed(params: &MoveParams) -> f32 {
    finite_or(params.max_speed * (0.1 / 320.0), 0.0)
}

/// `v` of unit length, or `None` for a (near-)zero or non-finite `v`.
#[inline]
fn unit(v: Vec3) -> Option<Vec3> {
    let l2 = v.length_squared();
    if !(l2 > 1.0e-12 && l2 <= f32::MAX) {
        return None;
    }
    Some(v * (1.0 / scalar::sqrt(l2)))
}

/// Ground steeper than walkable, facing up: a surf ramp (or, with `surf` off, a wall).
#[inline]
fn steep(params: &MoveParams, n: Vec3) -> bool {
    n.y > 0.0 && !params.is_walkable(n)
}

/// With `surf` off, a steep ramp acts as a wall: its normal laid flat (horizontal), so the body
/// keeps no speed into it and gravity does not slide it down the ramp.
#[inline]
fn effective_normal(params: &MoveParams, n: Vec3) -> Vec3 {
    if params.surf || !steep(params, n) {
        return n;
    }
    unit(Vec3::new(n.x, 0.0, n.z)).unwrap_or(n)
}

/// Quake III `PM_SlideMove` (module docs) over `dt` seconds from `*pos` with `*vel`, both updated;
/// `ground` is the normal of the ground stood on, if any (never turned against).
#[allow(clippy::too_many_arguments)]
pub fn slide_move(
    probe: &impl GroundProbe,
    params: &MoveParams,
    pos: &mut Vec3,
    vel: &mut Vec3,
    mins: Vec3,
    maxs: Vec3,
    dt: f32,
    ground: Option<Vec3>,
) -> SlideHits {
    // The first trace before anything else: most moves hit nothing (open ground) and need none
    // of the planes.
    let mut t = trace(probe, *pos, *pos + *vel * dt, mins, maxs);
    if !t.all_solid && !(t.fraction < 1.0) {
        if t.fraction > 0.0 {
            *pos = t.end;
        }
        return SlideHits::default();
    }
    let mut hits = SlideHits::default();
    let primal = *vel;
    let eps = entering_speed(params);
    let mut planes = [Vec3::ZERO; MAX_CLIP_PLANES];
    let mut n = 0;
    if let Some(g) = ground {
        planes[n] = g;
        n += 1;
    }
    // Never turn against the original velocity: its direction is the next plane, added at the
    // first hit (the planes are read only after one; a move that hits nothing needs no square
    // root).
    let mut primal_added = false;
    let mut time_left = dt;
    for bump in 0..MAX_BUMPS {
        if bump > 0 {
            t = trace(probe, *pos, *pos + *vel * time_left, mins, maxs);
        }
        if t.all_solid {
            // Trapped in a solid: no move (the ground trace nudges it out, or it stays).
            vel.y = 0.0;
            hits.hit = true;
            hits.stuck = true;
            return hits;
        }
        if t.fraction > 0.0 {
            *pos = t.end;
        }
        if !(t.fraction < 1.0) {
            break;
        }
        hits.hit = true;
        if !primal_added {
            primal_added = true;
            // `n` ≤ 1 here (the ground plane at most), so `get_mut` always finds the slot; the
            // optimiser cannot see that, and an index would keep a panic path.
            if let (Some(d), Some(slot)) = (unit(primal), planes.get_mut(n)) {
                *slot = d;
                n += 1;
            }
        }
        let raw = t.plane.normal;
        if !params.is_walkable(raw) {
            hits.wall = true;
        }
        time_left -= time_left * t.fraction;
        if ground.is_some() && params.is_walkable(raw) {
            // Walking onto other walkable ground (the foot of a ramp): follow it, the planar
            // velocity kept, as the ground itself is followed (no speed lost to the clip); it is
            // the ground plane from then on.
            if raw.dot(planes[0]) < 0.99 {
                *vel = along_ground(*vel, raw);
                planes[0] = raw;
                continue;
            }
        }
        let normal = effective_normal(params, raw);
        if n >= MAX_CLIP_PLANES {
            *vel = Vec3::ZERO;
            return hits;
        }
        // The same plane as before: nudge the velocity out along it (Quake III's fix for
        // non-axial planes whose clip does not quite leave them).
        if planes[..n].iter().any(|p| normal.dot(*p) > 0.99) {
            *vel += normal;
            continue;
        }
        planes[n] = normal;
        n += 1;
        if !clip_to_planes(vel, &planes[..n], eps) {
            *vel = Vec3::ZERO;
            return hits;
        }
        // Quake II: a velocity turned against the original direction stops (no oscillation in
        // acute corners).
        if !(vel.dot(primal) > 0.0) {
            *vel = Vec3::ZERO;
            return hits;
        }
        if !params.surf && steep(params, raw) && vel.y < 0.0 {
            vel.y = 0.0;
        }
    }
    hits
}

/// Clip `vel` against the first plane it enters, then against the others it would enter after
/// that: along the crease of two, stopped (false) by a third. Quake III's inner loops.
fn clip_to_planes(vel: &mut Vec3, planes: &[Vec3], eps: f32) -> bool {
    let n = planes.len();
    for i in 0..n {
        if vel.dot(planes[i]) >= eps {
            continue; // moving away from it
        }
        let mut clipped = clip_velocity(*vel, planes[i], OVERCLIP);
        for j in 0..n {
            if j == i || clipped.dot(planes[j]) >= eps {
                continue;
            }
            clipped = clip_velocity(clipped, planes[j], OVERCLIP);
            if clipped.dot(planes[i]) >= 0.0 {
                continue;
            }
            // Into both: slide along the crease.
            let Some(dir) = unit(planes[i].cross(planes[j])) else {
                return false;
            };
            clipped = dir * dir.dot(*vel);
            for (k, pk) in planes.iter().enumerate() {
                if k != i && k != j && clipped.dot(*pk) < eps {
                    return false; // into a third: stop dead
                }
            }
        }
        *vel = clipped;
        return true;
    }
    true
}

/// Quake III `PM_StepSlideMove` with QuakeWorld's choice (module docs) on `state`'s position and
/// velocity over `dt` seconds: `ground` as in [`slide_move`], `mins`/`maxs` the body's box.
#[inline]
pub fn step_slide_move(
    probe: &impl GroundProbe,
    params: &MoveParams,
    state: &mut MoverState,
    (mins, maxs): (Vec3, Vec3),
    dt: f32,
    ground: Option<Vec3>,
) -> SlideHits {
    let (start_o, start_v) = (state.position, state.velocity);
    let first = slide_move(
        probe,
        params,
        &mut state.position,
        &mut state.velocity,
        mins,
        maxs,
        dt,
        ground,
    );
    if !first.hit || first.stuck {
        return first; // nothing in the way (or stuck): no step to try
    }
    step_up_move(
        probe,
        params,
        state,
        (mins, maxs),
        dt,
        ground,
        (start_o, start_v),
        first,
    )
}

/// [`step_slide_move`] after its plain slide (from `start`, position and velocity, to `state`)
/// hit something: the same move from `step_up` higher, pushed back down, kept when better.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn step_up_move(
    probe: &impl GroundProbe,
    params: &MoveParams,
    state: &mut MoverState,
    (mins, maxs): (Vec3, Vec3),
    dt: f32,
    ground: Option<Vec3>,
    (start_o, start_v): (Vec3, Vec3),
    first: SlideHits,
) -> SlideHits {
    let (pos, vel) = (state.position, state.velocity);
    let step = params.step_up;
    if !(step > 0.0 && step <= f32::MAX) {
        return first;
    }
    let up = Vec3::new(0.0, step, 0.0);
    // Never step up while still moving up (after the slide) without ground below (traced only
    // then: the trace is pure).
    if vel.y > 0.0 {
        let below = trace(probe, start_o, start_o - up, mins, maxs);
        if !(below.fraction < 1.0) || !params.is_walkable(below.plane.normal) {
            return first;
        }
    }
    let lifted = trace(probe, start_o, start_o + up, mins, maxs);
    if lifted.all_solid {
        return first;
    }
    let lift = lifted.end.y - start_o.y;
    let (mut up_pos, mut up_vel) = (lifted.end, start_v);
    let second = slide_move(
        probe,
        params,
        &mut up_pos,
        &mut up_vel,
        mins,
        maxs,
        dt,
        ground,
    );
    // Push back down the height it went up.
    let down = trace(
        probe,
        up_pos,
        Vec3::new(up_pos.x, up_pos.y - lift, up_pos.z),
        mins,
        maxs,
    );
    if !down.all_solid {
        up_pos = down.end;
    }
    let landed = down.fraction < 1.0;
    if landed {
        up_vel = clip_velocity(up_vel, down.plane.normal, OVERCLIP);
    }
    let planar2 = |p: Vec3| {
        let (dx, dz) = (p.x - start_o.x, p.z - start_o.z);
        dx * dx + dz * dz
    };
    let walkable = !landed || params.is_walkable(down.plane.normal);
    if down.all_solid || !walkable || !(planar2(up_pos) > planar2(pos)) {
        return first; // the plain slide went as far: keep it
    }
    state.position = up_pos;
    // QuakeWorld copies the vertical speed of the plain slide.
    state.velocity = Vec3::new(up_vel.x, vel.y, up_vel.z);
    second
}

/// What [`ground_trace`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct GroundFound {
    /// Became grounded (was airborne).
    pub landed: bool,
    /// Stopped being grounded.
    pub left_ground: bool,
    /// On ground too steep to stand on (surfing), or stuck in a solid.
    pub sliding: bool,
    /// Downward speed at landing, units/s (finite; 0 unless `landed`).
    pub impact_speed: f32,
}

/// Quake III `PM_GroundTrace` with Source's `StayOnGround` (module docs): `stick` is whether the
/// body may be pulled down by `step_down` (it was grounded and did not jump). Sets `grounded`,
/// `ground_normal`, coyote time, and on the ground `vy = 0` with the feet on the trace's end.
#[inline]
pub(crate) fn ground_trace(
    probe: &impl GroundProbe,
    params: &MoveParams,
    state: &mut MoverState,
    body: (Vec3, Vec3),
    stick: bool,
) -> GroundFound {
    let reach = GroundReach::new(params).of(stick);
    ground_trace_down(probe, params, state, body, reach)
}

/// How far down [`ground_trace`] looks, from the parameters once a tick: `ground_snap`, or
/// `step_down` when that is farther and the body sticks (each a finite reach ≥ 0, else 0).
#[derive(Clone, Copy, Debug)]
pub(super) struct GroundReach {
    snap: f32,
    stick: f32,
}

impl GroundReach {
    #[inline]
    pub(super) fn new(params: &MoveParams) -> GroundReach {
        let snap = positive_or_zero(params.ground_snap);
        let step_down = positive_or_zero(params.step_down);
        GroundReach {
            snap,
            stick: if step_down > snap { step_down } else { snap },
        }
    }

    /// The reach for a body that sticks to the ground (`stick`) or not.
    #[inline]
    pub(super) fn of(self, stick: bool) -> f32 {
        if stick {
            self.stick
        } else {
            self.snap
        }
    }
}

/// [`ground_trace`] down by `reach` (finite, ≥ 0).
pub(super) fn ground_trace_down<P: GroundProbe>(
    probe: &P,
    params: &MoveParams,
    state: &mut MoverState,
    (mins, maxs): (Vec3, Vec3),
    reach: f32,
) -> GroundFound {
    let was = state.grounded;
    let mut found = GroundFound::default();
    let p = state.position;
    let mut t = trace(probe, p, Vec3::new(p.x, p.y - reach, p.z), mins, maxs);
    if t.all_solid {
        if !correct_all_solid(probe, params, state, mins, maxs) {
            state.grounded = false;
            state.ground_normal = Vec3::UP;
            found.left_ground = was;
            found.sliding = true;
            return found;
        }
        let p = state.position;
        t = trace(probe, p, Vec3::new(p.x, p.y - reach, p.z), mins, maxs);
    }
    let hit = t.fraction < 1.0 && !t.all_solid;
    let n = t.plane.normal;
    let rising_fast = state.velocity.y > params.max_ground_rise_speed;
    let grounded = hit && params.is_walkable(n) && !rising_fast;
    if grounded {
        state.position = t.end;
        if !was {
            found.landed = true;
            if P::SOLID {
                super::platform::land_on_solid(state, params, probe);
            }
            found.impact_speed = if state.velocity.y < 0.0 {
                finite_or(-state.velocity.y, f32::MAX)
            } else {
                0.0
            };
        }
        state.velocity.y = 0.0;
        state.ground_normal = n.flush_subnormal();
        state.coyote_timer = super::jump::timer_length_flushed(params.coyote_time);
    } else {
        state.ground_normal = Vec3::UP;
        found.left_ground = was;
        found.sliding = hit && steep(params, n);
    }
    state.grounded = grounded;
    found
}

/// Quake III `PM_CorrectAllSolid`, widened: try the 26 positions around the feet at a distance `d`
/// (X, then Y, then Z, each from −d to +d), for `d` = `body_radius / 16` (one Quake unit for a
/// Quake body, Quake's only try) and then twice, four, eight and sixteen times that, and move to
/// the first where the box is free. False (the body stays where it is) if none is: at most
/// `5 · 26` position tests, only for a body that is stuck.
fn correct_all_solid(
    probe: &impl GroundProbe,
    params: &MoveParams,
    state: &mut MoverState,
    mins: Vec3,
    maxs: Vec3,
) -> bool {
    let unit = finite_or(params.body_radius * (1.0 / 16.0), 0.0);
    if !(unit > 0.0) {
        return false;
    }
    for scale in [1.0, 2.0, 4.0, 8.0, 16.0] {
        let d = unit * scale;
        let offsets = [-d, 0.0, d];
        for ox in offsets {
            for oy in offsets {
                for oz in offsets {
                    let at = state.position + Vec3::new(ox, oy, oz);
                    if (ox, oy, oz) == (0.0, 0.0, 0.0) || !at.is_finite() {
                        continue;
                    }
                    if !trace(probe, at, at, mins, maxs).start_solid {
                        state.position = at;
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// The velocity a grounded body moves with: its planar velocity along the ground plane `n`
/// (walkable, so `n.y > 0`), the planar part kept (hopkit keeps planar speed on ramps).
#[inline]
pub(crate) fn along_ground(v: Vec3, n: Vec3) -> Vec3 {
    let vy = if n.y > 0.0 {
        finite_or(-(n.x * v.x + n.z * v.z) / n.y, 0.0)
    } else {
        0.0
    };
    Vec3::new(v.x, vy, v.z)
}
