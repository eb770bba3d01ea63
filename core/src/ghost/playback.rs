//! Playing a recording back as AI ([`Ghost`]) and replaying it exactly to detect desyncs
//! ([`Replay`], [`verify`]).
//!
//! A ghost keeps a *cursor* into the recording. Each tick it:
//! 1. finds the nearest target;
//! 2. reads the frame at the cursor; if that frame holds **Toward** and the live distance is already
//!    below the recorded Condition distance, jumps to the **last frame of that Toward segment**
//!    (the seed's "already close enough: move on");
//! 3. gates the gun and the missile on facing the target (`FlyerParams::fire_cos`, `fire_range`);
//! 4. flies the frame (the same [`pilot::fly`] the recording pilot used);
//! 5. advances the cursor, wrapping from the last frame to the first.
//!
//! Missile presses are edges in the recording (one frame per press) and the simulation runs fixed
//! ticks, so a press fires exactly once however render frames group the ticks.

use super::fleet::{formation_steer_basis, FormationParams};
use super::flyer::{Basis, FlyerParams, FlyerState, TickConsts};
use super::format::{mod_index, state_check, Recording};
use super::frame::Frame;
use super::pilot::{self, Nearest, Steer};
use crate::ground::GroundProbe;
use crate::hash::{StateHash, StateHasher};
use crate::math::Vec3;

/// [`Ghost::leader`] value of a ghost that follows nobody.
pub const NO_LEADER: u16 = u16::MAX;

/// A ghost fighter: a flyer driven by a recording. Plain data.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Ghost {
    /// The body.
    pub flyer: FlyerState,
    /// Next frame to play (taken modulo the frame count).
    pub cursor: u32,
    /// Frame played on the last tick (0 before the first tick).
    pub last_index: u32,
    /// Formation leader: index of the ghost (in the same [`GhostScene`](super::GhostScene)) whose
    /// script position this ghost follows, or [`NO_LEADER`]. Only a leader with a *smaller* index
    /// is followed (it has already stepped this tick); otherwise the ghost plays independently.
    pub leader: u16,
    /// Frames this ghost plays behind its leader (wingmen: `0..=30`).
    pub lag: u16,
    /// Formation slot in the leader's body axes (`x` right, `y` up, `z` back), units.
    pub slot: Vec3,
    /// Gun fired on the last tick (after fire gating).
    pub firing: bool,
    /// Missile launched on the last tick (after fire gating).
    pub missile: bool,
    /// Missiles launched so far.
    pub missiles_fired: u32,
    /// Ticks the gun fired so far.
    pub fire_ticks: u32,
    /// Condition skips taken so far.
    pub skips: u32,
}

/// What a ghost did in one tick.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct GhostTick {
    /// Index of the frame played.
    pub frame_index: u32,
    /// The frame played.
    pub frame: Frame,
    /// True if a Condition skip jumped to the end of a Toward segment this tick.
    pub skipped: bool,
    /// Gun fired (frame's fire held and facing the target).
    pub firing: bool,
    /// Missile launched (frame's press and facing the target).
    pub missile: bool,
    /// The nearest target at the start of the tick.
    pub nearest: Option<Nearest>,
}

impl Default for Ghost {
    fn default() -> Self {
        Ghost::new(FlyerState::default(), 0)
    }
}

impl Ghost {
    /// An independent ghost flying `flyer`, starting at frame `cursor`.
    pub fn new(flyer: FlyerState, cursor: u32) -> Ghost {
        Ghost {
            flyer,
            cursor,
            last_index: 0,
            leader: NO_LEADER,
            lag: 0,
            slot: Vec3::ZERO,
            firing: false,
            missile: false,
            missiles_fired: 0,
            fire_ticks: 0,
            skips: 0,
        }
    }

    /// A wingman of ghost `leader` playing `lag` frames behind it at formation `slot` (leader body
    /// axes: `x` right, `y` up, `z` back); `cursor` is where it starts.
    pub fn wingman(flyer: FlyerState, cursor: u32, leader: u16, lag: u16, slot: Vec3) -> Ghost {
        Ghost {
            leader,
            lag,
            slot,
            ..Ghost::new(flyer, cursor)
        }
    }

