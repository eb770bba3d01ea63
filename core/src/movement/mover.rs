//! The character: [`MoverState`], [`MoveInput`], [`step`] and the per-tick order.
//!
//! One tick, in Quake order (`PmoveSingle`):
//! 1. categorise ground ([`categorize_ground`](super::contact::categorize_ground));
//! 2. jump key bookkeeping and variable-height cut, then jump — which clears `grounded`, so a
//!    frame-perfect hop pays no friction;
//! 3. friction (ground only) and accelerate / air-accelerate ([`planar_velocity_tick`]);
//! 4. in the air: half of gravity, move, the other half (Source's `StartGravity`/`FinishGravity`:
//!    positions lie exactly on the parabola, so the apex does not depend on the tick rate);
//!    on the ground: move horizontally;
//! 5. block the move at walls (ground higher than `step_up`), then categorise ground again
//!    (landing, snapping, stepping up, leaving ledges, pushing out of steep ground);
//! 6. NaN/overflow guard and the per-axis velocity clamp, then count timers down.

use super::contact::{block_walls, categorize_probed, may_be_wall, probe_ground, Contact};
use super::jump::{
    apply_jump_release_cut, check_jump, jump_gravity_scale, note_jump_key,
    tick_jump_timers_flushed, JumpKind,
};
use super::kernels::{planar_velocity_tick, world_wish, WishDir};
use super::params::MoveParams;
use super::prepared::MAX_BITS;
use crate::ground::GroundProbe;
use crate::hash::{StateHash, StateHasher};
use crate::math::{Vec2, Vec3};
use crate::timestep::SubSteps;

/// A moving character. Plain data; `Copy`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MoverState {
    /// Feet position, world units.
    pub position: Vec3,
    /// Velocity, units/s (`y` is vertical; 0 while grounded).
    pub velocity: Vec3,
    /// Standing on walkable ground (after the last tick's categorisation).
    pub grounded: bool,
    /// Normal of the ground stood on; [`Vec3::UP`] while airborne.
    pub ground_normal: Vec3,
    /// Seconds left in which a jump is still allowed after leaving the ground (coyote time).
    pub coyote_timer: f32,
    /// Seconds left for a buffered jump press.
    pub jump_buffer_timer: f32,
    /// The jump key was down on the last tick (edge detection).
    pub jump_held: bool,
    /// A jump happened and the key has not been released since (release-to-rejump).
    pub jump_latched: bool,
    /// Rising from a jump (for variable jump height); cleared at the apex or on the ground.
    pub jump_rising: bool,
    /// Crouched ([`super::crouch`]): the body is `crouch_height` tall. Hashed only when set, so
    /// the hash of a character that never crouches is what it was before crouching existed.
    pub crouched: bool,
    /// Seconds left of a water jump ([`super::water`], Quake's `waterjumptime`); 0 when none.
    /// A step repairs a negative, infinite or NaN value to 0. Hashed only when not 0, so the hash
    /// of a character that never jumps out of water is what it was before water existed.
    pub water_jump_timer: f32,
}

impl Default for MoverState {
    fn default() -> Self {
        MoverState::new(Vec3::ZERO)
    }
}

impl MoverState {
    /// At rest at `position` (feet), airborne until the first tick categorises the ground.
    pub const fn new(position: Vec3) -> Self {
        MoverState {
            position,
            velocity: Vec3::ZERO,
            grounded: false,
            ground_normal: Vec3::UP,
            coyote_timer: 0.0,
            jump_buffer_timer: 0.0,
            jump_held: false,
            jump_latched: false,
            jump_rising: false,
            crouched: false,
            water_jump_timer: 0.0,
        }
    }

    /// Horizontal speed `|(vx, vz)|`, units/s (one sqrt).
    pub fn planar_speed(&self) -> f32 {
        self.velocity.planar().length()
    }

    /// Every float field through [`crate::math::scalar::flush_subnormal`], as every tick ends:
    /// friction scales the velocity by a factor per tick, and a small sideways component would
    /// otherwise decay into subnormals and stay there (slow, and never exactly zero).
    pub fn flush_subnormals(&mut self) {
        use crate::math::scalar::flush_subnormal as f;
        self.position = self.position.flush_subnormal();
        self.velocity = self.velocity.flush_subnormal();
        self.ground_normal = self.ground_normal.flush_subnormal();
        self.coyote_timer = f(self.coyote_timer);
        self.jump_buffer_timer = f(self.jump_buffer_timer);
        self.water_jump_timer = f(self.water_jump_timer);
    }

