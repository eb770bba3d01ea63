//! Water as QuakeWorld does it (`QW/client/pmove.c`, id Software's Quake source): water levels,
//! swimming where the view looks, water friction and acceleration, the jump key swimming up,
//! the water jump out at the edge, no gravity while swimming.
//!
//! The probe reports the water surface in the column of a point ([`GroundProbe::water`]; default
//! none, and then nothing of this runs). The **water level** is `PM_CatagorizePosition`'s: 0 dry,
//! 1 when the point `water_feet_height` above the feet is under the surface (wading), 2 when the
//! one at `water_waist_height` is too (swimming), 3 when the eyes at `water_eye_height` are
//! (submerged). A point at height `y` is under a surface `s` when `y < s`; a non-finite surface is
//! no water. Crouching does not move these points.
//!
//! One tick, in `PlayerMove`'s order, while the level is 2 or more or a water jump runs (else the
//! normal tick runs, Quake's `PM_AirMove` path):
//! 0. a moving surface or solid moves the swimmer first, as it does a walking body
//!    ([`super::platform`]: carried when grounded on it, pushed out when it moved into the
//!    swimmer; the leaving and landing rules after step 6); if the tick then finds the body out
//!    of the water, that carry is undone (position, velocity, turn) and the walking tick carries it instead;
//! 1. categorise the ground (landing ends a water jump), then the water level;
//! 2. at level 2, `CheckWaterJump`: with no water jump running and not sinking faster than
//!    `water_jump_max_sink`, if the spot `water_jump_reach` ahead (planar view direction) is solid
//!    at `water_jump_wall_height` above the feet (ground above it) and free at
//!    `water_jump_clear_height` (no ground, no water above it), the velocity becomes
//!    `water_jump_push` ahead and `water_jump_speed` up and the water jump timer starts
//!    (`water_jump_time`); a falling character (`vy < 0`) ends it;
//! 3. the jump key (`JumpButton`): during a water jump it counts the timer down; else, swimming,
//!    it sets the upward speed to `swim_up_speed` and leaves the ground;
//! 4. `PM_Friction`'s water branch (none during a water jump): `drop = speed·water_friction·
//!    level·dt` on the whole 3-D velocity; below `stop_threshold` the planar velocity stops;
//! 5. swimming (`PM_WaterMove`): the wish is the view's 3-D forward (yaw and
//!    [`MoveInput::look_up`]) times the front input plus the right vector times the side input,
//!    times `max_speed`, plus `max_speed` straight down while the crouch key is held (the down
//!    move key: `cmd.upmove = −max_speed`, as Quake III's crouch is `+movedown`); with no input
//!    and no crouch key, `water_sink_speed` down; its length capped at `max_speed`, then times
//!    `swim_speed_scale`; `PM_Accelerate` with `water_accel` (none during a water
//!    jump); no gravity; move. Out of the water during a water jump (`PM_AirMove`): no
//!    acceleration, all of a tick's gravity, then the move;
//! 6. walls block the move as in the normal tick (during a water jump the velocity is kept, as
//!    `PM_FlyMove` restores it), then the ground is categorised again; standing on the pool
//!    floor keeps the vertical velocity (Quake's water move steps onto the floor without
//!    clipping it) unless the move clipped it (a wall moving down into the floor; among solids,
//!    the slide move's own clip).
//!
//! **Among solids** ([`GroundProbe::SOLID`], `super::slide`) the same tick, with Quake III's moves
//! (`bg_pmove.c`) in place of the height probe's, out of line (`move_solid`,
//! `categorize_solid`): both ground categorisations are `PM_GroundTrace` (the slide code's
//! ground trace, not sticking; a landing on a moving solid takes its velocity off once, at the
//! tick's end, as before); the swim is `PM_WaterMove`'s — on the ground and moving into it, the
//! velocity clipped along the ground plane keeping its length, then `PM_SlideMove` (no gravity;
//! the ground plane never turned against) — and a water jump is `PM_WaterJumpMove`'s
//! `PM_StepSlideMove`, so it climbs the pool's edge as a step. The box is swept: a swimmer never
//! crosses a solid or ends in one, at any speed. `CheckWaterJump`'s two tests are Quake III's
//! `pointcontents`: a point trace (no size, no length) that starts in a solid, not
//! [`GroundProbe::height`]: a probe's ground for a point inside a solid is not defined
//! ([`crate::collide::Solid`]'s answers none there, so the edge would never be found), and a
//! world of solids answers the question itself with one trace. The water level stays the
//! probe's [`GroundProbe::water`].
//!
//! Differences from `pmove.c`, from hopkit's height-probe world: the body is a point column
//! (no hull: walls are ground more than `step_up` above the feet, "solid" at a point is ground
//! above it), the water type is always water (no slime or lava speeds), the up move is the jump
//! key's `JumpButton` only (no `+moveup` key) and the down move the crouch key at `max_speed`
//! (QuakeWorld's `+movedown` gives `cl_upspeed`), and the water jump's flight has no air
//! acceleration until it ends. Among solids, from Quake III's `bg_pmove.c`: the rules above are
//! kept (the levels, the jump key, the friction, no gravity in a water jump while level ≥ 2 and
//! all of a tick's gravity before the move out of the water, the water jump's velocity restored
//! after each move as QuakeWorld's `PM_FlyMove` does — Quake III keeps the clipped one), the
//! ground trace snaps the feet (`ground_snap`) and keeps the vertical velocity the slide move
//! left (Quake III's does not touch it), and the keep-the-length clip is skipped for a velocity
//! whose part along the plane is no more than `OVERCLIP`'s 0.1 % (straight into the floor,
//! where Quake III turns the overshoot into the whole speed straight up: a sinking swimmer would
//! bounce off the pool's floor).
//!
//! [`super::step`] chooses this mode every tick ([`swimming`]), as Quake III's `PmoveSingle`
//! does; [`super::step_wish`] and [`super::tick`] (walking and in the air only, with no view
//! pitch) do not swim. A probe that does not override `water` costs nothing.

