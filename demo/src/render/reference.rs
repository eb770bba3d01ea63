//! The plain `f32` renderer, as it was before the integer fast paths (commit 09cb252): the tests'
//! oracle — [`draw_frame`] here must draw exactly the pixels of the fixed-point `super::draw_frame`
//! for every view (checked in `super::tests` over the scripted demo and random views) — and, with
//! the `f32-render` feature, the renderer itself (smaller code; for targets with hardware float,
//! such as the WASM-4 cart). It shares the constants and the `Viewport` with the fixed-point one.
#![allow(dead_code, clippy::all)]

use crate::view::{BodyView, CritterView, DemoView, GhostView, RampView};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Line, PrimitiveStyle, Rectangle};
use hopkit::math::scalar::{round, sin_cos};
use hopkit::math::Vec2;

use super::text;

// Circles: the fixed-point renderer's `circle`, which draws exactly embedded-graphics' styled
// `Circle::with_center` (the same `fill_solid` calls in the same order, tested against
// embedded-graphics itself for every diameter drawn here: `circles_are_embedded_graphics_circles_
// call_for_call`), in ≈ 1 KB less code than embedded-graphics' generic circle iterators.
use super::hud::{format_ratio, format_speed};
use super::shapes::{circle, stroke_rect, Field};
use super::{
    clamp_i, finite_nonneg, Viewport, FIELD_HEIGHT, GRID_SPACING_PX, HEIGHT, HUD_HEIGHT,
    SPEED_BAR_FULL_SCALE, WIDTH,
};

/// Draw the whole frame for `view` into `target` (cleared first). `target` is expected to be the
/// 128×64 display; pixels outside it are the target's business (embedded-graphics targets clip).
pub fn draw_frame<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    target: &mut D,
) -> Result<(), D::Error> {
    target.clear(BinaryColor::Off)?;
    let vp = Viewport::for_view(view);
    // The playfield: `Field` is `target.clipped(playfield rectangle)`, the same calls and pixels
    // (tested against embedded-graphics' `Clipped`: `field_is_embedded_graphics_clipped_call_
    // for_call`), in less code.
    let mut field = Field { target };
    draw_grid(view, &vp, &mut field)?;
    draw_arena(view, &vp, &mut field)?;
    for ramp in view.ramps.iter() {
        draw_ramp(ramp, &vp, &mut field)?;
    }
    #[cfg(feature = "level-features")]
    if let Some(f) = &view.features {
        // The features have one drawing routine (from display points), shared with the
        // fixed-point renderer.
        super::field::draw_features(
            f,
            &vp.seen(),
            vp.pixels_per_unit,
            |p| vp.to_point(p),
            &mut field,
        )?;
    }
    #[cfg(feature = "level-solids")]
    if view.solids {
        let seen = super::solids::Seen::Zone(vp.seen());
        super::solids::draw_solids(&seen, |k| vp.to_point(k.p), &mut field)?;
    }
    for crumb in view.crumbs.iter() {
        draw_crumb(*crumb, &vp, &mut field)?;
    }
    for critter in view.critters.iter() {
        draw_critter(critter, &vp, &mut field)?;
    }
    draw_companion(&view.companion, view.companion_head_yaw, &vp, &mut field)?;
    for ghost in view.ghosts.iter() {
        draw_ghost(ghost, &vp, &mut field)?;
    }
    draw_player(view, &vp, &mut field)?;
    draw_hud(view, field.target)
}

fn stroke() -> PrimitiveStyle<BinaryColor> {
    PrimitiveStyle::with_stroke(BinaryColor::On, 1)
}

/// A 1-pixel line: embedded-graphics' Bresenham points (`Line::points`), the pixels a stroke of
/// width 1 draws, without the thick-line machinery (parallel offsets, joins) a styled line
/// links in (≈ 2 KB on Cortex-M). Tested pixel-identical to the styled line.
pub(super) fn thin_line<D: DrawTarget<Color = BinaryColor>>(
    line: Line,
    target: &mut D,
) -> Result<(), D::Error> {
    target.draw_iter(line.points().map(|p| Pixel(p, BinaryColor::On)))
}

