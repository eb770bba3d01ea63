//! What the frontend reports for one frame ([`Pad`]) → the handheld's raw stick samples
//! ([`RawSticks`]), which then go through the same stick pipeline as the boards' ADC samples
//! (calibration, deadzone, response curve: [`hopkit_demo::DemoRig::tick`]).
//!
//! - **Analog sticks** (`RETRO_DEVICE_ANALOG`, −32768…32767 per axis, `y` positive *down*) become
//!   12-bit ADC counts ([`axis_count`]): `x` → `(x + 32768) · 4095 / 65535` rounded to nearest,
//!   `y` → `4095 −` that (the pipeline's `y` is positive *up*, forward). −32768 → 0, 32767 → 4095;
//!   every count `c` of a `hopkit-sim` sticks file is reached by `round(c · 65535 / 4095) − 32768`
//!   ([`count_axis`]), which is how `frontend/frontend.c` feeds a sticks file to the core.
//! - **D-pad** (`RETRO_DEVICE_JOYPAD`): while any direction is held, the d-pad replaces both
//!   sticks exactly as on WASM-4 ([`hopkit_demo::gamepad_raw`]: up forward, down back, left/right
//!   strafe and turn), so a player without sticks can bunny-hop too; `hopkit-sim hash --gamepad`
//!   reproduces a d-pad run.
//! - **Buttons**: B (bottom face) = jump, A (right face) = fire, L3 / R3 = the stick pushes.

use hopkit::stick::digital::{W4_BUTTON_1, W4_BUTTON_2, W4_DOWN, W4_LEFT, W4_RIGHT, W4_UP};
use hopkit::stick::RawSticks;
use hopkit_demo::{buttons, gamepad_raw, ADC_MAX};

use crate::sys;

/// Joypad bits of a [`Pad`]: bit `n` = `RETRO_DEVICE_ID_JOYPAD_*` id `n` (the layout of
/// `RETRO_DEVICE_ID_JOYPAD_MASK`).
pub const fn joy(id: core::ffi::c_uint) -> u16 {
    1 << id
}

/// One frame of input on port 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pad {
    /// Left stick `(x, y)`, libretro units (x right, y down).
    pub left: [i16; 2],
    /// Right stick `(x, y)`, libretro units.
    pub right: [i16; 2],
    /// Held joypad buttons, bit `n` = `RETRO_DEVICE_ID_JOYPAD` id `n` (see [`joy`]).
    pub joypad: u16,
}

/// The joypad ids the core reads, in the order it asks for them.
pub const JOYPAD_IDS: [core::ffi::c_uint; 8] = [
    sys::JOYPAD_B,
    sys::JOYPAD_A,
    sys::JOYPAD_UP,
    sys::JOYPAD_DOWN,
    sys::JOYPAD_LEFT,
    sys::JOYPAD_RIGHT,
    sys::JOYPAD_L3,
    sys::JOYPAD_R3,
];

/// A libretro axis value → a 12-bit ADC count, `x` direction (see the module docs).
pub const fn axis_count(v: i16) -> u16 {
    let shifted = v as i32 + 32768; // 0..=65535
    ((shifted * ADC_MAX as i32 + 32767) / 65535) as u16
}

/// The libretro axis value a frontend sends for ADC count `c` (`x` direction; `c` above 4095 is
/// taken as 4095): the inverse of [`axis_count`] on every count.
pub const fn count_axis(c: u16) -> i16 {
    let c = if c > ADC_MAX { ADC_MAX } else { c } as i32;
    ((c * 65535 + ADC_MAX as i32 / 2) / ADC_MAX as i32 - 32768) as i16
}

