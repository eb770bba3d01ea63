//! Ladders (Quake II / Source style): while the probe reports a climbable surface at the feet
//! ([`GroundProbe::ladder`], default none), the character climbs along it with the move input
//! instead of walking or falling, and a jump pushes it off.
//!
//! One climbing tick, with `n` the ladder's planar normal (unit, pointing from the ladder towards
//! the character) and `w` the world wish (direction × analog scale):
//! - the part of `w` pushing into the ladder (`−w·n`: forward when facing it) becomes vertical
//!   speed, up (or down when pulling away: S), times `ladder_climb_speed`;
//! - the part of `w` along the ladder becomes sideways speed, times `ladder_climb_speed`;
//! - no gravity, no friction: letting go of the keys holds the character where it is;
//! - a jump (the key going down) sets the velocity to `n·ladder_jump_speed` (Source's push-off)
//!   and the character falls away from the ladder under the normal rules;
//! - after the move the ground is categorised as always, so climbing down ends standing.
//!
//! A character is on the ladder when the probe reports one and it is not moving away from it
//! faster than `ladder_climb_speed` (so the push-off is not caught again). At the top, where the
//! probe stops reporting the ladder, the climbing speed carries it up over the edge and the
//! normal tick takes over.
//!
//! Among solids ([`GroundProbe::SOLID`]) a ladder is a solid with
//! [`crate::collide::SolidFlags::LADDER`] in front of the body (Quake II's test), and the climb
//! slides along what it meets ([`super::slide`]).
//!
//! What moved carries or pushes the climber first (Quake III's order, pushers first): a body off
//! the ground that held a moving ladder before the ladder's move is carried by that move once a
//! call, before the ticks look for a ladder ([`super::platform`]'s `carry_held_ladder`, run by
//! [`super::step`]), so [`find`] finds the ladder where the body held it, whichever way and at
//! any speed up to `max_velocity` it moved (its offset kept; the climbing velocity stays relative
//! to the ladder, and a push-off adds the ladder's velocity); before the climb a climber standing
//! at the foot is carried by a moving floor, and a solid moving into it pushes it
//! (`carry_climber`; docs/movement-features.md).
//!
//! [`super::step`] chooses this mode every tick, as Quake III's `PmoveSingle` chooses its move:
//! a push-off on one sub-step of a call is followed by falling on the next.
//! [`super::step_wish`] and [`super::tick`] (walking and in the air only) do not climb. With a
//! probe that does not override `ladder`, nothing of this runs (the test folds away). A
//! non-finite normal, or one with no horizontal part, is no ladder.

use super::jump::key_pressed;
use super::kernels::WishDir;
use super::params::MoveParams;
use super::state::{clamp_velocity, guard_state, repair_ground_normal, MoverState, StepEvents};
use crate::collide::SolidFlags;
use crate::ground::GroundProbe;
use crate::math::{scalar, Vec2, Vec3};

/// The planar unit normal of the ladder the character is on, if it is on one (see the module
/// docs: the probe reports one and the character is not moving away from it faster than
/// `ladder_climb_speed`; standing on the ground, only while the wish pushes into it, so it can
/// walk away from the foot of a ladder).
#[inline(always)]
pub(crate) fn touching(
    probe: &impl GroundProbe,
    state: &MoverState,
    params: &MoveParams,
    wish: WishDir,
) -> Option<Vec2> {
    let n = probe.ladder(state.position)?;
    grab(n, state, params, wish)
}

/// The ladder the character is on, for the driver (which also knows the view's planar forward
/// `facing`): among solids ([`GroundProbe::SOLID`]) a ladder is a solid with
/// [`SolidFlags::LADDER`] just in front of the body — its box swept `body_radius / 16` (one Quake
/// unit for a Quake body) along the view hits one, as Quake II's `PM_CheckSpecialMovement` looks
/// for `CONTENTS_LADDER`, and the plane hit is the ladder's normal; else the probe's answer
/// ([`touching`]). Either way [`touching`]'s rules then decide.
#[inline(always)]
pub(super) fn find<P: GroundProbe>(
    probe: &P,
    state: &MoverState,
    params: &MoveParams,
    wish: WishDir,
    facing: Vec2,
) -> Option<Vec2> {
    if P::SOLID {
        // In a world without a ladder (the test inline: no call).
        if !probe.solid_flags().contains(SolidFlags::LADDER) {
            return None;
        }
        return solid_ladder(probe, state, params, wish, facing);
    }
    touching(probe, state, params, wish)
}

