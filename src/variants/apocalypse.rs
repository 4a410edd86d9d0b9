//! Apocalypse, both rule sets: `protocol-docs/rules.md` §1 (see `protocol-docs/variants/apocalypse.md`).
//!
//! The board is 5x5; a square is a bit `rank0 * 5 + file` of a `u32`. A turn is two sealed
//! moves judged on the position at the start of the turn and resolved together.
//!
//! This file holds the types, the position and its FEN; `moves.rs` generates the legal moves,
//! `turn.rs` judges written moves, resolves a turn and tells the game's end, and `wire.rs`
//! puts the game behind the `GameRules` interface of `src/rules.rs`.

use std::fmt::Write as _;

use crate::board::FenError;
use crate::geometry::{Geometry, Square};
use crate::notation::WireMove;
use crate::variant::Side;

/// Board geometry of Apocalypse.
pub(crate) const GEOMETRY: Geometry = Geometry::new(5, 5);
/// The start position.
pub(crate) const START_FEN: &str = "npppn/p3p/5/P3P/NPPPN w - - 0 1 0/0";

const ALL: u32 = (1 << 25) - 1;
const FILE_A: u32 = 0b00001_00001_00001_00001_00001;
const FILE_E: u32 = FILE_A << 4;
const RANK_1: u32 = 0b11111;
const RANK_5: u32 = RANK_1 << 20;
const NONE: u8 = u8::MAX;

/// Which rule set applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The seed rules (`apocalypse`): a stuck footman on the far rank, passes allowed.
    Seed,
    /// Elliott's rules (`apocalypse-classic`): redeploy instead of staying, no passes.
    Classic,
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A footman (pawn).
    Footman,
    /// A horseman (knight).
    Horseman,
}

/// A legal move of one side: a pass, or a step with an optional redeploy square (classic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    redeploy: u8,
}

impl Move {
    /// The pass (`0000`).
    pub(crate) const PASS: Move = Move {
        from: NONE,
        to: NONE,
        redeploy: NONE,
    };

    /// Whether this is the pass.
    pub(crate) fn is_pass(self) -> bool {
        self.from == NONE
    }

    /// The square the moved piece ends on: its redeploy square if it has one, else `to`.
    #[inline]
    pub(crate) fn landing(self) -> u8 {
        if self.redeploy == NONE {
            self.to
        } else {
            self.redeploy
        }
    }

    /// The wire form of the move.
    pub(crate) fn to_wire(self) -> WireMove {
        if self.is_pass() {
            return WireMove::Pass;
        }
        let mut legs = vec![crate::notation::Leg {
            from: square_of(self.from),
            to: square_of(self.to),
        }];
        if self.redeploy != NONE {
            legs.push(crate::notation::Leg {
                from: square_of(self.to),
                to: square_of(self.redeploy),
            });
        }
        WireMove::Legs {
            legs,
            promotion: None,
        }
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_wire())
    }
}

fn square_of(index: u8) -> Square {
    GEOMETRY.square(usize::from(index))
}

fn index_of(sq: Square) -> Option<u8> {
    GEOMETRY.index(sq).map(|i| i as u8)
}

const fn knight_table() -> [u32; 25] {
    let mut table = [0u32; 25];
    let jumps = crate::geometry::KNIGHT_STEPS;
    let mut sq = 0;
    while sq < 25 {
        let (f, r) = ((sq % 5) as i32, (sq / 5) as i32);
        let mut j = 0;
        while j < 8 {
            let (nf, nr) = (f + jumps[j].0 as i32, r + jumps[j].1 as i32);
            if nf >= 0 && nf < 5 && nr >= 0 && nr < 5 {
                table[sq] |= 1 << (nr * 5 + nf);
            }
            j += 1;
        }
        sq += 1;
    }
    table
}

/// Horseman targets of each square, as a 25-bit set.
pub(crate) const KNIGHT: [u32; 25] = knight_table();

pub(crate) use crate::rules::End;

/// Why a written move is not legal (it still is a valid token and costs a penalty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// A square lies off the board.
    OffBoard,
    /// The from-square holds no piece of the mover.
    NotYourPiece,
    /// The piece cannot make that move in this position.
    CannotMove,
    /// A redeploy leg is missing, misplaced or not allowed.
    BadRedeploy,
    /// A pass while a legal move exists (or any pass in the classic rules).
    BadPass,
}

impl Illegal {
    /// A short explanation for messages.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Illegal::OffBoard => "a square is off the board",
            Illegal::NotYourPiece => "no piece of the mover on the from-square",
            Illegal::CannotMove => "the piece cannot make that move",
            Illegal::BadRedeploy => "redeploy leg missing, misplaced or not allowed",
            Illegal::BadPass => "a pass while a legal move exists",
        }
    }
}

/// What a written move means in a position: a legal move, or an illegal one with its reason.
pub(crate) type Judgement = Result<Move, Illegal>;

/// A token that is not an Apocalypse move at all (three or more legs, or a promotion letter):
/// a protocol error, not a penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NotAMove;

/// An Apocalypse position: pieces, penalty points and counters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    footmen: [u32; 2],
    horsemen: [u32; 2],
    penalties: [u8; 2],
    quiet: u32,
    turn: u32,
}

impl Position {
    /// The start position of a rule set.
    pub fn start(rules: Rules) -> Position {
        Position::from_fen(rules, START_FEN).expect("the start FEN is valid")
    }

