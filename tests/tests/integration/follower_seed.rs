//! The single follower against the seed (004): warp, shortcut, stop, exact 50 Hz numbers, falling,
//! head, teleport regroup, crumb buffer capacity.

use hopkit::follower::{self, FollowerParams, FollowerState};
use hopkit::ground::{FlatGround, GroundHit, GroundProbe};
use hopkit::math::{Vec2, Vec3};

const DT50: f32 = 0.02;

fn flat() -> FlatGround {
    FlatGround::new(0.0)
}

/// A follower at the origin with `k` crumbs along −Z at z = −30, −32, …, and the leader far away.
fn far_chase_state(k: usize) -> FollowerState {
    let leader = Vec3::new(0.0, 0.0, -200.0);
    let mut s: FollowerState = FollowerState::new(Vec3::ZERO, leader, 0.0);
    s.trail.clear();
    for i in 0..k {
        s.trail
            .push_newest(Vec3::new(0.0, 0.0, -30.0 - 2.0 * i as f32))
            .unwrap();
    }
    s
}

#[test]
fn speed_factor_ramp_matches_seed_bit_for_bit_at_50hz() {
    let p = FollowerParams::seed();
    let mut s = far_chase_state(12);
    let leader = s.leader;
    // The seed's UpdateMoveSpeedFactor(1.6), in f32 as C# does it.
    let mut seed_f: f32 = 0.0;
    let mut compared = 0;
    for tick in 0..120 {
        let ev = follower::step(&mut s, &p, leader, &flat(), DT50);
        assert!(!ev.stopped && !ev.warped, "tick {tick}");
        let before = seed_f;
        if seed_f < 1.6 {
            seed_f += 0.02;
        } else if seed_f > 1.6 {
            seed_f -= 0.02;
        }
        seed_f = seed_f.clamp(0.0, 2.0);
        if 1.6 - before > 0.02 {
            // Strictly before the last step the arithmetic is the seed's, bit for bit.
            assert_eq!(
                s.body.speed_factor.to_bits(),
                seed_f.to_bits(),
                "tick {tick}: {} vs seed {}",
                s.body.speed_factor,
                seed_f
            );
            compared += 1;
        } else {
            // Then hopkit lands on the target and stays; the seed dithers ±0.02 around it.
            assert_eq!(s.body.speed_factor, 1.6, "tick {tick}");
            assert!((seed_f - 1.6).abs() <= 0.0201);
        }
    }
    assert!(compared >= 79, "compared {compared} ticks");
}

#[test]
fn stopping_matches_seed_bit_for_bit_at_50hz() {
    let p = FollowerParams::seed();
    let mut s = far_chase_state(12);
    let far = s.leader;
    for _ in 0..100 {
        follower::step(&mut s, &p, far, &flat(), DT50);
    }
    assert_eq!(s.body.speed_factor, 1.6);
    // The leader is now right next to the follower (written into the state, so this is neither a
    // teleport nor a long walk): ReduceSpeed every tick.
    let near = s.body.position + Vec3::new(2.0, 0.0, 0.0);
    s.leader = near;
    s.last_crumb = near;
    let mut seed_f = s.body.speed_factor;
    let mut seed_vx = s.body.velocity.x;
    let mut seed_vz = s.body.velocity.z;
    for tick in 0..40 {
        let ev = follower::step(&mut s, &p, near, &flat(), DT50);
        assert!(ev.stopped, "tick {tick}");
        // Seed ReduceSpeed.
        seed_vx *= 0.9;
        seed_vz *= 0.9;
        if seed_f > 0.3 {
            seed_f = 0.3;
        }
        if seed_f < 0.0 {
            seed_f += 0.02;
        } else if seed_f > 0.0 {
            seed_f -= 0.02;
        }
        seed_f = seed_f.clamp(0.0, 2.0);
        assert_eq!(
            s.body.speed_factor.to_bits(),
            seed_f.to_bits(),
            "tick {tick}"
        );
        assert_eq!(
            s.body.velocity.x.to_bits(),
            seed_vx.to_bits(),
            "tick {tick}"
        );
        assert_eq!(
            s.body.velocity.z.to_bits(),
            seed_vz.to_bits(),
            "tick {tick}"
        );
    }
    assert_eq!(s.body.speed_factor, 0.0);
}

