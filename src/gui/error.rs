//! The GUI's errors, one per stage: starting the server (`StartError`) and a new game asked by
//! the page (`NewGameError`). Each prints the words the page or the command line shows.

use std::fmt;

use super::seats::SeatError;
use super::table::{MAX_FEN, MAX_TURNS, WhoError};
use crate::game::GameError;

/// Why `quill gui` cannot start or stopped.
#[derive(Debug)]
pub enum StartError {
    /// No random bytes for the token.
    Token(String),
    /// The path of this program, for the default engines.
    Program(std::io::Error),
    /// `--each` is not a list of words (the referee's reason).
    Words(crate::referee::seat::SeatError),
    /// An `--engine` seat (or `--person-tc`) is refused.
    Seat(SeatError),
    /// `--variant` names no variant.
    Variant(String),
    /// The server's runtime cannot start.
    Runtime(std::io::Error),
    /// The port cannot be listened on.
    Listen(u16, std::io::Error),
    /// The listener has no local address.
    Address(std::io::Error),
    /// The server failed while serving.
    Serve(std::io::Error),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Token(e) => write!(f, "no random bytes for the token: {e}"),
            StartError::Program(e) => write!(f, "cannot find this program: {e}"),
            StartError::Words(why) => write!(f, "{why}"),
            StartError::Seat(e) => write!(f, "{e}"),
            StartError::Variant(name) => write!(
                f,
                "no variant '{name}' (try apocalypse, gladiator, brawl, pagan)"
            ),
            StartError::Runtime(e) => write!(f, "cannot start the server: {e}"),
            StartError::Listen(port, e) => write!(f, "cannot listen on 127.0.0.1:{port}: {e}"),
            StartError::Address(e) => write!(f, "no local address: {e}"),
            StartError::Serve(e) => write!(f, "the server failed: {e}"),
        }
    }
}

impl std::error::Error for StartError {}

impl From<SeatError> for StartError {
    fn from(e: SeatError) -> StartError {
        StartError::Seat(e)
    }
}

/// Why a new game the page asked for is refused.
#[derive(Debug)]
pub(crate) enum NewGameError {
    /// No variant of this name (shortened).
    NoVariant(String),
    /// The FEN is longer than [`MAX_FEN`].
    LongFen,
    /// The turn cap is not a whole number in 1..=[`MAX_TURNS`].
    Cap(String),
    /// A seat is refused.
    Seat(WhoError),
    /// The rules refuse the position.
    Position(GameError),
}

impl fmt::Display for NewGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NewGameError::NoVariant(name) => write!(f, "no variant '{name}'"),
            NewGameError::LongFen => write!(f, "a FEN is at most {MAX_FEN} bytes"),
            NewGameError::Cap(c) => {
                write!(
                    f,
                    "a turn cap is a whole number from 1 to {MAX_TURNS}, not '{c}'"
                )
            }
            NewGameError::Seat(e) => write!(f, "{e}"),
            NewGameError::Position(e) => write!(f, "that position is refused: {e}"),
        }
    }
}

impl From<WhoError> for NewGameError {
    fn from(e: WhoError) -> NewGameError {
        NewGameError::Seat(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_texts_are_the_ones_the_page_and_the_command_line_showed() {
        assert_eq!(
            StartError::Variant("chess".into()).to_string(),
            "no variant 'chess' (try apocalypse, gladiator, brawl, pagan)"
        );
        assert_eq!(
            StartError::Seat(SeatError::Person(Some("human".into()))).to_string(),
            "--engine 'human': people are seated from the page, not with --engine"
        );
        assert_eq!(
            NewGameError::NoVariant("go".into()).to_string(),
            "no variant 'go'"
        );
        assert_eq!(
            NewGameError::LongFen.to_string(),
            "a FEN is at most 512 bytes"
        );
        assert_eq!(
            NewGameError::Cap("0".into()).to_string(),
            "a turn cap is a whole number from 1 to 2000, not '0'"
        );
        assert_eq!(
            NewGameError::from(WhoError::NoEngine { n: 7, engines: 5 }).to_string(),
            "there is no engine 7 (the server has 5)"
        );
        assert_eq!(
            NewGameError::from(WhoError::NotASeat("x".into())).to_string(),
            "a seat is 'person' or 'engine:N', not 'x'"
        );
    }
}
