//! The interactive window (minifb, X11 loaded at run time, so building needs no X libraries).
//!
//! Wall-clock frames are turned into fixed simulation ticks by the core's
//! [`hopkit::timestep::FixedStep`], so the simulation runs at its tick rate whatever the display's
//! refresh rate is.
//!
//! The window itself only reads the devices (`read_devices`) and shows pictures; everything a
//! frame does — input mapping ([`crate::input::Controls`]), guide, pause, reset, ticks, overlays,
//! the quit summary — is [`Session::frame`], which needs no display: the tests drive it with
//! synthetic key and mouse states.

use std::fmt;
use std::time::Instant;

use anyhow::Result;
use hopkit::timestep::FixedStep;
use hopkit_demo::DemoView;
use minifb::{Key, MouseButton, MouseMode, Window, WindowOptions};

use crate::canvas::Canvas;
use crate::desktop::{compose, palette, picture_size, Overlay};
use crate::gamepad::{Gamepads, PadState};
use crate::input::{Controls, DeviceState, HostInput};
use crate::readout::{num, Readout, StrafeReadout};

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
    /// The strafe HUD's numbers after the last tick (scenes with a strafing player only).
    fn strafe(&self) -> Option<StrafeReadout> {
        None
    }
}

/// What a window session did, printed as one line when it ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SessionSummary {
    /// Simulated seconds played (paused time not counted; across resets).
    pub played_s: f64,
    /// Highest speed of the scene's main body over the session, world units/s.
    pub top_speed: f32,
    /// The player's ground max speed, when the scene has one.
    pub ground_max: Option<f32>,
    /// State hash of the scene when the window closed.
    pub state_hash: u64,
}

impl fmt::Display for SessionSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "hopkit-sim: played {} s, top speed {} u/s",
            num(self.played_s, 1),
            num(self.top_speed, 2)
        )?;
        if let Some(g) = self.ground_max {
            write!(f, " (x{} ground max)", num(self.top_speed / g, 2))?;
        }
        write!(f, ", state-hash 0x{:016x}", self.state_hash)
    }
}

/// Why a window session ended.
#[derive(Debug)]
pub enum WindowEnd {
    /// The user closed the window or pressed Escape.
    Closed(SessionSummary),
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
#[derive(Clone, Debug, Default)]
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
    /// The guide shown over the picture on start (empty: none); H or F1 shows it again.
    pub guide: Vec<String>,
}

/// How long the start guide stays up unless a key dismisses it, wall-clock seconds.
pub const GUIDE_SECONDS: f64 = 20.0;

