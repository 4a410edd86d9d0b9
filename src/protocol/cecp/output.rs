//! What a CECP (XBoard) engine prints, as typed values: each line has a printer (`Display`)
//! and a nom parser ([`parse_engine_line`]), shared by Quill's session (which prints them) and
//! by the referee (which reads any XBoard engine with them). Printing then parsing gives the
//! value back.
//!
//! The sealed extension (`protocol-docs/sealed.md`) adds `commit DIGEST`, `reveal MOVE NONCE`
//! and the comment `# strategy MOVE:P …`.

use std::fmt;

use super::super::uci::format_strategy;
use super::WireResult;
use crate::notation::{WireMove, WireTurn, parse_move};

mod parse;

pub use parse::parse_engine_line;

/// A line a CECP engine prints.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineLine {
    /// `feature NAME=VALUE …`.
    Feature(Vec<Feature>),
    /// `move M`.
    Move(CecpMove),
    /// `Illegal move (REASON): MOVE`, or `Illegal move: MOVE` without a reason.
    IllegalMove {
        /// Why, if said.
        reason: Option<String>,
        /// The refused move as the GUI sent it.
        mv: String,
    },
    /// `Error (KIND): COMMAND`: the engine refuses a command (`KIND` never holds `): `).
    Error {
        /// What is wrong.
        kind: String,
        /// The command (the whole line, or `-` when there is none).
        command: String,
    },
    /// `tellusererror TEXT`: a message the GUI pops up as an error.
    TellUserError(String),
    /// `telluser TEXT`: a message the GUI pops up.
    TellUser(String),
    /// `RESULT {COMMENT}`: the engine claims the game's result.
    Result {
        /// The result.
        result: WireResult,
        /// The text in braces, if any.
        comment: Option<String>,
    },
    /// `resign`.
    Resign,
    /// Thinking output, `DEPTH SCORE TIME NODES PV` (time in centiseconds).
    Thinking(Thinking),
    /// `stat01: TIME NODES DEPTH MOVESLEFT TOTALMOVES`, the answer to `.` in analysis.
    Stat01 {
        /// Centiseconds since the analysis started.
        time: u64,
        /// Nodes searched.
        nodes: u64,
        /// Depth reached.
        depth: u32,
        /// Root moves left to search.
        left: u32,
        /// Root moves in all.
        total: u32,
    },
    /// `pong N`.
    Pong(String),
    /// `commit DIGEST`: a commitment to a sealed move.
    Commit(String),
    /// `reveal MOVE NONCE`: the opening of a commitment.
    Reveal {
        /// The committed move.
        mv: WireMove,
        /// The nonce (hexadecimal).
        nonce: String,
    },
    /// `# strategy MOVE:P …`: a sealed search's mixed strategy, as a comment.
    Strategy(Vec<(WireMove, f64)>),
    /// `# TEXT`: any other comment.
    Comment(String),
    /// `Hint: MOVE`.
    Hint(WireMove),
    /// `setup TEXT`: the board and pieces for XBoard (kept as text).
    Setup(String),
    /// `piece TEXT`: a piece's moves in Betza notation (kept as text).
    Piece(String),
    /// `highlight TEXT`: squares to colour (kept as text).
    Highlight(String),
}

/// A move as a CECP engine writes it: Quill's notation, or XBoard's null move `@@@@` (which
/// shows an empty ply of a multi-part turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CecpMove {
    /// `@@@@`.
    Null,
    /// A move in Quill's notation.
    Wire(WireMove),
}

impl CecpMove {
    /// Reads a move token; `None` unless it is one.
    pub(crate) fn from_token(token: &str) -> Option<CecpMove> {
        if token == "@@@@" {
            Some(CecpMove::Null)
        } else {
            parse_move(token).map(CecpMove::Wire)
        }
    }
}

impl fmt::Display for CecpMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CecpMove::Null => f.write_str("@@@@"),
            CecpMove::Wire(mv) => write!(f, "{mv}"),
        }
    }
}

/// One `feature` pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feature {
    /// The feature name.
    pub name: String,
    /// Its value.
    pub value: FeatureValue,
}

