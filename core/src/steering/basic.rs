//! Seek, flee, pursue, evade, and velocity matching.
//!
//! Each aims at a desired velocity (`direction · max_speed`) and asks for the velocity change that
//! reaches it within one step, limited to `max_accel` ([`steer_to_velocity`]) — the seed's
//! `steer = desired − velocity`, with `dt` in seconds.

use super::{
    dir_len, finish, finite3, non_negative, sanitize_dt, velocity_change, Agent, Steering,
    SteeringParams,
};
use crate::math::Vec3;

/// Distances below this (units) have no usable direction: seek/flee treat the target as reached.
const DIRECTION_EPSILON: f32 = 1.0e-6;

/// Velocity matching: the acceleration that brings the velocity to `desired_velocity`
/// (units/s) within one step of `dt`, limited to `max_accel`. Zero for invalid `dt` or non-finite
/// input. (`desired_velocity` longer than `max_speed` is not shortened here; [`super::integrate`]
/// caps the speed.)
pub fn steer_to_velocity(
    agent: &Agent,
    desired_velocity: Vec3,
    params: &SteeringParams,
    dt: f32,
) -> Steering {
    let Some(dt) = sanitize_dt(dt) else {
        return Steering::ZERO;
    };
    if !finite3(agent.velocity) || !finite3(desired_velocity) {
        return Steering::ZERO;
    }
    let max_accel = params.accel_limit();
    finish(
        velocity_change(desired_velocity - agent.velocity, max_accel, dt),
        max_accel,
    )
}

/// Seek: full speed straight towards `target`. At the target (closer than 1e-6) the desired
/// velocity is zero (it brakes; use [`super::arrive`] to stop gracefully). Non-finite input or
/// invalid `dt` → zero.
pub fn seek(agent: &Agent, target: Vec3, params: &SteeringParams, dt: f32) -> Steering {
    if !finite3(target) || !finite3(agent.position) {
        return Steering::ZERO;
    }
    let desired = match dir_len(target - agent.position, DIRECTION_EPSILON) {
        Some((dir, _)) => dir * params.speed_limit(),
        None => Vec3::ZERO,
    };
    steer_to_velocity(agent, desired, params, dt)
}

/// Flee: full speed straight away from `threat`. On top of the threat (closer than 1e-6) it keeps
/// running in its current direction of motion, or gets zero steering if it is at rest (no
/// direction to prefer). Non-finite input or invalid `dt` → zero.
pub fn flee(agent: &Agent, threat: Vec3, params: &SteeringParams, dt: f32) -> Steering {
    if !finite3(threat) || !finite3(agent.position) || !finite3(agent.velocity) {
        return Steering::ZERO;
    }
    let away = match dir_len(agent.position - threat, DIRECTION_EPSILON) {
        Some((dir, _)) => dir,
        None => match dir_len(agent.velocity, 0.0) {
            Some((dir, _)) => dir,
            None => return Steering::ZERO,
        },
    };
    steer_to_velocity(agent, away * params.speed_limit(), params, dt)
}

/// Where a moving target will be when the agent could get there:
/// `target + target_velocity·t` with `t = min(distance / max_speed, max_prediction)` seconds
/// (`t = max_prediction` if `max_speed` is 0). `max_prediction` NaN/inf/negative → 0 (no lead).
/// Non-finite input returns `target` unchanged; an overflowing prediction returns `target`.
pub fn predict_position(
    position: Vec3,
    target: Vec3,
    target_velocity: Vec3,
    max_speed: f32,
    max_prediction: f32,
) -> Vec3 {
    if !finite3(position) || !finite3(target) || !finite3(target_velocity) {
        return target;
    }
    let cap = non_negative(max_prediction);
    let speed = non_negative(max_speed);
    let distance = match dir_len(target - position, 0.0) {
        Some((_, d)) => d,
        None => 0.0,
    };
    let t = if speed > 0.0 {
        (distance / speed).min(cap)
    } else {
        cap
    };
    let predicted = target + target_velocity * t;
    if finite3(predicted) {
        predicted
    } else {
        target
    }
}

/// Pursue: seek the predicted position of a moving target ([`predict_position`] with the agent's
/// `max_speed`, prediction capped at `max_prediction` seconds).
pub fn pursue(
    agent: &Agent,
    target: Vec3,
    target_velocity: Vec3,
    max_prediction: f32,
    params: &SteeringParams,
    dt: f32,
) -> Steering {
    let aim = predict_position(
        agent.position,
        target,
        target_velocity,
        params.speed_limit(),
        max_prediction,
    );
    seek(agent, aim, params, dt)
}

/// Evade: flee the predicted position of a moving threat (as [`pursue`], reversed).
pub fn evade(
    agent: &Agent,
    threat: Vec3,
    threat_velocity: Vec3,
    max_prediction: f32,
    params: &SteeringParams,
    dt: f32,
) -> Steering {
    let aim = predict_position(
        agent.position,
        threat,
        threat_velocity,
        params.speed_limit(),
        max_prediction,
    );
    flee(agent, aim, params, dt)
}
