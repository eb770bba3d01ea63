//! A companion that follows the leader's breadcrumb trail (seed 004), and a party of them.
//!
//! # Example
//!
//! ```
//! use hopkit::follower::{self, FollowerParams, FollowerState};
//! use hopkit::ground::FlatGround;
//! use hopkit::math::Vec3;
//!
//! let params = FollowerParams::default(); // the seed's numbers
//! let mut buddy: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 2.0), Vec3::ZERO, 0.0);
//! let mut leader = Vec3::ZERO;
//! for _ in 0..250 {
//!     leader.z -= 0.1; // the leader walks 25 units along −Z at 5 units/s
//!     follower::step(&mut buddy, &params, leader, &FlatGround::new(0.0), 1.0 / 50.0);
//! }
//! for _ in 0..150 {
//!     follower::step(&mut buddy, &params, leader, &FlatGround::new(0.0), 1.0 / 50.0);
//! }
//! let gap = buddy.body.position.distance(leader);
//! assert!(gap < 8.0 && gap > 2.0, "{gap}"); // caught up, but keeps its distance
//! assert!(buddy.body.velocity.planar().length() < 1e-3); // and stopped (velocity decays ×0.9/tick)
//! ```
//!
//! # The single follower (the seed)
//! The leader's position is recorded as a *crumb* whenever it is more than
//! [`FollowerParams::record_distance`] (1.5) from the last crumb; the follower walks from crumb to
//! crumb, oldest first. Per step ([`step`]), in this order:
//! 1. **Teleport check** (beyond the seed): if the leader moved more than
//!    [`FollowerParams::teleport_distance`] since the last step, [`regroup`]: the trail is reset to the
//!    leader's position and the follower is placed `regroup_distance` behind it.
//! 2. **Record** (`UpdateTargetPos`): a new crumb if the leader moved far enough — cut at exactly
//!    `record_distance` along the leader's motion since the last step (several per step if it moved
//!    far and the trail has room), so crumb spacing does not depend on the tick rate. If the trail is
//!    already full (`N` crumbs, default 16) the follower is assumed stuck: the oldest crumb is
//!    dequeued, becomes the target, and the follower **warps** onto it — the seed's rescue, and the
//!    documented full-buffer behaviour.
//! 3. **Shortcut** (`ShortCutTargetPos`): if the leader is within `shortcut_distance` (7) and at least
//!    `shortcut_keep` (4) crumbs are stored, all but the newest 4 are dropped and the follower aims at
//!    the oldest remaining one (peeked, as the seed, so it is dequeued again on arrival).
//! 4. **Move**: stop within `stop_distance` (3.5) of the leader; on reaching the target (within
//!    `reach_distance` 2.0, in the ground plane) stop if ≤ `stop_crumbs` (3) remain, else dequeue
//!    the next crumb. Stopping decays horizontal velocity ×0.9 per reference tick and eases the speed
//!    factor to 0 from at most 0.3. Moving eases the factor by 0.02/tick towards 1.6 (≥ 5 crumbs),
//!    1.0, or 0.5 (≤ 2 crumbs), lerps the move direction towards the target by 0.15/tick and sets
//!    horizontal velocity `move_dir · 8 · factor` units/s.
//! 5. **Body**: gravity and ground contact ([`FollowerParams::integrate`]), the falling flag, the body
//!    turning at 500°/s towards the move direction, and the head looking at the leader (±50°) while
//!    slow.
//!
//! # Tick rate
//! The seed runs `Move` in `FixedUpdate` at Unity's default **50 Hz** ([`SEED_TICK_HZ`]) and its
//! per-tick factors (×0.9, ±0.02, lerp 0.15) assume that rate; turning and the head use
//! `Time.deltaTime` and are already rates. Here every per-tick factor is converted with
//! `n = dt · reference_hz` reference ticks (see [`TickConsts`]), so 50 Hz reproduces the seed's numbers
//! exactly and 60/120/144 Hz give the same motion over time: in `tests/tests/integration/follower_rate.rs` a
//! 12 s walk differs from the 50 Hz run by < 0.75 units while moving (when a discrete decision —
//! reach a crumb, stop — lands one tick apart) and < 0.1 at rest. With
//! [`FollowerParams::seed_exact`] a 50 Hz run retraces a line-by-line port of the seed's C# within
//! 0.01 units over 14 s (`tests/tests/integration/follower_oracle.rs`).
//!
//! # Deliberate differences from the seed (each documented where it lives)
//! - The last-crumb reference starts at the leader's start position (the seed's `_prevPlayerPos`
//!   starts at the world origin, recording a duplicate crumb on the first frame).
//! - Reaching a crumb and the move direction are measured in the ground plane.
//! - Crumbs are cut at exactly `record_distance` along the leader's motion, not at its sampled
//!   position, and the speed factor lands on its target instead of dithering ±0.02 around it —
//!   both tick-rate fixes; [`FollowerParams::seed_exact`] restores the seed's behaviour.
//! - A warp zeroes vertical velocity; a zero move direction keeps the old facing.
//! - Teleport regroup and the [`party`] are additions.
//!
//! # Bad input
//! `dt` NaN or ≤ 0: nothing happens (empty events). `dt` > [`MAX_STEP_DT`] (0.25 s): clamped.
//! A non-finite leader position is ignored (the last good one is used); coordinates are clamped to
//! ±[`COORD_LIMIT`]. Parameters failing [`FollowerParams::is_sane`] are replaced by
//! [`FollowerParams::sanitized`] for the step (every bad field → its default). Corrupted state
//! (non-finite fields written by a host) is repaired at the start of the step. No input produces NaN.

