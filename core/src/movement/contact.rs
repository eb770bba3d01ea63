//! Ground categorisation: is the character standing on walkable ground?
//!
//! Rules (Quake's `PM_CategorizePosition`, simplified to a height probe):
//! - The probe is asked for the ground below `position + up·max(ground_snap, step_up)` (a surface
//!   slightly above the feet is still found). A non-finite hit counts as no ground.
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
//! - Walls: a height field has cliffs (e.g. the side of a ramp). Ground more than `step_up` above
//!   the feet's height at the start of the tick (beyond what a walkable slope explains) is a wall:
//!   the planar move is blocked on the axis that hit it ([`resolve_walls`]). Lower ledges are
//!   stepped onto (snapped up).

use super::params::MoveParams;
use super::state::MoverState;
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

/// Ask the probe for the ground below `position`, from `max(ground_snap, step_up)` above it (so a
/// multi-level probe still reports a ledge the character can step onto); non-finite → none.
#[inline]
pub(crate) fn probe_ground(
    probe: &impl GroundProbe,
    position: Vec3,
    params: &MoveParams,
) -> Option<GroundHit> {
    let lift = if params.step_up > params.ground_snap {
        params.step_up
    } else {
        params.ground_snap
    };
    let from = Vec3::new(position.x, position.y + lift, position.z);
    match probe.probe(from) {
        Some(h) if h.height.is_finite() && h.normal.is_finite() => Some(h),
        _ => None,
    }
}

/// Remove the component of `v` pointing into a surface with unit normal `n` (Quake
/// `PM_ClipVelocity` with overbounce 1).
#[inline]
pub(crate) fn clip_into_surface(v: Vec3, n: Vec3) -> Vec3 {
    let into = v.dot(n);
    if into < 0.0 {
        v - n * into
    } else {
        v
    }
}

/// Categorise the character's position and update `grounded`, `ground_normal`, coyote time, and
/// snap/push-out. `stick` allows snapping down by `step_down` (grounded last, no jump since).
pub(crate) fn categorize_ground(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &impl GroundProbe,
    stick: bool,
) -> Contact {
    let hit = probe_ground(probe, state.position, params);
    let walkable = walkable_probed(params, hit);
    let coyote = super::jump::timer_length(params.coyote_time);
    categorize(state, hit, walkable, stick, params, coyote, false)
}

/// [`categorize_ground`] with the probe result for `state.position` already in hand.
pub(crate) fn categorize_hit(
    state: &mut MoverState,
    params: &MoveParams,
    hit: Option<GroundHit>,
    stick: bool,
) -> Contact {
    let walkable = matches!(hit, Some(h) if params.is_walkable(h.normal));
    let coyote = super::jump::timer_length(params.coyote_time);
    categorize(state, hit, walkable, stick, params, coyote, false)
}

/// [`categorize_hit`] for a result of [`probe_ground`], whose normal is finite: walkable is then
/// the slope test alone (the finiteness half of [`MoveParams::is_walkable`] is already done).
/// The step's form: the coyote time it stores on the ground is flushed
/// ([`crate::math::scalar::flush_subnormal`]), and with `flush_normal` the ground normal too —
/// what the end of a tick would do to them.
#[inline]
pub(super) fn categorize_probed(
    state: &mut MoverState,
    params: &MoveParams,
    hit: Option<GroundHit>,
    stick: bool,
    flush_normal: bool,
) -> Contact {
    let walkable = walkable_probed(params, hit);
    let coyote = super::jump::timer_length_flushed(params.coyote_time);
    categorize(state, hit, walkable, stick, params, coyote, flush_normal)
}

/// [`MoveParams::is_walkable`] for a result of [`probe_ground`], whose normal is finite: the
/// slope test alone.
#[inline]
fn walkable_probed(params: &MoveParams, hit: Option<GroundHit>) -> bool {
    let min_y = params.min_ground_normal_y - params.walkable_tolerance;
    matches!(hit, Some(h) if h.normal.y >= min_y)
}

