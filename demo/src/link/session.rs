//! The rollback session of a two-player arena over a byte link: GGRS's peer-to-peer semantics
//! (GGRS itself needs `std`), in fixed arrays.
//!
//! - **Frames** are numbered from 0 at the match start; frame `f` steps the arena from tick `f` to
//!   `f + 1` with both players' inputs for `f`.
//! - **Local input is applied at once** (no input delay); the remote one is **predicted** by
//!   repeating the last one received (GGRS's `PredictRepeatLast`; neutral before any).
//! - **Rollback**: when a remote input arrives that differs from the prediction a frame was
//!   simulated with, the next [`Session::advance`] restores the snapshot of that frame and
//!   re-simulates up to the present with the inputs now known — at most [`PREDICTION`] frames.
//! - **Prediction window**: a session never runs more than [`PREDICTION`] frames past the last
//!   remote input it has ([`Slot::Stall`]: the tick passes without a frame, no input is read).
//! - **Time sync**: each packet carries the sender's lead over this board; a board ahead of its
//!   peer by 2 frames or more lets a tick pass ([`Slot::Skip`], at most one in [`SKIP_SPACING`]),
//!   as GGRS's wait recommendation does, so neither keeps predicting far ahead.
//! - **Redundancy**: every packet carries this board's inputs from the oldest one the peer has not
//!   acknowledged (up to [`MAX_SEND`]), so a lost packet costs nothing once the next arrives.
//! - **Checksums**: every [`CHECK_INTERVAL`] frames, once both inputs of every earlier frame are
//!   known, the state hash of that tick is kept and sent; the peer compares it with its own: a
//!   difference is a desync, counted and reported ([`SessionStats::first_desync`]).
//!
//! Capacities: [`SNAPSHOTS`] arena states (`PREDICTION + 1`), [`HISTORY`] inputs per player,
//! [`CHECKS`] checksums. Nothing allocates.

use super::wire::{FramePacket, MAX_SEND};
use crate::arena::{ArenaInput, ArenaWorld, NEUTRAL_INPUT};
use crate::DemoParams;
use hopkit::hash::StateHash;

/// Most frames a session runs ahead of the last remote input it has (and so the deepest
/// rollback).
pub const PREDICTION: u32 = 8;
/// Arena snapshots kept: one per frame that may be rolled back to.
pub const SNAPSHOTS: usize = PREDICTION as usize + 1;
/// Inputs kept per player (a power of two, > 2·[`PREDICTION`] + [`MAX_SEND`]).
pub const HISTORY: usize = 64;
/// A state checksum every this many frames.
pub const CHECK_INTERVAL: u32 = 60;
/// This board's latest checksums kept for comparison.
pub const CHECKS: usize = 4;
/// Fewest frames between two time-sync skips.
pub const SKIP_SPACING: u32 = 8;
/// A board this many frames ahead of its peer (or more) skips a tick.
pub const SKIP_LEAD: i32 = 2;

const _: () = assert!(HISTORY.is_power_of_two() && HISTORY > 2 * PREDICTION as usize + MAX_SEND);

/// What a tick of the fixed clock does in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Slot {
    /// Read the local input and [`Session::advance`].
    Advance,
    /// The prediction window is full: wait for the peer (no frame, no input read).
    Stall,
    /// This board is ahead of its peer: let this tick pass.
    Skip,
}

/// Counters of a session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SessionStats {
    /// Frames advanced (= the current frame).
    pub frames: u32,
    /// Rollbacks (restores of a snapshot).
    pub rollbacks: u32,
    /// Deepest rollback, frames re-simulated.
    pub deepest: u32,
    /// Frames re-simulated in all.
    pub resimulated: u32,
    /// Ticks stalled on a full prediction window.
    pub stalls: u32,
    /// Ticks skipped to let the peer catch up.
    pub skips: u32,
    /// Checksums compared with the peer's.
    pub checks_compared: u32,
    /// Checksums that differed.
    pub desyncs: u32,
    /// The first difference: `(frame, this board's hash, the peer's)`.
    pub first_desync: Option<(u32, u64, u64)>,
}

