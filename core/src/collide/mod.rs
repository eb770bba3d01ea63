//! A level made of solids, and a box traced through it (issue 34 §2).
//!
//! A [`World`] holds up to `N` convex [`Brush`]es (boxes, ramps, wedges, stairs, any convex solid of
//! a few planes) in fixed storage, with a uniform grid over them; [`Tracer::trace`] sweeps the
//! character's box (Quake's `mins`/`maxs`, relative to the feet) from a start to an end and
//! reports how far it got, where it stopped, the plane it hit, whether it started inside a solid
//! or stayed inside one the whole way, and which solid. [`Tracer`] is a trait, like
//! [`GroundProbe`](crate::ground::GroundProbe): a game with its own physics can answer it; the
//! `World` is the built-in answer.
//!
//! # Example
//!
//! ```
//! use hopkit::collide::{Brush, SolidFlags, Toward, Tracer, World};
//! use hopkit::math::Vec3;
//!
//! let mut level = World::<64>::new(); // skin 1/8 unit, as Quake III
//! level.push(Brush::aabb(Vec3::new(-512.0, -16.0, -512.0), Vec3::new(512.0, 0.0, 512.0)).unwrap()).unwrap();
//! let wall = level.push(Brush::aabb(Vec3::new(64.0, 0.0, -256.0), Vec3::new(80.0, 128.0, 256.0)).unwrap()).unwrap();
//! level.push(Brush::ramp(Vec3::new(-256.0, 0.0, 0.0), Vec3::new(-128.0, 64.0, 64.0), Toward::MinusX).unwrap()).unwrap();
//! level.extend(Brush::stairs(Vec3::new(0.0, 0.0, 100.0), Toward::PlusZ, 4, 16.0, 16.0, 64.0).unwrap()).unwrap();
//! level.push(Brush::aabb(Vec3::new(0.0, 0.0, -40.0), Vec3::new(8.0, 96.0, -32.0)).unwrap().with_flags(SolidFlags::LADDER)).unwrap();
//!
//! // A standing Quake body (32 wide, 56 tall; feet at the origin point) runs into the wall.
//! let (mins, maxs) = (Vec3::new(-16.0, 0.0, -16.0), Vec3::new(16.0, 56.0, 16.0));
//! // Its feet rest 1/8 above the floor, where the ground trace keeps them.
//! let t = level.trace(Vec3::new(0.0, 0.125, 0.0), Vec3::new(100.0, 0.125, 0.0), mins, maxs);
//! assert_eq!(t.solid, Some(wall));
//! assert_eq!(t.plane.normal, Vec3::new(-1.0, 0.0, 0.0));
//! assert!((t.end.x - (64.0 - 16.0 - 0.125)).abs() < 1e-3); // 1/8 unit in front of the wall
//! assert!(!t.start_solid && t.fraction < 1.0);
//! // Standing on the floor is touching it: a position test reports it, a move along it is free.
//! assert_eq!(level.contents(Vec3::new(0.0, 0.0, 0.0), mins, maxs).solid, Some(0));
//! // Near the ladder, a slightly widened box finds its flag.
//! let at = Vec3::new(-16.5, 1.0, -36.0);
//! assert_eq!(level.contents(at, mins, maxs).solid, None);
//! let near = level.contents(at, mins, maxs + Vec3::new(1.0, 0.0, 0.0));
//! assert!(near.flags.contains(SolidFlags::LADDER));
//! ```
//!
//! # What matches Quake III (`cm_trace.c`) and what differs
//! - The per-brush clip is `CM_TraceThroughBrush`: each plane moved out by the box's corner
//!   offset (`offsets[signbits]`), the start and end distances `d1`, `d2`, the entering fraction
//!   `(d1 − ε)/(d1 − d2)` with the surface clip epsilon ε ([`SURFACE_CLIP_EPSILON`], 1/8 unit,
//!   the world's *skin*), the early out when the move
//!   stays in front of a plane, and the same start-solid rule: a box that starts inside (or
//!   touching) a brush sets `start_solid`, and `all_solid` (fraction 0, end = start) when it never
//!   leaves it; a brush it starts in does not block it, so a stuck body can move out.
//! - Brush bounds are tested first with the skin added (`CM_BoundsIntersect`).
//! - A brush is its bounding box plus up to [`MAX_BRUSH_PLANES`] sloped planes; the six axial
//!   planes come from the box (q3map's axial bevels always exist) and [`Brush::from_planes`]
//!   adds q3map's edge bevels, so the expanded planes are the exact Minkowski sum of box and
//!   brush (see [`Brush::is_exact`] for brushes whose bevels do not fit).
//! - Differs on purpose: the **leaving** fraction is `(d1 − ε)/(d1 − d2)` (where the move leaves
//!   the plane pushed out by ε), not Quake's `(d1 + ε)/(d1 − d2)` (pulled in by ε). Quake's
//!   shrinks each brush's window by up to 2ε of motion, so a move that overlaps a corner only
//!   briefly (a fast move along one axis, slow along another) passes through it — found by the
//!   double-precision reference test (`tests/tests/integration/collide_reference.rs`). Here the
//!   window is the ε-expanded brush's: the trace stops at or before the first contact, always.
//! - Also different: no BSP tree; a uniform grid instead (below). Ties between equally near hits go
//!   to the lowest solid index, not to the order of a tree walk. Inputs are cleaned (NaN/inf,
//!   out of range, inverted boxes), where Quake assumes valid ones. Positions are the feet, Y up
//!   (Quake: Z up, origin inside the box; only `mins`/`maxs` differ). No patches (curves), no
//!   capsules, no contents masks: every solid blocks, its [`SolidFlags`] ride along.
//!
//! # Moving solids
//! [`World::move_solid`] moves a solid by `velocity·dt` (a platform, a door, an elevator; no yaw:
//! translation only). The game moves its solids first each tick, then steps its bodies (Quake's
//! `SV_Push` order); [`Tracer::carrier`] tells the movement which moving solid carries a body
//! (it stands on it: its box traced down two skins and [`RIDER_SLACK`] hits its top, at its
//! position before or after its move) or pushes it (the box overlaps it now), and the movement
//! moves the body by the same `velocity·dt` through a trace (`movement::platform`): a wall stops
//! the body, the solid moves on. A body listed in `bodies` that the move would leave inside the
//! solid blocks the move (Quake III's blocked mover: [`MoveSolidError::Blocked`], the solid put
//! back bit for bit). A moving solid ([`SolidFlags::MOVING`]) is tested by every query (the grid
//! lists it nowhere, so a move needs no rebuild); at most [`MAX_MOVING_SOLIDS`] solids move. A
//! world where nothing moved answers and costs exactly as before.
//!
//! # Water
//! [`World::add_water`] adds a [`WaterVolume`], an axis-aligned box of water (Quake's
//! `CONTENTS_WATER` brush; a pool, a flooded room): it blocks no trace, and [`Tracer::water`]
//! (so [`Solid`]'s `GroundProbe::water`, which `movement::step` asks every tick) answers the
//! surface — the top — of the highest volume containing the point (faces included; beside, below
//! or above every volume, or NaN/inf: none). A world with no water answers after one compare.
//!
//! # Capacities, sizes, bounds
//! - `World<N>`: `N` solids ≤ [`MAX_SOLIDS`], of which up to [`MAX_MOVING_SOLIDS`] move, and up
//!   to [`MAX_WATER_VOLUMES`] water volumes; `N · 138 + 956` bytes plus three `usize`s, padded:
//!   `World<256>` = 36,312 bytes on 64-bit targets (a test checks it), small enough for a
//!   Cortex-M4 with 128 KiB of RAM. No allocation. [`World::push`] on a full world returns
//!   [`WorldFull`] and changes nothing; so does [`World::add_water`] with the water list full.
//! - The grid: 16 × 16 cells in X/Z over the solids' extent, `4 · N` index entries; solids
//!   covering more than 16 cells (a floor) are tested by every query.
//! - A trace visits the cells its swept box covers (≤ 256) and tests each candidate solid once
//!   (≤ `N` brushes, ≤ 6 + [`MAX_BRUSH_PLANES`] planes each): bounded, no loop depends on the
//!   input's values. A move across the whole level covers many cells; the slide move's short
//!   per-tick moves cover one to four.
//! - Coordinates: brushes must lie within ±[`MAX_COORD`]; trace inputs are clamped into it.
//!   `f32` spacing at coordinate `c` is about `c · 1.2e-7`: keep the level where that is well
//!   under the skin (for the 1/8 skin, |c| ≤ 65,536 gives 1/128).
//! - Deterministic: plain `f32` operations (no FMA, no library maths in the trace), a fixed
//!   visiting order, the same bits on every machine.

