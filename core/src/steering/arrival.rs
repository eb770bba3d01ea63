//! hopkit's arrival: the seed's braking ramp, made safe with a finite acceleration.
//! (Why the naive arrival overshoots, and the fix: the `steering` module docs.)

use super::{
    clamp_len, dir_len, finish_checked, finite3, non_negative, sanitize_dt,
    velocity_change_checked, Agent, Steering, SteeringParams,
};
use crate::hash::{StateHash, StateHasher};
use crate::math::bits;
use crate::math::scalar::positive_bits;
use crate::math::target::inline_policy;
use crate::math::{clamp, finite_or, scalar, wrap_angle, Vec3};

/// Fraction of `max_accel` the braking schedule of [`arrive`] plans with; the rest is a reserve
/// for catching up with rounding errors (see the module docs). A time-optimal rest-to-rest move
/// therefore takes about 3 % longer than the ideal one.
pub const BRAKE_PLAN_FRACTION: f32 = 0.9;

/// Tunables of [`arrive`] / [`arrival_step`]. NaN/inf/negative lengths are read as 0.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct ArrivalParams {
    /// The seed's `brakeDistance`: inside it the desired speed ramps down linearly with distance,
    /// units. Default 2.0. 0 = no ramp (brake as late as the acceleration allows, time-optimal).
    pub brake_distance: f32,
    /// Arrival tolerance: within this distance the agent brakes to a stop and counts as arrived,
    /// units. Default 0.05. An internal floor of `1e-5·(1 + largest |target component|)` (about
    /// 80 ulp of the coordinates) absorbs float rounding: closer than that, the direction to the
    /// target is mostly rounding noise.
    pub tolerance: f32,
    /// Lowest speed of the braking ramp, as a fraction of `max_speed` (clamped to `[0, 1]`).
    /// Default 0.05. The seed's ramp alone approaches exponentially (speed ∝ remaining distance),
    /// which takes `brake_distance/max_speed · ln(brake_distance/tolerance)` seconds and never ends
    /// for a zero tolerance; the floor makes the last stretch a short constant-speed creep. The
    /// stopping cap still applies, so the floor never causes an overshoot. 0 = the seed's pure ramp.
    pub min_speed_fraction: f32,
    /// [`arrival_step`] only: turn the yaw towards the velocity at `max_turn_rate` while moving
    /// (costs one `atan2` per step). Default true.
    pub face_velocity: bool,
}

impl Default for ArrivalParams {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl ArrivalParams {
    /// The defaults documented on each field, as a constant (for `const` parameter sets).
    pub const DEFAULT: ArrivalParams = ArrivalParams {
        brake_distance: 2.0,
        tolerance: 0.05,
        min_speed_fraction: 0.05,
        face_velocity: true,
    };

    /// Brake as late as possible (no ramp): fastest arrival with the given acceleration.
    pub const fn time_optimal() -> Self {
        ArrivalParams {
            brake_distance: 0.0,
            tolerance: 0.05,
            min_speed_fraction: 0.05,
            face_velocity: true,
        }
    }
}

/// An arrival agent: the body plus the `arrived` flag. Plain data, `#[repr(C)]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct ArrivalState {
    /// The steered body (velocity in units/s).
    pub agent: Agent,
    /// True while the agent is stopped (velocity exactly zero) within the tolerance of the target
    /// given to the last [`arrival_step`]. Default false.
    pub arrived: bool,
}

impl ArrivalState {
    /// At rest at `position`, not arrived.
    pub const fn new(position: Vec3) -> Self {
        ArrivalState {
            agent: Agent::new(position),
            arrived: false,
        }
    }
}

impl StateHash for ArrivalState {
    fn hash_state(&self, h: &mut StateHasher) {
        self.agent.hash_state(h);
        h.write_bool(self.arrived);
    }
}

/// The tolerance actually used: `max(tolerance, 1e-5·(1 + max |target_i|))`.
#[inline]
pub(crate) fn effective_tolerance(tolerance: f32, target: Vec3) -> f32 {
    let m = target.x.abs().max(target.y.abs()).max(target.z.abs());
    non_negative(tolerance).max(1.0e-5 * (1.0 + m))
}

/// The rounding floor of [`effective_tolerance`], `1e-5·(1 + max |target_i|)`, for a **finite**
/// `target` (the caller checked): the largest magnitude is taken on the bits (non-negative floats
/// order like their bits), the same value as the float `max`es without their library calls on
/// soft-float targets. Always > 0. Tested equal (`tolerance_with_floor_is_effective_tolerance`).
#[inline]
fn tolerance_floor(target: Vec3) -> f32 {
    let m = bits::abs_bits(target.x)
        .max(bits::abs_bits(target.y))
        .max(bits::abs_bits(target.z));
    1.0e-5 * (1.0 + f32::from_bits(m))
}

