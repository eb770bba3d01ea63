//! A party: several followers in a line behind one leader, spaced by **distance along the leader's
//! trail** (not by frames of delay), so they stay evenly spaced when the leader stops.
//!
//! # How it works
//! The party records one shared trail of the leader's positions (a crumb every
//! [`PartyParams::crumb_spacing`], 0.5 by default). Member `k` (0 = right behind the leader) owns
//! a *slot*: the point `(k + 1) · spacing` behind the leader measured along the trail (leader →
//! newest crumb → … → oldest), extended straight past the oldest crumb if the trail is short. Each
//! member walks its [`FollowerBody`] to its slot with the seed's locomotion (speed-factor easing,
//! direction lerp, stopping decay, turning, head, falling, gravity), with three additions:
//! - **Arrival**: speed is capped at `lag · arrive_gain` (lag = planar distance to the slot), and the
//!   member stops (the seed's `ReduceSpeed`) within `arrive_radius`. When the leader stops, the slots
//!   stop, and the members settle on them: evenly spaced.
//! - **Personal space**: a member does not walk towards the leader or a member ahead of it (lower
//!   index) that is closer than `personal_space`; it stops instead. Priority goes to the front, so
//!   nobody deadlocks and nobody walks through the leader when it turns back.
//! - **Rescue**: a member more than `warp_lag` from its slot (stuck, or fell) is warped onto it —
//!   the seed's "history full → warp" in distance form (16 crumbs × 1.5 = 24 units).
//!
//! # Teleports
//! If the leader moves more than `body.teleport_distance` in one step, the party regroups
//! ([`Party::regroup`]): the trail is re-seeded as a straight line behind the leader and member `k`
//! is placed at rest `(k + 1) · spacing` along it, facing the leader. No two members share a spot:
//! the minimum pairwise distance right after a regroup is exactly `spacing` (and `spacing` from the
//! leader). The line points to the side the party was on (leader → member 0), else +Z.
//!
//! # Capacities
//! `M` members at most (const generic, `M ≤` [`MAX_PARTY_SIZE`] = 64, checked at compile time);
//! [`Party::add_member`] on a full party returns [`PartyFull`] and changes nothing. `C` trail crumbs
//! (const generic, `C ≥ 3`). When the trail is full the oldest crumb is dropped — never needed,
//! because the recording spacing is raised to `max(crumb_spacing, M · spacing / (C − 2))`, so
//! `C − 1` segments always span more than the last slot. With the defaults (`M = 4`, spacing 2.5,
//! crumbs 0.5) `C ≥ 22` keeps the full 0.5 resolution; the default `C` is 32.

use super::body::{yaw_of, FollowerBody, Rates};
use super::params::{
    clamp_coords, nonneg, nonneg_inf, positive_finite, sanitize_dt, sanitize_leader, FollowerParams,
};
use super::trail::Trail;
use crate::ground::GroundProbe;
use crate::hash::{StateHash, StateHasher};
use crate::math::scalar::positive_bits;
use crate::math::{Vec2, Vec3};

/// Largest party size (`M`): member bit masks in [`PartyEvents`] are `u64`.
pub const MAX_PARTY_SIZE: usize = 64;
/// Default party capacity `M`.
pub const DEFAULT_PARTY_SIZE: usize = 4;
/// Default party trail capacity `C` (crumbs).
pub const DEFAULT_PARTY_TRAIL: usize = 32;

