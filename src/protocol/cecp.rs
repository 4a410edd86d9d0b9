//! The CECP (XBoard) dialect: GUI-to-engine commands as typed values, their parser and their
//! printer.
//!
//! Quill adds `sealed`, `reveal`, `opponent`, `d` and `perft` to the standard commands. A line
//! whose first token is a move (or a joint turn `W|B`) is a move for GUIs that did not accept
//! `usermove=1`.

mod args;
mod output;

use std::fmt;

use super::{Args, CommandError, OpponentNews, whole_i64, whole_u32, whole_u64};
use crate::geometry::Square;
use crate::notation::{WireMove, WireTurn, parse_move, parse_turn};
use crate::variant::Side;

use args::{BaseTime, base_time, exclude_target, side_word, square_token};
pub use args::{ExcludeTarget, Increment, Seconds, WireResult};
pub use output::{CecpMove, EngineLine, Feature, FeatureValue, Pv, Thinking, parse_engine_line};

/// A command sent by a CECP (XBoard) GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CecpCommand {
    /// `xboard`.
    Xboard,
    /// `protover N`.
    Protover(u32),
    /// `accepted FEATURE`.
    Accepted(String),
    /// `rejected FEATURE`.
    Rejected(String),
    /// `new`.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `quit`.
    Quit,
    /// `random`.
    Random,
    /// `force`.
    Force,
    /// `go`.
    Go,
    /// `playother`.
    PlayOther,
    /// `level MPS BASE INC`.
    Level {
        /// Moves per session (0: the whole game).
        mps: u32,
        /// Base time in seconds (written `M` or `M:SS`).
        base_seconds: u32,
        /// Increment per move.
        inc: Seconds,
    },
    /// `st T`: a fixed time per move.
    St(Seconds),
    /// `sd N`: a depth limit.
    Sd(u32),
    /// `nps N`: a node-rate limit.
    Nps(u64),
    /// `time N`: the engine's clock in centiseconds (may be negative).
    Time(i64),
    /// `otim N`: the opponent's clock in centiseconds (may be negative).
    Otim(i64),
    /// `usermove T`.
    UserMove(WireTurn),
    /// `?`: move now.
    MoveNow,
    /// `ping N` (the argument is kept as text).
    Ping(String),
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `result R {COMMENT}`.
    Result {
        /// The result.
        result: WireResult,
        /// The text inside the braces (may be empty).
        comment: String,
    },
    /// `setboard FEN` (the rest of the line, unchecked).
    SetBoard(String),
    /// `hint`.
    Hint,
    /// `bk`.
    Bk,
    /// `undo`.
    Undo,
    /// `remove`.
    Remove,
    /// `hard`: ponder.
    Hard,
    /// `easy`: do not ponder.
    Easy,
    /// `post`.
    Post,
    /// `nopost`.
    NoPost,
    /// `analyze`.
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// `.`: an analysis status request.
    Dot,
    /// `name TEXT`: the opponent's name.
    Name(String),
    /// `rating TEXT`.
    Rating(String),
    /// `ics TEXT`.
    Ics(String),
    /// `computer`: the opponent is a computer.
    Computer,
    /// `memory N`: megabytes.
    Memory(u64),
    /// `cores N`.
    Cores(u32),
    /// `egtpath TEXT`.
    EgtPath(String),
    /// `option NAME[=VALUE]`; the name never contains `=`.
    Option {
        /// The option name (may contain spaces).
        name: String,
        /// The value (`None` for a button).
        value: Option<String>,
    },
    /// `exclude all|MOVE`.
    Exclude(ExcludeTarget),
    /// `include all|MOVE`.
    Include(ExcludeTarget),
    /// `lift SQ`.
    Lift(Square),
    /// `put SQ`.
    Put(Square),
    /// `hover SQ`.
    Hover(Square),
    /// `sealed white|black`: choose a sealed move for this side (Quill extension).
    Sealed(Side),
    /// `reveal W B`: both sealed moves, White's first (Quill extension).
    Reveal(WireMove, WireMove),
    /// `opponent M|DIGEST`: the opponent's sealed move, or its commitment (Quill extension).
    Opponent(OpponentNews),
    /// `d`: print the board (Quill extension).
    Display,
    /// `help`: list the commands, for a person at a terminal (Quill extension).
    Help,
    /// `perft N` (Quill extension).
    Perft(u32),
    /// A bare move or joint turn, from GUIs that did not accept `usermove=1`.
    Move(WireTurn),
}

