//! hopkit's cross-crate integration tests, one test binary (`cargo test -p hopkit-tests --test
//! integration`), one module per topic; filter by module, e.g. `-- demo_golden::`.

mod adversarial;
mod demo_golden;
mod docs_numbers;
mod follower_oracle;
mod follower_party;
mod follower_props;
mod follower_rate;
mod follower_seed;
mod ghost_format;
mod ghost_golden;
mod ghost_playback;
mod movement_bot;
mod movement_cpma;
mod movement_crouch;
mod movement_fixedstep;
mod movement_ground;
mod movement_jump;
mod movement_ladder;
mod movement_oracles;
mod movement_platform;
mod movement_props;
mod movement_reference;
mod movement_seed;
mod numerics;
mod render_rates;
mod seed_fidelity;
mod slope_align;
mod slope_props;
mod steering_arrival;
mod steering_behaviours;
mod steering_combine;
mod steering_determinism;
mod steering_neighbours;
mod steering_props;
mod stick_pipeline;