/// [`find`] among solids. Out of line: a trace.
#[inline(never)]
fn solid_ladder(
    probe: &impl GroundProbe,
    state: &MoverState,
    params: &MoveParams,
    wish: WishDir,
    facing: Vec2,
) -> Option<Vec2> {
    let reach = reach(params);
    if !(reach > 0.0) {
        return None;
    }
    let f = super::kernels::unit_facing(facing);
    let body = super::slide::body_box(state, params);
    let t = sweep(probe, state.position, f, reach, body)?;
    grab(t.plane.normal, state, params, wish)
}

/// How far in front of the body [`find`] looks for a ladder among solids: `body_radius / 16`
/// (one Quake unit for a Quake body), 0 when that is not finite.
#[inline(always)]
pub(super) fn reach(params: &MoveParams) -> f32 {
    crate::math::finite_or(params.body_radius * (1.0 / 16.0), 0.0)
}

/// The box `mins..maxs` at `from` swept `len` along the planar unit direction `f` hits a solid
/// with [`SolidFlags::LADDER`]: that trace (its plane is the ladder's face). [`find`]'s sweep
/// among solids, and the moving ladder's (`platform::carry_held_ladder`).
#[inline(always)]
pub(super) fn sweep(
    probe: &impl GroundProbe,
    from: Vec3,
    f: Vec2,
    len: f32,
    (mins, maxs): (Vec3, Vec3),
) -> Option<crate::collide::TraceResult> {
    let p = from;
    let ahead = Vec3::new(p.x + f.x * len, p.y, p.z + f.y * len);
    // Away from every ladder (no ladder's bounds meet the sweep's) the trace could not report
    // one: skipped, the same answer.
    if !probe.could_report(SolidFlags::LADDER, p, ahead, mins, maxs) {
        return None;
    }
    let t = super::slide::trace(probe, p, ahead, mins, maxs);
    if !(t.fraction < 1.0) || !t.flags.contains(SolidFlags::LADDER) {
        return None;
    }
    Some(t)
}

/// [`touching`]'s tests on a reported normal. Out of line: only ladders reach it.
#[inline(never)]
pub(super) fn grab(
    n: Vec3,
    state: &MoverState,
    params: &MoveParams,
    wish: WishDir,
) -> Option<Vec2> {
    if !n.is_finite() {
        return None;
    }
    let n = Vec2::new(n.x, n.z);
    let l2 = n.length_squared();
    if !(l2 > 1.0e-6) || !(l2 <= f32::MAX) {
        return None;
    }
    let n = n * (1.0 / scalar::sqrt(l2));
    let away = state.velocity.x * n.x + state.velocity.z * n.y;
    if away > params.ladder_climb_speed {
        return None;
    }
    let w = wish.sanitized();
    let into = -(w.dir.x * n.x + w.dir.y * n.y) * w.scale;
    if state.grounded && !(into > 0.0) {
        return None;
    }
    Some(n)
}

/// One climbing tick of `dt` seconds on the ladder with planar normal `n` ([`touching`]), the
/// state repaired and `wish` (the world wish) sanitised by the driver; `jump` the jump key;
/// `ticks_left` the call's ticks after this one (for a push-off from a moving ladder, which
/// carried the climber by its whole move of the call: `platform::carry_climber`).
/// Among solids out of line ([`tick_solid`]), else inlined.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn tick<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    n: Vec2,
    wish: &WishDir,
    jump: bool,
    probe: &P,
    dt: f32,
    ticks_left: u32,
    ev: &mut StepEvents,
) {
    if P::SOLID {
        tick_solid(state, params, n, wish, jump, probe, dt, ticks_left, ev);
    } else {
        tick_body(state, params, n, wish, jump, probe, dt, ticks_left, ev);
    }
}

