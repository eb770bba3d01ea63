//! The rollback-ready arena: 2–4 players on the demo level, a companion and the critters, in one
//! `Copy` value stepped by one function from every player's input — what a rollback netcode
//! (GGRS in `hopkit-sim netplay`) saves, restores and re-simulates.
//!
//! # Example
//!
//! ```
//! use hopkit_demo::arena::{scripted_input, ArenaWorld};
//! use hopkit_demo::DemoParams;
//! use hopkit::hash::StateHash;
//!
//! // The arena is tuned like the demo scene: the same parameters.
//! let params = DemoParams::default();
//! let mut world = ArenaWorld::new(2);
//! let saved = world; // a snapshot is a copy
//! for tick in 0..120 {
//!     let inputs = [scripted_input(tick, 0), scripted_input(tick, 1)];
//!     world.step(&params, &inputs);
//! }
//! let ahead = world.state_hash();
//! let mut again = saved; // roll back and re-simulate: the same bits
//! for tick in 0..120 {
//!     again.step(&params, &[scripted_input(tick, 0), scripted_input(tick, 1)]);
//! }
//! assert_eq!(again.state_hash(), ahead);
//! ```
//!
//! # A player's input is a ghost recording frame
//!
//! One player's input for one tick is [`ArenaInput`], the 3 bytes of a packed ghost
//! [`Frame`] — the bytes `hopkit-sim record` stores per tick in a recording (`HKGH` file), so a
//! session's inputs written as recordings replay it (`hopkit-sim hash --arena`). In the arena a
//! frame drives a mover ([`controls`]):
//!
//! | frame field | arena meaning |
//! |---|---|
//! | `pitch` (−32..=31) | forward (+) / back (−) stick, `pitch / 31` clamped to ±1 |
//! | `yaw` (−32..=31) | turn rate, `yaw / 31 ·` [`DemoParams::look_max_rate`]; + turns left |
//! | `toward` | strafe left (held) |
//! | `away` | strafe right (held); both held cancel |
//! | `missile` | jump held (auto-hop; a recording's one-tick press is one jump) |
//! | `fire` | fire held (drawn as a muzzle flash) |
//! | `condition` | ignored |
//!
//! Decoding is total: every 24-bit word is a valid frame ([`Frame::unpack`]), and
//! [`decode_input`] accepts any byte slice (missing bytes are 0), so no input can panic the world
//! or put a non-finite number in it.
//!
//! # Tick
//! Per tick, in this order: each player (index order) turns by its look rate, moves (seed preset,
//! auto-hop) on [`crate::level::DemoLevel`] (its ladder, pool and turntable), is stopped by the arena walls and tilts to the ground; the
//! companion follows player 0's breadcrumb trail; critter `i` arrives at a point of a ring around
//! player `i % players`; the tick counter advances. Players do not collide with each other.
//!
//! The demo's ghost formation is not part of the arena: ghosts fly a recording borrowed from
//! outside the state (not `Copy`), and their cost would take the 8-tick re-simulation of a
//! rollback past its microcontroller budget.

use hopkit::follower::{self, FollowerState};
use hopkit::ghost::Frame;
use hopkit::hash::{StateHash, StateHasher};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{MoveInput, MoverState};
use hopkit::slope::SlopeState;
use hopkit::steering::{self, arrival_step_with, ArrivalState};

use super::level::DemoGround;
use super::scene::{
    add_carried_yaw, move_in_arena, DemoParams, COMPANION_START, CRITTERS, CRITTER_RING, RING,
};
use super::TICK_HZ;

/// Most players in an arena.
pub const MAX_PLAYERS: usize = 4;
/// Fewest players in an arena.
pub const MIN_PLAYERS: usize = 2;
/// Bytes of one player's input for one tick (a packed ghost [`Frame`]).
pub const INPUT_BYTES: usize = 3;

/// One player's input for one tick: a packed ghost [`Frame`] (`Frame::pack`), little-endian
/// `fire | missile<<1 | toward<<2 | away<<3 | pitch6<<4 | yaw6<<10 | condition<<16`.
pub type ArenaInput = [u8; INPUT_BYTES];

/// No input (all released).
pub const NEUTRAL_INPUT: ArenaInput = [0; INPUT_BYTES];

