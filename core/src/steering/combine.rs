//! Combining behaviours: weighted blend, priority, truncated budget (Reynolds' prioritised
//! acceleration allocation).
//!
//! All three skip non-finite inputs and never return NaN/inf.
//!
//! Cancelling sums ([`blend`]): two strong behaviours pulling in opposite directions can sum to a
//! tiny vector made of rounding noise whose direction is meaningless. When the blended linear part
//! is shorter than [`CANCEL_RATIO`] × the root-sum-square of the weighted input lengths
//! (`√Σ|wᵢ·sᵢ|²`), it is returned as exactly zero (same for the yaw rate, with `√Σ(wᵢ·aᵢ)²`), so
//! such noise never steers the agent. A genuine deadlock
//! (flee two equal threats on opposite sides, seek a target straight behind an obstacle) is a
//! property of the weights, not of the arithmetic: put the behaviour that must win first in a
//! [`priority`] list or a [`truncated_budget`] instead of blending it. Balanced forces that are
//! *meant* to cancel (separation against cohesion at the flock's spacing) are unaffected: their
//! zero is the intended equilibrium.

use super::{clamp_len, dir_len, fast_range, is_zero, non_negative, Steering, SteeringParams};
use crate::math::bits;
use crate::math::target::{inline_policy, SPEED_OVER_SIZE};
use crate::math::{clamp, scalar, Vec3};

/// Relative threshold below which a blended sum counts as fully cancelled (see the module docs).
pub const CANCEL_RATIO: f32 = 1.0e-5;

inline_policy! { hot_hint:
    /// Weighted blend: `Σ wᵢ·sᵢ`, linear part truncated to `max_accel`, yaw rate clamped to
    /// `max_turn_rate`. Each input is first limited to those same bounds (behaviours already are).
    /// Items with a non-finite weight or steering are skipped; negative weights are allowed (they
    /// invert a behaviour). Near-total cancellation gives exactly zero (module docs). Extreme weights
    /// or limits (beyond 10¹⁵) switch to a rescaled sum, so no finite input can overflow it.
    pub fn blend(items: &[(Steering, f32)], params: &SteeringParams) -> Steering {
        let w_max = max_weight(items);
        let max_accel = params.accel_limit();
        let turn = params.turn_limit();
        if w_max <= 0.0 {
            return Steering::ZERO;
        }
        // Ordinary magnitudes: every weighted term and its square stay far from overflow.
        const SAFE: f32 = 1.0e15;
        if w_max <= SAFE && max_accel <= SAFE && turn <= SAFE && w_max >= 1.0 / SAFE {
            return blend_direct(items, w_max, max_accel, turn);
        }
        blend_scaled(items, w_max, max_accel, turn)
    }
}

/// Largest finite `|weight|` of `items` (NaN/inf weights are skipped by the blends anyway).
#[inline]
fn max_weight(items: &[(Steering, f32)]) -> f32 {
    items.iter().fold(0.0f32, |m, (_, w)| {
        let a = w.abs();
        if a <= f32::MAX && a > m {
            a
        } else {
            m
        }
    })
}

/// Cancellation rule shared by both blend paths: keep `sum` unless `|sum|² ≤ R²·mass`.
#[inline]
fn cancelled(sum_sq: f32, mass: f32) -> bool {
    sum_sq <= CANCEL_RATIO * CANCEL_RATIO * mass
}

inline_policy! { hot:
    /// [`blend`] for ordinary magnitudes (`|w|·max_accel ≤ 10³⁰`): plain weighted sums.
    ///
    /// The linear mass `Σ|wᵢ·sᵢ|²` of the cancellation rule is only summed when the blended sum is
    /// short enough that it could matter: every term is at most `|w|·max_accel` long, so
    /// [`mass_bound`] bounds the mass from above, and a sum with `|sum|² > R²·bound` is not cancelled
    /// whatever the exact mass (the float products are monotonic in the mass). Otherwise
    /// [`linear_mass`] sums it exactly as it always was summed, so the result is the same either way.
    fn blend_direct(items: &[(Steering, f32)], w_max: f32, max_accel: f32, turn: f32) -> Steering {
        let max_sq = max_accel * max_accel;
        let mut sums = Sums::default();
        for item in items {
            sums.add(item, max_accel, max_sq, turn);
        }
        let Sums {
            linear,
            angular,
            angular_mass,
        } = sums;
        let sum_sq = linear.length_squared();
        let keep = sum_sq > CANCEL_RATIO * CANCEL_RATIO * mass_bound(items.len(), w_max, max_sq)
            || !cancelled(sum_sq, linear_mass(items, max_accel, max_sq));
        let linear = if keep {
            clamp_len(linear, max_accel)
        } else {
            Vec3::ZERO
        };
        let angular = if cancelled(angular * angular, angular_mass) {
            0.0
        } else {
            clamp(angular, -turn, turn)
        };
        Steering { linear, angular }
    }
}

