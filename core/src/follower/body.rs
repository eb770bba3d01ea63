//! [`FollowerBody`]: the walking body shared by the single follower and every party member — the
//! seed's `Move`, `ReduceSpeed`, `UpdateMoveSpeedFactor`, `Turn`, `TurnNeck` and `FallAnimation`,
//! made tick-rate independent, plus the gravity/ground integration the seed left to Unity's
//! `Rigidbody`.
//!
//! Tick-rate independence: with `n = dt · reference_hz` reference ticks in this step,
//! - the speed factor moves by `factor_ease_per_tick · n`,
//! - stopping multiplies horizontal velocity by `stop_decay_per_tick ^ n`,
//! - the move direction lerps by `1 − (1 − direction_lerp_per_tick) ^ n`,
//!
//! and when `n == 1` exactly (50 Hz with the defaults) the seed's per-tick numbers are used
//! verbatim, so a 50 Hz run reproduces the seed's arithmetic bit for bit.

use crate::ground::GroundProbe;
use crate::hash::{StateHash, StateHasher};
use crate::math::{
    approach, clamp, finite_or, scalar, wrap_angle, yaw_forward, Quat, Vec2, Vec3,
    NORMALIZE_EPSILON_SQ,
};

use super::params::{clamp_coords, FollowerParams, COORD_LIMIT, DEG, MAX_SPEED};

/// A follower's body: where it is, how it moves, where it faces and looks.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct FollowerBody {
    /// Feet position, world units.
    pub position: Vec3,
    /// Velocity, units/s. Horizontal part set by the follower; vertical part from gravity/ground
    /// (or from the host when `FollowerParams::integrate` is false).
    pub velocity: Vec3,
    /// Smoothed planar move direction `(x, z)` (the seed's `_moveForward`); length ≤ 1, shorter
    /// while it is turning or easing out.
    pub move_dir: Vec2,
    /// The seed's `_moveSpeedFactor`: ground speed is `move_speed · speed_factor`. In
    /// `[0, max_factor]`.
    pub speed_factor: f32,
    /// Body facing, radians (yaw 0 faces −Z, positive turns left), in `(−π, π]`.
    pub yaw: f32,
    /// Facing the body turns towards at `turn_speed_deg` (the seed's `_targetRotation`).
    pub target_yaw: f32,
    /// Head yaw relative to the body, radians, positive = left (the seed's `_neckAngle`, whose
    /// Unity sign is the opposite). Within `±neck_limit_deg`.
    pub neck_yaw: f32,
    /// Standing on ground after the last step.
    pub grounded: bool,
    /// The seed's `IsFalling` animator flag after the last step.
    pub falling: bool,
}

impl Default for FollowerBody {
    fn default() -> Self {
        Self::new(Vec3::ZERO, 0.0)
    }
}

impl FollowerBody {
    /// A body standing still at `position` facing `yaw` radians (non-finite input → 0).
    pub fn new(position: Vec3, yaw: f32) -> Self {
        let yaw = wrap_angle(yaw);
        FollowerBody {
            position: clamp_coords(position.sanitize()),
            velocity: Vec3::ZERO,
            move_dir: Vec2::ZERO,
            speed_factor: 0.0,
            yaw,
            target_yaw: yaw,
            neck_yaw: 0.0,
            grounded: false,
            falling: false,
        }
    }

    /// Body orientation as a quaternion (yaw about +Y).
    pub fn rotation(&self) -> Quat {
        Quat::from_yaw(self.yaw)
    }

    /// Planar unit forward of the body as a 3-D vector (y = 0).
    pub fn forward(&self) -> Vec3 {
        Vec3::from_planar(yaw_forward(self.yaw), 0.0)
    }

    /// World yaw of the head: `yaw + neck_yaw`, wrapped to `(−π, π]`.
    pub fn head_yaw(&self) -> f32 {
        wrap_angle(self.yaw + self.neck_yaw)
    }

    /// The seed's animator `Speed` parameter: `factor · 0.3` above 0.01, else `factor`.
    pub fn anim_speed(&self) -> f32 {
        if self.speed_factor > 0.01 {
            self.speed_factor * 0.3
        } else {
            self.speed_factor
        }
    }

