//! The demo driven by a one-byte digital gamepad (WASM-4's `GAMEPAD1` bit layout).
//!
//! Every front end with a d-pad instead of analog sticks — the WASM-4 cart in a browser, the
//! wasm32 cart under wasmi, `hopkit-sim hash --gamepad FILE` — turns each tick's gamepad byte into
//! the handheld's raw stick samples with [`gamepad_raw`] and feeds them through the rig's stick
//! pipeline, so a file of gamepad bytes read by a cart hashes to the same state on the host — on
//! the cart's level: the WASM-4 cart's player moves on [`Level::WASM4_CART`], the wasm32 cart's
//! on [`Level::DEFAULT`] ([`crate::level::Level`]; `hopkit-sim hash --gamepad --level`).
//!
//! Mapping: `BUTTON_1` (1, key X) = jump, `BUTTON_2` (2, key Z) = fire, [`GAMEPAD_CROUCH`] (4, a
//! bit WASM-4's layout leaves unused) = crouch (the rig's [`buttons::LEFT_STICK`]: on the solid
//! level the body crouches, on the others nothing changes); the d-pad is the movement stick by the seed's diagonal rule ([`wasm4_to_stick`]): UP = forward, DOWN = back,
//! LEFT/RIGHT = strafe. LEFT/RIGHT also turn the view that way ([`TURN_WITH_STRAFE`] of the look
//! stick, like the scripted demo's strafe-hop), so holding RIGHT and `BUTTON_1` bunny-hops in a
//! widening circle: the strafe-jump that carries the player past the ground max speed.

use super::{buttons, DemoRig, ADC_MAX};
#[cfg(doc)]
use crate::level::Level;
use hopkit::math::Vec2;
use hopkit::stick::digital::{wasm4_buttons, wasm4_to_stick, W4_LEFT, W4_UP};
use hopkit::stick::RawSticks;

/// Crouch: bit 2 (value 4) of the gamepad byte, one of the two bits WASM-4's `GAMEPAD1` leaves
/// unused (4 and 8), so no byte a WASM-4 runtime writes sets it and every existing gamepad file
/// reads as before. It maps to the rig's [`buttons::LEFT_STICK`] (the stick push that crouches on
/// the solid level), which has the same value: the byte's button bits pass through as they are.
pub const GAMEPAD_CROUCH: u8 = 4;
const _: () = assert!(GAMEPAD_CROUCH == buttons::LEFT_STICK);

/// The gamepad byte's button bits, as the rig's [`buttons`]: `BUTTON_1` → jump, `BUTTON_2` →
/// fire, [`GAMEPAD_CROUCH`] → the left stick's push (crouch). One mask: the bits are the same.
pub fn gamepad_buttons(gamepad: u8) -> u8 {
    wasm4_buttons(gamepad) | (gamepad & GAMEPAD_CROUCH)
}

/// Look-stick deflection while LEFT or RIGHT is held (the scripted strafe-hop uses the same).
pub const TURN_WITH_STRAFE: f32 = 0.85;

/// The gamepad byte as raw 12-bit stick samples for the demo rig: left stick from the d-pad (seed
/// diagonal rule), look stick `TURN_WITH_STRAFE × left.x`, buttons by [`gamepad_buttons`]
/// (`BUTTON_1` → jump, `BUTTON_2` → fire, [`GAMEPAD_CROUCH`] → crouch).
pub fn gamepad_raw(gamepad: u8) -> RawSticks {
    let left = wasm4_to_stick(gamepad);
    let look = Vec2::new(left.x * TURN_WITH_STRAFE, 0.0);
    RawSticks::from_positions(left, look, gamepad_buttons(gamepad), ADC_MAX)
}

