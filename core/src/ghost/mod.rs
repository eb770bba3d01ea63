//! Ghost pilots (seed 002): recorded human input replayed as enemy AI.
//!
//! # Example
//!
//! ```
//! use hopkit::ghost::{
//!     record_and_fly, FlyerParams, FlyerState, Ghost, PilotInput, Recorder, Recording,
//!     RecordingInfo,
//! };
//! use hopkit::ground::FlatGround;
//! use hopkit::math::Vec3;
//!
//! // A pilot (a human with a gamepad; here a script) flies 10 s while every tick is recorded.
//! let info = RecordingInfo { tick_hz: 60, checksum_interval: 60, condition_unit: 0.5 };
//! let mut recorder = Recorder::<{ 24 + 3 * 600 + 4 * 10 }>::new(info).unwrap();
//! let params = FlyerParams::default();
//! let targets = [Vec3::new(-20.0, 3.0, -20.0)];
//! let mut pilot = FlyerState::level(Vec3::new(0.0, 12.0, 30.0), 0.0, params.cruise_speed);
//! for tick in 0..600 {
//!     let input = PilotInput { yaw: 0.4, toward: tick % 120 < 60, fire: true, ..PilotInput::default() };
//!     record_and_fly(&mut recorder, &mut pilot, &params, &input, &targets, &FlatGround::default())
//!         .unwrap();
//! }
//! // The bytes (3 per frame, header, CRC, a checksum per second), parsed in place, flown as an
//! // enemy AI somewhere else in the world.
//! let recording = Recording::parse(recorder.finish()).unwrap();
//! assert_eq!((recording.frame_count(), recording.tick_hz()), (600, 60));
//! let mut ghost = Ghost::new(FlyerState::level(Vec3::new(10.0, 12.0, -30.0), 0.0, 8.0), 0);
//! let mut fired = 0;
//! for _ in 0..600 {
//!     let tick = ghost.step(&recording, &params, &targets, &FlatGround::default());
//!     fired += tick.firing as u32;
//! }
//! assert!(ghost.flyer.is_finite());
//! assert!(fired > 0);
//! ```
//!
//! A human (or a script) flies a fighter; every fixed tick the controls are quantized into a
//! [`Frame`] **in game symbols** — pitch, yaw, fire (held), missile (a press), Toward, Away, and
//! Condition (the distance to the nearest target at that moment). The quantized frame is what the
//! live pilot flies too (Doom's trick), so a recording replays exactly as it was flown.
//!
//! Played back, the frames become an AI that works anywhere in the world because every turn is a
//! **torque** and torques add up ([`flyer`]):
//! - **Toward** adds torque towards the nearest target, **Away** the opposite;
//! - **Condition**: inside a Toward segment, once the live distance is below the recorded one, the
//!   playback jumps to the segment's last frame ("already close: move on");
//! - terrain avoidance (nose up when the ground is near below or ahead) and collision avoidance
//!   (turn away from targets on a collision course) are torques with larger weights, so they win;
//! - guns and missiles fire only when facing the target (`forward · direction ≥ fire_cos`);
//! - frames are independent, so playback can start at any frame and wraps from the end to the
//!   start — a fleet of ghosts ([`spawn_fleet`]) from random start frames, or a formation whose wingmen start
//!   within 30 frames of their leader.
//!
//! The simulation runs in fixed ticks of `1 / tick_hz` (the recording's rate); render frames of any
//! length drive it through [`crate::timestep::FixedStep`], so the state tick by tick — and every
//! missile press, which is a one-frame edge — is the same at 30, 60 or 144 fps.
//!
//! # What a game uses
//! - Recording: [`Frame`], [`PilotInput`], [`FrameQuantizer`] (quantization, missile edges);
//!   [`Recorder<N>`](Recorder), a fixed-capacity recorder writing the file format, and
//!   [`record_and_fly`] (fly the quantized frame live while recording it).
//! - The file: [`format`] (the byte-by-byte spec, its constants and offsets), [`Recording`]
//!   zero-copy view, [`decode`], [`encode`], [`encode_v2`], [`load`] (a version 2 file decoded into
//!   a caller's buffer in the version 1 layout, so playback keeps its random access), typed
//!   [`DecodeError`]s; CRC-32 (IEEE, a 16-entry table): [`crc32`], [`Crc32`]. Version 2 is a
//!   binary adaptive range coder and a frame model (context = the previous frames), 0.13–0.46
//!   bytes a frame on the corpus (docs/recordings.md; `range.rs`, `codec.rs`).
//! - The body: [`flyer`] ([`FlyerParams`], [`FlyerState`], the torques and the integrator, its own
//!   `step`); the pilot's view of the targets: [`nearest_target`], [`facing_target`].
//! - Playback: [`Ghost`] (AI playback with Condition skips and fire gating), [`Replay`] /
//!   [`verify`] (exact replay against the stored state checksums, reporting the desync tick).
//! - Many ghosts: [`spawn_fleet`], [`spawn_formation`] from a seeded [`crate::rng::Pcg32`];
//!   [`GhostScene<N>`](GhostScene), ghosts + targets + tick, with a state hash.
//!
//! # File format summary (version 1, little-endian)
//!
//! ```text
//! 0  "HKGH"            4  version u16 = 1     6  tick_hz u16
//! 8  frame_count u32   12 flags u16 (bit0 = checksums)   14 checksum_interval u16 (K)
//! 16 condition_unit f32                      20 crc32 of bytes 24..end then 0..20
//! 24 body: [check u32][K frames × 3 bytes][check u32][K frames] …   (no checks: frames only)
//! frame = 24-bit LE word: fire | missile<<1 | toward<<2 | away<<3 | pitch6<<4 | yaw6<<10 | cond8<<16
//! ```
//!
//! Exactly 3 bytes per frame, plus 24 bytes of header and 4 bytes per `K` frames. See [`format`]
//! for the full specification. Version 2 has the same header (`version = 2`) and a range-coded
//! body (`codec.rs`); write it with [`Recorder::new_v2`] or [`encode_v2`], read it with [`load`],
//! [`decode`] or [`for_each_frame`].

