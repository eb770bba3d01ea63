//! The planar kernel with its per-tick constants folded once: [`TickConsts`] and
//! [`planar_velocity_tick_with`].

use super::kernels::{accelerate_clamped, air_cap, WishDir};
use super::params::{AccelBudget, AccelStyle, FrictionMath, FrictionModel, MoveParams};
use crate::math::scalar::{positive, positive_bits};
use crate::math::target::inline_policy;
use crate::math::{scalar, Vec2};

/// Bit pattern of `f32::MAX`: a non-negative float (or NaN) is finite iff its bits are at most this.
pub(super) const MAX_BITS: u32 = crate::math::bits::MAX_FINITE;
/// Bit pattern of `1e-30`, the smallest squared speed the fast reciprocal square root accepts.
const RSQRT_MIN_BITS: u32 = 0x0da2_4260;

/// The constants of [`super::planar_velocity_tick`] for one `MoveParams` and one tick length,
/// folded once; [`planar_velocity_tick_with`] takes them in place of the params and `dt`. Build it
/// with [`TickConsts::new`] whenever the params or `dt` change. Plain data, `Copy`.
///
/// A game's `MoveParams` change rarely and its fixed tick length never, yet
/// [`super::planar_velocity_tick`] re-derives `decel·dt`, `accel·dt`, the squared stop threshold
/// and the model/style dispatch on every call. [`TickConsts::new`] does that once per (`params`,
/// `dt`); [`planar_velocity_tick_with`] then does only what depends on the velocity and the wish,
/// with the range tests done on the float's bit pattern (one integer compare instead of three
/// float compares: on a Cortex-M0 every float compare is a library call).
///
/// **Same bits**: `planar_velocity_tick_with(v, wish, &k, grounded)` returns exactly
/// `planar_velocity_tick(v, wish, &params, grounded, dt)` for every input, NaN and infinities
/// included (tested on random and special inputs for every preset). Only products whose rounding
/// is the same whether formed once or per tick are folded: `decel·dt` (constant friction) and
/// `accel·dt` (per-second budget) are single products either way, while Quake's
/// `control·friction·dt` and `accel·wishspeed·dt` keep their per-tick order.
///
/// # Example
///
/// ```
/// use hopkit::math::Vec2;
/// use hopkit::movement::{
///     planar_velocity_tick, planar_velocity_tick_with, MoveParams, TickConsts, WishDir,
/// };
///
/// let params = MoveParams::seed();
/// let dt = 1.0 / 60.0;
/// let k = TickConsts::new(&params, dt); // once, when params or the tick rate change
/// let wish = WishDir::from_world(Vec2::new(0.6, -0.8));
/// let mut v = Vec2::new(6.0, -4.0);
/// for _ in 0..60 {
///     let reference = planar_velocity_tick(v, wish, &params, true, dt);
///     v = planar_velocity_tick_with(v, wish, &k, true);
///     assert_eq!(v, reference);
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TickConsts {
    /// Tick length, seconds.
    pub(super) dt: f32,
    /// `FrictionModel::StopSpeed` (else constant deceleration).
    pub(super) stop_speed_model: bool,
    /// Constant model: `decel·dt` (units/s per tick); stop-speed model: the coefficient (1/s).
    pub(super) friction: f32,
    /// Stop-speed model: `stop_speed`, units/s.
    pub(super) stop_speed: f32,
    /// [`FrictionMath::SqrtDivide`] (else [`FrictionMath::Rsqrt`]).
    pub(super) exact_friction: bool,
    /// Smallest bit pattern of a squared planar speed that friction treats as moving
    /// (`> stop_threshold²`, and `≥ 1e-30` with [`FrictionMath::Rsqrt`]); [`NOTHING_MOVES`] when
    /// nothing moves (NaN threshold).
    pub(super) moving_min_bits: u32,
    /// `MAX_BITS − moving_min_bits`, so that "moving" is one unsigned compare,
    /// `bits.wrapping_sub(moving_min_bits) ≤ moving_span` (bits below the minimum wrap above the
    /// span); 0 when nothing moves.
    pub(super) moving_span: u32,
    /// `AccelBudget::WishSpeedScaled` (else per second).
    pub(super) wish_scaled: bool,
    /// Ground: `max_speed`, units/s.
    pub(super) max_speed: f32,
    /// Ground budget factor: `accel·dt` (per second) or `accel` (wish-scaled, times `w·dt` per tick).
    pub(super) accel: f32,
    /// Air: `air_max_speed`, units/s.
    pub(super) air_max_speed: f32,
    /// Air budget factor, as `accel`.
    pub(super) air_accel: f32,
    /// Air: `air_wish_cap`, units/s.
    pub(super) air_wish_cap: f32,
    /// `AccelStyle::ClampedDelta` (else projection).
    pub(super) clamped_delta: bool,
}

