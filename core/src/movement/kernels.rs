//! The per-tick planar kernels: friction, accelerate, air-accelerate — trig-free, on world-space
//! planar vectors (`x` = world X, `y` = world Z).
//!
//! Cost per tick (f32 operations; `sqrt` is `math::scalar::sqrt`):
//!
//! | kernel | sqrt | div | mul/add/cmp |
//! |---|---|---|---|
//! | [`friction`], [`FrictionMath::Rsqrt`] (default) | 0: one `scalar::rsqrt` (skipped when stopped) | 0 | ≈ 8 |
//! | [`friction`], [`FrictionMath::SqrtDivide`] | 1 (skipped when stopped) | 1 | ≈ 4 |
//! | [`accelerate`] (projection) | 0 | 0 | ≈ 8 |
//! | [`accelerate_clamped`] | 1 | 1 | ≈ 10 |
//! | [`WishDir::from_world`] / [`world_wish`] (cacheable) | 1 | 1 | ≈ 8 |
//! | [`world_wish_unit`] (already-unit stick wish) | 0 | 0 | ≈ 6 |
//!
//! So a ground tick is one reciprocal square root (or one sqrt and one divide), an air tick none;
//! the wish conversion adds one sqrt and one divide once per `step` call (or never, if the caller
//! caches a [`WishDir`]). The seed's `GetNextPlayerVector` needs three sqrts and four divides for
//! the same result.

use super::params::{AccelBudget, AccelStyle, FrictionMath, FrictionModel, MoveParams};
use crate::math::target::inline_policy;
use crate::math::{bits, scalar, Vec2, NORMALIZE_EPSILON_SQ};

/// Which movement keys a wish came from, in the view frame — what Quake III's `movementDir`
/// tells CPM's air step ([`MoveParams::cpm_air`](super::MoveParams::cpm_air)): only forward/back held (air control turns the
/// velocity), only strafe held (strafe acceleration with its wish-speed cap), or anything else.
/// Read only by the CPM air step (`MoveParams::cpm_air`); every other rule ignores it.
///
/// A component counts as "not held" when it is exactly zero, as Quake's integer `forwardmove` /
/// `rightmove` are: keyboard input and the stick module's axis snapping give exact zeros, a raw
/// analog stick rarely does (then the wish is [`WishKeys::Mixed`], plain air acceleration).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum WishKeys {
    /// Both components held (diagonal), or not known (a wish built from a world vector).
    #[default]
    Mixed = 0,
    /// Only forward and/or back (`right == 0`, `front != 0`): Quake III `movementDir` 0 or 4.
    ForwardBack = 1,
    /// Only strafe (`front == 0`, `right != 0`): Quake III `movementDir` 2 or 6.
    Strafe = 2,
}

impl WishKeys {
    /// Classify a view-frame wish `(front, right)` (exact zeros, see [`WishKeys`]); no input at
    /// all, and NaN components, are [`WishKeys::Mixed`].
    #[inline]
    pub(crate) fn of(front: f32, right: f32) -> WishKeys {
        if right == 0.0 {
            if front == 0.0 {
                WishKeys::Mixed
            } else {
                WishKeys::ForwardBack
            }
        } else if front == 0.0 {
            WishKeys::Strafe
        } else {
            WishKeys::Mixed
        }
    }
}

/// A world-space planar wish: unit direction and analog scale.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct WishDir {
    /// Unit planar direction in world `(x, z)`, or zero for no input.
    pub dir: Vec2,
    /// Analog scale in `[0, 1]`: the wish speed is `max_speed·scale`. 0 for no input.
    pub scale: f32,
    /// Which keys the wish came from (read only by the CPM air step). [`WishKeys::Mixed`] from
    /// [`WishDir::from_world`]; [`world_wish`] and [`world_wish_unit`] classify the view-frame
    /// wish.
    pub keys: WishKeys,
}

impl WishDir {
    /// No input.
    pub const NONE: WishDir = WishDir {
        dir: Vec2::ZERO,
        scale: 0.0,
        keys: WishKeys::Mixed,
    };