/// `max(t, floor)` for `t = non_negative(tolerance)` and a `floor > 0` from [`tolerance_floor`]:
/// the value of [`effective_tolerance`] (the larger of two non-NaN values, one of them positive).
#[inline]
fn tolerance_with_floor(t: f32, floor: f32) -> f32 {
    // `t > floor` on the bits as signed integers: `t` is −0 (the most negative key) or in
    // [0, f32::MAX], `floor` positive, where the orders agree.
    if (t.to_bits() as i32) > (floor.to_bits() as i32) {
        t
    } else {
        floor
    }
}

/// Triangular number `k(k+1)/2` for an integral `k` held in an `f32`.
#[inline]
fn tri(k: f32) -> f32 {
    k * (k + 1.0) * 0.5
}

/// Largest speed (units/s) from which the agent can stop exactly at distance `distance` braking by
/// `max_accel·dt` per step (see the module docs).
///
/// With `A = max_accel·dt` and `D = distance/(A·dt)`: for `D ≤ 1` it is `distance/dt` (reach the
/// target in one step, then stop in one step); otherwise with `k` such that
/// `k(k+1)/2 < D ≤ (k+1)(k+2)/2` it is `A·(D/(k+1) + k/2)` — speeds `s, s−A, …, r` with
/// `0 < r ≤ A` that cover exactly `distance`. Continuous and increasing in `distance`, never above
/// `distance/dt`, about `√(2·max_accel·distance) − A/2` far away. Returns 0 if `max_accel`, `dt`
/// or `distance` is 0 or invalid, and `f32::MAX` when `distance` is too large to matter.
pub fn stopping_speed(distance: f32, max_accel: f32, dt: f32) -> f32 {
    let a = non_negative(max_accel);
    let d = non_negative(distance);
    let dt = non_negative(dt);
    let budget = a * dt;
    let unit = budget * dt;
    if unit.is_nan() || unit <= 0.0 || d == 0.0 {
        return 0.0;
    }
    let big_d = d / unit;
    if !big_d.is_finite() || big_d > 1.0e12 {
        return f32::MAX;
    }
    if big_d <= 1.0 {
        return d / dt;
    }
    // k with tri(k) < D ≤ tri(k+1); start from the closed form and fix rounding.
    let mut k = scalar::floor((scalar::sqrt(8.0 * big_d + 1.0) - 1.0) * 0.5);
    for _ in 0..3 {
        if k > 0.0 && tri(k) >= big_d {
            k -= 1.0;
        } else if tri(k + 1.0) < big_d {
            k += 1.0;
        } else {
            break;
        }
    }
    let x = big_d / (k + 1.0) + k * 0.5;
    // Never above distance/dt (holds mathematically; enforce against rounding), and finite as
    // documented (huge distances and accelerations overflow the product).
    (x * budget).min(d / dt).min(f32::MAX)
}

/// An upper bound, in seconds, on how long [`arrival_step`] takes to arrive (at rest, `arrived`
/// set) at a stationary target `distance` away, from **any** start velocity with
/// `|v| ≤ max_speed` — sideways and backwards included — stepping with `dt`:
///
/// ```text
/// T ≤ 2V/a                    turn any velocity into one towards the target (|Δv| ≤ 2V at a)
///   + V/(0.9·a)               brake from V with the 90 % braking plan (BRAKE_PLAN_FRACTION)
///   + (d + 2V²/a)/V           travel at V; 2V²/a bounds the drift while turning
///   + min(b, d + 2V²/a)/c     the brake ramp, never slower than the creep floor c
///   + 2·dt                    the final tick and the exact stop
/// ```
///
/// with `V = max_speed`, `a = max_accel`, `b = brake_distance`, `d = distance` and
/// `c = max(min_speed_fraction·V, rounding floor)` (the rounding floor is
/// `1e-5·(1 + |target|)/dt`, see [`ArrivalParams::tolerance`]). Checked over random parameters and
/// starts by `tests/tests/integration/steering_arrival.rs` (worst measured ratio 0.995 of this bound, over
/// 20,000 cases). Returns `f32::INFINITY` when the parameters allow no arrival (zero speed or
/// acceleration) or `dt` is invalid. With `min_speed_fraction` 0 only the rounding floor bounds
/// the ramp, so the bound is very loose there (the seed's ramp approaches exponentially).
pub fn arrival_time_bound(
    distance: f32,
    target_magnitude: f32,
    params: &SteeringParams,
    arrival: &ArrivalParams,
    dt: f32,
) -> f32 {
    let v = params.speed_limit();
    let a = params.accel_limit();
    let Some(dt) = sanitize_dt(dt) else {
        return f32::INFINITY;
    };
    if !(v > 0.0 && a > 0.0) {
        return f32::INFINITY;
    }
    let d = non_negative(distance);
    let drift = 2.0 * v * v / a;
    let floor = (v * clamp(arrival.min_speed_fraction, 0.0, 1.0))
        .max((1.0e-5 * (1.0 + non_negative(target_magnitude)) / dt).min(v));
    let brake = non_negative(arrival.brake_distance).min(d + drift);
    let creep = if brake > 0.0 { brake / floor } else { 0.0 };
    let t = 2.0 * v / a + v / (BRAKE_PLAN_FRACTION * a) + (d + drift) / v + creep + 2.0 * dt;
    if t.is_nan() {
        f32::INFINITY
    } else {
        t
    }
}

