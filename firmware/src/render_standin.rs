//! TEMPORARY stand-in for `crate::render::draw_frame` (written in another branch); same signature.
//! Deleted once `pub mod render;` lands on main.

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Circle, PrimitiveStyle, Rectangle};
use hopkit::demo::DemoView;

/// Draw one frame of `view` (clears the target first).
pub fn draw_frame<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    target: &mut D,
) -> Result<(), D::Error> {
    target.clear(BinaryColor::Off)?;
    Rectangle::new(Point::zero(), Size::new(128, 64))
        .into_styled(PrimitiveStyle::with_stroke(BinaryColor::On, 1))
        .draw(target)?;
    let p = view.player.position;
    let x = if p.x.is_finite() { p.x as i32 } else { 0 };
    let y = if p.z.is_finite() { p.z as i32 } else { 0 };
    Circle::with_center(Point::new(64 + x / 2, 32 + y / 2), 5)
        .into_styled(PrimitiveStyle::with_fill(BinaryColor::On))
        .draw(target)
}