    /// A wish with a direction and scale and no key information ([`WishKeys::Mixed`]), as a struct
    /// literal would build it.
    #[inline]
    pub const fn new(dir: Vec2, scale: f32) -> WishDir {
        WishDir {
            dir,
            scale,
            keys: WishKeys::Mixed,
        }
    }

    /// The same wish with `keys` set.
    #[inline]
    pub const fn with_keys(self, keys: WishKeys) -> WishDir {
        WishDir { keys, ..self }
    }

    /// From a world-space planar wish vector whose length (≤ 1, longer clamps to 1) is the analog
    /// scale. Zero, tiny (length < 1e-6) or non-finite input gives [`WishDir::NONE`].
    /// One sqrt, one divide.
    #[inline]
    pub fn from_world(w: Vec2) -> WishDir {
        let l2 = w.length_squared();
        // `NORMALIZE_EPSILON_SQ < l2 ≤ f32::MAX` (NaN fails) as one unsigned compare.
        if !bits::in_range_to_max(l2, NORMALIZE_EPSILON_SQ.to_bits() + 1) {
            return WishDir::NONE;
        }
        let len = scalar::sqrt(l2);
        let inv = 1.0 / len;
        WishDir {
            dir: Vec2::new(w.x * inv, w.y * inv),
            scale: if len < 1.0 { len } else { 1.0 },
            keys: WishKeys::Mixed,
        }
    }

    /// Replace a non-finite direction with zero and clamp the scale into `[0, 1]` (NaN → 0).
    /// Does not renormalise `dir`; [`WishDir`]s built by this module are already unit.
    #[inline]
    pub fn sanitized(self) -> WishDir {
        if !self.dir.is_finite() {
            return WishDir::NONE;
        }
        // `math::clamp(s, 0, 1)` with its constant bounds folded: NaN → 0, −0 stays −0.
        let s = self.scale;
        WishDir {
            dir: self.dir,
            scale: if s > 1.0 {
                1.0
            } else if s >= 0.0 {
                s
            } else {
                0.0
            },
            keys: self.keys,
        }
    }
}

/// The planar unit forward `(x, z)` of a view with `yaw` radians (yaw 0 faces −Z, positive turns
/// left). Uses sin/cos: call it when the view turns, not in the per-tick path. Non-finite yaw → 0.
#[inline]
pub fn facing_from_yaw(yaw: f32) -> Vec2 {
    crate::math::yaw_forward(crate::math::finite_or(yaw, 0.0))
}

/// Rotate a `(front, right)` wish into world space with the view's planar unit `facing` `(x, z)`
/// and normalise it: `world = facing·front + right_of(facing)·right`, `right_of(f) = (−f.y, f.x)`.
///
/// `wish` length ≤ 1 is the analog scale (longer clamps to 1); NaN/inf wish → no input.
/// A `facing` that is not unit (|len² − 1| > 1e-4) is normalised first (one extra sqrt); zero or
/// non-finite facing is treated as yaw 0 (−Z). One sqrt and one divide in the normal case.
#[inline]
pub fn world_wish(wish: Vec2, facing: Vec2) -> WishDir {
    let f = unit_facing(facing);
    let right = f.perp();
    let w = Vec2::new(
        f.x * wish.x + right.x * wish.y,
        f.y * wish.x + right.y * wish.y,
    );
    let d = WishDir::from_world(w);
    if d.scale > 0.0 {
        d.with_keys(WishKeys::of(wish.x, wish.y))
    } else {
        d // no input: exactly `WishDir::NONE`
    }
}

