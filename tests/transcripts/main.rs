//! Transcript tests: every fixture and every documented example replayed against the engine,
//! the runner itself checked against a scripted fake engine, and the real binary's stdin/stdout
//! loop, `--log` and `replay` exercised as processes.

use std::collections::VecDeque;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use quill::transcript::{self, Failure, Transport};

mod binary;
mod docs;
mod parsing;
mod runner;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `path` relative to the crate root, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("transcripts");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Panics with every message in `failures`, if any.
fn report(what: &str, count: usize, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} of {count} {what} failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

// ---------------------------------------------------------------------------------------------
// The runner, against a scripted fake engine
// ---------------------------------------------------------------------------------------------

/// A fake engine: answers each line it is sent from a script, and records what it was asked.
#[derive(Default)]
struct Script {
    replies: Vec<(&'static str, Vec<&'static str>)>,
    on_eof: Vec<&'static str>,
    quits_on: Option<&'static str>,
    ignores_eof: bool,
    queue: VecDeque<String>,
    exited: bool,
    sent: Vec<String>,
    waits: Vec<Duration>,
}

impl Script {
    fn new() -> Script {
        Script {
            quits_on: Some("quit"),
            ..Script::default()
        }
    }

    fn reply(mut self, line: &'static str, lines: &[&'static str]) -> Script {
        self.replies.push((line, lines.to_vec()));
        self
    }

    fn prints(mut self, lines: &[&'static str]) -> Script {
        self.queue.extend(lines.iter().map(|s| s.to_string()));
        self
    }

    fn run(&mut self, text: &str) -> Result<(), Failure> {
        let t = transcript::parse("t.txt", text).unwrap_or_else(|e| panic!("{e}"));
        transcript::run(&t, self)
    }
}

impl Transport for Script {
    fn send(&mut self, line: &str) -> io::Result<()> {
        self.sent.push(line.to_string());
        if self.exited {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "exited"));
        }
        if let Some((_, lines)) = self.replies.iter().find(|(l, _)| *l == line) {
            self.queue.extend(lines.iter().map(|s| s.to_string()));
        }
        if self.quits_on == Some(line) {
            self.exited = true;
        }
        Ok(())
    }

    fn close_input(&mut self) -> io::Result<()> {
        self.queue.extend(self.on_eof.iter().map(|s| s.to_string()));
        if !self.ignores_eof {
            self.exited = true;
        }
        Ok(())
    }

    fn recv(&mut self, timeout: Duration) -> io::Result<Option<String>> {
        self.waits.push(timeout);
        Ok(self.queue.pop_front())
    }

    fn exited(&mut self, _timeout: Duration) -> io::Result<bool> {
        Ok(self.exited)
    }
}
