//! Temporary: the demo scene is not on main yet (hopkit::demo::DemoRig).
use hopkit::demo::DemoView;

use crate::input::HostInput;
use crate::window::Driver;

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
