//! Obstacle avoidance (circles/spheres, lookahead feeler) and containment in an axis-aligned box.

use super::{dir_len, finish, finite3, non_negative, Agent, Steering, SteeringParams};
use crate::math::Vec3;

/// A round obstacle: a sphere (a circle for planar users at `y = 0`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Obstacle {
    /// Centre, units.
    pub centre: Vec3,
    /// Radius, units (NaN/inf/negative → 0).
    pub radius: f32,
}

/// Tunables of [`avoid_obstacles`]. NaN/inf/negative are read as 0.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AvoidParams {
    /// Feeler length per unit of speed, seconds (feeler = `min_lookahead + speed·lookahead_time`).
    /// Default 1.0.
    pub lookahead_time: f32,
    /// Feeler length at zero speed, units. Default 1.0.
    pub min_lookahead: f32,
    /// Extra clearance the feeler keeps from every obstacle, units (the feeler tests spheres of
    /// `radius + params.radius + margin`). Default 0.25. Absorbs the inward drift of whatever
    /// behaviour runs while the path is clear, so the body itself does not graze the obstacle.
    pub margin: f32,
}

impl Default for AvoidParams {
    fn default() -> Self {
        AvoidParams {
            lookahead_time: 1.0,
            min_lookahead: 1.0,
            margin: 0.25,
        }
    }
}

/// Obstacle avoidance.
///
/// 1. If the agent's body (radius `params.radius`) already overlaps obstacles, it is pushed out of
///    the deepest one, radially at `max_accel` (dead centre: against its velocity, or +X at rest).
/// 2. Otherwise a feeler of length `min_lookahead + speed·lookahead_time` is cast along the
///    velocity; for the nearest obstacle whose inflated sphere (`radius + params.radius + margin`)
///    it hits, the agent accelerates sideways, away from the obstacle's centre, at `max_accel`.
///    A dead-centre hit goes to the agent's right (`velocity × up`; any perpendicular when moving
///    vertically).
///
/// Returns zero when nothing is in the way (so it composes with [`super::priority`]), at rest
/// outside every obstacle, or for non-finite agent state. Non-finite obstacles are ignored.
pub fn avoid_obstacles(
    agent: &Agent,
    obstacles: &[Obstacle],
    params: &SteeringParams,
    avoid: &AvoidParams,
) -> Steering {
    if !finite3(agent.position) || !finite3(agent.velocity) {
        return Steering::ZERO;
    }
    let max_accel = params.accel_limit();
    let body = non_negative(params.radius);
    if let Some(push) = push_out(agent, obstacles, body) {
        return finish(push * max_accel, max_accel);
    }
    let Some((dir, speed)) = dir_len(agent.velocity, 1.0e-6) else {
        return Steering::ZERO;
    };
    let feeler = non_negative(avoid.min_lookahead) + speed * non_negative(avoid.lookahead_time);
    let margin = non_negative(avoid.margin);

    // Nearest obstacle hit by the swept body along the feeler.
    let mut nearest: Option<(f32, Vec3)> = None;
    for o in obstacles {
        if !finite3(o.centre) {
            continue;
        }
        let reach = non_negative(o.radius) + body + margin;
        let rel = o.centre - agent.position;
        let along = rel.dot(dir);
        if !along.is_finite() || along < 0.0 || along - reach > feeler {
            continue;
        }
        let closest = rel - dir * along;
        let lateral_sq = closest.length_squared();
        let reach_sq = reach * reach;
        if lateral_sq.is_nan() || lateral_sq >= reach_sq {
            continue;
        }
        let entry = along - crate::math::scalar::sqrt(reach_sq - lateral_sq);
        if entry > feeler {
            continue;
        }
        if nearest.is_none_or(|(e, _)| entry < e) {
            nearest = Some((entry, closest));
        }
    }
    let Some((_, closest)) = nearest else {
        return Steering::ZERO;
    };
    // Steer from the centre towards the feeler's closest point, i.e. sideways away from the centre.
    let away = match dir_len(-closest, 1.0e-6) {
        Some((d, _)) => d,
        None => match dir_len(dir.cross(Vec3::UP), 1.0e-6) {
            Some((d, _)) => d,
            None => dir.any_orthonormal(),
        },
    };
    finish(away * max_accel, max_accel)
}

