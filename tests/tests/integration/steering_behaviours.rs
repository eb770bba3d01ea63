//! Direction sanity and small scenarios for every steering behaviour, plus the fixed-capacity
//! waypoint buffer and neighbour list.

use hopkit::hash::StateHash;
use hopkit::math::Vec3;
use hopkit::steering::{
    align, alignment, avoid_obstacles, cohesion, contain, evade, face, flee, follow_path,
    gather_neighbours, integrate, predict_position, priority, pursue, seek, separation, wander,
    Aabb, Agent, AvoidParams, ContainParams, FlockParams, Neighbour, Neighbours, Obstacle, Path,
    PathError, PathFollowState, PathParams, Steering, SteeringParams, WanderParams, WanderState,
};

const DT: f32 = 1.0 / 60.0;

fn unit(v: Vec3) -> Vec3 {
    v.normalize_or_zero()
}

#[test]
fn seek_accelerates_towards_the_target_and_gets_there() {
    let p = SteeringParams::default();
    let target = Vec3::new(5.0, 0.0, 3.0);
    let a = Agent::new(Vec3::ZERO);
    let s = seek(&a, target, &p, DT);
    assert!((s.linear.length() - p.max_accel).abs() < 1e-4);
    assert!(unit(s.linear).dot(unit(target)) > 0.9999);

    // Moving away at full speed: seek still pulls back towards the target.
    let mut a = Agent {
        velocity: Vec3::new(-4.0, 0.0, 0.0),
        ..Agent::new(Vec3::ZERO)
    };
    assert!(seek(&a, target, &p, DT).linear.dot(target) > 0.0);
    let mut closest = f32::MAX;
    for _ in 0..300 {
        let s = seek(&a, target, &p, DT);
        integrate(&mut a, &p, s, DT);
        closest = closest.min(a.position.distance(target));
    }
    assert!(closest < 0.1, "closest {closest}");
}

#[test]
fn flee_accelerates_away_and_handles_coincidence() {
    let p = SteeringParams::default();
    let threat = Vec3::new(1.0, 0.0, -1.0);
    let mut a = Agent::new(Vec3::new(2.0, 0.0, -1.5));
    let s = flee(&a, threat, &p, DT);
    assert!(unit(s.linear).dot(unit(a.position - threat)) > 0.9999);
    let mut last = a.position.distance(threat);
    for _ in 0..120 {
        let s = flee(&a, threat, &p, DT);
        integrate(&mut a, &p, s, DT);
        let d = a.position.distance(threat);
        assert!(d > last);
        last = d;
    }
    // On top of the threat at rest: no direction → zero. Moving: keep running that way.
    let still = Agent::new(threat);
    assert_eq!(flee(&still, threat, &p, DT), Steering::ZERO);
    let moving = Agent {
        velocity: Vec3::new(0.0, 0.0, 1.0),
        ..still
    };
    assert!(flee(&moving, threat, &p, DT).linear.z > 0.0);
}

#[test]
fn pursue_leads_a_moving_target_and_catches_it_sooner_than_seek() {
    let p = SteeringParams {
        max_speed: 5.0,
        ..SteeringParams::default()
    };
    let target0 = Vec3::new(10.0, 0.0, 0.0);
    let target_v = Vec3::new(0.0, 0.0, -3.0);
    let a = Agent::new(Vec3::ZERO);
    let chase = pursue(&a, target0, target_v, 2.0, &p, DT);
    let plain = seek(&a, target0, &p, DT);
    // Leads: aims towards where the target is going (−Z).
    assert!(chase.linear.z < -1.0 && plain.linear.z.abs() < 1e-6);

    let catch_time = |use_pursue: bool| -> Option<usize> {
        let mut a = Agent::new(Vec3::ZERO);
        let mut t = target0;
        for tick in 0..1200 {
            let s = if use_pursue {
                pursue(&a, t, target_v, 2.0, &p, DT)
            } else {
                seek(&a, t, &p, DT)
            };
            integrate(&mut a, &p, s, DT);
            t += target_v * DT;
            if a.position.distance(t) < 0.25 {
                return Some(tick);
            }
        }
        None
    };
    let tp = catch_time(true).expect("pursuer catches");
    let ts = catch_time(false).expect("seeker catches");
    assert!(tp < ts, "pursue {tp} ticks, seek {ts} ticks");
}

