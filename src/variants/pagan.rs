//! Pagan Chess: `protocol-docs/rules.md` §3 (see `protocol-docs/variants/pagan.md`).
//!
//! One 7x11 frame holds the three parts: ranks 7–11 the game board, ranks 5–6 the bridge
//! (holes), ranks 1–4 on files b–f the dead board. Index `(rank - 1) * 7 + file`. The bridge is
//! in the step tables: `STEP` never crosses it, `PAGAN_STEP` crosses it with zero width on
//! files b–f, so move generation needs no special case for it.

mod attacks;
pub(crate) mod hunt;
mod moves;
mod notation;
mod tables;
#[cfg(test)]
mod tests;

pub(crate) use self::attacks::Occupancy;
pub(crate) use self::tables::{NO, PAGAN_STEP, STEP, bit, is_dead};
use crate::geometry::{Geometry, Square};
use crate::notation::{Leg, WireMove};
use crate::variant::Side;

/// Number of frame squares.
pub(crate) const SQUARES: usize = 77;
/// The start position.
pub(crate) const START_FEN: &str =
    "kp4P/ap4W/gp3PG/w4PA/p4PK/*******/*******/*5*/*5*/*5*/*5* w - - 0 1";

/// The frame with its holes (bridge ranks 5–6; files a and g of ranks 1–4).
pub(crate) fn geometry() -> Geometry {
    let mut holes = Vec::new();
    for file in 0..7u8 {
        holes.push(Square::new(file, 5));
        holes.push(Square::new(file, 6));
    }
    for rank in 1..=4u16 {
        holes.push(Square::new(0, rank));
        holes.push(Square::new(6, rank));
    }
    Geometry::new(7, 11).with_holes(&holes)
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// King: one step any direction; royal only on the dead board.
    King,
    /// Wazir: 1 or 2 squares orthogonally, the middle one empty.
    Wazir,
    /// Alchemist: a diagonal step, or a 2-square diagonal leap over anything.
    Alchemist,
    /// Pagan: 1 or 2 squares in any direction; captures only by withdrawal; crosses the bridge.
    Pagan,
    /// Pawn: steps toward the enemy's home file; captures sideways (a rank up or down).
    Pawn,
}

const KINDS: [(Kind, char); 5] = [
    (Kind::King, 'k'),
    (Kind::Wazir, 'w'),
    (Kind::Alchemist, 'a'),
    (Kind::Pagan, 'g'),
    (Kind::Pawn, 'p'),
];

/// A piece: its kind and owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Piece {
    /// The kind.
    pub(crate) kind: Kind,
    /// The owner.
    pub(crate) side: Side,
}

impl Piece {
    /// The FEN letter.
    pub(crate) fn letter(self) -> char {
        let c = KINDS
            .iter()
            .find(|(k, _)| *k == self.kind)
            .expect("every kind has a letter")
            .1;
        if self.side == Side::White {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }
}

/// A move: from, to, and a promotion kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece starts.
    pub(crate) from: u8,
    /// Where it lands.
    pub(crate) to: u8,
    /// The piece a pawn becomes.
    pub(crate) promotion: Option<Kind>,
}

impl Move {
    /// The move as written on the wire.
    pub(crate) fn to_wire(self) -> WireMove {
        let g = geometry();
        let promotion = self
            .promotion
            .map(|k| KINDS.iter().find(|(x, _)| *x == k).expect("a kind").1);
        WireMove::Legs {
            legs: vec![Leg {
                from: g.square(usize::from(self.from)),
                to: g.square(usize::from(self.to)),
            }],
            promotion,
        }
    }
}

use crate::board::FenError;
pub(crate) use crate::rules::{End, Refusal};

/// A Pagan Chess position.
///
/// Equality and hashing look at what a FEN writes, not at `Position::reversible_plies`.
#[derive(Clone, Debug)]
pub struct Position {
    board: [Option<Piece>; SQUARES],
    to_move: Side,
    halfmove: u32,
    fullmove: u32,
    /// Plies since the last irreversible move, at least (`u32::MAX` from a FEN: unknown).
    reversible: u32,
    /// The board again as bitboards: White's pieces, Black's, then the wazirs, alchemists,
    /// Pagans, pawns and kings of both.
    bits: [u128; 7],
    /// The Zobrist key of the pieces and the side to move (`Searchable::key`), kept by
    /// `Position::set_bit` and `Position::play`.
    key: u64,
}

/// Zobrist keys: `(side * 5 + kind) * 77 + square` (kinds as [`kind_key`] orders them), then
/// the side to move.
const KEYS: [u64; 10 * SQUARES + 1] = crate::search::zobrist_keys(0x7061_6761_6e5f_6b65);
/// Where the side to move's key is in [`KEYS`].
const SIDE_KEY: usize = 10 * SQUARES;

/// A kind's place among [`KEYS`]: King, Wazir, Alchemist, Pagan, Pawn.
pub(crate) const fn kind_key(kind: Kind) -> usize {
    match kind {
        Kind::King => 0,
        Kind::Wazir => 1,
        Kind::Alchemist => 2,
        Kind::Pagan => 3,
        Kind::Pawn => 4,
    }
}

/// The key of `piece` on `sq`.
fn piece_key(piece: Piece, sq: u8) -> u64 {
    KEYS[(piece.side.index() * 5 + kind_key(piece.kind)) * SQUARES + usize::from(sq)]
}

