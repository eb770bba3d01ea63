//! Moving platforms: a grounded character is carried by the surface it stands on, and keeps the
//! surface's velocity when it leaves it (Source's "base velocity").
//!
//! The probe says how the surface moves: [`GroundProbe::surface_motion`] (default
//! [`SurfaceMotion::STILL`]) gives a linear velocity and a yaw rate about a vertical axis. Every
//! tick ([`super::step`], [`super::step_wish`], [`super::tick`]):
//!
//! 1. **Carry** (before the tick, only while grounded): the surface motion at the feet is asked
//!    for; the character is moved with the surface over `dt` — turned by `yaw_rate·dt` about the
//!    pivot (exactly, one `sin_cos`), then moved by `velocity·dt` (vertical included; the tick's
//!    categorisation then snaps it to the surface) — and its planar velocity, which on a platform
//!    is relative to it, is turned by the same angle. The step reports the angle in
//!    [`StepEvents::carried_yaw`](super::StepEvents::carried_yaw): add it to the view yaw
//!    (the facing is the host's input), and the character turns with the platform.
//! 2. **Leave** (after the tick): a character that was carried and is no longer grounded —
//!    jumped, or walked or fell off — gets the surface's velocity at the point it stood on
//!    ([`SurfaceMotion::point_velocity`], turning included) added to its own: its momentum in the
//!    world is what it had on the platform.
//! 3. **Land** (after the tick): a character that lands on a moving surface has that surface's
//!    planar point velocity taken off its velocity, which from then on is relative to the surface
//!    (friction acts on the relative velocity: standing still on a platform is standing still).
//!
//! Among solids ([`GroundProbe::SOLID`]), a moving solid of the world
//! ([`crate::collide::World::move_solid`], moved before the step) is such a surface too: when
//! `surface_motion` is still, [`GroundProbe::carrier`] names the solid the body stands on (carried,
//! the rules above) or that moved into it (pushed by the same move, no velocity kept); either way
//! the body is moved through a trace, so a wall stops it. Its landing rule runs in the ground
//! trace that lands the body (`land_on_solid`). The test for such a solid is one flag of the
//! world ([`SolidFlags::MOVING`] in [`GroundProbe::solid_flags`]): about 6 instructions a step on
//! the Cortex-M4F in a world where nothing moves.
//!
//! **Every mode** (Quake III's `G_MoverPush` moves whatever a mover carries or touches, whatever
//! its movement): the walking tick carries as above; the swimming tick the same way
//! ([`carry_swimmer`]: a grounded swimmer carried, one a moving solid moved into pushed, the
//! leaving and landing rules after its move); a body off the ground that held a moving ladder
//! before the ladder's move is carried by it once a call, before the ticks look for a ladder
//! ([`carry_held_ladder`], run by [`super::step`]: then the ladder is found where the body held
//! it, at any speed), else the climbing tick carries as the others ([`carry_climber`]; a
//! climbing velocity stays relative to the ladder, a push-off adds the ladder's). Each mode
//! carries before its own move.
//!
//! Walking from one surface to another while grounded keeps the relative velocity: stepping onto
//! a conveyor starts carrying, stepping off it onto still ground stops (as Quake's movers).
//!
//! ## Cost
//! With a probe that does not override `surface_motion`, the motion is the constant
//! [`SurfaceMotion::STILL`], every test on it is decided at compile time and this module adds
//! nothing to the tick. On a moving surface: one `sin_cos` per tick while turning, a few
//! multiply-adds otherwise.
//!
//! ## Bad numbers
//! A motion with a non-finite velocity, yaw rate or pivot counts as still; a carry that would make
//! the position or velocity non-finite is not applied; a velocity that would overflow on leaving
//! or landing is left as it was.

use super::kernels::WishDir;
use super::params::MoveParams;
use super::state::MoverState;
use crate::collide::SolidFlags;
use crate::ground::{GroundProbe, SurfaceMotion};
use crate::math::{scalar, Vec3};

/// The surface's point velocity at the feet when a grounded character was carried this tick
/// (what it keeps if it leaves), or `None`.
pub(super) type Carried = Option<Vec3>;

/// The motion under a grounded character, if it moves (finite and not still).
#[inline(always)]
fn moving_under(state: &MoverState, probe: &impl GroundProbe) -> Option<SurfaceMotion> {
    if !state.grounded {
        return None;
    }
    let m = probe.surface_motion(state.position);
    if m.is_still() {
        return None;
    }
    usable(m)
}

