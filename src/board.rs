//! FEN and board text shared by every variant: reading and writing a FEN board field, the
//! fields after it, diagrams, and [`FenError`], the one type for every fault a FEN can have.
//!
//! This module sits below the variants and [`crate::game`]: it knows squares, geometries and
//! sides, never a variant.

use std::fmt;
use std::fmt::Write as _;

use crate::geometry::{Geometry, Square};
use crate::variant::Side;

/// What is wrong with a FEN, and where. [`fmt::Display`] gives the text the protocols print
/// after `bad FEN: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// No field, or more than the variant has.
    FieldCount {
        /// The most fields the variant reads.
        max: usize,
        /// Fields given.
        got: usize,
    },
    /// The board field has the wrong number of ranks.
    RankCount {
        /// Ranks of the board.
        need: u16,
        /// Ranks given.
        got: usize,
    },
    /// A rank goes on past the last file.
    RankTooLong {
        /// The rank.
        rank: u16,
        /// Files of the board.
        files: u16,
    },
    /// A rank is shorter (or, counted, longer) than the board is wide.
    RankLength {
        /// The rank.
        rank: u16,
        /// Squares given.
        got: u16,
        /// Files of the board.
        files: u16,
    },
    /// A run count of 0.
    ZeroCount {
        /// The rank.
        rank: u16,
    },
    /// A run count over a hole or off the board.
    CountOverHole {
        /// The rank.
        rank: u16,
    },
    /// `*` on a square that exists.
    StarOnSquare {
        /// The rank.
        rank: u16,
    },
    /// A piece on a hole.
    PieceOnHole {
        /// The rank.
        rank: u16,
    },
    /// A letter that is no piece of the variant.
    NotAPiece {
        /// The letter.
        letter: char,
        /// What the variant's pieces are, e.g. `an Apocalypse piece (N P n p)`.
        expected: &'static str,
    },
    /// A sealed game's side field is not `w`.
    SealedSide(String),
    /// The side to move is neither `w` nor `b`.
    Side(String),
    /// The castling (`castling`) or en passant (`en passant`) field is not `-`.
    NotDash {
        /// The field's name.
        field: &'static str,
        /// What was written.
        got: String,
    },
    /// The halfmove-style counter (field 5) is no number.
    Counter(String),
    /// The move number (field 6) is no number from 1.
    Number(String),
    /// Apocalypse's penalty field is not `W/B` with each 0, 1 or 2.
    Penalties(String),
    /// The placement breaks a rule of the variant (the text says which).
    Placement(&'static str),
    /// A side has not exactly one king.
    Kings {
        /// The side.
        side: Side,
        /// Kings it has.
        count: usize,
    },
    /// More pieces than the variant allows.
    TooManyPieces {
        /// Pieces on the board.
        count: usize,
        /// Why that many is refused.
        why: &'static str,
    },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount { max, got } => write!(f, "expected 1 to {max} fields, got {got}"),
            FenError::RankCount { need, got } => {
                write!(f, "the board needs {need} ranks, got {got}")
            }
            FenError::RankTooLong { rank, files } => {
                write!(f, "rank {rank} has more than {files} squares")
            }
            FenError::RankLength { rank, got, files } => {
                write!(f, "rank {rank} has {got} squares, not {files}")
            }
            FenError::ZeroCount { rank } => write!(f, "rank {rank}: a zero count"),
            FenError::CountOverHole { rank } => {
                write!(
                    f,
                    "rank {rank}: a count covers a hole or runs off the board"
                )
            }
            FenError::StarOnSquare { rank } => {
                write!(f, "rank {rank}: '*' on a square that exists")
            }
            FenError::PieceOnHole { rank } => write!(f, "rank {rank}: a piece on a hole"),
            FenError::NotAPiece { letter, expected } => write!(f, "'{letter}' is not {expected}"),
            FenError::SealedSide(s) => {
                write!(f, "the side field of a sealed game is 'w', got '{s}'")
            }
            FenError::Side(s) => write!(f, "the side to move is 'w' or 'b', got '{s}'"),
            FenError::NotDash { field, got } => {
                write!(f, "the {field} field must be '-', got '{got}'")
            }
            FenError::Counter(s) => write!(f, "bad halfmove clock '{s}'"),
            FenError::Number(s) => write!(f, "bad move number '{s}'"),
            FenError::Penalties(s) => {
                write!(f, "penalties must be 'W/B' with each 0, 1 or 2, got '{s}'")
            }
            FenError::Placement(why) => f.write_str(why),
            FenError::Kings { side, count } => {
                write!(f, "{} needs exactly one king, has {count}", side.word())
            }
            FenError::TooManyPieces { count, why } => write!(f, "{count} pieces: {why}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Reads a FEN board field onto a geometry, as every variant writes it: ranks from the top down
/// separated by `/`, digits for runs of empty squares (never over a hole), `*` exactly on the
/// holes; `place` is called with the square and letter of each piece and may refuse it.
///
/// # Errors
/// The first bad rank or piece.
pub(crate) fn read_board(
    geometry: &Geometry,
    field: &str,
    mut place: impl FnMut(Square, char) -> Result<(), FenError>,
) -> Result<(), FenError> {
    let rows: Vec<&str> = field.split('/').collect();
    let (files, ranks) = (u16::from(geometry.files()), u16::from(geometry.ranks()));
    if rows.len() != usize::from(ranks) {
        return Err(FenError::RankCount {
            need: ranks,
            got: rows.len(),
        });
    }
    for (row, rank) in rows.iter().zip((1..=ranks).rev()) {
        let mut file = 0u16;
        let square = |file: u16| Square::new(file as u8, rank);
        for c in row.chars() {
            if file >= files {
                return Err(FenError::RankTooLong { rank, files });
            }
            if let Some(count) = c.to_digit(10) {
                if count == 0 {
                    return Err(FenError::ZeroCount { rank });
                }
                for _ in 0..count {
                    if file >= files || !geometry.contains(square(file)) {
                        return Err(FenError::CountOverHole { rank });
                    }
                    file += 1;
                }
            } else if c == '*' {
                if geometry.contains(square(file)) {
                    return Err(FenError::StarOnSquare { rank });
                }
                file += 1;
            } else if !geometry.contains(square(file)) {
                return Err(FenError::PieceOnHole { rank });
            } else {
                place(square(file), c)?;
                file += 1;
            }
        }
        if file != files {
            return Err(FenError::RankLength {
                rank,
                got: file,
                files,
            });
        }
    }
    Ok(())
}

/// Splits a FEN into its fields: the board and at most `max - 1` more.
///
/// # Errors
/// When there is no field or more than `max`.
pub(crate) fn fen_fields(fen: &str, max: usize) -> Result<Vec<&str>, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() || fields.len() > max {
        return Err(FenError::FieldCount {
            max,
            got: fields.len(),
        });
    }
    Ok(fields)
}

/// The squares of a bitboard, lowest index first.
pub(crate) fn bits(mut board: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (board != 0).then(|| {
            let sq = board.trailing_zeros() as u8;
            board &= board - 1;
            sq
        })
    })
}

