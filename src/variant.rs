//! The list of variants Quill plays, with their canonical names and board descriptions.
//!
//! Every list of variants in the program is derived from [`Variant::ALL`] through an exhaustive
//! `match`, so a new variant cannot be forgotten in one place.

use std::fmt;

/// A game Quill knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Apocalypse with the seed rules (`protocol-docs/rules.md` §1).
    Apocalypse,
    /// Apocalypse with Elliott's redeploy rule (`protocol-docs/rules.md` §1).
    ApocalypseClassic,
    /// Gladiator Chess (`protocol-docs/rules.md` §2).
    Gladiator,
    /// Brawl Chess, Gladiator without the arena (`protocol-docs/rules.md` §2).
    Brawl,
    /// Pagan Chess: game board, bridge and dead board (`protocol-docs/rules.md` §3).
    Pagan,
}

impl Variant {
    /// Every variant, in the order they are listed to GUIs; the first is the default.
    pub const ALL: [Variant; 5] = [
        Variant::Apocalypse,
        Variant::ApocalypseClassic,
        Variant::Gladiator,
        Variant::Brawl,
        Variant::Pagan,
    ];

    /// The default variant of a fresh engine.
    pub const DEFAULT: Variant = Variant::Apocalypse;

    /// The canonical name, the one spelling accepted on the wire.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Apocalypse => "apocalypse",
            Variant::ApocalypseClassic => "apocalypse-classic",
            Variant::Gladiator => "gladiator",
            Variant::Brawl => "brawl",
            Variant::Pagan => "pagan",
        }
    }

    /// Looks a variant up by its canonical name.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Whether both players move at once in secret (sealed turns).
    pub const fn is_sealed(self) -> bool {
        match self {
            Variant::Apocalypse | Variant::ApocalypseClassic => true,
            Variant::Gladiator | Variant::Brawl | Variant::Pagan => false,
        }
    }
}

impl Variant {
    /// XBoard's piece-to-character table for `setup`: for each of XBoard's 22 piece types
    /// (P N B R Q F E A C W M O H I J G D V L S U K) the letter used, `.` for none; White's
    /// half, then Black's.
    pub const fn piece_to_char(self) -> &'static str {
        match self {
            Variant::Apocalypse | Variant::ApocalypseClassic => {
                "PN....................pn...................."
            }
            Variant::Gladiator | Variant::Brawl => "PNBRQ................Kpnbrq................k",
            // Pawn P; the Pagan, a short queen, on the Queen's type; the Alchemist on the
            // alfil-like Elephant; the Wazir on the Wazir; King K. All but the King within
            // the first ten types, so that XBoard's holdings (for reincarnation) reach them.
            Variant::Pagan => "P...G.A..W...........Kp...g.a..w...........k",
        }
    }

    /// The holdings size and parent variant XBoard's `setup` names after the board size
    /// (`0_fairy`). Gladiator names `lion`, so that XBoard relays null moves as `usermove @@@@`;
    /// Brawl names `super` with 6 holdings, so that a displaced supporter goes to its owner's
    /// hand, whence its owner drops it (`protocol-docs/cecp.md`).
    pub const fn xboard_parent(self) -> &'static str {
        match self {
            Variant::Apocalypse | Variant::ApocalypseClassic => "0_fairy",
            Variant::Gladiator => "0_lion",
            Variant::Brawl => "6_super",
            // Ten holdings slots reach the Wazir's type (the King has a slot of its own).
            Variant::Pagan => "10_super",
        }
    }

    /// Whether XBoard is shown each turn as three plies (pawn leg, the opponent's null or drop,
    /// supporter move), because XBoard cannot move two pieces in one move.
    pub const fn xboard_plies(self) -> bool {
        match self {
            Variant::Gladiator | Variant::Brawl | Variant::Pagan => true,
            Variant::Apocalypse | Variant::ApocalypseClassic => false,
        }
    }

    /// Moves of the pieces XBoard can describe, as (piece letter, Betza notation).
    pub const fn betza(self) -> &'static [(char, &'static str)] {
        match self {
            Variant::Apocalypse | Variant::ApocalypseClassic => &[('N', "N"), ('P', "fmWfcF")],
            // Pawns borrow moves and Gladiator supporters jump anywhere on the border: Betza
            // cannot say it (`highlight` answers `lift` instead). The one line keeps XBoard from
            // taking a King's two-file jump for castling: a King with an initial-only move never
            // castles.
            Variant::Gladiator | Variant::Brawl => &[('K', "KiW")],
            // The Pagan (withdrawal, the bridge) and the pawns (sideways, promotion squares)
            // need `highlight`; the others Betza can state.
            Variant::Pagan => &[('K', "K"), ('W', "W2"), ('A', "FA")],
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first player, upper-case pieces.
    White,
    /// The second player, lower-case pieces.
    Black,
}

impl Side {
    /// The other player.
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }

    /// `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }

    /// `white` or `black`.
    pub const fn word(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}
