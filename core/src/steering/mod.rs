//! Steering behaviours (seed 001): arrival, seek/flee/pursue/evade/wander, facing, flocking,
//! obstacle avoidance, containment, path following, and the three classic combiners.
//!
//! # Example
//!
//! ```
//! use hopkit::math::Vec3;
//! use hopkit::steering::{arrival_step, ArrivalParams, ArrivalState, SteeringParams};
//!
//! let vehicle = SteeringParams::default(); // max speed 4 units/s, max accel 8 units/s²
//! let mut critter = ArrivalState::new(Vec3::ZERO);
//! let target = Vec3::new(10.0, 0.0, 0.0);
//! let mut ticks = 0;
//! while !arrival_step(&mut critter, &vehicle, &ArrivalParams::default(), target, 1.0 / 60.0).arrived {
//!     assert!(critter.agent.position.x <= 10.0); // never overshoots
//!     ticks += 1;
//!     assert!(ticks < 600);
//! }
//! assert_eq!(critter.agent.velocity, Vec3::ZERO); // at rest, within the tolerance
//! assert!(critter.agent.position.distance(target) <= ArrivalParams::default().tolerance);
//! ```
//!
//! # Model
//! - An [`Agent`] is plain state: position (units), velocity (units/s), yaw (radians, hopkit
//!   convention: yaw 0 faces −Z, positive turns left). Y is up; planar users keep `y = 0`.
//! - A [`SteeringParams`] describes the vehicle: max speed, max acceleration, max turn rate, radius.
//! - Every behaviour is a function returning a [`Steering`]: a desired linear **acceleration**
//!   (units/s², already limited to `max_accel`) and a desired **yaw rate** (rad/s). Behaviours that
//!   aim at a velocity (seek, flee, arrive, alignment, …) take `dt` and ask for the velocity change
//!   that reaches that velocity within one step when the acceleration budget allows — exactly the
//!   seed's `steer = desired − velocity` read with `dt` in seconds instead of "one frame".
//! - [`integrate`] applies one steering to one agent for one step (semi-implicit Euler, as the seed:
//!   velocity first, then position with the new velocity).
//! - Combine several behaviours with [`blend`], [`priority`] or [`truncated_budget`].
//!
//! Reynolds' vehicle has `mass` and `max_force`; hopkit works in acceleration (force per unit mass),
//! so `max_accel = max_force / mass` and there is no separate mass.
//!
//! # Seed 001 (Arrival, cocos2d)
//! [`arrival_seed_frame`] reproduces the seed line by line in its per-frame units (time unit = one
//! frame), including the early return at zero distance. [`arrival_seed_dt`] is the same algorithm
//! with `dt` in seconds. [`arrive`] / [`arrival_step`] are hopkit's arrival: the seed's braking ramp
//! plus a stopping-distance cap, an arrival tolerance, an `arrived` flag, an exact stop and no
//! overshoot (see "Arrival" below for why the naive version overshoots).
//!
//! # Arrival: why the naive version overshoots
//! The seed asks for `speed = maxSpeed·d/brakeDistance` and then limits the velocity change to
//! `maxAccel` per step. The ramp demands a deceleration of `maxSpeed·v/brakeDistance`; whenever
//! that exceeds `maxAccel` (a fast agent, a short brake distance, a small accel for smoothness) the
//! velocity lags behind the ramp, the agent reaches the target still moving, passes it, the
//! desired direction flips 180°, and it comes back — the oscillation/flip known from gdx-ai's
//! `Arrive`. A lateral velocity makes it worse: clamping the whole `desired − velocity` vector
//! spends part of the budget sideways, so even less is left for braking.
//!
//! ## The fix
//! 1. **Stopping-distance cap.** The desired speed is also capped by [`stopping_speed`]: the
//!    largest speed from which, decelerating by a fixed amount per step (semi-implicit Euler, the
//!    order [`integrate`] uses), the agent stops exactly on the target, the last step
//!    landing with a speed no larger than one step's deceleration. It is the discrete form of
//!    `v ≤ √(2·a·d)` and is never above `d/dt`, so one step never passes the target. On this
//!    schedule the desired speed drops by exactly one step's deceleration per step, so braking
//!    stays feasible.
//!    The schedule is planned with [`BRAKE_PLAN_FRACTION`] (90 %) of `max_accel`: the remaining
//!    10 % is a reserve that absorbs float rounding (positions are quantised, which near the end
//!    shifts the distance by a few ulp and the scheduled speed by up to `ulp/dt`). Without it an
//!    agent that falls a rounding error behind the schedule could never catch up.
//! 2. **Braking first, and only when braking.** While the agent is slower along the target direction
//!    than the desired speed, the whole velocity error `s·û − v` is clamped to the budget (the
//!    seed's rule), so lateral and backward velocity are removed together with the approach. Once
//!    it must slow down, the budget goes to braking first and only what is left cancels lateral
//!    velocity (Reynolds' prioritised allocation inside one behaviour). Braking-first while
//!    speeding up would let the approach demand starve the lateral correction: an agent starting
//!    sideways at full speed would orbit the target forever.
//! 3. **Tolerance and exact stop.** Within [`ArrivalParams::tolerance`] the desired velocity is
//!    zero; [`arrival_step`] sets the velocity to exactly zero once the remaining speed can be
//!    removed in one step and raises `arrived`.
//!
//! Guarantee (stationary target, velocity pointing at the target or zero — e.g. starting from
//! rest, fed straight into [`integrate`] or used through [`arrival_step`]): the distance to
//! the target never increases, the velocity never points away from the target, the agent never
//! passes the target by more than float rounding, and it ends with velocity exactly zero within the
//! tolerance in finite time (short with the default [`ArrivalParams::min_speed_fraction`]; with 0
//! the seed's exponential ramp tail can take long). A moving target, a lateral start or blending
//! with other behaviours keeps every output finite and bounded but can of course not keep that
//! promise. (As with any `f32` simulation, an agent whose step `speed·dt` is below the float
//! resolution of its coordinates cannot move: keep worlds within about ±10⁴ units of the origin
//! for centimetre-scale arrival.)
//!
//! # Bad input
//! - `dt`: NaN, ±inf or ≤ 0 → behaviours return [`Steering::ZERO`] and [`integrate`] /
//!   [`arrival_step`] do nothing; `dt` > [`MAX_DT`] (0.25 s) is clamped to [`MAX_DT`]
//!   (see [`sanitize_dt`]).
//! - Non-finite agent state or targets → [`Steering::ZERO`] (the agent coasts).
//! - Parameters that are NaN, infinite or negative are read as 0 (e.g. `max_speed = NaN` means the
//!   agent cannot move).
//! - Finite inputs so large that a difference or a length overflows `f32` also give zero steering
//!   rather than NaN. No function here panics or produces NaN/inf output.
//!
//! # Cost
//! Arrival, seek, flee, pursue, evade, flocking, avoidance, containment, path following and the
//! combiners use only `+ − × ÷` and `sqrt`. Trigonometry appears only in [`wander()`] (one
//! `sin_cos`), [`face`]/[`align`]/[`look_where_going`] (one `atan2`), the seed's rotation in
//! [`arrival_seed_frame`], and [`arrival_step`] when [`ArrivalParams::face_velocity`] is on.

