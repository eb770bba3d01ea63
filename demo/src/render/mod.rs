//! Drawing one demo frame on the handheld's 128×64 monochrome display.
//!
//! This is the **one** drawing routine of the demo: the firmware calls [`draw_frame`] with its
//! SSD1306 frame buffer, `hopkit-sim` calls it with an in-memory 1-bit buffer that it scales up in
//! a desktop window (and adds desktop-only overlays on top, using [`Viewport`] to place them).
//!
//! `no_std`, no allocation, no panics: every world coordinate goes through [`Viewport`], which
//! rejects non-finite values and clamps screen coordinates to a small margin around the display, so a
//! NaN or a body a million units away never turns into a huge line or an overflow.
//!
//! ## Layout
//! ```text
//! +------------------------------------------------------------+
//! | 12.3  [=======|====      ]  x1.6                      /   |  HUD (8 px): speed, speed bar with
//! +------------------------------------------------------------+  the ground-max tick, ratio, tilt
//! |  .       .       .      +------+       .        .         |
//! |          o  ' ' ' ' ' ' |//////|   <|                     |  top-down playfield, camera on the
//! |  .       .   @-   .     |//////|        .       (x)       |  player; forward (−Z) is up
//! ```
//! - player: a disc with a dark halo and a heading line, filled on the ground, a ring with a dot in
//!   the air, drawn a little larger while it stands tilted on a slope; the HUD shows the tilt as a leaning stroke;
//! - companion: a ring with a stroke for where its head looks; its breadcrumb trail as 2×2 dots;
//! - critters: small rings (filled once arrived) and a `×` on their arrival target;
//! - ghost fighters: filled arrow-head triangles along their heading, a dashed tracer while firing,
//!   a dot on the display edge when off screen;
//! - ramps: an outline with dotted contour stripes across the uphill direction;
//! - the level's features: the pool (waves), the tower (a block with an inner outline) with its
//!   ladder (a small box on its face), the turntable (a ring of dots with a spoke that turns);
//! - the arena border and a sparse dot grid (so that scrolling shows motion).
//!
//! ## Integers where the display is reached
//! On a Cortex-M0 every `f32` operation is a software routine (≈ 50–100 instructions; a `sqrt` ≈ 850,
//! a `sin_cos` ≈ 3,400), so the per-point arithmetic is done in fixed point:
//! - world → display: positions and the camera as Q16.16, the scale as Q8.24, one integer
//!   multiply per axis (`Screen`);
//! - heading strokes and the ghosts' arrow heads: a unit direction as Q16.16 times a whole pixel
//!   length, with no normalisation (the direction is checked to be unit within 2⁻¹⁴);
//! - the companion's look direction and the HUD tilt gauge: sine and cosine from a quarter-wave
//!   table with linear interpolation (`sin_cos_turns`, error < 1.2e-4).
//!
//! Each of these results is rounded to a whole pixel. The integer value is within 2⁻⁹ px of what
//! the `f32` formula gives (the error bounds are worked out next to each one); when it lies within
//! `TIE_MARGIN` (2⁻⁸ px) of a half pixel, where the two could round differently, or is outside
//! the fixed-point range, the pixel is computed with the original `f32` formula instead. The
//! picture is therefore exactly the one the `f32` renderer draws (tested against it, kept as
//! `reference.rs`, over the scripted demo and random views); the float path runs for < 1 % of the
//! coordinates.
//!
//! ## Files
//! By what they draw: `field.rs` the ground (grid, arena border, ramps, the level's features),
//! `sprites.rs` the bodies on it, `hud.rs` the status line (with `text.rs`, its font blitter);
//! under them `shapes.rs` (the playfield target and the primitives: lines, triangles, circles,
//! rectangle outlines) and `fixed.rs` (the fixed-point transforms and sine table). This file holds
//! the frame's order ([`draw_frame`]) and the [`Viewport`]; `reference.rs` is the plain `f32`
//! renderer beside it (the tests' oracle, and the WASM-4 cart's renderer); `tests.rs` compares the
//! two over whole frames.

// With the `f32-render` feature the fixed-point renderer below is compiled but not called.
#![cfg_attr(feature = "f32-render", allow(dead_code))]

use crate::level::Zone;
use crate::view::{DemoView, DISPLAY_HEIGHT, DISPLAY_WIDTH};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use hopkit::math::scalar::{round, sin_cos};
use hopkit::math::Vec2;

// The parts of the frame (see "Files" above).
mod field;
mod fixed;
mod hud;
mod shapes;
mod sprites;
#[cfg(test)]
mod tests;