mod body;
mod params;
pub mod party;
mod trail;

pub use body::FollowerBody;
pub use params::{FollowerParams, COORD_LIMIT, MAX_SPEED, MAX_STEP_DT, SEED_TICK_HZ};
pub use party::{
    Party, PartyEvents, PartyFull, PartyParams, DEFAULT_PARTY_SIZE, DEFAULT_PARTY_TRAIL,
    MAX_PARTY_SIZE,
};
pub use trail::{Trail, TrailIter, DEFAULT_TRAIL_CAPACITY};

use crate::ground::GroundProbe;
use crate::hash::{StateHash, StateHasher};
use crate::math::target::DISTANCE_BY_ROOT;
use crate::math::{Vec2, Vec3};
use body::yaw_of;
use body::Rates;
use params::{clamp_coords, sanitize_dt, sanitize_leader};

/// One follower: its body, the leader's breadcrumbs and what it is walking to.
///
/// `N` is the trail capacity (the seed's `PosHistorySize`, default 16); a full trail means "stuck"
/// and triggers the warp described in the [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct FollowerState<const N: usize = DEFAULT_TRAIL_CAPACITY> {
    /// Position, velocity, facing, head, flags.
    pub body: FollowerBody,
    /// The leader's recorded positions, oldest first (the seed's `_playerPosHistory`).
    pub trail: Trail<N>,
    /// The point being walked to (the seed's `_targetPos`).
    pub target: Vec3,
    /// Leader position when the last crumb was recorded (the seed's `_prevPlayerPos`).
    pub last_crumb: Vec3,
    /// Leader position seen at the last step (teleport detection; fallback for bad input).
    pub leader: Vec3,
}

/// What happened during one [`step`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct FollowerEvents {
    /// A new crumb was recorded.
    pub crumb_recorded: bool,
    /// The trail was full: the follower warped onto the oldest crumb.
    pub warped: bool,
    /// The shortcut dropped crumbs or changed the target.
    pub shortcut: bool,
    /// The follower reached its target and took the next crumb.
    pub advanced: bool,
    /// The follower is stopping (near the leader, or out of crumbs).
    pub stopped: bool,
    /// The falling flag after this step.
    pub falling: bool,
    /// The leader teleported and the follower regrouped behind it.
    pub regrouped: bool,
}

impl<const N: usize> FollowerState<N> {
    /// The seed's `InitPos`: the trail holds the leader's start position and the target is the
    /// follower's own position. The follower faces `yaw` radians. Non-finite positions become 0.
    pub fn new(follower_pos: Vec3, leader_pos: Vec3, yaw: f32) -> Self {
        let leader = clamp_coords(leader_pos.sanitize());
        let body = FollowerBody::new(follower_pos, yaw);
        FollowerState {
            target: body.position,
            body,
            trail: Trail::with_crumb(leader),
            last_crumb: leader,
            leader,
        }
    }

