//! The 256-solid level of the collision measurements (issue 34 §5): a floor, walls, ramps and
//! staircases scattered over 2,048 × 2,048 Quake units (`hopkit_demo::collision::scattered_level`,
//! the level the Cortex-M4F budget rows and `rapier.rs` use too), and the per-tick moves of 256
//! standing bodies (320 units/s at 60 Hz, in random horizontal directions, feet a skin above the
//! floor, clear of every solid: `scattered_start`).

use hopkit::collide::World;
use hopkit::math::Vec3;
use hopkit_demo::collision::{scattered_level, scattered_start, SCATTERED_SOLIDS};

/// A standing Quake body: 32 × 56 × 32, feet at the origin.
pub const MINS: Vec3 = Vec3::new(-16.0, 0.0, -16.0);
/// See [`MINS`].
pub const MAXS: Vec3 = Vec3::new(16.0, 56.0, 16.0);

/// The level: solid 0 is the floor, then walls, ramps and 4-step staircases until full.
pub fn level() -> World<SCATTERED_SOLIDS> {
    let mut w = World::new();
    scattered_level(&mut w);
    w
}

/// `(start, end)` of one tick's move for each of 256 bodies standing on the floor.
pub fn moves() -> Vec<(Vec3, Vec3)> {
    let w = level();
    (0..256)
        .map(|i| {
            let (s, dir) = scattered_start(&w, i);
            let step = 320.0 / 60.0;
            let start = s.position;
            (start, start + Vec3::new(dir.x * step, 0.0, dir.y * step))
        })
        .collect()
}
