//! A 24-bit RGB frame buffer for the desktop window and PNG files.
//!
//! Pixels are stored as `0x00RRGGBB` words (the layout `minifb` wants). [`Canvas`] implements
//! embedded-graphics' `DrawTarget<Color = Rgb888>`, so desktop overlays use the same primitives and
//! mono fonts as the handheld renderer, and nothing needs system fonts.

use std::convert::Infallible;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};
use embedded_graphics::pixelcolor::{Rgb888, RgbColor};
use embedded_graphics::prelude::*;

/// An RGB frame buffer. Out-of-range pixels are ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canvas {
    /// Width, pixels.
    pub width: usize,
    /// Height, pixels.
    pub height: usize,
    /// Row-major pixels, `0x00RRGGBB`.
    pub pixels: Vec<u32>,
}

/// Pack an RGB colour into a `0x00RRGGBB` word.
pub fn pack(c: Rgb888) -> u32 {
    (u32::from(c.r()) << 16) | (u32::from(c.g()) << 8) | u32::from(c.b())
}

/// Mix `a` towards `b` by `t` in `[0, 1]`.
pub fn mix(a: Rgb888, b: Rgb888, t: f32) -> Rgb888 {
    let t = t.clamp(0.0, 1.0);
    let l = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Rgb888::new(l(a.r(), b.r()), l(a.g(), b.g()), l(a.b(), b.b()))
}

impl Canvas {
    /// A canvas filled with `bg`.
    pub fn new(width: usize, height: usize, bg: Rgb888) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![pack(bg); width * height],
        }
    }

    /// Fill everything with `c`.
    pub fn fill(&mut self, c: Rgb888) {
        self.pixels.fill(pack(c));
    }

    /// Set one pixel (ignored when out of range).
    pub fn put(&mut self, x: i64, y: i64, c: Rgb888) {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            self.pixels[y as usize * self.width + x as usize] = pack(c);
        }
    }

    /// Read one pixel as RGB (black when out of range).
    pub fn get(&self, x: usize, y: usize) -> Rgb888 {
        if x < self.width && y < self.height {
            let p = self.pixels[y * self.width + x];
            Rgb888::new((p >> 16) as u8, (p >> 8) as u8, p as u8)
        } else {
            Rgb888::BLACK
        }
    }

    /// Fill the rectangle `[x0, x0 + w) × [y0, y0 + h)` (clipped).
    pub fn fill_rect(&mut self, x0: i64, y0: i64, w: i64, h: i64, c: Rgb888) {
        let word = pack(c);
        let xa = x0.max(0) as usize;
        let ya = y0.max(0) as usize;
        let xb = (x0 + w).clamp(0, self.width as i64) as usize;
        let yb = (y0 + h).clamp(0, self.height as i64) as usize;
        for y in ya..yb {
            let row = y * self.width;
            if xa < xb {
                self.pixels[row + xa..row + xb].fill(word);
            }
        }
    }

    /// Interleaved 8-bit RGB bytes (for PNG encoding).
    pub fn to_rgb8(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.pixels.len() * 3);
        for p in &self.pixels {
            out.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, *p as u8]);
        }
        out
    }

    /// Wrap an interleaved RGB8 buffer (as plotters' bitmap backend writes).
    pub fn from_rgb8(width: usize, height: usize, rgb: &[u8]) -> Self {
        let pixels = rgb
            .chunks_exact(3)
            .map(|c| (u32::from(c[0]) << 16) | (u32::from(c[1]) << 8) | u32::from(c[2]))
            .collect();
        Canvas {
            width,
            height,
            pixels,
        }
    }

    /// Write the canvas as an 8-bit RGB PNG.
    pub fn save_png(&self, path: &Path) -> Result<()> {
        write_png_rgb(path, self.width as u32, self.height as u32, &self.to_rgb8())
    }

    /// Encode the canvas as a PNG into `out`.
    pub fn write_png(&self, out: &mut dyn Write) -> Result<()> {
        encode_png_rgb(out, self.width as u32, self.height as u32, &self.to_rgb8())
    }
}

/// Write interleaved RGB8 bytes as a PNG file.
pub fn write_png_rgb(path: &Path, width: u32, height: u32, rgb: &[u8]) -> Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut w = BufWriter::new(file);
    encode_png_rgb(&mut w, width, height, rgb)
        .with_context(|| format!("writing {}", path.display()))?;
    w.flush()
        .with_context(|| format!("writing {}", path.display()))
}

/// Encode interleaved RGB8 bytes as a PNG into `out`.
pub fn encode_png_rgb(out: &mut dyn Write, width: u32, height: u32, rgb: &[u8]) -> Result<()> {
    let mut enc = png::Encoder::new(out, width, height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().context("writing the PNG header")?;
    writer
        .write_image_data(rgb)
        .context("writing the PNG data")?;
    writer.finish().context("finishing the PNG")?;
    Ok(())
}

impl OriginDimensions for Canvas {
    fn size(&self) -> Size {
        Size::new(self.width as u32, self.height as u32)
    }
}

impl DrawTarget for Canvas {
    type Color = Rgb888;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        for Pixel(p, c) in pixels {
            self.put(i64::from(p.x), i64::from(p.y), c);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_get_and_png() {
        let mut c = Canvas::new(4, 3, Rgb888::BLACK);
        c.put(1, 2, Rgb888::new(10, 20, 30));
        c.put(-1, 0, Rgb888::WHITE);
        c.put(4, 0, Rgb888::WHITE);
        assert_eq!(c.get(1, 2), Rgb888::new(10, 20, 30));
        assert_eq!(c.pixels.iter().filter(|&&p| p != 0).count(), 1);
        let back = Canvas::from_rgb8(4, 3, &c.to_rgb8());
        assert_eq!(back, c);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.png");
        c.save_png(&path).unwrap();
        assert!(std::fs::read(&path).unwrap().starts_with(b"\x89PNG"));
        assert_eq!(
            mix(Rgb888::BLACK, Rgb888::WHITE, 0.5),
            Rgb888::new(128, 128, 128)
        );
    }
}
