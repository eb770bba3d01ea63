//! The bodies on the playfield, drawn over the ground ([`super::field`]) in this order: the
//! companion's breadcrumbs, the critters with their targets, the companion, the ghost fighters and
//! the player last (on top).

use super::fixed::{
    offset_px, round_q16, sin_cos_turns, turns_q24, Axis, Dir, Screen, TURNS_PER_RAD_Q40,
};
use super::shapes::{circle, fill_triangle, thin_line};
use super::{offset, rotate, CLIP_MARGIN, HEIGHT, HUD_HEIGHT, WIDTH};
use crate::view::{BodyView, CritterView, DemoView, GhostView};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Line, Rectangle};
use hopkit::math::scalar::round;
use hopkit::math::Vec2;

pub(super) fn draw_crumb<D: DrawTarget<Color = BinaryColor>>(
    crumb: Vec2,
    vp: &Screen,
    target: &mut D,
) -> Result<(), D::Error> {
    match vp.to_point(crumb) {
        // What the styled filled rectangle does: one `fill_solid`.
        Some(p) => target.fill_solid(&Rectangle::new(p, Size::new(2, 2)), BinaryColor::On),
        None => Ok(()),
    }
}

pub(super) fn draw_critter<D: DrawTarget<Color = BinaryColor>>(
    critter: &CritterView,
    vp: &Screen,
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

pub(super) fn draw_companion<D: DrawTarget<Color = BinaryColor>>(
    body: &BodyView,
    head_yaw: f32,
    vp: &Screen,
    target: &mut D,
) -> Result<(), D::Error> {
    let Some(p) = vp.to_point(body.position.planar()) else {
        return Ok(());
    };
    circle(p, 7, None, target)?;
    // Head direction: the body heading turned by the head yaw (positive = left = counter-clockwise
    // seen from above, which on this display, with −Z up, is counter-clockwise too).
    if let Some(tip) = look_tip(p, body.heading, head_yaw, 5) {
        thin_line(Line::new(p, tip), target)?;
    }
    Ok(())
}

/// `offset(p, rotate(heading, yaw), len)`, with the rotation from [`sin_cos_turns`] when `heading`
/// is a unit [`Dir`]: the rotated Q16 direction is off the `f32` one by < 2·1.2e-4 (sine and cosine)
/// + 1e-4 (`heading`'s own bound, [`Dir`]) per component, < 1.8e-3 px at `len` 5.
fn look_tip(p: Point, heading: Vec2, yaw: f32, len: i32) -> Option<Point> {
    let h = Dir::new(heading);
    if let (Some((hx, hy)), Some(t)) = (h.q, turns_q24(yaw, TURNS_PER_RAD_Q40)) {
        let (s, c) = sin_cos_turns(t);
        let (hx, hy, s, c) = (i64::from(hx), i64::from(hy), i64::from(s), i64::from(c));
        let k = i64::from(len);
        // Q16 · Q15 >> 15 = Q16, times the length.
        let lx = ((hx * c + hy * s) >> 15) * k;
        let ly = ((-hx * s + hy * c) >> 15) * k;
        if let (Some(dx), Some(dy)) = (round_q16(lx), round_q16(ly)) {
            return Some(Point::new(p.x + dx, p.y + dy));
        }
    }
    offset(p, rotate(heading, yaw), len as f32)
}

pub(super) fn draw_ghost<D: DrawTarget<Color = BinaryColor>>(
    ghost: &GhostView,
    vp: &Screen,
    target: &mut D,
) -> Result<(), D::Error> {
    let pos = ghost.body.position.planar();
    // Transformed once for the in-field test, the marker or the point.
    let (xq, yq) = (vp.axis_q16(pos.x, Axis::X), vp.axis_q16(pos.y, Axis::Y));
    if !vp.in_field_q(pos, xq, yq, 2) {
        // Off screen: a 2×2 marker on the display edge towards it.
        if let (Some(mx), Some(my)) = (
            vp.pixel_q(xq, pos.x, Axis::X, 0, WIDTH - 2),
            vp.pixel_q(yq, pos.y, Axis::Y, HUD_HEIGHT, HEIGHT - 2),
        ) {
            target.fill_solid(
                &Rectangle::new(Point::new(mx, my), Size::new(2, 2)),
                BinaryColor::On,
            )?;
        }
        return Ok(());
    }
    let (Some(x), Some(y)) = (
        vp.pixel_q(xq, pos.x, Axis::X, -CLIP_MARGIN, WIDTH + CLIP_MARGIN),
        vp.pixel_q(yq, pos.y, Axis::Y, -CLIP_MARGIN, HEIGHT + CLIP_MARGIN),
    ) else {
        return Ok(());
    };
    let p = Point::new(x, y);
    let fwd = Dir::with(ghost.body.heading, true);
    // `fwd` is unit already, so `normalize(fwd)` is `fwd` (see `Dir`); the arrow head's back
    // corners −3·fwd ± 4·side are within 7 × 7e-5 px of the `f32` ones. Unit: |fx|, |fy| < 2¹⁷,
    // so these fit `i32`.
    let q = fwd.q.map(|(fx, fy)| {
        [
            -3 * fx - 4 * fy,
            -3 * fy + 4 * fx,
            -3 * fx + 4 * fy,
            -3 * fy - 4 * fx,
        ]
    });
    // A coordinate near a half pixel (or every one, without a unit `fwd`) takes the `f32`
    // formula, with the normalised heading computed once, only then.
    let mut f32_fwd = None;
    let mut c = [0i32; 4];
    for (i, c) in c.iter_mut().enumerate() {
        *c = match q.and_then(|q| round_q16(i64::from(q.get(i).copied().unwrap_or(0)))) {
            Some(r) => r,
            None => {
                let f = *f32_fwd.get_or_insert_with(|| {
                    ghost
                        .body
                        .heading
                        .try_normalize()
                        .unwrap_or(Vec2::new(0.0, -1.0))
                });
                arrow_corner_f32(f, i)
            }
        };
    }
    let corners = offset_px(p, &fwd, 5).map(|nose| {
        (
            nose,
            Point::new(p.x + c[0], p.y + c[1]),
            Point::new(p.x + c[2], p.y + c[3]),
        )
    });
    let Some((nose, l, r)) = corners else {
        return Ok(());
    };
    fill_triangle(nose, l, r, target)?;
    if ghost.firing {
        // A dashed tracer ahead of the nose.
        for (from, to) in [(8, 10), (13, 15), (18, 20)] {
            if let (Some(a), Some(b)) = (offset_px(p, &fwd, from), offset_px(p, &fwd, to)) {
                thin_line(Line::new(a, b), target)?;
            }
        }
    }
    Ok(())
}

/// Coordinate `i` (left x, left y, right x, right y) of the arrow head's back corners for the
/// normalised heading `fwd` (`(0, −1)` if the heading has none), rounded: the `f32` renderer's
/// `offset_xy(p, −fwd·3 ± side·4)` (`fwd` is finite, so is the value).
fn arrow_corner_f32(fwd: Vec2, i: usize) -> i32 {
    let side = Vec2::new(-fwd.y, fwd.x);
    let v = match i {
        0 => -fwd.x * 3.0 + side.x * 4.0,
        1 => -fwd.y * 3.0 + side.y * 4.0,
        2 => -fwd.x * 3.0 - side.x * 4.0,
        _ => -fwd.y * 3.0 - side.y * 4.0,
    };
    round(v) as i32
}

pub(super) fn draw_player<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    vp: &Screen,
    target: &mut D,
) -> Result<(), D::Error> {
    let body = &view.player;
    let Some(p) = vp.to_point(body.position.planar()) else {
        return Ok(());
    };
    let tilted = view.player_tilt_deg.is_finite() && view.player_tilt_deg.abs() >= 2.0;
    let d: i32 = if tilted { 11 } else { 9 };
    // A dark halo first so the player stays readable on top of stripes, crumbs and critters.
    circle(p, d + 4, Some(BinaryColor::Off), target)?;
    if view.player_grounded {
        circle(p, d, Some(BinaryColor::On), target)?;
    } else {
        // Airborne: a ring with a centre dot (the hop rhythm shows as blinking).
        circle(p, d, None, target)?;
        circle(p, 3, Some(BinaryColor::On), target)?;
    }
    let heading = Dir::new(body.heading);
    if let (Some(a), Some(tip)) = (
        offset_px(p, &heading, d / 2 + 2),
        offset_px(p, &heading, d / 2 + 6),
    ) {
        thin_line(Line::new(a, tip), target)?;
    }
    Ok(())
}
