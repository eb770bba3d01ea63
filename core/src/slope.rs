//! Aligning a character's visual to the ground normal (seed 003, `CharacterContorollerPlaneNormalTracer`).
//!
//! # Example
//!
//! ```
//! use hopkit::math::{scalar, Quat, Vec3};
//! use hopkit::slope::{self, SlopeParams, SlopeState};
//!
//! let params = SlopeParams::default(); // 45° limit, 270°/s animation
//! let mut tilt = SlopeState::default();
//! let normal = |deg: f32| {
//!     let (s, c) = scalar::sin_cos(deg.to_radians());
//!     Vec3::new(0.0, c, s)
//! };
//! let (ramp_30, wall_60) = (normal(30.0), normal(60.0));
//! let ev = slope::step(&mut tilt, &params, Quat::IDENTITY, Some(ramp_30), 1.0 / 60.0);
//! assert!(ev.accepted);
//! assert!((tilt.tilt_angle().to_degrees() - 4.5).abs() < 0.2); // 270°/s × 1/60 s
//! for _ in 0..30 {
//!     let ev = slope::step(&mut tilt, &params, Quat::IDENTITY, Some(wall_60), 1.0 / 60.0);
//!     assert!(ev.rejected); // steeper than 45°: the last walkable normal is kept
//! }
//! assert!((tilt.tilt_angle().to_degrees() - 30.0).abs() < 0.2);
//! ```
//!
//! The seed keeps the last *walkable* ground normal and, every frame, rotates an inner object
//! (the visual mesh under the physics body) towards the rotation that takes "up" to that normal,
//! expressed in the body's local frame:
//!
//! ```text
//! target = FromToRotation(up, InverseTransformDirection(normal))        // local frame
//! tilt   = RotateTowards(tilt, target, animationAngle · dt)             // if animationAngle finite
//! tilt   = RotateTowards(identity, tilt, traceAngleLimit)               // if traceAngleLimit finite
//! ```
//!
//! Here: [`step`] does exactly that with [`SlopeParams`] (degrees, as the seed), and
//! - **Walkable test** (the seed's `cos(slopeLimit) ≤ normal.y`): a normal is accepted iff
//!   `n̂ · up ≥ cos(slope_limit) − walkable_epsilon` on the *normalised* normal, with
//!   `walkable_epsilon` = [`WALKABLE_EPSILON`] = 2e-3 by default, so a 45° ramp is accepted at a
//!   45° limit despite rounding (and approximate backends' errors, ≤ 2e-3). In angle
//!   that is ≈ 0.16° at 45° (Godot is more lenient: +0.01 rad = 0.57° on the angle).
//! - Rejected (too steep), zero-length, NaN/inf or absent normals keep the last accepted one.
//! - Opposite vectors (a normal pointing straight down, accepted only if `slope_limit ≥ 180°`)
//!   give a 180° tilt about an axis perpendicular to up — never NaN ([`Quat::from_rotation_arc`]).
//! - `animation_angle_deg` NaN/±inf disables the animation (snap to target), as the seed;
//!   negative freezes the tilt. `trace_angle_limit_deg` NaN/±inf disables the clamp, as the seed;
//!   negative or 0 clamps the tilt to none.
//! - `dt` NaN or ≤ 0 is treated as 0 (no animation progress; the clamp still applies); there is no
//!   upper limit (a long frame just completes the rotation).
//!
//! The world orientation of the visual is `body_orientation * tilt` ([`SlopeState::world_tilt`]).

use crate::hash::{StateHash, StateHasher};
use crate::math::{scalar, Quat, Vec3};

/// Default tolerance of the walkable test, in cosine units (see the module docs).
pub const WALKABLE_EPSILON: f32 = 2.0e-3;

/// Degrees → radians.
const DEG: f32 = core::f32::consts::PI / 180.0;

/// `scalar::cos(45.0 * DEG)`, bit for bit (hopkit's own kernel with either backend).
const COS_45: f32 = f32::from_bits(0x3f35_04f3);

