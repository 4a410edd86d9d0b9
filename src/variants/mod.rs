//! The rules of each variant, one module each, each implementing [`crate::rules::GameRules`] and
//! `crate::rules::XboardCodec` (by delegating to its own inherent methods).
//!
//! # Adding a variant
//!
//! 1. Write `src/variants/NAME.rs`: a `Position` with `impl Rules` and `impl XboardCodec`
//!    (FEN through [`crate::board`], refusals as [`crate::rules::Refusal`], the XBoard tables;
//!    a game XBoard can show one move at a time keeps the codec's default plies methods), and
//!    `impl Searchable` for an alternating game (the sealed search is Apocalypse's own).
//! 2. `src/variants/mod.rs`: `pub mod NAME;` (1 line).
//! 3. `src/variant.rs`: its line in the `variants!` list (the enum arm, the canonical name and
//!    its place in [`crate::variant::Variant::ALL`]) and its arm in `Variant::is_sealed`
//!    (2 places).
//! 4. `src/game.rs`: the `use`, the `Game` arm, its line in the `each!` dispatch macro, and its
//!    arms in `Game::start`, `Game::from_fen` and `Variant::xboard` (6 places).
//! 5. `src/player.rs`: its arms in `choose` and `choose_with_table` (2 places).
//! 6. `src/referee/human.rs`: its piece names and its arm in the refusal explanation
//!    (2 places).
//! 7. Document the rules in `protocol-docs/rules.md`; add transcripts and a perft table under
//!    `fixtures/`.
//!
//! Steps 2 to 6 are 13 places in 5 files besides the new one, and the compiler points at every
//! one but the `mod` line and the `variants!` line (the matches are exhaustive, with no
//! wildcard). Counted with a throwaway 3x3 variant that compiled (`cargo check --all-targets`)
//! after exactly these edits: 1 new file of 199 lines, 15 added lines elsewhere.

pub mod apocalypse;
pub mod gladiator;
pub mod gladiator_play;
pub(crate) mod gladiator_xboard;
pub mod pagan;
pub(crate) mod pagan_play;
pub(crate) mod pagan_xboard;