    /// One tick as a wingman of `leader` (its state *after* its step this tick, and the frame it
    /// played, `leader_index`): play the frame `lag` frames behind, wrapping, plus the
    /// formation's station-keeping torque and speed. The
    /// leader's Condition skips carry over (the wingman's script position moves with the
    /// leader's), so the formation stays on one script; the wingman takes no skips of its own.
    #[allow(clippy::too_many_arguments)]
    pub fn step_following(
        &mut self,
        recording: &Recording<'_>,
        params: &FlyerParams,
        formation: &FormationParams,
        targets: &[Vec3],
        ground: &impl GroundProbe,
        leader: &FlyerState,
        leader_index: u32,
    ) -> GhostTick {
        let mut axes = self.flyer.basis();
        let leader_basis = leader.basis();
        let lead = Lead {
            flyer: leader,
            basis: &leader_basis,
            index: leader_index,
        };
        let k = TickConsts::new(params, recording.tick_dt());
        self.follow_axes(
            recording, params, formation, targets, ground, &lead, &mut axes, &k, false,
        )
    }

    /// [`Ghost::step_following`] with the body axes at hand (`axes == self.flyer.basis()`, updated
    /// to those of the new orientation) and the step constants of `recording.tick_dt()`. With
    /// `lazy` the nearest target is only looked for when the frame needs it (see [`Chosen`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn follow_axes(
        &mut self,
        recording: &Recording<'_>,
        params: &FlyerParams,
        formation: &FormationParams,
        targets: &[Vec3],
        ground: &impl GroundProbe,
        leader: &Lead<'_>,
        axes: &mut Basis,
        k: &TickConsts,
        lazy: bool,
    ) -> GhostTick {
        let leader_index = leader.index;
        let n = recording.frame_count();
        self.cursor = lagged_cursor(leader_index, self.lag, n);
        let nearest = if lazy {
            None
        } else {
            pilot::nearest_target(self.flyer.position, targets)
        };
        let index = self.cursor;
        let frame = recording.frame_looped(index);
        let steer = formation_steer_basis(
            &self.flyer,
            axes,
            leader.flyer,
            leader.basis,
            self.slot,
            formation,
            params,
        );
        let chosen = Chosen {
            index,
            frame,
            nearest,
            known: !lazy,
            skipped: false,
        };
        self.play(recording, params, targets, ground, &chosen, steer, axes, k);
        chosen.tick(self)
    }

    /// One fixed tick (`dt = 1 / recording.tick_hz()`). An empty recording flies
    /// [`Frame::NEUTRAL`] (avoidance and levelling still act).
    pub fn step(
        &mut self,
        recording: &Recording<'_>,
        params: &FlyerParams,
        targets: &[Vec3],
        ground: &impl GroundProbe,
    ) -> GhostTick {
        let mut axes = self.flyer.basis();
        let k = TickConsts::new(params, recording.tick_dt());
        self.step_axes(recording, params, targets, ground, &mut axes, &k, false)
    }

    /// [`Ghost::step`] with the body axes at hand (`axes == self.flyer.basis()`, updated to those
    /// of the new orientation) and the step constants of `recording.tick_dt()`. With `lazy` the
    /// nearest target is only looked for when the frame needs it (see [`Chosen`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn step_axes(
        &mut self,
        recording: &Recording<'_>,
        params: &FlyerParams,
        targets: &[Vec3],
        ground: &impl GroundProbe,
        axes: &mut Basis,
        k: &TickConsts,
        lazy: bool,
    ) -> GhostTick {
        let n = recording.frame_count();
        let mut index = if n == 0 { 0 } else { mod_index(self.cursor, n) };
        let mut frame = recording.frame_looped(index);
        // The Condition needs it only in a Toward frame (and a skip lands on one).
        let known = !lazy || frame.toward;
        let nearest = if known {
            pilot::nearest_target(self.flyer.position, targets)
        } else {
            None
        };
        let mut skipped = false;
        if let Some(near) = nearest.as_ref() {
            if condition_met(recording, &frame, near) {
                let end = recording.toward_segment_end(index);
                if end != index {
                    index = end;
                    frame = recording.frame_looped(end);
                    skipped = true;
                    self.skips = self.skips.wrapping_add(1);
                }
            }
        }
        let steer = Steer::none(params);
        let chosen = Chosen {
            index,
            frame,
            nearest,
            known,
            skipped,
        };
        self.play(recording, params, targets, ground, &chosen, steer, axes, k);
        chosen.tick(self)
    }

    /// Fire gating, flight and cursor advance for the chosen frame (`axes` as in
    /// [`Ghost::step_axes`]).
    #[allow(clippy::too_many_arguments)]
    fn play(
        &mut self,
        recording: &Recording<'_>,
        params: &FlyerParams,
        targets: &[Vec3],
        ground: &impl GroundProbe,
        chosen: &Chosen,
        steer: Steer,
        axes: &mut Basis,
        k: &TickConsts,
    ) {
        let Chosen {
            index,
            frame,
            nearest,
            known,
            ..
        } = *chosen;
        // Only the gun, the missile, Toward and Away look at the nearest target.
        let nearest = if known || !(frame.fire || frame.missile || frame.toward || frame.away) {
            nearest
        } else {
            pilot::nearest_target(self.flyer.position, targets)
        };
        let facing = pilot::facing_target(axes, params, nearest.as_ref());
        self.firing = frame.fire && facing;
        self.missile = frame.missile && facing;
        self.fire_ticks = self.fire_ticks.wrapping_add(self.firing as u32);
        self.missiles_fired = self.missiles_fired.wrapping_add(self.missile as u32);
        pilot::fly_steered_axes(
            &mut self.flyer,
            axes,
            params,
            k,
            &frame,
            nearest.as_ref(),
            targets,
            ground,
            steer,
        );
        self.cursor = recording.next_index(index);
        self.last_index = index;
    }
}