#[test]
fn prediction_time_is_capped() {
    let pos = Vec3::ZERO;
    let target = Vec3::new(1000.0, 0.0, 0.0);
    let vel = Vec3::new(0.0, 0.0, 1.0);
    // distance/speed = 250 s, capped at 1.5 s.
    let pred = predict_position(pos, target, vel, 4.0, 1.5);
    assert_eq!(pred, Vec3::new(1000.0, 0.0, 1.5));
    // Close: distance/speed = 0.5 s < cap.
    let pred = predict_position(pos, Vec3::new(2.0, 0.0, 0.0), vel, 4.0, 1.5);
    assert_eq!(pred, Vec3::new(2.0, 0.0, 0.5));
    // Zero max speed: the cap. NaN cap: no lead.
    assert_eq!(predict_position(pos, target, vel, 0.0, 2.0).z, 2.0);
    assert_eq!(predict_position(pos, target, vel, 4.0, f32::NAN), target);
}

#[test]
fn evade_flees_the_predicted_position() {
    let p = SteeringParams::default();
    let a = Agent::new(Vec3::ZERO);
    // Threat passing on the left, heading +X towards the agent's future.
    let threat = Vec3::new(-4.0, 0.0, -1.0);
    let threat_v = Vec3::new(6.0, 0.0, 0.0);
    let s = evade(&a, threat, threat_v, 1.0, &p, DT);
    let predicted = predict_position(a.position, threat, threat_v, p.max_speed, 1.0);
    assert!(unit(s.linear).dot(unit(a.position - predicted)) > 0.9999);
    // The predicted threat is ahead in +X, so evade goes −X less and +Z more than flee does.
    let f = flee(&a, threat, &p, DT);
    assert!(s.linear.z > f.linear.z);
    // No prediction → identical to flee.
    assert_eq!(evade(&a, threat, threat_v, 0.0, &p, DT), f);
}

#[test]
fn wander_is_bounded_deterministic_and_actually_wanders() {
    let p = SteeringParams::default();
    let wp = WanderParams::default();
    let run = |seed: u64| -> (u64, f32, f32, Agent) {
        let mut a = Agent::new(Vec3::ZERO);
        let mut w = WanderState::new(seed);
        let mut h = hopkit::hash::StateHasher::new();
        let (mut min_z, mut max_z) = (f32::MAX, f32::MIN);
        for _ in 0..3000 {
            let s = wander(&a, &mut w, &p, &wp, DT);
            assert!(s.linear.length() <= p.max_accel * (1.0 + 1e-6));
            assert!(s.linear.y == 0.0 && s.is_finite());
            assert!(w.angle > -core::f32::consts::PI && w.angle <= core::f32::consts::PI);
            integrate(&mut a, &p, s, DT);
            a.hash_state(&mut h);
            w.hash_state(&mut h);
            let dir = a.velocity.normalize_or_zero();
            min_z = min_z.min(dir.z);
            max_z = max_z.max(dir.z);
        }
        assert!(a.velocity.length() <= p.max_speed * (1.0 + 1e-6));
        (h.finish(), min_z, max_z, a)
    };
    let (h1, min_z, max_z, _) = run(42);
    let (h2, ..) = run(42);
    let (h3, ..) = run(43);
    assert_eq!(h1, h2, "same seed must replay bit-identically");
    assert_ne!(h1, h3, "a different seed wanders differently");
    // Over 50 s it heads both ways along Z at some point (not a straight line).
    assert!(
        min_z < -0.5 && max_z > 0.5,
        "z heading range {min_z}..{max_z}"
    );
}

#[test]
fn wander_inside_containment_stays_in_the_box() {
    let p = SteeringParams::default();
    let bounds = Aabb::new(Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 1.0, 10.0));
    let cp = ContainParams::default();
    let mut a = Agent::new(Vec3::ZERO);
    let mut w = WanderState::new(7);
    for _ in 0..6000 {
        let s = priority(
            &[
                contain(&a, &bounds, &p, &cp),
                wander(&a, &mut w, &p, &WanderParams::default(), DT),
            ],
            1e-3,
        );
        integrate(&mut a, &p, s, DT);
        assert!(
            a.position.x.abs() <= 10.0 && a.position.z.abs() <= 10.0,
            "{:?}",
            a.position
        );
    }
}