/// A gamepad run through the solid level's low corridor (`solid_level::CORRIDOR`) from
/// the start, as (byte, ticks) runs: UP 92 ticks (south from the start), LEFT 41 (turning to face
/// west), UP + [`GAMEPAD_CROUCH`] 200 (crouched through the corridor, under its roof), nothing 30
/// (standing up on the far side). Without the crouch bit the roof stops the body at the
/// corridor's mouth (tested). 363 ticks; `hopkit-sim hash --gamepad FILE --level solid` over its
/// bytes is [`gamepad_hash_rig`] on the solid level (tested in `host-sim`).
pub const SOLID_CORRIDOR_RUN: [(u8, u16); 4] = [
    (W4_UP, 92),
    (W4_LEFT, 41),
    (W4_UP | GAMEPAD_CROUCH, 200),
    (0, 30),
];

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
    use hopkit::stick::digital::{W4_BUTTON_1, W4_BUTTON_2, W4_DOWN, W4_RIGHT};

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

    #[test]
    fn the_crouch_bit_is_the_left_stick_push_and_changes_nothing_else() {
        for b in 0..=255u8 {
            let raw = gamepad_raw(b);
            assert_eq!(
                raw.buttons,
                b & (W4_BUTTON_1 | W4_BUTTON_2 | GAMEPAD_CROUCH),
                "{b:#010b}"
            );
            let without = gamepad_raw(b & !GAMEPAD_CROUCH);
            assert_eq!((raw.left_x, raw.left_y), (without.left_x, without.left_y));
            assert_eq!(
                (raw.right_x, raw.right_y),
                (without.right_x, without.right_y)
            );
        }
        assert_eq!(gamepad_raw(GAMEPAD_CROUCH).buttons, buttons::LEFT_STICK);
        // Bit 8, WASM-4's other unused bit, stays unused.
        assert_eq!(gamepad_raw(8), gamepad_raw(0));
    }

    /// On the levels that never crouch, the crouch bit moves nothing: the scene is the same as
    /// without it (only the stick pipeline's record of held buttons differs).
    #[test]
    fn the_crouch_bit_moves_nothing_on_the_other_levels() {
        use crate::level::Level;
        let pads = [W4_UP | W4_BUTTON_1, W4_RIGHT | W4_BUTTON_1, W4_DOWN, 0];
        for level in [Level::Plain, Level::DEFAULT] {
            let (mut a, mut b) = (
                DemoRig::new().with_level(level),
                DemoRig::new().with_level(level),
            );
            for t in 0..600usize {
                let pad = pads[(t / 90) % pads.len()];
                a.tick(&gamepad_raw(pad | GAMEPAD_CROUCH));
                b.tick(&gamepad_raw(pad));
            }
            let hash = |r: &DemoRig| {
                let mut h = hopkit::hash::StateHasher::new();
                hopkit::hash::StateHash::hash_state(&r.scene, &mut h);
                h.finish()
            };
            assert_eq!(hash(&a), hash(&b), "{level:?}");
        }
    }

    /// [`SOLID_CORRIDOR_RUN`]: crouched, the body passes under the corridor's roof from the start
    /// on gamepad bytes alone and stands up after it; the same bytes without the crouch bit stop at
    /// the corridor's mouth.
    #[cfg(feature = "level-solids")]
    #[test]
    fn a_gamepad_run_crouches_through_the_solid_levels_corridor() {
        use crate::solid_level::{build, SolidWorld, CORRIDOR};
        let w: &'static mut SolidWorld = std::boxed::Box::leak(std::boxed::Box::default());
        build(w);
        let w: &'static SolidWorld = w;
        let radius = hopkit::movement::MoveParams::seed().body_radius;
        let bytes = || {
            SOLID_CORRIDOR_RUN
                .iter()
                .flat_map(|&(b, n)| core::iter::repeat_n(b, usize::from(n)))
        };
        assert_eq!(bytes().count(), 363);
        // (crouched inside the corridor, least x reached, the rig)
        let run = |mask: u8| {
            let mut rig = DemoRig::new().with_solids(w);
            let (mut inside, mut least_x) = (0u32, f32::MAX);
            for b in bytes() {
                rig.tick(&gamepad_raw(b & mask));
                let m = &rig.scene.player.mover;
                assert!(m.is_finite(), "{m:?}");
                if CORRIDOR.contains(m.position.planar()) {
                    assert!(m.crouched, "standing under the corridor's roof: {m:?}");
                    inside += 1;
                }
                least_x = least_x.min(m.position.x);
            }
            (inside, least_x, rig)
        };
        let (inside, least_x, rig) = run(0xff);
        assert!(inside > 100, "{inside} ticks in the corridor");
        assert!(least_x < CORRIDOR.min.x - radius, "least x {least_x}");
        let m = rig.scene.player.mover;
        assert!(
            !m.crouched && m.grounded && m.position.x < CORRIDOR.min.x - radius,
            "{m:?}"
        );
        // The file's hash is the rig's.
        let all: std::vec::Vec<u8> = bytes().collect();
        assert_eq!(
            gamepad_hash_rig(DemoRig::new().with_solids(w), &all),
            rig.state_hash()
        );
        // Without the crouch bit: stopped in front of the corridor's mouth.
        let (inside, least_x, _) = run(!GAMEPAD_CROUCH);
        assert_eq!(inside, 0);
        assert!(least_x > CORRIDOR.max.x, "least x {least_x}");
    }
}
