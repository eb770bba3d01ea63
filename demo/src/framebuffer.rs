//! [`FrameBuffer`]: the handheld's 128×64 1-bit picture, the one display buffer every front end
//! draws into — the boards' SSD1306 driver (`hopkit_firmware::oled::Oled`), the QEMU and emulator
//! images, the carts (wasm32, WASM-4, libretro), `hopkit-sim` (its window, golden PBM files and
//! `--frames` output) and the tests.
//!
//! It keeps the picture in the SSD1306's own page-major layout, so the boards send it as it is and
//! draw as fast as the frames QEMU measures; [`FrameBuffer::rows`] and [`FrameBuffer::from_rows`]
//! convert to and from the PBM `P4` row layout that the wasm32 cart exports and `hopkit-sim` saves.

use crate::view::{DISPLAY_HEIGHT, DISPLAY_WIDTH};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use hopkit::hash::StateHasher;

const WIDTH: i32 = DISPLAY_WIDTH as i32;
const HEIGHT: i32 = DISPLAY_HEIGHT as i32;

/// Bytes of a [`FrameBuffer`]: one bit per pixel (1 KiB), in either layout.
pub const FRAME_BYTES: usize = (DISPLAY_WIDTH * DISPLAY_HEIGHT / 8) as usize;

/// Bytes per row of the PBM row layout ([`FrameBuffer::rows`]).
pub const ROW_BYTES: usize = DISPLAY_WIDTH as usize / 8;

/// A 128×64 1-bpp frame buffer in the SSD1306's page-major layout (byte `page·128 + x` holds
/// pixels `(x, 8·page ..= 8·page + 7)`, bit `y % 8`, least significant bit on top). Pixels outside
/// the display are dropped. Rectangles (`fill_solid`, which embedded-graphics' filled rectangles
/// and circle scanlines use) are filled a byte at a time; with the demo's `f32-render` feature
/// (the code-size build: the WASM-4 cart) a pixel at a time, in less code (the same pixels:
/// tested).
///
/// Two buffers are equal when their pictures are. `Debug` prints the picture, one line of `#`
/// (lit) and `.` per row.
#[derive(Clone, PartialEq, Eq)]
pub struct FrameBuffer {
    buffer: [u8; FRAME_BYTES],
}