    /// Repair state a host may have corrupted: non-finite position → `fallback` (clamped),
    /// non-finite velocity/direction components → 0, non-finite factor/angles → 0.
    pub(crate) fn sanitize(&mut self, fallback: Vec3) {
        if self.is_healthy() {
            return;
        }
        self.position = if self.position.is_finite() {
            clamp_coords(self.position)
        } else {
            fallback
        };
        let v = self.velocity.sanitize();
        self.velocity = Vec3::new(clamp_speed(v.x), clamp_speed(v.y), clamp_speed(v.z));
        let d = self.move_dir.sanitize();
        // Lerps of unit vectors stay within rounding of length 1; only repair real damage so a
        // healthy state is left bit-identical.
        self.move_dir = if d.length_squared() > 1.001 {
            d.clamp_length_max(1.0)
        } else {
            d
        };
        self.speed_factor = finite_or(self.speed_factor, 0.0);
        self.yaw = rewrap(self.yaw);
        self.target_yaw = rewrap(self.target_yaw);
        self.neck_yaw = rewrap(self.neck_yaw);
    }

    /// Every float field through [`crate::math::scalar::flush_subnormal`] (the end of every
    /// follower step: the ×0.9 stopping decay would otherwise sink into subnormals).
    pub fn flush_subnormals(&mut self) {
        use crate::math::scalar::flush_subnormal as f;
        self.position = self.position.flush_subnormal();
        self.velocity = self.velocity.flush_subnormal();
        self.move_dir = self.move_dir.flush_subnormal();
        self.speed_factor = f(self.speed_factor);
        self.yaw = f(self.yaw);
        self.target_yaw = f(self.target_yaw);
        self.neck_yaw = f(self.neck_yaw);
    }

    /// True if the start-of-step repair would change nothing: coordinates within
    /// `±COORD_LIMIT`, velocity within `±MAX_SPEED`, finite direction of length ≤ 1 (+rounding),
    /// finite factor, angles in `(−π, π]`.
    pub(crate) fn is_healthy(&self) -> bool {
        // The float tests `|x| ≤ limit` and `−π < a ≤ π` on the bits (same results, NaN
        // included; non-negative floats order like their bits).
        let abs_bits = crate::math::bits::abs_bits;
        let coord = |x: f32| abs_bits(x) <= COORD_LIMIT.to_bits();
        let speed = |x: f32| abs_bits(x) <= MAX_SPEED.to_bits();
        let pi = core::f32::consts::PI.to_bits();
        let angle = |a: f32| {
            if a.to_bits() >> 31 != 0 {
                abs_bits(a) < pi
            } else {
                a.to_bits() <= pi
            }
        };
        let (p, v) = (self.position, self.velocity);
        coord(p.x)
            & coord(p.y)
            & coord(p.z)
            & speed(v.x)
            & speed(v.y)
            & speed(v.z)
            & crate::math::bits::all_finite!(self.move_dir.x, self.move_dir.y, self.speed_factor)
            & (self.move_dir.length_squared() <= 1.001)
            & angle(self.yaw)
            & angle(self.target_yaw)
            & angle(self.neck_yaw)
    }

    /// Put the body at `position`, at rest, facing `yaw` (a regroup or an external teleport).
    pub fn place(&mut self, position: Vec3, yaw: f32) {
        *self = FollowerBody::new(position, yaw);
    }

    /// Warp to `position` keeping horizontal velocity (as the seed); vertical velocity is zeroed so
    /// a warp out of a pit does not land with the pit's fall speed.
    pub(crate) fn warp(&mut self, position: Vec3) {
        self.position = clamp_coords(position);
        self.velocity.y = 0.0;
        self.grounded = false;
    }

    /// The seed's `UpdateMoveSpeedFactor`: move the factor towards `target` by the eased step, then
    /// clamp to `[0, max_factor]`. Unless `seed_exact`, it lands on the target instead of
    /// dithering ±step around it forever (identical values until the last step).
    pub(crate) fn ease_factor(&mut self, p: &FollowerParams, target: f32, n: f32) {
        let step = p.factor_ease_per_tick * n;
        let f = self.speed_factor;
        let f = if !p.seed_exact {
            approach(f, target, step)
        } else if f < target {
            f + step
        } else if f > target {
            f - step
        } else {
            f
        };
        self.speed_factor = clamp(f, 0.0, p.max_factor);
    }