/// The smallest bit pattern of a squared planar speed `s2` that friction treats as moving
/// (`s2 > stop_threshold²` and `s2 ≥ 1e-30`), `u32::MAX` when nothing moves (NaN threshold): for
/// `s2 ≥ 0` (a sum of squares, or NaN) the float order is the bit order, so "moving" is
/// `(moving_min_bits(t)..=MAX_BITS).contains(&s2.to_bits())` (the upper end excludes inf and NaN).
#[inline]
pub(super) fn moving_min_bits(stop_threshold: f32) -> u32 {
    let above = exact_moving_min_bits(stop_threshold);
    if above > RSQRT_MIN_BITS {
        above
    } else {
        RSQRT_MIN_BITS
    }
}

/// [`moving_min_bits`] without the rsqrt's floor, for [`FrictionMath::SqrtDivide`]: the bits of
/// the next float after `stop_threshold²` (`s2 > stop_threshold²`), `u32::MAX` for a NaN threshold.
#[inline]
pub(super) fn exact_moving_min_bits(stop_threshold: f32) -> u32 {
    let thr2 = stop_threshold * stop_threshold;
    if crate::math::bits::abs_bits(thr2) > crate::math::bits::INF {
        return u32::MAX; // NaN (tested on the bits: no float compare where floats are software)
    }
    thr2.to_bits().saturating_add(1) // the next float after thr2 (thr2 ≥ 0)
}

/// [`TickConsts`]'s `(moving_min_bits, moving_span)` for a [`moving_min_bits`]: `(min, MAX_BITS −
/// min)`, or, when nothing moves (`min > MAX_BITS`), `(NOTHING_MOVES, 0)`.
#[inline]
fn moving_range(min: u32) -> (u32, u32) {
    if min <= MAX_BITS {
        (min, MAX_BITS - min)
    } else {
        (NOTHING_MOVES, 0)
    }
}

/// [`TickConsts`]'s `moving_min_bits` when nothing moves (NaN threshold): the bits of −1.0. Above
/// [`MAX_BITS`], so `min..=MAX_BITS` is empty, and with a span of 0 the one pattern the one-compare
/// test admits is −1.0's, which a squared speed `x·x + y·y` (never negative) cannot have.
const NOTHING_MOVES: u32 = 0xbf80_0000;

impl TickConsts {
    /// Fold `params` for ticks of `dt` seconds. Any values are accepted (the result then behaves
    /// exactly as [`super::planar_velocity_tick`] with them: NaN parameters give the same guarded
    /// results there and here).
    #[inline]
    pub fn new(params: &MoveParams, dt: f32) -> TickConsts {
        let stop_speed_model = params.friction_model == FrictionModel::StopSpeed;
        let wish_scaled = params.accel_budget == AccelBudget::WishSpeedScaled;
        let per_tick = |a: f32| if wish_scaled { a } else { a * dt };
        let exact_friction = params.friction_math == FrictionMath::SqrtDivide;
        let (moving_min_bits, moving_span) = moving_range(if exact_friction {
            exact_moving_min_bits(params.stop_threshold)
        } else {
            moving_min_bits(params.stop_threshold)
        });
        TickConsts {
            dt,
            stop_speed_model,
            friction: if stop_speed_model {
                params.friction
            } else {
                params.friction * dt
            },
            stop_speed: params.stop_speed,
            exact_friction,
            moving_min_bits,
            moving_span,
            wish_scaled,
            max_speed: params.max_speed,
            accel: per_tick(params.accel),
            air_max_speed: params.air_max_speed,
            air_accel: per_tick(params.air_accel),
            air_wish_cap: params.air_wish_cap,
            clamped_delta: params.accel_style == AccelStyle::ClampedDelta,
        }
    }