mod arrival;
mod avoid;
mod basic;
mod combine;
mod group;
mod orient;
mod path;
mod seed;
mod wander;

pub use arrival::{
    arrival_step, arrival_step_with, arrival_time_bound, arrive, stopping_speed, ArrivalEvents,
    ArrivalParams, ArrivalState, TickConsts, BRAKE_PLAN_FRACTION,
};
pub use avoid::{avoid_obstacles, contain, Aabb, AvoidParams, ContainParams, Obstacle};
pub use basic::{evade, flee, predict_position, pursue, seek, steer_to_velocity};
pub use combine::{blend, priority, truncated_budget, CANCEL_RATIO};
pub use group::{
    alignment, cohesion, flock, flock_indexed, flock_iter, gather_neighbours, separation,
    FlockParams, Flocking, Neighbour, NeighbourIndex, Neighbours, COINCIDENT_DISTANCE,
};
pub use orient::{align, face, look_where_going, yaw_towards};
pub use path::{follow_path, Path, PathError, PathFollowState, PathParams};
pub use seed::{arrival_seed_dt, arrival_seed_frame, SeedArrivalParams};
pub use wander::{wander, WanderParams, WanderState};

use crate::hash::{StateHash, StateHasher};
use crate::math::bits;
// Steering's name for `Vec3::is_finite` (the core's one finiteness policy, `math::bits`).
pub(crate) use crate::math::bits::finite3;
use crate::math::target::inline_policy;
use crate::math::{finite_or, scalar, wrap_angle, yaw_forward, Vec2, Vec3};