/// The frame a ghost plays this tick, chosen by [`Ghost::step`] or [`Ghost::step_following`].
///
/// `nearest` is the nearest target at the start of the tick if `known`; if not, it is `None` and
/// [`Ghost::play`] looks for it only if the frame fires, launches, or turns Toward or Away — the
/// only uses of it (a [`GhostScene`](super::GhostScene) ignores the [`GhostTick::nearest`] it then
/// leaves `None`; the public steps always look).
#[derive(Clone, Copy)]
struct Chosen {
    index: u32,
    frame: Frame,
    nearest: Option<Nearest>,
    known: bool,
    skipped: bool,
}

impl Chosen {
    /// What `ghost` did this tick after [`Ghost::play`] played this choice.
    #[inline]
    fn tick(&self, ghost: &Ghost) -> GhostTick {
        GhostTick {
            frame_index: self.index,
            frame: self.frame,
            skipped: self.skipped,
            firing: ghost.firing,
            missile: ghost.missile,
            nearest: self.nearest,
        }
    }
}

/// A wingman's leader this tick: its state after its step, its body axes
/// (`basis == flyer.basis()`) and the frame it played.
pub(crate) struct Lead<'a> {
    pub(crate) flyer: &'a FlyerState,
    pub(crate) basis: &'a Basis,
    pub(crate) index: u32,
}

/// Frame `lag` frames behind `leader_index` in a recording of `n` frames, wrapping:
/// `(leader_index mod n + n − lag mod n) mod n`, 0 for `n = 0`.
#[inline]
fn lagged_cursor(leader_index: u32, lag: u16, n: u32) -> u32 {
    if n == 0 {
        return 0;
    }
    // With both residues below n, the outer mod is a choice (no overflow: a − b when a ≥ b,
    // else a + (n − b) < n; wrapping only spells that out for the overflow-checked panic check).
    let a = mod_index(leader_index, n);
    let b = mod_index(lag as u32, n);
    if a >= b {
        a.wrapping_sub(b)
    } else {
        a.wrapping_add(n.wrapping_sub(b))
    }
}

/// The seed's Condition: inside a Toward segment, the live distance is already below the distance
/// recorded for this frame. Condition 0 ("no target when recorded") never triggers.
#[inline]
pub(crate) fn condition_met(recording: &Recording<'_>, frame: &Frame, nearest: &Nearest) -> bool {
    frame.toward
        && frame.condition > 0
        && nearest.distance < recording.condition_distance(frame.condition)
}

