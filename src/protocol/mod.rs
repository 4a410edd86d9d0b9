//! Command-line parsers and printers for the two dialects Quill speaks, UCI and CECP (XBoard).
//!
//! Parsing is pure syntax: a command never looks at a board, so a well-formed `position` may
//! still name an illegal move. Every command prints back (through `Display`) to a canonical line
//! that parses to the same command.
//!
//! Lines are trimmed of surrounding whitespace (`\r` included) and split into tokens at runs of
//! whitespace (spaces and tabs, and for robustness any other Unicode whitespace). Arguments that
//! take "the rest of the line" keep their inner spacing exactly as received.

use std::fmt;

use nom::IResult;
use nom::Parser;
use nom::bytes::complete::{take_till1, take_while};
use nom::combinator::all_consuming;
use nom::sequence::preceded;

pub mod cecp;
pub mod uci;

/// What `opponent` tells an engine waiting to open its commitment (Quill extension): the
/// opponent's move, or, when both engines commit, the opponent's own commitment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpponentNews {
    /// The opponent's move.
    Move(crate::notation::WireMove),
    /// The opponent's commitment: 64 lowercase hexadecimal digits.
    Commitment(String),
}

impl fmt::Display for OpponentNews {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpponentNews::Move(mv) => write!(f, "{mv}"),
            OpponentNews::Commitment(digest) => f.write_str(digest),
        }
    }
}

/// Reads the argument of `opponent`: 64 hex digits are a commitment, anything else must be a
/// move.
pub(crate) fn opponent_news(token: &str) -> Option<OpponentNews> {
    if token.len() == 64
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Some(OpponentNews::Commitment(token.to_owned()))
    } else {
        crate::notation::parse_move(token).map(OpponentNews::Move)
    }
}

/// Why a command line could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The line was empty or held only whitespace.
    Empty,
    /// The first word is not a command of the dialect (the word is kept).
    Unknown(String),
    /// The command word is known but its arguments are not.
    Malformed {
        /// The command word.
        command: String,
        /// What is wrong, for a human.
        reason: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => f.write_str("empty command line"),
            CommandError::Unknown(word) => write!(f, "unknown command '{word}'"),
            CommandError::Malformed { command, reason } => {
                write!(f, "malformed '{command}': {reason}")
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// Parses a run of whitespace, possibly empty.
fn separators(input: &str) -> IResult<&str, &str> {
    take_while(char::is_whitespace).parse(input)
}

/// Parses one token (a maximal run of non-whitespace) after optional whitespace.
fn token(input: &str) -> IResult<&str, &str> {
    preceded(separators, take_till1(char::is_whitespace)).parse(input)
}

/// Applies a nom parser to a whole token; `None` unless it consumes all of it.
pub(crate) fn whole<'a, O, P>(parser: P, text: &'a str) -> Option<O>
where
    P: Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
{
    all_consuming(parser).parse(text).ok().map(|(_, out)| out)
}

/// Parses a token as an unsigned 64-bit decimal number.
pub(crate) fn whole_u64(text: &str) -> Option<u64> {
    whole(nom::character::complete::u64, text)
}

/// Parses a token as an unsigned 32-bit decimal number.
pub(crate) fn whole_u32(text: &str) -> Option<u32> {
    whole(nom::character::complete::u32, text)
}

/// Parses a token as a signed 64-bit decimal number (an optional `-` or `+` sign first).
pub(crate) fn whole_i64(text: &str) -> Option<i64> {
    whole(nom::character::complete::i64, text)
}

/// The arguments of one command line: the command word and a cursor over what follows it.
pub(crate) struct Args<'a> {
    /// The command word.
    command: &'a str,
    /// The unread rest of the line; never starts with whitespace.
    rest: &'a str,
}

impl<'a> Args<'a> {
    /// Trims a line and splits off its command word; `Empty` when there is none.
    pub(crate) fn split(line: &'a str) -> Result<Args<'a>, CommandError> {
        match token(line.trim()) {
            Ok((rest, command)) => Ok(Args {
                command,
                rest: rest.trim_start(),
            }),
            Err(_) => Err(CommandError::Empty),
        }
    }

    /// The command word.
    pub(crate) fn command(&self) -> &'a str {
        self.command
    }