/// The frame's raw stick samples (see the module docs for the mapping).
pub fn raw_sticks(pad: &Pad) -> RawSticks {
    let held = |id| pad.joypad & joy(id) != 0;
    let mut stick_buttons = 0;
    if held(sys::JOYPAD_L3) {
        stick_buttons |= buttons::LEFT_STICK;
    }
    if held(sys::JOYPAD_R3) {
        stick_buttons |= buttons::RIGHT_STICK;
    }
    let mut w4 = 0;
    for (id, bit) in [
        (sys::JOYPAD_B, W4_BUTTON_1),
        (sys::JOYPAD_A, W4_BUTTON_2),
        (sys::JOYPAD_UP, W4_UP),
        (sys::JOYPAD_DOWN, W4_DOWN),
        (sys::JOYPAD_LEFT, W4_LEFT),
        (sys::JOYPAD_RIGHT, W4_RIGHT),
    ] {
        if held(id) {
            w4 |= bit;
        }
    }
    if w4 & (W4_UP | W4_DOWN | W4_LEFT | W4_RIGHT) != 0 {
        let mut raw = gamepad_raw(w4);
        raw.buttons |= stick_buttons;
        return raw;
    }
    // Jump and fire: the same bits as the WASM-4 mapping gives them.
    let face = gamepad_raw(w4 & (W4_BUTTON_1 | W4_BUTTON_2)).buttons;
    RawSticks {
        left_x: axis_count(pad.left[0]),
        left_y: ADC_MAX - axis_count(pad.left[1]),
        right_x: axis_count(pad.right[0]),
        right_y: ADC_MAX - axis_count(pad.right[1]),
        adc_max: ADC_MAX,
        buttons: face | stick_buttons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit_demo::DemoRig;

    #[test]
    fn axis_mapping_ends_centre_and_inverse() {
        assert_eq!(axis_count(-32768), 0);
        assert_eq!(axis_count(32767), ADC_MAX);
        assert_eq!(axis_count(0), 2048);
        assert_eq!(count_axis(0), -32768);
        assert_eq!(count_axis(ADC_MAX), 32767);
        assert_eq!(count_axis(60000), 32767);
        for c in 0..=ADC_MAX {
            assert_eq!(axis_count(count_axis(c)), c, "count {c}");
        }
        // Monotonic over the whole axis.
        let mut last = 0;
        for v in i16::MIN..=i16::MAX {
            let c = axis_count(v);
            assert!(c >= last && c <= ADC_MAX);
            last = c;
        }
    }

    #[test]
    fn stick_up_is_forward_and_buttons_map() {
        let pad = Pad {
            left: [0, -32768],
            right: [32767, 0],
            joypad: joy(sys::JOYPAD_B) | joy(sys::JOYPAD_A) | joy(sys::JOYPAD_R3),
        };
        let raw = raw_sticks(&pad);
        assert_eq!((raw.left_x, raw.left_y), (2048, ADC_MAX));
        assert_eq!((raw.right_x, raw.right_y), (ADC_MAX, 2047));
        assert_eq!(
            raw.buttons,
            buttons::JUMP | buttons::FIRE | buttons::RIGHT_STICK
        );
        let mut p = hopkit::stick::StickPipeline::default();
        let f = p.process(&raw);
        assert!(f.left.y > 0.99 && f.left.x.abs() < 1e-3, "{f:?}");
        assert!(f.right.x > 0.99, "{f:?}");
    }

    #[test]
    fn dpad_is_the_wasm4_gamepad() {
        for (ids, byte) in [
            (joy(sys::JOYPAD_UP), W4_UP),
            (
                joy(sys::JOYPAD_RIGHT) | joy(sys::JOYPAD_B),
                W4_RIGHT | W4_BUTTON_1,
            ),
            (
                joy(sys::JOYPAD_DOWN) | joy(sys::JOYPAD_LEFT) | joy(sys::JOYPAD_A),
                W4_DOWN | W4_LEFT | W4_BUTTON_2,
            ),
        ] {
            // The d-pad wins over a deflected stick.
            let pad = Pad {
                left: [20000, 20000],
                right: [-9000, 0],
                joypad: ids,
            };
            assert_eq!(raw_sticks(&pad), gamepad_raw(byte));
        }
        // No direction held: the sticks (centred), and the same hash as the gamepad byte (the
        // centre counts differ by one in y, inside the deadzone).
        let pad = Pad {
            joypad: joy(sys::JOYPAD_B),
            ..Pad::default()
        };
        let (mut a, mut b) = (DemoRig::new(), DemoRig::new());
        for _ in 0..120 {
            a.tick(&raw_sticks(&pad));
            b.tick(&gamepad_raw(W4_BUTTON_1));
        }
        assert_eq!(a.state_hash(), b.state_hash());
    }
}
