//! Shared helpers for hopkit's cross-crate integration tests (see `tests/tests/`).

/// The repository README's Rust code blocks, compiled and run as doctests so they never rot
/// (`cargo test --doc -p hopkit-tests`; moved here from `hopkit`, whose package cannot include a
/// file outside `core/`). `scripts/check-readme-rust.sh` also builds and runs the "Use from Rust"
/// block pasted verbatim as a new crate's `src/main.rs`.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
