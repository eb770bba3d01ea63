//! Quake-style strafe-jump movement (seed 000). Filled in by the movement work.
