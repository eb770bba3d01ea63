//! Desktop input: keyboard, mouse and gamepads, gathered into one [`HostInput`] per tick.
//!
//! Nothing here simulates: [`HostInput`] is turned into the handheld's raw stick samples by
//! [`crate::rig`], which feeds them through the core's stick pipeline like the firmware does.
//!
//! The window's whole input path is [`Controls::frame`]: it takes what the window delivers in one
//! frame ([`DeviceState`]: the keys held, the pointer position, the mouse buttons) and returns the
//! frame's [`HostInput`] and window commands. It needs no display, so tests feed it synthetic key
//! and mouse states ([`DeviceState::keys`]) exactly as `minifb` would.
//!
//! **Turning.** Q/E and ←/→ turn the view continuously at the fastest look rate for as long as they
//! are held: they are the primary turning control. The mouse is a secondary one: `minifb` can
//! neither capture (grab) nor warp the pointer, so mouse look follows the pointer's motion
//! ([`minifb::MouseMode::Pass`]: also outside the window) and stops when the pointer reaches the edge of
//! the screen. Move the pointer back and keep turning with the keys.

use minifb::Key;

/// One tick of desktop input, before the stick pipeline.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HostInput {
    /// Keyboard movement keys (W, A, S, D or the arrow keys).
    pub keys: Keys,
    /// Mouse look: horizontal mouse motion this tick, window pixels (right = positive).
    pub mouse_dx: f32,
    /// A gamepad's state, if one is connected and was used last.
    pub pad: Option<PadAxes>,
    /// Jump held (Space, gamepad south button).
    pub jump: bool,
    /// Fire held (F, left mouse button, gamepad right trigger or west button).
    pub fire: bool,
    /// Crouch held (C; the handheld's left stick push): on the solid level only.
    pub crouch: bool,
    /// Ghost recording only: missile (M, right mouse button, gamepad east button).
    pub missile: bool,
    /// Ghost recording only: Toward held (T, gamepad north button).
    pub toward: bool,
    /// Ghost recording only: Away held (G, gamepad left shoulder).
    pub away: bool,
}

/// Movement keys held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    /// Forward (W / Up).
    pub forward: bool,
    /// Back (S / Down).
    pub back: bool,
    /// Strafe left (A).
    pub left: bool,
    /// Strafe right (D).
    pub right: bool,
    /// Turn left (Q / Left arrow).
    pub turn_left: bool,
    /// Turn right (E / Right arrow).
    pub turn_right: bool,
}

/// Analog sticks of a gamepad, each component in `[−1, 1]`, `y` up (the core's stick
/// convention; [`crate::gamepad`] converts each backend's raw axes to it).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PadAxes {
    /// Left stick x (right +).
    pub left_x: f32,
    /// Left stick y (up +).
    pub left_y: f32,
    /// Right stick x (right +).
    pub right_x: f32,
    /// Right stick y (up +).
    pub right_y: f32,
}

/// Gamepad buttons that matter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PadButtons {
    /// South (A / Cross) or left trigger: jump.
    pub jump: bool,
    /// Right trigger / west (X / Square): fire.
    pub fire: bool,
    /// East (B / Circle): missile.
    pub missile: bool,
    /// North (Y / Triangle): Toward.
    pub toward: bool,
    /// Left shoulder: Away.
    pub away: bool,
    /// Left stick push (L3): crouch (`--level solid`; the handheld's `buttons::LEFT_STICK`).
    pub crouch: bool,
}

/// What the window delivers in one frame: the keys held, the pointer position in window pixels
/// (`None` when unknown), the mouse buttons, and whether the window has the focus.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeviceState {
    /// Keys held this frame (`minifb::Window::get_keys`).
    pub keys: Vec<Key>,
    /// Pointer position relative to the window (`MouseMode::Pass`: may lie outside it).
    pub mouse: Option<(f32, f32)>,
    /// Left mouse button held.
    pub mouse_left: bool,
    /// Right mouse button held.
    pub mouse_right: bool,
    /// The window has the keyboard focus (mouse motion is ignored otherwise).
    pub active: bool,
}