    /// The seed's `ReduceSpeed`: decay horizontal velocity, cap the factor, ease it to 0.
    pub(crate) fn reduce_speed<const KEPT: bool>(
        &mut self,
        p: &FollowerParams,
        n: f32,
        rates: &Rates<KEPT>,
    ) {
        let k = rates.stop_decay(p.stop_decay_per_tick, n);
        self.velocity.x *= k;
        self.velocity.z *= k;
        if self.speed_factor > p.stop_factor_cap {
            self.speed_factor = p.stop_factor_cap;
        }
        self.ease_factor(p, 0.0, n);
    }

    /// The seed's moving branch of `Move`: ease the factor towards `factor_target`, lerp the move
    /// direction towards `toward` (in the ground plane), set horizontal velocity
    /// `move_dir · min(move_speed · factor, speed_cap)`, and aim the body along `move_dir`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn chase<const KEPT: bool>(
        &mut self,
        p: &FollowerParams,
        toward: Vec3,
        factor_target: f32,
        speed_cap: f32,
        n: f32,
        rates: &Rates<KEPT>,
    ) {
        self.chase_known(p, toward, factor_target, speed_cap, n, rates, None);
    }

    /// [`FollowerBody::chase`]; `planar` = `(l², l)` of the planar offset between the body and
    /// `toward` when the caller already has them (`l2 = |offset|²`, `l = scalar::sqrt(l2)`, either
    /// sign of the offset), so the direction takes no second square root (same bits).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn chase_known<const KEPT: bool>(
        &mut self,
        p: &FollowerParams,
        toward: Vec3,
        factor_target: f32,
        speed_cap: f32,
        n: f32,
        rates: &Rates<KEPT>,
        planar: Option<(f32, f32)>,
    ) {
        self.ease_factor(p, factor_target, n);
        let offset = toward.planar() - self.position.planar();
        let dir = match planar {
            // `Vec2::normalize_or_zero` with its length at hand.
            Some((l2, l)) => {
                if l2 > NORMALIZE_EPSILON_SQ && l2.is_finite() {
                    offset * (1.0 / l)
                } else {
                    Vec2::ZERO
                }
            }
            None => offset.normalize_or_zero(),
        };
        let t = rates.direction_lerp(p.direction_lerp_per_tick, n);
        self.move_dir = self.move_dir.lerp(dir, t);
        // Clamped (NaN → 0) so absurd but "sane" params (move_speed 1e38) cannot overflow.
        let speed = clamp(
            (p.move_speed * self.speed_factor).min(speed_cap),
            0.0,
            MAX_SPEED,
        );
        self.velocity.x = self.move_dir.x * speed;
        self.velocity.z = self.move_dir.y * speed;
        // The seed's LookRotation of a zero vector gives identity; keeping the old target is saner.
        if let Some(d) = self.move_dir.try_normalize() {
            self.target_yaw = yaw_of(d);
        }
    }

    /// Gravity, position and ground contact (if `p.integrate`). Returns the ground height below the
    /// body, if any, for [`FollowerBody::update_falling`].
    pub(crate) fn integrate(
        &mut self,
        p: &FollowerParams,
        ground: &impl GroundProbe,
        dt: f32,
    ) -> Option<f32> {
        if !p.integrate {
            return probe_height(ground, self.position);
        }
        let mut v = self.velocity;
        v.y = clamp_speed(v.y - p.gravity * dt);
        let mut pos = clamp_coords(self.position + v * dt);
        let ground_y = probe_height(ground, pos + Vec3::UP * p.step_height);
        let was_grounded = self.grounded;
        self.grounded = false;
        if let Some(h) = ground_y {
            let gap = pos.y - h;
            let glued = was_grounded && v.y <= 0.0 && gap <= p.snap_distance;
            if gap <= 0.0 || glued {
                pos.y = h;
                if v.y < 0.0 {
                    v.y = 0.0;
                }
                self.grounded = true;
            }
        }
        self.position = pos;
        self.velocity = v;
        ground_y
    }

    /// The seed's `FallAnimation`: falling if `vy < −fall_speed`, or if the ground is more than
    /// `fall_ground_gap` below while `vy < −fall_descend_speed`.
    pub(crate) fn update_falling(&mut self, p: &FollowerParams, ground_y: Option<f32>) {
        let vy = self.velocity.y;
        let mut falling = vy < -p.fall_speed;
        if let Some(h) = ground_y {
            if self.position.y - h > p.fall_ground_gap && vy < -p.fall_descend_speed {
                falling = true;
            }
        }
        self.falling = falling;
    }

    /// The seed's `Turn`: rotate the body towards `target_yaw` at `turn_speed_deg`.
    pub(crate) fn turn(&mut self, p: &FollowerParams, dt: f32) {
        let max = p.turn_speed_deg * DEG * dt;
        // Both angles are in (−π, π], so one ±2π fold suffices (no floor, no division).
        let d = fold(self.target_yaw - self.yaw);
        self.yaw = fold(self.yaw + clamp(d, -max, max));
    }

    /// The seed's `TurnNeck`: while slow (`speed_factor ≤ idle_factor`) look at `look_at`
    /// (clamped to `±neck_limit_deg`), else return to straight ahead; exponential smoothing.
    pub(crate) fn turn_neck<const KEPT: bool>(
        &mut self,
        p: &FollowerParams,
        look_at: Vec3,
        dt: f32,
        rates: &Rates<KEPT>,
    ) {
        let target = if self.speed_factor > p.idle_factor {
            0.0
        } else {
            let lim = p.neck_limit_deg * DEG;
            match (look_at.planar() - self.position.planar()).try_normalize() {
                Some(d) => clamp(signed_yaw_between(yaw_forward(self.yaw), d), -lim, lim),
                None => 0.0,
            }
        };
        let gap = target - self.neck_yaw;
        if gap.abs() < NECK_SNAP {
            // Settled: skip the exponential (and the denormal tail it would chase).
            self.neck_yaw = target;
        } else {
            self.neck_yaw += gap * rates.neck_blend(p.neck_rate, dt);
        }
    }
}

