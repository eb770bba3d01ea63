//! Flying one tick from a [`Frame`]: the part shared by the live (recording) pilot and the ghost
//! playing the recording back, so both run exactly the same code on the same quantized frame.
//!
//! [`frame_torque`] sums, in body axes:
//! command (pitch/yaw) + Toward + Away + terrain avoidance + collision avoidance + roll levelling.

use super::flyer::{self, Basis, FlyerParams, FlyerState, TickConsts};
use super::frame::Frame;
use crate::ground::GroundProbe;
use crate::math::bits;
use crate::math::target::{inline_policy, FLOAT_SUMS_BEAT_BIT_TESTS};
use crate::math::Vec3;

/// The nearest target as seen from a flyer.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Nearest {
    /// Index in the target slice.
    pub index: u32,
    /// Distance, units.
    pub distance: f32,
    /// Unit direction from the flyer to the target (zero if they coincide).
    pub direction: Vec3,
}

inline_policy! { fpu_hint:
    /// The nearest finite target to `position` (ties: lowest index), or `None` if there is none.
    pub fn nearest_target(position: Vec3, targets: &[Vec3]) -> Option<Nearest> {
        // The best squared distance so far: +∞ until a finite one is seen (every finite square is
        // below it; later ones must be strictly smaller, so ties keep the lowest index).
        let mut best = f32::INFINITY;
        let mut index = 0u32;
        let mut offset = Vec3::ZERO;
        // A manual index (not `enumerate`): no overflow check for the link-time panic check.
        let mut i = 0u32;
        for &t in targets {
            let r = t - position;
            let d2 = r.length_squared();
            if d2 < best {
                best = d2;
                index = i;
                offset = r;
            }
            i = i.wrapping_add(1);
        }
        if best == f32::INFINITY {
            return None;
        }
        let distance = crate::math::scalar::sqrt(best);
        // `distance` is a square root of a finite sum of squares (≥ 0): compare the bits.
        let direction = if distance.to_bits() > 1.0e-6f32.to_bits() {
            offset * (1.0 / distance)
        } else {
            Vec3::ZERO
        };
        Some(Nearest {
            index,
            distance,
            direction,
        })
    }
}

/// Fire gate: the nose points at the nearest target within `fire_cos` and it is within
/// `fire_range`. No target → false.
#[inline]
pub fn facing_target(basis: &Basis, params: &FlyerParams, nearest: Option<&Nearest>) -> bool {
    match nearest {
        Some(n) => {
            n.distance <= params.fire_range && basis.forward.dot(n.direction) >= params.fire_cos
        }
        None => false,
    }
}

/// Sum of every torque acting on the flyer this tick for `frame` (body axes, rad/s²).
pub(crate) fn frame_torque(
    state: &FlyerState,
    basis: &Basis,
    params: &FlyerParams,
    frame: &Frame,
    nearest: Option<&Nearest>,
    targets: &[Vec3],
    ground: &impl GroundProbe,
) -> Vec3 {
    // A frame's commands are in [−1, 1] already.
    let mut torque = flyer::unit_command_torque(params, frame.pitch_command(), frame.yaw_command());
    if let Some(n) = nearest {
        if frame.toward {
            torque += flyer::turn_torque(basis, n.direction, params.toward_torque);
        }
        if frame.away {
            torque += flyer::turn_torque(basis, -n.direction, params.away_torque);
        }
    }
    torque = add_torque(torque, flyer::terrain_torque(state, basis, params, ground));
    torque = add_torque(torque, flyer::avoid_torque(state, basis, params, targets));
    // The level torque is `(0, 0, z)`: only z needs an addition.
    let level = flyer::level_torque(basis, params);
    Vec3::new(
        bits::plus_zero(torque.x),
        bits::plus_zero(torque.y),
        torque.z + level.z,
    )
}

/// `acc + t`. Where float additions are library calls the three additions are skipped when `t`
/// is exactly `(+0, +0, +0)` (terrain, avoidance and steering torques mostly are): the same bits
/// as the sum (see [`bits::plus_zero`]).
#[inline]
fn add_torque(acc: Vec3, t: Vec3) -> Vec3 {
    if FLOAT_SUMS_BEAT_BIT_TESTS {
        acc + t
    } else {
        add_torque_by_bits(acc, t)
    }
}

