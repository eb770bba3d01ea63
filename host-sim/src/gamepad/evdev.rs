//! Gamepads read from Linux evdev nodes (`/dev/input/event*`), pure Rust: no libudev, no pkg-config.
//!
//! The backend asks the kernel for each axis' and button's current state (`EVIOCGABS`,
//! `EVIOCGKEY`) once per frame instead of reading the event stream, so it needs no event loop,
//! cannot lag behind, and is exactly as fresh as a frame. Axes are scaled from the range the driver
//! reports ([`AxisInfo`]) to `[−1, 1]` with y flipped to up; the driver's own `flat` zone is not
//! applied, because the core's stick pipeline applies hopkit's radial deadzone.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use evdev::{AbsoluteAxisCode as Abs, Device, KeyCode as Key};

use super::{PadState, RESCAN_EVERY};
use crate::input::{PadAxes, PadButtons};

/// Backend name shown to the user.
pub const NAME: &str = "evdev";

/// Where the kernel puts the evdev nodes.
const INPUT_DIR: &str = "/dev/input";

/// One absolute axis as the driver reports it (`struct input_absinfo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxisInfo {
    /// Current value.
    pub value: i32,
    /// Smallest value the axis reports.
    pub min: i32,
    /// Largest value the axis reports.
    pub max: i32,
}

impl AxisInfo {
    /// The value as a stick component in `[−1, 1]`: `min` → −1, the range's centre → 0, `max` → 1.
    /// A degenerate range (`max ≤ min`) reads 0.
    pub fn centred(self) -> f32 {
        if self.max <= self.min {
            return 0.0;
        }
        let (v, lo, hi) = (self.value as f64, self.min as f64, self.max as f64);
        let centre = 0.5 * (lo + hi);
        let half = 0.5 * (hi - lo);
        ((v - centre) / half).clamp(-1.0, 1.0) as f32
    }

    /// The value as a trigger in `[0, 1]`: `min` → 0, `max` → 1.
    pub fn unit(self) -> f32 {
        if self.max <= self.min {
            return 0.0;
        }
        let (v, lo, hi) = (self.value as f64, self.min as f64, self.max as f64);
        ((v - lo) / (hi - lo)).clamp(0.0, 1.0) as f32
    }
}

/// Which axes a pad uses for what. Drivers differ: Xbox (`xpad`), DualShock/DualSense
/// (`hid-sony`, `hid-playstation`) and most modern HID pads put the right stick on `ABS_RX`/`ABS_RY`
/// and analog triggers on `ABS_Z`/`ABS_RZ`; older generic HID pads put the right stick on
/// `ABS_Z`/`ABS_RZ` and have digital triggers only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Right stick (x, y) axes.
    pub right: (Abs, Abs),
    /// Analog (left, right) trigger axes, if the pad has them.
    pub triggers: Option<(Abs, Abs)>,
}

impl Layout {
    /// The layout of a pad with these absolute axes.
    pub fn of(has_axis: impl Fn(Abs) -> bool) -> Self {
        if has_axis(Abs::ABS_RX) && has_axis(Abs::ABS_RY) {
            let triggers = (has_axis(Abs::ABS_Z) && has_axis(Abs::ABS_RZ))
                .then_some((Abs::ABS_Z, Abs::ABS_RZ));
            Layout {
                right: (Abs::ABS_RX, Abs::ABS_RY),
                triggers,
            }
        } else {
            Layout {
                right: (Abs::ABS_Z, Abs::ABS_RZ),
                triggers: None,
            }
        }
    }
}

/// An analog trigger counts as pressed past this fraction of its travel.
pub const TRIGGER_PRESSED: f32 = 0.5;

/// Map one reading of a pad to the demo's axes and buttons. `axis` reads an absolute axis, `key`
/// whether a button is down (both from the kernel's state, or from a test).
pub fn map_pad(
    layout: &Layout,
    axis: impl Fn(Abs) -> AxisInfo,
    key: impl Fn(Key) -> bool,
) -> (PadAxes, PadButtons) {
    let axes = PadAxes {
        left_x: axis(Abs::ABS_X).centred(),
        left_y: -axis(Abs::ABS_Y).centred(),
        right_x: axis(layout.right.0).centred(),
        right_y: -axis(layout.right.1).centred(),
    };
    let (lt, rt) = match layout.triggers {
        Some((l, r)) => (
            axis(l).unit() > TRIGGER_PRESSED,
            axis(r).unit() > TRIGGER_PRESSED,
        ),
        None => (false, false),
    };
    let buttons = PadButtons {
        jump: key(Key::BTN_SOUTH) || key(Key::BTN_TL2) || lt,
        fire: key(Key::BTN_TR2) || key(Key::BTN_TR) || key(Key::BTN_WEST) || rt,
        missile: key(Key::BTN_EAST),
        toward: key(Key::BTN_NORTH),
        away: key(Key::BTN_TL),
        crouch: key(Key::BTN_THUMBL),
    };
    (axes, buttons)
}

