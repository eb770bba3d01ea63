//! The interactive window (minifb, X11 loaded at run time, so building needs no X libraries).
//!
//! Wall-clock frames are turned into fixed simulation ticks by the core's
//! [`hopkit::timestep::FixedStep`], so the simulation runs at its tick rate whatever the display's
//! refresh rate is.

use std::time::Instant;

use anyhow::Result;
use hopkit::demo::DemoView;
use hopkit::timestep::FixedStep;
use minifb::{Key, KeyRepeat, MouseButton, MouseMode, Window, WindowOptions};

use crate::canvas::Canvas;
use crate::desktop::{compose, palette, picture_size, Overlay};
use crate::gamepad::{Gamepads, PadState};
use crate::input::{HostInput, Keys};
use crate::readout::Readout;

/// Something the window can run: a scene advanced in fixed ticks by desktop input.
pub trait Driver {
    /// Advance one fixed tick with this tick's input.
    fn tick(&mut self, input: &HostInput);
    /// Snapshot to draw.
    fn view(&self) -> DemoView;
    /// Start over.
    fn reset(&mut self);
    /// Fixed tick rate, Hz.
    fn tick_hz(&self) -> u32;
    /// State hash of the scene now.
    fn state_hash(&self) -> u64;
    /// True when the driver has nothing more to show (e.g. a replay ended).
    fn finished(&self) -> bool {
        false
    }
    /// What the panel and the summary say about the scene now (default: the demo view's player).
    fn readout(&self) -> Readout {
        Readout::from_player_view(&self.view())
    }
}

/// Why a window session ended.
#[derive(Debug)]
pub enum WindowEnd {
    /// The user closed the window or pressed Escape.
    Closed,
    /// No window could be opened (no display); the message says why.
    Unavailable(String),
}

/// Is there a display to open a window on? `Err(reason)` when clearly not.
pub fn display_available() -> Result<(), String> {
    if cfg!(target_os = "linux") || cfg!(target_os = "freebsd") {
        match std::env::var_os("DISPLAY") {
            Some(d) if !d.is_empty() => Ok(()),
            _ => Err("no X display (DISPLAY is not set)".to_string()),
        }
    } else {
        Ok(())
    }
}

/// Options of a window session.
#[derive(Clone, Debug)]
pub struct WindowOpts {
    /// Window title.
    pub title: String,
    /// Display zoom.
    pub zoom: usize,
    /// Render frame cap, frames per second.
    pub fps: usize,
    /// Playback speed factor (1 = real time).
    pub speed: f64,
    /// Whether keyboard/mouse/gamepad input is used (false for replays).
    pub interactive: bool,
    /// Controls line shown under the display.
    pub hint: String,
}

/// Run `driver` in a window until it is closed. Falls back (returns [`WindowEnd::Unavailable`])
/// when no window can be opened.
pub fn run_window(driver: &mut dyn Driver, opts: &WindowOpts) -> Result<WindowEnd> {
    if let Err(why) = display_available() {
        return Ok(WindowEnd::Unavailable(why));
    }
    let (w, h) = picture_size(opts.zoom);
    let mut window = match Window::new(&opts.title, w, h, WindowOptions::default()) {
        Ok(win) => win,
        Err(e) => return Ok(WindowEnd::Unavailable(format!("cannot open a window: {e}"))),
    };
    window.set_target_fps(opts.fps.max(1));
    let mut pads = if opts.interactive {
        Gamepads::open()
    } else {
        Gamepads::none("replay")
    };
    let mut canvas = Canvas::new(w, h, palette::PANEL);
    let mut overlay = Overlay::new();
    overlay.tick_hz = driver.tick_hz();
    overlay.hint = opts.hint.clone();
    let mut stepper = FixedStep::new(driver.tick_hz());
    let mut last = Instant::now();
    let mut last_mouse: Option<f32> = None;
    let mut paused = false;
    while window.is_open() && !window.is_key_down(Key::Escape) {
        let now = Instant::now();
        let frame_ns = (now.duration_since(last).as_nanos() as f64 * opts.speed) as u64;
        last = now;
        if window.is_key_pressed(Key::R, KeyRepeat::No) {
            driver.reset();
            overlay.clear();
        }
        if window.is_key_pressed(Key::P, KeyRepeat::No) {
            paused = !paused;
        }
        let mut input = HostInput::default();
        let mouse_x = window.get_mouse_pos(MouseMode::Discard).map(|(x, _)| x);
        if opts.interactive {
            let down = |k: &[Key]| k.iter().any(|k| window.is_key_down(*k));
            input.keys = Keys {
                forward: down(&[Key::W, Key::Up]),
                back: down(&[Key::S, Key::Down]),
                left: down(&[Key::A]),
                right: down(&[Key::D]),
                turn_left: down(&[Key::Q, Key::Left]),
                turn_right: down(&[Key::E, Key::Right]),
            };
            input.jump = down(&[Key::Space]);
            input.fire = down(&[Key::F]) || window.get_mouse_down(MouseButton::Left);
            input.missile = down(&[Key::M]) || window.get_mouse_down(MouseButton::Right);
            input.toward = down(&[Key::T]);
            input.away = down(&[Key::G]);
            if let (Some(x), Some(px)) = (mouse_x, last_mouse) {
                input.mouse_dx = x - px;
            }
            match pads.poll() {
                Some(PadState {
                    axes,
                    buttons: b,
                    name,
                }) => {
                    input.pad = Some(axes);
                    input.jump |= b.jump;
                    input.fire |= b.fire;
                    input.missile |= b.missile;
                    input.toward |= b.toward;
                    input.away |= b.away;
                    overlay.status = format!("gamepad: {name}");
                }
                None => {
                    overlay.status = match &pads.unavailable {
                        Some(why) => format!("keyboard+mouse (no gamepads: {why})"),
                        None => "keyboard+mouse (no gamepad yet)".into(),
                    }
                }
            }
        }
        last_mouse = mouse_x;
        let adv = stepper.advance_nanos(frame_ns);
        if !paused && !driver.finished() {
            // Mouse motion is spread over this frame's ticks.
            let n = adv.ticks.max(1) as f32;
            let mut tick_input = input;
            tick_input.mouse_dx = input.mouse_dx / n;
            for _ in 0..adv.ticks {
                driver.tick(&tick_input);
                overlay.record(&driver.view(), &driver.readout());
            }
        }
        if paused {
            overlay.status = format!("PAUSED (P)  {}", overlay.status);
        }
        compose(
            &driver.view(),
            &driver.readout(),
            &overlay,
            opts.zoom,
            &mut canvas,
        );
        window.update_with_buffer(&canvas.pixels, w, h)?;
    }
    Ok(WindowEnd::Closed)
}
