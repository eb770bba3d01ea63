//! The desktop picture: the handheld's 1-bit display scaled up (drawn by the firmware's own
//! [`hopkit_demo::render::draw_frame`]), with desktop-only overlays: fading trails of the
//! player and the ghost fighters on the display, and a panel under it with a large speed read-out,
//! a speed-over-time strip and the controls. The panel shows what applies to the scene
//! ([`Readout`]): speed against the ground max, tilt and grounded for the demo's player; speed,
//! altitude and gun for the followed ghost fighter of a replay or recording.
//!
//! For the demo's player the panel also has a **strafe meter** (the angle between the wish
//! direction and the velocity against the gain window and the optimal angle, like Defrag's CGaz
//! or Xonotic's strafehud) and a **legend** whose icons are drawn by the firmware renderer itself
//! ([`legend_icons`]); the picture gets name tags on the player and the companion, a clear pause
//! state and the start guide. None of this touches the simulation or the 128×64 picture.

use std::collections::VecDeque;

use embedded_graphics::mono_font::ascii::{FONT_10X20, FONT_6X10};
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::text::{Baseline, Text};
use hopkit::math::Vec2;
use hopkit_demo::render::{draw_frame, Viewport};
use hopkit_demo::view::BodyView;
use hopkit_demo::DemoView;

use crate::canvas::{mix, Canvas};
use crate::lcd::{H, W};
use crate::readout::{num, Readout, StrafeReadout};
use hopkit_demo::framebuffer::FrameBuffer;

/// Default zoom of the display in the window (pixels per display pixel).
pub const DEFAULT_ZOOM: usize = 6;
/// Height of the panel under the display, pixels.
pub const PANEL_HEIGHT: usize = 236;
/// How many ticks of trail and speed history are kept (6 s at 60 Hz).
pub const HISTORY: usize = 360;

/// Colours of the desktop picture.
pub mod palette {
    use embedded_graphics::pixelcolor::Rgb888;
    /// Unlit display pixel (OLED black-blue).
    pub const LCD_OFF: Rgb888 = Rgb888::new(8, 14, 28);
    /// Lit display pixel (OLED pale cyan).
    pub const LCD_ON: Rgb888 = Rgb888::new(170, 225, 255);
    /// Gap between display pixels (pixel-grid look).
    pub const LCD_GAP: Rgb888 = Rgb888::new(4, 8, 18);
    /// Panel background.
    pub const PANEL: Rgb888 = Rgb888::new(24, 26, 34);
    /// Panel text.
    pub const TEXT: Rgb888 = Rgb888::new(220, 224, 235);
    /// Dim panel text.
    pub const DIM: Rgb888 = Rgb888::new(130, 136, 150);
    /// Player trail and speed curve.
    pub const PLAYER: Rgb888 = Rgb888::new(255, 170, 60);
    /// Ghost trails.
    pub const GHOST: Rgb888 = Rgb888::new(240, 80, 90);
    /// Ground max line.
    pub const GROUND_MAX: Rgb888 = Rgb888::new(90, 170, 255);
    /// Strafe meter: the angles that gain speed; "gaining" text.
    pub const GAIN: Rgb888 = Rgb888::new(80, 200, 110);
    /// Strafe meter: "losing" text.
    pub const LOSS: Rgb888 = Rgb888::new(240, 90, 80);
    /// Companion name tag.
    pub const COMPANION: Rgb888 = Rgb888::new(120, 230, 160);
    /// Pause banner and guide frame.
    pub const BANNER: Rgb888 = Rgb888::new(255, 214, 90);
}

/// History the overlays draw from; feed it every tick with [`Overlay::record`].
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    player: VecDeque<Vec2>,
    ghosts: Vec<VecDeque<Vec2>>,
    speed: VecDeque<f32>,
    /// Highest speed seen so far (player, or followed fighter), world units/s.
    pub top_speed: f32,
    /// Extra line shown at the bottom of the panel (controls, mode, hints).
    pub hint: String,
    /// Status shown at the right of the speed read-out (e.g. "gamepad: Xbox", "headless").
    pub status: String,
    /// Tick rate of the scene, Hz (for the time read-out).
    pub tick_hz: u32,
    /// The simulation is paused: the picture is dimmed under a PAUSED banner.
    pub paused: bool,
    /// The guide's lines (empty: the scene has none).
    pub guide: Vec<String>,
    /// The guide is shown over the picture.
    pub guide_shown: bool,
    /// The strafe meter's numbers (scenes with a strafing player).
    pub strafe: Option<StrafeReadout>,
}