/// World wish from an already **unit** `(front, right)` direction and an analog `magnitude` in
/// `[0, 1]` — exactly what [`crate::stick::Wish`] holds (`front`, `right`, `magnitude`) — with no
/// sqrt when `facing` is unit. The direction is trusted to be unit (the stick module guarantees it);
/// non-finite values or a magnitude ≤ 0 give [`WishDir::NONE`]; the magnitude is clamped to 1.
#[inline]
pub fn world_wish_unit(front: f32, right: f32, magnitude: f32, facing: Vec2) -> WishDir {
    if !(magnitude > 0.0) || !front.is_finite() || !right.is_finite() {
        return WishDir::NONE;
    }
    let f = unit_facing(facing);
    let r = f.perp();
    WishDir {
        dir: Vec2::new(f.x * front + r.x * right, f.y * front + r.y * right),
        scale: if magnitude < 1.0 { magnitude } else { 1.0 },
        keys: WishKeys::of(front, right),
    }
}

/// `facing` if it is unit within 1e-4 (in squared length), else normalised, else yaw-0 forward.
#[inline]
pub(super) fn unit_facing(facing: Vec2) -> Vec2 {
    let l2 = facing.length_squared();
    if (l2 - 1.0).abs() <= 1.0e-4 {
        return facing;
    }
    facing.try_normalize().unwrap_or(Vec2::new(0.0, -1.0))
}

/// Is a squared planar speed `s2` moving for friction: above `stop_threshold²`, finite, and (for
/// [`FrictionMath::Rsqrt`], whose estimate needs it) at least 1e-30? Otherwise friction stops the
/// character dead.
#[inline]
fn is_moving(s2: f32, stop_threshold: f32, math: FrictionMath) -> bool {
    if scalar::SOFT_FLOAT {
        // The same test as one integer range test: float compares are library calls here.
        let min = if math == FrictionMath::SqrtDivide {
            super::prepared::exact_moving_min_bits(stop_threshold)
        } else {
            super::prepared::moving_min_bits(stop_threshold)
        };
        (min..=super::prepared::MAX_BITS).contains(&s2.to_bits())
    } else if math == FrictionMath::SqrtDivide {
        // An infinite `s2` passes here and stops dead below (`∞/∞` is NaN): the same result.
        s2 > stop_threshold * stop_threshold
    } else {
        // Three compares in this order (`RangeInclusive::contains` puts the bounds the other way
        // round and measured 3 instructions more per ground character on x86_64).
        #[allow(clippy::manual_range_contains)]
        let in_range = s2 > stop_threshold * stop_threshold && s2 >= 1.0e-30 && s2 <= f32::MAX;
        in_range
    }
}

/// Ground friction in `math`'s form, with the speed removed per tick given by `drop(speed)`:
/// `v *= k`, zero when `k` is not positive (or not moving, see [`is_moving`]). Every friction
/// function here is this one.
///
/// - [`FrictionMath::Rsqrt`]: `k = 1 − drop·inv` with `inv = rsqrt(|v|²)` (one
///   [`scalar::rsqrt_in_range`], no sqrt, no divide; the speed `|v|²·inv` is formed only when
///   `drop` reads it). Written as `1 − drop·inv`, not `(speed − drop)·inv`, so the small error of
///   the fast reciprocal only touches the drop, never the kept speed: at high tick rates nothing
///   accumulates.
/// - [`FrictionMath::SqrtDivide`]: `k = (speed − drop)/speed` with `speed = sqrt(|v|²)` correctly
///   rounded: the arithmetic of Quake's `PM_Friction` (its stop test is [`is_moving`]'s).
#[inline]
fn friction_with(
    v: Vec2,
    stop_threshold: f32,
    math: FrictionMath,
    drop: impl FnOnce(f32) -> f32,
) -> Vec2 {
    let s2 = v.length_squared();
    if !is_moving(s2, stop_threshold, math) {
        return Vec2::ZERO;
    }
    let k = if math == FrictionMath::SqrtDivide {
        let speed = scalar::sqrt(s2);
        (speed - drop(speed)) / speed
    } else {
        let inv = scalar::rsqrt_in_range(s2);
        1.0 - drop(s2 * inv) * inv
    };
    if !(k > 0.0) {
        return Vec2::ZERO;
    }
    v * k
}

