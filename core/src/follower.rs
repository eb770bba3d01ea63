//! Companion follower (seed 004). Filled in by the follower work.