impl Overlay {
    /// Empty history for a scene ticking at 60 Hz.
    pub fn new() -> Self {
        Overlay {
            tick_hz: 60,
            ..Self::default()
        }
    }

    /// Remember this tick's positions and speed.
    pub fn record(&mut self, view: &DemoView, readout: &Readout) {
        if matches!(readout, Readout::Player(_)) {
            push_capped(&mut self.player, view.player.position.planar());
        }
        let speed = readout.speed();
        push_capped(&mut self.speed, speed);
        self.top_speed = self.top_speed.max(speed);
        self.ghosts.resize_with(view.ghosts.len(), VecDeque::new);
        for (trail, g) in self.ghosts.iter_mut().zip(view.ghosts.iter()) {
            push_capped(trail, g.body.position.planar());
        }
    }

    /// Forget everything (after a reset).
    pub fn clear(&mut self) {
        self.player.clear();
        self.ghosts.clear();
        self.speed.clear();
        self.top_speed = 0.0;
    }
}

fn push_capped<T>(q: &mut VecDeque<T>, v: T) {
    if q.len() == HISTORY {
        q.pop_front();
    }
    q.push_back(v);
}

/// Size of the desktop picture for `zoom`.
pub fn picture_size(zoom: usize) -> (usize, usize) {
    (W * zoom, H * zoom + PANEL_HEIGHT)
}

/// Draw `view` into a [`FrameBuffer`] with the firmware's renderer.
pub fn render_lcd(view: &DemoView) -> FrameBuffer {
    let mut lcd = FrameBuffer::new();
    // The frame buffer is infallible.
    let _ = draw_frame(view, &mut lcd);
    lcd
}

/// Compose the whole desktop picture into `canvas` (resized if needed).
pub fn compose(
    view: &DemoView,
    readout: &Readout,
    overlay: &Overlay,
    zoom: usize,
    canvas: &mut Canvas,
) {
    let zoom = zoom.max(1);
    let (w, h) = picture_size(zoom);
    if canvas.width != w || canvas.height != h {
        *canvas = Canvas::new(w, h, palette::PANEL);
    }
    let lcd = render_lcd(view);
    draw_lcd(&lcd, zoom, canvas);
    let vp = Viewport::for_view(view);
    for trail in &overlay.ghosts {
        draw_trail(trail, &vp, &lcd, zoom, palette::GHOST, 0.55, canvas);
    }
    draw_trail(
        &overlay.player,
        &vp,
        &lcd,
        zoom,
        palette::PLAYER,
        1.0,
        canvas,
    );
    if matches!(readout, Readout::Player(_)) {
        draw_tags(view, &vp, zoom, canvas);
    }
    draw_panel(view, readout, overlay, zoom, canvas);
    if overlay.paused {
        draw_paused(zoom, canvas);
    }
    if overlay.guide_shown {
        draw_guide(&overlay.guide, zoom, canvas);
    }
}

/// `s` cut to at most `max` characters, ending in `...` when cut (the built-in fonts are ASCII).
pub fn fit(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let keep = max.saturating_sub(3);
    let mut out: String = s.chars().take(keep).collect();
    out.push_str(&"..."[..max.min(3)]);
    out
}

/// Name tags on the picture: "you" on the player, "companion" on the companion (who looks like
/// a critter otherwise). Drawn at window resolution next to the sprite, inside the playfield.
fn draw_tags(view: &DemoView, vp: &Viewport, zoom: usize, canvas: &mut Canvas) {
    let z = zoom as f32;
    let field_top = (hopkit_demo::render::HUD_HEIGHT as usize * zoom) as i64;
    let (w, h) = ((W * zoom) as i64, (H * zoom) as i64);
    let tags = [
        (view.player.position.planar(), "you", palette::PLAYER),
        (
            view.companion.position.planar(),
            "companion",
            palette::COMPANION,
        ),
    ];
    for (p, label, color) in tags {
        let Some((x, y)) = vp.to_display(p) else {
            continue;
        };
        let (x, y) = (
            (x * z) as i64 + 5 * zoom as i64,
            (y * z) as i64 - 4 * zoom as i64 - 10,
        );
        let tw = 6 * label.len() as i64 + 4;
        if x < 0 || x + tw > w || y < field_top || y + 12 > h {
            continue;
        }
        canvas.fill_rect(x, y, tw, 12, palette::LCD_OFF);
        text(
            canvas,
            label,
            x + 2,
            y + 1,
            MonoTextStyle::new(&FONT_6X10, color),
        );
    }
}

