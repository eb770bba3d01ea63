//! TEMPORARY stand-in for `hopkit::demo::{DemoRig, scripted_hash}` until they land on main.
//! Same names and signatures; a tiny scene (the real stick pipeline, one body pushed by the left
//! stick). Deleted as soon as the real ones land.

use hopkit::demo::{BodyView, DemoView};
use hopkit::hash::StateHasher;
use hopkit::math::{Vec2, Vec3};

use hopkit::demo::buttons;
use hopkit::demo::{scripted_raw, TICK_HZ};
use hopkit::stick::{RawSticks, StickPipeline};

/// Stand-in scene.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DemoRig {
    pipeline: StickPipeline,
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
        let frame = self.pipeline.process(raw);
        let stick = frame.left;
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