    /// True if every float field is finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.motion_is_finite()
            && self.ground_normal.is_finite()
            && self.water_jump_timer.is_finite()
    }

    /// True if the position, velocity and timers are finite (every float field but the ground
    /// normal, which a step's first categorisation overwrites before anything reads it).
    #[inline]
    fn motion_is_finite(&self) -> bool {
        if crate::math::scalar::HARD_FLOAT_ARM {
            self.motion_is_finite_by_products()
        } else {
            self.motion_is_finite_by_flags()
        }
    }

    /// [`MoverState::motion_is_finite`] as one OR over the fields' exponent flags (integer
    /// operations).
    #[inline]
    fn motion_is_finite_by_flags(&self) -> bool {
        use crate::math::scalar::{nonfinite_flag as f, NONFINITE};
        let (p, v) = (self.position, self.velocity);
        let any = f(p.x) | f(p.y) | f(p.z) | f(v.x) | f(v.y) | f(v.z);
        let any = any | f(self.coyote_timer) | f(self.jump_buffer_timer);
        any & NONFINITE == 0
    }

    /// [`MoverState::motion_is_finite`] on an FPU: `x·0` is `±0` for a finite `x` and NaN for
    /// `±inf` or NaN, and a sum of zeros is a zero, so the sum of every field times zero is NaN
    /// exactly when a field is not finite — one multiply-accumulate per field and one compare.
    #[inline]
    fn motion_is_finite_by_products(&self) -> bool {
        let (p, v) = (self.position, self.velocity);
        let z = p.x * 0.0 + p.y * 0.0 + p.z * 0.0 + v.x * 0.0 + v.y * 0.0 + v.z * 0.0;
        let z = z + self.coyote_timer * 0.0 + self.jump_buffer_timer * 0.0;
        !z.is_nan()
    }
}

impl StateHash for MoverState {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_vec3(self.position);
        h.write_vec3(self.velocity);
        h.write_bool(self.grounded);
        h.write_vec3(self.ground_normal);
        h.write_f32(self.coyote_timer);
        h.write_f32(self.jump_buffer_timer);
        h.write_bool(self.jump_held);
        h.write_bool(self.jump_latched);
        h.write_bool(self.jump_rising);
        if self.crouched {
            h.write_bool(true);
        }
        if self.water_jump_timer != 0.0 {
            h.write_f32(self.water_jump_timer);
        }
    }
}

/// One tick's (or frame's) player input.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MoveInput {
    /// Wish in the view frame, the seed's `(front, right)`: `x` = front (+ forward, W), `y` = right
    /// (+ right, D). Length ≤ 1 is the analog scale (longer clamps to 1, so keyboard `(1, 1)` is
    /// full speed); normalised inside, zero-safe; NaN/inf → no input.
    pub wish: Vec2,
    /// Jump key down.
    pub jump: bool,
    /// Crouch key down ([`super::crouch`]; applied by [`step`]). Default false.
    pub crouch: bool,
    /// The view's planar unit forward in world `(x, z)` = `math::yaw_forward(yaw)`
    /// ([`MoveInput::with_yaw`] computes it). Kept as a vector so the tick needs no trigonometry.
    /// Non-unit is normalised, zero/NaN means yaw 0 (−Z).
    pub facing: Vec2,
    /// The view's pitch as the vertical part of its unit forward vector (the sine of the pitch:
    /// +1 looking straight up, −1 straight down; [`MoveInput::with_pitch`] computes it). Only
    /// swimming reads it ([`super::water`]: forward swims where the view looks). Clamped to
    /// `[−1, 1]`, NaN means level. Default 0.
    pub look_up: f32,
}

impl Default for MoveInput {
    fn default() -> Self {
        MoveInput {
            wish: Vec2::ZERO,
            jump: false,
            crouch: false,
            facing: Vec2::new(0.0, -1.0),
            look_up: 0.0,
        }
    }
}