inline_policy! { hot:
    /// Arrival towards a (stationary) `target`: the desired acceleration for this step.
    ///
    /// Desired speed `s = min(ramp, stopping_speed(d, BRAKE_PLAN_FRACTION·max_accel))` with
    /// `ramp = max_speed` outside the brake distance and
    /// `max(max_speed·d/brake_distance, max_speed·min_speed_fraction, rounding floor/dt)` inside it; the velocity change `s·û − v` is allocated along `û` first (clamped to
    /// `max_accel·dt`), the rest of the budget cancels lateral velocity. Within the tolerance the
    /// desired velocity is zero (brake to a stop). Returns [`Steering::ZERO`] for invalid `dt` or
    /// non-finite agent/target. Never NaN.
    pub fn arrive(
        agent: &Agent,
        target: Vec3,
        params: &SteeringParams,
        arrival: &ArrivalParams,
        dt: f32,
    ) -> Steering {
        let Some(k) = TickConsts::new(params, arrival, dt) else {
            return Steering::ZERO;
        };
        if !finite3(target) || !finite3(agent.position) || !finite3(agent.velocity) {
            return Steering::ZERO;
        }
        let floor = tolerance_floor(target);
        let tolerance = tolerance_with_floor(k.tolerance, floor);
        let to_target = dir_len(target - agent.position, tolerance);
        arrive_checked(agent, &k, floor, to_target).0
    }
}

/// The arrival's constants per tick length: the quantities of a step that depend only on the
/// parameters and `dt`. [`arrival_step`] and [`arrive`] build them every call;
/// [`arrival_step_with`] takes them built once per tick for agents that share parameters and `dt`
/// (the demo's critters). Plain data, `Copy`; its fields are private.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TickConsts {
    /// The sanitised step.
    dt: f32,
    /// `params.speed_limit()`.
    max_speed: f32,
    /// `params.accel_limit()`.
    max_accel: f32,
    /// `max_accel · dt`.
    budget: f32,
    /// `params.turn_limit()`.
    turn: f32,
    /// `non_negative(arrival.tolerance)`.
    tolerance: f32,
    /// `non_negative(arrival.brake_distance)`.
    brake: f32,
    /// `max_speed · clamp(arrival.min_speed_fraction, 0, 1)`, the ramp's creep speed.
    creep: f32,
    /// `max_accel · BRAKE_PLAN_FRACTION`, the braking schedule's deceleration.
    plan: f32,
    /// `plan · dt`.
    plan_budget: f32,
    /// `plan_budget · dt`.
    plan_unit: f32,
    /// `arrival.face_velocity`.
    face: bool,
}

impl TickConsts {
    /// The constants of steps of `dt` seconds with these parameters; `None` for an invalid `dt`
    /// (NaN, ±inf or ≤ 0, see [`sanitize_dt`]), which every step rejects.
    #[inline]
    pub fn new(params: &SteeringParams, arrival: &ArrivalParams, dt: f32) -> Option<Self> {
        let dt = sanitize_dt(dt)?;
        let max_speed = params.speed_limit();
        let max_accel = params.accel_limit();
        let plan = max_accel * BRAKE_PLAN_FRACTION;
        let plan_budget = plan * dt;
        Some(TickConsts {
            dt,
            max_speed,
            max_accel,
            budget: max_accel * dt,
            turn: params.turn_limit(),
            tolerance: non_negative(arrival.tolerance),
            brake: non_negative(arrival.brake_distance),
            creep: max_speed * clamp(arrival.min_speed_fraction, 0.0, 1.0),
            plan,
            plan_budget,
            plan_unit: plan_budget * dt,
            face: arrival.face_velocity,
        })
    }
}

