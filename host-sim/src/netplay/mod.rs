//! Rollback netplay of the arena ([`hopkit_demo::arena`]) with GGRS: `hopkit-sim synctest` and
//! `hopkit-sim netplay` (the commands: `crate::app::synctest`, `crate::app::netplay`). See
//! docs/netplay.md.
//!
//! - [`ArenaConfig`]: the GGRS [`Config`] — input = one player's packed ghost frame
//!   ([`ArenaInput`], 3 bytes, the bytes of a recording), state = the `Copy` [`ArenaWorld`],
//!   checksum = its 64-bit state hash (never `None`, so GGRS always has something to compare).
//! - [`Game`]: fulfils GGRS requests in the order given (save, load, advance), counts rollbacks
//!   and keeps, per tick, the inputs and the state hash of the latest simulation of that tick — so
//!   a session's confirmed inputs can be written as recordings and replayed
//!   (`hopkit-sim hash --arena`).
//! - [`inputs`]: scripted, recorded and random input sources.
//! - [`lossy`]: a UDP socket wrapper that drops, delays and reorders packets from a seeded PRNG.
//! - [`run`]: the synctest and peer loops behind the two subcommands.
//! - [`seats`]: who plays which seat, agreed by a handshake that does not trust addresses.
//! - [`socket`]: the session's UDP socket (the handshake, then GGRS).
//! - [`window`]: `netplay --window`, one peer played in a window.

pub mod inputs;
pub mod lossy;
pub mod run;
pub mod seats;
pub mod socket;
pub mod window;

use std::net::SocketAddr;

use ggrs::{Config, GgrsRequest, InputStatus, PredictRepeatLast};
use hopkit::hash::StateHash;
use hopkit_demo::arena::{ArenaInput, ArenaWorld, MAX_PLAYERS, NEUTRAL_INPUT};
use hopkit_demo::DemoParams;

/// The GGRS configuration of the arena.
#[derive(Debug)]
pub struct ArenaConfig;

impl Config for ArenaConfig {
    type Input = ArenaInput;
    type InputPredictor = PredictRepeatLast;
    type State = ArenaWorld;
    type Address = SocketAddr;
}

/// The checksum GGRS compares: the arena's 64-bit state hash.
pub fn checksum(world: &ArenaWorld) -> u128 {
    u128::from(world.state_hash())
}

/// How a state bit is perturbed (the negative controls: the detection must see it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perturb {
    /// Flip the lowest bit of player 1's x position the `nth` time (1-based) the world reaches
    /// `tick`, and only then: a step that is not a function of its inputs, what a synctest must
    /// catch. (A synctest rolls every frame back at once, so the first simulation of a tick is
    /// never saved: its second one is, and later ones are compared with it — use `nth = 2`.)
    Nth {
        /// The tick.
        tick: u32,
        /// Which simulation of it.
        nth: u32,
    },
    /// Flip it every time the world reaches `tick` (a peer whose simulation differs at that
    /// tick: what desync detection must catch).
    Always {
        /// The tick.
        tick: u32,
    },
}

/// Rollback counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RollbackStats {
    /// Ticks simulated, re-simulations included.
    pub ticks_simulated: u64,
    /// Load requests (rollbacks).
    pub rollbacks: u64,
    /// Deepest rollback, ticks (current tick − tick loaded).
    pub deepest: u32,
    /// Saves.
    pub saves: u64,
}

/// The arena under GGRS: the world, its tuning, rollback counters and the per-tick history.
#[derive(Debug)]
pub struct Game {
    /// The world.
    pub world: ArenaWorld,
    /// Its tuning.
    pub params: DemoParams,
    /// Rollback counters.
    pub stats: RollbackStats,
    /// `log[t]`: every player's input of the latest simulation of tick `t` (confirmed inputs once
    /// GGRS has confirmed tick `t`).
    pub log: Vec<[ArenaInput; MAX_PLAYERS]>,
    /// `hashes[t]`: the state hash after `t` ticks, as last simulated (`hashes[0]`: the start).
    pub hashes: Vec<u64>,
    /// A negative control, if any.
    pub perturb: Option<Perturb>,
    reached: u32,
}

impl Game {
    /// A fresh arena for `players` players.
    pub fn new(players: usize) -> Self {
        let world = ArenaWorld::new(players);
        Game {
            hashes: vec![world.state_hash()],
            world,
            params: DemoParams::default(),
            stats: RollbackStats::default(),
            log: Vec::new(),
            perturb: None,
            reached: 0,
        }
    }

    /// Fulfil GGRS's requests in order. An error is a broken contract (a save of another frame
    /// than the world's, a load of an empty cell): the session cannot go on.
    pub fn handle(&mut self, requests: Vec<GgrsRequest<ArenaConfig>>) -> Result<(), String> {
        for r in requests {
            match r {
                GgrsRequest::SaveGameState { cell, frame } => {
                    if i64::from(frame) != i64::from(self.world.tick) {
                        return Err(format!(
                            "GGRS asked to save frame {frame} while the world is at tick {}",
                            self.world.tick
                        ));
                    }
                    cell.save(frame, Some(self.world), Some(checksum(&self.world)));
                    self.stats.saves += 1;
                }
                GgrsRequest::LoadGameState { cell, frame } => {
                    let w = cell
                        .load()
                        .ok_or_else(|| format!("GGRS asked to load frame {frame}, never saved"))?;
                    self.stats.rollbacks += 1;
                    self.stats.deepest =
                        self.stats.deepest.max(self.world.tick.wrapping_sub(w.tick));
                    self.world = w;
                }
                GgrsRequest::AdvanceFrame { inputs } => self.advance(&inputs),
            }
        }
        Ok(())
    }

    fn advance(&mut self, inputs: &[(ArenaInput, InputStatus)]) {
        let mut all = [NEUTRAL_INPUT; MAX_PLAYERS];
        for (slot, (input, status)) in all.iter_mut().zip(inputs.iter()) {
            // A disconnected player's input is GGRS's default (neutral) already; say so anyway.
            *slot = if *status == InputStatus::Disconnected {
                NEUTRAL_INPUT
            } else {
                *input
            };
        }
        let t = self.world.tick as usize;
        if self.log.len() <= t {
            self.log.resize(t + 1, [NEUTRAL_INPUT; MAX_PLAYERS]);
        }
        self.log[t] = all;
        self.world.step(&self.params, &all);
        self.stats.ticks_simulated += 1;
        let tick = self.world.tick;
        let flip = match self.perturb {
            Some(Perturb::Always { tick: at }) => at == tick,
            Some(Perturb::Nth { tick: at, nth }) if at == tick => {
                self.reached = self.reached.saturating_add(1);
                self.reached == nth
            }
            _ => false,
        };
        if flip {
            let x = &mut self.world.player[0].mover.position.x;
            *x = f32::from_bits(x.to_bits() ^ 1);
        }
        let h = self.world.state_hash();
        let t = tick as usize;
        if self.hashes.len() <= t {
            self.hashes.resize(t + 1, 0);
        }
        self.hashes[t] = h;
    }

    /// The state hash after `tick` ticks as last simulated, if simulated.
    pub fn hash_at(&self, tick: u32) -> Option<u64> {
        self.hashes.get(tick as usize).copied()
    }
}