/// Tuning of a [`Party`]. Distances in world units.
///
/// Sanitised like [`FollowerParams`]: NaN or out-of-range fields fall back to their defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct PartyParams {
    /// Locomotion of every member: `move_speed`, the speed factors, easing, stop decay, direction
    /// lerp, `reference_hz`, turning, head, falling, integration and `teleport_distance` are used;
    /// the crumb-count fields (`record_distance`, `shortcut_*`, `stop_distance`, `reach_distance`,
    /// `*_crumbs`, `regroup_distance`) are not. Default [`FollowerParams::seed`].
    pub body: FollowerParams,
    /// Distance along the trail between consecutive members (and from the leader to member 0).
    /// Units. Default **2.5**. Range `(0, ∞)`.
    pub spacing: f32,
    /// Wanted distance between recorded crumbs (raised automatically if `C` is too small, see the
    /// module docs). Units. Default **0.5**. Range `(0, ∞)`.
    pub crumb_spacing: f32,
    /// A member stops rather than walk towards the leader or a member ahead closer than this.
    /// Units. Default **1.5**; keep it below `spacing`. Range `[0, ∞)`.
    pub personal_space: f32,
    /// A member within this planar distance of its slot stops. Units. Default **0.3**. `[0, ∞)`.
    pub arrive_radius: f32,
    /// Speed cap per unit of distance to the slot (arrival): `speed ≤ lag · arrive_gain`. 1/s.
    /// Default **4.0**. Range `[0, ∞]` (∞ = no arrival slow-down).
    pub arrive_gain: f32,
    /// A member this far or farther from its slot chases at `body.fast_factor` (1.6), else at
    /// `body.normal_factor` (1.0). Units. Default **6.0** (the seed's "≥ 5 crumbs" ≈ 4 gaps × 1.5).
    pub catch_up_lag: f32,
    /// A member farther than this from its slot is warped onto it. Units. Default **24.0** (the
    /// seed's 16 crumbs × 1.5). Range `(0, ∞]`.
    pub warp_lag: f32,
}

impl Default for PartyParams {
    fn default() -> Self {
        Self::seed()
    }
}

impl PartyParams {
    /// Seed locomotion, 2.5 units between members (see each field).
    pub const fn seed() -> Self {
        PartyParams {
            body: FollowerParams::seed(),
            spacing: 2.5,
            crumb_spacing: 0.5,
            personal_space: 1.5,
            arrive_radius: 0.3,
            arrive_gain: 4.0,
            catch_up_lag: 6.0,
            warp_lag: 24.0,
        }
    }

    /// A tight RPG-style conga line: 1.2 units apart, personal space 0.8, crumbs every 0.3.
    pub const fn conga_line() -> Self {
        let mut p = Self::seed();
        p.spacing = 1.2;
        p.personal_space = 0.8;
        p.crumb_spacing = 0.3;
        p.arrive_radius = 0.15;
        p
    }

    /// True if every field (and `body`) is in its documented range: `sanitized()` would return an
    /// identical copy.
    pub fn is_sane(&self) -> bool {
        self.body.is_sane()
            & positive_finite(self.spacing)
            & positive_finite(self.crumb_spacing)
            & nonneg(self.personal_space)
            & nonneg(self.arrive_radius)
            & nonneg_inf(self.arrive_gain)
            & nonneg(self.catch_up_lag)
            & positive_bits(self.warp_lag)
    }

    /// A copy with every NaN or out-of-range field replaced by its default.
    pub fn sanitized(&self) -> Self {
        let d = Self::seed();
        let f = |rule: fn(f32) -> bool, x: f32, def: f32| if rule(x) { x } else { def };
        PartyParams {
            body: self.body.sanitized(),
            spacing: f(positive_finite, self.spacing, d.spacing),
            crumb_spacing: f(positive_finite, self.crumb_spacing, d.crumb_spacing),
            personal_space: f(nonneg, self.personal_space, d.personal_space),
            arrive_radius: f(nonneg, self.arrive_radius, d.arrive_radius),
            arrive_gain: f(nonneg_inf, self.arrive_gain, d.arrive_gain),
            catch_up_lag: f(nonneg, self.catch_up_lag, d.catch_up_lag),
            warp_lag: f(positive_bits, self.warp_lag, d.warp_lag),
        }
    }

    /// `self` if sane, else a sanitised copy in `slot`.
    fn checked<'a>(&'a self, slot: &'a mut Option<PartyParams>) -> &'a PartyParams {
        if self.is_sane() {
            self
        } else {
            slot.insert(self.sanitized())
        }
    }
}

