//! Combiners: weighted blend, priority, truncated budget.

use hopkit::math::Vec3;
use hopkit::steering::{blend, priority, seek, truncated_budget, Agent, Steering, SteeringParams};

fn lin(x: f32, y: f32, z: f32) -> Steering {
    Steering::linear(Vec3::new(x, y, z))
}

#[test]
fn priority_picks_the_first_significant_output() {
    let a = lin(0.0, 0.0, 0.0);
    let tiny = lin(1e-4, 0.0, 0.0);
    let b = lin(0.0, 0.0, 3.0);
    let c = lin(5.0, 0.0, 0.0);
    assert_eq!(priority(&[a, tiny, b, c], 1e-3), b);
    // The yaw rate counts as output too.
    let turn = Steering::angular(0.5);
    assert_eq!(priority(&[a, turn, c], 1e-3), turn);
    // Nothing above ε: the last item passes through (small final corrections still apply).
    assert_eq!(priority(&[a, tiny], 1e-3), tiny);
    assert_eq!(priority(&[], 1e-3), Steering::ZERO);
    // Non-finite items are never picked; a non-finite last item gives zero.
    let bad = lin(f32::NAN, 0.0, 0.0);
    assert_eq!(priority(&[bad, c], 1e-3), c);
    assert_eq!(priority(&[a, bad], 1e-3), Steering::ZERO);
}

#[test]
fn truncated_budget_spends_in_priority_order_and_never_exceeds_it() {
    let first = lin(3.0, 0.0, 0.0);
    let second = lin(0.0, 0.0, 4.0);
    let third = lin(-5.0, 0.0, 0.0);
    let s = truncated_budget(&[first, second, third], 6.0);
    // 3 whole, then 3 of the 4 of `second`; `third` gets nothing.
    assert!((s.linear.x - 3.0).abs() < 1e-6);
    assert!((s.linear.z - 3.0).abs() < 1e-6);
    assert!(s.linear.length() <= 6.0);
    // Everything fits: plain sum.
    let s = truncated_budget(&[first, second], 100.0);
    assert_eq!(s.linear, Vec3::new(3.0, 0.0, 4.0));
    // First alone exceeds the budget: shortened to the budget.
    let s = truncated_budget(&[lin(30.0, 0.0, 40.0), second], 5.0);
    assert!((s.linear - Vec3::new(3.0, 0.0, 4.0)).length() < 1e-5);
    // Yaw rate: the first non-zero one.
    let s = truncated_budget(
        &[first, Steering::angular(0.7), Steering::angular(-2.0)],
        6.0,
    );
    assert_eq!(s.angular, 0.7);
    // Bad budget → nothing.
    assert_eq!(truncated_budget(&[first], f32::NAN).linear, Vec3::ZERO);
    assert_eq!(truncated_budget(&[first], -1.0).linear, Vec3::ZERO);
}

#[test]
fn blend_weights_clamps_and_zeroes_cancellation() {
    let p = SteeringParams::default(); // max_accel 8
    let s = blend(&[(lin(2.0, 0.0, 0.0), 1.0), (lin(0.0, 0.0, 2.0), 0.5)], &p);
    assert_eq!(s.linear, Vec3::new(2.0, 0.0, 1.0));
    // Too much in total: truncated to max_accel.
    let s = blend(&[(lin(8.0, 0.0, 0.0), 1.0), (lin(8.0, 0.0, 0.0), 1.0)], &p);
    assert_eq!(s.linear, Vec3::new(8.0, 0.0, 0.0));
    // Two seeks to opposite sides, equal weight: exactly zero, not a noise vector.
    let a = Agent::new(Vec3::new(0.1, 0.0, 0.3));
    let left = seek(&a, Vec3::new(-9.9, 0.0, 0.3), &p, 1.0 / 60.0);
    let right = seek(&a, Vec3::new(10.1, 0.0, 0.3), &p, 1.0 / 60.0);
    assert_eq!(blend(&[(left, 1.0), (right, 1.0)], &p).linear, Vec3::ZERO);
    // Rounding-level residue is zeroed; a real imbalance is kept.
    let x = lin(3.0, 1.0, -2.0);
    let almost = lin(-3.000_000_2, -1.0, 2.0);
    assert_eq!(blend(&[(x, 1.0), (almost, 1.0)], &p).linear, Vec3::ZERO);
    let s = blend(&[(x, 1.0), (lin(-3.0, -1.0, 2.0), 0.9)], &p);
    assert!((s.linear - Vec3::new(0.3, 0.1, -0.2)).length() < 1e-5);
    // Huge weights do not overflow; negative weights invert; bad items skipped.
    let s = blend(
        &[(lin(1.0, 0.0, 0.0), 3.0e38), (lin(0.0, 1.0, 0.0), f32::NAN)],
        &p,
    );
    assert_eq!(s.linear, Vec3::new(8.0, 0.0, 0.0));
    let s = blend(&[(lin(1.0, 0.0, 0.0), -2.0)], &p);
    assert_eq!(s.linear, Vec3::new(-2.0, 0.0, 0.0));
    assert_eq!(blend(&[], &p), Steering::ZERO);
    // Yaw rates blend and clamp to max_turn_rate.
    let s = blend(
        &[(Steering::angular(1.0), 1.0), (Steering::angular(3.0), 1.0)],
        &p,
    );
    assert!((s.angular - 4.0).abs() < 1e-5);
    let s = blend(
        &[(Steering::angular(5.0), 1.0), (Steering::angular(5.0), 1.0)],
        &p,
    );
    assert!((s.angular - p.max_turn_rate).abs() < 1e-5);
}