/// The value of a feature: a quoted string or a bare token (a number, mostly).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeatureValue {
    /// `"TEXT"` (never holding `"`).
    Quoted(String),
    /// A token without spaces or quotes.
    Bare(String),
}

impl Feature {
    /// A feature with a bare value.
    pub fn bare(name: &str, value: impl fmt::Display) -> Feature {
        Feature {
            name: name.to_owned(),
            value: FeatureValue::Bare(value.to_string()),
        }
    }

    /// A feature with a quoted value.
    pub(crate) fn quoted(name: &str, value: impl fmt::Display) -> Feature {
        Feature {
            name: name.to_owned(),
            value: FeatureValue::Quoted(value.to_string()),
        }
    }

    /// The value as text, without quotes.
    pub(crate) fn text(&self) -> &str {
        match &self.value {
            FeatureValue::Quoted(t) | FeatureValue::Bare(t) => t,
        }
    }
}

/// The principal line of a thinking line: turns, or (from engines that write SAN or other
/// notations) the text as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pv {
    /// Turns in Quill's notation.
    Turns(Vec<WireTurn>),
    /// Anything else, kept as text (may be empty).
    Text(String),
}

/// The figures of a thinking line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Depth in plies (or joint turns).
    pub depth: u32,
    /// Score in centipawns from the engine's side; mates as ±(100000 + N).
    pub score: i64,
    /// Centiseconds spent.
    pub time: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal line.
    pub pv: Pv,
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            FeatureValue::Quoted(text) => write!(f, "{}=\"{text}\"", self.name),
            FeatureValue::Bare(text) => write!(f, "{}={text}", self.name),
        }
    }
}

impl fmt::Display for Pv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pv::Turns(turns) => {
                for (i, turn) in turns.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{turn}")?;
                }
                Ok(())
            }
            Pv::Text(text) => f.write_str(text),
        }
    }
}

impl fmt::Display for Thinking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Thinking {
            depth,
            score,
            time,
            nodes,
            pv,
        } = self;
        write!(f, "{depth} {score} {time} {nodes} {pv}")
    }
}

impl fmt::Display for EngineLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineLine::Feature(features) => {
                f.write_str("feature")?;
                for feature in features {
                    write!(f, " {feature}")?;
                }
                Ok(())
            }
            EngineLine::Move(mv) => write!(f, "move {mv}"),
            EngineLine::IllegalMove { reason, mv } => match reason {
                Some(reason) => write!(f, "Illegal move ({reason}): {mv}"),
                None => write!(f, "Illegal move: {mv}"),
            },
            EngineLine::Error { kind, command } => write!(f, "Error ({kind}): {command}"),
            EngineLine::TellUserError(text) => write!(f, "tellusererror {text}"),
            EngineLine::TellUser(text) => write!(f, "telluser {text}"),
            EngineLine::Result { result, comment } => match comment {
                Some(comment) => write!(f, "{result} {{{comment}}}"),
                None => write!(f, "{result}"),
            },
            EngineLine::Resign => f.write_str("resign"),
            EngineLine::Thinking(thinking) => write!(f, "{thinking}"),
            EngineLine::Stat01 {
                time,
                nodes,
                depth,
                left,
                total,
            } => write!(f, "stat01: {time} {nodes} {depth} {left} {total}"),
            EngineLine::Pong(n) => write!(f, "pong {n}"),
            EngineLine::Commit(digest) => write!(f, "commit {digest}"),
            EngineLine::Reveal { mv, nonce } => write!(f, "reveal {mv} {nonce}"),
            EngineLine::Strategy(support) => write!(f, "# strategy {}", format_strategy(support)),
            EngineLine::Comment(text) => write!(f, "# {text}"),
            EngineLine::Hint(mv) => write!(f, "Hint: {mv}"),
            EngineLine::Setup(text) => write!(f, "setup {text}"),
            EngineLine::Piece(text) => write!(f, "piece {text}"),
            EngineLine::Highlight(text) => write!(f, "highlight {text}"),
        }
    }
}

#[cfg(test)]
mod tests;
