//! Arrival: the seed reproduction (frame and dt forms) and hopkit's safe arrival.

use hopkit::math::Vec3;
use hopkit::steering::{
    arrival_seed_dt, arrival_seed_frame, arrival_step, arrive, integrate, Agent, ArrivalParams,
    ArrivalState, SeedArrivalParams, SteeringParams,
};

const DT: f32 = 1.0 / 60.0;

#[derive(Clone, Copy, Debug)]
struct Sample {
    position: Vec3,
    velocity: Vec3,
    arrived: bool,
}

fn run_arrival(
    start: ArrivalState,
    params: &SteeringParams,
    arrival: &ArrivalParams,
    target: Vec3,
    dt: f32,
    ticks: usize,
) -> Vec<Sample> {
    let mut s = start;
    let mut out = Vec::with_capacity(ticks);
    for _ in 0..ticks {
        arrival_step(&mut s, params, arrival, target, dt);
        out.push(Sample {
            position: s.agent.position,
            velocity: s.agent.velocity,
            arrived: s.arrived,
        });
    }
    out
}

#[test]
fn trajectory_accelerates_cruises_brakes_and_stops_exactly() {
    let params = SteeringParams::default(); // 4 u/s, 8 u/s²
    let arrival = ArrivalParams::default(); // brake 2, tolerance 0.05
    let target = Vec3::new(20.0, 0.0, 0.0);
    let trace = run_arrival(
        ArrivalState::new(Vec3::ZERO),
        &params,
        &arrival,
        target,
        DT,
        1200,
    );

    let speeds: Vec<f32> = trace.iter().map(|s| s.velocity.length()).collect();
    let dists: Vec<f32> = trace.iter().map(|s| s.position.distance(target)).collect();
    let budget = params.max_accel * DT;

    // 1. Accelerates at the full budget from rest until max speed (0.5 s = 30 ticks).
    for (i, s) in speeds.iter().take(29).enumerate() {
        let expected = budget * (i + 1) as f32;
        assert!(
            (s - expected).abs() < 1e-4,
            "tick {i}: speed {s}, expected {expected}"
        );
    }
    // 2. Cruises at max speed for a while.
    let cruise = speeds
        .iter()
        .filter(|&&s| (s - params.max_speed).abs() < 1e-5)
        .count();
    assert!(cruise > 200, "cruise ticks {cruise}");
    // 3. Only slows down (after reaching max speed) inside the brake distance.
    let first_slow = (30..speeds.len())
        .find(|&i| speeds[i] < params.max_speed - 1e-4)
        .expect("braking happens");
    assert!(
        dists[first_slow - 1] <= arrival.brake_distance + 1e-4,
        "started braking at distance {}",
        dists[first_slow - 1]
    );
    // 4. Distance never increases; velocity never points away; never passes the target.
    for w in dists.windows(2) {
        assert!(w[1] <= w[0], "distance increased: {} -> {}", w[0], w[1]);
    }
    for s in &trace {
        assert!(s.velocity.x >= 0.0, "velocity flipped: {:?}", s.velocity);
        assert_eq!(s.velocity.y, 0.0);
        assert_eq!(s.velocity.z, 0.0);
        assert!(
            s.position.x <= target.x + 1e-4,
            "overshoot to {}",
            s.position.x
        );
    }
    // 5. Stops: exactly zero velocity, inside the tolerance, arrived flag, then stays put.
    let arrived_at = trace.iter().position(|s| s.arrived).expect("arrives");
    let t_arrive = (arrived_at + 1) as f32 * DT;
    // 20 units at 4 u/s ≈ 5 s plus ramp-in/out; well under 8 s.
    assert!(t_arrive > 5.0 && t_arrive < 8.0, "arrival time {t_arrive}");
    let at = trace[arrived_at];
    assert_eq!(at.velocity, Vec3::ZERO);
    assert!(at.position.distance(target) <= arrival.tolerance);
    for s in &trace[arrived_at..] {
        assert!(s.arrived);
        assert_eq!(s.position, at.position);
        assert_eq!(s.velocity, Vec3::ZERO);
    }
}

