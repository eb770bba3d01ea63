//! Property tests: slope alignment never produces NaN, keeps unit quantities unit, and only ever
//! accepts walkable normals.

use hopkit::math::{Quat, Vec3};
use hopkit::slope::{self, SlopeParams, SlopeState};
use proptest::prelude::*;

fn wild_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => -2.0f32..2.0,
        1 => -1000.0f32..1000.0,
        1 => proptest::num::f32::ANY,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(0.0f32),
    ]
}

fn wild_vec3() -> impl Strategy<Value = Vec3> {
    (wild_f32(), wild_f32(), wild_f32()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn wild_quat() -> impl Strategy<Value = Quat> {
    (wild_f32(), wild_f32(), wild_f32(), wild_f32())
        .prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w))
}

fn wild_params() -> impl Strategy<Value = SlopeParams> {
    (wild_f32(), wild_f32(), wild_f32(), wild_f32()).prop_map(|(a, b, c, d)| SlopeParams {
        slope_limit_deg: a * 100.0,
        walkable_epsilon: b,
        animation_angle_deg: c * 300.0,
        trace_angle_limit_deg: d * 90.0,
    })
}

fn state_ok(s: &SlopeState) -> Result<(), TestCaseError> {
    prop_assert!(s.accepted_normal.is_finite());
    prop_assert!((s.accepted_normal.length() - 1.0).abs() < 1e-4);
    prop_assert!(s.tilt.is_finite());
    prop_assert!((s.tilt.dot(s.tilt) - 1.0).abs() < 1e-4);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn never_nan_on_wild_input(
        p in wild_params(),
        steps in prop::collection::vec(
            (wild_quat(), prop::option::of(wild_vec3()), wild_f32()),
            1..40,
        ),
    ) {
        let mut s = SlopeState::new();
        for (body, normal, dt) in steps {
            let before = s.accepted_normal;
            let ev = slope::step(&mut s, &p, body, normal, dt);
            state_ok(&s)?;
            prop_assert!(!(ev.accepted && ev.rejected));
            if ev.accepted {
                prop_assert!(p.is_walkable(s.accepted_normal));
            } else {
                prop_assert_eq!(s.accepted_normal, before);
            }
        }
    }

    #[test]
    fn tilt_speed_is_bounded_by_animation_angle(
        normals in prop::collection::vec(
            (-0.7f32..0.7, -0.7f32..0.7).prop_map(|(x, z)| Vec3::new(x, 1.0, z)),
            1..30,
        ),
        yaw in -3.2f32..3.2,
        dt in 0.001f32..0.05,
    ) {
        let p = SlopeParams { slope_limit_deg: 60.0, ..SlopeParams::seed() };
        let body = Quat::from_yaw(yaw);
        let mut s = SlopeState::new();
        for n in normals {
            let before = s.tilt;
            slope::step(&mut s, &p, body, Some(n), dt);
            let moved = before.angle_between(s.tilt);
            prop_assert!(moved <= (270.0f32 * dt).to_radians() + 2e-3, "moved {moved}");
        }
    }

    #[test]
    fn settled_tilt_maps_up_to_the_normal(
        x in -0.9f32..0.9,
        z in -0.9f32..0.9,
        yaw in -3.2f32..3.2,
    ) {
        let p = SlopeParams {
            slope_limit_deg: 90.0,
            animation_angle_deg: f32::INFINITY,
            ..SlopeParams::seed()
        };
        let n = Vec3::new(x, 1.0, z).normalize_or_zero();
        let body = Quat::from_yaw(yaw);
        let mut s = SlopeState::new();
        let ev = slope::step(&mut s, &p, body, Some(n), 0.016);
        prop_assert!(ev.accepted && ev.settled);
        let up = s.world_tilt(body).rotate(Vec3::UP);
        prop_assert!((up - n).length() < 1e-4);
    }
}