    /// The tick length this kernel was built for, seconds.
    pub fn dt(&self) -> f32 {
        self.dt
    }

    inline_policy! { hot_hint:
    /// [`planar_velocity_tick_with`]'s body.
    pub(crate) fn tick(&self, v: Vec2, wish: WishDir, grounded: bool) -> Vec2 {
        if grounded {
            let v = self.friction(v);
            let w = self.max_speed * wish.scale;
            self.accelerate(v, wish, w, self.budget(self.accel, w))
        } else {
            let w = self.air_max_speed * wish.scale;
            let cap = air_cap(w, self.air_wish_cap);
            self.accelerate(v, wish, cap, self.budget(self.air_accel, w))
        }
    }
    }

    /// Ground friction ([`super::friction`]).
    #[inline]
    pub(crate) fn friction(&self, v: Vec2) -> Vec2 {
        let s2 = v.x * v.x + v.y * v.y;
        // `moving_min_bits ≤ bits ≤ MAX_BITS` as one unsigned compare (see `moving_span`).
        if s2.to_bits().wrapping_sub(self.moving_min_bits) > self.moving_span {
            return Vec2::ZERO;
        }
        if self.exact_friction {
            return self.friction_exact(v, s2);
        }
        let inv = scalar::rsqrt_in_range(s2);
        let k = 1.0 - self.drop(s2 * inv) * inv;
        if !positive(k) {
            return Vec2::ZERO;
        }
        Vec2::new(v.x * k, v.y * k)
    }

    /// [`Self::friction`]'s [`FrictionMath::SqrtDivide`] form, for a moving `v` with `|v|² = s2`.
    #[inline]
    fn friction_exact(&self, v: Vec2, s2: f32) -> Vec2 {
        let speed = scalar::sqrt(s2);
        let k = (speed - self.drop(speed)) / speed;
        if !positive(k) {
            return Vec2::ZERO;
        }
        Vec2::new(v.x * k, v.y * k)
    }

    /// The speed friction removes this tick at `speed` (read only by the stop-speed model).
    #[inline]
    fn drop(&self, speed: f32) -> f32 {
        if self.stop_speed_model {
            let control = if speed < self.stop_speed {
                self.stop_speed
            } else {
                speed
            };
            control * self.friction * self.dt
        } else {
            self.friction
        }
    }

    #[inline]
    fn budget(&self, factor: f32, w: f32) -> f32 {
        if self.wish_scaled {
            factor * w * self.dt
        } else {
            factor
        }
    }

    #[inline]
    fn accelerate(&self, v: Vec2, wish: WishDir, cap: f32, budget: f32) -> Vec2 {
        if self.clamped_delta {
            return if wish.scale > 0.0 {
                accelerate_clamped(v, wish.dir, cap, budget)
            } else {
                v
            };
        }
        let add = cap - (v.x * wish.dir.x + v.y * wish.dir.y);
        if !positive(add) {
            return v;
        }
        let s = if positive_less(add, budget) {
            add
        } else {
            budget
        };
        Vec2::new(v.x + wish.dir.x * s, v.y + wish.dir.y * s)
    }
}

/// One tick of planar velocity with the constants `k` (built by [`TickConsts::new`] from the
/// params and `dt`): on the ground friction then ground acceleration, in the air air acceleration
/// only. Bit for bit [`super::planar_velocity_tick`]`(v, wish, &params, grounded, dt)`.
#[inline(always)]
pub fn planar_velocity_tick_with(v: Vec2, wish: WishDir, k: &TickConsts, grounded: bool) -> Vec2 {
    k.tick(v, wish, grounded)
}

