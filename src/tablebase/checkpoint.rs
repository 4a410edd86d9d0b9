//! A build's checkpoint (`protocol-docs/tablebase.md`, "Checkpoints"): each signature's
//! values, as the build solves it, appended to a file, so that a build stopped part way (a
//! machine shut down, a session ended) resumes at the first signature it had not finished,
//! with exactly the values it had, and makes the same table.
//!
//! The file is a header that names the build (rule set, pieces, the signatures in table
//! order, `--max-sweeps`) and then one record per solved signature, in table order: the
//! signature, its [`SignatureStats`], its values as `f64`s (the build's own, not the table's
//! quantised ones, since later signatures are solved from them) and a SHA-256 of the record.
//! Reading stops at the first record that is incomplete or does not match its checksum (a
//! build stopped while writing it): that record and anything after it are cut off and solved
//! again. A header that names another build is refused, never overwritten.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::Tablebase;
use super::build::SignatureStats;
use super::format::IoFault;
use super::index::Signature;

/// The first 8 bytes of a checkpoint.
const MAGIC: &[u8; 8] = b"QUILLCP\0";
/// The checkpoint format this build writes and reads.
const VERSION: u16 = 1;
/// Bytes of a record's stats: ten counts and two `f64`s.
const STATS_BYTES: usize = 12 * 8;
/// Bytes of a record's checksum.
const CHECKSUM_BYTES: usize = 32;

/// Why a checkpoint cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckpointError {
    /// The file cannot be created, read, cut or written.
    Io(PathBuf, IoFault),
    /// The file is not a checkpoint, or one of another build.
    Other(PathBuf),
    /// A record that matches its checksum but not the build (a bug or a hand-made file).
    Record(PathBuf, Signature),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(p, e) => write!(f, "checkpoint {}: {e}", p.display()),
            CheckpointError::Other(p) => write!(
                f,
                "{} is not a checkpoint of this build (another rule set, piece count, \
                 --family or --max-sweeps, or not a checkpoint at all); remove it to start \
                 again, or give another --out",
                p.display()
            ),
            CheckpointError::Record(p, s) => write!(
                f,
                "checkpoint {}: the record of {}{}{}{} does not fit the build; remove the \
                 file to start again",
                p.display(),
                s.wf,
                s.wh,
                s.bf,
                s.bh
            ),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// An open checkpoint, positioned after its last good record.
pub(crate) struct Checkpoint {
    path: PathBuf,
    file: File,
}

/// The header a checkpoint of this build has.
fn header(table: &Tablebase, max_sweeps: usize) -> Vec<u8> {
    let mut h = Vec::with_capacity(32 + 4 * table.signatures.len());
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.push(super::format::variant_byte(table.rules));
    h.push(table.pieces as u8);
    h.extend_from_slice(&[0; 4]);
    h.extend_from_slice(&(max_sweeps as u64).to_le_bytes());
    h.extend_from_slice(&(table.signatures.len() as u32).to_le_bytes());
    for s in &table.signatures {
        h.extend_from_slice(&[s.wf, s.wh, s.bf, s.bh]);
    }
    h
}

/// The bytes of the record of a signature of `positions` positions.
pub(crate) fn record_bytes(positions: u64) -> u64 {
    4 + STATS_BYTES as u64 + 8 + 8 * positions + CHECKSUM_BYTES as u64
}

/// The record of a solved signature: `values` are its own.
fn record(s: &SignatureStats, values: &[f64]) -> Vec<u8> {
    let mut r = Vec::with_capacity(record_bytes(values.len() as u64) as usize);
    r.extend_from_slice(&[
        s.signature.wf,
        s.signature.wh,
        s.signature.bf,
        s.signature.bh,
    ]);
    for n in [
        s.positions,
        s.finished,
        s.direct,
        s.iterated,
        s.updates,
        s.sweeps as u64,
        s.rounds as u64,
        s.looping,
        s.unsettled,
        s.cells,
    ] {
        r.extend_from_slice(&n.to_le_bytes());
    }
    r.extend_from_slice(&s.residual.to_le_bytes());
    r.extend_from_slice(&s.cpu_seconds.to_le_bytes());
    r.extend_from_slice(&(values.len() as u64).to_le_bytes());
    for v in values {
        r.extend_from_slice(&v.to_le_bytes());
    }
    let sum = Sha256::digest(&r);
    r.extend_from_slice(&sum);
    r
}

