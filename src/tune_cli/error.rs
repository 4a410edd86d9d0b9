//! The errors of `quill tune`: a file, a game of it, or an option's value.

use std::path::PathBuf;

use quill::board::FenError;
use quill::rules::GameError;
use quill::variant::Variant;

use super::MAX_PGN_BYTES;

/// Why `quill tune` cannot fit.
#[derive(Debug)]
pub(super) enum TuneError {
    /// A PGN file cannot be read.
    Io(PathBuf, std::io::Error),
    /// A PGN file larger than [`MAX_PGN_BYTES`].
    TooBig(PathBuf, u64),
    /// A game of a PGN file (numbered from 1) cannot be replayed.
    Game(PathBuf, usize, Box<GameFault>),
    /// No position to fit.
    NoPositions,
}

impl std::fmt::Display for TuneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TuneError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            TuneError::TooBig(path, size) => write!(
                f,
                "{}: {size} bytes, more than the {MAX_PGN_BYTES} read",
                path.display()
            ),
            TuneError::Game(path, game, fault) => {
                write!(f, "{}: game {game}: {fault}", path.display())
            }
            TuneError::NoPositions => f.write_str("no quiet positions with a result in the games"),
        }
    }
}

/// What is wrong with one game of a PGN file.
#[derive(Debug)]
pub(super) enum GameFault {
    /// A `[Variant]` that names no variant.
    Variant(String),
    /// A variant of another family than the file's first game.
    Family(Variant),
    /// A variant whose weights are not those of the first game's (the named rule set's).
    WeightSet(Variant, String),
    /// No `[Variant]` header.
    NoVariant,
    /// A `[FEN]` that is not a position.
    Fen(FenError),
    /// A move number without a turn after it.
    NoTurn(String),
    /// A turn that is not wire notation.
    NotATurn(String),
    /// A turn the position refuses.
    Refused(String, GameError),
}

impl std::fmt::Display for GameFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameFault::Variant(v) => write!(f, "no variant is called {v}"),
            GameFault::Family(v) => write!(
                f,
                "variant {v} is not of the first game's family (one run fits one evaluation: \
                 gladiator with brawl, apocalypse with apocalypse-classic, or pagan)"
            ),
            GameFault::WeightSet(v, first) => write!(
                f,
                "variant {v} has other weights than the first game's ({first} rules): fit one \
                 rule set per run"
            ),
            GameFault::NoVariant => f.write_str("no [Variant] header"),
            GameFault::Fen(e) => write!(f, "bad FEN: {e}"),
            GameFault::NoTurn(word) => write!(f, "no turn after {word}"),
            GameFault::NotATurn(token) => write!(f, "'{token}' is not a turn"),
            GameFault::Refused(token, e) => write!(f, "'{token}': {e}"),
        }
    }
}

/// An option's value outside its range.
#[derive(Debug)]
pub(super) struct OutOfRange {
    pub(super) text: String,
    pub(super) max: f64,
}

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}' is not a number from 0 to {}", self.text, self.max)
    }
}

impl std::error::Error for OutOfRange {}