/// Longest step accepted by [`integrate`] and the behaviours, seconds. Longer steps are clamped.
pub const MAX_DT: f32 = 0.25;

/// The output of a behaviour: what the agent would like to do this step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Steering {
    /// Desired linear acceleration, units/s². Default zero.
    pub linear: Vec3,
    /// Desired yaw rate, rad/s (positive turns left). Default 0. A *rate*, not an angular
    /// acceleration: [`integrate`] clamps it to `max_turn_rate` and adds `angular·dt` to the yaw.
    pub angular: f32,
}

impl Steering {
    /// No acceleration, no turning.
    pub const ZERO: Steering = Steering {
        linear: Vec3::ZERO,
        angular: 0.0,
    };

    /// Linear acceleration only.
    #[inline]
    pub const fn linear(linear: Vec3) -> Steering {
        Steering {
            linear,
            angular: 0.0,
        }
    }

    /// Yaw rate only.
    #[inline]
    pub const fn angular(angular: f32) -> Steering {
        Steering {
            linear: Vec3::ZERO,
            angular,
        }
    }

    /// True if every component is finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        let l = self.linear;
        bits::all_finite!(l.x, l.y, l.z, self.angular)
    }

    /// True if the linear part is longer than `epsilon` or `|angular| > epsilon` (the test used
    /// by [`priority`]). Non-finite steering is never significant.
    pub fn is_significant(self, epsilon: f32) -> bool {
        if !self.is_finite() {
            return false;
        }
        let eps = non_negative(epsilon);
        robust_length(self.linear) > eps || self.angular.abs() > eps
    }
}

/// A steered body: plain state, hashed for replays.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Agent {
    /// World position, units. Default origin.
    pub position: Vec3,
    /// Velocity, units/s. Default zero. (In [`arrival_seed_frame`] only: units per frame.)
    pub velocity: Vec3,
    /// Heading yaw, radians in `(−π, π]`; 0 faces −Z, positive turns left. Default 0.
    pub yaw: f32,
}

impl Agent {
    /// Every float field through [`crate::math::scalar::flush_subnormal`] (done at the end of
    /// [`integrate`], so no step leaves a subnormal behind).
    pub fn flush_subnormals(&mut self) {
        self.position = self.position.flush_subnormal();
        self.velocity = self.velocity.flush_subnormal();
        self.yaw = crate::math::scalar::flush_subnormal(self.yaw);
    }

    /// An agent at rest at `position`, yaw 0.
    #[inline]
    pub const fn new(position: Vec3) -> Agent {
        Agent {
            position,
            velocity: Vec3::ZERO,
            yaw: 0.0,
        }
    }

    /// Planar forward direction `(x, z)` of the yaw (costs one `sin_cos`).
    #[inline]
    pub fn heading(&self) -> Vec2 {
        yaw_forward(self.yaw)
    }

