//! The hopkit handheld on microcontrollers: what is board- or chip-specific. The game itself —
//! scene, renderer and the board-independent app every board's main loop runs — is the
//! `hopkit-demo` crate.
//!
//! - [`oled`]: hopkit's own SSD1306 driver (page-wise and FIFO-streamed, never busy-waiting).
//! - [`softfloat`]: bit-exact `f32` add / multiply / compare for the Cortex-M0 (exported under the
//!   AEABI names on ARMv6-M only).
//! - [`solid_run`]: the level of solids' scripted run (gamepad bytes), measured on the RP2040.
//! - `board`: the board layers (STM32F411 "Black Pill" with feature `board`, RP2040 with
//!   `rp2040`) implementing the demo's seams (`hopkit_demo::seams`); bare-metal builds only.
//! - `rt::qemu`: what the QEMU images share (semihosting output and exit, the instruction
//!   counter, stack measurement; feature `qemu`, bare-metal builds only), and [`qemu_image!`],
//!   their common preamble.
//!
//! The board binaries (`blackpill`, `rp2040`, `qemu-demo`, `qemu-bench`, `qemu-netplay`,
//! `qemu-profile`, `panic-check`, `cpu-demo`) live in `src/bin/` and build only for bare-metal
//! targets with the `board`, `rp2040`, `qemu` or `cpus` feature; see `docs/firmware.md`. What two
//! of them share is a module of this library, not a file each includes.
#![cfg_attr(not(test), no_std)]
// `deny`, not `forbid`: the one exception is `softfloat`'s ARMv6-M symbol exports (`no_mangle`).
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod oled;
pub mod softfloat;
pub mod solid_run;

/// The board layers: the seams of `hopkit_demo` over each board's HAL (one board per build: the
/// features `board` and `rp2040` select different memory maps).
#[cfg(all(target_os = "none", any(feature = "board", feature = "rp2040")))]
pub mod board {
    #[cfg(feature = "board")]
    pub mod blackpill;
    // The RP2040's I2C and UART registers where the HAL has no non-blocking form.
    #[cfg(feature = "rp2040")]
    #[allow(unsafe_code)]
    pub mod rp2040;
}

/// Run-time support of the emulator images.
#[cfg(all(target_os = "none", feature = "qemu"))]
pub mod rt {
    // The instruction counter's calibration loop (inline assembly) and the stack's linker symbols.
    #[allow(unsafe_code)]
    pub mod qemu;
}

/// The preamble of a QEMU image (`src/bin/qemu-*.rs`, after `#![no_std]` and `#![no_main]`): a
/// clear error when built for a host, and the panic handler, which prints the panic over
/// semihosting and exits QEMU with status 1 (`rt::qemu::panic_exit`).
#[macro_export]
macro_rules! qemu_image {
    () => {
        #[cfg(not(target_os = "none"))]
        compile_error!(
            "this binary runs on bare metal only: build it with --target (see docs/firmware.md)"
        );

        #[cfg(target_os = "none")]
        #[panic_handler]
        fn panic(info: &core::panic::PanicInfo) -> ! {
            $crate::rt::qemu::panic_exit(info)
        }
    };
}