#[test]
fn seed_frame_form_and_dt_form_agree_at_60hz() {
    let per_frame = SeedArrivalParams::default(); // 4 pt/frame, 0.2 pt/frame², brake 100
    let per_second = per_frame.per_second(60.0);
    assert_eq!(per_second.max_speed, 240.0);
    assert_eq!(per_second.max_accel, 720.0);

    let mut frame = Agent::new(Vec3::new(10.0, 0.0, -20.0));
    let mut timed = frame;
    // A target that jumps around, as the seed's dragged sprite does.
    let targets = [
        Vec3::new(300.0, 0.0, -200.0),
        Vec3::new(-150.0, 0.0, 80.0),
        Vec3::new(40.0, 0.0, 40.0),
    ];
    let mut worst_p = 0.0f32;
    let mut worst_v = 0.0f32;
    for tick in 0..900 {
        let target = targets[tick / 300];
        arrival_seed_frame(&mut frame, target, &per_frame);
        arrival_seed_dt(&mut timed, target, &per_second, DT);
        worst_p = worst_p.max(frame.position.distance(timed.position));
        worst_v = worst_v.max(frame.velocity.distance(timed.velocity * DT));
    }
    // Same algorithm, only rounding differs (positions are hundreds of points).
    assert!(worst_p < 2e-3, "position disagreement {worst_p}");
    assert!(worst_v < 1e-4, "velocity disagreement {worst_v} pt/frame");
    // And both actually got to the last target region.
    assert!(frame.position.distance(targets[2]) < 5.0);
}

#[test]
fn seed_form_overshoots_when_accel_is_small_but_hopkit_arrival_does_not() {
    // Fast, weak, short brake distance: the ramp asks for 10²/1 = 100 u/s² of braking, the body
    // has 4. This is the classic arrival oscillation.
    let target = Vec3::new(30.0, 0.0, 0.0);
    let seed_params = SeedArrivalParams {
        max_speed: 10.0,
        max_accel: 4.0,
        brake_distance: 1.0,
    };
    let mut naive = Agent::new(Vec3::ZERO);
    let mut naive_overshoot = 0.0f32;
    let mut naive_flips = 0;
    let mut last_vx = 0.0f32;
    for _ in 0..1200 {
        arrival_seed_dt(&mut naive, target, &seed_params, DT);
        naive_overshoot = naive_overshoot.max(naive.position.x - target.x);
        if last_vx > 0.0 && naive.velocity.x < 0.0 {
            naive_flips += 1;
        }
        last_vx = naive.velocity.x;
    }
    assert!(naive_overshoot > 5.0, "naive overshoot {naive_overshoot}");
    assert!(naive_flips >= 1);

    let params = SteeringParams {
        max_speed: 10.0,
        max_accel: 4.0,
        ..SteeringParams::default()
    };
    let arrival = ArrivalParams {
        brake_distance: 1.0,
        ..ArrivalParams::default()
    };
    let trace = run_arrival(
        ArrivalState::new(Vec3::ZERO),
        &params,
        &arrival,
        target,
        DT,
        1200,
    );
    let mut prev = f32::INFINITY;
    for s in &trace {
        let d = s.position.distance(target);
        assert!(d <= prev);
        prev = d;
        assert!(s.velocity.x >= 0.0);
        assert!(s.position.x <= target.x + 1e-4);
    }
    let last = trace.last().unwrap();
    assert!(last.arrived);
    assert_eq!(last.velocity, Vec3::ZERO);
}