use super::contact::{categorize_ground, categorize_hit, resolve_walls, Contact};
use super::jump::key_pressed;
use super::kernels::{unit_facing, WishDir};
use super::params::MoveParams;
use super::state::{guard_state, MoveInput, MoverState, StepEvents};
use crate::ground::GroundProbe;
use crate::math::{scalar, Vec2, Vec3};

/// True when [`super::step`] runs this tick in water (`water::tick`): the water level at the feet is 2
/// or more (swimming), or a water jump runs (a timer that is not 0; the driver has repaired a bad
/// one).
#[inline(always)]
pub(crate) fn swimming(probe: &impl GroundProbe, state: &MoverState, params: &MoveParams) -> bool {
    state.water_jump_timer != 0.0 || level(probe, state.position, params) >= 2
}

/// The water level (0–3, see the module docs) of a character with its feet at `feet`.
#[inline]
pub fn level(probe: &impl GroundProbe, feet: Vec3, params: &MoveParams) -> u8 {
    level_below(probe.water(feet), feet, params)
}

/// The water level of feet at `feet` under a water surface at `surface` (`None` or non-finite:
/// no water, 0).
#[inline]
pub(crate) fn level_below(surface: Option<f32>, feet: Vec3, params: &MoveParams) -> u8 {
    let s = match surface {
        Some(s) if s.is_finite() => s,
        _ => return 0,
    };
    let under = |h: f32| feet.y + h < s;
    if !under(params.water_feet_height) {
        0
    } else if !under(params.water_waist_height) {
        1
    } else if !under(params.water_eye_height) {
        2
    } else {
        3
    }
}

/// The swimming wish of one call: `PM_WaterMove`'s `wishdir` and `wishspeed` (after the cap and
/// `swim_speed_scale`), and the planar view direction for the water jump.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct SwimWish {
    /// Unit 3-D wish direction, or zero.
    pub dir: Vec3,
    /// Wish speed, units/s (≥ 0).
    pub speed: f32,
    /// Planar unit view direction `(x, z)` (`CheckWaterJump`'s `flatforward`).
    pub flat: Vec2,
}

