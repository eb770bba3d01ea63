//! A 1-bit-per-pixel 128×64 framebuffer the host reads from linear memory.
//!
//! Layout (1024 bytes): row-major, 16 bytes per row, top row first; within a byte the most
//! significant bit is the leftmost pixel (the PBM `P4` layout). A set bit is a lit pixel.

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;

/// Width in pixels.
pub const WIDTH: u32 = hopkit_demo::view::DISPLAY_WIDTH;
/// Height in pixels.
pub const HEIGHT: u32 = hopkit_demo::view::DISPLAY_HEIGHT;
/// Bytes per row.
pub const STRIDE: usize = WIDTH as usize / 8;
/// Size in bytes (1 KiB).
pub const LEN: usize = STRIDE * HEIGHT as usize;

/// The framebuffer.
#[derive(Clone, PartialEq, Eq)]
pub struct Framebuffer {
    /// The pixels, see the module docs.
    pub bytes: [u8; LEN],
}

impl Default for Framebuffer {
    fn default() -> Self {
        Framebuffer { bytes: [0; LEN] }
    }
}

impl core::fmt::Debug for Framebuffer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Framebuffer({} lit)", self.lit())
    }
}

impl Framebuffer {
    /// Whether pixel (`x`, `y`) is lit; false outside.
    pub fn pixel(&self, x: u32, y: u32) -> bool {
        if x >= WIDTH || y >= HEIGHT {
            return false;
        }
        let i = y as usize * STRIDE + x as usize / 8;
        self.bytes
            .get(i)
            .is_some_and(|b| b & (0x80 >> (x % 8)) != 0)
    }

    /// Number of lit pixels.
    pub fn lit(&self) -> u32 {
        self.bytes.iter().map(|b| b.count_ones()).sum()
    }

    fn set(&mut self, x: i32, y: i32, on: bool) {
        if x < 0 || y < 0 || x >= WIDTH as i32 || y >= HEIGHT as i32 {
            return;
        }
        let i = y as usize * STRIDE + x as usize / 8;
        let bit = 0x80u8 >> (x as u32 % 8);
        if let Some(b) = self.bytes.get_mut(i) {
            if on {
                *b |= bit;
            } else {
                *b &= !bit;
            }
        }
    }
}

impl OriginDimensions for Framebuffer {
    fn size(&self) -> Size {
        Size::new(WIDTH, HEIGHT)
    }
}

impl DrawTarget for Framebuffer {
    type Color = BinaryColor;
    type Error = core::convert::Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        for Pixel(p, c) in pixels {
            self.set(p.x, p.y, c.is_on());
        }
        Ok(())
    }

    /// The pixels of `area` on the display, in rows, top to bottom, left to right: what the
    /// default (through `fill_contiguous` and `draw_iter` with `area.points()`) sets, without the
    /// iterator adapters.
    fn fill_solid(&mut self, area: &Rectangle, color: Self::Color) -> Result<(), Self::Error> {
        let (x0, y0) = (area.top_left.x, area.top_left.y);
        // In i64: a rectangle reaching past i32::MAX ends there, beyond the display.
        let end = |start: i32, len: u32| (start as i64 + len as i64).min(i32::MAX as i64) as i32;
        // Only the part on the display: outside pixels are dropped by `set` anyway.
        let (ys, ye) = (y0.max(0), end(y0, area.size.height).min(HEIGHT as i32));
        let (xs, xe) = (x0.max(0), end(x0, area.size.width).min(WIDTH as i32));
        for y in ys..ye {
            for x in xs..xe {
                self.set(x, y, color.is_on());
            }
        }
        Ok(())
    }

    fn clear(&mut self, color: Self::Color) -> Result<(), Self::Error> {
        self.bytes = [if color.is_on() { 0xff } else { 0 }; LEN];
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                let (mut a, mut b) = (Framebuffer::default(), Framebuffer::default());
                // A pattern underneath, so that clearing pixels shows too.
                for (i, byte) in a.bytes.iter_mut().enumerate() {
                    *byte = (i * 37 % 251) as u8;
                }
                b.bytes = a.bytes;
                a.fill_solid(&r, color).unwrap();
                b.draw_iter(r.points().map(|p| Pixel(p, color))).unwrap();
                assert_eq!(a.bytes, b.bytes, "{r:?} {color:?}");
            }
        }
        // Rectangles reaching past i32's range: no overflow, the display part set.
        let mut a = Framebuffer::default();
        let huge = Rectangle::new(
            Point::new(i32::MIN, i32::MIN),
            Size::new(u32::MAX, u32::MAX),
        );
        a.fill_solid(&huge, BinaryColor::On).unwrap();
        assert_eq!(a.lit(), WIDTH * HEIGHT);
        let far = Rectangle::new(Point::new(i32::MAX - 3, 2), Size::new(u32::MAX, 4));
        a.fill_solid(&far, BinaryColor::Off).unwrap();
        assert_eq!(a.lit(), WIDTH * HEIGHT);
    }
}