    /// A position from its pieces (bit `rank0 * 5 + file` per square, White first) and
    /// penalty points, with the counters at their FEN defaults (for the tablebase, which
    /// enumerates positions). Pieces on two lists at once are the caller's error.
    pub(crate) fn from_parts(
        rules: Rules,
        footmen: [u32; 2],
        horsemen: [u32; 2],
        penalties: [u8; 2],
    ) -> Position {
        Position {
            rules,
            footmen: footmen.map(|b| b & ALL),
            horsemen: horsemen.map(|b| b & ALL),
            penalties,
            quiet: 0,
            turn: 1,
        }
    }

    /// The rule set.
    pub(crate) fn rules(&self) -> Rules {
        self.rules
    }

    /// Penalty points of a side.
    pub(crate) fn penalties(&self, side: Side) -> u8 {
        self.penalties[side.index()]
    }

    /// The turn number (FEN full-move field).
    pub fn turn_number(&self) -> u32 {
        self.turn
    }

    /// Footmen bitboard of a side.
    pub(crate) fn footmen(&self, side: Side) -> u32 {
        self.footmen[side.index()]
    }

    /// Horsemen bitboard of a side.
    pub(crate) fn horsemen(&self, side: Side) -> u32 {
        self.horsemen[side.index()]
    }

    /// The pieces on the board, both sides together.
    #[inline(always)]
    pub fn pieces(&self) -> u32 {
        (self.footmen[0] | self.horsemen[0]).count_ones()
            + (self.footmen[1] | self.horsemen[1]).count_ones()
    }

    /// Sum over a side's footmen of the ranks they have advanced from their own back rank.
    #[cfg(test)]
    pub(crate) fn footman_advance(&self, side: Side) -> u32 {
        let mut f = self.footmen[side.index()];
        let mut total = 0;
        while f != 0 {
            let rank = f.trailing_zeros() / 5;
            total += if side == Side::White { rank } else { 4 - rank };
            f &= f - 1;
        }
        total
    }

    /// Number of (horseman, target) pairs of a side's horsemen, friendly squares excluded.
    #[cfg(test)]
    pub(crate) fn horseman_mobility(&self, side: Side) -> u32 {
        let s = side.index();
        let mut h = self.horsemen[s];
        let mut total = 0;
        while h != 0 {
            total += (KNIGHT[h.trailing_zeros() as usize] & !self.occupied(s)).count_ones();
            h &= h - 1;
        }
        total
    }

    fn occupied(&self, s: usize) -> u32 {
        self.footmen[s] | self.horsemen[s]
    }

    /// The piece on a square, as its FEN letter.
    pub(crate) fn piece_at(&self, sq: Square) -> Option<char> {
        let bit = 1u32 << index_of(sq)?;
        [
            (self.footmen[0], 'P'),
            (self.horsemen[0], 'N'),
            (self.footmen[1], 'p'),
            (self.horsemen[1], 'n'),
        ]
        .into_iter()
        .find(|(bb, _)| bb & bit != 0)
        .map(|(_, c)| c)
    }

    /// Parses a FEN: board, then optionally `w - - QUIET TURN W/B` (defaults `w - - 0 1 0/0`).
    ///
    /// # Errors
    /// A message naming the first bad field.
    pub fn from_fen(rules: Rules, fen: &str) -> Result<Position, FenError> {
        let fields = crate::board::fen_fields(fen, 7)?;
        let mut pos = Position {
            rules,
            footmen: [0; 2],
            horsemen: [0; 2],
            penalties: [0; 2],
            quiet: 0,
            turn: 1,
        };
        crate::board::read_board(&GEOMETRY, fields[0], |sq, c| {
            let bit = 1u32 << index_of(sq).expect("a square of the board");
            match c {
                'P' => pos.footmen[0] |= bit,
                'N' => pos.horsemen[0] |= bit,
                'p' => pos.footmen[1] |= bit,
                'n' => pos.horsemen[1] |= bit,
                _ => {
                    return Err(FenError::NotAPiece {
                        letter: c,
                        expected: "an Apocalypse piece (N P n p)",
                    });
                }
            }
            Ok(())
        })?;
        let tail = crate::board::fen_tail(&fields, true)?;
        pos.quiet = tail.counter;
        pos.turn = tail.number;
        if let Some(&f) = fields.get(6) {
            let parsed = f.split_once('/').and_then(|(w, b)| {
                let p = |s: &str| s.parse::<u8>().ok().filter(|&n| n <= 2 && s.len() == 1);
                Some([p(w)?, p(b)?])
            });
            pos.penalties = parsed.ok_or_else(|| FenError::Penalties(f.to_string()))?;
        }
        Ok(pos)
    }

    /// The FEN, all seven fields.
    pub fn fen(&self) -> String {
        let mut out = crate::board::board_text(&GEOMETRY, |sq| self.piece_at(sq));
        write!(
            out,
            " w - - {} {} {}/{}",
            self.quiet, self.turn, self.penalties[0], self.penalties[1]
        )
        .unwrap();
        out
    }

    /// A text diagram, ranks from 5 down, as in `protocol-docs/rules.md`.
    pub(crate) fn diagram(&self) -> String {
        crate::board::diagram(&GEOMETRY, |sq| self.piece_at(sq))
    }
}

mod moves;
mod turn;
mod wire;

pub(crate) use moves::footman_can_move;
pub(crate) use turn::Solo;

#[cfg(test)]
mod tests;
