//! The status line over the playfield (the top [`HUD_HEIGHT`] rows): the speed as text, the speed
//! bar with its ground-max tick, the ratio to ground max, the tilt gauge and the dotted separator.
//! Its text goes through [`super::text`].

use super::fixed::{round_q16, sin_cos_turns, turns_q24, TURNS_PER_DEG_Q40};
use super::shapes::{stroke_rect, thin_line};
use super::{clamp_i, finite_nonneg, text, HUD_HEIGHT, SPEED_BAR_FULL_SCALE, WIDTH};
use crate::view::DemoView;
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Line, Rectangle};
use hopkit::math::scalar::{round, sin_cos};

/// The status line: speed (one decimal when speeds are small), a bar up to
/// [`SPEED_BAR_FULL_SCALE`]× ground max with a tick at ground max, the ratio to ground max,
/// and the player's tilt as a leaning stroke.
pub(super) fn draw_hud<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    target: &mut D,
) -> Result<(), D::Error> {
    let speed = finite_nonneg(view.player.speed);
    let gmax = finite_nonneg(view.ground_max_speed);

    let mut buf = [0u8; 12];
    let s = format_speed(speed, gmax, &mut buf);
    text::draw_text(s, Point::new(1, 1), target)?;

    // Speed bar.
    let bar_x = 26;
    let bar_w = 62;
    stroke_rect(
        Rectangle::new(Point::new(bar_x, 1), Size::new(bar_w as u32, 5)),
        target,
    )?;
    if gmax > 0.0 {
        let full = gmax * SPEED_BAR_FULL_SCALE;
        let inner = bar_w - 2;
        let filled = clamp_i(round(speed / full * inner as f32), 0, inner);
        if filled > 0 {
            target.fill_solid(
                &Rectangle::new(Point::new(bar_x + 1, 2), Size::new(filled as u32, 3)),
                BinaryColor::On,
            )?;
        }
        // Ground-max tick (inverted where the bar is filled), sticking out above and below.
        let tick = bar_x + 1 + clamp_i(round(inner as f32 / SPEED_BAR_FULL_SCALE), 0, inner - 1);
        for y in 0..7 {
            let on = !(2..5).contains(&y) || filled < tick - bar_x;
            Pixel(Point::new(tick, y), BinaryColor::from(on)).draw(target)?;
        }
        // Ratio to ground max, "x1.6".
        let mut rbuf = [0u8; 8];
        let r = format_ratio(speed / gmax, &mut rbuf);
        text::draw_text(r, Point::new(bar_x + bar_w + 3, 1), target)?;
    }

    // Tilt gauge: a 6 px stroke leaning by the tilt angle, in the top-right corner.
    let tilt = if view.player_tilt_deg.is_finite() {
        view.player_tilt_deg
    } else {
        0.0
    };
    let base = Point::new(WIDTH - 5, 6);
    let tip = tilt_tip(base, tilt, 6);
    thin_line(Line::new(base, tip), target)?;
    thin_line(
        Line::new(Point::new(WIDTH - 9, 7), Point::new(WIDTH - 1, 7)),
        target,
    )?;
    // Separator under the HUD, dotted.
    for x in (0..WIDTH).step_by(2) {
        Pixel(Point::new(x, HUD_HEIGHT - 1), BinaryColor::On).draw(target)?;
    }
    Ok(())
}

/// `base + (round(len · sin t), −round(len · cos t))` for `t = tilt_deg` in degrees; from
/// [`sin_cos_turns`] (error < 1.2e-4, < 8e-4 px at `len` 6) unless near a half pixel.
fn tilt_tip(base: Point, tilt_deg: f32, len: i32) -> Point {
    if let Some(t) = turns_q24(tilt_deg, TURNS_PER_DEG_Q40) {
        let (s, c) = sin_cos_turns(t);
        // Q15 → Q16, times the length.
        let k = i64::from(len) * 2;
        if let (Some(dx), Some(dy)) = (round_q16(i64::from(s) * k), round_q16(i64::from(c) * k)) {
            return Point::new(base.x + dx, base.y - dy);
        }
    }
    let (s, c) = sin_cos(tilt_deg.to_radians());
    let l = len as f32;
    Point::new(base.x + round(s * l) as i32, base.y - round(c * l) as i32)
}

/// Speed as text: one decimal when the ground max is below 50 (metre-scale presets), whole units
/// otherwise (Quake-scale presets). Saturates at 9999.
pub(super) fn format_speed(speed: f32, gmax: f32, buf: &mut [u8; 12]) -> &[u8] {
    let decimals = gmax < 50.0;
    let scaled = if decimals { speed * 10.0 } else { speed };
    let v = clamp_i(round(scaled), 0, 99_999) as u32;
    let mut w = DigitWriter::new(buf);
    if decimals {
        w.uint(v / 10);
        w.byte(b'.');
        w.uint(v % 10);
    } else {
        w.uint(v.min(9999));
    }
    w.finish()
}

/// "x1.6" with one decimal, saturating at x9.9.
pub(super) fn format_ratio(r: f32, buf: &mut [u8; 8]) -> &[u8] {
    let v = clamp_i(round(r * 10.0), 0, 99) as u32;
    let mut w = DigitWriter::new(buf);
    w.byte(b'x');
    w.uint(v / 10);
    w.byte(b'.');
    w.uint(v % 10);
    w.finish()
}

/// A tiny ASCII digit writer over a fixed buffer (no `core::fmt` float code in the firmware); its
/// bytes go straight to [`text::draw_text`].
struct DigitWriter<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> DigitWriter<'a> {
    fn new(buf: &'a mut [u8]) -> Self {
        DigitWriter { buf, len: 0 }
    }

    fn byte(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    fn uint(&mut self, mut v: u32) {
        let mut digits = [0u8; 10];
        let mut n = 0;
        loop {
            if let Some(d) = digits.get_mut(n) {
                *d = b'0' + (v % 10) as u8;
            }
            n += 1;
            v /= 10;
            if v == 0 || n >= digits.len() {
                break;
            }
        }
        while n > 0 {
            n -= 1;
            if let Some(&d) = digits.get(n) {
                self.byte(d);
            }
        }
    }

    fn finish(self) -> &'a [u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_text_uses_decimals_for_small_units() {
        let mut b = [0u8; 12];
        assert_eq!(format_speed(15.46, 7.7, &mut b), b"15.5");
        let mut b = [0u8; 12];
        assert_eq!(format_speed(523.4, 320.0, &mut b), b"523");
        let mut b = [0u8; 12];
        assert_eq!(format_speed(1.0e9, 320.0, &mut b), b"9999");
        let mut b = [0u8; 8];
        assert_eq!(format_ratio(1.64, &mut b), b"x1.6");
        let mut b = [0u8; 8];
        assert_eq!(format_ratio(f32::NAN, &mut b), b"x0.0");
    }
}
