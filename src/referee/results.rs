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
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

mod line;

use line::sanitize;
pub use line::{BadResult, GameRecord, GameResult, valid_name};

/// The first token pair of every results file (the format's name and version).
pub const HEADER: &str = "quill-results 1";

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
        reason: String,
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
        reason: String,
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
    /// [`Error::Io`] if the file exists already (a results file is never overwritten) or cannot
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
    /// [`Error::Io`], [`Error::BadHeader`], and for a complete line [`Error::BadLine`] or
    /// [`Error::Duplicate`].
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
    pub fn open_resume_or_restart(
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
    /// [`Error::BadRecord`] for a bad name or opening, [`Error::AlreadyRecorded`],
    /// [`Error::Io`].
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
    pub fn header_extra(&self) -> &str {
        &self.header_extra
    }

    /// The line (from 1) that records game `game`, if any.
    pub fn line_of(&self, game: u32) -> Option<usize> {
        self.lines.get(&game).copied()
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
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
pub const MAX_RESULTS_BYTES: u64 = 1 << 30;

/// Longest line of a results file read back.
pub const MAX_RESULTS_LINE: usize = 64 * 1024;

/// Refuses a results file larger than [`MAX_RESULTS_BYTES`].
fn check_size(path: &Path, size: u64) -> Result<(), Error> {
    if size > MAX_RESULTS_BYTES {
        return Err(Error::BadLine {
            path: path.to_owned(),
            line: 1,
            reason: format!(
                "the file has {size} bytes, more than a results file may ({MAX_RESULTS_BYTES})"
            ),
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
        let bad = |reason: String| Error::BadLine {
            path: path.to_owned(),
            line,
            reason,
        };
        if raw.len() > MAX_RESULTS_LINE {
            return Err(bad(format!(
                "a line of {} bytes; no record is longer than {MAX_RESULTS_LINE}",
                raw.len()
            )));
        }
        let text = std::str::from_utf8(strip_cr(raw)).map_err(|_| bad("not UTF-8".to_owned()))?;
        let record = GameRecord::parse_line(text).map_err(bad)?;
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
mod tests {
    use super::*;

    /// A fresh path in the system's temporary directory.
    fn temp_path(name: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("quill-results-{}-{name}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    /// A record of game `game` between `quill` and `other-1.2`, colours alternating.
    pub(crate) fn record(game: u32, result: GameResult) -> GameRecord {
        GameRecord {
            game,
            pair: game / 2,
            white: if game.is_multiple_of(2) {
                "quill"
            } else {
                "other-1.2"
            }
            .to_owned(),
            black: if game.is_multiple_of(2) {
                "other-1.2"
            } else {
                "quill"
            }
            .to_owned(),
            result,
            plies: 40 + game,
            opening: format!("seed:7:{}", game / 2),
            reason: "Black has no footmen left".to_owned(),
        }
    }

    #[test]
    fn append_then_resume() {
        let path = temp_path("resume");
        let mut f = ResultsFile::create(&path, "seed=7 cmd=quill match a b").unwrap();
        f.append(&record(0, GameResult::WhiteWins)).unwrap();
        f.append(&record(1, GameResult::Draw)).unwrap();
        assert!(matches!(
            f.append(&record(1, GameResult::Draw)),
            Err(Error::AlreadyRecorded {
                game: 1,
                line: 3,
                ..
            })
        ));
        let mut bad = record(2, GameResult::Draw);
        bad.white = "two words".to_owned();
        assert!(matches!(f.append(&bad), Err(Error::BadRecord { .. })));
        drop(f);
        assert!(ResultsFile::create(&path, "").is_err(), "never overwritten");

        let (mut f, games) = ResultsFile::open_resume(&path).unwrap();
        assert_eq!(f.header_extra(), "seed=7 cmd=quill match a b");
        assert_eq!(
            games,
            vec![
                record(0, GameResult::WhiteWins),
                record(1, GameResult::Draw)
            ]
        );
        f.append(&record(2, GameResult::BlackWins)).unwrap();
        assert!(matches!(
            f.append(&record(0, GameResult::Draw)),
            Err(Error::AlreadyRecorded { line: 2, .. })
        ));
        assert_eq!(read_all(&path).unwrap().len(), 3);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_torn_last_line_is_cut_away() {
        let path = temp_path("torn");
        let mut f = ResultsFile::create(&path, "").unwrap();
        f.append(&record(0, GameResult::WhiteWins)).unwrap();
        drop(f);
        let good_len = std::fs::metadata(&path).unwrap().len();
        // A crash in the middle of writing game 1.
        let torn = record(1, GameResult::Draw).to_string();
        let mut raw = OpenOptions::new().append(true).open(&path).unwrap();
        raw.write_all(&torn.as_bytes()[..20]).unwrap();
        drop(raw);

        assert_eq!(read_all(&path).unwrap().len(), 1, "reading ignores it");
        let (mut f, games) = ResultsFile::open_resume(&path).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), good_len, "cut off");
        f.append(&record(1, GameResult::Draw)).unwrap();
        drop(f);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3);
        assert_eq!(read_all(&path).unwrap()[1], record(1, GameResult::Draw));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn an_overlong_line_is_refused_unparsed() {
        let path = temp_path("overlong");
        let good = record(0, GameResult::WhiteWins).to_string();
        let long = "x".repeat(MAX_RESULTS_LINE + 1);
        std::fs::write(&path, format!("{HEADER}\n{good}\n{long}\n")).unwrap();
        let err = read_all(&path).unwrap_err();
        assert!(matches!(err, Error::BadLine { line: 3, .. }), "{err}");
        assert!(err.to_string().contains("a line of 65537 bytes"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn damage_is_an_error_naming_the_line() {
        let path = temp_path("damage");
        let good = record(0, GameResult::WhiteWins).to_string();
        std::fs::write(&path, format!("{HEADER}\n{good}\ngarbage\n")).unwrap();
        let err = ResultsFile::open_resume(&path).unwrap_err();
        assert!(matches!(err, Error::BadLine { line: 3, .. }), "{err}");
        assert!(err.to_string().contains(":3: "), "{err}");

        std::fs::write(&path, format!("{HEADER}\n{good}\n{good}\n")).unwrap();
        let err = read_all(&path).unwrap_err();
        assert!(
            matches!(
                err,
                Error::Duplicate {
                    line: 3,
                    first_line: 2,
                    game: 0,
                    ..
                }
            ),
            "{err}"
        );

        for header in ["", "quill-results 2\n", "quill-results 1x\n", "quill-resu"] {
            std::fs::write(&path, header).unwrap();
            assert!(
                matches!(read_all(&path), Err(Error::BadHeader { .. })),
                "{header:?}"
            );
        }
        std::fs::write(&path, format!("{HEADER}\n")).unwrap();
        assert_eq!(read_all(&path).unwrap(), vec![]);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn crlf_endings_are_not_part_of_the_header_or_the_records() {
        let path = temp_path("crlf");
        let good = record(0, GameResult::WhiteWins);
        std::fs::write(&path, format!("{HEADER} seed=7\r\n{good}\r\n")).unwrap();
        let (mut f, games) = ResultsFile::open_resume(&path).unwrap();
        assert_eq!(f.header_extra(), "seed=7");
        assert_eq!(games, vec![good]);
        f.append(&record(1, GameResult::Draw)).unwrap();
        assert_eq!(read_all(&path).unwrap().len(), 2);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn an_empty_or_torn_header_restarts_only_for_its_own_match() {
        let path = temp_path("torn-header");
        let full = format!("{HEADER} seed=7 a=x\n");
        for cut in [0, 5, full.len() - 1] {
            std::fs::write(&path, &full[..cut]).unwrap();
            let err = ResultsFile::open_resume(&path).unwrap_err();
            assert!(matches!(err, Error::BadHeader { .. }), "{cut}: {err}");
            let (mut f, games) =
                ResultsFile::open_resume_or_restart(&path, Some("seed=7 a=x")).unwrap();
            assert!(games.is_empty());
            f.append(&record(0, GameResult::Draw)).unwrap();
            drop(f);
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.starts_with(&full), "{cut}: {text:?}");
            assert_eq!(read_all(&path).unwrap().len(), 1);
        }
        // Another match's torn header is not taken over.
        std::fs::write(&path, &full[..full.len() - 2]).unwrap();
        assert!(ResultsFile::open_resume_or_restart(&path, Some("seed=8 a=x")).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
