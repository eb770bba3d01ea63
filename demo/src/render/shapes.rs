//! The drawing primitives every part of the frame is made of — the playfield target ([`Field`]),
//! 1-pixel lines, filled triangles, circles and rectangle outlines — each drawing exactly what
//! embedded-graphics' styled primitive draws (tested call for call or pixel for pixel), in less
//! code.

use super::{FIELD_HEIGHT, HEIGHT, HUD_HEIGHT, WIDTH};
use crate::view::DISPLAY_WIDTH;
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
#[cfg(test)]
use embedded_graphics::primitives::PrimitiveStyle;
use embedded_graphics::primitives::{Line, Rectangle};

/// The playfield part of the display (below the HUD) as a drawing target: what
/// `target.clipped(field rectangle)` does (same pixels, same order), with integer compares instead
/// of embedded-graphics' `Rectangle::intersection`/`contains` per call and per pixel.
pub(super) struct Field<'a, D> {
    /// The whole display.
    pub(super) target: &'a mut D,
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
pub(super) fn stroke() -> PrimitiveStyle<BinaryColor> {
    PrimitiveStyle::with_stroke(BinaryColor::On, 1)
}

/// A 1-pixel line: the points of embedded-graphics' `Line::points` (its Bresenham variant, same
/// error terms and tie-breaking, so the same pixels in the same order: tested), which are the
/// pixels a styled stroke of width 1 draws, without the thick-line machinery (parallel offsets,
/// joins) a styled line links in (≈ 2 KB on Cortex-M), nor its iterator state.
pub(super) fn thin_line<D: DrawTarget<Color = BinaryColor>>(
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
pub(super) fn fill_triangle<D: DrawTarget<Color = BinaryColor>>(
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
pub(super) fn fill(color: BinaryColor) -> PrimitiveStyle<BinaryColor> {
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
pub(super) fn circle<D: DrawTarget<Color = BinaryColor>>(
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
pub(super) fn stroke_rect<D: DrawTarget<Color = BinaryColor>>(
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

pub(super) fn rect_between(a: Point, b: Point) -> Rectangle {
    let tl = Point::new(a.x.min(b.x), a.y.min(b.y));
    let w = (a.x - b.x).unsigned_abs() + 1;
    let h = (a.y - b.y).unsigned_abs() + 1;
    Rectangle::new(tl, Size::new(w, h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counting::PixelCounter;
    use crate::render::reference;

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
}
