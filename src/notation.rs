//! The wire notation of moves and turns, shared by every variant and both dialects.
//!
//! This is syntax only: a parsed move may be illegal, or name squares off the board. The rules
//! of each variant decide what a [`WireMove`] means.

use std::fmt;

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, satisfy};
use nom::combinator::{eof, map, not, opt, peek, value};
use nom::multi::separated_list1;
use nom::sequence::terminated;

use crate::geometry::{Square, square};

/// One leg of a move: a piece goes from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Leg {
    /// Where the leg starts.
    pub from: Square,
    /// Where the leg ends.
    pub to: Square,
}

impl fmt::Display for Leg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// A move as written: `0000` (a pass), or one or more comma-separated legs with an optional
/// promotion letter after the last one (`b1c3`, `d4d5,d5b3`, `c8c7g`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WireMove {
    /// The null move `0000`.
    Pass,
    /// A drop from a player's hand, `N@h3` (XBoard's notation; Quill reads it only as the
    /// opponent's ply of XBoard's turn encoding, see `protocol-docs/cecp.md`).
    Drop {
        /// The piece letter as written.
        piece: char,
        /// Where it is dropped.
        to: Square,
    },
    /// A move of one or more legs.
    Legs {
        /// The legs, in the order they happen (never empty).
        legs: Vec<Leg>,
        /// A promotion letter written after the last leg.
        promotion: Option<char>,
    },
}

impl WireMove {
    /// Makes a one-leg move without promotion.
    pub fn simple(from: Square, to: Square) -> WireMove {
        WireMove::Legs {
            legs: vec![Leg { from, to }],
            promotion: None,
        }
    }
}

impl fmt::Display for WireMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireMove::Pass => f.write_str("0000"),
            WireMove::Drop { piece, to } => write!(f, "{piece}@{to}"),
            WireMove::Legs { legs, promotion } => {
                for (i, leg) in legs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{leg}")?;
                }
                if let Some(p) = promotion {
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

/// One turn in a move list: a single move (alternating games) or a joint sealed turn
/// `WHITE|BLACK`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WireTurn {
    /// The move of the side to move.
    Single(WireMove),
    /// Both players' moves of one simultaneous turn, White's first.
    Joint(WireMove, WireMove),
}

impl fmt::Display for WireTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireTurn::Single(m) => write!(f, "{m}"),
            WireTurn::Joint(w, b) => write!(f, "{w}|{b}"),
        }
    }
}

fn leg(input: &str) -> IResult<&str, Leg> {
    map((square, square), |(from, to)| Leg { from, to }).parse(input)
}

/// Parses a move (without requiring the end of input after it). `@@@@`, XBoard's null move, is
/// read as the pass.
pub(crate) fn wire_move(input: &str) -> IResult<&str, WireMove> {
    alt((
        value(WireMove::Pass, alt((tag("0000"), tag("@@@@")))),
        map(
            (satisfy(|c| c.is_ascii_alphabetic()), char('@'), square),
            |(piece, _, to)| WireMove::Drop { piece, to },
        ),
        map(
            (
                separated_list1(char(','), leg),
                opt(terminated(
                    satisfy(|c| c.is_ascii_lowercase()),
                    peek(not(satisfy(|c| c.is_ascii_digit()))),
                )),
            ),
            |(legs, promotion)| WireMove::Legs { legs, promotion },
        ),
    ))
    .parse(input)
}

/// Parses a turn: a move, or two moves joined by `|` (without requiring the end of input).
pub(crate) fn turn(input: &str) -> IResult<&str, WireTurn> {
    map(
        (wire_move, opt((char('|'), wire_move))),
        |(first, second)| match second {
            Some((_, b)) => WireTurn::Joint(first, b),
            None => WireTurn::Single(first),
        },
    )
    .parse(input)
}

/// Parses a whole token as a move; `None` unless all of it is one move.
pub fn parse_move(token: &str) -> Option<WireMove> {
    terminated(wire_move, eof).parse(token).ok().map(|(_, m)| m)
}

/// Parses a whole token as a turn; `None` unless all of it is one turn.
pub fn parse_turn(token: &str) -> Option<WireTurn> {
    terminated(turn, eof).parse(token).ok().map(|(_, t)| t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip() {
        for text in [
            "0000",
            "b1c3",
            "d4d5,d5b3",
            "c8c7g",
            "a10a11",
            "d4e5,e5h3,b1c3",
            "z9a1",
        ] {
            let m = parse_move(text).unwrap_or_else(|| panic!("{text} did not parse"));
            assert_eq!(m.to_string(), text);
        }
    }

    #[test]
    fn turns_round_trip() {
        for text in ["a2a3|e4e3", "0000|b5c3", "d4d5,d5b3|0000", "b1c3"] {
            assert_eq!(parse_turn(text).unwrap().to_string(), text);
        }
        assert!(matches!(
            parse_turn("a2a3|e4e3"),
            Some(WireTurn::Joint(_, _))
        ));
    }

    #[test]
    fn xboard_null_is_the_pass() {
        assert_eq!(parse_move("@@@@"), Some(WireMove::Pass));
    }

    #[test]
    fn garbage_is_not_a_move() {
        for text in [
            "", "pass", "a2", "a2a3,", "a2a3|", "|a2a3", "A2A3", "a2a3qq", "a2a3 ", "000",
        ] {
            assert_eq!(parse_turn(text), None, "{text:?}");
        }
    }
}
