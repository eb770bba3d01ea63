//! Walking and in the air: the tick of a character that is neither on a ladder nor swimming —
//! Quake III's `PM_WalkMove` and `PM_AirMove`, one function (`walk::tick`) because hopkit's order is
//! the same for both: categorise the ground, jump, friction and accelerate (on the ground) or
//! air-accelerate, move, categorise again.
//!
//! One tick, in Quake order (`PmoveSingle`):
//! 1. the platform under a grounded character carries it ([`super::platform`]);
//! 2. categorise ground ([`categorize_ground`](super::contact::categorize_ground));
//! 3. jump key bookkeeping and variable-height cut, then jump — which clears `grounded`, so a
//!    frame-perfect hop pays no friction;
//! 4. friction (ground only) and accelerate / air-accelerate ([`planar_velocity_tick`]);
//! 5. in the air: half of gravity, move, the other half (Source's `StartGravity`/`FinishGravity`:
//!    positions lie exactly on the parabola, so the apex does not depend on the tick rate);
//!    on the ground: move horizontally;
//! 6. block the move at walls (ground higher than `step_up`), then categorise ground again
//!    (landing, snapping, stepping up, leaving ledges, pushing out of steep ground);
//! 7. NaN/overflow guard and the per-axis velocity clamp, then count timers down.
//!
//! The driver ([`super::mover`]) runs it per tick; it does not set [`MoverState::jump_held`]
//! (the driver does, after every mode's tick).

use super::contact::{block_walls, categorize_probed, may_be_wall, probe_ground, Contact};
use super::jump::{
    apply_jump_release_cut, check_jump, jump_gravity_scale, note_jump_key,
    tick_jump_timers_flushed, JumpKind,
};
use super::kernels::{planar_velocity_tick, WishDir};
use super::params::MoveParams;
use super::state::{guard_state, MoverState, StepEvents};
use crate::ground::GroundProbe;
use crate::math::Vec3;

/// One walking or airborne tick of `dt` seconds (`0 < dt ≤ max_tick_dt`, the state repaired, the
/// wish sanitised): first the platform under the character carries it (its yaw added to
/// `ev.carried_yaw`; nothing for a still ground), then [`run_tick`], its events added to `ev`.
#[inline(always)]
pub(super) fn tick(
    state: &mut MoverState,
    params: &MoveParams,
    wish: &WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
    ev: &mut StepEvents,
) {
    let turned = super::platform::carried_yaw(state, probe, dt);
    if turned != 0.0 {
        ev.carried_yaw = super::platform::add_yaw(ev.carried_yaw, turned);
    }
    run_tick(state, params, wish, jump, probe, dt).add_to(ev);
}

/// [`TickEvents::flags`] bits.
const JUMPED: u32 = 1;
const COYOTE_JUMP: u32 = 2;
const LANDED: u32 = 4;
const LEFT_GROUND: u32 = 8;
const SLIDING: u32 = 16;
const HIT_WALL: u32 = 32;

/// What one tick reports: [`StepEvents`]' flags as bits and the largest impact speed, small
/// enough to come back in two registers.
#[derive(Clone, Copy)]
struct TickEvents {
    flags: u32,
    impact_speed: f32,
}

impl TickEvents {
    /// No events.
    const NONE: TickEvents = TickEvents {
        flags: 0,
        impact_speed: 0.0,
    };

    /// Add a categorisation's result.
    #[inline]
    fn add_contact(&mut self, c: Contact) {
        self.flags |= (c.left_ground as u32 * LEFT_GROUND) | (c.sliding as u32 * SLIDING);
        // Only a landing has an impact speed (else it is +0, which never raises the maximum).
        if c.landed {
            self.flags |= LANDED;
            self.impact_speed = larger_impact(self.impact_speed, c.impact_speed);
        }
    }

    /// Add a ground trace's result ([`super::slide::ground_trace`]).
    #[inline]
    fn add_found(&mut self, f: super::slide::GroundFound) {
        self.flags |= (f.left_ground as u32 * LEFT_GROUND) | (f.sliding as u32 * SLIDING);
        if f.landed {
            self.flags |= LANDED;
            self.impact_speed = larger_impact(self.impact_speed, f.impact_speed);
        }
    }

    /// Add this tick to a step's events: the same as adding its contacts one by one, as impact
    /// speeds are never NaN (categorisation gives `−vy` with `vy < 0`, else `+0`).
    #[inline]
    fn add_to(self, ev: &mut StepEvents) {
        let f = self.flags;
        ev.jumped |= f & JUMPED != 0;
        ev.coyote_jump |= f & COYOTE_JUMP != 0;
        ev.landed |= f & LANDED != 0;
        ev.left_ground |= f & LEFT_GROUND != 0;
        ev.sliding |= f & SLIDING != 0;
        ev.hit_wall |= f & HIT_WALL != 0;
        if self.impact_speed > ev.impact_speed {
            ev.impact_speed = self.impact_speed;
        }
    }
}

