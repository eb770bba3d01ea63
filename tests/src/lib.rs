//! Shared helpers for hopkit's cross-crate integration tests (see `tests/tests/`).