mod brush;
mod flags;
mod grid;
mod hull;
mod plane;
mod solid;
mod trace;
mod water;
mod world;

#[cfg(test)]
mod moving_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod water_tests;

pub use brush::{Brush, BrushError, Stairs, Toward, MAX_BRUSH_PLANES, MAX_INPUT_PLANES};
pub use flags::SolidFlags;
pub use grid::{GRID_DIM, GRID_ENTRIES_PER_SOLID, MAX_CELLS_PER_SOLID};
pub use plane::Plane;
pub use solid::{Solid, PROBE_REACH};
pub use trace::{Carrier, Contents, TraceGuard, TraceResult, Tracer};
pub use water::{WaterVolume, MAX_WATER_VOLUMES};
pub use world::{BodyBox, MoveSolidError, World, WorldFull, MAX_MOVING_SOLIDS, MAX_SOLIDS};

/// Quake III's `SURFACE_CLIP_EPSILON`: a trace stops this far (world units) in front of the
/// surface it hits, so the end position is never on or in a solid. The default skin of a
/// [`World`] ([`World::with_skin`] changes it).
pub const SURFACE_CLIP_EPSILON: f32 = 0.125;

/// How much farther than twice the skin a body's box is traced down to find the moving solid it
/// stands on ([`Tracer::carrier`]), world units (1/64).
pub const RIDER_SLACK: f32 = 1.0 / 64.0;

/// The largest skin [`World::with_skin`] accepts, world units.
pub const MAX_SKIN: f32 = 1024.0;

/// Coordinates a world works within, world units: brushes beyond ±`MAX_COORD` are rejected,
/// trace inputs clamped into it (2²⁰; Quake's worlds span ±65,536). Keeps every sum and dot
/// product of the trace finite.
pub const MAX_COORD: f32 = 1_048_576.0;
