//! The desktop picture: the handheld's 1-bit display scaled up (drawn by the firmware's own
//! [`hopkit_firmware::render::draw_frame`]), with desktop-only overlays: fading trails of the
//! player and the ghost fighters on the display, and a panel under it with a large speed read-out,
//! a speed-over-time strip and the controls. The panel shows what applies to the scene
//! ([`Readout`]): speed against the ground max, tilt and grounded for the demo's player; speed,
//! altitude and gun for the followed ghost fighter of a replay or recording.

use std::collections::VecDeque;

use embedded_graphics::mono_font::ascii::{FONT_10X20, FONT_6X10};
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::text::{Baseline, Text};
use hopkit::demo::DemoView;
use hopkit::math::Vec2;
use hopkit_firmware::render::{draw_frame, Viewport};

use crate::canvas::{mix, Canvas};
use crate::lcd::{Lcd, H, W};
use crate::readout::{num, Readout};

/// Default zoom of the display in the window (pixels per display pixel).
pub const DEFAULT_ZOOM: usize = 6;
/// Height of the panel under the display, pixels.
pub const PANEL_HEIGHT: usize = 120;
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

/// Draw `view` into an [`Lcd`] with the firmware's renderer.
pub fn render_lcd(view: &DemoView) -> Lcd {
    let mut lcd = Lcd::new();
    // The Lcd target is infallible.
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
    draw_panel(view, readout, overlay, zoom, canvas);
}

fn draw_lcd(lcd: &Lcd, zoom: usize, canvas: &mut Canvas) {
    let gap = zoom >= 4;
    for y in 0..H {
        for x in 0..W {
            let c = if lcd.get(x, y) {
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
    lcd: &Lcd,
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
    let field_top = (hopkit_firmware::render::HUD_HEIGHT as usize * zoom) as i64;
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
                if lx < W && ly < H && !lcd.get(lx, ly) {
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
    text(canvas, &details, 12, y + 50, small);
    let progress = match readout {
        Readout::Fighters(f) if f.frames > 0 => format!("  frame {}/{}", f.tick, f.frames),
        _ => String::new(),
    };
    text(
        canvas,
        &format!(
            "tick {}  t={}s{progress}  {}",
            view.tick,
            num(f64::from(view.tick) / f64::from(overlay.tick_hz.max(1)), 2),
            overlay.status
        ),
        12,
        y + 64,
        dim,
    );
    text(
        canvas,
        &overlay.hint,
        12,
        top + PANEL_HEIGHT as i64 - 26,
        dim,
    );
    // Speed strip on the right half.
    let gx = w / 2 + 40;
    let gw = w - gx - 12;
    let gy = top + 10;
    let gh = PANEL_HEIGHT as i64 - 20;
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

/// A hand-made view of the demo scene (fixed numbers, independent of the simulation): used by
/// the golden rendering test, and handy to look at the renderer alone.
pub fn sample_view() -> DemoView {
    use hopkit::demo::view::{BodyView, CritterView, GhostView, RampView};
    use hopkit::math::Vec3;
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
