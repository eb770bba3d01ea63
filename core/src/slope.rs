//! Slope alignment (seed 003). Filled in by the slope work.