/// One board's side of a two-player match.
#[derive(Clone, Debug)]
pub struct Session {
    params: DemoParams,
    seat: usize,
    frame: u32,
    world: ArenaWorld,
    snaps: [ArenaWorld; SNAPSHOTS],
    local: [ArenaInput; HISTORY],
    remote: [ArenaInput; HISTORY],
    /// The remote input each simulated frame used (prediction or received).
    used: [ArenaInput; HISTORY],
    /// Remote inputs received, in order: frames `0..remote_next` are known.
    remote_next: u32,
    /// Frames of this board's input the peer has (from its packets).
    peer_ack: u32,
    peer_frame: u32,
    peer_lead: i32,
    heard: bool,
    since_skip: u32,
    first_wrong: Option<u32>,
    checks: [(u32, u64); CHECKS],
    next_check: u32,
    latest_check: Option<(u32, u64)>,
    peer_check: Option<(u32, u64)>,
    compared_up_to: Option<u32>,
    stats: SessionStats,
}

impl Session {
    /// A fresh two-player arena; this board plays player `seat` (0 or 1; others are taken as 1).
    pub fn new(seat: usize) -> Self {
        let world = ArenaWorld::new(2);
        Session {
            params: DemoParams::default(),
            seat: seat.min(1),
            frame: 0,
            world,
            snaps: [world; SNAPSHOTS],
            local: [NEUTRAL_INPUT; HISTORY],
            remote: [NEUTRAL_INPUT; HISTORY],
            used: [NEUTRAL_INPUT; HISTORY],
            remote_next: 0,
            peer_ack: 0,
            peer_frame: 0,
            peer_lead: 0,
            heard: false,
            since_skip: SKIP_SPACING,
            first_wrong: None,
            checks: [(u32::MAX, 0); CHECKS],
            next_check: CHECK_INTERVAL,
            latest_check: None,
            peer_check: None,
            compared_up_to: None,
            stats: SessionStats::default(),
        }
    }

    /// This board's player (0 or 1).
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The next frame to simulate (= ticks simulated).
    pub fn frame(&self) -> u32 {
        self.frame
    }

    /// The arena now (predicted where the remote input is not known yet).
    pub fn world(&self) -> &ArenaWorld {
        &self.world
    }

    /// Counters.
    pub fn stats(&self) -> SessionStats {
        self.stats
    }

    /// Remote inputs received in order (frames `0..n` known).
    pub fn confirmed(&self) -> u32 {
        self.remote_next
    }

    /// The latest confirmed checksum: `(frame, state hash at that tick)`.
    pub fn latest_check(&self) -> Option<(u32, u64)> {
        self.latest_check
    }

    /// What this tick does. Counts stalls and skips; call once per tick of the fixed clock.
    pub fn slot(&mut self) -> Slot {
        if self.frame >= self.remote_next.saturating_add(PREDICTION) {
            self.stats.stalls = self.stats.stalls.saturating_add(1);
            return Slot::Stall;
        }
        let ahead = (self.lead() - self.peer_lead) / 2;
        if self.heard && ahead >= SKIP_LEAD && self.since_skip >= SKIP_SPACING {
            self.since_skip = 0;
            self.stats.skips = self.stats.skips.saturating_add(1);
            return Slot::Skip;
        }
        Slot::Advance
    }

    /// This board's frame minus the latest frame the peer reported.
    fn lead(&self) -> i32 {
        (i64::from(self.frame) - i64::from(self.peer_frame)).clamp(-(1 << 20), 1 << 20) as i32
    }

    fn remote_input(&self, f: u32) -> ArenaInput {
        if f < self.remote_next {
            self.remote[f as usize % HISTORY]
        } else if self.remote_next > 0 {
            self.remote[(self.remote_next - 1) as usize % HISTORY]
        } else {
            NEUTRAL_INPUT
        }
    }

