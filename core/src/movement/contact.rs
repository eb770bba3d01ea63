//! Ground categorisation: is the character standing on walkable ground?
//!
//! Rules (Quake's `PM_CategorizePosition`, simplified to a height probe):
//! - The probe is asked for the ground below `position + up·ground_snap` (a surface slightly above
//!   the feet is still found). A non-finite hit counts as no ground.
//! - Walkable: `n.y ≥ min_ground_normal_y − walkable_tolerance` ([`MoveParams::is_walkable`]).
//! - Grounded: walkable, feet at most `ground_snap` above it (`step_down` if the character was
//!   grounded and did not jump: it follows ramps and steps down), and not rising faster than
//!   `max_ground_rise_speed`. A grounded character is snapped onto the surface with `vy = 0` (it
//!   moves horizontally and is re-snapped each tick, so planar speed is kept on ramps).
//! - Too steep ground is never ground: the character is airborne there. If it is below such a
//!   surface it is pushed up onto it and the velocity component into the surface is removed, so
//!   gravity makes it slide down (no friction applies — like a Quake surf ramp); the tick reports
//!   `sliding`.
//! - Below walkable ground while rising fast: pushed up, stays airborne.

use super::mover::MoverState;
use super::params::MoveParams;
use crate::ground::{GroundHit, GroundProbe};
use crate::math::Vec3;

/// What one ground test found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Contact {
    /// Became grounded (was airborne).
    pub landed: bool,
    /// Stopped being grounded without jumping.
    pub left_ground: bool,
    /// Touching or pushed out of ground too steep to stand on.
    pub sliding: bool,
    /// Downward speed at landing, units/s (0 unless `landed`).
    pub impact_speed: f32,
}

/// Ask the probe for the ground below `position` (from `ground_snap` above it); non-finite → none.
#[inline]
pub fn probe_ground(
    probe: &impl GroundProbe,
    position: Vec3,
    params: &MoveParams,
) -> Option<GroundHit> {
    let from = Vec3::new(position.x, position.y + params.ground_snap, position.z);
    match probe.probe(from) {
        Some(h) if h.height.is_finite() && h.normal.is_finite() => Some(h),
        _ => None,
    }
}

/// Remove the component of `v` pointing into a surface with unit normal `n` (Quake
/// `PM_ClipVelocity` with overbounce 1).
#[inline]
pub fn clip_into_surface(v: Vec3, n: Vec3) -> Vec3 {
    let into = v.dot(n);
    if into < 0.0 {
        v - n * into
    } else {
        v
    }
}

/// Categorise the character's position and update `grounded`, `ground_normal`, coyote time, and
/// snap/push-out. `stick` allows snapping down by `step_down` (grounded last, no jump since).
pub fn categorize_ground(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &impl GroundProbe,
    stick: bool,
) -> Contact {
    let was_grounded = state.grounded;
    let mut c = Contact::default();
    let grounded = match probe_ground(probe, state.position, params) {
        None => false,
        Some(hit) if params.is_walkable(hit.normal) => on_walkable(state, params, hit, stick),
        Some(hit) => {
            c.sliding = on_steep(state, params, hit);
            false
        }
    };
    if grounded {
        if !was_grounded {
            c.landed = true;
            c.impact_speed = if state.velocity.y < 0.0 {
                -state.velocity.y
            } else {
                0.0
            };
        }
        state.velocity.y = 0.0;
        state.coyote_timer = params.coyote_time;
    } else {
        state.ground_normal = Vec3::UP;
        c.left_ground = was_grounded;
    }
    state.grounded = grounded;
    c
}

/// Walkable ground under the feet: grounded (and snapped) if close enough and not rising fast.
#[inline]
fn on_walkable(state: &mut MoverState, params: &MoveParams, hit: GroundHit, stick: bool) -> bool {
    let gap = state.position.y - hit.height;
    let reach = if stick && params.step_down > params.ground_snap {
        params.step_down
    } else {
        params.ground_snap
    };
    let rising_fast = state.velocity.y > params.max_ground_rise_speed;
    if !rising_fast && gap <= reach {
        state.position.y = hit.height;
        state.ground_normal = hit.normal;
        return true;
    }
    if gap < 0.0 {
        state.position.y = hit.height;
        if state.velocity.y < 0.0 {
            state.velocity.y = 0.0;
        }
    }
    false
}

/// Too-steep ground: push out from below and clip the velocity against it. Returns `sliding`
/// (touching: feet below or within `ground_snap` of the surface).
#[inline]
fn on_steep(state: &mut MoverState, params: &MoveParams, hit: GroundHit) -> bool {
    let gap = state.position.y - hit.height;
    if gap < 0.0 {
        state.position.y = hit.height;
        state.velocity = clip_into_surface(state.velocity, hit.normal);
    }
    gap <= params.ground_snap
}