impl SwimWish {
    /// From the input's view (`facing`, `look_up`) and `wish`, its world wish (with any crouch
    /// scale applied): see the module docs, step 5. Non-finite parts give no wish.
    pub(crate) fn new(input: &MoveInput, wish: WishDir, params: &MoveParams) -> SwimWish {
        let wish = wish.sanitized();
        let f = unit_facing(input.facing);
        let lu = input.look_up;
        let lu = if lu.is_nan() {
            0.0
        } else {
            crate::math::clamp(lu, -1.0, 1.0)
        };
        let c2 = 1.0 - lu * lu;
        let cp = scalar::sqrt(if c2 > 0.0 { c2 } else { 0.0 });
        let w = wish.dir * wish.scale;
        let front = w.x * f.x + w.y * f.y;
        let k = front * (cp - 1.0);
        let m = params.max_speed;
        let mut v = Vec3::new((w.x + f.x * k) * m, front * lu * m, (w.y + f.y * k) * m);
        if input.crouch {
            // The down move key: `wishvel[2] += cmd.upmove`.
            v.y -= m;
        } else if !(wish.scale > 0.0) {
            // "drift towards bottom"
            v.y -= params.water_sink_speed;
        }
        let none = SwimWish {
            dir: Vec3::ZERO,
            speed: 0.0,
            flat: f,
        };
        let l2 = v.length_squared();
        if !(l2 > 0.0) || !(l2 <= f32::MAX) {
            return none;
        }
        let len = scalar::sqrt(l2);
        let dir = v * (1.0 / len);
        let mut speed = len;
        if speed > m {
            speed = m;
        }
        speed *= params.swim_speed_scale;
        if !((0.0..=f32::MAX).contains(&speed) && dir.is_finite()) {
            return none;
        }
        SwimWish {
            dir,
            speed,
            flat: f,
        }
    }
}

/// A categorisation's result added to the events.
fn add_contact(ev: &mut StepEvents, c: Contact) {
    ev.landed |= c.landed;
    ev.left_ground |= c.left_ground;
    ev.sliding |= c.sliding;
    if c.impact_speed > ev.impact_speed {
        ev.impact_speed = c.impact_speed;
    }
}

/// Categorise with `hit` (the probe result at the feet) or by probing, keeping the vertical
/// velocity (with `keep_vy`) when the character ends grounded (Quake's water move steps onto the
/// floor without clipping it; only a move that hit a wall, Quake's `PM_FlyMove`, clips it), and
/// ending a water jump on the ground (`PM_CatagorizePosition`).
/// The height-probe world's; among solids [`categorize_solid`].
fn categorize_in_water(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &impl GroundProbe,
    hit: Option<Option<crate::ground::GroundHit>>,
    keep_vy: bool,
    ev: &mut StepEvents,
) {
    let vy = state.velocity.y;
    let c = match hit {
        Some(hit) => categorize_hit(state, params, hit, false),
        None => categorize_ground(state, params, probe, false),
    };
    add_contact(ev, c);
    if state.grounded {
        if keep_vy {
            state.velocity.y = vy;
        }
        state.water_jump_timer = 0.0;
    }
}