#[test]
fn arrival_is_frame_rate_independent() {
    let params = SteeringParams::default();
    let arrival = ArrivalParams::default();
    let target = Vec3::new(-6.0, 0.0, 8.0); // 10 units away, diagonal
    let mut times = Vec::new();
    for hz in [30.0f32, 60.0, 120.0, 144.0] {
        let dt = 1.0 / hz;
        let ticks = (20.0 * hz) as usize;
        let trace = run_arrival(
            ArrivalState::new(Vec3::ZERO),
            &params,
            &arrival,
            target,
            dt,
            ticks,
        );
        let i = trace.iter().position(|s| s.arrived).expect("arrives");
        times.push((i + 1) as f32 * dt);
        let d: Vec<f32> = trace.iter().map(|s| s.position.distance(target)).collect();
        assert!(d.windows(2).all(|w| w[1] <= w[0]), "{hz} Hz not monotone");
        assert!(trace[i].position.distance(target) <= arrival.tolerance);
        // Half-way there after the same wall time (± a couple of coarse ticks).
        let half = d.iter().position(|&x| x <= 5.0).unwrap() as f32 * dt;
        assert!((half - 1.5).abs() < 0.1, "{hz} Hz half-way at {half}s");
    }
    let (min, max) = times
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), &t| (a.min(t), b.max(t)));
    assert!(max - min < 0.15, "arrival times {times:?}");
}

#[test]
fn time_optimal_zero_tolerance_lands_on_the_target() {
    let params = SteeringParams::default();
    let arrival = ArrivalParams {
        tolerance: 0.0,
        face_velocity: false,
        ..ArrivalParams::time_optimal()
    };
    for &x in &[0.001f32, 0.05, 0.3, 1.0, 2.7, 13.0] {
        let target = Vec3::new(0.0, 0.0, -x);
        let trace = run_arrival(
            ArrivalState::new(Vec3::ZERO),
            &params,
            &arrival,
            target,
            DT,
            600,
        );
        let i = trace.iter().position(|s| s.arrived).expect("arrives");
        assert!(trace[i].position.distance(target) <= 1e-5, "x={x}");
        assert!(trace.iter().all(|s| s.position.z >= target.z - 1e-5));
        assert!(trace.iter().all(|s| s.velocity.z <= 0.0));
        // Near time-optimal: the ideal is 2·√(x/a) while the top speed is not reached; braking is
        // planned at 90 % of a (rounding reserve), which costs ≈ 3 %.
        if x < 2.0 {
            let t = (i + 1) as f32 * DT;
            let ideal = 2.0 * (x / params.max_accel).sqrt();
            assert!(
                t < ideal * 1.03 + 4.0 * DT,
                "x={x} took {t}s, ideal {ideal}s"
            );
        }
    }
}

#[test]
fn arrival_from_a_sideways_start_settles_without_flipping_at_the_end() {
    let params = SteeringParams::default();
    let arrival = ArrivalParams::default();
    let target = Vec3::new(10.0, 0.0, 0.0);
    let start = ArrivalState {
        agent: Agent {
            position: Vec3::ZERO,
            velocity: Vec3::new(0.0, 0.0, 4.0),
            yaw: 0.0,
        },
        arrived: false,
    };
    let trace = run_arrival(start, &params, &arrival, target, DT, 900);
    let i = trace.iter().position(|s| s.arrived).expect("arrives");
    assert_eq!(trace[i].velocity, Vec3::ZERO);
    // Once the lateral velocity is gone (well before the brake radius here), the approach is
    // monotone: no oscillation at the target.
    let inside = trace
        .iter()
        .position(|s| s.position.distance(target) < arrival.brake_distance)
        .unwrap();
    for w in trace[inside..].windows(2) {
        assert!(w[1].position.distance(target) <= w[0].position.distance(target) + 1e-6);
    }
}

#[test]
fn moving_target_is_followed_and_arrival_resumes() {
    let params = SteeringParams::critter();
    let arrival = ArrivalParams::default();
    let mut s = ArrivalState::new(Vec3::ZERO);
    let mut arrived_once = false;
    for tick in 0..1800 {
        let t = tick as f32 * DT;
        let target = if t < 10.0 {
            Vec3::new(3.0 * (t * 0.5).cos(), 0.0, 3.0 * (t * 0.5).sin())
        } else {
            Vec3::new(3.0 * 5.0f32.cos(), 0.0, 3.0 * 5.0f32.sin())
        };
        arrival_step(&mut s, &params, &arrival, target, DT);
        assert!(s.agent.is_finite());
        assert!(s.agent.velocity.length() <= params.max_speed * (1.0 + 1e-6));
        if t > 10.0 && s.arrived {
            arrived_once = true;
        }
    }
    assert!(arrived_once);
    assert_eq!(s.agent.velocity, Vec3::ZERO);
    // The arrived flag clears when the target moves away.
    arrival_step(&mut s, &params, &arrival, Vec3::new(9.0, 0.0, 9.0), DT);
    assert!(!s.arrived);
}