#[test]
fn direction_lerp_is_the_seeds_015_per_tick_at_50hz() {
    let p = FollowerParams::seed();
    let mut s: FollowerState = FollowerState::new(Vec3::ZERO, Vec3::new(200.0, 0.0, 50.0), 0.0);
    s.trail.clear();
    for i in 0..10 {
        s.trail
            .push_newest(Vec3::new(30.0 + i as f32, 0.0, 17.0))
            .unwrap();
    }
    s.target = s.trail.pop_oldest().unwrap();
    let leader = s.leader;
    for tick in 0..30 {
        // Vector3.Lerp(_moveForward, (target − pos).normalized, 0.15), computed before the step.
        let dir = (s.target.planar() - s.body.position.planar()).normalize_or_zero();
        let prev = s.body.move_dir;
        let want_x = prev.x + (dir.x - prev.x) * 0.15;
        let want_z = prev.y + (dir.y - prev.y) * 0.15;
        follower::step(&mut s, &p, leader, &flat(), DT50);
        assert_eq!(s.body.move_dir.x.to_bits(), want_x.to_bits(), "tick {tick}");
        assert_eq!(s.body.move_dir.y.to_bits(), want_z.to_bits(), "tick {tick}");
        // Velocity = moveSpeed·factor·fixedDt along move_dir = 8·factor units/s.
        let want = want_x * 8.0 * s.body.speed_factor;
        assert!((s.body.velocity.x - want).abs() <= 1e-5 * want.abs().max(1.0));
    }
}

#[test]
fn seed_move_speed_is_8_units_per_second_at_factor_1() {
    // moveSpeed 400 × Unity fixedDeltaTime 0.02 written into Rigidbody.velocity (units/s).
    assert_eq!(400.0f32 * 0.02, 8.0);
    assert_eq!(FollowerParams::seed().move_speed, 8.0);
    assert_eq!(follower::SEED_TICK_HZ, 50.0);
}

#[test]
fn full_history_warps_to_the_oldest_crumb() {
    // The host never moves the follower (stuck behind a wall): integrate = false.
    let p = FollowerParams {
        integrate: false,
        ..FollowerParams::seed()
    };
    let start = Vec3::new(0.0, 0.0, 3.0);
    let mut s: FollowerState = FollowerState::new(start, Vec3::ZERO, 0.0);
    let mut warped_at = None;
    for i in 1..40 {
        let leader = Vec3::new(0.0, 0.0, -1.6 * i as f32);
        let len_before = s.trail.len();
        let oldest_before = s.trail.oldest();
        let ev = follower::step(&mut s, &p, leader, &flat(), DT50);
        assert!(ev.crumb_recorded, "step {i}");
        assert!(s.trail.len() <= 16);
        if ev.warped {
            assert!(len_before >= 15, "warp only when the history fills up");
            // Full (16) after the push; standing on its target, the follower then took the next
            // crumb in the same step.
            assert_eq!(s.trail.len(), 15);
            assert!(ev.advanced);
            let crumb = oldest_before.unwrap();
            assert_eq!(s.body.position, crumb, "warped onto the oldest crumb");
            assert_eq!(
                s.trail.newest(),
                Some(leader),
                "the new crumb is still kept"
            );
            warped_at = Some(i);
            break;
        }
        assert_eq!(s.body.position, start, "stuck until the warp");
    }
    assert!(warped_at.is_some(), "the follower never warped");
}

#[test]
fn slow_follower_keeps_warping_but_never_loses_the_newest_crumbs() {
    // A leader running at 20 units/s outruns the follower (max 12.8): history fills, warps happen,
    // and the trail always holds the leader's latest positions.
    let p = FollowerParams::seed();
    let mut s: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, 0.0);
    let mut warps = 0;
    for i in 1..=500 {
        let leader = Vec3::new(0.0, 0.0, -20.0 * DT50 * i as f32);
        let ev = follower::step(&mut s, &p, leader, &flat(), DT50);
        if ev.warped {
            warps += 1;
        }
        if ev.crumb_recorded {
            // The newest crumb is never more than one crumb spacing behind the leader.
            let newest = s.trail.newest().unwrap();
            assert!(newest.distance(leader) <= 1.5 + 1e-4);
        }
        assert!(s.trail.len() <= 16);
    }
    assert!(warps > 0);
}

