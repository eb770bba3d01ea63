//! One recorded tick in game symbols ([`Frame`]), the raw pilot input it is quantized from
//! ([`PilotInput`]), and the quantizer that resolves missile presses to edges ([`FrameQuantizer`]).
//!
//! Frames hold what the game *means* (pitch, yaw, fire, missile, Toward, Away, Condition), not what
//! the device reported, as the seed recommends. Each frame is meaningful on its own — there is no
//! state carried from one frame to the next — so playback may start at any frame and wrap from the
//! last frame to the first.
//!
//! Quantization happens once, when recording; the live pilot then flies the *quantized* frame
//! (Doom's trick), so the recording replays exactly what was flown.

use crate::math::{clamp, scalar};

/// Largest stick step: a stick value of ±1 quantizes to ±`STICK_STEPS`.
///
/// 31 steps per side (6 bits, two's complement) gives a resolution of 1/31 ≈ 3.2 % of the maximum
/// turn rate. The command is a *torque* that angular damping low-passes, so a 3 % step in the
/// commanded rate becomes a smooth ramp of the body's turn rate — finer steps are not visible in the
/// flight path (a 1/31 step at the default 1.8 rad/s is 0.058 rad/s, about 3.3°/s).
pub const STICK_STEPS: i8 = 31;
/// Smallest stored stick value (the 6-bit field can hold −32; it plays as −1, like −31).
pub const STICK_MIN: i8 = -32;
/// Largest stored stick value.
pub const STICK_MAX: i8 = 31;
/// Largest stored Condition value; a distance beyond `255 · condition_unit` saturates here.
pub const CONDITION_MAX: u8 = 255;

/// Raw pilot input for one tick, before quantization (a gamepad mapped to game symbols, or a script).
///
/// Non-finite stick values are treated as 0; values outside `[−1, 1]` are clamped.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct PilotInput {
    /// Pitch stick in `[−1, 1]`; positive raises the nose.
    pub pitch: f32,
    /// Yaw stick in `[−1, 1]`; positive turns left (hopkit's positive-yaw convention).
    pub yaw: f32,
    /// Gun trigger held (held = continuous fire).
    pub fire: bool,
    /// Missile button *held*; the quantizer turns it into a single press (rising edge).
    pub missile: bool,
    /// Toward held: add torque towards the nearest target.
    pub toward: bool,
    /// Away held: add torque away from the nearest target.
    pub away: bool,
}

/// One tick of a recording, in game symbols, already quantized.
///
/// Stored as exactly 3 bytes (see [`Frame::pack`] and the format spec in [`crate::ghost`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Frame {
    /// Pitch command in steps of `1/31` of the maximum pitch rate, `−32..=31` (−32 plays as −1).
    /// Positive raises the nose.
    pub pitch: i8,
    /// Yaw command in steps of `1/31` of the maximum yaw rate, `−32..=31`. Positive turns left.
    pub yaw: i8,
    /// Gun held this tick (fires only when facing the target, see `FlyerParams::fire_cos`).
    pub fire: bool,
    /// Missile *pressed* this tick (an edge: one frame per press).
    pub missile: bool,
    /// Toward held: torque towards the nearest target.
    pub toward: bool,
    /// Away held: torque away from the nearest target.
    pub away: bool,
    /// Distance to the nearest target when recorded, in the recording's condition units, rounded
    /// *down* (so it never over-states the distance); saturates at 255. 0 means "no target" or
    /// "touching", and never triggers a Condition skip.
    pub condition: u8,
}

impl Frame {
    /// All controls released, no condition.
    pub const NEUTRAL: Frame = Frame {
        pitch: 0,
        yaw: 0,
        fire: false,
        missile: false,
        toward: false,
        away: false,
        condition: 0,
    };

    /// Pitch command in `[−1, 1]`.
    #[inline]
    pub fn pitch_command(&self) -> f32 {
        stick_command(self.pitch)
    }