/// Returned by [`Party::add_member`] when all `M` places are taken (nothing was changed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PartyFull;

/// What happened during one [`step`]. Bit `k` of a mask is member `k`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct PartyEvents {
    /// The leader teleported and the party regrouped behind it.
    pub regrouped: bool,
    /// The trail was full and its oldest crumb (behind every slot) was dropped.
    pub crumb_dropped: bool,
    /// Members warped onto their slot this step.
    pub warped: u64,
    /// Members stopping (arrived or giving way) this step.
    pub stopped: u64,
    /// Members whose falling flag is set after this step.
    pub falling: u64,
}

/// A leader's party: up to `M` member bodies and the shared trail of `C` crumbs.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Party<const M: usize = DEFAULT_PARTY_SIZE, const C: usize = DEFAULT_PARTY_TRAIL> {
    /// Member bodies; `members[len..]` are unused and kept at `FollowerBody::default()`.
    members: [FollowerBody; M],
    /// Number of members.
    len: usize,
    /// The leader's trail, oldest first.
    trail: Trail<C>,
    /// Leader position seen at the last step.
    leader: Vec3,
}

impl<const M: usize, const C: usize> Party<M, C> {
    /// An empty party around a leader at `leader_pos`. Compile-time checks: `M ≤ 64`, `C ≥ 3`.
    pub fn new(leader_pos: Vec3) -> Self {
        const { assert!(M <= MAX_PARTY_SIZE, "a Party holds at most 64 members") };
        const { assert!(C >= 3, "a Party trail needs at least 3 crumbs") };
        let leader = clamp_coords(leader_pos.sanitize());
        Party {
            members: [FollowerBody::default(); M],
            len: 0,
            trail: Trail::with_crumb(leader),
            leader,
        }
    }

    /// Number of members.
    pub const fn len(&self) -> usize {
        self.len
    }
    /// True if there are no members.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// True if `len() == M`.
    pub const fn is_full(&self) -> bool {
        self.len >= M
    }
    /// Capacity `M`.
    pub const fn capacity(&self) -> usize {
        M
    }
    /// The members, front (closest to the leader) first.
    pub fn members(&self) -> &[FollowerBody] {
        self.members.get(..self.len).unwrap_or(&[])
    }
    /// Mutable members (e.g. for a host that integrates bodies itself).
    pub fn members_mut(&mut self) -> &mut [FollowerBody] {
        self.members.get_mut(..self.len).unwrap_or(&mut [])
    }
    /// Member `i`, if present.
    pub fn member(&self, i: usize) -> Option<&FollowerBody> {
        self.members().get(i)
    }
    /// The shared trail, oldest first.
    pub fn trail(&self) -> &Trail<C> {
        &self.trail
    }
    /// Leader position seen at the last step.
    pub const fn leader(&self) -> Vec3 {
        self.leader
    }

    /// Add a member at rest at `position` facing `yaw`, at the back of the line. Returns its index,
    /// or [`PartyFull`] (nothing changed) if `M` members are already there.
    pub fn add_member(&mut self, position: Vec3, yaw: f32) -> Result<usize, PartyFull> {
        let i = self.len;
        let slot = self.members.get_mut(i).ok_or(PartyFull)?;
        *slot = FollowerBody::new(position, yaw);
        self.len += 1;
        Ok(i)
    }

    /// Remove member `i` (the ones behind move up one place). `None` if there is no such member.
    pub fn remove_member(&mut self, i: usize) -> Option<FollowerBody> {
        if i >= self.len {
            return None;
        }
        let removed = *self.members.get(i)?;
        let tail = self.members.get_mut(i..self.len)?;
        tail.rotate_left(1);
        self.len -= 1;
        if let Some(last) = self.members.get_mut(self.len) {
            *last = FollowerBody::default();
        }
        Some(removed)
    }

