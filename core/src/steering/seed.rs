//! Seed 001 exactly: the cocos2d `MySteering update:` Arrival, per frame and with `dt`.
//!
//! The seed (Objective-C, cocos2d, 2-D) runs once per frame with every time unit equal to one
//! frame (1/60 s), so speeds are units/frame and accelerations units/frame²:
//!
//! ```text
//! desired  = target − position;  distance = |desired|
//! speed    = distance < brakeDistance ? maxSpeed·distance/brakeDistance : maxSpeed
//! if speed == 0: return                         // the author's NaN fix (zero distance)
//! desired  = normalize(desired)·speed
//! steer    = desired − velocity
//! if |steer| ≥ maxAccel: steer = normalize(steer)·maxAccel
//! velocity += steer
//! if |velocity| ≥ maxSpeed: velocity = normalize(velocity)·maxSpeed
//! position += velocity
//! rotation = 90° − degrees(atan2(velocity.y, velocity.x))   // head faces the velocity
//! ```
//!
//! [`arrival_seed_frame`] is that, operation for operation, on a [`Vec3`] (planar users keep
//! `y = 0`; the lengths then equal the seed's 2-D lengths). [`arrival_seed_dt`] is the same
//! algorithm with real time: speeds in units/s, accelerations in units/s², `dt` in s, so that
//! `steer` is limited to `maxAccel·dt` and the position advances by `velocity·dt`. With
//! `dt = 1/60`, per-frame speed = speed/60 and per-frame accel = accel/3600, the two agree to
//! rounding (tested).
//!
//! Deviations from the seed, all only where the seed would produce NaN or crash:
//! - `normalize` of a zero vector gives zero (cocos2d 2.x's `ccpNormalize` divides by zero);
//!   it is only reachable here with `maxAccel ≤ 0` or `brakeDistance ≤ 0`, which the seed asserts
//!   against.
//! - Non-finite target or agent state: nothing happens (the seed would store NaN).
//! - Negative or NaN parameters are read as 0 (the seed `NSAssert`s `maxAccel > 0 && maxSpeed > 0`
//!   in debug builds); `maxSpeed = 0` therefore takes the early return every frame.
//! - If the new position would overflow `f32`, nothing is stored.
//!
//! The seed keeps its velocity on the early return (it just does not move that frame); so does
//! this reproduction. hopkit's own arrival ([`super::arrive`]) stops exactly instead.

use super::{finite3, non_negative, sanitize_dt, Agent};
use crate::math::{scalar, Vec3};

/// The seed's tuning: `maxSpeed`, `maxAccel`, `brakeDistance`.
///
/// Units depend on the function: [`arrival_seed_frame`] reads per-frame units, [`arrival_seed_dt`]
/// per-second units ([`SeedArrivalParams::per_second`] converts). Negative/NaN/inf fields → 0.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct SeedArrivalParams {
    /// `maxSpeed`: units/frame (frame form) or units/s (dt form). Default 4.0 units/frame.
    pub max_speed: f32,
    /// `maxAccel`: units/frame² (frame form) or units/s² (dt form). Default 0.2 units/frame².
    pub max_accel: f32,
    /// `brakeDistance`: distance at which braking starts, units. Default 100.0.
    pub brake_distance: f32,
}

impl Default for SeedArrivalParams {
    /// A cocos2d-scale tuning in points and frames: 4 pt/frame, 0.2 pt/frame², brake at 100 pt.
    fn default() -> Self {
        SeedArrivalParams {
            max_speed: 4.0,
            max_accel: 0.2,
            brake_distance: 100.0,
        }
    }
}

impl SeedArrivalParams {
    /// Convert per-frame units at `frame_rate` frames/s to per-second units:
    /// speed × fps, accel × fps², brake distance unchanged.
    pub fn per_second(self, frame_rate: f32) -> Self {
        SeedArrivalParams {
            max_speed: self.max_speed * frame_rate,
            max_accel: self.max_accel * frame_rate * frame_rate,
            brake_distance: self.brake_distance,
        }
    }
}

/// cocos2d's `ccpNormalize` (`v · (1/|v|)`), except that zero length gives zero instead of NaN.
#[inline]
fn ccp_normalize(v: Vec3, len: f32) -> Vec3 {
    if len > 0.0 && len.is_finite() {
        v * (1.0 / len)
    } else {
        Vec3::ZERO
    }
}