#[test]
fn shortcut_drops_all_but_the_newest_four() {
    let p = FollowerParams::seed();
    let mut s: FollowerState = FollowerState::new(Vec3::ZERO, Vec3::new(5.0, 0.0, 0.0), 0.0);
    s.trail.clear();
    // A long loop of crumbs that ends next to the follower.
    for i in 0..10 {
        let a = i as f32 * 0.6;
        s.trail
            .push_newest(Vec3::new(5.0 * a.cos(), 0.0, 5.0 * a.sin() - 8.0))
            .unwrap();
    }
    let expected: Vec<Vec3> = s.trail.iter().skip(6).collect();
    let leader = Vec3::new(5.0, 0.0, 0.0); // within 7 of the follower
    s.leader = leader;
    s.last_crumb = leader;
    let ev = follower::step(&mut s, &p, leader, &flat(), DT50);
    assert!(ev.shortcut);
    assert_eq!(s.trail.iter().collect::<Vec<_>>(), expected);
    assert_eq!(s.target, expected[0], "aims at the oldest of the four");
    // A second step with nothing new is not another shortcut.
    let ev = follower::step(&mut s, &p, leader, &flat(), DT50);
    assert!(!ev.shortcut);
}

#[test]
fn no_shortcut_when_the_leader_is_far_or_few_crumbs() {
    let p = FollowerParams::seed();
    let mut s = far_chase_state(10);
    let l = s.leader;
    let ev = follower::step(&mut s, &p, l, &flat(), DT50);
    assert!(!ev.shortcut);
    assert_eq!(s.trail.len(), 9, "only the normal advance took a crumb");
}

#[test]
fn stops_within_3_5_of_the_leader_and_comes_to_rest() {
    let p = FollowerParams::seed();
    let mut s = far_chase_state(12);
    for _ in 0..100 {
        let l = s.leader;
        follower::step(&mut s, &p, l, &flat(), DT50);
    }
    let leader = s.body.position + Vec3::new(0.0, 0.0, -3.0);
    s.leader = leader;
    s.last_crumb = leader;
    let mut stopped_pos = None;
    for i in 0..200 {
        let ev = follower::step(&mut s, &p, leader, &flat(), DT50);
        assert!(ev.stopped, "step {i}");
        let sp = s.body.velocity.planar().length();
        if sp < 1e-3 && stopped_pos.is_none() {
            stopped_pos = Some(s.body.position);
        }
    }
    let rest = stopped_pos.expect("came to rest");
    assert!((s.body.position - rest).length() < 0.01);
    assert_eq!(s.body.speed_factor, 0.0);
}

#[test]
fn stops_at_the_end_of_the_trail() {
    // The leader walks 18 units then waits; the follower catches up and stops at the end of the
    // trail with at most a few crumbs left, a few crumbs behind the leader.
    let p = FollowerParams::seed();
    let mut s: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, 0.0);
    let mut leader = Vec3::ZERO;
    for i in 0..400 {
        if i < 150 {
            leader = Vec3::new(0.0, 0.0, -6.0 * DT50 * i as f32);
        }
        follower::step(&mut s, &p, leader, &flat(), DT50);
    }
    assert!(s.trail.len() <= 4, "trail {}", s.trail.len());
    let d = s.body.position.distance(leader);
    assert!((2.5..8.0).contains(&d), "distance {d}");
    assert!(s.body.velocity.planar().length() < 0.05);
    assert!(!s.body.falling);
}

#[test]
fn follows_a_square_walk_without_warping_and_looks_at_the_leader_when_idle() {
    let p = FollowerParams::seed();
    let mut s: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, 0.0);
    let mut leader = Vec3::ZERO;
    let path = |t: f32| -> Vec3 {
        // 6 units/s around a 15×15 square, 10 s.
        let d = (t * 6.0).min(60.0);
        let (x, z) = match d {
            d if d < 15.0 => (0.0, -d),
            d if d < 30.0 => (d - 15.0, -15.0),
            d if d < 45.0 => (15.0, -15.0 + (d - 30.0)),
            d => (15.0 - (d - 45.0), 0.0),
        };
        Vec3::new(x, 0.0, z)
    };
    for i in 0..800 {
        leader = path(i as f32 * DT50);
        let ev = follower::step(&mut s, &p, leader, &flat(), DT50);
        assert!(!ev.warped, "step {i}");
        assert!(!ev.regrouped);
        // Never too close (the seed stops within 3.5; deceleration slides a little further).
        assert!(s.body.position.distance(leader) > 1.5, "step {i}");
    }
    // At rest, stopped a few crumbs behind the leader.
    assert_eq!(s.body.speed_factor, 0.0);
    let d = s.body.position.distance(leader);
    assert!((3.5..9.0).contains(&d), "{d}");
}