/// One tick in water (module docs) of `dt` seconds, the state repaired and `wish` (the input's
/// world wish, crouch scale applied) sanitised by the driver, which runs it while [`swimming`].
/// Returns false, having only categorised the ground, when that finds the character out of the
/// water (level below 2, no water jump): the driver then runs the walking tick.
/// Out of line: the rare path keeps its own stack frame (inlined, its locals would widen every
/// tick's frame; the wasm32 cart's stack is 16 KiB).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(super) fn tick<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    input: &MoveInput,
    wish: &WishDir,
    probe: &P,
    dt: f32,
    ev: &mut StepEvents,
) -> bool {
    let swim = SwimWish::new(input, *wish, params);
    let jump = input.jump;
    // The pushers first (Quake III's `G_MoverPush` moves a swimmer as any entity): a swimmer
    // grounded on a moving floor is carried, one a moving solid moved into is pushed out.
    let start = (state.position, state.velocity, ev.carried_yaw);
    let was_grounded = state.grounded;
    let carried = super::platform::carry_swimmer(state, params, probe, dt, ev);
    let moved = carried.is_some() || state.position != start.0 || ev.carried_yaw != start.2;
    // PM_CatagorizePosition.
    if P::SOLID {
        categorize_solid(state, params, probe, true, ev);
    } else {
        categorize_in_water(state, params, probe, None, true, ev);
    }
    let level = level(probe, state.position, params);
    if level == 2 && check_water_jump(state, params, swim.flat, probe) {
        ev.jumped = true;
    }
    if state.velocity.y < 0.0 {
        state.water_jump_timer = 0.0;
    }
    if level < 2 && state.water_jump_timer == 0.0 {
        // Out of the water, no water jump: the walking tick (its categorisation finds the same).
        // It carries the body itself: a carry made here is undone (position, velocity, turn).
        if moved {
            (state.position, state.velocity, ev.carried_yaw) = start;
        }
        return false;
    }
    state.jump_rising = false;
    // JumpButton.
    key_pressed(state, jump);
    if jump {
        if state.water_jump_timer != 0.0 {
            let t = state.water_jump_timer - dt;
            state.water_jump_timer = if t > 0.0 { t } else { 0.0 };
        } else if level >= 2 {
            state.grounded = false;
            state.velocity.y = params.swim_up_speed;
        }
    }
    // PM_Friction (its water branch).
    if state.water_jump_timer == 0.0 && level >= 2 {
        water_friction(&mut state.velocity, params, level, dt);
    }
    let before = state.position;
    if level >= 2 {
        // PM_WaterMove.
        if state.water_jump_timer == 0.0 {
            accelerate(
                &mut state.velocity,
                swim.dir,
                swim.speed,
                params.water_accel,
                dt,
            );
        }
    } else {
        // PM_AirMove during a water jump: PM_AirAccelerate returns, then gravity.
        state.velocity.y -= params.gravity * dt;
    }
    if P::SOLID {
        // Among solids: swept through the solids ([`move_solid`]), then the ground trace.
        move_solid(state, params, probe, dt, ev);
        categorize_solid(state, params, probe, true, ev);
    } else {
        let primal = state.velocity;
        state.position += state.velocity * dt;
        if !state.position.is_finite() || !state.velocity.is_finite() {
            state.position = before;
            state.velocity = Vec3::ZERO;
        }
        let (hit, walled) = resolve_walls(state, params, probe, before);
        ev.hit_wall |= walled;
        if state.water_jump_timer != 0.0 {
            // PM_FlyMove: `if (pmove.waterjumptime) VectorCopy (primal_velocity, pmove.velocity)`.
            state.velocity = primal;
        }
        // Quake's water move stands on the floor without clipping `vy`; `PM_FlyMove` (a move
        // that hit a wall) clips it only moving down into the floor; a water jump restores it.
        let keep_vy =
            state.water_jump_timer != 0.0 || (level >= 2 && (!walled || state.velocity.y > 0.0));
        categorize_in_water(state, params, probe, Some(hit), keep_vy, ev);
    }
    // The platform rules after the tick: a carried swimmer that left the floor keeps its
    // velocity, one that landed on a moving surface (among solids, a moving solid) has it taken
    // off — once a tick, on the tick's landing (grounded now, not at its start), as before the
    // ground traces (a swimmer put on the floor by the first one and leaving it again in the
    // same tick has not landed).
    super::platform::settle(state, params, probe, carried, was_grounded);
    if P::SOLID && !was_grounded && state.grounded {
        super::platform::land_on_solid(state, params, probe);
    }
    let _ = guard_state(state, params, before);
    super::jump::tick_jump_timers_flushed(state, dt);
    state.flush_subnormals();
    true
}