impl MoveInput {
    /// Input with an explicit planar unit `facing` `(x, z)`.
    pub const fn new(wish: Vec2, jump: bool, facing: Vec2) -> Self {
        MoveInput {
            wish,
            jump,
            crouch: false,
            facing,
            look_up: 0.0,
        }
    }

    /// The same input with the crouch key down or up.
    pub const fn with_crouch(self, crouch: bool) -> Self {
        MoveInput { crouch, ..self }
    }

    /// The same input with the view pitched by `pitch` radians (positive looks up; one sin here):
    /// [`MoveInput::look_up`] = `sin(pitch)`.
    pub fn with_pitch(self, pitch: f32) -> Self {
        MoveInput {
            look_up: crate::math::scalar::sin(pitch),
            ..self
        }
    }

    /// Input with the view yaw in radians (0 faces −Z, positive turns left); one sin/cos here.
    pub fn with_yaw(wish: Vec2, jump: bool, yaw: f32) -> Self {
        MoveInput {
            wish,
            jump,
            crouch: false,
            facing: super::kernels::facing_from_yaw(yaw),
            look_up: 0.0,
        }
    }

    /// The world-space wish ([`world_wish`]); cache it if the input does not change.
    pub fn world_wish(&self) -> WishDir {
        world_wish(self.wish, self.facing)
    }
}

/// What happened during a [`step`] (over all its sub-steps).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StepEvents {
    /// A jump happened.
    pub jumped: bool,
    /// The jump used coyote time (the character had already left the ground).
    pub coyote_jump: bool,
    /// The character landed.
    pub landed: bool,
    /// The character left the ground without jumping (walked off, ground fell away).
    pub left_ground: bool,
    /// The character touched ground too steep to stand on.
    pub sliding: bool,
    /// A move was blocked by a wall (ground higher than `step_up`).
    pub hit_wall: bool,
    /// Largest downward speed at a landing, units/s (0 if none).
    pub impact_speed: f32,
    /// Ticks simulated (sub-steps of `dt`).
    pub substeps: u32,
    /// Seconds of `dt` not simulated because of the long-frame clamp (`+inf` for `dt = +inf`).
    pub dropped_time: f32,
    /// `dt` was NaN or ≤ 0 and nothing happened.
    pub rejected: bool,
    /// Radians the ground turned the character (a turning platform, [`super::platform`]); add
    /// it to the view yaw to turn with the platform. 0 off moving surfaces.
    pub carried_yaw: f32,
}

impl StepEvents {
    /// Nothing happened yet (the same as `Default`, written out so a step starts from a constant
    /// instead of zeroing memory).
    pub const NONE: StepEvents = StepEvents {
        jumped: false,
        coyote_jump: false,
        landed: false,
        left_ground: false,
        sliding: false,
        hit_wall: false,
        impact_speed: 0.0,
        substeps: 0,
        dropped_time: 0.0,
        rejected: false,
        carried_yaw: 0.0,
    };

    /// The result of a rejected `dt`.
    pub const REJECTED: StepEvents = StepEvents {
        rejected: true,
        ..StepEvents::NONE
    };

    /// Add the events of a later step or [`tick`] to these (what [`step`] does over its
    /// sub-steps): flags are or-ed, the impact speed is the larger one, sub-steps and dropped
    /// time are summed, carried yaw added up.
    pub fn merge(&mut self, later: StepEvents) {
        self.jumped |= later.jumped;
        self.coyote_jump |= later.coyote_jump;
        self.landed |= later.landed;
        self.left_ground |= later.left_ground;
        self.sliding |= later.sliding;
        self.hit_wall |= later.hit_wall;
        if later.impact_speed > self.impact_speed {
            self.impact_speed = later.impact_speed;
        }
        self.substeps = self.substeps.saturating_add(later.substeps);
        self.dropped_time += later.dropped_time;
        self.rejected |= later.rejected;
        if later.carried_yaw != 0.0 {
            self.carried_yaw =
                crate::math::scalar::flush_subnormal(self.carried_yaw + later.carried_yaw);
        }
    }
}

