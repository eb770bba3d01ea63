//! Gamepads on the desktop, with no system development packages in the default build.
//!
//! Backends, chosen at compile time:
//! - **Linux (default): evdev.** The pads are read straight from `/dev/input/event*` through the
//!   pure-Rust [`evdev`](https://docs.rs/evdev) crate (ioctls via `nix`): no `libudev`, no
//!   `pkg-config`, nothing to install to build. Reading needs permission on the device nodes (the
//!   `input` group, or the `uaccess` tag systemd-logind gives the seated user's pads); without it
//!   the demo says so and uses the keyboard and mouse. Pads plugged in later are found by a rescan
//!   every [`RESCAN_EVERY`].
//! - **`gilrs` feature (opt-in on Linux, default elsewhere):** the [`gilrs`](https://docs.rs/gilrs)
//!   crate with its SDL mapping database. On Linux it links `libudev` and its build script needs
//!   `pkg-config` and `libudev-dev` (Debian: `apt-get install pkg-config libudev-dev`), which is why
//!   it is not the default there. On Windows and macOS it needs nothing and is always used.
//!
//! Every backend hands [`PadAxes`] in `[−1, 1]` (y up) and [`PadButtons`] to
//! [`crate::rig::host_to_raw`], which turns them into the handheld's raw ADC counts: a gamepad's
//! sticks take the same path through the core's stick pipeline (calibration, radial deadzone,
//! response curve) as the firmware's thumbsticks.

use std::time::Duration;

use crate::input::{PadAxes, PadButtons};

#[cfg(all(target_os = "linux", not(feature = "gilrs")))]
mod evdev;
#[cfg(all(target_os = "linux", not(feature = "gilrs")))]
use self::evdev as backend;

#[cfg(any(feature = "gilrs", not(target_os = "linux")))]
mod gilrs;
#[cfg(any(feature = "gilrs", not(target_os = "linux")))]
use self::gilrs as backend;

/// How often the evdev backend looks for newly plugged pads while none is open.
pub const RESCAN_EVERY: Duration = Duration::from_secs(2);

/// The name of the backend this build reads gamepads with (`"evdev"` or `"gilrs"`).
pub const BACKEND: &str = backend::NAME;

/// One poll of the last-used gamepad.
#[derive(Clone, Debug, PartialEq)]
pub struct PadState {
    /// Both sticks, `[−1, 1]`, y up.
    pub axes: PadAxes,
    /// The buttons the demo uses.
    pub buttons: PadButtons,
    /// The device's name as the OS reports it.
    pub name: String,
}

/// The open gamepad backend (or the reason there is none).
pub struct Gamepads {
    inner: Option<backend::Backend>,
    /// Why there is no gamepad support, if there is none.
    pub unavailable: Option<String>,
}

impl Gamepads {
    /// Open the platform's gamepad backend; failures are recorded, not returned.
    pub fn open() -> Self {
        match backend::Backend::open() {
            Ok(b) => Gamepads {
                inner: Some(b),
                unavailable: None,
            },
            Err(why) => Gamepads::none(why),
        }
    }

    /// No gamepads, for the stated reason (e.g. a replay, which takes no live input).
    pub fn none(why: impl Into<String>) -> Self {
        Gamepads {
            inner: None,
            unavailable: Some(why.into()),
        }
    }

    /// The state of the last used gamepad, if any is connected and readable.
    pub fn poll(&mut self) -> Option<PadState> {
        let b = self.inner.as_mut()?;
        let state = b.poll();
        if state.is_none() {
            self.unavailable = b.why_none();
        } else {
            self.unavailable = None;
        }
        state
    }
}
