//! TEMPORARY stand-in for `hopkit_firmware::render::draw_frame` (being written in the firmware
//! branch; same signature). Deleted when the real renderer lands on main.

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Circle, PrimitiveStyle, Rectangle};
use hopkit::demo::DemoView;
use hopkit::math::Vec2;

fn to_screen(p: Vec2, camera: Vec2) -> Point {
    let px = |v: f32| if v.is_finite() { v as i32 } else { 0 };
    Point::new(64 + px(p.x - camera.x), 32 + px(p.y - camera.y))
}

/// Draw one frame of `view` (clears the target first).
pub fn draw_frame<D: DrawTarget<Color = BinaryColor>>(
    view: &DemoView,
    target: &mut D,
) -> Result<(), D::Error> {
    target.clear(BinaryColor::Off)?;
    let on = PrimitiveStyle::with_fill(BinaryColor::On);
    let ring = PrimitiveStyle::with_stroke(BinaryColor::On, 1);
    let cam = view.camera;
    let e = view.arena_half_extent;
    let tl = to_screen(Vec2::new(-e.x, -e.y), cam);
    let br = to_screen(e, cam);
    Rectangle::with_corners(tl, br)
        .into_styled(ring)
        .draw(target)?;
    for c in view.crumbs.iter() {
        Pixel(to_screen(*c, cam), BinaryColor::On).draw(target)?;
    }
    for c in view.critters.iter() {
        let p = to_screen(c.body.position.planar(), cam);
        Rectangle::new(p - Point::new(1, 1), Size::new(2, 2))
            .into_styled(on)
            .draw(target)?;
    }
    for g in view.ghosts.iter() {
        Circle::with_center(to_screen(g.body.position.planar(), cam), 4)
            .into_styled(ring)
            .draw(target)?;
    }
    Circle::with_center(to_screen(view.companion.position.planar(), cam), 3)
        .into_styled(ring)
        .draw(target)?;
    Circle::with_center(to_screen(view.player.position.planar(), cam), 5)
        .into_styled(on)
        .draw(target)
}