    fn simulate(&mut self, f: u32) {
        self.snaps[f as usize % SNAPSHOTS] = self.world;
        let remote = self.remote_input(f);
        self.used[f as usize % HISTORY] = remote;
        let local = self.local[f as usize % HISTORY];
        let inputs = if self.seat == 0 {
            [local, remote]
        } else {
            [remote, local]
        };
        self.world.step(&self.params, &inputs);
    }

    /// Simulate the next frame with `input` as this board's: first roll back and re-simulate if a
    /// remote input proved a prediction wrong. Returns false (and does nothing) when the
    /// prediction window is full ([`Slot::Stall`]).
    pub fn advance(&mut self, input: ArenaInput) -> bool {
        if self.frame >= self.remote_next.saturating_add(PREDICTION) {
            return false;
        }
        if let Some(from) = self.first_wrong.take() {
            // `from ≥ remote_next before the packet ≥ frame − PREDICTION`: its snapshot is kept.
            let from = from.max(self.frame.saturating_sub(PREDICTION));
            if from < self.frame {
                self.world = self.snaps[from as usize % SNAPSHOTS];
                let depth = self.frame - from;
                for f in from..self.frame {
                    self.simulate(f);
                }
                self.stats.rollbacks = self.stats.rollbacks.saturating_add(1);
                self.stats.deepest = self.stats.deepest.max(depth);
                self.stats.resimulated = self.stats.resimulated.saturating_add(depth);
            }
        }
        self.local[self.frame as usize % HISTORY] = input;
        self.simulate(self.frame);
        self.frame += 1;
        self.stats.frames = self.frame;
        self.since_skip = self.since_skip.saturating_add(1);
        self.take_checks();
        true
    }

    /// Keep the checksum of every due tick whose inputs are all known.
    fn take_checks(&mut self) {
        while self.next_check <= self.frame && self.next_check <= self.remote_next {
            let c = self.next_check;
            self.next_check = c.saturating_add(CHECK_INTERVAL);
            let age = self.frame - c;
            let hash = if age == 0 {
                self.world.state_hash()
            } else if age <= PREDICTION {
                self.snaps[c as usize % SNAPSHOTS].state_hash()
            } else {
                // Not reachable (the window keeps `remote_next ≥ frame − PREDICTION`).
                continue;
            };
            self.checks[(c / CHECK_INTERVAL) as usize % CHECKS] = (c, hash);
            self.latest_check = Some((c, hash));
            if let Some((pc, ph)) = self.peer_check {
                if pc == c {
                    self.compare(c, hash, ph);
                }
            }
        }
    }

    fn compare(&mut self, frame: u32, mine: u64, theirs: u64) {
        if self.compared_up_to.is_some_and(|f| frame <= f) {
            return;
        }
        self.compared_up_to = Some(frame);
        self.stats.checks_compared = self.stats.checks_compared.saturating_add(1);
        if mine != theirs {
            self.stats.desyncs = self.stats.desyncs.saturating_add(1);
            self.stats.first_desync.get_or_insert((frame, mine, theirs));
        }
    }

    /// Take in a checked packet of this match from the peer.
    pub fn receive(&mut self, p: &FramePacket) {
        // The peer cannot have more of this board's inputs than this board has made.
        self.peer_ack = self.peer_ack.max(p.ack.min(self.frame));
        self.peer_frame = p.frame;
        self.heard = true;
        self.peer_lead = i32::from(p.lead);
        for (i, input) in p.inputs().iter().enumerate() {
            let f = p.first.wrapping_add(i as u32);
            if f < self.remote_next {
                continue;
            }
            // Only the next one in order; and never more than the ring can hold past the frames
            // still needed (a peer is at most PREDICTION + 1 frames past this board's).
            if f != self.remote_next || f >= self.frame.saturating_add(2 * PREDICTION + 1) {
                break;
            }
            self.remote[f as usize % HISTORY] = *input;
            if f < self.frame && self.used[f as usize % HISTORY] != *input {
                self.first_wrong = Some(self.first_wrong.map_or(f, |w| w.min(f)));
            }
            self.remote_next += 1;
        }
        if let Some((c, h)) = p.check {
            let mine = self.checks.iter().find(|(f, _)| *f == c).copied();
            match mine {
                Some((_, m)) => self.compare(c, m, h),
                None => self.peer_check = Some((c, h)),
            }
        }
    }