    /// [`FollowerState::new`] with the seed's start-up quirk: the last-crumb reference starts at
    /// the world origin (the seed's `_prevPlayerPos` is never initialised), so a leader starting
    /// more than `record_distance` from the origin drops a crumb on the first step. Use it with
    /// [`FollowerParams::seed_exact`] to retrace the seed exactly.
    pub fn seed_start(follower_pos: Vec3, leader_pos: Vec3, yaw: f32) -> Self {
        let mut s = Self::new(follower_pos, leader_pos, yaw);
        s.last_crumb = Vec3::ZERO;
        s
    }

    /// Repair non-finite fields a host may have written.
    fn sanitize(&mut self) {
        if !self.leader.is_finite() {
            self.leader = Vec3::ZERO;
        }
        self.leader = clamp_coords(self.leader);
        self.body.sanitize(self.leader);
        if !self.target.is_finite() {
            self.target = self.body.position;
        }
        if !self.last_crumb.is_finite() {
            self.last_crumb = self.leader;
        }
    }
}

impl<const N: usize> StateHash for FollowerState<N> {
    /// `body`, `trail`, `target`, `last_crumb`, `leader`, in that order.
    fn hash_state(&self, h: &mut StateHasher) {
        self.body.hash_state(h);
        self.trail.hash_state(h);
        h.write_vec3(self.target);
        h.write_vec3(self.last_crumb);
        h.write_vec3(self.leader);
    }
}

/// Advance one follower by `dt` seconds towards a leader now at `leader_pos`. See the
/// [module docs](self) for the order of operations and the handling of bad input.
pub fn step<const N: usize>(
    state: &mut FollowerState<N>,
    params: &FollowerParams,
    leader_pos: Vec3,
    ground: &impl GroundProbe,
    dt: f32,
) -> FollowerEvents {
    let sane;
    let p = if params.is_sane() {
        params
    } else {
        sane = params.sanitized();
        &sane
    };
    step_unchecked(state, p, &Rates::ASKED, leader_pos, ground, dt)
}

/// [`step`], the same bits, with the constants of `k` ([`TickConsts::new`] from the parameters
/// and `dt`) in place of the parameters and `dt`: the parameters are not checked every step and
/// the per-step decays (an `exp`/`ln` each) are not computed again.
pub fn step_with<const N: usize>(
    state: &mut FollowerState<N>,
    k: &TickConsts,
    leader_pos: Vec3,
    ground: &impl GroundProbe,
) -> FollowerEvents {
    step_unchecked(state, &k.params, &k.rates, leader_pos, ground, k.dt)
}

/// The follower's constants for one set of parameters and one tick length, for [`step_with`]:
/// the parameters sanitized once ([`FollowerParams::sanitized`]: every bad field → its default)
/// and the per-step factors that cost an `exp`/`ln` — the stopping decay
/// `stop_decay_per_tick ^ n`, the direction lerp `1 − (1 − direction_lerp_per_tick) ^ n` and the
/// head blend `1 − e^(−neck_rate·dt)`, with `n = dt · reference_hz` reference ticks. Build it
/// with [`TickConsts::new`] whenever the parameters or `dt` change. Plain data, `Copy`; not state
/// (never hashed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TickConsts {
    params: FollowerParams,
    dt: f32,
    rates: Rates<true>,
}

impl TickConsts {
    /// The constants of steps of `dt` seconds with `params`. Any values are accepted: the result
    /// steps exactly as [`step`] with them (an invalid `dt`, which `step` rejects, gives constants
    /// whose steps are rejected too).
    pub fn new(params: &FollowerParams, dt: f32) -> TickConsts {
        let params = params.sanitized();
        let rates = match sanitize_dt(dt) {
            Some(dt) => Rates::new(&params, dt * params.reference_hz, dt),
            None => Rates::REJECTED,
        };
        TickConsts { params, dt, rates }
    }

    /// The parameters, sanitized.
    pub fn params(&self) -> &FollowerParams {
        &self.params
    }

    /// The tick length, seconds, as given to [`TickConsts::new`].
    pub fn dt(&self) -> f32 {
        self.dt
    }
}

impl Default for TickConsts {
    /// [`FollowerParams::default`] at the seed's 50 Hz ([`SEED_TICK_HZ`]).
    fn default() -> Self {
        TickConsts::new(&FollowerParams::default(), 1.0 / SEED_TICK_HZ)
    }
}

