//! Quill: an engine for chess variants no other engine plays, speaking UCI and CECP.
//!
//! Layers, from the wire inwards: [`protocol`] parses command lines into typed commands;
//! [`session`] turns commands into typed responses and text; [`game`] is the variant-independent
//! face of the rules in [`variants`]; [`player`] chooses moves. Only `main.rs` touches stdin and
//! stdout.

/// The one list of the variants, grouped by the type that holds their positions: for each
/// family its [`crate::game::Game`] arm and position type, whether it is sealed and its piece
/// names; for each variant its `Variant` arm, canonical name and rule set. It hands the list
/// to the macro named `$then`: [`crate::variant::Variant`] is declared from it in
/// [`crate::variant`], and `Game` with its dispatch in [`crate::game`], so every list of
/// variants is this one and a variant is in `Variant::ALL` by being written here. It lives in
/// the crate root so that no module names another's types through it: the paths are resolved
/// only where `Game` is made, and `variant` (below the variants) never uses them.
macro_rules! registry {
    ($then:ident) => {
        $then! {
            /// Apocalypse (either rule set).
            Apocalypse(crate::variants::apocalypse::Position),
            sealed: true,
            pieces: [('N', "horseman"), ('P', "footman")],
            {
                /// Apocalypse with the seed rules (`protocol-docs/rules.md` §1).
                Apocalypse => "apocalypse", crate::variants::apocalypse::Rules::Seed;
                /// Apocalypse with Elliott's redeploy rule (`protocol-docs/rules.md` §1).
                ApocalypseClassic => "apocalypse-classic", crate::variants::apocalypse::Rules::Classic;
            }
            /// Gladiator or Brawl.
            Gladiator(crate::variants::gladiator::Position),
            sealed: false,
            pieces: [
                ('K', "king"),
                ('Q', "queen"),
                ('R', "rook"),
                ('B', "bishop"),
                ('N', "knight"),
                ('P', "pawn"),
            ],
            {
                /// Gladiator Chess (`protocol-docs/rules.md` §2).
                Gladiator => "gladiator", crate::variants::gladiator::Rules::Gladiator;
                /// Brawl Chess, Gladiator without the arena (`protocol-docs/rules.md` §2).
                Brawl => "brawl", crate::variants::gladiator::Rules::Brawl;
            }
            /// Pagan Chess.
            Pagan(crate::variants::pagan::Position),
            sealed: false,
            pieces: [
                ('K', "king"),
                ('W', "wazir"),
                ('A', "alchemist"),
                ('G', "pagan"),
                ('P', "pawn"),
            ],
            {
                /// Pagan Chess: game board, bridge and dead board (`protocol-docs/rules.md` §3).
                Pagan => "pagan", ();
            }
        }
    };
}

pub mod bench;
pub mod board;
pub(crate) mod choice;
pub mod cli_output;
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