#[test]
fn align_and_face_turn_at_the_limited_rate_and_land_exactly() {
    let p = SteeringParams {
        max_turn_rate: 2.0,
        ..SteeringParams::default()
    };
    let mut a = Agent::new(Vec3::ZERO);
    // Face +X (yaw −π/2), 90° to the right: 0.785 s at 2 rad/s.
    let target = Vec3::new(5.0, 0.0, 0.0);
    let mut ticks = 0;
    loop {
        let before = a.yaw;
        let s = face(&a, target, &p, DT);
        assert!(s.angular.abs() <= p.max_turn_rate);
        integrate(&mut a, &p, s, DT);
        assert!(a.yaw <= before, "turns right only");
        ticks += 1;
        if s.angular == 0.0 || ticks > 200 {
            break;
        }
    }
    assert!((a.yaw + core::f32::consts::FRAC_PI_2).abs() < 1e-6);
    assert!((ticks as f32 * DT - core::f32::consts::FRAC_PI_4).abs() < 3.0 * DT);
    // Exactly 180° away: turns left (documented), and never flips back and forth.
    let mut b = Agent::new(Vec3::ZERO);
    let mut prev = align(&b, core::f32::consts::PI, &p, DT).angular;
    assert!(prev > 0.0);
    for _ in 0..200 {
        let s = align(&b, core::f32::consts::PI, &p, DT);
        assert!(s.angular >= 0.0 && s.angular <= prev + 1e-6);
        prev = s.angular;
        integrate(&mut b, &p, s, DT);
    }
    assert!((b.yaw.abs() - core::f32::consts::PI).abs() < 1e-5);
    // Target on top of the agent: nothing to face.
    assert_eq!(face(&a, a.position, &p, DT), Steering::ZERO);
}

fn nb(position: Vec3, velocity: Vec3, id: u32) -> Neighbour {
    Neighbour {
        position,
        velocity,
        id,
    }
}

#[test]
fn separation_pushes_apart_even_when_stacked() {
    let p = SteeringParams::default();
    let fp = FlockParams::default();
    let a = Agent::new(Vec3::ZERO);
    let others = [nb(Vec3::new(0.5, 0.0, 0.0), Vec3::ZERO, 1)];
    let s = separation(&a, 0, &others, &fp, &p);
    assert!(s.linear.x < 0.0 && s.linear.z == 0.0);
    // Outside the radius: nothing. Own id: skipped.
    assert_eq!(
        separation(
            &a,
            0,
            &[nb(Vec3::new(2.0, 0.0, 0.0), Vec3::ZERO, 1)],
            &fp,
            &p
        ),
        Steering::ZERO
    );
    assert_eq!(separation(&a, 1, &others, &fp, &p), Steering::ZERO);

    // Two agents at the identical position: opposite, non-zero pushes.
    let s0 = separation(&a, 3, &[nb(Vec3::ZERO, Vec3::ZERO, 9)], &fp, &p);
    let s1 = separation(&a, 9, &[nb(Vec3::ZERO, Vec3::ZERO, 3)], &fp, &p);
    assert!(s0.linear.length() > 1.0);
    assert_eq!(s0.linear, -s1.linear);

    // Five agents stacked on one point fan out.
    let mut agents = [Agent::new(Vec3::new(1.0, 0.0, 1.0)); 5];
    for _ in 0..240 {
        let snapshot: Vec<Neighbour> = agents
            .iter()
            .enumerate()
            .map(|(i, a)| Neighbour::of(a, i as u32))
            .collect();
        for (i, a) in agents.iter_mut().enumerate() {
            let s = separation(a, i as u32, &snapshot, &fp, &p);
            let brake = hopkit::steering::steer_to_velocity(a, Vec3::ZERO, &p, DT);
            let s = hopkit::steering::truncated_budget(&[s, brake], p.max_accel);
            integrate(a, &p, s, DT);
        }
    }
    for i in 0..5 {
        for j in i + 1..5 {
            let d = agents[i].position.distance(agents[j].position);
            assert!(d > 0.3, "agents {i} and {j} only {d} apart");
        }
    }
}