/// [`add_torque`] skipping the additions of an exact `(+0, +0, +0)`.
#[inline]
fn add_torque_by_bits(acc: Vec3, t: Vec3) -> Vec3 {
    if bits::is_plus_zero3(t) {
        Vec3::new(
            bits::plus_zero_by_bits(acc.x),
            bits::plus_zero_by_bits(acc.y),
            bits::plus_zero_by_bits(acc.z),
        )
    } else {
        acc + t
    }
}

/// Extra steering on top of a frame's torques (formation station-keeping).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct Steer {
    /// Extra body-axis torque, rad/s².
    pub torque: Vec3,
    /// Speed to approach this tick, units/s.
    pub speed: f32,
}

impl Steer {
    /// No extra torque, the params' cruise speed.
    #[inline]
    pub(crate) fn none(params: &FlyerParams) -> Steer {
        Steer {
            torque: Vec3::ZERO,
            speed: params.cruise_speed,
        }
    }
}

/// Fly one tick of `frame`: sum the torques, integrate, keep above the ground.
///
/// `nearest` must be [`nearest_target`] of the state before this call (callers compute it once
/// and reuse it for the Condition check and the recording).
pub(crate) fn fly(
    state: &mut FlyerState,
    params: &FlyerParams,
    frame: &Frame,
    nearest: Option<&Nearest>,
    targets: &[Vec3],
    ground: &impl GroundProbe,
    dt: f32,
) {
    fly_steered(
        state,
        params,
        frame,
        nearest,
        targets,
        ground,
        Steer::none(params),
        dt,
    );
}

/// [`fly`] plus an extra [`Steer`] (its torque is summed with the others).
#[allow(clippy::too_many_arguments)]
pub(crate) fn fly_steered(
    state: &mut FlyerState,
    params: &FlyerParams,
    frame: &Frame,
    nearest: Option<&Nearest>,
    targets: &[Vec3],
    ground: &impl GroundProbe,
    steer: Steer,
    dt: f32,
) {
    let mut axes = state.basis();
    let k = TickConsts::new(params, dt);
    fly_steered_axes(
        state, &mut axes, params, &k, frame, nearest, targets, ground, steer,
    );
}