/// Dim the picture and put a PAUSED banner in its middle.
fn draw_paused(zoom: usize, canvas: &mut Canvas) {
    let (w, h) = (W * zoom, H * zoom);
    dim_rect(canvas, 0, 0, w, h, 0.6);
    let (bw, bh) = (300i64, 64i64);
    let (x, y) = ((w as i64 - bw) / 2, (h as i64 - bh) / 2);
    canvas.fill_rect(x, y, bw, bh, palette::BANNER);
    canvas.fill_rect(x + 3, y + 3, bw - 6, bh - 6, palette::PANEL);
    let big = MonoTextStyle::new(&FONT_10X20, palette::BANNER);
    text(canvas, "PAUSED", x + (bw - 60) / 2, y + 12, big);
    let small = MonoTextStyle::new(&FONT_6X10, palette::TEXT);
    let line = "P resume  R reset  Esc quit";
    text(
        canvas,
        line,
        x + (bw - 6 * line.len() as i64) / 2,
        y + 40,
        small,
    );
}

/// The start guide in a framed box over the picture.
fn draw_guide(lines: &[String], zoom: usize, canvas: &mut Canvas) {
    let (w, h) = ((W * zoom) as i64, (H * zoom) as i64);
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as i64;
    let bw = (6 * longest + 28).min(w - 8);
    let bh = (12 * lines.len() as i64 + 24).min(h - 8);
    let (x, y) = ((w - bw) / 2, (h - bh) / 2);
    canvas.fill_rect(x, y, bw, bh, palette::BANNER);
    canvas.fill_rect(x + 2, y + 2, bw - 4, bh - 4, palette::PANEL);
    let max = ((bw - 28) / 6).max(1) as usize;
    for (i, line) in lines.iter().enumerate() {
        let color = if i == 0 {
            palette::BANNER
        } else {
            palette::TEXT
        };
        text(
            canvas,
            &fit(line, max),
            x + 14,
            y + 12 + 12 * i as i64,
            MonoTextStyle::new(&FONT_6X10, color),
        );
    }
}

/// Mix a rectangle of the canvas towards black by `t`.
fn dim_rect(canvas: &mut Canvas, x0: usize, y0: usize, w: usize, h: usize, t: f32) {
    for y in y0..(y0 + h).min(canvas.height) {
        for x in x0..(x0 + w).min(canvas.width) {
            let c = canvas.get(x, y);
            canvas.put(x as i64, y as i64, mix(c, Rgb888::new(0, 0, 0), t));
        }
    }
}

fn draw_lcd(lcd: &FrameBuffer, zoom: usize, canvas: &mut Canvas) {
    let gap = zoom >= 4;
    for y in 0..H {
        for x in 0..W {
            let c = if lcd.get(x as i32, y as i32) {
                palette::LCD_ON
            } else {
                palette::LCD_OFF
            };
            let (x0, y0, z) = ((x * zoom) as i64, (y * zoom) as i64, zoom as i64);
            if gap {
                canvas.fill_rect(x0, y0, z, z, palette::LCD_GAP);
                canvas.fill_rect(x0, y0, z - 1, z - 1, c);
            } else {
                canvas.fill_rect(x0, y0, z, z, c);
            }
        }
    }
}

/// A trail as line segments at window resolution, fading towards the oldest point, drawn only
/// over unlit display pixels (the display's own drawing stays on top).
fn draw_trail(
    trail: &VecDeque<Vec2>,
    vp: &Viewport,
    lcd: &FrameBuffer,
    zoom: usize,
    color: Rgb888,
    strength: f32,
    canvas: &mut Canvas,
) {
    let n = trail.len();
    if n < 2 {
        return;
    }
    let z = zoom as f32;
    let field_top = (hopkit_demo::render::HUD_HEIGHT as usize * zoom) as i64;
    let limit = (W * zoom) as f32 * 4.0;
    for (i, (a, b)) in trail.iter().zip(trail.iter().skip(1)).enumerate() {
        let (Some(pa), Some(pb)) = (vp.to_display(*a), vp.to_display(*b)) else {
            continue;
        };
        let (ax, ay, bx, by) = (pa.0 * z, pa.1 * z, pb.0 * z, pb.1 * z);
        if [ax, ay, bx, by].iter().any(|v| v.abs() > limit) {
            continue;
        }
        let age = 1.0 - i as f32 / n as f32;
        let c = mix(
            color,
            palette::LCD_OFF,
            1.0 - strength * (1.0 - age).powf(0.7),
        );
        let steps = ((bx - ax).abs().max((by - ay).abs()).ceil() as usize).clamp(1, 4096);
        for s in 0..=steps {
            let t = s as f32 / steps as f32;
            let x = (ax + (bx - ax) * t).round() as i64;
            let y = (ay + (by - ay) * t).round() as i64;
            if y < field_top {
                continue;
            }
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (px, py) = (x + dx, y + dy);
                if px < 0 || py < 0 {
                    continue;
                }
                let (lx, ly) = (px as usize / zoom, py as usize / zoom);
                if lx < W && ly < H && !lcd.get(lx as i32, ly as i32) {
                    canvas.put(px, py, c);
                }
            }
        }
    }
}