inline_policy! { hot_hint:
    /// [`arrive`] after its checks: `dt` sanitised, agent and target finite, `floor` =
    /// [`tolerance_floor`] of the target and `to_target` = the target's direction and distance when it
    /// is farther than the tolerance (`None` within it). Also tells whether the linear part is a
    /// fixed point of the clamp to `max_accel` (see [`finish_checked`]).
    fn arrive_checked(
        agent: &Agent,
        k: &TickConsts,
        floor: f32,
        to_target: Option<(Vec3, f32)>,
    ) -> (Steering, bool) {
        let (max_accel, dt) = (k.max_accel, k.dt);
        let v = agent.velocity;

        let Some((dir, distance)) = to_target else {
            return finish_checked(velocity_change_checked(-v, max_accel, dt), max_accel);
        };
        let speed = desired_speed(distance, k, floor);

        let budget = k.budget;
        let v_along = v.dot(dir);
        let demand = speed - v_along;
        if positive_bits(demand) {
            // Not braking: steer the whole velocity error `s·û − v` within the budget (the seed's
            // clamp), so lateral and backward velocity shrink together with the approach — giving
            // the approach priority here would let a full approach demand starve the lateral
            // correction forever (an orbit).
            return finish_checked(velocity_change_k(dir * speed - v, k), max_accel);
        }
        let v_lateral = v - dir * v_along;
        let along = demand.max(-budget);
        // Braking: the budget goes to braking first; what is left cancels lateral velocity:
        // |lateral| ≤ √(budget² − along²).
        let rest_sq = non_negative(budget * budget - along * along);
        let lateral_sq = v_lateral.length_squared();
        let lateral = if lateral_sq <= rest_sq {
            -v_lateral
        } else {
            clamp_len(-v_lateral, scalar::sqrt(rest_sq))
        };
        let dv = dir * along + lateral;
        finish_checked((dv * (1.0 / dt), false), max_accel)
    }
}

inline_policy! { hot_hint:
    /// [`velocity_change_checked`] with `k`'s budget, the out-of-range case (zero, tiny, huge or
    /// non-finite `dv`) left to it: the same result. It exists because calling
    /// `velocity_change_checked` here measured slower on the demo tick (docs/performance.md,
    /// "steering").
    fn velocity_change_k(dv: Vec3, k: &TickConsts) -> (Vec3, bool) {
        let l2 = dv.length_squared();
        if !super::fast_range(l2) {
            return velocity_change_checked(dv, k.max_accel, k.dt);
        }
        super::velocity_change_in_range(dv, l2, k.max_accel, k.dt, k.budget)
    }
}

/// The desired approach speed at `distance` (see [`arrive`]).
#[inline]
fn desired_speed(distance: f32, k: &TickConsts, tolerance_floor: f32) -> f32 {
    let brake = k.brake;
    // `distance < brake` on the bits as signed integers: `distance` is positive (beyond the
    // tolerance), `brake` −0 or in [0, f32::MAX], where the orders agree.
    let ramp = if (distance.to_bits() as i32) < (brake.to_bits() as i32) {
        // Never crawl slower than one rounding floor per tick: below that, `position + v·dt`
        // rounds back to `position` and a pure ramp (no creep) would stall just outside the
        // tolerance. (`tolerance_floor` = `effective_tolerance(0.0, target)`.)
        let rounding_speed = tolerance_floor / k.dt;
        let floor = k.creep.max(rounding_speed.min(k.max_speed));
        (k.max_speed * distance / brake).max(floor)
    } else {
        k.max_speed
    };
    // Far from the end of the braking schedule the ramp is the smaller one: skip the square root.
    if schedule_exceeds(ramp, distance, k.plan_budget, k.plan_unit) {
        return ramp;
    }
    ramp.min(stopping_speed(distance, k.plan, k.dt))
}

/// Cheap sufficient test that `stopping_speed(distance, accel, dt) ≥ speed`, without a square
/// root, for `budget = accel·dt` and `unit = budget·dt`. In units of `budget`, the schedule is the
/// chord interpolation of the concave `g(D) = √(2D + ¼) − ½` between its integer values, so it is
/// at least `g(D) − ¼` (the chord gap is at most 0.15); `speed/budget ≤ g(D) − ¼` ⇔
/// `(speed/budget + ¾)² ≤ 2D + ¼`. False for a budget that is not positive.
#[inline]
fn schedule_exceeds(speed: f32, distance: f32, budget: f32, unit: f32) -> bool {
    if !positive_bits(budget) {
        return false;
    }
    let r = speed / budget + 0.75;
    r * r <= 2.0 * (distance / unit) + 0.25
}

/// The events of one [`arrival_step`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ArrivalEvents {
    /// The agent is at rest within the tolerance of the target after this step (the new
    /// [`ArrivalState::arrived`]).
    pub arrived: bool,
    /// The agent arrived in this step: `arrived` is set and was not before it.
    pub just_arrived: bool,
    /// `dt` was NaN, ±inf or ≤ 0 and nothing changed (`arrived` is the old flag).
    pub rejected: bool,
}

impl ArrivalEvents {
    /// The events of a step that set the flag to `arrived` after it was `was`.
    #[inline]
    const fn of(was: bool, arrived: bool) -> Self {
        ArrivalEvents {
            arrived,
            just_arrived: arrived && !was,
            rejected: false,
        }
    }

    /// The events of a rejected step of an agent whose flag is `arrived`.
    #[inline]
    const fn rejected_step(arrived: bool) -> Self {
        ArrivalEvents {
            arrived,
            just_arrived: false,
            rejected: true,
        }
    }
}