    /// Distance between recorded crumbs actually used: `max(crumb_spacing, M·spacing/(C − 2))`.
    pub fn recording_spacing(&self, params: &PartyParams) -> f32 {
        recording_spacing::<M, C>(params.checked(&mut None))
    }

    /// The slot of every member (index `k` for member `k`; entries past `len()` are the leader).
    pub fn slots(&self, params: &PartyParams) -> [Vec3; M] {
        self.compute_slots(params.checked(&mut None))
    }

    /// Reset the trail to a straight line behind the leader at `leader_pos` along the planar
    /// direction `back` (`(x, z)`; zero/NaN → +Z) and place member `k` at rest `(k + 1)·spacing`
    /// along it at the leader's height, facing the leader. Call after a map transfer with
    /// `back = −leader_forward`; [`step`] calls it on a teleport.
    pub fn regroup(&mut self, params: &PartyParams, leader_pos: Vec3, back: Vec2) {
        let mut slot = None;
        let pp = params.checked(&mut slot);
        let leader = sanitize_leader(leader_pos, self.leader);
        self.regroup_sanitized(pp, leader, back);
    }

    fn regroup_sanitized(&mut self, pp: &PartyParams, leader: Vec3, back: Vec2) {
        let back = back.try_normalize().unwrap_or(Vec2::Y);
        let at = |d: f32| clamp_coords(leader + Vec3::from_planar(back * d, 0.0));
        let eff = recording_spacing::<M, C>(pp);
        let needed = (M as f32 * pp.spacing / eff) as usize + 2;
        let crumbs = needed.min(C - 1);
        self.trail.clear();
        for j in (1..=crumbs).rev() {
            let _ = self.trail.push_newest(at(j as f32 * eff));
        }
        let _ = self.trail.push_newest(leader);
        let face = yaw_of(-back);
        for (k, m) in self.members_mut().iter_mut().enumerate() {
            m.place(at((k + 1) as f32 * pp.spacing), face);
        }
        self.leader = leader;
    }

    /// Record the leader if it is a crumb spacing away from the newest crumb; returns true if the
    /// oldest crumb had to be dropped.
    fn record(&mut self, pp: &PartyParams, leader: Vec3) -> bool {
        let eff = recording_spacing::<M, C>(pp);
        if let Some(newest) = self.trail.newest() {
            if leader.distance(newest) <= eff {
                return false;
            }
        }
        let mut dropped = false;
        if self.trail.is_full() {
            dropped = self.trail.pop_oldest().is_some();
        }
        let _ = self.trail.push_newest(leader);
        dropped
    }

    /// One backward pass along leader → newest → … → oldest crumb, dropping a slot every
    /// `spacing`; slots past the oldest crumb continue straight along the last segment.
    fn compute_slots(&self, pp: &PartyParams) -> [Vec3; M] {
        let mut out = [self.leader; M];
        let count = self.len;
        let mut k = 0usize;
        let mut want = pp.spacing;
        let mut walked = 0.0f32;
        let mut a = self.leader;
        let mut dir = Vec2::Y;
        for c in self.trail.iter().rev() {
            if k >= count {
                break;
            }
            let seg = c - a;
            let len = seg.length();
            while k < count && walked + len >= want {
                let t = if len > 1.0e-6 {
                    (want - walked) / len
                } else {
                    0.0
                };
                if let Some(o) = out.get_mut(k) {
                    *o = a + seg * t;
                }
                k += 1;
                want = pp.spacing * (k + 1) as f32;
            }
            if let Some(d) = seg.planar().try_normalize() {
                dir = d;
            }
            walked += len;
            a = c;
        }
        while k < count {
            if let Some(o) = out.get_mut(k) {
                *o = clamp_coords(a + Vec3::from_planar(dir * (want - walked), 0.0));
            }
            k += 1;
            want = pp.spacing * (k + 1) as f32;
        }
        out
    }

    fn sanitize(&mut self) {
        if !self.leader.is_finite() {
            self.leader = Vec3::ZERO;
        }
        self.leader = clamp_coords(self.leader);
        let leader = self.leader;
        for m in self.members_mut() {
            m.sanitize(leader);
        }
    }
}

