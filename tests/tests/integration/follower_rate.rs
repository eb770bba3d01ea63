//! Tick-rate independence: the same leader walk simulated at 50, 60, 120 and 144 Hz gives the same
//! follower motion; the per-tick numbers are rates.

use hopkit::follower::{self, FollowerParams, FollowerState};
use hopkit::ground::FlatGround;
use hopkit::math::Vec3;

/// The leader: 6 units/s along a wave for 8 s, then standing still.
fn path(t: f64) -> Vec3 {
    let s = 6.0 * t.min(8.0);
    Vec3::new((8.0 * (s / 10.0).sin()) as f32, 0.0, (-s) as f32)
}

/// Follower positions every 0.5 s over 12 s at `hz`.
fn run(hz: u32, p: &FollowerParams) -> Vec<Vec3> {
    let dt = 1.0 / hz as f32;
    let mut s: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 3.0), path(0.0), 0.0);
    let per = hz as usize / 2;
    let mut out = Vec::new();
    for i in 1..=(12 * hz as usize) {
        let l = path(i as f64 / hz as f64);
        let ev = follower::step(&mut s, p, l, &FlatGround::new(0.0), dt);
        assert!(!ev.warped && !ev.regrouped);
        if i % per == 0 {
            out.push(s.body.position);
        }
    }
    out
}

/// (max distance over the samples, distance at the end).
fn deviation(a: &[Vec3], b: &[Vec3]) -> (f32, f32) {
    let max = a
        .iter()
        .zip(b)
        .map(|(x, y)| x.distance(*y))
        .fold(0.0f32, f32::max);
    let end = a.last().unwrap().distance(*b.last().unwrap());
    (max, end)
}

#[test]
fn same_motion_at_50_60_120_144_hz() {
    let p = FollowerParams::seed();
    let reference = run(50, &p);
    for hz in [60, 120, 144] {
        let (max, end) = deviation(&reference, &run(hz, &p));
        // Remaining differences come from *when* discrete decisions (reach a crumb within 2.0, stop
        // within 3.5) are taken: at most one tick of motion (12.8 × 0.02 ≈ 0.26) per decision.
        assert!(max < 0.75, "{hz} Hz: max deviation {max}");
        assert!(end < 0.1, "{hz} Hz: rest position differs by {end}");
    }
}

#[test]
fn per_tick_constants_would_not_be_rate_independent() {
    // Control: treating the seed's per-tick numbers as per *our* tick (reference_hz = tick rate,
    // what a naive port does) changes the motion a lot more at 144 Hz…
    let p = FollowerParams::seed();
    let reference = run(50, &p);
    let naive = FollowerParams {
        reference_hz: 144.0,
        ..p
    };
    let (naive_max, _) = deviation(&reference, &run(144, &naive));
    let (ours_max, _) = deviation(&reference, &run(144, &p));
    assert!(
        naive_max > 2.0 * ours_max,
        "naive {naive_max} vs {ours_max}"
    );
    // …and so do the seed's sampled crumbs at rest.
    let exact = FollowerParams::seed_exact();
    let (_, exact_end) = deviation(&run(50, &exact), &run(144, &exact));
    let (_, ours_end) = deviation(&reference, &run(144, &p));
    assert!(
        exact_end > 5.0 * ours_end,
        "sampled {exact_end} vs {ours_end}"
    );
}

#[test]
fn speed_factor_ramps_at_one_per_second_at_any_rate() {
    for hz in [50u32, 60, 120, 144] {
        let dt = 1.0 / hz as f32;
        let leader = Vec3::new(0.0, 0.0, -500.0);
        let mut s: FollowerState = FollowerState::new(Vec3::ZERO, leader, 0.0);
        s.trail.clear();
        for i in 0..12 {
            s.trail
                .push_newest(Vec3::new(0.0, 0.0, -40.0 - 2.0 * i as f32))
                .unwrap();
        }
        // 0.5 s of chasing at ≥ 5 crumbs: the factor rises 0.02 × 50 = 1.0 per second.
        for _ in 0..hz / 2 {
            follower::step(
                &mut s,
                &FollowerParams::seed(),
                leader,
                &FlatGround::new(0.0),
                dt,
            );
        }
        assert!(
            (s.body.speed_factor - 0.5).abs() < 1e-4,
            "{hz} Hz: {}",
            s.body.speed_factor
        );
    }
}

#[test]
fn stopping_decay_and_direction_lerp_follow_the_clock() {
    for hz in [50u32, 60, 120, 144] {
        let dt = 1.0 / hz as f32;
        let steps = hz / 10;
        let ticks50 = steps as f32 * dt * 50.0; // elapsed time in seed ticks (≈ 5)

        // Stopping: ×0.9 per seed tick.
        let mut s: FollowerState = FollowerState::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), 0.0);
        s.body.velocity = Vec3::new(0.0, 0.0, -10.0);
        let p = FollowerParams {
            integrate: false,
            ..FollowerParams::seed()
        };
        for _ in 0..steps {
            let l = Vec3::new(2.0, 0.0, 0.0);
            let ev = follower::step(&mut s, &p, l, &FlatGround::new(0.0), dt);
            assert!(ev.stopped);
        }
        let want = -10.0 * 0.9f32.powf(ticks50);
        assert!(
            (s.body.velocity.z - want).abs() < 1e-4,
            "{hz} Hz: {}",
            s.body.velocity.z
        );

        // Direction: 1 − 0.85^ticks of the way from zero to −Z.
        let leader = Vec3::new(0.0, 0.0, -500.0);
        let mut s: FollowerState = FollowerState::new(Vec3::ZERO, leader, 0.0);
        s.trail.clear();
        for i in 0..12 {
            let c = Vec3::new(0.0, 0.0, -40.0 - 2.0 * i as f32);
            s.trail.push_newest(c).unwrap();
        }
        s.target = s.trail.pop_oldest().unwrap();
        for _ in 0..steps {
            follower::step(&mut s, &p, leader, &FlatGround::new(0.0), dt);
        }
        let want = -(1.0 - 0.85f32.powf(ticks50));
        assert!(
            (s.body.move_dir.y - want).abs() < 1e-4,
            "{hz} Hz: {}",
            s.body.move_dir.y
        );
    }
}