/// One complete arrival tick: [`arrive`] + optional facing
/// ([`look_where_going`](super::look_where_going)) + [`integrate`](super::integrate), with the
/// exact stop.
///
/// If the agent is within the tolerance and its speed is at most `max_accel·dt`, the velocity is
/// set to exactly zero, the position is left as is and `arrived` becomes true. Otherwise `arrived`
/// is false and the agent steers and moves. An arrived agent stays put until the target moves
/// farther than the tolerance.
///
/// Invalid `dt` → nothing changes ([`ArrivalEvents::rejected`]). Non-finite target → the agent
/// coasts (no steering) and `arrived` becomes false.
pub fn arrival_step(
    state: &mut ArrivalState,
    params: &SteeringParams,
    arrival: &ArrivalParams,
    target: Vec3,
    dt: f32,
) -> ArrivalEvents {
    let was = state.arrived;
    let Some(dt) = sanitize_dt(dt) else {
        return ArrivalEvents::rejected_step(was);
    };
    let agent = &mut state.agent;
    if finite3(target) && finite3(agent.position) && finite3(agent.velocity) {
        let tolerance = effective_tolerance(arrival.tolerance, target);
        let within = match dir_len(target - agent.position, 0.0) {
            Some((_, d)) => d <= tolerance,
            None => agent.position == target,
        };
        if within && super::robust_length(agent.velocity) <= params.accel_limit() * dt {
            stop(agent);
            state.arrived = true;
            return ArrivalEvents::of(was, true);
        }
    }
    state.arrived = false;
    let mut steering = arrive(agent, target, params, arrival, dt);
    if arrival.face_velocity {
        steering.angular = super::look_where_going(agent, params, dt).angular;
    }
    super::integrate(agent, params, steering, dt);
    ArrivalEvents::of(was, false)
}

/// The exact stop: velocity zero, position kept, a non-finite yaw reset to 0.
#[inline]
fn stop(agent: &mut Agent) {
    agent.velocity = Vec3::ZERO;
    if !agent.yaw.is_finite() {
        agent.yaw = 0.0;
    }
    agent.flush_subnormals();
}

/// [`arrival_step`] with its constants built once (`k` from [`TickConsts::new`] with the same
/// parameters and `dt`): the same bits, tested equal (`arrival_step_with_is_arrival_step`).
///
/// Why it exists: the demo steps its critters with it, and [`arrival_step`]'s composition does
/// work these steps share or already know — the constants, one direction and length for both the
/// arrival test and [`arrive`], the tolerance and the facing rate in cheaper forms, and the
/// checks of `integrate` on values already checked (docs/performance.md, "steering").
pub fn arrival_step_with(state: &mut ArrivalState, k: &TickConsts, target: Vec3) -> ArrivalEvents {
    let was = state.arrived;
    let dt = k.dt;
    let agent = &mut state.agent;
    // What `arrive` gives for non-finite input (zero is within any clamp).
    let mut steering = (Steering::ZERO, true);
    let finite = bits::all_finite!(
        target.x,
        target.y,
        target.z,
        agent.position.x,
        agent.position.y,
        agent.position.z,
        agent.velocity.x,
        agent.velocity.y,
        agent.velocity.z
    );
    if finite {
        let floor = tolerance_floor(target);
        let tolerance = tolerance_with_floor(k.tolerance, floor);
        // One direction and length for both the arrival test and `arrive` (which only wants it
        // beyond the tolerance: `dir_len(v, tolerance)` is `dir_len(v, 0)` cut at the tolerance).
        let to_target = dir_len(target - agent.position, 0.0);
        let within = match to_target {
            // Both non-negative and not NaN: their bits order like them.
            Some((_, d)) => d.to_bits() <= tolerance.to_bits(),
            None => agent.position == target,
        };
        if within && super::robust_length(agent.velocity) <= k.budget {
            stop(agent);
            state.arrived = true;
            return ArrivalEvents::of(was, true);
        }
        let beyond = match to_target {
            Some((_, d)) if d.to_bits() > tolerance.to_bits() => to_target,
            _ => None,
        };
        steering = arrive_checked(agent, k, floor, beyond);
    }
    state.arrived = false;
    let (mut steering, linear_within) = steering;
    if k.face {
        steering.angular = face_velocity_rate(agent, k.turn, dt);
    }
    // `integrate_checked(agent, params, steering, dt, linear_within)`, its repair of a non-finite
    // position or velocity only where they may be.
    let (position, velocity) = if finite {
        (agent.position, agent.velocity)
    } else {
        (agent.position.sanitize(), agent.velocity.sanitize())
    };
    // The turn rate is already what `integrate_checked` makes of it: face_velocity_rate's
    // result is finite and within ±turn (a clamp, or 0), and without facing it is 0.
    integrate_with(
        agent,
        k,
        position,
        velocity,
        steering.linear,
        linear_within,
        steering.angular,
    );
    ArrivalEvents::of(was, false)
}

