//! A strafe-jumping bot on fixed ticks: its speed climbs past the ground max speed.
//!
//! `cargo run -p hopkit --example strafe_bot`
//!
//! The render loop runs at 144 frames/s; [`FixedStep`] turns each frame's nanoseconds into whole
//! 60 Hz simulation ticks, so the result is the same at any frame rate. The bot holds jump (the
//! seed preset auto-hops) and the "strafe right" key, and turns its view so that the wish direction
//! sits at the optimal strafe angle θ* = acos((L − a)/v) to the velocity: the air acceleration caps
//! only the projection on the wish direction, so every air tick adds L² = 0.25 to v².
//! Expected: 10.00 units/s after the run-up, 2× the ground max after ≈ 20 s of hopping.

use hopkit::ground::FlatGround;
use hopkit::math::{scalar, Vec2, Vec3};
use hopkit::movement::{self, air_cap_and_budget, optimal_strafe_cos, MoveInput, MoveParams};
use hopkit::stick::wish_from_stick;
use hopkit::timestep::FixedStep;

fn main() {
    let params = MoveParams::seed(); // ground max 10 units/s, air cap 0.5, auto-hop
    let ground = FlatGround::new(0.0);
    let mut player = movement::MoverState::new(Vec3::ZERO);
    let mut clock = FixedStep::new(60);
    let dt = clock.tick_dt();
    let frame_ns = 1_000_000_000 / 144; // one 144 Hz render frame

    let mut ticks = 0u32;
    let mut next_report = 60u32; // first line after the run-up
    while ticks < 26 * 60 {
        for _ in 0..clock.advance_nanos(frame_ns).ticks {
            let input = if ticks < 60 {
                // Run-up: one second holding "forward" on the left stick, no jump.
                let wish = wish_from_stick(Vec2::new(0.0, 1.0));
                MoveInput::new(wish.front_right(), false, Vec2::new(0.0, -1.0))
            } else {
                // Stick pushed right (strafe right), jump held, view turned to θ*.
                let wish = wish_from_stick(Vec2::new(1.0, 0.0));
                let facing = strafe_facing(&player, &params, dt);
                MoveInput::new(wish.front_right(), true, facing)
            };
            movement::step(&mut player, &params, &input, &ground, dt);
            ticks += 1;
            if ticks == next_report {
                let speed = player.planar_speed();
                println!(
                    "t = {:>4.1} s  speed {:>6.2} units/s  = {:.2} × ground max  {}",
                    ticks as f32 / 60.0,
                    speed,
                    speed / params.max_speed,
                    if player.grounded { "ground" } else { "air" }
                );
                next_report += 4 * 60;
            }
        }
    }
}

/// The view forward that puts "strafe right" at the optimal angle θ* to the right of the velocity.
fn strafe_facing(s: &movement::MoverState, p: &MoveParams, dt: f32) -> Vec2 {
    let v = s.velocity.planar();
    let u = v.normalize_or_zero();
    let u = if u == Vec2::ZERO {
        Vec2::new(0.0, -1.0)
    } else {
        u
    };
    let (cap, budget) = air_cap_and_budget(p, 1.0, dt);
    let c = optimal_strafe_cos(v.length(), cap, budget);
    let s = scalar::sqrt((1.0 - c * c).max(0.0));
    let wish = u * c + Vec2::new(-u.y, u.x) * s; // rotated right of the velocity by θ*
    Vec2::new(wish.y, -wish.x) // the facing whose right vector is `wish`
}