/// Quake stop-speed friction: `control = max(speed, stop_speed)`, `drop = control·friction·dt`,
/// `v *= max(speed − drop, 0)/speed`; `speed ≤ stop_threshold` → zero. `math` picks how the speed
/// is computed ([`FrictionMath`]).
#[inline]
pub fn friction_stopspeed(
    v: Vec2,
    friction: f32,
    stop_speed: f32,
    stop_threshold: f32,
    dt: f32,
    math: FrictionMath,
) -> Vec2 {
    friction_with(v, stop_threshold, math, |speed| {
        let control = if speed < stop_speed {
            stop_speed
        } else {
            speed
        };
        control * friction * dt
    })
}

/// The seed's constant-deceleration friction: `drop = decel·dt`, `v *= max(speed − drop, 0)/speed`
/// (the seed writes it as `v + normalize(v)·(−Clip(|v|, 0, drop))`, equal up to rounding);
/// `speed ≤ stop_threshold` → zero. `math` picks how the speed is computed ([`FrictionMath`]).
#[inline]
pub fn friction_constant(
    v: Vec2,
    decel: f32,
    stop_threshold: f32,
    dt: f32,
    math: FrictionMath,
) -> Vec2 {
    friction_with(v, stop_threshold, math, |_| decel * dt)
}

/// Ground friction with the model, form and constants of `params`: [`friction_stopspeed`] or
/// [`friction_constant`].
#[inline]
pub fn friction(v: Vec2, params: &MoveParams, dt: f32) -> Vec2 {
    match params.friction_model {
        FrictionModel::StopSpeed => friction_stopspeed(
            v,
            params.friction,
            params.stop_speed,
            params.stop_threshold,
            dt,
            params.friction_math,
        ),
        FrictionModel::Constant => friction_constant(
            v,
            params.friction,
            params.stop_threshold,
            dt,
            params.friction_math,
        ),
    }
}

/// [`friction`] with the moving test and the speed computed once, before the model is picked: the
/// same bits (`friction_speed_first_is_friction`), fewer instructions, so the tick
/// ([`planar_velocity_tick`]) calls this one.
#[inline]
fn friction_speed_first(v: Vec2, params: &MoveParams, dt: f32) -> Vec2 {
    friction_with(
        v,
        params.stop_threshold,
        params.friction_math,
        |speed| match params.friction_model {
            FrictionModel::StopSpeed => {
                let control = if speed < params.stop_speed {
                    params.stop_speed
                } else {
                    speed
                };
                control * params.friction * dt
            }
            FrictionModel::Constant => params.friction * dt,
        },
    )
}

/// Per-tick speed budget `a`: `accel·dt` ([`AccelBudget::PerSecond`]) or `accel·wishspeed·dt`
/// ([`AccelBudget::WishSpeedScaled`]).
#[inline]
pub(crate) fn accel_budget(accel: f32, wishspeed: f32, mode: AccelBudget, dt: f32) -> f32 {
    match mode {
        AccelBudget::PerSecond => accel * dt,
        AccelBudget::WishSpeedScaled => accel * wishspeed * dt,
    }
}

/// Projection-capped acceleration (Quake `PM_Accelerate`, the seed's add vector):
/// `s = clamp(cap − v·dir, 0, budget)`, `v += dir·s`. `dir` unit (or zero: no change).
/// No sqrt, no divide.
#[inline]
pub fn accelerate(v: Vec2, dir: Vec2, cap: f32, budget: f32) -> Vec2 {
    let add = cap - v.dot(dir);
    if !(add > 0.0) {
        return v;
    }
    let s = if add < budget { add } else { budget };
    Vec2::new(v.x + dir.x * s, v.y + dir.y * s)
}

