//! Many ghosts from one recording (seed 002's 応用): a *fleet* with random start offsets, and a
//! *formation* whose wingmen start a few frames behind the leader so they fly as a group.
//!
//! Randomness comes from a caller-owned [`Pcg32`]: same seed → same fleet on every platform; no
//! global state.

use super::flyer::{turn_torque, Basis, FlyerParams, FlyerState};
use super::pilot::Steer;
use super::playback::Ghost;
use crate::math::{clamp, scalar, Vec3};
use crate::rng::Pcg32;

/// Most frames a wingman's start may differ from its leader's (the seed's "within 30 frames").
pub const MAX_WINGMAN_FRAME_OFFSET: u32 = 30;

/// A box ghosts are spawned in.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SpawnArea {
    /// Centre of the box, world units.
    pub center: Vec3,
    /// Half size along each axis, world units (negative values count as 0).
    pub half_extent: Vec3,
}

/// Spawn up to `count` ghosts into `out`, each at a uniform random point of `area`, level, facing a
/// uniform random yaw, flying at `speed`, starting at a uniform random frame in
/// `0..frame_count`. Stops when `out` is full; returns how many were added. Draw order per ghost:
/// x, y, z, yaw, frame.
pub fn spawn_fleet<const N: usize>(
    out: &mut heapless::Vec<Ghost, N>,
    rng: &mut Pcg32,
    count: usize,
    area: &SpawnArea,
    frame_count: u32,
    speed: f32,
) -> usize {
    let h = Vec3::new(
        area.half_extent.x.max(0.0),
        area.half_extent.y.max(0.0),
        area.half_extent.z.max(0.0),
    );
    let mut added = 0;
    while added < count && !out.is_full() {
        let p = area.center
            + Vec3::new(
                h.x * rng.signed_unit(),
                h.y * rng.signed_unit(),
                h.z * rng.signed_unit(),
            );
        let yaw = rng.range_f32(-core::f32::consts::PI, core::f32::consts::PI);
        let cursor = rng.below(frame_count);
        if out
            .push(Ghost::new(FlyerState::level(p, yaw, speed), cursor))
            .is_err()
        {
            break;
        }
        added += 1;
    }
    added
}

/// Formation layout. Every field documents its unit and default.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FormationParams {
    /// Distance between neighbouring ranks, world units, both sideways and back (a V: wingman `k`
    /// sits `rank · spacing` to the side — odd `k` right, even `k` left — and `rank · spacing`
    /// behind, `rank = (k + 1) / 2`). Default 3.
    pub spacing: f32,
    /// Random extra frames added to each wingman's lag, `0..=frame_jitter`. Default 4.
    pub frame_jitter: u32,
    /// Largest allowed lag in frames; clamped to [`MAX_WINGMAN_FRAME_OFFSET`]. Default 30.
    pub max_frame_offset: u32,
    /// Station-keeping torque turning a wingman towards its slot's aim point, rad/s² at 90° off
    /// (one more torque in the sum, below avoidance and terrain). Default 8.
    pub keep_torque: f32,
    /// The aim point is the slot plus the leader's velocity times this, seconds. Default 0.6.
    pub keep_look_ahead: f32,
    /// Speed correction per unit of distance the wingman is behind (+) or ahead (−) of its slot
    /// along its own nose, 1/s. Default 0.8.
    pub speed_gain: f32,
    /// Largest speed correction, as a fraction of the cruise speed. Default 0.3.
    pub speed_margin: f32,
}

impl Default for FormationParams {
    fn default() -> Self {
        FormationParams {
            spacing: 3.0,
            frame_jitter: 4,
            max_frame_offset: MAX_WINGMAN_FRAME_OFFSET,
            keep_torque: 8.0,
            keep_look_ahead: 0.6,
            speed_gain: 0.8,
            speed_margin: 0.3,
        }
    }
}

/// A slot offset in the leader's body axes (`x` right, `y` up, `z` back) → world position.
#[inline]
pub(crate) fn slot_position(leader: &FlyerState, leader_basis: &Basis, slot: Vec3) -> Vec3 {
    leader.position + leader_basis.right * slot.x + leader_basis.up * slot.y
        - leader_basis.forward * slot.z
}