    /// Takes the next token, if any.
    pub(crate) fn next_token(&mut self) -> Option<&'a str> {
        let (rest, tok) = token(self.rest).ok()?;
        self.rest = rest.trim_start();
        Some(tok)
    }

    /// Looks at the next token without taking it.
    pub(crate) fn peek(&self) -> Option<&'a str> {
        token(self.rest).ok().map(|(_, tok)| tok)
    }

    /// Takes the whole unread rest of the line, inner spacing untouched.
    pub(crate) fn take_rest(&mut self) -> &'a str {
        std::mem::take(&mut self.rest)
    }

    /// The unread rest of the line, without taking it.
    pub(crate) fn remaining(&self) -> &'a str {
        self.rest
    }

    /// Makes a `Malformed` error for this command.
    pub(crate) fn malformed(&self, reason: impl Into<String>) -> CommandError {
        CommandError::Malformed {
            command: self.command.to_owned(),
            reason: reason.into(),
        }
    }

    /// Succeeds only when every token has been read.
    pub(crate) fn finish(&self) -> Result<(), CommandError> {
        match self.peek() {
            None => Ok(()),
            Some(tok) => Err(self.malformed(format!("unexpected '{tok}'"))),
        }
    }

    /// Takes the next token, or fails saying what was expected.
    pub(crate) fn required(&mut self, what: &str) -> Result<&'a str, CommandError> {
        self.next_token()
            .ok_or_else(|| self.malformed(format!("needs {what}")))
    }

    /// Takes the only argument: exactly one token must remain.
    pub(crate) fn single(&mut self, what: &str) -> Result<&'a str, CommandError> {
        let tok = self.required(what)?;
        self.finish()?;
        Ok(tok)
    }

    /// Takes the rest of the line, which must not be empty.
    pub(crate) fn nonempty_rest(&mut self, what: &str) -> Result<&'a str, CommandError> {
        let rest = self.take_rest();
        if rest.is_empty() {
            Err(self.malformed(format!("needs {what}")))
        } else {
            Ok(rest)
        }
    }

    /// Takes a whole-number token read by `read`, naming the `keyword` in errors.
    pub(crate) fn number<T>(
        &mut self,
        keyword: &str,
        read: fn(&str) -> Option<T>,
    ) -> Result<T, CommandError> {
        self.value(keyword, "a whole number", read)
    }

    /// Takes a token read by `read`; errors name the `keyword` (if any) and `what` it needs.
    pub(crate) fn value<T>(
        &mut self,
        keyword: &str,
        what: &str,
        read: fn(&str) -> Option<T>,
    ) -> Result<T, CommandError> {
        let who = if keyword.is_empty() {
            String::new()
        } else {
            format!("{keyword} ")
        };
        match self.next_token() {
            None => Err(self.malformed(format!("{who}needs {what}"))),
            Some(tok) => {
                read(tok).ok_or_else(|| self.malformed(format!("{who}needs {what}, got '{tok}'")))
            }
        }
    }
}

/// The part of `text` in front of `later`, a suffix of it (as left by a parser).
pub(crate) fn before<'a>(text: &'a str, later: &str) -> &'a str {
    text.get(..text.len().saturating_sub(later.len()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_into_command_and_tokens() {
        let mut args = Args::split("  go \t depth\u{a0}5  \r\n").unwrap();
        assert_eq!(args.command(), "go");
        assert_eq!(args.peek(), Some("depth"));
        assert_eq!(args.next_token(), Some("depth"));
        assert_eq!(args.remaining(), "5");
        assert_eq!(args.next_token(), Some("5"));
        assert_eq!(args.next_token(), None);
        assert!(args.finish().is_ok());
    }

    #[test]
    fn blank_lines_are_empty() {
        for line in ["", "   ", "\t\r\n", "\u{3000}"] {
            assert!(
                matches!(Args::split(line), Err(CommandError::Empty)),
                "{line:?}"
            );
        }
    }

    #[test]
    fn rest_keeps_inner_spacing() {
        let mut args = Args::split("name  Deep \t Thought ").unwrap();
        assert_eq!(args.take_rest(), "Deep \t Thought");
        assert_eq!(args.take_rest(), "");
    }

    #[test]
    fn numbers_must_fill_the_token() {
        assert_eq!(whole_u64("42"), Some(42));
        assert_eq!(whole_u64("42x"), None);
        assert_eq!(whole_u64("-1"), None);
        assert_eq!(whole_u32("4294967296"), None);
        assert_eq!(whole_i64("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(whole_i64("-"), None);
    }

    #[test]
    fn errors_read_well() {
        assert_eq!(
            CommandError::Unknown("foo".into()).to_string(),
            "unknown command 'foo'"
        );
        let e = CommandError::Malformed {
            command: "go".into(),
            reason: "depth needs a whole number, got 'x'".into(),
        };
        assert_eq!(
            e.to_string(),
            "malformed 'go': depth needs a whole number, got 'x'"
        );
    }
}