impl Default for FrameBuffer {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for FrameBuffer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(f, "FrameBuffer ({} lit):", self.lit())?;
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                f.write_str(if self.get(x, y) { "#" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl FrameBuffer {
    /// All pixels off.
    pub const fn new() -> Self {
        FrameBuffer {
            buffer: [0; FRAME_BYTES],
        }
    }

    /// The buffer (page-major, see [`FrameBuffer`]): what the SSD1306 takes.
    pub fn buffer(&self) -> &[u8; FRAME_BYTES] {
        &self.buffer
    }

    /// Is pixel `(x, y)` lit? Outside the display → false.
    pub fn get(&self, x: i32, y: i32) -> bool {
        if x < 0 || y < 0 || x >= WIDTH || y >= HEIGHT {
            return false;
        }
        let i = (y as usize / 8) * WIDTH as usize + x as usize;
        self.buffer.get(i).is_some_and(|b| b & (1 << (y % 8)) != 0)
    }

    /// Number of lit pixels.
    pub fn lit(&self) -> u32 {
        self.buffer.iter().map(|b| b.count_ones()).sum()
    }

    /// Number of pixels that differ from `other`'s.
    pub fn differing(&self, other: &FrameBuffer) -> u32 {
        self.buffer
            .iter()
            .zip(&other.buffer)
            .map(|(a, b)| (a ^ b).count_ones())
            .sum()
    }

    /// FNV-1a hash of the buffer's bytes: depends on the picture only, not on the drawing order.
    pub fn fingerprint(&self) -> u64 {
        let mut h = StateHasher::new();
        h.write_bytes(&self.buffer);
        h.finish()
    }

    /// The picture in the PBM `P4` row layout: [`ROW_BYTES`] bytes per row, top row first, the
    /// most significant bit of a byte the leftmost pixel, a set bit a lit pixel.
    pub fn rows(&self) -> [u8; FRAME_BYTES] {
        let mut out = [0u8; FRAME_BYTES];
        for (i, row_byte) in out.iter_mut().enumerate() {
            let (y, x0) = (i / ROW_BYTES, i % ROW_BYTES * 8);
            let page = (y / 8) * WIDTH as usize;
            let bit = y % 8;
            for k in 0..8 {
                let on = self.buffer.get(page + x0 + k).map_or(0, |b| (b >> bit) & 1);
                *row_byte |= on << (7 - k);
            }
        }
        out
    }

    /// The picture from the PBM `P4` row layout of [`FrameBuffer::rows`].
    pub fn from_rows(rows: &[u8; FRAME_BYTES]) -> Self {
        let mut fb = FrameBuffer::new();
        for (i, &row_byte) in rows.iter().enumerate() {
            let (y, x0) = (i / ROW_BYTES, i % ROW_BYTES * 8);
            let page = (y / 8) * WIDTH as usize;
            for k in 0..8 {
                if let Some(b) = fb.buffer.get_mut(page + x0 + k) {
                    *b |= ((row_byte >> (7 - k)) & 1) << (y % 8);
                }
            }
        }
        fb
    }
}

impl OriginDimensions for FrameBuffer {
    fn size(&self) -> Size {
        Size::new(DISPLAY_WIDTH, DISPLAY_HEIGHT)
    }
}

impl FrameBuffer {
    /// Set (`on`) or clear pixel `(x, y)`; outside the display nothing. Out of line in the
    /// code-size build, where every pixel iterator's `draw_iter` calls it.
    #[cfg_attr(feature = "f32-render", inline(never))]
    fn put(&mut self, x: i32, y: i32, on: bool) {
        // A negative coordinate is a huge unsigned one.
        let (x, y) = (x as u32, y as u32);
        if x >= DISPLAY_WIDTH || y >= DISPLAY_HEIGHT {
            return;
        }
        let bit = 1u8 << (y % 8);
        // In range, as the display's pixels are; the `%` lets the compiler see it.
        let i = (y / 8 * DISPLAY_WIDTH + x) as usize % FRAME_BYTES;
        if let Some(b) = self.buffer.get_mut(i) {
            if on {
                *b |= bit;
            } else {
                *b &= !bit;
            }
        }
    }

    /// `fill_solid` a byte at a time: a run of bytes per page the rectangle crosses.
    #[inline]
    fn fill_bytes(&mut self, area: &Rectangle, color: BinaryColor) {
        let Some((x0, y0, x1, y1)) = crate::render::clip_span(area, 0, 0, WIDTH, HEIGHT) else {
            return;
        };
        let (x0, x1) = (x0 as usize, x1 as usize);
        if y1 == y0 + 1 {
            // One row (circle and triangle scanlines): one bit in each byte of the run.
            let row = (y0 as usize / 8) * WIDTH as usize;
            let bit = 1u8 << (y0 % 8);
            if let Some(bytes) = self.buffer.get_mut(row + x0..row + x1) {
                match color {
                    BinaryColor::On => bytes.iter_mut().for_each(|b| *b |= bit),
                    BinaryColor::Off => bytes.iter_mut().for_each(|b| *b &= !bit),
                }
            }
            return;
        }
        let (mut y, y1) = (y0 as u32, y1 as u32);
        while y < y1 {
            // Rows y..end of this page, as bits (y % 8)..(end − 8·page).
            let page = y / 8;
            let end = (page * 8 + 8).min(y1);
            let mask = ((0xffu32 << (y % 8)) & (0xffu32 >> (page * 8 + 8 - end))) as u8;
            let row = page as usize * WIDTH as usize;
            if let Some(bytes) = self.buffer.get_mut(row + x0..row + x1) {
                match color {
                    BinaryColor::On => bytes.iter_mut().for_each(|b| *b |= mask),
                    BinaryColor::Off => bytes.iter_mut().for_each(|b| *b &= !mask),
                }
            }
            y = end;
        }
    }

    /// `fill_solid` a pixel at a time, rows top to bottom: the code-size form of
    /// [`FrameBuffer::fill_bytes`].
    fn fill_pixels(&mut self, area: &Rectangle, color: BinaryColor) {
        let (x0, y0) = (area.top_left.x, area.top_left.y);
        // In i64: a rectangle reaching past i32::MAX ends there, beyond the display.
        let end = |start: i32, len: u32| (start as i64 + len as i64).min(i32::MAX as i64) as i32;
        // Only the part on the display (`put` drops the rest anyway).
        for y in y0.max(0)..end(y0, area.size.height).min(HEIGHT) {
            for x in x0.max(0)..end(x0, area.size.width).min(WIDTH) {
                self.put(x, y, color.is_on());
            }
        }
    }
}

impl DrawTarget for FrameBuffer {
    type Color = BinaryColor;
    type Error = core::convert::Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        if cfg!(feature = "f32-render") {
            for Pixel(p, c) in pixels {
                self.put(p.x, p.y, c.is_on());
            }
            return Ok(());
        }
        for Pixel(p, c) in pixels {
            if p.x < 0 || p.y < 0 || p.x >= WIDTH || p.y >= HEIGHT {
                continue;
            }
            let i = (p.y as usize / 8) * WIDTH as usize + p.x as usize;
            let bit = 1u8 << (p.y % 8);
            if let Some(b) = self.buffer.get_mut(i) {
                match c {
                    BinaryColor::On => *b |= bit,
                    BinaryColor::Off => *b &= !bit,
                }
            }
        }
        Ok(())
    }

    // Inlined where the renderer draws, and `fill_bytes` into it: out of line (as the compiler
    // chose without the hints after a change to `clip_span`) the RP2040's worst frame took
    // 356,902 cycles instead of 343,773 (rp2040js, `scripts/ci-rp2040.sh --measure`).
    #[cfg_attr(not(feature = "f32-render"), inline)]
    fn fill_solid(&mut self, area: &Rectangle, color: Self::Color) -> Result<(), Self::Error> {
        if cfg!(feature = "f32-render") {
            self.fill_pixels(area, color);
        } else {
            self.fill_bytes(area, color);
        }
        Ok(())
    }

    fn clear(&mut self, color: Self::Color) -> Result<(), Self::Error> {
        self.buffer.fill(match color {
            BinaryColor::On => 0xff,
            BinaryColor::Off => 0x00,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};

    /// The plainest possible target: one `bool` per pixel, set pixel by pixel.
    struct Plain([[bool; 128]; 64]);

    impl OriginDimensions for Plain {
        fn size(&self) -> Size {
            Size::new(DISPLAY_WIDTH, DISPLAY_HEIGHT)
        }
    }

    impl DrawTarget for Plain {
        type Color = BinaryColor;
        type Error = core::convert::Infallible;
        fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
        where
            I: IntoIterator<Item = Pixel<Self::Color>>,
        {
            for Pixel(p, c) in pixels {
                if let Some(px) = usize::try_from(p.y)
                    .ok()
                    .and_then(|y| self.0.get_mut(y))
                    .and_then(|row| row.get_mut(usize::try_from(p.x).ok()?))
                {
                    *px = c.is_on();
                }
            }
            Ok(())
        }
    }

    #[test]
    fn frame_buffer_matches_a_pixel_by_pixel_target() {
        // Random filled/outlined rectangles and single pixels, both colours, some off screen.
        let mut seed = 99u32;
        let mut next = |m: i32| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as i32 % m
        };
        for _ in 0..300 {
            let mut fb = FrameBuffer::new();
            let mut plain = Plain([[false; 128]; 64]);
            fb.clear(BinaryColor::Off).unwrap();
            for _ in 0..6 {
                let r = Rectangle::new(
                    Point::new(next(160) - 16, next(96) - 16),
                    Size::new(next(40) as u32, next(30) as u32),
                );
                let c = BinaryColor::from(next(3) != 0);
                let style = if next(2) == 0 {
                    PrimitiveStyle::with_fill(c)
                } else {
                    PrimitiveStyle::with_stroke(c, 1)
                };
                r.into_styled(style).draw(&mut fb).unwrap();
                r.into_styled(style).draw(&mut plain).unwrap();
                let p = Pixel(Point::new(next(140) - 6, next(76) - 6), c);
                p.draw(&mut fb).unwrap();
                p.draw(&mut plain).unwrap();
            }
            for (y, row) in plain.0.iter().enumerate() {
                for (x, &want) in row.iter().enumerate() {
                    assert_eq!(fb.get(x as i32, y as i32), want, "pixel ({x}, {y})");
                }
            }
            let lit: usize = plain.0.iter().flatten().filter(|&&p| p).count();
            assert_eq!(fb.lit() as usize, lit);
            // The row layout holds the same picture, and converts back.
            let rows = fb.rows();
            for (y, row) in plain.0.iter().enumerate() {
                for (x, &want) in row.iter().enumerate() {
                    let byte = rows[y * ROW_BYTES + x / 8];
                    assert_eq!(byte & (0x80 >> (x % 8)) != 0, want, "row pixel ({x}, {y})");
                }
            }
            let back = FrameBuffer::from_rows(&rows);
            assert_eq!(back.buffer(), fb.buffer());
            assert_eq!(back.differing(&fb), 0);
        }
    }

    #[test]
    fn fill_solid_sets_the_pixels_of_the_default_path() {
        let rects = [
            (0, 0, 0, 0),
            (0, 0, 1, 1),
            (3, 5, 7, 2),
            (-4, -2, 9, 6),
            (120, 60, 20, 10),
            (-10, 30, 200, 3),
            (5, -100, 4, 300),
        ];
        for (x, y, w, h) in rects {
            let r = Rectangle::new(Point::new(x, y), Size::new(w, h));
            for color in [BinaryColor::On, BinaryColor::Off] {
                // A pattern underneath, so that clearing pixels shows too.
                let mut pattern = [0u8; FRAME_BYTES];
                for (i, byte) in pattern.iter_mut().enumerate() {
                    *byte = (i * 37 % 251) as u8;
                }
                let mut a = FrameBuffer::from_rows(&pattern);
                let (mut b, mut c) = (a.clone(), a.clone());
                a.fill_bytes(&r, color);
                b.fill_pixels(&r, color);
                c.draw_iter(r.points().map(|p| Pixel(p, color))).unwrap();
                assert_eq!(a.buffer(), c.buffer(), "{r:?} {color:?}");
                assert_eq!(b.buffer(), c.buffer(), "{r:?} {color:?}");
            }
        }
        // Rectangles reaching past i32's range: no overflow, the display part set.
        let huge = Rectangle::new(
            Point::new(i32::MIN, i32::MIN),
            Size::new(u32::MAX, u32::MAX),
        );
        let far = Rectangle::new(Point::new(i32::MAX - 3, 2), Size::new(u32::MAX, 4));
        for fill in [FrameBuffer::fill_bytes, FrameBuffer::fill_pixels] {
            let mut a = FrameBuffer::new();
            fill(&mut a, &huge, BinaryColor::On);
            assert_eq!(a.lit(), DISPLAY_WIDTH * DISPLAY_HEIGHT);
            fill(&mut a, &far, BinaryColor::Off);
            assert_eq!(a.lit(), DISPLAY_WIDTH * DISPLAY_HEIGHT);
        }
    }

    #[test]
    fn layouts_page_major_and_rows() {
        let mut fb = FrameBuffer::new();
        for (x, y) in [(0, 0), (9, 1), (127, 63), (128, 0), (-1, 5)] {
            Pixel(Point::new(x, y), BinaryColor::On)
                .draw(&mut fb)
                .unwrap();
        }
        assert_eq!(fb.lit(), 3, "the two outside pixels are dropped");
        // Page-major: byte page·128 + x, bit y % 8.
        assert_eq!(fb.buffer()[0], 0x01);
        assert_eq!(fb.buffer()[9], 0x02);
        assert_eq!(fb.buffer()[FRAME_BYTES - 1], 0x80);
        // Rows: 16 bytes a row, most significant bit leftmost.
        let rows = fb.rows();
        assert_eq!(rows[0], 0x80);
        assert_eq!(rows[ROW_BYTES + 1], 0x40);
        assert_eq!(rows[FRAME_BYTES - 1], 0x01);
        assert!(fb.get(9, 1) && !fb.get(8, 1) && !fb.get(200, 0) && !fb.get(-1, 5));
        let text = format!("{fb:?}");
        assert!(text.starts_with("FrameBuffer (3 lit):\n#..."), "{text}");
        assert_eq!(text.lines().count(), 65);
        fb.clear(BinaryColor::On).unwrap();
        assert_eq!(fb.lit(), DISPLAY_WIDTH * DISPLAY_HEIGHT);
        assert_eq!(fb.rows(), [0xff; FRAME_BYTES]);
        assert_eq!(
            fb.differing(&FrameBuffer::new()),
            DISPLAY_WIDTH * DISPLAY_HEIGHT
        );
    }
}
