//! The integration tests of this crate as one test binary (`--test integration`), one module
//! per topic; run one with a filter, e.g. `cargo test --test integration -- cli::`.

mod cli;
mod collide_cli;
mod modules;
mod mover_cli;
mod netplay;
mod render_golden;
mod solid_cli;
mod truth_cli;
mod window_recipe;
