//! What a game is given (its setup: variant, opening, adjudication, margins, log) and what it
//! gives back (its record and PGN).

use std::path::PathBuf;
use std::time::Duration;

use crate::referee::results::GameRecord;
use crate::variant::Variant;

/// When the referee ends a game that the rules have not ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// After this many turns the game is drawn.
    pub max_turns: u32,
    /// A position (counters aside) seen this many times draws; 0: never.
    pub repetitions: u32,
    /// `(cp, n)`: a player whose own score is at most `-cp` for `n` of its moves in a row loses.
    pub resign: Option<(i32, u32)>,
    /// `(after, cp, n)`: from turn `after`, when both players' scores stay within `cp` of 0 for
    /// `n` turns in a row, the game is drawn.
    pub draw: Option<(u32, i32, u32)>,
}

/// What a game starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its id in the results file (`-` for the start position).
    pub(crate) id: String,
    /// The start FEN, or `None` for the variant's start position.
    pub(crate) fen: Option<String>,
}

impl Opening {
    /// The variant's start position.
    pub(crate) fn start() -> Opening {
        Opening {
            id: "-".into(),
            fen: None,
        }
    }
}

/// Everything one game needs besides its seats.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The variant.
    pub(crate) variant: Variant,
    /// The game's index in the match.
    pub(crate) index: u32,
    /// Its pair (the two games of a pair share the opening).
    pub(crate) pair: u32,
    /// The opening.
    pub(crate) opening: Opening,
    /// Adjudication rules.
    pub(crate) adjudication: Adjudication,
    /// How far past its clock an engine may answer before it forfeits.
    pub(crate) margin: Duration,
    /// How long an engine with no clock and no time per move (depth or node limits) may think.
    pub(crate) move_timeout: Duration,
    /// Where to write the dialogue (`> ` sent, `< ` received, per seat), if anywhere.
    pub(crate) log: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub(crate) event: String,
}

/// A finished game: its results-file record and its PGN.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The record.
    pub(crate) record: GameRecord,
    /// The game in PGN.
    pub(crate) pgn: String,
}