fn text(canvas: &mut Canvas, s: &str, x: i64, y: i64, style: MonoTextStyle<'_, Rgb888>) {
    let _ =
        Text::with_baseline(s, Point::new(x as i32, y as i32), style, Baseline::Top).draw(canvas);
}

fn draw_panel(
    view: &DemoView,
    readout: &Readout,
    overlay: &Overlay,
    zoom: usize,
    canvas: &mut Canvas,
) {
    let top = (H * zoom) as i64;
    let w = (W * zoom) as i64;
    canvas.fill_rect(0, top, w, PANEL_HEIGHT as i64, palette::PANEL);
    let big = MonoTextStyle::new(&FONT_10X20, palette::TEXT);
    let small = MonoTextStyle::new(&FONT_6X10, palette::TEXT);
    let dim = MonoTextStyle::new(&FONT_6X10, palette::DIM);
    // Left column: read-outs, status, legend, controls. Right column: speed strip, strafe meter.
    let gx = w / 2 + 40;
    let col_chars = ((gx - 24) / 6).max(8) as usize;
    let speed = readout.speed();
    let y = top + 8;
    text(
        canvas,
        &format!("{:>6} u/s", num(speed, 2)),
        12,
        y,
        MonoTextStyle::new(&FONT_10X20, palette::PLAYER),
    );
    // Ground max: only the demo's player has one.
    let gmax = match readout {
        Readout::Player(p) if p.ground_max.is_finite() && p.ground_max > 0.0 => Some(p.ground_max),
        _ => None,
    };
    let (second, details) = match readout {
        Readout::Player(p) => (
            match gmax {
                Some(g) => format!("x{} ground max", num(speed / g, 2)),
                None => String::new(),
            },
            format!(
                "top {}  ground max {}  tilt {} deg  {}",
                num(overlay.top_speed, 2),
                gmax.map_or_else(|| "n/a".to_string(), |g| num(g, 2).to_string()),
                num(p.tilt_deg, 0),
                if p.grounded { "grounded" } else { "airborne" }
            ),
        ),
        Readout::Fighters(f) => (
            format!("altitude {}", num(f.position.y, 1)),
            format!(
                "{}: top {}  {}  {}",
                f.who,
                num(overlay.top_speed, 2),
                if f.count == 1 {
                    "1 fighter".to_string()
                } else {
                    format!("{} ghosts", f.count)
                },
                if f.firing { "FIRING" } else { "" }
            ),
        ),
    };
    text(canvas, &second, 12, y + 24, big);
    text(canvas, &fit(&details, col_chars), 12, y + 50, small);
    let progress = match readout {
        Readout::Fighters(f) if f.frames > 0 => format!("  frame {}/{}", f.tick, f.frames),
        _ => String::new(),
    };
    let status = format!(
        "t={}s{progress}  {}",
        num(f64::from(view.tick) / f64::from(overlay.tick_hz.max(1)), 2),
        overlay.status
    );
    text(canvas, &fit(&status, col_chars), 12, y + 64, dim);
    if matches!(readout, Readout::Player(_)) {
        draw_legend(12, y + 82, gx - 24, canvas);
    }
    for (i, line) in overlay.hint.lines().enumerate() {
        text(
            canvas,
            &fit(line, col_chars),
            12,
            top + PANEL_HEIGHT as i64 - 30 + 12 * i as i64,
            dim,
        );
    }
    // Right column: the speed strip, and the strafe meter under it when there is one.
    let gw = w - gx - 12;
    let meter_h = 96;
    let gy = top + 10;
    let gh = match overlay.strafe {
        Some(_) => PANEL_HEIGHT as i64 - 20 - meter_h - 8,
        None => PANEL_HEIGHT as i64 - 20,
    };
    draw_speed_strip(readout, overlay, gmax, (gx, gy, gw, gh), canvas);
    if let Some(st) = &overlay.strafe {
        let trend = speed_trend(&overlay.speed, overlay.tick_hz);
        draw_strafe_meter(st, trend, (gx, gy + gh + 8, gw, meter_h), canvas);
    }
}