/// Advance the character by `dt` seconds.
///
/// - `dt` NaN or ≤ 0: nothing happens, [`StepEvents::rejected`] is set.
/// - `dt > params.max_tick_dt`: split into equal sub-steps (via [`SubSteps`]); at most
///   `params.max_substeps` of them (default 0.05 s × 8 = 0.4 s); longer time, `+inf` included, is
///   dropped and reported in [`StepEvents::dropped_time`]. With a fixed tick (`dt ≤ max_tick_dt`) a
///   step is exactly one tick.
/// - Non-finite input is sanitised ([`MoveInput`]); a state containing NaN/inf is repaired first
///   (non-finite velocity components → 0, non-finite position → origin).
/// - Crouching ([`MoveInput::crouch`]) is applied once, before the ticks ([`super::crouch`]);
///   on a ladder the whole call climbs ([`super::ladder`]); in water (the probe reports some at
///   the feet) or during a water jump, the ticks are [`super::water`]'s.
pub fn step(
    state: &mut MoverState,
    params: &MoveParams,
    input: &MoveInput,
    probe: &impl GroundProbe,
    dt: f32,
) -> StepEvents {
    if !(dt > 0.0) {
        return StepEvents::REJECTED;
    }
    // Before the crouch, ladder and water tests read the state (and hand its position to the
    // probe); the entry point below then skips its own check (`Checked::Repaired`).
    repair_state(state);
    let wish = if input.crouch || state.crouched {
        super::crouch::prepare(state, params, input, probe)
    } else {
        input.world_wish()
    };
    let r = Checked::Repaired;
    if let Some(n) = super::ladder::touching(probe, state, params, wish) {
        return super::ladder::climb_checked(state, params, n, wish, input.jump, probe, dt, r);
    }
    if super::water::wet(probe, state) {
        return super::water::step_checked(state, params, input, wish, probe, dt, r);
    }
    step_wish_checked(state, params, wish, input.jump, probe, dt, r)
}

/// [`step`] with an already converted world-space wish (cached by the caller), saving its sqrt.
pub fn step_wish(
    state: &mut MoverState,
    params: &MoveParams,
    wish: WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
) -> StepEvents {
    step_wish_checked(state, params, wish, jump, probe, dt, Checked::No)
}

/// [`step_wish`], told whether the state is already repaired.
#[inline(always)]
fn step_wish_checked(
    state: &mut MoverState,
    params: &MoveParams,
    wish: WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
    checked: Checked,
) -> StepEvents {
    let Some((split, mut ev)) = begin_step(state, params, dt, checked) else {
        return StepEvents::REJECTED;
    };
    let wish = wish.sanitized();
    for _ in 0..split.count {
        carry_and_tick(state, params, &wish, jump, probe, split.step, &mut ev);
    }
    ev
}

/// One simulation tick of `dt` seconds (`0 < dt ≤ max_tick_dt`), Quake order: what [`step_wish`]
/// runs per sub-step, without its checks of `dt`, the wish and the state. The events are this
/// tick's (`substeps` 1); [`StepEvents::merge`] adds them up over several ticks as [`step`] does.
pub fn tick(
    state: &mut MoverState,
    params: &MoveParams,
    wish: WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
) -> StepEvents {
    let mut ev = StepEvents::NONE;
    ev.substeps = 1;
    carry_and_tick(state, params, &wish, jump, probe, dt, &mut ev);
    ev
}

/// One tick as [`step_wish`] and [`tick`] run it: first the platform under the character carries
/// it (its yaw added to `ev.carried_yaw`; nothing for a still ground), then [`run_tick`], its
/// events added to `ev`.
#[inline(always)]
pub(super) fn carry_and_tick(
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
        ev.carried_yaw = crate::math::scalar::flush_subnormal(ev.carried_yaw + turned);
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
    let carried = super::platform::carry(state, probe, dt);
    let out = run_tick_still(state, params, wish, jump, probe, dt);
    super::platform::settle(state, probe, carried, was_grounded, params.max_velocity);
    out
}