/// `new` if it is larger than `max`, else `max` (the events' impact speed). Out of line and cold:
/// only landings call it, and inline its compare would run on every categorisation.
#[cold]
#[inline(never)]
fn larger_impact(max: f32, new: f32) -> f32 {
    if new > max {
        new
    } else {
        max
    }
}

/// The tick with the moving-platform rules around it ([`super::platform`]: carried before, the
/// surface's velocity kept on leaving or taken off on landing after). With a probe whose surfaces
/// never move ([`GroundProbe::surface_motion`]'s default) this is [`run_tick_still`].
#[inline(always)]
fn run_tick(
    state: &mut MoverState,
    params: &MoveParams,
    wish: &WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
) -> TickEvents {
    let was_grounded = state.grounded;
    let carried = super::platform::carry(state, params, probe, dt);
    let out = run_tick_still(state, params, wish, jump, probe, dt);
    super::platform::settle(state, params, probe, carried, was_grounded);
    out
}

/// The tick itself, in Quake order: categorise the ground, jump and move ([`jump_and_move`]),
/// categorise the ground again, then guard, count the timers down and flush.
fn run_tick_still<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    wish: &WishDir,
    jump: bool,
    probe: &P,
    dt: f32,
) -> TickEvents {
    use crate::math::scalar::{HARD_FLOAT_ARM, SOFT_FLOAT};
    if P::SOLID {
        return run_tick_solid(state, params, wish, jump, probe, dt);
    }
    if SOFT_FLOAT || HARD_FLOAT_ARM {
        return run_tick_two_pass(state, params, wish, jump, probe, dt);
    }
    let mut out = TickEvents::NONE;
    ground_check(state, params, probe, None, &mut out);
    // Out of the ground after the first categorisation: a safe place to fall back to.
    let start_position = state.position;
    out.flags |= jump_and_move(state, params, wish, jump, dt);
    ground_check(state, params, probe, Some(start_position), &mut out);
    end_tick(state, params, dt, start_position, out)
}

/// [`run_tick_still`] for the Cortex-M targets (soft float or hard-float Arm), the same bits
/// (`two_pass_tick_is_the_tick`): the two ground checks are one [`ground_check`] run by a loop of
/// two passes, so the categorisation is in the binary once. There the plain form, with the
/// categorisation inlined twice, costs instructions on the demo's tick and flash
/// (docs/performance.md, "movement").
fn run_tick_two_pass(
    state: &mut MoverState,
    params: &MoveParams,
    wish: &WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
) -> TickEvents {
    let mut out = TickEvents::NONE;
    let mut moved_from = None;
    loop {
        ground_check(state, params, probe, moved_from, &mut out);
        if let Some(start_position) = moved_from {
            return end_tick(state, params, dt, start_position, out);
        }
        moved_from = Some(state.position);
        out.flags |= jump_and_move(state, params, wish, jump, dt);
    }
}

/// The end of a tick: the guard (falling back to `start_position`), the jump timers and the
/// subnormal flush.
#[inline(always)]
fn end_tick(
    state: &mut MoverState,
    params: &MoveParams,
    dt: f32,
    start_position: Vec3,
    out: TickEvents,
) -> TickEvents {
    let repaired = guard_state(state, params, start_position);
    tick_jump_timers_flushed(state, dt);
    // `flush_subnormals`, less what is known to be flushed: the timers (flushed as they are
    // counted down, or by the categorisation), the ground normal (`Vec3::UP`, or flushed by the
    // second categorisation), and on the ground `vy` (`+0`), unless the guard repaired the state.
    use crate::math::scalar::flush_subnormal as f;
    let p = state.position;
    state.position.x = f(p.x);
    state.position.z = f(p.z);
    state.velocity.x = f(state.velocity.x);
    state.velocity.z = f(state.velocity.z);
    state.position.y = f(p.y);
    if repaired || !state.grounded {
        state.velocity.y = f(state.velocity.y);
    }
    out
}