#[test]
fn arrive_output_is_bounded_and_matches_integrate() {
    let params = SteeringParams::default();
    let arrival = ArrivalParams::default();
    let mut a = Agent::new(Vec3::new(1.0, 0.0, 1.0));
    let s = arrive(&a, Vec3::new(5.0, 0.0, 1.0), &params, &arrival, DT);
    assert!(s.linear.length() <= params.max_accel * (1.0 + 1e-6));
    assert!(s.linear.x > 0.0);
    integrate(&mut a, &params, s, DT);
    assert!(a.velocity.x > 0.0 && a.position.x > 1.0);
    // Invalid dt: zero steering.
    assert_eq!(
        arrive(&a, Vec3::X, &params, &arrival, f32::NAN).linear,
        Vec3::ZERO
    );
    assert_eq!(
        arrive(&a, Vec3::X, &params, &arrival, 0.0).linear,
        Vec3::ZERO
    );
}

#[test]
fn arrival_step_faces_its_velocity() {
    let params = SteeringParams::default();
    let arrival = ArrivalParams::default();
    let mut s = ArrivalState::new(Vec3::ZERO);
    // Target to the +X side: facing +X is yaw −π/2.
    for _ in 0..120 {
        arrival_step(&mut s, &params, &arrival, Vec3::new(10.0, 0.0, 0.0), DT);
    }
    assert!(
        (s.agent.yaw + core::f32::consts::FRAC_PI_2).abs() < 1e-5,
        "yaw {}",
        s.agent.yaw
    );
    let h = s.agent.heading();
    assert!((h.x - 1.0).abs() < 1e-5 && h.y.abs() < 1e-5);
}

/// Regression (found by proptest): a pure ramp (no creep) with zero tolerance used to stall just
/// outside the rounding floor, because `position + v·dt` rounded back to `position`.
#[test]
fn pure_ramp_with_zero_tolerance_does_not_stall_on_rounding() {
    use hopkit::math::Vec3;
    use hopkit::steering::{arrival_step, ArrivalParams, ArrivalState, SteeringParams};
    let p = SteeringParams {
        max_speed: 0.5,
        max_accel: 0.5,
        ..SteeringParams::default()
    };
    let ap = ArrivalParams {
        brake_distance: 2.855_816_6,
        tolerance: 0.0,
        min_speed_fraction: 0.0,
        face_velocity: false,
    };
    let target = Vec3::new(0.0, 0.0, 17.317_356);
    let mut s = ArrivalState::new(Vec3::ZERO);
    let arrived = (0..200 * 50).any(|_| arrival_step(&mut s, &p, &ap, target, 1.0 / 50.0).arrived);
    assert!(
        arrived,
        "stalled at distance {}",
        s.agent.position.distance(target)
    );
    assert_eq!(s.agent.velocity, Vec3::ZERO);
}

/// Regression (issue 13, defect 1): starting sideways at full speed, the approach demand used to
/// take the whole acceleration budget, the lateral velocity was never removed and the agent
/// orbited the target between 10 and 32.7 units for 200,000 ticks. The seed's Arrival settles in
/// 3,908 frames here; hopkit's must arrive, at rest, within `arrival_time_bound`.
#[test]
fn a_sideways_start_at_full_speed_arrives() {
    use hopkit::math::Vec3;
    use hopkit::steering::{
        arrival_step, arrival_time_bound, ArrivalParams, ArrivalState, SteeringParams,
    };
    let p = SteeringParams {
        max_speed: 10.0,
        max_accel: 2.0,
        ..SteeringParams::default()
    };
    let ap = ArrivalParams::default();
    let target = Vec3::new(0.0, 0.0, -10.0);
    let bound = arrival_time_bound(10.0, 10.0, &p, &ap, DT);
    for start in [
        Vec3::new(10.0, 0.0, 0.0),
        Vec3::new(-10.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 10.0),
    ] {
        let mut s = ArrivalState::new(Vec3::ZERO);
        s.agent.velocity = start;
        let ticks = (0..200_000u32).position(|_| arrival_step(&mut s, &p, &ap, target, DT).arrived);
        let ticks = ticks.unwrap_or_else(|| panic!("start {start:?}: never arrived"));
        let secs = ticks as f32 * DT;
        assert!(secs <= bound, "start {start:?}: {secs} s > bound {bound} s");
        assert_eq!(s.agent.velocity, Vec3::ZERO);
        assert!(s.agent.position.distance(target) <= ap.tolerance);
    }
}