/// `m` if every number in it is finite.
#[inline(never)]
fn usable(m: SurfaceMotion) -> Option<SurfaceMotion> {
    let finite = m.velocity.is_finite() && m.yaw_rate.is_finite() && m.pivot.is_finite();
    finite.then_some(m)
}

/// Step 1: carry a grounded character with the surface under it over `dt`. Among solids
/// ([`GroundProbe::SOLID`]) the carry is a sweep of the body's box: a rider pushed against a wall
/// stops there, and the platform moves on under it (never dragged into the wall).
#[inline(always)]
pub(super) fn carry<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &P,
    dt: f32,
) -> Carried {
    let Some(m) = moving_under(state, probe) else {
        return if P::SOLID && moving_solids(probe) {
            carry_solid(state, params, probe, dt)
        } else {
            None
        };
    };
    let before = state.position;
    let carried = carry_by(state, m, dt)?;
    if P::SOLID {
        let (mins, maxs) = super::slide::body_box(state, params);
        state.position = super::slide::trace(probe, before, state.position, mins, maxs).end;
    }
    Some(carried)
}

/// Among solids: some solid may move ([`SolidFlags::MOVING`] in [`GroundProbe::solid_flags`]).
/// The one test a world where nothing moved pays (a flag of the world, loaded and tested).
#[inline(always)]
fn moving_solids(probe: &impl GroundProbe) -> bool {
    probe.solid_flags().contains(SolidFlags::MOVING)
}

/// Step 1 among solids when the probe's surface is still: the moving solid under the body (it
/// stands on it and is grounded: carried) or around it (it moved into the body: pushed) moves
/// the body by `velocity·dt` through a trace ([`GroundProbe::carrier`]): a wall stops it, the
/// solid moves on. Only a carried body keeps the solid's velocity when it leaves it. Out of
/// line: only worlds with a moving solid reach it.
#[inline(never)]
fn carry_solid<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &P,
    dt: f32,
) -> Carried {
    let body = super::slide::body_box(state, params);
    let c = probe.carrier(state.position, body.0, body.1)?;
    carry_by_solid(state, params, c, body, probe, dt)
}

/// [`carry_solid`] once a carrier is known: the solid's move as a translating surface, carried
/// as every surface is ([`carry_by`], then the sweep), but kept (for leaving) only by a rider.
#[inline]
fn carry_by_solid<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    c: crate::collide::Carrier,
    (mins, maxs): (Vec3, Vec3),
    probe: &P,
    dt: f32,
) -> Carried {
    let rides = c.rider && state.grounded;
    if !(rides || c.inside) {
        return None;
    }
    let before = state.position;
    carry_by(state, SurfaceMotion::translating(c.velocity), dt)?;
    let t = super::slide::trace(probe, before, state.position, mins, maxs);
    state.position = t.end;
    if t.all_solid && !rides {
        let longest = crate::math::finite_or(dt * params.max_substeps as f32, 0.0);
        push_out(state, c, (mins, maxs), probe, c.velocity * longest);
    }
    rides.then_some(c.velocity)
}

/// A pushed body the push left inside the solid that pushed it: the push (`velocity·dt`) was
/// shorter than the overlap, and a trace that stays inside a solid the whole way does not move
/// (`all_solid`). That happens when a call of `move_solid` is stepped in several sub-steps: the
/// solid made the whole call's move before the first, each sub-step pushes by `velocity·dt`. The
/// body is then moved out along the solid's motion in one go, to where it would leave the solid:
/// a trace back from `velocity·dt·max_substeps` ahead finds the solid's face (that is, the move
/// of the longest call; a solid that point is in does not stop it), and a trace from the body to
/// there moves it (a wall on the way stops it). So no tick's movement starts inside the solid (a swimmer's probe would read the solid as
/// ground under it). With one sub-step a call (the documented use) the push was the solid's
/// whole move and this never runs. Something else in the way of the trace back (a wall just
/// ahead): the body stays for this sub-step.
#[cold]
#[inline(never)]
fn push_out<P: GroundProbe>(
    state: &mut MoverState,
    c: crate::collide::Carrier,
    (mins, maxs): (Vec3, Vec3),
    probe: &P,
    reach: Vec3,
) {
    let p = state.position;
    let far = p + reach;
    if !far.is_finite() {
        return;
    }
    let back = super::slide::trace(probe, far, p, mins, maxs);
    if back.all_solid || !(back.fraction < 1.0) || back.solid != Some(c.solid) {
        return;
    }
    state.position = super::slide::trace(probe, p, back.end, mins, maxs).end;
}

