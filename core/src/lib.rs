//! # hopkit
//!
//! A `no_std`, allocation-free, deterministic controller core for game characters.
//!
//! Every mechanic is plain data plus plain functions: a *state* struct, a *params* struct whose every
//! field documents its unit and default, and a `step` function that takes the state by `&mut`, the
//! params by `&`, this tick's input and `dt` in seconds. Constants that depend only on the params
//! and the tick length, for callers that step many bodies or many ticks with the same ones, are
//! the mechanic's `TickConsts`: built once by `TickConsts::new(&params, dt)`, passed to the
//! mechanic's `…_with` function in place of the params and `dt` (the same bits as the plain form).
//!
//! ## The public surface
//!
//! One row a module; each module's items are all at its path (`hopkit::movement::MoverState`,
//! …), its sub-files private. Every item named below is a link, which `cargo doc` with warnings
//! denied (as CI runs it) checks: a renamed or removed item fails the build.
//!
//! | module | state, params, step | fast forms | also |
//! |---|---|---|---|
//! | [`movement`] (seed 000) | [`MoverState`](movement::MoverState), [`MoveParams`](movement::MoveParams) and its presets, [`MoveInput`](movement::MoveInput); [`movement::step`]`(&mut MoverState, &MoveParams, &MoveInput, &impl GroundProbe, dt) -> StepEvents` | [`movement::step_wish`] (walk and air, a cached [`WishDir`](movement::WishDir)); the planar kernel [`planar_velocity_tick`](movement::planar_velocity_tick), [`planar_velocity_tick_with`](movement::planar_velocity_tick_with)`(v, wish, &`[`TickConsts`](movement::TickConsts)`, grounded)`, [`planar_velocity_tick_batch`](movement::planar_velocity_tick_batch) | the kernels' pieces ([`friction`](movement::friction), [`accelerate`](movement::accelerate), [`air_accelerate`](movement::air_accelerate), [`world_wish`](movement::world_wish)); [`body_box`](movement::body_box), [`crouch_height`](movement::crouch_height), [`water_level`](movement::water_level), [`optimal_strafe_cos`](movement::optimal_strafe_cos); the seed's function [`next_player_vector`](movement::next_player_vector) |
//! | [`steering`] (seed 001) | [`ArrivalState`](steering::ArrivalState), [`SteeringParams`](steering::SteeringParams), [`ArrivalParams`](steering::ArrivalParams); [`steering::arrival_step`]`(&mut ArrivalState, &SteeringParams, &ArrivalParams, target: Vec3, dt) -> ArrivalEvents` | [`steering::arrival_step_with`]`(&mut ArrivalState, &`[`TickConsts`](steering::TickConsts)`, target)` | the behaviours on an [`Agent`](steering::Agent) ([`seek`](steering::seek), [`flee`](steering::flee), [`pursue`](steering::pursue), [`evade`](steering::evade), [`wander`](steering::wander()), [`flock`](steering::flock), [`avoid_obstacles`](steering::avoid_obstacles), [`follow_path`](steering::follow_path), …), the combiners ([`blend`](steering::blend), [`priority`](steering::priority), [`truncated_budget`](steering::truncated_budget)), [`integrate`](steering::integrate); the seed's [`arrival_seed_frame`](steering::arrival_seed_frame) |
//! | [`ghost`] (seed 002) | [`Ghost`](ghost::Ghost)`::step(&mut self, &Recording, &FlyerParams, targets: &[Vec3], &impl GroundProbe) -> GhostTick` (fixed `dt` = the recording's tick); the body: [`ghost::flyer::step`]`(&mut FlyerState, &FlyerParams, torque: Vec3, dt) -> FlyerEvents` | [`GhostScene`](ghost::GhostScene) (many ghosts, one tick) | recording: [`Recorder`](ghost::Recorder), [`record_and_fly`](ghost::record_and_fly); the file: [`ghost::format`], [`Recording`](ghost::Recording), [`load`](ghost::load), [`encode_v2`](ghost::encode_v2), [`verify`](ghost::verify); [`spawn_fleet`](ghost::spawn_fleet), [`spawn_formation`](ghost::spawn_formation) |
//! | [`slope`] (seed 003) | [`SlopeState`](slope::SlopeState), [`SlopeParams`](slope::SlopeParams); [`slope::step`]`(&mut SlopeState, &SlopeParams, body: Quat, ground_normal: Option<Vec3>, dt) -> SlopeEvents` | — | |
//! | [`follower`] (seed 004) | [`FollowerState`](follower::FollowerState), [`FollowerParams`](follower::FollowerParams); [`follower::step`]`(&mut FollowerState<N>, &FollowerParams, leader: Vec3, &impl GroundProbe, dt) -> FollowerEvents` | [`follower::step_with`]`(&mut FollowerState<N>, &`[`TickConsts`](follower::TickConsts)`, leader, &impl GroundProbe)` | a party of followers: [`follower::party::step`], [`Party`](follower::Party), [`PartyParams`](follower::PartyParams); [`regroup`](follower::regroup) |
//! | [`stick`] | [`StickPipeline`](stick::StickPipeline)`::process(&mut self, &RawSticks) -> StickFrame` (raw ADC samples → calibrated, dead-zoned sticks; one tick) | — | [`wish_from_stick`](stick::wish_from_stick), [`look_rate`](stick::look_rate), [`shape`](stick::shape()), [`Buttons`](stick::Buttons); digital pads, WASM-4 and crank adapters: [`stick::digital`] |
//! | [`timestep`] | [`FixedStep`](timestep::FixedStep)`::advance_nanos(&mut self, frame_ns: u64) -> Advance` (render frame → whole ticks) | — | [`SubSteps`](timestep::SubSteps) |
//! | [`ground`] | the trait the host implements: [`GroundProbe`](ground::GroundProbe) | — | [`FlatGround`](ground::FlatGround), [`PlaneGround`](ground::PlaneGround), [`NoGround`](ground::NoGround), [`SurfaceMotion`](ground::SurfaceMotion) |
//! | [`collide`] | a fixed-capacity level of convex solids: [`World`](collide::World) of [`Brush`](collide::Brush)es (boxes, ramps, stairs) | — | Quake III's box trace behind the [`Tracer`](collide::Tracer) trait |
//! | [`math`] | [`Vec2`](math::Vec2), [`Vec3`](math::Vec3), [`Quat`](math::Quat) with zero-safe normalisation | — | the scalar backend every mechanic calls, [`math::scalar`] (`libm` or `micromath`, the same bits on every CPU); [`yaw_forward`](math::yaw_forward), [`wrap_angle`](math::wrap_angle) |
//! | [`hash`] | a 64-bit state hash over bit patterns: [`StateHash`](hash::StateHash), [`StateHasher`](hash::StateHasher) | — | [`format_hash_line`](hash::format_hash_line) |
//! | [`rng`] | a seeded PCG32 with no global state: [`Pcg32`](rng::Pcg32) | — | |
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
