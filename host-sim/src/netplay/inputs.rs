//! Where the players' inputs come from in `synctest` and headless `netplay`: every source is a pure
//! function of (frame, player), so peers, re-runs and replays agree without sharing state.

use hopkit::demo::arena::{scripted_input, ArenaInput};
use hopkit::ghost::Recording;
use hopkit::rng::Pcg32;

/// Frames of each block of [`InputKind::Mixed`].
pub const MIXED_BLOCK: u32 = 600;
/// Frames a random input is held (0.1 s at 60 Hz), so that some predictions come true.
pub const RANDOM_HOLD: u32 = 6;

/// The kinds of input, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InputKind {
    /// [`hopkit::demo::arena::scripted_input`]: the demo script's run and strafe-hops, each player
    /// further along it.
    Scripted,
    /// Random 24-bit frames (any bits: sticks, strafes, jump, fire), each held [`RANDOM_HOLD`]
    /// frames, from `--seed`.
    Random,
    /// The frames of a ghost recording (`--recording`, default the bundled demo recording),
    /// looping; player `p` starts `p / players` of the way into it.
    Recording,
    /// Blocks of [`MIXED_BLOCK`] frames: scripted, recording, random, in turn.
    Mixed,
}

/// An input source.
#[derive(Clone, Copy, Debug)]
pub struct InputSource {
    /// The kind.
    pub kind: InputKind,
    /// Seed of the random input.
    pub seed: u64,
    /// Players in the session.
    pub players: usize,
    recording: Recording<'static>,
}

impl InputSource {
    /// A source of `kind` for `players` players; `recording` drives [`InputKind::Recording`] (and
    /// the recording blocks of [`InputKind::Mixed`]).
    pub fn new(kind: InputKind, seed: u64, players: usize, recording: Recording<'static>) -> Self {
        InputSource {
            kind,
            seed,
            players: players.max(1),
            recording,
        }
    }

    /// Player `player`'s input for `frame`.
    pub fn input(&self, frame: u32, player: usize) -> ArenaInput {
        match self.kind {
            InputKind::Scripted => scripted_input(frame, player),
            InputKind::Random => self.random(frame, player),
            InputKind::Recording => self.recorded(frame, player),
            InputKind::Mixed => match (frame / MIXED_BLOCK) % 3 {
                0 => scripted_input(frame, player),
                1 => self.recorded(frame, player),
                _ => self.random(frame, player),
            },
        }
    }

    fn random(&self, frame: u32, player: usize) -> ArenaInput {
        let mut r = Pcg32::new(
            self.seed ^ u64::from(frame / RANDOM_HOLD).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            player as u64,
        );
        let w = r.next_u32();
        [w as u8, (w >> 8) as u8, (w >> 16) as u8]
    }

    fn recorded(&self, frame: u32, player: usize) -> ArenaInput {
        let n = self.recording.frame_count();
        let offset = (u64::from(n) * player as u64 / self.players as u64) as u32;
        self.recording
            .frame_looped(frame.wrapping_add(offset))
            .pack()
    }
}
