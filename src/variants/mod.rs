//! The rules of each variant, one module each.

pub mod apocalypse;
pub mod gladiator;
pub mod gladiator_play;
pub mod pagan;
pub mod pagan_play;
