//! Link-time proof that the core's per-tick path has no reachable panic.
//!
//! The panic handler of this image calls `hopkit_panic_is_reachable`, a function that exists
//! nowhere. With fat LTO (the `firmware` profile) every panic that the optimiser cannot prove
//! unreachable keeps a call to the handler, so the link fails with
//! `undefined symbol: hopkit_panic_is_reachable` — naming the culprit in the linker's "referenced by"
//! lines. If it links, no panic path survives in what `main` calls:
//!
//! - `DemoRig::new`, `DemoRig::tick` on *arbitrary* raw input (every input is laundered through
//!   `black_box`, so the optimiser must keep every branch of the stick pipeline and the scene),
//!   `DemoRig::view` and `DemoRig::state_hash`;
//! - `hopkit::movement::step` (once merged) on arbitrary state, params, input and dt;
//! - `format_hash_line` and the semihosting output of the result.
//!
//! It also runs: under QEMU it prints the scripted demo's `state-hash` line, so CI can check that
//! the panic-free build computes the same thing as the others.
#![no_std]
#![no_main]

#[cfg(not(target_os = "none"))]
compile_error!(
    "this binary runs on bare metal only: build it with --target (see docs/firmware.md)"
);

use core::hint::black_box;
use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hio};
use hopkit::hash::{format_hash_line, HASH_LINE_LEN};
use hopkit_firmware::demo::{scripted_raw, DemoRig, RawSticks};

extern "C" {
    /// Deliberately undefined: referenced only if a panic path is reachable.
    fn hopkit_panic_is_reachable() -> !;
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: never actually called — if any call to it survives optimisation, linking fails.
    unsafe { hopkit_panic_is_reachable() }
}

/// Ticks of the scripted demo (the same as `qemu-demo`).
const TICKS: u32 = 600;

#[entry]
fn main() -> ! {
    let mut rig = DemoRig::new();
    let mut views = 0u32;
    for t in 0..black_box(TICKS) {
        // Launder the input: as far as the optimiser knows, `raw` can be any bit pattern.
        let raw: RawSticks = black_box(scripted_raw(black_box(t)));
        rig.tick(&raw);
        let view = black_box(rig.view());
        views = views.wrapping_add(view.tick & 1);
    }
    black_box(views);
    let mut buf = [0u8; HASH_LINE_LEN + 1];
    let line = format_hash_line(rig.state_hash(), &mut buf);
    if let Ok(mut out) = hio::hstdout() {
        let _ = out.write_all(line.as_bytes());
        let _ = out.write_all(b"\npanic-check: linked without reachable panics\n");
    }
    debug::exit(debug::EXIT_SUCCESS);
    loop {
        cortex_m::asm::bkpt();
    }
}