    /// Yaw command in `[−1, 1]`.
    #[inline]
    pub fn yaw_command(&self) -> f32 {
        stick_command(self.yaw)
    }

    /// Pack into the 3-byte stored form: a little-endian 24-bit word
    /// `fire | missile<<1 | toward<<2 | away<<3 | (pitch & 63)<<4 | (yaw & 63)<<10 | condition<<16`.
    ///
    /// Stick values outside `−32..=31` are clamped first.
    #[inline]
    pub fn pack(&self) -> [u8; 3] {
        let p = (clamp_stick(self.pitch) as u8 & 0x3F) as u32;
        let y = (clamp_stick(self.yaw) as u8 & 0x3F) as u32;
        let w = (self.fire as u32)
            | (self.missile as u32) << 1
            | (self.toward as u32) << 2
            | (self.away as u32) << 3
            | p << 4
            | y << 10
            | (self.condition as u32) << 16;
        [w as u8, (w >> 8) as u8, (w >> 16) as u8]
    }

    /// Unpack the 3-byte stored form. Every 24-bit value is a valid frame, so this cannot fail.
    /// (Always inlined: the copies of an inlined caller, e.g. `Recording::frame_looped`'s one per
    /// crate, then compile alike and the WASM-4 cart's `wasm-opt` merges them, 222 B.)
    #[inline(always)]
    pub fn unpack(b: [u8; 3]) -> Frame {
        let w = b[0] as u32 | (b[1] as u32) << 8 | (b[2] as u32) << 16;
        Frame {
            pitch: sign_extend6((w >> 4) & 0x3F),
            yaw: sign_extend6((w >> 10) & 0x3F),
            fire: w & 1 != 0,
            missile: w & 2 != 0,
            toward: w & 4 != 0,
            away: w & 8 != 0,
            condition: (w >> 16) as u8,
        }
    }
}

#[inline]
fn clamp_stick(v: i8) -> i8 {
    v.clamp(STICK_MIN, STICK_MAX)
}

#[inline]
fn sign_extend6(v: u32) -> i8 {
    // Shift the 6-bit field to the top of a byte and arithmetic-shift back.
    ((v as u8) << 2) as i8 >> 2
}

#[inline]
fn stick_command(v: i8) -> f32 {
    // `clamp(v·(1/31), −1, 1)` with the clamp decided on the integer: every |v| ≤ 31 scales into
    // [−1, 1] (31·(1/31) rounds to exactly 1), everything beyond is out of range (test).
    if v > STICK_STEPS {
        1.0
    } else if v < -STICK_STEPS {
        -1.0
    } else {
        v as f32 * (1.0 / STICK_STEPS as f32)
    }
}

/// Quantize a stick value in `[−1, 1]` to `−31..=31` (round to nearest; NaN/inf → 0).
#[inline]
pub(crate) fn quantize_stick(v: f32) -> i8 {
    let v = if v.is_finite() {
        clamp(v, -1.0, 1.0)
    } else {
        0.0
    };
    scalar::round(v * STICK_STEPS as f32) as i8
}

/// Quantize a distance to condition units: `floor(distance / unit)`, saturating at 255.
///
/// `None`, NaN, negative distances, or a non-positive/non-finite `unit` give 0 ("no condition").
#[inline]
pub(crate) fn quantize_condition(distance: Option<f32>, unit: f32) -> u8 {
    match distance {
        Some(d) if d.is_finite() && d > 0.0 && unit.is_finite() && unit > 0.0 => {
            // `as` truncates toward zero (= floor for positive values) and saturates.
            let q = (d / unit) as u32;
            if q > CONDITION_MAX as u32 {
                CONDITION_MAX
            } else {
                q as u8
            }
        }
        _ => 0,
    }
}