/// The landing rule on a moving solid, among solids: a body that lands on one has its planar
/// velocity taken off (from then on it is relative to the solid). Called by the ground trace
/// when it lands the body (`slide::ground_trace_down`), not after the tick as for a probe's
/// moving surface: there it is one more test in an already rare branch, where after the tick it
/// cost 45 instructions a step on the Cortex-M4F (code layout) in worlds where nothing moves.
#[cold]
#[inline(never)]
pub(super) fn land_on_solid<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &P,
) {
    if !moving_solids(probe) {
        return;
    }
    let (mins, maxs) = super::slide::body_box(state, params);
    if let Some(c) = probe.carrier(state.position, mins, maxs) {
        if c.rider {
            let v = c.velocity;
            add_velocity(state, Vec3::new(-v.x, 0.0, -v.z), params.max_velocity);
        }
    }
}

/// Step 1 for a swimming tick (`water::tick`), which Quake III's pushers move as every entity
/// (`G_MoverPush` pushes whatever a mover carries or touches, whatever its movement mode): the
/// walking tick's [`carry`] — a swimmer grounded on a moving surface or solid (the pool's floor,
/// a raft's top) is carried and keeps the velocity on leaving it, one a moving solid moved into
/// is pushed out — with the turn added to `ev.carried_yaw` as the walking tick does. A swimmer
/// above a moving floor without standing on it is not carried: like a body in the air, only
/// the floor's move into it pushes it. Out of line: only swimming ticks reach it.
#[inline(never)]
pub(super) fn carry_swimmer<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &P,
    dt: f32,
    ev: &mut super::StepEvents,
) -> Carried {
    let turned = carried_yaw(state, probe, dt);
    if turned != 0.0 {
        ev.carried_yaw = add_yaw(ev.carried_yaw, turned);
    }
    let before = state.position;
    let carried = carry(state, params, probe, dt);
    if let Some(v) = carried {
        if P::SOLID && v.y < 0.0 {
            stay_on(state, params, probe, before, v, dt);
        } else if P::SOLID && v.y > 0.0 {
            rise_out(state, params, probe, v, dt);
        }
    }
    carried
}

/// A swimmer carried up by a moving solid (`v`) and left inside it: lifted onto its top. With
/// several sub-steps a call the solid made the whole call's rise before the first, and the
/// carry's `v·dt` leaves the body in it; the water tick's ground trace would then nudge it out
/// sideways (`PM_CorrectAllSolid`), off the solid. A trace down from `|v.y|·dt·max_substeps`
/// above (the rise of the longest call) finds the moving solid's top, and a trace up to there
/// moves the body (a ceiling stops it). With one sub-step a call it changes nothing (the carry
/// was the solid's whole move: the box is out of it), for one more trace a tick of a swimmer on
/// a rising solid. The mirror of [`stay_on`].
#[cold]
#[inline(never)]
fn rise_out<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &P,
    v: Vec3,
    dt: f32,
) {
    let (mins, maxs) = super::slide::body_box(state, params);
    let p = state.position;
    if !super::slide::trace(probe, p, p, mins, maxs).start_solid {
        return;
    }
    let rise = crate::math::finite_or(v.y * dt * params.max_substeps as f32, 0.0);
    let far = Vec3::new(p.x, p.y + rise, p.z);
    if !(rise > 0.0) || !far.is_finite() {
        return;
    }
    let back = super::slide::trace(probe, far, p, mins, maxs);
    if back.all_solid || !(back.fraction < 1.0) || !back.flags.contains(SolidFlags::MOVING) {
        return;
    }
    state.position = super::slide::trace(probe, p, back.end, mins, maxs).end;
}