/// A filled triangle: its three edges as 1-pixel lines plus every pixel whose centre lies inside
/// (or on) the triangle, from integer edge functions. Matches embedded-graphics' filled `Triangle`
/// up to single edge pixels (tested), without its scanline-intersection and thick-segment code
/// (≈ 3 KB on Cortex-M). Corners are display pixels, at most a few hundred apart (the viewport
/// clamps them); the edge functions use `i64`, so no input overflows.
pub(super) fn fill_triangle<D: DrawTarget<Color = BinaryColor>>(
    a: Point,
    b: Point,
    c: Point,
    target: &mut D,
) -> Result<(), D::Error> {
    fn edge(from: Point, to: Point, p: Point) -> i64 {
        i64::from(to.x - from.x) * i64::from(p.y - from.y)
            - i64::from(to.y - from.y) * i64::from(p.x - from.x)
    }
    // Counter-clockwise in the edge functions' sense, so "inside" is all three ≥ 0.
    let (b, c) = if edge(a, b, c) < 0 { (c, b) } else { (b, c) };
    let min = a.component_min(b).component_min(c);
    let max = a.component_max(b).component_max(c);
    let inside = (min.y..=max.y)
        .flat_map(move |y| (min.x..=max.x).map(move |x| Point::new(x, y)))
        .filter(move |&p| edge(a, b, p) >= 0 && edge(b, c, p) >= 0 && edge(c, a, p) >= 0)
        .map(|p| Pixel(p, BinaryColor::On));
    target.draw_iter(inside)?;
    thin_line(Line::new(a, b), target)?;
    thin_line(Line::new(b, c), target)?;
    thin_line(Line::new(c, a), target)
}

fn fill(color: BinaryColor) -> PrimitiveStyle<BinaryColor> {
    PrimitiveStyle::with_fill(color)
}

/// The sparse dot grid inside the arena, anchored to world coordinates so it scrolls with motion.
fn draw_grid<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    vp: &Viewport,
    target: &mut D,
) -> Result<(), D::Error> {
    let ppu = vp.pixels_per_unit;
    let step = round(GRID_SPACING_PX / ppu);
    if !step.is_finite() || step < 1.0 {
        return Ok(());
    }
    let half = view.arena_half_extent;
    if !half.is_finite() {
        return Ok(());
    }
    // First grid line at or left of the screen's left edge, as a multiple of `step`.
    let left = vp.camera.x - (WIDTH as f32 * 0.5) / ppu;
    let top = vp.camera.y - (FIELD_HEIGHT as f32 * 0.5) / ppu;
    let gx0 = round(left / step) - 1.0;
    let gy0 = round(top / step) - 1.0;
    let cols = (WIDTH as f32 / GRID_SPACING_PX) as i32 + 3;
    let rows = (FIELD_HEIGHT as f32 / GRID_SPACING_PX) as i32 + 3;
    for j in 0..rows {
        let wz = (gy0 + j as f32) * step;
        if wz <= -half.y || wz >= half.y {
            continue;
        }
        for i in 0..cols {
            let wx = (gx0 + i as f32) * step;
            if wx <= -half.x || wx >= half.x {
                continue;
            }
            if let Some(p) = vp.to_point(Vec2::new(wx, wz)) {
                Pixel(p, BinaryColor::On).draw(target)?;
            }
        }
    }
    Ok(())
}

fn draw_arena<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    vp: &Viewport,
    target: &mut D,
) -> Result<(), D::Error> {
    let h = view.arena_half_extent;
    let (Some(a), Some(b)) = (
        vp.to_point(Vec2::new(-h.x, -h.y)),
        vp.to_point(Vec2::new(h.x, h.y)),
    ) else {
        return Ok(());
    };
    stroke_rect(rect_between(a, b), target)
}

fn rect_between(a: Point, b: Point) -> Rectangle {
    let tl = Point::new(a.x.min(b.x), a.y.min(b.y));
    let w = (a.x - b.x).unsigned_abs() + 1;
    let h = (a.y - b.y).unsigned_abs() + 1;
    Rectangle::new(tl, Size::new(w, h))
}

/// A ramp: outline plus contour stripes every 3 px, running across the uphill direction.
fn draw_ramp<D: DrawTarget<Color = BinaryColor>>(
    ramp: &RampView,
    vp: &Viewport,
    target: &mut D,
) -> Result<(), D::Error> {
    let (Some(a), Some(b)) = (vp.to_point(ramp.min), vp.to_point(ramp.max)) else {
        return Ok(());
    };
    let r = rect_between(a, b);
    stroke_rect(r, target)?;
    let Some(br) = r.bottom_right() else {
        return Ok(());
    };
    let tl = r.top_left;
    // Uphill mostly along X → stripes are vertical lines (constant x), else horizontal. Stripes
    // are dotted (every other pixel) and 4 px apart, a light texture bodies stay readable on.
    let along_x = ramp.uphill.x.abs() >= ramp.uphill.y.abs();
    let (lo, hi) = if along_x { (tl.x, br.x) } else { (tl.y, br.y) };
    let (a0, a1) = if along_x { (tl.y, br.y) } else { (tl.x, br.x) };
    let mut s = lo + 2;
    while s < hi - 1 {
        let mut a = a0 + 2;
        while a < a1 - 1 {
            let p = if along_x {
                Point::new(s, a)
            } else {
                Point::new(a, s)
            };
            Pixel(p, BinaryColor::On).draw(target)?;
            a += 2;
        }
        s += 4;
    }
    Ok(())
}

