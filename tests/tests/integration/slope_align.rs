//! Slope alignment (seed 003): walkable test, animation speed, tilt clamp, bad normals, local frame.

use hopkit::hash::StateHash;
use hopkit::math::{Quat, Vec3};
use hopkit::slope::{self, SlopeParams, SlopeState};

const DT60: f32 = 1.0 / 60.0;

/// Unit normal of a ramp tilted `deg` degrees, rising towards −X (normal leans to +X).
fn ramp_normal(deg: f32) -> Vec3 {
    let a = deg.to_radians();
    Vec3::new(a.sin(), a.cos(), 0.0)
}

fn angle_deg(q: Quat) -> f32 {
    q.angle().to_degrees()
}

#[test]
fn tilts_onto_a_30_degree_ramp_at_270_degrees_per_second() {
    // 30° / 270°/s = 0.111 s = 6.67 ticks at 60 Hz: 4.5° per tick, reached on tick 7.
    let p = SlopeParams::seed();
    let mut s = SlopeState::new();
    let n = ramp_normal(30.0);
    for tick in 1..=6 {
        let ev = slope::step(&mut s, &p, Quat::IDENTITY, Some(n), DT60);
        assert!(ev.accepted && !ev.settled, "tick {tick}");
        let want = 4.5 * tick as f32;
        assert!(
            (angle_deg(s.tilt) - want).abs() < 0.05,
            "tick {tick}: {}",
            angle_deg(s.tilt)
        );
    }
    let ev = slope::step(&mut s, &p, Quat::IDENTITY, Some(n), DT60);
    assert!(ev.settled);
    assert!((angle_deg(s.tilt) - 30.0).abs() < 0.05);
    // The tilted up is the ground normal.
    assert!((s.tilt.rotate(Vec3::UP) - n).length() < 1e-4);
}

#[test]
fn refuses_a_60_degree_wall_with_a_45_degree_limit() {
    let p = SlopeParams::seed();
    let mut s = SlopeState::new();
    for _ in 0..30 {
        let ev = slope::step(&mut s, &p, Quat::IDENTITY, Some(ramp_normal(60.0)), DT60);
        assert!(ev.rejected && !ev.accepted);
    }
    assert_eq!(s, SlopeState::new());
    // A steeper limit accepts it.
    let steep = SlopeParams {
        slope_limit_deg: 60.0,
        ..p
    };
    assert!(steep.is_walkable(ramp_normal(60.0)));
    let ev = slope::step(
        &mut s,
        &steep,
        Quat::IDENTITY,
        Some(ramp_normal(60.0)),
        DT60,
    );
    assert!(ev.accepted);
}

#[test]
fn walkable_at_exactly_the_limit_with_epsilon() {
    let p = SlopeParams::seed();
    assert!(p.is_walkable(ramp_normal(45.0)));
    // The 2e-3 cosine tolerance is ≈ 0.16° at 45°.
    assert!(p.is_walkable(ramp_normal(45.1)));
    assert!(!p.is_walkable(ramp_normal(45.2)));
    // Without tolerance a rounding-level miss can reject the 45° ramp; with it it never does.
    for i in 0..100 {
        let deg = 44.99 + i as f32 * 0.0001;
        assert!(p.is_walkable(ramp_normal(deg)), "{deg}");
    }
    // Unnormalised normals are normalised first.
    assert!(p.is_walkable(ramp_normal(30.0) * 7.0));
}

#[test]
fn trace_angle_limit_clamps_the_tilt() {
    let p = SlopeParams {
        trace_angle_limit_deg: 10.0,
        ..SlopeParams::seed()
    };
    let mut s = SlopeState::new();
    let n = ramp_normal(30.0);
    for _ in 0..60 {
        slope::step(&mut s, &p, Quat::IDENTITY, Some(n), DT60);
    }
    assert!(
        (angle_deg(s.tilt) - 10.0).abs() < 0.05,
        "{}",
        angle_deg(s.tilt)
    );
    // Leaning the right way: towards the normal.
    let up = s.tilt.rotate(Vec3::UP);
    assert!(up.x > 0.17 && up.x < 0.18 && up.z.abs() < 1e-5);
    // A limit of 0 (or negative) keeps the visual upright.
    let flat = SlopeParams {
        trace_angle_limit_deg: 0.0,
        ..SlopeParams::seed()
    };
    slope::step(&mut s, &flat, Quat::IDENTITY, Some(n), DT60);
    assert_eq!(s.tilt, Quat::IDENTITY);
}

#[test]
fn bad_or_missing_normals_keep_the_last_accepted_one() {
    let p = SlopeParams::seed();
    let mut s = SlopeState::new();
    let n = ramp_normal(30.0);
    for _ in 0..10 {
        slope::step(&mut s, &p, Quat::IDENTITY, Some(n), DT60);
    }
    let settled = s;
    for bad in [
        Some(Vec3::ZERO),
        Some(Vec3::new(f32::NAN, 1.0, 0.0)),
        Some(Vec3::new(0.0, f32::INFINITY, 0.0)),
        Some(Vec3::new(1e-9, 1e-9, 0.0)),
        Some(ramp_normal(80.0)),
        None,
    ] {
        let ev = slope::step(&mut s, &p, Quat::IDENTITY, bad, DT60);
        assert_eq!(ev.rejected, bad.is_some());
        assert_eq!(s.accepted_normal, settled.accepted_normal);
        assert!((s.tilt.angle_between(settled.tilt)).abs() < 1e-3);
    }
}

