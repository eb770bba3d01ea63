//! A file of gamepad bytes (one per tick, WASM-4's bit layout, as `hopkit-sim hash --gamepad`
//! reads it) as a sticks file (`lx ly rx ry buttons` per tick, as `hopkit-sim sticks` writes it and
//! the RP2040 emulator run feeds the board's ADC and buttons): each byte through
//! [`hopkit_demo::gamepad::gamepad_raw`], the very samples `hash --gamepad` ticks the rig with, so
//! the board's hash over the sticks file is the host's over the gamepad file
//! (`scripts/ci-rp2040.sh`, the level of solids).
//!
//! `cargo run -p hopkit-firmware --example gamepad-sticks -- GAMEPAD_FILE OUT`
//!
//! Also writes GAMEPAD_FILE first when given `--solid-run` before it: the scripted run of the
//! level of solids the CI measures (`hopkit_firmware::solid_run`).
use std::io::Write as _;

/// At most this many ticks (600 s at 60 Hz, `hopkit-sim`'s limit).
const MAX_TICKS: usize = 36_000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (write_run, rest) = match args.first().map(String::as_str) {
        Some("--solid-run") => (true, &args[1..]),
        _ => (false, &args[..]),
    };
    let [gamepad, out] = rest else {
        eprintln!("usage: gamepad-sticks [--solid-run] GAMEPAD_FILE OUT");
        std::process::exit(2)
    };
    if let Err(e) = run(write_run, gamepad, out) {
        eprintln!("gamepad-sticks: {e}");
        std::process::exit(1)
    }
}

fn run(write_run: bool, gamepad: &str, out: &str) -> Result<(), String> {
    if write_run {
        std::fs::write(gamepad, solid_run()).map_err(|e| format!("cannot write {gamepad}: {e}"))?;
    }
    let bytes = std::fs::read(gamepad).map_err(|e| format!("cannot read {gamepad}: {e}"))?;
    if bytes.len() > MAX_TICKS {
        return Err(format!(
            "{gamepad} has {} bytes (ticks), more than {MAX_TICKS}",
            bytes.len()
        ));
    }
    let mut text = Vec::new();
    let _ = writeln!(
        text,
        "# {} ticks of gamepad bytes from {gamepad} (gamepad_raw): lx ly rx ry buttons",
        bytes.len()
    );
    for &b in &bytes {
        let r = hopkit_demo::gamepad::gamepad_raw(b);
        let _ = writeln!(
            text,
            "{} {} {} {} {}",
            r.left_x, r.left_y, r.right_x, r.right_y, r.buttons
        );
    }
    // Written whole or not at all: a temporary beside OUT, renamed over it.
    let tmp = format!("{out}.tmp");
    std::fs::write(&tmp, &text).map_err(|e| format!("cannot write {tmp}: {e}"))?;
    std::fs::rename(&tmp, out).map_err(|e| format!("cannot write {out}: {e}"))
}

/// The level of solids' scripted run ([`hopkit_firmware::solid_run`]).
fn solid_run() -> Vec<u8> {
    use hopkit_firmware::solid_run::{pad, TICKS};
    (0..TICKS).map(pad).collect()
}
