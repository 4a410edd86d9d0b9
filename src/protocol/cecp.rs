//! The CECP (XBoard) dialect: GUI-to-engine commands as typed values, their parser and their
//! printer.
//!
//! Quill adds `sealed`, `reveal`, `opponent`, `d` and `perft` to the standard commands. A line
//! whose first token is a move (or a joint turn `W|B`) is a move for GUIs that did not accept
//! `usermove=1`.

mod output;

use std::fmt;

use nom::branch::alt;
use nom::character::complete::{char, digit1, u32};
use nom::combinator::{map_opt, opt};
use nom::sequence::{preceded, separated_pair};

use super::{Args, CommandError, OpponentNews, whole, whole_i64, whole_u32, whole_u64};
use crate::geometry::{Square, square};
use crate::notation::{Turn, WireMove, parse_move, parse_turn};
use crate::variant::Side;

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
    UserMove(Turn),
    /// `?`: move now.
    MoveNow,
    /// `ping N` (the argument is kept as text).
    Ping(String),
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `result R {COMMENT}`.
    Result {
        /// The result.
        result: GameResult,
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
    Move(Turn),
}

/// The result of a game as written in `result`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`.
    Unknown,
}

impl GameResult {
    /// Returns the result as written on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result token.
    pub fn from_token(token: &str) -> Option<GameResult> {
        match token {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What `exclude` and `include` apply to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExcludeTarget {
    /// `all`: every move.
    All,
    /// One move.
    Move(WireMove),
}

impl fmt::Display for ExcludeTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExcludeTarget::All => f.write_str("all"),
            ExcludeTarget::Move(mv) => write!(f, "{mv}"),
        }
    }
}

/// A duration in whole milliseconds, written on the wire as decimal seconds (`0`, `2`, `0.5`,
/// `1.25`; digits past the third decimal are dropped when read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seconds {
    /// The duration in milliseconds.
    pub millis: u64,
}

/// The increment of `level`, in the same representation as `st`.
pub type Increment = Seconds;

impl Seconds {
    /// Makes a duration from milliseconds.
    pub const fn from_millis(millis: u64) -> Seconds {
        Seconds { millis }
    }

    /// Reads decimal seconds (`2`, `0.5`); `None` for anything else or on overflow.
    pub fn from_token(token: &str) -> Option<Seconds> {
        let (int, frac) = whole((digit1, opt(preceded(char('.'), digit1))), token)?;
        let int: u64 = int.parse().ok()?;
        let frac_millis = frac
            .unwrap_or("")
            .bytes()
            .chain(std::iter::repeat(b'0'))
            .take(3)
            .fold(0, |acc, digit| {
                acc * 10 + u64::from(digit.wrapping_sub(b'0') % 10)
            });
        int.checked_mul(1000)?
            .checked_add(frac_millis)
            .map(Seconds::from_millis)
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (int, frac) = (self.millis / 1000, self.millis % 1000);
        if frac == 0 {
            write!(f, "{int}")
        } else {
            let digits = format!("{frac:03}");
            write!(f, "{int}.{}", digits.trim_end_matches('0'))
        }
    }
}

/// Reads the base time of `level`, `M` or `M:SS`, as seconds.
fn base_time(token: &str) -> Option<u32> {
    whole(
        alt((
            // Seconds below 60: `5:99` is no time of a clock.
            map_opt(separated_pair(u32, char(':'), u32), |(m, s)| {
                m.checked_mul(60)?.checked_add(s).filter(|_| s < 60)
            }),
            map_opt(u32, |m| m.checked_mul(60)),
        )),
        token,
    )
}

/// Writes a base time in seconds as `M:SS`.
struct BaseTime(u32);

impl fmt::Display for BaseTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Always `M:SS`, as XBoard shows a clock.
        write!(f, "{}:{:02}", self.0 / 60, self.0 % 60)
    }
}

/// Reads a side word, `white` or `black`.
fn side_word(token: &str) -> Option<Side> {
    match token {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        _ => None,
    }
}

/// Reads one whole token as a square.
fn square_token(token: &str) -> Option<Square> {
    whole(square, token)
}

/// Reads `all` or a move.
fn exclude_target(token: &str) -> Option<ExcludeTarget> {
    match token {
        "all" => Some(ExcludeTarget::All),
        _ => parse_move(token).map(ExcludeTarget::Move),
    }
}