    /// Current speed, units/s.
    #[inline]
    pub fn speed(&self) -> f32 {
        robust_length(self.velocity)
    }

    /// True if position, velocity and yaw are all finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        let (p, v) = (self.position, self.velocity);
        bits::all_finite!(p.x, p.y, p.z, v.x, v.y, v.z, self.yaw)
    }
}

impl StateHash for Agent {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_vec3(self.position);
        h.write_vec3(self.velocity);
        h.write_f32(self.yaw);
    }
}

/// The vehicle's limits. Every field: NaN, infinite or negative is read as 0.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct SteeringParams {
    /// Top speed, units/s. Default 4.0.
    pub max_speed: f32,
    /// Largest acceleration (Reynolds' `max_force / mass`), units/s². Default 8.0.
    pub max_accel: f32,
    /// Largest yaw rate, rad/s. Default 2π (one turn per second).
    pub max_turn_rate: f32,
    /// Body radius, units (obstacle avoidance inflates obstacles by it). Default 0.5.
    pub radius: f32,
}

impl Default for SteeringParams {
    fn default() -> Self {
        SteeringParams {
            max_speed: 4.0,
            max_accel: 8.0,
            max_turn_rate: core::f32::consts::TAU,
            radius: 0.5,
        }
    }
}

impl SteeringParams {
    /// Small, nimble arrival critter for the demo scene (tuned in metres): 3 m/s, 12 m/s²,
    /// 4π rad/s, radius 0.25 m.
    pub const fn critter() -> Self {
        SteeringParams {
            max_speed: 3.0,
            max_accel: 12.0,
            max_turn_rate: 4.0 * core::f32::consts::PI,
            radius: 0.25,
        }
    }

    /// Import a per-frame tuning (the seed's units): speed in units/frame and acceleration in
    /// units/frame² at `frame_rate` frames per second become units/s (`× fps`) and units/s²
    /// (`× fps²`). Turn rate and radius keep their defaults.
    pub fn from_per_frame(
        max_speed_per_frame: f32,
        max_accel_per_frame: f32,
        frame_rate: f32,
    ) -> Self {
        SteeringParams {
            max_speed: max_speed_per_frame * frame_rate,
            max_accel: max_accel_per_frame * frame_rate * frame_rate,
            ..SteeringParams::default()
        }
    }

    /// Max speed read as documented (non-finite or negative → 0).
    #[inline]
    pub fn speed_limit(&self) -> f32 {
        non_negative(self.max_speed)
    }

    /// Max acceleration read as documented (non-finite or negative → 0).
    #[inline]
    pub fn accel_limit(&self) -> f32 {
        non_negative(self.max_accel)
    }

    /// Max turn rate read as documented (non-finite or negative → 0).
    #[inline]
    pub fn turn_limit(&self) -> f32 {
        non_negative(self.max_turn_rate)
    }
}

/// The step length every function here uses: `None` (do nothing) for NaN, ±inf or `dt ≤ 0`;
/// otherwise `min(dt, MAX_DT)`.
#[inline]
pub fn sanitize_dt(dt: f32) -> Option<f32> {
    // `0 < dt ≤ f32::MAX` on the bits (positive finite non-zero floats are exactly the bit
    // patterns 1..=0x7f7f_ffff), and `min` without the NaN handling `dt` no longer needs: the
    // same results as float compares, without the soft-float calls on FPU-less targets.
    let b = dt.to_bits();
    if b.wrapping_sub(1) < bits::MAX_FINITE {
        // Positive floats order like their bits.
        Some(if b > MAX_DT.to_bits() { MAX_DT } else { dt })
    } else {
        None
    }
}

