//! A plain-data snapshot of the demo scene for drawing ([`DemoView`]).
//!
//! The renderer (in `hopkit-firmware`, shared with `hopkit-sim`) only ever sees this struct, so the
//! drawing code does not depend on the mechanics' internal state. Everything is in world units,
//! right-handed Y up; planar vectors are `(x, z)`.

use crate::math::{Vec2, Vec3};

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
}
