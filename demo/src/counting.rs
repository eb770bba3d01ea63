//! A drawing target without a display: [`PixelCounter`] counts and fingerprints what is drawn.
//!
//! The QEMU demo image and the host-hash example draw every frame through the real renderer into a
//! [`PixelCounter`], so drawing is exercised and compared across platforms without a display. Its
//! fingerprint is an FNV-1a hash over the `(x, y, colour)` of every pixel drawn since the last clear,
//! in drawing order, so two platforms that draw the same frame the same way print the same
//! fingerprint. That hashing costs a 64-bit multiply per byte, far more than setting a bit; the
//! instruction-count harness therefore draws into a [`FrameBuffer`](crate::framebuffer::FrameBuffer)
//! (what the device draws into) and fingerprints its bytes outside the timed span.

use crate::view::{DISPLAY_HEIGHT, DISPLAY_WIDTH};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
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

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};

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
