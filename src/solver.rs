//! Matrix-game solver.
