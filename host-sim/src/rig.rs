//! The handheld demo scene on the desktop: [`hopkit::demo::DemoRig`] (stick pipeline + scene, the
//! very code the firmware runs) driven by desktop input or by the scripted input.
//!
//! Desktop input becomes the handheld's raw ADC samples ([`hopkit::stick::RawSticks`]) so that it
//! takes the same path through the core's stick pipeline as the firmware's sticks:
//! - keyboard W/A/S/D → [`hopkit::stick::digital::dpad_direction`] (the seed's diagonal rule) →
//!   left stick position;
//! - gamepad sticks (gilrs, `[−1, 1]`, y up) → left/right stick positions directly;
//! - mouse motion and Q/E → right stick x deflection;
//! - positions → counts with [`RawSticks::from_positions`] at the handheld's 12-bit
//!   [`hopkit::demo::ADC_MAX`].

use hopkit::demo::{buttons, DemoView, ADC_MAX};
use hopkit::math::Vec2;
use hopkit::stick::digital::{dpad_direction, DPad};
use hopkit::stick::RawSticks;

use crate::input::{mouse_look_deflection, HostInput};
use crate::window::Driver;

/// Stick deflection below which a gamepad stick counts as untouched (the keyboard is used then).
pub const PAD_IDLE: f32 = 0.2;

/// Raw stick samples for one tick of desktop input.
pub fn host_to_raw(input: &HostInput) -> RawSticks {
    let k = input.keys;
    let keys_left = dpad_direction(DPad::wasd(k.forward, k.left, k.back, k.right));
    let mut left = keys_left;
    let mut right = Vec2::ZERO;
    if let Some(pad) = input.pad {
        let pl = Vec2::new(pad.left_x, pad.left_y);
        if pl.length() > PAD_IDLE || keys_left == Vec2::ZERO {
            left = pl;
        }
        right = Vec2::new(pad.right_x, pad.right_y);
    }
    let turn = f32::from(u8::from(k.turn_right)) - f32::from(u8::from(k.turn_left));
    right.x = (right.x + turn + mouse_look_deflection(input.mouse_dx)).clamp(-1.0, 1.0);
    let mut b = 0u8;
    if input.jump {
        b |= buttons::JUMP;
    }
    if input.fire {
        b |= buttons::FIRE;
    }
    RawSticks::from_positions(left, right, b, ADC_MAX)
}


// Temporary placeholder drivers until hopkit::demo::DemoRig lands.

/// Placeholder scene until `hopkit::demo::DemoRig` lands: shows the sample view.
#[derive(Default)]
pub struct ScriptedDemo {
    tick: u32,
}

impl ScriptedDemo {
    /// New.
    pub fn new() -> Self {
        Self::default()
    }
}

/// Same placeholder for interactive use.
pub type LiveDemo = ScriptedDemo;

impl Driver for ScriptedDemo {
    fn tick(&mut self, _input: &HostInput) {
        self.tick += 1;
    }
    fn view(&self) -> DemoView {
        let mut v = crate::desktop::sample_view();
        v.tick = self.tick;
        v.camera.x += self.tick as f32 * 0.1;
        v.player.position.x += self.tick as f32 * 0.1;
        v
    }
    fn reset(&mut self) {
        self.tick = 0;
    }
    fn tick_hz(&self) -> u32 {
        60
    }
    fn state_hash(&self) -> u64 {
        0
    }
}