/// Turns [`PilotInput`] into [`Frame`]s: quantizes the sticks and the distance, and resolves the
/// held missile button to a single press on its rising edge.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FrameQuantizer {
    /// World units per Condition step (must be finite and > 0; the recording header stores it).
    pub condition_unit: f32,
    /// Whether the missile button was held on the previous tick.
    pub missile_was_held: bool,
}

impl FrameQuantizer {
    /// A quantizer with `condition_unit` world units per Condition step, button released.
    pub const fn new(condition_unit: f32) -> Self {
        FrameQuantizer {
            condition_unit,
            missile_was_held: false,
        }
    }

    /// Quantize one tick's input; `nearest_distance` is the live distance to the nearest target
    /// (`None` if there is none).
    pub fn quantize(&mut self, input: &PilotInput, nearest_distance: Option<f32>) -> Frame {
        let press = input.missile && !self.missile_was_held;
        self.missile_was_held = input.missile;
        Frame {
            pitch: quantize_stick(input.pitch),
            yaw: quantize_stick(input.yaw),
            fire: input.fire,
            missile: press,
            toward: input.toward,
            away: input.away,
            condition: quantize_condition(nearest_distance, self.condition_unit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stick_command_is_the_clamped_scale_for_every_value() {
        for v in i8::MIN..=i8::MAX {
            let e = clamp(v as f32 * (1.0 / STICK_STEPS as f32), -1.0, 1.0);
            assert_eq!(stick_command(v).to_bits(), e.to_bits(), "{v}");
        }
    }

    #[test]
    fn every_24_bit_word_round_trips() {
        for w in (0u32..1 << 24).step_by(7) {
            let b = [w as u8, (w >> 8) as u8, (w >> 16) as u8];
            assert_eq!(Frame::unpack(b).pack(), b);
        }
    }

    #[test]
    fn frames_round_trip() {
        for p in STICK_MIN..=STICK_MAX {
            let f = Frame {
                pitch: p,
                yaw: -p / 2,
                fire: p % 2 == 0,
                missile: p % 3 == 0,
                toward: p > 0,
                away: p < -10,
                condition: (p as u8).wrapping_mul(7),
            };
            assert_eq!(Frame::unpack(f.pack()), f);
        }
    }

    #[test]
    fn out_of_range_sticks_are_clamped_when_packed() {
        let f = Frame {
            pitch: 100,
            yaw: -100,
            ..Frame::NEUTRAL
        };
        let g = Frame::unpack(f.pack());
        assert_eq!((g.pitch, g.yaw), (STICK_MAX, STICK_MIN));
        assert_eq!(g.yaw_command(), -1.0);
    }

    #[test]
    fn stick_quantization() {
        assert_eq!(quantize_stick(1.0), 31);
        assert_eq!(quantize_stick(-1.0), -31);
        assert_eq!(quantize_stick(2.0), 31);
        assert_eq!(quantize_stick(f32::NAN), 0);
        assert_eq!(quantize_stick(0.5), 16);
        assert_eq!(
            Frame {
                pitch: 31,
                ..Frame::NEUTRAL
            }
            .pitch_command(),
            1.0
        );
    }

    #[test]
    fn condition_rounds_down_and_saturates() {
        assert_eq!(quantize_condition(Some(10.9), 0.5), 21);
        assert_eq!(quantize_condition(Some(1000.0), 0.5), 255);
        assert_eq!(quantize_condition(None, 0.5), 0);
        assert_eq!(quantize_condition(Some(f32::NAN), 0.5), 0);
        assert_eq!(quantize_condition(Some(5.0), 0.0), 0);
    }

    #[test]
    fn missile_is_an_edge() {
        let mut q = FrameQuantizer::new(0.5);
        let held = PilotInput {
            missile: true,
            ..PilotInput::default()
        };
        let released = PilotInput::default();
        let presses: u32 = [held, held, held, released, held, released]
            .iter()
            .map(|i| q.quantize(i, None).missile as u32)
            .sum();
        assert_eq!(presses, 2);
    }
}
