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

// With the `f32-render` feature the fixed-point renderer below is compiled but not called.
#![cfg_attr(feature = "f32-render", allow(dead_code))]

use crate::level::Zone;
use crate::view::{
    BodyView, CritterView, DemoView, FeatureView, GhostView, RampView, DISPLAY_HEIGHT,
    DISPLAY_WIDTH,
};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
#[cfg(test)]
use embedded_graphics::primitives::PrimitiveStyle;
use embedded_graphics::primitives::{Line, Rectangle};
use hopkit::math::scalar::{floor, round, sin_cos};
use hopkit::math::Vec2;

#[cfg(any(test, feature = "f32-render"))]
mod reference;
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
    #[cfg_attr(not(feature = "level-features"), allow(dead_code))]
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

/// How close (Q16.16 display pixels: 2⁻⁸ px) an integer result may come to a half pixel before the
/// pixel is taken from the `f32` formula instead. The integer results are within 2⁻⁹ px of the
/// `f32` ones (see [`Screen::axis_q16`], [`Dir`], [`sin_cos_turns`]), so outside this margin both
/// round to the same pixel.
const TIE_MARGIN: i64 = 1 << 8;

/// `v` as a fixed-point integer with `frac` fractional bits (`frac ≤ 30`), truncated toward zero
/// (error < 2^−frac), from the float's bits; `None` if `v` is not finite or `|v| ≥ 2^(30 − frac)`.
fn to_fixed(v: f32, frac: i32) -> Option<i32> {
    let b = v.to_bits();
    let exp = ((b >> 23) & 0xff) as i32;
    if exp == 0 {
        // ±0 and subnormals (< 2⁻¹²⁶): 0 at every precision used here.
        return Some(0);
    }
    // |v| = m · 2^(exp − 150) with m in [2²³, 2²⁴); the result is m · 2^(exp − 150 + frac).
    let shift = exp - 150 + frac;
    if shift > 6 {
        // |v| ≥ 2^(30 − frac), or inf/NaN (exp = 255).
        return None;
    }
    let m = (b & 0x007f_ffff) | 0x0080_0000;
    let mag = if shift >= 0 {
        m << shift
    } else if shift > -32 {
        m >> -shift
    } else {
        0
    } as i32;
    Some(if b & 0x8000_0000 != 0 { -mag } else { mag })
}

/// `round(s)` for `s` in Q16.16, or `None` if `s` is within [`TIE_MARGIN`] of a half integer.
fn round_q16(s: i64) -> Option<i32> {
    let t = s + (1 << 15);
    let frac = t & 0xffff;
    if !(TIE_MARGIN..=0x1_0000 - TIE_MARGIN).contains(&frac) {
        return None;
    }
    i32::try_from(t >> 16).ok()
}

/// `(a · b) >> 24` (floor) for `|a| < 2²⁴`, `b < 2²⁸`, from four 16-bit partial products: the
/// same value as the `i64` product, without the 64-bit multiply routine (≈ 100 instructions a call
/// on a Cortex-M0, which has a 32-bit multiplier only).
fn mul_shr24(a: i32, b: u32) -> i64 {
    let m = a.unsigned_abs();
    let (m1, m0) = (m >> 16, m & 0xffff);
    let (b1, b0) = (b >> 16, b & 0xffff);
    // Each partial product fits 32 bits; the sum (< 2⁵²) is assembled in u64 by shifts and adds.
    let p = (u64::from(m1 * b1) << 32)
        + (u64::from(m1 * b0) << 16)
        + (u64::from(m0 * b1) << 16)
        + u64::from(m0 * b0);
    if a < 0 {
        // floor(−p / 2²⁴) = −ceil(p / 2²⁴)
        -(((p + 0xff_ffff) >> 24) as i64)
    } else {
        (p >> 24) as i64
    }
}

/// The display axes, for [`Screen`].
#[derive(Clone, Copy)]
enum Axis {
    X,
    Y,
}

/// [`Viewport`] with the camera and the scale in fixed point, for the per-point transforms.
struct Screen {
    vp: Viewport,
    /// Camera `(x, z)` as Q16.16 (`None`: out of range, every point takes the `f32` path).
    cam: Option<(i32, i32)>,
    /// Pixels per unit as Q8.24, in `1..2²⁸` (below 16 px per unit), or 0 (no integer path).
    ppu_q24: i32,
}

impl Screen {
    fn new(vp: Viewport) -> Self {
        let cam = match (to_fixed(vp.camera.x, 16), to_fixed(vp.camera.y, 16)) {
            (Some(x), Some(y)) => Some((x, y)),
            _ => None,
        };
        let ppu_q24 = match to_fixed(vp.pixels_per_unit, 24) {
            Some(k) if k > 0 && k < 1 << 28 => k,
            _ => 0,
        };
        Screen { vp, cam, ppu_q24 }
    }

    /// The display coordinate of world coordinate `v` on `axis`, unrounded, as Q16.16, or `None`
    /// outside the integer path's range (then use [`Screen::axis_f32`]).
    ///
    /// Error against the `f32` formula `centre + (v − cam) · ppu` for the same inputs, with
    /// `|v − cam| < 256` units and `ppu < 16` (so `|(v − cam) · ppu| < 4096` px): truncating `v`
    /// and the camera to Q16 moves the result by < 2·2⁻¹⁶·16 = 2⁻¹¹ px, the Q24 scale by
    /// < 256·2⁻²⁴ = 2⁻¹⁶ px, the final shift by < 2⁻¹⁶ px; the three `f32` roundings of the formula
    /// add < 3·2⁻²⁴·4200 < 2⁻¹⁰ px. In all < 2⁻⁹ px.
    fn axis_q16(&self, v: f32, axis: Axis) -> Option<i64> {
        self.axis_q16_fixed(to_fixed(v, 16)?, axis)
    }

    /// [`Screen::axis_q16`] for a world coordinate already in Q16.16 (exactly `v`).
    fn axis_q16_fixed(&self, vq: i32, axis: Axis) -> Option<i64> {
        let (cx, cy) = self.cam?;
        if self.ppu_q24 == 0 {
            return None;
        }
        let (cam, centre) = match axis {
            Axis::X => (cx, WIDTH / 2),
            Axis::Y => (cy, HUD_HEIGHT + FIELD_HEIGHT / 2),
        };
        // Both in ±2³⁰, so the difference fits.
        let d = vq - cam;
        if d.unsigned_abs() >= 1 << 24 {
            return None;
        }
        Some((i64::from(centre) << 16) + mul_shr24(d, self.ppu_q24 as u32))
    }

    /// The `f32` formula of [`Viewport::to_display`] for one axis (`None` if not finite).
    fn axis_f32(&self, v: f32, axis: Axis) -> Option<f32> {
        let s = match axis {
            Axis::X => WIDTH as f32 * 0.5 + (v - self.vp.camera.x) * self.vp.pixels_per_unit,
            Axis::Y => {
                HUD_HEIGHT as f32
                    + FIELD_HEIGHT as f32 * 0.5
                    + (v - self.vp.camera.y) * self.vp.pixels_per_unit
            }
        };
        s.is_finite().then_some(s)
    }

    /// The whole display pixel of world coordinate `v` on `axis`, clamped to `lo..=hi` (what
    /// `clamp_px`/`clamp_i` of the rounded `f32` coordinate give), or `None` if that is not finite.
    fn pixel(&self, v: f32, axis: Axis, lo: i32, hi: i32) -> Option<i32> {
        self.pixel_q(self.axis_q16(v, axis), v, axis, lo, hi)
    }

    /// [`Screen::pixel`] with `q = self.axis_q16(v, axis)` already computed.
    fn pixel_q(&self, q: Option<i64>, v: f32, axis: Axis, lo: i32, hi: i32) -> Option<i32> {
        if let Some(r) = q.and_then(round_q16) {
            return Some(r.clamp(lo, hi));
        }
        self.axis_f32(v, axis).map(|s| clamp_i(round(s), lo, hi))
    }

    /// [`Screen::pixel`] for a whole world coordinate `w` with `|w| < 2¹⁴` (exactly `w as f32`).
    fn pixel_whole(&self, w: i32, axis: Axis, lo: i32, hi: i32) -> Option<i32> {
        if let Some(r) = self.axis_q16_fixed(w << 16, axis).and_then(round_q16) {
            return Some(r.clamp(lo, hi));
        }
        self.axis_f32(w as f32, axis)
            .map(|s| clamp_i(round(s), lo, hi))
    }