fn draw_speed_strip(
    readout: &Readout,
    overlay: &Overlay,
    gmax: Option<f32>,
    (gx, gy, gw, gh): (i64, i64, i64, i64),
    canvas: &mut Canvas,
) {
    canvas.fill_rect(gx, gy, gw, gh, palette::LCD_OFF);
    let full = (gmax.unwrap_or(0.0) * 3.0)
        .max(overlay.top_speed * 1.1)
        .max(1e-3);
    // The curve keeps clear of the legend row at the top of the strip.
    let legend_h = 14;
    let to_y =
        |v: f32| gy + gh - 1 - ((v / full).clamp(0.0, 1.0) * (gh - 2 - legend_h) as f32) as i64;
    if let Some(g) = gmax {
        let ly = to_y(g);
        let mut x = gx;
        while x < gx + gw {
            canvas.fill_rect(x, ly, 4.min(gx + gw - x), 1, palette::GROUND_MAX);
            x += 7;
        }
        // Legend inside the strip, top left: ground max (dashed blue).
        canvas.fill_rect(gx + 4, gy + 8, 4, 1, palette::GROUND_MAX);
        canvas.fill_rect(gx + 11, gy + 8, 4, 1, palette::GROUND_MAX);
        text(
            canvas,
            "ground max",
            gx + 19,
            gy + 3,
            MonoTextStyle::new(&FONT_6X10, palette::GROUND_MAX),
        );
    }
    // The curve's legend, top right (orange).
    let curve = match readout {
        Readout::Player(_) => "speed, last 6 s".to_string(),
        Readout::Fighters(f) => format!("{} speed, last 6 s", f.who),
    };
    text(
        canvas,
        &curve,
        gx + gw - 4 - 6 * curve.len() as i64,
        gy + 3,
        MonoTextStyle::new(&FONT_6X10, palette::PLAYER),
    );
    let n = overlay.speed.len();
    let mut prev: Option<i64> = None;
    for (i, v) in overlay.speed.iter().enumerate() {
        let x = gx + gw - (n - i) as i64 * gw / HISTORY as i64;
        let y = to_y(*v);
        if let Some(p) = prev {
            let (a, b) = (p.min(y), p.max(y));
            canvas.fill_rect(x, a, 2, b - a + 1, palette::PLAYER);
        } else {
            canvas.fill_rect(x, y, 2, 1, palette::PLAYER);
        }
        prev = Some(y);
    }
}

/// The strafe meter's scale: angles between wish direction and velocity from this ...
pub const METER_MIN_DEG: f32 = 60.0;
/// ... to this, degrees (90° is the middle).
pub const METER_MAX_DEG: f32 = 120.0;

/// The speed's change over the last second of `speeds` (one per tick at `tick_hz`, oldest
/// first), world units/s per s: the steady gain the strafe meter prints, the same numbers as the
/// speed strip draws. `None` until a second has been recorded.
pub fn speed_trend(speeds: &VecDeque<f32>, tick_hz: u32) -> Option<f32> {
    let hz = tick_hz.max(1) as usize;
    let n = speeds.len();
    let (Some(now), Some(then)) = (
        speeds.get(n.checked_sub(1)?),
        speeds.get(n.checked_sub(1 + hz)?),
    ) else {
        return None;
    };
    Some(now - then)
}

/// The gain the strafe meter prints: `trend` (the speed's change over the last second,
/// [`speed_trend`]) when known, else this tick's.
fn gain_text(st: &StrafeReadout, trend: Option<f32>) -> String {
    match trend {
        Some(t) => format!(
            "{}{} u/s per s (last 1 s)",
            if t >= 0.0 { "+" } else { "" },
            num(t, 2)
        ),
        None => format!(
            "{}{} u/s per s (this tick)",
            if st.gain_per_s >= 0.0 { "+" } else { "" },
            num(st.gain_per_s, 2)
        ),
    }
}