/// Player start positions (feet), one per slot: the corners of a 12-unit square around the
/// demo's start.
pub const PLAYER_STARTS: [Vec3; MAX_PLAYERS] = [
    Vec3::new(-6.0, 0.0, -6.0),
    Vec3::new(6.0, 0.0, 6.0),
    Vec3::new(6.0, 0.0, -6.0),
    Vec3::new(-6.0, 0.0, 6.0),
];

/// What a player does this tick, decoded from its [`ArenaInput`] (every field finite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Controls {
    /// Movement wish in the view frame `(front, right)`, each in `[−1, 1]`.
    pub wish: Vec2,
    /// Turn command in `[−1, 1]` (+ turns left), scaled by [`DemoParams::look_max_rate`].
    pub turn: f32,
    /// Jump held.
    pub jump: bool,
    /// Fire held.
    pub fire: bool,
}

/// The arena meaning of a frame (the table in the [module docs](self)).
pub fn controls(frame: &Frame) -> Controls {
    let strafe = match (frame.toward, frame.away) {
        (true, false) => -1.0,
        (false, true) => 1.0,
        _ => 0.0,
    };
    Controls {
        wish: Vec2::new(frame.pitch_command(), strafe),
        turn: frame.yaw_command(),
        jump: frame.missile,
        fire: frame.fire,
    }
}

/// Decode any bytes as one player's frame: the first [`INPUT_BYTES`] bytes (missing ones are 0,
/// extra ones ignored). Total: never fails, never panics.
pub fn decode_input(bytes: &[u8]) -> Frame {
    let mut b = NEUTRAL_INPUT;
    for (d, s) in b.iter_mut().zip(bytes.iter()) {
        *d = *s;
    }
    Frame::unpack(b)
}

/// Build an input from arena controls: `forward` and `turn` in stick steps (−31..=31, clamped when
/// packed), `strafe` < 0 left, > 0 right, 0 none.
pub fn make_input(forward: i8, turn: i8, strafe: i8, jump: bool, fire: bool) -> ArenaInput {
    Frame {
        pitch: forward,
        yaw: turn,
        fire,
        missile: jump,
        toward: strafe < 0,
        away: strafe > 0,
        condition: 0,
    }
    .pack()
}

/// One player: movement state, view yaw, body tilt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArenaPlayer {
    /// Movement state (feet position, velocity, ground contact, jump timers).
    pub mover: MoverState,
    /// View yaw, radians in `(−π, π]` (0 faces −Z, positive turns left).
    pub yaw: f32,
    /// Planar unit forward of `yaw`.
    pub facing: Vec2,
    /// Slope alignment of the body.
    pub tilt: SlopeState,
    /// Fire held on the last tick.
    pub firing: bool,
}

impl ArenaPlayer {
    /// At rest at `start`, facing −Z.
    pub const fn new(start: Vec3) -> Self {
        ArenaPlayer {
            mover: MoverState::new(start),
            yaw: 0.0,
            facing: Vec2::new(0.0, -1.0),
            tilt: SlopeState::new(),
            firing: false,
        }
    }
}

/// The whole arena: plain data, `Copy` (a snapshot is a copy; restoring is an assignment).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArenaWorld {
    /// Ticks simulated so far.
    pub tick: u32,
    /// Players in the session, [`MIN_PLAYERS`]..=[`MAX_PLAYERS`]; slots beyond it stay at their
    /// start and are neither stepped nor hashed.
    pub players: u8,
    /// The player slots.
    pub player: [ArenaPlayer; MAX_PLAYERS],
    /// The companion (follows player 0).
    pub companion: FollowerState,
    /// The critters (critter `i` arrives around player `i % players`).
    pub critters: [ArrivalState; CRITTERS],
}

impl ArenaWorld {
    /// A fresh arena for `players` players (clamped to [`MIN_PLAYERS`]..=[`MAX_PLAYERS`]).
    pub fn new(players: usize) -> Self {
        let n = players.clamp(MIN_PLAYERS, MAX_PLAYERS);
        let critters = RING.map(|r| {
            let o = r * (CRITTER_RING * 2.0);
            ArrivalState::new(Vec3::new(o.x, 0.0, o.y))
        });
        ArenaWorld {
            tick: 0,
            players: n as u8,
            player: PLAYER_STARTS.map(ArenaPlayer::new),
            companion: FollowerState::new(COMPANION_START, PLAYER_STARTS[0], 0.0),
            critters,
        }
    }

    /// Players in the session (always in [`MIN_PLAYERS`]..=[`MAX_PLAYERS`], whatever `players`
    /// holds).
    pub fn player_count(&self) -> usize {
        (self.players as usize).clamp(MIN_PLAYERS, MAX_PLAYERS)
    }