/// Probe the ground under the feet and categorise the position (Quake III's `PM_GroundTrace`);
/// `stick` is whether the character is grounded now (jumping has cleared it). After the move
/// (`moved_from` = the tick's start position) the same probe first serves the wall check
/// ([`resolve_walls`](super::contact::resolve_walls), its common case inline): a wall blocks the
/// move and the ground is probed again where the move was put back to. Categorisation stores
/// coyote time flushed, and after the move the ground normal too, so the end of the tick need not
/// flush them.
///
/// Inlined into both of its calls: a call would pass the contact and the probe result through
/// memory.
#[inline(always)]
fn ground_check(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &impl GroundProbe,
    moved_from: Option<Vec3>,
    out: &mut TickEvents,
) {
    let stick = state.grounded;
    let mut hit = probe_ground(probe, state.position, params);
    if let (Some(from), Some(h)) = (moved_from, hit) {
        if may_be_wall(params, h, from) && block_walls(state, params, probe, from, h) {
            out.flags |= HIT_WALL;
            hit = probe_ground(probe, state.position, params);
        }
    }
    out.add_contact(categorize_probed(
        state,
        params,
        hit,
        stick,
        moved_from.is_some(),
    ));
}

/// The middle of a tick: the jump rules, the planar kernel and the move. Returns the
/// [`TickEvents`] flags of a jump. Out of line: inlined into the two-pass loop, its params loads
/// would be hoisted out of the loop and kept in registers across the categorisation, or spilled.
#[inline(never)]
fn jump_and_move(
    state: &mut MoverState,
    params: &MoveParams,
    wish: &WishDir,
    jump: bool,
    dt: f32,
) -> u32 {
    let flags = jump_and_accelerate(state, params, wish, jump, dt);
    if state.grounded {
        move_on_ground(state, dt);
    } else {
        let g = params.gravity * jump_gravity_scale(state, params, jump);
        move_in_air(state, g, dt);
    }
    flags
}

/// The jump rules and the planar kernel (friction and acceleration, or the air's): the tick's
/// middle before the move, the same in the height-probe world and among solids. Returns the
/// [`TickEvents`] flags of a jump.
#[inline(always)]
fn jump_and_accelerate(
    state: &mut MoverState,
    params: &MoveParams,
    wish: &WishDir,
    jump: bool,
    dt: f32,
) -> u32 {
    note_jump_key(state, params, jump);
    apply_jump_release_cut(state, params, jump);
    let mut flags = 0;
    if let Some(kind) = check_jump(state, params, jump) {
        flags = JUMPED | ((kind == JumpKind::Coyote) as u32 * COYOTE_JUMP);
    }
    let v = if !state.grounded && params.cpm_air {
        super::cpma::cpm_air_velocity(state.velocity.planar(), *wish, params, dt)
    } else {
        planar_velocity_tick(state.velocity.planar(), *wish, params, state.grounded, dt)
    };
    state.velocity.x = v.x;
    state.velocity.z = v.y;
    flags
}

/// The tick among solids ([`GroundProbe::SOLID`], [`super::slide`]), in the same order as
/// [`run_tick_still`]: the ground trace, the jump rules and the planar kernel, the step-slide
/// move (on the ground along the ground plane; in the air between the two halves of gravity),
/// the ground trace again (sticking to the ground a grounded body walked on), then the same end.
#[inline(never)]
fn run_tick_solid(
    state: &mut MoverState,
    params: &MoveParams,
    wish: &WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
) -> TickEvents {
    use super::slide;
    let mut out = TickEvents::NONE;
    let body = slide::body_box(state, params);
    let reach = slide::GroundReach::new(params);
    let stick = state.grounded;
    out.add_found(slide::ground_trace_down(
        probe,
        params,
        state,
        body,
        reach.of(stick),
    ));
    let start_position = state.position;
    out.flags |= jump_and_accelerate(state, params, wish, jump, dt);
    let hits = if state.grounded {
        let n = state.ground_normal;
        state.velocity = slide::along_ground(state.velocity, n);
        let hits = slide::step_slide_move(probe, params, state, body, dt, Some(n));
        // hopkit's ground velocity is planar: walking over the top of a ramp does not launch.
        state.velocity.y = 0.0;
        hits
    } else {
        let g = params.gravity * jump_gravity_scale(state, params, jump);
        let half = g * dt * 0.5;
        state.velocity.y -= half;
        let hits = slide::step_slide_move(probe, params, state, body, dt, None);
        state.velocity.y -= half;
        hits
    };
    if hits.wall {
        out.flags |= HIT_WALL;
    }
    let stick = state.grounded;
    out.add_found(slide::ground_trace_down(
        probe,
        params,
        state,
        body,
        reach.of(stick),
    ));
    end_tick(state, params, dt, start_position, out)
}

/// Grounded: `vy = 0`, move horizontally (the end-of-tick categorisation snaps to the surface).
#[inline]
fn move_on_ground(state: &mut MoverState, dt: f32) {
    state.velocity.y = 0.0;
    state.position.x += state.velocity.x * dt;
    state.position.z += state.velocity.z * dt;
}

