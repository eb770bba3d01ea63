//! C ABI over hopkit (being written).
