//! The `info` line: its figures, score and principal line, printer and parser.

use std::fmt;

use crate::notation::{WireMove, WireTurn, parse_move, parse_turn};
use crate::player::Score;
use crate::protocol::{Args, CommandError, whole_i64, whole_u32, whole_u64};

/// Which side of the true score an `info` score is (UCI `lowerbound`, `upperbound`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// `lowerbound`: the score is at least this.
    Lower,
    /// `upperbound`: the score is at most this.
    Upper,
}

/// The score of an `info` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InfoScore {
    /// Centipawns or moves to mate, from the engine's side.
    pub value: Score,
    /// Whether it is only a bound.
    pub bound: Option<ScoreBound>,
}

/// The figures of an `info` line; every field is optional, printed in this order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv`.
    pub multipv: Option<u32>,
    /// `score cp N|mate N [lowerbound|upperbound]`.
    pub score: Option<InfoScore>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `hashfull` (per mille).
    pub hashfull: Option<u32>,
    /// `tbhits`.
    pub tbhits: Option<u64>,
    /// `time` in milliseconds.
    pub time: Option<u64>,
    /// `currmove`.
    pub currmove: Option<WireMove>,
    /// `currmovenumber`.
    pub currmovenumber: Option<u32>,
    /// `pv`: the principal line as turns (joint `W|B` turns in a sealed game).
    pub pv: Vec<WireTurn>,
    /// `string TEXT` after the figures: the rest of the line.
    pub string: Option<String>,
}

impl fmt::Display for ScoreBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScoreBound::Lower => "lowerbound",
            ScoreBound::Upper => "upperbound",
        })
    }
}

impl fmt::Display for InfoScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Score::Cp(cp) => write!(f, "cp {cp}")?,
            Score::Mate(n) => write!(f, "mate {n}")?,
        }
        match self.bound {
            Some(b) => write!(f, " {b}"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers: [(&str, Option<u64>); 3] = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (word, n) in numbers {
            if let Some(n) = n {
                write!(f, " {word} {n}")?;
            }
        }
        if let Some(score) = &self.score {
            write!(f, " score {score}")?;
        }
        let numbers: [(&str, Option<u64>); 5] = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("tbhits", self.tbhits),
            ("time", self.time),
        ];
        for (word, n) in numbers {
            if let Some(n) = n {
                write!(f, " {word} {n}")?;
            }
        }
        if let Some(mv) = &self.currmove {
            write!(f, " currmove {mv}")?;
        }
        if let Some(n) = self.currmovenumber {
            write!(f, " currmovenumber {n}")?;
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for turn in &self.pv {
                write!(f, " {turn}")?;
            }
        }
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}

/// Parses the figures of an `info` line, in any order, each at most once.
pub(super) fn parse_info(args: &mut Args<'_>) -> Result<Info, CommandError> {
    let mut info = Info::default();
    let mut seen: Vec<&str> = Vec::new();
    while let Some(word) = args.next_token() {
        if seen.contains(&word) {
            return Err(args.malformed(format!("{word} given twice")));
        }
        seen.push(word);
        match word {
            "depth" => info.depth = Some(args.number(word, whole_u32)?),
            "seldepth" => info.seldepth = Some(args.number(word, whole_u32)?),
            "multipv" => info.multipv = Some(args.number(word, whole_u32)?),
            "score" => info.score = Some(parse_score(args)?),
            "nodes" => info.nodes = Some(args.number(word, whole_u64)?),
            "nps" => info.nps = Some(args.number(word, whole_u64)?),
            "hashfull" => info.hashfull = Some(args.number(word, whole_u32)?),
            "tbhits" => info.tbhits = Some(args.number(word, whole_u64)?),
            "time" => info.time = Some(args.number(word, whole_u64)?),
            "currmove" => info.currmove = Some(args.value(word, "a move", parse_move)?),
            "currmovenumber" => info.currmovenumber = Some(args.number(word, whole_u32)?),
            "pv" => {
                while let Some(turn) = args.peek().filter(|t| *t != "string").and_then(parse_turn) {
                    info.pv.push(turn);
                    args.next_token();
                }
                if info.pv.is_empty() {
                    return Err(args.malformed("pv needs at least one move"));
                }
            }
            "string" => info.string = Some(args.nonempty_rest("a text")?.to_owned()),
            other => return Err(args.malformed(format!("unknown field '{other}'"))),
        }
    }
    Ok(info)
}

/// Parses `cp N|mate N [lowerbound|upperbound]` after `score`.
fn parse_score(args: &mut Args<'_>) -> Result<InfoScore, CommandError> {
    let value = match args.required("cp or mate")? {
        "cp" => Score::Cp(args.number("cp", whole_i32)?),
        "mate" => Score::Mate(args.number("mate", whole_i32)?),
        other => return Err(args.malformed(format!("score needs cp or mate, got '{other}'"))),
    };
    let bound = match args.peek() {
        Some("lowerbound") => Some(ScoreBound::Lower),
        Some("upperbound") => Some(ScoreBound::Upper),
        _ => None,
    };
    if bound.is_some() {
        args.next_token();
    }
    Ok(InfoScore { value, bound })
}

/// Parses a token as a signed 32-bit decimal number.
fn whole_i32(text: &str) -> Option<i32> {
    whole_i64(text).and_then(|n| i32::try_from(n).ok())
}