impl StateHash for FollowerBody {
    /// Fields in declaration order.
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_vec3(self.position);
        h.write_vec3(self.velocity);
        h.write_vec2(self.move_dir);
        h.write_f32(self.speed_factor);
        h.write_f32(self.yaw);
        h.write_f32(self.target_yaw);
        h.write_f32(self.neck_yaw);
        h.write_bool(self.grounded);
        h.write_bool(self.falling);
    }
}

/// The follower's per-step factors that cost an `exp`/`ln` — the stopping decay
/// `stop_decay_per_tick ^ n`, the direction lerp `1 − (1 − direction_lerp_per_tick) ^ n` and the
/// head blend `1 − e^(−neck_rate·dt)` — either computed once for one set of sane parameters and
/// one tick (`Rates<true>`, [`Rates::new`], what [`super::TickConsts`] holds: the step that passes
/// them asks for exactly those) or computed when asked for (`Rates<false>`, [`Rates::ASKED`]).
/// The same values either way. Which one is a type, not a flag: a step is compiled for one of
/// them, without the other's code (the WASM-4 cart, which steps only with kept factors, has no
/// `exp`/`ln` calls in its step).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rates<const KEPT: bool> {
    /// `(stop decay, direction lerp, neck blend)` when `KEPT`, unused otherwise.
    factors: [f32; 3],
    /// The reference ticks per step they are for, `n = dt · reference_hz`, when `KEPT`.
    n: f32,
}

impl Rates<false> {
    /// Nothing kept: each factor is computed when asked for.
    pub(crate) const ASKED: Rates<false> = Rates {
        factors: [0.0; 3],
        n: 0.0,
    };
}

impl Rates<true> {
    /// The factors of steps of `dt` seconds (a sanitized `dt`) with the sane parameters `p`,
    /// `n = dt · p.reference_hz`: what the step with `p` and `dt` asks for.
    pub(crate) fn new(p: &FollowerParams, n: f32, dt: f32) -> Rates<true> {
        Rates {
            factors: [
                per_tick_pow(p.stop_decay_per_tick, n),
                per_tick_fraction(p.direction_lerp_per_tick, n),
                neck_blend(p.neck_rate, dt),
            ],
            n,
        }
    }

