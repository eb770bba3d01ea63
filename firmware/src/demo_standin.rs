//! TEMPORARY stand-in for the parts of the demo contract (`hopkit::stick::RawSticks`,
//! `hopkit::demo::{DemoRig, scripted_raw, scripted_hash, TICK_HZ, ADC_MAX, buttons}`) that have not
//! landed on main yet. Same names and signatures; a tiny scene (one body pushed by the left stick).
//! Deleted as soon as the real ones land.

use hopkit::demo::{BodyView, DemoView};
use hopkit::hash::StateHasher;
use hopkit::math::{Vec2, Vec3};

/// Raw ADC samples of both sticks plus the button bitmask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct RawSticks {
    /// Left stick X, ADC counts.
    pub left_x: u16,
    /// Left stick Y, ADC counts.
    pub left_y: u16,
    /// Right stick X, ADC counts.
    pub right_x: u16,
    /// Right stick Y, ADC counts.
    pub right_y: u16,
    /// ADC full scale.
    pub adc_max: u16,
    /// Button bitmask ([`buttons`]).
    pub buttons: u8,
}

/// Fixed simulation rate of the demo.
pub const TICK_HZ: u32 = 60;
/// 12-bit ADC full scale.
pub const ADC_MAX: u16 = 4095;

/// Button bits.
pub mod buttons {
    /// Jump.
    pub const JUMP: u8 = 1;
    /// Fire.
    pub const FIRE: u8 = 2;
    /// Left stick push.
    pub const LEFT_STICK: u8 = 4;
    /// Right stick push.
    pub const RIGHT_STICK: u8 = 8;
}

/// Scripted raw samples for `tick`.
pub fn scripted_raw(tick: u32) -> RawSticks {
    let phase = (tick % 240) as u16;
    RawSticks {
        left_x: 2048u16.wrapping_add(phase.wrapping_mul(7) % 1024),
        left_y: 1024,
        right_x: 2048,
        right_y: 2048,
        adc_max: ADC_MAX,
        buttons: if tick % 50 < 3 { buttons::JUMP } else { 0 },
    }
}

/// Stand-in scene.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DemoRig {
    position: Vec3,
    velocity: Vec2,
    tick: u32,
}

impl DemoRig {
    /// Fresh scene.
    pub fn new() -> Self {
        Self::default()
    }
    /// One tick.
    pub fn tick(&mut self, raw: &RawSticks) {
        let half = raw.adc_max as f32 * 0.5;
        let stick = Vec2::new(
            (raw.left_x as f32 - half) / half,
            (half - raw.left_y as f32) / half,
        )
        .clamp_length_max(1.0);
        let dt = 1.0 / TICK_HZ as f32;
        self.velocity = (self.velocity + stick * (40.0 * dt)) * 0.95;
        let p = self.position.planar() + self.velocity * dt;
        let (p, _, _) = hopkit::demo::level::clamp_to_arena(p);
        let y = if raw.buttons & buttons::JUMP != 0 {
            1.0
        } else {
            0.0
        };
        self.position = Vec3::from_planar(p, y);
        self.tick = self.tick.wrapping_add(1);
    }
    /// Ticks so far.
    pub fn tick_count(&self) -> u32 {
        self.tick
    }
    /// Hash of the scene.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::new();
        h.write_vec3(self.position);
        h.write_vec2(self.velocity);
        h.write_u32(self.tick);
        h.finish()
    }
    /// Snapshot to draw.
    pub fn view(&self) -> DemoView {
        DemoView {
            tick: self.tick,
            arena_half_extent: Vec2::new(48.0, 48.0),
            camera: self.position.planar(),
            player: BodyView {
                position: self.position,
                heading: self.velocity.normalize_or_zero(),
                speed: self.velocity.length(),
            },
            player_grounded: self.position.y == 0.0,
            ground_max_speed: 10.0,
            ramps: hopkit::demo::level::ramp_views(),
            ..DemoView::default()
        }
    }
}

/// Hash after `ticks` scripted ticks.
pub fn scripted_hash(ticks: u32) -> u64 {
    let mut rig = DemoRig::new();
    for t in 0..ticks {
        rig.tick(&scripted_raw(t));
    }
    rig.state_hash()
}
