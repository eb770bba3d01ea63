//! Flocking over a caller-supplied neighbour list: separation, cohesion, alignment.
//!
//! The caller owns the neighbour query (a grid, a brute-force loop, …) and passes a slice, usually
//! a `heapless::Vec<Neighbour, N>` (it derefs to a slice). [`gather_neighbours`] fills such a
//! fixed-capacity list from candidates and documents what happens when more are in range than fit:
//! it keeps the `N` nearest and reports how many were left out.
//!
//! Every function skips the entry whose `id` equals the agent's own id (so the agent may appear in
//! its own list), entries with non-finite position/velocity, and entries so far away that the
//! squared offset overflows `f32` (about 1.8·10¹⁹ units).
//!
//! [`flock`] computes all three in one pass over the list with results bit-identical to the
//! separate functions (they share one implementation); prefer it when you use more than one.
//! Ranges are compared on squared distances, so only neighbours inside the separation radius cost
//! a square root.
//!
//! Overlapping agents: when a neighbour is closer than [`COINCIDENT_DISTANCE`] there is no
//! meaningful "away" direction. Separation then pushes along a deterministic planar direction
//! derived from the pair of ids, with opposite signs for the two agents, so two agents stacked
//! exactly on each other separate (instead of giving NaN or both fleeing the same way). A neighbour
//! with the same id is skipped.

use super::{
    clamp_len, dir_len, finish, finite3, non_negative, sanitize_dt, velocity_change, Agent,
    Steering, SteeringParams,
};
use crate::math::{scalar, Vec3};

/// Below this distance (units) two agents are treated as coincident by [`separation`].
pub const COINCIDENT_DISTANCE: f32 = 1.0e-6;

/// What an agent knows about one neighbour.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Neighbour {
    /// Position, units.
    pub position: Vec3,
    /// Velocity, units/s.
    pub velocity: Vec3,
    /// Identifier, unique within the flock (used to skip oneself and to split coincident pairs).
    pub id: u32,
}

impl Neighbour {
    /// Snapshot of an agent with an id.
    #[inline]
    pub const fn of(agent: &Agent, id: u32) -> Self {
        Neighbour {
            position: agent.position,
            velocity: agent.velocity,
            id,
        }
    }

    #[inline]
    fn is_finite(&self) -> bool {
        finite3(self.position) && finite3(self.velocity)
    }
}

/// A fixed-capacity neighbour list (`heapless::Vec`, derefs to `&[Neighbour]`). `push` on a full
/// list returns `Err(neighbour)` and keeps the stored entries; [`gather_neighbours`] fills one
/// keeping the nearest.
pub type Neighbours<const N: usize> = heapless::Vec<Neighbour, N>;

/// Flocking radii. NaN/inf/negative are read as 0 (behaviour off).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FlockParams {
    /// Separation acts on neighbours closer than this, units; push strength falls linearly from 1
    /// (touching) to 0 (at the radius). Default 1.0.
    pub separation_radius: f32,
    /// Cohesion and alignment consider neighbours closer than this, units. Default 3.0.
    pub neighbour_radius: f32,
}

impl Default for FlockParams {
    fn default() -> Self {
        FlockParams {
            separation_radius: 1.0,
            neighbour_radius: 3.0,
        }
    }
}

/// Eight planar unit directions (X/Z), for splitting coincident pairs without trigonometry.
const SPLIT_DIRS: [Vec3; 8] = [
    Vec3::new(1.0, 0.0, 0.0),
    Vec3::new(
        core::f32::consts::FRAC_1_SQRT_2,
        0.0,
        core::f32::consts::FRAC_1_SQRT_2,
    ),
    Vec3::new(0.0, 0.0, 1.0),
    Vec3::new(
        -core::f32::consts::FRAC_1_SQRT_2,
        0.0,
        core::f32::consts::FRAC_1_SQRT_2,
    ),
    Vec3::new(-1.0, 0.0, 0.0),
    Vec3::new(
        -core::f32::consts::FRAC_1_SQRT_2,
        0.0,
        -core::f32::consts::FRAC_1_SQRT_2,
    ),
    Vec3::new(0.0, 0.0, -1.0),
    Vec3::new(
        core::f32::consts::FRAC_1_SQRT_2,
        0.0,
        -core::f32::consts::FRAC_1_SQRT_2,
    ),
];