#[cfg(all(not(feature = "f32-render"), feature = "level-features"))]
use field::draw_features;
pub(crate) use shapes::clip_span;
#[cfg(not(feature = "f32-render"))]
use {
    field::{draw_arena, draw_grid, draw_ramp},
    fixed::Screen,
    hud::draw_hud,
    shapes::Field,
    sprites::{draw_companion, draw_critter, draw_crumb, draw_ghost, draw_player},
};

#[cfg(any(test, feature = "f32-render"))]
mod reference;
#[cfg(feature = "level-solids")]
mod solids;
pub mod text;

/// Display width in pixels (as `i32`).
pub const WIDTH: i32 = DISPLAY_WIDTH as i32;
/// Display height in pixels (as `i32`).
pub const HEIGHT: i32 = DISPLAY_HEIGHT as i32;
/// Height of the status line at the top, pixels (the playfield starts below it).
pub const HUD_HEIGHT: i32 = 8;
/// Height of the playfield, pixels.
pub const FIELD_HEIGHT: i32 = HEIGHT - HUD_HEIGHT;
/// How much of the arena's depth (Z extent) the playfield shows at once (`0.4` = 40 %).
pub const VIEW_DEPTH_FRACTION: f32 = 0.4;
/// World-units-per-pixel fallback used when the view's arena size is missing or not finite.
pub const FALLBACK_PIXELS_PER_UNIT: f32 = 1.0;
/// Screen coordinates are clamped to this many pixels outside the display (keeps lines short).
pub const CLIP_MARGIN: i32 = 16;
/// Target spacing of the background dot grid, pixels (rounded to a whole number of world units).
pub const GRID_SPACING_PX: f32 = 16.0;
/// The speed bar's full scale, in multiples of the ground max speed.
pub const SPEED_BAR_FULL_SCALE: f32 = 3.0;

/// Maps world positions `(x, z)` to display pixels for one view: the camera point sits in the middle
/// of the playfield, world −Z is up on the display, world +X is right.
///
/// Desktop overlays reuse it at a larger scale: `to_display` returns fractional display pixels,
/// which multiply by the window's integer zoom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Camera point `(x, z)` in world units.
    pub camera: Vec2,
    /// Display pixels per world unit.
    pub pixels_per_unit: f32,
}

impl Viewport {
    /// The viewport [`draw_frame`] uses for `view`: the camera from the view, and a scale that shows
    /// [`VIEW_DEPTH_FRACTION`] of the arena's depth in the playfield's height.
    pub fn for_view(view: &DemoView) -> Self {
        let depth = 2.0 * view.arena_half_extent.y * VIEW_DEPTH_FRACTION;
        let pixels_per_unit = if depth.is_finite() && depth > 1.0e-3 {
            FIELD_HEIGHT as f32 / depth
        } else {
            FALLBACK_PIXELS_PER_UNIT
        };
        let camera = if view.camera.is_finite() {
            view.camera
        } else {
            Vec2::ZERO
        };
        Viewport {
            camera,
            pixels_per_unit,
        }
    }

    /// Fractional display pixel of world point `p = (x, z)`, or `None` if it is not finite.
    pub fn to_display(&self, p: Vec2) -> Option<(f32, f32)> {
        let sx = WIDTH as f32 * 0.5 + (p.x - self.camera.x) * self.pixels_per_unit;
        let sy = HUD_HEIGHT as f32
            + FIELD_HEIGHT as f32 * 0.5
            + (p.y - self.camera.y) * self.pixels_per_unit;
        if sx.is_finite() && sy.is_finite() {
            Some((sx, sy))
        } else {
            None
        }
    }

    /// Whole display pixel of world point `p`, clamped to [`CLIP_MARGIN`] around the display,
    /// or `None` if it is not finite.
    pub fn to_point(&self, p: Vec2) -> Option<Point> {
        let (sx, sy) = self.to_display(p)?;
        Some(Point::new(clamp_px(sx, WIDTH), clamp_px(sy, HEIGHT)))
    }