/// Whether a device with these capabilities is a gamepad or joystick (two absolute axes and a
/// gamepad or joystick button), not a keyboard, mouse or touchpad.
pub fn is_pad(has_axis: impl Fn(Abs) -> bool, has_key: impl Fn(Key) -> bool) -> bool {
    has_axis(Abs::ABS_X)
        && has_axis(Abs::ABS_Y)
        && (has_key(Key::BTN_SOUTH) || has_key(Key::BTN_TRIGGER))
}

struct Pad {
    dev: Device,
    path: PathBuf,
    name: String,
    layout: Layout,
}

impl Pad {
    fn read(&self) -> io::Result<PadState> {
        let abs = self.dev.get_abs_state()?;
        let keys = self.dev.get_key_state()?;
        let axis = |code: Abs| {
            abs.get(code.0 as usize)
                .map(|a| AxisInfo {
                    value: a.value,
                    min: a.minimum,
                    max: a.maximum,
                })
                .unwrap_or_default()
        };
        let (axes, buttons) = map_pad(&self.layout, axis, |k| keys.contains(k));
        Ok(PadState {
            axes,
            buttons,
            name: self.name.clone(),
        })
    }
}

/// The open pad (the first one found), rescanning while there is none.
pub struct Backend {
    pad: Option<Pad>,
    last_scan: Option<Instant>,
    why: Option<String>,
}

impl Backend {
    /// Start the backend; it never fails to start (a missing `/dev/input` just means no pads).
    pub fn open() -> Result<Self, String> {
        let mut b = Backend {
            pad: None,
            last_scan: None,
            why: None,
        };
        b.scan();
        Ok(b)
    }

    /// Read the open pad; rescan every [`RESCAN_EVERY`] while there is none. A pad that
    /// disappears (unplugged: the ioctl fails) is dropped.
    pub fn poll(&mut self) -> Option<PadState> {
        if self.pad.is_none() && self.last_scan.is_none_or(|t| t.elapsed() >= RESCAN_EVERY) {
            self.scan();
        }
        let pad = self.pad.as_ref()?;
        match pad.read() {
            Ok(state) => Some(state),
            Err(e) => {
                self.why = Some(format!("{} went away ({e})", pad.path.display()));
                self.pad = None;
                None
            }
        }
    }

    /// Why [`Backend::poll`] found nothing.
    pub fn why_none(&self) -> Option<String> {
        self.why.clone()
    }

    fn scan(&mut self) {
        self.last_scan = Some(Instant::now());
        match find_pad(Path::new(INPUT_DIR)) {
            Ok(pad) => {
                self.pad = Some(pad);
                self.why = None;
            }
            Err(why) => self.why = Some(why),
        }
    }
}