/// `a < b` for a positive `a` (`positive(a)`): false unless `b` is positive too, and then positive
/// floats order like their bit patterns.
#[inline]
fn positive_less(a: f32, b: f32) -> bool {
    if scalar::SOFT_FLOAT {
        positive_less_bits(a, b)
    } else {
        a < b
    }
}

#[inline]
fn positive_less_bits(a: f32, b: f32) -> bool {
    positive_bits(b) && a.to_bits() < b.to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::planar_velocity_tick;
    use crate::rng::Pcg32;

    #[test]
    fn bit_compares_are_the_float_compares() {
        let mut rng = Pcg32::seeded(3);
        let specials = [
            0u32,
            1,
            0x3f80_0000,
            0x7f7f_ffff,
            0x7f80_0000,
            0x7f80_0001,
            0x7fc0_0000,
        ];
        let all: Vec<u32> = specials
            .iter()
            .flat_map(|&b| [b, b | 0x8000_0000])
            .chain((0..3000).map(|_| rng.next_u32()))
            .collect();
        for &a in &all {
            let x = f32::from_bits(a);
            assert_eq!(positive_bits(x), x > 0.0, "{a:#010x}");
            if !(x > 0.0) {
                continue;
            }
            for &b in &all {
                let y = f32::from_bits(b);
                assert_eq!(positive_less_bits(x, y), x < y, "{a:#010x} < {b:#010x}");
            }
        }
    }

    #[test]
    fn same_bits_as_the_reference_kernel() {
        let specials = [
            0.0,
            -0.0,
            1e-20,
            1e-16,
            3.0,
            -7.5,
            1e19,
            1e30,
            f32::MAX,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            // A NaN with every bit set (its squared speed can keep the pattern: the top of the
            // unsigned range the moving test wraps over).
            f32::from_bits(u32::MAX),
        ];
        let mut presets = [
            MoveParams::seed(),
            MoveParams::seed_figure(),
            MoveParams::quakeworld(),
            MoveParams::quake3(),
            MoveParams::source(),
            MoveParams::seed(),
            MoveParams::quakeworld(),
        ];
        presets[5].stop_threshold = 0.5;
        presets[6].stop_threshold = f32::NAN;
        presets[6].accel_style = AccelStyle::ClampedDelta;
        // Every preset in both friction forms.
        let exact = presets.map(|p| MoveParams {
            friction_math: FrictionMath::SqrtDivide,
            ..p
        });
        let mut rng = Pcg32::seeded(7);
        for params in presets.into_iter().chain(exact) {
            for dt in [1.0 / 60.0, 0.01, 0.05, 1e-7] {
                let k = TickConsts::new(&params, dt);
                assert_eq!(k.dt(), dt);
                for i in 0..4000 {
                    let v = if i % 13 == 0 {
                        let n = specials.len();
                        Vec2::new(specials[(i / 13) % n], specials[(i / 13 / n) % n])
                    } else {
                        let r = [1.0, 30.0, 400.0][i % 3];
                        Vec2::new(rng.range_f32(-r, r), rng.range_f32(-r, r))
                    };
                    let w = match i % 29 {
                        0 => WishDir::NONE,
                        1 => WishDir::new(Vec2::new(f32::NAN, 0.0), 1.0),
                        _ => WishDir::from_world(Vec2::new(
                            rng.range_f32(-1.2, 1.2),
                            rng.range_f32(-1.2, 1.2),
                        )),
                    };
                    for grounded in [true, false] {
                        let want = planar_velocity_tick(v, w, &params, grounded, dt);
                        let got = k.tick(v, w, grounded);
                        assert_eq!(
                            (got.x.to_bits(), got.y.to_bits()),
                            (want.x.to_bits(), want.y.to_bits()),
                            "{params:?} dt {dt} v {v:?} wish {w:?} grounded {grounded}"
                        );
                    }
                }
            }
        }
    }
}
