//! # hopkit
//!
//! A `no_std`, allocation-free, deterministic controller core for game characters.
//!
//! Every mechanic is plain data plus plain functions: a *state* struct, a *params* struct whose every
//! field documents its unit and default, and a `step(&mut state, input, dt)` function.
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
//! - [`movement`]: Quake-style friction / accelerate / air-accelerate, jumping, presets (seed 000).
//! - [`timestep`]: fixed simulation ticks from render frames of any length.
//! - [`stick`]: raw ADC samples → calibrated, dead-zoned stick vectors; buttons; digital adapters.
//! - [`steering`]: arrival (seed 001), seek/flee/pursue/evade/wander/…, combiners.
//! - [`follower`]: a companion following the leader's breadcrumb trail (seed 004).
//! - [`slope`]: aligning a character to the ground normal (seed 003).
//! - [`ghost`]: recorded input replayed as enemy AI, the recording format (seed 002).
//! - [`demo`]: the demo scene and scripted input shared by every front end.
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(not(any(feature = "libm", feature = "micromath")))]
compile_error!(
    "hopkit needs a scalar maths backend: enable feature `libm` (default) or `micromath`"
);

pub mod demo;
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