/// [`fly_steered`] with the body axes of the current orientation already at hand (`axes` must be
/// `state.basis()`); leaves in `axes` those of the new orientation (see
/// [`flyer::step_at_speed_axes`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn fly_steered_axes(
    state: &mut FlyerState,
    axes: &mut Basis,
    params: &FlyerParams,
    k: &TickConsts,
    frame: &Frame,
    nearest: Option<&Nearest>,
    targets: &[Vec3],
    ground: &impl GroundProbe,
    steer: Steer,
) {
    let torque = add_torque(
        frame_torque(state, axes, params, frame, nearest, targets, ground),
        steer.torque,
    );
    flyer::step_at_speed_axes(state, params, k, torque, steer.speed, axes);
    flyer::keep_above_ground(state, ground);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_picks_closest_and_skips_nan() {
        let t = [
            Vec3::new(10.0, 0.0, 0.0),
            Vec3::new(f32::NAN, 0.0, 0.0),
            Vec3::new(0.0, 0.0, -3.0),
            Vec3::new(0.0, 3.0, 0.0),
        ];
        let n = nearest_target(Vec3::ZERO, &t).unwrap();
        assert_eq!(n.index, 2);
        // Tolerances cover the micromath backend's approximate sqrt.
        assert!((n.distance - 3.0).abs() < 1e-4);
        assert!((n.direction - Vec3::FORWARD).length() < 1e-4);
        assert!(nearest_target(Vec3::ZERO, &[]).is_none());
        let on_top = nearest_target(Vec3::ZERO, &[Vec3::ZERO]).unwrap();
        assert_eq!(on_top.direction, Vec3::ZERO);
    }

    #[test]
    fn bit_forms_are_the_additions() {
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        let mut b = 0u32;
        loop {
            let x = f32::from_bits(b);
            assert!(same(bits::plus_zero_by_bits(x), x + 0.0), "{b:#x}");
            assert!(same(bits::plus_zero(x), x + 0.0), "{b:#x}");
            match b.checked_add(4_099) {
                Some(n) => b = n,
                None => break,
            }
        }
        let vs = [
            0.0f32,
            -0.0,
            1.0e-45,
            -1.0e-45,
            2.5,
            -7.0,
            f32::MAX,
            f32::INFINITY,
        ];
        for &a in vs.iter() {
            for &b in vs.iter() {
                for &c in vs.iter() {
                    let acc = Vec3::new(a, b, -c);
                    for t in [Vec3::ZERO, Vec3::new(0.0, -0.0, 0.0), Vec3::new(c, a, b)] {
                        let (x, y) = (add_torque_by_bits(acc, t), acc + t);
                        assert!(same(x.x, y.x) && same(x.y, y.y) && same(x.z, y.z));
                        let z = add_torque(acc, t);
                        assert!(same(z.x, y.x) && same(z.y, y.y) && same(z.z, y.z));
                    }
                }
            }
        }
    }

    /// `nearest_target` as first written (an `Option` of the best so far, finite squares only).
    fn nearest_reference(position: Vec3, targets: &[Vec3]) -> Option<Nearest> {
        let mut best: Option<(u32, f32, Vec3)> = None;
        for (i, &t) in targets.iter().enumerate() {
            let r = t - position;
            let d2 = r.length_squared();
            if d2.is_finite() {
                match best {
                    Some((_, b2, _)) if b2 <= d2 => {}
                    _ => best = Some((i as u32, d2, r)),
                }
            }
        }
        best.map(|(index, d2, r)| {
            let distance = crate::math::scalar::sqrt(d2);
            let direction = if distance.to_bits() > 1.0e-6f32.to_bits() {
                r * (1.0 / distance)
            } else {
                Vec3::ZERO
            };
            Nearest {
                index,
                distance,
                direction,
            }
        })
    }

    #[test]
    fn nearest_is_the_reference() {
        let mut rng = crate::rng::Pcg32::seeded(21);
        let specials = [
            0.0f32,
            -0.0,
            1.0e30,
            -2.0e19,
            2.0e19,
            f32::INFINITY,
            f32::NAN,
            1.0e-40,
        ];
        let same = |a: Option<Nearest>, b: Option<Nearest>| match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.index == b.index
                    && a.distance.to_bits() == b.distance.to_bits()
                    && a.direction.x.to_bits() == b.direction.x.to_bits()
                    && a.direction.y.to_bits() == b.direction.y.to_bits()
                    && a.direction.z.to_bits() == b.direction.z.to_bits()
            }
            _ => false,
        };
        for _ in 0..50_000 {
            let n = rng.below(6) as usize;
            let mut t = [Vec3::ZERO; 6];
            for v in t.iter_mut().take(n) {
                let mut c = || {
                    if rng.below(5) == 0 {
                        specials[rng.below(specials.len() as u32) as usize]
                    } else {
                        rng.range_f32(-20.0, 20.0)
                    }
                };
                *v = Vec3::new(c(), c(), c());
            }
            // Ties: a duplicate of an earlier target now and then.
            if n > 2 && rng.below(4) == 0 {
                t[n - 1] = t[0];
            }
            let p = Vec3::new(rng.range_f32(-5.0, 5.0), 1.0, rng.range_f32(-5.0, 5.0));
            assert!(same(
                nearest_target(p, &t[..n]),
                nearest_reference(p, &t[..n])
            ));
        }
    }

    #[test]
    fn fire_gate_uses_the_threshold() {
        let p = FlyerParams::default();
        let b = Basis::from_quat(crate::math::Quat::IDENTITY);
        let ahead = nearest_target(Vec3::ZERO, &[Vec3::new(0.0, 0.0, -20.0)]);
        assert!(facing_target(&b, &p, ahead.as_ref()));
        // 30° off: cos 0.866 < 0.95.
        let off = nearest_target(Vec3::ZERO, &[Vec3::new(10.0, 0.0, -17.32)]);
        assert!(!facing_target(&b, &p, off.as_ref()));
        let far = nearest_target(Vec3::ZERO, &[Vec3::new(0.0, 0.0, -200.0)]);
        assert!(!facing_target(&b, &p, far.as_ref()));
        assert!(!facing_target(&b, &p, None));
    }
}