/// Reads one record of `sig` (`positions` values) from `f`: `Ok(None)` when it is incomplete
/// or does not match its checksum; the stats and values when it is whole.
fn read_record(
    f: &mut File,
    sig: Signature,
    positions: u64,
    path: &Path,
) -> Result<Option<(SignatureStats, Vec<f64>)>, CheckpointError> {
    let len = record_bytes(positions) as usize;
    let mut r = Vec::with_capacity(len);
    (&mut *f)
        .take(len as u64)
        .read_to_end(&mut r)
        .map_err(|e| CheckpointError::Io(path.to_path_buf(), e.into()))?;
    if r.len() < len || Sha256::digest(&r[..len - CHECKSUM_BYTES])[..] != r[len - CHECKSUM_BYTES..]
    {
        return Ok(None);
    }
    let u64_at = |at: usize| u64::from_le_bytes(r[at..at + 8].try_into().expect("8 bytes"));
    let f64_at = |at: usize| f64::from_le_bytes(r[at..at + 8].try_into().expect("8 bytes"));
    let bad = || CheckpointError::Record(path.to_path_buf(), sig);
    let n: [u64; 10] = std::array::from_fn(|i| u64_at(4 + 8 * i));
    if r[..4] != [sig.wf, sig.wh, sig.bf, sig.bh] || n[0] != positions {
        return Err(bad());
    }
    let values_at = 4 + STATS_BYTES + 8;
    if u64_at(values_at - 8) != positions {
        return Err(bad());
    }
    let values: Vec<f64> = (0..positions as usize)
        .map(|i| f64_at(values_at + 8 * i))
        .collect();
    if values.iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(bad());
    }
    let mut st = SignatureStats::new(sig, positions);
    st.finished = n[1];
    st.direct = n[2];
    st.iterated = n[3];
    st.updates = n[4];
    st.sweeps = n[5] as usize;
    st.rounds = n[6] as usize;
    st.looping = n[7];
    st.unsettled = n[8];
    st.cells = n[9];
    st.residual = f64_at(4 + 80);
    st.cpu_seconds = f64_at(4 + 88);
    st.resumed = true;
    Ok(Some((st, values)))
}

