//! Gladiator's FEN: reading and writing a position.

use super::*;

impl Position {
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
            reversible: u32::MAX,
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
}
