//! Why the session refused an option value, a position, a take-back or a perft depth: one
//! typed error per stage, each printed with the text the protocols have always shown.

use std::fmt;

use crate::game::GameError;
use crate::notation::WireTurn;

/// Why `setoption` (UCI), `option`/`memory`/`egtpath` (CECP) refused a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OptionError {
    /// No option of that name.
    Unknown {
        /// The name as sent.
        name: String,
    },
    /// A value that is not a whole number in the option's bounds (`Seed`).
    NotInRange {
        /// The option's name.
        option: &'static str,
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
        /// The value as sent.
        value: String,
    },
    /// A value that is not a whole number of the option's unit (`Hash` in MiB).
    NotANumber {
        /// The option's name.
        option: &'static str,
        /// The unit of the number.
        unit: &'static str,
        /// The value as sent.
        value: String,
    },
    /// A number outside the option's bounds (`Hash`, CECP `memory`).
    OutOfRange {
        /// The option's name.
        option: &'static str,
        /// The unit of the number.
        unit: &'static str,
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
        /// The number sent.
        got: u64,
    },
    /// A check option's value that is neither true/1 nor false/0.
    NotACheck {
        /// The name as sent.
        name: String,
        /// The value as sent.
        value: String,
    },
    /// A `UCI_Variant` value that names no variant.
    UnknownVariant {
        /// The value as sent.
        value: String,
    },
    /// A value other than the only one an option has (`Threads`, `MultiPV`: 1).
    OnlyValue {
        /// The name as sent.
        name: String,
        /// The only value.
        only: &'static str,
        /// The value as sent.
        value: String,
    },
    /// The memory of a table cannot be had (the old table is kept).
    Memory(crate::search::TableError),
    /// A tablebase path that names no readable table (`TablebasePath`, `egtpath quill`).
    Tablebase(crate::tablebase::LoadError),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { name } => write!(f, "unknown option '{name}'"),
            OptionError::NotInRange {
                option,
                min,
                max,
                value,
            } => write!(
                f,
                "{option} needs a whole number {min}..{max}, got '{value}'"
            ),
            OptionError::NotANumber {
                option,
                unit,
                value,
            } => write!(f, "{option} needs a whole number of {unit}, got '{value}'"),
            OptionError::OutOfRange {
                option,
                unit,
                min,
                max,
                got,
            } => write!(f, "{option} needs {min}..{max} {unit}, got {got}"),
            OptionError::UnknownVariant { value } => write!(f, "unknown variant '{value}'"),
            OptionError::NotACheck { name, value } => {
                write!(f, "{name} needs true or false, got '{value}'")
            }
            OptionError::OnlyValue { name, only, value } => {
                write!(f, "{name} has only the value {only}, got '{value}'")
            }
            OptionError::Memory(e) => write!(f, "{e}"),
            OptionError::Tablebase(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for OptionError {}

/// Why a position (UCI `position`, CECP `setboard`, `quill perft --fen`) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN does not describe a position of the variant.
    Fen(GameError),
    /// A turn of the move list cannot be played.
    Turn {
        /// Its place in the list, from 1.
        number: usize,
        /// The turn as sent.
        turn: WireTurn,
        /// Why the rules refused it (boxed: the error is as large as a turn).
        error: Box<GameError>,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "{e}"),
            PositionError::Turn {
                number,
                turn,
                error,
            } => write!(f, "turn {number} '{turn}': {error}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a take-back (CECP `undo`, `remove`) was refused: fewer turns were played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct UndoError {
    /// The turns there are to take back.
    pub(crate) played: usize,
}

impl fmt::Display for UndoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "only {} turns to take back", self.played)
    }
}

impl std::error::Error for UndoError {}

/// A perft depth above [`super::MAX_PERFT_DEPTH`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PerftDepthError {
    /// The depth asked for.
    pub(crate) depth: u32,
}

impl fmt::Display for PerftDepthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "perft depth {} is above the maximum {}",
            self.depth,
            super::MAX_PERFT_DEPTH
        )
    }
}

impl std::error::Error for PerftDepthError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts the protocols have always shown, written out (the transcripts hold more).
    #[test]
    fn errors_print_the_texts_the_protocols_show() {
        let cases: [(Box<dyn std::error::Error>, &str); 6] = [
            (
                Box::new(OptionError::Unknown { name: "Foo".into() }),
                "unknown option 'Foo'",
            ),
            (
                Box::new(OptionError::NotInRange {
                    option: "Seed",
                    min: 0,
                    max: 9,
                    value: "x".into(),
                }),
                "Seed needs a whole number 0..9, got 'x'",
            ),
            (
                Box::new(OptionError::NotANumber {
                    option: "Hash",
                    unit: "MiB",
                    value: "-1".into(),
                }),
                "Hash needs a whole number of MiB, got '-1'",
            ),
            (
                Box::new(OptionError::OutOfRange {
                    option: "Hash",
                    unit: "MiB",
                    min: 1,
                    max: 4096,
                    got: 0,
                }),
                "Hash needs 1..4096 MiB, got 0",
            ),
            (
                Box::new(OptionError::NotACheck {
                    name: "Ponder".into(),
                    value: "yes".into(),
                }),
                "Ponder needs true or false, got 'yes'",
            ),
            (
                Box::new(OptionError::OnlyValue {
                    name: "Threads".into(),
                    only: "1",
                    value: "2".into(),
                }),
                "Threads has only the value 1, got '2'",
            ),
        ];
        for (error, text) in cases {
            assert_eq!(error.to_string(), text);
        }
    }

    #[test]
    fn other_stages_print_their_texts() {
        assert_eq!(
            UndoError { played: 0 }.to_string(),
            "only 0 turns to take back"
        );
        assert_eq!(
            PerftDepthError { depth: 33 }.to_string(),
            "perft depth 33 is above the maximum 32"
        );
        assert_eq!(
            OptionError::UnknownVariant {
                value: "chess".into()
            }
            .to_string(),
            "unknown variant 'chess'"
        );
    }
}
