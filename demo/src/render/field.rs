//! The playfield's ground: the sparse dot grid, the arena border, the ramps and the level's
//! features (pool, tower with its ladder, turntable). Drawn first, under the bodies
//! ([`super::sprites`]); what else lies on the ground belongs here too.

use super::fixed::{sin_cos_turns, turns_q24, Axis, Screen, TURNS_PER_RAD_Q40};
use super::shapes::{rect_between, stroke_rect, thin_line};
use super::{clamp_px, CLIP_MARGIN, FIELD_HEIGHT, GRID_SPACING_PX, HEIGHT, WIDTH};
use crate::level::Zone;
use crate::view::{DemoView, FeatureView, RampView, DISPLAY_WIDTH};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Line, Rectangle};
use hopkit::math::scalar::{floor, round};
use hopkit::math::Vec2;

/// The sparse dot grid inside the arena, anchored to world coordinates so it scrolls with motion.
pub(super) fn draw_grid<D: DrawTarget<Color = BinaryColor>>(
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

pub(super) fn draw_arena<D: DrawTarget<Color = BinaryColor>>(
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

/// The level's features, drawn from display points only (`to_point`: the renderer's world →
/// display map; `ppu` its pixels per world unit, for the turntable's radius), so both renderers draw them with this one function and the same pixels:
/// - the pool: an outline filled with short dotted waves;
/// - the tower: an outline with a second one 2 px inside (a raised block), and its ladder as a
///   small box on the face;
/// - the turntable: a ring of 16 dots with the marked spoke from the centre (it turns with the
///   disc).
///
/// A feature wholly outside `seen` (the world rectangle around the camera that covers the
/// playfield with 2 px to spare, [`Viewport::seen`](super::Viewport::seen)) is skipped: it would draw nothing visible
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
pub(super) fn draw_ramp<D: DrawTarget<Color = BinaryColor>>(
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

#[cfg(all(test, feature = "level-features"))]
mod tests {
    use super::*;
    use crate::framebuffer::FrameBuffer;
    use crate::render::{Viewport, HUD_HEIGHT};

    /// Culling off-screen features changes no pixel: random cameras around the level, the
    /// features drawn with the viewport's `seen` and with all of the world.
    #[test]
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
}
