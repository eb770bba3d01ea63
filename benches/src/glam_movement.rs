//! The movement baselines every bench shares, with the constants of `MoveParams::seed()` (ground
//! max 10, air max 0.5, ground accel 120, air accel 100, constant friction 70; per-second budgets,
//! projection-capped acceleration, no separate air cap), written with glam + std:
//!
//! - [`lean_next`] (the main baseline): the step as a competent desktop programmer writes it in
//!   the style of Quake's `PM_Friction` / `PM_Accelerate` / `PM_AirAccelerate` — one square root
//!   for the speed and one divide to scale the velocity (ground only), one square root and one
//!   divide to normalise the wish (every call). [`lean_next_wish`] is the same step with the wish
//!   normalised once by the caller (as hopkit's `WishDir` callers do).
//! - [`baseline_next`] (the second baseline): the seed's `GetNextPlayerVector` literally, as a
//!   desktop programmer ports it with glam (`normalize_or_zero`, `length`, std `sqrt`): three
//!   square roots and three divides per call.

/// Seed preset: ground max speed, m/s.
pub const MAX_SPEED_GROUND: f32 = 10.0;
/// Seed preset: air max speed (the air cap), m/s.
pub const MAX_SPEED_AIR: f32 = 0.5;
/// Seed preset: ground acceleration, m/s².
pub const ACCEL_GROUND: f32 = 120.0;
/// Seed preset: air acceleration, m/s².
pub const ACCEL_AIR: f32 = 100.0;
/// Seed preset: constant friction deceleration, m/s².
pub const FRICTION: f32 = 70.0;

/// The seed's `Clip`.
#[inline]
pub fn clip(val: f32, min: f32, max: f32) -> f32 {
    if val <= min {
        return min;
    }
    if val <= max {
        return val;
    }
    max
}

/// `GetNextPlayerVector` with glam, literally (the second baseline).
#[inline]
pub fn baseline_next(
    player: glam::Vec2,
    input: glam::Vec2,
    dt: f32,
    on_ground: bool,
) -> glam::Vec2 {
    let n = input.normalize_or_zero();
    let (fric, max_speed, accel) = if on_ground {
        (FRICTION, MAX_SPEED_GROUND, ACCEL_GROUND)
    } else {
        (0.0, MAX_SPEED_AIR, ACCEL_AIR)
    };
    let mag_fric = clip(player.length(), 0.0, fric * dt);
    let fric_vec = player.normalize_or_zero() * -mag_fric;
    let pf = player + fric_vec;
    let proj = pf.dot(n);
    let add = clip(max_speed - proj, 0.0, accel * dt);
    pf + n * add
}

/// A wish as Quake keeps it after `VectorNormalize`: the unit direction and the wish-speed
/// fraction (the wish vector's length, at most 1: a diagonal keyboard wish is not faster).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LeanWish {
    /// Unit direction, or zero for no input.
    pub dir: glam::Vec2,
    /// `min(|wish|, 1)`; 0 for no input.
    pub scale: f32,
}

/// Normalise a raw wish vector: one square root, one divide (Quake's `VectorNormalize`, which
/// also returns the length that becomes the wish speed).
#[inline]
pub fn lean_wish(input: glam::Vec2) -> LeanWish {
    let len = input.length();
    if len > 0.0 {
        LeanWish {
            dir: input * (1.0 / len),
            scale: if len < 1.0 { len } else { 1.0 },
        }
    } else {
        LeanWish::default()
    }
}

/// `PM_Friction` with the seed's constant deceleration: `v *= max(speed − drop, 0)/speed`.
/// One square root, one divide.
#[inline]
pub fn lean_friction(v: glam::Vec2, drop: f32) -> glam::Vec2 {
    let speed = v.length();
    if speed > 0.0 {
        let mut newspeed = speed - drop;
        if newspeed < 0.0 {
            newspeed = 0.0;
        }
        v * (newspeed / speed)
    } else {
        glam::Vec2::ZERO
    }
}

/// `PM_Accelerate` / `PM_AirAccelerate`: add at most `budget` along `dir`, up to a projected speed
/// of `cap`. No square root, no divide.
#[inline]
pub fn lean_accelerate(v: glam::Vec2, dir: glam::Vec2, cap: f32, budget: f32) -> glam::Vec2 {
    let addspeed = cap - v.dot(dir);
    if addspeed <= 0.0 {
        return v;
    }
    let accelspeed = if budget > addspeed { addspeed } else { budget };
    v + dir * accelspeed
}

/// One planar tick with an already normalised wish: on the ground friction then accelerate (cap
/// `10·scale`, budget `120·dt`), in the air air-accelerate (cap `0.5·scale`, budget `100·dt`).
#[inline]
pub fn lean_next_wish(v: glam::Vec2, wish: LeanWish, dt: f32, on_ground: bool) -> glam::Vec2 {
    if on_ground {
        let v = lean_friction(v, FRICTION * dt);
        lean_accelerate(
            v,
            wish.dir,
            MAX_SPEED_GROUND * wish.scale,
            ACCEL_GROUND * dt,
        )
    } else {
        lean_accelerate(v, wish.dir, MAX_SPEED_AIR * wish.scale, ACCEL_AIR * dt)
    }
}

/// One planar tick from a raw wish vector (the main baseline): [`lean_wish`] then
/// [`lean_next_wish`].
#[inline]
pub fn lean_next(v: glam::Vec2, input: glam::Vec2, dt: f32, on_ground: bool) -> glam::Vec2 {
    lean_next_wish(v, lean_wish(input), dt, on_ground)
}
