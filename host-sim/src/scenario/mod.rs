//! Scenarios: headless experiments on single mechanics with CSV traces and plots.

pub mod error;
