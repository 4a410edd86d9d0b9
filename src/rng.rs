//! Deterministic random numbers.
