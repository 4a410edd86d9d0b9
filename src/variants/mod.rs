//! The rules of each variant, one module each, each implementing [`crate::rules::Rules`] and
//! [`crate::rules::XboardCodec`] (by delegating to its own inherent methods).
//!
//! # Adding a variant
//!
//! 1. Write `src/variants/NAME.rs`: a `Position` with `impl Rules` and `impl XboardCodec`
//!    (FEN through [`crate::board`], refusals as [`crate::rules::Refusal`], the XBoard tables;
//!    a game XBoard can show one move at a time keeps the codec's default plies methods).
//! 2. Declare it below (`pub mod NAME;`).
//! 3. Add its name to the `variants!` list in `src/variant.rs` (this makes the enum arm, the
//!    canonical name and its place in [`crate::variant::Variant::ALL`]).
//! 4. In `src/game.rs`: a `Game` arm, its line in the `each!` dispatch macro, and its arms in
//!    `Game::start`/`Game::from_fen` and `Variant::is_sealed`/`Variant::xboard`.
//! 5. In `src/player.rs`: its arm in `choose` (the sealed or the alternating search; an
//!    alternating game implements [`crate::search::Searchable`]).
//! 6. Document the rules in `protocol-docs/rules.md` and add transcripts and a perft table
//!    under `fixtures/`.
//!
//! The compiler points at every place of steps 3 to 5 (the matches are exhaustive, with no
//! wildcard): there are 8 match arms and 1 macro line, in 3 files besides the new one.

pub mod apocalypse;
pub mod gladiator;
pub mod gladiator_play;
pub mod gladiator_xboard;
pub mod pagan;
pub mod pagan_play;
pub mod pagan_xboard;
