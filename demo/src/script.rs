//! Deterministic scripted stick input for the demo: the same raw ADC samples on every platform.
//!
//! The script loops every [`SCRIPT_PERIOD`] ticks (30 s at 60 Hz): rest (2 s), run forward (1 s),
//! strafe-hop to the right (12 s), strafe-hop to the left (9 s; the player reaches ≈ 1.9× the
//! ground max speed), then a diagonal walk with short bursts of fire. It goes
//! through the same 12-bit ADC path as the board ([`ADC_MAX`]), so the firmware under QEMU, the host
//! simulator, the C example and the wasm cart all feed identical samples to the stick pipeline.

use hopkit::math::Vec2;
use hopkit::stick::RawSticks;

use super::buttons;

/// Full scale of the handheld's ADC (STM32F411 ADC1, 12-bit).
pub const ADC_MAX: u16 = 4095;
/// Length of one loop of the script, ticks.
pub const SCRIPT_PERIOD: u32 = 1800;

/// One segment of the script: from `start` tick (inclusive, within the period) until the next.
struct Segment {
    start: u32,
    left: Vec2,
    right: Vec2,
    buttons: u8,
}

const SEGMENTS: [Segment; 5] = [
    // Rest: sticks centred (the board captures its centre here).
    Segment {
        start: 0,
        left: Vec2::new(0.0, 0.0),
        right: Vec2::new(0.0, 0.0),
        buttons: 0,
    },
    // Run forward, turning slowly right (the slow turn stays inside the look dead zone).
    Segment {
        start: 120,
        left: Vec2::new(0.0, 1.0),
        right: Vec2::new(0.3, 0.0),
        buttons: 0,
    },
    // Strafe-hop right: hold right, turn right, hold jump (auto-hop).
    Segment {
        start: 180,
        left: Vec2::new(1.0, 0.0),
        right: Vec2::new(0.85, 0.0),
        buttons: buttons::JUMP,
    },
    // Strafe-hop left.
    Segment {
        start: 900,
        left: Vec2::new(-1.0, 0.0),
        right: Vec2::new(-0.85, 0.0),
        buttons: buttons::JUMP,
    },
    // Diagonal walk (W+A), fire in bursts (added below).
    Segment {
        start: 1440,
        left: Vec2::new(
            -core::f32::consts::FRAC_1_SQRT_2,
            core::f32::consts::FRAC_1_SQRT_2,
        ),
        right: Vec2::new(0.0, 0.0),
        buttons: 0,
    },
];

/// Raw stick samples for simulation tick `tick`.
pub fn scripted_raw(tick: u32) -> RawSticks {
    let t = tick % SCRIPT_PERIOD;
    let mut seg = &SEGMENTS[0];
    for s in SEGMENTS.iter() {
        if t >= s.start {
            seg = s;
        }
    }
    let mut b = seg.buttons;
    if t >= 1440 && t % 60 < 10 {
        b |= buttons::FIRE;
    }
    RawSticks::from_positions(seg.left, seg.right, b, ADC_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_loops_and_stays_in_range() {
        for t in 0..SCRIPT_PERIOD * 2 {
            let r = scripted_raw(t);
            assert_eq!(r, scripted_raw(t + SCRIPT_PERIOD));
            assert!(r.left_x <= ADC_MAX && r.right_y <= ADC_MAX);
        }
        assert_eq!(scripted_raw(400).buttons & buttons::JUMP, buttons::JUMP);
        assert_eq!(scripted_raw(1445).buttons & buttons::FIRE, buttons::FIRE);
        assert_eq!(scripted_raw(1455).buttons & buttons::FIRE, 0);
    }
}
