//! Writing a live dialogue as a transcript.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// The header line of every log [`Logger`] writes.
pub const LOG_HEADER: &str = "# quill transcript log: replay with `quill replay FILE`";

/// Writes a live dialogue as a transcript: lines in as `> line`, lines out as `< line`, the end
/// of input as `@ eof` and the end of the engine as `@ exit`. Each line is written and flushed
/// at once, so a log survives the engine being killed. The header holds no date or other varying
/// information, so the same dialogue always gives the same log.
pub struct Logger<W: Write = File> {
    out: W,
}

impl Logger<File> {
    /// Creates (or truncates) the log file `path` and writes the header.
    ///
    /// # Errors
    /// Fails when the file cannot be created or written.
    pub fn create(path: &Path) -> io::Result<Logger<File>> {
        Logger::new(File::create(path)?)
    }
}

impl<W: Write> Logger<W> {
    /// Logs to `out`, writing the header first.
    ///
    /// # Errors
    /// Fails when the header cannot be written.
    pub fn new(out: W) -> io::Result<Logger<W>> {
        let mut logger = Logger { out };
        logger.write(LOG_HEADER)?;
        Ok(logger)
    }

    fn write(&mut self, line: &str) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.out.write_all(&bytes)?;
        self.out.flush()
    }

    /// Logs a line the engine read.
    ///
    /// # Errors
    /// Fails when the log cannot be written.
    pub fn input(&mut self, line: &str) -> io::Result<()> {
        self.write(&format!("> {line}"))
    }

    /// Logs a line the engine wrote (several, if it holds newlines).
    ///
    /// # Errors
    /// Fails when the log cannot be written.
    pub fn output(&mut self, line: &str) -> io::Result<()> {
        for piece in line.split('\n') {
            self.write(&format!("< {piece}"))?;
        }
        Ok(())
    }

    /// Logs the end of the engine's input.
    ///
    /// # Errors
    /// Fails when the log cannot be written.
    pub fn eof(&mut self) -> io::Result<()> {
        self.write("@ eof")
    }

    /// Logs the engine's exit.
    ///
    /// # Errors
    /// Fails when the log cannot be written.
    pub fn exit(&mut self) -> io::Result<()> {
        self.write("@ exit")
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}
