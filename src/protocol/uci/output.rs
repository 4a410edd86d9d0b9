//! What a UCI engine prints, as typed values: each line has a printer (`Display`) and a nom
//! parser ([`parse_engine_line`]), shared by Quill's session (which prints them) and by the
//! referee (which reads any UCI engine with them). Printing then parsing gives the value back.
//!
//! The sealed extension (`protocol-docs/sealed.md`) travels in `info string` lines:
//! `info string commit DIGEST`, `info string reveal MOVE NONCE` and
//! `info string strategy MOVE:P …`; Quill's complaints are `info string error: MESSAGE`.

mod info;

use std::fmt;

use super::super::{Args, CommandError, whole_i64};
use crate::notation::{WireMove, parse_move};

use self::info::parse_info;
pub use self::info::{Info, InfoScore, ScoreBound};

/// A line a UCI engine prints.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineLine {
    /// `id name NAME`.
    IdName(String),
    /// `id author AUTHOR`.
    IdAuthor(String),
    /// `option name N type …`.
    Option(UciOption),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove M [ponder P]`; `bestmove (none)` when there is no move to give.
    BestMove {
        /// The move, `None` for `(none)`.
        mv: Option<WireMove>,
        /// The expected reply.
        ponder: Option<WireMove>,
    },
    /// `info …` with search figures (never starting with `string`).
    Info(Info),
    /// `info string error: MESSAGE`: the engine refuses a command.
    Error(String),
    /// `info string commit DIGEST`: a commitment to a sealed move (64 hexadecimal digits
    /// from Quill; any token from another engine).
    Commit(String),
    /// `info string reveal MOVE NONCE`: the opening of a commitment.
    Reveal {
        /// The committed move.
        mv: WireMove,
        /// The nonce (hexadecimal).
        nonce: String,
    },
    /// `info string strategy MOVE:P …`: a sealed search's mixed strategy (support only,
    /// probabilities written with four decimals).
    Strategy(Vec<(WireMove, f64)>),
    /// Any other `info string TEXT`.
    InfoString(String),
    /// `copyprotection STATUS`.
    CopyProtection(String),
    /// `registration STATUS`.
    Registration(String),
}

/// A UCI option as an engine declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    /// The name (may contain spaces, never the word `type`).
    pub name: String,
    /// Its type, default and range.
    pub kind: OptionKind,
}

/// The type of a UCI option, with its default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check {
        /// The default.
        default: bool,
    },
    /// `type spin default D min A max B`.
    Spin {
        /// The default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `type combo default D var V …`.
    Combo {
        /// The default.
        default: String,
        /// The values allowed.
        vars: Vec<String>,
    },
    /// `type button`.
    Button,
    /// `type string default D` (`<empty>` on the wire for the empty string).
    Text {
        /// The default.
        default: String,
    },
}

impl fmt::Display for UciOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for var in vars {
                    write!(f, " var {var}")?;
                }
                Ok(())
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::Text { default } if default.is_empty() => {
                f.write_str("string default <empty>")
            }
            OptionKind::Text { default } => write!(f, "string default {default}"),
        }
    }
}

impl fmt::Display for EngineLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineLine::IdName(name) => write!(f, "id name {name}"),
            EngineLine::IdAuthor(author) => write!(f, "id author {author}"),
            EngineLine::Option(option) => write!(f, "{option}"),
            EngineLine::UciOk => f.write_str("uciok"),
            EngineLine::ReadyOk => f.write_str("readyok"),
            EngineLine::BestMove { mv, ponder } => {
                match mv {
                    Some(mv) => write!(f, "bestmove {mv}")?,
                    None => f.write_str("bestmove (none)")?,
                }
                match ponder {
                    Some(p) => write!(f, " ponder {p}"),
                    None => Ok(()),
                }
            }
            EngineLine::Info(info) => write!(f, "{info}"),
            EngineLine::Error(message) => write!(f, "info string error: {message}"),
            EngineLine::Commit(digest) => write!(f, "info string commit {digest}"),
            EngineLine::Reveal { mv, nonce } => write!(f, "info string reveal {mv} {nonce}"),
            EngineLine::Strategy(support) => {
                write!(f, "info string strategy {}", format_strategy(support))
            }
            EngineLine::InfoString(text) => write!(f, "info string {text}"),
            EngineLine::CopyProtection(status) => write!(f, "copyprotection {status}"),
            EngineLine::Registration(status) => write!(f, "registration {status}"),
        }
    }
}

/// Parses one line of a UCI engine's output.
///
/// # Errors
/// The line is empty, its first word is no engine line of UCI (`Unknown`), or its arguments
/// are not those of the line (`Malformed`).
pub fn parse_engine_line(line: &str) -> Result<EngineLine, CommandError> {
    let mut args = Args::split(line)?;
    let parsed = match args.command() {
        "id" => match args.required("name or author")? {
            "name" => EngineLine::IdName(args.nonempty_rest("a name")?.to_owned()),
            "author" => EngineLine::IdAuthor(args.nonempty_rest("an author")?.to_owned()),
            other => return Err(args.malformed(format!("needs name or author, got '{other}'"))),
        },
        "option" => EngineLine::Option(parse_option(&mut args)?),
        "uciok" => EngineLine::UciOk,
        "readyok" => EngineLine::ReadyOk,
        "bestmove" => parse_bestmove(&mut args)?,
        "info" if args.peek() == Some("string") => {
            args.next_token();
            info_string(args.nonempty_rest("a text")?)
        }
        "info" => EngineLine::Info(parse_info(&mut args)?),
        "copyprotection" => EngineLine::CopyProtection(args.single("a status")?.to_owned()),
        "registration" => EngineLine::Registration(args.single("a status")?.to_owned()),
        word => return Err(CommandError::Unknown(word.to_owned())),
    };
    args.finish()?;
    Ok(parsed)
}

/// Reads the text of `info string`: the sealed extension's lines, an error, or free text.
fn info_string(text: &str) -> EngineLine {
    let typed = if let Some(message) = text.strip_prefix("error: ") {
        Some(EngineLine::Error(message.to_owned()))
    } else if let Some(rest) = text.strip_prefix("commit ") {
        // The digest is the only word.
        Args::split(rest)
            .ok()
            .filter(|a| a.finish().is_ok())
            .map(|a| EngineLine::Commit(a.command().to_owned()))
    } else if let Some(rest) = text.strip_prefix("reveal ") {
        let mut words = rest.split(' ');
        match (
            words.next().and_then(parse_move),
            words.next(),
            words.next(),
        ) {
            (Some(mv), Some(nonce), None) if !nonce.is_empty() => Some(EngineLine::Reveal {
                mv,
                nonce: nonce.to_owned(),
            }),
            _ => None,
        }
    } else if let Some(rest) = text.strip_prefix("strategy ") {
        parse_strategy(rest).map(EngineLine::Strategy)
    } else {
        None
    };
    typed.unwrap_or_else(|| EngineLine::InfoString(text.to_owned()))
}

/// Writes a mixed strategy as `MOVE:P …`, each probability with four decimals.
pub(crate) fn format_strategy(support: &[(WireMove, f64)]) -> String {
    let parts: Vec<String> = support.iter().map(|(m, p)| format!("{m}:{p:.4}")).collect();
    parts.join(" ")
}

/// Reads a mixed strategy written by [`format_strategy`]; `None` unless all of it is one.
pub(crate) fn parse_strategy(text: &str) -> Option<Vec<(WireMove, f64)>> {
    text.split(' ').map(strategy_entry).collect()
}

/// Reads `MOVE:P` of a strategy, P written with exactly four decimals.
fn strategy_entry(token: &str) -> Option<(WireMove, f64)> {
    let (mv, p) = token.rsplit_once(':')?;
    let (int, frac) = p.split_once('.')?;
    let digits = |s: &str, n| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int, 1) || !digits(frac, 4) {
        return None;
    }
    Some((parse_move(mv)?, p.parse().ok()?))
}

/// Parses the arguments of `bestmove`.
fn parse_bestmove(args: &mut Args<'_>) -> Result<EngineLine, CommandError> {
    let mv = match args.required("a move")? {
        "(none)" => None,
        tok => {
            Some(parse_move(tok).ok_or_else(|| args.malformed(format!("'{tok}' is not a move")))?)
        }
    };
    let ponder = match args.next_token() {
        None => None,
        Some("ponder") => Some(args.value("ponder", "a move", parse_move)?),
        Some(other) => return Err(args.malformed(format!("expected 'ponder', got '{other}'"))),
    };
    Ok(EngineLine::BestMove { mv, ponder })
}

/// Parses the arguments of an `option` line.
fn parse_option(args: &mut Args<'_>) -> Result<UciOption, CommandError> {
    match args.required("'name'")? {
        "name" => {}
        other => return Err(args.malformed(format!("needs 'name', got '{other}'"))),
    }
    let name = words_until(args, &["type"]);
    if name.is_empty() {
        return Err(args.malformed("needs an option name"));
    }
    if args.next_token() != Some("type") {
        return Err(args.malformed("needs 'type'"));
    }
    let kind = match args.required("a type")? {
        "check" => {
            expect(args, "default")?;
            OptionKind::Check {
                default: args.value("default", "true or false", |t| match t {
                    "true" => Some(true),
                    "false" => Some(false),
                    _ => None,
                })?,
            }
        }
        "spin" => {
            expect(args, "default")?;
            let default = args.number("default", whole_i64)?;
            expect(args, "min")?;
            let min = args.number("min", whole_i64)?;
            expect(args, "max")?;
            let max = args.number("max", whole_i64)?;
            OptionKind::Spin { default, min, max }
        }
        "combo" => {
            expect(args, "default")?;
            let default = words_until(args, &["var"]);
            let mut vars = Vec::new();
            while args.next_token() == Some("var") {
                vars.push(words_until(args, &["var"]));
            }
            OptionKind::Combo { default, vars }
        }
        "button" => OptionKind::Button,
        "string" => {
            let default = match args.next_token() {
                Some("default") => args.take_rest(),
                Some(other) => {
                    return Err(args.malformed(format!("expected 'default', got '{other}'")));
                }
                None => "",
            };
            OptionKind::Text {
                default: if default == "<empty>" { "" } else { default }.to_owned(),
            }
        }
        other => return Err(args.malformed(format!("unknown option type '{other}'"))),
    };
    Ok(UciOption { name, kind })
}

/// Takes the words up to (not including) one of `stops` or the end, joined by single spaces.
fn words_until(args: &mut Args<'_>, stops: &[&str]) -> String {
    let mut words = Vec::new();
    while let Some(tok) = args.peek().filter(|t| !stops.contains(t)) {
        words.push(tok);
        args.next_token();
    }
    words.join(" ")
}

/// Takes the keyword `word`, or fails saying it was expected.
fn expect(args: &mut Args<'_>, word: &str) -> Result<(), CommandError> {
    match args.next_token() {
        Some(tok) if tok == word => Ok(()),
        Some(tok) => Err(args.malformed(format!("expected '{word}', got '{tok}'"))),
        None => Err(args.malformed(format!("needs '{word}'"))),
    }
}

#[cfg(test)]
mod tests;
