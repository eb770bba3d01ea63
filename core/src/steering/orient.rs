//! Facing: turn the yaw towards a direction with a limited turn rate.
//!
//! These return only [`Steering::angular`], a yaw rate `clamp(error/dt, ±max_turn_rate)` where
//! `error` is the signed shortest angle (wrapped into `(−π, π]`; exactly 180° turns left), so
//! [`super::integrate`] lands exactly on the wanted yaw when it is within one step's reach and never
//! overshoots it. Combine with a linear behaviour by setting the `angular` field, e.g.
//! `Steering { angular: look_where_going(..).angular, ..seek(..) }`.

use super::{dir_len, finite3, sanitize_dt, Agent, Steering, SteeringParams};
use crate::math::{clamp, scalar, wrap_angle, Vec3};

/// Yaw (hopkit convention: 0 faces −Z, positive left) whose forward is the planar part of `dir`:
/// `atan2(−x, −z)`. `None` if the planar part is shorter than 1e-6 or not finite.
pub fn yaw_towards(dir: Vec3) -> Option<f32> {
    let planar = Vec3::new(dir.x, 0.0, dir.z);
    let (d, _) = dir_len(planar, 1.0e-6)?;
    Some(scalar::atan2(-d.x, -d.z))
}

/// Yaw rate that turns `yaw` towards `target_yaw` within the turn limit.
#[inline]
fn turn_rate(yaw: f32, target_yaw: f32, max_turn_rate: f32, dt: f32) -> f32 {
    let error = wrap_angle(target_yaw - yaw);
    clamp(error / dt, -max_turn_rate, max_turn_rate)
}

/// Align: turn to the yaw `target_yaw` (radians). Zero for invalid `dt` or non-finite input.
pub fn align(agent: &Agent, target_yaw: f32, params: &SteeringParams, dt: f32) -> Steering {
    let Some(dt) = sanitize_dt(dt) else {
        return Steering::ZERO;
    };
    if !agent.yaw.is_finite() || !target_yaw.is_finite() {
        return Steering::ZERO;
    }
    Steering::angular(turn_rate(agent.yaw, target_yaw, params.turn_limit(), dt))
}

/// Face: turn towards the point `target` (planar). Zero when the target is (planar) on top of the
/// agent, for invalid `dt` or non-finite input.
pub fn face(agent: &Agent, target: Vec3, params: &SteeringParams, dt: f32) -> Steering {
    if !finite3(target) || !finite3(agent.position) {
        return Steering::ZERO;
    }
    match yaw_towards(target - agent.position) {
        Some(yaw) => align(agent, yaw, params, dt),
        None => Steering::ZERO,
    }
}

/// Look where you're going: turn towards the planar velocity. Zero at (planar) rest, for invalid
/// `dt` or non-finite input.
pub fn look_where_going(agent: &Agent, params: &SteeringParams, dt: f32) -> Steering {
    match yaw_towards(agent.velocity) {
        Some(yaw) => align(agent, yaw, params, dt),
        None => Steering::ZERO,
    }
}
