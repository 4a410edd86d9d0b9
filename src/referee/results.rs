//! The results file of a match: a header line, then one line per finished game, appended as the
//! game finishes and never rewritten, so that a match killed at any moment can be resumed.
//!
//! ```text
//! quill-results 1 seed=7 cmd=quill match …
//! game=0 pair=0 white=quill black=other result=1-0 plies=31 opening=seed:7:0 reason=Black has no footmen left
//! ```
//!
//! Every game line is written with one `write` of the whole line, then flushed and synced
//! (`sync_data`), so a crash can only leave a torn last line without its newline.
//! [`ResultsFile::open_resume`] cuts such a line away; any other damage is an error naming the
//! line.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

mod error;
mod line;

pub(crate) use error::{Error, LineFault};
use line::sanitize;
pub use line::{BadResult, GameRecord, GameResult, RecordError, valid_name};

/// The first token pair of every results file (the format's name and version).
pub(crate) const HEADER: &str = "quill-results 1";

/// A results file open for appending.
#[derive(Debug)]
pub struct ResultsFile {
    path: PathBuf,
    file: File,
    header_extra: String,
    /// Game index → line number of every record in the file.
    lines: HashMap<u32, usize>,
    next_line: usize,
}

impl ResultsFile {
    /// Creates a new results file and writes (and syncs) its header: `quill-results 1`, then a
    /// space and `header_extra` if it is not empty (free text such as `seed=7 cmd=…`; control
    /// characters become spaces).
    ///
    /// # Errors
    /// `Error::Io` if the file exists already (a results file is never overwritten) or cannot
    /// be written.
    pub fn create(path: &Path, header_extra: &str) -> Result<ResultsFile, Error> {
        let io = |source| Error::Io {
            path: path.to_owned(),
            source,
        };
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(path)
            .map_err(io)?;
        let header_extra = sanitize(header_extra);
        let mut results = ResultsFile {
            path: path.to_owned(),
            file,
            header_extra,
            lines: HashMap::new(),
            next_line: 2,
        };
        let header = header_line(&results.header_extra);
        results.write_synced(&header)?;
        Ok(results)
    }

    /// Opens an existing results file to go on with a match: reads every complete line, cuts a
    /// torn last line (one without its newline, left by a crash mid-write) off the file, and
    /// returns the file ready for appending with the games already recorded.
    ///
    /// # Errors
    /// `Error::Io`, `Error::BadHeader`, and for a complete line `Error::BadLine` or
    /// `Error::Duplicate`.
    pub fn open_resume(path: &Path) -> Result<(ResultsFile, Vec<GameRecord>), Error> {
        Self::open_resume_or_restart(path, None)
    }

