//! `go`: its parameters, their parser and their printer.

use std::fmt;

use nom::branch::alt;
use nom::character::complete::{char, digit1, u64};
use nom::combinator::value;
use nom::sequence::preceded;

use super::not_a_move;
use crate::notation::{WireMove, parse_move};
use crate::protocol::{Args, CommandError, whole, whole_u32, whole_u64};
use crate::variant::Side;

/// The parameters of `go`; times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Restrict the search to these moves (empty: all moves).
    pub searchmoves: Vec<WireMove>,
    /// Search in pondering mode.
    pub ponder: bool,
    /// White's remaining time (negative values on the wire clamp to 0).
    pub wtime: Option<u64>,
    /// Black's remaining time (negative values on the wire clamp to 0).
    pub btime: Option<u64>,
    /// White's increment per move.
    pub winc: Option<u64>,
    /// Black's increment per move.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search this many plies only.
    pub depth: Option<u32>,
    /// Search this many nodes only.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search exactly this long.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// `perft N`: count leaf nodes to this depth.
    pub perft: Option<u32>,
    /// `sealed w|b`: choose a sealed move for this side (Quill extension).
    pub sealed: Option<Side>,
}

/// Every keyword `go` understands.
const GO_KEYWORDS: [&str; 14] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "sealed",
];

/// Reads a clock time in milliseconds; a negative time clamps to 0.
fn clock(text: &str) -> Option<u64> {
    whole(alt((value(0, preceded(char('-'), digit1)), u64)), text)
}

/// Reads a side letter, `w` or `b`.
fn side_letter(text: &str) -> Option<Side> {
    match text {
        "w" => Some(Side::White),
        "b" => Some(Side::Black),
        _ => None,
    }
}

/// Parses the arguments of `go`.
pub(super) fn parse_go(args: &mut Args<'_>) -> Result<GoParams, CommandError> {
    let mut p = GoParams::default();
    let mut seen: Vec<&str> = Vec::new();
    while let Some(word) = args.next_token() {
        if !GO_KEYWORDS.contains(&word) {
            return Err(args.malformed(format!("unknown parameter '{word}'")));
        }
        if seen.contains(&word) {
            return Err(args.malformed(format!("{word} given twice")));
        }
        seen.push(word);
        match word {
            "searchmoves" => {
                while let Some(tok) = args.peek().filter(|tok| !GO_KEYWORDS.contains(tok)) {
                    let mv = parse_move(tok).ok_or_else(|| args.malformed(not_a_move(tok)))?;
                    p.searchmoves.push(mv);
                    args.next_token();
                }
                if p.searchmoves.is_empty() {
                    return Err(args.malformed("searchmoves needs at least one move"));
                }
            }
            "ponder" => p.ponder = true,
            "wtime" => p.wtime = Some(args.number(word, clock)?),
            "btime" => p.btime = Some(args.number(word, clock)?),
            "winc" => p.winc = Some(args.number(word, whole_u64)?),
            "binc" => p.binc = Some(args.number(word, whole_u64)?),
            "movestogo" => p.movestogo = Some(args.number(word, whole_u32)?),
            "depth" => p.depth = Some(args.number(word, whole_u32)?),
            "nodes" => p.nodes = Some(args.number(word, whole_u64)?),
            "mate" => p.mate = Some(args.number(word, whole_u32)?),
            "movetime" => p.movetime = Some(args.number(word, whole_u64)?),
            "infinite" => p.infinite = true,
            "perft" => p.perft = Some(args.number(word, whole_u32)?),
            _ => p.sealed = Some(args.value(word, "w or b", side_letter)?),
        }
    }
    Ok(p)
}

impl fmt::Display for GoParams {
    /// Writes the parameters in canonical order (`sealed` first, as the protocol documents
    /// write it), each preceded by a space (nothing when none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(side) = self.sealed {
            write!(f, " sealed {}", side.letter())?;
        }
        if !self.searchmoves.is_empty() {
            f.write_str(" searchmoves")?;
            for mv in &self.searchmoves {
                write!(f, " {mv}")?;
            }
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let numbers: [(&str, Option<u64>); 10] = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
            ("movetime", self.movetime),
            ("perft", self.perft.map(u64::from)),
        ];
        for (keyword, number) in numbers {
            if let Some(n) = number {
                write!(f, " {keyword} {n}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}
