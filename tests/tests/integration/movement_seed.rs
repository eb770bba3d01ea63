//! The seed's `GetNextPlayerVector` reproduced case by case, and the lean kernels checked against it.

use hopkit::math::Vec2;
use hopkit::movement::{next_player_vector, SEED_CONSTANTS};
use hopkit::movement::{planar_velocity_tick, MoveParams, WishDir};
use hopkit::rng::Pcg32;

/// An independent, straightforward f64 version of the seed's algorithm (written from the article's
/// description: friction magnitude min(|v|, a_f·dt) against v, projection on the unit input,
/// add magnitude clamp(max − proj, 0, accel·dt)).
fn seed_f64(v: (f64, f64), input: (f64, f64), dt: f64, ground: bool) -> (f64, f64) {
    let (fric, max, acc) = if ground {
        (70.0, 10.0, 120.0)
    } else {
        (0.0, 0.5, 100.0)
    };
    let il = (input.0 * input.0 + input.1 * input.1).sqrt();
    let n = if il > 1e-5 {
        (input.0 / il, input.1 / il)
    } else {
        (0.0, 0.0)
    };
    let speed = (v.0 * v.0 + v.1 * v.1).sqrt();
    let (mut x, mut y) = v;
    if speed > 1e-5 {
        let drop = speed.min(fric * dt);
        x -= v.0 / speed * drop;
        y -= v.1 / speed * drop;
    }
    let proj = x * n.0 + y * n.1;
    let add = (max - proj).clamp(0.0, acc * dt);
    (x + n.0 * add, y + n.1 * add)
}

fn close(a: Vec2, b: (f64, f64), tol: f64) -> bool {
    (a.x as f64 - b.0).abs() <= tol && (a.y as f64 - b.1).abs() <= tol
}

#[test]
fn seed_constants_are_the_listed_ones() {
    assert_eq!(SEED_CONSTANTS.max_speed_ground, 10.0);
    assert_eq!(SEED_CONSTANTS.max_speed_air, 0.5);
    assert_eq!(SEED_CONSTANTS.accel_ground, 120.0);
    assert_eq!(SEED_CONSTANTS.accel_air, 100.0);
    assert_eq!(SEED_CONSTANTS.friction_accel, 70.0);
    let p = MoveParams::seed();
    assert_eq!(
        (
            p.max_speed,
            p.air_max_speed,
            p.accel,
            p.air_accel,
            p.friction
        ),
        (10.0, 0.5, 120.0, 100.0, 70.0)
    );
    assert_eq!(MoveParams::default(), p);
}

#[test]
fn from_rest_going_forward_first_frames() {
    // Unity's default fixed step 0.02 s: accel budget 2.4, friction 1.4 per frame, so from rest the
    // speed goes 2.4, 3.4, 4.4 … (net +1 per frame), reaching the cap 10 at frame 9 and staying.
    let dt = 0.02f32;
    let expected = [2.4, 3.4, 4.4, 5.4, 6.4, 7.4, 8.4, 9.4, 10.0, 10.0, 10.0];
    let mut v = Vec2::ZERO;
    for (i, e) in expected.iter().enumerate() {
        v = next_player_vector(v, Vec2::new(1.0, 0.0), dt, true);
        assert!((v.x - e).abs() < 2e-5, "frame {i}: {v:?} vs {e}");
        assert_eq!(v.y, 0.0, "frame {i}");
    }
    // The first frame is exactly the accel budget.
    assert_eq!(
        next_player_vector(Vec2::ZERO, Vec2::new(1.0, 0.0), dt, true),
        Vec2::new(120.0 * dt, 0.0)
    );
}

#[test]
fn turning_45_degrees_with_w_and_d() {
    let dt = 0.02f32;
    let input = Vec2::new(1.0, 1.0); // W + D, normalised inside
    let mut v = Vec2::new(10.0, 0.0);
    let mut r = (10.0f64, 0.0f64);
    // Hand-computed first frame: friction → (8.6, 0); projection 8.6/√2 = 6.0811;
    // add = min(10 − 6.0811, 2.4) = 2.4 along (1, 1)/√2 → (10.2971, 1.6971).
    v = next_player_vector(v, input, dt, true);
    assert!(
        (v.x - 10.297_056).abs() < 2e-5 && (v.y - 1.697_056).abs() < 2e-5,
        "{v:?}"
    );
    // Speed briefly exceeds the ground max, as the article points out.
    assert!(v.length() > 10.4);
    r = seed_f64(r, (1.0, 1.0), dt as f64, true);
    for frame in 1..200 {
        assert!(close(v, r, 1e-4), "frame {frame}: {v:?} vs {r:?}");
        v = next_player_vector(v, input, dt, true);
        r = seed_f64(r, (1.0, 1.0), dt as f64, true);
    }
    // Converges onto the input direction at the ground max.
    let h = 10.0 / 2f32.sqrt();
    assert!((v.x - h).abs() < 1e-4 && (v.y - h).abs() < 1e-4, "{v:?}");
}

