//! Fixed-timestep stepper. Filled in by the movement work.
