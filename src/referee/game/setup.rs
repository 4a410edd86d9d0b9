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
    pub id: String,
    /// The start FEN, or `None` for the variant's start position.
    pub fen: Option<String>,
}

/// Everything one game needs besides its seats.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The variant.
    pub variant: Variant,
    /// The game's index in the match.
    pub index: u32,
    /// Its pair (the two games of a pair share the opening).
    pub pair: u32,
    /// The opening.
    pub opening: Opening,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// How far past its clock an engine may answer before it forfeits.
    pub margin: Duration,
    /// How long an engine with no clock and no time per move (depth or node limits) may think.
    pub move_timeout: Duration,
    /// Where to write the dialogue (`> ` sent, `< ` received, per seat), if anywhere.
    pub log: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub event: String,
}

/// A finished game: its results-file record and its PGN.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The record.
    pub record: GameRecord,
    /// The game in PGN.
    pub pgn: String,
}