inline_policy! { hot:
    /// Advance `agent` by one step of `dt` seconds under `steering`.
    ///
    /// Order (semi-implicit Euler, as the seed): `a = truncate(steering.linear, max_accel)`,
    /// `v = truncate(v + a·dt, max_speed)`, `p += v·dt`, `yaw += clamp(angular, ±max_turn_rate)·dt`
    /// (wrapped into `(−π, π]`).
    ///
    /// Bad input: invalid `dt` (see [`sanitize_dt`]) → nothing changes. Non-finite steering
    /// components → treated as zero acceleration / zero turn (the agent coasts). Non-finite components
    /// of the stored position, velocity or yaw are replaced by 0 first. If the new position would
    /// overflow `f32`, the agent stops where it is (velocity zero) instead of storing inf.
    pub fn integrate(agent: &mut Agent, params: &SteeringParams, steering: Steering, dt: f32) {
        integrate_checked(agent, params, steering, dt, false);
    }
}

inline_policy! { hot:
    /// [`integrate`]; `linear_within` vouches that `clamp_len(steering.linear, accel_limit)` would
    /// return `steering.linear` unchanged (see [`clamp_len_checked`]), so that clamp is skipped.
    pub(crate) fn integrate_checked(
        agent: &mut Agent,
        params: &SteeringParams,
        steering: Steering,
        dt: f32,
        linear_within: bool,
    ) {
        let Some(dt) = sanitize_dt(dt) else {
            return;
        };
        let position = sanitized(agent.position);
        let velocity = sanitized(agent.velocity);
        let yaw = finite_or(agent.yaw, 0.0);

        let accel = if linear_within {
            steering.linear
        } else {
            clamp_len(steering.linear, params.accel_limit())
        };
        let velocity = clamp_len(velocity + accel * dt, params.speed_limit());
        let moved = position + velocity * dt;
        let (position, velocity) = if finite3(moved) {
            (moved, velocity)
        } else {
            (position, Vec3::ZERO)
        };

        let turn = params.turn_limit();
        let rate = crate::math::clamp(finite_or(steering.angular, 0.0), -turn, turn);
        // Flushed in registers and stored once (the same values as storing, then
        // `Agent::flush_subnormals`; re-reading just-stored fields stalls store forwarding).
        agent.position = position.flush_subnormal();
        agent.velocity = velocity.flush_subnormal();
        agent.yaw = scalar::flush_subnormal(add_yaw(yaw, rate * dt));
    }
}

/// `v` with non-finite components replaced by 0 (checks the whole vector first, the common case).
#[inline]
fn sanitized(v: Vec3) -> Vec3 {
    if finite3(v) {
        v
    } else {
        v.sanitize()
    }
}

/// `yaw + delta` wrapped into `(−π, π]` (only calls the wrap when needed).
#[inline]
pub(crate) fn add_yaw(yaw: f32, delta: f32) -> f32 {
    let y = yaw + delta;
    if y > core::f32::consts::PI || y <= -core::f32::consts::PI {
        wrap_angle(y)
    } else {
        y
    }
}

// ---- internal helpers shared by the behaviours -------------------------------------------------

/// `x` if finite and ≥ 0, else 0.
#[inline]
pub(crate) fn non_negative(x: f32) -> f32 {
    // `0 ≤ x ≤ f32::MAX` (NaN and +inf fail, −0.0 passes) as integer tests on the bits: the same
    // result as float compares, which are library calls on soft-float targets.
    let b = x.to_bits();
    if b <= bits::MAX_FINITE || b == bits::SIGN {
        x
    } else {
        0.0
    }
}

/// Squared lengths inside `(FAST_MIN_SQ, FAST_MAX_SQ)` prove that every component is finite and
/// below 10¹⁸ and that squaring lost nothing that matters: the fast paths below use them directly.
/// Everything else (zero, tiny, huge, inf, NaN) takes the careful path.
const FAST_MIN_SQ: f32 = 1.0e-36;
const FAST_MAX_SQ: f32 = 1.0e36;

