//! Property tests: finite in → finite out, NaN/inf inputs and dt extremes give the documented result,
//! air acceleration is parallel to the wish and bounded by the budget.

use hopkit::ground::{FlatGround, NoGround, PlaneGround};
use hopkit::hash::StateHash;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{
    air_accelerate, air_cap_and_budget, step, world_wish, MoveInput, MoveParams, MoverState,
    WishDir,
};
use proptest::prelude::*;

fn preset(i: u8) -> MoveParams {
    match i % 6 {
        5 => MoveParams::cpma(),
        0 => MoveParams::seed(),
        1 => MoveParams::quakeworld(),
        2 => MoveParams::quake3(),
        3 => MoveParams::source(),
        _ => {
            let mut p = MoveParams::seed();
            p.accel_style = hopkit::movement::AccelStyle::ClampedDelta;
            p.bhop_speed_cap = 1.3;
            p.jump_release_cut = 0.5;
            p.friction_math = hopkit::movement::FrictionMath::SqrtDivide;
            p
        }
    }
}

/// Any f32, with NaN/inf/huge values well represented.
fn wild_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => -1.0e3f32..1.0e3,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(f32::MAX),
        1 => Just(-f32::MAX),
        1 => Just(1.0e-40f32),
        1 => any::<f32>(),
    ]
}