#[test]
fn target_is_in_the_bodys_local_frame() {
    // A body turned 90° left (facing −X), on a ramp whose normal leans to +X: the visual's world up
    // (body * tilt) must become the normal, whatever the yaw.
    let p = SlopeParams::seed();
    for yaw_deg in [0.0f32, 90.0, -135.0, 180.0] {
        let body = Quat::from_yaw(yaw_deg.to_radians());
        let mut s = SlopeState::new();
        let n = ramp_normal(25.0);
        for _ in 0..30 {
            slope::step(&mut s, &p, body, Some(n), DT60);
        }
        let up = s.world_tilt(body).rotate(Vec3::UP);
        assert!((up - n).length() < 1e-4, "yaw {yaw_deg}: {up:?}");
        // No twist: in world terms the tilt is the shortest arc from up to the normal, i.e. a
        // rotation about a horizontal axis, whatever the body's yaw.
        let world = s.world_tilt(body) * body.conjugate();
        let arc = Quat::from_rotation_arc(Vec3::UP, n);
        assert!(world.angle_between(arc) < 1e-3, "yaw {yaw_deg}");
    }
}

#[test]
fn upside_down_normal_is_handled_without_nan() {
    // Only a 180° limit accepts a ceiling; the opposite-vector rotation is still well defined.
    let p = SlopeParams {
        slope_limit_deg: 180.0,
        animation_angle_deg: f32::INFINITY,
        ..SlopeParams::seed()
    };
    let mut s = SlopeState::new();
    let ev = slope::step(&mut s, &p, Quat::IDENTITY, Some(-Vec3::UP), DT60);
    assert!(ev.accepted && ev.settled);
    assert!(s.tilt.is_finite());
    assert!((s.tilt.rotate(Vec3::UP) + Vec3::UP).length() < 1e-5);
    // Animated from upright towards upside down: halfway after 90°/270°/s.
    let p = SlopeParams {
        animation_angle_deg: 270.0,
        ..p
    };
    let mut s = SlopeState::new();
    for _ in 0..20 {
        slope::step(&mut s, &p, Quat::IDENTITY, Some(-Vec3::UP), DT60);
    }
    assert!(s.tilt.is_finite());
    assert!(
        (angle_deg(s.tilt) - 90.0).abs() < 0.1,
        "{}",
        angle_deg(s.tilt)
    );
    // A body upside down on flat ground: the tilt flips it back (180°), no NaN.
    let mut s = SlopeState::new();
    let body = Quat::from_axis_angle(Vec3::X, std::f32::consts::PI);
    slope::step(&mut s, &p, body, Some(Vec3::UP), 1.0);
    assert!(s.tilt.is_finite());
    assert!((s.world_tilt(body).rotate(Vec3::UP) - Vec3::UP).length() < 1e-4);
}

#[test]
fn non_finite_settings_disable_their_step_as_in_the_seed() {
    let n = ramp_normal(30.0);
    // Animation NaN/±inf: snap to the target in one step.
    for a in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let p = SlopeParams {
            animation_angle_deg: a,
            ..SlopeParams::seed()
        };
        let mut s = SlopeState::new();
        assert!(slope::step(&mut s, &p, Quat::IDENTITY, Some(n), DT60).settled);
        assert!((angle_deg(s.tilt) - 30.0).abs() < 0.05);
    }
    // Negative animation speed: frozen.
    let p = SlopeParams {
        animation_angle_deg: -90.0,
        ..SlopeParams::seed()
    };
    let mut s = SlopeState::new();
    slope::step(&mut s, &p, Quat::IDENTITY, Some(n), DT60);
    assert_eq!(s.tilt, Quat::IDENTITY);
    // Trace limit NaN: no clamp.
    let p = SlopeParams {
        trace_angle_limit_deg: f32::NAN,
        animation_angle_deg: f32::INFINITY,
        ..SlopeParams::seed()
    };
    let mut s = SlopeState::new();
    slope::step(&mut s, &p, Quat::IDENTITY, Some(n), DT60);
    assert!((angle_deg(s.tilt) - 30.0).abs() < 0.05);
    // NaN slope limit falls back to 45°.
    let p = SlopeParams {
        slope_limit_deg: f32::NAN,
        ..SlopeParams::seed()
    };
    assert!(p.is_walkable(ramp_normal(44.0)) && !p.is_walkable(ramp_normal(46.0)));
}

#[test]
fn bad_dt_and_bad_orientation() {
    let p = SlopeParams::seed();
    let n = ramp_normal(30.0);
    for dt in [0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
        let mut s = SlopeState::new();
        let ev = slope::step(&mut s, &p, Quat::IDENTITY, Some(n), dt);
        assert!(ev.accepted);
        assert_eq!(s.tilt, Quat::IDENTITY, "dt {dt}");
        assert_eq!(s.accepted_normal, n.normalize_or_zero());
    }
    // A long frame just completes the rotation.
    let mut s = SlopeState::new();
    assert!(slope::step(&mut s, &p, Quat::IDENTITY, Some(n), 1e6).settled);
    // NaN orientation is treated as identity.
    let mut a = SlopeState::new();
    let mut b = SlopeState::new();
    let nan = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
    slope::step(&mut a, &p, nan, Some(n), DT60);
    slope::step(&mut b, &p, Quat::IDENTITY, Some(n), DT60);
    assert_eq!(a, b);
}

#[test]
fn slope_state_hash() {
    let p = SlopeParams::seed();
    let mut a = SlopeState::new();
    let mut b = SlopeState::new();
    assert_eq!(a.state_hash(), b.state_hash());
    slope::step(&mut a, &p, Quat::IDENTITY, Some(ramp_normal(20.0)), DT60);
    assert_ne!(a.state_hash(), b.state_hash());
    slope::step(&mut b, &p, Quat::IDENTITY, Some(ramp_normal(20.0)), DT60);
    assert_eq!(a.state_hash(), b.state_hash());
}
