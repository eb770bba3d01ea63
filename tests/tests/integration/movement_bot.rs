//! A scripted strafe-jumping bot: with auto-hop on the seed preset it reaches twice the ground max
//! speed; without turning the view it does not.

use hopkit::ground::FlatGround;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{
    air_cap_and_budget, optimal_strafe_cos, step, AccelStyle, MoveInput, MoveParams, MoverState,
};

const HZ: u32 = 60;

/// The view forward that puts the right key (`wish = (0, 1)`) at the optimal strafe angle θ* to the
/// velocity, turning to the right of the current velocity.
fn strafe_facing(s: &MoverState, p: &MoveParams, dt: f32) -> Vec2 {
    let v = s.velocity.planar();
    let speed = v.length();
    let u = if speed > 1e-6 {
        v * (1.0 / speed)
    } else {
        Vec2::new(0.0, -1.0)
    };
    let (l, a) = air_cap_and_budget(p, 1.0, dt);
    let c = optimal_strafe_cos(speed, l, a);
    let sn = (1.0 - c * c).max(0.0).sqrt();
    // Wish direction rotated clockwise (to the right) from the velocity by θ*.
    let right_of_u = Vec2::new(-u.y, u.x);
    let wish = u * c + right_of_u * sn;
    // facing such that right(facing) = (−f.y, f.x) = wish.
    Vec2::new(wish.y, -wish.x)
}

struct Run {
    top_speed: f32,
    time_to_double: Option<f32>,
    jumps: u32,
    friction_ticks_after_runup: u32,
}

fn run_bot(p: &MoveParams, rotate: bool, seconds: u32) -> Run {
    let dt = 1.0 / HZ as f32;
    let ground = FlatGround::new(0.0);
    let mut s = MoverState::new(Vec3::ZERO);
    // Run-up: one second forward on the ground, no jump.
    let fwd = MoveInput::with_yaw(Vec2::new(1.0, 0.0), false, 0.0);
    for _ in 0..HZ {
        step(&mut s, p, &fwd, &ground, dt);
    }
    assert!((s.planar_speed() - p.max_speed).abs() < 1e-3, "run-up");
    let fixed_facing = Vec2::new(0.0, -1.0);
    let mut run = Run {
        top_speed: 0.0,
        time_to_double: None,
        jumps: 0,
        friction_ticks_after_runup: 0,
    };
    for t in 0..seconds * HZ {
        let facing = if rotate {
            strafe_facing(&s, p, dt)
        } else {
            fixed_facing
        };
        let input = MoveInput::new(Vec2::new(0.0, 1.0), true, facing);
        let started_grounded = s.grounded;
        let ev = step(&mut s, p, &input, &ground, dt);
        assert!(s.is_finite());
        run.jumps += ev.jumped as u32;
        // A tick that starts on the ground without jumping pays friction.
        if started_grounded && !ev.jumped {
            run.friction_ticks_after_runup += 1;
        }
        let sp = s.planar_speed();
        run.top_speed = run.top_speed.max(sp);
        if run.time_to_double.is_none() && sp >= 2.0 * p.max_speed {
            run.time_to_double = Some((t + 1) as f32 * dt);
        }
    }
    run
}

#[test]
fn strafe_bot_doubles_the_ground_max_on_the_seed_preset() {
    let p = MoveParams::seed();
    assert!(p.auto_hop);
    let run = run_bot(&p, true, 60);
    let t = run
        .time_to_double
        .expect("bot must reach 2× ground max within 60 s");
    assert!(t <= 60.0);
    // Perfect strafing at 60 Hz adds L² = 0.25 to v² per tick (a = 1.67 > L = 0.5): 100 → 400 in
    // 1200 ticks = 20 s. Auto-hop re-jumps before friction, so no tick is spent on the ground.
    assert!((t - 20.0).abs() < 0.5, "time to 2×: {t}");
    assert_eq!(run.friction_ticks_after_runup, 0);
    assert!(run.jumps > 30);
    // After 60 s: v² = 100 + 3600·0.25.
    assert!(
        (run.top_speed - 1000f32.sqrt()).abs() < 0.05,
        "{}",
        run.top_speed
    );
}

#[test]
fn without_view_rotation_the_bot_does_not() {
    let p = MoveParams::seed();
    let run = run_bot(&p, false, 60);
    assert!(run.time_to_double.is_none());
    // Holding D with a fixed view adds at most the air cap sideways: √(10² + 0.5²).
    assert!(run.top_speed < 10.02, "{}", run.top_speed);
}

#[test]
fn the_figure_preset_matches_the_article_figure() {
    // Figure 1: ground max 7.7, bunny-hopping to about 15.5 (twice 7.7).
    let p = MoveParams::seed_figure();
    let run = run_bot(&p, true, 60);
    assert!(run.top_speed > 15.5);
}

#[test]
fn clamped_delta_acceleration_gives_no_strafe_gain() {
    let mut p = MoveParams::seed();
    p.accel_style = AccelStyle::ClampedDelta;
    let run = run_bot(&p, true, 20);
    assert!(run.top_speed <= 10.0 + 1e-3, "{}", run.top_speed);
}

#[test]
fn quakeworld_bot_gains_speed_too() {
    // QuakeWorld at 60 Hz: L = 30, a = 10·320/60 = 53.3 > L, so +30² to v² per tick.
    let mut p = MoveParams::quakeworld();
    p.auto_hop = true;
    let run = run_bot(&p, true, 10);
    let t = run.time_to_double.expect("QW bot doubles 320");
    // 320² → 640²: 307200/900 = 341 ticks ≈ 5.7 s.
    assert!((t - 5.69).abs() < 0.1, "{t}");
}