/// Property (issue 13): from any start velocity with |v| ≤ max speed — sideways, backwards, at an
/// angle — and any target, arrival_step arrives (at rest, flag set) within arrival_time_bound;
/// from rest it still never passes the target. Random parameters from a fixed seed (PCG32), so a
/// failure reproduces; `HOPKIT_ARRIVAL_CASES` raises the count (CI's release run uses more).
#[test]
fn every_start_arrives_within_the_documented_bound() {
    use hopkit::math::{scalar, Vec3};
    use hopkit::rng::Pcg32;
    use hopkit::steering::{
        arrival_step, arrival_time_bound, ArrivalParams, ArrivalState, SteeringParams,
    };
    let cases: u32 = std::env::var("HOPKIT_ARRIVAL_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 150 } else { 3000 });
    let mut rng = Pcg32::seeded(0x00a2_2141);
    let mut worst = 0.0f32;
    for case in 0..cases {
        let p = SteeringParams {
            max_speed: rng.range_f32(0.5, 30.0),
            max_accel: rng.range_f32(0.5, 60.0),
            ..SteeringParams::default()
        };
        let ap = ArrivalParams {
            brake_distance: rng.range_f32(0.0, 5.0),
            min_speed_fraction: rng.range_f32(0.02, 0.3),
            face_velocity: case % 2 == 0,
            ..ArrivalParams::default()
        };
        let dt = [1.0 / 30.0, 1.0 / 60.0, 1.0 / 144.0, 0.1][case as usize % 4];
        let d0 = rng.range_f32(0.0, 25.0);
        let (sn, cs) = scalar::sin_cos(rng.range_f32(0.0, core::f32::consts::TAU));
        let target = Vec3::new(d0 * cs, 0.0, d0 * sn);
        let (sv, cv) = scalar::sin_cos(rng.range_f32(0.0, core::f32::consts::TAU));
        let speed = p.max_speed * scalar::sqrt(rng.next_f32());
        let mut s = ArrivalState::new(Vec3::ZERO);
        s.agent.velocity = Vec3::new(cv * speed, 0.0, sv * speed);
        let bound = arrival_time_bound(d0, d0, &p, &ap, dt);
        let max_ticks = (bound / dt) as u32 + 1;
        let at_rest_start = case % 5 == 0;
        if at_rest_start {
            s.agent.velocity = Vec3::ZERO;
        }
        let mut arrived = None;
        for t in 0..=max_ticks {
            if arrival_step(&mut s, &p, &ap, target, dt).arrived {
                arrived = Some(t);
                break;
            }
            if at_rest_start {
                // From rest the agent moves straight at the target and never passes it.
                let along = s.agent.position.dot(target) / d0.max(1e-6);
                assert!(
                    along <= d0 + 1e-3,
                    "case {case}: passed the target ({along} > {d0})"
                );
            }
        }
        let t = arrived.unwrap_or_else(|| {
            panic!("case {case}: not arrived within the bound {bound} s ({p:?}, {ap:?}, dt {dt})")
        });
        assert_eq!(s.agent.velocity, Vec3::ZERO);
        worst = worst.max(t as f32 * dt / bound);
    }
    eprintln!("{cases} random arrivals, worst time / bound = {worst:.3}");
}
