//! Drawing targets without a display: [`PixelCounter`] counts and fingerprints what is drawn,
//! [`FrameBuffer`] keeps the picture in the handheld's own 1 KiB layout.
//!
//! The QEMU demo image and the host-hash example draw every frame through the real renderer into a
//! [`PixelCounter`], so drawing is exercised and compared across platforms without a display. Its
//! fingerprint is an FNV-1a hash over the `(x, y, colour)` of every pixel drawn since the last clear,
//! in drawing order, so two platforms that draw the same frame the same way print the same
//! fingerprint. That hashing costs a 64-bit multiply per byte, far more than setting a bit; the
//! instruction-count harness therefore draws into a [`FrameBuffer`] (what the device draws into) and
//! fingerprints its bytes outside the timed span.

use crate::view::{DISPLAY_HEIGHT, DISPLAY_WIDTH};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use hopkit::hash::StateHasher;

/// Counts pixels drawn onto a virtual 128×64 display. Never fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelCounter {
    /// Pixels set `On` inside the display since the last clear (overdraw counts again).
    pub on: u32,
    /// Pixels set `Off` inside the display since the last clear (not counting the clear itself).
    pub off: u32,
    /// Pixels outside the display that were dropped since the last clear.
    pub clipped: u32,
    /// Clears so far (the renderer clears once per frame, so this counts frames).
    pub clears: u32,
    /// Pixels set `On` over all frames (saturating).
    pub on_total: u64,
    fingerprint: StateHasher,
}

impl Default for PixelCounter {
    fn default() -> Self {
        Self::new()
    }
}

impl PixelCounter {
    /// All counts zero.
    pub const fn new() -> Self {
        PixelCounter {
            on: 0,
            off: 0,
            clipped: 0,
            clears: 0,
            on_total: 0,
            fingerprint: StateHasher::new(),
        }
    }

    /// Fingerprint of the frame drawn since the last clear.
    pub fn frame_fingerprint(&self) -> u64 {
        self.fingerprint.finish()
    }

    fn put(&mut self, p: Point, c: BinaryColor) {
        let inside =
            p.x >= 0 && p.y >= 0 && (p.x as u32) < DISPLAY_WIDTH && (p.y as u32) < DISPLAY_HEIGHT;
        if !inside {
            self.clipped = self.clipped.saturating_add(1);
            return;
        }
        // Both coordinates are in 0..128 here.
        self.fingerprint.write_u8(p.x as u8);
        self.fingerprint.write_u8(p.y as u8);
        self.fingerprint.write_bool(c.is_on());
        if c.is_on() {
            self.on = self.on.saturating_add(1);
            self.on_total = self.on_total.saturating_add(1);
        } else {
            self.off = self.off.saturating_add(1);
        }
    }
}

impl OriginDimensions for PixelCounter {
    fn size(&self) -> Size {
        Size::new(DISPLAY_WIDTH, DISPLAY_HEIGHT)
    }
}

impl DrawTarget for PixelCounter {
    type Color = BinaryColor;
    type Error = core::convert::Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        for Pixel(p, c) in pixels {
            self.put(p, c);
        }
        Ok(())
    }

    fn clear(&mut self, color: Self::Color) -> Result<(), Self::Error> {
        self.on = 0;
        self.off = 0;
        self.clipped = 0;
        self.clears = self.clears.saturating_add(1);
        self.fingerprint = StateHasher::new();
        self.fingerprint.write_bool(color.is_on());
        Ok(())
    }
}

const WIDTH: i32 = DISPLAY_WIDTH as i32;
const HEIGHT: i32 = DISPLAY_HEIGHT as i32;

/// Bytes of a [`FrameBuffer`]: one bit per pixel.
pub const FRAME_BYTES: usize = (DISPLAY_WIDTH * DISPLAY_HEIGHT / 8) as usize;

/// A 128×64 1-bpp frame buffer in the SSD1306's page-major layout (byte `page·128 + x` holds
/// pixels `(x, 8·page ..= 8·page + 7)`, bit `y % 8`), the same as `hopkit_firmware::oled::Oled`'s buffer
/// without the I2C side. Pixels outside the display are dropped. Rectangles (`fill_solid`, which
/// embedded-graphics' filled rectangles and circle scanlines use) are filled a byte at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameBuffer {
    buffer: [u8; FRAME_BYTES],
    /// Clears so far (the renderer clears once per frame, so this counts frames).
    pub clears: u32,
}

