//! hopkit's benchmarks, and what they share.
//!
//! - `benches/table.rs`: the README's benchmark table, hopkit and each baseline timed
//!   interleaved (`scripts/bench-table.sh`, or `cargo bench -p hopkit-benches --bench table`).
//! - `benches/{movement,steering,steering_lists,follower,ghost}.rs`: criterion benches
//!   (`cargo bench -p hopkit-benches --bench <name> -- --warm-up-time 1 --measurement-time 3`).
//! - this library: the glam baselines, the steering scene, the collision level and the interleaved
//!   timing, shared by the benches and the examples (ordinary modules, not files each bench includes).
//!   What a bench times calls across the crate boundary: the baselines' functions are `#[inline]`
//!   (or generic) so that a bench compiles them into its own loop, as when each bench carried its
//!   own copy.
//! - `examples/movement_instructions.rs`: the movement rows' instruction counts per character,
//!   hopkit and the baselines, under `valgrind --tool=callgrind` (noise-free; recipe inside).
#![forbid(unsafe_code)]

pub mod collide_level;
pub mod glam_movement;
pub mod glam_steering;
pub mod interleave;
pub mod steering_scene;
