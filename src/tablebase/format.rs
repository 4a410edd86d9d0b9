//! The table file (`protocol-docs/tablebase.md`, "File format"): a 40-byte header, the
//! signature list, the values as little-endian `u32`s, and a SHA-256 of everything before it.
//!
//! Reading is bounded: the length the header implies must be the file's length, and no more
//! than `MAX_FILE_BYTES` is ever read; every field is checked, so a wrong, corrupt or
//! truncated file gives an error naming what is wrong, never a panic.

use std::io::{Read, Write};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::index::{Footmen, MAX_PIECES, Signature};
use super::{SCALE, Tablebase};
use crate::variants::apocalypse::Rules;

mod error;

pub use error::{IoFault, ReadError, WriteError};

/// The first 8 bytes of a table file.
pub(crate) const MAGIC: &[u8; 8] = b"QUILLTB\0";
/// The format version this build writes and reads.
pub(crate) const VERSION: u16 = 1;
/// Bits of a stored value.
pub(crate) const VALUE_BITS: u8 = 32;
/// Flag bit 0: the left-right mirror is folded (always set).
pub(crate) const FLAG_MIRROR: u8 = 1;
/// Flag bit 1: a partial table, holding the signatures listed only.
pub(crate) const FLAG_PARTIAL: u8 = 2;
/// Header bytes before the signature list.
pub(crate) const HEADER_BYTES: usize = 40;
/// Bytes of one signature entry.
pub(crate) const SIGNATURE_BYTES: usize = 8;
/// Bytes of the checksum at the end.
pub(crate) const CHECKSUM_BYTES: usize = 32;
/// The largest file read (1 GiB).
pub(crate) const MAX_FILE_BYTES: u64 = 1 << 30;

/// The variant byte of a rule set.
pub(crate) fn variant_byte(r: Rules) -> u8 {
    match r {
        Rules::Seed => 0,
        Rules::Classic => 1,
    }
}

/// The file's bytes for a table.
pub fn encode(t: &Tablebase) -> Vec<u8> {
    let mut out = Vec::with_capacity(
        HEADER_BYTES + t.signatures.len() * SIGNATURE_BYTES + t.values.len() * 4 + CHECKSUM_BYTES,
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(variant_byte(t.rules));
    out.push(t.pieces as u8);
    out.push(VALUE_BITS);
    let partial = t.signatures.len() != Signature::all(t.pieces).len();
    out.push(FLAG_MIRROR | if partial { FLAG_PARTIAL } else { 0 });
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&(t.signatures.len() as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&t.residual.to_le_bytes());
    out.extend_from_slice(&(t.values.len() as u64).to_le_bytes());
    for s in &t.signatures {
        out.extend_from_slice(&[s.wf, s.wh, s.bf, s.bh]);
        out.extend_from_slice(&(t.footmen.positions(*s) as u32).to_le_bytes());
    }
    for v in &t.values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let sum = Sha256::digest(&out);
    out.extend_from_slice(&sum);
    out
}

/// Writes a table to `path`.
///
/// # Errors
/// The I/O error, with the path.
pub(crate) fn write(t: &Tablebase, path: &Path) -> Result<u64, WriteError> {
    let bytes = encode(t);
    // Written beside `path` and renamed over it, so that a stopped write never leaves a
    // truncated table, nor destroys the table that was there.
    let mut name = path.as_os_str().to_owned();
    name.push(".new");
    let tmp = std::path::PathBuf::from(name);
    let mut f =
        std::fs::File::create(&tmp).map_err(|e| WriteError::Create(path.to_path_buf(), e))?;
    f.write_all(&bytes)
        .and_then(|()| f.sync_all())
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            WriteError::Write(path.to_path_buf(), e)
        })?;
    Ok(bytes.len() as u64)
}

/// Reads the table at `path`.
///
/// # Errors
/// A message saying what is wrong: unreadable, too large, not a table, another version,
/// truncated or too long, a bad field, or a checksum that does not match.
pub fn read(path: &Path) -> Result<Tablebase, ReadError> {
    let f = std::fs::File::open(path).map_err(|e| ReadError::Open(e.into()))?;
    let len = f.metadata().map_err(|e| ReadError::Read(e.into()))?.len();
    if len > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(len));
    }
    let mut bytes = Vec::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Read(e.into()))?;
    decode(&bytes)
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// What the header says.
struct Header {
    rules: Rules,
    pieces: u32,
    partial: bool,
    signatures: usize,
    residual: f64,
    positions: u64,
}