fn finite_state() -> impl Strategy<Value = MoverState> {
    (
        -1.0e4f32..1.0e4,
        -10.0f32..1.0e3,
        -1.0e4f32..1.0e4,
        -500.0f32..500.0,
        -500.0f32..500.0,
        -500.0f32..500.0,
        any::<bool>(),
    )
        .prop_map(|(x, y, z, vx, vy, vz, g)| {
            let mut s = MoverState::new(Vec3::new(x, y, z));
            s.velocity = Vec3::new(vx, vy, vz);
            s.grounded = g;
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn finite_inputs_keep_the_state_finite(
        mut s in finite_state(),
        pi in 0u8..6,
        wx in -2.0f32..2.0, wy in -2.0f32..2.0,
        yaw in -10.0f32..10.0,
        dt in 1.0e-4f32..1.0,
        jumps in proptest::collection::vec(any::<bool>(), 1..40),
        ramp_deg in 0.0f32..80.0,
    ) {
        let p = preset(pi);
        let ramp = PlaneGround::ramp(Vec3::ZERO, Vec2::new(0.6, 0.8), ramp_deg.to_radians());
        for (i, j) in jumps.iter().enumerate() {
            let input = MoveInput::with_yaw(Vec2::new(wx, wy), *j, yaw + i as f32 * 0.1);
            let ev = if i % 2 == 0 {
                step(&mut s, &p, &input, &FlatGround::new(0.0), dt)
            } else {
                step(&mut s, &p, &input, &ramp, dt)
            };
            prop_assert!(s.is_finite(), "{:?}", s);
            prop_assert!(!ev.rejected);
            prop_assert!(ev.substeps >= 1 && ev.substeps <= p.max_substeps);
            let m = p.max_velocity;
            prop_assert!(s.velocity.x.abs() <= m && s.velocity.y.abs() <= m && s.velocity.z.abs() <= m);
        }
    }

    #[test]
    fn wild_inputs_are_sanitised(
        mut s in finite_state(),
        pi in 0u8..6,
        wx in wild_f32(), wy in wild_f32(), fx in wild_f32(), fz in wild_f32(),
        dt in 1.0e-3f32..0.1,
        jump in any::<bool>(),
    ) {
        let p = preset(pi);
        let input = MoveInput::new(Vec2::new(wx, wy), jump, Vec2::new(fx, fz));
        let w = input.world_wish();
        prop_assert!(w.dir.is_finite() && w.scale.is_finite());
        prop_assert!((0.0..=1.0).contains(&w.scale));
        if !(wx.is_finite() && wy.is_finite()) {
            prop_assert_eq!(w, WishDir::NONE);
        }
        for _ in 0..10 {
            step(&mut s, &p, &input, &FlatGround::new(0.0), dt);
            prop_assert!(s.is_finite(), "{:?}", s);
        }
    }

    #[test]
    fn a_corrupted_state_is_repaired(
        px in wild_f32(), py in wild_f32(), pz in wild_f32(),
        vx in wild_f32(), vy in wild_f32(), vz in wild_f32(),
        pi in 0u8..6,
    ) {
        let p = preset(pi);
        let mut s = MoverState::new(Vec3::new(px, py, pz));
        s.velocity = Vec3::new(vx, vy, vz);
        s.coyote_timer = f32::NAN;
        step(&mut s, &p, &MoveInput::default(), &FlatGround::new(0.0), 1.0 / 60.0);
        prop_assert!(s.is_finite(), "{:?}", s);
    }

    #[test]
    fn rejected_dt_is_a_no_op(
        s0 in finite_state(),
        pi in 0u8..6,
        dt in prop_oneof![Just(0.0f32), Just(-0.0f32), Just(f32::NAN), Just(f32::NEG_INFINITY), -1.0e6f32..0.0],
    ) {
        let p = preset(pi);
        let mut s = s0;
        let input = MoveInput::with_yaw(Vec2::new(1.0, 0.0), true, 0.3);
        let ev = step(&mut s, &p, &input, &FlatGround::new(0.0), dt);
        prop_assert!(ev.rejected);
        prop_assert_eq!(ev.substeps, 0);
        prop_assert_eq!(s.state_hash(), s0.state_hash());
    }

    #[test]
    fn huge_dt_is_clamped_and_reported(
        mut s in finite_state(),
        pi in 0u8..6,
        dt in prop_oneof![Just(f32::INFINITY), Just(1.0e6f32), Just(f32::MAX), 1.0f32..1.0e5],
    ) {
        let p = preset(pi);
        let input = MoveInput::with_yaw(Vec2::new(1.0, 0.5), true, 1.0);
        let ev = step(&mut s, &p, &input, &FlatGround::new(0.0), dt);
        prop_assert!(!ev.rejected);
        prop_assert_eq!(ev.substeps, p.max_substeps);
        let simulated = p.max_tick_dt * p.max_substeps as f32;
        if dt.is_finite() {
            prop_assert!((ev.dropped_time - (dt - simulated)).abs() <= 1e-6 * dt);
        } else {
            prop_assert!(ev.dropped_time.is_infinite());
        }
        prop_assert!(s.is_finite());
    }

    #[test]
    fn air_acceleration_is_parallel_to_the_wish_and_bounded(
        vx in -1.0e3f32..1.0e3, vz in -1.0e3f32..1.0e3,
        ang in 0.0f32..std::f32::consts::TAU,
        scale in 0.05f32..1.0,
        pi in 0u8..4,
        dt in 1.0e-3f32..0.05,
    ) {
        let p = preset(pi);
        let wish = WishDir::new(Vec2::new(ang.cos(), ang.sin()), scale);
        let v = Vec2::new(vx, vz);
        let out = air_accelerate(v, wish, &p, dt);
        let dv = out - v;
        let (_, a) = air_cap_and_budget(&p, scale, dt);
        let eps = 1e-6 * (v.length() + 1.0) * 4.0;
        prop_assert!(dv.perp_dot(wish.dir).abs() <= eps, "not parallel: {:?} vs {:?}", dv, wish.dir);
        prop_assert!(dv.dot(wish.dir) >= -eps, "against the wish");
        prop_assert!(dv.length() <= a + eps, "|Δv| {} > a {}", dv.length(), a);
    }

    #[test]
    fn airborne_step_changes_planar_velocity_along_the_wish_only(
        fx in -0.99f32..0.99, fz in -0.99f32..0.99,
        wx in -1.0f32..1.0, wy in -1.0f32..1.0, yaw in -4.0f32..4.0,
        pi in 0u8..4,
    ) {
        let p = preset(pi);
        let dt = 1.0 / 60.0;
        let mut s = MoverState::new(Vec3::new(0.0, 100.0, 0.0));
        // Below the per-axis clamp even after one tick of acceleration.
        let m = 0.9 * p.max_velocity;
        s.velocity = Vec3::new(fx * m, 0.0, fz * m);
        let input = MoveInput::with_yaw(Vec2::new(wx, wy), false, yaw);
        let w = world_wish(input.wish, input.facing);
        let before = s.velocity.planar();
        step(&mut s, &p, &input, &NoGround, dt);
        let dv = s.velocity.planar() - before;
        let (_, a) = air_cap_and_budget(&p, w.scale, dt);
        let eps = 1e-6 * (before.length() + 1.0) * 4.0;
        prop_assert!(dv.perp_dot(w.dir).abs() <= eps);
        prop_assert!(dv.length() <= a + eps);
    }
}

use super::answers::{WeirdFeatures, WeirdGround};

fn wild_vec3() -> impl Strategy<Value = Vec3> {
    (wild_f32(), wild_f32(), wild_f32()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn feature_ground() -> impl Strategy<Value = WeirdFeatures> {
    (
        -50.0f32..50.0,
        (wild_vec3(), wild_f32(), wild_vec3()),
        wild_f32(),
        proptest::option::of(wild_vec3()),
        proptest::option::of(prop_oneof![3 => -50.0f32..50.0, 1 => wild_f32()]),
    )
        .prop_map(
            |(height, (velocity, yaw_rate, pivot), clearance, ladder, water)| WeirdFeatures {
                ground: WeirdGround {
                    height,
                    normal: Vec3::UP,
                },
                motion: hopkit::ground::SurfaceMotion {
                    velocity,
                    yaw_rate,
                    pivot,
                },
                clearance,
                ladder,
                water,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Platforms, crouching, ladders and water (issue 26) with wild probe answers: the state stays
    /// finite, within `max_velocity` per axis, the water jump timer never negative, the carried
    /// yaw finite; and the same inputs give the same bits.
    #[test]
    fn feature_probes_keep_the_state_finite(
        s0 in finite_state(),
        pi in 0u8..6,
        ground in feature_ground(),
        keys in proptest::collection::vec((-1.5f32..1.5, -1.5f32..1.5, any::<bool>(), any::<bool>(), wild_f32()), 1..30),
        yaw in -10.0f32..10.0,
        dt in 1.0e-3f32..0.2,
    ) {
        let p = preset(pi);
        let mut s = s0;
        let mut again = s0;
        for (i, (f, r, jump, crouch, look_up)) in keys.iter().enumerate() {
            let input = MoveInput {
                look_up: *look_up,
                ..MoveInput::with_yaw(Vec2::new(*f, *r), *jump, yaw + i as f32 * 0.2)
                    .with_crouch(*crouch)
            };
            let ev = step(&mut s, &p, &input, &ground, dt);
            let ev2 = step(&mut again, &p, &input, &ground, dt);
            prop_assert!(s.is_finite(), "{:?} on {:?}", s, ground);
            prop_assert!(ev.carried_yaw.is_finite());
            prop_assert!(s.water_jump_timer >= 0.0);
            let m = p.max_velocity;
            prop_assert!(s.velocity.x.abs() <= m && s.velocity.y.abs() <= m && s.velocity.z.abs() <= m,
                "{:?}", s.velocity);
            prop_assert_eq!(s.state_hash(), again.state_hash());
            prop_assert_eq!(ev, ev2);
        }
    }
}
