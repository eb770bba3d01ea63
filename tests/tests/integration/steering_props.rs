//! Property tests: no behaviour or combiner produces NaN/inf or exceeds its limits for arbitrary
//! finite inputs (overlapping positions, zero vectors, zero speed, extreme magnitudes), and
//! NaN/inf inputs give the documented results.

use hopkit::math::Vec3;
use hopkit::steering::*;
use proptest::prelude::*;

fn any_finite() -> impl Strategy<Value = f32> {
    use proptest::num::f32 as f;
    prop_oneof![
        6 => -1.0e3f32..1.0e3,
        2 => f::POSITIVE | f::NEGATIVE | f::NORMAL | f::SUBNORMAL | f::ZERO,
        1 => Just(0.0f32),
        1 => prop::sample::select(vec![f32::MAX, -f32::MAX, f32::MIN_POSITIVE, 1.0e-40, 1.0e20, -1.0e20]),
    ]
}

fn vec3() -> impl Strategy<Value = Vec3> {
    prop_oneof![
        4 => (any_finite(), any_finite(), any_finite()).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
        1 => Just(Vec3::ZERO),
        1 => (any_finite(), any_finite()).prop_map(|(x, z)| Vec3::new(x, 0.0, z)),
    ]
}

fn agent() -> impl Strategy<Value = Agent> {
    (vec3(), vec3(), any_finite()).prop_map(|(position, velocity, yaw)| Agent {
        position,
        velocity,
        yaw,
    })
}

fn params() -> impl Strategy<Value = SteeringParams> {
    prop_oneof![
        3 => (0.0f32..20.0, 0.0f32..50.0, 0.0f32..20.0, 0.0f32..2.0).prop_map(|(s, a, t, r)| SteeringParams {
            max_speed: s,
            max_accel: a,
            max_turn_rate: t,
            radius: r,
        }),
        1 => (any_finite(), any_finite(), any_finite(), any_finite()).prop_map(|(s, a, t, r)| SteeringParams {
            max_speed: s,
            max_accel: a,
            max_turn_rate: t,
            radius: r,
        }),
    ]
}

fn dt() -> impl Strategy<Value = f32> {
    prop_oneof![3 => 0.0f32..0.3, 1 => any_finite()]
}

/// A target that is often exactly the agent's position (the classic NaN trigger).
fn target_for(agent: &Agent, t: Vec3, same: bool) -> Vec3 {
    if same {
        agent.position
    } else {
        t
    }
}

fn check(s: Steering, p: &SteeringParams, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(s.is_finite(), "{what}: non-finite {s:?}");
    let limit = p.accel_limit();
    let len = {
        let m = s.linear.x.abs().max(s.linear.y.abs()).max(s.linear.z.abs());
        if m == 0.0 {
            0.0
        } else {
            Vec3::new(s.linear.x / m, s.linear.y / m, s.linear.z / m).length() * m
        }
    };
    prop_assert!(
        len <= limit * (1.0 + 1e-5) + 1e-30,
        "{what}: |linear| {len} > max_accel {limit}"
    );
    Ok(())
}

