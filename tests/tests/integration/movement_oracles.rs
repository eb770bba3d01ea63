//! Analytic oracles: strafe gain per tick, the optimal angle, the sharpest speed-keeping turn, the
//! CS 1.6 check value, and Quake III friction stop time/distance.

use hopkit::ground::FlatGround;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{
    accelerate, air_cap_and_budget, friction_stopspeed, optimal_strafe_cos, step, FrictionMath,
    MoveInput, MoveParams, MoverState,
};

/// One projection-capped step from speed `v` along +x with the wish at angle `theta` (rad).
fn step_at(v: f32, theta: f64, cap: f32, a: f32) -> Vec2 {
    let dir = Vec2::new(theta.cos() as f32, theta.sin() as f32);
    accelerate(Vec2::new(v, 0.0), dir, cap, a)
}

/// The oracle: `s = clamp(L − v·cosθ, 0, a)`, `v'² = v² + s² + 2vs·cosθ`.
fn oracle_speed2(v: f64, theta: f64, l: f64, a: f64) -> f64 {
    let c = theta.cos();
    let s = (l - v * c).clamp(0.0, a);
    v * v + s * s + 2.0 * v * s * c
}

const CASES: [(f32, f32); 6] = [
    (30.0, 25.0),  // CS 1.6 at 100 Hz
    (30.0, 53.3),  // QW at 60 Hz (a > L)
    (320.0, 5.33), // Q3 air at 60 Hz
    (0.5, 1.6667), // seed at 60 Hz
    (0.5, 0.2),    // seed-like with a < L
    (30.0, 3.2),   // QW at 1000 Hz
];

#[test]
fn any_angle_step_matches_the_oracle() {
    for (l, a) in CASES {
        for v in [1.0f32, 10.0, 29.0, 100.0, 277.0, 320.0, 600.0] {
            for deg in 0..=180 {
                let th = (deg as f64).to_radians();
                let got = step_at(v, th, l, a).length_squared() as f64;
                let want = oracle_speed2(v as f64, th, l as f64, a as f64);
                let tol = 4e-6 * want.max(1.0);
                assert!(
                    (got - want).abs() <= tol,
                    "L={l} a={a} v={v} θ={deg}°: {got} vs {want}"
                );
            }
        }
    }
}

#[test]
fn optimal_angle_gives_the_best_gain() {
    for (l, a) in CASES {
        for v in [1.0f32, 10.0, 29.0, 100.0, 277.0, 320.0, 600.0] {
            let c = optimal_strafe_cos(v, l, a) as f64;
            let th = c.acos();
            let best = step_at(v, th, l, a).length_squared() as f64;
            let (v64, l64, a64) = (v as f64, l as f64, a as f64);
            let m = l64 - a64;
            if m > 0.0 && m < v64 {
                // One optimal frame: v'² = v² + a(2L − a).
                let want = v64 * v64 + a64 * (2.0 * l64 - a64);
                assert!((best - want).abs() <= 4e-6 * want, "L={l} a={a} v={v}");
            } else if m <= 0.0 {
                assert_eq!(c, 0.0);
                let want = v64 * v64 + l64 * l64;
                assert!((best - want).abs() <= 4e-6 * want, "L={l} a={a} v={v}");
            }
            // No angle on a fine sweep beats it (beyond rounding).
            for k in 0..=3600 {
                let t = (k as f64 / 20.0).to_radians();
                let s2 = oracle_speed2(v64, t, l64, a64);
                assert!(
                    s2 <= best * (1.0 + 1e-5),
                    "L={l} a={a} v={v} θ={}",
                    k as f64 / 20.0
                );
            }
        }
    }
}

#[test]
fn cs16_check_value() {
    // CS 1.6 at 100 fps: accel 10, wishspeed 250 → a = 25, L = 30; at v ≈ 277, θ* ≈ 88.97°.
    let (l, a) = air_cap_and_budget(&MoveParams::source(), 1.0, 0.01);
    assert_eq!(l, 30.0);
    assert!((a - 25.0).abs() < 1e-4);
    let theta = (optimal_strafe_cos(277.0, l, a) as f64).acos().to_degrees();
    assert!((theta - 88.97).abs() < 0.01, "θ* = {theta}");
}

#[test]
fn sharpest_speed_keeping_turn() {
    // At cosθ = −a/(2v) the step keeps the speed and turns the velocity the most.
    for (l, a) in [(30.0f32, 25.0f32), (30.0, 10.0), (320.0, 5.33), (0.5, 0.2)] {
        for v in [50.0f32, 277.0, 400.0] {
            let th = (-(a as f64) / (2.0 * v as f64)).acos();
            let out = step_at(v, th, l, a);
            assert!(
                (out.length() - v).abs() <= 2e-6 * v,
                "L={l} a={a} v={v}: {}",
                out.length()
            );
            let turn = (out.y as f64).atan2(out.x as f64);
            // Any wider wish angle loses speed; any narrower one turns less.
            let wider = step_at(v, th + 0.01, l, a);
            assert!(wider.length() < v * (1.0 - 1e-7));
            let narrower = step_at(v, th - 0.01, l, a);
            assert!((narrower.y as f64).atan2(narrower.x as f64) < turn);
        }
    }
}

#[test]
fn quake3_friction_stop_time_and_distance() {
    // Continuous limit with k = 6, s = 100, v0 = 320: t = ln(v0/s)/k + 1/k = 0.3605 s,
    // d = (v0 − s)/k + s/(2k) = 45.0 units. Simulated through `step` at 1000 Hz.
    let p = MoveParams::quake3();
    let dt = 0.001f32;
    let mut s = MoverState::new(Vec3::ZERO);
    s.grounded = true;
    s.velocity = Vec3::new(320.0, 0.0, 0.0);
    let input = MoveInput::default();
    let mut ticks = 0;
    while s.velocity.x > 0.0 && ticks < 10_000 {
        step(&mut s, &p, &input, &FlatGround::new(0.0), dt);
        ticks += 1;
        assert!(s.grounded);
    }
    let t = ticks as f64 * dt as f64;
    let want_t = (3.2f64).ln() / 6.0 + 1.0 / 6.0;
    let want_d: f64 = 220.0 / 6.0 + 100.0 / 12.0;
    assert!((want_t - 0.3605).abs() < 1e-3 && (want_d - 45.0).abs() < 1e-9);
    assert!((t - want_t).abs() < 0.005, "stop time {t} vs {want_t}");
    assert!(
        ((s.position.x as f64) - want_d).abs() < 0.3,
        "distance {} vs {want_d}",
        s.position.x
    );
}

#[test]
fn quake3_friction_kernel_alone() {
    // The same oracle on the bare kernel at 10 kHz, tighter, in both friction forms.
    for math in [FrictionMath::Rsqrt, FrictionMath::SqrtDivide] {
        let dt = 1e-4f32;
        let mut v = Vec2::new(320.0, 0.0);
        let (mut t, mut d) = (0.0f64, 0.0f64);
        while v.x > 0.0 {
            v = friction_stopspeed(v, 6.0, 100.0, 0.0, dt, math);
            t += dt as f64;
            d += v.x as f64 * dt as f64;
        }
        assert!((t - 0.3605).abs() < 1e-3, "{math:?}: {t}");
        assert!((d - 45.0).abs() < 0.05, "{math:?}: {d}");
    }
}
