//! Pagan Chess: `protocol-docs/rules.md` §3 (see `protocol-docs/variants/pagan.md`).
//!
//! One 7x11 frame holds the three parts: ranks 7–11 the game board, ranks 5–6 the bridge
//! (holes), ranks 1–4 on files b–f the dead board. Index `(rank - 1) * 7 + file`. The bridge is
//! in the step tables: `STEP` never crosses it, `PAGAN_STEP` crosses it with zero width on
//! files b–f, so move generation needs no special case for it.

pub(crate) mod hunt;

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

/// The eight directions; `DIRS[d]` and `DIRS[7 - d]` are opposite.
const DIRS: [(i8, i8); 8] = [
    (1, 1),
    (0, 1),
    (-1, 1),
    (1, 0),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];
const ORTHOGONAL: [usize; 4] = [1, 3, 4, 6];
const DIAGONAL: [usize; 4] = [0, 2, 5, 7];

const fn exists(file: i8, rank: i8) -> bool {
    file >= 0
        && file < 7
        && rank >= 1
        && rank <= 11
        && rank != 5
        && rank != 6
        && !(rank <= 4 && (file == 0 || file == 6))
}

const fn index(file: i8, rank: i8) -> u8 {
    ((rank - 1) * 7 + file) as u8
}

pub(crate) const NO: u8 = u8::MAX;

/// One step from a square in a direction for every piece but the Pagan (`NO` when the step
/// leaves the board or enters a hole).
const fn step_table(pagan: bool) -> [[u8; 8]; SQUARES] {
    let mut table = [[NO; 8]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 7) as i8, (sq / 7) as i8 + 1);
        let mut d = 0;
        while d < 8 {
            let (nf, nr) = (f + DIRS[d].0, r + DIRS[d].1);
            if exists(f, r) {
                if exists(nf, nr) {
                    table[sq][d] = index(nf, nr);
                } else if pagan && f >= 1 && f <= 5 && nf >= 1 && nf <= 5 {
                    // The bridge has zero width for the Pagan: rank 7 and rank 4 touch.
                    if r == 7 && DIRS[d].1 == -1 {
                        table[sq][d] = index(nf, 4);
                    } else if r == 4 && DIRS[d].1 == 1 {
                        table[sq][d] = index(nf, 7);
                    }
                }
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// Steps of every piece but the Pagan.
pub(crate) const STEP: [[u8; 8]; SQUARES] = step_table(false);
/// Steps of the Pagan, across the bridge.
pub(crate) const PAGAN_STEP: [[u8; 8]; SQUARES] = step_table(true);

/// The bit of a frame square in a [`u128`] bitboard.
pub(crate) const fn bit(sq: u8) -> u128 {
    1u128 << sq
}

/// Bitboards of the squares a king (0), an alchemist (1) and a wazir's single step (2)
/// reach from each square, holes and the bridge left out.
const fn reach_table(which: u8) -> [u128; SQUARES] {
    let mut table = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 7) as i8, (sq / 7) as i8 + 1);
        if exists(f, r) {
            let mut d = 0;
            while d < 8 {
                let (df, dr) = DIRS[d];
                let diagonal = df != 0 && dr != 0;
                let one = STEP[sq][d];
                let wanted = match which {
                    0 => true,
                    1 => diagonal,
                    _ => !diagonal,
                };
                if wanted && one != NO {
                    table[sq] |= bit(one);
                }
                if which == 1 && diagonal && exists(f + 2 * df, r + 2 * dr) {
                    table[sq] |= bit(index(f + 2 * df, r + 2 * dr));
                }
                d += 1;
            }
        }
        sq += 1;
    }
    table
}

const KING_REACH: [u128; SQUARES] = reach_table(0);
const ALCHEMIST_REACH: [u128; SQUARES] = reach_table(1);
const WAZIR_STEPS: [u128; SQUARES] = reach_table(2);

/// Occupancy bitboards of a position (bit [`bit`] of a frame index), for the evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Occupancy {
    /// Every piece.
    pub(crate) all: u128,
    /// Each side's pieces, by [`Side::index`].
    pub(crate) side: [u128; 2],
    /// Kings on the dead board (royal: never captured).
    pub(crate) royal: u128,
}

