//! The hopkit handheld on microcontrollers: what is board- or chip-specific. The game itself —
//! scene, renderer and the board-independent app every board's main loop runs — is the
//! `hopkit-demo` crate.
//!
//! - [`oled`]: hopkit's own SSD1306 driver (page-wise and FIFO-streamed, never busy-waiting).
//! - [`softfloat`]: bit-exact `f32` add / multiply / compare for the Cortex-M0 (exported under the
//!   AEABI names on ARMv6-M only).
//! - `src/board/`: the board layers (STM32F411 "Black Pill", RP2040) implementing the demo's
//!   seams (`hopkit_demo::seams`).
//!
//! The board binaries (`blackpill`, `rp2040`, `qemu-demo`, `qemu-bench`, `qemu-profile`,
//! `panic-check`, `cpu-demo`) live in `src/bin/` and build only for bare-metal targets with the
//! `board`, `rp2040`, `qemu` or `cpus` feature; see `docs/firmware.md`.
#![cfg_attr(not(test), no_std)]
// `deny`, not `forbid`: the one exception is `softfloat`'s ARMv6-M symbol exports (`no_mangle`).
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod oled;
pub mod softfloat;