#[inline]
pub(crate) fn fast_range(l2: f32) -> bool {
    // `FAST_MIN_SQ < l2 < FAST_MAX_SQ` as one unsigned compare on the bits: between two positive
    // bounds, floats order like their bits, and negative values and NaNs fall outside as the
    // float compares say.
    const LO: u32 = FAST_MIN_SQ.to_bits() + 1;
    const SPAN: u32 = FAST_MAX_SQ.to_bits() - LO;
    l2.to_bits().wrapping_sub(LO) < SPAN
}

/// Unit direction and length of `v`, robust to huge finite components (scaled before squaring)
/// and to subnormals. `None` for non-finite `v`, for `v = 0`, and for `length ≤ min_len`.
/// The length may be `+inf` if the true length exceeds `f32::MAX`; the direction is always unit.
#[inline]
pub(crate) fn dir_len(v: Vec3, min_len: f32) -> Option<(Vec3, f32)> {
    let l2 = v.length_squared();
    if fast_range(l2) {
        let l = scalar::sqrt(l2);
        if l <= min_len {
            return None;
        }
        return Some((v * (1.0 / l), l));
    }
    if is_zero(v) {
        // Exactly what the careful path gives for ±0 components, without the call.
        return None;
    }
    dir_len_careful(v, min_len)
}

/// True if every component is ±0 (then `length_squared` is 0 but so is every component, unlike
/// tiny vectors whose square underflows).
#[inline(always)]
pub(crate) fn is_zero(v: Vec3) -> bool {
    v.x == 0.0 && v.y == 0.0 && v.z == 0.0
}

inline_policy! { hot_shared:
    /// [`dir_len`] for zero, tiny, huge or non-finite `v`.
    fn dir_len_careful(v: Vec3, min_len: f32) -> Option<(Vec3, f32)> {
        if !finite3(v) {
            return None;
        }
        let m = v.x.abs().max(v.y.abs()).max(v.z.abs());
        if m <= 0.0 {
            return None;
        }
        let s = Vec3::new(v.x / m, v.y / m, v.z / m);
        let ls = scalar::sqrt(s.length_squared());
        let l = m * ls;
        if l <= min_len {
            return None;
        }
        Some((s * (1.0 / ls), l))
    }
}

/// Length of `v`, robust to overflow (may be `+inf` for lengths beyond `f32::MAX`); 0 for
/// non-finite input.
#[inline]
pub(crate) fn robust_length(v: Vec3) -> f32 {
    let l2 = v.length_squared();
    if fast_range(l2) {
        return scalar::sqrt(l2);
    }
    match dir_len_careful(v, 0.0) {
        Some((_, l)) => l,
        None => 0.0,
    }
}

/// `v` scaled down to at most `max` (≥ 0) length; non-finite `v` gives zero. Never NaN/inf.
/// No square root when `v` is already short enough.
#[inline]
pub(crate) fn clamp_len(v: Vec3, max: f32) -> Vec3 {
    let l2 = v.length_squared();
    if fast_range(l2) {
        if l2 <= max * max {
            return v;
        }
        return v * (max / scalar::sqrt(l2));
    }
    if is_zero(v) {
        return Vec3::ZERO;
    }
    clamp_len_careful(v, max)
}

/// [`clamp_len`], also telling whether the result is a fixed point of `clamp_len(·, max)`: true
/// when `v` came back unchanged (or as zero), false when it was scaled (the scaled vector may
/// round a hair above `max`, so a later clamp must look again).
#[inline]
pub(crate) fn clamp_len_checked(v: Vec3, max: f32) -> (Vec3, bool) {
    let l2 = v.length_squared();
    if fast_range(l2) {
        if l2 <= max * max {
            return (v, true);
        }
        return (v * (max / scalar::sqrt(l2)), false);
    }
    match dir_len_careful(v, 0.0) {
        Some((d, l)) if l > max => (d * max, false),
        Some(_) => (v, true),
        None => (Vec3::ZERO, true),
    }
}

