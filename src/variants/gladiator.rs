//! Gladiator Chess and Brawl Chess: `protocol-docs/rules.md` §2 (see `protocol-docs/variants/gladiator.md`).
//!
//! 8x8 bitboards, square `rank0 * 8 + file`. Pawns borrow the moves of the friendly supporters
//! that see them along a clear diagonal. A turn is a pawn move, then (Brawl) the placement of an
//! enemy supporter the pawn landed on, then an optional (or, without a pawn move, compulsory)
//! move of one own supporter: a jump to any vacant border square (Gladiator) or a non-capturing
//! FIDE move (Brawl).

mod reach;
#[cfg(test)]
mod tests;

pub(crate) use self::reach::reach;
use self::reach::{KING_REACH, KNIGHT_REACH, bishop_reach, rook_reach};
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

const KINDS: [Kind; 6] = [
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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
    pub(crate) fn rules(&self) -> Rules {
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

    /// Parses a FEN (board, side, `-`, `-`, quiet-turn clock, move number; the last four may be
    /// omitted).
    ///
    /// # Errors
    /// A message naming the first bad field or piece.
    pub fn from_fen(rules: Rules, fen: &str) -> Result<Position, FenError> {
        let fields = crate::board::fen_fields(fen, 6)?;
        let mut pos = Position {
            rules,
            kinds: [0; 6],
            sides: [0; 2],
            to_move: Side::White,
            quiet: 0,
            fullmove: 1,
            key: 0,
        };
        crate::board::read_board(&GEOMETRY, fields[0], |square, c| {
            let Some(k) = LETTERS.iter().position(|&l| l == c.to_ascii_lowercase()) else {
                return Err(FenError::NotAPiece {
                    letter: c,
                    expected: "a piece (P N B R Q K, p n b r q k)",
                });
            };
            let sq = GEOMETRY.index(square).expect("a square of the board") as u8;
            pos.kinds[k] |= bit(sq);
            pos.sides[usize::from(c.is_ascii_lowercase())] |= bit(sq);
            Ok(())
        })?;
        if rules == Rules::Gladiator {
            let pawns = pos.kinds[Kind::Pawn as usize];
            if pawns & BORDER != 0 || (pos.occupied() & !pawns) & ARENA != 0 {
                return Err(FenError::Placement(
                    "in gladiator pawns stand in the arena (b2-g7) and supporters on the border",
                ));
            }
        }
        let tail = crate::board::fen_tail(&fields, false)?;
        pos.to_move = tail.side;
        pos.quiet = tail.counter;
        pos.fullmove = tail.number;
        pos.key = pos.zobrist_from_scratch();
        Ok(pos)
    }

    /// The FEN, six fields.
    pub(crate) fn fen(&self) -> String {
        format!(
            "{} {} - - {} {}",
            crate::board::board_text(&GEOMETRY, |sq| self.piece_at(sq)),
            self.to_move.letter(),
            self.quiet,
            self.fullmove
        )
    }

    /// Squares the pawn on `from` may move to (one entry however many supporters give it).
    pub(crate) fn pawn_targets(&self, from: u8) -> u64 {
        let s = if self.sides[0] & self.kinds[0] & bit(from) != 0 {
            0
        } else if self.sides[1] & self.kinds[0] & bit(from) != 0 {
            1
        } else {
            return 0;
        };
        self.targets_of(s, from, self.occupied())
    }

    /// The targets of side `s`'s pawn on `from`, given the occupied squares.
    #[inline]
    pub(crate) fn targets_of(&self, s: usize, from: u8, occupied: u64) -> u64 {
        let diagonals = bishop_reach(from, occupied);
        let powering = diagonals & self.supporters(s);
        self.allowed_targets(s, self.borrowed(from, powering, diagonals, occupied))
    }

    /// The squares a pawn on `from` reaches with the moves of the supporters `powering`
    /// (before [`Position::allowed_targets`]), `diagonals` being its bishop reach: one lookup
    /// per kind among them, not one per supporter (the kinds overlap: a queen is a rook and a
    /// bishop).
    #[inline]
    pub(crate) fn borrowed(&self, from: u8, powering: u64, diagonals: u64, occupied: u64) -> u64 {
        if powering == 0 {
            return 0;
        }
        let has = |kind: Kind| powering & self.kinds[kind as usize] != 0;
        let mut targets = 0;
        if has(Kind::Knight) {
            targets |= KNIGHT_REACH[usize::from(from)];
        }
        if has(Kind::Bishop) || has(Kind::Queen) {
            targets |= diagonals;
        }
        if has(Kind::Rook) || has(Kind::Queen) {
            targets |= rook_reach(from, occupied);
        }
        if has(Kind::King) {
            targets |= KING_REACH[usize::from(from)];
        }
        targets
    }

    /// The squares among `targets` side `s`'s pawns may end on: not on an own piece, and in
    /// Gladiator not off the arena nor on an enemy supporter.
    #[inline]
    pub(crate) fn allowed_targets(&self, s: usize, targets: u64) -> u64 {
        let targets = targets & !self.sides[s];
        match self.rules {
            // Supporters are never captured; pawns never leave the arena.
            Rules::Gladiator => targets & ARENA & !self.supporters(1 - s),
            Rules::Brawl => targets,
        }
    }

    /// The pawn moves of the side to move: one `(from, to)` per target, however many
    /// supporters give it.
    pub(crate) fn pawn_moves(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        bits(self.pieces(self.to_move, Kind::Pawn))
            .flat_map(move |from| bits(self.pawn_targets(from)).map(move |to| (from, to)))
    }

    /// Whether the side to move has a pawn move.
    pub(crate) fn has_pawn_move(&self) -> bool {
        let mut pawns = self.pieces(self.to_move, Kind::Pawn);
        while pawns != 0 {
            let from = pawns.trailing_zeros() as u8;
            if self.pawn_targets(from) != 0 {
                return true;
            }
            pawns &= pawns - 1;
        }
        false
    }

    /// Moves of the mover's supporters in the second part, as (from, to) pairs.
    fn supporter_moves(&self, out: &mut Vec<(u8, u8)>) {
        out.clear();
        let s = self.to_move.index();
        let occupied = self.occupied();
        let mut sup = self.supporters(s);
        while sup != 0 {
            let from = sup.trailing_zeros() as u8;
            sup &= sup - 1;
            let mut targets = match self.rules {
                Rules::Gladiator => BORDER & !occupied,
                Rules::Brawl => {
                    let kind = self.kind_at(from).expect("a supporter");
                    reach(kind, from, occupied) & !occupied
                }
            };
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                out.push((from, to));
            }
        }
    }

    fn move_piece(&mut self, from: u8, to: u8) {
        let kind = self.kind_at(from).expect("a piece to move") as usize;
        let s = usize::from(self.sides[1] & bit(from) != 0);
        self.kinds[kind] ^= bit(from) | bit(to);
        self.sides[s] ^= bit(from) | bit(to);
        self.key ^= piece_key(s, kind, from) ^ piece_key(s, kind, to);
    }

    /// A hash of everything that decides the legal turns and the end of the game: the
    /// pieces, the side to move, the quiet-turn clock (up to 4) and the rules. Kept up to date
    /// move by move; equal to [`Position::zobrist_from_scratch`].
    pub(crate) fn zobrist(&self) -> u64 {
        self.key
    }

    /// The key of [`Position::zobrist`], computed from the whole position.
    pub(crate) fn zobrist_from_scratch(&self) -> u64 {
        let mut key = 0;
        for s in 0..2 {
            for kind in 0..6 {
                let mut bb = self.kinds[kind] & self.sides[s];
                while bb != 0 {
                    key ^= piece_key(s, kind, bb.trailing_zeros() as u8);
                    bb &= bb - 1;
                }
            }
        }
        if self.to_move == Side::Black {
            key ^= KEYS[SIDE_KEY];
        }
        if self.rules == Rules::Brawl {
            key ^= KEYS[BRAWL_KEY];
        }
        key ^ quiet_key(self.quiet)
    }

    /// Plays the pawn part: returns the position and the kind of an enemy supporter that the
    /// pawn landed on (Brawl), which the caller must place.
    pub(crate) fn after_pawn(&self, from: u8, to: u8) -> (Position, Option<Kind>) {
        let mut next = self.clone();
        let o = 1 - self.to_move.index();
        let mut displaced = None;
        if let Some(kind) = next.kind_at(to) {
            next.kinds[kind as usize] &= !bit(to);
            next.sides[o] &= !bit(to);
            next.key ^= piece_key(o, kind as usize, to);
            if kind != Kind::Pawn {
                displaced = Some(kind);
            }
        }
        next.move_piece(from, to);
        (next, displaced)
    }

    pub(crate) fn place(&mut self, kind: Kind, sq: u8) {
        let o = 1 - self.to_move.index();
        self.kinds[kind as usize] |= bit(sq);
        self.sides[o] |= bit(sq);
        self.key ^= piece_key(o, kind as usize, sq);
    }

    fn finish(mut self, moved_pawn: bool) -> Position {
        let quiet = if moved_pawn { 0 } else { self.quiet + 1 };
        self.key ^= quiet_key(self.quiet) ^ quiet_key(quiet) ^ KEYS[SIDE_KEY];
        self.quiet = quiet;
        if self.to_move == Side::Black {
            self.fullmove += 1;
        }
        self.to_move = self.to_move.opponent();
        debug_assert_eq!(self.key, self.zobrist_from_scratch());
        self
    }

    /// The [`Position::zobrist`] key after a legal turn, without playing it; `None` for a
    /// turn whose placement is not a square (the search's open placement).
    pub(crate) fn key_after(&self, turn: Turn) -> Option<u64> {
        let me = self.to_move.index();
        let o = 1 - me;
        let mut key = self.key;
        let moved_pawn = turn.pawn.0 != NONE;
        if moved_pawn {
            let (from, to) = turn.pawn;
            if let Some(kind) = self.kind_at(to) {
                key ^= piece_key(o, kind as usize, to);
                if kind != Kind::Pawn {
                    if usize::from(turn.place) >= 64 {
                        return None;
                    }
                    key ^= piece_key(o, kind as usize, turn.place);
                }
            }
            key ^= piece_key(me, 0, from) ^ piece_key(me, 0, to);
        }
        if turn.support.0 != NONE {
            let (from, to) = turn.support;
            let kind = self.kind_at(from)? as usize;
            key ^= piece_key(me, kind, from) ^ piece_key(me, kind, to);
        }
        let quiet = if moved_pawn { 0 } else { self.quiet + 1 };
        Some(key ^ quiet_key(self.quiet) ^ quiet_key(quiet) ^ KEYS[SIDE_KEY])
    }

    /// Plays a legal turn.
    pub fn play(&self, turn: Turn) -> Position {
        let mut next = self.clone();
        if turn.pawn.0 != NONE {
            let (after, displaced) = self.after_pawn(turn.pawn.0, turn.pawn.1);
            next = after;
            if let Some(kind) = displaced {
                next.place(kind, turn.place);
            }
        }
        if turn.support.0 != NONE {
            next.move_piece(turn.support.0, turn.support.1);
        }
        next.finish(turn.pawn.0 != NONE)
    }

    /// Calls `visit` with every legal turn (every spelling: each pawn move with each placement
    /// and each optional supporter move).
    pub(crate) fn for_each_turn(&self, mut visit: impl FnMut(Turn)) {
        let mut supporter = Vec::new();
        let mut any_pawn = false;
        for (from, to) in self.pawn_moves() {
            any_pawn = true;
            let (after, displaced) = self.after_pawn(from, to);
            let mut emit = |pos: &Position, place: u8| {
                visit(Turn {
                    pawn: (from, to),
                    place,
                    support: (NONE, NONE),
                });
                pos.supporter_moves(&mut supporter);
                for &(sf, st) in &supporter {
                    visit(Turn {
                        pawn: (from, to),
                        place,
                        support: (sf, st),
                    });
                }
            };
            match displaced {
                None => emit(&after, NONE),
                Some(kind) => {
                    let mut vacant = !after.occupied();
                    while vacant != 0 {
                        let q = vacant.trailing_zeros() as u8;
                        vacant &= vacant - 1;
                        let mut placed = after.clone();
                        placed.place(kind, q);
                        emit(&placed, q);
                    }
                }
            }
        }
        if !any_pawn {
            for (sf, st) in self.forced_supporter_moves() {
                visit(Turn {
                    pawn: (NONE, NONE),
                    place: NONE,
                    support: (sf, st),
                });
            }
        }
    }

    /// Without a pawn move: the supporter moves that give the mover a pawn move, or all of
    /// them when none does.
    pub(crate) fn forced_supporter_moves(&self) -> Vec<(u8, u8)> {
        let mut all = Vec::new();
        self.supporter_moves(&mut all);
        let restoring: Vec<(u8, u8)> = all
            .iter()
            .copied()
            .filter(|&(f, t)| {
                let mut p = self.clone();
                p.move_piece(f, t);
                p.has_pawn_move()
            })
            .collect();
        if restoring.is_empty() { all } else { restoring }
    }

    /// Every legal turn.
    pub fn turns(&self) -> Vec<Turn> {
        let mut out = Vec::new();
        self.for_each_turn(|t| out.push(t));
        out
    }

    /// Counts the legal turns without listing them.
    pub(crate) fn count_turns(&self) -> u64 {
        let mut n = 0;
        self.for_each_turn(|_| n += 1);
        n
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

    /// Reads a written turn and checks it.
    ///
    /// # Errors
    /// A [`Refusal`] saying what is wrong.
    pub fn parse_turn(&self, mv: &WireMove) -> Result<Turn, Refusal> {
        let refuse = Err;
        let WireMove::Legs { legs, promotion } = mv else {
            return refuse(Refusal::PassOrDrop("turn"));
        };
        if promotion.is_some() {
            return refuse(Refusal::NoPromotion);
        }
        let mut squares = Vec::with_capacity(legs.len());
        for leg in legs {
            match (GEOMETRY.index(leg.from), GEOMETRY.index(leg.to)) {
                (Some(f), Some(t)) => squares.push((f as u8, t as u8)),
                _ => return refuse(Refusal::OffBoard(*leg, "board")),
            }
        }
        let me = self.to_move.index();
        let mut rest = squares.as_slice();
        let mut turn = Turn {
            pawn: (NONE, NONE),
            place: NONE,
            support: (NONE, NONE),
        };
        let mut pos = self.clone();
        let own_pawn = |sq: u8| self.sides[me] & self.kinds[0] & bit(sq) != 0;
        if let Some(&(f, t)) = rest.first()
            && own_pawn(f)
        {
            if self.pawn_targets(f) & bit(t) == 0 {
                return refuse(Refusal::PawnCannotGo {
                    from: square_of(f),
                    to: square_of(t),
                });
            }
            let (after, displaced) = self.after_pawn(f, t);
            pos = after;
            turn.pawn = (f, t);
            rest = &rest[1..];
            if let Some(kind) = displaced {
                let Some(&(pf, pt)) = rest.first().filter(|(pf, _)| *pf == t) else {
                    return refuse(Refusal::MustPlace(square_of(t)));
                };
                if pos.occupied() & bit(pt) != 0 {
                    return refuse(Refusal::NotVacant(square_of(pt)));
                }
                pos.place(kind, pt);
                turn.place = pt;
                rest = &rest[1..];
                let _ = pf;
            }
        } else if self.has_pawn_move() {
            return refuse(Refusal::PawnCompulsory);
        }
        match rest {
            [] if turn.moves_pawn() => Ok(turn),
            [] => refuse(Refusal::SupporterMustMove),
            [(f, t)] => {
                let legal = if turn.moves_pawn() {
                    let mut moves = Vec::new();
                    pos.supporter_moves(&mut moves);
                    moves.contains(&(*f, *t))
                } else {
                    self.forced_supporter_moves().contains(&(*f, *t))
                };
                if !legal {
                    let what = match self.rules {
                        Rules::Gladiator => "a jump of an own supporter to a vacant border square",
                        Rules::Brawl => "a non-capturing move of an own supporter",
                    };
                    return refuse(Refusal::BadSupporter {
                        leg: Leg {
                            from: square_of(*f),
                            to: square_of(*t),
                        },
                        what,
                        must_free_pawn: !turn.moves_pawn(),
                    });
                }
                turn.support = (*f, *t);
                Ok(turn)
            }
            _ => refuse(Refusal::TooManyLegs(legs.len())),
        }
    }

    /// A text diagram.
    pub(crate) fn diagram(&self) -> String {
        crate::board::diagram(&GEOMETRY, |sq| self.piece_at(sq))
    }

    /// The quiet-turn clock (turns without a pawn move).
    pub(crate) fn quiet(&self) -> u32 {
        self.quiet
    }
}

fn square_of(i: u8) -> Square {
    GEOMETRY.square(usize::from(i))
}

impl crate::rules::GameRules for Position {
    type RuleSet = Rules;
    type Move = Turn;
    type Turn = Turn;

    fn start(set: Rules) -> Position {
        Position::start(set)
    }

    fn from_fen(set: Rules, fen: &str) -> Result<Position, FenError> {
        Position::from_fen(set, fen)
    }

    fn variant(&self) -> crate::variant::Variant {
        match self.rules {
            Rules::Gladiator => crate::variant::Variant::Gladiator,
            Rules::Brawl => crate::variant::Variant::Brawl,
        }
    }

    fn geometry(&self) -> &'static Geometry {
        &GEOMETRY
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

    fn legal_moves(&self, side: Side, out: &mut Vec<Turn>) {
        out.clear();
        if side == self.to_move {
            self.for_each_turn(|t| out.push(t));
        }
    }

    fn wire(mv: Turn) -> WireMove {
        mv.to_wire()
    }

    fn legal_turns(&self, out: &mut Vec<Turn>) {
        out.clear();
        if self.end().is_none() {
            self.for_each_turn(|t| out.push(t));
        }
    }

    fn count_turns(&self) -> u64 {
        if self.end().is_some() {
            0
        } else {
            self.count_turns()
        }
    }

    fn read_turn(
        &self,
        turn: &crate::notation::WireTurn,
    ) -> Result<(Turn, Vec<crate::rules::Penalty>), crate::rules::GameError> {
        crate::rules::read_single(self, turn, |mv| self.parse_turn(mv))
    }

    fn play(&self, turn: Turn) -> Position {
        self.play(turn)
    }

    fn search_key(&self) -> Option<u64> {
        Some(crate::search::Searchable::key(self))
    }
}