/// Parses a table file's bytes.
///
/// # Errors
/// As [`read`].
pub fn decode(b: &[u8]) -> Result<Tablebase, ReadError> {
    let h = header(b)?;
    let expected =
        HEADER_BYTES + h.signatures * SIGNATURE_BYTES + h.positions as usize * 4 + CHECKSUM_BYTES;
    if b.len() != expected {
        return Err(ReadError::Length {
            got: b.len(),
            expected,
        });
    }
    let body = expected - CHECKSUM_BYTES;
    if Sha256::digest(&b[..body]).as_slice() != &b[body..] {
        return Err(ReadError::Checksum);
    }
    let mut t = Tablebase::empty_of(h.rules, h.pieces, signature_list(b, &h)?);
    if t.values.len() as u64 != h.positions {
        return Err(ReadError::Positions {
            got: h.positions,
            pieces: h.pieces,
            expected: t.values.len() as u64,
        });
    }
    let start = HEADER_BYTES + h.signatures * SIGNATURE_BYTES;
    for (i, v) in t.values.iter_mut().enumerate() {
        let q = u32_at(b, start + 4 * i);
        if f64::from(q) > SCALE {
            return Err(ReadError::Value { index: i, q });
        }
        *v = q;
    }
    t.residual = h.residual;
    Ok(t)
}

/// The header's fields, each checked on its own (and the counts against an `N`-piece table's
/// bounds, so that the length computed from them cannot overflow).
fn header(b: &[u8]) -> Result<Header, ReadError> {
    if b.len() < MAGIC.len() || &b[..MAGIC.len()] != MAGIC {
        return Err(ReadError::BadMagic);
    }
    if b.len() < HEADER_BYTES {
        return Err(ReadError::ShortHeader(b.len()));
    }
    let version = u16_at(b, 8);
    if version != VERSION {
        return Err(ReadError::Version(version));
    }
    let rules = match b[10] {
        0 => Rules::Seed,
        1 => Rules::Classic,
        v => return Err(ReadError::Variant(v)),
    };
    let pieces = u32::from(b[11]);
    if !(2..=MAX_PIECES).contains(&pieces) {
        return Err(ReadError::Pieces(pieces));
    }
    if b[12] != VALUE_BITS {
        return Err(ReadError::ValueBits(b[12]));
    }
    if b[13] & !FLAG_PARTIAL != FLAG_MIRROR || b[14] != 0 || b[15] != 0 || u32_at(b, 20) != 0 {
        return Err(ReadError::Flags);
    }
    let partial = b[13] & FLAG_PARTIAL != 0;
    let all = Signature::all(pieces);
    let signatures = u32_at(b, 16) as usize;
    if signatures > all.len() || (!partial && signatures != all.len()) {
        return Err(ReadError::Signatures {
            got: signatures,
            pieces,
            expected: all.len(),
        });
    }
    let residual = f64::from_le_bytes(b[24..32].try_into().expect("8 bytes"));
    if !(0.0..=1.0).contains(&residual) {
        return Err(ReadError::Residual(residual.to_bits()));
    }
    let positions = u64_at(b, 32);
    let footmen = Footmen::new(pieces);
    let most: u64 = all.iter().map(|&s| footmen.positions(s)).sum();
    if positions > most || (!partial && positions != most) {
        return Err(ReadError::Positions {
            got: positions,
            pieces,
            expected: most,
        });
    }
    Ok(Header {
        rules,
        pieces,
        partial,
        signatures,
        residual,
        positions,
    })
}

/// The signature list: a whole table's, or for a partial table signatures in table order
/// that hold every signature they reach.
fn signature_list(b: &[u8], h: &Header) -> Result<Vec<Signature>, ReadError> {
    let footmen = Footmen::new(h.pieces);
    let all = Signature::all(h.pieces);
    let mut list: Vec<Signature> = Vec::with_capacity(h.signatures);
    let mut next = 0;
    for k in 0..h.signatures {
        let at = HEADER_BYTES + k * SIGNATURE_BYTES;
        let got = Signature {
            wf: b[at],
            wh: b[at + 1],
            bf: b[at + 2],
            bh: b[at + 3],
        };
        let count = u32_at(b, at + 4);
        // A whole table lists every signature; a partial one may skip some.
        let place = all[next..].iter().position(|&s| s == got);
        let expected = match place {
            Some(p) if h.partial || p == 0 => {
                next += p + 1;
                got
            }
            _ => all.get(next).copied().unwrap_or(got),
        };
        let positions = footmen.positions(expected);
        if got != expected || place.is_none() || u64::from(count) != positions {
            return Err(ReadError::Entry {
                k,
                got,
                count,
                expected,
                positions,
            });
        }
        list.push(got);
    }
    for &s in &list {
        if let Some(&missing) = all.iter().find(|&&r| s.reaches(r) && !list.contains(&r)) {
            return Err(ReadError::NotClosed {
                signature: s,
                missing,
            });
        }
    }
    Ok(list)
}