    /// As [`ResultsFile::open_resume`], but a file that holds no complete line and whose bytes
    /// begin the header `quill-results 1 HEADER_EXTRA` (empty, or torn by a crash while it was
    /// being created, so no game is recorded in it) is given its header again, as
    /// [`ResultsFile::create`] would have written it.
    ///
    /// # Errors
    /// As [`ResultsFile::open_resume`].
    pub(crate) fn open_resume_or_restart(
        path: &Path,
        header_extra: Option<&str>,
    ) -> Result<(ResultsFile, Vec<GameRecord>), Error> {
        let io = |source| Error::Io {
            path: path.to_owned(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        check_size(path, file.metadata().map_err(io)?.len())?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        if let Some(extra) = header_extra
            && !bytes.contains(&b'\n')
            && header_line(&sanitize(extra)).as_bytes().starts_with(&bytes)
        {
            log::warn!(
                "{}: no complete header ({} bytes): writing it again",
                path.display(),
                bytes.len()
            );
            file.set_len(0).map_err(io)?;
            let mut results = ResultsFile {
                path: path.to_owned(),
                file,
                header_extra: sanitize(extra),
                lines: HashMap::new(),
                next_line: 2,
            };
            let header = header_line(&results.header_extra);
            results.write_synced(&header)?;
            return Ok((results, Vec::new()));
        }
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let parsed = parse_file(path, &bytes[..complete])?;
        if complete < bytes.len() {
            log::warn!(
                "{}: cutting a torn last line of {} bytes",
                path.display(),
                bytes.len() - complete
            );
            file.set_len(complete as u64).map_err(io)?;
            file.sync_data().map_err(io)?;
        }
        let results = ResultsFile {
            path: path.to_owned(),
            file,
            header_extra: parsed.header_extra,
            next_line: parsed.records.len() + 2,
            lines: parsed.lines,
        };
        Ok((results, parsed.records))
    }

    /// Appends one game line with a single write, then flushes and syncs it to the disk.
    ///
    /// # Errors
    /// `Error::BadRecord` for a bad name or opening, `Error::AlreadyRecorded`,
    /// `Error::Io`.
    pub fn append(&mut self, record: &GameRecord) -> Result<(), Error> {
        record.check().map_err(|reason| Error::BadRecord {
            path: self.path.clone(),
            game: record.game,
            reason,
        })?;
        if let Some(&line) = self.lines.get(&record.game) {
            return Err(Error::AlreadyRecorded {
                path: self.path.clone(),
                line,
                game: record.game,
            });
        }
        self.write_synced(&format!("{record}\n"))?;
        self.lines.insert(record.game, self.next_line);
        self.next_line += 1;
        Ok(())
    }

    /// The header's text after `quill-results 1` (empty if none), for the caller to compare
    /// with the match it is resuming.
    pub(crate) fn header_extra(&self) -> &str {
        &self.header_extra
    }

    /// The line (from 1) that records game `game`, if any.
    pub(crate) fn line_of(&self, game: u32) -> Option<usize> {
        self.lines.get(&game).copied()
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    fn write_synced(&mut self, text: &str) -> Result<(), Error> {
        let io = |source| Error::Io {
            path: self.path.clone(),
            source,
        };
        self.file.write_all(text.as_bytes()).map_err(io)?;
        self.file.flush().map_err(io)?;
        self.file.sync_data().map_err(io)
    }
}

/// The header line (with its newline) for a sanitized `header_extra`.
fn header_line(header_extra: &str) -> String {
    if header_extra.is_empty() {
        format!("{HEADER}\n")
    } else {
        format!("{HEADER} {header_extra}\n")
    }
}

/// Reads every record of a results file without changing it; a torn last line is ignored.
///
/// # Errors
/// As [`ResultsFile::open_resume`].
pub fn read_all(path: &Path) -> Result<Vec<GameRecord>, Error> {
    let io = |source| Error::Io {
        path: path.to_owned(),
        source,
    };
    check_size(path, std::fs::metadata(path).map_err(io)?.len())?;
    let bytes = std::fs::read(path).map_err(io)?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    parse_file(path, &bytes[..complete]).map(|p| p.records)
}

/// Largest results file read back (`--resume`, `quill merge`): far more than the longest match
/// writes (a record is a few hundred bytes), and a bound on what a hostile file can cost.
pub(crate) const MAX_RESULTS_BYTES: u64 = 1 << 30;

/// Longest line of a results file read back.
pub(crate) const MAX_RESULTS_LINE: usize = 64 * 1024;

/// Refuses a results file larger than [`MAX_RESULTS_BYTES`].
fn check_size(path: &Path, size: u64) -> Result<(), Error> {
    if size > MAX_RESULTS_BYTES {
        return Err(Error::BadLine {
            path: path.to_owned(),
            line: 1,
            reason: LineFault::FileTooBig { size },
        });
    }
    Ok(())
}

/// A line without the carriage return of a CRLF ending: line endings are not part of a
/// record or of the header.
fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The contents of a results file.
struct Parsed {
    header_extra: String,
    records: Vec<GameRecord>,
    lines: HashMap<u32, usize>,
}

/// Parses the complete lines of a file (`bytes` ends with a newline, or is empty).
fn parse_file(path: &Path, bytes: &[u8]) -> Result<Parsed, Error> {
    let mut lines = bytes.split(|&b| b == b'\n');
    let header = strip_cr(lines.next().unwrap_or_default());
    let header = String::from_utf8_lossy(header);
    let header_extra = if bytes.is_empty() {
        None
    } else if header == HEADER {
        Some(String::new())
    } else {
        header
            .strip_prefix(HEADER)
            .and_then(|extra| extra.strip_prefix(' '))
            .map(str::to_owned)
    };
    if bytes.windows(2).any(|w| w == b"\r\n") {
        log::warn!(
            "{}: CRLF line endings (the file was edited on Windows?): read as plain newlines",
            path.display()
        );
    }
    let Some(header_extra) = header_extra else {
        return Err(Error::BadHeader {
            path: path.to_owned(),
            found: header.into_owned(),
        });
    };
    let mut parsed = Parsed {
        header_extra,
        records: Vec::new(),
        lines: HashMap::new(),
    };
    // `split` yields an empty slice after the final newline: not a line.
    let body: Vec<&[u8]> = lines.collect();
    let body = &body[..body.len().saturating_sub(1)];
    for (i, raw) in body.iter().enumerate() {
        let line = i + 2;
        let bad = |reason: LineFault| Error::BadLine {
            path: path.to_owned(),
            line,
            reason,
        };
        if raw.len() > MAX_RESULTS_LINE {
            return Err(bad(LineFault::TooLong { bytes: raw.len() }));
        }
        let text = std::str::from_utf8(strip_cr(raw)).map_err(|_| bad(LineFault::NotUtf8))?;
        let record = GameRecord::parse_line(text).map_err(|e| bad(LineFault::Record(e)))?;
        if let Some(&first_line) = parsed.lines.get(&record.game) {
            return Err(Error::Duplicate {
                path: path.to_owned(),
                line,
                first_line,
                game: record.game,
            });
        }
        parsed.lines.insert(record.game, line);
        parsed.records.push(record);
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests;
