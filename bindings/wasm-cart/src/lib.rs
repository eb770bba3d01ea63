//! wasm32 cart (being written).