impl DeviceState {
    /// A focused window with these keys held and the pointer at `mouse`.
    pub fn keys(keys: &[Key], mouse: Option<(f32, f32)>) -> Self {
        DeviceState {
            keys: keys.to_vec(),
            mouse,
            active: true,
            ..DeviceState::default()
        }
    }

    fn down(&self, keys: &[Key]) -> bool {
        keys.iter().any(|k| self.keys.contains(k))
    }
}

/// One frame of window input: the [`HostInput`] for this frame's ticks and the window commands
/// (each command is an edge: true on the frame its key went down).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameControls {
    /// Input for every tick of this frame (`mouse_dx` is the whole frame's motion).
    pub input: HostInput,
    /// R: start over.
    pub reset: bool,
    /// P: pause or resume.
    pub pause: bool,
    /// Esc: quit (or close the guide, when it is up).
    pub quit: bool,
    /// Ctrl+C: interrupted, as Ctrl-C in the terminal.
    pub interrupt: bool,
    /// The window lost the keyboard focus this frame (every key and button was let go).
    pub focus_lost: bool,
    /// H or F1: show the guide again.
    pub help: bool,
    /// Some key went down this frame (dismisses the guide).
    pub any_key: bool,
}

/// A pointer jump larger than this in one frame (window pixels) is not mouse look: the pointer
/// came back from another screen, or the window moved. It is ignored.
pub const MOUSE_JUMP_PX: f32 = 400.0;

/// The window's input mapping: keys and mouse → [`FrameControls`]. Keeps the previous frame's
/// keys (for edges) and pointer position (for mouse look deltas).
///
/// **Focus.** A window that loses the keyboard focus gets no key releases (X11 sends them to the
/// focused window), so `minifb` goes on reporting the keys held at that moment. Once the window
/// has had the focus, a frame without it therefore counts as no key and no button held, and the
/// keys still reported when it comes back are ignored until `minifb` reports them released: the
/// player does not hop on by themselves after switching windows.
#[derive(Clone, Debug, Default)]
pub struct Controls {
    prev_keys: Vec<Key>,
    last_mouse_x: Option<f32>,
    /// The window has had the focus at some point (a window never focused is not "unfocused":
    /// some X setups never report focus, and keys reach only the focused window anyway).
    had_focus: bool,
    /// Was focused last frame.
    was_active: bool,
    /// Keys held when the focus went: ignored until released.
    stale: Vec<Key>,
}

impl Controls {
    /// No keys held before, no pointer seen.
    pub fn new() -> Self {
        Self::default()
    }