/// Clamped-delta acceleration (Quake III's disabled alternative): `d = dir·target − v`,
/// `v += d·min(1, budget/|d|)`. Never gains speed by strafing. One sqrt, one divide.
#[inline]
pub fn accelerate_clamped(v: Vec2, dir: Vec2, target: f32, budget: f32) -> Vec2 {
    let d = Vec2::new(dir.x * target - v.x, dir.y * target - v.y);
    let d2 = d.length_squared();
    if !(d2 > budget * budget) {
        return if d2 <= f32::MAX { v + d } else { v };
    }
    let k = budget / scalar::sqrt(d2);
    Vec2::new(v.x + d.x * k, v.y + d.y * k)
}

/// Apply `params.accel_style` with the given cap/target and budget. No input (`scale == 0`) → no
/// change in either style.
#[inline]
pub(super) fn accelerate_styled(
    v: Vec2,
    wish: WishDir,
    cap: f32,
    budget: f32,
    style: AccelStyle,
) -> Vec2 {
    match style {
        AccelStyle::Projection => accelerate(v, wish.dir, cap, budget),
        AccelStyle::ClampedDelta if wish.scale > 0.0 => {
            accelerate_clamped(v, wish.dir, cap, budget)
        }
        AccelStyle::ClampedDelta => v,
    }
}

/// Ground acceleration: wish speed `W = max_speed·scale`, cap `W`, budget from `accel`.
#[inline]
pub fn ground_accelerate(v: Vec2, wish: WishDir, params: &MoveParams, dt: f32) -> Vec2 {
    let w = params.max_speed * wish.scale;
    let a = accel_budget(params.accel, w, params.accel_budget, dt);
    accelerate_styled(v, wish, w, a, params.accel_style)
}

/// The air cap `L = min(air_max_speed·scale, air_wish_cap)` and budget `a` (from the *uncapped*
/// air wish speed) for one air tick — the numbers the strafe oracles are written in.
#[inline]
pub fn air_cap_and_budget(params: &MoveParams, scale: f32, dt: f32) -> (f32, f32) {
    let w = params.air_max_speed * scale;
    let cap = air_cap(w, params.air_wish_cap);
    (
        cap,
        accel_budget(params.air_accel, w, params.accel_budget, dt),
    )
}

/// `min(w, air_wish_cap)`, written `cap < w` first so that an infinite cap (no separate air cap:
/// Quake III, the seed) folds away when the params are a constant, and so that a NaN `w` stays NaN
/// (the acceleration then adds nothing, as on the ground) instead of becoming the cap.
#[inline]
pub(super) fn air_cap(w: f32, air_wish_cap: f32) -> f32 {
    if air_wish_cap < w {
        air_wish_cap
    } else {
        w
    }
}

/// Air acceleration (QuakeWorld/Source `PM_AirAccelerate`, Quake III/seed air accelerate):
/// projection capped at `L`, budget `a` from [`air_cap_and_budget`].
#[inline]
pub fn air_accelerate(v: Vec2, wish: WishDir, params: &MoveParams, dt: f32) -> Vec2 {
    let (cap, a) = air_cap_and_budget(params, wish.scale, dt);
    accelerate_styled(v, wish, cap, a, params.accel_style)
}

inline_policy! { hot_hint:
/// One tick of planar velocity — the seed's `GetNextPlayerVector` generalised by `params`:
/// on the ground [`friction`] then [`ground_accelerate`], in the air [`air_accelerate`] only.
pub fn planar_velocity_tick(
    v: Vec2,
    wish: WishDir,
    params: &MoveParams,
    grounded: bool,
    dt: f32,
) -> Vec2 {
    if grounded {
        ground_accelerate(friction_speed_first(v, params, dt), wish, params, dt)
    } else {
        air_accelerate(v, wish, params, dt)
    }
}
}

