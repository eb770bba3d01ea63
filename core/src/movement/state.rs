//! The character's data and its guards: [`MoverState`], [`MoveInput`], [`StepEvents`], and the
//! repairs every mode shares — the state handed in with NaN/inf (`repair_state`), the
//! last-resort guard at the end of a tick (`guard_state`) and the one velocity clamp
//! (`clamp_velocity`).
//!
//! A leaf: it imports no other part of `movement` but the wish conversion, so the driver
//! ([`super::mover`]) and every mode (walking and in the air, [`super::walk`]; [`super::ladder`];
//! [`super::water`]) build on it without importing each other.

use super::kernels::{world_wish, WishDir};
use super::params::MoveParams;
use super::prepared::MAX_BITS;
use crate::hash::{StateHash, StateHasher};
use crate::math::{bits, Vec2, Vec3};

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
    /// Crouched ([`MoveInput::crouch`]): the body is `crouch_height` tall. Hashed only when set, so
    /// the hash of a character that never crouches is what it was before crouching existed.
    pub crouched: bool,
    /// Seconds left of a water jump (`water.rs`, Quake's `waterjumptime`); 0 when none.
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
        let (p, v) = (self.position, self.velocity);
        let (c, j) = (self.coyote_timer, self.jump_buffer_timer);
        // With an FPU one multiply-accumulate per field; without, integer operations on the bits.
        bits::all_finite!(p.x, p.y, p.z, v.x, v.y, v.z, c, j)
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
    /// Crouch key down (applied by [`step`](super::step)). Default false.
    pub crouch: bool,
    /// The view's planar unit forward in world `(x, z)` = `math::yaw_forward(yaw)`
    /// ([`MoveInput::with_yaw`] computes it). Kept as a vector so the tick needs no trigonometry.
    /// Non-unit is normalised, zero/NaN means yaw 0 (−Z).
    pub facing: Vec2,
    /// The view's pitch as the vertical part of its unit forward vector (the sine of the pitch:
    /// +1 looking straight up, −1 straight down; [`MoveInput::with_pitch`] computes it). Only
    /// swimming reads it (`water.rs`: forward swims where the view looks). Clamped to
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

/// What happened during a [`step`](super::step) (over all its sub-steps).
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
    /// Radians the ground turned the character (a turning platform, [`crate::ground::GroundProbe::surface_motion`]); add
    /// it to the view yaw to turn with the platform. 0 off moving surfaces. Kept within
    /// `(−π, π]` once a sum of turns leaves `±3` ([`crate::math::wrap_angle`]), so it is finite
    /// however fast the platform turns.
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

    /// Add the events of a later step or tick to these (what [`step`](super::step) does over its
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
            self.carried_yaw = super::platform::add_yaw(self.carried_yaw, later.carried_yaw);
        }
    }
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
    let m = params.max_velocity.to_bits();
    let (v, p) = (state.velocity, state.position);
    // The common case, decided on the bit patterns (integer compares, no float compare): `m`
    // finite and not negative (its bits at most `f32::MAX`'s), every velocity component within
    // `±m` (for such an `m`, `|x| ≤ m` is "the bits of `|x|` at most `m`'s"; a NaN's are larger),
    // so the clamp changes nothing and the velocity is finite; and a finite position. Anything
    // else takes the exact repair.
    let abs = bits::abs_bits;
    let position_finite = p.is_finite();
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
                // (Both forms of the test agree: `math::bits`'s `finiteness_forms_agree`.)
                assert_eq!(s.motion_is_finite(), expected, "field {field} = {x:?}");
                // Two bad fields, and a finite opposite-signed extreme beside a bad one.
                s.velocity.z = -f32::MAX;
                s.coyote_timer = f32::INFINITY;
                assert!(!s.motion_is_finite());
            }
        }
    }
}
