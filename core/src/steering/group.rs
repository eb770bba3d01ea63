//! Flocking over a caller-supplied neighbour list: separation, cohesion, alignment.
//!
//! The caller owns the neighbour query (a grid, a brute-force loop, …) and hands the neighbours
//! over in one of three ways, all bit-identical (one implementation):
//! - a slice `&[Neighbour]`, usually a fixed-capacity `heapless::Vec<Neighbour, N>` ([`Neighbours`],
//!   it derefs to a slice): [`flock`], [`separation`], [`cohesion`], [`alignment`]. The no_std
//!   path; [`gather_neighbours`] fills such a list from candidates and documents what happens when
//!   more are in range than fit: it keeps the `N` nearest and reports how many were left out.
//! - the agents themselves plus indices into them (`&[Agent]` + `&[u16]`/`&[u32]`/`&[usize]`, as a
//!   spatial grid hands them out): [`flock_indexed`] reads each neighbour in place, nothing is
//!   copied. The fastest path when the agents already live in a slice.
//! - any iterator of [`Neighbour`] values: [`flock_iter`].
//!
//! Every function skips the entry whose `id` equals the agent's own id (so the agent may appear in
//! its own list), entries with non-finite position/velocity, and entries so far away that the
//! squared offset overflows `f32` (about 1.8·10¹⁹ units).
//!
//! [`flock`] computes all three in one pass over the list with results bit-identical to the
//! separate functions (they share one implementation); prefer it when you use more than one.
//! Ranges are compared on squared distances, so only neighbours inside the separation radius cost
//! a square root (and a divide); a neighbour out of range costs one squared distance and one
//! comparison. Velocities are not tested one by one: when the separation radius is at most the
//! neighbour radius (the usual set-up), a non-finite velocity shows up in the velocity sum and the
//! list is then walked a second time with the per-neighbour test, so the result is always that of
//! the per-neighbour rule.
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
use crate::math::target::SPEED_OVER_SIZE;
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
/// apply (non-finite neighbours skipped, zero results for bad input, never NaN).
///
/// Parameters:
/// - `agent`: the steered agent (position in units, velocity in units/s); often a copy of
///   `agents[self_id]`.
/// - `self_id`: the agent's own id, i.e. its index in `agents` (an index equal to it is skipped).
/// - `agents`: the agents to read neighbours from, usually last tick's snapshot so every agent
///   sees the same state.
/// - `indices`: positions in `agents` of this agent's neighbour candidates, in any order,
///   repeats allowed (each repeat counts again, as in a list). Candidates farther than the radii
///   cost one squared distance and one comparison each, so a coarse grid cell is fine.
/// - `flock`: radii in units (defaults 1.0 and 3.0, see [`FlockParams`]).
/// - `params`: the vehicle; only `max_accel` (units/s², default 8.0) is used.
/// - `dt`: step in seconds (alignment only; see [`super::sanitize_dt`]).
///
/// Typical use with a spatial grid that hands out `u16`/`u32` indices:
/// ```
/// use hopkit::math::Vec3;
/// use hopkit::steering::{flock_indexed, Agent, FlockParams, SteeringParams};
///
/// let snapshot = [
///     Agent::new(Vec3::ZERO),
///     Agent::new(Vec3::new(0.5, 0.0, 0.0)),
///     Agent::new(Vec3::new(0.0, 0.0, 2.0)),
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
/// `indices.iter().map(|&i| Neighbour::of(&agents[i], i as u32))`), without collecting it into a
/// list. Bit-identical to [`flock`] over the same neighbours in the same order (same code), with
/// the same guards.
///
/// The iterator must be `Clone` (iterators over borrowed data are): it is walked once, and a
/// second time from a clone only when a neighbour in range has a non-finite velocity (to skip it,
/// see the module docs) or the velocities overflow their sum. Parameters as [`flock_indexed`],
/// with each neighbour's id taken from the [`Neighbour`].
#[inline]
pub fn flock_iter<N>(
    agent: &Agent,
    self_id: u32,
    neighbours: N,
    flock: &FlockParams,
    params: &SteeringParams,
    dt: f32,
) -> Flocking
where
    N: IntoIterator<Item = Neighbour>,
    N::IntoIter: Clone,
{
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
    neighbours: impl Iterator<Item = NeighbourRef> + Clone,
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

    // Farthest squared distance that matters: anything beyond (and NaN/inf `d2`, which fails
    // every comparison) is skipped before the other guards.
    let reach_r2 = if sep_on && sep_r2 > near_r2 {
        sep_r2
    } else {
        near_r2
    };
    let reach = Reach {
        position: agent.position,
        self_id,
        sep_on,
        sep_r2,
        near_r2,
        reach_r2,
        inv_sep,
    };
    // Fast walk: the neighbour's velocity is not tested one by one. When the separation range
    // lies inside the neighbour range, every neighbour that contributes anything is summed into
    // `velocity_sum`, and a finite `velocity_sum` proves all their velocities finite (an infinite
    // or NaN term never leaves a float sum). Otherwise (a non-finite velocity, or a sum that
    // merely overflowed) the list is walked again with the per-neighbour test, so the result is
    // always that of the checked walk.
    let sums = if !sep_on || sep_r2 <= near_r2 {
        let fast = reach.walk_nested(neighbours.clone());
        if finite3(fast.velocity_sum) {
            fast
        } else {
            reach.walk_checked(neighbours)
        }
    } else {
        reach.walk_checked(neighbours)
    };
    let Sums {
        push,
        offset_sum,
        velocity_sum,
        count,
        ..
    } = sums;

    let max_accel = params.accel_limit();
    if sep_on {
        out.separation = finish(clamp_len(push, 1.0) * max_accel, max_accel);
    }
    if count == 0 {
        return out;
    }
    let inv = reciprocal(count);
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

/// `1.0 / count as f32`. Where code size is free ([`SPEED_OVER_SIZE`]) small counts read the
/// same value from a table (a load instead of a division on the critical path); elsewhere it
/// divides.
#[inline(always)]
fn reciprocal(count: u32) -> f32 {
    if SPEED_OVER_SIZE {
        const N: usize = 64;
        const TABLE: [f32; N] = {
            let mut t = [0.0f32; N];
            let mut i = 1;
            while i < N {
                t[i] = 1.0 / i as f32;
                i += 1;
            }
            t
        };
        if let Some(&r) = TABLE.get(count as usize) {
            if count != 0 {
                return r;
            }
        }
    }
    1.0 / count as f32
}

/// The per-call constants of one flocking walk.
struct Reach {
    position: Vec3,
    self_id: u32,
    sep_on: bool,
    sep_r2: f32,
    near_r2: f32,
    reach_r2: f32,
    inv_sep: f32,
}

/// The sums one flocking walk collects. Laid out in 16-byte rows (each vector padded to four
/// floats): the out-of-line walk stores every row whole, and the caller's narrower reads then
/// forward from a single store (reads spanning two stores stall store-to-load forwarding on x86,
/// measured ≈ 5 % of the 32-neighbour steering row).
#[repr(C, align(16))]
struct Sums {
    push: Vec3,
    count: u32,
    offset_sum: Vec3,
    _pad0: f32,
    velocity_sum: Vec3,
    _pad1: f32,
}

impl Reach {
    /// The walk for the usual set-up, separation range inside the neighbour range (or separation
    /// off): one comparison rejects a neighbour out of range, and velocities are not tested (a
    /// non-finite one shows up as a non-finite `velocity_sum`; the caller then walks again with
    /// [`Reach::walk_checked`]). Same sums, bit for bit, as the checked walk whenever
    /// `velocity_sum` comes out finite: every neighbour that adds to `push` also adds to
    /// `velocity_sum`, and the three sums are independent, so testing the neighbour range first
    /// changes no order of additions.
    #[inline(never)]
    fn walk_nested(&self, neighbours: impl Iterator<Item = NeighbourRef>) -> Sums {
        let coincident_r2 = COINCIDENT_DISTANCE * COINCIDENT_DISTANCE;
        // `d2 ≥ 0` is never below 0: separation off without a test per neighbour.
        let sep_r2 = if self.sep_on { self.sep_r2 } else { 0.0 };
        let mut push = Vec3::ZERO;
        let mut offset_sum = Vec3::ZERO;
        let mut velocity_sum = Vec3::ZERO;
        // Counted in 64 bits (no walk reaches 2⁶⁴ neighbours) and saturated to `u32` once at
        // the end: the same count as a saturating `u32`, one instruction less per neighbour in
        // range on 64-bit hosts.
        let mut count = 0u64;
        for n in neighbours {
            // NaN/inf `d2` (non-finite position, overflowing offset) fails the strict test.
            let away = self.position - n.position;
            let d2 = away.length_squared();
            if d2 < self.near_r2 && n.id != self.self_id {
                offset_sum -= away;
                velocity_sum += n.velocity;
                count = count.wrapping_add(1);
                if d2 < sep_r2 {
                    if d2 > coincident_r2 {
                        // dir·(1 − d/r) = away·(1/d − 1/r)
                        let d = scalar::sqrt(d2);
                        push += away * (1.0 / d - self.inv_sep);
                    } else if let Some(dir) = coincident_push(self.self_id, n.id) {
                        push += dir;
                    }
                }
            }
        }
        Sums {
            push,
            count: u32::try_from(count).unwrap_or(u32::MAX),
            offset_sum,
            _pad0: 0.0,
            velocity_sum,
            _pad1: 0.0,
        }
    }

    /// The general walk, every guard per neighbour (the documented rule): neighbours out of
    /// reach (or with NaN/inf `d2`), with the agent's own id or with a non-finite velocity are
    /// skipped.
    #[inline(never)]
    fn walk_checked(&self, neighbours: impl Iterator<Item = NeighbourRef>) -> Sums {
        let coincident_r2 = COINCIDENT_DISTANCE * COINCIDENT_DISTANCE;
        let mut push = Vec3::ZERO;
        let mut offset_sum = Vec3::ZERO;
        let mut velocity_sum = Vec3::ZERO;
        // Counted in 64 bits (no walk reaches 2⁶⁴ neighbours) and saturated to `u32` once at
        // the end: the same count as a saturating `u32`, one instruction less per neighbour in
        // range on 64-bit hosts.
        let mut count = 0u64;
        for n in neighbours {
            // A non-finite neighbour position shows up as a NaN or infinite `d2`, and so does a
            // squared offset that overflows: both fail `d2 < reach_r2` (strict, so even an
            // infinite radius keeps them out).
            let away = self.position - n.position;
            let d2 = away.length_squared();
            let in_reach = d2 < self.reach_r2;
            if !in_reach || n.id == self.self_id || !finite3(n.velocity) {
                continue;
            }
            if self.sep_on && d2 < self.sep_r2 {
                if d2 > coincident_r2 {
                    // dir·(1 − d/r) = away·(1/d − 1/r)
                    let d = scalar::sqrt(d2);
                    push += away * (1.0 / d - self.inv_sep);
                } else if let Some(dir) = coincident_push(self.self_id, n.id) {
                    push += dir;
                }
            }
            if d2 < self.near_r2 {
                offset_sum -= away;
                velocity_sum += n.velocity;
                count = count.wrapping_add(1);
            }
        }
        Sums {
            push,
            count: u32::try_from(count).unwrap_or(u32::MAX),
            offset_sum,
            _pad0: 0.0,
            velocity_sum,
            _pad1: 0.0,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Pcg32;

    /// The flocking pass as it was before the walk was split into a fast and a checked pass
    /// (every guard per neighbour, in the original order): the oracle for bit-identity.
    fn oracle(
        agent: &Agent,
        self_id: u32,
        neighbours: &[Neighbour],
        flock: &FlockParams,
        params: &SteeringParams,
        dt: f32,
    ) -> Flocking {
        let dt = sanitize_dt(dt);
        let mut out = Flocking::default();
        if !finite3(agent.position) {
            return out;
        }
        let sep_radius = non_negative(flock.separation_radius);
        let near_radius = non_negative(flock.neighbour_radius);
        let sep_on = sep_radius > 0.0;
        let coh_on = near_radius > 0.0;
        let ali_on = near_radius > 0.0 && finite3(agent.velocity) && dt.is_some();
        if !sep_on && !coh_on && !ali_on {
            return out;
        }
        let sep_r2 = sep_radius * sep_radius;
        let near_r2 = near_radius * near_radius;
        let inv_sep = 1.0 / sep_radius;
        let coincident_r2 = COINCIDENT_DISTANCE * COINCIDENT_DISTANCE;
        let mut push = Vec3::ZERO;
        let mut offset_sum = Vec3::ZERO;
        let mut velocity_sum = Vec3::ZERO;
        let mut count = 0u32;
        for n in neighbours {
            if n.id == self_id || !finite3(n.velocity) {
                continue;
            }
            let away = agent.position - n.position;
            let d2 = away.length_squared();
            if !d2.is_finite() {
                continue;
            }
            if sep_on && d2 < sep_r2 {
                if d2 > coincident_r2 {
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

    fn bits(f: &Flocking) -> [u32; 9] {
        let mut out = [0; 9];
        for (k, s) in [f.separation, f.cohesion, f.alignment].iter().enumerate() {
            out[3 * k] = s.linear.x.to_bits();
            out[3 * k + 1] = s.linear.y.to_bits();
            out[3 * k + 2] = s.linear.z.to_bits();
        }
        out
    }

    fn value(rng: &mut Pcg32) -> f32 {
        match rng.below(24) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => -f32::INFINITY,
            3 => 3.0e38,
            4 => 1.0e-40,
            5 => 0.0,
            _ => rng.range_f32(-3.0, 3.0),
        }
    }

    fn vec(rng: &mut Pcg32) -> Vec3 {
        if rng.below(3) == 0 {
            Vec3::new(value(rng), value(rng), value(rng))
        } else {
            Vec3::new(rng.range_f32(-3.0, 3.0), 0.0, rng.range_f32(-3.0, 3.0))
        }
    }

    #[test]
    fn reciprocal_is_the_division() {
        for count in (0..=300u32).chain([1 << 16, u32::MAX - 1, u32::MAX]) {
            assert_eq!(
                reciprocal(count).to_bits(),
                (1.0 / count as f32).to_bits(),
                "{count}"
            );
        }
    }

    #[test]
    fn overflowing_velocity_sum_takes_the_checked_walk() {
        let mut agents = [Agent::new(Vec3::ZERO); 3];
        agents[1].position = Vec3::new(0.5, 0.0, 0.0);
        agents[1].velocity = Vec3::new(3.0e38, 0.0, 0.0);
        agents[2].position = Vec3::new(0.0, 0.0, 0.7);
        agents[2].velocity = Vec3::new(3.0e38, 0.0, 0.0);
        let list = [Neighbour::of(&agents[1], 1), Neighbour::of(&agents[2], 2)];
        let (fp, p) = (FlockParams::default(), SteeringParams::default());
        let want = bits(&oracle(&agents[0], 0, &list, &fp, &p, 1.0 / 60.0));
        let got = flock_indexed(&agents[0], 0, &agents, &[1u16, 2], &fp, &p, 1.0 / 60.0);
        assert_eq!(bits(&got), want);
        assert!(got.separation.is_finite() && got.alignment.is_finite());
    }

    #[test]
    fn fast_and_checked_walks_match_the_per_neighbour_oracle() {
        let mut rng = Pcg32::seeded(14);
        let radii = [
            0.0,
            0.5,
            1.0,
            3.0,
            7.0,
            -1.0,
            f32::NAN,
            f32::INFINITY,
            1.0e20,
        ];
        for case in 0..20_000 {
            let count = rng.below(20) as usize;
            let mut agents = [Agent::default(); 20];
            for a in agents.iter_mut().take(count.max(1)) {
                a.position = vec(&mut rng);
                a.velocity = vec(&mut rng);
            }
            if count > 2 && rng.below(4) == 0 {
                agents[1].position = agents[0].position; // coincident pair
            }
            let list: heapless::Vec<Neighbour, 20> = (0..count)
                .map(|i| Neighbour::of(&agents[i], i as u32))
                .collect();
            let indices: heapless::Vec<u16, 20> = (0..count as u16).collect();
            let fp = FlockParams {
                separation_radius: radii[rng.below(radii.len() as u32) as usize],
                neighbour_radius: radii[rng.below(radii.len() as u32) as usize],
            };
            let p = SteeringParams {
                max_accel: if rng.below(8) == 0 { f32::NAN } else { 8.0 },
                ..SteeringParams::default()
            };
            let dt = if rng.below(8) == 0 { -1.0 } else { 1.0 / 60.0 };
            let me = agents[0];
            let want = bits(&oracle(&me, 0, &list, &fp, &p, dt));
            assert_eq!(
                bits(&flock(&me, 0, &list, &fp, &p, dt)),
                want,
                "case {case}"
            );
            let indexed = flock_indexed(&me, 0, &agents, &indices, &fp, &p, dt);
            assert_eq!(bits(&indexed), want, "case {case}");
        }
    }
}