/// The categorisation itself, with `walkable` = the hit's normal is walkable, `coyote` the coyote
/// time to store on the ground, and `flush_normal` as in [`categorize_probed`].
#[inline]
fn categorize(
    state: &mut MoverState,
    hit: Option<GroundHit>,
    walkable: bool,
    stick: bool,
    params: &MoveParams,
    coyote: f32,
    flush_normal: bool,
) -> Contact {
    let was_grounded = state.grounded;
    let mut c = Contact::default();
    let mut normal = Vec3::UP;
    let grounded = match hit {
        None => false,
        Some(hit) if walkable => {
            normal = hit.normal;
            on_walkable(state, params, hit, stick)
        }
        Some(hit) => {
            c.sliding = on_steep(state, params, hit);
            false
        }
    };
    if grounded {
        if !was_grounded {
            c.landed = true;
            // An overflowed fall (a velocity the tick's guard has yet to clamp) is reported as
            // `f32::MAX`: events are finite whenever the inputs are.
            c.impact_speed = if state.velocity.y < 0.0 {
                crate::math::finite_or(-state.velocity.y, f32::MAX)
            } else {
                0.0
            };
        }
        state.velocity.y = 0.0;
        state.ground_normal = if flush_normal {
            normal.flush_subnormal()
        } else {
            normal
        };
        state.coyote_timer = coyote;
    } else {
        state.ground_normal = Vec3::UP;
        c.left_ground = was_grounded;
    }
    state.grounded = grounded;
    c
}