/// [`categorize_in_water`] among solids (module docs, "Among solids"): Quake III's
/// `PM_GroundTrace` ([`super::slide::ground_trace`], not sticking: the water tick has no
/// `step_down` pull), the vertical velocity kept on the ground with `keep_vy` (Quake III's ground
/// trace leaves the velocity alone; the slide move has already clipped what went into the
/// floor), and a water jump ended on the ground. The landing rule on a moving solid
/// ([`super::platform::land_on_solid`]) is the tick's, after it (as before the traces), not the
/// trace's. Out of line, as the ladder's solid tick: only swimming ticks among solids reach it.
#[inline(never)]
fn categorize_solid<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &P,
    keep_vy: bool,
    ev: &mut StepEvents,
) {
    let vy = state.velocity.y;
    let was = state.grounded;
    let body = super::slide::body_box(state, params);
    // Traced as grounded, so the trace's own landing rule (the moving solid's velocity taken
    // off) does not run: the tick applies it once, at its end. The events are the same.
    state.grounded = true;
    let f = super::slide::ground_trace(probe, params, state, body, false);
    let landed = !was && state.grounded;
    ev.landed |= landed;
    ev.left_ground |= was && !state.grounded;
    ev.sliding |= f.sliding;
    if landed && vy < 0.0 {
        let impact = crate::math::finite_or(-vy, f32::MAX);
        if impact > ev.impact_speed {
            ev.impact_speed = impact;
        }
    }
    if state.grounded {
        if keep_vy {
            state.velocity.y = vy;
        }
        state.water_jump_timer = 0.0;
    }
}

/// The move of a water tick among solids (module docs, "Among solids"), its velocity already
/// accelerated (and, out of the water during a water jump, pulled down by the tick's gravity):
/// during a water jump Quake III's `PM_WaterJumpMove` (`PM_StepSlideMove`, so the jump climbs
/// the pool's edge as a step), its velocity then restored (hopkit's water-jump rule, QuakeWorld's
/// `PM_FlyMove`); else `PM_WaterMove`: on the ground and moving into it, the velocity slid along
/// the ground plane keeping its length ([`along_ground_keeping_length`]), then `PM_SlideMove`
/// (the ground plane never turned against). The box is swept: it never ends in a solid or
/// crosses one, at any speed. Out of line, as the ladder's solid tick.
#[inline(never)]
fn move_solid<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &P,
    dt: f32,
    ev: &mut StepEvents,
) {
    use super::slide;
    let body = slide::body_box(state, params);
    let hits = if state.water_jump_timer != 0.0 {
        let primal = state.velocity;
        let hits = slide::step_slide_move(probe, params, state, body, dt, None);
        state.velocity = primal;
        hits
    } else {
        let ground = if state.grounded {
            let n = state.ground_normal;
            state.velocity = along_ground_keeping_length(state.velocity, n);
            Some(n)
        } else {
            None
        };
        let (mut pos, mut vel) = (state.position, state.velocity);
        let hits = slide::slide_move(
            probe, params, &mut pos, &mut vel, body.0, body.1, dt, ground,
        );
        (state.position, state.velocity) = (pos, vel);
        hits
    };
    ev.hit_wall |= hits.wall;
}

/// Quake III `PM_WaterMove`'s "make sure we can go up slopes easily under water": a velocity `v`
/// going into the ground plane `n` is clipped along it ([`super::slide::clip_velocity`],
/// `OVERCLIP`) and given back its length. Unchanged when it does not go into the plane, or
/// when its part along the plane is no more than the clip's 0.1 % overshoot (straight into the
/// floor: Quake III would turn that overshoot into the whole speed, straight up, and a swimmer
/// sinking onto the pool's floor would bounce; hopkit keeps the clipped velocity, about 0).
pub(super) fn along_ground_keeping_length(v: Vec3, n: Vec3) -> Vec3 {
    let into = v.dot(n);
    if !(into < 0.0) {
        return v;
    }
    let clipped = super::slide::clip_velocity(v, n, super::slide::OVERCLIP);
    let l2 = v.length_squared();
    let c2 = clipped.length_squared();
    // The part along the plane, squared: |v|² − (v·n)² (n unit).
    let along2 = l2 - into * into;
    let overshoot = (super::slide::OVERCLIP - 1.0) * into;
    if !(along2 > overshoot * overshoot) || !(c2 > 0.0) || !(l2 <= f32::MAX) {
        return clipped;
    }
    let out = clipped * scalar::sqrt(l2 / c2);
    if out.is_finite() {
        out
    } else {
        clipped
    }
}

