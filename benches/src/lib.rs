//! hopkit's benchmarks (no library code: a package needs a target besides its benches).
//!
//! - `benches/table.rs`: the README's benchmark table, hopkit and each baseline timed
//!   interleaved (`scripts/bench-table.sh`, or `cargo bench -p hopkit-benches --bench table`).
//! - `benches/{movement,steering,steering_lists,follower,ghost}.rs`: criterion benches
//!   (`cargo bench -p hopkit-benches --bench <name> -- --warm-up-time 1 --measurement-time 3`).
//! - `benches/shared/`: the glam baselines and the steering scene, shared by both.
//! - `examples/movement_instructions.rs`: the movement rows' instruction counts per character,
//!   hopkit and the baselines, under `valgrind --tool=callgrind` (noise-free; recipe inside).
#![forbid(unsafe_code)]