/// Cosine of the optimal strafe angle θ* between velocity and wish direction for speed `v`, air cap
/// `cap` (L) and budget `a`: `(L − a)/v` if `0 < L − a < v`, 0 (90°) if `L − a ≤ 0`, 1 (0°) if
/// `L − a ≥ v`. Trig-free; one divide. Non-finite inputs give 0.
#[inline]
pub fn optimal_strafe_cos(v: f32, cap: f32, a: f32) -> f32 {
    let m = cap - a;
    if v.is_nan() || !(m > 0.0) {
        return 0.0;
    }
    if !(m < v) {
        return if m.is_finite() { 1.0 } else { 0.0 };
    }
    m / v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative tolerance: `libm`'s sqrt is correctly rounded, `micromath`'s (Heron-refined) is not.
    const TOL: f32 = if cfg!(feature = "micromath") {
        1e-5
    } else {
        1e-6
    };

    #[test]
    fn friction_speed_first_is_friction() {
        let specials = [
            0.0,
            -0.0,
            f32::from_bits(1),
            1e-20,
            0.5,
            1.0,
            3.0,
            -7.5,
            100.0,
            1e19,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut rng = crate::rng::Pcg32::seeded(5);
        let pick = |rng: &mut crate::rng::Pcg32, r: f32| {
            if rng.below(5) == 0 {
                specials[rng.below(specials.len() as u32) as usize]
            } else {
                rng.range_f32(-r, r)
            }
        };
        for preset in [
            MoveParams::seed(),
            MoveParams::seed_figure(),
            MoveParams::quakeworld(),
            MoveParams::quake3(),
            MoveParams::source(),
        ] {
            for i in 0..20_000 {
                let mut p = preset;
                if i % 2 == 1 {
                    p.friction_math = FrictionMath::SqrtDivide;
                }
                if i % 4 == 0 {
                    p.friction = pick(&mut rng, 10.0);
                    p.stop_speed = pick(&mut rng, 200.0);
                    p.stop_threshold = pick(&mut rng, 2.0);
                }
                let dt = if i % 7 == 0 {
                    pick(&mut rng, 0.1)
                } else {
                    1.0 / 60.0
                };
                let r = [1.0, 30.0, 400.0][i % 3];
                let v = Vec2::new(pick(&mut rng, r), pick(&mut rng, r));
                let want = friction(v, &p, dt);
                let got = friction_speed_first(v, &p, dt);
                assert_eq!(
                    (got.x.to_bits(), got.y.to_bits()),
                    (want.x.to_bits(), want.y.to_bits()),
                    "{p:?} v {v:?} dt {dt}"
                );
            }
        }
    }

    #[test]
    fn sanitized_is_finite_and_clamp() {
        let specials = [
            0.0,
            -0.0,
            f32::from_bits(1),
            0.5,
            1.0,
            1.5,
            -2.0,
            f32::MAX,
            -f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for &x in &specials {
            for &y in &specials {
                for &scale in &specials {
                    let w = WishDir::new(Vec2::new(x, y), scale);
                    let want = if w.dir.is_finite() {
                        WishDir::new(w.dir, crate::math::clamp(scale, 0.0, 1.0))
                    } else {
                        WishDir::NONE
                    };
                    let got = w.sanitized();
                    let bits =
                        |w: WishDir| (w.dir.x.to_bits(), w.dir.y.to_bits(), w.scale.to_bits());
                    assert_eq!(bits(got), bits(want), "{w:?}");
                }
            }
        }
    }

    #[test]
    fn wish_conversion_frame() {
        // Yaw 0 faces −Z; front goes to (0, −1), right to (+1, 0).
        let f = facing_from_yaw(0.0);
        let w = world_wish(Vec2::new(1.0, 0.0), f);
        assert_eq!(w.dir, Vec2::new(0.0, -1.0));
        assert_eq!(w.scale, 1.0);
        let w = world_wish(Vec2::new(0.0, 1.0), f);
        assert_eq!(w.dir, Vec2::new(1.0, 0.0));
        // Analog half stick.
        let w = world_wish(Vec2::new(0.5, 0.0), f);
        assert_eq!(w.scale, 0.5);
        // Keyboard W+D = (1, 1) clamps to scale 1.
        let w = world_wish(Vec2::new(1.0, 1.0), f);
        assert_eq!(w.scale, 1.0);
        let l2_tol = if cfg!(feature = "micromath") {
            2e-5
        } else {
            2e-6
        };
        assert!((w.dir.length_squared() - 1.0).abs() < l2_tol, "{w:?}");
        // Bad inputs.
        assert_eq!(world_wish(Vec2::new(f32::NAN, 1.0), f), WishDir::NONE);
        assert_eq!(world_wish(Vec2::ZERO, f), WishDir::NONE);
        let w = world_wish(Vec2::new(1.0, 0.0), Vec2::new(f32::NAN, 0.0));
        assert_eq!(w.dir, Vec2::new(0.0, -1.0));
        let w = world_wish(Vec2::new(1.0, 0.0), Vec2::new(3.0, 0.0));
        assert!(
            (w.dir - Vec2::new(1.0, 0.0)).length_squared() < l2_tol,
            "{w:?}"
        );
        assert_eq!(w.dir.y, 0.0);
    }

    #[test]
    fn unit_wish_needs_no_normalisation() {
        let f = facing_from_yaw(0.0);
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let w = world_wish_unit(h, h, 1.0, f);
        assert_eq!(w.dir, Vec2::new(h, -h));
        assert_eq!(w.scale, 1.0);
        assert_eq!(world_wish_unit(1.0, 0.0, 0.0, f), WishDir::NONE);
        assert_eq!(world_wish_unit(f32::NAN, 0.0, 1.0, f), WishDir::NONE);
        assert_eq!(world_wish_unit(1.0, 0.0, 7.0, f).scale, 1.0);
        // Same as the normalising conversion for a unit input.
        let a = world_wish(Vec2::new(0.6, 0.8), f);
        let b = world_wish_unit(0.6, 0.8, 1.0, f);
        assert!((a.dir - b.dir).length() < 1e-6);
    }

    #[test]
    fn quake_friction_values() {
        for math in [FrictionMath::Rsqrt, FrictionMath::SqrtDivide] {
            let f = |v: Vec2| friction_stopspeed(v, 6.0, 100.0, 1.0, 0.01, math);
            // speed 320, k 6, dt 0.01: drop = 320·6·0.01 = 19.2 → 300.8.
            let v = f(Vec2::new(320.0, 0.0));
            assert!((v.x - 300.8).abs() < 300.8 * TOL.max(4e-6));
            // Below stop speed: drop = 100·6·0.01 = 6.
            let v = f(Vec2::new(0.0, 50.0));
            assert!((v.y - 44.0).abs() < 44.0 * TOL.max(3e-6));
            assert_eq!(f(Vec2::new(0.5, 0.5)), Vec2::ZERO);
            assert_eq!(f(Vec2::new(f32::INFINITY, 0.0)), Vec2::ZERO);
            assert_eq!(f(Vec2::new(f32::MAX, f32::MAX)), Vec2::ZERO);
            assert_eq!(f(Vec2::new(f32::NAN, 1.0)), Vec2::ZERO);
        }
    }

    #[test]
    fn constant_friction_stops() {
        for math in [FrictionMath::Rsqrt, FrictionMath::SqrtDivide] {
            let f = |v: Vec2| friction_constant(v, 70.0, 0.0, 0.02, math);
            let v = f(Vec2::new(3.0, 4.0));
            assert!((v.length() - 3.6).abs() < 3.6 * TOL.max(3e-6));
            assert_eq!(f(Vec2::new(0.3, 0.4)), Vec2::ZERO);
            assert_eq!(f(Vec2::ZERO), Vec2::ZERO);
            assert_eq!(f(Vec2::new(f32::INFINITY, 0.0)), Vec2::ZERO);
        }
    }

    /// `FrictionMath::SqrtDivide` is QuakeWorld's `PM_Friction` bit for bit where both keep a
    /// speed: `speed = sqrt(x·x + y·y)` (C: a `float` sum, `sqrt` in double, stored as `float`,
    /// which is the correctly rounded `f32` root), `newspeed = max(speed − drop, 0)/speed`,
    /// `vel *= newspeed`. (Quake's zero result keeps the components' signs; hopkit's is `+0`.)
    #[cfg(not(feature = "micromath"))]
    #[test]
    fn sqrt_divide_is_pm_friction() {
        let mut rng = crate::rng::Pcg32::seeded(23);
        for i in 0..200_000 {
            let r = [0.5, 30.0, 400.0, 3000.0][i % 4];
            let v = Vec2::new(rng.range_f32(-r, r), rng.range_f32(-r, r));
            let (k, stop_speed, dt) = (6.0f32, 100.0f32, [1.0 / 72.0, 1.0 / 60.0, 0.01][i % 3]);
            let speed = libm::sqrt((v.x * v.x + v.y * v.y) as f64) as f32;
            let control = if speed < stop_speed {
                stop_speed
            } else {
                speed
            };
            let drop = control * k * dt;
            let mut newspeed = speed - drop;
            if newspeed < 0.0 {
                newspeed = 0.0;
            }
            newspeed /= speed;
            let quake = Vec2::new(v.x * newspeed, v.y * newspeed);
            let got = friction_stopspeed(v, k, stop_speed, 0.0, dt, FrictionMath::SqrtDivide);
            if newspeed > 0.0 {
                assert_eq!(
                    (got.x.to_bits(), got.y.to_bits()),
                    (quake.x.to_bits(), quake.y.to_bits()),
                    "v {v:?} dt {dt}"
                );
            } else {
                assert_eq!(got, Vec2::ZERO);
            }
        }
    }

    #[test]
    fn accelerate_caps_projection_only() {
        let dir = Vec2::new(0.0, 1.0);
        // Moving fast along x, wish along y: projection 0, so add min(cap, budget).
        let v = accelerate(Vec2::new(100.0, 0.0), dir, 30.0, 25.0);
        assert_eq!(v, Vec2::new(100.0, 25.0));
        // Projection above cap: no change.
        let v = accelerate(Vec2::new(0.0, 40.0), dir, 30.0, 25.0);
        assert_eq!(v, Vec2::new(0.0, 40.0));
        // Zero dir is a no-op.
        assert_eq!(
            accelerate(Vec2::new(1.0, 2.0), Vec2::ZERO, 30.0, 25.0),
            Vec2::new(1.0, 2.0)
        );
    }

    #[test]
    fn clamped_delta_never_exceeds_target_speed() {
        let mut v = Vec2::new(300.0, 0.0);
        let dir = Vec2::new(0.0, 1.0);
        for _ in 0..1000 {
            v = accelerate_clamped(v, dir, 320.0, 3.2);
            assert!(v.length() <= 320.0 * (1.0 + TOL) + 1e-3);
        }
        assert!((v.y - 320.0).abs() < 320.0 * TOL + 1e-3 && v.x.abs() < 320.0 * TOL + 1e-3);
    }

    #[test]
    fn optimal_cos_cases() {
        assert_eq!(optimal_strafe_cos(277.0, 30.0, 25.0), 5.0 / 277.0);
        assert_eq!(optimal_strafe_cos(10.0, 0.5, 1.6), 0.0);
        assert_eq!(optimal_strafe_cos(2.0, 30.0, 1.0), 1.0);
        assert_eq!(optimal_strafe_cos(f32::NAN, 30.0, 1.0), 0.0);
        assert_eq!(optimal_strafe_cos(10.0, f32::INFINITY, 1.0), 0.0);
    }

    #[test]
    fn air_cap_and_budget_presets() {
        let (l, a) = air_cap_and_budget(&MoveParams::source(), 1.0, 0.01);
        assert_eq!(l, 30.0);
        assert!((a - 25.0).abs() < 1e-4);
        let (l, a) = air_cap_and_budget(&MoveParams::seed(), 1.0, 0.02);
        assert_eq!(l, 0.5);
        assert!((a - 2.0).abs() < 1e-5);
        let (l, _) = air_cap_and_budget(&MoveParams::quake3(), 1.0, 0.01);
        assert_eq!(l, 320.0);
    }
}