    /// [`Viewport::to_point`], computed in fixed point (same pixels).
    fn to_point(&self, p: Vec2) -> Option<Point> {
        let x = self.pixel(p.x, Axis::X, -CLIP_MARGIN, WIDTH + CLIP_MARGIN)?;
        let y = self.pixel(p.y, Axis::Y, -CLIP_MARGIN, HEIGHT + CLIP_MARGIN)?;
        Some(Point::new(x, y))
    }

    /// [`Viewport::in_field`], decided in fixed point unless a coordinate is within
    /// [`TIE_MARGIN`] of a bound.
    /// `x`, `y`: the point's [`Screen::axis_q16`] values.
    fn in_field_q(&self, p: Vec2, x: Option<i64>, y: Option<i64>, margin: i32) -> bool {
        let (Some(x), Some(y)) = (x, y) else {
            return self.vp.in_field(p, margin);
        };
        let m = i64::from(margin) << 16;
        let bounds = [
            (x, -m, (i64::from(WIDTH) << 16) + m),
            (
                y,
                (i64::from(HUD_HEIGHT) << 16) - m,
                (i64::from(HEIGHT) << 16) + m,
            ),
        ];
        let mut inside = true;
        for (v, lo, hi) in bounds {
            if (v - lo).abs() <= TIE_MARGIN || (v - hi).abs() <= TIE_MARGIN {
                return self.vp.in_field(p, margin);
            }
            inside &= v >= lo && v < hi;
        }
        inside
    }
}

/// A planar direction for pixel offsets: the `f32` vector, and its Q16.16 components when it is
/// unit length within 2⁻¹⁴ (measured on the Q16 values), which is what the scene's headings are.
///
/// Then `round(k · normalize(v))` is `round(k · q)` unless near a half pixel: `q` differs from
/// `normalize(v)` by < 2⁻¹⁶ (truncation) + 2⁻¹⁴·⁵ (|v|² measured from truncated components) ⁄ 2 +
/// 2⁻¹⁴ ⁄ 2 < 7e-5 per component, so for `k ≤ 20` (and the arrow head's 3·fwd ± 4·side, factor 7)
/// < 1.5e-3 px, well inside [`TIE_MARGIN`].
#[derive(Clone, Copy)]
struct Dir {
    v: Vec2,
    q: Option<(i32, i32)>,
    /// The `f32` formula this stands for normalises `v` first, `(0, −1)` if it cannot (the ghosts'
    /// `fwd`), before [`offset`] normalises it again.
    pre_normalize: bool,
}

impl Dir {
    fn new(v: Vec2) -> Self {
        Self::with(v, false)
    }

    fn with(v: Vec2, pre_normalize: bool) -> Self {
        let q = match (to_fixed(v.x, 16), to_fixed(v.y, 16)) {
            (Some(x), Some(y)) => {
                // Q32; both below 2³⁰, so no overflow.
                let l2 = i64::from(x) * i64::from(x) + i64::from(y) * i64::from(y);
                ((l2 - (1 << 32)).abs() <= 1 << 18).then_some((x, y))
            }
            _ => None,
        };
        Dir {
            v,
            q,
            pre_normalize,
        }
    }
}

/// `p` moved `len` whole pixels along `dir` (normalised): [`offset`], in integers when it can.
fn offset_px(p: Point, dir: &Dir, len: i32) -> Option<Point> {
    if let Some((x, y)) = dir.q {
        // A unit direction's Q16 components are below 2¹⁷: the products fit `i32` for any length
        // below 2¹³ (callers pass ≤ 20).
        let (lx, ly) = (x.wrapping_mul(len), y.wrapping_mul(len));
        if let (Some(dx), Some(dy)) = (round_q16(i64::from(lx)), round_q16(i64::from(ly))) {
            return Some(Point::new(p.x + dx, p.y + dy));
        }
    }
    let v = if dir.pre_normalize {
        dir.v.try_normalize().unwrap_or(Vec2::new(0.0, -1.0))
    } else {
        dir.v
    };
    offset(p, v, len as f32)
}

/// `sin(2π·i/256)` for `i` in `0..=64` in Q15 (1.0 = 32768): a quarter wave.
const SIN_Q15: [u16; 65] = [
    0, 804, 1608, 2411, 3212, 4011, 4808, 5602, 6393, 7180, 7962, 8740, 9512, 10279, 11039, 11793,
    12540, 13279, 14010, 14733, 15447, 16151, 16846, 17531, 18205, 18868, 19520, 20160, 20788,
    21403, 22006, 22595, 23170, 23732, 24279, 24812, 25330, 25833, 26320, 26791, 27246, 27684,
    28106, 28511, 28899, 29269, 29622, 29957, 30274, 30572, 30853, 31114, 31357, 31581, 31786,
    31972, 32138, 32286, 32413, 32522, 32610, 32679, 32729, 32758, 32768,
];

/// Turns as Q24 (one turn = 2²⁴) per radian, scaled by 2¹⁶ for Q16 input: `2⁴⁰ ⁄ 2π`.
const TURNS_PER_RAD_Q40: i64 = 174_992_710_548;
/// Turns as Q24 per degree, scaled by 2¹⁶ for Q16 input: `2⁴⁰ ⁄ 360`.
const TURNS_PER_DEG_Q40: i64 = 3_054_198_966;

/// `angle` (`f32`, in the unit given by `turns_per_unit_q40`) as a fraction of a turn in Q24
/// (wrapped to `0..2²⁴`), or `None` out of the fixed-point range (`|angle| ≥ 256`, not finite).
/// Error < 2⁻¹⁶ units (the Q16 input) + 2⁻²⁴ turns.
fn turns_q24(angle: f32, turns_per_unit_q40: i64) -> Option<u32> {
    let a = i64::from(to_fixed(angle, 16)?);
    if a.unsigned_abs() >= 1 << 24 {
        // ≥ 256 units: outside what the product below holds.
        return None;
    }
    // |a| < 2²⁴ and the factor < 2³⁸: the product fits.
    Some(((a * turns_per_unit_q40) >> 32) as u32 & 0x00ff_ffff)
}

/// Sine of a quarter-wave position `pos` in `0..=2²²` (= 0..π/2), Q15, by linear interpolation in
/// [`SIN_Q15`]: error ≤ (π/128)²/8 (interpolation) + 2⁻¹⁶ (table rounding) < 9e-5.
fn sin_quarter(pos: u32) -> i32 {
    let i = (pos >> 16) as usize;
    let f = (pos & 0xffff) as i32;
    let a = SIN_Q15.get(i).copied().map_or(0, i32::from);
    let b = SIN_Q15.get(i + 1).copied().map_or(a, i32::from);
    a + (((b - a) * f) >> 16)
}

/// `(sin, cos)` of `t` turns (Q24, see [`turns_q24`]) in Q15, error < 9e-5 plus the interpolation's
/// truncation (2⁻¹⁵) and the angle's own < 1.6e-5 from Q16: < 1.2e-4 in all (tested).
fn sin_cos_turns(t: u32) -> (i32, i32) {
    const Q: u32 = 1 << 22;
    let pos = t & (Q - 1);
    let (a, b) = (sin_quarter(pos), sin_quarter(Q - pos));
    match (t >> 22) & 3 {
        0 => (a, b),
        1 => (b, -a),
        2 => (-a, -b),
        _ => (-b, a),
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
    draw_frame_fixed(view, target)
}

#[cfg(not(feature = "f32-render"))]
fn draw_frame_fixed<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    target: &mut D,
) -> Result<(), D::Error> {
    target.clear(BinaryColor::Off)?;
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

/// The playfield part of the display (below the HUD) as a drawing target: what
/// `target.clipped(field rectangle)` does (same pixels, same order), with integer compares instead
/// of embedded-graphics' `Rectangle::intersection`/`contains` per call and per pixel.
struct Field<'a, D> {
    target: &'a mut D,
}

