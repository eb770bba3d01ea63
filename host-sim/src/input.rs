//! Desktop input: keyboard, mouse and gamepads, gathered into one [`HostInput`] per tick.
//!
//! Nothing here simulates: [`HostInput`] is turned into the handheld's raw stick samples by
//! [`crate::rig`], which feeds them through the core's stick pipeline like the firmware does.

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

/// Analog sticks of a gamepad, each component in `[−1, 1]`, `y` up (gilrs' convention, which is
/// also the core's stick convention).
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
}

/// Mouse pixels per tick that count as a full right-stick deflection.
pub const MOUSE_FULL_DEFLECTION_PX: f32 = 24.0;

/// Horizontal look deflection in `[−1, 1]` for a mouse motion of `dx` pixels in one tick.
pub fn mouse_look_deflection(dx: f32) -> f32 {
    if !dx.is_finite() {
        return 0.0;
    }
    (dx / MOUSE_FULL_DEFLECTION_PX).clamp(-1.0, 1.0)
}

/// Gamepads through `gilrs`, if the platform allows it (no udev/permissions → none, quietly).
pub struct Gamepads {
    pub(crate) gilrs: Option<gilrs::Gilrs>,
    pub(crate) active: Option<gilrs::GamepadId>,
    /// Why there is no gamepad support, if there is none.
    pub unavailable: Option<String>,
}

impl Gamepads {
    /// Open the gamepad subsystem; failures are recorded, not returned.
    pub fn open() -> Self {
        match gilrs::Gilrs::new() {
            Ok(g) => Gamepads {
                gilrs: Some(g),
                active: None,
                unavailable: None,
            },
            Err(e) => Gamepads {
                gilrs: None,
                active: None,
                unavailable: Some(e.to_string()),
            },
        }
    }

    /// Drain events and return the state of the last used gamepad, with its name.
    pub fn poll(&mut self) -> Option<(PadAxes, PadButtons, String)> {
        use gilrs::{Axis, Button};
        let g = self.gilrs.as_mut()?;
        while let Some(ev) = g.next_event() {
            self.active = Some(ev.id);
        }
        let id = self.active?;
        let pad = g.connected_gamepad(id)?;
        let axes = PadAxes {
            left_x: pad.value(Axis::LeftStickX),
            left_y: pad.value(Axis::LeftStickY),
            right_x: pad.value(Axis::RightStickX),
            right_y: pad.value(Axis::RightStickY),
        };
        let buttons = PadButtons {
            jump: pad.is_pressed(Button::South) || pad.is_pressed(Button::LeftTrigger2),
            fire: pad.is_pressed(Button::RightTrigger2)
                || pad.is_pressed(Button::RightTrigger)
                || pad.is_pressed(Button::West),
            missile: pad.is_pressed(Button::East),
            toward: pad.is_pressed(Button::North),
            away: pad.is_pressed(Button::LeftTrigger),
        };
        Some((axes, buttons, pad.name().to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mouse_deflection_is_clamped_and_finite() {
        assert_eq!(mouse_look_deflection(0.0), 0.0);
        assert_eq!(mouse_look_deflection(12.0), 0.5);
        assert_eq!(mouse_look_deflection(-1000.0), -1.0);
        assert_eq!(mouse_look_deflection(f32::NAN), 0.0);
    }
}
