//! Quake-style strafe-jump movement (seed 000: the Unity article's `GetNextPlayerVector`).
//!
//! # Example
//!
//! Quake's strafe-jump in one tick: in the air, holding "strafe right" with the view turned so the
//! wish direction is at 90° to the velocity, the air acceleration caps only the projection on the
//! wish direction (0 here, below the 0.5 cap), so the speed grows — the bunny hop.
//!
//! ```
//! use hopkit::ground::FlatGround;
//! use hopkit::math::{Vec2, Vec3};
//! use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
//!
//! let params = MoveParams::seed();
//! let mut s = MoverState::new(Vec3::new(0.0, 5.0, 0.0)); // 5 units up: airborne
//! s.velocity = Vec3::new(0.0, 0.0, -10.0); // flying forward (−Z) at the ground max speed
//! // View facing −Z, wish = (front 0, right 1): "strafe right", perpendicular to the velocity.
//! let input = MoveInput::new(Vec2::new(0.0, 1.0), false, Vec2::new(0.0, -1.0));
//! let ev = step(&mut s, &params, &input, &FlatGround::new(0.0), 1.0 / 60.0);
//! assert_eq!(ev.substeps, 1);
//! assert!(!s.grounded);
//! assert!(s.planar_speed() > 10.0); // v² grew by L² = 0.25: √100.25 ≈ 10.0125
//! assert!((s.planar_speed() - hopkit::math::scalar::sqrt(100.25)).abs() < 1e-4);
//! ```
//!
//! ## What a game uses
//! - The step: [`step`] (every mode: walking and in the air, crouching, ladders, water; the time
//!   split once into ticks of at most [`MoveParams::max_tick_dt`]) on a [`MoverState`] with a
//!   [`MoveInput`], returning [`StepEvents`]; [`step_wish`] is its fast form for walking and air
//!   only, with a world wish the caller converted once ([`WishDir`]).
//! - The params: [`MoveParams`] (every field documented with unit and default) and the presets
//!   [`MoveParams::seed`], [`MoveParams::seed_figure`], [`MoveParams::quakeworld`],
//!   [`MoveParams::quake3`], [`MoveParams::source`], [`MoveParams::cpma`]; the model choices
//!   [`FrictionModel`], [`FrictionMath`], [`AccelBudget`], [`AccelStyle`].
//! - The planar kernels, for a game with its own driver or many bodies: [`friction`] (Quake
//!   stop-speed or the seed's constant deceleration), [`accelerate`] (projection-capped),
//!   [`accelerate_clamped`] (Q3's disabled alternative), [`air_accelerate`] (with the
//!   QuakeWorld/Source 30 cap or none), the wish conversion [`world_wish`], one tick of both
//!   [`planar_velocity_tick`], its constants folded once per tick length [`TickConsts`], and many
//!   bodies at once [`planar_velocity_tick_batch`].
//! - Queries for rendering and game rules: [`crouch_height`], [`water_level`], [`body_box`] (the
//!   box [`slide_move`] moves among solids), [`optimal_strafe_cos`] (the best strafe angle).
//! - The seed's function reproduced op for op in f32, the reference: [`next_player_vector`].
//!
//! The features each have a file in `core/src/movement/` and a section in
//! `docs/movement-features.md`: CPMA air control (`cpma.rs`, on with [`MoveParams::cpm_air`]),
//! moving platforms (`platform.rs`, [`crate::ground::GroundProbe::surface_motion`]), crouching
//! (`crouch.rs`, [`crate::ground::GroundProbe::clearance`]), ladders (`ladder.rs`,
//! [`crate::ground::GroundProbe::ladder`]), QuakeWorld's water (`water.rs`,
//! [`crate::ground::GroundProbe::water`]), the jump rules (`jump.rs`: release-to-rejump,
//! auto-hop, coyote time, jump buffer, bunny-hop cap, variable height), Quake III's
//! collide-and-slide among solids (`slide.rs`, a probe with
//! [`crate::ground::GroundProbe::SOLID`]). The driver (`mover.rs`) splits the time once and picks
//! the mode every tick: walking and in the air (`walk.rs`), ladder, water.
//!
//! ## Frames
//! Planar vectors are world `(x, z)` (`Vec2::x` = world X, `Vec2::y` = world Z); Y is up; yaw 0
//! faces −Z and positive yaw turns left. The player's wish is the seed's `(front, right)`:
//! `MoveInput::wish.x` = front (W), `.y` = right (D). The view is carried as a planar unit forward
//! vector ([`MoveInput::facing`]) so the tick itself uses no trigonometry;
//! `right = (−facing.y, facing.x)`.
//!
//! ## Order of one tick (Quake `PmoveSingle`)
//! categorise ground → jump (clears ground) → friction → accelerate / air-accelerate →
//! half gravity → move → half gravity → wall check → categorise ground. Jumping before friction is
//! why a frame-perfect hop loses no speed.
//!
//! ## Cost model (per tick, f32)
//! - Ground: friction 1 [`crate::math::scalar::rsqrt`] (bit estimate + 2 Newton steps, no sqrt,
//!   no divide) with the default [`FrictionMath::Rsqrt`], or 1 sqrt + 1 divide with
//!   [`FrictionMath::SqrtDivide`] (cheaper on desktop CPUs and the M0, dearer on the M4F; same bits
//!   on every CPU either way); accelerate 0/0, ≈ 30 mul/add/compare.
//! - Air: 0 sqrt, 0 divide, ≈ 12 mul/add/compare.
//! - Wish conversion ([`world_wish`]): 1 sqrt + 1 divide per `step` call; [`step_wish`] takes a
//!   cached [`WishDir`] and skips it; [`world_wish_unit`] converts the stick module's already-unit
//!   [`crate::stick::Wish`] with no sqrt at all.
//! - The seed's formulation as written: 3 sqrt + 4 divides per tick.
//! - The full [`step`] adds two ground probes per tick (start and end categorisation; up to three
//!   more only on a tick that runs into a wall), the jump rules and the NaN guards; no trigonometry
//!   anywhere in it.
//!
//! Measured instruction counts, and which fast forms stand beside the plain ones and why:
//! docs/performance.md, "movement".
//!
//! ## Differences from the seed (all documented)
//! - Friction is computed as `v·(1 − drop·rsqrt(|v|²))` (clamped at a stop) instead of
//!   `v + normalize(v)·(−drop)`: measured over 2·10⁶ random velocities at 60 Hz, within 7 ulp
//!   (5.0e-7 relative) of the seed's formulation for components not tiny against `|v|`; no sqrt
//!   and no divide instead of two sqrt and two divides. [`FrictionMath::SqrtDivide`] computes
//!   `v·(speed − drop)/speed` instead (the arithmetic of Quake's `PM_Friction`).
//!   [`next_player_vector`] keeps the op-for-op original.
//! - Normalisation treats lengths below 1e-6 as zero (Unity: 1e-5).
//! - A wish shorter than 1 scales the wish speed (analog sticks); the seed normalises every input
//!   to full speed. Digital input (`(1, 0)`, `(1, 1)` …) behaves exactly like the seed.