/// Reads one token as a move, naming it in the error.
fn move_arg(args: &mut Args<'_>) -> Result<WireMove, CommandError> {
    args.value("", "a move", parse_move)
}

/// Parses one CECP command line.
pub fn parse(line: &str) -> Result<CecpCommand, CommandError> {
    use CecpCommand as C;
    let mut args = Args::split(line)?;
    let command = match args.command() {
        "xboard" => C::Xboard,
        "protover" => C::Protover(args.number("", whole_u32)?),
        "accepted" => C::Accepted(args.single("a feature name")?.to_owned()),
        "rejected" => C::Rejected(args.single("a feature name")?.to_owned()),
        "new" => C::New,
        "variant" => C::Variant(args.single("a variant name")?.to_owned()),
        "quit" => C::Quit,
        "random" => C::Random,
        "force" => C::Force,
        "go" => C::Go,
        "playother" => C::PlayOther,
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
        "?" => C::MoveNow,
        "ping" => C::Ping(args.single("an argument")?.to_owned()),
        "draw" => C::Draw,
        "result" => parse_result(&mut args)?,
        "setboard" => C::SetBoard(args.nonempty_rest("a position")?.to_owned()),
        "hint" => C::Hint,
        "bk" => C::Bk,
        "undo" => C::Undo,
        "remove" => C::Remove,
        "hard" => C::Hard,
        "easy" => C::Easy,
        "post" => C::Post,
        "nopost" => C::NoPost,
        "analyze" => C::Analyze,
        "exit" => C::Exit,
        "." => C::Dot,
        "name" => C::Name(args.nonempty_rest("a name")?.to_owned()),
        "rating" => C::Rating(args.nonempty_rest("ratings")?.to_owned()),
        "ics" => C::Ics(args.nonempty_rest("a host name or '-'")?.to_owned()),
        "computer" => C::Computer,
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
        "d" => C::Display,
        "help" => C::Help,
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
    let result = args.value("", "1-0, 0-1, 1/2-1/2 or *", GameResult::from_token)?;
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
            C::Xboard => f.write_str("xboard"),
            C::Protover(n) => write!(f, "protover {n}"),
            C::Accepted(feature) => write!(f, "accepted {feature}"),
            C::Rejected(feature) => write!(f, "rejected {feature}"),
            C::New => f.write_str("new"),
            C::Variant(name) => write!(f, "variant {name}"),
            C::Quit => f.write_str("quit"),
            C::Random => f.write_str("random"),
            C::Force => f.write_str("force"),
            C::Go => f.write_str("go"),
            C::PlayOther => f.write_str("playother"),
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
            C::MoveNow => f.write_str("?"),
            C::Ping(arg) => write!(f, "ping {arg}"),
            C::Draw => f.write_str("draw"),
            C::Result { result, comment } => write!(f, "result {result} {{{comment}}}"),
            C::SetBoard(fen) => write!(f, "setboard {fen}"),
            C::Hint => f.write_str("hint"),
            C::Bk => f.write_str("bk"),
            C::Undo => f.write_str("undo"),
            C::Remove => f.write_str("remove"),
            C::Hard => f.write_str("hard"),
            C::Easy => f.write_str("easy"),
            C::Post => f.write_str("post"),
            C::NoPost => f.write_str("nopost"),
            C::Analyze => f.write_str("analyze"),
            C::Exit => f.write_str("exit"),
            C::Dot => f.write_str("."),
            C::Name(text) => write!(f, "name {text}"),
            C::Rating(text) => write!(f, "rating {text}"),
            C::Ics(text) => write!(f, "ics {text}"),
            C::Computer => f.write_str("computer"),
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
            C::Display => f.write_str("d"),
            C::Help => f.write_str("help"),
            C::Perft(depth) => write!(f, "perft {depth}"),
            C::Move(turn) => write!(f, "{turn}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use CecpCommand as C;

    fn ok(line: &str) -> CecpCommand {
        let cmd = parse(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        assert_eq!(
            parse(&cmd.to_string()).as_ref(),
            Ok(&cmd),
            "{line:?} reprinted"
        );
        cmd
    }

    fn malformed(line: &str) -> String {
        match parse(line) {
            Err(CommandError::Malformed { command, reason }) => format!("{command}: {reason}"),
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        let table = [
            ("xboard", C::Xboard),
            ("new", C::New),
            ("quit", C::Quit),
            ("random", C::Random),
            ("force", C::Force),
            ("go", C::Go),
            ("playother", C::PlayOther),
            ("?", C::MoveNow),
            ("draw", C::Draw),
            ("hint", C::Hint),
            ("bk", C::Bk),
            ("undo", C::Undo),
            ("remove", C::Remove),
            ("hard", C::Hard),
            ("easy", C::Easy),
            ("post", C::Post),
            ("nopost", C::NoPost),
            ("analyze", C::Analyze),
            ("exit", C::Exit),
            (".", C::Dot),
            ("computer", C::Computer),
            ("d", C::Display),
        ];
        for (line, cmd) in table {
            assert_eq!(ok(&format!(" {line}\r\n")), cmd);
            assert_eq!(cmd.to_string(), line);
            assert_eq!(
                malformed(&format!("{line} junk")),
                format!("{line}: unexpected 'junk'")
            );
        }
        assert_eq!(parse("   "), Err(CommandError::Empty));
        assert_eq!(parse("fly away"), Err(CommandError::Unknown("fly".into())));
    }

    #[test]
    fn times() {
        let level = |mps, base_seconds, millis| C::Level {
            mps,
            base_seconds,
            inc: Seconds::from_millis(millis),
        };
        assert_eq!(ok("level 40 5 0"), level(40, 300, 0));
        assert_eq!(ok("level 0 2:30 0.5"), level(0, 150, 500));
        assert_eq!(ok("level 0 0:05 12.25"), level(0, 5, 12250));
        assert_eq!(level(0, 5, 12250).to_string(), "level 0 0:05 12.25");
        assert_eq!(level(1, 3600, 2000).to_string(), "level 1 60:00 2");
        assert_eq!(ok("st 0.0019"), C::St(Seconds::from_millis(1)));
        assert_eq!(ok("st 30"), C::St(Seconds::from_millis(30_000)));
    }

    #[test]
    fn results_and_options() {
        let result = |result, comment: &str| C::Result {
            result,
            comment: comment.into(),
        };
        assert_eq!(
            ok("result 1-0 {White mates}"),
            result(GameResult::WhiteWins, "White mates")
        );
        assert_eq!(
            ok("result 0-1 { x } y }"),
            result(GameResult::BlackWins, " x } y ")
        );
        assert_eq!(ok("result 1/2-1/2 {}"), result(GameResult::Draw, ""));
        assert_eq!(ok("result *"), result(GameResult::Unknown, ""));
        let option = |name: &str, value: Option<&str>| C::Option {
            name: name.into(),
            value: value.map(Into::into),
        };
        assert_eq!(ok("option Hash Size=64"), option("Hash Size", Some("64")));
        assert_eq!(ok("option Path = /a=b"), option("Path", Some("/a=b")));
        assert_eq!(ok("option Path="), option("Path", Some("")));
        assert_eq!(ok("option Clear Hash"), option("Clear Hash", None));
    }

    #[test]
    fn bad_arguments() {
        let table = [
            ("sd x", "sd: needs a whole number, got 'x'"),
            ("sd -1", "sd: needs a whole number, got '-1'"),
            ("st abc", "st: needs a number of seconds, got 'abc'"),
            (
                "level 40",
                "level: base time needs minutes or minutes:seconds",
            ),
            (
                "level 40 5:99 0",
                "level: base time needs minutes or minutes:seconds, got '5:99'",
            ),
            ("time x", "time: needs a number of centiseconds, got 'x'"),
            ("ping", "ping: needs an argument"),
            ("ping 1 2", "ping: unexpected '2'"),
            ("usermove zz", "usermove: needs a move, got 'zz'"),
            (
                "sealed purple",
                "sealed: needs white or black, got 'purple'",
            ),
            ("perft", "perft: needs a whole number"),
            ("memory x", "memory: needs a whole number, got 'x'"),
            ("setboard", "setboard: needs a position"),
            ("option", "option: needs an option name"),
            (
                "result 2-0",
                "result: needs 1-0, 0-1, 1/2-1/2 or *, got '2-0'",
            ),
            ("reveal a2a3", "reveal: needs a move"),
        ];
        for (line, reason) in table {
            assert_eq!(malformed(line), reason, "{line:?}");
        }
    }
}