    /// One fixed 1/[`TICK_HZ`] s tick from every player's input: `inputs[i]` is player `i`'s
    /// (missing ones are [`NEUTRAL_INPUT`], extra ones ignored). The one function that advances
    /// the arena.
    pub fn step(&mut self, params: &DemoParams, inputs: &[ArenaInput]) {
        let dt = 1.0 / TICK_HZ as f32;
        let ground = DemoGround;
        let n = self.player_count();
        for (i, pl) in self.player.iter_mut().take(n).enumerate() {
            let frame = Frame::unpack(inputs.get(i).copied().unwrap_or(NEUTRAL_INPUT));
            step_player(pl, params, &controls(&frame), dt);
        }
        let leader = self.player[0].mover.position;
        follower::step(&mut self.companion, &params.follower, leader, &ground, dt);
        // The critters share their parameters and `dt`: `arrival_step`'s constants once a tick,
        // as the demo scene steps them (the same bits as `arrival_step` for each).
        if let Some(k) = steering::TickConsts::new(&params.critter, &params.arrival, dt) {
            for (i, (c, o)) in self.critters.iter_mut().zip(RING.iter()).enumerate() {
                let p = self.player[i % n].mover.position;
                let target = Vec3::new(p.x + o.x * CRITTER_RING, 0.0, p.z + o.y * CRITTER_RING);
                arrival_step_with(c, &k, target);
            }
        }
        self.tick = self.tick.wrapping_add(1);
    }
}

fn step_player(pl: &mut ArenaPlayer, params: &DemoParams, c: &Controls, dt: f32) {
    let rate = hopkit::math::finite_or(c.turn * params.look_max_rate, 0.0);
    pl.yaw = hopkit::math::wrap_angle(pl.yaw + rate * dt);
    pl.facing = hopkit::math::yaw_forward(pl.yaw);
    let input = MoveInput::new(c.wish, c.jump, pl.facing);
    let carried = move_in_arena(
        &mut pl.mover,
        &mut pl.tilt,
        pl.yaw,
        (&params.movement, &params.slope),
        &input,
        dt,
    );
    pl.yaw = add_carried_yaw(pl.yaw, carried);
    pl.firing = c.fire;
}

impl StateHash for ArenaWorld {
    /// `tick`, the player count, each active player (mover, yaw, facing, tilt, firing), the
    /// companion, the critters — in that order (the rates memo is not state).
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u32(self.tick);
        h.write_u8(self.players);
        for p in self.player.iter().take(self.player_count()) {
            p.mover.hash_state(h);
            h.write_f32(p.yaw);
            h.write_vec2(p.facing);
            p.tilt.hash_state(h);
            h.write_bool(p.firing);
        }
        self.companion.hash_state(h);
        for c in self.critters.iter() {
            c.hash_state(h);
        }
    }
}

/// Length of one loop of [`scripted_input`], ticks (30 s at 60 Hz).
pub const ARENA_SCRIPT_PERIOD: u32 = 1800;

/// A deterministic scripted input for `player` at `tick`: the demo script's shape (rest, run,
/// strafe-hop right, strafe-hop left, walk with bursts of fire), each player `player · 450` ticks
/// further along it and turning the other way when `player` is odd.
pub fn scripted_input(tick: u32, player: usize) -> ArenaInput {
    let t = tick.wrapping_add(player as u32 * 450) % ARENA_SCRIPT_PERIOD;
    let mirror: i8 = if player % 2 == 1 { -1 } else { 1 };
    let (forward, turn, strafe, jump) = match t {
        0..120 => (0, 0, 0, false),
        120..180 => (31, -9, 0, false),
        180..900 => (0, -26, 1, true),
        900..1440 => (0, 26, -1, true),
        _ => (22, 0, -1, false),
    };
    let fire = t >= 1440 && t % 60 < 10;
    make_input(forward, turn * mirror, strafe * mirror, jump, fire)
}

/// Frames of each block of [`InputKind::Mixed`].
pub const MIXED_BLOCK: u32 = 600;
/// Frames a random input is held (0.1 s at 60 Hz), so that some predictions come true.
pub const RANDOM_HOLD: u32 = 6;