fn draw_crumb<D: DrawTarget<Color = BinaryColor>>(
    crumb: Vec2,
    vp: &Viewport,
    target: &mut D,
) -> Result<(), D::Error> {
    match vp.to_point(crumb) {
        Some(p) => target.fill_solid(&Rectangle::new(p, Size::new(2, 2)), BinaryColor::On),
        None => Ok(()),
    }
}

fn draw_critter<D: DrawTarget<Color = BinaryColor>>(
    critter: &CritterView,
    vp: &Viewport,
    target: &mut D,
) -> Result<(), D::Error> {
    if let Some(t) = vp.to_point(critter.target) {
        let d = Point::new(2, 2);
        let e = Point::new(2, -2);
        thin_line(Line::new(t - d, t + d), target)?;
        thin_line(Line::new(t - e, t + e), target)?;
    }
    let Some(p) = vp.to_point(critter.body.position.planar()) else {
        return Ok(());
    };
    let style = critter.arrived.then_some(BinaryColor::On);
    circle(p, 5, style, target)
}

fn draw_companion<D: DrawTarget<Color = BinaryColor>>(
    body: &BodyView,
    head_yaw: f32,
    vp: &Viewport,
    target: &mut D,
) -> Result<(), D::Error> {
    let Some(p) = vp.to_point(body.position.planar()) else {
        return Ok(());
    };
    circle(p, 7, None, target)?;
    // Head direction: the body heading turned by the head yaw (positive = left = counter-clockwise
    // seen from above, which on this display, with −Z up, is counter-clockwise too).
    let look = rotate(body.heading, head_yaw);
    if let Some(tip) = offset(p, look, 5.0) {
        thin_line(Line::new(p, tip), target)?;
    }
    Ok(())
}

fn draw_ghost<D: DrawTarget<Color = BinaryColor>>(
    ghost: &GhostView,
    vp: &Viewport,
    target: &mut D,
) -> Result<(), D::Error> {
    let pos = ghost.body.position.planar();
    if !vp.in_field(pos, 2) {
        // Off screen: a 2×2 marker on the display edge towards it.
        if let Some((x, y)) = vp.to_display(pos) {
            let mx = clamp_i(round(x), 0, WIDTH - 2);
            let my = clamp_i(round(y), HUD_HEIGHT, HEIGHT - 2);
            target.fill_solid(
                &Rectangle::new(Point::new(mx, my), Size::new(2, 2)),
                BinaryColor::On,
            )?;
        }
        return Ok(());
    }
    let Some(p) = vp.to_point(pos) else {
        return Ok(());
    };
    let fwd = match ghost.body.heading.try_normalize() {
        Some(f) => f,
        None => Vec2::new(0.0, -1.0),
    };
    let side = Vec2::new(-fwd.y, fwd.x);
    let (Some(nose), Some(l), Some(r)) = (
        offset(p, fwd, 5.0),
        offset_xy(p, -fwd.x * 3.0 + side.x * 4.0, -fwd.y * 3.0 + side.y * 4.0),
        offset_xy(p, -fwd.x * 3.0 - side.x * 4.0, -fwd.y * 3.0 - side.y * 4.0),
    ) else {
        return Ok(());
    };
    fill_triangle(nose, l, r, target)?;
    if ghost.firing {
        // A dashed tracer ahead of the nose.
        for (from, to) in [(8.0, 10.0), (13.0, 15.0), (18.0, 20.0)] {
            if let (Some(a), Some(b)) = (offset(p, fwd, from), offset(p, fwd, to)) {
                thin_line(Line::new(a, b), target)?;
            }
        }
    }
    Ok(())
}

