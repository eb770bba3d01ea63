//! The level of solids' scripted run, the one the RP2040's emulator run measures
//! (`scripts/ci-rp2040.sh`) and `scripts/qemu-profile.sh … solid` profiles: [`TICKS`] WASM-4
//! gamepad bytes ([`pad`]), turned into the board's stick samples by
//! `hopkit_demo::gamepad::gamepad_raw` (`examples/gamepad-sticks.rs` writes them as a sticks
//! file), so `hopkit-sim hash --gamepad FILE --level solid` reproduces it on the host.
//!
//! From the start (the arena's middle, facing −Z): back between the two crates, a turn, a
//! bunny-hop run, a strafe-hop circle to the right, a run, one to the left, runs on the diagonals
//! — the view sweeping over the crates, the corridor, the pool and the arena's walls.

use hopkit::stick::digital::{W4_BUTTON_1 as JUMP, W4_DOWN, W4_LEFT, W4_RIGHT, W4_UP};

/// The run's legs: gamepad byte, ticks.
pub const LEGS: [(u8, u32); 8] = [
    (W4_DOWN, 90),
    (W4_RIGHT, 30),
    (W4_UP | JUMP, 90),
    (W4_RIGHT | JUMP, 120),
    (W4_UP, 60),
    (W4_LEFT | JUMP, 90),
    (W4_UP | W4_LEFT, 60),
    (W4_DOWN | W4_RIGHT, 60),
];

/// Ticks of the run (10 s at 60 Hz: one report line of the board).
pub const TICKS: u32 = {
    let mut n = 0;
    let mut i = 0;
    while i < LEGS.len() {
        n += LEGS[i].1;
        i += 1;
    }
    n
};

/// The gamepad byte of tick `t` (0-based); 0 (nothing held) after the run.
pub fn pad(t: u32) -> u8 {
    let mut start = 0;
    for &(b, n) in &LEGS {
        if t < start + n {
            return b;
        }
        start += n;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_is_ten_seconds_of_its_legs() {
        assert_eq!(TICKS, 600);
        assert_eq!(pad(0), W4_DOWN);
        assert_eq!(pad(89), W4_DOWN);
        assert_eq!(pad(90), W4_RIGHT);
        assert_eq!(pad(TICKS - 1), W4_DOWN | W4_RIGHT);
        assert_eq!(pad(TICKS), 0);
    }
}
