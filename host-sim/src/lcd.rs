//! An in-memory 128×64 1-bit display: the desktop stand-in for the handheld's SSD1306.
//!
//! [`Lcd`] implements embedded-graphics' `DrawTarget<Color = BinaryColor>`, so the firmware's
//! [`hopkit_demo::render::draw_frame`] draws into it unchanged. It can be saved and loaded as a
//! binary PBM (`P4`: a one-line header and the packed 1-bpp rows, MSB first, 1 = lit), which is what
//! the golden rendering tests compare against.

use std::convert::Infallible;
use std::path::Path;

use anyhow::{bail, Context, Result};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use hopkit_demo::view::{DISPLAY_HEIGHT, DISPLAY_WIDTH};

/// Display width, pixels.
pub const W: usize = DISPLAY_WIDTH as usize;
/// Display height, pixels.
pub const H: usize = DISPLAY_HEIGHT as usize;

/// A 1-bit frame buffer of the handheld display. Out-of-range pixels are ignored (like the real
/// display driver).
#[derive(Clone, PartialEq, Eq)]
pub struct Lcd {
    px: Vec<bool>,
}

impl Default for Lcd {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Lcd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for y in 0..H {
            let row: String = (0..W)
                .map(|x| if self.get(x, y) { '#' } else { '.' })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

impl Lcd {
    /// A blank (all dark) display.
    pub fn new() -> Self {
        Lcd {
            px: vec![false; W * H],
        }
    }

    /// Is pixel `(x, y)` lit? Out of range → false.
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < W && y < H && self.px[y * W + x]
    }

    /// Number of lit pixels.
    pub fn lit(&self) -> usize {
        self.px.iter().filter(|&&p| p).count()
    }

    /// Packed rows, MSB first, 1 = lit (the PBM `P4` payload: 16 bytes per row).
    pub fn to_packed(&self) -> Vec<u8> {
        let mut out = vec![0u8; W / 8 * H];
        for (i, &on) in self.px.iter().enumerate() {
            if on {
                out[i / 8] |= 0x80 >> (i % 8);
            }
        }
        out
    }

    /// Binary PBM (`P4`) bytes.
    pub fn to_pbm(&self) -> Vec<u8> {
        let mut out = format!("P4\n{W} {H}\n").into_bytes();
        out.extend(self.to_packed());
        out
    }

    /// Parse a binary PBM written by [`Lcd::to_pbm`] (128×64 only).
    pub fn from_pbm(bytes: &[u8]) -> Result<Self> {
        let header = format!("P4\n{W} {H}\n");
        let Some(payload) = bytes.strip_prefix(header.as_bytes()) else {
            bail!("not a {W}x{H} binary PBM (expected header {header:?})");
        };
        if payload.len() != W / 8 * H {
            bail!(
                "PBM payload is {} bytes, expected {}",
                payload.len(),
                W / 8 * H
            );
        }
        let mut lcd = Lcd::new();
        for (i, px) in lcd.px.iter_mut().enumerate() {
            *px = payload[i / 8] & (0x80 >> (i % 8)) != 0;
        }
        Ok(lcd)
    }

    /// Save as binary PBM.
    pub fn save_pbm(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_pbm()).with_context(|| format!("writing {}", path.display()))
    }

    /// Load a binary PBM.
    pub fn load_pbm(path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        Self::from_pbm(&bytes).with_context(|| format!("parsing {}", path.display()))
    }

    /// Pixels that differ from `other`.
    pub fn diff_count(&self, other: &Lcd) -> usize {
        self.px
            .iter()
            .zip(&other.px)
            .filter(|(a, b)| a != b)
            .count()
    }
}

impl OriginDimensions for Lcd {
    fn size(&self) -> Size {
        Size::new(DISPLAY_WIDTH, DISPLAY_HEIGHT)
    }
}

impl DrawTarget for Lcd {
    type Color = BinaryColor;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        for Pixel(p, c) in pixels {
            if p.x >= 0 && p.y >= 0 && (p.x as usize) < W && (p.y as usize) < H {
                self.px[p.y as usize * W + p.x as usize] = c.is_on();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pbm_round_trip_and_clipping() {
        let mut lcd = Lcd::new();
        Pixel(Point::new(0, 0), BinaryColor::On)
            .draw(&mut lcd)
            .unwrap();
        Pixel(Point::new(127, 63), BinaryColor::On)
            .draw(&mut lcd)
            .unwrap();
        Pixel(Point::new(128, 0), BinaryColor::On)
            .draw(&mut lcd)
            .unwrap();
        Pixel(Point::new(-1, 5), BinaryColor::On)
            .draw(&mut lcd)
            .unwrap();
        assert_eq!(lcd.lit(), 2);
        let back = Lcd::from_pbm(&lcd.to_pbm()).unwrap();
        assert_eq!(back, lcd);
        assert_eq!(lcd.to_packed()[0], 0x80);
        assert!(Lcd::from_pbm(b"P4\n1 1\n\0").is_err());
    }
}
