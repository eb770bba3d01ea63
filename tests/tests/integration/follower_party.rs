//! The party: members spaced by distance along the leader's trail, regroup after a teleport,
//! capacities.

use hopkit::follower::{party, FollowerBody, Party, PartyFull, PartyParams};
use hopkit::ground::FlatGround;
use hopkit::hash::StateHash;
use hopkit::math::{Vec2, Vec3};

const DT: f32 = 0.02;

fn flat() -> FlatGround {
    FlatGround::new(0.0)
}

/// Four members in a line behind a leader at the origin facing −Z.
fn line_party<const C: usize>() -> Party<4, C> {
    let mut p: Party<4, C> = Party::new(Vec3::ZERO);
    for k in 0..4 {
        p.add_member(Vec3::new(0.0, 0.0, 2.5 * (k + 1) as f32), 0.0)
            .unwrap();
    }
    p
}

/// Walk 20 units along −Z, then 25 along +X, at 6 units/s; then stand.
fn l_path(t: f32) -> Vec3 {
    let d = (t * 6.0).min(45.0);
    if d < 20.0 {
        Vec3::new(0.0, 0.0, -d)
    } else {
        Vec3::new(d - 20.0, 0.0, -20.0)
    }
}

/// Distance from `p` to the L path's polyline (the members start on the −Z leg's extension).
fn off_path(p: Vec3) -> f32 {
    let leg1 = if p.z < -20.0 {
        (p.x * p.x + (p.z + 20.0) * (p.z + 20.0)).sqrt()
    } else {
        p.x.abs()
    };
    let leg2 = if p.x < 0.0 {
        (p.x * p.x + (p.z + 20.0) * (p.z + 20.0)).sqrt()
    } else {
        (p.z + 20.0).abs()
    };
    leg1.min(leg2)
}

/// Gaps leader→0, 0→1, 1→2, 2→3 (straight-line, in the ground plane).
fn gaps<const M: usize, const C: usize>(p: &Party<M, C>, leader: Vec3) -> Vec<f32> {
    let mut prev = leader;
    p.members()
        .iter()
        .map(|m| {
            let g = m.position.planar().distance(prev.planar());
            prev = m.position;
            g
        })
        .collect()
}

fn min_pairwise<const M: usize, const C: usize>(p: &Party<M, C>, leader: Vec3) -> f32 {
    let mut ps: Vec<Vec3> = p.members().iter().map(|m| m.position).collect();
    ps.push(leader);
    let mut best = f32::MAX;
    for i in 0..ps.len() {
        for j in i + 1..ps.len() {
            best = best.min(ps[i].distance(ps[j]));
        }
    }
    best
}

#[test]
fn evenly_spaced_by_trail_distance_while_walking_and_at_rest() {
    let pp = PartyParams::seed();
    let mut p = line_party::<32>();
    let mut leader = Vec3::ZERO;
    for i in 0..800 {
        let t = i as f32 * DT;
        leader = l_path(t);
        let ev = party::step(&mut p, &pp, leader, &flat(), DT);
        assert_eq!(ev.warped, 0);
        assert!(!ev.regrouped);
        // Nobody cuts the corner: every member stays on the leader's path.
        for m in p.members() {
            assert!(off_path(m.position) < 0.5, "t {t}: {:?}", m.position);
        }
        // Steady walk on the second leg (every slot past the corner): member gaps are even.
        if (6.0..7.4).contains(&t) {
            for g in &gaps(&p, leader)[1..] {
                assert!((g - 2.5).abs() < 0.1, "t {t}: gaps {:?}", gaps(&p, leader));
            }
        }
    }
    // At rest: every gap, including the leader's, is the spacing.
    for g in gaps(&p, leader) {
        assert!((g - 2.5).abs() < 0.15, "{:?}", gaps(&p, leader));
    }
    assert_eq!(
        party::step(&mut p, &pp, leader, &flat(), DT).stopped,
        0b1111
    );
    // Standing in a straight line behind the leader along −X of it.
    for (k, m) in p.members().iter().enumerate() {
        let want = Vec3::new(25.0 - 2.5 * (k + 1) as f32, 0.0, -20.0);
        assert!(
            m.position.distance(want) < 0.15,
            "member {k}: {:?}",
            m.position
        );
    }
}