    /// This frame's packet for the peer: the inputs it has not acknowledged (oldest first, up to
    /// [`MAX_SEND`]), what this board has of the peer's, its lead, its latest checksum.
    pub fn packet(&self, match_id: u32) -> FramePacket {
        let oldest_kept = self.frame.saturating_sub(HISTORY as u32 - 1);
        let first = self.peer_ack.max(oldest_kept);
        let count = (self.frame - first).min(MAX_SEND as u32);
        let mut inputs = [NEUTRAL_INPUT; MAX_SEND];
        for (i, x) in inputs.iter_mut().take(count as usize).enumerate() {
            *x = self.local[(first as usize + i) % HISTORY];
        }
        let lead = self.lead().clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        FramePacket {
            match_id,
            frame: self.frame,
            lead,
            ack: self.remote_next,
            first,
            count: count as u8,
            inputs,
            check: self.latest_check,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::scripted_input;

    /// Two sessions handing packets straight to each other; `flip_at`: flip a bit of the second
    /// one's state when it reaches that frame (a board whose simulation differs).
    fn pair(frames: u32, flip_at: Option<u32>) -> [Session; 2] {
        let mut s = [Session::new(0), Session::new(1)];
        for _ in 0..frames {
            for i in 0..2 {
                if s[i].slot() == Slot::Advance {
                    let f = s[i].frame();
                    assert!(s[i].advance(scripted_input(f, i)));
                    if i == 1 && Some(s[i].frame()) == flip_at {
                        let x = &mut s[i].world.player[0].mover.position.x;
                        *x = f32::from_bits(x.to_bits() ^ 1);
                    }
                }
                let p = s[i].packet(7);
                s[1 - i].receive(&p);
            }
        }
        s
    }

    #[test]
    fn a_state_that_differs_is_a_desync_both_boards_see() {
        let clean = pair(600, None);
        for s in &clean {
            assert_eq!(s.stats().desyncs, 0);
            assert!(s.stats().checks_compared >= 8, "{:?}", s.stats());
        }
        let bad = pair(600, Some(100));
        for s in &bad {
            let st = s.stats();
            assert!(st.desyncs > 0, "{st:?}");
            let (frame, mine, theirs) = st.first_desync.unwrap();
            assert_eq!(frame, 120, "the first checksum after the flip");
            assert_ne!(mine, theirs);
        }
    }

    #[test]
    fn the_window_bounds_prediction_and_bogus_inputs_are_ignored() {
        let mut s = Session::new(0);
        for f in 0..PREDICTION {
            assert_eq!(s.slot(), Slot::Advance);
            assert!(s.advance(scripted_input(f, 0)));
        }
        // Nothing from the peer: the window is full.
        assert_eq!(s.slot(), Slot::Stall);
        assert!(!s.advance(NEUTRAL_INPUT));
        assert_eq!(s.frame(), PREDICTION);
        // Inputs out of order, or far in the future, are not taken.
        let mut p = Session::new(1).packet(1);
        p.first = 3;
        p.count = 1;
        s.receive(&p);
        assert_eq!(s.confirmed(), 0);
        p.first = 0;
        p.count = MAX_SEND as u8;
        s.receive(&p);
        assert_eq!(s.confirmed(), MAX_SEND as u32);
        // No further than the ring holds past the frames still needed.
        p.first = MAX_SEND as u32;
        s.receive(&p);
        assert_eq!(s.confirmed(), s.frame() + 2 * PREDICTION + 1);
        // An acknowledgement of frames this board has not made is capped.
        p.ack = u32::MAX;
        s.receive(&p);
        assert_eq!(s.packet(1).first, PREDICTION);
        assert_eq!(s.packet(1).count, 0);
        // Predictions that came true need no rollback: frames 0..8 were simulated with
        // a neutral remote input and stay so (the packet said neutral): no rollback.
        assert!(s.advance(NEUTRAL_INPUT));
        assert_eq!(s.stats().rollbacks, 0);
    }
}