    /// A world rectangle around the camera that holds everything the playfield shows, with 2 px
    /// to spare on each side (all of the world when the scale is not usable): a shape wholly
    /// outside it has no pixel on the display.
    #[cfg_attr(
        not(any(feature = "level-features", feature = "level-solids")),
        allow(dead_code)
    )]
    pub fn seen(&self) -> Zone {
        let s = self.pixels_per_unit;
        if !(s > 1.0e-6 && s <= f32::MAX && self.camera.is_finite()) {
            let m = f32::MAX;
            return Zone {
                min: Vec2::new(-m, -m),
                max: Vec2::new(m, m),
            };
        }
        let unit = 1.0 / s;
        let half = Vec2::new(
            (WIDTH as f32 * 0.5 + 2.0) * unit,
            (FIELD_HEIGHT as f32 * 0.5 + 2.0) * unit,
        );
        Zone {
            min: self.camera - half,
            max: self.camera + half,
        }
    }

    /// True if world point `p` lands inside the playfield (with `margin` extra pixels).
    pub fn in_field(&self, p: Vec2, margin: i32) -> bool {
        match self.to_display(p) {
            Some((x, y)) => {
                let m = margin as f32;
                x >= -m
                    && x < WIDTH as f32 + m
                    && y >= HUD_HEIGHT as f32 - m
                    && y < HEIGHT as f32 + m
            }
            None => false,
        }
    }

    /// World length `len` in pixels, at least `min`, at most `max`.
    pub fn length_px(&self, len: f32, min: i32, max: i32) -> i32 {
        let px = round(len * self.pixels_per_unit);
        if !px.is_finite() || px < min as f32 {
            min
        } else if px > max as f32 {
            max
        } else {
            px as i32
        }
    }
}

fn clamp_px(v: f32, size: i32) -> i32 {
    let lo = -CLIP_MARGIN as f32;
    let hi = (size + CLIP_MARGIN) as f32;
    let r = round(v);
    if r < lo {
        -CLIP_MARGIN
    } else if r > hi {
        size + CLIP_MARGIN
    } else {
        r as i32
    }
}

/// Draw the whole frame for `view` into `target` (cleared first). `target` is expected to be the
/// 128×64 display; pixels outside it are the target's business (embedded-graphics targets clip).
pub fn draw_frame<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    target: &mut D,
) -> Result<(), D::Error> {
    #[cfg(feature = "f32-render")]
    {
        reference::draw_frame(view, target)
    }
    #[cfg(not(feature = "f32-render"))]
    {
        target.clear(BinaryColor::Off)?;
        // The solids first, then the rest (`draw_frame_fixed`): the same pixels as drawn in the
        // reference's order (after the features), since nothing drawn between them clears a
        // pixel (tested against the reference). Kept out of `draw_frame_fixed`: a call in its
        // body changed how the other levels' drawing is inlined (the RP2040's full-level draw
        // took ≈ 10 % longer).
        #[cfg(feature = "level-solids")]
        if view.solids {
            draw_solids_fixed(view, target)?;
        }
        draw_frame_fixed(view, target)
    }
}

/// The level of solids' blocks for `view`, in the fixed-point renderer.
#[cfg(all(feature = "level-solids", not(feature = "f32-render")))]
#[inline(never)]
fn draw_solids_fixed<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    target: &mut D,
) -> Result<(), D::Error> {
    let vp = Screen::new(Viewport::for_view(view));
    let near = vp.near();
    let seen = match near.seen_q16() {
        Some(q) => solids::Seen::Q16(q),
        None => solids::Seen::Zone(vp.vp.seen()),
    };
    solids::draw_solids(&seen, |k| near.to_point(k), &mut Field { target })
}

/// Everything but the solids, into the cleared `target`.
#[cfg(not(feature = "f32-render"))]
fn draw_frame_fixed<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    target: &mut D,
) -> Result<(), D::Error> {
    let vp = Screen::new(Viewport::for_view(view));
    let mut field = Field { target };
    draw_grid(view, &vp, &mut field)?;
    draw_arena(view, &vp, &mut field)?;
    for ramp in view.ramps.iter() {
        draw_ramp(ramp, &vp, &mut field)?;
    }
    // Only builds whose level has the features draw them (no code otherwise: the WASM-4 cart).
    #[cfg(feature = "level-features")]
    if let Some(f) = &view.features {
        draw_features(
            f,
            &vp.vp.seen(),
            vp.vp.pixels_per_unit,
            |p| vp.to_point(p),
            &mut field,
        )?;
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

/// `v` if it is finite and positive, else 0.
fn finite_nonneg(v: f32) -> f32 {
    if v.is_finite() && v > 0.0 {
        v
    } else {
        0.0
    }
}

/// `v` truncated to an integer in `lo..=hi` (NaN → `lo`).
fn clamp_i(v: f32, lo: i32, hi: i32) -> i32 {
    if v.is_nan() || v < lo as f32 {
        lo
    } else if v > hi as f32 {
        hi
    } else {
        v as i32
    }
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
    let x = round(d.x * len);
    let y = round(d.y * len);
    if !(x.is_finite() && y.is_finite()) {
        return None;
    }
    Some(Point::new(p.x + x as i32, p.y + y as i32))
}