#[test]
fn slots_are_spacing_apart_along_the_trail() {
    let pp = PartyParams::seed();
    let mut p = line_party::<32>();
    for i in 0..500 {
        party::step(&mut p, &pp, l_path(i as f32 * DT), &flat(), DT);
    }
    let slots = p.slots(&pp);
    let leader = p.leader();
    assert!((slots[0].distance(leader) - 2.5).abs() < 1e-4);
    for k in 1..4 {
        assert!((slots[k].distance(slots[k - 1]) - 2.5).abs() < 1e-4);
    }
}

#[test]
fn u_turn_keeps_personal_space() {
    let pp = PartyParams::seed();
    let path = |t: f32| -> Vec3 {
        let d = (t * 6.0).min(60.0);
        let arc = std::f32::consts::PI * 3.0;
        if d < 20.0 {
            Vec3::new(0.0, 0.0, -d)
        } else if d < 20.0 + arc {
            let a = (d - 20.0) / 3.0;
            Vec3::new(3.0 - 3.0 * a.cos(), 0.0, -20.0 - 3.0 * a.sin())
        } else {
            Vec3::new(6.0, 0.0, -20.0 + (d - 20.0 - arc))
        }
    };
    let mut p = line_party::<32>();
    for i in 0..800 {
        let l = path(i as f32 * DT);
        party::step(&mut p, &pp, l, &flat(), DT);
        let m = min_pairwise(&p, l);
        assert!(m > pp.personal_space, "step {i}: {m}");
    }
}

#[test]
fn teleport_regroups_in_a_line_without_stacking() {
    let pp = PartyParams::seed();
    let mut p = line_party::<32>();
    for i in 0..200 {
        party::step(&mut p, &pp, l_path(i as f32 * DT), &flat(), DT);
    }
    let old_leader = p.leader();
    let was = (p.members()[0].position - old_leader).planar();
    let far = Vec3::new(-300.0, 4.0, 120.0);
    let ev = party::step(&mut p, &pp, far, &flat(), DT);
    assert!(ev.regrouped);
    // Right after the regroup: nobody closer than the spacing to anybody (a step of motion later).
    let m = min_pairwise(&p, far);
    assert!(m > pp.spacing - 0.05, "min pairwise {m}");
    // On the same side of the leader as member 0 was.
    let now = (p.members()[0].position - far).planar();
    assert!(was.normalize_or_zero().dot(now.normalize_or_zero()) > 0.999);
    for _ in 0..200 {
        let ev = party::step(&mut p, &pp, far, &flat(), DT);
        assert!(!ev.regrouped);
        let m = min_pairwise(&p, far);
        assert!(m > pp.spacing - 0.2, "min pairwise {m}");
    }
    for g in gaps(&p, far) {
        assert!((g - 2.5).abs() < 0.15, "{:?}", gaps(&p, far));
    }
}

#[test]
fn regroup_spreads_a_stacked_party() {
    let pp = PartyParams::seed();
    let mut p: Party<4, 32> = Party::new(Vec3::ZERO);
    for _ in 0..4 {
        p.add_member(Vec3::new(1.0, 0.0, 1.0), 0.0).unwrap();
    }
    assert_eq!(min_pairwise(&p, Vec3::ZERO), 0.0);
    let leader = Vec3::new(10.0, 0.0, 10.0);
    p.regroup(&pp, leader, Vec2::new(1.0, 0.0));
    for (k, m) in p.members().iter().enumerate() {
        let want = Vec3::new(10.0 + 2.5 * (k + 1) as f32, 0.0, 10.0);
        assert!(m.position.distance(want) < 1e-5);
        // Facing the leader (−X): yaw +90°.
        assert!((m.yaw - std::f32::consts::FRAC_PI_2).abs() < 1e-5);
        assert_eq!(m.velocity, Vec3::ZERO);
    }
    assert!((min_pairwise(&p, leader) - 2.5).abs() < 1e-5);
    // The trail was re-seeded along the line, so the slots are the new positions.
    let slots = p.slots(&pp);
    for (k, m) in p.members().iter().enumerate() {
        assert!(slots[k].distance(m.position) < 1e-4);
    }
}

