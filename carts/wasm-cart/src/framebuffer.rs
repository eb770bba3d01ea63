//! A 1-bit-per-pixel 128×64 framebuffer the host reads from linear memory.
//!
//! Layout (1024 bytes): row-major, 16 bytes per row, top row first; within a byte the most
//! significant bit is the leftmost pixel (the PBM `P4` layout). A set bit is a lit pixel.

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;

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

    fn clear(&mut self, color: Self::Color) -> Result<(), Self::Error> {
        self.bytes = [if color.is_on() { 0xff } else { 0 }; LEN];
        Ok(())
    }
}