impl<D> Field<'_, D> {
    const AREA: Rectangle = Rectangle::new(
        Point::new(0, HUD_HEIGHT),
        Size::new(DISPLAY_WIDTH, FIELD_HEIGHT as u32),
    );

    fn inside(p: Point) -> bool {
        p.x >= 0 && p.x < WIDTH && p.y >= HUD_HEIGHT && p.y < HEIGHT
    }
}

impl<D> Dimensions for Field<'_, D> {
    fn bounding_box(&self) -> Rectangle {
        Self::AREA
    }
}

impl<D: DrawTarget<Color = BinaryColor>> DrawTarget for Field<'_, D> {
    type Color = BinaryColor;
    type Error = D::Error;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<BinaryColor>>,
    {
        if cfg!(feature = "f32-render") {
            // The code-size form (the WASM-4 cart): the target's `draw_iter` once per pixel
            // inside, one instance of it for all the pixel iterators drawn into the field (≈ 300
            // bytes of the cart); the same pixels in the same order.
            for p in pixels {
                if Self::inside(p.0) {
                    self.target.draw_iter(core::iter::once(p))?;
                }
            }
            Ok(())
        } else {
            self.target
                .draw_iter(pixels.into_iter().filter(|p| Self::inside(p.0)))
        }
    }

    fn fill_contiguous<I>(&mut self, area: &Rectangle, colors: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = BinaryColor>,
    {
        let whole =
            clip_span(area, 0, HUD_HEIGHT, WIDTH, HEIGHT).is_some_and(|(x0, y0, x1, y1)| {
                Point::new(x0, y0) == area.top_left
                    && Size::new(x1.abs_diff(x0), y1.abs_diff(y0)) == area.size
            });
        if whole {
            self.target.fill_contiguous(area, colors)
        } else {
            self.target.draw_iter(
                area.points()
                    .zip(colors)
                    .filter(|(p, _)| Self::inside(*p))
                    .map(|(p, c)| Pixel(p, c)),
            )
        }
    }

    fn fill_solid(&mut self, area: &Rectangle, color: BinaryColor) -> Result<(), Self::Error> {
        match clip_span(area, 0, HUD_HEIGHT, WIDTH, HEIGHT) {
            Some((x0, y0, x1, y1)) => {
                let size = Size::new(x1.abs_diff(x0), y1.abs_diff(y0));
                self.target
                    .fill_solid(&Rectangle::new(Point::new(x0, y0), size), color)
            }
            None => Ok(()),
        }
    }
}

/// `area ∩ [x0, x1) × [y0, y1)` as `(x0, y0, x1, y1)` (ends exclusive), `None` if empty.
#[inline]
pub(crate) fn clip_span(
    area: &Rectangle,
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
) -> Option<(i32, i32, i32, i32)> {
    // Saturating: a rectangle reaching past i32::MAX ends there, beyond any clip (and one from
    // far left or above with a size over i32::MAX still reaches it).
    let end = |start: i32, len: u32| start.saturating_add_unsigned(len);
    let (ax, ay) = (area.top_left.x, area.top_left.y);
    let (cx0, cy0) = (ax.max(x0), ay.max(y0));
    let (cx1, cy1) = (
        end(ax, area.size.width).min(x1),
        end(ay, area.size.height).min(y1),
    );
    (cx0 < cx1 && cy0 < cy1).then_some((cx0, cy0, cx1, cy1))
}

#[cfg(test)]
fn stroke() -> PrimitiveStyle<BinaryColor> {
    PrimitiveStyle::with_stroke(BinaryColor::On, 1)
}

/// A 1-pixel line: the points of embedded-graphics' `Line::points` (its Bresenham variant, same
/// error terms and tie-breaking, so the same pixels in the same order: tested), which are the
/// pixels a styled stroke of width 1 draws, without the thick-line machinery (parallel offsets,
/// joins) a styled line links in (≈ 2 KB on Cortex-M), nor its iterator state.
fn thin_line<D: DrawTarget<Color = BinaryColor>>(
    line: Line,
    target: &mut D,
) -> Result<(), D::Error> {
    let (dx, dy) = (
        line.end.x.wrapping_sub(line.start.x),
        line.end.y.wrapping_sub(line.start.y),
    );
    let (sx, sy) = (if dx >= 0 { 1 } else { -1 }, if dy >= 0 { 1 } else { -1 });
    let (ax, ay) = (dx.wrapping_abs(), dy.wrapping_abs());
    // Steps along the major and the minor axis; error threshold and increments as in
    // embedded-graphics' `BresenhamParameters`.
    let (major, minor, major_step, minor_step) = if ay >= ax {
        (ay, ax, Point::new(0, sy), Point::new(sx, 0))
    } else {
        (ax, ay, Point::new(sx, 0), Point::new(0, sy))
    };
    let (up, down) = (minor.wrapping_mul(2), major.wrapping_mul(2));
    let mut p = line.start;
    let mut error = 0i32;
    let points = (0..=major).map(move |_| {
        if error > major {
            p += minor_step;
            error = error.wrapping_sub(down);
        }
        let ret = p;
        p += major_step;
        error = error.wrapping_add(up);
        Pixel(ret, BinaryColor::On)
    });
    target.draw_iter(points)
}

/// A filled triangle: its three edges as 1-pixel lines plus every pixel whose centre lies inside
/// (or on) the triangle, from integer edge functions. Matches embedded-graphics' filled `Triangle`
/// up to single edge pixels (tested), without its scanline-intersection and thick-segment code
/// (≈ 3 KB on Cortex-M). Corners are display pixels, at most a few hundred apart (the viewport
/// clamps them to ±16 px around the display, so edge-function products stay below 2¹⁶ in `i32`).
fn fill_triangle<D: DrawTarget<Color = BinaryColor>>(
    a: Point,
    b: Point,
    c: Point,
    target: &mut D,
) -> Result<(), D::Error> {
    fn edge(from: Point, to: Point, p: Point) -> i32 {
        // Wrapping: callers pass display points (|coordinates| ≤ 144), where this is exact.
        (to.x - from.x)
            .wrapping_mul(p.y - from.y)
            .wrapping_sub((to.y - from.y).wrapping_mul(p.x - from.x))
    }
    // Counter-clockwise in the edge functions' sense, so "inside" is all three ≥ 0.
    let (b, c) = if edge(a, b, c) < 0 { (c, b) } else { (b, c) };
    let min = a.component_min(b).component_min(c);
    let max = a.component_max(b).component_max(c);
    // Row by row: the inside pixels of a row are one run (each edge function is linear along the
    // row, so each keeps one side of some column: the three sides intersect in an interval), drawn
    // as a 1-pixel-high rectangle, in the same top-to-bottom, left-to-right order as pixel by
    // pixel. The run is found from both ends, so only the outside pixels are tested. Edge functions
    // change by a constant per pixel along a row (`s*`) and per row (`r*`).
    let (sab, sbc, sca) = (a.y - b.y, b.y - c.y, c.y - a.y);
    let (rab, rbc, rca) = (b.x - a.x, c.x - b.x, a.x - c.x);
    let n = max.x - min.x;
    let origin = Point::new(min.x, min.y);
    let (mut l0, mut l1, mut l2) = (edge(a, b, origin), edge(b, c, origin), edge(c, a, origin));
    for y in min.y..=max.y {
        let (mut e0, mut e1, mut e2) = (l0, l1, l2);
        let mut x0 = min.x;
        while x0 <= max.x && (e0 | e1 | e2) < 0 {
            e0 = e0.wrapping_add(sab);
            e1 = e1.wrapping_add(sbc);
            e2 = e2.wrapping_add(sca);
            x0 += 1;
        }
        if x0 <= max.x {
            // The same functions at the row's right end, then leftwards to the run's last pixel
            // (at the latest x0, which is inside).
            let (mut f0, mut f1, mut f2) = (
                l0.wrapping_add(sab.wrapping_mul(n)),
                l1.wrapping_add(sbc.wrapping_mul(n)),
                l2.wrapping_add(sca.wrapping_mul(n)),
            );
            let mut x1 = max.x;
            while x1 > x0 && (f0 | f1 | f2) < 0 {
                f0 = f0.wrapping_sub(sab);
                f1 = f1.wrapping_sub(sbc);
                f2 = f2.wrapping_sub(sca);
                x1 -= 1;
            }
            let run = Rectangle::new(Point::new(x0, y), Size::new((x1 - x0 + 1) as u32, 1));
            target.fill_solid(&run, BinaryColor::On)?;
        }
        l0 = l0.wrapping_add(rab);
        l1 = l1.wrapping_add(rbc);
        l2 = l2.wrapping_add(rca);
    }
    thin_line(Line::new(a, b), target)?;
    thin_line(Line::new(b, c), target)?;
    thin_line(Line::new(c, a), target)
}

