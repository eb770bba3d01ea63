//! Wander (Reynolds): aim at a point that drifts randomly on a circle held ahead of the agent.
//!
//! Planar (X/Z): the circle of radius [`WanderParams::radius`] sits [`WanderParams::offset`] units
//! ahead along the planar velocity (or along the yaw when the agent is at rest); the point's angle
//! on it takes a random-walk step of `jitter·√dt` radians each tick (so its spread after one second
//! is the same at any tick rate), drawn from the state's own [`Pcg32`]. The output is full
//! acceleration towards that point. Same seed + same inputs → bit-identical sequence.

use super::{dir_len, finish, non_negative, sanitize_dt, Agent, Steering, SteeringParams};
use crate::hash::{StateHash, StateHasher};
use crate::math::{finite_or, scalar, wrap_angle, yaw_forward, Vec3};
use crate::rng::Pcg32;

/// Tunables of [`wander`]. NaN/inf/negative are read as 0.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct WanderParams {
    /// Distance of the wander circle's centre ahead of the agent, units. Default 2.0.
    pub offset: f32,
    /// Radius of the wander circle, units. Default 1.0.
    pub radius: f32,
    /// Random-walk rate of the angle on the circle, rad/√s (per-tick step `±jitter·√dt`).
    /// Default 3.0.
    pub jitter: f32,
}

impl Default for WanderParams {
    fn default() -> Self {
        WanderParams {
            offset: 2.0,
            radius: 1.0,
            jitter: 3.0,
        }
    }
}

/// Wander state: the generator and the angle of the wander point on its circle.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct WanderState {
    /// The agent's own random generator.
    pub rng: Pcg32,
    /// Angle of the wander point on the circle relative to the heading, radians in `(−π, π]`
    /// (0 = straight ahead, positive = left).
    pub angle: f32,
}

impl WanderState {
    /// Fresh state from a seed (`Pcg32::seeded(seed)`), angle 0.
    pub const fn new(seed: u64) -> Self {
        WanderState {
            rng: Pcg32::seeded(seed),
            angle: 0.0,
        }
    }
}

impl StateHash for WanderState {
    fn hash_state(&self, h: &mut StateHasher) {
        self.rng.hash_state(h);
        h.write_f32(self.angle);
    }
}

/// Planar unit heading `(x, 0, z)`: the planar velocity direction, or the yaw's forward at rest.
fn planar_heading(agent: &Agent) -> Vec3 {
    let planar = Vec3::new(agent.velocity.x, 0.0, agent.velocity.z);
    match dir_len(planar, 1.0e-6) {
        Some((dir, _)) => dir,
        None => Vec3::from_planar(yaw_forward(finite_or(agent.yaw, 0.0)), 0.0),
    }
}

/// One wander tick: advances the state's angle and returns full acceleration towards the wander
/// point. Invalid `dt` → zero and the state is untouched. Non-finite agent → zero, but the random
/// walk still advances (so the random sequence does not depend on the agent's validity).
pub fn wander(
    agent: &Agent,
    state: &mut WanderState,
    params: &SteeringParams,
    wander: &WanderParams,
    dt: f32,
) -> Steering {
    let Some(dt) = sanitize_dt(dt) else {
        return Steering::ZERO;
    };
    let step = state.rng.signed_unit() * non_negative(wander.jitter) * scalar::sqrt(dt);
    state.angle =
        crate::math::scalar::flush_subnormal(wrap_angle(finite_or(state.angle, 0.0) + step));
    if !agent.is_finite() {
        return Steering::ZERO;
    }
    let forward = planar_heading(agent);
    // Left of forward in the X/Z plane (Y up, right-handed): up × forward.
    let left = Vec3::new(forward.z, 0.0, -forward.x);
    let (s, c) = scalar::sin_cos(state.angle);
    let on_circle = forward * c + left * s;
    let aim = forward * non_negative(wander.offset) + on_circle * non_negative(wander.radius);
    match dir_len(aim, 0.0) {
        Some((dir, _)) => finish(dir * params.accel_limit(), params.accel_limit()),
        None => Steering::ZERO,
    }
}