impl Checkpoint {
    /// Opens the checkpoint at `path` for a build of `table` with `max_sweeps`: creates it
    /// if there is none; else reads its records into `values` (the whole table's) and returns
    /// their stats, in table order, cutting off an incomplete last record.
    ///
    /// # Errors
    /// [`CheckpointError::Other`] for a file that is not this build's checkpoint (left as it
    /// is), [`CheckpointError::Record`] for a whole record that does not fit the build, and
    /// I/O errors.
    pub(crate) fn open(
        path: &Path,
        table: &Tablebase,
        max_sweeps: usize,
        values: &mut [f64],
    ) -> Result<(Checkpoint, Vec<SignatureStats>), CheckpointError> {
        let io = |e: std::io::Error| CheckpointError::Io(path.to_path_buf(), e.into());
        let head = header(table, max_sweeps);
        let mut file = match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
        {
            Ok(mut f) => {
                f.write_all(&head)
                    .and_then(|()| f.sync_data())
                    .map_err(io)?;
                let cp = Checkpoint {
                    path: path.to_path_buf(),
                    file: f,
                };
                return Ok((cp, Vec::new()));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .map_err(io)?,
            Err(e) => return Err(io(e)),
        };
        let mut got = Vec::with_capacity(head.len());
        (&mut file)
            .take(head.len() as u64)
            .read_to_end(&mut got)
            .map_err(io)?;
        if got != head {
            return Err(CheckpointError::Other(path.to_path_buf()));
        }
        let mut done = Vec::new();
        let mut good = head.len() as u64;
        for &sig in &table.signatures {
            let n = table.footmen.positions(sig);
            let Some((st, v)) = read_record(&mut file, sig, n, path)? else {
                break;
            };
            let base = table.offset(sig).expect("a signature of the table") as usize;
            values[base..base + v.len()].copy_from_slice(&v);
            done.push(st);
            good += record_bytes(n);
        }
        let len = file.metadata().map_err(io)?.len();
        if len > good {
            log::warn!(
                "{}: cutting off {} bytes after the last whole record (a build stopped while \
                 writing it)",
                path.display(),
                len - good
            );
            file.set_len(good)
                .and_then(|()| file.sync_data())
                .map_err(io)?;
        }
        file.seek(SeekFrom::Start(good)).map_err(io)?;
        let cp = Checkpoint {
            path: path.to_path_buf(),
            file,
        };
        Ok((cp, done))
    }

    /// Appends a solved signature's record (`values`: its own) and waits for the disk.
    ///
    /// # Errors
    /// The I/O error.
    pub(crate) fn save(
        &mut self,
        s: &SignatureStats,
        values: &[f64],
    ) -> Result<(), CheckpointError> {
        self.file
            .write_all(&record(s, values))
            .and_then(|()| self.file.sync_data())
            .map_err(|e| CheckpointError::Io(self.path.clone(), e.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::build::{MAX_SWEEPS, build};
    use crate::tablebase::format::encode;
    use crate::variants::apocalypse::Rules;

    /// A fresh path for a checkpoint of this test.
    fn scratch(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!(
            "quill-checkpoint-{}-{name}.part",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&p);
        p
    }

    /// Builds the 3-piece table of `rules` with the checkpoint at `path`: the table's bytes
    /// and how many signatures came from the checkpoint.
    fn built(rules: Rules, path: &Path, max_sweeps: usize) -> Result<(Vec<u8>, usize), BuildError> {
        let mut resumed = 0;
        let b = build(rules, 3, max_sweeps, Some(path), &mut |s| {
            resumed += usize::from(s.resumed)
        })?;
        Ok((encode(&b.table), resumed))
    }

    use crate::tablebase::build::BuildError;

    /// Where record `k` (from 0) of the checkpoint of the 3-piece table ends.
    fn end_of_record(rules: Rules, k: usize) -> u64 {
        let t = Tablebase::empty(rules, 3);
        let head = header(&t, MAX_SWEEPS).len() as u64;
        head + t.signatures[..=k]
            .iter()
            .map(|&s| record_bytes(t.footmen.positions(s)))
            .sum::<u64>()
    }

    #[test]
    fn a_stopped_build_resumes_to_the_same_table() {
        for rules in [Rules::Seed, Rules::Classic] {
            let whole = build(rules, 3, MAX_SWEEPS, None, &mut |_| {}).expect("a build");
            let whole = encode(&whole.table);
            let path = scratch(&format!("{rules:?}-resume"));
            let (bytes, resumed) = built(rules, &path, MAX_SWEEPS).expect("a build");
            assert_eq!(
                bytes, whole,
                "{rules:?}: a checkpointed build makes the same table"
            );
            assert_eq!(resumed, 0);
            let signatures = Tablebase::empty(rules, 3).signatures.len();
            let full = std::fs::metadata(&path).expect("the checkpoint").len();
            assert_eq!(full, end_of_record(rules, signatures - 1));
            // Everything read back: nothing solved again.
            assert_eq!(
                built(rules, &path, MAX_SWEEPS),
                Ok((whole.clone(), signatures))
            );
            // Stopped while writing the sixth record: five come back, the rest is solved.
            let f = OpenOptions::new()
                .write(true)
                .open(&path)
                .expect("the checkpoint");
            f.set_len(end_of_record(rules, 4) + 100).expect("cut");
            assert_eq!(built(rules, &path, MAX_SWEEPS), Ok((whole.clone(), 5)));
            assert_eq!(
                std::fs::metadata(&path).expect("the checkpoint").len(),
                full
            );
            // A damaged third record: two come back.
            let mut b = std::fs::read(&path).expect("the checkpoint");
            let at = end_of_record(rules, 1) as usize + 200;
            b[at] ^= 1;
            std::fs::write(&path, &b).expect("written");
            assert_eq!(built(rules, &path, MAX_SWEEPS), Ok((whole, 2)));
            let _ = std::fs::remove_file(&path);
        }
    }

    #[test]
    fn another_builds_checkpoint_is_refused_and_kept() {
        let path = scratch("other");
        built(Rules::Seed, &path, MAX_SWEEPS).expect("a build");
        let before = std::fs::read(&path).expect("the checkpoint");
        for (rules, sweeps) in [(Rules::Classic, MAX_SWEEPS), (Rules::Seed, 10)] {
            assert_eq!(
                built(rules, &path, sweeps),
                Err(BuildError::Checkpoint(CheckpointError::Other(path.clone())))
            );
        }
        std::fs::write(&path, b"not a checkpoint").expect("written");
        assert_eq!(
            built(Rules::Seed, &path, MAX_SWEEPS),
            Err(BuildError::Checkpoint(CheckpointError::Other(path.clone())))
        );
        assert_eq!(std::fs::read(&path).expect("kept"), b"not a checkpoint");
        assert!(before.len() > 1000);
        let _ = std::fs::remove_file(&path);
    }
}
