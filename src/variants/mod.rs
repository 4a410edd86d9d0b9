//! The rules of each variant, one module each, each implementing [`crate::rules::GameRules`] and
//! `crate::rules::XboardCodec` (by delegating to its own inherent methods).
//!
//! # Adding a variant
//!
//! 1. Write `src/variants/NAME.rs`: a `Position` with `impl GameRules` and `impl XboardCodec`
//!    (FEN through [`crate::board`], refusals as [`crate::rules::Refusal`], the XBoard tables;
//!    a game XBoard can show one move at a time keeps the codec's default plies methods), and
//!    how it is searched: `impl Searchable` for an alternating game (which gives it
//!    `crate::player::Chooser`), `impl Chooser` for a sealed one.
//! 2. `src/variants/mod.rs`: `pub mod NAME;` (1 line).
//! 3. `src/lib.rs`: its entry in the `registry!` list: the family's `Game` arm and
//!    position type, whether it is sealed, its piece names, and for each rule set the
//!    `Variant` arm, canonical name and rule-set value. [`crate::variant::Variant`],
//!    `Variant::ALL`, [`crate::game::Game`], its dispatch and `Game::start`/`Game::from_fen`
//!    are all made from that list.
//! 4. Document the rules in `protocol-docs/rules.md`; add transcripts and a perft table under
//!    `fixtures/`.
//!
//! Counted with a throwaway sealed 5x5 variant (a newtype over Apocalypse's seed rules from
//! another start) that compiled (`cargo check --all-targets`): 1 new file of 49 lines, the
//! `mod` line, an 8-line registry entry, and two arms the compiler points at in the GUI
//! (`gui/rules_view.rs`: the penalties and the board's regions). Before the registry the same
//! variant touched 15 places in 7 files.

pub mod apocalypse;
pub mod gladiator;
pub mod gladiator_play;
pub(crate) mod gladiator_xboard;
pub mod pagan;
pub mod pagan_play;
pub(crate) mod pagan_xboard;
