//! Board-independent hopkit handheld application and its drawing code.
//!
//! - [`app`]: the application (sticks + buttons → core stick pipeline → fixed 60 Hz tick → draw),
//!   generic over the [`seams`]; every board's main loop is `app.poll()`.
//! - [`seams`]: the stick-sample source, buttons (over `embedded-hal` 1.0 `InputPin`s), tick clock;
//!   plus the scripted input and step clock the QEMU image uses.
//! - [`counting`]: a drawing target that only counts and fingerprints pixels (QEMU, benches).
//! - `render`: the shared drawing code (also used by `hopkit-sim`).
//! - [`softfloat`]: bit-exact `f32` add / multiply / compare for the Cortex-M0 (exported under the
//!   AEABI names on ARMv6-M only).
//!
//! The board binaries (`blackpill`, `qemu-demo`, `qemu-bench`, `panic-check`) live in `src/bin/`
//! and build only for bare-metal targets with the `board` or `qemu` feature; see `docs/firmware.md`.
#![cfg_attr(not(test), no_std)]
// `deny`, not `forbid`: the one exception is `softfloat`'s ARMv6-M symbol exports (`no_mangle`).
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod app;
pub mod counting;
pub mod oled;
pub mod render;
pub mod seams;
pub mod softfloat;

/// The demo-contract items the firmware uses, in one place.
pub mod demo {
    pub use hopkit::demo::{buttons, scripted_hash, scripted_raw, DemoRig, ADC_MAX, TICK_HZ};
    pub use hopkit::stick::RawSticks;
}