/// What the strafe meter says under its bar, and in which colour. The word is this tick's (is the
/// angle the player chose, before the tick's acceleration, in the gain window?); the number is
/// the steady one, `trend` ([`speed_trend`]), so it agrees with the speed shown.
pub fn strafe_advice(st: &StrafeReadout, trend: Option<f32>) -> (String, Rgb888) {
    match st.angle_deg {
        _ if st.speed < 0.5 && !st.grounded => (
            "too slow to strafe: land and run first (W)".into(),
            palette::DIM,
        ),
        _ if st.speed < 0.5 => (
            "standing: hold W + D + E to run a circle".into(),
            palette::DIM,
        ),
        None => ("no wish: hold D (or A) while you turn".into(), palette::DIM),
        Some(_) if st.grounded => (
            format!("ON GROUND (Space: hop) {}", gain_text(st, trend)),
            palette::DIM,
        ),
        Some(_) if st.gain_per_s > 0.0 => {
            (format!("GAINING {}", gain_text(st, trend)), palette::GAIN)
        }
        Some(_) if st.gain_per_s == 0.0 => (
            format!("NO GAIN (outside green) {}", gain_text(st, trend)),
            palette::DIM,
        ),
        Some(_) => (format!("LOSING {}", gain_text(st, trend)), palette::LOSS),
    }
}

/// The strafe meter: a bar of angles between the wish direction and the velocity before the
/// tick's acceleration ([`METER_MIN_DEG`]..[`METER_MAX_DEG`]), the gain window in green, the
/// optimal angle as a white tick, the player's angle as an orange needle, and a line saying
/// whether this air tick gains, with the speed's change over the last second.
fn draw_strafe_meter(
    st: &StrafeReadout,
    trend: Option<f32>,
    (x, y, w, h): (i64, i64, i64, i64),
    canvas: &mut Canvas,
) {
    canvas.fill_rect(x, y, w, h, palette::LCD_OFF);
    let small = |c| MonoTextStyle::new(&FONT_6X10, c);
    let title = match st.angle_deg {
        Some(a) => format!(
            "strafe: wish-velocity {} deg, best {} deg",
            num(a, 1),
            num(st.optimal_deg, 1)
        ),
        None => format!("strafe: best angle {} deg", num(st.optimal_deg, 1)),
    };
    // Surfing (the solid level's steep ramps): the horizontal speed leads the title.
    let title = match st.surf_speed {
        Some(v) => format!("SURF {} u/s  {title}", num(v, 2)),
        None => title,
    };
    text(
        canvas,
        &fit(&title, ((w - 8) / 6) as usize),
        x + 4,
        y + 3,
        small(palette::TEXT),
    );
    let (bx, by, bw, bh) = (x + 8, y + 20, w - 16, 22);
    let to_x = |deg: f32| {
        let t = ((deg - METER_MIN_DEG) / (METER_MAX_DEG - METER_MIN_DEG)).clamp(0.0, 1.0);
        bx + (t * (bw - 1) as f32).round() as i64
    };
    canvas.fill_rect(bx, by, bw, bh, palette::PANEL);
    if let Some((lo, hi)) = st.gain_window_deg {
        if hi >= METER_MIN_DEG && lo <= METER_MAX_DEG {
            let (a, b) = (to_x(lo), to_x(hi));
            let c = if st.grounded {
                mix(palette::GAIN, palette::PANEL, 0.6)
            } else {
                palette::GAIN
            };
            canvas.fill_rect(a, by, (b - a + 1).max(2), bh, c);
        }
    }
    // Scale: ticks every 10°, labels at the ends and the middle.
    for k in 0..=6 {
        let deg = METER_MIN_DEG + 10.0 * k as f32;
        let tx = to_x(deg);
        canvas.fill_rect(tx, by + bh, 1, 4, palette::DIM);
        if k % 3 == 0 {
            let label = format!("{}", deg as i32);
            text(
                canvas,
                &label,
                tx - 3 * label.len() as i64,
                by + bh + 5,
                small(palette::DIM),
            );
        }
    }
    let ox = to_x(st.optimal_deg);
    canvas.fill_rect(ox, by - 3, 1, bh + 6, palette::TEXT);
    if let Some(a) = st.angle_deg {
        let nx = to_x(a);
        canvas.fill_rect(nx - 1, by - 4, 3, bh + 8, palette::PLAYER);
        // A notch at the end the needle is pinned to when the angle is off the scale.
        if !(METER_MIN_DEG..=METER_MAX_DEG).contains(&a) {
            let dir = if a < METER_MIN_DEG { 1 } else { -1 };
            for i in 0..5 {
                canvas.fill_rect(
                    nx + dir * (2 + i),
                    by + bh / 2 - (4 - i),
                    1,
                    2 * (4 - i) + 1,
                    palette::PLAYER,
                );
            }
        }
    }
    let (advice, color) = strafe_advice(st, trend);
    text(
        canvas,
        &fit(&advice, ((w - 8) / 6) as usize),
        x + 4,
        y + h - 24,
        small(color),
    );
    let legend = "green: gains  |: best  orange: your angle";
    text(
        canvas,
        &fit(legend, ((w - 8) / 6) as usize),
        x + 4,
        y + h - 12,
        small(palette::DIM),
    );
}