#[test]
fn idle_head_looks_at_the_leader_clamped_to_50_degrees() {
    let p = FollowerParams::seed();
    // Follower faces −Z; the leader stands 45° to its left, then straight to its left.
    let mut s: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, 0.0);
    let l = Vec3::new(-3.0, 0.0, 0.0);
    s.leader = l;
    s.last_crumb = l;
    for _ in 0..150 {
        let ev = follower::step(&mut s, &p, l, &flat(), DT50);
        assert!(ev.stopped);
    }
    assert_eq!(s.body.yaw, 0.0, "the body does not turn while stopped");
    let want = 45f32.to_radians() * (1.0 - (-3.0f32 * 3.0).exp());
    assert!(
        (s.body.neck_yaw - want).abs() < 1e-3,
        "{} vs {want}",
        s.body.neck_yaw
    );
    // Smoothing at any step: after 1/3 s (20 steps at 60 Hz) the head has covered 1 − e^−1 of
    // the way to its new (clamped, +50°) target.
    let l2 = Vec3::new(-3.0, 0.0, 3.0);
    let start = s.body.neck_yaw;
    for _ in 0..20 {
        follower::step(&mut s, &p, l2, &flat(), 1.0 / 60.0);
    }
    let target = 50f32.to_radians();
    let want = start + (target - start) * (1.0 - (-1.0f32).exp());
    assert!(
        (s.body.neck_yaw - want).abs() < 1e-4,
        "{} vs {want}",
        s.body.neck_yaw
    );
    for _ in 0..150 {
        follower::step(&mut s, &p, l2, &flat(), DT50);
    }
    assert!(
        (s.body.neck_yaw - 50f32.to_radians()).abs() < 1e-3,
        "clamped at +50°"
    );
    // Looking right is negative.
    let l3 = Vec3::new(3.0, 0.0, 3.0);
    for _ in 0..300 {
        follower::step(&mut s, &p, l3, &flat(), DT50);
    }
    assert!((s.body.neck_yaw + 50f32.to_radians()).abs() < 1e-3);
}

#[test]
fn head_returns_straight_while_moving() {
    let p = FollowerParams::seed();
    let mut s = far_chase_state(12);
    s.body.neck_yaw = 0.5;
    for _ in 0..200 {
        let l = s.leader;
        follower::step(&mut s, &p, l, &flat(), DT50);
    }
    assert!(s.body.speed_factor > 0.3);
    assert!(s.body.neck_yaw.abs() < 0.01, "{}", s.body.neck_yaw);
}

/// Flat at 0 for x < 10, a pit floor at −20 beyond.
struct Ledge;
impl GroundProbe for Ledge {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let height = if p.x < 10.0 { 0.0 } else { -20.0 };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
}

#[test]
fn walking_off_a_ledge_sets_falling_until_landing() {
    let p = FollowerParams::seed();
    let mut s: FollowerState = FollowerState::new(Vec3::ZERO, Vec3::new(60.0, 0.0, 0.0), 0.0);
    s.trail.clear();
    for i in 0..12 {
        s.trail
            .push_newest(Vec3::new(12.0 + 2.0 * i as f32, 0.0, 0.0))
            .unwrap();
    }
    let leader = s.leader;
    let mut fell = false;
    let mut landed = false;
    for _ in 0..400 {
        let ev = follower::step(&mut s, &p, leader, &Ledge, DT50);
        if ev.falling {
            fell = true;
            assert!(s.body.position.x >= 10.0 - 1e-3);
        }
        if fell && s.body.grounded {
            landed = true;
            assert!(!ev.falling);
            assert!((s.body.position.y + 20.0).abs() < 1e-4);
            break;
        }
    }
    assert!(fell && landed);
}

#[test]
fn walks_up_a_ramp_glued_to_the_ground() {
    use hopkit::ground::PlaneGround;
    let ramp = PlaneGround::ramp(Vec3::ZERO, Vec2::new(1.0, 0.0), 20f32.to_radians());
    let p = FollowerParams::seed();
    let mut s: FollowerState = FollowerState::new(Vec3::ZERO, Vec3::new(80.0, 29.0, 0.0), 0.0);
    s.trail.clear();
    for i in 0..12 {
        let x = 5.0 + 3.0 * i as f32;
        let y = ramp.probe(Vec3::new(x, 100.0, 0.0)).unwrap().height;
        s.trail.push_newest(Vec3::new(x, y, 0.0)).unwrap();
    }
    let leader = s.leader;
    for _ in 0..200 {
        let ev = follower::step(&mut s, &p, leader, &ramp, DT50);
        assert!(!ev.falling);
        let g = ramp.probe(s.body.position).unwrap().height;
        assert!((s.body.position.y - g).abs() < 1e-3);
    }
    assert!(s.body.position.x > 10.0);
}