/// The running sums of [`blend_direct`].
#[derive(Default)]
struct Sums {
    linear: Vec3,
    angular: f32,
    angular_mass: f32,
}

impl Sums {
    /// Add one item (skipped if [`blend_term`] skips it).
    #[inline(always)]
    fn add(&mut self, &(ref item, w): &(Steering, f32), max_accel: f32, max_sq: f32, turn: f32) {
        let Some(l) = blend_term(item, w, max_accel, max_sq) else {
            return;
        };
        self.linear += l;
        // A zero yaw rate (every purely linear behaviour) adds ±0 to sums that are never −0:
        // skipping it changes no bit.
        let a = item.angular;
        if a != 0.0 {
            let a = clamp(a, -turn, turn) * w;
            self.angular += a;
            self.angular_mass += a * a;
        }
    }
}

/// An upper bound on [`linear_mass`] for `n` items with `|w| ≤ w_max` (finite), or `+inf` when
/// the bound is not trustworthy (then the caller sums the exact mass).
///
/// Every term `l = c·w` has `|c| ≤ max_accel` up to a few ulp (`c` is the item's linear part if
/// `|c|² ≤ max_accel²`, else that part scaled to `max_accel`), so `|l|² ≤ w_max²·max_accel²·(1 +
/// 12u)`, and the float sum of `n` such squares exceeds the exact sum by at most `n·u` relatively
/// (`u = 2⁻²⁴`). With `n ≤ 1024` the 1 % margin covers both with room to spare; requiring both
/// `max_accel²` and the bound to be normal floats (≥ 10⁻³⁰) keeps underflow (which could round a
/// tiny square up by half a subnormal step) negligible against the margin.
#[inline]
fn mass_bound(n: usize, w_max: f32, max_sq: f32) -> f32 {
    const MIN: f32 = 1.0e-30;
    let bound = max_sq * (w_max * w_max) * (n as f32 * 1.01);
    if n <= 1024 && max_sq >= MIN && bound >= MIN {
        bound
    } else {
        f32::INFINITY
    }
}

inline_policy! { cold_shared:
    /// `Σ|wᵢ·sᵢ|²` over the items [`blend_direct`] sums, term by term in the same order (the rule's
    /// mass, summed only when [`mass_bound`] cannot settle the cancellation test).
    #[cold]
    fn linear_mass(items: &[(Steering, f32)], max_accel: f32, max_sq: f32) -> f32 {
        let mut mass = 0.0f32;
        for &(ref item, w) in items {
            if let Some(l) = blend_term(item, w, max_accel, max_sq) {
                mass += l.length_squared();
            }
        }
        mass
    }
}

/// The weighted, clamped linear term `clamp_len(s.linear, max_accel)·w` of one item, `None` if
/// the item is skipped (non-finite weight or steering). The sign of a zero component is not
/// significant (64-bit hosts return +0 for some −0, see below): every use adds or squares it.
#[inline(always)]
fn blend_term(item: &Steering, w: f32, max_accel: f32, max_sq: f32) -> Option<Vec3> {
    // Field by field (not the whole `Steering` as two 8-byte words): a caller that stored
    // `linear.z` and `angular` separately would otherwise stall store forwarding.
    let s = Steering {
        linear: Vec3::new(item.linear.x, item.linear.y, item.linear.z),
        angular: item.angular,
    };
    let l2 = s.linear.length_squared();
    // One test for the usual item: a squared length in the fast range proves the linear part
    // finite (and is the one `clamp_len` computes), `bits::all_finite!` that the yaw rate and the
    // weight are. Anything else takes the general checks.
    if fast_range(l2) && bits::all_finite!(s.angular, w) {
        let clamped = if l2 <= max_sq {
            s.linear
        } else {
            s.linear * (max_accel / scalar::sqrt(l2))
        };
        Some(clamped * w)
    } else if SPEED_OVER_SIZE && is_zero(s.linear) && bits::all_finite!(s.angular, w) {
        // A behaviour with nothing to do (separation with no one close, cohesion of a centred
        // agent) returns an exact zero: the careful path's result, without the call (a shortcut
        // only where code size is free).
        Some(Vec3::ZERO * w)
    } else if SPEED_OVER_SIZE {
        // `+ 0`: a fresh value, so that the careful call's result slot (it returns through
        // memory) does not become the fast path's too. It turns a −0 component into +0, which
        // the sums cannot see (they start at +0 and a round-to-nearest sum that starts at +0 is
        // never −0), nor can `linear_mass` (it squares).
        blend_term_careful(s, w, max_accel).map(|v| v + Vec3::ZERO)
    } else {
        blend_term_careful(s, w, max_accel)
    }
}