#[cfg(test)]
fn fill(color: BinaryColor) -> PrimitiveStyle<BinaryColor> {
    PrimitiveStyle::with_fill(color)
}

/// embedded-graphics' circle threshold: a pixel is inside a circle of diameter `d` if its squared
/// distance from the centre, in half pixels, is below this.
fn circle_threshold(d: i32) -> i32 {
    if d <= 4 {
        d * d - d / 2
    } else {
        d * d
    }
}

/// Half width of row `j` (rows `−r..=r` from the centre) of a circle with radius `r` and
/// [`circle_threshold`] `t`: the largest `w` with `(2w)² + (2j)² < t`, `None` if the row is empty.
fn circle_half_width(r: i32, j: i32, t: i32) -> Option<i32> {
    let mut w = r;
    while w >= 0 {
        if 4 * (w * w + j * j) < t {
            return Some(w);
        }
        w -= 1;
    }
    None
}

/// A circle of odd `d` around `c`, filled with `color` (`fill`) or a 1-pixel outline in `On`: the
/// scanlines embedded-graphics' styled `Circle::with_center(c, d)` draws, as the same
/// `fill_solid` calls in the same order (tested), without its generic iterators.
fn circle<D: DrawTarget<Color = BinaryColor>>(
    c: Point,
    d: i32,
    fill: Option<BinaryColor>,
    target: &mut D,
) -> Result<(), D::Error> {
    let r = (d - 1) / 2;
    let (t, t_in) = (circle_threshold(d), circle_threshold(d - 2));
    let span = |x0: i32, x1: i32, y: i32| {
        Rectangle::new(Point::new(x0, y), Size::new((x1 - x0) as u32, 1))
    };
    for j in -r..=r {
        let Some(w) = circle_half_width(r, j, t) else {
            continue;
        };
        let y = c.y + j;
        let (x0, x1) = (c.x - w, c.x + w + 1);
        match fill {
            Some(color) => target.fill_solid(&span(x0, x1, y), color)?,
            None => match circle_half_width(r, j, t_in) {
                // The inner circle (diameter d − 2) is the hole; the rest is stroke.
                Some(wi) => {
                    let (i0, i1) = (c.x - wi, c.x + wi + 1);
                    if i0 > x0 {
                        target.fill_solid(&span(x0, i0, y), BinaryColor::On)?;
                    }
                    if x1 > i1 {
                        target.fill_solid(&span(i1, x1, y), BinaryColor::On)?;
                    }
                }
                None => target.fill_solid(&span(x0, x1, y), BinaryColor::On)?,
            },
        }
    }
    Ok(())
}

/// The 1-pixel `On` outline of `r`: the `fill_solid` calls (top, bottom, then left and right
/// edges between them) that embedded-graphics' `r.into_styled(stroke of width 1)` makes, in the
/// same order (tested), without its generic styled-rectangle code.
fn stroke_rect<D: DrawTarget<Color = BinaryColor>>(
    r: Rectangle,
    target: &mut D,
) -> Result<(), D::Error> {
    let (parts, n) = stroke_rect_parts(r);
    for part in parts.iter().take(n) {
        target.fill_solid(part, BinaryColor::On)?;
    }
    Ok(())
}

/// [`stroke_rect`]'s rectangles (the first `n`), computed once for every drawing target.
#[inline(never)]
fn stroke_rect_parts(r: Rectangle) -> ([Rectangle; 4], usize) {
    let (
        tl,
        Size {
            width: w,
            height: h,
        },
    ) = (r.top_left, r.size);
    let top = h.min(1).min(h / 2);
    let bottom = h.min(1).min(h - top);
    let below = tl + Size::new(0, h.saturating_sub(bottom));
    let inner = h.saturating_sub(2);
    let side = Size::new(w.saturating_add(1).min(2) / 2, inner);
    let left = tl + Size::new(0, top);
    let right = left + Point::new(w.saturating_sub(side.width) as i32, 0);
    (
        [
            Rectangle::new(tl, Size::new(w, top)),
            Rectangle::new(below, Size::new(w, bottom)),
            Rectangle::new(left, side),
            Rectangle::new(right, side),
        ],
        if inner > 0 { 4 } else { 2 },
    )
}

/// The sparse dot grid inside the arena, anchored to world coordinates so it scrolls with motion.
fn draw_grid<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    vp: &Screen,
    target: &mut D,
) -> Result<(), D::Error> {
    let ppu = vp.vp.pixels_per_unit;
    let step = round(GRID_SPACING_PX / ppu);
    if !step.is_finite() || step < 1.0 {
        return Ok(());
    }
    let half = view.arena_half_extent;
    if !half.is_finite() {
        return Ok(());
    }
    // First grid line at or left of the screen's left edge, as a multiple of `step`.
    let left = vp.vp.camera.x - (WIDTH as f32 * 0.5) / ppu;
    let top = vp.vp.camera.y - (FIELD_HEIGHT as f32 * 0.5) / ppu;
    let gx0 = round(left / step) - 1.0;
    let gy0 = round(top / step) - 1.0;
    const COLS: usize = (WIDTH as f32 / GRID_SPACING_PX) as usize + 3;
    let rows = (FIELD_HEIGHT as f32 / GRID_SPACING_PX) as i32 + 3;
    let (gx, gy) = (
        GridAxis::new(gx0, step, half.x),
        GridAxis::new(gy0, step, half.y),
    );
    // A grid point's display x depends on its column only, y on its row only: transform each
    // column and row once (the same arithmetic per axis as `to_point`, so the same pixels).
    let mut xs = [None; COLS];
    for (i, x) in xs.iter_mut().enumerate() {
        *x = gx.pixel(vp, i as i32, Axis::X, WIDTH);
    }
    for j in 0..rows {
        let Some(y) = gy.pixel(vp, j, Axis::Y, HEIGHT) else {
            continue;
        };
        let row = xs
            .iter()
            .flatten()
            .map(|&x| Pixel(Point::new(x, y), BinaryColor::On));
        target.draw_iter(row)?;
    }
    Ok(())
}

/// One axis of the dot grid: lines at `(g0 + k) · step` world units, drawn strictly inside
/// `±half`. `g0` and `step` are whole numbers (`round` results); when they are small the lines'
/// coordinates are computed as integers (exactly the `f32` values, which are whole numbers below
/// 2²⁴) and compared with `floor(−half)` / `ceil(half)` (for a whole `w`, `w > −half` ⇔
/// `w > floor(−half)` and `w < half` ⇔ `w < ceil(half)`).
struct GridAxis {
    g0: f32,
    step: f32,
    half: f32,
    /// `(g0, step, floor(−half), ceil(half))` as integers, if `|g0|, step ≤ 2¹⁴`.
    ints: Option<(i32, i32, i32, i32)>,
}

impl GridAxis {
    fn new(g0: f32, step: f32, half: f32) -> Self {
        const LIMIT: f32 = (1 << 14) as f32;
        let ints = ((-LIMIT..=LIMIT).contains(&g0) && step <= LIMIT).then(|| {
            let below = floor(-half);
            // Saturating casts: a bound beyond i32 lets every line through, as the f32 compare.
            (g0 as i32, step as i32, below as i32, (-below) as i32)
        });
        GridAxis {
            g0,
            step,
            half,
            ints,
        }
    }

    /// The display pixel of line `g0 + k` on `axis` (clamped as `to_point` clamps), `None` if the
    /// line is not strictly inside the arena.
    fn pixel(&self, vp: &Screen, k: i32, axis: Axis, size: i32) -> Option<i32> {
        let (lo, hi) = (-CLIP_MARGIN, size + CLIP_MARGIN);
        if let Some((g0, step, below, above)) = self.ints {
            let w = (g0 + k) * step;
            if w.unsigned_abs() < 1 << 14 {
                return (w > below && w < above)
                    .then(|| vp.pixel_whole(w, axis, lo, hi))
                    .flatten();
            }
        }
        let w = (self.g0 + k as f32) * self.step;
        if w > -self.half && w < self.half {
            vp.pixel(w, axis, lo, hi)
        } else {
            None
        }
    }
}

