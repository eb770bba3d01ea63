//! Where hopkit deliberately differs from a seed, the seed's behaviour is one documented switch
//! away (docs/seed-fidelity.md). Each test shows the difference and that the switch restores the
//! seed.

use hopkit::follower::{self, FollowerParams, FollowerState};
use hopkit::ghost::flyer::{Basis, FlyerParams, FlyerState};
use hopkit::ghost::{facing_target, nearest_target};
use hopkit::ground::FlatGround;
use hopkit::math::{scalar, Vec3};
use hopkit::slope::SlopeParams;

/// Seed 003: `cos(slopeLimit) <= normal.y` rejects everything above the limit. hopkit accepts up
/// to 2e-3 (in cosine) beyond it so a 45° ramp passes at a 45° limit despite rounding.
#[test]
fn slope_limit_tolerance_and_its_switch() {
    let deg = |d: f32| {
        let (s, c) = scalar::sin_cos(d.to_radians());
        Vec3::new(s, c, 0.0)
    };
    let just_over = deg(45.1);
    assert!(
        SlopeParams::seed().is_walkable(just_over),
        "hopkit: within the tolerance"
    );
    assert!(
        !SlopeParams::seed_exact().is_walkable(just_over),
        "seed: rejected"
    );
    assert!(
        !SlopeParams::seed().is_walkable(deg(45.5)),
        "beyond the tolerance for both"
    );
    assert!(SlopeParams::seed_exact().is_walkable(deg(44.9)));
}

/// Seed 002: guns fire when the nose points at the target, whatever the distance. hopkit also
/// requires the target within `fire_range` (60 units by default).
#[test]
fn fire_gate_range_and_its_switch() {
    let flyer = FlyerState::level(Vec3::ZERO, 0.0, 10.0); // facing −Z
    let far_ahead = [Vec3::new(0.0, 0.0, -1000.0)];
    let nearest = nearest_target(flyer.position, &far_ahead);
    let basis = Basis::from_quat(flyer.orientation);
    let p = FlyerParams::default();
    assert!(
        !facing_target(&basis, &p, nearest.as_ref()),
        "hopkit: out of range"
    );
    let seed = p.with_seed_fire_gate();
    assert!(
        facing_target(&basis, &seed, nearest.as_ref()),
        "seed: facing is enough"
    );
    let behind = [Vec3::new(0.0, 0.0, 10.0)];
    let n = nearest_target(flyer.position, &behind);
    assert!(
        !facing_target(&basis, &seed, n.as_ref()),
        "never when not facing"
    );
}

/// Seed 004: `_prevPlayerPos` starts at the world origin, so a leader away from the origin drops
/// a crumb on the very first frame. hopkit starts it at the leader.
#[test]
fn first_crumb_and_its_switch() {
    let leader = Vec3::new(6.0, 0.0, 0.0);
    let p = FollowerParams::seed_exact();
    let g = FlatGround::new(0.0);
    let mut ours: FollowerState = FollowerState::new(Vec3::new(3.0, 0.0, 0.0), leader, 0.0);
    let mut seed: FollowerState = FollowerState::seed_start(Vec3::new(3.0, 0.0, 0.0), leader, 0.0);
    let e_ours = follower::step(&mut ours, &p, leader, &g, 0.02);
    let e_seed = follower::step(&mut seed, &p, leader, &g, 0.02);
    assert!(!e_ours.crumb_recorded);
    assert!(e_seed.crumb_recorded, "the seed records against the origin");
    assert_eq!(seed.trail.len(), ours.trail.len() + 1);
}

/// Seed 004: a crumb counts as reached within `reach_distance` in 3-D. hopkit measures in the
/// ground plane, so a follower under a crumb dropped mid-jump moves on instead of circling.
#[test]
fn crumb_reach_in_3d_and_its_switch() {
    let g = FlatGround::new(0.0);
    let run = |p: &FollowerParams| {
        let leader = Vec3::new(0.0, 0.0, -20.0);
        let mut s: FollowerState = FollowerState::new(Vec3::ZERO, leader, 0.0);
        s.trail.clear();
        for z in [-4.0, -8.0, -12.0, -16.0, -18.0] {
            let _ = s.trail.push_newest(Vec3::new(0.0, 0.0, z));
        }
        s.target = Vec3::new(0.0, 3.0, -0.5); // right above: planar 0.5, 3-D ≈ 3.04
        follower::step(&mut s, p, leader, &g, 0.02)
    };
    assert!(
        run(&FollowerParams::seed()).advanced,
        "hopkit: reached in the ground plane"
    );
    assert!(
        !run(&FollowerParams::seed_exact()).advanced,
        "seed: 3 units above is not reached"
    );
}
