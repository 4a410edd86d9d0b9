//! Quill: an engine for chess variants no other engine plays, speaking UCI and CECP.
//!
//! Layers, from the wire inwards: [`protocol`] parses command lines into typed commands;
//! [`session`] turns commands into typed responses and text; [`game`] is the variant-independent
//! face of the rules in [`variants`]; [`player`] chooses moves. Only `main.rs` touches stdin and
//! stdout.

pub mod bench;
pub mod board;
pub(crate) mod choice;
pub mod commit;
pub mod game;
pub mod geometry;
pub mod gui;
pub mod notation;
pub(crate) mod perft;
pub mod player;
pub mod protocol;
pub mod referee;
pub mod rng;
pub mod rules;
pub mod search;
pub mod session;
pub mod simsearch;
pub mod solver;
pub mod tablebase;
pub mod transcript;
pub mod variant;
pub mod variants;
