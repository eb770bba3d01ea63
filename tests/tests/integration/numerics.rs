//! Regression tests for issue 13's defects: each one failed on the code before the fix.
//! (Arrival from a sideways start: steering_arrival.rs; timestep extremes: core/src/timestep.rs;
//! the bounded Toward walk: ghost_playback.rs.)

use hopkit::follower::{self, FollowerParams, FollowerState};
use hopkit::ghost::flyer::{self, keep_above_ground, FlyerParams, FlyerState};
use hopkit::ghost::{spawn_formation, FormationParams, GhostVec};
use hopkit::ground::{FlatGround, GroundHit, GroundProbe};
use hopkit::math::{wrap_angle, Quat, Vec2, Vec3};
use hopkit::movement::{self, MoveInput, MoveParams, MoverState};
use hopkit::rng::Pcg32;
use hopkit::steering::{arrival_step, stopping_speed, ArrivalParams, ArrivalState, SteeringParams};
use hopkit::stick::Wish;

fn subnormal(x: f32) -> bool {
    x != 0.0 && x.abs() < f32::MIN_POSITIVE
}

fn v3_subnormal(v: Vec3) -> bool {
    subnormal(v.x) || subnormal(v.y) || subnormal(v.z)
}

#[test]
fn friction_no_longer_leaves_velocities_stuck_in_subnormals() {
    // Running forward at the ground max with a tiny sideways component: friction scales both by
    // the same factor every tick and accelerate only tops up the forward one, so the sideways
    // one decayed into subnormals and stayed there (0.98 × the smallest subnormal rounds back).
    let p = MoveParams::seed();
    let ground = FlatGround::new(0.0);
    let mut s = MoverState::new(Vec3::ZERO);
    s.grounded = true;
    s.velocity = Vec3::new(1.0e-30, 0.0, -10.0);
    let input = MoveInput::new(Vec2::new(1.0, 0.0), false, Vec2::new(0.0, -1.0));
    for t in 0..20_000 {
        movement::step(&mut s, &p, &input, &ground, 1.0 / 60.0);
        assert!(!v3_subnormal(s.velocity), "tick {t}: {:?}", s.velocity);
        assert!(!v3_subnormal(s.position), "tick {t}: {:?}", s.position);
    }
    assert_eq!(
        s.velocity.x, 0.0,
        "the sideways component ends exactly at zero"
    );
}

#[test]
fn a_stopping_follower_decays_to_exact_zero() {
    let params = FollowerParams::default();
    let mut f: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 2.0), Vec3::ZERO, 0.0);
    f.body.velocity = Vec3::new(3.0, 0.0, 1.0e-20);
    for t in 0..5_000 {
        follower::step(
            &mut f,
            &params,
            Vec3::ZERO,
            &FlatGround::new(0.0),
            1.0 / 50.0,
        );
        assert!(
            !v3_subnormal(f.body.velocity),
            "tick {t}: {:?}",
            f.body.velocity
        );
    }
    assert_eq!(f.body.velocity.planar(), Vec2::ZERO);
}

#[test]
fn nan_and_infinite_timer_params_give_finite_timers() {
    let mut p = MoveParams::quake3();
    p.coyote_time = f32::NAN;
    p.jump_buffer_time = f32::INFINITY;
    let ground = FlatGround::new(0.0);
    let mut s = MoverState::new(Vec3::ZERO);
    for t in 0..120 {
        // Walk, press jump in the air, leave the ground: both timers get set.
        let jump = t % 7 == 0;
        let input = MoveInput::with_yaw(Vec2::new(1.0, 0.0), jump, 0.0);
        movement::step(&mut s, &p, &input, &ground, 1.0 / 60.0);
        assert!(
            s.coyote_timer.is_finite() && s.jump_buffer_timer.is_finite(),
            "{s:?}"
        );
        assert!(s.is_finite());
    }
}

#[test]
fn stopping_speed_is_finite_as_documented() {
    assert_eq!(stopping_speed(3.0e38, 3.0e38, 1.0 / 60.0), f32::MAX);
    assert!(stopping_speed(f32::MAX, f32::MAX, 0.25).is_finite());
}

#[test]
fn wrap_angle_is_in_range_for_huge_angles() {
    let pi = core::f32::consts::PI;
    for a in [
        1.0e30f32,
        -1.0e30,
        3.0e38,
        -3.0e38,
        1.0e7,
        12_345_678.0,
        16_777_217.0,
    ] {
        let w = wrap_angle(a);
        assert!(w > -pi && w <= pi, "wrap_angle({a}) = {w}");
    }
    // Unchanged for ordinary angles.
    assert!((wrap_angle(3.0 * pi) - pi).abs() < 1e-6);
    assert!((wrap_angle(-0.5) + 0.5).abs() < 1e-7);
}

#[test]
fn arrival_at_rest_on_the_target_repairs_a_nan_yaw() {
    let mut s = ArrivalState::new(Vec3::new(1.0, 0.0, 1.0));
    s.agent.yaw = f32::NAN;
    let arrived = arrival_step(
        &mut s,
        &SteeringParams::default(),
        &ArrivalParams::default(),
        Vec3::new(1.0, 0.0, 1.0),
        1.0 / 60.0,
    )
    .arrived;
    assert!(arrived);
    assert!(s.agent.yaw.is_finite());
}

#[test]
fn a_nan_flyer_is_repaired_by_its_next_step() {
    let p = FlyerParams::default();
    let mut s = FlyerState::level(Vec3::new(0.0, 10.0, 0.0), 0.0, 8.0);
    s.position.x = f32::NAN;
    s.orientation = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
    s.speed = f32::INFINITY;
    flyer::step(&mut s, &p, Vec3::ZERO, 1.0 / 60.0);
    assert!(s.is_finite(), "{s:?}");
}

#[test]
fn keep_above_ground_never_lifts_to_infinity() {
    struct Sky;
    impl GroundProbe for Sky {
        fn probe(&self, _p: Vec3) -> Option<GroundHit> {
            Some(GroundHit {
                height: 3.4e38,
                normal: Vec3::UP,
            })
        }
    }
    let mut s = FlyerState::level(Vec3::new(0.0, -3.0e38, 0.0), 0.0, 8.0);
    keep_above_ground(&mut s, &Sky);
    assert!(s.is_finite(), "{s:?}");
}

#[test]
fn a_non_unit_leader_gives_finite_wingmen() {
    let mut leader = FlyerState::level(Vec3::new(0.0, 10.0, 0.0), 0.3, 8.0);
    leader.orientation = Quat::from_xyzw(0.0, 3.0e19, 0.0, 3.0e19); // finite, far from unit
    let mut out: GhostVec<8> = GhostVec::new();
    let n = spawn_formation(
        &mut out,
        &mut Pcg32::seeded(1),
        leader,
        0,
        4,
        &FormationParams::default(),
        1800,
        60,
    );
    assert_eq!(n, 5);
    for g in &out {
        assert!(g.flyer.is_finite(), "{:?}", g.flyer);
    }
}

#[test]
fn a_wish_with_an_infinite_yaw_has_a_finite_direction() {
    let w = hopkit::stick::wish_from_stick(Vec2::new(0.0, 1.0));
    for yaw in [f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
        let d = w.world_direction(yaw);
        assert!(d.is_finite(), "{yaw}: {d:?}");
        assert_eq!(d, w.world_direction(0.0));
    }
    let _ = Wish::default();
}
