//! The 256-solid level of the collision measurements (issue 34 §5): a floor, walls, ramps and
//! staircases scattered over 2,048 × 2,048 Quake units, and the per-tick moves of 256 standing
//! bodies (320 units/s at 60 Hz, in random horizontal directions, feet a skin above the floor).

use hopkit::collide::{Brush, Toward, World};
use hopkit::math::Vec3;
use hopkit::rng::Pcg32;

/// A standing Quake body: 32 × 56 × 32, feet at the origin.
pub const MINS: Vec3 = Vec3::new(-16.0, 0.0, -16.0);
/// See [`MINS`].
pub const MAXS: Vec3 = Vec3::new(16.0, 56.0, 16.0);

/// The level: solid 0 is the floor, then walls, ramps and 4-step staircases until full.
pub fn level() -> World<256> {
    let mut w = World::<256>::new();
    let floor = Brush::aabb(
        Vec3::new(-1024.0, -16.0, -1024.0),
        Vec3::new(1024.0, 0.0, 1024.0),
    );
    let mut all = vec![floor.unwrap()];
    let mut rng = Pcg32::new(34, 5);
    while all.len() < 256 {
        let (x, z) = (rng.range_f32(-960.0, 900.0), rng.range_f32(-960.0, 900.0));
        match rng.below(3) {
            0 => {
                let long = rng.range_f32(32.0, 256.0);
                let (dx, dz) = if rng.below(2) == 0 {
                    (long, 16.0)
                } else {
                    (16.0, long)
                };
                all.push(
                    Brush::aabb(Vec3::new(x, 0.0, z), Vec3::new(x + dx, 128.0, z + dz)).unwrap(),
                );
            }
            1 => {
                let rise = rng.range_f32(16.0, 96.0);
                let b = Brush::ramp(
                    Vec3::new(x, 0.0, z),
                    Vec3::new(x + 128.0, rise, z + 64.0),
                    Toward::PlusX,
                );
                all.push(b.unwrap());
            }
            _ => {
                let stairs =
                    Brush::stairs(Vec3::new(x, 0.0, z), Toward::MinusZ, 4, 16.0, 16.0, 64.0);
                all.extend(stairs.unwrap().take(256 - all.len()));
            }
        }
    }
    w.extend(all).unwrap();
    w
}

/// `(start, end)` of one tick's move for each of 256 bodies standing on the floor.
pub fn moves() -> Vec<(Vec3, Vec3)> {
    let mut rng = Pcg32::new(34, 6);
    (0..256)
        .map(|_| {
            let start = Vec3::new(
                rng.range_f32(-1000.0, 1000.0),
                0.125,
                rng.range_f32(-1000.0, 1000.0),
            );
            let yaw = rng.range_f32(-core::f32::consts::PI, core::f32::consts::PI);
            let step = 320.0 / 60.0;
            (
                start,
                start + Vec3::new(yaw.cos() * step, 0.0, yaw.sin() * step),
            )
        })
        .collect()
}