/// Whether a frame square is on the dead board.
pub(crate) const fn is_dead(sq: u8) -> bool {
    sq < 28
}

/// The dead-board squares in the order a side's captured pieces fill them.
const fn reincarnation_order(side: Side) -> [u8; 20] {
    // White: f4 f3 e4 e3 d4 d3 c4 c3 b4 b3, then f2 f1 e2 e1 … b2 b1; Black mirrored (b first).
    let mut out = [0u8; 20];
    let mut i = 0;
    let mut half = 0;
    while half < 2 {
        let mut col = 0;
        while col < 5 {
            let file = match side {
                Side::White => 5 - col,
                Side::Black => 1 + col,
            };
            let top = 4 - 2 * half;
            out[i] = index(file as i8, top as i8);
            out[i + 1] = index(file as i8, (top - 1) as i8);
            i += 2;
            col += 1;
        }
        half += 1;
    }
    out
}

const ORDER: [[u8; 20]; 2] = [
    reincarnation_order(Side::White),
    reincarnation_order(Side::Black),
];

/// Squares where a side's pawn must promote: the enemy's original K/A/G/W squares.
const fn promotion_square(side: Side, sq: u8) -> bool {
    let (f, r) = (sq % 7, sq / 7 + 1);
    match side {
        Side::White => f == 0 && r >= 8 && r <= 11,
        Side::Black => f == 6 && r >= 7 && r <= 10,
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
    /// Pagans and pawns of both (the kings are the rest).
    bits: [u128; 6],
}

/// The slot of a kind among [`Position`]'s bitboards (none for the king).
const fn kind_slot(kind: Kind) -> Option<usize> {
    match kind {
        Kind::King => None,
        Kind::Wazir => Some(2),
        Kind::Alchemist => Some(3),
        Kind::Pagan => Some(4),
        Kind::Pawn => Some(5),
    }
}

/// The dead board's squares.
const DEAD_SQUARES: u128 = (1u128 << 28) - 1;

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
    pub(crate) fn side_to_move(&self) -> Side {
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

    /// Parses a frame FEN (11 ranks of 7, `*` exactly on the holes, one king a side).
    ///
    /// # Errors
    /// A [`FenError`] naming the fault.
    pub(crate) fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields = crate::board::fen_fields(fen, 6)?;
        let mut pos = Position {
            board: [None; SQUARES],
            to_move: Side::White,
            halfmove: 0,
            fullmove: 1,
            reversible: u32::MAX,
            bits: [0; 6],
        };
        let frame = geometry();
        crate::board::read_board(&frame, fields[0], |square, c| {
            let Some(&(kind, _)) = KINDS.iter().find(|(_, l)| *l == c.to_ascii_lowercase()) else {
                return Err(FenError::NotAPiece {
                    letter: c,
                    expected: "a Pagan Chess piece (K W A G P, k w a g p)",
                });
            };
            let side = if c.is_ascii_uppercase() {
                Side::White
            } else {
                Side::Black
            };
            let i = frame.index(square).expect("a square of the frame");
            pos.board[i] = Some(Piece { kind, side });
            pos.set_bit(Piece { kind, side }, i as u8, true);
            Ok(())
        })?;
        for side in [Side::White, Side::Black] {
            let kings = pos
                .board
                .iter()
                .flatten()
                .filter(|p| p.side == side && p.kind == Kind::King)
                .count();
            if kings != 1 {
                return Err(FenError::Kings { side, count: kings });
            }
        }
        // With at most twenty pieces in all the dead board's twenty squares never overflow: a
        // victim taken on the game board leaves at most nineteen pieces to fill them.
        let pieces = pos.board.iter().flatten().count();
        if pieces > 20 {
            return Err(FenError::TooManyPieces {
                count: pieces,
                why: "more than 20 could overflow the dead board",
            });
        }
        let tail = crate::board::fen_tail(&fields, false)?;
        pos.to_move = tail.side;
        pos.halfmove = tail.counter;
        pos.fullmove = tail.number;
        Ok(pos)
    }

    /// The FEN, six fields.
    pub(crate) fn fen(&self) -> String {
        format!(
            "{} {} - - {} {}",
            crate::board::board_text(&geometry(), |sq| self.piece_at(sq)),
            self.to_move.letter(),
            self.halfmove,
            self.fullmove
        )
    }

    fn empty(&self, sq: u8) -> bool {
        self.board[usize::from(sq)].is_none()
    }

    /// Appends the pseudo-legal moves of the piece on `from` (royalty not yet checked).
    fn piece_moves(&self, from: u8, out: &mut Vec<Move>) {
        let Some(piece) = self.at(from) else { return };
        let me = piece.side;
        // A landing square: empty, or an enemy that may be taken by landing there.
        let can_land = |to: u8| match self.at(to) {
            None => true,
            Some(v) => {
                v.side != me && !(v.kind == Kind::King && (piece.kind == Kind::King || is_dead(to)))
            }
        };
        let mut push = |to: u8| {
            if piece.kind == Kind::Pawn && promotion_square(me, to) && !is_dead(from) {
                for kind in [Kind::Wazir, Kind::Alchemist, Kind::Pagan] {
                    out.push(Move {
                        from,
                        to,
                        promotion: Some(kind),
                    });
                }
            } else {
                out.push(Move {
                    from,
                    to,
                    promotion: None,
                });
            }
        };
        match piece.kind {
            Kind::King => {
                for &to in &STEP[usize::from(from)] {
                    if to != NO && can_land(to) {
                        push(to);
                    }
                }
            }
            Kind::Wazir => {
                for d in ORTHOGONAL {
                    let one = STEP[usize::from(from)][d];
                    if one == NO {
                        continue;
                    }
                    if can_land(one) {
                        push(one);
                    }
                    let two = STEP[usize::from(one)][d];
                    if self.empty(one) && two != NO && can_land(two) {
                        push(two);
                    }
                }
            }
            Kind::Alchemist => {
                for d in DIAGONAL {
                    let one = STEP[usize::from(from)][d];
                    if one != NO && can_land(one) {
                        push(one);
                    }
                    // The leap passes over anything, holes included.
                    let (f, r) = (
                        (from % 7) as i8 + 2 * DIRS[d].0,
                        (from / 7) as i8 + 1 + 2 * DIRS[d].1,
                    );
                    if exists(f, r) && can_land(index(f, r)) {
                        push(index(f, r));
                    }
                }
            }
            Kind::Pagan => {
                // It never captures by landing: only empty squares.
                for (d, &one) in PAGAN_STEP[usize::from(from)].iter().enumerate() {
                    if one == NO || !self.empty(one) {
                        continue;
                    }
                    push(one);
                    let two = PAGAN_STEP[usize::from(one)][d];
                    if two != NO && self.empty(two) {
                        push(two);
                    }
                }
            }
            Kind::Pawn => {
                let forward = if me == Side::White { 4 } else { 3 };
                let to = STEP[usize::from(from)][forward];
                if to != NO && self.empty(to) {
                    push(to);
                }
                for d in [1, 6] {
                    let to = STEP[usize::from(from)][d];
                    if to != NO && self.at(to).is_some_and(|v| v.side != me) && can_land(to) {
                        push(to);
                    }
                }
            }
        }
    }

    /// The piece a move sends to the dead board and the square it reincarnates on, if any.
    pub(crate) fn reincarnation(&self, mv: Move) -> Option<(Piece, u8)> {
        let next = self.play(mv);
        (0..28u8).find_map(|sq| match (self.at(sq), next.at(sq)) {
            (None, Some(p)) if sq != mv.to => Some((p, sq)),
            _ => None,
        })
    }

    /// The square a withdrawing Pagan captures on, if the move withdraws from an enemy.
    pub(crate) fn withdrawal_victim(&self, mv: Move) -> Option<u8> {
        let piece = self.at(mv.from)?;
        if piece.kind != Kind::Pagan {
            return None;
        }
        // The direction of the move: its first step.
        let d = (0..8).find(|&d| {
            let one = PAGAN_STEP[usize::from(mv.from)][d];
            one == mv.to || (one != NO && PAGAN_STEP[usize::from(one)][d] == mv.to)
        })?;
        let behind = PAGAN_STEP[usize::from(mv.from)][7 - d];
        match self.at(behind) {
            Some(v) if v.side != piece.side && !(v.kind == Kind::King && is_dead(behind)) => {
                Some(behind)
            }
            _ => None,
        }
    }

    /// Plays a pseudo-legal move: the mover lands (promoting), then its victim, if any,
    /// reincarnates (from the game board) or leaves the game (from the dead board).
    pub(crate) fn play(&self, mv: Move) -> Position {
        let mut next = self.clone();
        let mut piece = next.board[usize::from(mv.from)]
            .take()
            .expect("a piece to move");
        next.set_bit(piece, mv.from, false);
        let victim_sq = match self.at(mv.to) {
            Some(_) => Some(mv.to),
            None => self.withdrawal_victim(mv),
        };
        let victim = victim_sq.and_then(|sq| next.board[usize::from(sq)].take());
        if let (Some(v), Some(sq)) = (victim, victim_sq) {
            next.set_bit(v, sq, false);
        }
        if let Some(kind) = mv.promotion {
            piece.kind = kind;
        }
        next.board[usize::from(mv.to)] = Some(piece);
        next.set_bit(piece, mv.to, true);
        if let (Some(v), Some(sq)) = (victim, victim_sq)
            && !is_dead(sq)
        {
            let order = &ORDER[v.side.index()];
            if let Some(&free) = order
                .iter()
                .find(|&&q| next.board[usize::from(q)].is_none())
            {
                next.board[usize::from(free)] = Some(v);
                next.set_bit(v, free, true);
            }
        }
        next.halfmove = if victim.is_some() || piece.kind == Kind::Pawn || mv.promotion.is_some() {
            0
        } else {
            self.halfmove + 1
        };
        // Irreversible: whatever lowers, for good, the number of pieces in the game, of live
        // pieces but Pagans (only a Pagan comes back from the dead board), of pawns, or the
        // steps pawns have left. A captured live Pagan can walk back, so taking one is not.
        let irreversible = match (victim, victim_sq) {
            (Some(v), Some(sq)) => is_dead(sq) || v.kind != Kind::Pagan,
            _ => piece.kind == Kind::Pawn || mv.promotion.is_some(),
        } || mv.promotion.is_some();
        next.reversible = if irreversible {
            0
        } else {
            self.reversible.saturating_add(1)
        };
        if self.to_move == Side::Black {
            next.fullmove += 1;
        }
        next.to_move = self.to_move.opponent();
        next
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
        let own = self.bits[side.index()];
        match kind_slot(kind) {
            Some(k) => own & self.bits[k],
            None => own & !(self.bits[2] | self.bits[3] | self.bits[4] | self.bits[5]),
        }
    }

    /// Puts a piece's bits on a square or takes them off.
    fn set_bit(&mut self, piece: Piece, sq: u8, on: bool) {
        let slots = [Some(piece.side.index()), kind_slot(piece.kind)];
        for &slot in slots.iter().flatten() {
            if on {
                self.bits[slot] |= bit(sq);
            } else {
                self.bits[slot] &= !bit(sq);
            }
        }
    }

    /// Whether `side`'s piece on `target` is attacked (pseudo-legally) by the other side.
    pub(crate) fn attacked(&self, target: u8, side: Side) -> bool {
        let them = side.opponent();
        let t = usize::from(target);
        let enemy = |kind: Kind| self.pieces(them, kind);
        // The king, the alchemist and the wazir's step reach back along their own patterns.
        if KING_REACH[t] & enemy(Kind::King) != 0
            || ALCHEMIST_REACH[t] & enemy(Kind::Alchemist) != 0
            || WAZIR_STEPS[t] & enemy(Kind::Wazir) != 0
        {
            return true;
        }
        // Pawns capture sideways: a pawn one rank up or down on the same file.
        let pawns = enemy(Kind::Pawn);
        if [1, 6]
            .iter()
            .any(|&d| STEP[t][d] != NO && pawns & bit(STEP[t][d]) != 0)
        {
            return true;
        }
        let wazirs = enemy(Kind::Wazir);
        let pagans = enemy(Kind::Pagan);
        if wazirs == 0 && pagans == 0 {
            return false;
        }
        for d in 0..8 {
            if wazirs != 0 && ORTHOGONAL.contains(&d) {
                let one = STEP[t][d];
                if one != NO && self.empty(one) {
                    let two = STEP[usize::from(one)][d];
                    if two != NO && wazirs & bit(two) != 0 {
                        return true;
                    }
                }
            }
            // A Pagan adjacent (across the bridge too) that can withdraw: the square one step
            // directly away from the target exists and is empty.
            let pagan_sq = PAGAN_STEP[t][d];
            if pagan_sq != NO && pagans & bit(pagan_sq) != 0 {
                let away = PAGAN_STEP[usize::from(pagan_sq)][d];
                if away != NO && self.empty(away) {
                    return true;
                }
            }
        }
        false
    }

    /// Every square on which a piece of `victim`'s would be attacked by the other side, as
    /// [`Position::attacked`] judges one square, in one pass over the attackers.
    pub(crate) fn attacks(&self, victim: Side) -> u128 {
        let them = victim.opponent();
        let empty = |q: u8| q != NO && self.board[usize::from(q)].is_none();
        let mut map = 0;
        let each = |kind: Kind, map: &mut u128, f: &dyn Fn(usize) -> u128| {
            let mut b = self.pieces(them, kind);
            while b != 0 {
                *map |= f(b.trailing_zeros() as usize);
                b &= b - 1;
            }
        };
        each(Kind::King, &mut map, &|s| KING_REACH[s]);
        each(Kind::Alchemist, &mut map, &|s| ALCHEMIST_REACH[s]);
        each(Kind::Wazir, &mut map, &|s| {
            let mut m = WAZIR_STEPS[s];
            for d in ORTHOGONAL {
                let one = STEP[s][d];
                if empty(one) && STEP[usize::from(one)][d] != NO {
                    m |= bit(STEP[usize::from(one)][d]);
                }
            }
            m
        });
        each(Kind::Pawn, &mut map, &|s| {
            [1, 6]
                .iter()
                .filter(|&&d| STEP[s][d] != NO)
                .fold(0, |m, &d| m | bit(STEP[s][d]))
        });
        // A Pagan attacks its neighbour in direction d when the square in the opposite
        // direction, where it withdraws to, exists and is empty.
        each(Kind::Pagan, &mut map, &|s| {
            let mut m = 0;
            for d in 0..8 {
                let near = PAGAN_STEP[s][d];
                if near != NO && empty(PAGAN_STEP[s][7 - d]) {
                    m |= bit(near);
                }
            }
            m
        });
        map
    }

    /// Whether the side to move's king stands on the dead board under attack.
    pub(crate) fn in_check(&self) -> bool {
        self.dead_king(self.to_move)
            .is_some_and(|k| self.attacked(k, self.to_move))
    }

    /// Every legal move of the side to move.
    pub(crate) fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.bare_kings() {
            return;
        }
        let me = self.to_move;
        if self.dead_king(me).is_none() {
            // A live king stays live through its own side's move: nothing to check.
            self.pseudo_moves(out);
            return;
        }
        self.pseudo_moves(out);
        out.retain(|&mv| self.is_legal(mv));
    }

    /// Whether the side to move has a legal move (legality checked only until one passes).
    pub(crate) fn has_legal_move(&self) -> bool {
        let mut moves = Vec::new();
        self.pseudo_moves(&mut moves);
        !self.bare_kings() && moves.iter().any(|&mv| self.is_legal(mv))
    }

    /// Appends the pseudo-legal moves of the side to move.
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let mut own = self.side_bits(self.to_move);
        while own != 0 {
            let sq = own.trailing_zeros() as u8;
            own &= own - 1;
            self.piece_moves(sq, out);
        }
    }

    /// The bitboard of a side's pieces.
    fn side_bits(&self, side: Side) -> u128 {
        self.bits[side.index()]
    }

    /// Whether a pseudo-legal move of the side to move leaves its dead king safe.
    pub(crate) fn is_legal(&self, mv: Move) -> bool {
        let me = self.to_move;
        self.dead_king(me).is_none_or(|_| {
            let next = self.play(mv);
            next.dead_king(me).is_none_or(|k| !next.attacked(k, me))
        })
    }

    /// The occupancy bitboards.
    pub(crate) fn occupancy(&self) -> Occupancy {
        let side = [self.side_bits(Side::White), self.side_bits(Side::Black)];
        let kings = self.pieces(Side::White, Kind::King) | self.pieces(Side::Black, Kind::King);
        Occupancy {
            all: side[0] | side[1],
            side,
            royal: kings & DEAD_SQUARES,
        }
    }

    /// How many pseudo-legal moves the piece on `sq` has (0 for a king), whoever is to move,
    /// counted without generating them (a promotion once).
    pub(crate) fn piece_mobility(sq: u8, piece: Piece, occ: &Occupancy) -> i32 {
        let s = usize::from(sq);
        let me = piece.side.index();
        let land = !occ.side[me] & !occ.royal;
        let empty = |q: u8| occ.all & bit(q) == 0;
        let count = match piece.kind {
            Kind::King => 0,
            Kind::Alchemist => (ALCHEMIST_REACH[s] & land).count_ones(),
            Kind::Wazir => {
                let mut n = (WAZIR_STEPS[s] & land).count_ones();
                for d in ORTHOGONAL {
                    let one = STEP[s][d];
                    if one != NO && empty(one) {
                        let two = STEP[usize::from(one)][d];
                        if two != NO && land & bit(two) != 0 {
                            n += 1;
                        }
                    }
                }
                n
            }
            Kind::Pagan => {
                let mut n = 0;
                for (d, &one) in PAGAN_STEP[s].iter().enumerate() {
                    if one == NO || !empty(one) {
                        continue;
                    }
                    n += 1;
                    let two = PAGAN_STEP[usize::from(one)][d];
                    if two != NO && empty(two) {
                        n += 1;
                    }
                }
                n
            }
            Kind::Pawn => {
                let forward = if piece.side == Side::White { 4 } else { 3 };
                let to = STEP[s][forward];
                let mut n = u32::from(to != NO && empty(to));
                let prey = occ.side[1 - me] & !occ.royal;
                for d in [1, 6] {
                    let to = STEP[s][d];
                    if to != NO && prey & bit(to) != 0 {
                        n += 1;
                    }
                }
                n
            }
        };
        count as i32
    }

    /// The squares a king (no crossing) steps to from `sq`.
    pub(crate) fn king_reach(sq: u8) -> u128 {
        KING_REACH[usize::from(sq)]
    }

    /// How many pseudo-legal moves `side`'s pieces but its king have, whoever is to move, by
    /// generating them (the reference for `Position::piece_mobility`); a promotion counts
    /// once.
    #[cfg(test)]
    pub(crate) fn mobility(&self, side: Side, scratch: &mut Vec<Move>) -> i32 {
        scratch.clear();
        for sq in 0..SQUARES as u8 {
            if self
                .at(sq)
                .is_some_and(|p| p.side == side && p.kind != Kind::King)
            {
                self.piece_moves(sq, scratch);
            }
        }
        scratch
            .iter()
            .filter(|m| m.promotion.is_none() || m.promotion == Some(Kind::Pagan))
            .count() as i32
    }

    /// The dead-board square a piece of `side` captured on the game board would go to.
    pub(crate) fn next_slot(&self, side: Side) -> Option<u8> {
        ORDER[side.index()]
            .iter()
            .copied()
            .find(|&q| self.board[usize::from(q)].is_none())
    }

    /// How many of `side`'s pieces can take part in a mate on the dead board: its Pagans,
    /// wherever they stand (they cross the bridge), its dead pieces (its king too, once it is
    /// dead) and its live pawns (each may become a Pagan). Its other live pieces never reach
    /// the dead board unless the enemy captures them, which the enemy decides.
    pub(crate) fn mating_force(&self, side: Side) -> u32 {
        let own = self.side_bits(side);
        (self.pieces(side, Kind::Pagan) | self.pieces(side, Kind::Pawn) | own & DEAD_SQUARES)
            .count_ones()
    }

    /// Whether `side` can still win: two units toward a mate (`Position::mating_force`),
    /// and the enemy king already dead or a piece that can capture it on the game board (a
    /// live piece but the king, which never captures a king, or a Pagan, which comes back
    /// from the dead board).
    pub(crate) fn can_win(&self, side: Side) -> bool {
        let own = self.side_bits(side);
        let capturers =
            own & !DEAD_SQUARES & !self.pieces(side, Kind::King) | self.pieces(side, Kind::Pagan);
        self.mating_force(side) >= 2
            && (self.dead_king(side.opponent()).is_some() || capturers != 0)
    }

    pub(crate) fn bare_kings(&self) -> bool {
        self.bits[2..].iter().all(|&x| x == 0)
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

    /// Reads a written move and checks it.
    ///
    /// # Errors
    /// A [`Refusal`] saying what is wrong.
    pub(crate) fn parse_move(&self, mv: &WireMove) -> Result<Move, Refusal> {
        let refuse = Err;
        let WireMove::Legs { legs, promotion } = mv else {
            return refuse(Refusal::PassOrDrop("move"));
        };
        let [leg] = legs.as_slice() else {
            return refuse(Refusal::OneLeg);
        };
        let g = geometry();
        let (Some(from), Some(to)) = (g.index(leg.from), g.index(leg.to)) else {
            return refuse(Refusal::OffBoard(*leg, "frame"));
        };
        let promotion = match promotion {
            None => None,
            Some(c) => match KINDS.iter().find(|(_, l)| l == c) {
                Some((k @ (Kind::Wazir | Kind::Alchemist | Kind::Pagan), _)) => Some(*k),
                _ => return refuse(Refusal::BadPromotion(*c)),
            },
        };
        let candidate = Move {
            from: from as u8,
            to: to as u8,
            promotion,
        };
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if legal.contains(&candidate) {
            return Ok(candidate);
        }
        if legal
            .iter()
            .any(|m| m.from == candidate.from && m.to == candidate.to)
        {
            return refuse(if promotion.is_some() {
                Refusal::PromotionNotAllowed
            } else {
                Refusal::MustPromote
            });
        }
        let mut pseudo = Vec::new();
        self.piece_moves(candidate.from, &mut pseudo);
        if self
            .at(candidate.from)
            .is_some_and(|p| p.side == self.to_move)
            && pseudo
                .iter()
                .any(|m| m.from == candidate.from && m.to == candidate.to)
        {
            return refuse(Refusal::KingAttacked);
        }
        refuse(match self.at(candidate.from) {
            None => Refusal::NoPiece,
            Some(p) if p.side != self.to_move => Refusal::NotMovers,
            Some(_) => Refusal::CannotMove,
        })
    }

    /// A text diagram of the frame (holes blank).
    pub(crate) fn diagram(&self) -> String {
        crate::board::diagram(&geometry(), |sq| self.piece_at(sq))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bridge_tables_cross_only_for_the_pagan() {
        let c7 = index(2, 7);
        assert_eq!(STEP[usize::from(c7)][6], NO);
        assert_eq!(PAGAN_STEP[usize::from(c7)][6], index(2, 4));
        assert_eq!(
            PAGAN_STEP[usize::from(index(0, 7))][5],
            NO,
            "a7 crosses to nothing"
        );
        assert_eq!(
            PAGAN_STEP[usize::from(index(1, 7))][7],
            NO,
            "b7 to a4 is a hole"
        );
    }

    #[test]
    fn reincarnation_orders_follow_the_ruling() {
        let names: Vec<String> = ORDER[0]
            .iter()
            .map(|&s| geometry().square(usize::from(s)).to_string())
            .collect();
        assert_eq!(names[..4], ["f4", "f3", "e4", "e3"]);
        assert_eq!(names[10..12], ["f2", "f1"]);
        let names: Vec<String> = ORDER[1]
            .iter()
            .map(|&s| geometry().square(usize::from(s)).to_string())
            .collect();
        assert_eq!(names[..4], ["b4", "b3", "c4", "c3"]);
    }

    /// Positions of random games from the start (a fixed seed), every ply of them.
    fn random_positions(games: usize, plies: usize) -> Vec<Position> {
        let mut rng = crate::rng::Rng::new(7);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut pos = Position::start();
            for _ in 0..plies {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let i = rng.below(moves.len() as u64) as usize;
                pos = pos.play(moves[i]);
                out.push(pos.clone());
            }
        }
        out
    }

    #[test]
    fn bitboards_match_the_board_and_count_the_generated_moves() {
        let mut scratch = Vec::new();
        let mut dead_pieces = 0;
        for pos in random_positions(40, 200) {
            for (sq, p) in pos.board.iter().enumerate() {
                for side in [Side::White, Side::Black] {
                    for &(kind, _) in &KINDS {
                        let on = pos.pieces(side, kind) & bit(sq as u8) != 0;
                        assert_eq!(on, *p == Some(Piece { kind, side }), "{}", pos.fen());
                    }
                }
            }
            let occ = pos.occupancy();
            for side in [Side::White, Side::Black] {
                let counted: i32 = (0..SQUARES as u8)
                    .filter_map(|sq| pos.at(sq).map(|p| (sq, p)))
                    .filter(|(_, p)| p.side == side)
                    .map(|(sq, p)| Position::piece_mobility(sq, p, &occ))
                    .sum();
                assert_eq!(counted, pos.mobility(side, &mut scratch), "{}", pos.fen());
            }
            dead_pieces += (0..28u8).filter(|&sq| pos.at(sq).is_some()).count();
        }
        assert!(dead_pieces > 1000, "the games reach the dead board");
    }

    #[test]
    fn the_attack_map_agrees_with_attacked_on_every_square() {
        for pos in random_positions(40, 60) {
            for side in [Side::White, Side::Black] {
                let map = pos.attacks(side);
                for sq in 0..SQUARES as u8 {
                    if STEP[usize::from(sq)].iter().any(|&s| s != NO) {
                        assert_eq!(
                            map & bit(sq) != 0,
                            pos.attacked(sq, side),
                            "{} square {sq} for {side:?}",
                            pos.fen()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn reversible_plies_count_from_the_last_irreversible_move() {
        let pos = Position::start();
        assert_eq!(pos.reversible_plies(), u32::MAX, "unknown after a FEN");
        let play = |pos: &Position, text: &str| {
            let mv = crate::notation::parse_move(text).unwrap();
            pos.play(pos.parse_move(&mv).unwrap())
        };
        let pawn = play(&pos, "f7e7");
        assert_eq!(pawn.reversible_plies(), 0, "a pawn step");
        let quiet = play(&play(&pawn, "a8b8"), "g10f10");
        assert_eq!(quiet.reversible_plies(), 2);
        // A live Pagan taken goes to the dead board and can walk back: reversible. A wazir
        // taken stays dead: irreversible.
        let fen = "k6/7/2G4/2g3W/6K/*******/*******/*5*/*5*/*5*/*5* w - - 0 1";
        let pagan = Position::from_fen(fen).unwrap();
        let took_pagan = play(&pagan, "c9c10");
        assert!(
            took_pagan.at(index(1, 4)).is_some(),
            "the black Pagan is dead"
        );
        assert_eq!(took_pagan.reversible_plies(), u32::MAX);
        let fen = "k6/7/2G4/2w3W/6K/*******/*******/*5*/*5*/*5*/*5* w - - 0 1";
        let took_wazir = play(&Position::from_fen(fen).unwrap(), "c9c10");
        assert_eq!(took_wazir.reversible_plies(), 0);
    }

    #[test]
    fn start_round_trips() {
        assert_eq!(Position::start().fen(), START_FEN);
    }
}
