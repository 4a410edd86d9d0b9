//! Transcripts: recorded protocol dialogues, replayed against the engine to check it.
//!
//! A transcript is plain text, one item a line (the full specification, with an example, is
//! `protocol-docs/transcripts.md`):
//!
//! | line          | meaning                                                                  |
//! | ------------- | ------------------------------------------------------------------------ |
//! | `# ...`       | a comment; `# timeout: SECS` before the first step sets the timeout       |
//! | (blank)       | ignored                                                                  |
//! | `> TEXT`      | send the line TEXT to the engine                                          |
//! | `< TEXT`      | the engine's next output line is exactly TEXT                             |
//! | `<~ REGEX`    | the engine's next output line matches REGEX as a whole                    |
//! | `<* REGEX`    | output lines matching REGEX may appear here, any number of them          |
//! | `@ eof`       | close the engine's input                                                  |
//! | `@ exit`      | the engine has exited by now (within the timeout)                         |
//! | `@ quiet`     | the engine has printed nothing more (after a short settle time)           |
//!
//! [`parse`] reads one; [`run`] replays it through a [`Transport`]: [`InProcess`] drives a
//! [`Session`](crate::session::Session) directly, [`External`] talks to a child process over pipes. [`Logger`] writes a
//! live dialogue in the same format, so that a log is itself a transcript.

//!
//! The harness (everything but [`Logger`] and [`decode_line`], which the engine itself uses
//! for `--log`) is behind the cargo feature `transcript`, on by default, so that `regex` is
//! needed only where transcripts are replayed: `quill replay` and the tests.

mod logger;
#[cfg(feature = "transcript")]
mod runner;
#[cfg(feature = "transcript")]
mod script;
#[cfg(feature = "transcript")]
mod transport;

pub use self::logger::{LOG_HEADER, Logger};
#[cfg(feature = "transcript")]
pub use self::runner::{Failure, Options, run, run_with};
#[cfg(feature = "transcript")]
pub use self::script::{
    Action, DEFAULT_SETTLE, DEFAULT_TIMEOUT, DIALOGUE_LINES, DocBlock, FormatError, Pattern,
    Problem, Step, Transcript, doc_blocks, find_transcripts, load, parse, parse_at,
};
#[cfg(feature = "transcript")]
pub use self::transport::{External, InProcess, Transport};

/// Turns raw bytes read up to a newline into a line: invalid UTF-8 is replaced (never an error),
/// and the line ending (`\n`, `\r\n`, stray `\r`s before it) is removed.
pub fn decode_line(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let end = bytes.iter().rposition(|&b| b != b'\r').map_or(0, |i| i + 1);
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}
