//! Board-independent hopkit handheld application and its drawing code.
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
pub mod render;