/// The guide of the handheld demo: what the picture shows and the recipe that gains speed from a
/// standstill (checked by `tests/integration/window_recipe.rs` through [`Session::frame`]).
pub fn demo_guide() -> Vec<String> {
    [
        "HOW TO STRAFE-JUMP (bunny-hop past the ground max)",
        "",
        "1. Hold W + D + E: you run a small circle to the right.",
        "2. Keep them held and also hold Space: you hop round",
        "   and round, faster every hop (x1.5 in about 10 s).",
        "   Mirror: W + A + Q circles left.",
        "",
        "Strafe meter (panel): keep the needle in the green",
        "gain window. E/Q (or arrows) turn for as long as held;",
        "the mouse turns too, until the pointer hits the",
        "screen edge (the window cannot capture it).",
        "",
        "any key or Esc: close   H: this guide   P: pause",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The recipe's run-up: seconds of W + D + E before Space joins them.
pub const RECIPE_RUN_UP_S: f64 = 1.0;

/// The keys the guide's recipe holds `elapsed_s` seconds after the first key went down: W + D + E
/// (run a circle to the right), then also Space (hop), all four held from then on.
pub fn recipe_keys(elapsed_s: f64) -> &'static [Key] {
    if elapsed_s < RECIPE_RUN_UP_S {
        &[Key::W, Key::D, Key::E]
    } else {
        &[Key::W, Key::D, Key::E, Key::Space]
    }
}

/// Everything a window frame does, without the window: map the devices' state to input, handle
/// the window commands, run this frame's fixed ticks, keep the overlays and the session's totals.
pub struct Session {
    stepper: FixedStep,
    controls: Controls,
    interactive: bool,
    /// What the picture shows besides the scene (trails, panel text, guide, pause, strafe HUD).
    pub overlay: Overlay,
    guide_left_s: f64,
    played_ticks: u64,
    top_speed: f32,
    ground_max: Option<f32>,
    interrupted: bool,
}

impl Session {
    /// A session for `driver` with `opts` (the guide, if any, is up).
    pub fn new(driver: &dyn Driver, opts: &WindowOpts) -> Self {
        let mut overlay = Overlay::new();
        overlay.tick_hz = driver.tick_hz();
        overlay.hint = opts.hint.clone();
        overlay.guide = opts.guide.clone();
        overlay.guide_shown = !opts.guide.is_empty();
        overlay.strafe = driver.strafe();
        Session {
            stepper: FixedStep::new(driver.tick_hz()),
            controls: Controls::new(),
            interactive: opts.interactive,
            overlay,
            guide_left_s: if opts.guide.is_empty() {
                0.0
            } else {
                GUIDE_SECONDS
            },
            played_ticks: 0,
            top_speed: 0.0,
            ground_max: None,
            interrupted: false,
        }
    }

    /// Did the session end on an interruption (Ctrl+C in the window, or a signal:
    /// [`Session::interrupt`]) rather than on Esc?
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// End the session as interrupted (Ctrl-C in the terminal, SIGTERM, SIGHUP).
    pub fn interrupt(&mut self) {
        self.interrupted = true;
    }

    /// Is the simulation paused (P)?
    pub fn paused(&self) -> bool {
        self.overlay.paused
    }

    /// Is the guide up?
    pub fn guide_shown(&self) -> bool {
        self.overlay.guide_shown
    }

    /// One frame: `dev` is what the window delivered, `pad` the gamepad's state if one was used
    /// (`pad_unavailable` says why there is none, if known), `frame_ns` the wall-clock time since
    /// the last frame. Returns false when the session should end: Esc (which first closes the
    /// guide, when it is up), or Ctrl+C ([`Session::interrupted`]).
    pub fn frame(
        &mut self,
        driver: &mut dyn Driver,
        dev: &DeviceState,
        pad: Option<PadState>,
        pad_unavailable: Option<&str>,
        frame_ns: u64,
    ) -> bool {
        let c = self.controls.frame(dev, self.interactive);
        if c.interrupt {
            self.interrupted = true;
            return false;
        }
        if c.quit && !self.overlay.guide_shown {
            return false;
        }
        if self.overlay.guide_shown {
            self.guide_left_s -= frame_ns as f64 * 1e-9;
            if c.any_key || self.guide_left_s <= 0.0 {
                self.overlay.guide_shown = false;
            }
        } else if c.help && !self.overlay.guide.is_empty() {
            self.overlay.guide_shown = true;
            self.guide_left_s = GUIDE_SECONDS;
        }
        if c.reset {
            driver.reset();
            self.overlay.clear();
        }
        if c.pause {
            self.overlay.paused = !self.overlay.paused;
        }
        let mut input = c.input;
        if self.interactive {
            match pad {
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
                    input.crouch |= b.crouch;
                    self.overlay.status = format!("gamepad: {name}");
                }
                None => {
                    self.overlay.status = match pad_unavailable {
                        Some(why) => format!("keys+mouse (no gamepad: {why})"),
                        None => "keys+mouse (no gamepad yet)".into(),
                    }
                }
            }
        }
        let adv = self.stepper.advance_nanos(frame_ns);
        if !self.overlay.paused && !driver.finished() {
            // Mouse motion is spread over this frame's ticks.
            let n = adv.ticks.max(1) as f32;
            let mut tick_input = input;
            tick_input.mouse_dx = input.mouse_dx / n;
            for _ in 0..adv.ticks {
                driver.tick(&tick_input);
                let readout = driver.readout();
                self.overlay.record(&driver.view(), &readout);
                self.played_ticks += 1;
                self.top_speed = self.top_speed.max(readout.speed());
                self.ground_max = match readout {
                    Readout::Player(p) if p.ground_max.is_finite() && p.ground_max > 0.0 => {
                        Some(p.ground_max)
                    }
                    _ => None,
                };
            }
            if adv.ticks > 0 {
                self.overlay.strafe = driver.strafe();
            }
        }
        true
    }

    /// The session's totals now.
    pub fn summary(&self, driver: &dyn Driver) -> SessionSummary {
        SessionSummary {
            played_s: self.played_ticks as f64 / f64::from(driver.tick_hz().max(1)),
            top_speed: self.top_speed,
            ground_max: self.ground_max,
            state_hash: driver.state_hash(),
        }
    }
}

/// What the window delivers this frame.
fn read_devices(window: &Window) -> DeviceState {
    DeviceState {
        keys: window.get_keys(),
        mouse: window.get_mouse_pos(MouseMode::Pass),
        mouse_left: window.get_mouse_down(MouseButton::Left),
        mouse_right: window.get_mouse_down(MouseButton::Right),
        active: window.is_active(),
    }
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
    let mut session = Session::new(driver, opts);
    let mut last = Instant::now();
    // Ctrl-C in the terminal ends the session like Esc (summary line included), then exits as
    // interrupted; a second Ctrl-C exits at once.
    let defer = crate::output::DeferInterrupts::new();
    while window.is_open() {
        if crate::output::interrupt_requested() {
            session.interrupt();
            break;
        }
        let now = Instant::now();
        let frame_ns = (now.duration_since(last).as_nanos() as f64 * opts.speed) as u64;
        last = now;
        let dev = read_devices(&window);
        let pad = if opts.interactive { pads.poll() } else { None };
        let why = pads.unavailable.clone();
        if !session.frame(driver, &dev, pad, why.as_deref(), frame_ns) {
            break;
        }
        compose(
            &driver.view(),
            &driver.readout(),
            &session.overlay,
            opts.zoom,
            &mut canvas,
        );
        window.update_with_buffer(&canvas.pixels, w, h)?;
    }
    drop(defer);
    let summary = session.summary(driver);
    if session.interrupted() || crate::output::interrupt_requested() {
        // As after Esc, then as any interrupted run: unfinished outputs removed, exit 130.
        println!("{summary}");
        drop(window);
        crate::output::interrupted();
    }
    Ok(WindowEnd::Closed(summary))
}
