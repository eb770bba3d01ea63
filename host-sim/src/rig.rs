//! The handheld demo scene on the desktop: [`hopkit_demo::DemoRig`] (stick pipeline + scene, the
//! very code the firmware runs) driven by desktop input or by the scripted input.
//!
//! Desktop input becomes the handheld's raw ADC samples ([`hopkit::stick::RawSticks`]) so that it
//! takes the same path through the core's stick pipeline as the firmware's sticks:
//! - keyboard W/A/S/D → [`hopkit::stick::digital::dpad_direction`] (the seed's diagonal rule) →
//!   left stick position;
//! - gamepad sticks ([`crate::gamepad`], `[−1, 1]`, y up) → left/right stick positions directly;
//! - mouse motion and Q/E → right stick x deflection;
//! - positions → counts with [`RawSticks::from_positions`] at the handheld's 12-bit
//!   [`hopkit_demo::ADC_MAX`].

use hopkit::math::Vec2;
use hopkit::movement::{
    air_cap_and_budget, optimal_strafe_cos, planar_velocity_tick, world_wish, MoverState, WishDir,
};
use hopkit::stick::digital::{dpad_direction, DPad};
use hopkit::stick::RawSticks;
use hopkit_demo::level::Level;
use hopkit_demo::scene::PLAYER_START;
use hopkit_demo::{buttons, scripted_raw, DemoRig, DemoView, ADC_MAX, TICK_HZ};

use crate::input::{mouse_look_deflection, HostInput};
use crate::readout::StrafeReadout;
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
    if input.crouch {
        b |= buttons::LEFT_STICK;
    }
    RawSticks::from_positions(left, right, b, ADC_MAX)
}

/// The strafe HUD's numbers for the tick that `rig` just ran with `raw`, from `before`: the
/// player's movement state before that tick.
///
/// The angle is the one the player chose: between the tick's wish direction and the velocity
/// *before* the tick's acceleration (`before`; the tick's air acceleration turns the velocity
/// towards the wish, so read after it the angle sits on the edge of the gain window, where the
/// air cap stops the gain). The gain window and this tick's gain are evaluated at that velocity,
/// so `gain_per_s` is what the tick's air acceleration added. `grounded` means on the ground
/// before and after the tick (friction); the tick that lands is an air tick (its acceleration
/// came before the touch-down), and so is the tick that jumps. `before` is taken by the caller
/// from the state before the tick ([`LiveDemo`], [`ScriptedDemo`]): the core's movement step is
/// not asked for anything.
///
/// Only reads: the left stick is re-shaped on a *copy* of the rig's stick pipeline (its shaping is
/// stateless; the copy's debouncer is thrown away), and the gains are evaluated with the core's
/// kernels on copies of the velocity. The simulation and its state hash are untouched.
pub fn strafe_readout(rig: &DemoRig, before: &MoverState, raw: &RawSticks) -> StrafeReadout {
    let mut pipeline = rig.pipeline;
    let left = pipeline.process(raw).left;
    let scene = &rig.scene;
    let params = &scene.params().movement;
    let player = &scene.player;
    let dt = 1.0 / TICK_HZ as f32;
    let v = before.velocity.planar();
    let speed = v.length();
    // The scene's own conversion: stick x right, y forward → the seed's (front, right).
    let wish = world_wish(Vec2::new(left.y, left.x), player.facing);
    let scale = if wish.scale > 0.0 { wish.scale } else { 1.0 };
    let (cap, budget) = air_cap_and_budget(params, scale, dt);
    let optimal_deg = optimal_strafe_cos(speed, cap, budget)
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees();
    let gain_at = |deg: f32| -> f32 {
        if speed.is_nan() || speed <= 1e-3 {
            return 0.0;
        }
        let u = v / speed;
        let (s, c) = deg.to_radians().sin_cos();
        let dir = Vec2::new(u.x * c - u.y * s, u.x * s + u.y * c);
        let w = WishDir::new(dir, scale);
        let next = planar_velocity_tick(v, w, params, false, dt);
        (next.length() - speed) * TICK_HZ as f32
    };
    let angle_deg = if wish.scale > 0.0 && speed > 1e-3 {
        let c = (wish.dir.dot(v) / speed).clamp(-1.0, 1.0);
        Some(c.acos().to_degrees())
    } else {
        None
    };
    // The gain window: scan 0..180° in 0.05° steps (the window is a few degrees wide at speed).
    let mut window: Option<(f32, f32)> = None;
    if speed > 1e-3 {
        for i in 0..=3600 {
            let deg = i as f32 * 0.05;
            if gain_at(deg) > 0.0 {
                window = Some(match window {
                    None => (deg, deg),
                    Some((lo, _)) => (lo, deg),
                });
            }
        }
    }
    StrafeReadout {
        surf_speed: scene.player_surfing().then(|| player.mover.planar_speed()),
        grounded: before.grounded && player.mover.grounded,
        speed,
        angle_deg,
        optimal_deg,
        gain_window_deg: window,
        gain_per_s: angle_deg.map_or(0.0, gain_at),
    }
}

/// The demo driven by desktop input.
pub struct LiveDemo {
    level: Level,
    rig: DemoRig,
    last_raw: RawSticks,
    /// The player's movement state before the last tick (for [`strafe_readout`]).
    before: MoverState,
}

