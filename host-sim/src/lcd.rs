//! The handheld's display on the desktop: the demo's own 1-bit display buffer
//! ([`FrameBuffer`], the one the boards and carts draw into), saved and loaded as a binary PBM
//! (`P4`: a one-line header and the packed 1-bpp rows, MSB first, 1 = lit), which is what the
//! golden rendering tests compare against.

use std::path::Path;

use anyhow::{bail, Context, Result};
use hopkit_demo::framebuffer::{FrameBuffer, FRAME_BYTES};
use hopkit_demo::view::{DISPLAY_HEIGHT, DISPLAY_WIDTH};

/// Display width, pixels.
pub const W: usize = DISPLAY_WIDTH as usize;
/// Display height, pixels.
pub const H: usize = DISPLAY_HEIGHT as usize;

/// The PBM header of a 128×64 picture.
fn header() -> String {
    format!("P4\n{W} {H}\n")
}

/// Binary PBM (`P4`) bytes of `fb`.
pub fn to_pbm(fb: &FrameBuffer) -> Vec<u8> {
    let mut out = header().into_bytes();
    out.extend(fb.rows());
    out
}

/// Parse a binary PBM written by [`to_pbm`] (128×64 only).
pub fn from_pbm(bytes: &[u8]) -> Result<FrameBuffer> {
    let header = header();
    let Some(payload) = bytes.strip_prefix(header.as_bytes()) else {
        bail!("not a {W}x{H} binary PBM (expected header {header:?})");
    };
    let Ok(rows) = <&[u8; FRAME_BYTES]>::try_from(payload) else {
        bail!(
            "PBM payload is {} bytes, expected {FRAME_BYTES}",
            payload.len()
        );
    };
    Ok(FrameBuffer::from_rows(rows))
}

/// Save `fb` as binary PBM.
pub fn save_pbm(fb: &FrameBuffer, path: &Path) -> Result<()> {
    std::fs::write(path, to_pbm(fb)).with_context(|| format!("writing {}", path.display()))
}

/// Load a binary PBM.
pub fn load_pbm(path: &Path) -> Result<FrameBuffer> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    from_pbm(&bytes).with_context(|| format!("parsing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics::pixelcolor::BinaryColor;
    use embedded_graphics::prelude::*;

    #[test]
    fn pbm_round_trip_and_clipping() {
        let mut fb = FrameBuffer::new();
        for (x, y) in [(0, 0), (127, 63), (128, 0), (-1, 5)] {
            Pixel(Point::new(x, y), BinaryColor::On)
                .draw(&mut fb)
                .unwrap();
        }
        assert_eq!(fb.lit(), 2);
        let pbm = to_pbm(&fb);
        assert_eq!(pbm.len(), header().len() + FRAME_BYTES);
        assert_eq!(
            pbm[header().len()],
            0x80,
            "top-left pixel: the first byte's MSB"
        );
        let back = from_pbm(&pbm).unwrap();
        assert_eq!(back, fb);
        assert!(from_pbm(b"P4\n1 1\n\0").is_err());
        assert!(from_pbm(&pbm[..pbm.len() - 1]).is_err());
    }
}