/// The slot of a kind among [`Position`]'s bitboards.
const fn kind_slot(kind: Kind) -> usize {
    match kind {
        Kind::Wazir => 2,
        Kind::Alchemist => 3,
        Kind::Pagan => 4,
        Kind::Pawn => 5,
        Kind::King => 6,
    }
}

/// The dead board's squares.
pub(crate) const DEAD_SQUARES: u128 = (1u128 << 28) - 1;

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.to_move == other.to_move
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.board.hash(state);
        self.to_move.hash(state);
        self.halfmove.hash(state);
        self.fullmove.hash(state);
    }
}

impl Position {
    /// The start position.
    pub fn start() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// The piece on a frame index (`None` for an index off the frame).
    pub(crate) fn at(&self, sq: u8) -> Option<Piece> {
        self.board.get(usize::from(sq)).copied().flatten()
    }

    /// The piece on a square, as its FEN letter.
    pub(crate) fn piece_at(&self, sq: Square) -> Option<char> {
        let g = geometry();
        let i = g.index(sq)?;
        self.board[i].map(Piece::letter)
    }

    fn empty(&self, sq: u8) -> bool {
        self.board[usize::from(sq)].is_none()
    }

    /// At least the number of plies since the last irreversible move: no position further
    /// back can recur (`u32::MAX` when unknown, as after a FEN).
    pub(crate) fn reversible_plies(&self) -> u32 {
        self.reversible
    }

    /// The square of a side's king when it is on the dead board.
    pub(crate) fn dead_king(&self, side: Side) -> Option<u8> {
        let dead = self.pieces(side, Kind::King) & DEAD_SQUARES;
        (dead != 0).then(|| dead.trailing_zeros() as u8)
    }

    /// The bitboard of a side's pieces of a kind.
    pub(crate) fn pieces(&self, side: Side, kind: Kind) -> u128 {
        self.bits[side.index()] & self.bits[kind_slot(kind)]
    }

    /// Puts a piece's bits on a square or takes them off.
    fn set_bit(&mut self, piece: Piece, sq: u8, on: bool) {
        self.key ^= piece_key(piece, sq);
        for slot in [piece.side.index(), kind_slot(piece.kind)] {
            if on {
                self.bits[slot] |= bit(sq);
            } else {
                self.bits[slot] &= !bit(sq);
            }
        }
    }

    /// The Zobrist key of the pieces and the side to move.
    pub(crate) fn zobrist(&self) -> u64 {
        self.key
    }

    /// Hands the move to the other side.
    fn flip_side(&mut self) {
        self.to_move = self.to_move.opponent();
        self.key ^= KEYS[SIDE_KEY];
    }

    /// The bitboard of a side's pieces.
    pub(crate) fn side_bits(&self, side: Side) -> u128 {
        self.bits[side.index()]
    }

    pub(crate) fn bare_kings(&self) -> bool {
        self.bits[2..6].iter().all(|&x| x == 0)
    }

    /// The end of the game, if it has ended.
    pub(crate) fn end(&self) -> Option<End> {
        if self.bare_kings() {
            return Some(End::Draw("both kings are bare"));
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if !moves.is_empty() {
            return None;
        }
        Some(if self.in_check() {
            match self.to_move {
                Side::White => End::Win(Side::Black, "Black mates on the dead board"),
                Side::Black => End::Win(Side::White, "White mates on the dead board"),
            }
        } else {
            End::Draw("stalemate")
        })
    }
}

impl crate::rules::GameRules for Position {
    type RuleSet = ();
    type Move = Move;
    type Turn = Move;

    fn start((): ()) -> Position {
        Position::start()
    }

    fn from_fen((): (), fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }

    fn variant(&self) -> crate::variant::Variant {
        crate::variant::Variant::Pagan
    }

    fn geometry(&self) -> &'static Geometry {
        frame()
    }

    fn fen(&self) -> String {
        self.fen()
    }

    fn side_to_move(&self) -> Option<Side> {
        Some(self.to_move)
    }

    fn piece_at(&self, sq: Square) -> Option<char> {
        self.piece_at(sq)
    }

    fn end(&self) -> Option<End> {
        self.end()
    }

    fn legal_moves(&self, side: Side, out: &mut Vec<Move>) {
        out.clear();
        if side == self.to_move {
            self.legal_moves(out);
        }
    }

    fn wire(mv: Move) -> WireMove {
        mv.to_wire()
    }

    /// The legal moves: none after mate, stalemate or bare kings, so no `Position::end`
    /// test is needed (perft relies on it).
    fn legal_turns(&self, out: &mut Vec<Move>) {
        self.legal_moves(out);
    }

    fn read_turn(
        &self,
        turn: &crate::notation::WireTurn,
    ) -> Result<(Move, Vec<crate::rules::Penalty>), crate::rules::GameError> {
        crate::rules::read_single(self, turn, |mv| self.parse_move(mv))
    }

    fn play(&self, mv: Move) -> Position {
        self.play(mv)
    }

    fn search_key(&self) -> Option<u64> {
        Some(crate::search::Searchable::key(self))
    }
}

/// The frame, built once.
pub(crate) fn frame() -> &'static Geometry {
    static FRAME: std::sync::OnceLock<Geometry> = std::sync::OnceLock::new();
    FRAME.get_or_init(geometry)
}