    /// Factors for a `dt` that every step rejects (NaN, ±inf, ≤ 0): never asked for, as such a
    /// step returns before it moves anything; zeros.
    pub(crate) const REJECTED: Rates<true> = Rates {
        factors: [0.0; 3],
        n: 0.0,
    };
}

impl<const KEPT: bool> Rates<KEPT> {
    /// `n = dt · reference_hz`, the reference ticks per step (`dt` sanitized).
    #[inline]
    pub(crate) fn ticks(&self, reference_hz: f32, dt: f32) -> f32 {
        if KEPT {
            self.n
        } else {
            dt * reference_hz
        }
    }

    /// `per_tick_pow(stop_decay_per_tick, n)`.
    #[inline]
    pub(crate) fn stop_decay(&self, per_tick: f32, n: f32) -> f32 {
        if KEPT {
            self.factors[0]
        } else {
            per_tick_pow(per_tick, n)
        }
    }

    /// `per_tick_fraction(direction_lerp_per_tick, n)`.
    #[inline]
    pub(crate) fn direction_lerp(&self, per_tick: f32, n: f32) -> f32 {
        if KEPT {
            self.factors[1]
        } else {
            per_tick_fraction(per_tick, n)
        }
    }

    /// `1 − e^(−neck_rate·dt)`.
    #[inline]
    pub(crate) fn neck_blend(&self, neck_rate: f32, dt: f32) -> f32 {
        if KEPT {
            self.factors[2]
        } else {
            neck_blend(neck_rate, dt)
        }
    }
}

/// `1 − e^(−neck_rate·dt)`: the head's blend towards its target over `dt` seconds.
fn neck_blend(neck_rate: f32, dt: f32) -> f32 {
    1.0 - scalar::exp(-neck_rate * dt)
}

/// Head yaw within this of its target (radians, ≈ 0.00006°) snaps onto it.
const NECK_SNAP: f32 = 1.0e-6;

/// Fold an angle in `(−3π, 3π)` into `(−π, π]` with at most one ±2π step.
#[inline]
fn fold(a: f32) -> f32 {
    use core::f32::consts::{PI, TAU};
    if a > PI {
        a - TAU
    } else if a <= -PI {
        a + TAU
    } else {
        a
    }
}

/// An angle that should already be in `(−π, π]`: returned unchanged if so, else fully wrapped
/// (non-finite → 0).
// Out of line: only the repair of a corrupted body needs it, three times.
#[inline(never)]
fn rewrap(a: f32) -> f32 {
    if a > -core::f32::consts::PI && a <= core::f32::consts::PI {
        a
    } else {
        wrap_angle(a)
    }
}

/// `f^n` for `f` in `[0, 1]` and `n > 0`, exactly `f` when `n == 1` (one reference tick), as
/// `exp(n·ln f)`: `libm`'s `expf` and `logf` are already linked for the other decays, a general
/// `powf` (≈ 1.4 KiB on Cortex-M) is not needed. `f ≤ 0` gives 0. The result is clamped to
/// `[0, 1]` so a decay can never turn into a growth.
#[inline]
pub(crate) fn per_tick_pow(f: f32, n: f32) -> f32 {
    if n == 1.0 {
        f
    } else if f > 0.0 {
        clamp(scalar::exp(n * scalar::ln(f)), 0.0, 1.0)
    } else {
        0.0
    }
}

/// `1 − (1 − frac)^n` for `frac` in `[0, 1]`, exactly `frac` when `n == 1`; in `[0, 1]`.
#[inline]
pub(crate) fn per_tick_fraction(frac: f32, n: f32) -> f32 {
    if n == 1.0 {
        frac
    } else {
        1.0 - per_tick_pow(1.0 - frac, n)
    }
}

/// Yaw (radians) whose planar forward is the unit vector `d`.
#[inline]
pub(crate) fn yaw_of(d: Vec2) -> f32 {
    scalar::atan2(-d.x, -d.y)
}

/// Signed yaw turning planar unit `from` onto planar unit `to` (positive = left), in `[−π, π]`.
#[inline]
pub(crate) fn signed_yaw_between(from: Vec2, to: Vec2) -> f32 {
    // A positive yaw about +Y is clockwise in (x, z) coordinates, hence the minus.
    -scalar::atan2(from.perp_dot(to), from.dot(to))
}