/// Deterministic push direction for agent `me` away from a coincident `other`: a direction picked
/// by a hash of the unordered id pair, negated for the larger id. `None` if the ids are equal.
fn coincident_push(me: u32, other: u32) -> Option<Vec3> {
    if me == other {
        return None;
    }
    let (lo, hi) = if me < other { (me, other) } else { (other, me) };
    let h = (lo.wrapping_mul(0x9E37_79B9) ^ hi.wrapping_mul(0x85EB_CA6B)).rotate_left(13);
    let dir = SPLIT_DIRS
        .get((h >> 29) as usize)
        .copied()
        .unwrap_or(Vec3::X);
    Some(if me == lo { dir } else { -dir })
}

/// Separation: push away from neighbours closer than `separation_radius`, each with weight
/// `1 − distance/radius`; the summed push (capped at length 1) scales `max_accel`.
/// Coincident neighbours: see the module docs. Non-finite agent → zero.
pub fn separation(
    agent: &Agent,
    self_id: u32,
    neighbours: &[Neighbour],
    flock: &FlockParams,
    params: &SteeringParams,
) -> Steering {
    flock_slice(
        agent,
        self_id,
        neighbours,
        flock,
        params,
        None,
        Want::SEPARATION,
    )
    .separation
}

/// Cohesion: accelerate towards the average position of neighbours within `neighbour_radius`,
/// with `max_accel·min(1, offset/neighbour_radius)` (fades out at the centre, so a flock at rest
/// does not jitter). No neighbours in range → zero.
pub fn cohesion(
    agent: &Agent,
    self_id: u32,
    neighbours: &[Neighbour],
    flock: &FlockParams,
    params: &SteeringParams,
) -> Steering {
    flock_slice(
        agent,
        self_id,
        neighbours,
        flock,
        params,
        None,
        Want::COHESION,
    )
    .cohesion
}

/// Alignment: match the average velocity of neighbours within `neighbour_radius` (velocity
/// matching as [`super::steer_to_velocity`]). No neighbours in range, invalid `dt` or non-finite
/// agent → zero.
pub fn alignment(
    agent: &Agent,
    self_id: u32,
    neighbours: &[Neighbour],
    flock: &FlockParams,
    params: &SteeringParams,
    dt: f32,
) -> Steering {
    flock_slice(
        agent,
        self_id,
        neighbours,
        flock,
        params,
        sanitize_dt(dt),
        Want::ALIGNMENT,
    )
    .alignment
}

/// The three flocking behaviours of one agent, from [`flock`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Flocking {
    /// Same as [`separation`].
    pub separation: Steering,
    /// Same as [`cohesion`].
    pub cohesion: Steering,
    /// Same as [`alignment`].
    pub alignment: Steering,
}

/// [`separation`], [`cohesion`] and [`alignment`] in one pass over `neighbours`; each field is
/// bit-identical to calling that function (they share this code), including the zero results for
/// bad input.
pub fn flock(
    agent: &Agent,
    self_id: u32,
    neighbours: &[Neighbour],
    flock: &FlockParams,
    params: &SteeringParams,
    dt: f32,
) -> Flocking {
    flock_slice(
        agent,
        self_id,
        neighbours,
        flock,
        params,
        sanitize_dt(dt),
        Want::ALL,
    )
}

/// Which flocking outputs a pass computes.
#[derive(Clone, Copy)]
struct Want {
    separation: bool,
    cohesion: bool,
    alignment: bool,
}

impl Want {
    const SEPARATION: Want = Want {
        separation: true,
        cohesion: false,
        alignment: false,
    };
    const COHESION: Want = Want {
        separation: false,
        cohesion: true,
        alignment: false,
    };
    const ALIGNMENT: Want = Want {
        separation: false,
        cohesion: false,
        alignment: true,
    };
    const ALL: Want = Want {
        separation: true,
        cohesion: true,
        alignment: true,
    };
}

/// An index into the agent slice given to [`flock_indexed`]: `u16`, `u32` or `usize`.
///
/// The neighbour's id (for skipping oneself and splitting coincident pairs, see the module docs) is
/// the index itself, truncated to `u32` for `usize` indices above `u32::MAX`.
pub trait NeighbourIndex: Copy {
    /// The index as a `usize` (slice position).
    fn to_index(self) -> usize;
    /// The index as the neighbour's id.
    fn to_id(self) -> u32;
}

impl NeighbourIndex for u16 {
    #[inline(always)]
    fn to_index(self) -> usize {
        usize::from(self)
    }
    #[inline(always)]
    fn to_id(self) -> u32 {
        u32::from(self)
    }
}