inline_policy! { cold_shared:
    /// The weighted, clamped linear term of one [`blend_direct`] item outside the fast test (zero,
    /// tiny or huge linear part, non-finite anything); `None` if the item is skipped.
    #[cold]
    fn blend_term_careful(s: Steering, w: f32, max_accel: f32) -> Option<Vec3> {
        if s.is_finite() && w.is_finite() {
            Some(clamp_len(s.linear, max_accel) * w)
        } else {
            None
        }
    }
}

/// [`blend`] for extreme magnitudes: sums formed in units of the limits with weights divided by
/// the largest `|w|`, so nothing can overflow.
fn blend_scaled(items: &[(Steering, f32)], w_max: f32, max_accel: f32, turn: f32) -> Steering {
    let mut linear = Vec3::ZERO;
    let mut angular = 0.0f32;
    let mut linear_mass = 0.0f32;
    let mut angular_mass = 0.0f32;
    for (s, w) in items {
        if !s.is_finite() || !w.is_finite() {
            continue;
        }
        let w = *w / w_max;
        if max_accel > 0.0 {
            let l = clamp_len(s.linear, max_accel) * (w / max_accel);
            linear += l;
            linear_mass += l.length_squared();
        }
        if turn > 0.0 {
            let a = clamp(s.angular, -turn, turn) * (w / turn);
            angular += a;
            angular_mass += a * a;
        }
    }
    // Every term is at most 1 long, so these squares cannot overflow.
    let linear = match dir_len(linear, 0.0) {
        Some((dir, len)) if !cancelled(linear.length_squared(), linear_mass) => {
            let scale = len * w_max;
            dir * (max_accel * if scale < 1.0 { scale } else { 1.0 })
        }
        _ => Vec3::ZERO,
    };
    let angular = if cancelled(angular * angular, angular_mass) {
        0.0
    } else {
        clamp(angular * w_max, -1.0, 1.0) * turn
    };
    Steering {
        linear: clamp_len(linear, max_accel),
        angular: crate::math::finite_or(angular, 0.0),
    }
}

/// Priority: the first item that is significant (linear length or `|angular|` above `epsilon`,
/// see [`Steering::is_significant`]). If none is, the last item is returned as is (so small final
/// corrections — e.g. arrival's last braking — still get through); an empty list, or a non-finite
/// last item, gives zero.
pub fn priority(items: &[Steering], epsilon: f32) -> Steering {
    if let Some(s) = items.iter().find(|s| s.is_significant(epsilon)) {
        return *s;
    }
    match items.last() {
        Some(s) if s.is_finite() => *s,
        _ => Steering::ZERO,
    }
}