/// QuakeWorld `PM_Friction`'s water branch: `speed = |v|`; below `stop_threshold` (Quake 1) the
/// planar velocity stops; else `v *= max(speed − speed·water_friction·level·dt, 0) / speed`.
fn water_friction(v: &mut Vec3, params: &MoveParams, level: u8, dt: f32) {
    let speed = scalar::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if speed < params.stop_threshold {
        v.x = 0.0;
        v.z = 0.0;
        return;
    }
    if !(speed > 0.0 && speed <= f32::MAX) {
        return;
    }
    let drop = speed * params.water_friction * level as f32 * dt;
    let mut newspeed = speed - drop;
    if !(newspeed >= 0.0) {
        newspeed = 0.0;
    }
    newspeed /= speed;
    *v *= newspeed;
}

/// QuakeWorld `PM_Accelerate` in 3-D: add up to `accel·dt·wishspeed` along `dir`, never past
/// `wishspeed` along it.
fn accelerate(v: &mut Vec3, dir: Vec3, wishspeed: f32, accel: f32, dt: f32) {
    let current = v.x * dir.x + v.y * dir.y + v.z * dir.z;
    let add = wishspeed - current;
    if !(add > 0.0) {
        return;
    }
    let mut a = accel * dt * wishspeed;
    if a > add {
        a = add;
    }
    if !(0.0..=f32::MAX).contains(&a) {
        return;
    }
    *v += dir * a;
}

/// QuakeWorld `CheckWaterJump` (module docs, step 2). Returns whether it jumped.
fn check_water_jump<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    flat: Vec2,
    probe: &P,
) -> bool {
    if state.water_jump_timer != 0.0 {
        return false;
    }
    if state.velocity.y < -params.water_jump_max_sink {
        return false;
    }
    let p = state.position;
    let r = params.water_jump_reach;
    let mut spot = Vec3::new(
        p.x + flat.x * r,
        p.y + params.water_jump_wall_height,
        p.z + flat.y * r,
    );
    if !spot.is_finite() {
        return false;
    }
    // Solid: ground above the spot (among solids: the spot in a solid).
    if !solid_at(probe, spot) {
        return false;
    }
    spot.y = p.y + params.water_jump_clear_height;
    // Empty: no ground and no water above it.
    let ground_above = solid_at(probe, spot);
    let water_above = matches!(probe.water(spot), Some(s) if s > spot.y);
    if ground_above || water_above || spot.y.is_nan() {
        return false;
    }
    state.velocity = Vec3::new(
        flat.x * params.water_jump_push,
        params.water_jump_speed,
        flat.y * params.water_jump_push,
    );
    let t = params.water_jump_time;
    state.water_jump_timer = if t > 0.0 && t <= f32::MAX { t } else { 0.0 };
    state.jump_latched = true;
    state.grounded = false;
    true
}

/// `CheckWaterJump`'s "solid" at `spot` (finite): in the height-probe world ground above it in
/// its column; among solids Quake III's `pointcontents`, a point trace that starts in a solid
/// ([`solid_point`]).
#[inline(always)]
fn solid_at<P: GroundProbe>(probe: &P, spot: Vec3) -> bool {
    if P::SOLID {
        return solid_point(probe, spot);
    }
    matches!(probe.height(spot), Some(h) if h > spot.y)
}

/// Whether the point `spot` is inside a solid: a trace of no size and no length
/// ([`super::slide::trace`]) that starts solid. Out of line: among solids only.
#[inline(never)]
fn solid_point(probe: &impl GroundProbe, spot: Vec3) -> bool {
    super::slide::trace(probe, spot, spot, Vec3::ZERO, Vec3::ZERO).start_solid
}
