//! The link cable of two handhelds (`hopkit_demo::link`) on the host: what `hopkit-sim link` runs
//! (the command: `crate::app::link`).
//!
//! - `link play`: two boards over a simulated serial wire (baud, latency, jitter, lost and flipped
//!   bytes, a cut), each board's checksums against the replay of both boards' logged inputs;
//!   `--log DIR` writes those inputs as recordings (`hopkit-sim hash --arena` replays them).
//! - `link inputs`: a board's arena inputs from the stick samples it read (a sticks file, as the
//!   emulator harness feeds the board), from the input its match began at, as a recording.

pub mod play;