/// Kinds of generated input (`hopkit-sim synctest`/`netplay --input`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// [`scripted_input`].
    Scripted,
    /// Random 24-bit frames (any bits), each held [`RANDOM_HOLD`] frames, from a seed.
    Random,
    /// A recording's frames, looping; player `p` starts `p / players` of the way into it.
    Recording,
    /// Blocks of [`MIXED_BLOCK`] frames: scripted, recording, random, in turn.
    Mixed,
}

/// A source of player inputs that is a pure function of (frame, player), so that peers, re-runs,
/// replays and other CPUs agree without sharing state.
#[derive(Clone, Copy, Debug)]
pub struct InputSource<'a> {
    /// The kind.
    pub kind: InputKind,
    /// Seed of the random input.
    pub seed: u64,
    /// Players in the session (≥ 1; 0 is taken as 1).
    pub players: usize,
    /// The recording of [`InputKind::Recording`] and [`InputKind::Mixed`].
    pub recording: hopkit::ghost::Recording<'a>,
}

impl<'a> InputSource<'a> {
    /// A source of `kind`.
    pub fn new(
        kind: InputKind,
        seed: u64,
        players: usize,
        recording: hopkit::ghost::Recording<'a>,
    ) -> Self {
        InputSource {
            kind,
            seed,
            players,
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
        let mut r = hopkit::rng::Pcg32::new(
            self.seed ^ u64::from(frame / RANDOM_HOLD).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            player as u64,
        );
        let w = r.next_u32();
        [w as u8, (w >> 8) as u8, (w >> 16) as u8]
    }

    fn recorded(&self, frame: u32, player: usize) -> ArenaInput {
        let n = self.recording.frame_count();
        let players = self.players.max(1) as u64;
        let offset = (u64::from(n) * player as u64 / players) as u32;
        self.recording
            .frame_looped(frame.wrapping_add(offset))
            .pack()
    }
}

/// The state hash after `frames` ticks of a fresh arena whose player `p` plays
/// `sources[p].input(t, p)` (2–4 sources): what a netplay session with these inputs ends at.
pub fn session_hash(params: &DemoParams, sources: &[InputSource<'_>], frames: u32) -> u64 {
    let n = sources.len().clamp(MIN_PLAYERS, MAX_PLAYERS);
    let mut world = ArenaWorld::new(n);
    let mut inputs = [NEUTRAL_INPUT; MAX_PLAYERS];
    for t in 0..frames {
        for (p, (i, s)) in inputs.iter_mut().zip(sources.iter()).enumerate() {
            *i = s.input(t, p);
        }
        world.step(params, &inputs[..n]);
    }
    world.state_hash()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit::rng::Pcg32;

    fn run(world: &mut ArenaWorld, from: u32, ticks: u32) {
        let p = DemoParams::default();
        for t in from..from + ticks {
            let inputs = [
                scripted_input(t, 0),
                scripted_input(t, 1),
                scripted_input(t, 2),
                scripted_input(t, 3),
            ];
            world.step(&p, &inputs);
        }
    }

    #[test]
    fn deterministic_finite_and_players_move_apart() {
        for n in MIN_PLAYERS..=MAX_PLAYERS {
            let mut a = ArenaWorld::new(n);
            let mut b = ArenaWorld::new(n);
            run(&mut a, 0, 3600);
            run(&mut b, 0, 3600);
            assert_eq!(a.state_hash(), b.state_hash());
            assert_eq!(a, b);
            assert_eq!(a.tick, 3600);
            for p in a.player.iter().take(n) {
                assert!(p.mover.is_finite() && p.yaw.is_finite());
            }
            assert!(a.companion.body.position.is_finite());
            // The players took different paths.
            assert_ne!(a.player[0].mover.position, a.player[1].mover.position);
        }
    }

    #[test]
    fn rollback_resimulation_gives_the_same_bits() {
        let mut world = ArenaWorld::new(3);
        run(&mut world, 0, 500);
        let snapshot = world;
        run(&mut world, 500, 8);
        let ahead = world;
        let mut again = snapshot;
        run(&mut again, 500, 8);
        assert_eq!(again.state_hash(), ahead.state_hash());
        assert_eq!(again, ahead);
    }

    #[test]
    fn every_player_input_matters() {
        let p = DemoParams::default();
        for who in 0..MAX_PLAYERS {
            let base = ArenaWorld::new(MAX_PLAYERS);
            let (mut a, mut b) = (base, base);
            for _ in 0..30 {
                a.step(&p, &[NEUTRAL_INPUT; MAX_PLAYERS]);
                let mut inputs = [NEUTRAL_INPUT; MAX_PLAYERS];
                inputs[who] = make_input(31, 0, 0, false, false);
                b.step(&p, &inputs);
            }
            assert_ne!(a.state_hash(), b.state_hash(), "player {who}");
        }
    }

    #[test]
    fn a_flipped_bit_changes_the_hash() {
        let mut world = ArenaWorld::new(2);
        run(&mut world, 0, 100);
        let mut flipped = world;
        flipped.player[1].mover.position.x =
            f32::from_bits(flipped.player[1].mover.position.x.to_bits() ^ 1);
        assert_ne!(world.state_hash(), flipped.state_hash());
    }

    #[test]
    fn any_bytes_decode_and_step_finite() {
        let p = DemoParams::default();
        let mut rng = Pcg32::seeded(24);
        let mut world = ArenaWorld::new(4);
        for _ in 0..3000 {
            let mut inputs = [NEUTRAL_INPUT; MAX_PLAYERS];
            for i in inputs.iter_mut() {
                let w = rng.next_u32();
                *i = [w as u8, (w >> 8) as u8, (w >> 16) as u8];
            }
            world.step(&p, &inputs);
        }
        for pl in world.player.iter() {
            assert!(pl.mover.is_finite() && pl.yaw.is_finite() && pl.facing.is_finite());
        }
        // Short and long slices decode too.
        assert_eq!(decode_input(&[]), Frame::NEUTRAL);
        assert!(decode_input(&[1]).fire);
        assert_eq!(decode_input(&[0, 0, 7, 9, 9]).condition, 7);
        // Fewer inputs than players: the rest are neutral; a bad player count is clamped.
        let mut w = ArenaWorld::new(99);
        assert_eq!(w.player_count(), MAX_PLAYERS);
        w.players = 0;
        assert_eq!(w.player_count(), MIN_PLAYERS);
        w.step(&p, &[]);
    }

    #[test]
    fn input_sources_are_pure_and_mixed_cycles() {
        let rec = crate::pilot::demo_recording().unwrap();
        let src = |k| InputSource::new(k, 24, 2, rec);
        let mixed = src(InputKind::Mixed);
        for f in (0..5400).step_by(7) {
            for p in 0..2 {
                let want = match (f / MIXED_BLOCK) % 3 {
                    0 => src(InputKind::Scripted).input(f, p),
                    1 => src(InputKind::Recording).input(f, p),
                    _ => src(InputKind::Random).input(f, p),
                };
                assert_eq!(mixed.input(f, p), want);
                assert_eq!(mixed.input(f, p), mixed.input(f, p));
            }
        }
        // Player 2 plays the recording from its middle.
        let r = src(InputKind::Recording);
        assert_eq!(
            r.input(0, 1),
            rec.frame_looped(rec.frame_count() / 2).pack()
        );
        // Random inputs are held RANDOM_HOLD frames and differ between players.
        let r = src(InputKind::Random);
        assert_eq!(r.input(0, 0), r.input(RANDOM_HOLD - 1, 0));
        assert_ne!(r.input(0, 0), r.input(0, 1));
        // A session hash is the world stepped on the sources.
        let p = DemoParams::default();
        let mut w = ArenaWorld::new(2);
        for t in 0..300 {
            w.step(&p, &[mixed.input(t, 0), r.input(t, 1)]);
        }
        assert_eq!(session_hash(&p, &[mixed, r], 300), w.state_hash());
    }

    #[test]
    fn controls_follow_the_table() {
        let c = controls(&Frame::unpack(make_input(31, -31, 1, true, false)));
        assert_eq!(c.wish, Vec2::new(1.0, 1.0));
        assert_eq!(c.turn, -1.0);
        assert!(c.jump && !c.fire);
        let c = controls(&Frame {
            toward: true,
            away: true,
            ..Frame::NEUTRAL
        });
        assert_eq!(c.wish, Vec2::ZERO);
        assert_eq!(
            controls(&decode_input(&make_input(0, 0, -1, false, true)))
                .wish
                .y,
            -1.0
        );
    }

    #[test]
    fn scripted_players_strafe_hop_past_the_ground_max() {
        let mut world = ArenaWorld::new(2);
        let p = DemoParams::default();
        let mut top = 0.0f32;
        for t in 0..1800 {
            world.step(&p, &[scripted_input(t, 0), scripted_input(t, 1)]);
            top = top.max(world.player[0].mover.planar_speed());
        }
        assert!(top > p.movement.max_speed, "top speed {top}");
    }
}