/// Velocity component into `±MAX_SPEED`; NaN → 0, ±inf → ±MAX_SPEED.
#[inline]
fn clamp_speed(v: f32) -> f32 {
    if v.is_nan() {
        0.0
    } else {
        clamp(v, -MAX_SPEED, MAX_SPEED)
    }
}

/// Height of the ground below `point`, if the probe finds some with a finite height.
#[inline]
pub(crate) fn probe_height(ground: &impl GroundProbe, point: Vec3) -> Option<f32> {
    ground.height(point).filter(|h| h.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_tests_match_the_float_tests() {
        let float_healthy = |b: &FollowerBody| {
            let coord = |x: f32| x.abs() <= COORD_LIMIT;
            let speed = |x: f32| x.abs() <= MAX_SPEED;
            let angle = |a: f32| a > -core::f32::consts::PI && a <= core::f32::consts::PI;
            let (p, v) = (b.position, b.velocity);
            coord(p.x)
                & coord(p.y)
                & coord(p.z)
                & speed(v.x)
                & speed(v.y)
                & speed(v.z)
                & b.move_dir.is_finite()
                & (b.move_dir.length_squared() <= 1.001)
                & b.speed_factor.is_finite()
                & angle(b.yaw)
                & angle(b.target_yaw)
                & angle(b.neck_yaw)
        };
        let float_clamp = |x: f32| {
            if x.is_nan() {
                0.0
            } else {
                clamp(x, -COORD_LIMIT, COORD_LIMIT)
            }
        };
        let mut bits = 0u32;
        loop {
            let x = f32::from_bits(bits);
            let c = clamp_coords(Vec3::new(x, x, x)).x;
            let e = crate::math::scalar::flush_subnormal(float_clamp(x));
            assert_eq!(c.to_bits(), e.to_bits(), "{bits:#x}");
            let mut b = FollowerBody::new(Vec3::ZERO, 0.0);
            for field in 0..4 {
                let mut t = b;
                match field {
                    0 => t.position.y = x,
                    1 => t.velocity.z = x,
                    2 => t.yaw = x,
                    _ => t.neck_yaw = x,
                }
                assert_eq!(t.is_healthy(), float_healthy(&t), "{field} {bits:#x}");
            }
            b.target_yaw = x;
            assert_eq!(b.is_healthy(), float_healthy(&b), "{bits:#x}");
            match bits.checked_add(40_009) {
                Some(n) => bits = n,
                None => break,
            }
        }
        for x in [
            COORD_LIMIT,
            -COORD_LIMIT,
            MAX_SPEED,
            -MAX_SPEED,
            core::f32::consts::PI,
            -core::f32::consts::PI,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -0.0,
        ] {
            let mut b = FollowerBody::new(Vec3::ZERO, 0.0);
            b.yaw = x;
            b.position.x = x;
            assert_eq!(b.is_healthy(), float_healthy(&b), "{x}");
            let c = clamp_coords(Vec3::new(x, 0.0, 0.0)).x;
            assert_eq!(c.to_bits(), float_clamp(x).to_bits(), "{x}");
        }
    }

    #[test]
    fn yaw_helpers_agree_with_frame() {
        // Moving towards −X is yaw +90° (left turn from −Z).
        let y = yaw_of(Vec2::new(-1.0, 0.0));
        assert!((y - core::f32::consts::FRAC_PI_2).abs() < 1e-6);
        let f = yaw_forward(0.0);
        let left = signed_yaw_between(f, Vec2::new(-1.0, 0.0));
        assert!((left - core::f32::consts::FRAC_PI_2).abs() < 1e-6);
        let right = signed_yaw_between(f, Vec2::new(1.0, 0.0));
        assert!((right + core::f32::consts::FRAC_PI_2).abs() < 1e-6);
    }

    #[test]
    fn kept_rates_are_the_computed_factors() {
        // Kept for the inputs they are asked with (±0, 1, huge, random) or computed when asked:
        // the same bits.
        let mut rng = crate::rng::Pcg32::seeded(4);
        let picks = [
            0.0f32,
            -0.0,
            1.0,
            0.5,
            0.9,
            0.15,
            3.0,
            1.0e-30,
            1.0e30,
            f32::INFINITY,
        ];
        let bits = |x: f32| if x.is_nan() { u32::MAX } else { x.to_bits() };
        for _ in 0..20_000 {
            let pick = |rng: &mut crate::rng::Pcg32| {
                if rng.below(3) == 0 {
                    picks[rng.below(picks.len() as u32) as usize]
                } else {
                    rng.range_f32(0.0, 2.0)
                }
            };
            let (a, n, dt) = (pick(&mut rng), pick(&mut rng), pick(&mut rng));
            let f = a.min(1.0);
            let p = FollowerParams {
                stop_decay_per_tick: f,
                direction_lerp_per_tick: f,
                neck_rate: a,
                ..FollowerParams::seed()
            };
            let (kept, asked) = (Rates::new(&p, n, dt), Rates::ASKED);
            for (stop, lerp, neck) in [
                (
                    kept.stop_decay(f, n),
                    kept.direction_lerp(f, n),
                    kept.neck_blend(a, dt),
                ),
                (
                    asked.stop_decay(f, n),
                    asked.direction_lerp(f, n),
                    asked.neck_blend(a, dt),
                ),
            ] {
                assert_eq!(stop.to_bits(), per_tick_pow(f, n).to_bits());
                assert_eq!(lerp.to_bits(), per_tick_fraction(f, n).to_bits());
                let want = 1.0 - scalar::exp(-a * dt);
                assert_eq!(bits(neck), bits(want), "{a} {dt}");
            }
        }
    }

    #[test]
    fn per_tick_conversions_are_exact_at_one_tick() {
        assert_eq!(per_tick_pow(0.9, 1.0), 0.9);
        assert_eq!(per_tick_fraction(0.15, 1.0), 0.15);
        // Two half ticks equal one tick (exp and ln are libm's with either backend).
        let tol = 1e-6;
        let h = per_tick_pow(0.9, 0.5);
        assert!((h * h - 0.9).abs() < tol);
        let f = per_tick_fraction(0.15, 0.5);
        assert!((1.0 - (1.0 - f) * (1.0 - f) - 0.15).abs() < tol);
        // Decays stay decays at any tick length; an empty factor stays empty.
        for n in [0.01f32, 0.5, 2.0, 7.5, 1000.0] {
            for f in [0.0f32, 1e-30, 0.3, 0.999_999, 1.0] {
                let k = per_tick_pow(f, n);
                assert!((0.0..=1.0).contains(&k), "{f}^{n} = {k}");
                assert!((k - libm::powf(f, n)).abs() < 1e-5, "{f}^{n} = {k}");
            }
        }
        assert_eq!(per_tick_pow(0.0, 0.5), 0.0);
        assert_eq!(per_tick_pow(-0.5, 2.0), 0.0);
    }

    #[test]
    fn sanitize_repairs_and_leaves_healthy_bodies_alone() {
        let mut b = FollowerBody::new(Vec3::new(1.0, 2.0, 3.0), 3.0);
        b.move_dir = Vec2::new(0.6, 0.8);
        let before = b;
        assert!(b.is_healthy());
        b.sanitize(Vec3::ZERO);
        assert_eq!(b, before);
        b.position.y = f32::NAN;
        b.velocity.x = f32::INFINITY;
        b.move_dir = Vec2::new(3.0, 4.0);
        b.speed_factor = f32::NAN;
        b.yaw = 7.0;
        b.neck_yaw = f32::NEG_INFINITY;
        assert!(!b.is_healthy());
        b.sanitize(Vec3::new(9.0, 9.0, 9.0));
        assert!(b.is_healthy());
        assert_eq!(b.position, Vec3::new(9.0, 9.0, 9.0));
        assert_eq!(b.velocity.x, 0.0);
        assert!((b.move_dir.length() - 1.0).abs() < 1e-6);
        assert_eq!(b.speed_factor, 0.0);
        assert!((b.yaw - (7.0 - core::f32::consts::TAU)).abs() < 1e-6);
        assert_eq!(b.neck_yaw, 0.0);
    }
}