fn draw_player<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    vp: &Viewport,
    target: &mut D,
) -> Result<(), D::Error> {
    let body = &view.player;
    let Some(p) = vp.to_point(body.position.planar()) else {
        return Ok(());
    };
    let tilted = view.player_tilt_deg.is_finite() && view.player_tilt_deg.abs() >= 2.0;
    let d = if tilted { 11 } else { 9 };
    // A dark halo first so the player stays readable on top of stripes, crumbs and critters.
    circle(p, d + 4, Some(BinaryColor::Off), target)?;
    if view.player_grounded {
        circle(p, d, Some(BinaryColor::On), target)?;
    } else {
        // Airborne: a ring with a centre dot (the hop rhythm shows as blinking).
        circle(p, d, None, target)?;
        circle(p, 3, Some(BinaryColor::On), target)?;
    }
    if let (Some(a), Some(tip)) = (
        offset(p, body.heading, (d / 2 + 2) as f32),
        offset(p, body.heading, (d / 2 + 6) as f32),
    ) {
        thin_line(Line::new(a, tip), target)?;
    }
    Ok(())
}

/// The status line: speed (one decimal when speeds are small), a bar up to
/// [`SPEED_BAR_FULL_SCALE`]× ground max with a tick at ground max, the ratio to ground max,
/// and the player's tilt as a leaning stroke.
fn draw_hud<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    target: &mut D,
) -> Result<(), D::Error> {
    let speed = finite_nonneg(view.player.speed);
    let gmax = finite_nonneg(view.ground_max_speed);

    let mut buf = [0u8; 12];
    let s = format_speed(speed, gmax, &mut buf);
    text::draw_text(s, Point::new(1, 1), target)?;

    // Speed bar.
    let bar_x = 26;
    let bar_w = 62;
    stroke_rect(
        Rectangle::new(Point::new(bar_x, 1), Size::new(bar_w as u32, 5)),
        target,
    )?;
    if gmax > 0.0 {
        let full = gmax * SPEED_BAR_FULL_SCALE;
        let inner = bar_w - 2;
        let filled = clamp_i(round(speed / full * inner as f32), 0, inner);
        if filled > 0 {
            target.fill_solid(
                &Rectangle::new(Point::new(bar_x + 1, 2), Size::new(filled as u32, 3)),
                BinaryColor::On,
            )?;
        }
        // Ground-max tick (inverted where the bar is filled), sticking out above and below.
        let tick = bar_x + 1 + clamp_i(round(inner as f32 / SPEED_BAR_FULL_SCALE), 0, inner - 1);
        for y in 0..7 {
            let on = !(2..5).contains(&y) || filled < tick - bar_x;
            Pixel(Point::new(tick, y), BinaryColor::from(on)).draw(target)?;
        }
        // Ratio to ground max, "x1.6".
        let mut rbuf = [0u8; 8];
        let r = format_ratio(speed / gmax, &mut rbuf);
        text::draw_text(r, Point::new(bar_x + bar_w + 3, 1), target)?;
    }

    // Tilt gauge: a 6 px stroke leaning by the tilt angle, in the top-right corner.
    let tilt = if view.player_tilt_deg.is_finite() {
        view.player_tilt_deg
    } else {
        0.0
    };
    let base = Point::new(WIDTH - 5, 6);
    let (s, c) = sin_cos(tilt.to_radians());
    let tip = Point::new(
        base.x + round(s * 6.0) as i32,
        base.y - round(c * 6.0) as i32,
    );
    thin_line(Line::new(base, tip), target)?;
    thin_line(
        Line::new(Point::new(WIDTH - 9, 7), Point::new(WIDTH - 1, 7)),
        target,
    )?;
    // Separator under the HUD, dotted.
    let mut x = 0;
    while x < WIDTH {
        Pixel(Point::new(x, HUD_HEIGHT - 1), BinaryColor::On).draw(target)?;
        x += 2;
    }
    Ok(())
}

/// Rotate planar `v` by `angle` radians counter-clockwise seen from above (positive yaw = left).
fn rotate(v: Vec2, angle: f32) -> Vec2 {
    if !angle.is_finite() {
        return v;
    }
    // Planar (x, z) with yaw: forward(yaw) = (−sin yaw, −cos yaw); turning left by `a` maps
    // (x, z) → (x cos a + z sin a, −x sin a + z cos a).
    let (s, c) = sin_cos(angle);
    Vec2::new(v.x * c + v.y * s, -v.x * s + v.y * c)
}

/// `p` moved `len` pixels along planar direction `dir` (normalised here; zero → `None`).
fn offset(p: Point, dir: Vec2, len: f32) -> Option<Point> {
    let d = dir.try_normalize()?;
    offset_xy(p, d.x * len, d.y * len)
}

/// `p` moved by `(dx, dy)` pixels (rounded); `None` if not finite.
fn offset_xy(p: Point, dx: f32, dy: f32) -> Option<Point> {
    let x = round(dx);
    let y = round(dy);
    if !(x.is_finite() && y.is_finite()) {
        return None;
    }
    Some(Point::new(p.x + x as i32, p.y + y as i32))
}
