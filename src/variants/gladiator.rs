//! Gladiator Chess and Brawl Chess: `protocol-docs/rules.md` §2 (see `protocol-docs/variants/gladiator.md`).
//!
//! 8x8 bitboards, square `rank0 * 8 + file`. Pawns borrow the moves of the friendly supporters
//! that see them along a clear diagonal. A turn is a pawn move, then (Brawl) the placement of an
//! enemy supporter the pawn landed on, then an optional (or, without a pawn move, compulsory)
//! move of one own supporter: a jump to any vacant border square (Gladiator) or a non-capturing
//! FIDE move (Brawl).

mod fen;
mod moves;
mod play;
mod reach;
#[cfg(test)]
mod tests;
mod turns;
mod wire;

pub(crate) use self::moves::{KindSet, borrowed_by};
pub(crate) use self::reach::reach;
use crate::board::{FenError, bits};
use crate::geometry::{Geometry, Square};
use crate::notation::{Leg, WireMove};
use crate::variant::Side;

/// Board geometry of both games.
pub(crate) const GEOMETRY: Geometry = Geometry::new(8, 8);
/// The start position of both games.
pub(crate) const START_FEN: &str = "rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR w - - 0 1";

/// The inner 6x6 arena (b2–g7).
pub(crate) const ARENA: u64 = 0x007e_7e7e_7e7e_7e00;
/// The 28 border squares.
pub(crate) const BORDER: u64 = !ARENA;

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Gladiator Chess.
    Gladiator,
    /// Brawl Chess, the seed's variation.
    Brawl,
}

/// A kind of piece; all but the pawn are supporters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// A pawn (gladiator).
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King (an ordinary supporter).
    King = 5,
}

/// Every kind, in index order.
pub(crate) const KINDS: [Kind; 6] = [
    Kind::Pawn,
    Kind::Knight,
    Kind::Bishop,
    Kind::Rook,
    Kind::Queen,
    Kind::King,
];
const LETTERS: [char; 6] = ['p', 'n', 'b', 'r', 'q', 'k'];
const NONE: u8 = u8::MAX;

/// One legal turn: each part is optional, but a turn has at least one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The pawn move (from, to), or `NONE` squares when skipped.
    pub(crate) pawn: (u8, u8),
    /// Where the displaced enemy supporter is put (Brawl), or `NONE`.
    pub(crate) place: u8,
    /// The own supporter's move (from, to), or `NONE` squares.
    pub(crate) support: (u8, u8),
}

impl Turn {
    /// The turn as written on the wire.
    pub(crate) fn to_wire(self) -> WireMove {
        let sq = |i: u8| GEOMETRY.square(usize::from(i));
        let mut legs = Vec::with_capacity(3);
        if self.pawn.0 != NONE {
            legs.push(Leg {
                from: sq(self.pawn.0),
                to: sq(self.pawn.1),
            });
            if self.place != NONE {
                legs.push(Leg {
                    from: sq(self.pawn.1),
                    to: sq(self.place),
                });
            }
        }
        if self.support.0 != NONE {
            legs.push(Leg {
                from: sq(self.support.0),
                to: sq(self.support.1),
            });
        }
        WireMove::Legs {
            legs,
            promotion: None,
        }
    }

    /// Whether the turn has a pawn move.
    pub(crate) fn moves_pawn(self) -> bool {
        self.pawn.0 != NONE
    }

    /// The pawn move (from, to), if any.
    pub(crate) fn pawn_leg(self) -> Option<(Square, Square)> {
        self.moves_pawn()
            .then(|| (square_of(self.pawn.0), square_of(self.pawn.1)))
    }

    /// Where the enemy supporter the pawn displaces is put (Brawl), if one is.
    pub(crate) fn placement(self) -> Option<Square> {
        (self.place != NONE).then(|| square_of(self.place))
    }

    /// The own supporter's move (from, to), if any.
    pub(crate) fn supporter_leg(self) -> Option<(Square, Square)> {
        (self.support.0 != NONE).then(|| (square_of(self.support.0), square_of(self.support.1)))
    }
}

pub(crate) use crate::rules::{End, Refusal};

/// A Gladiator or Brawl position.
///
/// Equality and hashing look at what a FEN writes, not at `Position::reversible_plies`.
#[derive(Clone, Debug)]
pub struct Position {
    rules: Rules,
    kinds: [u64; 6],
    sides: [u64; 2],
    to_move: Side,
    /// Consecutive turns without a pawn move.
    quiet: u32,
    fullmove: u32,
    /// The Zobrist key ([`Position::zobrist`]), kept up to date by every change.
    key: u64,
    /// Turns since the last capture of a pawn, at least (`u32::MAX` from a FEN: unknown).
    reversible: u32,
}