#[test]
fn leader_teleport_regroups_behind_the_leader() {
    let p = FollowerParams::seed();
    let mut s: FollowerState = FollowerState::new(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, 0.0);
    for _ in 0..10 {
        follower::step(&mut s, &p, Vec3::ZERO, &flat(), DT50);
    }
    let far = Vec3::new(500.0, 0.0, -300.0);
    let ev = follower::step(&mut s, &p, far, &flat(), DT50);
    assert!(ev.regrouped);
    assert_eq!(s.trail.len(), 1);
    assert_eq!(s.trail.newest(), Some(far));
    let d = s.body.position.distance(far);
    assert!((d - 3.0).abs() < 1e-3, "{d}");
    // Same side as before (+Z of the leader).
    assert!(s.body.position.z > far.z);
    for _ in 0..100 {
        let ev = follower::step(&mut s, &p, far, &flat(), DT50);
        assert!(ev.stopped && !ev.regrouped);
    }
    assert!((s.body.position.distance(far) - 3.0).abs() < 1e-3);
}

#[test]
fn explicit_regroup_uses_the_given_direction() {
    let p = FollowerParams::seed();
    let mut s: FollowerState = FollowerState::new(Vec3::ZERO, Vec3::ZERO, 0.0);
    let leader = Vec3::new(10.0, 2.0, 10.0);
    follower::regroup(&mut s, &p, leader, Vec2::new(-1.0, 0.0));
    assert!((s.body.position - Vec3::new(7.0, 2.0, 10.0)).length() < 1e-5);
    // Faces the leader (+X): yaw −90°.
    assert!((s.body.yaw + core::f32::consts::FRAC_PI_2).abs() < 1e-5);
    // Degenerate direction: behind a leader facing −Z.
    follower::regroup(&mut s, &p, leader, Vec2::new(f32::NAN, 0.0));
    assert!((s.body.position - Vec3::new(10.0, 2.0, 13.0)).length() < 1e-5);
}

#[test]
fn smaller_trail_capacity_is_respected() {
    let p = FollowerParams {
        integrate: false,
        ..FollowerParams::seed()
    };
    let mut s: FollowerState<6> = FollowerState::new(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, 0.0);
    let mut warps = 0;
    for i in 1..30 {
        let ev = follower::step(
            &mut s,
            &p,
            Vec3::new(0.0, 0.0, -1.6 * i as f32),
            &flat(),
            DT50,
        );
        assert!(s.trail.len() <= 6);
        warps += ev.warped as u32;
    }
    assert!(warps > 0);
}

#[test]
fn bad_dt_does_nothing_and_long_dt_is_clamped() {
    let p = FollowerParams::seed();
    let mut s = far_chase_state(12);
    let before = s;
    for dt in [0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
        let ev = follower::step(&mut s, &p, Vec3::new(1.0, 2.0, 3.0), &flat(), dt);
        assert_eq!(ev, Default::default());
        assert_eq!(s, before);
    }
    let mut a = s;
    let mut b = s;
    follower::step(&mut a, &p, s.leader, &flat(), 10.0);
    follower::step(&mut b, &p, s.leader, &flat(), follower::MAX_STEP_DT);
    assert_eq!(a, b);
}

#[test]
fn state_hash_tracks_state() {
    use hopkit::hash::StateHash;
    let p = FollowerParams::seed();
    let mut a = far_chase_state(12);
    let mut b = a;
    assert_eq!(a.state_hash(), b.state_hash());
    for _ in 0..50 {
        let l = a.leader;
        follower::step(&mut a, &p, l, &flat(), DT50);
        let l = b.leader;
        follower::step(&mut b, &p, l, &flat(), DT50);
    }
    assert_eq!(a.state_hash(), b.state_hash());
    let l = a.leader;
    follower::step(&mut a, &p, l, &flat(), DT50);
    assert_ne!(a.state_hash(), b.state_hash());
}
