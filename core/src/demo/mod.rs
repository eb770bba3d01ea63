//! The demo scene shared by host-sim, firmware, C and wasm. Filled in by integration.