impl Position {
    /// What equality and hashing look at.
    fn written(&self) -> (Rules, &[u64; 6], &[u64; 2], Side, u32, u32) {
        (
            self.rules,
            &self.kinds,
            &self.sides,
            self.to_move,
            self.quiet,
            self.fullmove,
        )
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.written() == other.written()
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.written().hash(state);
    }
}

/// Zobrist keys: `(side * 6 + kind) * 64 + square`, then the side to move, the quiet-turn
/// clock (0 to 4), and Brawl.
const KEYS: [u64; 12 * 64 + 7] = crate::search::zobrist_keys(0x6c61_6469_6174_6f72);
const SIDE_KEY: usize = 12 * 64;
const QUIET_KEY: usize = SIDE_KEY + 1;
const BRAWL_KEY: usize = QUIET_KEY + 5;

/// The key of a piece of side `s` and `kind` on `sq`.
#[inline]
fn piece_key(s: usize, kind: usize, sq: u8) -> u64 {
    KEYS[(s * 6 + kind) * 64 + usize::from(sq)]
}

/// The key of a quiet-turn clock (every count from 4 on ends the game alike).
fn quiet_key(quiet: u32) -> u64 {
    KEYS[QUIET_KEY + quiet.min(4) as usize]
}

#[inline]
fn bit(sq: u8) -> u64 {
    1u64 << sq
}

impl Position {
    /// The start position.
    pub fn start(rules: Rules) -> Position {
        Position::from_fen(rules, START_FEN).expect("the start FEN is valid")
    }

    /// Which game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// Pieces of a kind and side.
    #[inline]
    pub(crate) fn pieces(&self, side: Side, kind: Kind) -> u64 {
        self.kinds[kind as usize] & self.sides[side.index()]
    }

    /// All pieces of a side.
    pub fn side_pieces(&self, side: Side) -> u64 {
        self.sides[side.index()]
    }

    #[inline]
    pub(crate) fn occupied(&self) -> u64 {
        self.sides[0] | self.sides[1]
    }

    #[inline]
    pub(crate) fn supporters(&self, s: usize) -> u64 {
        self.sides[s] & !self.kinds[Kind::Pawn as usize]
    }

    #[inline]
    pub(crate) fn kind_at(&self, sq: u8) -> Option<Kind> {
        KINDS
            .into_iter()
            .find(|&k| self.kinds[k as usize] & bit(sq) != 0)
    }

    /// The piece on a square, as its FEN letter.
    pub(crate) fn piece_at(&self, sq: Square) -> Option<char> {
        let i = GEOMETRY.index(sq)? as u8;
        let kind = self.kind_at(i)?;
        let c = LETTERS[kind as usize];
        Some(if self.sides[0] & bit(i) != 0 {
            c.to_ascii_uppercase()
        } else {
            c
        })
    }

    fn move_piece(&mut self, from: u8, to: u8) {
        let kind = self.kind_at(from).expect("a piece to move") as usize;
        let s = usize::from(self.sides[1] & bit(from) != 0);
        self.shift(s, kind, from, to);
    }

    /// Moves side `s`'s piece of kind index `kind` from `from` to the empty `to`.
    #[inline(always)]
    fn shift(&mut self, s: usize, kind: usize, from: u8, to: u8) {
        self.kinds[kind] ^= bit(from) | bit(to);
        self.sides[s] ^= bit(from) | bit(to);
        self.key ^= piece_key(s, kind, from) ^ piece_key(s, kind, to);
    }

    /// The end of the game, if it has ended.
    pub fn end(&self) -> Option<End> {
        let has = |side: Side| self.pieces(side, Kind::Pawn) != 0;
        match (has(Side::White), has(Side::Black)) {
            (false, false) => return Some(End::Draw("neither player has a pawn")),
            (false, true) => return Some(End::Win(Side::Black, "White has no pawns left")),
            (true, false) => return Some(End::Win(Side::White, "Black has no pawns left")),
            (true, true) => {}
        }
        if self.quiet >= 4 {
            return Some(End::Draw("four turns without a pawn move"));
        }
        if !self.has_pawn_move() {
            let mut supporter = Vec::new();
            self.supporter_moves(&mut supporter);
            if supporter.is_empty() {
                return Some(End::Draw("the player to move has no legal turn"));
            }
        }
        None
    }

    /// A text diagram.
    pub(crate) fn diagram(&self) -> String {
        crate::board::diagram(&GEOMETRY, |sq| self.piece_at(sq))
    }

    /// The quiet-turn clock (turns without a pawn move).
    pub(crate) fn quiet(&self) -> u32 {
        self.quiet
    }

    /// At least the number of turns since the last capture of a pawn: pawns are never made,
    /// so no position before it can recur (`u32::MAX` when unknown, as after a FEN).
    pub(crate) fn reversible_plies(&self) -> u32 {
        self.reversible
    }
}

fn square_of(i: u8) -> Square {
    GEOMETRY.square(usize::from(i))
}