/// A swimmer carried down by a moving solid (`v`, from `before`), carried again in two traces:
/// across by `v·dt`, then down onto the solid — the box traced down as far as the solid moves in
/// the longest call (`|v.y|·dt·max_substeps`) stops on it. With one sub-step a call the carry's
/// one trace had left it there; with several, the solid made the whole call's move before the
/// first sub-step: a carry of `v·dt` leaves the body above it (where the next sub-step no longer
/// finds it under the body: a walking body is pulled down by the walking tick's `step_down`, the
/// water tick has no such pull), and on the next sub-steps the carry's one trace would stop on
/// the solid's top at once, its part across lost. Only a surface that does not turn (a moving
/// solid's carry: translation).
#[cold]
#[inline(never)]
fn stay_on<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &P,
    before: Vec3,
    v: Vec3,
    dt: f32,
) {
    if moving_under(state, probe).is_some() {
        return;
    }
    let depth = crate::math::finite_or(-v.y * dt * params.max_substeps as f32, 0.0);
    let across = Vec3::new(before.x + v.x * dt, before.y, before.z + v.z * dt);
    if !(depth > 0.0) || !across.is_finite() || !(before.y - depth).is_finite() {
        return;
    }
    let (mins, maxs) = super::slide::body_box(state, params);
    let p = super::slide::trace(probe, before, across, mins, maxs).end;
    let below = Vec3::new(p.x, p.y - depth, p.z);
    let t = super::slide::trace(probe, p, below, mins, maxs);
    if t.fraction < 1.0 && !t.start_solid && t.flags.contains(SolidFlags::MOVING) {
        state.position = t.end;
    }
}

/// Step 1 for a climbing tick (`ladder::tick`) on the ladder with planar normal `n`: among
/// solids, a climber off the ground holding a moving ladder (the solid with
/// [`SolidFlags::LADDER`] its box meets when swept `body_radius / 16` towards the ladder,
/// [`held_ladder`]) was carried by that ladder's move before the call's ticks
/// ([`carry_held_ladder`]), and is not moved here (unless it pushes off before the call's last
/// tick: `leaving`, the call's seconds after this tick when it does, else 0; [`give_back`]);
/// otherwise [`carry_swimmer`]'s rules: a
/// climber standing on a moving floor at the foot of the ladder is carried by the floor, one a
/// moving solid moved into is pushed out. The result is the carrier's velocity (the ladder's or
/// the floor's), which the climbing tick adds to a push-off only (a climbing velocity is relative
/// to what carries it). Out of line: only climbing ticks reach it.
#[inline(never)]
pub(super) fn carry_climber<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &P,
    n: crate::math::Vec2,
    dt: f32,
    leaving: f32,
    ev: &mut super::StepEvents,
) -> Carried {
    if P::SOLID && !state.grounded && moving_solids(probe) {
        if let Some(c) = held_ladder(state, params, probe, n) {
            if leaving > 0.0 {
                give_back(state, params, probe, c.velocity * leaving);
            }
            return Some(c.velocity);
        }
    }
    carry_swimmer(state, params, probe, dt, ev)
}

/// A climber pushing off a moving ladder on a tick with `leaving` seconds of the call after it:
/// [`carry_held_ladder`] carried it by the ladder's whole move of the call, and from the push-off
/// on it moves by its own velocity, the ladder's added ([`push_off`]), over those seconds too:
/// the part of the carry for them (`back`, the ladder's velocity times `leaving`) is taken back,
/// through a trace, so the call moves it as far as a carry of `velocity·dt` a tick would
/// have. With one sub-step a call (the documented use) `leaving` is 0 and this never runs.
#[cold]
#[inline(never)]
fn give_back<P: GroundProbe>(state: &mut MoverState, params: &MoveParams, probe: &P, back: Vec3) {
    let p = state.position;
    let to = p - back;
    if !to.is_finite() {
        return;
    }
    let (mins, maxs) = super::slide::body_box(state, params);
    state.position = super::slide::trace(probe, p, to, mins, maxs)
        .end
        .flush_subnormal();
}