/// The step with parameters known to be sane (`p.is_sane()`).
fn step_unchecked<const N: usize, const KEPT: bool>(
    state: &mut FollowerState<N>,
    p: &FollowerParams,
    rates: &Rates<KEPT>,
    leader_pos: Vec3,
    ground: &impl GroundProbe,
    dt: f32,
) -> FollowerEvents {
    let mut ev = FollowerEvents::default();
    let Some(dt) = sanitize_dt(dt) else {
        ev.falling = state.body.falling;
        return ev;
    };
    state.sanitize();
    let leader = sanitize_leader(leader_pos, state.leader);
    let n = rates.ticks(p.reference_hz, dt);

    let mut prev = state.leader;
    if Gap::between(leader, prev).beyond(p.teleport_distance) {
        let back = state.body.position.planar() - prev.planar();
        regroup_at(state, p.regroup_distance, leader, back);
        ev.regrouped = true;
        prev = leader;
    }
    state.leader = leader;

    record_crumb(state, p, prev, leader, &mut ev);
    // The body does not move between here and the end of `drive`: one distance for both.
    let to_leader = Gap::between(state.body.position, leader);
    take_shortcut(state, p, to_leader, &mut ev);
    drive(state, p, to_leader, n, rates, &mut ev);

    let ground_y = state.body.integrate(p, ground, dt);
    state.body.update_falling(p, ground_y);
    state.body.turn(p, dt);
    state.body.turn_neck(p, leader, dt, rates);
    state.body.flush_subnormals();
    state.target = state.target.flush_subnormal();
    state.last_crumb = state.last_crumb.flush_subnormal();
    ev.falling = state.body.falling;
    ev
}

/// Reset the trail to the leader at `leader_pos` and place the follower at rest
/// `params.regroup_distance` behind it along the planar direction `back` (`(x, z)`, normalised
/// here; zero/NaN → +Z, i.e. behind a leader facing −Z), at the leader's height, facing the leader.
///
/// [`step`] calls this when the leader teleports, with `back` = the side the follower was on. Call
/// it yourself after a map transfer with the leader's facing (`back = −forward`).
pub fn regroup<const N: usize>(
    state: &mut FollowerState<N>,
    params: &FollowerParams,
    leader_pos: Vec3,
    back: Vec2,
) {
    regroup_at(state, params.sanitized().regroup_distance, leader_pos, back);
}

/// [`regroup`] `distance` behind the leader (`regroup_distance` of sane parameters: the step's,
/// which sanitizes them once, calls this rather than sanitizing them again). Not inlined: the
/// step calls it only when the leader teleports.
#[inline(never)]
fn regroup_at<const N: usize>(
    state: &mut FollowerState<N>,
    distance: f32,
    leader_pos: Vec3,
    back: Vec2,
) {
    let leader = sanitize_leader(leader_pos, state.leader);
    let back = back.try_normalize().unwrap_or(Vec2::Y);
    let pos = leader + Vec3::from_planar(back * distance, 0.0);
    state.body.place(pos, yaw_of(-back));
    state.trail.clear();
    let _ = state.trail.push_newest(leader);
    state.target = state.body.position;
    state.last_crumb = leader;
    state.leader = leader;
}

/// The seed's `UpdateTargetPos`: record a crumb; a full trail warps the follower to the oldest.
///
/// Unless `seed_exact`, the leader's motion since the last step (`prev` → `leader`) is cut
/// at exactly `record_distance` from the last crumb, as many times as it crosses it while the trail
/// has room, so crumb positions do not depend on the tick rate. With it, the crumb is the
/// leader's current position (the seed).
fn record_crumb<const N: usize>(
    state: &mut FollowerState<N>,
    p: &FollowerParams,
    prev: Vec3,
    leader: Vec3,
    ev: &mut FollowerEvents,
) {
    let r = p.record_distance;
    let mut from = prev;
    for _ in 0..N {
        if !Gap::between(leader, state.last_crumb).beyond(r) {
            return;
        }
        // Interpolated crumbs only fill free space: a full trail takes the leader's position, so a
        // step warps at most once, as in the seed.
        let crumb = if p.seed_exact || state.trail.is_full() {
            leader
        } else {
            crossing(state.last_crumb, r, from, leader).unwrap_or(leader)
        };
        push_crumb(state, crumb, ev);
        if crumb == leader {
            return;
        }
        from = crumb;
    }
}