#[test]
fn a_stacked_party_spreads_out_by_walking() {
    let pp = PartyParams::seed();
    let mut p: Party<4, 32> = Party::new(Vec3::ZERO);
    for _ in 0..4 {
        p.add_member(Vec3::new(0.0, 0.0, 3.0), 0.0).unwrap();
    }
    let mut leader = Vec3::ZERO;
    for i in 0..400 {
        leader = Vec3::new(0.0, 0.0, -(i as f32 * DT * 6.0).min(20.0));
        party::step(&mut p, &pp, leader, &flat(), DT);
    }
    let m = min_pairwise(&p, leader);
    assert!(m > 2.3, "min pairwise {m}");
}

#[test]
fn full_party_refuses_new_members() {
    let mut p: Party<3, 16> = Party::new(Vec3::ZERO);
    assert_eq!(p.capacity(), 3);
    for k in 0..3 {
        assert_eq!(p.add_member(Vec3::new(k as f32, 0.0, 0.0), 0.0), Ok(k));
    }
    assert!(p.is_full());
    let before = p;
    assert_eq!(p.add_member(Vec3::new(9.0, 0.0, 9.0), 0.0), Err(PartyFull));
    assert_eq!(p, before, "nothing changed");
    // Removing the middle one moves the last one up.
    let removed = p.remove_member(1).unwrap();
    assert_eq!(removed.position, Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(p.len(), 2);
    assert_eq!(p.members()[1].position, Vec3::new(2.0, 0.0, 0.0));
    assert!(p.remove_member(5).is_none());
    assert_eq!(p.add_member(Vec3::new(7.0, 0.0, 0.0), 0.0), Ok(2));
}

#[test]
fn small_trail_coarsens_recording_but_keeps_every_slot() {
    let pp = PartyParams::seed();
    // 8 crumbs for 4 members 2.5 apart: recording spacing max(0.5, 10/6) ≈ 1.667.
    let mut p = line_party::<8>();
    assert!((p.recording_spacing(&pp) - 10.0 / 6.0).abs() < 1e-5);
    let mut dropped = 0;
    let mut leader = Vec3::ZERO;
    for i in 0..800 {
        leader = l_path(i as f32 * DT);
        let ev = party::step(&mut p, &pp, leader, &flat(), DT);
        dropped += ev.crumb_dropped as u32;
        assert!(p.trail().len() <= 8);
    }
    assert!(
        dropped > 10,
        "the trail overflowed and dropped its oldest crumbs"
    );
    // The trail still spans every slot (no clamping to its end): gaps are even at rest.
    for g in gaps(&p, leader) {
        assert!((g - 2.5).abs() < 0.15, "{:?}", gaps(&p, leader));
    }
    let mut span = 0.0;
    let mut prev = leader;
    for c in p.trail().iter().rev() {
        span += c.distance(prev);
        prev = c;
    }
    assert!(span >= 10.0, "trail spans {span}");
}

#[test]
fn a_member_left_far_behind_is_warped_to_its_slot() {
    let pp = PartyParams::seed();
    let mut p = line_party::<32>();
    p.members_mut()[2].position = Vec3::new(100.0, 0.0, 100.0);
    let ev = party::step(&mut p, &pp, Vec3::ZERO, &flat(), DT);
    assert_eq!(ev.warped, 0b100);
    assert!(p.members()[2].position.distance(Vec3::new(0.0, 0.0, 7.5)) < 0.1);
}

#[test]
fn falling_members_are_reported() {
    use hopkit::ground::NoGround;
    let pp = PartyParams::seed();
    let mut p = line_party::<32>();
    let mut ev = Default::default();
    for _ in 0..30 {
        ev = party::step(&mut p, &pp, Vec3::ZERO, &NoGround, DT);
    }
    assert_eq!(ev.falling, 0b1111);
    assert!(p
        .members()
        .iter()
        .all(|m: &FollowerBody| m.velocity.y < -4.0));
}

#[test]
fn party_state_hash_is_reproducible() {
    let pp = PartyParams::seed();
    let mut a = line_party::<32>();
    let mut b = line_party::<32>();
    for i in 0..300 {
        let l = l_path(i as f32 * DT);
        party::step(&mut a, &pp, l, &flat(), DT);
        party::step(&mut b, &pp, l, &flat(), DT);
    }
    assert_eq!(a.state_hash(), b.state_hash());
    party::step(&mut a, &pp, Vec3::new(30.0, 0.0, -20.0), &flat(), DT);
    assert_ne!(a.state_hash(), b.state_hash());
}
