//! A companion following a scripted leader's breadcrumb trail (seed 004).
//!
//! `cargo run -p hopkit --example follower_trail`
//!
//! The leader walks an L-shaped route at 6 units/s (20 units north, 20 units west), then stands
//! still. The follower records a crumb every 1.5 units of the leader's motion, walks from crumb to
//! crumb (so it goes round the corner instead of cutting it), speeds up when it falls behind,
//! takes the shortcut when the leader is close, and stops within 3.5 units of the leader or when at
//! most 3 crumbs are left (the seed's rule: it never crowds the leader).
//! Expected: the follower turns the corner (x stays 0 until z ≈ −16, then it walks west) and ends
//! at rest 5.64 units behind the leader with 3 crumbs left.

use hopkit::follower::{self, FollowerParams, FollowerState};
use hopkit::ground::FlatGround;
use hopkit::math::{Vec2, Vec3};

fn main() {
    let params = FollowerParams::default(); // the seed's numbers: crumbs 1.5, stop 3.5, speed 8
    let ground = FlatGround::new(0.0);
    let hz = 50.0; // the seed's FixedUpdate rate (any rate gives the same motion over time)
    let dt = 1.0 / hz;
    let mut leader = Vec3::ZERO;
    // The follower starts 2 units behind (south of) the leader, facing north (−Z).
    let mut buddy: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 2.0), leader, 0.0);

    let route = [Vec2::new(0.0, -20.0), Vec2::new(-20.0, -20.0)]; // (x, z) waypoints
    let mut leg = 0;
    for tick in 1..=(10.0 * hz) as u32 {
        // Scripted leader: walk towards the current waypoint at 6 units/s.
        if let Some(&goal) = route.get(leg) {
            let to_goal = goal - leader.planar();
            let step = 6.0 * dt;
            if to_goal.length() <= step {
                leader = Vec3::from_planar(goal, 0.0);
                leg += 1;
            } else {
                leader += Vec3::from_planar(to_goal.normalize_or_zero() * step, 0.0);
            }
        }
        let ev = follower::step(&mut buddy, &params, leader, &ground, dt);
        if tick % (hz as u32) == 0 {
            let b = &buddy.body;
            println!(
                "t = {:>4.1} s  leader ({:>6.1}, {:>6.1})  follower ({:>6.1}, {:>6.1})  gap {:>5.2}  speed {:>4.1}  crumbs {:>2}{}",
                tick as f32 / hz,
                leader.x,
                leader.z,
                b.position.x,
                b.position.z,
                b.position.distance(leader),
                b.velocity.planar().length(),
                buddy.trail.len(),
                if ev.stopped { "  stopped" } else { "" }
            );
        }
    }
}