impl NeighbourIndex for u32 {
    #[inline(always)]
    fn to_index(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn to_id(self) -> u32 {
        self
    }
}

impl NeighbourIndex for usize {
    #[inline(always)]
    fn to_index(self) -> usize {
        self
    }
    #[inline(always)]
    fn to_id(self) -> u32 {
        self as u32
    }
}

/// [`flock`] over the agents `agents[i]` for every `i` in `indices`, read in place: no neighbour
/// list is built or copied. Each neighbour's id is its index (see [`NeighbourIndex`]), so
/// `self_id` should be the agent's own index in `agents` (the agent may then appear in
/// `indices`; it is skipped).
///
/// Bit-identical to [`flock`] over the list `Neighbour::of(&agents[i], i)` for `i` in `indices`
/// (same code). Indices past the end of `agents` are skipped (never a panic); the usual guards
/// apply (non-finite neighbours skipped, zero results for bad input, never NaN). `agents` is
/// usually last tick's snapshot; `agent` may be a copy of one of its entries.
///
/// Typical use with a spatial grid that hands out `u16`/`u32` indices:
/// ```
/// use hopkit::math::Vec3;
/// use hopkit::steering::{flock_indexed, Agent, FlockParams, SteeringParams};
///
/// let snapshot = [
///     Agent::at(Vec3::ZERO),
///     Agent::at(Vec3::new(0.5, 0.0, 0.0)),
///     Agent::at(Vec3::new(0.0, 0.0, 2.0)),
/// ];
/// let near_0: [u16; 2] = [1, 2];
/// let f = flock_indexed(
///     &snapshot[0],
///     0,
///     &snapshot,
///     &near_0,
///     &FlockParams::default(),
///     &SteeringParams::default(),
///     1.0 / 60.0,
/// );
/// assert!(f.separation.linear.x < 0.0); // pushed away from agent 1
/// assert!(f.cohesion.linear.z > 0.0); // pulled towards the group's centre
/// ```
#[inline]
pub fn flock_indexed<I: NeighbourIndex>(
    agent: &Agent,
    self_id: u32,
    agents: &[Agent],
    indices: &[I],
    flock: &FlockParams,
    params: &SteeringParams,
    dt: f32,
) -> Flocking {
    flock_pass(
        agent,
        self_id,
        indices.iter().filter_map(|&i| {
            agents.get(i.to_index()).map(|a| NeighbourRef {
                position: a.position,
                velocity: a.velocity,
                id: i.to_id(),
            })
        }),
        flock,
        params,
        sanitize_dt(dt),
        Want::ALL,
    )
}

/// [`flock`] over any iterator of neighbours (for example a grid query, or
/// `indices.iter().map(|&i| Neighbour::of(&agents[i], i as u32))`), consumed once, without
/// collecting it into a list. Bit-identical to [`flock`] over the same neighbours in the same
/// order (same code), with the same guards.
#[inline]
pub fn flock_iter<N: IntoIterator<Item = Neighbour>>(
    agent: &Agent,
    self_id: u32,
    neighbours: N,
    flock: &FlockParams,
    params: &SteeringParams,
    dt: f32,
) -> Flocking {
    flock_pass(
        agent,
        self_id,
        neighbours.into_iter().map(|n| NeighbourRef {
            position: n.position,
            velocity: n.velocity,
            id: n.id,
        }),
        flock,
        params,
        sanitize_dt(dt),
        Want::ALL,
    )
}

/// One neighbour as the flocking pass reads it (built in registers from wherever it lives).
#[derive(Clone, Copy)]
struct NeighbourRef {
    position: Vec3,
    velocity: Vec3,
    id: u32,
}

/// The single implementation behind the flocking functions.
///
/// Distances are compared squared (`|offset|² < radius²`), so only neighbours inside the
/// separation radius cost a square root. A neighbour whose squared offset overflows `f32`
/// (farther than about 1.8·10¹⁹ units) is out of range.
#[inline(always)]
fn flock_pass(
    agent: &Agent,
    self_id: u32,
    neighbours: impl Iterator<Item = NeighbourRef>,
    flock: &FlockParams,
    params: &SteeringParams,
    dt: Option<f32>,
    want: Want,
) -> Flocking {
    let mut out = Flocking::default();
    if !finite3(agent.position) {
        return out;
    }
    let sep_radius = non_negative(flock.separation_radius);
    let near_radius = non_negative(flock.neighbour_radius);
    let sep_on = want.separation && sep_radius > 0.0;
    let coh_on = want.cohesion && near_radius > 0.0;
    let ali_on = want.alignment && near_radius > 0.0 && finite3(agent.velocity) && dt.is_some();
    if !sep_on && !coh_on && !ali_on {
        return out;
    }
    let sep_r2 = sep_radius * sep_radius;
    let near_r2 = near_radius * near_radius;
    let inv_sep = 1.0 / sep_radius;
    let coincident_r2 = COINCIDENT_DISTANCE * COINCIDENT_DISTANCE;

    // Farthest squared distance that matters: anything beyond (and NaN/inf `d2`, which fails
    // every comparison) is skipped before the other guards.
    let reach_r2 = if sep_on && sep_r2 > near_r2 {
        sep_r2
    } else {
        near_r2
    };
    let position = agent.position;

    let mut push = Vec3::ZERO;
    let mut offset_sum = Vec3::ZERO;
    let mut velocity_sum = Vec3::ZERO;
    let mut count = 0u32;
    for n in neighbours {
        // A non-finite neighbour position shows up as a NaN or infinite `d2`, and so does a
        // squared offset that overflows: both fail `d2 < reach_r2` (strict, so even an infinite
        // radius keeps them out).
        let away = position - n.position;
        let d2 = away.length_squared();
        let in_reach = d2 < reach_r2;
        if !in_reach || n.id == self_id || !finite3(n.velocity) {
            continue;
        }
        if sep_on && d2 < sep_r2 {
            if d2 > coincident_r2 {
                // dir·(1 − d/r) = away·(1/d − 1/r)
                let d = scalar::sqrt(d2);
                push += away * (1.0 / d - inv_sep);
            } else if let Some(dir) = coincident_push(self_id, n.id) {
                push += dir;
            }
        }
        if d2 < near_r2 {
            offset_sum -= away;
            velocity_sum += n.velocity;
            count = count.saturating_add(1);
        }
    }

    let max_accel = params.accel_limit();
    if sep_on {
        out.separation = finish(clamp_len(push, 1.0) * max_accel, max_accel);
    }
    if count == 0 {
        return out;
    }
    let inv = 1.0 / count as f32;
    if coh_on {
        if let Some((dir, d)) = dir_len(offset_sum * inv, 0.0) {
            out.cohesion = finish(dir * (max_accel * (d / near_radius).min(1.0)), max_accel);
        }
    }
    if let (true, Some(dt)) = (ali_on, dt) {
        let dv = velocity_sum * inv - agent.velocity;
        out.alignment = finish(velocity_change(dv, max_accel, dt), max_accel);
    }
    out
}

/// [`flock_pass`] over a neighbour slice (the path of [`flock`] and the single behaviours).
#[inline]
fn flock_slice(
    agent: &Agent,
    self_id: u32,
    neighbours: &[Neighbour],
    flock: &FlockParams,
    params: &SteeringParams,
    dt: Option<f32>,
    want: Want,
) -> Flocking {
    flock_pass(
        agent,
        self_id,
        neighbours.iter().map(|n| NeighbourRef {
            position: n.position,
            velocity: n.velocity,
            id: n.id,
        }),
        flock,
        params,
        dt,
        want,
    )
}

/// Fill `out` (cleared first) with the candidates within `radius` of `position`, skipping
/// `self_id` and non-finite entries.
///
/// Capacity: when more than `N` candidates are in range, `out` keeps the `N` nearest (ties: the
/// earlier candidate stays) and the return value says how many in-range candidates were left out
/// (0 when everything fitted). The order of `out` is the order of insertion, with a later nearer
/// candidate taking the slot of the farthest one.
pub fn gather_neighbours<const N: usize>(
    position: Vec3,
    self_id: u32,
    candidates: &[Neighbour],
    radius: f32,
    out: &mut Neighbours<N>,
) -> usize {
    out.clear();
    let radius = non_negative(radius);
    let mut left_out = 0usize;
    if !finite3(position) {
        return 0;
    }
    for c in candidates {
        if c.id == self_id || !c.is_finite() {
            continue;
        }
        let d = super::robust_length(c.position - position);
        if d.is_nan() || d >= radius {
            continue;
        }
        if out.push(*c).is_ok() {
            continue;
        }
        // Full: replace the farthest kept entry if this one is strictly nearer.
        left_out += 1;
        let mut far_i = None;
        let mut far_d = d;
        for (i, kept) in out.iter().enumerate() {
            let kd = super::robust_length(kept.position - position);
            if kd > far_d {
                far_d = kd;
                far_i = Some(i);
            }
        }
        if let Some(slot) = far_i.and_then(|i| out.get_mut(i)) {
            *slot = *c;
        }
    }
    left_out
}
