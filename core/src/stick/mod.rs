//! Analog stick input pipeline. Filled in by the stick work.