#[test]
fn cohesion_and_alignment_pull_towards_the_group() {
    let p = SteeringParams::default();
    let fp = FlockParams::default();
    let a = Agent::new(Vec3::ZERO);
    let group = [
        nb(Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 0.0, -2.0), 1),
        nb(Vec3::new(2.0, 0.0, 2.0), Vec3::new(0.0, 0.0, -2.0), 2),
        nb(Vec3::new(20.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0), 3), // out of range
    ];
    let c = cohesion(&a, 0, &group, &fp, &p);
    assert!(unit(c.linear).dot(unit(Vec3::new(2.0, 0.0, 1.0))) > 0.9999);
    assert!(c.linear.length() <= p.max_accel);
    let al = alignment(&a, 0, &group, &fp, &p, DT);
    assert!(unit(al.linear).dot(Vec3::new(0.0, 0.0, -1.0)) > 0.9999);
    // Alone: nothing.
    assert_eq!(cohesion(&a, 0, &[], &fp, &p), Steering::ZERO);
    assert_eq!(alignment(&a, 0, &group[2..], &fp, &p, DT), Steering::ZERO);
    // At the centre of a symmetric group: no pull.
    let ring = [nb(Vec3::X, Vec3::ZERO, 1), nb(-Vec3::X, Vec3::ZERO, 2)];
    assert_eq!(cohesion(&a, 0, &ring, &fp, &p).linear, Vec3::ZERO);
}

#[test]
fn containment_pulls_back_inside() {
    let p = SteeringParams::default();
    let cp = ContainParams::default();
    let bounds = Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 1.0, 5.0));
    // Inside and calm: nothing.
    assert_eq!(
        contain(&Agent::new(Vec3::ZERO), &bounds, &p, &cp),
        Steering::ZERO
    );
    // Heading for the +X wall: pushed −X.
    let a = Agent {
        velocity: Vec3::new(4.0, 0.0, 0.0),
        ..Agent::new(Vec3::new(3.5, 0.0, 0.0))
    };
    let s = contain(&a, &bounds, &p, &cp);
    assert!(s.linear.x < 0.0 && s.linear.z == 0.0);
    // Outside in a corner: pushed back diagonally, and returns.
    let mut out = Agent::new(Vec3::new(9.0, 0.0, -9.0));
    let s = contain(&out, &bounds, &p, &cp);
    assert!(s.linear.x < 0.0 && s.linear.z > 0.0);
    for _ in 0..600 {
        let s = contain(&out, &bounds, &p, &cp);
        let brake = hopkit::steering::steer_to_velocity(&out, Vec3::ZERO, &p, DT);
        integrate(&mut out, &p, priority(&[s, brake], 1e-3), DT);
    }
    assert!(bounds.contains(out.position), "{:?}", out.position);
    // Seeking a point outside: containment (first priority) keeps it in.
    let mut a = Agent::new(Vec3::ZERO);
    for _ in 0..600 {
        let s = priority(
            &[
                contain(&a, &bounds, &p, &cp),
                seek(&a, Vec3::new(50.0, 0.0, 20.0), &p, DT),
            ],
            1e-3,
        );
        integrate(&mut a, &p, s, DT);
        assert!(
            a.position.x <= 5.0 && a.position.z <= 5.0,
            "{:?}",
            a.position
        );
    }
    // Unbounded (infinite) and NaN axes never push.
    let open = Aabb::new(
        Vec3::new(f32::NEG_INFINITY, f32::NAN, -1.0),
        Vec3::new(f32::INFINITY, 0.0, 1.0),
    );
    assert_eq!(
        contain(&Agent::new(Vec3::new(1e6, 1e6, 0.0)), &open, &p, &cp),
        Steering::ZERO
    );
}