/// The tick itself, in Quake order: categorise the ground, jump and move ([`jump_and_move`]),
/// categorise the ground again, then guard, count the timers down and flush.
fn run_tick_still(
    state: &mut MoverState,
    params: &MoveParams,
    wish: &WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
) -> TickEvents {
    use crate::math::scalar::{HARD_FLOAT_ARM, SOFT_FLOAT};
    if SOFT_FLOAT || HARD_FLOAT_ARM {
        return run_tick_two_pass(state, params, wish, jump, probe, dt);
    }
    let mut out = TickEvents::NONE;
    ground_check(state, params, probe, None, &mut out);
    // Out of the ground after the first categorisation: a safe place to fall back to.
    let start_position = state.position;
    out.flags |= jump_and_move(state, params, wish, jump, dt);
    ground_check(state, params, probe, Some(start_position), &mut out);
    end_tick(state, params, jump, dt, start_position, out)
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
            return end_tick(state, params, jump, dt, start_position, out);
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
    jump: bool,
    dt: f32,
    start_position: Vec3,
    out: TickEvents,
) -> TickEvents {
    let repaired = guard_state(state, params, start_position);
    tick_jump_timers_flushed(state, dt);
    state.jump_held = jump;
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
    if state.grounded {
        move_on_ground(state, dt);
    } else {
        let g = params.gravity * jump_gravity_scale(state, params, jump);
        move_in_air(state, g, dt);
    }
    flags
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

/// `params.max_velocity`'s clamp of a velocity, the one every path applies (the tick's guard, a
/// platform's velocity added after it, the ladder): each component to `±max` with
/// [`clamp_axis`].
#[inline]
pub(super) fn clamp_velocity(v: Vec3, max: f32) -> Vec3 {
    Vec3::new(
        clamp_axis(v.x, max),
        clamp_axis(v.y, max),
        clamp_axis(v.z, max),
    )
}

/// Per-axis clamp to `±max` (a NaN `max` leaves `x` alone); NaN `x` → 0.
#[inline]
fn clamp_axis(x: f32, max: f32) -> f32 {
    if x.is_nan() {
        0.0
    } else if x > max {
        max
    } else if x < -max {
        -max
    } else {
        x
    }
}

/// Last-resort guard: velocity components clamped to `±max_velocity` (NaN → 0), and a position that
/// became non-finite is put back to `previous` with the velocity zeroed. Returns false if nothing
/// could have changed (the common case).
#[inline]
pub(super) fn guard_state(state: &mut MoverState, params: &MoveParams, previous: Vec3) -> bool {
    use crate::math::scalar::{nonfinite_flag, NONFINITE};
    let m = params.max_velocity.to_bits();
    let (v, p) = (state.velocity, state.position);
    // The common case, decided on the bit patterns (integer compares, no float compare): `m`
    // finite and not negative (its bits at most `f32::MAX`'s), every velocity component within
    // `±m` (for such an `m`, `|x| ≤ m` is "the bits of `|x|` at most `m`'s"; a NaN's are larger),
    // so the clamp changes nothing and the velocity is finite; and a finite position. Anything
    // else takes the exact repair.
    let abs = |x: f32| x.to_bits() & 0x7fff_ffff;
    let position_finite =
        (nonfinite_flag(p.x) | nonfinite_flag(p.y) | nonfinite_flag(p.z)) & NONFINITE == 0;
    if m <= MAX_BITS && abs(v.x) <= m && abs(v.y) <= m && abs(v.z) <= m && position_finite {
        return false;
    }
    clamp_or_restore(state, params.max_velocity, previous);
    true
}

/// [`guard_state`]'s repair: the per-axis clamp, then a non-finite velocity or position reset.
/// Out of line: the common case never calls it.
#[cold]
#[inline(never)]
fn clamp_or_restore(state: &mut MoverState, m: f32, previous: Vec3) {
    state.velocity = clamp_velocity(state.velocity, m);
    if !state.velocity.is_finite() {
        state.velocity = Vec3::ZERO;
    }
    if !state.position.is_finite() {
        state.position = previous;
        state.velocity = Vec3::ZERO;
    }
}

/// Whether an entry point still has to repair the state ([`begin_step`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Checked {
    /// Called by the user: repair it.
    No,
    /// Called by [`step`], which repaired it before its crouch, ladder and water tests.
    Repaired,
}