/// Tuning of slope alignment. Angles in **degrees**, as the seed's Unity inspector fields.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct SlopeParams {
    /// Steepest accepted ground, from horizontal. Degrees. Default **45** (Unity
    /// `CharacterController.slopeLimit`, also Rapier/Godot). NaN or outside `[0, 180]` → 45.
    pub slope_limit_deg: f32,
    /// Tolerance of the walkable test, subtracted from `cos(slope_limit)`. Dimensionless (cosine).
    /// Default **2e-3** ([`WALKABLE_EPSILON`], ≈ 0.16° at 45°). NaN or negative → default.
    pub walkable_epsilon: f32,
    /// Tilt animation speed (the seed's `animationAngle`). Degrees/s. Default **270**.
    /// NaN/±inf = no animation (snap), negative = frozen.
    pub animation_angle_deg: f32,
    /// Largest tilt from upright (the seed's `traceAngleLimit`). Degrees. Default **+inf** (off).
    /// NaN/±inf = off; ≤ 0 = no tilt.
    pub trace_angle_limit_deg: f32,
}

impl Default for SlopeParams {
    fn default() -> Self {
        Self::seed()
    }
}

impl SlopeParams {
    /// The seed's numbers: 45° limit, 270°/s, no tilt clamp.
    pub const fn seed() -> Self {
        SlopeParams {
            slope_limit_deg: 45.0,
            walkable_epsilon: WALKABLE_EPSILON,
            animation_angle_deg: 270.0,
            trace_angle_limit_deg: f32::INFINITY,
        }
    }

    /// The seed exactly: [`SlopeParams::seed`] without the walkable tolerance
    /// (`walkable_epsilon` 0), so every normal steeper than the limit is rejected — a 45° ramp at a
    /// 45° limit may then be rejected or not by one rounding of its normal, as in the seed.
    pub const fn seed_exact() -> Self {
        let mut p = Self::seed();
        p.walkable_epsilon = 0.0;
        p
    }

    /// A subtler look for stylised characters: tilt at most 20°, 180°/s.
    pub const fn subtle() -> Self {
        SlopeParams {
            slope_limit_deg: 45.0,
            walkable_epsilon: WALKABLE_EPSILON,
            animation_angle_deg: 180.0,
            trace_angle_limit_deg: 20.0,
        }
    }

    /// True if the (normalised) `normal` is walkable under these parameters: `n̂·up ≥
    /// cos(slope_limit) − walkable_epsilon`. Zero, NaN or infinite normals are not walkable.
    pub fn is_walkable(&self, normal: Vec3) -> bool {
        self.accept(normal).is_some()
    }

    /// The normalised `normal` if it is walkable.
    fn accept(&self, normal: Vec3) -> Option<Vec3> {
        // A normal whose squared length is exactly 1 normalises to itself (1/√1 = 1): skip it.
        let n = if normal.length_squared().to_bits() == 1.0f32.to_bits() {
            normal
        } else {
            normal.try_normalize()?
        };
        let limit = if (0.0..=180.0).contains(&self.slope_limit_deg) {
            self.slope_limit_deg
        } else {
            45.0
        };
        let eps = if self.walkable_epsilon >= 0.0 {
            self.walkable_epsilon
        } else {
            WALKABLE_EPSILON
        };
        // The default limit's cosine is a constant (the same bits as the call; see the tests).
        let cos_limit = if limit.to_bits() == 45.0f32.to_bits() {
            COS_45
        } else {
            scalar::cos(limit * DEG)
        };
        if n.dot(Vec3::UP) >= cos_limit - eps {
            Some(n)
        } else {
            None
        }
    }
}

/// Slope-alignment state.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct SlopeState {
    /// Last accepted ground normal, world frame, unit length (the seed's `m_currentPlaneNormal`).
    /// Starts as up.
    pub accepted_normal: Vec3,
    /// Tilt of the visual relative to the body (the seed's inner object's `localRotation`).
    pub tilt: Quat,
}

impl Default for SlopeState {
    fn default() -> Self {
        Self::new()
    }
}

impl SlopeState {
    /// Upright: normal up, no tilt.
    pub const fn new() -> Self {
        SlopeState {
            accepted_normal: Vec3::UP,
            tilt: Quat::IDENTITY,
        }
    }

    /// World orientation of the visual: `body_orientation * tilt`.
    pub fn world_tilt(&self, body_orientation: Quat) -> Quat {
        (body_orientation.normalize() * self.tilt).normalize()
    }