/// FEN fields 2 to 6, which every variant reads alike: side to move, castling and en passant
/// (always `-` here), a halfmove-style counter and the move (or turn) number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FenTail {
    /// The side to move.
    pub(crate) side: Side,
    /// Field 5.
    pub(crate) counter: u32,
    /// Field 6, at least 1.
    pub(crate) number: u32,
}

/// Reads FEN fields 2 to 6 (`fields` holds all the FEN's fields, board first); missing ones
/// default to `w - - 0 1`. A sealed game's side field must be `w`.
///
/// # Errors
/// The first bad field.
pub(crate) fn fen_tail(fields: &[&str], sealed: bool) -> Result<FenTail, FenError> {
    let side = match fields.get(1) {
        None | Some(&"w") => Side::White,
        Some(&"b") if !sealed => Side::Black,
        Some(other) if sealed => return Err(FenError::SealedSide(other.to_string())),
        Some(other) => return Err(FenError::Side(other.to_string())),
    };
    for (i, field) in [(2, "castling"), (3, "en passant")] {
        if let Some(&f) = fields.get(i)
            && f != "-"
        {
            return Err(FenError::NotDash {
                field,
                got: f.to_string(),
            });
        }
    }
    let counter = match fields.get(4) {
        None => 0,
        Some(f) => f.parse().map_err(|_| FenError::Counter(f.to_string()))?,
    };
    let number = match fields.get(5).map(|f| (f, f.parse::<u32>())) {
        None => 1,
        Some((_, Ok(n))) if n >= 1 => n,
        Some((f, _)) => return Err(FenError::Number(f.to_string())),
    };
    Ok(FenTail {
        side,
        counter,
        number,
    })
}