fn neighbours(agent: &Agent, others: &[(Vec3, Vec3)]) -> Neighbours<12> {
    let mut list = Neighbours::new();
    // Always one neighbour stacked exactly on the agent.
    let _ = list.push(Neighbour {
        position: agent.position,
        velocity: agent.velocity,
        id: 7,
    });
    for (i, (p, v)) in others.iter().enumerate() {
        if list
            .push(Neighbour {
                position: *p,
                velocity: *v,
                id: 100 + i as u32,
            })
            .is_err()
        {
            break;
        }
    }
    list
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn targeted_behaviours_never_nan(
        a in agent(), t in vec3(), tv in vec3(), same in any::<bool>(),
        p in params(), dt in dt(), pred in any_finite(),
        brake in any_finite(), tol in any_finite(), creep in any_finite(),
    ) {
        let target = target_for(&a, t, same);
        let ap = ArrivalParams { brake_distance: brake, tolerance: tol, min_speed_fraction: creep, face_velocity: true };
        check(seek(&a, target, &p, dt), &p, "seek")?;
        check(flee(&a, target, &p, dt), &p, "flee")?;
        check(pursue(&a, target, tv, pred, &p, dt), &p, "pursue")?;
        check(evade(&a, target, tv, pred, &p, dt), &p, "evade")?;
        check(arrive(&a, target, &p, &ap, dt), &p, "arrive")?;
        check(steer_to_velocity(&a, tv, &p, dt), &p, "steer_to_velocity")?;
        for s in [align(&a, pred, &p, dt), face(&a, target, &p, dt), look_where_going(&a, &p, dt)] {
            check(s, &p, "orient")?;
            prop_assert!(s.angular.abs() <= p.turn_limit());
        }
        prop_assert!(predict_position(a.position, target, tv, p.max_speed, pred).is_finite());
        prop_assert!(stopping_speed(brake, p.max_accel, dt) >= 0.0);
    }

    #[test]
    fn group_and_world_behaviours_never_nan(
        a in agent(), others in prop::collection::vec((vec3(), vec3()), 0..10),
        p in params(), dt in dt(), sep in any_finite(), near in any_finite(),
        obs in prop::collection::vec((vec3(), any_finite()), 0..4),
        lo in vec3(), hi in vec3(), look in any_finite(), margin in any_finite(),
    ) {
        let list = neighbours(&a, &others);
        let fp = FlockParams { separation_radius: sep, neighbour_radius: near };
        check(separation(&a, 3, &list, &fp, &p), &p, "separation")?;
        check(cohesion(&a, 3, &list, &fp, &p), &p, "cohesion")?;
        check(alignment(&a, 3, &list, &fp, &p, dt), &p, "alignment")?;
        // The fused pass gives exactly the separate results.
        let fused = flock(&a, 3, &list, &fp, &p, dt);
        prop_assert_eq!(fused.separation, separation(&a, 3, &list, &fp, &p));
        prop_assert_eq!(fused.cohesion, cohesion(&a, 3, &list, &fp, &p));
        prop_assert_eq!(fused.alignment, alignment(&a, 3, &list, &fp, &p, dt));
        let mut gathered = Neighbours::<4>::new();
        let left = gather_neighbours(a.position, 3, &list, near, &mut gathered);
        prop_assert!(gathered.len() <= 4 && left <= list.len());

        let mut obstacles: Vec<Obstacle> = obs.iter().map(|&(centre, radius)| Obstacle { centre, radius }).collect();
        obstacles.push(Obstacle { centre: a.position, radius: 1.0 }); // overlapping, dead centre
        let av = AvoidParams { lookahead_time: look, min_lookahead: look, margin };
        check(avoid_obstacles(&a, &obstacles, &p, &av), &p, "avoid")?;
        let cp = ContainParams { lookahead_time: look, margin };
        check(contain(&a, &Aabb::new(lo, hi), &p, &cp), &p, "contain")?;
    }

    #[test]
    fn stateful_behaviours_and_integration_stay_finite(
        a in agent(), p in params(), dt in dt(), seed in any::<u64>(),
        offset in any_finite(), radius in any_finite(), jitter in any_finite(),
        pts in prop::collection::vec(vec3(), 0..6), looping in any::<bool>(),
        target in vec3(), angular in any_finite(), linear in vec3(),
    ) {
        let mut ws = WanderState::new(seed);
        let wp = WanderParams { offset, radius, jitter };
        let mut path: Path<4> = Path::new(looping);
        for q in &pts {
            let _ = path.push(*q);
        }
        prop_assert!(path.len() <= 4);
        let mut fs = PathFollowState::default();
        let pp = PathParams::default();
        let mut body = a;
        let mut critter = ArrivalState { agent: a, arrived: false };
        let mut seed_body = a;
        for _ in 0..5 {
            let w = wander(&body, &mut ws, &p, &wp, dt);
            check(w, &p, "wander")?;
            prop_assert!(ws.angle.is_finite());
            let f = follow_path(&body, &path, &mut fs, &p, &pp, dt);
            check(f, &p, "follow_path")?;
            integrate(&mut body, &p, Steering { linear: linear + w.linear, angular }, dt);
            prop_assert!(body.is_finite(), "integrate: {body:?}");
            arrival_step(&mut critter, &p, &ArrivalParams::default(), target, dt);
            prop_assert!(critter.agent.is_finite(), "arrival_step: {critter:?}");
            let sp = SeedArrivalParams { max_speed: p.max_speed, max_accel: p.max_accel, brake_distance: 2.0 };
            arrival_seed_frame(&mut seed_body, target, &sp);
            arrival_seed_dt(&mut seed_body, target, &sp, dt);
            prop_assert!(seed_body.is_finite(), "seed forms: {seed_body:?}");
        }
    }

    #[test]
    fn combiners_never_nan_and_respect_limits(
        items in prop::collection::vec((vec3(), any_finite(), any_finite()), 0..6),
        p in params(), eps in any_finite(), budget in any_finite(),
    ) {
        let steerings: Vec<Steering> = items.iter().map(|&(l, a, _)| Steering { linear: l, angular: a }).collect();
        let weighted: Vec<(Steering, f32)> = items.iter().map(|&(l, a, w)| (Steering { linear: l, angular: a }, w)).collect();
        let b = blend(&weighted, &p);
        check(b, &p, "blend")?;
        prop_assert!(b.angular.abs() <= p.turn_limit() * (1.0 + 1e-6));
        let pr = priority(&steerings, eps);
        prop_assert!(pr.is_finite());
        let t = truncated_budget(&steerings, budget);
        prop_assert!(t.is_finite());
        let limit = if budget.is_finite() && budget >= 0.0 { budget } else { 0.0 };
        check(t, &SteeringParams { max_accel: limit, ..p }, "truncated_budget")?;
    }

    #[test]
    fn truncated_budget_is_a_prefix_allocation(
        dirs in prop::collection::vec((-10.0f32..10.0, -10.0f32..10.0, -10.0f32..10.0), 1..6),
        budget in 0.0f32..30.0,
    ) {
        let items: Vec<Steering> = dirs.iter().map(|&(x, y, z)| Steering::linear(Vec3::new(x, y, z))).collect();
        let t = truncated_budget(&items, budget);
        prop_assert!(t.linear.length() <= budget * (1.0 + 1e-5) + 1e-6);
        // When everything fits, it is the plain sum.
        let total: f32 = items.iter().map(|s| s.linear.length()).sum();
        if total <= budget * 0.999 {
            let sum = items.iter().fold(Vec3::ZERO, |acc, s| acc + s.linear);
            prop_assert!((t.linear - sum).length() <= 1e-4 * (1.0 + sum.length()));
        }
    }

    #[test]
    fn arrival_from_rest_is_monotone_and_stops(
        tx in -30.0f32..30.0, tz in -30.0f32..30.0,
        speed in 0.5f32..10.0, accel in 0.5f32..40.0,
        brake in 0.0f32..5.0, tol in 0.0f32..0.2, hz in prop::sample::select(vec![30.0f32, 50.0, 60.0, 120.0, 144.0]),
        creep in prop_oneof![Just(0.0f32), 0.0f32..0.2],
    ) {
        let p = SteeringParams { max_speed: speed, max_accel: accel, ..SteeringParams::default() };
        let ap = ArrivalParams { brake_distance: brake, tolerance: tol, min_speed_fraction: creep, face_velocity: false };
        let target = Vec3::new(tx, 0.0, tz);
        let start = target - target; // origin
        let mut s = ArrivalState::new(start);
        let dt = 1.0 / hz;
        let mut prev = s.agent.position.distance(target);
        let dir = target.normalize_or_zero();
        let mut done = false;
        // The documented rounding floor of the tolerance.
        let floor = 1e-5 * (1.0 + tx.abs().max(tz.abs()));
        for _ in 0..(200.0 * hz) as usize {
            if arrival_step(&mut s, &p, &ap, target, dt).arrived {
                done = true;
                break;
            }
            let d = s.agent.position.distance(target);
            prop_assert!(d <= prev, "distance grew {prev} -> {d}");
            prop_assert!(s.agent.velocity.dot(dir) >= 0.0, "velocity flipped");
            prop_assert!((s.agent.position - target).dot(dir) <= floor, "overshoot");
            prev = d;
        }
        prop_assert!(done, "never arrived (d = {prev})");
        prop_assert_eq!(s.agent.velocity, Vec3::ZERO);
        prop_assert!(s.agent.position.distance(target) <= tol.max(floor));
    }
}