impl Default for FrameBuffer {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameBuffer {
    /// All pixels off.
    pub const fn new() -> Self {
        FrameBuffer {
            buffer: [0; FRAME_BYTES],
            clears: 0,
        }
    }

    /// The buffer (page-major, see [`FrameBuffer`]).
    pub fn buffer(&self) -> &[u8; FRAME_BYTES] {
        &self.buffer
    }

    /// Is pixel `(x, y)` lit? Outside the display → false.
    pub fn get(&self, x: i32, y: i32) -> bool {
        if x < 0 || y < 0 || x >= DISPLAY_WIDTH as i32 || y >= DISPLAY_HEIGHT as i32 {
            return false;
        }
        let i = (y as usize / 8) * DISPLAY_WIDTH as usize + x as usize;
        self.buffer.get(i).is_some_and(|b| b & (1 << (y % 8)) != 0)
    }

    /// Number of lit pixels.
    pub fn lit(&self) -> u32 {
        self.buffer.iter().map(|b| b.count_ones()).sum()
    }

    /// FNV-1a hash of the buffer's bytes: depends on the picture only, not on the drawing order.
    pub fn fingerprint(&self) -> u64 {
        let mut h = StateHasher::new();
        h.write_bytes(&self.buffer);
        h.finish()
    }
}

impl OriginDimensions for FrameBuffer {
    fn size(&self) -> Size {
        Size::new(DISPLAY_WIDTH, DISPLAY_HEIGHT)
    }
}

impl DrawTarget for FrameBuffer {
    type Color = BinaryColor;
    type Error = core::convert::Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        for Pixel(p, c) in pixels {
            if p.x < 0 || p.y < 0 || p.x >= DISPLAY_WIDTH as i32 || p.y >= DISPLAY_HEIGHT as i32 {
                continue;
            }
            let i = (p.y as usize / 8) * DISPLAY_WIDTH as usize + p.x as usize;
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

    fn fill_solid(&mut self, area: &Rectangle, color: Self::Color) -> Result<(), Self::Error> {
        let Some((x0, y0, x1, y1)) = crate::render::clip_span(area, 0, 0, WIDTH, HEIGHT) else {
            return Ok(());
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
            return Ok(());
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
        Ok(())
    }

    fn clear(&mut self, color: Self::Color) -> Result<(), Self::Error> {
        self.buffer.fill(match color {
            BinaryColor::On => 0xff,
            BinaryColor::Off => 0x00,
        });
        self.clears = self.clears.saturating_add(1);
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
        }
    }

    #[test]
    fn counts_inside_pixels_and_drops_outside_ones() {
        let mut c = PixelCounter::new();
        c.clear(BinaryColor::Off).unwrap();
        // 4x3 filled rectangle straddling the left edge: x = -2..2 → only x = 0, 1 inside.
        Rectangle::new(Point::new(-2, 10), Size::new(4, 3))
            .into_styled(PrimitiveStyle::with_fill(BinaryColor::On))
            .draw(&mut c)
            .unwrap();
        assert_eq!(c.on, 6);
        assert_eq!(c.clipped, 6);
        assert_eq!(c.on_total, 6);
        assert_eq!(c.clears, 1);
    }

    #[test]
    fn clear_starts_a_new_frame_and_fingerprints_differ_by_content() {
        let mut c = PixelCounter::new();
        let draw = |c: &mut PixelCounter, x: i32| {
            c.clear(BinaryColor::Off).unwrap();
            Pixel(Point::new(x, 5), BinaryColor::On).draw(c).unwrap();
            c.frame_fingerprint()
        };
        let a = draw(&mut c, 3);
        let b = draw(&mut c, 4);
        let a2 = draw(&mut c, 3);
        assert_ne!(a, b);
        assert_eq!(a, a2);
        assert_eq!(c.on, 1);
        assert_eq!(c.on_total, 3);
        assert_eq!(c.clears, 3);
    }
}