/// The point where the segment `a → b` leaves the sphere of radius `r` around `c`, if `a` is
/// inside it, `b` outside, and the segment is not degenerate.
fn crossing(c: Vec3, r: f32, a: Vec3, b: Vec3) -> Option<Vec3> {
    let d = b - a;
    let f = a - c;
    let qa = d.dot(d);
    let qc = f.dot(f) - r * r;
    if qa <= 1.0e-12 || qc > 0.0 || r <= 1.0e-6 {
        return None;
    }
    let qb = f.dot(d);
    // qc ≤ 0 so the discriminant is ≥ qb² ≥ 0; the larger root is the exit, in [0, 1].
    let t = (-qb + crate::math::scalar::sqrt(qb * qb - qa * qc)) / qa;
    if (0.0..=1.0).contains(&t) {
        Some((a + d * t).flush_subnormal())
    } else {
        None
    }
}

/// Append a crumb, warping to the oldest first if the trail is full (the seed's rescue).
fn push_crumb<const N: usize>(state: &mut FollowerState<N>, crumb: Vec3, ev: &mut FollowerEvents) {
    state.last_crumb = crumb;
    if state.trail.is_full() {
        if let Some(oldest) = state.trail.pop_oldest() {
            // Probably stuck on something: warp.
            state.target = oldest;
            state.body.warp(oldest);
            ev.warped = true;
        }
    }
    ev.crumb_recorded |= state.trail.push_newest(crumb).is_ok();
}

/// The seed's `ShortCutTargetPos`: leader close by → skip ahead to the newest few crumbs.
/// `to_leader` = the body's distance to the leader.
fn take_shortcut<const N: usize>(
    state: &mut FollowerState<N>,
    p: &FollowerParams,
    to_leader: Gap,
    ev: &mut FollowerEvents,
) {
    let keep = p.shortcut_keep as usize;
    if !to_leader.below(p.shortcut_distance) || state.trail.len() < keep {
        return;
    }
    let dropped = state.trail.retain_newest(keep);
    if let Some(oldest) = state.trail.oldest() {
        if dropped > 0 || oldest != state.target {
            ev.shortcut = true;
        }
        state.target = oldest;
    }
}

/// The seed's `Move`: stop near the leader or at the end of the trail, else walk to the target.
/// `to_leader` = the body's distance to the leader.
fn drive<const N: usize, const KEPT: bool>(
    state: &mut FollowerState<N>,
    p: &FollowerParams,
    to_leader: Gap,
    n: f32,
    rates: &Rates<KEPT>,
    ev: &mut FollowerEvents,
) {
    let body = &mut state.body;
    if to_leader.below(p.stop_distance) {
        body.reduce_speed(p, n, rates);
        ev.stopped = true;
        return;
    }
    // The planar offset's squared length and length, reused by `chase` while the target stays.
    let mut planar = None;
    let to_target = if p.seed_exact {
        body.position.distance(state.target) // the seed: 3-D
    } else {
        let l2 = (body.position.planar() - state.target.planar()).length_squared();
        let l = crate::math::scalar::sqrt(l2);
        planar = Some((l2, l));
        l
    };
    if to_target < p.reach_distance {
        if state.trail.len() <= p.stop_crumbs as usize {
            body.reduce_speed(p, n, rates);
            ev.stopped = true;
            return;
        }
        if let Some(next) = state.trail.pop_oldest() {
            state.target = next;
            ev.advanced = true;
            planar = None;
        }
    }
    let left = state.trail.len();
    let mut factor = if left >= p.fast_crumbs as usize {
        p.fast_factor
    } else {
        p.normal_factor
    };
    if left <= p.slow_crumbs as usize {
        factor = p.slow_factor;
    }
    body.chase_known(p, state.target, factor, f32::INFINITY, n, rates, planar);
}

/// A distance the follower only compares with thresholds (sane parameters, `≥ 0`): the same
/// answers as comparing `a.distance(b)`. Kept as its square, the root taken only when the squares
/// are too close to tell ([`root_side`]), except where a root is one instruction
/// ([`DISTANCE_BY_ROOT`]).
#[derive(Clone, Copy)]
struct Gap(f32);

impl Gap {
    /// The distance between `a` and `b` (with [`DISTANCE_BY_ROOT`]: it; elsewhere: its square).
    #[inline(always)]
    fn between(a: Vec3, b: Vec3) -> Gap {
        if DISTANCE_BY_ROOT {
            Gap(a.distance(b))
        } else {
            Gap((a - b).length_squared())
        }
    }

