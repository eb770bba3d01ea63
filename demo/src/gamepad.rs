//! The demo driven by a one-byte digital gamepad (WASM-4's `GAMEPAD1` bit layout).
//!
//! Every front end with a d-pad instead of analog sticks — the WASM-4 cart in a browser, the
//! wasm32 cart under wasmi, `hopkit-sim hash --gamepad FILE` — turns each tick's gamepad byte into
//! the handheld's raw stick samples with [`gamepad_raw`] and feeds them through the rig's stick
//! pipeline, so a file of gamepad bytes read by a cart hashes to the same state on the host — on
//! the cart's level: the WASM-4 cart's player moves on [`Level::WASM4_CART`], the wasm32 cart's
//! on [`Level::DEFAULT`] ([`crate::level::Level`]; `hopkit-sim hash --gamepad --level`).
//!
//! Mapping: `BUTTON_1` (1, key X) = jump, `BUTTON_2` (2, key Z) = fire; the d-pad is the movement
//! stick by the seed's diagonal rule ([`wasm4_to_stick`]): UP = forward, DOWN = back,
//! LEFT/RIGHT = strafe. LEFT/RIGHT also turn the view that way ([`TURN_WITH_STRAFE`] of the look
//! stick, like the scripted demo's strafe-hop), so holding RIGHT and `BUTTON_1` bunny-hops in a
//! widening circle: the strafe-jump that carries the player past the ground max speed.

use super::{DemoRig, ADC_MAX};
#[cfg(doc)]
use crate::level::Level;
use hopkit::math::Vec2;
use hopkit::stick::digital::{wasm4_buttons, wasm4_to_stick};
use hopkit::stick::RawSticks;

/// Look-stick deflection while LEFT or RIGHT is held (the scripted strafe-hop uses the same).
pub const TURN_WITH_STRAFE: f32 = 0.85;

/// The gamepad byte as raw 12-bit stick samples for the demo rig: left stick from the d-pad (seed
/// diagonal rule), look stick `TURN_WITH_STRAFE × left.x`, buttons `BUTTON_1` → jump,
/// `BUTTON_2` → fire.
pub fn gamepad_raw(gamepad: u8) -> RawSticks {
    let left = wasm4_to_stick(gamepad);
    let look = Vec2::new(left.x * TURN_WITH_STRAFE, 0.0);
    RawSticks::from_positions(left, look, wasm4_buttons(gamepad), ADC_MAX)
}

/// Run the standard demo rig ([`DemoRig::new`], on [`Level::DEFAULT`]: the wasm32 cart's and the
/// C ABI's level) for one tick per byte of `gamepad` and return its state hash. An empty slice
/// gives the hash of the start state. The WASM-4 cart's:
/// `gamepad_hash_rig(DemoRig::new().with_level(Level::WASM4_CART), gamepad)`.
pub fn gamepad_hash(gamepad: &[u8]) -> u64 {
    gamepad_hash_rig(DemoRig::new(), gamepad)
}

/// [`gamepad_hash`] from another start, e.g. [`DemoRig::with_recording`] with the ghost a WASM-4
/// cart loaded from its disk.
pub fn gamepad_hash_rig(mut rig: DemoRig, gamepad: &[u8]) -> u64 {
    for &b in gamepad {
        rig.tick(&gamepad_raw(b));
    }
    rig.state_hash()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit::stick::digital::{W4_BUTTON_1, W4_RIGHT, W4_UP};

    #[test]
    fn holding_right_and_jump_strafe_jumps_past_the_ground_max() {
        let mut rig = DemoRig::new();
        let mut top: f32 = 0.0;
        for t in 0..1200u32 {
            // One second of running forward, then RIGHT + X (jump) held.
            let pad = if t < 60 {
                W4_UP
            } else {
                W4_RIGHT | W4_BUTTON_1
            };
            rig.tick(&gamepad_raw(pad));
            top = top.max(rig.scene.player.mover.planar_speed());
        }
        let max = rig.scene.params().movement.max_speed;
        assert!(top > 1.3 * max, "top speed {top} vs ground max {max}");
    }

    #[test]
    fn the_hash_is_the_rig_run_on_the_same_bytes() {
        let bytes = [0u8, 1, 1, 32, 33, 33, 64, 0];
        let mut rig = DemoRig::new();
        for &b in &bytes {
            rig.tick(&gamepad_raw(b));
        }
        assert_eq!(gamepad_hash(&bytes), rig.state_hash());
        assert_eq!(gamepad_hash(&[]), DemoRig::new().state_hash());
        assert_ne!(gamepad_hash(&bytes), gamepad_hash(&bytes[..7]));
    }
}