    /// Tilt angle from upright, radians in `[0, π]`.
    pub fn tilt_angle(&self) -> f32 {
        self.tilt.angle()
    }
}

impl StateHash for SlopeState {
    /// `accepted_normal`, then `tilt`.
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_vec3(self.accepted_normal);
        h.write_quat(self.tilt);
    }
}

/// What one [`step`] did with the ground normal it was given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct SlopeEvents {
    /// A normal was given and accepted as walkable.
    pub accepted: bool,
    /// A normal was given but rejected (too steep, zero length, NaN or inf).
    pub rejected: bool,
    /// After this step the tilt equals its target (the animation has caught up).
    pub settled: bool,
}

/// Update the accepted normal from `ground_normal` (world frame, `None` = no contact this step)
/// and rotate the tilt towards it for a body with orientation `body_orientation` (normalised
/// here; NaN → identity). See the [module docs](self) for the exact rules.
pub fn step(
    state: &mut SlopeState,
    params: &SlopeParams,
    body_orientation: Quat,
    ground_normal: Option<Vec3>,
    dt: f32,
) -> SlopeEvents {
    let mut ev = SlopeEvents::default();
    sanitize(state);
    if let Some(n) = ground_normal {
        match params.accept(n) {
            Some(n) => {
                state.accepted_normal = n;
                ev.accepted = true;
            }
            None => ev.rejected = true,
        }
    }

    let body = body_orientation.normalize();
    let local_normal = body.conjugate().rotate(state.accepted_normal);
    let target = Quat::from_rotation_arc(Vec3::UP, local_normal);

    let mut q = target;
    let speed = params.animation_angle_deg;
    if speed.is_finite() {
        let dt = if dt > 0.0 { dt } else { 0.0 };
        q = state.tilt.rotate_towards(target, speed * DEG * dt);
    }
    let limit = params.trace_angle_limit_deg;
    if limit.is_finite() {
        q = if limit > 0.0 {
            Quat::IDENTITY.rotate_towards(q, limit * DEG)
        } else {
            Quat::IDENTITY
        };
    }
    state.tilt = q.normalize().flush_subnormal();
    state.accepted_normal = state.accepted_normal.flush_subnormal();
    ev.settled = state.tilt == target || state.tilt.angle_between(target) < 1.0e-3;
    ev
}

/// Repair a state a host may have corrupted: a NaN/zero normal → up, a NaN/zero tilt →
/// identity; a noticeably non-unit one is renormalised (a unit one is left bit-identical).
fn sanitize(state: &mut SlopeState) {
    let n = state.accepted_normal;
    if !n.is_finite() || (n.length_squared() - 1.0).abs() > 1.0e-3 {
        state.accepted_normal = n.try_normalize().unwrap_or(Vec3::UP);
    }
    let q = state.tilt;
    if !q.is_finite() || (q.dot(q) - 1.0).abs() > 1.0e-3 {
        state.tilt = q.normalize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walkable_test_at_the_limit() {
        let p = SlopeParams::seed();
        // Exactly 45° (computed in f64, backend-independent).
        let h = core::f32::consts::FRAC_1_SQRT_2;
        assert!(p.is_walkable(Vec3::new(h, h, 0.0)));
        // 45.3°: beyond the tolerance with either backend.
        assert!(!p.is_walkable(Vec3::new(0.710_799, 0.703_395, 0.0)));
        assert!(!p.is_walkable(Vec3::ZERO));
        assert!(!p.is_walkable(Vec3::new(f32::NAN, 1.0, 0.0)));
    }

    #[test]
    fn cos_45_is_the_kernel_value() {
        assert_eq!(COS_45.to_bits(), scalar::cos(45.0 * DEG).to_bits());
    }

    #[test]
    fn upright_stays_upright() {
        let mut s = SlopeState::new();
        let ev = step(
            &mut s,
            &SlopeParams::seed(),
            Quat::IDENTITY,
            Some(Vec3::UP),
            0.016,
        );
        assert!(ev.accepted && ev.settled);
        assert_eq!(s.tilt, Quat::IDENTITY);
    }
}