/// Walkable ground under the feet: grounded (and snapped) if close enough and not rising fast.
/// The caller stores the ground normal.
#[inline]
fn on_walkable(state: &mut MoverState, params: &MoveParams, hit: GroundHit, stick: bool) -> bool {
    let gap = state.position.y - hit.height;
    // Within reach: `gap ≤ reach` with `reach = step_down` if sticking and `step_down >
    // ground_snap`, else `ground_snap` — tested as `gap ≤ ground_snap` first (the common case:
    // standing on the ground, one compare), then the longer reach.
    let snap = params.ground_snap;
    let within = gap <= snap || (stick && params.step_down > snap && gap <= params.step_down);
    let rising_fast = state.velocity.y > params.max_ground_rise_speed;
    if !rising_fast && within {
        state.position.y = hit.height;
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

/// True if `hit` (the ground under `pos`) is a wall for a character whose feet were at `from`: the
/// surface is more than `step_up` above the old feet height, plus what the steepest walkable slope
/// rises over the planar distance moved (measured as `|dx| + |dz|`, which over-estimates it, so a
/// walkable ramp is never a wall at any speed).
///
/// Costs nothing extra in the common case; the slope allowance (one sqrt, one divide) is computed
/// only when the surface is higher than `step_up`.
pub(crate) fn is_wall(params: &MoveParams, hit: Option<GroundHit>, pos: Vec3, from: Vec3) -> bool {
    let Some(h) = hit else {
        return false;
    };
    let rise = h.height - from.y;
    if !(rise > params.step_up) {
        return false;
    }
    let run = (pos.x - from.x).abs() + (pos.z - from.z).abs();
    rise > params.step_up + run * max_rise_per_run(params)
}

/// `tan` of the slope limit, from `min_ground_normal_y − walkable_tolerance` (= cos): `√(1−c²)/c`.
/// A limit of 90° or more (c ≤ 0) gives `f32::INFINITY` (nothing is a wall).
#[inline]
fn max_rise_per_run(params: &MoveParams) -> f32 {
    let c = params.min_ground_normal_y - params.walkable_tolerance;
    if !(c > 0.0) {
        return f32::INFINITY;
    }
    if c >= 1.0 {
        return 0.0;
    }
    crate::math::scalar::sqrt(1.0 - c * c) / c
}

/// Stop a move that ran into a wall ([`is_wall`]): keep the X part of the move if that is clear
/// (zeroing `vz`), else the Z part (zeroing `vx`), else undo the planar move (zeroing both) —
/// sliding along axis-aligned walls. Height-field worlds have no wall normals, so this is the
/// simple, always-safe choice. `from` must be a non-wall position (the tick's start, which the
/// start-of-tick categorisation has already pushed out of the ground). Returns the probe result for
/// the final position and whether a wall was hit. 1 probe when nothing is hit, up to 5 when one is
/// (the blocking tries two positions, then the ground where the move was put back to is probed).
pub(crate) fn resolve_walls(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &impl GroundProbe,
    from: Vec3,
) -> (Option<GroundHit>, bool) {
    let hit = probe_ground(probe, state.position, params);
    match hit {
        Some(h) if block_walls(state, params, probe, from, h) => {
            (probe_ground(probe, state.position, params), true)
        }
        _ => (hit, false),
    }
}

/// [`is_wall`]'s first test (ground more than `step_up` above `from`), which the common case
/// fails: a subtraction and a compare, no call. Where it passes, [`block_walls`] finishes the
/// wall check and blocks the move.
#[inline]
pub(super) fn may_be_wall(params: &MoveParams, hit: GroundHit, from: Vec3) -> bool {
    hit.height - from.y > params.step_up
}

/// The blocking of [`resolve_walls`], given `hit`, the ground under `state.position` (the step
/// calls it once [`may_be_wall`] is true for `hit`: the rare path, out of line): the whole
/// [`is_wall`] test, then the blocking. Returns whether a wall was hit; the caller then probes the
/// ground where the move was put back to.
#[inline(never)]
pub(super) fn block_walls(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &impl GroundProbe,
    from: Vec3,
    hit: GroundHit,
) -> bool {
    if !is_wall(params, Some(hit), state.position, from) {
        return false;
    }
    let p = state.position;
    let x_only = Vec3::new(p.x, p.y, from.z);
    if !is_wall(params, probe_ground(probe, x_only, params), x_only, from) {
        state.position = x_only;
        state.velocity.z = 0.0;
        return true;
    }
    let z_only = Vec3::new(from.x, p.y, p.z);
    if !is_wall(params, probe_ground(probe, z_only, params), z_only, from) {
        state.position = z_only;
        state.velocity.x = 0.0;
        return true;
    }
    state.position = Vec3::new(from.x, p.y, from.z);
    state.velocity.x = 0.0;
    state.velocity.z = 0.0;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::FlatGround;
    use crate::hash::StateHash;
    use crate::math::Vec2;

    /// Walls (cells 1.5 higher), holes and steep ground in 2-unit cells.
    struct Cells;

    impl GroundProbe for Cells {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            let cell = ((p.x * 0.5) as i32).wrapping_add(((p.z * 0.5) as i32).wrapping_mul(7));
            let up = Vec3::UP;
            match cell.rem_euclid(6) {
                0 => None,
                1 | 2 => Some(GroundHit {
                    height: 1.5,
                    normal: up,
                }),
                3 => Some(GroundHit {
                    height: 0.2,
                    normal: Vec3::new(0.8, 0.6, 0.0),
                }),
                _ => Some(GroundHit {
                    height: 0.0,
                    normal: up,
                }),
            }
        }
    }

    /// `resolve_walls` as it was written before it called `block_walls`: every test's probe kept.
    fn resolve_walls_as_written(
        state: &mut MoverState,
        params: &MoveParams,
        probe: &impl GroundProbe,
        from: Vec3,
    ) -> (Option<GroundHit>, bool) {
        let hit = probe_ground(probe, state.position, params);
        if !is_wall(params, hit, state.position, from) {
            return (hit, false);
        }
        let p = state.position;
        for (q, keep_x) in [
            (Vec3::new(p.x, p.y, from.z), true),
            (Vec3::new(from.x, p.y, p.z), false),
        ] {
            let h = probe_ground(probe, q, params);
            if !is_wall(params, h, q, from) {
                state.position = q;
                if keep_x {
                    state.velocity.z = 0.0;
                } else {
                    state.velocity.x = 0.0;
                }
                return (h, true);
            }
        }
        state.position = Vec3::new(from.x, p.y, from.z);
        state.velocity.x = 0.0;
        state.velocity.z = 0.0;
        (probe_ground(probe, state.position, params), true)
    }

    #[test]
    fn resolve_walls_is_as_written() {
        let mut rng = crate::rng::Pcg32::seeded(31);
        let mut walls = 0;
        for i in 0..20_000 {
            let params = [MoveParams::seed(), MoveParams::quake3()][i % 2];
            let from = Vec3::new(rng.range_f32(-9.0, 9.0), 0.0, rng.range_f32(-9.0, 9.0));
            let d = Vec2::new(rng.range_f32(-3.0, 3.0), rng.range_f32(-3.0, 3.0));
            let mut s = MoverState::new(Vec3::new(from.x + d.x, 0.1, from.z + d.y));
            s.velocity = Vec3::new(d.x * 60.0, -1.0, d.y * 60.0);
            let mut t = s;
            let got = resolve_walls(&mut s, &params, &Cells, from);
            let want = resolve_walls_as_written(&mut t, &params, &Cells, from);
            assert_eq!(got, want, "from {from:?} to {:?}", t.position);
            assert_eq!(s.state_hash(), t.state_hash());
            walls += got.1 as u32;
        }
        assert!(walls > 100, "{walls}");
        let mut s = MoverState::new(Vec3::ZERO);
        let flat = FlatGround::new(0.0);
        assert!(!resolve_walls(&mut s, &MoveParams::seed(), &flat, Vec3::ZERO).1);
    }
}