    /// `a.distance(b) > t`.
    #[inline(always)]
    fn beyond(self, t: f32) -> bool {
        if DISTANCE_BY_ROOT {
            self.0 > t
        } else {
            root_beyond(self.0, t)
        }
    }

    /// `a.distance(b) < t`.
    #[inline(always)]
    fn below(self, t: f32) -> bool {
        if DISTANCE_BY_ROOT {
            self.0 < t
        } else {
            root_below(self.0, t)
        }
    }
}

/// `scalar::sqrt(d2) > t` for `t ≥ 0`, [`root_side`] first.
#[inline]
fn root_beyond(d2: f32, t: f32) -> bool {
    match root_side(d2, t) {
        Some(beyond) => beyond,
        None => crate::math::scalar::sqrt(d2) > t,
    }
}

/// `scalar::sqrt(d2) < t` for `t ≥ 0`, [`root_side`] first.
#[inline]
fn root_below(d2: f32, t: f32) -> bool {
    match root_side(d2, t) {
        Some(beyond) => !beyond,
        None => crate::math::scalar::sqrt(d2) < t,
    }
}

/// Where `s = scalar::sqrt(d2)` lies against `t ≥ 0` when that is certain without computing it:
/// `Some(true)` if `s > t`, `Some(false)` if `s < t`; `None` when the squares are within 0.2 % of
/// each other, when `t·t` is outside `[2⁻¹⁰⁰, 2¹²⁰]` (zero, subnormal, huge, infinite) or `d2` is
/// NaN.
///
/// Exact for any square root within 2⁻¹² (0.02 %) of the true one (libm's correctly rounded one,
/// the micromath backend's ≈ 10⁻⁶): with `T = t·t` rounded, `d2·(1 + 2⁻⁹) < T` (rounded) puts
/// `√d2` below `t·(1 − 2⁻¹¹)`, and `d2 > T·(1 + 2⁻⁹)` (rounded) above `t·(1 + 2⁻¹¹)`; the rounding
/// of these products (2⁻²⁴ relative for normal results, far below `T` otherwise) moves the bounds
/// by far less than that. A `d2` below 2⁻¹²⁶ has a root below 2⁻⁶² (micromath's Heron steps from
/// its 2⁻⁶⁴ estimate too) while `t ≥ 2⁻⁵⁰`; `d2 = +∞` has root `+∞`; `d2` is never negative (a
/// sum of squares; `−0.0` has root `−0.0`).
#[inline(always)]
fn root_side(d2: f32, t: f32) -> Option<bool> {
    const MARGIN: f32 = 1.0 + 1.0 / 512.0;
    const LO: u32 = 27 << 23; // 2⁻¹⁰⁰
    const HI: u32 = 247 << 23; // 2¹²⁰
    let tt = t * t;
    // `LO ≤ tt ≤ HI` on the bits (NaN bits fall outside).
    if tt.to_bits().wrapping_sub(LO) > HI - LO {
        None
    } else if d2 * MARGIN < tt {
        Some(false)
    } else if d2 > tt * MARGIN {
        Some(true)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::FlatGround;
    use crate::math::bits;

    #[test]
    fn initial_state_is_the_seeds() {
        let s: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, 0.0);
        assert_eq!(s.trail.len(), 1);
        assert_eq!(s.trail.oldest(), Some(Vec3::ZERO));
        assert_eq!(s.target, Vec3::new(0.0, 0.0, 3.0));
    }

    #[test]
    fn step_with_is_step_bit_for_bit() {
        let mut odd = FollowerParams::seed();
        odd.stop_decay_per_tick = 0.5;
        odd.direction_lerp_per_tick = 1.0;
        odd.neck_rate = f32::INFINITY;
        odd.reference_hz = 60.0;
        let mut bad = FollowerParams::close_companion();
        bad.stop_decay_per_tick = f32::NAN;
        bad.neck_rate = -3.0;
        bad.reference_hz = 0.0;
        let sets = [
            FollowerParams::seed(),
            FollowerParams::seed_exact(),
            FollowerParams::close_companion(),
            odd,
            bad,
        ];
        let dts = [1.0 / 50.0, 1.0 / 60.0, 1.0 / 144.0, 0.3, 0.0, f32::NAN];
        let bits = |s: &FollowerState| {
            let mut h = StateHasher::new();
            s.hash_state(&mut h);
            h.finish()
        };
        for p in sets.iter() {
            for &dt in dts.iter() {
                let start = FollowerState::new(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, 0.0);
                let (mut a, mut b): (FollowerState, FollowerState) = (start, start);
                let k = TickConsts::new(p, dt);
                assert!(k.params().is_sane());
                for t in 0..300 {
                    let f = t as f32 * 0.03;
                    // Circles, stops, and one teleport.
                    let leader = if t < 120 {
                        Vec3::new(6.0 * crate::math::scalar::sin(f), 0.0, -0.2 * t as f32)
                    } else if t < 200 {
                        Vec3::new(0.0, 0.0, -24.0)
                    } else {
                        Vec3::new(40.0, 0.0, 40.0)
                    };
                    let g = crate::ground::FlatGround::new(0.0);
                    let ea = step(&mut a, p, leader, &g, dt);
                    let eb = step_with(&mut b, &k, leader, &g);
                    assert_eq!(ea, eb, "dt {dt} tick {t}");
                    assert_eq!(bits(&a), bits(&b), "dt {dt} tick {t}");
                }
            }
        }
    }

    #[test]
    fn root_tests_are_the_root_compares() {
        let check = |d2: f32, t: f32| {
            let s = crate::math::scalar::sqrt(d2);
            assert_eq!(root_beyond(d2, t), s > t, "{d2} {t}");
            assert_eq!(root_below(d2, t), s < t, "{d2} {t}");
            if let Some(beyond) = root_side(d2, t) {
                assert_eq!(beyond, s > t, "{d2} {t}");
                assert_eq!(!beyond, s < t, "{d2} {t}");
            }
        };
        let ts = [
            0.0f32,
            1.5,
            2.0,
            3.5,
            7.0,
            10.0,
            1.0e-20,
            8.9e-16,
            1.0e-35,
            3.0e19,
            1.0e30,
            f32::INFINITY,
        ];
        let mut rng = crate::rng::Pcg32::seeded(12);
        for &t in ts.iter() {
            let tt = t * t;
            // Squares at and around t², one ulp at a time and by the margin, and far off.
            let mut d2s = vec![
                0.0f32,
                -0.0,
                1.0e-45,
                1.0e-38,
                f32::MAX,
                f32::INFINITY,
                f32::NAN,
                tt,
            ];
            for k in 1..40u32 {
                d2s.push(f32::from_bits(tt.to_bits().wrapping_add(k)));
                d2s.push(f32::from_bits(tt.to_bits().wrapping_sub(k)));
                d2s.push(tt * (1.0 + k as f32 / 4096.0));
                d2s.push(tt * (1.0 - k as f32 / 4096.0));
            }
            for &d2 in d2s.iter() {
                check(d2, t);
            }
            for _ in 0..20_000 {
                check(tt * rng.range_f32(0.99, 1.01), t);
                check(f32::from_bits(rng.next_u32() & 0x7fff_ffff), t);
            }
        }
        for _ in 0..200_000 {
            let t = rng.range_f32(0.0, 20.0);
            check(rng.range_f32(0.0, 500.0), t);
        }
    }

    #[test]
    fn vec3_is_finite_is_every_component() {
        let vs = [
            0.0f32,
            -0.0,
            1.0e-45,
            3.0,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
        ];
        for &x in vs.iter() {
            for &y in vs.iter() {
                for &z in [-2.0f32, f32::NEG_INFINITY, 0.5].iter() {
                    let v = Vec3::new(x, y, z);
                    let want = x.is_finite() && y.is_finite() && z.is_finite();
                    assert_eq!(v.is_finite(), want, "{v:?}");
                    assert_eq!(bits::all_finite_by_sum!(x, y, z), want, "{v:?}");
                    assert_eq!(bits::all_finite_by_bits!(x, y, z), want, "{v:?}");
                }
            }
        }
    }

    #[test]
    fn idle_follower_near_leader_stays_put() {
        let mut s: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, 0.0);
        let p = FollowerParams::seed();
        for _ in 0..100 {
            let ev = step(&mut s, &p, Vec3::ZERO, &FlatGround::new(0.0), 0.02);
            assert!(ev.stopped);
        }
        assert_eq!(s.body.position, Vec3::new(0.0, 0.0, 3.0));
        assert!(s.body.grounded);
    }
}