// `!(x > y)` is used on purpose throughout: unlike `x <= y` it is also true when either is NaN,
// which is how the kernels route bad numbers to their safe branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod batch;
mod contact;
mod cpma;
mod crouch;
mod jump;
mod kernels;
mod ladder;
mod mover;
mod params;
mod platform;
mod prepared;
mod seed;
mod slide;
mod state;
mod walk;
mod water;
#[cfg(test)]
mod water_solid_tests;

pub use batch::{planar_velocity_tick_batch, WishBatch};
pub use contact::Contact;
pub use crouch::{height as crouch_height, CrouchEvents};
pub use jump::JumpKind;
pub use kernels::{
    accelerate, accelerate_clamped, air_accelerate, air_cap_and_budget, facing_from_yaw, friction,
    friction_constant, friction_stopspeed, ground_accelerate, optimal_strafe_cos,
    planar_velocity_tick, world_wish, world_wish_unit, WishDir, WishKeys,
};
pub use mover::{step, step_wish};
pub use params::{
    AccelBudget, AccelStyle, FrictionMath, FrictionModel, MoveParams, CPM_AIR_CONTROL,
    CPM_AIR_STOP_ACCEL, CPM_STRAFE_ACCEL, CPM_STRAFE_WISH_CAP, QW_WATER_ACCEL, QW_WATER_FRICTION,
    SEED_ACCEL_AIR, SEED_ACCEL_GROUND, SEED_FRICTION_ACCEL, SEED_MAX_SPEED_AIR,
    SEED_MAX_SPEED_GROUND,
};
pub use prepared::{planar_velocity_tick_with, TickConsts};
pub use seed::{
    next_player_vector, next_player_vector_with, unity_magnitude, unity_normalized, SeedConstants,
    SEED_CONSTANTS, UNITY_K_EPSILON,
};
pub use slide::{body_box, slide_move, step_slide_move, SlideHits};
pub use state::{MoveInput, MoverState, StepEvents};
pub use water::level as water_level;
