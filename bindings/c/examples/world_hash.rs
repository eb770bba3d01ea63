//! The Rust-side reference line for `collide.c`: the same level and script through the core's
//! `movement::step` over `collide::Solid` (no C ABI), `state-hash: 0x…` of the mover.
//!
//!     cargo run -p hopkit-ffi --example world_hash

use hopkit::collide::{Brush, Solid, Toward, World};
use hopkit::hash::StateHash;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{self, MoveInput, MoveParams, MoverState};

fn main() {
    let mut level = World::<256>::new(); // the skin of HK_WORLD_DEFAULT_SKIN
    for (a, b) in [
        (
            Vec3::new(-512.0, -16.0, -704.0),
            Vec3::new(512.0, 0.0, 512.0),
        ),
        (
            Vec3::new(128.0, 0.0, -704.0),
            Vec3::new(144.0, 160.0, 256.0),
        ),
        (
            Vec3::new(64.0, 0.0, -640.0),
            Vec3::new(128.0, 128.0, -192.0),
        ),
    ] {
        level.push(Brush::aabb(a, b).expect("box")).expect("room");
    }
    let stairs = Brush::stairs(
        Vec3::new(64.0, 0.0, -64.0),
        Toward::MinusZ,
        8,
        16.0,
        16.0,
        64.0,
    );
    level.extend(stairs.expect("stairs")).expect("room");
    let params = MoveParams::quake3();
    let mut s = MoverState::new(Vec3::new(0.0, 0.125, 0.0));
    for tick in 0..200 {
        let facing = if tick < 90 {
            Vec2::new(1.0, 0.0)
        } else {
            Vec2::new(0.0, -1.0)
        };
        let input = MoveInput::new(Vec2::new(1.0, 0.0), tick == 110, facing);
        movement::step(&mut s, &params, &input, &Solid(&level), 1.0 / 60.0);
    }
    let mut buf = [0u8; hopkit::hash::HASH_LINE_LEN];
    println!(
        "{}",
        hopkit::hash::format_hash_line(s.state_hash(), &mut buf)
    );
}