/// Truncated budget (prioritised acceleration allocation): walk the items in priority order,
/// adding each linear part whole while its length fits in the remaining `max_accel` budget; the
/// first one that does not fit is added shortened to the remainder and the walk stops. The result
/// never exceeds `max_accel` (NaN/inf/negative `max_accel` → 0). The yaw rate is that of the first
/// item with a non-zero yaw rate. Non-finite items are skipped.
pub fn truncated_budget(items: &[Steering], max_accel: f32) -> Steering {
    let budget = non_negative(max_accel);
    let mut remaining = budget;
    let mut linear = Vec3::ZERO;
    let mut angular = 0.0f32;
    for s in items.iter().filter(|s| s.is_finite()) {
        if angular == 0.0 {
            angular = s.angular;
        }
        if remaining <= 0.0 {
            continue;
        }
        if let Some((dir, len)) = dir_len(s.linear, 0.0) {
            if len <= remaining {
                linear += s.linear;
                remaining -= len;
            } else {
                linear += dir * remaining;
                remaining = 0.0;
            }
        }
    }
    Steering {
        linear: clamp_len(linear, budget),
        angular,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Pcg32;

    /// [`blend_direct`] as it was before the one-test fast path (every check per item, zero yaw
    /// rates summed): the oracle for bit-identity.
    fn blend_direct_oracle(items: &[(Steering, f32)], max_accel: f32, turn: f32) -> Steering {
        let mut linear = Vec3::ZERO;
        let mut angular = 0.0f32;
        let mut linear_mass = 0.0f32;
        let mut angular_mass = 0.0f32;
        for (s, w) in items {
            if !s.is_finite() || !w.is_finite() {
                continue;
            }
            let l = clamp_len(s.linear, max_accel) * *w;
            linear += l;
            linear_mass += l.length_squared();
            let a = clamp(s.angular, -turn, turn) * *w;
            angular += a;
            angular_mass += a * a;
        }
        let linear = if cancelled(linear.length_squared(), linear_mass) {
            Vec3::ZERO
        } else {
            clamp_len(linear, max_accel)
        };
        let angular = if cancelled(angular * angular, angular_mass) {
            0.0
        } else {
            clamp(angular, -turn, turn)
        };
        Steering { linear, angular }
    }

    fn value(rng: &mut Pcg32) -> f32 {
        match rng.below(20) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => -f32::INFINITY,
            3 => 1.0e20,
            4 => 1.0e-25,
            5 => 0.0,
            6 => -0.0,
            _ => rng.range_f32(-12.0, 12.0),
        }
    }

    fn bits(s: Steering) -> [u32; 4] {
        [
            s.linear.x.to_bits(),
            s.linear.y.to_bits(),
            s.linear.z.to_bits(),
            s.angular.to_bits(),
        ]
    }

    /// Magnitudes spread over the whole direct range (weights and limits 10⁻¹⁵..10¹⁵).
    fn log_uniform(rng: &mut Pcg32, lo: f32, hi: f32) -> f32 {
        let e = rng.range_f32(lo.log10(), hi.log10());
        let m = libm::powf(10.0, e);
        if rng.below(2) == 0 {
            m
        } else {
            -m
        }
    }

    /// The lazily summed mass (skipped when [`mass_bound`] settles the test) against the oracle
    /// that always sums it, on sums built to (nearly) cancel at every scale, on long lists (the
    /// bound is only used up to 1024 items) and on extreme weights and limits.
    #[test]
    fn lazy_cancellation_mass_matches_the_oracle() {
        let mut rng = Pcg32::seeded(42);
        let mut cancelled_cases = 0;
        for case in 0..40_000 {
            let n = match rng.below(8) {
                0 => 1 + rng.below(1100) as usize,
                _ => 1 + rng.below(6) as usize,
            };
            let max_accel = match rng.below(4) {
                0 => log_uniform(&mut rng, 1.0e-15, 1.0e15).abs(),
                1 => [0.0, 1.0e-16, 1.0e-20, 3.0e-19][rng.below(4) as usize],
                _ => 8.0,
            };
            let scale = log_uniform(&mut rng, 1.0e-12, 1.0e12).abs();
            let mut items = [(Steering::ZERO, 0.0f32); 1100];
            let mut k = 0;
            while k < n {
                let w = if rng.below(3) == 0 {
                    log_uniform(&mut rng, 1.0e-15, 1.0e15)
                } else {
                    rng.range_f32(-2.0, 2.0)
                };
                let v = Vec3::new(
                    rng.range_f32(-1.0, 1.0),
                    rng.range_f32(-1.0, 1.0),
                    rng.range_f32(-1.0, 1.0),
                ) * scale;
                items[k] = (Steering::linear(v), w);
                k += 1;
                if k < n && rng.below(2) == 0 {
                    // Its mirror image, a few ulp off: the pair (nearly) cancels.
                    let nudge = 1.0 + rng.range_f32(-4.0, 4.0) * f32::EPSILON;
                    items[k] = (Steering::linear(v * nudge), -w);
                    k += 1;
                }
            }
            let items = &items[..n];
            let w_max = max_weight(items);
            const SAFE: f32 = 1.0e15;
            if !(w_max > 0.0 && w_max <= SAFE && max_accel <= SAFE && w_max >= 1.0 / SAFE) {
                continue;
            }
            let want = blend_direct_oracle(items, max_accel, 6.0);
            if want.linear == Vec3::ZERO {
                cancelled_cases += 1;
            }
            assert_eq!(
                bits(blend_direct(items, w_max, max_accel, 6.0)),
                bits(want),
                "case {case}: n {n}, max_accel {max_accel}, scale {scale}"
            );
        }
        assert!(cancelled_cases > 1000, "{cancelled_cases}");
    }

    /// [`blend_term`] (with its zero-term shortcut on 64-bit hosts) against the per-item rule
    /// it replaces, on zero, signed-zero, subnormal and tiny linear parts mixed with NaN/inf
    /// yaw rates and weights, and on ordinary and special items.
    #[test]
    fn blend_term_matches_the_careful_rule() {
        fn oracle(s: &Steering, w: f32, max_accel: f32) -> Option<Vec3> {
            if s.is_finite() && w.is_finite() {
                Some(clamp_len(s.linear, max_accel) * w)
            } else {
                None
            }
        }
        // Bits up to the sign of zero (not significant, see `blend_term`).
        let as_bits = |v: Option<Vec3>| {
            v.map(|v| v + Vec3::ZERO)
                .map(|v| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()])
        };
        let mut rng = Pcg32::seeded(43);
        let tiny = [
            0.0,
            -0.0,
            1.0e-45,
            -1.0e-45,
            1.0e-40,
            1.0e-20,
            f32::MIN_POSITIVE,
        ];
        let mut zeros = 0;
        for case in 0..200_000 {
            let mut c = || match rng.below(4) {
                0 => value(&mut rng),
                1 => rng.range_f32(-12.0, 12.0),
                _ => tiny[rng.below(tiny.len() as u32) as usize],
            };
            let mut linear = Vec3::new(c(), c(), c());
            if rng.below(4) == 0 {
                // Signed zeros only.
                let z = |b: u32| if b == 0 { 0.0 } else { -0.0 };
                linear = Vec3::new(z(rng.below(2)), z(rng.below(2)), z(rng.below(2)));
            }
            let angular = match rng.below(3) {
                0 => 0.0,
                1 => value(&mut rng),
                _ => rng.range_f32(-3.0, 3.0),
            };
            let w = match rng.below(3) {
                0 => value(&mut rng),
                _ => rng.range_f32(-2.0, 2.0),
            };
            let max_accel = [8.0, 0.0, 1.0e-3, 30.0, 1.0e-20][rng.below(5) as usize];
            let s = Steering { linear, angular };
            if is_zero(linear) {
                zeros += 1;
            }
            assert_eq!(
                as_bits(blend_term(&s, w, max_accel, max_accel * max_accel)),
                as_bits(oracle(&s, w, max_accel)),
                "case {case}: {s:?} w {w} max_accel {max_accel}"
            );
        }
        assert!(zeros > 5_000, "{zeros}");
    }

    #[test]
    fn blend_fast_path_matches_the_per_item_oracle() {
        let mut rng = Pcg32::seeded(41);
        for case in 0..50_000 {
            let mut items = [(Steering::ZERO, 0.0f32); 5];
            let n = rng.below(6) as usize;
            for item in items.iter_mut().take(n) {
                let ordinary = rng.below(3) != 0;
                let mut v = || {
                    if ordinary {
                        rng.range_f32(-12.0, 12.0)
                    } else {
                        value(&mut rng)
                    }
                };
                let linear = Vec3::new(v(), v(), v());
                let angular = match rng.below(3) {
                    0 => 0.0,
                    1 => -0.0,
                    _ => value(&mut rng),
                };
                let w = match rng.below(4) {
                    0 => value(&mut rng),
                    _ => rng.range_f32(-2.0, 2.0),
                };
                *item = (Steering { linear, angular }, w);
            }
            let max_accel = [8.0, 0.0, 1.0e-3, 30.0][rng.below(4) as usize];
            let turn = [6.0, 0.0, 100.0][rng.below(3) as usize];
            assert_eq!(
                bits(blend_direct(
                    &items[..n],
                    max_weight(&items[..n]),
                    max_accel,
                    turn
                )),
                bits(blend_direct_oracle(&items[..n], max_accel, turn)),
                "case {case}: {:?}",
                &items[..n]
            );
        }
    }
}
