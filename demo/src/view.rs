//! A plain-data snapshot of the demo scene for drawing ([`DemoView`]).
//!
//! The renderer (in `hopkit-firmware`, shared with `hopkit-sim`) only ever sees this struct, so the
//! drawing code does not depend on the mechanics' internal state. Everything is in world units,
//! right-handed Y up; planar vectors are `(x, z)`.

use hopkit::math::{scalar, Quat, Vec2, Vec3, NORMALIZE_EPSILON_SQ};

/// Display width of the handheld (SSD1306), pixels.
pub const DISPLAY_WIDTH: u32 = 128;
/// Display height of the handheld (SSD1306), pixels.
pub const DISPLAY_HEIGHT: u32 = 64;
/// Most crumbs shown (the follower's trail capacity).
pub const MAX_CRUMBS: usize = 16;
/// Most arrival critters in the demo.
pub const MAX_CRITTERS: usize = 4;
/// Most ghost fighters in the demo.
pub const MAX_GHOSTS: usize = 4;
/// Most ramps in the demo level.
pub const MAX_RAMPS: usize = 2;

/// A body seen from above.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BodyView {
    /// World position.
    pub position: Vec3,
    /// Planar facing direction `(x, z)`, unit length (or zero if undefined).
    pub heading: Vec2,
    /// Speed in world units per second (horizontal for walkers, total for flyers).
    pub speed: f32,
}

/// An arrival-steering critter and the point it is heading to.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CritterView {
    /// The critter.
    pub body: BodyView,
    /// Its arrival target `(x, z)`.
    pub target: Vec2,
    /// True once it has arrived (within tolerance).
    pub arrived: bool,
}

/// A ghost fighter replaying the bundled recording.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct GhostView {
    /// The fighter (position includes altitude in `y`).
    pub body: BodyView,
    /// True on ticks where its gun fires (after fire gating).
    pub firing: bool,
}

/// A rectangular ramp in the level, seen from above.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RampView {
    /// Minimum corner `(x, z)`.
    pub min: Vec2,
    /// Maximum corner `(x, z)`.
    pub max: Vec2,
    /// Planar uphill direction, unit.
    pub uphill: Vec2,
    /// Slope angle in degrees.
    pub angle_deg: f32,
}

/// The level's features, seen from above (the constants of [`crate::level`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FeatureView {
    /// The tower's footprint (drawn as a raised block).
    pub tower: crate::level::Zone,
    /// The ladder's zone in front of the tower's face (drawn as rungs).
    pub ladder: crate::level::Zone,
    /// The pool (drawn as water).
    pub pool: crate::level::Zone,
    /// The turntable's centre `(x, z)`.
    pub turntable_center: Vec2,
    /// The turntable's radius, world units.
    pub turntable_radius: f32,
    /// Angle of the turntable's marked spoke from +X, radians in `[0, 2π)`, counter-clockwise
    /// seen from above (towards −Z): it turns with the disc.
    pub turntable_angle: f32,
}

impl FeatureView {
    /// Unit direction `(x, z)` of the turntable's marked spoke: `(cos a, −sin a)`.
    pub fn turntable_spoke(&self) -> Vec2 {
        let (s, c) = scalar::sin_cos(self.turntable_angle);
        Vec2::new(c, -s)
    }
}