fn draw_arena<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    vp: &Screen,
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

/// The level's features, drawn from display points only (`to_point`: the renderer's world →
/// display map; `ppu` its pixels per world unit, for the turntable's radius), so both renderers draw them with this one function and the same pixels:
/// - the pool: an outline filled with short dotted waves;
/// - the tower: an outline with a second one 2 px inside (a raised block), and its ladder as a
///   small box on the face;
/// - the turntable: a ring of 16 dots with the marked spoke from the centre (it turns with the
///   disc).
///
/// A feature wholly outside `seen` (the world rectangle around the camera that covers the
/// playfield with 2 px to spare, [`Viewport::seen`]) is skipped: it would draw nothing visible
/// (tested against drawing everything).
#[cfg_attr(not(feature = "level-features"), allow(dead_code))]
pub(crate) fn draw_features<D: DrawTarget<Color = BinaryColor>>(
    f: &FeatureView,
    seen: &Zone,
    ppu: f32,
    to_point: impl Fn(Vec2) -> Option<Point>,
    target: &mut D,
) -> Result<(), D::Error> {
    let apart = |z: &Zone| {
        !(z.max.x >= seen.min.x
            && z.min.x <= seen.max.x
            && z.max.y >= seen.min.y
            && z.min.y <= seen.max.y)
    };
    let pool = (!apart(&f.pool)).then_some(f.pool);
    if let Some((Some(a), Some(b))) = pool.map(|z| (to_point(z.min), to_point(z.max))) {
        let r = rect_between(a, b);
        stroke_rect(r, target)?;
        let (tl, br) = (r.top_left, a.component_max(b));
        // Waves: pairs of pixels, every 3rd row, shifted by 2 px row to row.
        let mut y = tl.y + 2;
        let mut shift = 0;
        while y < br.y - 1 {
            let mut x = tl.x + 2 + shift;
            while x < br.x - 1 {
                target.fill_solid(
                    &Rectangle::new(Point::new(x, y), Size::new(2, 1)),
                    BinaryColor::On,
                )?;
                x += 5;
            }
            y += 3;
            shift = 2 - shift;
        }
    }
    let tower = (!apart(&f.tower)).then_some((f.tower, f.ladder));
    let Some((tower, ladder)) = tower else {
        return draw_turntable(f, &apart, ppu, to_point, target);
    };
    if let (Some(a), Some(b)) = (to_point(tower.min), to_point(tower.max)) {
        let r = rect_between(a, b);
        stroke_rect(r, target)?;
        let (tl, br) = (r.top_left, a.component_max(b));
        if br.x - tl.x > 5 && br.y - tl.y > 5 {
            stroke_rect(
                rect_between(tl + Point::new(2, 2), br - Point::new(2, 2)),
                target,
            )?;
        }
    }
    if let (Some(a), Some(b)) = (to_point(ladder.min), to_point(ladder.max)) {
        let tl = a.component_min(b) - Point::new(1, 0);
        stroke_rect(rect_between(tl, a.component_max(b)), target)?;
    }
    draw_turntable(f, &apart, ppu, to_point, target)
}

/// [`draw_features`]' turntable.
#[cfg_attr(not(feature = "level-features"), allow(dead_code))]
fn draw_turntable<D: DrawTarget<Color = BinaryColor>>(
    f: &FeatureView,
    apart: &impl Fn(&Zone) -> bool,
    ppu: f32,
    to_point: impl Fn(Vec2) -> Option<Point>,
    target: &mut D,
) -> Result<(), D::Error> {
    let c = f.turntable_center;
    let r = f.turntable_radius;
    let bounds = Zone {
        min: c - Vec2::new(r, r),
        max: c + Vec2::new(r, r),
    };
    if apart(&bounds) {
        return Ok(());
    }
    let Some(centre) = to_point(c) else {
        return Ok(());
    };
    // The disc's rim: 16 dots on the circle through the point `r` east of the centre (a dotted
    // ring: a full circle outline cost the RP2040 handheld's worst frame ≈ 13,000 cycles of its
    // 350,000). Offsets from the quarter-wave table, integers only; the radius is at most the
    // display's width (the viewport clamps points to a margin around it).
    // (One display point: a second `to_point` for the rim cost the RP2040's worst frame ≈ 5,000
    // cycles.) `r · ppu` is finite and positive for any view `seen` lets through.
    let r_px = clamp_px(r * ppu, DISPLAY_WIDTH as i32).clamp(0, DISPLAY_WIDTH as i32);
    let q15 = |v: i32| (v * r_px + (1 << 14)) >> 15;
    for k in 0..16u32 {
        let (sin, cos) = sin_cos_turns(k << 20);
        let dot = centre + Point::new(q15(cos), -q15(sin));
        target.fill_solid(&Rectangle::new(dot, Size::new(1, 1)), BinaryColor::On)?;
    }
    // The spoke from the same table (no float trigonometry per frame; on the soft-float CPUs a
    // `sin_cos` is thousands of instructions): `(cos a, −sin a)` times the radius.
    if let Some(t) = turns_q24(f.turntable_angle, TURNS_PER_RAD_Q40) {
        let (sin, cos) = sin_cos_turns(t);
        let rim = centre + Point::new(q15(cos), -q15(sin));
        thin_line(Line::new(centre, rim), target)?;
    }
    Ok(())
}

/// A ramp: outline plus contour stripes every 3 px, running across the uphill direction.
fn draw_ramp<D: DrawTarget<Color = BinaryColor>>(
    ramp: &RampView,
    vp: &Screen,
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
    let along_x = abs_ge(ramp.uphill.x, ramp.uphill.y);
    let (lo, hi) = if along_x { (tl.x, br.x) } else { (tl.y, br.y) };
    let (a0, a1) = if along_x { (tl.y, br.y) } else { (tl.x, br.x) };
    let mut s = lo + 2;
    while s < hi - 1 {
        let dots = (a0 + 2..a1 - 1).step_by(2).map(|a| {
            let p = if along_x {
                Point::new(s, a)
            } else {
                Point::new(a, s)
            };
            Pixel(p, BinaryColor::On)
        });
        target.draw_iter(dots)?;
        s += 4;
    }
    Ok(())
}

/// `x.abs() >= y.abs()` from the bits (false if either is NaN, as the float compare): for
/// non-NaN floats the magnitude order is the order of the bits without the sign.
fn abs_ge(x: f32, y: f32) -> bool {
    let (ax, ay) = (x.to_bits() & 0x7fff_ffff, y.to_bits() & 0x7fff_ffff);
    ax <= 0x7f80_0000 && ay <= 0x7f80_0000 && ax >= ay
}