inline_policy! { hot_shared:
    /// [`clamp_len`] for zero, tiny, huge or non-finite `v`.
    fn clamp_len_careful(v: Vec3, max: f32) -> Vec3 {
        match dir_len_careful(v, 0.0) {
            Some((d, l)) if l > max => d * max,
            Some(_) => v,
            None => Vec3::ZERO,
        }
    }
}

inline_policy! { hot_hint:
    /// The acceleration that changes the velocity by `dv` within one step of `dt`, limited to
    /// `max_accel`: `dv/dt` if `|dv| ≤ max_accel·dt`, else `dir(dv)·max_accel`.
    pub(crate) fn velocity_change(dv: Vec3, max_accel: f32, dt: f32) -> Vec3 {
        let budget = max_accel * dt;
        let l2 = dv.length_squared();
        if fast_range(l2) {
            if l2 <= budget * budget {
                return clamp_len(dv * (1.0 / dt), max_accel);
            }
            return dv * (max_accel / scalar::sqrt(l2));
        }
        if is_zero(dv) {
            return Vec3::ZERO;
        }
        velocity_change_careful(dv, max_accel, dt)
    }
}

inline_policy! { hot_shared:
    /// [`velocity_change`] for zero, tiny, huge or non-finite `dv`.
    fn velocity_change_careful(dv: Vec3, max_accel: f32, dt: f32) -> Vec3 {
        let budget = max_accel * dt;
        match dir_len_careful(dv, 0.0) {
            Some((d, l)) => {
                if l <= budget {
                    clamp_len(dv * (1.0 / dt), max_accel)
                } else {
                    d * max_accel
                }
            }
            None => Vec3::ZERO,
        }
    }
}

inline_policy! { hot_hint:
    /// [`velocity_change`], also telling (as [`clamp_len_checked`]) whether the result is a fixed
    /// point of `clamp_len(·, max_accel)`.
    pub(crate) fn velocity_change_checked(dv: Vec3, max_accel: f32, dt: f32) -> (Vec3, bool) {
        let budget = max_accel * dt;
        let l2 = dv.length_squared();
        if fast_range(l2) {
            return velocity_change_in_range(dv, l2, max_accel, dt, budget);
        }
        match dir_len_careful(dv, 0.0) {
            Some((d, l)) => {
                if l <= budget {
                    clamp_len_checked(dv * (1.0 / dt), max_accel)
                } else {
                    (d * max_accel, false)
                }
            }
            None => (Vec3::ZERO, true),
        }
    }
}

/// [`velocity_change_checked`] for a `dv` whose squared length `l2` is in [`fast_range`], with
/// `budget = max_accel·dt`.
#[inline(always)]
pub(crate) fn velocity_change_in_range(
    dv: Vec3,
    l2: f32,
    max_accel: f32,
    dt: f32,
    budget: f32,
) -> (Vec3, bool) {
    if l2 <= budget * budget {
        return clamp_len_checked(dv * (1.0 / dt), max_accel);
    }
    (dv * (max_accel / scalar::sqrt(l2)), false)
}

/// [`finish`] of a `linear` from [`velocity_change_checked`] or [`clamp_len_checked`] (`within`:
/// already a fixed point of the clamp, which is then skipped); tells whether the output is.
#[inline]
pub(crate) fn finish_checked((linear, within): (Vec3, bool), max_accel: f32) -> (Steering, bool) {
    if within {
        return (Steering::linear(linear), true);
    }
    let (l, within) = clamp_len_checked(linear, max_accel);
    (Steering::linear(l), within)
}

