//! Where the players' inputs come from in `synctest` and headless `netplay`: the core's
//! [`InputSource`] (a pure function of frame and player, so peers, re-runs, replays and other CPUs
//! agree without sharing state), named on the command line by [`InputKind`].

pub use hopkit_demo::arena::{InputSource, MIXED_BLOCK, RANDOM_HOLD};

/// The kinds of input, as named on the command line ([`hopkit_demo::arena::InputKind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InputKind {
    /// [`hopkit_demo::arena::scripted_input`]: the demo script's run and strafe-hops, each player
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

impl InputKind {
    /// The core's kind.
    pub fn core(self) -> hopkit_demo::arena::InputKind {
        use hopkit_demo::arena::InputKind as K;
        match self {
            InputKind::Scripted => K::Scripted,
            InputKind::Random => K::Random,
            InputKind::Recording => K::Recording,
            InputKind::Mixed => K::Mixed,
        }
    }
}
