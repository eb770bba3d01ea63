//! The demo scene shared by every front end (host-sim window, firmware, QEMU image, C example,
//! wasm cart), so that they all simulate — and hash — exactly the same thing.
//!
//! [`view`] holds the plain-data snapshot ([`DemoView`]) the drawing code renders; the scene itself
//! is assembled from the mechanics modules.

pub mod level;
pub mod view;

pub use view::{BodyView, CritterView, DemoView, GhostView, RampView};