#[test]
fn obstacle_avoidance_misses_a_circle_in_the_path() {
    let p = SteeringParams::default();
    let ap = AvoidParams::default();
    for (label, centre) in [
        ("dead centre", Vec3::new(0.0, 0.0, -10.0)),
        ("offset", Vec3::new(0.4, 0.0, -10.0)),
    ] {
        let obstacles = [Obstacle {
            centre,
            radius: 2.0,
        }];
        let target = Vec3::new(0.0, 0.0, -20.0);
        let mut a = Agent::new(Vec3::ZERO);
        let mut clearance = f32::MAX;
        let mut reached = false;
        let mut avoided = false;
        for _ in 0..900 {
            let avoid = avoid_obstacles(&a, &obstacles, &p, &ap);
            avoided |= avoid != Steering::ZERO;
            let s = priority(&[avoid, seek(&a, target, &p, DT)], 1e-3);
            integrate(&mut a, &p, s, DT);
            clearance = clearance.min(a.position.distance(centre) - 2.0 - p.radius);
            if a.position.distance(target) < 0.5 {
                reached = true;
                break;
            }
        }
        assert!(avoided, "{label}: avoidance never triggered");
        assert!(
            clearance > 0.0,
            "{label}: body entered the obstacle (clearance {clearance})"
        );
        assert!(reached, "{label}: never reached the target");
    }
    // Dead-centre hit goes right (velocity × up): moving −Z, right is +X.
    let a = Agent {
        velocity: Vec3::new(0.0, 0.0, -4.0),
        ..Agent::new(Vec3::ZERO)
    };
    let s = avoid_obstacles(
        &a,
        &[Obstacle {
            centre: Vec3::new(0.0, 0.0, -3.0),
            radius: 1.0,
        }],
        &p,
        &ap,
    );
    assert!(s.linear.x > 0.0);
    // An obstacle behind or beside the path: ignored.
    let s = avoid_obstacles(
        &a,
        &[Obstacle {
            centre: Vec3::new(0.0, 0.0, 3.0),
            radius: 1.0,
        }],
        &p,
        &ap,
    );
    assert_eq!(s, Steering::ZERO);
    let s = avoid_obstacles(
        &a,
        &[Obstacle {
            centre: Vec3::new(5.0, 0.0, -3.0),
            radius: 1.0,
        }],
        &p,
        &ap,
    );
    assert_eq!(s, Steering::ZERO);
    // Already overlapping at the very centre, at rest: pushed out deterministically (+X).
    let inside = Agent::new(Vec3::new(0.0, 0.0, -3.0));
    let s = avoid_obstacles(
        &inside,
        &[Obstacle {
            centre: Vec3::new(0.0, 0.0, -3.0),
            radius: 1.0,
        }],
        &p,
        &ap,
    );
    assert!(s.linear.x > 0.0);
}

#[test]
fn path_following_reaches_waypoints_in_order() {
    let p = SteeringParams::default();
    let pp = PathParams::default();
    let corners = [
        Vec3::new(5.0, 0.0, 0.0),
        Vec3::new(5.0, 0.0, -5.0),
        Vec3::new(0.0, 0.0, -5.0),
        Vec3::new(0.0, 0.0, 0.0),
    ];
    let path: Path<8> = Path::from_points(&corners, false).unwrap();
    let mut a = Agent::new(Vec3::new(0.0, 0.0, 0.5));
    let mut st = PathFollowState::default();
    let mut visited = Vec::new();
    for _ in 0..1800 {
        let s = follow_path(&a, &path, &mut st, &p, &pp, DT);
        integrate(&mut a, &p, s, DT);
        for (i, c) in corners.iter().enumerate() {
            if a.position.distance(*c) <= pp.waypoint_radius && visited.last() != Some(&i) {
                visited.push(i);
            }
        }
        if st.finished && a.velocity == Vec3::ZERO {
            break;
        }
    }
    // (The start is within reach of corner 3, so it may appear first.)
    let order: Vec<usize> = visited.into_iter().skip_while(|&i| i == 3).collect();
    assert_eq!(order, vec![0, 1, 2, 3]);
    assert!(st.finished);
    assert_eq!(st.index, 3);
    assert!(a.position.distance(corners[3]) <= pp.arrival.tolerance + 1e-3);

    // Looping: keeps going and counts laps.
    let looped: Path<8> = Path::from_points(&corners, true).unwrap();
    let mut a = Agent::new(Vec3::ZERO);
    let mut st = PathFollowState::default();
    let mut indices = Vec::new();
    for _ in 0..3000 {
        let s = follow_path(&a, &looped, &mut st, &p, &pp, DT);
        integrate(&mut a, &p, s, DT);
        if indices.last() != Some(&st.index) {
            indices.push(st.index);
        }
    }
    assert!(st.laps >= 2, "laps {}", st.laps);
    for w in indices.windows(2) {
        assert_eq!(w[1], (w[0] + 1) % 4, "order {indices:?}");
    }
    assert!(!st.finished);

    // Empty path: finished, no steering.
    let empty: Path<8> = Path::new(false);
    let mut st = PathFollowState::default();
    assert_eq!(
        follow_path(&a, &empty, &mut st, &p, &pp, DT),
        Steering::ZERO
    );
    assert!(st.finished);
}