/// Airborne: half of gravity, move, the other half.
#[inline]
fn move_in_air(state: &mut MoverState, gravity: f32, dt: f32) {
    let half = gravity * dt * 0.5;
    state.velocity.y -= half;
    state.position += state.velocity * dt;
    state.velocity.y -= half;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::StateHash;
    use crate::math::Vec2;

    /// Heights in 2-unit cells: walls, ramps, steep ground, a platform, holes, and (with `wild`)
    /// non-finite and subnormal hits.
    struct Terrain {
        wild: bool,
    }

    impl GroundProbe for Terrain {
        fn probe(&self, p: Vec3) -> Option<crate::ground::GroundHit> {
            use crate::ground::GroundHit;
            if p.x.is_nan() || p.z.is_nan() {
                return None;
            }
            let cell = ((p.x * 0.5) as i32).wrapping_add(((p.z * 0.5) as i32).wrapping_mul(7));
            let level = cell.rem_euclid(5) as f32 * 0.2;
            let hit = |height, normal| Some(GroundHit { height, normal });
            match cell.rem_euclid(9) {
                0 => None,
                1 => hit(level + 1.5, Vec3::UP), // a wall
                2 => hit(level + 0.25 * p.x.fract().abs(), Vec3::new(0.2, 0.98, 0.0)),
                3 => hit(level, Vec3::new(0.8, 0.6, 0.0)), // too steep
                4 if p.y > 3.0 => hit(3.0, Vec3::UP),
                5 if self.wild => hit(f32::NAN, Vec3::UP),
                6 if self.wild => hit(f32::from_bits(0x8000_0003), Vec3::UP),
                7 if self.wild => hit(level, Vec3::new(f32::from_bits(5), 1.0, 0.0)),
                _ => hit(level, Vec3::UP),
            }
        }
    }

    #[test]
    fn two_pass_tick_is_the_tick() {
        use crate::rng::Pcg32;
        let specials = [
            0.0,
            -0.0,
            f32::from_bits(1),
            -1.0e-40,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut rng = Pcg32::seeded(23);
        let mut seen = [0u32; 7];
        for run in 0..1500u32 {
            let mut p = [
                MoveParams::seed(),
                MoveParams::quakeworld(),
                MoveParams::quake3(),
                MoveParams::source(),
            ][(run % 4) as usize];
            p.coyote_time = [0.0, 0.1, f32::INFINITY, f32::NAN][rng.below(4) as usize];
            p.jump_buffer_time = [0.0, 0.15][rng.below(2) as usize];
            p.auto_hop = rng.below(2) == 0;
            if run % 10 == 0 {
                let x = specials[rng.below(specials.len() as u32) as usize];
                match rng.below(5) {
                    0 => p.step_up = x,
                    1 => p.ground_snap = x,
                    2 => p.step_down = x,
                    3 => p.max_velocity = x,
                    _ => p.stop_threshold = x,
                }
            }
            let terrain = Terrain { wild: run % 3 == 0 };
            let mut s = MoverState::new(Vec3::new(
                rng.range_f32(-20.0, 20.0),
                rng.range_f32(-0.5, 4.0),
                rng.range_f32(-20.0, 20.0),
            ));
            s.velocity = Vec3::new(
                rng.range_f32(-400.0, 400.0),
                rng.range_f32(-300.0, 300.0),
                rng.range_f32(-400.0, 400.0),
            );
            s.grounded = rng.below(2) == 0;
            if run % 7 == 0 {
                s.velocity.x = specials[rng.below(specials.len() as u32) as usize];
            }
            let mut t = s;
            let dt = [1.0 / 60.0, 0.01, 0.05, 1.0e-7][rng.below(4) as usize];
            for _ in 0..60 {
                let wish = if rng.below(6) == 0 {
                    WishDir::NONE
                } else {
                    WishDir::from_world(Vec2::new(rng.signed_unit(), rng.signed_unit()))
                };
                let jump = rng.below(3) == 0;
                let a = run_tick_still(&mut s, &p, &wish, jump, &terrain, dt);
                let b = run_tick_two_pass(&mut t, &p, &wish, jump, &terrain, dt);
                // What the driver does after every mode's tick.
                (s.jump_held, t.jump_held) = (jump, jump);
                assert_eq!(
                    (a.flags, a.impact_speed.to_bits()),
                    (b.flags, b.impact_speed.to_bits())
                );
                assert_eq!(s.state_hash(), t.state_hash(), "run {run}: {s:?} != {t:?}");
                for (k, n) in seen.iter_mut().enumerate().take(6) {
                    *n += (a.flags >> k) & 1;
                }
                seen[6] += (a.impact_speed > 0.0) as u32;
            }
        }
        // Every flag (jumped, coyote jump, landed, left ground, sliding, wall) and an impact.
        assert!(seen.iter().all(|&n| n > 20), "{seen:?}");
    }
}