/// Station keeping for a wingman: a torque towards `slot` (ahead by `keep_look_ahead` of the
/// leader's motion) and a speed that closes the along-track gap, within `speed_margin`; the
/// leader's body axes at hand (`leader_basis == leader.basis()`).
pub(crate) fn formation_steer_basis(
    wing: &FlyerState,
    wing_basis: &Basis,
    leader: &FlyerState,
    leader_basis: &Basis,
    slot: Vec3,
    formation: &FormationParams,
    params: &FlyerParams,
) -> Steer {
    let lb = leader_basis;
    let target = slot_position(leader, lb, slot);
    let aim = target + lb.forward * (leader.speed * formation.keep_look_ahead);
    let torque = match (aim - wing.position).try_normalize() {
        Some(dir) => turn_torque(wing_basis, dir, formation.keep_torque),
        None => Vec3::ZERO,
    };
    let behind = (target - wing.position).dot(wing_basis.forward);
    let margin = params.cruise_speed.abs() * clamp(formation.speed_margin, 0.0, 1.0);
    let speed = params.cruise_speed + clamp(behind * formation.speed_gain, -margin, margin);
    Steer { torque, speed }
}

/// Frames wingman `rank` lags its leader: the time to fly `rank · spacing` at `speed` (so it starts
/// each manoeuvre about where the leader did) plus `0..=frame_jitter` random frames, clamped to
/// `max_frame_offset ≤ 30`.
fn wingman_lag(
    rng: &mut Pcg32,
    rank: u32,
    params: &FormationParams,
    speed: f32,
    tick_hz: u16,
) -> u32 {
    let seconds = if speed > 1.0e-3 && speed.is_finite() {
        rank as f32 * params.spacing / speed
    } else {
        0.0
    };
    let frames = clamp(scalar::round(seconds * tick_hz as f32), 0.0, 1000.0) as u32;
    let jitter = rng.below(params.frame_jitter.saturating_add(1));
    let cap = params.max_frame_offset.min(MAX_WINGMAN_FRAME_OFFSET);
    frames.saturating_add(jitter).min(cap)
}

/// Spawn a leader and up to `wingmen` wingmen into `out` (stops when full; returns how many ghosts
/// were added, leader included).
///
/// The leader is `leader` starting at `leader_cursor`. Wingmen copy its orientation and speed, sit
/// at V offsets in the leader's body axes, and play a lag of a few frames *behind* the leader in
/// the recording (wrapping), at most 30 frames — the time to fly their distance behind plus a
/// little random jitter — so they fly the leader's manoeuvres slightly later, from slightly behind,
/// and the group holds together. Wingmen record the leader's slot in `out` ([`Ghost::leader`]),
/// so in a [`GhostScene`](super::GhostScene) they follow the leader's script position, Condition
/// skips included.
#[allow(clippy::too_many_arguments)]
pub fn spawn_formation<const N: usize>(
    out: &mut heapless::Vec<Ghost, N>,
    rng: &mut Pcg32,
    leader: FlyerState,
    leader_cursor: u32,
    wingmen: usize,
    params: &FormationParams,
    frame_count: u32,
    tick_hz: u16,
) -> usize {
    // A corrupted or merely non-unit leader (a host-built quaternion) would give NaN wingmen.
    let mut leader = leader;
    if !leader.is_finite() {
        leader.repair(0.0);
    }
    let q = leader.orientation;
    if (q.dot(q) - 1.0).abs() > 1.0e-3 {
        leader.orientation = q.normalize();
    }
    let leader_slot = out.len();
    if out.push(Ghost::new(leader, leader_cursor)).is_err() {
        return 0;
    }
    let leader_id = u16::try_from(leader_slot).unwrap_or(super::playback::NO_LEADER);
    let b = Basis::from_quat(leader.orientation);
    let mut added = 1;
    for k in 1..=wingmen as u32 {
        let rank = k.div_ceil(2);
        let side = if k % 2 == 1 { 1.0 } else { -1.0 };
        let d = rank as f32 * params.spacing;
        let slot = Vec3::new(side * d, 0.0, d);
        let offset = b.right * slot.x - b.forward * slot.z;
        let lag = wingman_lag(rng, rank, params, leader.speed, tick_hz);
        let cursor = if frame_count == 0 {
            0
        } else {
            let n = frame_count as u64;
            let c = leader_cursor as u64 % n;
            (c.wrapping_add(n).wrapping_sub(lag as u64 % n) % n) as u32
        };
        let mut flyer = leader;
        flyer.position = leader.position + offset;
        if !flyer.position.is_finite() {
            // A spacing so large that the slot overflows: stack the wingman on the leader.
            flyer.position = leader.position;
        }
        if out
            .push(Ghost::wingman(flyer, cursor, leader_id, lag as u16, slot))
            .is_err()
        {
            break;
        }
        added += 1;
    }
    added
}

/// Circular distance in frames between two cursors in a recording of `frame_count` frames.
pub fn frame_distance(a: u32, b: u32, frame_count: u32) -> u32 {
    if frame_count == 0 {
        return 0;
    }
    let (a, b) = (a % frame_count, b % frame_count);
    let d = a.abs_diff(b);
    d.min(frame_count - d)
}
