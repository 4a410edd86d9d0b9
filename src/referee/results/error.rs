//! The errors of a results file ([`Error`]) and what is wrong with one of its lines
//! ([`LineFault`]).

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::HEADER;
use super::line::RecordError;

/// What went wrong with a results file; each names the file, and the line where there is one.
#[derive(Debug)]
pub enum Error {
    /// The operating system refused (an existing file on create, a full disk …).
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// The first line is not `quill-results 1` (an empty file, another format, a torn
    /// header).
    BadHeader {
        /// The file.
        path: PathBuf,
        /// The first line as found (possibly cut).
        found: String,
    },
    /// A complete line that is not a game line.
    BadLine {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        reason: LineFault,
    },
    /// A game index recorded twice in a file: a game would have been played twice.
    Duplicate {
        /// The file.
        path: PathBuf,
        /// The line of the second record, from 1.
        line: usize,
        /// The line of the first record, from 1.
        first_line: usize,
        /// The game index.
        game: u32,
    },
    /// A game about to be appended is recorded already.
    AlreadyRecorded {
        /// The file.
        path: PathBuf,
        /// The line of the record, from 1.
        line: usize,
        /// The game index.
        game: u32,
    },
    /// A record that cannot be written (a bad name or opening token).
    BadRecord {
        /// The file.
        path: PathBuf,
        /// The game index.
        game: u32,
        /// What is wrong.
        reason: RecordError,
    },
    /// Two shards of one match disagree about a game.
    Conflict {
        /// The game index.
        game: u32,
        /// The file of the first record.
        first: PathBuf,
        /// The file of the other.
        second: PathBuf,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::BadHeader { path, found } if found.is_empty() => write!(
                f,
                "{}:1: the file is empty or its header line is torn (a crash while the match \
                 started?): resume it with --resume, or remove it",
                path.display()
            ),
            Error::BadHeader { path, found } => write!(
                f,
                "{}:1: not a results file: the first line should start with '{HEADER}', got \
                 '{}'; give another --results file, or move this one away",
                path.display(),
                found.escape_debug()
            ),
            Error::BadLine { path, line, reason } => {
                write!(f, "{}:{line}: {reason}", path.display())
            }
            Error::Duplicate {
                path,
                line,
                first_line,
                game,
            } => write!(
                f,
                "{}:{line}: game {game} is already recorded on line {first_line}",
                path.display()
            ),
            Error::AlreadyRecorded { path, line, game } => write!(
                f,
                "{}:{line}: game {game} is recorded already; it is not appended again",
                path.display()
            ),
            Error::BadRecord { path, game, reason } => {
                write!(
                    f,
                    "{}: game {game} cannot be recorded: {reason}",
                    path.display()
                )
            }
            Error::Conflict {
                game,
                first,
                second,
            } => write!(
                f,
                "game {game} is recorded differently in {} and {}",
                first.display(),
                second.display()
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What is wrong with a line of a results file (or, on line 1, with the whole file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineFault {
    /// The file is larger than a results file may be.
    FileTooBig {
        /// Its size in bytes.
        size: u64,
    },
    /// A line longer than any record.
    TooLong {
        /// Its length in bytes.
        bytes: usize,
    },
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line that is not a game record.
    Record(RecordError),
}

impl fmt::Display for LineFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineFault::FileTooBig { size } => write!(
                f,
                "the file has {size} bytes, more than a results file may ({})",
                super::MAX_RESULTS_BYTES
            ),
            LineFault::TooLong { bytes } => write!(
                f,
                "a line of {bytes} bytes; no record is longer than {}",
                super::MAX_RESULTS_LINE
            ),
            LineFault::NotUtf8 => f.write_str("not UTF-8"),
            LineFault::Record(e) => write!(f, "{e}"),
        }
    }
}