/// One entry of the picture's legend: the sprite as the firmware draws it, and what it is.
#[derive(Clone, Debug)]
pub struct LegendIcon {
    /// What the sprite is.
    pub label: &'static str,
    /// Lit display pixels of the sprite, relative to its world position's pixel.
    pub pixels: Vec<(i32, i32)>,
}

/// The legend's icons, drawn by [`draw_frame`] itself: each is the difference between a frame
/// with the one sprite at the camera point and a frame without it, so the icon is exactly what
/// the 128×64 picture shows.
pub fn legend_icons() -> &'static [LegendIcon] {
    static ICONS: std::sync::OnceLock<Vec<LegendIcon>> = std::sync::OnceLock::new();
    ICONS.get_or_init(|| {
        use hopkit::math::Vec3;
        use hopkit_demo::view::{CritterView, GhostView, RampView};
        let far = Vec3::new(400.0, 0.0, 400.0);
        let up = Vec2::new(0.0, -1.0);
        let mut base = DemoView {
            arena_half_extent: Vec2::new(48.0, 48.0),
            ..DemoView::default()
        };
        base.player.position = far;
        base.player.heading = up;
        base.companion.position = far;
        base.companion.heading = up;
        let at = Vec3::new(0.0, 0.0, 0.0);
        let mut you = base.clone();
        you.player.position = at;
        you.player_grounded = true;
        let mut companion = base.clone();
        companion.companion.position = at;
        let mut critter = base.clone();
        let _ = critter.critters.push(CritterView {
            body: BodyView {
                position: at,
                heading: Vec2::new(1.0, 0.0),
                speed: 0.0,
            },
            target: Vec2::new(6.0, 0.0),
            arrived: false,
        });
        let mut ghost = base.clone();
        let _ = ghost.ghosts.push(GhostView {
            body: BodyView {
                position: Vec3::new(0.0, 3.0, 0.0),
                heading: up,
                speed: 0.0,
            },
            firing: false,
        });
        let mut crumbs = base.clone();
        for i in -2..=2 {
            let _ = crumbs.crumbs.push(Vec2::new(i as f32 * 2.0, 0.0));
        }
        let mut ramp = base.clone();
        let _ = ramp.ramps.push(RampView {
            min: Vec2::new(-5.0, -3.0),
            max: Vec2::new(5.0, 3.0),
            uphill: Vec2::new(1.0, 0.0),
            angle_deg: 20.0,
        });
        let base_lcd = render_lcd(&base);
        let centre = Viewport::for_view(&base).to_display(Vec2::ZERO);
        let (cx, cy) = centre.map_or((64, 36), |(x, y)| (x.round() as i32, y.round() as i32));
        let icon = |v: &DemoView, label: &'static str| {
            let lcd = render_lcd(v);
            let mut pixels = vec![];
            for dy in -10..=10 {
                for dx in -12..=12 {
                    let (x, y) = (cx + dx, cy + dy);
                    if x < 0 || y < 0 {
                        continue;
                    }
                    if lcd.get(x, y) != base_lcd.get(x, y) {
                        pixels.push((dx, dy));
                    }
                }
            }
            LegendIcon { label, pixels }
        };
        vec![
            icon(&you, "you (ring: in the air)"),
            icon(&companion, "companion (follows you)"),
            icon(&critter, "critter, x its target"),
            icon(&ghost, "ghost fighter (replay)"),
            icon(&crumbs, "breadcrumbs"),
            icon(&ramp, "ramp (tilts you)"),
        ]
    })
}