/// Everything a renderer needs to draw one demo frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DemoView {
    /// Simulation tick this view was taken at.
    pub tick: u32,
    /// Half size of the arena `(x, z)`; the arena is centred on the origin.
    pub arena_half_extent: Vec2,
    /// Where the camera looks `(x, z)` (follows the player).
    pub camera: Vec2,
    /// The player.
    pub player: BodyView,
    /// True while the player stands on the ground.
    pub player_grounded: bool,
    /// Player's tilt from vertical (slope alignment), degrees.
    pub player_tilt_deg: f32,
    /// The movement preset's ground max speed (for the speed read-out), units/s.
    pub ground_max_speed: f32,
    /// The companion following the trail.
    pub companion: BodyView,
    /// Companion head yaw relative to its body, radians (positive = left).
    pub companion_head_yaw: f32,
    /// The breadcrumb trail, oldest first `(x, z)`.
    pub crumbs: heapless::Vec<Vec2, MAX_CRUMBS>,
    /// Arrival critters.
    pub critters: heapless::Vec<CritterView, MAX_CRITTERS>,
    /// Ghost fighters.
    pub ghosts: heapless::Vec<GhostView, MAX_GHOSTS>,
    /// Ramps in the level.
    pub ramps: heapless::Vec<RampView, MAX_RAMPS>,
    /// The level's tower, ladder, pool and turntable, if it has them (only with the
    /// `level-features` feature: without it the view carries nothing of them).
    #[cfg(feature = "level-features")]
    pub features: Option<FeatureView>,
    /// True on the level of solids: the renderer draws its blocks
    /// ([`crate::solid_level::BLOCKS`], constants) and the pool (only with the `level-solids`
    /// feature).
    #[cfg(feature = "level-solids")]
    pub solids: bool,
}

/// `(v.normalize_or_zero(), v.length())` with one square root instead of two: the same
/// operations as `Vec2::try_normalize` (`v · (1 / √|v|²)`) and `Vec2::length` (`√|v|²`), so the
/// same bits (tested). On a Cortex-M0 a software `sqrt` is ≈ 850 instructions.
pub fn heading_and_speed(v: Vec2) -> (Vec2, f32) {
    let l2 = v.length_squared();
    let s = scalar::sqrt(l2);
    if l2 > NORMALIZE_EPSILON_SQ && l2.is_finite() {
        (v * (1.0 / s), s)
    } else {
        (Vec2::ZERO, s)
    }
}

/// The planar `(x, z)` part of the forward axis (−Z) of the body-to-world rotation `q`, with the
/// same operations as the full basis `ghost::flyer::Basis::from_quat(q).forward`, so the same bits
/// (tested), for a third of its work.
pub fn planar_forward(q: Quat) -> Vec2 {
    let (x, y, z, w) = (q.x, q.y, q.z, q.w);
    let (x2, y2, z2) = (x + x, y + y, z + z);
    Vec2::new(-(x * z2 + w * y2), -(1.0 - (x * x2 + y * y2)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit::ghost::flyer::Basis;

    #[test]
    fn planar_forward_is_the_basis_forward_bit_for_bit() {
        let mut seed = 0x9e37_79b9u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        };
        for _ in 0..10_000 {
            let q = Quat::from_xyzw(next(), next(), next(), next());
            let f = Basis::from_quat(q).forward;
            let p = planar_forward(q);
            assert_eq!(
                (p.x.to_bits(), p.y.to_bits()),
                (f.x.to_bits(), f.z.to_bits()),
                "{q:?}"
            );
        }
    }

    #[test]
    fn heading_and_speed_are_normalize_and_length_bit_for_bit() {
        let mut seed = 12345u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let u = (seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0;
            // Magnitudes from 1e-8 to 1e3.
            u * scalar::powf(10.0, ((seed & 0xff) as f32 / 255.0) * 11.0 - 8.0)
        };
        let bits = |v: Vec2, s: f32| (v.x.to_bits(), v.y.to_bits(), s.to_bits());
        for _ in 0..20_000 {
            let v = Vec2::new(next(), next());
            let (h, s) = heading_and_speed(v);
            assert_eq!(bits(h, s), bits(v.normalize_or_zero(), v.length()), "{v:?}");
        }
        for v in [
            Vec2::ZERO,
            Vec2::new(f32::INFINITY, 0.0),
            Vec2::new(f32::NAN, 1.0),
            Vec2::new(1.0e30, 1.0e30),
        ] {
            let (h, s) = heading_and_speed(v);
            assert_eq!(bits(h, s), bits(v.normalize_or_zero(), v.length()), "{v:?}");
        }
    }
}