/// Reads one token as a move, naming it in the error.
fn move_arg(args: &mut Args<'_>) -> Result<WireMove, CommandError> {
    args.value("", "a move", parse_move)
}

/// The pattern of the commands in [`BARE`], the ones without arguments: written once, so that
/// the printer's match names every command without a wildcard (a new command must be placed).
macro_rules! bare {
    () => {
        CecpCommand::Xboard
            | CecpCommand::New
            | CecpCommand::Quit
            | CecpCommand::Random
            | CecpCommand::Force
            | CecpCommand::Go
            | CecpCommand::PlayOther
            | CecpCommand::MoveNow
            | CecpCommand::Draw
            | CecpCommand::Hint
            | CecpCommand::Bk
            | CecpCommand::Undo
            | CecpCommand::Remove
            | CecpCommand::Hard
            | CecpCommand::Easy
            | CecpCommand::Post
            | CecpCommand::NoPost
            | CecpCommand::Analyze
            | CecpCommand::Exit
            | CecpCommand::Dot
            | CecpCommand::Computer
            | CecpCommand::Display
            | CecpCommand::Help
    };
}

/// The commands without arguments, each with its word (one table for the parser and the
/// printer).
const BARE: [(&str, CecpCommand); 23] = [
    ("xboard", CecpCommand::Xboard),
    ("new", CecpCommand::New),
    ("quit", CecpCommand::Quit),
    ("random", CecpCommand::Random),
    ("force", CecpCommand::Force),
    ("go", CecpCommand::Go),
    ("playother", CecpCommand::PlayOther),
    ("?", CecpCommand::MoveNow),
    ("draw", CecpCommand::Draw),
    ("hint", CecpCommand::Hint),
    ("bk", CecpCommand::Bk),
    ("undo", CecpCommand::Undo),
    ("remove", CecpCommand::Remove),
    ("hard", CecpCommand::Hard),
    ("easy", CecpCommand::Easy),
    ("post", CecpCommand::Post),
    ("nopost", CecpCommand::NoPost),
    ("analyze", CecpCommand::Analyze),
    ("exit", CecpCommand::Exit),
    (".", CecpCommand::Dot),
    ("computer", CecpCommand::Computer),
    ("d", CecpCommand::Display),
    ("help", CecpCommand::Help),
];

/// Parses one CECP command line.
pub fn parse(line: &str) -> Result<CecpCommand, CommandError> {
    use CecpCommand as C;
    let mut args = Args::split(line)?;
    let word = args.command();
    if let Some((_, bare)) = BARE.iter().find(|(w, _)| *w == word) {
        args.finish()?;
        return Ok(bare.clone());
    }
    let command = match word {
        "protover" => C::Protover(args.number("", whole_u32)?),
        "accepted" => C::Accepted(args.single("a feature name")?.to_owned()),
        "rejected" => C::Rejected(args.single("a feature name")?.to_owned()),
        "variant" => C::Variant(args.single("a variant name")?.to_owned()),
        "level" => C::Level {
            mps: args.value("moves per session", "a whole number", whole_u32)?,
            base_seconds: args.value("base time", "minutes or minutes:seconds", base_time)?,
            inc: args.value("increment", "a number of seconds", Seconds::from_token)?,
        },
        "st" => C::St(args.value("", "a number of seconds", Seconds::from_token)?),
        "sd" => C::Sd(args.number("", whole_u32)?),
        "nps" => C::Nps(args.number("", whole_u64)?),
        "time" => C::Time(args.value("", "a number of centiseconds", whole_i64)?),
        "otim" => C::Otim(args.value("", "a number of centiseconds", whole_i64)?),
        "usermove" => C::UserMove(args.value("", "a move", parse_turn)?),
        "ping" => C::Ping(args.single("an argument")?.to_owned()),
        "result" => parse_result(&mut args)?,
        "setboard" => C::SetBoard(args.nonempty_rest("a position")?.to_owned()),
        "name" => C::Name(args.nonempty_rest("a name")?.to_owned()),
        "rating" => C::Rating(args.nonempty_rest("ratings")?.to_owned()),
        "ics" => C::Ics(args.nonempty_rest("a host name or '-'")?.to_owned()),
        "memory" => C::Memory(args.number("", whole_u64)?),
        "cores" => C::Cores(args.number("", whole_u32)?),
        "egtpath" => C::EgtPath(args.nonempty_rest("a type and a path")?.to_owned()),
        "option" => parse_option(&mut args)?,
        "exclude" => C::Exclude(args.value("", "'all' or a move", exclude_target)?),
        "include" => C::Include(args.value("", "'all' or a move", exclude_target)?),
        "lift" => C::Lift(args.value("", "a square", square_token)?),
        "put" => C::Put(args.value("", "a square", square_token)?),
        "hover" => C::Hover(args.value("", "a square", square_token)?),
        "sealed" => C::Sealed(args.value("", "white or black", side_word)?),
        "reveal" => C::Reveal(move_arg(&mut args)?, move_arg(&mut args)?),
        "opponent" => C::Opponent(args.value("", "a move", super::opponent_news)?),
        "perft" => C::Perft(args.number("", whole_u32)?),
        word => match parse_turn(word) {
            Some(turn) => C::Move(turn),
            None => return Err(CommandError::Unknown(word.to_owned())),
        },
    };
    args.finish()?;
    Ok(command)
}

