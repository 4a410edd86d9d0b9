//! The terminal of a human seat: the lines a person types (read on a thread, cut to a bounded
//! length) and where the referee writes to them.

use std::io::{BufRead, Read, Write};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

use super::super::engine::MAX_LINE;
use super::*;

/// The terminal of a human seat: lines typed, and where the referee writes to the person.
#[derive(Clone)]
pub(crate) struct Terminal {
    /// Lines typed by the person (`None` at end of input).
    pub(crate) input: Arc<Mutex<Receiver<Option<String>>>>,
    /// What the person is shown.
    pub(crate) output: Arc<Mutex<dyn Write + Send>>,
}

impl Terminal {
    /// The terminal of this process: standard input read on a thread, standard output. A
    /// typed line is kept up to [`MAX_LINE`] bytes (the rest of a longer one is read and
    /// dropped, in pieces of that size), and at most [`TYPED_AHEAD`] lines wait to be read.
    pub(crate) fn stdio() -> Terminal {
        let (tx, rx) = mpsc::sync_channel(TYPED_AHEAD);
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut line = Vec::new();
            loop {
                line.clear();
                match (&mut stdin)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut line)
                {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        return;
                    }
                    Ok(_) => {
                        let mut skip = Vec::new();
                        while line.last() != Some(&b'\n') {
                            skip.clear();
                            match (&mut stdin)
                                .take(MAX_LINE as u64)
                                .read_until(b'\n', &mut skip)
                            {
                                Ok(0) | Err(_) => break,
                                Ok(_) if skip.last() == Some(&b'\n') => break,
                                Ok(_) => {}
                            }
                        }
                        let text = String::from_utf8_lossy(&line).trim().to_string();
                        if tx.send(Some(text)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Terminal {
            input: Arc::new(Mutex::new(rx)),
            output: Arc::new(Mutex::new(std::io::stdout())),
        }
    }

    /// A terminal that nobody types at (a seat that could not be set up).
    pub(super) fn none() -> Terminal {
        let (_, rx) = mpsc::channel();
        Terminal {
            input: Arc::new(Mutex::new(rx)),
            output: Arc::new(Mutex::new(std::io::sink())),
        }
    }

    pub(super) fn say(&self, text: &str) {
        if let Ok(mut out) = self.output.lock() {
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
        }
    }

    pub(super) fn read(&self) -> Option<String> {
        self.input.lock().ok()?.recv().ok().flatten()
    }
}
