//! The typed errors of the seat syntax ([`SeatError`]); each prints the text the referee has
//! always printed for it.

use std::fmt;
use std::num::ParseFloatError;
use std::time::TryFromFloatSecsError;

use super::MAX_SECONDS;
use super::syntax::TIME_CONTROL;

/// What is wrong with the value of a seat word, after the word's name (`tc: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueFault {
    /// Not all digits.
    NotWhole(String),
    /// A whole number above the word's maximum.
    TooLarge {
        /// The value as written.
        text: String,
        /// The maximum.
        max: u64,
    },
    /// Neither `12`, `0.5` nor `MINUTES:SECONDS`.
    NotSeconds(String),
    /// Digits that do not read as a number.
    Float(ParseFloatError),
    /// Seconds that are no duration.
    Duration(TryFromFloatSecsError),
    /// Seconds above a day (86400).
    TooManySeconds(String),
    /// A `tc=` value that is no time control, with what is wrong in it.
    Clock {
        /// The whole value.
        text: String,
        /// The part that is wrong.
        why: Box<ValueFault>,
    },
}

impl fmt::Display for ValueFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueFault::NotWhole(text) => write!(f, "'{text}' is not a whole number"),
            ValueFault::TooLarge { text, max } => {
                write!(f, "{text} is more than the maximum, {max}")
            }
            ValueFault::NotSeconds(text) => {
                write!(f, "'{text}' is not seconds (12, 0.5 or MINUTES:SECONDS)")
            }
            ValueFault::Float(e) => write!(f, "{e}"),
            ValueFault::Duration(e) => write!(f, "{e}"),
            ValueFault::TooManySeconds(text) => write!(
                f,
                "{text} seconds is more than the maximum, {MAX_SECONDS} s"
            ),
            ValueFault::Clock { text, why } => {
                write!(f, "'{text}' is not a time control ({TIME_CONTROL}): {why}")
            }
        }
    }
}

/// Why a seat's words do not make a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatError {
    /// A known word with a bad value.
    Value {
        /// The word's key (`tc`, `st`, `depth`, `nodes`).
        word: &'static str,
        /// What is wrong with its value.
        fault: ValueFault,
    },
    /// A word that does not parse: an unknown key, or a known one with a value of the wrong
    /// form.
    BadWord(String),
    /// A quote not closed in a seat's argument.
    UnclosedQuote(String),
    /// A seat name with other characters than letters, digits and `. _ + -`.
    BadName(String),
    /// An engine seat without `cmd=`.
    NoCmd(String),
}

impl fmt::Display for SeatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatError::Value { word, fault } => write!(f, "{word}: {fault}"),
            SeatError::BadWord(w) => bad_word(f, w),
            SeatError::UnclosedQuote(text) => write!(f, "an unclosed quote in '{text}'"),
            SeatError::BadName(name) => write!(
                f,
                "seat name '{name}': use letters, digits and . _ + - only"
            ),
            SeatError::NoCmd(name) => write!(f, "seat {name}: no cmd= (or say `human`)"),
        }
    }
}

impl std::error::Error for SeatError {}

/// What is wrong with a seat word that does not parse, named as precisely as it can be: the
/// key's own complaint when the key is known, else the list of keys.
fn bad_word(f: &mut fmt::Formatter<'_>, w: &str) -> fmt::Result {
    let (key, value) = w.split_once('=').unwrap_or((w, ""));
    match key {
        "proto" => write!(f, "proto: '{value}' is not a dialect (uci, cecp or xboard)"),
        "tc" => write!(f, "tc: '{value}' is not a time control ({TIME_CONTROL})"),
        "st" => write!(
            f,
            "st: '{value}' is not seconds (12, 0.5 or MINUTES:SECONDS)"
        ),
        "depth" | "nodes" => write!(f, "{key}: '{value}' is not a whole number"),
        "name" | "cmd" | "dir" => write!(f, "{key}: the value is empty"),
        _ => write!(
            f,
            "'{w}' is not a seat word: '{key}' is none of the keys (name=, cmd=, dir=, \
             proto=uci|cecp, option.NAME=VALUE, tc={TIME_CONTROL}, st=SECONDS, depth=N, \
             nodes=N, human)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_seat, split_words};

    fn error(words: &str) -> String {
        let words: Vec<String> = words.split(' ').map(str::to_string).collect();
        parse_seat(&words, &[], "a").unwrap_err().to_string()
    }

    #[test]
    fn the_texts_are_the_referees() {
        assert_eq!(
            error("cmd=q tc=1/x"),
            "tc: '1/x' is not a time control (SECONDS[+INC] or MOVES/SECONDS[+INC]): 'x' is \
             not seconds (12, 0.5 or MINUTES:SECONDS)"
        );
        assert_eq!(
            error("cmd=q depth=10001"),
            "depth: 10001 is more than the maximum, 10000"
        );
        assert_eq!(
            error("cmd=q st=86401"),
            "st: 86401 seconds is more than the maximum, 86400 s"
        );
        assert_eq!(error("cmd=q depth=x1"), "depth: 'x1' is not a whole number");
        assert_eq!(
            error("human name=a/b"),
            "seat name 'a/b': use letters, digits and . _ + - only"
        );
        assert_eq!(error("name=b"), "seat b: no cmd= (or say `human`)");
        assert_eq!(
            error("cmd=q proto=usi"),
            "proto: 'usi' is not a dialect (uci, cecp or xboard)"
        );
        assert_eq!(
            error("tcc=1"),
            "'tcc=1' is not a seat word: 'tcc' is none of the keys (name=, cmd=, dir=, \
             proto=uci|cecp, option.NAME=VALUE, tc=SECONDS[+INC] or MOVES/SECONDS[+INC], \
             st=SECONDS, depth=N, nodes=N, human)"
        );
        assert_eq!(
            split_words("cmd='x").unwrap_err().to_string(),
            "an unclosed quote in 'cmd='x'"
        );
    }
}