/// The seed's braking speed: `maxSpeed·distance/brakeDistance` inside the brake distance.
#[inline]
fn seed_speed(distance: f32, max_speed: f32, brake: f32) -> f32 {
    if distance < brake {
        max_speed * distance / brake
    } else {
        max_speed
    }
}

/// Seed 001, one frame, per-frame units (`agent.velocity` in units/frame; see the module docs).
///
/// Also sets `agent.yaw` from the velocity as the seed's `rotation` line does
/// (`yaw = atan2(−v.x, −v.z)`: the body faces its velocity; a zero velocity faces +X, the seed's
/// rotation of 90°). Nothing changes on the seed's early return (zero distance or zero max speed).
pub fn arrival_seed_frame(agent: &mut Agent, target: Vec3, params: &SeedArrivalParams) {
    // One frame = the real-time form with dt = 1: `max_accel·1` and `velocity·1` are exact, so
    // this is bit-identical to the seed's per-frame arithmetic.
    if seed_step(agent, target, params, 1.0) {
        let v = agent.velocity;
        agent.yaw = if v.x == 0.0 && v.z == 0.0 {
            -core::f32::consts::FRAC_PI_2
        } else {
            scalar::atan2(-v.x, -v.z)
        };
    }
}

/// Seed 001 with real time: speeds units/s, accel units/s², `dt` seconds (see the module docs).
///
/// Identical to [`arrival_seed_frame`] except that the velocity change per step is limited to
/// `max_accel·dt` and the position advances by `velocity·dt`. Yaw is not touched. Invalid `dt`
/// (see [`super::sanitize_dt`]) → nothing changes.
pub fn arrival_seed_dt(agent: &mut Agent, target: Vec3, params: &SeedArrivalParams, dt: f32) {
    if let Some(dt) = sanitize_dt(dt) {
        seed_step(agent, target, params, dt);
    }
}

/// The seed's step with a velocity change of at most `max_accel·dt` and a move of `velocity·dt`.
/// Returns true if the agent moved (false: bad input, already at the target, or a non-finite
/// result; the agent is then untouched).
fn seed_step(agent: &mut Agent, target: Vec3, params: &SeedArrivalParams, dt: f32) -> bool {
    if !finite3(target) || !finite3(agent.position) || !finite3(agent.velocity) {
        return false;
    }
    let max_speed = non_negative(params.max_speed);
    let max_dv = non_negative(params.max_accel) * dt;
    let brake = non_negative(params.brake_distance);

    let mut desired = target - agent.position;
    let distance = desired.length();
    let speed = seed_speed(distance, max_speed, brake);
    if speed == 0.0 {
        return false;
    }
    desired = ccp_normalize(desired, distance) * speed;

    let mut steer = desired - agent.velocity;
    let steer_len = steer.length();
    if steer_len >= max_dv {
        steer = ccp_normalize(steer, steer_len) * max_dv;
    }
    let mut velocity = agent.velocity + steer;
    let speed_now = velocity.length();
    if speed_now >= max_speed {
        velocity = ccp_normalize(velocity, speed_now) * max_speed;
    }
    let position = agent.position + velocity * dt;
    if !finite3(position) || !finite3(velocity) {
        return false;
    }
    agent.position = position;
    agent.velocity = velocity;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn early_return_at_target_keeps_everything() {
        let mut a = Agent {
            position: Vec3::new(5.0, 0.0, 5.0),
            velocity: Vec3::new(1.0, 0.0, 0.0),
            yaw: 0.3,
        };
        let before = a;
        arrival_seed_frame(
            &mut a,
            Vec3::new(5.0, 0.0, 5.0),
            &SeedArrivalParams::default(),
        );
        assert_eq!(a, before);
    }

    #[test]
    fn first_frame_matches_hand_computation() {
        // From rest, 300 pt away (> brake): desired = 4 pt/frame, steer clamped to 0.2.
        let mut a = Agent::new(Vec3::ZERO);
        arrival_seed_frame(
            &mut a,
            Vec3::new(300.0, 0.0, 0.0),
            &SeedArrivalParams::default(),
        );
        assert_eq!(a.velocity, Vec3::new(0.2, 0.0, 0.0));
        assert_eq!(a.position, Vec3::new(0.2, 0.0, 0.0));
        // Facing +X: yaw −π/2.
        assert!((a.yaw + core::f32::consts::FRAC_PI_2).abs() < 1e-6);
    }
}
