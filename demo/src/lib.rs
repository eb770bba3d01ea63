//! The hopkit demo, shared by every front end (the handheld boards, the QEMU and emulator images,
//! the `hopkit-sim` window, the C example and the carts) so that they all simulate — and hash —
//! exactly the same thing.
//!
//! The core crate `hopkit` holds the mechanics; this crate is one game built from them:
//!
//! - [`scene`]: the scene (a player mover, the companion following its breadcrumbs, critters
//!   steering with Arrival, a ghost formation flying a recording, slope alignment) and
//!   [`DemoRig`], the scene behind the core's stick pipeline, stepped once per 60 Hz tick.
//! - [`level`]: the arena's ground (floor and ramps); `solid_level` (feature `level-solids`):
//!   the level made of solids the body collides with; [`script`]: the scripted stick input every
//!   front end replays; [`gamepad`]: the WASM-4 gamepad mapping.
//! - [`pilot`]: the scripted pilot that flew the bundled ghost recording ([`DEMO_RECORDING`]),
//!   its targets and the demo's formation and fleet.
//! - [`view`]: the plain-data snapshot ([`DemoView`]) front ends draw; [`render`]: the 128×64
//!   monochrome renderer every front end draws with (`embedded-graphics`).
//! - [`app`]: the board-independent handheld application (sticks + buttons → fixed 60 Hz ticks →
//!   one frame), generic over the small [`seams`] a board implements; [`framebuffer`]: the
//!   handheld's 1 KiB 1-bit picture, the one display buffer every front end draws into;
//!   [`counting`]: a drawing target that counts and fingerprints pixels.
//! - [`collision`]: the collision scenarios (small levels of solids and scripted input) and their
//!   hash, for the cross-CPU check of the body among solids.
//! - [`link`]: the link cable — two handhelds play the [`arena`] over a UART wire with rollback.
//! - [`forms`]: one character scripted in both friction forms, hashed, for the cross-CPU check of
//!   the form the demo does not use.
//!
//! # Example
//!
//! ```
//! use hopkit_demo::{scripted_raw, DemoRig};
//!
//! // The scripted demo every front end runs; its state hash is the cross-platform proof.
//! let mut rig = DemoRig::new();
//! for tick in 0..60 {
//!     rig.tick(&scripted_raw(tick));
//! }
//! assert_eq!(rig.tick_count(), 60);
//! assert_eq!(rig.state_hash(), hopkit_demo::scripted_hash(60));
//! ```
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod app;
pub mod arena;
pub mod collision;
pub mod counting;
pub mod forms;
pub mod framebuffer;
pub mod gamepad;
pub mod level;
pub mod link;
pub mod pilot;
pub mod render;
pub mod scene;
pub mod script;
pub mod seams;
#[cfg(feature = "level-solids")]
pub mod solid_level;
pub mod view;

pub use view::{BodyView, CritterView, DemoView, GhostView, RampView};

pub use gamepad::{gamepad_hash, gamepad_raw};
pub use pilot::{demo_recording, DEMO_RECORDING};
pub use scene::{scripted_hash, DemoParams, DemoRig, DemoScene, Player};
pub use script::{scripted_raw, ADC_MAX, SCRIPT_PERIOD};

/// Fixed simulation rate of the demo, ticks per second.
pub const TICK_HZ: u32 = 60;

/// Button bits of the handheld, as carried in [`hopkit::stick::RawSticks::buttons`].
pub mod buttons {
    /// Jump (face button A).
    pub const JUMP: u8 = 1;
    /// Fire (face button B).
    pub const FIRE: u8 = 2;
    /// Left stick push.
    pub const LEFT_STICK: u8 = 4;
    /// Right stick push.
    pub const RIGHT_STICK: u8 = 8;
}