#[test]
fn waypoint_buffer_full_keeps_what_it_has() {
    let mut path: Path<4> = Path::new(false);
    assert_eq!(path.capacity(), 4);
    for i in 0..4 {
        path.push(Vec3::new(i as f32, 0.0, 0.0)).unwrap();
    }
    let before: Vec<Vec3> = path.points().to_vec();
    assert_eq!(path.push(Vec3::new(99.0, 0.0, 0.0)), Err(PathError::Full));
    assert_eq!(path.points(), &before[..]);
    assert_eq!(path.len(), 4);
    let mut p2: Path<4> = Path::new(false);
    assert_eq!(
        p2.push(Vec3::new(f32::NAN, 0.0, 0.0)),
        Err(PathError::NonFinite)
    );
    assert!(p2.is_empty());
    // from_points reports the error and keeps the prefix.
    let pts = [Vec3::ZERO; 6];
    let (kept, err) = Path::<4>::from_points(&pts, false).unwrap_err();
    assert_eq!((kept.len(), err), (4, PathError::Full));
}

#[test]
fn neighbour_list_full_keeps_the_nearest_and_reports_the_rest() {
    // 20 candidates at distances 0.5, 1.0, … 10.0 in shuffled order, plus self and one far away.
    let mut cands = Vec::new();
    for k in [
        7u32, 13, 2, 19, 5, 11, 0, 16, 9, 3, 18, 1, 12, 6, 15, 4, 10, 17, 8, 14,
    ] {
        let d = 0.5 * (k + 1) as f32;
        cands.push(nb(Vec3::new(d, 0.0, 0.0), Vec3::ZERO, 100 + k));
    }
    cands.push(nb(Vec3::ZERO, Vec3::ZERO, 1)); // self
    cands.push(nb(Vec3::new(50.0, 0.0, 0.0), Vec3::ZERO, 999)); // out of range
    cands.push(nb(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ZERO, 998)); // invalid
    let mut out: Neighbours<8> = Neighbours::new();
    let left_out = gather_neighbours(Vec3::ZERO, 1, &cands, 20.0, &mut out);
    assert_eq!(out.len(), 8);
    assert_eq!(left_out, 12);
    let mut ids: Vec<u32> = out.iter().map(|n| n.id).collect();
    ids.sort();
    assert_eq!(ids, (100..108).collect::<Vec<u32>>(), "keeps the 8 nearest");
    // Enough room: everything in range, nothing left out.
    let mut big: Neighbours<32> = Neighbours::new();
    assert_eq!(gather_neighbours(Vec3::ZERO, 1, &cands, 20.0, &mut big), 0);
    assert_eq!(big.len(), 20);
    // A full heapless list refuses a push and keeps its contents.
    let before = out.clone();
    assert!(out.push(nb(Vec3::ZERO, Vec3::ZERO, 5)).is_err());
    assert_eq!(out, before);
    // The flocking functions take the list as a slice.
    let s = separation(
        &Agent::new(Vec3::ZERO),
        1,
        &out,
        &FlockParams::default(),
        &SteeringParams::default(),
    );
    assert!(s.linear.x < 0.0);
}