impl StateHash for Ghost {
    fn hash_state(&self, h: &mut StateHasher) {
        self.flyer.hash_state(h);
        h.write_u32(self.cursor);
        h.write_u32(self.last_index);
        h.write_u16(self.leader);
        h.write_u16(self.lag);
        h.write_vec3(self.slot);
        h.write_bool(self.firing);
        h.write_bool(self.missile);
        h.write_u32(self.missiles_fired);
        h.write_u32(self.fire_ticks);
        h.write_u32(self.skips);
    }
}

/// A replay disagreed with the recording's state checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Desync {
    /// The tick whose *starting* state did not match: the divergence happened in the ticks since
    /// the previous checksum (`tick − interval`, `tick`].
    pub tick: u32,
    /// The check stored in the recording.
    pub expected: u32,
    /// The check of the replayed state.
    pub found: u32,
}

/// Progress of a [`Replay`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ReplayStep {
    /// Frame played (and, if one was due, the checksum matched).
    Played(Frame),
    /// Every frame has been played; nothing changed.
    Finished,
}

/// Exact replay of a recording from frame 0 — no Condition skips, no looping — checking the
/// stored state checksums. Needs the same start state, targets (per tick) and ground as the
/// recording session, as a Doom demo needs the same map.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Replay {
    /// The replayed pilot.
    pub flyer: FlyerState,
    /// Next frame (= ticks played).
    pub tick: u32,
}

impl Replay {
    /// A replay starting from `start` at frame 0.
    pub fn new(start: FlyerState) -> Replay {
        Replay {
            flyer: start,
            tick: 0,
        }
    }

    /// Check the state if a checksum is due at this tick, then fly the tick's frame.
    pub fn step(
        &mut self,
        recording: &Recording<'_>,
        params: &FlyerParams,
        targets: &[Vec3],
        ground: &impl GroundProbe,
    ) -> Result<ReplayStep, Desync> {
        let Some(frame) = recording.frame(self.tick) else {
            return Ok(ReplayStep::Finished);
        };
        if let Some(expected) = recording.checksum_before(self.tick) {
            let found = state_check(&self.flyer);
            if found != expected {
                return Err(Desync {
                    tick: self.tick,
                    expected,
                    found,
                });
            }
        }
        let nearest = pilot::nearest_target(self.flyer.position, targets);
        pilot::fly(
            &mut self.flyer,
            params,
            &frame,
            nearest.as_ref(),
            targets,
            ground,
            recording.tick_dt(),
        );
        self.tick += 1;
        Ok(ReplayStep::Played(frame))
    }
}

/// Replay the whole recording against fixed `targets` and report the number of checksums that
/// matched, or the first [`Desync`].
///
/// The checksums hold for the scalar maths backend that recorded them
/// ([`crate::math::scalar::BACKEND`]; the demo crate's bundled recording: `libm`): under
/// the other backend the replay itself is just as deterministic but differs, and is reported
/// as a desync.
pub fn verify(
    recording: &Recording<'_>,
    params: &FlyerParams,
    start: FlyerState,
    targets: &[Vec3],
    ground: &impl GroundProbe,
) -> Result<u32, Desync> {
    let mut replay = Replay::new(start);
    while let ReplayStep::Played(_) = replay.step(recording, params, targets, ground)? {}
    Ok(recording.checksum_count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lagged_cursor_is_the_modular_formula() {
        let reference = |leader: u32, lag: u16, n: u32| {
            if n == 0 {
                return 0;
            }
            let n64 = n as u64;
            ((leader as u64 % n64 + n64 - lag as u64 % n64) % n64) as u32
        };
        for n in [0u32, 1, 2, 3, 7, 30, 31, 600, 65_535, 65_536, u32::MAX] {
            for leader in [
                0u32,
                1,
                5,
                29,
                30,
                31,
                599,
                600,
                601,
                70_000,
                u32::MAX - 1,
                u32::MAX,
            ] {
                for lag in [0u16, 1, 4, 29, 30, 31, 600, u16::MAX] {
                    assert_eq!(
                        lagged_cursor(leader, lag, n),
                        reference(leader, lag, n),
                        "{leader} {lag} {n}"
                    );
                }
            }
        }
    }
}
