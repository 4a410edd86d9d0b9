//! The UCI dialect: GUI-to-engine commands as typed values, their parser and their printer.
//!
//! Quill adds `d` (show the board), `opponent M` (a sealed opponent move has been revealed)
//! and `go sealed w|b` (choose a sealed move for one side) to the standard commands.

mod output;

use std::fmt;

use nom::branch::alt;
use nom::character::complete::{char, digit1, u64};
use nom::combinator::value;
use nom::sequence::preceded;

use super::{Args, CommandError, OpponentNews, before, opponent_news, whole, whole_u32, whole_u64};
use crate::notation::{Turn, WireMove, parse_move, parse_turn};
use crate::variant::Side;

pub use output::{Bound, EngineLine, Info, InfoScore, OptionKind, UciOption, parse_engine_line};
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
        moves: Vec<Turn>,
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
fn not_a_move(tok: &str) -> String {
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
fn parse_go(args: &mut Args<'_>) -> Result<GoParams, CommandError> {
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
mod tests {
    use super::*;
    use crate::geometry::Square;

    fn malformed(line: &str) -> String {
        match parse(line) {
            Err(CommandError::Malformed { command, reason }) => format!("{command}: {reason}"),
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn mv(text: &str) -> WireMove {
        parse_move(text).unwrap()
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(UciCommand::Uci));
        assert_eq!(parse("  isready\r\n"), Ok(UciCommand::IsReady));
        assert_eq!(parse("ucinewgame"), Ok(UciCommand::UciNewGame));
        assert_eq!(parse("stop"), Ok(UciCommand::Stop));
        assert_eq!(parse("ponderhit"), Ok(UciCommand::PonderHit));
        assert_eq!(parse("quit"), Ok(UciCommand::Quit));
        assert_eq!(parse("d"), Ok(UciCommand::Display));
        assert_eq!(parse("debug on"), Ok(UciCommand::Debug(true)));
        assert_eq!(parse("debug\toff"), Ok(UciCommand::Debug(false)));
        assert_eq!(
            parse("opponent a10b11"),
            Ok(UciCommand::Opponent(OpponentNews::Move(mv("a10b11"))))
        );
        assert_eq!(
            parse("register later"),
            Ok(UciCommand::Register("later".into()))
        );
        assert_eq!(parse("register"), Ok(UciCommand::Register(String::new())));
    }

    #[test]
    fn bad_simple_commands() {
        assert_eq!(parse(""), Err(CommandError::Empty));
        assert_eq!(parse(" \t\r\n"), Err(CommandError::Empty));
        assert_eq!(parse("foo bar"), Err(CommandError::Unknown("foo".into())));
        assert_eq!(parse("UCI"), Err(CommandError::Unknown("UCI".into())));
        assert_eq!(malformed("isready now"), "isready: unexpected 'now'");
        assert_eq!(malformed("debug"), "debug: needs on or off");
        assert_eq!(
            malformed("debug maybe"),
            "debug: needs on or off, got 'maybe'"
        );
        assert_eq!(malformed("opponent"), "opponent: needs a move");
        assert_eq!(malformed("opponent xyz"), "opponent: 'xyz' is not a move");
        assert_eq!(
            malformed("opponent a2a3|a7a6"),
            "opponent: 'a2a3|a7a6' is not a move"
        );
        assert_eq!(
            malformed("opponent a2a3 a7a6"),
            "opponent: unexpected 'a7a6'"
        );
    }

    #[test]
    fn setoption_names_and_values_may_hold_spaces() {
        let set = |name: &str, value: Option<&str>| UciCommand::SetOption {
            name: name.into(),
            value: value.map(Into::into),
        };
        assert_eq!(
            parse("setoption name Hash value 64"),
            Ok(set("Hash", Some("64")))
        );
        assert_eq!(
            parse("setoption name Clear  Hash"),
            Ok(set("Clear  Hash", None))
        );
        assert_eq!(
            parse("setoption name Book File value C:\\my  books\\a value b.bin"),
            Ok(set("Book File", Some("C:\\my  books\\a value b.bin")))
        );
        assert_eq!(
            parse("setoption name Path value"),
            Ok(set("Path", Some("")))
        );
        assert_eq!(malformed("setoption"), "setoption: needs 'name'");
        assert_eq!(
            malformed("setoption Hash value 1"),
            "setoption: needs 'name', got 'Hash'"
        );
        assert_eq!(
            malformed("setoption name"),
            "setoption: needs an option name"
        );
        assert_eq!(
            malformed("setoption name value 3"),
            "setoption: needs an option name"
        );
    }

    #[test]
    fn positions() {
        let a2a3 = Turn::Single(mv("a2a3"));
        assert_eq!(
            parse("position startpos"),
            Ok(UciCommand::Position {
                start: PositionStart::StartPos,
                moves: vec![]
            })
        );
        assert_eq!(
            parse("position startpos moves"),
            Ok(UciCommand::Position {
                start: PositionStart::StartPos,
                moves: vec![]
            })
        );
        assert_eq!(
            parse("position startpos moves a2a3 b1c3|0000"),
            Ok(UciCommand::Position {
                start: PositionStart::StartPos,
                moves: vec![a2a3, Turn::Joint(mv("b1c3"), WireMove::Pass)],
            })
        );
        assert_eq!(
            parse("position fen  8/8 \t w - 0  moves"),
            Ok(UciCommand::Position {
                start: PositionStart::Fen("8/8 w - 0".into()),
                moves: vec![]
            })
        );
        assert_eq!(malformed("position"), "position: needs startpos or fen");
        assert_eq!(
            malformed("position moves a2a3"),
            "position: needs startpos or fen, got 'moves'"
        );
        assert_eq!(malformed("position fen"), "position: fen needs a position");
        assert_eq!(
            malformed("position fen moves a2a3"),
            "position: fen needs a position"
        );
        assert_eq!(
            malformed("position startpos a2a3"),
            "position: expected 'moves', got 'a2a3'"
        );
        assert_eq!(
            malformed("position startpos moves a2a3 xyz"),
            "position: 'xyz' is not a move"
        );
    }

    #[test]
    fn go_parameters_in_any_order() {
        let go =
            parse("go movestogo 5 wtime -300 btime 1000 winc 10 binc 0 depth 7 ponder").unwrap();
        let expected = GoParams {
            movestogo: Some(5),
            wtime: Some(0),
            btime: Some(1000),
            winc: Some(10),
            binc: Some(0),
            depth: Some(7),
            ponder: true,
            ..GoParams::default()
        };
        assert_eq!(go, UciCommand::Go(expected));
        assert_eq!(parse("go"), Ok(UciCommand::Go(GoParams::default())));
        let go = parse("go searchmoves a2a3 c7c6,c6c8g infinite sealed b perft 3").unwrap();
        let expected = GoParams {
            searchmoves: vec![mv("a2a3"), mv("c7c6,c6c8g")],
            infinite: true,
            sealed: Some(Side::Black),
            perft: Some(3),
            ..GoParams::default()
        };
        assert_eq!(go, UciCommand::Go(expected));
        let go = parse("go nodes 100 mate 3 movetime 2000").unwrap();
        assert_eq!(go.to_string(), "go nodes 100 mate 3 movetime 2000");
    }

    #[test]
    fn bad_go_parameters() {
        assert_eq!(
            malformed("go depth x"),
            "go: depth needs a whole number, got 'x'"
        );
        assert_eq!(malformed("go depth"), "go: depth needs a whole number");
        assert_eq!(
            malformed("go depth -1"),
            "go: depth needs a whole number, got '-1'"
        );
        assert_eq!(
            malformed("go winc -1"),
            "go: winc needs a whole number, got '-1'"
        );
        assert_eq!(
            malformed("go wtime -"),
            "go: wtime needs a whole number, got '-'"
        );
        assert_eq!(
            malformed("go depth 99999999999"),
            "go: depth needs a whole number, got '99999999999'"
        );
        assert_eq!(malformed("go depth 3 depth 4"), "go: depth given twice");
        assert_eq!(
            malformed("go infinite infinite"),
            "go: infinite given twice"
        );
        assert_eq!(malformed("go fast"), "go: unknown parameter 'fast'");
        assert_eq!(
            malformed("go searchmoves"),
            "go: searchmoves needs at least one move"
        );
        assert_eq!(
            malformed("go searchmoves a2a3 zz"),
            "go: 'zz' is not a move"
        );
        assert_eq!(malformed("go sealed"), "go: sealed needs w or b");
        assert_eq!(
            malformed("go sealed white"),
            "go: sealed needs w or b, got 'white'"
        );
    }

    #[test]
    fn printing_is_canonical() {
        let cmd = UciCommand::Position {
            start: PositionStart::Fen("x/y w".into()),
            moves: vec![Turn::Single(WireMove::simple(
                Square::new(0, 1),
                Square::new(0, 2),
            ))],
        };
        assert_eq!(cmd.to_string(), "position fen x/y w moves a1a2");
        let cmd = UciCommand::SetOption {
            name: "A b".into(),
            value: Some(String::new()),
        };
        assert_eq!(cmd.to_string(), "setoption name A b value");
        assert_eq!(parse(&cmd.to_string()), Ok(cmd));
    }
}
