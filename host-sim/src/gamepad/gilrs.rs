//! Gamepads through `gilrs` (feature `gilrs` on Linux, always on other platforms).

use gilrs::{Axis, Button, GamepadId, Gilrs};

use super::PadState;
use crate::input::{PadAxes, PadButtons};

/// Backend name shown to the user.
pub const NAME: &str = "gilrs";

/// An open `gilrs` context and the last gamepad that sent an event.
pub struct Backend {
    gilrs: Gilrs,
    active: Option<GamepadId>,
}

impl Backend {
    /// Open `gilrs`; its error text if it cannot start.
    pub fn open() -> Result<Self, String> {
        Gilrs::new()
            .map(|gilrs| Backend {
                gilrs,
                active: None,
            })
            .map_err(|e| e.to_string())
    }

    /// Drain events and read the last used gamepad.
    pub fn poll(&mut self) -> Option<PadState> {
        while let Some(ev) = self.gilrs.next_event() {
            self.active = Some(ev.id);
        }
        let pad = self.gilrs.connected_gamepad(self.active?)?;
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
            crouch: pad.is_pressed(Button::LeftThumb),
        };
        Some(PadState {
            axes,
            buttons,
            name: pad.name().to_string(),
        })
    }

    /// Why [`Backend::poll`] found nothing.
    pub fn why_none(&self) -> Option<String> {
        None
    }
}
