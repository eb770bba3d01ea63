//! The fixed-point side of the renderer: world → display transforms ([`Screen`]), unit
//! directions ([`Dir`]) and a quarter-wave sine table ([`sin_cos_turns`]), each rounding to the
//! same whole pixel as the `f32` formula it stands for, or falling back to that formula near a half
//! pixel (see the module docs of [`super`]).

use super::{clamp_i, offset, Viewport, CLIP_MARGIN, FIELD_HEIGHT, HEIGHT, HUD_HEIGHT, WIDTH};
use embedded_graphics::prelude::*;
use hopkit::math::scalar::round;
use hopkit::math::Vec2;

/// How close (Q16.16 display pixels: 2⁻⁸ px) an integer result may come to a half pixel before the
/// pixel is taken from the `f32` formula instead. The integer results are within 2⁻⁹ px of the
/// `f32` ones (see [`Screen::axis_q16`], [`Dir`], [`sin_cos_turns`]), so outside this margin both
/// round to the same pixel.
const TIE_MARGIN: i64 = 1 << 8;

/// `v` as a fixed-point integer with `frac` fractional bits (`frac ≤ 30`), truncated toward zero
/// (error < 2^−frac), from the float's bits; `None` if `v` is not finite or `|v| ≥ 2^(30 − frac)`.
pub(super) const fn to_fixed(v: f32, frac: i32) -> Option<i32> {
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
pub(super) fn round_q16(s: i64) -> Option<i32> {
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
pub(super) enum Axis {
    X,
    Y,
}

/// [`Viewport`] with the camera and the scale in fixed point, for the per-point transforms.
pub(super) struct Screen {
    /// The viewport in `f32`.
    pub(super) vp: Viewport,
    /// Camera `(x, z)` as Q16.16 (`None`: out of range, every point takes the `f32` path).
    cam: Option<(i32, i32)>,
    /// Pixels per unit as Q8.24, in `1..2²⁸` (below 16 px per unit), or 0 (no integer path).
    ppu_q24: i32,
}

impl Screen {
    pub(super) fn new(vp: Viewport) -> Self {
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
    pub(super) fn axis_q16(&self, v: f32, axis: Axis) -> Option<i64> {
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
    pub(super) fn pixel(&self, v: f32, axis: Axis, lo: i32, hi: i32) -> Option<i32> {
        self.pixel_q(self.axis_q16(v, axis), v, axis, lo, hi)
    }

    /// [`Screen::pixel`] with `q = self.axis_q16(v, axis)` already computed.
    pub(super) fn pixel_q(
        &self,
        q: Option<i64>,
        v: f32,
        axis: Axis,
        lo: i32,
        hi: i32,
    ) -> Option<i32> {
        if let Some(r) = q.and_then(round_q16) {
            return Some(r.clamp(lo, hi));
        }
        self.axis_f32(v, axis).map(|s| clamp_i(round(s), lo, hi))
    }

    /// [`Screen::pixel`] for a whole world coordinate `w` with `|w| < 2¹⁴` (exactly `w as f32`).
    pub(super) fn pixel_whole(&self, w: i32, axis: Axis, lo: i32, hi: i32) -> Option<i32> {
        if let Some(r) = self.axis_q16_fixed(w << 16, axis).and_then(round_q16) {
            return Some(r.clamp(lo, hi));
        }
        self.axis_f32(w as f32, axis)
            .map(|s| clamp_i(round(s), lo, hi))
    }

    /// [`Viewport::to_point`], computed in fixed point (same pixels).
    pub(super) fn to_point(&self, p: Vec2) -> Option<Point> {
        let x = self.pixel(p.x, Axis::X, -CLIP_MARGIN, WIDTH + CLIP_MARGIN)?;
        let y = self.pixel(p.y, Axis::Y, -CLIP_MARGIN, HEIGHT + CLIP_MARGIN)?;
        Some(Point::new(x, y))
    }

    /// [`Viewport::in_field`], decided in fixed point unless a coordinate is within
    /// [`TIE_MARGIN`] of a bound.
    /// `x`, `y`: the point's [`Screen::axis_q16`] values.
    pub(super) fn in_field_q(&self, p: Vec2, x: Option<i64>, y: Option<i64>, margin: i32) -> bool {
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

/// The level of solids' corners ([`Known`]) and their map ([`Near`]): only the builds with that
/// level have them.
#[cfg(feature = "level-solids")]
mod near {
    use super::*;

    /// [`round_q16`] for `|s| < 2³⁰` in 32-bit arithmetic (the 64-bit adds and compares are
    /// several instructions each on a Cortex-M0): the same answers in that range (tested).
    fn round_q16_small(s: i32) -> Option<i32> {
        let t = s + (1 << 15);
        let frac = t & 0xffff;
        if !(TIE_MARGIN as i32..=0x1_0000 - TIE_MARGIN as i32).contains(&frac) {
            return None;
        }
        Some(t >> 16)
    }

    /// World coordinates [`Near`] maps: below 64 units in magnitude, i.e. Q16.16 values below 2²².
    const NEAR_Q16: i32 = 1 << 22;

    /// A constant world point `(x, z)` with its Q16.16 coordinates worked out at compile time
    /// ([`Known::new`]), for [`Near::to_point`]: the level of solids' corners.
    #[derive(Clone, Copy)]
    pub(in crate::render) struct Known {
        /// The point.
        pub(in crate::render) p: Vec2,
        /// `to_fixed(_, 16)` of both coordinates, when both are below [`NEAR_Q16`] in magnitude.
        q: Option<(i32, i32)>,
    }

    impl Known {
        pub(in crate::render) const fn new(p: Vec2) -> Self {
            let q = match (to_fixed(p.x, 16), to_fixed(p.y, 16)) {
                (Some(x), Some(y))
                    if x.unsigned_abs() < NEAR_Q16 as u32 && y.unsigned_abs() < NEAR_Q16 as u32 =>
                {
                    Some((x, y))
                }
                _ => None,
            };
            Known { p, q }
        }

        /// Its Q16.16 coordinates, if near the origin.
        pub(in crate::render) fn q(&self) -> Option<(i32, i32)> {
            self.q
        }

        /// Whether [`Near`] maps it in integers (the level's corners all are: tested).
        #[cfg(test)]
        pub(in crate::render) fn is_near(&self) -> bool {
            self.q.is_some()
        }
    }

    /// [`Screen::to_point`] for [`Known`] points at scales below 4 px a unit, in 32-bit integers:
    /// no 64-bit product (four partial products and their sums, ≈ 150 instructions an axis on a
    /// Cortex-M0, with the conversion from `f32`), but the display coordinate of the world origin
    /// once a frame and two 32-bit products a coordinate. The same pixels as [`Screen::to_point`]:
    ///
    /// a coordinate's Q16 value `q` (|q| < 2²²) is `n·2¹³ + lo` (`n` eighths of a unit, |n| < 2⁹;
    /// `lo` < 2¹³), and its display coordinate in Q16 is `origin + (n·p20 >> 7) + (lo·p12 >> 12)`,
    /// with the scale as Q12.20 (`p20` < 2²², so |n·p20| < 2³¹) and as Q20.12 (`p12` < 2¹⁴). Its
    /// error against `centre + (v − cam)·ppu` in px: `v` and the camera truncated to Q16, < 2·2⁻¹⁶·4
    /// = 2⁻¹³; the scale truncated to Q24 (< 2⁻²⁴·(64 + 256) < 2⁻¹⁵), to Q20 for `n` (< 2⁻²⁰·64 =
    /// 2⁻¹⁴) and to Q12 for `lo` (< 2⁻¹²·2⁻³ = 2⁻¹⁵); three floors, < 3·2⁻¹⁶. In all < 2⁻¹¹; with
    /// the `f32` formula's own roundings (< 2⁻¹⁰, see [`Screen::axis_q16`]) < 2⁻⁹ px, so the rounding
    /// to a whole pixel is decided as in [`Screen::pixel`]: within [`TIE_MARGIN`] of a half pixel,
    /// the `f32` formula decides.
    pub(in crate::render) struct Near<'a> {
        screen: &'a Screen,
        /// `None`: no integer path this frame (camera beyond 256 units, scale ≥ 4 px a unit or not
        /// usable): every point takes [`Screen::to_point`].
        scale: Option<NearScale>,
    }

    /// The per-frame constants of [`Near`].
    #[derive(Clone, Copy)]
    struct NearScale {
        /// The display coordinates of the world origin, Q16.16 (X, Y).
        origin: (i32, i32),
        /// Pixels per unit, Q12.20.
        p20: i32,
        /// Pixels per unit, Q20.12.
        p12: i32,
    }

    impl NearScale {
        /// The unrounded display coordinate of Q16 world coordinate `q` (|q| < 2²²), Q16.16.
        fn axis(&self, q: i32, origin: i32) -> i32 {
            let (n, lo) = (q >> 13, q & 0x1fff);
            origin + ((n * self.p20) >> 7) + ((lo * self.p12) >> 12)
        }
    }

    impl Screen {
        /// The [`Near`] map of this frame.
        pub(in crate::render) fn near(&self) -> Near<'_> {
            let p = self.ppu_q24;
            let scale = match self.cam {
                Some((cx, cy))
                    if p > 0
                        && p < 1 << 26
                        && cx.unsigned_abs() < 1 << 24
                        && cy.unsigned_abs() < 1 << 24 =>
                {
                    // `centre − cam·ppu`: |cam·ppu| < 2²⁴·2²⁶ / 2²⁴, so it fits.
                    let origin =
                        |cam: i32, centre: i32| (centre << 16) + mul_shr24(-cam, p as u32) as i32;
                    Some(NearScale {
                        origin: (
                            origin(cx, WIDTH / 2),
                            origin(cy, HUD_HEIGHT + FIELD_HEIGHT / 2),
                        ),
                        p20: p >> 4,
                        p12: p >> 12,
                    })
                }
                _ => None,
            };
            Near {
                screen: self,
                scale,
            }
        }
    }

    impl Near<'_> {
        /// [`Viewport::seen`] as Q16.16 world coordinates `[min.x, max.x, min.z, max.z]`, or a
        /// little more (never less): the camera ± (half the playfield + 2 px) ⁄ ppu, with no `f32`
        /// division. `None` without the integer path, or below 1⁄16 px a unit.
        ///
        /// `2³² ⁄ ppu_q16` is a unit in Q16 px⁻¹, rounded down by < 2⁻¹² of it (`ppu_q16` ≥ 2¹²,
        /// truncated); half extents of at most 66 px add 1⁄1024 of themselves and 2 LSB, more
        /// than that and the `f32` roundings of `Viewport::seen` (≈ 2⁻²³ of it).
        pub(in crate::render) fn seen_q16(&self) -> Option<[i32; 4]> {
            self.scale?;
            let (cx, cy) = self.screen.cam?;
            let ppu_q16 = (self.screen.ppu_q24 >> 8) as u32;
            if ppu_q16 < 1 << 12 {
                return None;
            }
            // < 2³² ⁄ 2¹² = 2²⁰.
            let unit = (u32::MAX / ppu_q16) as i32;
            let half = |px: i32| {
                let h = px * unit; // < 66·2²⁰
                h + (h >> 10) + 2
            };
            let (hx, hz) = (half(WIDTH / 2 + 2), half(FIELD_HEIGHT / 2 + 2));
            // |cam| < 2²⁴ (the integer path), so no overflow.
            Some([cx - hx, cx + hx, cy - hz, cy + hz])
        }

        /// [`Screen::to_point`] of `k.p` (same pixels).
        pub(in crate::render) fn to_point(&self, k: &Known) -> Option<Point> {
            let (Some(s), Some((qx, qy))) = (self.scale, k.q) else {
                return self.screen.to_point(k.p);
            };
            let px = |q: i32, origin: i32, v: f32, axis: Axis, hi: i32| match round_q16_small(
                s.axis(q, origin),
            ) {
                Some(r) => Some(r.clamp(-CLIP_MARGIN, hi + CLIP_MARGIN)),
                None => self
                    .screen
                    .pixel_q(None, v, axis, -CLIP_MARGIN, hi + CLIP_MARGIN),
            };
            let x = px(qx, s.origin.0, k.p.x, Axis::X, WIDTH)?;
            let y = px(qy, s.origin.1, k.p.y, Axis::Y, HEIGHT)?;
            Some(Point::new(x, y))
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// [`round_q16_small`] is [`round_q16`] below 2³⁰, ties and near-ties included.
        #[test]
        fn small_rounding_is_the_wide_one() {
            let mut rng = hopkit::rng::Pcg32::seeded(11);
            let mut next = move || rng.next_u32();
            let check = |s: i32| assert_eq!(round_q16_small(s), round_q16(i64::from(s)), "{s}");
            for _ in 0..200_000 {
                check((next() % (1 << 31)) as i32 - (1 << 30));
            }
            for k in -300..300 {
                for d in -(TIE_MARGIN as i32) - 2..=TIE_MARGIN as i32 + 2 {
                    check((k << 16) + (1 << 15) + d);
                }
            }
        }

        /// [`Near::to_point`] gives [`Viewport::to_point`]'s pixels (the `f32` formula): random views
        /// (the handheld's scale and others below 4 px a unit, some beyond) and points, many of them
        /// within a hair of a half pixel, where the `f32` formula decides.
        #[test]
        fn near_map_gives_the_f32_pixels() {
            let mut rng = hopkit::rng::Pcg32::seeded(5);
            let mut next = move || rng.next_u32();
            let mut unit = move || (next() >> 8) as f32 / (1 << 24) as f32;
            let (mut integer, mut ties, mut total) = (0u32, 0u32, 0u32);
            for view in 0..400 {
                let ppu = match view % 4 {
                    0 => 56.0 / 38.4,
                    1 => 0.05 + 3.9 * unit(),
                    2 => 4.0 + 12.0 * unit(),
                    _ => 0.5 + 2.0 * unit(),
                };
                let camera = Vec2::new(120.0 * unit() - 60.0, 120.0 * unit() - 60.0);
                let vp = Viewport {
                    camera,
                    pixels_per_unit: ppu,
                };
                let screen = Screen::new(vp);
                let near = screen.near();
                for i in 0..200 {
                    let mut p = Vec2::new(127.0 * unit() - 63.5, 127.0 * unit() - 63.5);
                    if i % 2 == 0 {
                        // Move `p.x` to where the `f32` formula gives a half pixel, then a few ulps
                        // off it.
                        let target =
                            (round(WIDTH as f32 * unit()) + 0.5 - WIDTH as f32 * 0.5) / ppu;
                        let x = camera.x + target;
                        let ulps = i / 2 % 9 - 4;
                        p.x = f32::from_bits((x.to_bits() as i32 + ulps) as u32);
                    }
                    let k = Known::new(p);
                    let got = near.to_point(&k);
                    assert_eq!(got, vp.to_point(p), "{p:?} ppu {ppu} camera {camera:?}");
                    total += 1;
                    if let (Some(s), Some((qx, _))) = (near.scale, k.q) {
                        integer += 1;
                        ties += u32::from(round_q16_small(s.axis(qx, s.origin.0)).is_none());
                    }
                }
            }
            // The integer in-view zone holds `Viewport::seen`, and by little more.
            for view in 0..2000 {
                let ppu = if view % 2 == 0 {
                    56.0 / 38.4
                } else {
                    0.07 + 3.9 * unit()
                };
                let vp = Viewport {
                    camera: Vec2::new(500.0 * unit() - 250.0, 500.0 * unit() - 250.0),
                    pixels_per_unit: ppu,
                };
                let screen = Screen::new(vp);
                let Some([x0, x1, z0, z1]) = screen.near().seen_q16() else {
                    assert!(vp.camera.x.abs().max(vp.camera.y.abs()) >= 256.0 || ppu < 0.0625);
                    continue;
                };
                let z = vp.seen();
                let q = |v: i32| f64::from(v) / 65536.0;
                let slack = 0.002 * f64::from(z.max.x - z.min.x);
                assert!(q(x0) <= f64::from(z.min.x) && q(x0) > f64::from(z.min.x) - slack);
                assert!(q(x1) >= f64::from(z.max.x) && q(x1) < f64::from(z.max.x) + slack);
                assert!(q(z0) <= f64::from(z.min.y) && q(z0) > f64::from(z.min.y) - slack);
                assert!(q(z1) >= f64::from(z.max.y) && q(z1) < f64::from(z.max.y) + slack);
            }
            assert!(
                integer > total / 2,
                "{integer} of {total} on the integer path"
            );
            assert!(
                ties > total / 20,
                "{ties} of {total} left to the f32 formula"
            );
        }
    }
}
#[cfg(feature = "level-solids")]
pub(super) use near::Known;

/// A planar direction for pixel offsets: the `f32` vector, and its Q16.16 components when it is
/// unit length within 2⁻¹⁴ (measured on the Q16 values), which is what the scene's headings are.
///
/// Then `round(k · normalize(v))` is `round(k · q)` unless near a half pixel: `q` differs from
/// `normalize(v)` by < 2⁻¹⁶ (truncation) + 2⁻¹⁴·⁵ (|v|² measured from truncated components) ⁄ 2 +
/// 2⁻¹⁴ ⁄ 2 < 7e-5 per component, so for `k ≤ 20` (and the arrow head's 3·fwd ± 4·side, factor 7)
/// < 1.5e-3 px, well inside [`TIE_MARGIN`].
#[derive(Clone, Copy)]
pub(super) struct Dir {
    v: Vec2,
    /// The Q16.16 components when the direction is unit length (see [`Dir`]).
    pub(super) q: Option<(i32, i32)>,
    /// The `f32` formula this stands for normalises `v` first, `(0, −1)` if it cannot (the ghosts'
    /// `fwd`), before [`offset`] normalises it again.
    pre_normalize: bool,
}

impl Dir {
    pub(super) fn new(v: Vec2) -> Self {
        Self::with(v, false)
    }

    pub(super) fn with(v: Vec2, pre_normalize: bool) -> Self {
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
pub(super) fn offset_px(p: Point, dir: &Dir, len: i32) -> Option<Point> {
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
pub(super) const TURNS_PER_RAD_Q40: i64 = 174_992_710_548;
/// Turns as Q24 per degree, scaled by 2¹⁶ for Q16 input: `2⁴⁰ ⁄ 360`.
pub(super) const TURNS_PER_DEG_Q40: i64 = 3_054_198_966;

/// `angle` (`f32`, in the unit given by `turns_per_unit_q40`) as a fraction of a turn in Q24
/// (wrapped to `0..2²⁴`), or `None` out of the fixed-point range (`|angle| ≥ 256`, not finite).
/// Error < 2⁻¹⁶ units (the Q16 input) + 2⁻²⁴ turns.
pub(super) fn turns_q24(angle: f32, turns_per_unit_q40: i64) -> Option<u32> {
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
pub(super) fn sin_cos_turns(t: u32) -> (i32, i32) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