    /// Map one frame of device state. `interactive` false (replays) keeps only the window
    /// commands.
    pub fn frame(&mut self, dev: &DeviceState, interactive: bool) -> FrameControls {
        let unfocused = self.had_focus && !dev.active;
        let focus_lost = self.was_active && !dev.active;
        self.had_focus |= dev.active;
        self.was_active = dev.active;
        let dev = &if unfocused {
            for k in &dev.keys {
                if !self.stale.contains(k) {
                    self.stale.push(*k);
                }
            }
            DeviceState {
                mouse: dev.mouse,
                ..DeviceState::default()
            }
        } else {
            self.stale.retain(|k| dev.keys.contains(k));
            let mut live = dev.clone();
            live.keys.retain(|k| !self.stale.contains(k));
            live
        };
        let pressed = |k: Key| dev.keys.contains(&k) && !self.prev_keys.contains(&k);
        let mut out = FrameControls {
            reset: pressed(Key::R),
            pause: pressed(Key::P),
            quit: pressed(Key::Escape),
            interrupt: pressed(Key::C) && dev.down(&[Key::LeftCtrl, Key::RightCtrl]),
            focus_lost,
            help: pressed(Key::H) || pressed(Key::F1),
            any_key: dev.keys.iter().any(|k| !self.prev_keys.contains(k)),
            ..FrameControls::default()
        };
        let mouse_x = dev.mouse.map(|(x, _)| x).filter(|x| x.is_finite());
        if interactive {
            let input = &mut out.input;
            input.keys = Keys {
                forward: dev.down(&[Key::W, Key::Up]),
                back: dev.down(&[Key::S, Key::Down]),
                left: dev.down(&[Key::A]),
                right: dev.down(&[Key::D]),
                turn_left: dev.down(&[Key::Q, Key::Left]),
                turn_right: dev.down(&[Key::E, Key::Right]),
            };
            input.jump = dev.down(&[Key::Space]);
            input.fire = dev.down(&[Key::F]) || dev.mouse_left;
            input.crouch = dev.down(&[Key::C]);
            input.missile = dev.down(&[Key::M]) || dev.mouse_right;
            input.toward = dev.down(&[Key::T]);
            input.away = dev.down(&[Key::G]);
            if let (Some(x), Some(px), true) = (mouse_x, self.last_mouse_x, dev.active) {
                let dx = x - px;
                if dx.abs() <= MOUSE_JUMP_PX {
                    input.mouse_dx = dx;
                }
            }
        }
        self.last_mouse_x = if dev.active { mouse_x } else { None };
        self.prev_keys.clone_from(&dev.keys);
        out
    }
}

/// Mouse pixels per tick that count as a full turn (the demo's fastest view turn).
pub const MOUSE_FULL_DEFLECTION_PX: f32 = 16.0;

/// Right-stick x deflection in `[−1, 1]` for a mouse motion of `dx` pixels in one tick.
///
/// A mouse should turn the view in proportion to its motion, but the handheld's look stick is
/// shaped by the core's stick pipeline (deadzone, saturation, cubic curve:
/// [`hopkit::stick::ShapeParams::look`]). So the wanted turn `dx / MOUSE_FULL_DEFLECTION_PX` is
/// mapped through the inverse of that shaping (found by bisection on [`hopkit::stick::shape()`]):
/// after the pipeline the turn rate is linear in the mouse motion again.
pub fn mouse_look_deflection(dx: f32) -> f32 {
    if !dx.is_finite() {
        return 0.0;
    }
    let want = (dx / MOUSE_FULL_DEFLECTION_PX).clamp(-1.0, 1.0);
    want.signum() * unshape_look(want.abs())
}

/// The stick deflection in `[0, 1]` that [`hopkit::stick::ShapeParams::look`] shapes to `out`.
pub fn unshape_look(out: f32) -> f32 {
    use hopkit::math::Vec2;
    use hopkit::stick::{shape, ShapeParams};
    if out <= 0.0 {
        return 0.0;
    }
    let params = ShapeParams::look();
    let f = |x: f32| shape(Vec2::new(x, 0.0), &params).x;
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < out {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mouse_deflection_is_clamped_and_finite() {
        use hopkit::math::Vec2;
        use hopkit::stick::{shape, ShapeParams};
        assert_eq!(mouse_look_deflection(0.0), 0.0);
        assert_eq!(mouse_look_deflection(f32::NAN), 0.0);
        assert!(mouse_look_deflection(-1000.0) < -0.9);
        // After the pipeline's look shaping, the turn is linear in the mouse motion.
        for px in [1.0, 4.0, 8.0, 12.0] {
            let d = mouse_look_deflection(px);
            let shaped = shape(Vec2::new(d, 0.0), &ShapeParams::look()).x;
            let want = px / MOUSE_FULL_DEFLECTION_PX;
            assert!((shaped - want).abs() < 1e-3, "{px}px: {shaped} vs {want}");
            let left = shape(
                Vec2::new(mouse_look_deflection(-px), 0.0),
                &ShapeParams::look(),
            )
            .x;
            assert!((left + want).abs() < 1e-3);
        }
    }
}