/// Among solids, once a call before its ticks (Quake III's `G_MoverPush`: the pushers move what
/// they carry before the player's `Pmove`), in a world with a moving ladder
/// ([`SolidFlags::LADDER`] and [`SolidFlags::MOVING`] in [`GroundProbe::solid_flags`]): a body
/// off the ground that held a ladder before the ladder's move is carried by that move, so the
/// ticks' ladder search (`ladder::find`) finds it where it held it, whichever way and however
/// fast it moved.
///
/// `time` is the call's stepped time (its sub-steps' sum), over which the solid made its move
/// (`World::move_solid` with the call's `dt`, before the call). The moving ladder is the one the
/// body's box is inside of ([`GroundProbe::carrier`]: it moved into the body), else the first
/// solid the box hits swept along the view's planar forward `facing` by the reach
/// (`body_radius / 16`) plus the farthest a ladder can have moved away
/// (`max_velocity · time`), if it is a moving ladder (its carrier, the box pushed `body_radius`
/// into it). Its move this call is `velocity · time`; the body moved by as much is where it was
/// to the ladder before the move: if from there the ladder search finds that same ladder (the
/// box swept by the reach along `facing` hits it, and `ladder::grab`'s rules take it: a body
/// moving away from it faster than `ladder_climb_speed` — a push-off — is not held), the body is
/// moved there through a trace (a wall stops it; the ladder does not, the trace starts in it or
/// ends in front of it). Nothing else changes (the climbing velocity is relative to the ladder).
///
/// Limit: a ladder moving away faster than `max_velocity` along the view is not looked for that
/// far: its climber lets go. Out of line and cold: only worlds with a moving ladder reach it.
#[inline(never)]
pub(super) fn carry_held_ladder<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &P,
    facing: crate::math::Vec2,
    split: &crate::timestep::SubSteps,
) {
    let reach = super::ladder::reach(params);
    let time = split.step * split.count as f32;
    if state.grounded || !(reach > 0.0) || !(time > 0.0) {
        return;
    }
    let f = super::kernels::unit_facing(facing);
    let body = super::slide::body_box(state, params);
    let p = state.position;
    let c = match probe.carrier(p, body.0, body.1) {
        Some(c) if c.inside => c,
        _ => {
            let far = reach + crate::math::finite_or(params.max_velocity * time, 0.0);
            let held = SolidFlags::LADDER.union(SolidFlags::MOVING);
            let Some(t) = super::ladder::sweep(probe, p, f, far, body) else {
                return;
            };
            let r = params.body_radius;
            let into = Vec3::new(t.end.x + f.x * r, t.end.y, t.end.z + f.y * r);
            if !t.flags.contains(held) || !into.is_finite() {
                return;
            }
            match probe.carrier(into, body.0, body.1) {
                Some(c) if c.inside && Some(c.solid) == t.solid => c,
                _ => return,
            }
        }
    };
    let was = p + c.velocity * time;
    if !was.is_finite() {
        return;
    }
    let Some(t) = super::ladder::sweep(probe, was, f, reach, body) else {
        return;
    };
    if t.solid != Some(c.solid)
        || super::ladder::grab(t.plane.normal, state, params, WishDir::NONE).is_none()
    {
        return;
    }
    let end = super::slide::trace(probe, p, was, body.0, body.1).end;
    if end.is_finite() {
        state.position = end.flush_subnormal();
    }
}

/// The moving ladder a climber holds, among solids: the box swept `body_radius / 16` (one Quake
/// unit for a Quake body, the reach that finds the ladder) towards the ladder (`−n`) hits a solid
/// with [`SolidFlags::LADDER`] and [`SolidFlags::MOVING`], and the box pushed `body_radius` into
/// it overlaps that solid ([`GroundProbe::carrier`] names it: moving, its velocity not zero).
/// `None` otherwise — also when the box there stands on another moving solid, which
/// [`GroundProbe::carrier`] names first (the climber then keeps the velocity of what it holds
/// on a push-off only if nothing else carries it).
fn held_ladder<P: GroundProbe>(
    state: &MoverState,
    params: &MoveParams,
    probe: &P,
    n: crate::math::Vec2,
) -> Option<crate::collide::Carrier> {
    let r = params.body_radius;
    let reach = super::ladder::reach(params);
    if !(reach > 0.0) {
        return None;
    }
    let (mins, maxs) = super::slide::body_box(state, params);
    let p = state.position;
    let toward = Vec3::new(-n.x, 0.0, -n.y);
    let t = super::slide::trace(probe, p, p + toward * reach, mins, maxs);
    let held = SolidFlags::LADDER.union(SolidFlags::MOVING);
    if !(t.fraction < 1.0) || !t.flags.contains(held) {
        return None;
    }
    let into = p + toward * r;
    if !into.is_finite() {
        return None;
    }
    let c = probe.carrier(into, mins, maxs)?;
    (Some(c.solid) == t.solid && c.inside).then_some(c)
}