/// [`tick`] among solids. Out of line, as `water::tick`: inlined, the carry's locals (the
/// carrier's velocity kept across the slide move) widened the driver's frame, which every walking
/// tick pays (5 instructions a step on the Cortex-M4F on open ground; out of line the step costs
/// 12 fewer than before the carry). In the height-probe world inlined is cheaper (the scripted
/// demo's tick).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn tick_solid<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    n: Vec2,
    wish: &WishDir,
    jump: bool,
    probe: &P,
    dt: f32,
    ticks_left: u32,
    ev: &mut StepEvents,
) {
    tick_body(state, params, n, wish, jump, probe, dt, ticks_left, ev);
}

/// [`tick`]'s body.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn tick_body<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    n: Vec2,
    wish: &WishDir,
    jump: bool,
    probe: &P,
    dt: f32,
    ticks_left: u32,
    ev: &mut StepEvents,
) {
    // A push-off tick does not categorise, so nothing else overwrites a bad normal.
    repair_ground_normal(state);
    // What moved before the step moves the climber first (Quake order: pushers first): the
    // moving ladder it holds, the moving floor it stands on, a moving solid pushing it.
    let pressed = key_pressed(state, jump);
    let leaving = if P::SOLID && pressed {
        dt * ticks_left as f32
    } else {
        0.0
    };
    let carried = super::platform::carry_climber(state, params, probe, n, dt, leaving, ev);
    let w = wish.dir * wish.scale;
    let into = -(w.x * n.x + w.y * n.y);
    let side = Vec2::new(w.x + into * n.x, w.y + into * n.y);
    let speed = params.ladder_climb_speed;
    let v = if pressed {
        state.jump_latched = true;
        ev.jumped = true;
        state.grounded = false;
        Vec3::new(
            n.x * params.ladder_jump_speed,
            0.0,
            n.y * params.ladder_jump_speed,
        )
    } else {
        Vec3::new(side.x * speed, into * speed, side.y * speed)
    };
    // `max_velocity` holds on the ladder too (climb and push-off speeds are params).
    let v = clamp_velocity(v, params.max_velocity);
    if !v.is_finite() {
        state.velocity = Vec3::ZERO;
        state.flush_subnormals();
        return;
    }
    let before = state.position;
    state.velocity = v;
    if P::SOLID {
        // Among solids the climb slides along what it meets (a ceiling over the ladder).
        let (mins, maxs) = super::slide::body_box(state, params);
        let (mut pos, mut vel) = (state.position, state.velocity);
        super::slide::slide_move(probe, params, &mut pos, &mut vel, mins, maxs, dt, None);
        (state.position, state.velocity) = (pos, vel);
    } else {
        state.position += v * dt;
    }
    if !state.position.is_finite() {
        state.position = before;
        state.velocity = Vec3::ZERO;
    }
    // Pushed off: the normal rules from the next tick on (moving away faster than the climbing
    // speed, it no longer [`touching`] the ladder).
    if pressed {
        // Pushed off a moving ladder (or floor): its velocity kept from now on, as after a jump
        // off a platform (`platform`'s leaving rule).
        super::platform::push_off(state, params, carried);
    } else {
        let was = state.grounded;
        let landed = if P::SOLID {
            let body = super::slide::body_box(state, params);
            super::slide::ground_trace(probe, params, state, body, false).landed
        } else {
            super::contact::categorize_ground(state, params, probe, false).landed
        };
        ev.landed |= landed && !was;
        if state.grounded {
            state.velocity.y = 0.0;
        }
        // The categorisation clips the velocity against the ground's normal, which a bad
        // probe may make huge: the tick's own last-resort guard.
        guard_state(state, params, before);
    }
    state.flush_subnormals();
}
