//! The HUD's text: ASCII in embedded-graphics' `FONT_4X6`, blitted straight from the font's
//! bitmap.
//!
//! The HUD prints a few digits, `.` and `x` per frame. embedded-graphics' general `Text` drawable
//! (text styles, baselines, decorations, a `dyn` glyph mapping, `&str` input, which the digit
//! writer would have to validate with `core::str::from_utf8`) costs ≈ 3.5 KB of flash on the
//! Cortex-M4F; this blitter reads the same glyph bitmap and draws the same pixels (lit pixels only,
//! transparent background, top-left anchored) for a few hundred bytes. The test below checks it
//! pixel for pixel against `Text` for every printable ASCII character.

use embedded_graphics::image::GetPixel;
use embedded_graphics::mono_font::ascii::FONT_4X6;
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;

/// Horizontal advance per character, pixels (glyph width + the font's spacing).
pub const ADVANCE: i32 = (FONT_4X6.character_size.width + FONT_4X6.character_spacing) as i32;

/// Glyph width and height, pixels. Constants (not read from the font at run time), so the pixel
/// iterators divide by known non-zero numbers: no division checks and their panic paths.
const CW: i32 = FONT_4X6.character_size.width as i32;
const CH: i32 = FONT_4X6.character_size.height as i32;

/// First character of the ASCII font's glyph table (its glyphs are `' '..='~'` in order).
const FIRST: u8 = b' ';
/// Last printable ASCII character.
const LAST: u8 = b'~';
/// Drawn for bytes outside `' '..='~'`, as embedded-graphics' ASCII mapping does.
const REPLACEMENT: u8 = b'?';

/// The HUD's characters `0`–`9`, `.`, `x` as packed 4×6 bitmaps (bit `4·row + column`), read from
/// `FONT_4X6` (tested): drawn from these without the per-pixel `ImageRaw` lookups.
const HUD_GLYPHS: [u32; 12] = [
    0x025752, 0x072232, 0x072452, 0x034247, 0x044755, 0x034317, 0x025316, 0x011247, 0x035256,
    0x034652, 0x020000, 0x052250,
];

/// The packed bitmap of `b` if it is one of [`HUD_GLYPHS`].
fn hud_glyph(b: u8) -> Option<u32> {
    let i = match b {
        b'0'..=b'9' => usize::from(b - b'0'),
        b'.' => 10,
        b'x' => 11,
        _ => return None,
    };
    HUD_GLYPHS.get(i).copied()
}

/// Draw `text` (ASCII bytes; others show as `?`) with its top-left corner at `top_left`: lit
/// pixels only, background untouched. Returns the x just past the last character.
pub fn draw_text<D: DrawTarget<Color = BinaryColor>>(
    text: &[u8],
    top_left: Point,
    target: &mut D,
) -> Result<i32, D::Error> {
    let mut x = top_left.x;
    for &b in text {
        let bits = hud_glyph(b).unwrap_or_else(|| font_glyph(b));
        let at = Point::new(x, top_left.y);
        // Row by row, left to right. Unsigned, and the constant named inside the closure (a
        // captured copy would be a run-time value to the draw target's loop): `% 4` and `/ 4` are
        // a mask and a shift.
        let lit = (0..GLYPH_PIXELS)
            .filter(move |i| bits >> i & 1 != 0)
            .map(move |i| {
                Pixel(
                    at + Point::new((i % CW as u32) as i32, (i / CW as u32) as i32),
                    BinaryColor::On,
                )
            });
        target.draw_iter(lit)?;
        x += ADVANCE;
    }
    Ok(x)
}

/// Pixels per glyph (4 × 6 = 24, one bit each in a packed bitmap).
const GLYPH_PIXELS: u32 = (CH * CW) as u32;

/// The packed bitmap (as [`HUD_GLYPHS`]) of any byte's glyph, read from `FONT_4X6`'s image;
/// bytes outside `' '..='~'` give [`REPLACEMENT`]'s.
fn font_glyph(b: u8) -> u32 {
    let b = if (FIRST..=LAST).contains(&b) {
        b
    } else {
        REPLACEMENT
    };
    let per_row = (FONT_4X6.image.size().width as i32 / CW).max(1);
    let g = i32::from(b - FIRST);
    let origin = Point::new((g % per_row) * CW, (g / per_row) * CH);
    (0..GLYPH_PIXELS).fold(0, |bits, i| {
        let d = Point::new((i % CW as u32) as i32, (i / CW as u32) as i32);
        match FONT_4X6.image.pixel(origin + d) {
            Some(BinaryColor::On) => bits | 1 << i,
            _ => bits,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics::mock_display::MockDisplay;
    use embedded_graphics::mono_font::MonoTextStyle;
    use embedded_graphics::text::{Baseline, Text};

    #[test]
    fn matches_embedded_graphics_text_for_all_printable_ascii() {
        let style = MonoTextStyle::new(&FONT_4X6, BinaryColor::On);
        for b in FIRST..=LAST {
            let s = [b, b'7', b];
            let mut ours = MockDisplay::<BinaryColor>::new();
            let mut theirs = MockDisplay::<BinaryColor>::new();
            let end = draw_text(&s, Point::new(3, 2), &mut ours).unwrap();
            let text = core::str::from_utf8(&s).unwrap();
            let next = Text::with_baseline(text, Point::new(3, 2), style, Baseline::Top)
                .draw(&mut theirs)
                .unwrap();
            ours.assert_eq(&theirs);
            assert_eq!(end, next.x, "advance after {:?}", b as char);
        }
    }

    #[test]
    fn hud_glyphs_are_the_font_glyphs() {
        let font = &FONT_4X6;
        let per_row = font.image.size().width as i32 / 4;
        for b in FIRST..=LAST {
            let Some(bits) = hud_glyph(b) else { continue };
            assert_eq!(font_glyph(b), bits, "{:?}", b as char);
            let g = i32::from(b - FIRST);
            let origin = Point::new((g % per_row) * 4, (g / per_row) * 6);
            for dy in 0..6 {
                for dx in 0..4 {
                    let on = font.image.pixel(origin + Point::new(dx, dy)) == Some(BinaryColor::On);
                    assert_eq!(
                        bits >> (dy * 4 + dx) & 1 != 0,
                        on,
                        "{:?} ({dx}, {dy})",
                        b as char
                    );
                }
            }
        }
    }

    #[test]
    fn non_ascii_bytes_draw_the_replacement_glyph() {
        let mut a = MockDisplay::<BinaryColor>::new();
        let mut b = MockDisplay::<BinaryColor>::new();
        draw_text(&[0x07, 0xff], Point::zero(), &mut a).unwrap();
        draw_text(b"??", Point::zero(), &mut b).unwrap();
        a.assert_eq(&b);
    }

    #[test]
    fn clipped_text_is_fine() {
        // Partly off the left/top edge: pixels outside are dropped by the target, never a panic.
        let mut d = MockDisplay::<BinaryColor>::new();
        d.set_allow_out_of_bounds_drawing(true);
        draw_text(b"x1.6", Point::new(-5, -3), &mut d).unwrap();
    }
}
