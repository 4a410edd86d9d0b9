//! The rules of each variant, one module each.

pub mod apocalypse;
