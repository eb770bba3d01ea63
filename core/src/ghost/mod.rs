//! Ghost pilots (seed 002). Filled in by the ghost work.
