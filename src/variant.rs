//! The list of variants Quill plays, with their canonical names and board descriptions.
//!
//! [`Variant`], [`Variant::ALL`] and [`crate::game::Game`] are made from one list (the
//! crate's `registry!` macro), so `ALL` holds every variant by construction and no list of variants can
//! be written twice; the XBoard tables of a variant live in its module
//! (`crate::rules::XboardCodec`), reached through `Variant::xboard` in [`crate::game`].

use std::fmt;

/// Declares [`Variant`] from the crate's `registry!` (in `lib.rs`), so that the enum, its
/// names, its families' facts and [`Variant::ALL`] cannot disagree.
macro_rules! declare_variants {
    ($(
        $(#[$family_doc:meta])*
        $family:ident($ty:ty),
        sealed: $sealed:literal,
        pieces: $pieces:tt,
        { $( $(#[$doc:meta])* $arm:ident => $name:literal, $set:expr; )+ }
    )+) => {
        /// A game Quill knows.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            $($($(#[$doc])* $arm,)+)+
        }

        impl Variant {
            /// Every variant, in the order they are listed to GUIs; the first is the default.
            pub const ALL: [Variant; [$($($name),+),+].len()] = [$($(Variant::$arm),+),+];

            /// The canonical name, the one spelling accepted on the wire.
            pub const fn name(self) -> &'static str {
                match self {
                    $($(Variant::$arm => $name,)+)+
                }
            }

            /// Whether both players move at once in secret (sealed turns).
            pub const fn is_sealed(self) -> bool {
                match self {
                    $($(Variant::$arm => $sealed,)+)+
                }
            }

            /// The piece names of the variant, by upper-case FEN letter (for legends and
            /// messages).
            pub(crate) const fn piece_names(self) -> &'static [(char, &'static str)] {
                match self {
                    $($(Variant::$arm => &$pieces,)+)+
                }
            }
        }
    };
}

registry!(declare_variants);

impl Variant {
    /// The default variant of a fresh engine.
    pub const DEFAULT: Variant = Variant::Apocalypse;

    /// Looks a variant up by its canonical name.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
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
    pub(crate) const fn index(self) -> usize {
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
