//! The UCI dialect: GUI-to-engine commands as typed values, their parser and their printer.
//!
//! Quill adds `d` (show the board), `opponent M` (a sealed opponent move has been revealed)
//! and `go sealed w|b` (choose a sealed move for one side) to the standard commands.

mod go;
mod output;

use std::fmt;

use super::{Args, CommandError, OpponentNews, before, opponent_news};
use crate::notation::{WireTurn, parse_turn};

pub use go::GoParams;
use go::parse_go;
pub use output::{
    EngineLine, Info, InfoScore, OptionKind, ScoreBound, UciOption, parse_engine_line,
};
pub(crate) use output::{format_strategy, parse_strategy};

/// A command sent by a UCI GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`: the GUI asks for identification and options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: the GUI waits for `readyok`.
    IsReady,
    /// `setoption name N [value V]`; the name never contains the word `value`.
    SetOption {
        /// The option name (may contain spaces).
        name: String,
        /// The value, if one was given (may contain spaces, may be empty).
        value: Option<String>,
    },
    /// `register ...`: the raw rest of the line, accepted and ignored.
    Register(String),
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen F [moves ...]`.
    Position {
        /// Where the game starts.
        start: PositionStart,
        /// The turns played since.
        moves: Vec<WireTurn>,
    },
    /// `go ...`: start thinking.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: print the board (Quill extension).
    Display,
    /// `help`: list the commands, for a person at a terminal (Quill extension).
    Help,
    /// `opponent M|DIGEST`: the opponent's sealed move, or its commitment, has arrived
    /// (Quill extension, commit–reveal).
    Opponent(OpponentNews),
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    /// `startpos`: the variant's initial position.
    StartPos,
    /// `fen F`: the FEN tokens joined by single spaces (unchecked text, never empty, never
    /// containing the token `moves`).
    Fen(String),
}

/// Parses one UCI command line.
pub fn parse(line: &str) -> Result<UciCommand, CommandError> {
    let mut args = Args::split(line)?;
    let command = match args.command() {
        "uci" => UciCommand::Uci,
        "debug" => match args.required("on or off")? {
            "on" => UciCommand::Debug(true),
            "off" => UciCommand::Debug(false),
            other => return Err(args.malformed(format!("needs on or off, got '{other}'"))),
        },
        "isready" => UciCommand::IsReady,
        "setoption" => parse_setoption(&mut args)?,
        "register" => UciCommand::Register(args.take_rest().to_owned()),
        "ucinewgame" => UciCommand::UciNewGame,
        "position" => parse_position(&mut args)?,
        "go" => UciCommand::Go(parse_go(&mut args)?),
        "stop" => UciCommand::Stop,
        "ponderhit" => UciCommand::PonderHit,
        "quit" => UciCommand::Quit,
        "d" => UciCommand::Display,
        "help" => UciCommand::Help,
        "opponent" => {
            let tok = args.required("a move")?;
            let news = opponent_news(tok).ok_or_else(|| args.malformed(not_a_move(tok)))?;
            UciCommand::Opponent(news)
        }
        word => return Err(CommandError::Unknown(word.to_owned())),
    };
    args.finish()?;
    Ok(command)
}

/// The reason given for a token that should have been a move.
pub(super) fn not_a_move(tok: &str) -> String {
    format!("'{tok}' is not a move")
}

/// Parses the arguments of `setoption`.
fn parse_setoption(args: &mut Args<'_>) -> Result<UciCommand, CommandError> {
    match args.required("'name'")? {
        "name" => {}
        other => return Err(args.malformed(format!("needs 'name', got '{other}'"))),
    }
    let text = args.remaining();
    let mut name_end = text;
    let mut value = None;
    while let Some(tok) = args.next_token() {
        if tok == "value" {
            value = Some(args.take_rest().to_owned());
            break;
        }
        name_end = args.remaining();
    }
    let name = before(text, name_end).trim_end();
    if name.is_empty() {
        return Err(args.malformed("needs an option name"));
    }
    Ok(UciCommand::SetOption {
        name: name.to_owned(),
        value,
    })
}

/// Parses the arguments of `position`.
fn parse_position(args: &mut Args<'_>) -> Result<UciCommand, CommandError> {
    let start = match args.next_token() {
        Some("startpos") => PositionStart::StartPos,
        Some("fen") => {
            let mut fields = Vec::new();
            while let Some(tok) = args.peek().filter(|&tok| tok != "moves") {
                fields.push(tok);
                args.next_token();
            }
            if fields.is_empty() {
                return Err(args.malformed("fen needs a position"));
            }
            PositionStart::Fen(fields.join(" "))
        }
        Some(other) => return Err(args.malformed(format!("needs startpos or fen, got '{other}'"))),
        None => return Err(args.malformed("needs startpos or fen")),
    };
    let mut moves = Vec::new();
    match args.next_token() {
        None => {}
        Some("moves") => {
            while let Some(tok) = args.next_token() {
                moves.push(parse_turn(tok).ok_or_else(|| args.malformed(not_a_move(tok)))?);
            }
        }
        Some(other) => return Err(args.malformed(format!("expected 'moves', got '{other}'"))),
    }
    Ok(UciCommand::Position { start, moves })
}

impl fmt::Display for UciCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciCommand::Uci => f.write_str("uci"),
            UciCommand::Debug(on) => f.write_str(if *on { "debug on" } else { "debug off" }),
            UciCommand::IsReady => f.write_str("isready"),
            UciCommand::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value.as_deref() {
                    None => Ok(()),
                    Some("") => f.write_str(" value"),
                    Some(v) => write!(f, " value {v}"),
                }
            }
            UciCommand::Register(rest) if rest.is_empty() => f.write_str("register"),
            UciCommand::Register(rest) => write!(f, "register {rest}"),
            UciCommand::UciNewGame => f.write_str("ucinewgame"),
            UciCommand::Position { start, moves } => {
                match start {
                    PositionStart::StartPos => f.write_str("position startpos")?,
                    PositionStart::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for turn in moves {
                        write!(f, " {turn}")?;
                    }
                }
                Ok(())
            }
            UciCommand::Go(params) => write!(f, "go{params}"),
            UciCommand::Stop => f.write_str("stop"),
            UciCommand::PonderHit => f.write_str("ponderhit"),
            UciCommand::Quit => f.write_str("quit"),
            UciCommand::Display => f.write_str("d"),
            UciCommand::Help => f.write_str("help"),
            UciCommand::Opponent(mv) => write!(f, "opponent {mv}"),
        }
    }
}

#[cfg(test)]
mod tests;
