//! Pagan Chess as text: the frame FEN, move text and its refusals, the diagram.

use super::{KINDS, Kind, Move, Piece, Position, Refusal, SQUARES, geometry};
use crate::board::FenError;
use crate::notation::WireMove;
use crate::variant::Side;

impl Position {
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
            bits: [0; 7],
            key: 0,
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
        if tail.side != pos.to_move {
            pos.flip_side();
        }
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