/// `rig` with its player on `level`; on [`Level::Solid`] in the level's world ([`solid_world`]).
pub fn rig_on(rig: DemoRig, level: Level) -> DemoRig {
    match level {
        Level::Solid => rig.with_solids(solid_world()),
        level => rig.with_level(level),
    }
}

/// The solid level's world ([`hopkit_demo::solid_level::build`]), built once per process: level
/// data every rig on that level shares (a rig keeps a reference to it).
pub fn solid_world() -> &'static hopkit_demo::solid_level::SolidWorld {
    use hopkit_demo::solid_level::{build, SolidWorld};
    static WORLD: std::sync::OnceLock<Box<SolidWorld>> = std::sync::OnceLock::new();
    WORLD.get_or_init(|| {
        let mut w = Box::new(SolidWorld::new());
        build(&mut w);
        w
    })
}

impl LiveDemo {
    /// A fresh demo scene.
    pub fn new() -> Self {
        Self::on_level(Level::DEFAULT)
    }

    /// A fresh demo scene on `level` (`hopkit-sim --level`; R starts it over on the same level).
    pub fn on_level(level: Level) -> Self {
        LiveDemo {
            level,
            rig: rig_on(DemoRig::new(), level),
            last_raw: host_to_raw(&HostInput::default()),
            before: MoverState::new(PLAYER_START),
        }
    }

    /// The rig (read only).
    pub fn rig(&self) -> &DemoRig {
        &self.rig
    }
}

impl Default for LiveDemo {
    fn default() -> Self {
        Self::new()
    }
}

impl Driver for LiveDemo {
    fn tick(&mut self, input: &HostInput) {
        self.last_raw = host_to_raw(input);
        self.before = self.rig.scene.player.mover;
        self.rig.tick(&self.last_raw);
    }
    fn view(&self) -> DemoView {
        self.rig.view()
    }
    fn reset(&mut self) {
        *self = LiveDemo::on_level(self.level);
    }
    fn tick_hz(&self) -> u32 {
        TICK_HZ
    }
    fn state_hash(&self) -> u64 {
        self.rig.state_hash()
    }
    fn strafe(&self) -> Option<StrafeReadout> {
        Some(strafe_readout(&self.rig, &self.before, &self.last_raw))
    }
}

/// The demo on its scripted input ([`hopkit_demo::scripted_raw`]); desktop input is ignored.
pub struct ScriptedDemo {
    level: Level,
    rig: DemoRig,
    /// The player's movement state before the last tick (for [`strafe_readout`]).
    before: MoverState,
}

impl ScriptedDemo {
    /// A fresh demo scene at tick 0.
    pub fn new() -> Self {
        Self::on_level(Level::DEFAULT)
    }

    /// A fresh demo scene at tick 0 on `level` (`hopkit-sim --headless --level`).
    pub fn on_level(level: Level) -> Self {
        ScriptedDemo {
            level,
            rig: rig_on(DemoRig::new(), level),
            before: MoverState::new(PLAYER_START),
        }
    }
    /// Ticks simulated so far.
    pub fn tick_count(&self) -> u32 {
        self.rig.tick_count()
    }
}

impl Default for ScriptedDemo {
    fn default() -> Self {
        Self::new()
    }
}

impl Driver for ScriptedDemo {
    fn tick(&mut self, _input: &HostInput) {
        let raw = scripted_raw(self.rig.tick_count());
        self.before = self.rig.scene.player.mover;
        self.rig.tick(&raw);
    }
    fn view(&self) -> DemoView {
        self.rig.view()
    }
    fn reset(&mut self) {
        *self = ScriptedDemo::on_level(self.level);
    }
    fn tick_hz(&self) -> u32 {
        TICK_HZ
    }
    fn state_hash(&self) -> u64 {
        self.rig.state_hash()
    }
    fn strafe(&self) -> Option<StrafeReadout> {
        let t = self.rig.tick_count();
        (t > 0).then(|| strafe_readout(&self.rig, &self.before, &scripted_raw(t - 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Keys, PadAxes};

    const MID: u16 = ADC_MAX / 2;

    #[test]
    fn keys_mouse_and_buttons_become_raw_samples() {
        let idle = host_to_raw(&HostInput::default());
        assert_eq!(idle.adc_max, ADC_MAX);
        assert!(idle.left_x.abs_diff(MID) <= 1 && idle.left_y.abs_diff(MID) <= 1);
        assert_eq!(idle.buttons, 0);

        let w = HostInput {
            keys: Keys {
                forward: true,
                right: true,
                ..Keys::default()
            },
            mouse_dx: 12.0,
            jump: true,
            ..HostInput::default()
        };
        let raw = host_to_raw(&w);
        // W+D: the seed's diagonal, equal parts forward (up = +y) and right.
        assert!(raw.left_y > MID + 1000 && raw.left_x > MID + 1000);
        assert_eq!(raw.left_x, raw.left_y);
        // The mouse deflects the right stick to the right.
        assert!(raw.right_x > MID + 100, "{}", raw.right_x);
        assert_eq!(raw.buttons, buttons::JUMP);

        let pad = HostInput {
            pad: Some(PadAxes {
                left_x: -1.0,
                left_y: 0.0,
                right_x: 0.0,
                right_y: 0.0,
            }),
            fire: true,
            ..HostInput::default()
        };
        let raw = host_to_raw(&pad);
        assert_eq!(raw.left_x, 0);
        assert_eq!(raw.buttons, buttons::FIRE);
    }
}
