//! Steering behaviours (seed 001). Filled in by the steering work.
