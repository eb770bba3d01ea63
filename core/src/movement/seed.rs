//! The seed's `PlayerControllerSub.GetNextPlayerVector` (Unity C#), reproduced op for op in f32.
//!
//! This is the reference the lean kernels ([`super::kernels`]) are tested against; it is not the fast
//! path (three square roots and four divides per call). Unity semantics reproduced exactly:
//! - `Vector2.magnitude` = `(float)Math.Sqrt(x·x + y·y)`, which equals the correctly rounded f32
//!   square root of the f32 sum (as `math::scalar::sqrt` with the default `libm` backend).
//! - `Vector2.normalized` divides each component by the magnitude if it is greater than
//!   `kEpsilon = 1e-5`, else returns the zero vector.
//! - `Clip` is [`crate::math::clip`].
//!
//! Deviation (documented): non-finite components of `player`/`input` and a non-finite or negative
//! `dt` are replaced by 0 before the seed's code runs, so NaN never comes out; for finite inputs the
//! result is the seed's, bit for bit.

use super::params::{
    SEED_ACCEL_AIR, SEED_ACCEL_GROUND, SEED_FRICTION_ACCEL, SEED_MAX_SPEED_AIR,
    SEED_MAX_SPEED_GROUND,
};
use crate::math::{clip, scalar, Vec2};

/// Unity's `Vector2.kEpsilon`, the magnitude below which `normalized` returns zero.
pub const UNITY_K_EPSILON: f32 = 1.0e-5;

/// The five constants of the seed's `PlayerControllerSub`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SeedConstants {
    /// `maxSpeedOnTheGround`, m/s. Seed 10.
    pub max_speed_ground: f32,
    /// `maxSpeedInTheAir`, m/s. Seed 0.5.
    pub max_speed_air: f32,
    /// `accelOnTheGround`, m/s². Seed 120.
    pub accel_ground: f32,
    /// `accelInTheAir`, m/s². Seed 100.
    pub accel_air: f32,
    /// `frictionAccel`, m/s². Seed 70.
    pub friction_accel: f32,
}

/// The seed's listed constants.
pub const SEED_CONSTANTS: SeedConstants = SeedConstants {
    max_speed_ground: SEED_MAX_SPEED_GROUND,
    max_speed_air: SEED_MAX_SPEED_AIR,
    accel_ground: SEED_ACCEL_GROUND,
    accel_air: SEED_ACCEL_AIR,
    friction_accel: SEED_FRICTION_ACCEL,
};

/// Unity `Vector2.magnitude`.
#[inline]
pub fn unity_magnitude(v: Vec2) -> f32 {
    scalar::sqrt(v.x * v.x + v.y * v.y)
}

/// Unity `Vector2.normalized`: `v / |v|` if `|v| > 1e-5`, else zero.
#[inline]
pub fn unity_normalized(v: Vec2) -> Vec2 {
    let mag = unity_magnitude(v);
    if mag > UNITY_K_EPSILON {
        Vec2::new(v.x / mag, v.y / mag)
    } else {
        Vec2::ZERO
    }
}

/// `GetNextPlayerVector(playerVector, inputVector, dt, onTheGround)` with the seed's constants.
/// `player` and `input` are in the same planar frame (any frame; the seed passes world vectors).
#[inline]
pub fn next_player_vector(player: Vec2, input: Vec2, dt: f32, on_the_ground: bool) -> Vec2 {
    next_player_vector_with(&SEED_CONSTANTS, player, input, dt, on_the_ground)
}

/// [`next_player_vector`] with other constants.
pub fn next_player_vector_with(
    c: &SeedConstants,
    player_vector: Vec2,
    input_vector: Vec2,
    dt: f32,
    on_the_ground: bool,
) -> Vec2 {
    let player_vector = player_vector.sanitize();
    let input_vector = input_vector.sanitize();
    let dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };

    let normalized_input_vector = unity_normalized(input_vector);

    // Ground parameters.
    let mut friction_accel = c.friction_accel;
    let mut max_speed = c.max_speed_ground;
    let mut accel = c.accel_ground;

    // Air parameters.
    if !on_the_ground {
        friction_accel = 0.0;
        max_speed = c.max_speed_air;
        accel = c.accel_air;
    }

    // Magnitude of the friction vector.
    let magnitude_of_friction = clip(unity_magnitude(player_vector), 0.0, friction_accel * dt);
    // Friction vector (opposite to the player vector).
    let n = unity_normalized(player_vector);
    let friction_vector = Vec2::new(n.x * -magnitude_of_friction, n.y * -magnitude_of_friction);
    // Player vector plus friction vector.
    let player_vector_fric = Vec2::new(
        player_vector.x + friction_vector.x,
        player_vector.y + friction_vector.y,
    );
    // Magnitude of the projection on the input direction.
    let magnitude_of_projection = player_vector_fric.x * normalized_input_vector.x
        + player_vector_fric.y * normalized_input_vector.y;
    // Magnitude of the add vector.
    let magnitude_of_add_vector = clip(max_speed - magnitude_of_projection, 0.0, accel * dt);
    // Add vector.
    let add_vector = Vec2::new(
        normalized_input_vector.x * magnitude_of_add_vector,
        normalized_input_vector.y * magnitude_of_add_vector,
    );
    Vec2::new(
        player_vector_fric.x + add_vector.x,
        player_vector_fric.y + add_vector.y,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_rest_forward() {
        let dt = 0.02;
        let mut v = Vec2::ZERO;
        v = next_player_vector(v, Vec2::new(1.0, 0.0), dt, true);
        assert_eq!(v.y, 0.0);
        assert_eq!(v.x, 120.0f32 * dt);
        v = next_player_vector(v, Vec2::new(1.0, 0.0), dt, true);
        // micromath's sqrt is not correctly rounded.
        let tol = if cfg!(feature = "micromath") {
            1e-4
        } else {
            1e-5
        };
        assert!((v.x - 3.4).abs() < tol, "{v:?}");
    }

    #[test]
    fn tiny_vectors_normalise_to_zero() {
        assert_eq!(unity_normalized(Vec2::new(5e-6, 0.0)), Vec2::ZERO);
        // A velocity below kEpsilon is not touched by friction (Unity quirk) and no input adds 0.
        let v = next_player_vector(Vec2::new(5e-6, 0.0), Vec2::ZERO, 0.02, true);
        assert_eq!(v, Vec2::new(5e-6, 0.0));
    }

    #[test]
    fn non_finite_inputs_give_finite_output() {
        let v = next_player_vector(
            Vec2::new(f32::NAN, 1.0),
            Vec2::new(1.0, f32::INFINITY),
            0.02,
            true,
        );
        assert!(v.is_finite());
        let v = next_player_vector(Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.0), f32::NAN, false);
        assert_eq!(v, Vec2::new(1.0, 1.0));
    }
}