/// What every sub-stepping entry point ([`step_wish`], [`super::water::step`],
/// [`super::ladder::climb`]) does before its ticks, in one place:
///
/// - `dt` NaN or ≤ 0: `None` (the caller returns [`StepEvents::REJECTED`]), the state untouched;
/// - a state handed in with NaN/inf is repaired ([`repair_state`]), unless `checked` says
///   [`step`] did that already;
/// - `dt` is split into sub-steps ([`split_dt`]); none to run (every second dropped) is `None`
///   too, with the ground normal repaired (no tick will overwrite it);
/// - else the split, and the events to fill with `substeps` and `dropped_time` set.
#[inline(always)]
pub(super) fn begin_step(
    state: &mut MoverState,
    params: &MoveParams,
    dt: f32,
    checked: Checked,
) -> Option<(SubSteps, StepEvents)> {
    if !(dt > 0.0) {
        return None;
    }
    if checked == Checked::No {
        repair_state(state);
    }
    let split = split_dt(params, dt);
    if split.count == 0 {
        repair_ground_normal(state);
        return None;
    }
    let mut ev = StepEvents::NONE;
    ev.substeps = split.count;
    ev.dropped_time = split.dropped;
    Some((split, ev))
}

/// Repair a state that was handed in with bad fields: non-finite position and velocity
/// components and timers become 0, and so does a water jump timer that is negative. The ground
/// normal is not looked at: every tick's first categorisation overwrites it before anything reads
/// it (only a step that then runs no tick repairs it, [`repair_ground_normal`]). The common case
/// costs one float check of the motion and one integer compare of the water jump timer.
#[inline]
pub(super) fn repair_state(state: &mut MoverState) {
    if state.motion_is_finite()
        && crate::math::scalar::nonnegative_finite_bits(state.water_jump_timer)
    {
        return;
    }
    repair_state_fields(state);
}

/// [`repair_state`]'s repair (inline: kept out of line as `#[cold]`, it grew the board image by
/// 444 bytes and saved the M4F full step 3 instructions).
#[inline]
fn repair_state_fields(state: &mut MoverState) {
    state.position = state.position.sanitize();
    state.velocity = state.velocity.sanitize();
    state.coyote_timer = crate::math::finite_or(state.coyote_timer, 0.0);
    state.jump_buffer_timer = crate::math::finite_or(state.jump_buffer_timer, 0.0);
    if !crate::math::scalar::nonnegative_finite_bits(state.water_jump_timer) {
        state.water_jump_timer = 0.0;
    }
}

/// The sub-steps of a step of `dt > 0` seconds: with a fixed tick (`dt ≤ max_tick_dt`) exactly one
/// tick of `dt` (what [`SubSteps::split`] gives, without its divides), else that split.
#[inline(always)]
pub(super) fn split_dt(params: &MoveParams, dt: f32) -> SubSteps {
    if dt <= params.max_tick_dt {
        SubSteps {
            count: 1,
            step: dt,
            dropped: 0.0,
        }
    } else {
        SubSteps::split(dt, params.max_tick_dt, params.max_substeps)
    }
}