fn recording_spacing<const M: usize, const C: usize>(pp: &PartyParams) -> f32 {
    let span = M as f32 * pp.spacing / (C.saturating_sub(2).max(1)) as f32;
    pp.crumb_spacing.max(span)
}

impl<const M: usize, const C: usize> StateHash for Party<M, C> {
    /// `len` (u32), each member in order, the trail, the leader.
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u32(self.len as u32);
        for m in self.members() {
            m.hash_state(h);
        }
        self.trail.hash_state(h);
        h.write_vec3(self.leader);
    }
}

/// Advance the party by `dt` seconds towards a leader now at `leader_pos`. Bad input is handled
/// as in [`crate::follower::step`].
pub fn step<const M: usize, const C: usize>(
    party: &mut Party<M, C>,
    params: &PartyParams,
    leader_pos: Vec3,
    ground: &impl GroundProbe,
    dt: f32,
) -> PartyEvents {
    let mut ev = PartyEvents::default();
    let Some(dt) = sanitize_dt(dt) else {
        for (k, m) in party.members().iter().enumerate() {
            if m.falling {
                ev.falling |= bit(k);
            }
        }
        return ev;
    };
    let mut slot = None;
    let pp = params.checked(&mut slot);
    let p = &pp.body;
    party.sanitize();
    let leader = sanitize_leader(leader_pos, party.leader);
    let n = dt * p.reference_hz;
    // Every member shares the parameters and `dt`: one set of decays for all of them.
    let rates = Rates::new(p, n, dt);

    if leader.distance(party.leader) > p.teleport_distance {
        let back = match party.members().first() {
            Some(m) => m.position.planar() - party.leader.planar(),
            None => Vec2::ZERO,
        };
        party.regroup_sanitized(pp, leader, back);
        ev.regrouped = true;
    }
    party.leader = leader;
    ev.crumb_dropped = party.record(pp, leader);

    let slots = party.compute_slots(pp);
    let mut before = [Vec3::ZERO; M];
    for (b, m) in before.iter_mut().zip(party.members()) {
        *b = m.position;
    }
    for (k, body) in party.members_mut().iter_mut().enumerate() {
        let slot = slots.get(k).copied().unwrap_or(leader);
        let mut lag = body.position.planar().distance(slot.planar());
        if lag > pp.warp_lag {
            body.warp(slot);
            ev.warped |= bit(k);
            lag = 0.0;
        }
        let ahead = before.get(..k).unwrap_or(&[]);
        if lag <= pp.arrive_radius || gives_way(body.position, slot, leader, ahead, pp) {
            body.reduce_speed(p, n, &rates);
            ev.stopped |= bit(k);
        } else {
            let factor = if lag >= pp.catch_up_lag {
                p.fast_factor
            } else {
                p.normal_factor
            };
            body.chase(p, slot, factor, lag * pp.arrive_gain, n, &rates);
        }
        let ground_y = body.integrate(p, ground, dt);
        body.update_falling(p, ground_y);
        body.turn(p, dt);
        body.turn_neck(p, leader, dt, &rates);
        body.flush_subnormals();
        if body.falling {
            ev.falling |= bit(k);
        }
    }
    ev
}

/// True if walking from `pos` towards `slot` heads at the leader or a member ahead that is within
/// personal space.
fn gives_way(pos: Vec3, slot: Vec3, leader: Vec3, ahead: &[Vec3], pp: &PartyParams) -> bool {
    let heading = slot.planar() - pos.planar();
    let r2 = pp.personal_space * pp.personal_space;
    let blocks =
        |o: Vec3| (o - pos).length_squared() < r2 && heading.dot(o.planar() - pos.planar()) > 0.0;
    blocks(leader) || ahead.iter().any(|&o| blocks(o))
}

#[inline]
fn bit(k: usize) -> u64 {
    1u64.checked_shl(k as u32).unwrap_or(0)
}