/// Parses the arguments of `result`.
fn parse_result(args: &mut Args<'_>) -> Result<CecpCommand, CommandError> {
    let result = args.value("", "1-0, 0-1, 1/2-1/2 or *", WireResult::from_token)?;
    let rest = args.take_rest();
    let comment = if rest.is_empty() {
        ""
    } else {
        rest.strip_prefix('{')
            .and_then(|inner| inner.strip_suffix('}'))
            .ok_or_else(|| args.malformed(format!("the comment must be in braces, got '{rest}'")))?
    };
    Ok(CecpCommand::Result {
        result,
        comment: comment.to_owned(),
    })
}

/// Parses the arguments of `option`.
fn parse_option(args: &mut Args<'_>) -> Result<CecpCommand, CommandError> {
    let text = args.take_rest();
    let (name, value) = match text.split_once('=') {
        Some((name, value)) => (name.trim_end(), Some(value.trim_start().to_owned())),
        None => (text, None),
    };
    if name.is_empty() {
        return Err(args.malformed("needs an option name"));
    }
    Ok(CecpCommand::Option {
        name: name.to_owned(),
        value,
    })
}

impl fmt::Display for CecpCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CecpCommand as C;
        match self {
            bare!() => {
                let word = BARE.iter().find(|(_, c)| c == self).map(|(w, _)| *w);
                f.write_str(word.unwrap_or_default())
            }
            C::Protover(n) => write!(f, "protover {n}"),
            C::Accepted(feature) => write!(f, "accepted {feature}"),
            C::Rejected(feature) => write!(f, "rejected {feature}"),
            C::Variant(name) => write!(f, "variant {name}"),
            C::Level {
                mps,
                base_seconds,
                inc,
            } => write!(f, "level {mps} {} {inc}", BaseTime(*base_seconds)),
            C::St(time) => write!(f, "st {time}"),
            C::Sd(depth) => write!(f, "sd {depth}"),
            C::Nps(nps) => write!(f, "nps {nps}"),
            C::Time(cs) => write!(f, "time {cs}"),
            C::Otim(cs) => write!(f, "otim {cs}"),
            C::UserMove(turn) => write!(f, "usermove {turn}"),
            C::Ping(arg) => write!(f, "ping {arg}"),
            C::Result { result, comment } => write!(f, "result {result} {{{comment}}}"),
            C::SetBoard(fen) => write!(f, "setboard {fen}"),
            C::Name(text) => write!(f, "name {text}"),
            C::Rating(text) => write!(f, "rating {text}"),
            C::Ics(text) => write!(f, "ics {text}"),
            C::Memory(mb) => write!(f, "memory {mb}"),
            C::Cores(n) => write!(f, "cores {n}"),
            C::EgtPath(text) => write!(f, "egtpath {text}"),
            C::Option { name, value: None } => write!(f, "option {name}"),
            C::Option {
                name,
                value: Some(value),
            } => write!(f, "option {name}={value}"),
            C::Exclude(target) => write!(f, "exclude {target}"),
            C::Include(target) => write!(f, "include {target}"),
            C::Lift(sq) => write!(f, "lift {sq}"),
            C::Put(sq) => write!(f, "put {sq}"),
            C::Hover(sq) => write!(f, "hover {sq}"),
            C::Sealed(side) => write!(f, "sealed {}", side.word()),
            C::Reveal(white, black) => write!(f, "reveal {white} {black}"),
            C::Opponent(mv) => write!(f, "opponent {mv}"),
            C::Perft(depth) => write!(f, "perft {depth}"),
            C::Move(turn) => write!(f, "{turn}"),
        }
    }
}

#[cfg(test)]
mod tests;