/// A climber's push-off from what carried it this tick (`carried`, [`carry_climber`]'s result):
/// the carrier's velocity added to the push-off's, as a jump off a platform keeps it.
#[inline(never)]
pub(super) fn push_off(state: &mut MoverState, params: &MoveParams, carried: Carried) {
    if let Some(v) = carried {
        add_velocity(state, v, params.max_velocity);
    }
}

/// [`carry`] on a known moving surface. Out of line: only platforms reach it.
#[inline(never)]
fn carry_by(state: &mut MoverState, m: SurfaceMotion, dt: f32) -> Carried {
    let p = state.position;
    let kept = m.point_velocity(p);
    let (mut rx, mut rz) = (p.x - m.pivot.x, p.z - m.pivot.z);
    let (mut vx, mut vz) = (state.velocity.x, state.velocity.z);
    let angle = m.yaw_rate * dt;
    if angle != 0.0 {
        let (s, c) = scalar::sin_cos(angle);
        (rx, rz) = (rx * c + rz * s, rz * c - rx * s);
        (vx, vz) = (vx * c + vz * s, vz * c - vx * s);
    }
    let moved = Vec3::new(
        m.pivot.x + rx + m.velocity.x * dt,
        p.y + m.velocity.y * dt,
        m.pivot.z + rz + m.velocity.z * dt,
    );
    if !(moved.is_finite() && vx.is_finite() && vz.is_finite() && kept.is_finite()) {
        return None;
    }
    state.position = moved.flush_subnormal();
    state.velocity.x = scalar::flush_subnormal(vx);
    state.velocity.z = scalar::flush_subnormal(vz);
    Some(kept)
}

/// The angle a grounded character is turned by the surface under it over `dt` (what [`carry`]
/// turns it by), radians; 0 off moving surfaces. In a tick whose carry would overflow (positions
/// or speeds near `f32::MAX`) [`carry`] is skipped but this angle is still reported.
#[inline(always)]
pub(super) fn carried_yaw(state: &MoverState, probe: &impl GroundProbe, dt: f32) -> f32 {
    match moving_under(state, probe) {
        Some(m) => yaw_of(m, dt),
        None => 0.0,
    }
}

/// `yaw_rate·dt`, or 0 if that is not finite, wrapped into `(−π, π]` if it is 3 or more
/// ([`crate::math::wrap_angle`]: a turn is an angle), subnormals flushed.
#[inline(never)]
fn yaw_of(m: SurfaceMotion, dt: f32) -> f32 {
    let turn = crate::math::finite_or(m.yaw_rate * dt, 0.0);
    scalar::flush_subnormal(crate::math::wrap_angle(turn))
}

/// The sum of two turns ([`super::StepEvents::carried_yaw`]), wrapped into `(−π, π]` once it
/// leaves `±3` ([`crate::math::wrap_angle`] returns smaller angles unchanged, bit for bit), so a
/// step's carried yaw stays finite over any number of ticks; subnormals flushed.
#[inline]
pub(super) fn add_yaw(a: f32, b: f32) -> f32 {
    scalar::flush_subnormal(crate::math::wrap_angle(a + b))
}

/// Steps 2 and 3, after the tick (`params.max_velocity`: the clamp): `carried` is [`carry`]'s
/// result, `was_grounded` the grounded flag before the tick.
#[inline(always)]
pub(super) fn settle(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &impl GroundProbe,
    carried: Carried,
    was_grounded: bool,
) {
    let max_velocity = params.max_velocity;
    if let Some(kept) = carried {
        if !state.grounded {
            add_velocity(state, kept, max_velocity);
        }
        return;
    }
    if !was_grounded && state.grounded {
        if let Some(m) = moving_under(state, probe) {
            let pv = m.point_velocity(state.position);
            add_velocity(state, Vec3::new(-pv.x, 0.0, -pv.z), max_velocity);
        }
    }
}

/// `velocity += dv`, each component clamped to `±max_velocity` as the tick's own guard does (the
/// surface's speed comes after that guard); skipped if the sum overflows, `dv` is not finite or
/// the clamp gives no finite velocity (a bad `max_velocity`); subnormals flushed.
#[inline(never)]
fn add_velocity(state: &mut MoverState, dv: Vec3, max_velocity: f32) {
    let sum = state.velocity + dv;
    if !sum.is_finite() {
        return;
    }
    let v = super::state::clamp_velocity(sum, max_velocity);
    if v.is_finite() {
        state.velocity = v.flush_subnormal();
    }
}
