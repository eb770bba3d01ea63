//! Property tests: no NaN/inf ever reaches follower or party state, whatever the inputs and params;
//! capacities hold.

use hopkit::follower::{
    self, party, FollowerBody, FollowerParams, FollowerState, Party, PartyParams,
};
use hopkit::ground::{FlatGround, GroundHit, GroundProbe, NoGround, PlaneGround};
use hopkit::math::{Vec2, Vec3};
use proptest::prelude::*;

/// Any f32 including NaN, ±inf, huge and subnormal values, plus ordinary ones.
fn wild_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => -50.0f32..50.0,
        1 => proptest::num::f32::ANY,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(0.0f32),
        1 => prop_oneof![Just(1e30f32), Just(-1e30f32), Just(f32::MAX), Just(f32::MIN_POSITIVE)],
    ]
}

fn wild_vec3() -> impl Strategy<Value = Vec3> {
    (wild_f32(), wild_f32(), wild_f32()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn finite_vec3() -> impl Strategy<Value = Vec3> {
    (-1e7f32..1e7, -1e4f32..1e4, -1e7f32..1e7).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// A leader walking around: small finite moves with occasional jumps.
fn walk() -> impl Strategy<Value = Vec<(Vec3, f32)>> {
    prop::collection::vec(
        (
            (-3.0f32..3.0, -0.5f32..0.5, -3.0f32..3.0).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
            0.001f32..0.1,
        ),
        1..200,
    )
}

fn wild_params() -> impl Strategy<Value = FollowerParams> {
    (
        prop::collection::vec(wild_f32(), 26),
        prop::collection::vec(any::<u32>(), 4),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(f, u, integrate, exact)| {
            let mut p = FollowerParams::seed();
            let fields: [&mut f32; 26] = [
                &mut p.record_distance,
                &mut p.shortcut_distance,
                &mut p.stop_distance,
                &mut p.reach_distance,
                &mut p.move_speed,
                &mut p.fast_factor,
                &mut p.normal_factor,
                &mut p.slow_factor,
                &mut p.max_factor,
                &mut p.stop_factor_cap,
                &mut p.factor_ease_per_tick,
                &mut p.stop_decay_per_tick,
                &mut p.direction_lerp_per_tick,
                &mut p.reference_hz,
                &mut p.turn_speed_deg,
                &mut p.idle_factor,
                &mut p.neck_limit_deg,
                &mut p.neck_rate,
                &mut p.fall_speed,
                &mut p.fall_ground_gap,
                &mut p.fall_descend_speed,
                &mut p.gravity,
                &mut p.step_height,
                &mut p.snap_distance,
                &mut p.teleport_distance,
                &mut p.regroup_distance,
            ];
            for (dst, v) in fields.into_iter().zip(f) {
                *dst = v;
            }
            p.shortcut_keep = u[0] % 40;
            p.stop_crumbs = u[1] % 40;
            p.fast_crumbs = u[2];
            p.slow_crumbs = u[3] % 40;
            p.integrate = integrate;
            p.seed_exact = exact;
            p
        })
}

/// A ground that answers garbage: NaN heights, infinities, nothing.
struct Hostile;
impl GroundProbe for Hostile {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let h = match (p.x.to_bits() >> 3) % 4 {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => return None,
            _ => 0.0,
        };
        Some(GroundHit {
            height: h,
            normal: Vec3::new(f32::NAN, 1.0, 0.0),
        })
    }
}

fn body_ok(b: &FollowerBody, p: &FollowerParams) -> Result<(), TestCaseError> {
    prop_assert!(b.position.is_finite(), "position {:?}", b.position);
    prop_assert!(b.velocity.is_finite(), "velocity {:?}", b.velocity);
    prop_assert!(b.move_dir.is_finite() && b.move_dir.length() <= 1.0 + 1e-4);
    prop_assert!(b.speed_factor.is_finite() && b.speed_factor >= 0.0);
    let sp = p.sanitized();
    prop_assert!(b.speed_factor <= sp.max_factor.max(sp.stop_factor_cap) + 1e-4);
    prop_assert!(b.yaw.is_finite() && b.target_yaw.is_finite() && b.neck_yaw.is_finite());
    for c in [b.position.x, b.position.y, b.position.z] {
        prop_assert!(c.abs() <= follower::COORD_LIMIT);
    }
    Ok(())
}

fn follower_ok<const N: usize>(
    s: &FollowerState<N>,
    p: &FollowerParams,
) -> Result<(), TestCaseError> {
    body_ok(&s.body, p)?;
    prop_assert!(s.target.is_finite() && s.last_crumb.is_finite() && s.leader.is_finite());
    prop_assert!(s.trail.len() <= N);
    for c in s.trail.iter() {
        prop_assert!(c.is_finite());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn follower_never_goes_nan_on_wild_input(
        start in wild_vec3(),
        leader0 in wild_vec3(),
        yaw in wild_f32(),
        p in wild_params(),
        steps in prop::collection::vec((wild_vec3(), wild_f32()), 1..60),
    ) {
        let mut s: FollowerState = FollowerState::new(start, leader0, yaw);
        follower_ok(&s, &p)?;
        for (i, (l, dt)) in steps.into_iter().enumerate() {
            match i % 4 {
                0 => { follower::step(&mut s, &p, l, &FlatGround::new(0.0), dt); }
                1 => { follower::step(&mut s, &p, l, &NoGround, dt); }
                2 => { follower::step(&mut s, &p, l, &Hostile, dt); }
                _ => {
                    let ramp = PlaneGround::ramp(Vec3::ZERO, Vec2::new(1.0, 0.3), 0.4);
                    follower::step(&mut s, &p, l, &ramp, dt);
                }
            }
            follower_ok(&s, &p)?;
        }
    }

    #[test]
    fn follower_never_goes_nan_on_finite_walks(
        start in finite_vec3(),
        p in wild_params(),
        moves in walk(),
    ) {
        let mut s: FollowerState<8> = FollowerState::new(start, Vec3::ZERO, 0.0);
        let mut leader = Vec3::ZERO;
        for (d, dt) in moves {
            leader += d;
            follower::step(&mut s, &p, leader, &FlatGround::new(0.0), dt);
            follower_ok(&s, &p)?;
        }
    }

    #[test]
    fn host_corrupted_state_is_repaired(
        garbage in prop::collection::vec(wild_f32(), 12),
        l in finite_vec3(),
    ) {
        let p = FollowerParams::seed();
        let mut s: FollowerState = FollowerState::new(Vec3::ZERO, Vec3::ZERO, 0.0);
        s.body.position = Vec3::new(garbage[0], garbage[1], garbage[2]);
        s.body.velocity = Vec3::new(garbage[3], garbage[4], garbage[5]);
        s.body.move_dir = Vec2::new(garbage[6], garbage[7]);
        s.body.speed_factor = garbage[8];
        s.body.yaw = garbage[9];
        s.target = Vec3::new(garbage[10], 0.0, garbage[11]);
        s.leader = Vec3::new(garbage[11], garbage[10], garbage[9]);
        follower::step(&mut s, &p, l, &FlatGround::new(0.0), 0.02);
        follower_ok(&s, &p)?;
    }

    #[test]
    fn party_never_goes_nan_and_respects_capacity(
        p in wild_params(),
        spacing in wild_f32(),
        extra in prop::collection::vec(wild_f32(), 6),
        members in prop::collection::vec(wild_vec3(), 0..6),
        steps in prop::collection::vec((wild_vec3(), wild_f32()), 1..40),
    ) {
        let pp = PartyParams {
            body: p,
            spacing,
            crumb_spacing: extra[0],
            personal_space: extra[1],
            arrive_radius: extra[2],
            arrive_gain: extra[3],
            catch_up_lag: extra[4],
            warp_lag: extra[5],
        };
        let mut party: Party<4, 12> = Party::new(Vec3::ZERO);
        for (i, m) in members.iter().enumerate() {
            let r = party.add_member(*m, 0.0);
            prop_assert_eq!(r.is_ok(), i < 4);
        }
        prop_assert!(party.len() <= 4);
        for (i, (l, dt)) in steps.into_iter().enumerate() {
            if i % 2 == 0 {
                party::step(&mut party, &pp, l, &FlatGround::new(0.0), dt);
            } else {
                party::step(&mut party, &pp, l, &Hostile, dt);
            }
            prop_assert!(party.leader().is_finite());
            prop_assert!(party.trail().len() <= 12);
            for c in party.trail().iter() {
                prop_assert!(c.is_finite());
            }
            for m in party.members() {
                body_ok(m, &p)?;
            }
            for s in party.slots(&pp) {
                prop_assert!(s.is_finite());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `is_sane` is exactly "sanitized() changes nothing" (bitwise), for both param structs, and
    /// sanitized params are always sane.
    #[test]
    fn is_sane_matches_sanitized(p in wild_params(), extra in prop::collection::vec(wild_f32(), 7)) {
        let same = |a: &FollowerParams, b: &FollowerParams| format!("{a:?}") == format!("{b:?}");
        prop_assert_eq!(p.is_sane(), same(&p.sanitized(), &p));
        prop_assert!(p.sanitized().is_sane());
        let pp = PartyParams {
            body: p,
            spacing: extra[0],
            crumb_spacing: extra[1],
            personal_space: extra[2],
            arrive_radius: extra[3],
            arrive_gain: extra[4],
            catch_up_lag: extra[5],
            warp_lag: extra[6],
        };
        let s = pp.sanitized();
        prop_assert!(s.is_sane());
        prop_assert_eq!(pp.is_sane(), format!("{s:?}") == format!("{pp:?}"));
    }
}
