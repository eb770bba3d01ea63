//! The demo scene shared by every front end (host-sim window, firmware, QEMU image, C example,
//! wasm cart), so that they all simulate — and hash — exactly the same thing.
//!
//! # Example
//!
//! ```
//! use hopkit::demo::{scripted_raw, DemoRig};
//!
//! // The scripted demo every front end runs; its state hash is the cross-platform proof.
//! let mut rig = DemoRig::new();
//! for tick in 0..60 {
//!     rig.tick(&scripted_raw(tick));
//! }
//! assert_eq!(rig.tick_count(), 60);
//! assert_eq!(rig.state_hash(), hopkit::demo::scripted_hash(60));
//! ```
//!
//! [`view`] holds the plain-data snapshot ([`DemoView`]) the drawing code renders; the scene itself
//! is assembled from the mechanics modules.

pub mod arena;
pub mod gamepad;
pub mod level;
pub mod scene;
pub mod script;
pub mod view;

pub use view::{BodyView, CritterView, DemoView, GhostView, RampView};

pub use gamepad::{gamepad_hash, gamepad_raw};
pub use scene::{scripted_hash, DemoParams, DemoRig, DemoScene, Player};
pub use script::{scripted_raw, ADC_MAX, SCRIPT_PERIOD};

/// Fixed simulation rate of the demo, ticks per second.
pub const TICK_HZ: u32 = 60;

/// Button bits of the handheld, as carried in [`crate::stick::RawSticks::buttons`].
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