/// `integrate_checked(agent, params, steering, k.dt, linear_within)` for `k` made from `params`,
/// with the agent's position and velocity already sanitised (`position`, `velocity`: the finite
/// values it would start from) and the turn rate already limited (`rate` =
/// `clamp(finite_or(steering.angular, 0), −turn, turn)`): the same bits, without checking again
/// what the caller knows.
#[allow(clippy::too_many_arguments)]
#[inline]
fn integrate_with(
    agent: &mut Agent,
    k: &TickConsts,
    position: Vec3,
    velocity: Vec3,
    linear: Vec3,
    linear_within: bool,
    rate: f32,
) {
    let dt = k.dt;
    let yaw = finite_or(agent.yaw, 0.0);
    let accel = if linear_within {
        linear
    } else {
        clamp_len(linear, k.max_accel)
    };
    let velocity = clamp_len(velocity + accel * dt, k.max_speed);
    let moved = position + velocity * dt;
    let (position, velocity) = if bits::all_finite!(moved.x, moved.y, moved.z) {
        (moved, velocity)
    } else {
        (position, Vec3::ZERO)
    };
    agent.position = position.flush_subnormal();
    agent.velocity = velocity.flush_subnormal();
    agent.yaw = scalar::flush_subnormal(super::add_yaw(yaw, rate * dt));
}

