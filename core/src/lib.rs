//! # hopkit
//!
//! A `no_std`, allocation-free, deterministic controller core for game characters.
//!
//! Every mechanic is plain data plus plain functions: a *state* struct, a *params* struct whose every
//! field documents its unit and default, and a `step` function that takes the state by `&mut`, the
//! params by `&`, this tick's input and `dt` in seconds:
//!
//! | mechanic | call |
//! |---|---|
//! | [`movement`] | [`movement::step`]`(&mut MoverState, &MoveParams, &MoveInput, &impl GroundProbe, dt) -> StepEvents` |
//! | [`steering`] | [`steering::arrival_step`]`(&mut ArrivalState, &SteeringParams, &ArrivalParams, target: Vec3, dt) -> ArrivalEvents` |
//! | [`follower`] | [`follower::step`]`(&mut FollowerState<N>, &FollowerParams, leader: Vec3, &impl GroundProbe, dt) -> FollowerEvents` |
//! | [`slope`] | [`slope::step`]`(&mut SlopeState, &SlopeParams, body: Quat, ground_normal: Option<Vec3>, dt) -> SlopeEvents` |
//! | [`ghost`] flyer | [`ghost::flyer::step`]`(&mut FlyerState, &FlyerParams, torque: Vec3, dt) -> FlyerEvents` |
//! | [`ghost`] | [`Ghost::step`](ghost::Ghost::step)`(&mut self, &Recording, &FlyerParams, targets: &[Vec3], &impl GroundProbe) -> GhostTick` (fixed `dt` = the recording's tick) |
//! | [`stick`] | [`StickPipeline::process`](stick::StickPipeline::process)`(&mut self, &RawSticks) -> StickFrame` (one tick) |
//! | [`timestep`] | [`FixedStep::advance_nanos`](timestep::FixedStep::advance_nanos)`(&mut self, frame_ns: u64) -> Advance` (render frame → whole ticks) |
//!
//! Constants that depend only on the params and the tick length, for callers that step many
//! bodies or many ticks with the same ones, are each module's `TickConsts`, built by
//! `TickConsts::new(&params, dt)` ([`movement::TickConsts`], [`follower::TickConsts`],
//! [`steering::TickConsts`]).
//!
//! ## Example
//!
//! A character on flat ground, driven by a stick held forward, simulated at a fixed 60 Hz from
//! render frames of any length:
//!
//! ```
//! use hopkit::ground::FlatGround;
//! use hopkit::math::{Vec2, Vec3};
//! use hopkit::movement::{self, MoveInput, MoveParams, MoverState};
//! use hopkit::stick::wish_from_stick;
//! use hopkit::timestep::FixedStep;
//!
//! // Seed 000's numbers (see "Seeds" below): ground max 10 units/s.
//! let params = MoveParams::seed();
//! let ground = FlatGround::new(0.0);
//! let mut player = MoverState::new(Vec3::ZERO);
//! let mut clock = FixedStep::new(60);
//!
//! // One second of 8 ms render frames (125 fps):
//! // exactly 60 simulation ticks.
//! for _frame in 0..125 {
//!     for _ in 0..clock.advance_nanos(8_000_000).ticks {
//!         // The stick pushed up: forward.
//!         let wish = wish_from_stick(Vec2::new(0.0, 1.0));
//!         let input =
//!             MoveInput::with_yaw(wish.front_right(), false, 0.0);
//!         movement::step(&mut player, &params, &input, &ground, clock.tick_dt());
//!     }
//! }
//! assert_eq!(clock.ticks_total(), 60);
//! assert!((player.planar_speed() - params.max_speed).abs() < 1e-3);
//! // Yaw 0 faces −Z.
//! assert!(player.position.z < -5.0);
//! ```
//!
//! ## Seeds
//! hopkit's mechanics come from five short articles (Japanese, with Unity C# and cocos2d code)
//! the project calls its **seeds**, numbered 000–004: **000** strafe-jump movement
//! ([`movement`]; [`MoveParams::seed`](movement::MoveParams::seed) is its numbers), **001** Arrival
//! steering ([`steering`]), **002** recorded input replayed as enemy AI ([`ghost`]), **003**
//! aligning a character to the ground normal ([`slope`]), **004** a companion following the
//! player's breadcrumbs ([`follower`]). Where hopkit differs from a seed, why, and the one switch
//! back to the seed's behaviour: `docs/seed-fidelity.md` in the repository.
//!
//! ## Conventions
//! - Coordinates are **right-handed, Y up** (as Bevy and Godot). The ground plane is X/Z and a
//!   character with yaw 0 faces **−Z**; positive yaw turns it to its left (counter-clockwise seen from
//!   above). See [`math`].
//! - Time is in seconds, angles in radians unless a field says otherwise, distances in the user's
//!   world units (the presets state which units they were tuned for).
//! - Scalar maths goes through [`math::scalar`], which calls `libm` (default) or `micromath`
//!   (feature `micromath`) explicitly, so a build gives the same bits on x86_64, Cortex-M and wasm32.
//! - No function panics on any input; NaN/inf inputs are sanitised or rejected as each function
//!   documents.
//!
//! ## Modules
//! - [`math`]: `Vec2`, `Vec3`, `Quat` with zero-safe normalisation, scalar backend.
//! - [`hash`]: a 64-bit state hash over bit patterns, for replays and cross-platform checks.
//! - [`rng`]: a small seeded PRNG (PCG32) with no global state.
//! - [`ground`]: the ground-probe interface the host implements, and flat ground.
//! - [`collide`]: a fixed-capacity level of convex solids (boxes, ramps, stairs) and Quake III's
//!   box trace through it, behind the [`collide::Tracer`] trait.
//! - [`movement`]: Quake-style friction / accelerate / air-accelerate, jumping, presets (seed 000).
//! - [`timestep`]: fixed simulation ticks from render frames of any length.
//! - [`stick`]: raw ADC samples → calibrated, dead-zoned stick vectors; buttons; digital adapters.
//! - [`steering`]: arrival (seed 001), seek/flee/pursue/evade/wander/…, combiners.
//! - [`follower`]: a companion following the leader's breadcrumb trail (seed 004).
//! - [`slope`]: aligning a character to the ground normal (seed 003).
//! - [`ghost`]: recorded input replayed as enemy AI, the recording format (seed 002).
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(not(any(feature = "libm", feature = "micromath")))]
compile_error!(
    "hopkit needs a scalar maths backend: enable feature `libm` (default) or `micromath`"
);

pub mod collide;
pub mod follower;
pub mod ghost;
pub mod ground;
pub mod hash;
pub mod math;
pub mod movement;
pub mod rng;
pub mod slope;
pub mod steering;
pub mod stick;
pub mod timestep;

/// The crate README's (crates.io page's) Rust code blocks, compiled and run as doctests so they
/// never rot. (The repository README's are run by `hopkit-tests`.)
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