#[test]
fn air_strafe_needs_view_rotation() {
    let dt = 0.02f32;
    // Without rotation: forward at ground max, hold D: speed tops out at √(10² + 0.5²).
    let mut v = Vec2::new(10.0, 0.0);
    for _ in 0..500 {
        v = next_player_vector(v, Vec2::new(0.0, 1.0), dt, false);
    }
    assert!(
        (v.y - 0.5).abs() < 1e-5 && (v.length() - 10.0125).abs() < 1e-3,
        "{v:?}"
    );

    // With rotation: the frame turns with the velocity so D stays at 90° to it; each frame adds
    // 0.5 sideways (a = 2 > L = 0.5), so |v|² grows by 0.25 per frame.
    let mut v = Vec2::new(10.0, 0.0);
    let mut r = (10.0f64, 0.0f64);
    for _ in 0..500 {
        let u = v.normalize_or_zero();
        let right = Vec2::new(-u.y, u.x);
        v = next_player_vector(v, right, dt, false);
        r = seed_f64(r, (right.x as f64, right.y as f64), dt as f64, false);
    }
    let want = (100.0f64 + 500.0 * 0.25).sqrt();
    assert!(
        (v.length() as f64 - want).abs() < 1e-3,
        "{} vs {want}",
        v.length()
    );
    assert!(close(v, r, 1e-3));
    assert!(v.length() > 15.0, "speed rises well above the ground max");
}

#[test]
fn seed_matches_f64_reimplementation_on_random_cases() {
    let mut rng = Pcg32::seeded(0x5eed);
    for _ in 0..20_000 {
        let v = Vec2::new(rng.range_f32(-30.0, 30.0), rng.range_f32(-30.0, 30.0));
        let i = if rng.below(10) == 0 {
            Vec2::ZERO
        } else {
            Vec2::new(rng.signed_unit(), rng.signed_unit())
        };
        let dt = rng.range_f32(0.001, 0.1);
        let ground = rng.below(2) == 0;
        let a = next_player_vector(v, i, dt, ground);
        let b = seed_f64(
            (v.x as f64, v.y as f64),
            (i.x as f64, i.y as f64),
            dt as f64,
            ground,
        );
        assert!(
            close(a, b, 1e-4),
            "{v:?} {i:?} {dt} {ground}: {a:?} vs {b:?}"
        );
    }
}

#[test]
fn lean_kernels_reproduce_the_seed() {
    // The kernels with the seed preset give the seed's result up to rounding and the fast
    // reciprocal's documented error (friction is computed as v·(1 − drop·rsqrt(|v|²)) rather than
    // v + v/|v|·(−drop); `scalar::rsqrt` is within 1.5e-6 relative).
    let p = MoveParams::seed();
    let mut rng = Pcg32::seeded(77);
    let mut worst = 0.0f32;
    for _ in 0..20_000 {
        let v = Vec2::new(rng.range_f32(-30.0, 30.0), rng.range_f32(-30.0, 30.0));
        let ang = rng.range_f32(0.0, core::f32::consts::TAU);
        let i = if rng.below(10) == 0 {
            Vec2::ZERO
        } else {
            Vec2::new(ang.cos(), ang.sin())
        };
        let dt = rng.range_f32(0.001, 0.1);
        let ground = rng.below(2) == 0;
        let seed = next_player_vector(v, i, dt, ground);
        let lean = planar_velocity_tick(v, WishDir::from_world(i), &p, ground, dt);
        let err = (seed - lean).length() / (1.0 + seed.length());
        worst = worst.max(err);
    }
    assert!(worst < 5e-6, "worst relative difference {worst}");
}

#[test]
fn lean_kernels_track_the_seed_over_a_long_run() {
    let p = MoveParams::seed();
    let dt = 1.0 / 60.0;
    let mut a = Vec2::ZERO;
    let mut b = Vec2::ZERO;
    for frame in 0..3600 {
        let t = frame as f32 * dt;
        let i = Vec2::new((t * 0.7).cos(), (t * 1.3).sin());
        let ground = (frame / 45) % 2 == 0;
        a = next_player_vector(a, i, dt, ground);
        b = planar_velocity_tick(
            b,
            WishDir::from_world(i.normalize_or_zero()),
            &p,
            ground,
            dt,
        );
    }
    assert!((a - b).length() < 1e-3, "{a:?} vs {b:?}");
}