/// Final guard for a behaviour's output: non-finite → zero, linear limited to `max_accel`.
#[inline]
pub(crate) fn finish(linear: Vec3, max_accel: f32) -> Steering {
    Steering::linear(clamp_len(linear, max_accel))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Equal within float rounding of the active sqrt (exact with `libm`, ~1e-6 relative with
    /// `micromath`'s refined estimate).
    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() <= 1e-5 * (1.0 + b.length())
    }

    #[test]
    fn fast_range_on_the_bits_is_the_float_test() {
        let mut bits = 0u32;
        loop {
            let x = f32::from_bits(bits);
            assert_eq!(
                fast_range(x),
                x > FAST_MIN_SQ && x < FAST_MAX_SQ,
                "{bits:#x}"
            );
            match bits.checked_add(7_919) {
                Some(n) => bits = n,
                None => break,
            }
        }
        for x in [
            FAST_MIN_SQ,
            FAST_MAX_SQ,
            0.0,
            -0.0,
            1.0,
            f32::NAN,
            f32::INFINITY,
            -1.0,
        ] {
            assert_eq!(fast_range(x), x > FAST_MIN_SQ && x < FAST_MAX_SQ, "{x}");
        }
        let above = f32::from_bits(FAST_MIN_SQ.to_bits() + 1);
        let below = f32::from_bits(FAST_MAX_SQ.to_bits() - 1);
        assert!(fast_range(above) && fast_range(below));
    }

    #[test]
    fn dir_len_handles_extremes() {
        let (d, l) = dir_len(Vec3::new(3.0e38, 3.0e38, 0.0), 0.0).unwrap();
        assert!(
            l.is_infinite() && (d.length() - 1.0).abs() < 1e-5,
            "{d:?} {l}"
        );
        let (d, l) = dir_len(Vec3::new(1.0e-40, 0.0, 0.0), 0.0).unwrap();
        assert!(close(d, Vec3::X), "{d:?}");
        assert!(l > 0.0);
        assert!(dir_len(Vec3::ZERO, 0.0).is_none());
        assert!(dir_len(Vec3::new(f32::NAN, 0.0, 0.0), 0.0).is_none());
        assert!(dir_len(Vec3::new(1e-7, 0.0, 0.0), 1e-6).is_none());
    }

    #[test]
    fn clamp_len_and_velocity_change() {
        assert!(close(
            clamp_len(Vec3::new(3.0, 4.0, 0.0), 1.0),
            Vec3::new(0.6, 0.8, 0.0)
        ));
        assert_eq!(
            clamp_len(Vec3::new(0.3, 0.4, 0.0), 1.0),
            Vec3::new(0.3, 0.4, 0.0)
        );
        assert_eq!(
            clamp_len(Vec3::new(f32::INFINITY, 0.0, 0.0), 1.0),
            Vec3::ZERO
        );
        // Small change: reached in one step.
        let a = velocity_change(Vec3::new(0.1, 0.0, 0.0), 10.0, 0.1);
        assert!((a.x - 1.0).abs() < 1e-6);
        // Large change: saturates.
        let a = velocity_change(Vec3::new(100.0, 0.0, 0.0), 10.0, 0.1);
        assert!(close(a, Vec3::new(10.0, 0.0, 0.0)), "{a:?}");
    }

    #[test]
    fn integrate_order_and_limits() {
        let p = SteeringParams::default();
        let mut a = Agent::new(Vec3::ZERO);
        integrate(
            &mut a,
            &p,
            Steering::linear(Vec3::new(100.0, 0.0, 0.0)),
            0.5,
        );
        // dt clamped to 0.25, accel to 8 → v = 2, p = v·dt = 0.5.
        assert!(close(a.velocity, Vec3::new(2.0, 0.0, 0.0)), "{a:?}");
        assert!(close(a.position, Vec3::new(0.5, 0.0, 0.0)), "{a:?}");
        let before = a;
        integrate(&mut a, &p, Steering::ZERO, f32::NAN);
        integrate(&mut a, &p, Steering::ZERO, -1.0);
        integrate(&mut a, &p, Steering::ZERO, f32::INFINITY);
        assert_eq!(a, before);
        integrate(&mut a, &p, Steering::angular(100.0), 0.25);
        assert!((a.yaw - core::f32::consts::FRAC_PI_2).abs() < 1e-6);
    }
}