/// Direction out of the most deeply penetrated obstacle, if the body overlaps any.
fn push_out(agent: &Agent, obstacles: &[Obstacle], body: f32) -> Option<Vec3> {
    let mut best: Option<(f32, Vec3)> = None;
    for o in obstacles {
        if !finite3(o.centre) {
            continue;
        }
        let reach = non_negative(o.radius) + body;
        let off = agent.position - o.centre;
        let (dir, d) = match dir_len(off, 1.0e-6) {
            Some(dl) => dl,
            None => (
                dir_len(-agent.velocity, 0.0).map_or(Vec3::X, |(d, _)| d),
                0.0,
            ),
        };
        let depth = reach - d;
        if depth > 0.0 && best.is_none_or(|(b, _)| depth > b) {
            best = Some((depth, dir));
        }
    }
    best.map(|(_, dir)| dir)
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Aabb {
    /// Minimum corner, units. Components may be `−inf` (unbounded); swapped min/max are sorted.
    pub min: Vec3,
    /// Maximum corner, units. Components may be `+inf` (unbounded).
    pub max: Vec3,
}

impl Aabb {
    /// Box from two corners.
    pub const fn new(min: Vec3, max: Vec3) -> Self {
        Aabb { min, max }
    }

    /// True if `p` is inside or on the boundary (NaN axes are ignored).
    pub fn contains(&self, p: Vec3) -> bool {
        let inside = |v: f32, a: f32, b: f32| {
            if a.is_nan() || b.is_nan() {
                return true;
            }
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            v >= lo && v <= hi
        };
        inside(p.x, self.min.x, self.max.x)
            && inside(p.y, self.min.y, self.max.y)
            && inside(p.z, self.min.z, self.max.z)
    }
}

/// Tunables of [`contain`]. NaN/inf/negative are read as 0.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ContainParams {
    /// How far ahead the position is predicted, seconds. Default 0.5.
    pub lookahead_time: f32,
    /// Keep this far inside the walls, units. Default 0.5. A box thinner than two margins on an
    /// axis pulls towards its middle plane.
    pub margin: f32,
}

impl Default for ContainParams {
    fn default() -> Self {
        ContainParams {
            lookahead_time: 0.5,
            margin: 0.5,
        }
    }
}

/// Containment: predict `position + velocity·lookahead_time`; on every axis where the prediction
/// is beyond the box shrunk by `margin`, push back by the excess; the summed push direction gets
/// `max_accel`. Zero while the prediction is inside (composes with [`super::priority`]).
///
/// Axes with a NaN bound are unconstrained; infinite bounds never trigger. Non-finite agent → zero.
pub fn contain(
    agent: &Agent,
    bounds: &Aabb,
    params: &SteeringParams,
    contain: &ContainParams,
) -> Steering {
    if !finite3(agent.position) || !finite3(agent.velocity) {
        return Steering::ZERO;
    }
    let ahead = agent.position + agent.velocity * non_negative(contain.lookahead_time);
    if !finite3(ahead) {
        return Steering::ZERO;
    }
    let margin = non_negative(contain.margin);
    let push = Vec3::new(
        axis_push(ahead.x, bounds.min.x, bounds.max.x, margin),
        axis_push(ahead.y, bounds.min.y, bounds.max.y, margin),
        axis_push(ahead.z, bounds.min.z, bounds.max.z, margin),
    );
    let max_accel = params.accel_limit();
    match dir_len(push, 0.0) {
        Some((dir, _)) => finish(dir * max_accel, max_accel),
        None => Steering::ZERO,
    }
}

/// Signed push on one axis: positive if `v` is below the shrunk interval, negative above.
#[inline]
fn axis_push(v: f32, a: f32, b: f32, margin: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        return 0.0;
    }
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let (mut lo_m, mut hi_m) = (lo + margin, hi - margin);
    if lo_m > hi_m {
        let mid = lo * 0.5 + hi * 0.5;
        lo_m = mid;
        hi_m = mid;
    }
    if v < lo_m {
        lo_m - v
    } else if v > hi_m {
        -(v - hi_m)
    } else {
        0.0
    }
}
