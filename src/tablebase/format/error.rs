//! Why a table file is refused when read, or cannot be written.

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::super::index::{MAX_PIECES, Signature};
use super::{HEADER_BYTES, MAX_FILE_BYTES, VALUE_BITS, VERSION};

/// An I/O failure, kept as its kind and text, so that the errors holding it can be cloned and
/// compared (and held by the session's option errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoFault {
    /// What kind of failure.
    pub kind: io::ErrorKind,
    /// The system's text for it.
    text: String,
}

impl From<io::Error> for IoFault {
    fn from(e: io::Error) -> IoFault {
        IoFault {
            kind: e.kind(),
            text: e.to_string(),
        }
    }
}

impl fmt::Display for IoFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Why a table file was refused (reading).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The file cannot be opened.
    Open(IoFault),
    /// The file cannot be read.
    Read(IoFault),
    /// The file is larger than `MAX_FILE_BYTES` (1 GiB).
    TooLarge(u64),
    /// The first bytes are not the magic `QUILLTB\0`.
    BadMagic,
    /// Shorter than the header (bytes).
    ShortHeader(usize),
    /// Another format version.
    Version(u16),
    /// An unknown variant byte.
    Variant(u8),
    /// A piece count outside 2 ..= `MAX_PIECES`.
    Pieces(u32),
    /// Another value width (bits).
    ValueBits(u8),
    /// Unknown flags or reserved bytes not zero.
    Flags,
    /// A signature count other than an `pieces`-piece table's.
    Signatures {
        /// In the header.
        got: usize,
        /// The table's piece count.
        pieces: u32,
        /// A table of that many pieces.
        expected: usize,
    },
    /// A stored residual outside 0 … 1 (its IEEE-754 bits, as stored, so that the error
    /// compares equal to itself even for a NaN).
    Residual(u64),
    /// A position count other than an `pieces`-piece table's.
    Positions {
        /// In the header.
        got: u64,
        /// The table's piece count.
        pieces: u32,
        /// A table of that many pieces.
        expected: u64,
    },
    /// A file length other than the header implies.
    Length {
        /// The file's.
        got: usize,
        /// The header's.
        expected: usize,
    },
    /// The checksum does not match.
    Checksum,
    /// A signature entry other than the table order's.
    Entry {
        /// Its place in the list.
        k: usize,
        /// The entry read.
        got: Signature,
        /// Its position count.
        count: u32,
        /// The signature expected there.
        expected: Signature,
        /// Its position count.
        positions: u64,
    },
    /// A partial table's signature that reaches one the table lacks.
    NotClosed {
        /// The signature listed.
        signature: Signature,
        /// A signature it reaches that is not listed.
        missing: Signature,
    },
    /// A stored value above 2³¹.
    Value {
        /// Its place among the values.
        index: usize,
        /// The value read.
        q: u32,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Open(e) => write!(f, "cannot open: {e}"),
            ReadError::Read(e) => write!(f, "cannot read: {e}"),
            ReadError::TooLarge(len) => write!(
                f,
                "{len} bytes is more than the largest table read ({MAX_FILE_BYTES})"
            ),
            ReadError::BadMagic => write!(f, "not a Quill tablebase (bad magic)"),
            ReadError::ShortHeader(len) => write!(
                f,
                "truncated: {len} bytes, shorter than the {HEADER_BYTES}-byte header"
            ),
            ReadError::Version(v) => {
                write!(f, "format version {v}, this Quill reads version {VERSION}")
            }
            ReadError::Variant(v) => write!(f, "unknown variant byte {v}"),
            ReadError::Pieces(p) => write!(f, "piece count {p} is not 2 to {MAX_PIECES}"),
            ReadError::ValueBits(b) => write!(f, "{b}-bit values, this Quill reads {VALUE_BITS}"),
            ReadError::Flags => write!(f, "unknown flags or reserved bytes not zero"),
            ReadError::Signatures {
                got,
                pieces,
                expected,
            } => write!(f, "{got} signatures, a {pieces}-piece table has {expected}"),
            ReadError::Residual(bits) => {
                write!(f, "residual {} is not in 0..1", f64::from_bits(*bits))
            }
            ReadError::Positions {
                got,
                pieces,
                expected,
            } => write!(f, "{got} positions, a {pieces}-piece table has {expected}"),
            ReadError::Length { got, expected } => write!(
                f,
                "{got} bytes, the header says {expected} ({})",
                length_fault(*got, *expected)
            ),
            ReadError::Checksum => write!(f, "checksum mismatch: the file is corrupt"),
            ReadError::Entry {
                k,
                got,
                count,
                expected,
                positions,
            } => write!(
                f,
                "signature {k} is {got:?} with {count} positions, expected {expected:?} with \
                 {positions}"
            ),
            ReadError::NotClosed { signature, missing } => write!(
                f,
                "a partial table with {signature:?} lacks {missing:?}, which it reaches"
            ),
            ReadError::Value { index, q } => write!(f, "value {index} is {q}, more than 2^31"),
        }
    }
}

/// What a file of `got` bytes has, against the `expected` of its header.
fn length_fault(got: usize, expected: usize) -> &'static str {
    if got < expected {
        "truncated"
    } else {
        "trailing bytes"
    }
}

impl std::error::Error for ReadError {}

/// Why a table file could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// The file cannot be created.
    Create(PathBuf, io::Error),
    /// The bytes cannot be written.
    Write(PathBuf, io::Error),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Create(p, e) => write!(f, "cannot create {}: {e}", p.display()),
            WriteError::Write(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for WriteError {}