/// A non-finite ground normal becomes [`Vec3::UP`] (the rest of [`repair_state`]).
#[inline]
pub(super) fn repair_ground_normal(state: &mut MoverState) {
    if !state.ground_normal.is_finite() {
        state.ground_normal = Vec3::UP;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::{FlatGround, NoGround};

    #[test]
    fn hash_covers_every_field() {
        let base = MoverState::new(Vec3::new(1.0, 2.0, 3.0));
        let h = base.state_hash();
        let mut variants = [base; 11];
        variants[0].position.x = 1.5;
        variants[1].velocity.z = 1.0;
        variants[2].grounded = true;
        variants[3].ground_normal = Vec3::X;
        variants[4].coyote_timer = 0.1;
        variants[5].jump_buffer_timer = 0.1;
        variants[6].jump_held = true;
        variants[7].jump_latched = true;
        variants[8].jump_rising = true;
        variants[9].crouched = true;
        variants[10].water_jump_timer = 0.5;
        for (i, v) in variants.iter().enumerate() {
            assert_ne!(v.state_hash(), h, "field {i} not hashed");
        }
    }

    #[test]
    fn both_finiteness_tests_are_is_finite() {
        let special = [
            0.0,
            -0.0,
            f32::from_bits(1),
            1.0,
            -3.0e38,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::from_bits(0xffff_ffff),
        ];
        let base = MoverState::new(Vec3::new(1.0, 2.0, 3.0));
        for field in 0..11 {
            for &x in &special {
                let mut s = base;
                match field {
                    0 => s.position.x = x,
                    1 => s.position.y = x,
                    2 => s.position.z = x,
                    3 => s.velocity.x = x,
                    4 => s.velocity.y = x,
                    5 => s.velocity.z = x,
                    6 => s.ground_normal.x = x,
                    7 => s.ground_normal.y = x,
                    8 => s.ground_normal.z = x,
                    9 => s.coyote_timer = x,
                    _ => s.jump_buffer_timer = x,
                }
                assert_eq!(s.is_finite(), x.is_finite(), "field {field} = {x:?}");
                // The ground normal is not one of the motion fields.
                let expected = x.is_finite() || (6..=8).contains(&field);
                assert_eq!(
                    s.motion_is_finite_by_flags(),
                    expected,
                    "field {field} = {x:?}"
                );
                assert_eq!(
                    s.motion_is_finite_by_products(),
                    expected,
                    "field {field} = {x:?}"
                );
                // Two bad fields, and a finite opposite-signed extreme beside a bad one.
                s.velocity.z = -f32::MAX;
                s.coyote_timer = f32::INFINITY;
                assert!(!s.motion_is_finite_by_flags() && !s.motion_is_finite_by_products());
            }
        }
    }

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

    #[test]
    fn first_step_lands_and_accelerates() {
        let p = MoveParams::seed();
        let mut s = MoverState::new(Vec3::new(0.0, 0.02, 0.0));
        let input = MoveInput::with_yaw(Vec2::new(1.0, 0.0), false, 0.0);
        let ev = step(&mut s, &p, &input, &FlatGround::new(0.0), 0.02);
        assert!(ev.landed && s.grounded);
        assert_eq!(s.position.y, 0.0);
        // Forward at yaw 0 is −Z: 120·0.02 = 2.4 (friction found the character at rest).
        assert!((s.velocity.z + 2.4).abs() < 1e-5 && s.velocity.x == 0.0);
        assert!((s.position.z + 2.4 * 0.02).abs() < 1e-6);
    }

    #[test]
    fn free_fall_without_ground() {
        let p = MoveParams::quake3();
        let mut s = MoverState::new(Vec3::ZERO);
        let ev = step(&mut s, &p, &MoveInput::default(), &NoGround, 0.5);
        // 0.5 s is 10 sub-steps of 0.05 s but at most 8 run: 0.4 s of fall, 0.1 s dropped.
        assert_eq!(ev.substeps, 8);
        assert!((ev.dropped_time - 0.1).abs() < 1e-6);
        assert!((s.velocity.y + 320.0).abs() < 1e-3);
        assert!((s.position.y + 0.5 * 800.0 * 0.16).abs() < 1e-2);
    }

    #[test]
    fn ticks_merged_are_the_step() {
        // `tick` returns one tick's events; merged over the sub-steps they are `step`'s.
        let p = MoveParams::quake3();
        let input = MoveInput::with_yaw(Vec2::new(0.6, 0.8), true, 0.3);
        let (mut a, mut b) = (
            MoverState::new(Vec3::new(0.0, 3.0, 0.0)),
            MoverState::new(Vec3::new(0.0, 3.0, 0.0)),
        );
        let g = FlatGround::new(0.0);
        for _ in 0..40 {
            let want = step(&mut a, &p, &input, &g, 0.12);
            let split = SubSteps::split(0.12, p.max_tick_dt, p.max_substeps);
            let mut got = StepEvents::NONE;
            got.dropped_time = split.dropped;
            for _ in 0..split.count {
                got.merge(tick(
                    &mut b,
                    &p,
                    input.world_wish(),
                    input.jump,
                    &g,
                    split.step,
                ));
            }
            assert_eq!(got, want);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn every_entry_point_repairs_a_bad_water_jump_timer() {
        // The repair lives in `repair_state` (via `begin_step`), so the plain step, the water
        // step and the ladder all clear it; a valid timer is left alone by the check.
        use crate::math::Vec2 as V2;
        let p = MoveParams::quakeworld();
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.5, -0.0] {
            let mut s = MoverState::new(Vec3::new(0.0, 5.0, 0.0));
            s.water_jump_timer = bad;
            step_wish(&mut s, &p, WishDir::NONE, false, &NoGround, 1.0 / 60.0);
            assert_eq!(s.water_jump_timer.to_bits(), 0, "step_wish left {bad}");
            let mut s = MoverState::new(Vec3::new(0.0, 5.0, 0.0));
            s.water_jump_timer = bad;
            let input = MoveInput::default();
            crate::movement::water::step(&mut s, &p, &input, WishDir::NONE, &NoGround, 1.0 / 60.0);
            assert_eq!(s.water_jump_timer.to_bits(), 0, "water::step left {bad}");
            let mut s = MoverState::new(Vec3::new(0.0, 5.0, 0.0));
            s.water_jump_timer = bad;
            let n = V2::new(0.0, 1.0);
            crate::movement::ladder::climb(&mut s, &p, n, WishDir::NONE, false, &NoGround, 0.01);
            assert_eq!(s.water_jump_timer.to_bits(), 0, "climb left {bad}");
        }
        let mut s = MoverState::new(Vec3::ZERO);
        s.water_jump_timer = 0.25;
        repair_state(&mut s);
        assert_eq!(s.water_jump_timer, 0.25);
    }

    /// A probe with every query, each asserting that it is asked about a finite point.
    struct FinitePointsOnly {
        ladder: Option<Vec3>,
    }
    impl GroundProbe for FinitePointsOnly {
        fn probe(&self, p: Vec3) -> Option<crate::ground::GroundHit> {
            assert!(p.is_finite(), "probe({p:?})");
            FlatGround::new(0.0).probe(p)
        }
        fn clearance(&self, feet: Vec3) -> f32 {
            assert!(feet.is_finite(), "clearance({feet:?})");
            10.0
        }
        fn ladder(&self, feet: Vec3) -> Option<Vec3> {
            assert!(feet.is_finite(), "ladder({feet:?})");
            self.ladder
        }
        fn water(&self, feet: Vec3) -> Option<f32> {
            assert!(feet.is_finite(), "water({feet:?})");
            None
        }
    }

    #[test]
    fn step_repairs_the_state_before_any_query() {
        // The crouch, ladder and water tests run before the ticks: they see the repaired state.
        let p = MoveParams::seed();
        let ladder = Some(Vec3::new(0.0, 0.0, 1.0));
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let mut s = MoverState::new(Vec3::new(bad, 0.0, 0.0));
            s.crouched = true;
            s.velocity = Vec3::new(0.0, 0.0, bad);
            let input = MoveInput::new(Vec2::new(1.0, 0.0), false, Vec2::new(0.0, -1.0));
            let ev = step(&mut s, &p, &input, &FinitePointsOnly { ladder }, 1.0 / 60.0);
            assert!(s.is_finite(), "{s:?}");
            // Stood up (room enough) and grabbed the ladder it faces: the repaired velocity
            // (0) is not moving away from it.
            assert!(!s.crouched && ev.substeps == 1, "{s:?} {ev:?}");
            assert!(s.position.y > 0.0, "climbed: {s:?}");
        }
    }

    #[test]
    fn a_ladder_normal_with_a_bad_component_is_no_ladder() {
        let p = MoveParams::seed();
        let s = MoverState::new(Vec3::ZERO);
        let wish = WishDir::from_world(Vec2::new(0.0, -1.0));
        let ok = FinitePointsOnly {
            ladder: Some(Vec3::new(0.0, 0.0, 1.0)),
        };
        assert!(super::super::ladder::touching(&ok, &s, &p, wish).is_some());
        for bad in [f32::NAN, f32::INFINITY] {
            let probe = FinitePointsOnly {
                ladder: Some(Vec3::new(0.0, bad, 1.0)),
            };
            assert_eq!(super::super::ladder::touching(&probe, &s, &p, wish), None);
        }
    }

    #[test]
    fn none_is_the_default() {
        assert_eq!(StepEvents::NONE, StepEvents::default());
    }

    #[test]
    fn bad_dt_is_rejected() {
        let p = MoveParams::seed();
        for dt in [0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
            let mut s = MoverState::new(Vec3::ZERO);
            let ev = step(&mut s, &p, &MoveInput::default(), &FlatGround::new(0.0), dt);
            assert!(ev.rejected);
            assert_eq!(s, MoverState::new(Vec3::ZERO));
        }
    }
}