mod codec;
mod crc;
mod fleet;
pub mod flyer;
pub mod format;
mod frame;
mod pilot;
mod playback;
mod range;
mod recorder;
mod scene;

pub use crc::{crc32, Crc32};
pub use fleet::{
    frame_distance, spawn_fleet, spawn_formation, FormationParams, SpawnArea,
    MAX_WINGMAN_FRAME_OFFSET,
};
pub use flyer::{FlyerEvents, FlyerParams, FlyerState};
pub use format::{
    decode, encode, encode_v2, for_each_frame, load, load_scratch_size, recording_size, to_v1,
    DecodeError, EncodeError, Header, HeaderField, Recording, RecordingInfo,
};
pub use frame::{
    Frame, FrameQuantizer, PilotInput, CONDITION_MAX, STICK_MAX, STICK_MIN, STICK_STEPS,
};
pub use pilot::{facing_target, nearest_target, Nearest};
pub use playback::{verify, Desync, Ghost, GhostTick, Replay, ReplayStep, NO_LEADER};
pub use recorder::{record_and_fly, Recorder, RecorderFull};
pub use scene::{GhostScene, SceneTick, MAX_TARGETS};

/// A fixed-capacity list of frames (what [`decode`] fills).
pub type FrameVec<const N: usize> = heapless::Vec<Frame, N>;
/// A fixed-capacity list of ghosts (what [`spawn_fleet`] / [`spawn_formation`] fill).
pub type GhostVec<const N: usize> = heapless::Vec<Ghost, N>;

/// A recording for the module's unit tests: 20 s at 60 Hz of a scripted pilot (turns, attack runs
/// with Toward/Away, guns and missiles) over flat ground, one checksum per second.
#[cfg(test)]
pub(crate) fn test_recording_bytes() -> std::vec::Vec<u8> {
    const FRAMES: u32 = 1200;
    let info = RecordingInfo {
        tick_hz: 60,
        checksum_interval: 60,
        condition_unit: 0.5,
    };
    let mut rec = Recorder::<{ recording_size(FRAMES as usize, 60) }>::new(info).unwrap();
    let params = FlyerParams::default();
    let targets = [
        crate::math::Vec3::new(-20.0, 3.0, -20.0),
        crate::math::Vec3::new(24.0, 5.0, 4.0),
    ];
    let mut pilot = FlyerState::level(
        crate::math::Vec3::new(0.0, 14.0, 40.0),
        0.0,
        params.cruise_speed,
    );
    for t in 0..FRAMES {
        let f = t as f32;
        let input = PilotInput {
            pitch: 0.3 * crate::math::scalar::sin(f / 23.0),
            yaw: 0.6 * crate::math::scalar::sin(f / 71.0),
            fire: t % 90 < 30,
            missile: t % 240 == 5,
            toward: t % 300 < 150,
            away: t % 300 > 250,
        };
        record_and_fly(
            &mut rec,
            &mut pilot,
            &params,
            &input,
            &targets,
            &crate::ground::FlatGround::new(0.0),
        )
        .unwrap();
    }
    rec.finish().to_vec()
}