/// Draws a board: ranks from the top down, each line ` R  x x x`, holes as blanks, then the
/// file letters.
pub(crate) fn diagram(geometry: &Geometry, piece: impl Fn(Square) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (1..=u16::from(geometry.ranks())).rev() {
        let _ = write!(out, "{rank:>2} ");
        for file in 0..geometry.files() {
            let sq = Square::new(file, rank);
            let c = if !geometry.contains(sq) {
                ' '
            } else {
                piece(sq).unwrap_or('.')
            };
            let _ = write!(out, " {c}");
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..geometry.files() {
        let _ = write!(out, " {}", (b'a' + file) as char);
    }
    out.push('\n');
    out
}

/// Writes a FEN board field: ranks from the top down separated by `/`, runs of empty squares
/// as decimal counts, holes as `*`.
pub(crate) fn board_text(geometry: &Geometry, piece: impl Fn(Square) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (1..=u16::from(geometry.ranks())).rev() {
        let mut empty = 0;
        for file in 0..geometry.files() {
            let sq = Square::new(file, rank);
            let c = if geometry.contains(sq) {
                piece(sq)
            } else {
                Some('*')
            };
            match c {
                Some(c) => {
                    if empty > 0 {
                        let _ = write!(out, "{empty}");
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
        if rank > 1 {
            out.push('/');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_fault_and_the_rank() {
        let g = Geometry::new(3, 2);
        let read = |field: &str| {
            read_board(&g, field, |_, _| Ok(()))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(read("3"), "the board needs 2 ranks, got 1");
        assert_eq!(read("3/pppp"), "rank 1 has more than 3 squares");
        assert_eq!(
            read("3/4"),
            "rank 1: a count covers a hole or runs off the board"
        );
        assert_eq!(read("2/3"), "rank 2 has 2 squares, not 3");
        assert_eq!(read("0/3"), "rank 2: a zero count");
        assert_eq!(read("*2/3"), "rank 2: '*' on a square that exists");
        let e = fen_tail(&["3/3", "b"], true).unwrap_err().to_string();
        assert_eq!(e, "the side field of a sealed game is 'w', got 'b'");
        let e = fen_tail(&["3/3", "w", "K"], false).unwrap_err().to_string();
        assert_eq!(e, "the castling field must be '-', got 'K'");
        let e = fen_tail(&["3/3", "w", "-", "-", "0", "0"], false).unwrap_err();
        assert_eq!(e, FenError::Number("0".into()));
    }

    #[test]
    fn board_text_reads_back() {
        let g = Geometry::new(3, 2);
        let mut seen = Vec::new();
        read_board(&g, "1p1/P2", |sq, c| {
            seen.push((sq.to_string(), c));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, [("b2".to_string(), 'p'), ("a1".to_string(), 'P')]);
        let text = board_text(&g, |sq| {
            seen.iter().find(|(s, _)| *s == sq.to_string()).map(|p| p.1)
        });
        assert_eq!(text, "1p1/P2");
    }
}