/// The legend: the sprites in two columns, and the trail colours.
fn draw_legend(x: i64, y: i64, w: i64, canvas: &mut Canvas) {
    let icons = legend_icons();
    let col_w = w / 2;
    let row_h = 30;
    let scale = 2;
    for (i, icon) in icons.iter().enumerate() {
        let (cx, cy) = (x + (i as i64 % 2) * col_w, y + (i as i64 / 2) * row_h);
        let (sw, sh) = (52, 26);
        canvas.fill_rect(cx, cy, sw, sh, palette::LCD_OFF);
        let (mx, my) = (cx + sw / 2, cy + sh / 2);
        for &(dx, dy) in &icon.pixels {
            let (px, py) = (mx + i64::from(dx) * scale, my + i64::from(dy) * scale);
            if px >= cx && py >= cy && px + scale <= cx + sw && py + scale <= cy + sh {
                canvas.fill_rect(px, py, scale, scale, palette::LCD_ON);
            }
        }
        let max = ((col_w - sw - 10) / 6).max(4) as usize;
        text(
            canvas,
            &fit(icon.label, max),
            cx + sw + 6,
            cy + 8,
            MonoTextStyle::new(&FONT_6X10, palette::TEXT),
        );
    }
    let ty = y + row_h * icons.len().div_ceil(2) as i64;
    canvas.fill_rect(x, ty + 4, 14, 2, palette::PLAYER);
    text(
        canvas,
        "your last 6 s",
        x + 18,
        ty,
        MonoTextStyle::new(&FONT_6X10, palette::PLAYER),
    );
    canvas.fill_rect(x + col_w, ty + 4, 14, 2, palette::GHOST);
    text(
        canvas,
        "ghost trails",
        x + col_w + 18,
        ty,
        MonoTextStyle::new(&FONT_6X10, palette::GHOST),
    );
}

/// A hand-made view of the demo scene (fixed numbers, independent of the simulation): used by
/// the golden rendering test, and handy to look at the renderer alone.
pub fn sample_view() -> DemoView {
    use hopkit::math::Vec3;
    use hopkit_demo::view::{CritterView, GhostView, RampView};
    let mut v = DemoView {
        tick: 600,
        arena_half_extent: Vec2::new(48.0, 48.0),
        camera: Vec2::new(4.0, -6.0),
        player: BodyView {
            position: Vec3::new(4.0, 0.0, -6.0),
            heading: Vec2::new(0.6, -0.8),
            speed: 12.4,
        },
        player_grounded: false,
        player_tilt_deg: 20.0,
        ground_max_speed: 7.7,
        companion: BodyView {
            position: Vec3::new(-3.0, 0.0, 2.0),
            heading: Vec2::new(
                core::f32::consts::FRAC_1_SQRT_2,
                -core::f32::consts::FRAC_1_SQRT_2,
            ),
            speed: 5.0,
        },
        companion_head_yaw: 0.5,
        ..DemoView::default()
    };
    for i in 0..10 {
        let t = i as f32;
        let _ = v.crumbs.push(Vec2::new(-2.5 + t * 0.7, 1.5 - t * 0.8));
    }
    let critters = [
        (Vec2::new(-14.0, -12.0), Vec2::new(-10.0, -16.0), false),
        (Vec2::new(16.0, 8.0), Vec2::new(16.0, 8.0), true),
    ];
    for (p, target, arrived) in critters {
        let _ = v.critters.push(CritterView {
            body: BodyView {
                position: Vec3::new(p.x, 0.0, p.y),
                heading: Vec2::new(1.0, 0.0),
                speed: 2.0,
            },
            target,
            arrived,
        });
    }
    let ghosts = [
        (Vec3::new(22.0, 3.0, -4.0), Vec2::new(-1.0, 0.0), true),
        (Vec3::new(-8.0, 5.0, 14.0), Vec2::new(0.0, -1.0), false),
        (Vec3::new(60.0, 5.0, 0.0), Vec2::new(0.0, 1.0), false),
    ];
    for (position, heading, firing) in ghosts {
        let _ = v.ghosts.push(GhostView {
            body: BodyView {
                position,
                heading,
                speed: 20.0,
            },
            firing,
        });
    }
    let _ = v.ramps.push(RampView {
        min: Vec2::new(12.0, -30.0),
        max: Vec2::new(28.0, -18.0),
        uphill: Vec2::new(1.0, 0.0),
        angle_deg: 20.0,
    });
    let _ = v.ramps.push(RampView {
        min: Vec2::new(-30.0, 10.0),
        max: Vec2::new(-18.0, 22.0),
        uphill: Vec2::new(0.0, 1.0),
        angle_deg: 30.0,
    });
    v
}