/// The first gamepad among `dir/event*` (sorted by name, so the choice is stable), or why none.
fn find_pad(dir: &Path) -> Result<Pad, String> {
    let mut nodes: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("event"))
        })
        .collect();
    nodes.sort();
    let mut denied = 0usize;
    for path in &nodes {
        let dev = match Device::open(path) {
            Ok(d) => d,
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                denied += 1;
                continue;
            }
            Err(_) => continue,
        };
        let has_axis = |a: Abs| dev.supported_absolute_axes().is_some_and(|s| s.contains(a));
        let has_key = |k: Key| dev.supported_keys().is_some_and(|s| s.contains(k));
        if !is_pad(has_axis, has_key) {
            continue;
        }
        let layout = Layout::of(has_axis);
        let name = dev.name().unwrap_or("gamepad").to_string();
        return Ok(Pad {
            dev,
            path: path.clone(),
            name,
            layout,
        });
    }
    if denied > 0 {
        Err(format!(
            "no permission to read {denied} of {} in {} (join the 'input' group)",
            nodes.len(),
            dir.display()
        ))
    } else {
        Err("none plugged in".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(value: i32, min: i32, max: i32) -> AxisInfo {
        AxisInfo { value, min, max }
    }

    #[test]
    fn axes_scale_from_the_driver_range() {
        // xpad: signed 16-bit sticks.
        assert_eq!(info(-32768, -32768, 32767).centred(), -1.0);
        assert_eq!(info(32767, -32768, 32767).centred(), 1.0);
        assert!(info(0, -32768, 32767).centred().abs() < 1e-4);
        // hid-sony / hid-playstation: 0..255 centred at 128.
        assert_eq!(info(0, 0, 255).centred(), -1.0);
        assert_eq!(info(255, 0, 255).centred(), 1.0);
        assert!(info(128, 0, 255).centred().abs() < 0.01);
        // Out of range and degenerate ranges stay finite and in range.
        assert_eq!(info(1000, 0, 255).centred(), 1.0);
        assert_eq!(info(5, 7, 7).centred(), 0.0);
        assert_eq!(info(5, 9, 7).unit(), 0.0);
        assert_eq!(info(1023, 0, 1023).unit(), 1.0);
    }

    #[test]
    fn xbox_layout_maps_sticks_y_up_and_analog_triggers() {
        let has = |a: Abs| {
            [
                Abs::ABS_X,
                Abs::ABS_Y,
                Abs::ABS_RX,
                Abs::ABS_RY,
                Abs::ABS_Z,
                Abs::ABS_RZ,
            ]
            .contains(&a)
        };
        let layout = Layout::of(has);
        assert_eq!(layout.right, (Abs::ABS_RX, Abs::ABS_RY));
        assert_eq!(layout.triggers, Some((Abs::ABS_Z, Abs::ABS_RZ)));
        let axis = |a: Abs| match a {
            Abs::ABS_X => info(32767, -32768, 32767), // left stick full right
            Abs::ABS_Y => info(-32768, -32768, 32767), // pushed up: evdev y is down
            Abs::ABS_RX => info(-32768, -32768, 32767),
            Abs::ABS_RY => info(0, -32768, 32767),
            Abs::ABS_Z => info(0, 0, 1023), // left trigger released
            Abs::ABS_RZ => info(1000, 0, 1023), // right trigger pulled
            _ => AxisInfo::default(),
        };
        let (axes, b) = map_pad(&layout, axis, |k| k == Key::BTN_NORTH);
        assert_eq!((axes.left_x, axes.left_y), (1.0, 1.0));
        assert_eq!(axes.right_x, -1.0);
        assert!(axes.right_y.abs() < 1e-4);
        assert!(b.fire && b.toward && !b.jump && !b.missile && !b.away);
    }

    #[test]
    fn generic_hid_layout_uses_z_rz_for_the_right_stick() {
        let has = |a: Abs| [Abs::ABS_X, Abs::ABS_Y, Abs::ABS_Z, Abs::ABS_RZ].contains(&a);
        let layout = Layout::of(has);
        assert_eq!(layout.right, (Abs::ABS_Z, Abs::ABS_RZ));
        assert_eq!(layout.triggers, None);
        let axis = |a: Abs| match a {
            Abs::ABS_RZ => info(255, 0, 255), // right stick pulled down
            _ => info(128, 0, 255),
        };
        let (axes, b) = map_pad(&layout, axis, |k| k == Key::BTN_SOUTH || k == Key::BTN_TL);
        assert_eq!(axes.right_y, -1.0);
        assert!(b.jump && b.away && !b.fire && !b.crouch);
        // The left stick's push crouches.
        let (_, b) = map_pad(&layout, axis, |k| k == Key::BTN_THUMBL);
        assert!(b.crouch && !b.jump && !b.away);
    }

    #[test]
    fn keyboards_and_mice_are_not_pads() {
        let none = |_: Abs| false;
        let keyboard_keys = |k: Key| k == Key::KEY_A;
        assert!(!is_pad(none, keyboard_keys));
        let xy = |a: Abs| a == Abs::ABS_X || a == Abs::ABS_Y;
        // A touchpad has X/Y and BTN_LEFT/BTN_TOUCH but no gamepad button.
        assert!(!is_pad(xy, |k| k == Key::BTN_LEFT || k == Key::BTN_TOUCH));
        assert!(is_pad(xy, |k| k == Key::BTN_SOUTH));
        assert!(is_pad(xy, |k| k == Key::BTN_TRIGGER));
    }

    #[test]
    fn a_folder_without_event_nodes_means_no_pads() {
        let dir = std::env::temp_dir().join(format!("hopkit-evdev-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(find_pad(&dir).err().as_deref(), Some("none plugged in"));
        std::fs::remove_dir_all(&dir).unwrap();
        let missing = find_pad(Path::new("/nonexistent/input")).err().unwrap();
        assert!(
            missing.starts_with("cannot list /nonexistent/input"),
            "{missing}"
        );
    }
}