#[test]
fn nan_and_inf_inputs_give_the_documented_results() {
    let p = SteeringParams::default();
    let dt = 1.0 / 60.0;
    let good = Agent {
        velocity: Vec3::new(1.0, 0.0, 0.0),
        ..Agent::new(Vec3::new(1.0, 0.0, 2.0))
    };
    let nan = Vec3::new(f32::NAN, 0.0, 0.0);
    let inf = Vec3::new(0.0, f32::INFINITY, 0.0);
    let bad_agent = Agent {
        position: nan,
        ..good
    };
    let ap = ArrivalParams::default();
    for target in [nan, inf] {
        // Non-finite target: zero steering.
        assert_eq!(seek(&good, target, &p, dt), Steering::ZERO);
        assert_eq!(flee(&good, target, &p, dt), Steering::ZERO);
        assert_eq!(arrive(&good, target, &p, &ap, dt), Steering::ZERO);
        assert_eq!(face(&good, target, &p, dt), Steering::ZERO);
    }
    // Non-finite agent: zero steering.
    assert_eq!(seek(&bad_agent, Vec3::ZERO, &p, dt), Steering::ZERO);
    assert_eq!(arrive(&bad_agent, Vec3::ZERO, &p, &ap, dt), Steering::ZERO);
    assert_eq!(
        separation(
            &bad_agent,
            0,
            &[Neighbour::of(&good, 1)],
            &FlockParams::default(),
            &p
        ),
        Steering::ZERO
    );
    // Invalid dt: zero steering; integrate / arrival_step do nothing.
    for bad_dt in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.1] {
        assert_eq!(seek(&good, Vec3::ZERO, &p, bad_dt), Steering::ZERO);
        let mut a = good;
        integrate(&mut a, &p, Steering::linear(Vec3::X), bad_dt);
        assert_eq!(a, good);
        let mut st = ArrivalState {
            agent: good,
            arrived: false,
        };
        let ev = arrival_step(&mut st, &p, &ap, Vec3::ZERO, bad_dt);
        assert!(ev.rejected && !ev.arrived);
        assert_eq!(st.agent, good);
    }
    // Huge dt: clamped to MAX_DT.
    let mut a = Agent::new(Vec3::ZERO);
    integrate(
        &mut a,
        &p,
        Steering::linear(Vec3::new(8.0, 0.0, 0.0)),
        1000.0,
    );
    assert_eq!(a.velocity.x, 8.0 * MAX_DT);
    // Non-finite steering: the agent coasts.
    let mut a = good;
    integrate(
        &mut a,
        &p,
        Steering {
            linear: nan,
            angular: f32::NAN,
        },
        dt,
    );
    assert_eq!(a.velocity, good.velocity);
    assert_eq!(a.position, good.position + good.velocity * dt);
    assert_eq!(a.yaw, good.yaw);
    // Non-finite stored state: replaced by zero before the step.
    let mut a = Agent {
        position: nan,
        velocity: inf,
        yaw: f32::NAN,
    };
    integrate(&mut a, &p, Steering::ZERO, dt);
    assert_eq!(a, Agent::new(Vec3::ZERO));
    // Position overflow: stays, stops.
    let mut a = Agent {
        position: Vec3::new(f32::MAX, 0.0, 0.0),
        velocity: Vec3::new(4.0, 0.0, 0.0),
        yaw: 0.0,
    };
    let p_fast = SteeringParams {
        max_speed: f32::MAX,
        ..p
    };
    a.velocity = Vec3::new(f32::MAX, 0.0, 0.0);
    integrate(&mut a, &p_fast, Steering::ZERO, MAX_DT);
    assert!(a.is_finite());
    // NaN parameters: read as 0 → no acceleration, no speed.
    let p_nan = SteeringParams {
        max_speed: f32::NAN,
        max_accel: f32::NAN,
        max_turn_rate: f32::NAN,
        radius: f32::NAN,
    };
    assert_eq!(seek(&good, Vec3::ZERO, &p_nan, dt), Steering::ZERO);
    let mut a = good;
    integrate(&mut a, &p_nan, Steering::linear(Vec3::X), dt);
    assert_eq!(a.velocity, Vec3::ZERO);
    // Seed frame form: non-finite target → nothing happens.
    let mut a = good;
    arrival_seed_frame(&mut a, nan, &SeedArrivalParams::default());
    assert_eq!(a, good);
}