/// `look_where_going(agent, params, dt).angular` for a sanitised `dt` and `turn` =
/// `params.turn_limit()`: the same bits, with less work — the planar squared length without the
/// `0·0` term and the direction without its zero `y` (both exact), and the yaw error's wrap
/// skipped when it is within ±3 rad (inside `(−π, π]` with margin, where `wrap_angle` returns its
/// input exactly).
#[inline]
fn face_velocity_rate(agent: &Agent, turn: f32, dt: f32) -> f32 {
    let v = agent.velocity;
    let l2 = v.x * v.x + v.z * v.z;
    let (dx, dz) = if super::fast_range(l2) {
        let l = scalar::sqrt(l2);
        if l.to_bits() <= 1.0e-6f32.to_bits() {
            return 0.0;
        }
        let inv = 1.0 / l;
        (v.x * inv, v.z * inv)
    } else {
        match dir_len(Vec3::new(v.x, 0.0, v.z), 1.0e-6) {
            Some((d, _)) => (d.x, d.z),
            None => return 0.0,
        }
    };
    let target_yaw = scalar::atan2(-dx, -dz);
    if !agent.yaw.is_finite() || !target_yaw.is_finite() {
        return 0.0;
    }
    let a = target_yaw - agent.yaw;
    let error = if bits::abs_bits(a) <= 3.0f32.to_bits() {
        a
    } else {
        wrap_angle(a)
    };
    clamp(error / dt, -turn, turn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_value_finiteness_is_finite3() {
        // `arrival_step_with` tests nine values at once with `all_finite!`.
        let vs = [
            0.0,
            -0.0,
            1.0e-45,
            -2.5,
            f32::MAX,
            -f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for &x in vs.iter() {
            for &y in vs.iter() {
                for slot in 0..9 {
                    let mut w = [1.0f32; 9];
                    w[slot] = x;
                    w[(slot + 4) % 9] = y;
                    let a = Vec3::new(w[0], w[1], w[2]);
                    let b = Vec3::new(w[3], w[4], w[5]);
                    let c = Vec3::new(w[6], w[7], w[8]);
                    let want = finite3(a) && finite3(b) && finite3(c);
                    let [w0, w1, w2, w3, w4, w5, w6, w7, w8] = w;
                    assert_eq!(
                        bits::all_finite!(w0, w1, w2, w3, w4, w5, w6, w7, w8),
                        want,
                        "{w:?}"
                    );
                    assert_eq!(
                        bits::all_finite_by_sum!(w0, w1, w2, w3, w4, w5, w6, w7, w8),
                        want,
                        "{w:?}"
                    );
                    assert_eq!(
                        bits::all_finite_by_bits!(w0, w1, w2, w3, w4, w5, w6, w7, w8),
                        want,
                        "{w:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn stopping_speed_schedule_is_consistent() {
        let (a, dt) = (8.0, 1.0 / 60.0);
        let budget = a * dt;
        // On the schedule, one step later the schedule is exactly one budget lower.
        for i in 1..400 {
            let d = i as f32 * 0.013;
            let s = stopping_speed(d, a, dt);
            assert!(s <= d / dt * (1.0 + 1e-6));
            let next = stopping_speed(d - s * dt, a, dt);
            if s > budget {
                assert!(
                    (next - (s - budget)).abs() < 1e-3,
                    "d={d} s={s} next={next}"
                );
            }
        }
        assert_eq!(stopping_speed(0.0, a, dt), 0.0);
        assert_eq!(stopping_speed(1.0, 0.0, dt), 0.0);
        assert_eq!(stopping_speed(f32::NAN, a, dt), 0.0);
        // Far away ≈ √(2ad).
        let far = stopping_speed(100.0, a, dt);
        assert!((far - scalar::sqrt(2.0 * a * 100.0)).abs() < 0.2);
    }

    #[test]
    fn face_rate_is_already_limited() {
        // What `integrate_checked` does to the turn rate leaves face_velocity_rate's unchanged.
        let mut rng = crate::rng::Pcg32::seeded(32);
        let vals = [0.0f32, -0.0, 1.0e-40, 5.0, f32::INFINITY, f32::NAN, -3.0];
        for i in 0..100_000 {
            let pick = |rng: &mut crate::rng::Pcg32| {
                if i % 7 == 0 {
                    vals[rng.below(vals.len() as u32) as usize]
                } else {
                    rng.range_f32(-5.0, 5.0)
                }
            };
            let agent = Agent {
                position: Vec3::ZERO,
                velocity: Vec3::new(pick(&mut rng), pick(&mut rng), pick(&mut rng)),
                yaw: pick(&mut rng) * 2.0,
            };
            let turn = non_negative(pick(&mut rng) * 3.0);
            let dt = non_negative(pick(&mut rng)).min(0.25);
            if dt == 0.0 {
                continue;
            }
            let r = face_velocity_rate(&agent, turn, dt);
            let again = clamp(finite_or(r, 0.0), -turn, turn);
            assert_eq!(again.to_bits(), r.to_bits(), "{agent:?} {turn} {dt}");
        }
        assert_eq!(Steering::ZERO.angular.to_bits(), 0);
        assert_eq!(Steering::linear(Vec3::X).angular.to_bits(), 0);
    }

    #[test]
    fn velocity_change_k_is_velocity_change_checked() {
        let mut rng = crate::rng::Pcg32::seeded(41);
        let same = |a: (Vec3, bool), b: (Vec3, bool)| {
            let f = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
            a.1 == b.1 && f(a.0.x, b.0.x) && f(a.0.y, b.0.y) && f(a.0.z, b.0.z)
        };
        for _ in 0..100_000 {
            let params = SteeringParams {
                max_accel: pick(&mut rng, 40.0).abs(),
                ..SteeringParams::default()
            };
            let dt = pick(&mut rng, 0.3).abs();
            let dv = pick3(&mut rng, 10.0);
            let Some(k) = TickConsts::new(&params, &ArrivalParams::default(), dt) else {
                continue;
            };
            assert!(same(
                velocity_change_k(dv, &k),
                velocity_change_checked(dv, k.max_accel, k.dt)
            ));
        }
    }

    #[test]
    fn integrate_with_is_integrate_checked() {
        let mut rng = crate::rng::Pcg32::seeded(31);
        for _ in 0..200_000 {
            let params = pick_params(&mut rng);
            let dt = pick(&mut rng, 0.3).abs();
            let Some(k) = TickConsts::new(&params, &ArrivalParams::default(), dt) else {
                continue;
            };
            let agent = Agent {
                position: pick3(&mut rng, 50.0),
                velocity: pick3(&mut rng, 5.0),
                yaw: pick(&mut rng, 4.0),
            };
            let steering = Steering {
                linear: pick3(&mut rng, 60.0),
                angular: pick(&mut rng, 20.0),
            };
            for within in [false, true] {
                let (mut a, mut b) = (agent, agent);
                super::super::integrate_checked(&mut a, &params, steering, dt, within);
                let rate = clamp(finite_or(steering.angular, 0.0), -k.turn, k.turn);
                integrate_with(
                    &mut b,
                    &k,
                    agent.position.sanitize(),
                    agent.velocity.sanitize(),
                    steering.linear,
                    within,
                    rate,
                );
                let what = format!("{agent:?} {steering:?} {params:?} {dt}");
                assert_eq!(a.state_hash(), b.state_hash(), "{what}");
            }
        }
    }

    #[test]
    fn schedule_shortcut_never_changes_the_result() {
        let mut rng = crate::rng::Pcg32::seeded(5);
        let mut taken = 0;
        for _ in 0..20_000 {
            let d = rng.range_f32(0.0, 50.0) * rng.next_f32();
            let a = rng.range_f32(0.1, 60.0);
            let dt = rng.range_f32(0.001, 0.25);
            let speed = rng.range_f32(0.0, 30.0);
            if schedule_exceeds(speed, d, a * dt, a * dt * dt) {
                taken += 1;
                assert!(
                    stopping_speed(d, a, dt) >= speed,
                    "d={d} a={a} dt={dt} speed={speed}"
                );
            }
        }
        assert!(taken > 1000);
    }

    #[test]
    fn arrival_step_stops_exactly_and_says_so() {
        let p = SteeringParams::default();
        let ap = ArrivalParams::default();
        let mut s = ArrivalState::new(Vec3::ZERO);
        let target = Vec3::new(10.0, 0.0, 0.0);
        let mut arrivals = [0; 2];
        for tick in 0..2000 {
            let was = s.arrived;
            let ev = arrival_step(&mut s, &p, &ap, target, 1.0 / 60.0);
            assert_eq!(ev.arrived, s.arrived);
            assert_eq!(ev.just_arrived, s.arrived && !was);
            assert!(!ev.rejected);
            arrivals[(tick >= 600) as usize] += ev.just_arrived as u32;
        }
        // Arrived within 10 s, once, and stayed.
        assert_eq!(arrivals, [1, 0]);
        assert!(s.arrived);
        assert_eq!(s.agent.velocity, Vec3::ZERO);
        assert!(s.agent.position.distance(target) <= ap.tolerance);
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let before = s;
            let ev = arrival_step(&mut s, &p, &ap, target, bad);
            let rejected = ArrivalEvents {
                arrived: true,
                just_arrived: false,
                rejected: true,
            };
            assert_eq!(ev, rejected);
            assert_eq!(s, before);
        }
    }

    /// A random value in `±scale`, or one in ten a special value.
    fn pick(rng: &mut crate::rng::Pcg32, scale: f32) -> f32 {
        const SPECIALS: [f32; 9] = [
            0.0,
            -0.0,
            1.0e-40,
            1.0e-30,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            3.0e38,
        ];
        if rng.below(10) == 0 {
            SPECIALS[rng.below(SPECIALS.len() as u32) as usize]
        } else {
            rng.range_f32(-scale, scale)
        }
    }

    fn pick3(rng: &mut crate::rng::Pcg32, scale: f32) -> Vec3 {
        Vec3::new(pick(rng, scale), pick(rng, scale), pick(rng, scale))
    }

    fn pick_params(rng: &mut crate::rng::Pcg32) -> SteeringParams {
        SteeringParams {
            max_speed: pick(rng, 20.0).abs(),
            max_accel: pick(rng, 60.0).abs(),
            max_turn_rate: pick(rng, 10.0),
            radius: 0.25,
        }
    }

    #[test]
    fn arrival_step_with_is_arrival_step() {
        let mut rng = crate::rng::Pcg32::seeded(27);
        for i in 0..100_000 {
            let params = pick_params(&mut rng);
            let arrival = ArrivalParams {
                brake_distance: pick(&mut rng, 5.0),
                tolerance: pick(&mut rng, 0.5),
                min_speed_fraction: pick(&mut rng, 1.5),
                face_velocity: rng.below(4) != 0,
            };
            let dt = pick(&mut rng, 0.3).abs();
            // Near the target often, so the exact stop and the ramp are reached.
            let target = pick3(&mut rng, 50.0);
            let near = if i % 3 == 0 { 0.05 } else { 30.0 };
            let mut start = ArrivalState {
                agent: Agent {
                    position: target + Vec3::new(rng.range_f32(-near, near), 0.0, 0.3 * near),
                    velocity: pick3(&mut rng, 5.0),
                    yaw: pick(&mut rng, 4.0),
                },
                arrived: rng.below(2) == 0,
            };
            if i % 11 == 0 {
                start.agent.position = pick3(&mut rng, 50.0);
            }
            let (mut a, mut b) = (start, start);
            for _ in 0..4 {
                let ea = arrival_step(&mut a, &params, &arrival, target, dt);
                let eb = match TickConsts::new(&params, &arrival, dt) {
                    Some(k) => arrival_step_with(&mut b, &k, target),
                    None => ArrivalEvents::rejected_step(b.arrived),
                };
                let what = format!("{start:?} {params:?} {arrival:?} {dt} {target:?}");
                assert_eq!(ea, eb, "{what}");
                assert_eq!(a.state_hash(), b.state_hash(), "{what}");
            }
        }
    }

    #[test]
    fn face_velocity_rate_is_look_where_going() {
        let mut rng = crate::rng::Pcg32::seeded(28);
        for _ in 0..200_000 {
            let params = SteeringParams {
                max_turn_rate: pick(&mut rng, 10.0),
                ..SteeringParams::default()
            };
            let agent = Agent {
                position: Vec3::ZERO,
                velocity: pick3(&mut rng, 5.0),
                yaw: pick(&mut rng, 4.0),
            };
            let Some(dt) = sanitize_dt(pick(&mut rng, 0.3)) else {
                continue;
            };
            let want = super::super::look_where_going(&agent, &params, dt).angular;
            let got = face_velocity_rate(&agent, params.turn_limit(), dt);
            assert_eq!(got.to_bits(), want.to_bits(), "{agent:?} {params:?} {dt}");
        }
    }

    #[test]
    fn tolerance_with_floor_is_effective_tolerance() {
        let mut rng = crate::rng::Pcg32::seeded(29);
        for _ in 0..200_000 {
            let target = pick3(&mut rng, 1.0e4);
            if !finite3(target) {
                continue;
            }
            let t = pick(&mut rng, 0.5);
            let floor = tolerance_floor(target);
            assert_eq!(floor.to_bits(), effective_tolerance(0.0, target).to_bits());
            let got = tolerance_with_floor(non_negative(t), floor);
            let want = effective_tolerance(t, target);
            assert_eq!(got.to_bits(), want.to_bits(), "{t} {target:?}");
        }
    }
}