fn draw_crumb<D: DrawTarget<Color = BinaryColor>>(
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

fn draw_critter<D: DrawTarget<Color = BinaryColor>>(
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

fn draw_companion<D: DrawTarget<Color = BinaryColor>>(
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

fn draw_ghost<D: DrawTarget<Color = BinaryColor>>(
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

fn draw_player<D: DrawTarget<Color = BinaryColor>>(
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
    let tip = tilt_tip(base, tilt, 6);
    thin_line(Line::new(base, tip), target)?;
    thin_line(
        Line::new(Point::new(WIDTH - 9, 7), Point::new(WIDTH - 1, 7)),
        target,
    )?;
    // Separator under the HUD, dotted.
    for x in (0..WIDTH).step_by(2) {
        Pixel(Point::new(x, HUD_HEIGHT - 1), BinaryColor::On).draw(target)?;
    }
    Ok(())
}

/// `base + (round(len · sin t), −round(len · cos t))` for `t = tilt_deg` in degrees; from
/// [`sin_cos_turns`] (error < 1.2e-4, < 8e-4 px at `len` 6) unless near a half pixel.
fn tilt_tip(base: Point, tilt_deg: f32, len: i32) -> Point {
    if let Some(t) = turns_q24(tilt_deg, TURNS_PER_DEG_Q40) {
        let (s, c) = sin_cos_turns(t);
        // Q15 → Q16, times the length.
        let k = i64::from(len) * 2;
        if let (Some(dx), Some(dy)) = (round_q16(i64::from(s) * k), round_q16(i64::from(c) * k)) {
            return Point::new(base.x + dx, base.y - dy);
        }
    }
    let (s, c) = sin_cos(tilt_deg.to_radians());
    let l = len as f32;
    Point::new(base.x + round(s * l) as i32, base.y - round(c * l) as i32)
}

fn finite_nonneg(v: f32) -> f32 {
    if v.is_finite() && v > 0.0 {
        v
    } else {
        0.0
    }
}

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

/// Speed as text: one decimal when the ground max is below 50 (metre-scale presets), whole units
/// otherwise (Quake-scale presets). Saturates at 9999.
fn format_speed(speed: f32, gmax: f32, buf: &mut [u8; 12]) -> &[u8] {
    let decimals = gmax < 50.0;
    let scaled = if decimals { speed * 10.0 } else { speed };
    let v = clamp_i(round(scaled), 0, 99_999) as u32;
    let mut w = DigitWriter::new(buf);
    if decimals {
        w.uint(v / 10);
        w.byte(b'.');
        w.uint(v % 10);
    } else {
        w.uint(v.min(9999));
    }
    w.finish()
}

/// "x1.6" with one decimal, saturating at x9.9.
fn format_ratio(r: f32, buf: &mut [u8; 8]) -> &[u8] {
    let v = clamp_i(round(r * 10.0), 0, 99) as u32;
    let mut w = DigitWriter::new(buf);
    w.byte(b'x');
    w.uint(v / 10);
    w.byte(b'.');
    w.uint(v % 10);
    w.finish()
}

/// A tiny ASCII digit writer over a fixed buffer (no `core::fmt` float code in the firmware); its
/// bytes go straight to [`text::draw_text`].
struct DigitWriter<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> DigitWriter<'a> {
    fn new(buf: &'a mut [u8]) -> Self {
        DigitWriter { buf, len: 0 }
    }

    fn byte(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    fn uint(&mut self, mut v: u32) {
        let mut digits = [0u8; 10];
        let mut n = 0;
        loop {
            if let Some(d) = digits.get_mut(n) {
                *d = b'0' + (v % 10) as u8;
            }
            n += 1;
            v /= 10;
            if v == 0 || n >= digits.len() {
                break;
            }
        }
        while n > 0 {
            n -= 1;
            if let Some(&d) = digits.get(n) {
                self.byte(d);
            }
        }
    }

    fn finish(self) -> &'a [u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_text_uses_decimals_for_small_units() {
        let mut b = [0u8; 12];
        assert_eq!(format_speed(15.46, 7.7, &mut b), b"15.5");
        let mut b = [0u8; 12];
        assert_eq!(format_speed(523.4, 320.0, &mut b), b"523");
        let mut b = [0u8; 12];
        assert_eq!(format_speed(1.0e9, 320.0, &mut b), b"9999");
        let mut b = [0u8; 8];
        assert_eq!(format_ratio(1.64, &mut b), b"x1.6");
        let mut b = [0u8; 8];
        assert_eq!(format_ratio(f32::NAN, &mut b), b"x0.0");
    }

    #[test]
    fn thin_line_matches_a_styled_line_of_width_one() {
        use embedded_graphics::mock_display::MockDisplay;
        let mut seed = 12345u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 16) as i32 % 64
        };
        for _ in 0..2000 {
            let line = Line::new(Point::new(next(), next()), Point::new(next(), next()));
            let mut ours = MockDisplay::<BinaryColor>::new();
            let mut theirs = MockDisplay::<BinaryColor>::new();
            thin_line(line, &mut ours).unwrap();
            line.into_styled(stroke()).draw(&mut theirs).unwrap();
            ours.assert_eq(&theirs);
        }
    }

    #[test]
    fn fill_triangle_matches_embedded_graphics_up_to_edge_pixels() {
        use embedded_graphics::mock_display::MockDisplay;
        use embedded_graphics::primitives::Triangle;
        // Distance from p to segment ab (pixel centres are the integer points).
        fn dist(p: Point, a: Point, b: Point) -> f32 {
            let (ax, ay, bx, by) = (a.x as f32, a.y as f32, b.x as f32, b.y as f32);
            let (px, py) = (p.x as f32, p.y as f32);
            let (dx, dy) = (bx - ax, by - ay);
            let len2 = dx * dx + dy * dy;
            let t = if len2 > 0.0 {
                (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (ex, ey) = (ax + t * dx - px, ay + t * dy - py);
            hopkit::math::scalar::sqrt(ex * ex + ey * ey)
        }
        let mut seed = 777u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 16) as i32 % 14
        };
        let (mut differing, mut lit) = (0, 0);
        for _ in 0..3000 {
            let (a, b, c) = (
                Point::new(next() + 20, next() + 20),
                Point::new(next() + 20, next() + 20),
                Point::new(next() + 20, next() + 20),
            );
            let mut ours = MockDisplay::<BinaryColor>::new();
            let mut theirs = MockDisplay::<BinaryColor>::new();
            ours.set_allow_overdraw(true);
            fill_triangle(a, b, c, &mut ours).unwrap();
            Triangle::new(a, b, c)
                .into_styled(fill(BinaryColor::On))
                .draw(&mut theirs)
                .unwrap();
            for y in 0..64 {
                for x in 0..64 {
                    let p = Point::new(x, y);
                    let (o, t) = (ours.get_pixel(p), theirs.get_pixel(p));
                    lit += usize::from(t.is_some());
                    if o != t {
                        differing += 1;
                        // Only pixels on the outline may differ (rounding of the edges).
                        let d = dist(p, a, b).min(dist(p, b, c)).min(dist(p, c, a));
                        assert!(d < 1.0, "{a:?} {b:?} {c:?}: {p:?} is {d} px from the edges");
                    }
                }
            }
            for v in [a, b, c] {
                assert_eq!(ours.get_pixel(v), Some(BinaryColor::On));
            }
        }
        // Measured: 2,289 of 77,363 pixels (3 %) differ, all on the outline.
        assert!(differing * 20 < lit, "{differing} of {lit} pixels differ");
    }

    #[test]
    fn viewport_centres_camera_and_rejects_nan() {
        let view = DemoView {
            arena_half_extent: Vec2::new(40.0, 20.0),
            camera: Vec2::new(5.0, -3.0),
            ..DemoView::default()
        };
        let vp = Viewport::for_view(&view);
        assert_eq!(
            vp.pixels_per_unit,
            FIELD_HEIGHT as f32 / (40.0 * VIEW_DEPTH_FRACTION)
        );
        assert_eq!(
            vp.to_point(view.camera),
            Some(Point::new(WIDTH / 2, HUD_HEIGHT + FIELD_HEIGHT / 2))
        );
        // −Z is up.
        let up = vp.to_point(Vec2::new(5.0, -4.0)).unwrap();
        assert!(up.y < HUD_HEIGHT + FIELD_HEIGHT / 2);
        assert_eq!(vp.to_point(Vec2::new(f32::NAN, 0.0)), None);
        let far = vp.to_point(Vec2::new(1.0e30, -1.0e30)).unwrap();
        assert_eq!(far, Point::new(WIDTH + CLIP_MARGIN, -CLIP_MARGIN));
    }

    use crate::counting::PixelCounter;
    use crate::framebuffer::FrameBuffer;
    use crate::view::{CritterView, GhostView};
    use hopkit::math::Vec3;

    /// Draw `view` with this renderer and the `f32` reference; the pictures must be identical.
    /// Returns whether the pixel sequences (drawing order included) were identical too.
    fn same_as_reference(view: &DemoView, what: &str) -> bool {
        let (mut ours, mut theirs) = (FrameBuffer::new(), FrameBuffer::new());
        draw_frame(view, &mut ours).unwrap();
        reference::draw_frame(view, &mut theirs).unwrap();
        if ours != theirs {
            let mut diff = std::string::String::new();
            for y in 0..HEIGHT {
                for x in 0..WIDTH {
                    diff.push(match (ours.get(x, y), theirs.get(x, y)) {
                        (true, true) => '#',
                        (true, false) => '+',
                        (false, true) => '-',
                        (false, false) => '.',
                    });
                }
                diff.push('\n');
            }
            panic!(
                "{what}: picture differs from the reference (+ extra, - missing)\n{diff}\n{view:?}"
            );
        }
        let (mut a, mut b) = (PixelCounter::new(), PixelCounter::new());
        draw_frame(view, &mut a).unwrap();
        reference::draw_frame(view, &mut b).unwrap();
        a == b
    }

    #[test]
    fn scripted_demo_frames_match_the_f32_reference() {
        let mut rig = crate::DemoRig::new();
        let mut same_order = 0;
        for t in 0..3600 {
            rig.tick(&crate::scripted_raw(t));
            same_order += usize::from(same_as_reference(&rig.view(), &format!("tick {t}")));
        }
        // Same pixels in the same order: the PixelCounter fingerprints are unchanged too.
        assert_eq!(same_order, 3600);
    }

    #[test]
    fn random_views_match_the_f32_reference() {
        let mut seed = 0x1234_5678u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let unit = move |n: &mut dyn FnMut() -> u32| (n() >> 8) as f32 / (1 << 24) as f32;
        for i in 0..20_000 {
            let mut r = |lo: f32, hi: f32| lo + (hi - lo) * unit(&mut next);
            // Mostly the demo's scale, sometimes other arena sizes (other scales), far bodies,
            // odd headings and non-finite values.
            let half = if i % 5 == 0 {
                Vec2::new(r(1.0, 300.0), r(0.5, 300.0))
            } else {
                Vec2::new(48.0, 48.0)
            };
            // Sometimes far out (beyond the Q16 range: every point on the f32 path).
            let far = if i % 11 == 0 { 1000.0 } else { 1.0 };
            let cam = Vec2::new(r(-60.0, 60.0) * far, r(-60.0, 60.0) * far);
            let near = |r: &mut dyn FnMut(f32, f32) -> f32| {
                Vec3::new(cam.x + r(-60.0, 60.0), r(0.0, 10.0), cam.y + r(-40.0, 40.0))
            };
            let heading = |r: &mut dyn FnMut(f32, f32) -> f32| {
                let a = r(-4.0, 4.0);
                match (r(0.0, 1.0) * 20.0) as u32 {
                    0 => Vec2::ZERO,
                    1 => Vec2::new(r(-2.0, 2.0), r(-2.0, 2.0)),
                    _ => Vec2::new(-a.sin(), -a.cos()),
                }
            };
            let body = |r: &mut dyn FnMut(f32, f32) -> f32| BodyView {
                position: near(r),
                heading: heading(r),
                speed: r(0.0, 30.0),
            };
            let mut view = DemoView {
                tick: i,
                arena_half_extent: half,
                camera: cam,
                player: body(&mut r),
                player_grounded: r(0.0, 1.0) < 0.5,
                player_tilt_deg: match (r(0.0, 1.0) * 10.0) as u32 {
                    0 => 0.0,
                    1 => f32::NAN,
                    _ => r(-90.0, 90.0),
                },
                ground_max_speed: r(0.0, 400.0),
                companion: body(&mut r),
                companion_head_yaw: match (r(0.0, 1.0) * 30.0) as u32 {
                    0 => f32::INFINITY,
                    1 => r(-1.0e4, 1.0e4),
                    _ => r(-7.0, 7.0),
                },
                ..DemoView::default()
            };
            view.player.position = Vec3::new(cam.x + r(-3.0, 3.0), 0.0, cam.y + r(-3.0, 3.0));
            for _ in 0..16 {
                let c = near(&mut r);
                let _ = view.crumbs.push(Vec2::new(c.x, c.z));
            }
            for _ in 0..4 {
                let c = near(&mut r);
                let _ = view.critters.push(CritterView {
                    body: body(&mut r),
                    target: Vec2::new(c.x, c.z),
                    arrived: r(0.0, 1.0) < 0.3,
                });
                let mut g = GhostView {
                    body: body(&mut r),
                    firing: r(0.0, 1.0) < 0.5,
                };
                if r(0.0, 1.0) < 0.1 {
                    g.body.position.x = r(-1.0e6, 1.0e6);
                }
                let _ = view.ghosts.push(g);
            }
            view.ramps = crate::level::ramp_views();
            #[cfg(feature = "level-features")]
            {
                view.features = Some(crate::level::feature_view(i));
            }
            same_as_reference(&view, &format!("random view {i}"));
        }
    }

    /// Culling off-screen features changes no pixel: random cameras around the level, the
    /// features drawn with the viewport's `seen` and with all of the world.
    #[test]
    #[cfg(feature = "level-features")]
    fn culling_the_features_changes_no_pixel() {
        let everything = Zone {
            min: Vec2::new(-f32::MAX, -f32::MAX),
            max: Vec2::new(f32::MAX, f32::MAX),
        };
        let mut rng = hopkit::rng::Pcg32::seeded(5);
        let mut drawn = 0;
        for i in 0..20_000u32 {
            let view = DemoView {
                arena_half_extent: Vec2::new(48.0, 48.0),
                camera: Vec2::new(rng.range_f32(-70.0, 70.0), rng.range_f32(-70.0, 70.0)),
                ..DemoView::default()
            };
            let f = crate::level::feature_view(i * 7);
            let vp = Viewport::for_view(&view);
            let (mut a, mut b) = (FrameBuffer::new(), FrameBuffer::new());
            // Into the playfield, as `draw_frame` draws them.
            let field = Rectangle::new(
                Point::new(0, HUD_HEIGHT),
                Size::new(WIDTH as u32, FIELD_HEIGHT as u32),
            );
            draw_features(
                &f,
                &vp.seen(),
                vp.pixels_per_unit,
                |p| vp.to_point(p),
                &mut a.clipped(&field),
            )
            .unwrap();
            draw_features(
                &f,
                &everything,
                vp.pixels_per_unit,
                |p| vp.to_point(p),
                &mut b.clipped(&field),
            )
            .unwrap();
            assert!(a == b, "camera {:?}", view.camera);
            drawn += usize::from(a != FrameBuffer::new());
        }
        assert!(drawn > 1000, "features on screen in {drawn} views");
    }

    /// The camera on each of the level's features (and between them), at every turntable angle
    /// of a turn: both renderers draw them with the same pixels, and each one lights pixels.
    #[test]
    #[cfg(feature = "level-features")]
    fn level_features_are_drawn_and_match_the_f32_reference() {
        use crate::level::{LADDER, POOL, TOWER, TURNTABLE_CENTER};
        let centre = |z: crate::level::Zone| (z.min + z.max) * 0.5;
        for (k, cam) in [
            centre(POOL),
            centre(TOWER),
            centre(LADDER),
            TURNTABLE_CENTER,
            TURNTABLE_CENTER + Vec2::new(3.3, -1.7),
        ]
        .into_iter()
        .enumerate()
        {
            let base = DemoView {
                arena_half_extent: Vec2::new(48.0, 48.0),
                camera: cam,
                ..DemoView::default()
            };
            let mut plain = FrameBuffer::new();
            draw_frame(&base, &mut plain).unwrap();
            for tick in (0..480).step_by(7) {
                let view = DemoView {
                    tick,
                    features: Some(crate::level::feature_view(tick)),
                    ..base.clone()
                };
                same_as_reference(&view, &format!("feature {k} tick {tick}"));
                let mut drawn = FrameBuffer::new();
                draw_frame(&view, &mut drawn).unwrap();
                assert!(drawn != plain, "feature {k}: nothing drawn");
            }
        }
    }

    #[test]
    fn mul_shr24_is_the_i64_product() {
        let mut seed = 7u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let check = |a: i32, b: u32| {
            assert_eq!(
                mul_shr24(a, b),
                (i64::from(a) * i64::from(b)) >> 24,
                "{a} {b}"
            );
        };
        for _ in 0..200_000 {
            check(
                (next() % (1 << 25)) as i32 - (1 << 24) + 1,
                next() % (1 << 28),
            );
        }
        let (amax, bmax) = ((1 << 24) - 1, (1 << 28) - 1);
        for (a, b) in [(0, 0), (amax, bmax), (-amax, bmax), (-1, 1), (-1, 1 << 24)] {
            check(a, b);
        }
    }

    #[test]
    fn fixed_point_conversion_truncates_toward_zero() {
        assert_eq!(to_fixed(1.5, 16), Some(3 << 15));
        assert_eq!(to_fixed(-1.5, 16), Some(-(3 << 15)));
        assert_eq!(to_fixed(0.0, 16), Some(0));
        assert_eq!(to_fixed(-0.0, 16), Some(0));
        assert_eq!(to_fixed(1.0e-20, 16), Some(0));
        assert_eq!(to_fixed(1.0 / 3.0, 16), Some(21845));
        assert_eq!(to_fixed(-1.0 / 3.0, 16), Some(-21845));
        assert_eq!(
            to_fixed(16383.99, 16),
            Some((f64::from(16383.99f32) * 65536.0) as i32)
        );
        assert_eq!(to_fixed(16384.0, 16), None);
        assert_eq!(to_fixed(f32::NAN, 16), None);
        assert_eq!(to_fixed(f32::NEG_INFINITY, 16), None);
        assert_eq!(
            to_fixed(1.458_333_4, 24),
            Some((1.458_333_4f32 as f64 * 16_777_216.0) as i32)
        );
        assert_eq!(round_q16(5 << 15), None); // 2.5: a tie
        assert_eq!(round_q16((5 << 15) + 300), Some(3));
        assert_eq!(round_q16((5 << 15) - 300), Some(2));
        assert_eq!(round_q16(-(5 << 15) - 300), Some(-3));
        assert_eq!(round_q16(-(5 << 15) + 300), Some(-2));
    }

    #[test]
    fn sine_table_is_within_its_error_bound() {
        for (i, &v) in SIN_Q15.iter().enumerate() {
            let want = (32768.0 * (i as f64 * core::f64::consts::PI / 128.0).sin()).round();
            assert_eq!(f64::from(v), want, "entry {i}");
        }
        let mut worst = 0.0f64;
        for k in -20_000..20_000 {
            let a = k as f32 * 0.000_37;
            let t = turns_q24(a, TURNS_PER_RAD_Q40).unwrap();
            let (s, c) = sin_cos_turns(t);
            let (ws, wc) = (f64::from(a).sin(), f64::from(a).cos());
            worst = worst
                .max((f64::from(s) / 32768.0 - ws).abs())
                .max((f64::from(c) / 32768.0 - wc).abs());
            let d = a * 20.0;
            let t = turns_q24(d, TURNS_PER_DEG_Q40).unwrap();
            let (s, c) = sin_cos_turns(t);
            let (ws, wc) = (
                f64::from(d).to_radians().sin(),
                f64::from(d).to_radians().cos(),
            );
            worst = worst
                .max((f64::from(s) / 32768.0 - ws).abs())
                .max((f64::from(c) / 32768.0 - wc).abs());
        }
        assert!(worst < 1.2e-4, "worst error {worst}");
    }

    #[test]
    fn triangles_and_lines_match_the_reference_pixel_for_pixel() {
        let mut seed = 4242u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 16) as i32 % 180 - 26
        };
        for i in 0..20_000 {
            let (a, b, c) = (
                Point::new(next(), next() / 2),
                Point::new(next(), next() / 2),
                Point::new(next(), next() / 2),
            );
            // Mostly small (arrow heads), some large, some degenerate.
            let (b, c) = match i % 4 {
                0 => (b, c),
                1 => (a + (b - a) / 20, a + (c - a) / 20),
                2 => (a + (b - a) / 8, a + (b - a) / 4),
                _ => (a + (b - a) / 10, a + (c - a) / 10),
            };
            let (mut ours, mut theirs) = (PixelCounter::new(), PixelCounter::new());
            fill_triangle(a, b, c, &mut ours).unwrap();
            reference::fill_triangle(a, b, c, &mut theirs).unwrap();
            assert_eq!(ours, theirs, "{a:?} {b:?} {c:?}");
            let (mut ours, mut theirs) = (PixelCounter::new(), PixelCounter::new());
            thin_line(Line::new(a, b), &mut ours).unwrap();
            reference::thin_line(Line::new(a, b), &mut theirs).unwrap();
            assert_eq!(ours, theirs, "{a:?} {b:?}");
        }
    }

    #[test]
    fn circles_are_embedded_graphics_circles_call_for_call() {
        use embedded_graphics::primitives::Circle;
        for d in (3..=17).step_by(2) {
            for (cx, cy) in [(20, 30), (0, 9), (127, 63), (-3, 70), (64, 8)] {
                let c = Point::new(cx, cy);
                let styles = [
                    (Some(BinaryColor::On), fill(BinaryColor::On)),
                    (Some(BinaryColor::Off), fill(BinaryColor::Off)),
                    (None, stroke()),
                ];
                for (ours, theirs) in styles {
                    // Pixel counters see every pixel in order: same calls, same pixels.
                    let (mut a, mut b) = (PixelCounter::new(), PixelCounter::new());
                    circle(c, d, ours, &mut a).unwrap();
                    Circle::with_center(c, d as u32)
                        .into_styled(theirs)
                        .draw(&mut b)
                        .unwrap();
                    assert_eq!(a, b, "d {d} at {c:?} {ours:?}");
                    assert!(a.on + a.off + a.clipped > 0);
                }
            }
        }
    }

    #[test]
    fn field_is_embedded_graphics_clipped_call_for_call() {
        let area = Rectangle::new(
            Point::new(0, HUD_HEIGHT),
            Size::new(DISPLAY_WIDTH, FIELD_HEIGHT as u32),
        );
        let pixels = |x0: i32, y0: i32| {
            (0..40).map(move |i| {
                Pixel(
                    Point::new(x0 + i * 7 % 23, y0 + i * 5 % 19),
                    (i % 3 == 0).into(),
                )
            })
        };
        for (x, y) in [
            (-5, -3),
            (0, 0),
            (0, HUD_HEIGHT - 2),
            (20, 30),
            (120, 60),
            (-40, 50),
            (10, -30),
        ] {
            for (w, h) in [
                (0, 0),
                (1, 1),
                (2, 2),
                (7, 3),
                (40, 25),
                (200, 100),
                (3, 80),
            ] {
                let r = Rectangle::new(Point::new(x, y), Size::new(w, h));
                let n = (w * h) as usize;
                let (mut a, mut b) = (PixelCounter::new(), PixelCounter::new());
                let mut field = Field { target: &mut a };
                let mut clipped = b.clipped(&area);
                for color in [BinaryColor::On, BinaryColor::Off] {
                    field.fill_solid(&r, color).unwrap();
                    clipped.fill_solid(&r, color).unwrap();
                }
                let colors = (0..n).map(|i| (i % 3 != 1).into());
                field.fill_contiguous(&r, colors.clone()).unwrap();
                clipped.fill_contiguous(&r, colors).unwrap();
                field.draw_iter(pixels(x, y)).unwrap();
                clipped.draw_iter(pixels(x, y)).unwrap();
                assert_eq!(a, b, "{r:?}");
            }
        }
    }

    #[test]
    fn stroke_rects_are_embedded_graphics_rectangles_call_for_call() {
        for w in 0..=7u32 {
            for h in 0..=7u32 {
                for (x, y) in [(20, 30), (0, 9), (127, 63), (-3, 70), (125, -2), (64, 8)] {
                    let r = Rectangle::new(Point::new(x, y), Size::new(w, h));
                    // Pixel counters see every pixel in order: same calls, same pixels.
                    let (mut a, mut b) = (PixelCounter::new(), PixelCounter::new());
                    stroke_rect(r, &mut a).unwrap();
                    r.into_styled(stroke()).draw(&mut b).unwrap();
                    assert_eq!(a, b, "{r:?}");
                }
            }
        }
        let big = Rectangle::new(Point::new(-5, 3), Size::new(200, 90));
        let (mut a, mut b) = (PixelCounter::new(), PixelCounter::new());
        stroke_rect(big, &mut a).unwrap();
        big.into_styled(stroke()).draw(&mut b).unwrap();
        assert_eq!(a, b);
        assert!(a.on > 0);
    }

    #[test]
    fn rotate_left_turns_forward_to_left() {
        // Forward at yaw 0 is −Z = (0, −1); a quarter turn left faces −X = (−1, 0).
        let v = rotate(Vec2::new(0.0, -1.0), core::f32::consts::FRAC_PI_2);
        assert!((v.x + 1.0).abs() < 1e-6 && v.y.abs() < 1e-6, "{v:?}");
    }
}
