//! The runner: replays a transcript through a transport and reports the first failure.

use std::collections::VecDeque;
use std::fmt;
use std::time::{Duration, Instant};

use super::transport::deadline_after;
use super::{
    Action, DEFAULT_SETTLE, DEFAULT_TIMEOUT, DIALOGUE_LINES, Pattern, Step, Transcript, Transport,
};

/// How [`run_with`] waits.
#[derive(Clone, Debug)]
pub struct Options {
    /// How long an expectation or `@ exit` waits, unless the transcript sets `# timeout:`.
    pub timeout: Duration,
    /// How long `@ quiet` and the final leftover check wait for stray output.
    pub settle: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            timeout: DEFAULT_TIMEOUT,
            settle: DEFAULT_SETTLE,
        }
    }
}

/// Why a replay failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The transcript's name.
    pub name: String,
    /// The line of the step that failed ([`Transcript::end_line`] for the final checks).
    pub line: usize,
    /// What the transcript asked for.
    pub expected: String,
    /// What happened instead.
    pub got: String,
    /// The last lines of the dialogue: `> ` sent, `< ` received, `@ ` events.
    pub dialogue: Vec<String>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}:{}: expected {}", self.name, self.line, self.expected)?;
        write!(f, "  got {}", self.got)?;
        if self.dialogue.is_empty() {
            write!(f, "\n  (no dialogue yet)")
        } else {
            write!(
                f,
                "\n  dialogue, last {} lines (> sent, < received):",
                self.dialogue.len()
            )?;
            for line in &self.dialogue {
                write!(f, "\n    {line}")?;
            }
            Ok(())
        }
    }
}

impl std::error::Error for Failure {}

/// Replays `transcript` through `transport` with the default [`Options`].
///
/// # Errors
/// Fails at the first step the engine does not satisfy.
pub fn run(transcript: &Transcript, transport: &mut dyn Transport) -> Result<(), Failure> {
    run_with(transcript, transport, &Options::default())
}

/// Replays `transcript` through `transport`.
///
/// Sending is immediate. An expectation reads the next output line, waiting up to the timeout
/// (the transcript's `# timeout:` or else `options.timeout`). A `<*` pattern stays in force until
/// the next `<` or `<~` line is matched: a line that matches that expectation satisfies it, and
/// otherwise a line that matches a pattern in force is skipped. At the end, the engine's input is
/// closed (unless `@ eof` did), it must exit, and any output not yet read must match a pattern in
/// force.
///
/// # Errors
/// Fails at the first step the engine does not satisfy.
pub fn run_with(
    transcript: &Transcript,
    transport: &mut dyn Transport,
    options: &Options,
) -> Result<(), Failure> {
    Runner {
        transcript,
        transport,
        timeout: transcript.timeout.unwrap_or(options.timeout),
        settle: options.settle,
        dialogue: VecDeque::new(),
        skips: Vec::new(),
        input_closed: false,
        exited: false,
    }
    .run()
}

struct Runner<'a> {
    transcript: &'a Transcript,
    transport: &'a mut dyn Transport,
    timeout: Duration,
    settle: Duration,
    dialogue: VecDeque<String>,
    skips: Vec<&'a Pattern>,
    input_closed: bool,
    exited: bool,
}

impl<'a> Runner<'a> {
    fn run(mut self) -> Result<(), Failure> {
        let transcript = self.transcript;
        for step in &transcript.steps {
            self.step(step)?;
        }
        self.finish()
    }

    fn record(&mut self, entry: String) {
        if self.dialogue.len() == DIALOGUE_LINES {
            self.dialogue.pop_front();
        }
        self.dialogue.push_back(entry);
    }

    fn fail(&self, line: usize, expected: String, got: String) -> Failure {
        Failure {
            name: self.transcript.name.clone(),
            line,
            expected,
            got,
            dialogue: self.dialogue.iter().cloned().collect(),
        }
    }

    fn skippable(&self, line: &str) -> bool {
        self.skips.iter().any(|pattern| pattern.matches(line))
    }

    /// `expected` extended by the `<*` patterns in force.
    fn expected_with_skips(&self, expected: String) -> String {
        if self.skips.is_empty() {
            expected
        } else {
            let skips: Vec<String> = self
                .skips
                .iter()
                .map(|p| format!("`<* {}`", p.source()))
                .collect();
            format!("{expected} (or a line allowed by {})", skips.join(", "))
        }
    }

    fn nothing(&self, waited: Duration) -> String {
        if self.transport.output_closed() {
            "end of output".to_string()
        } else {
            format!("no output within {waited:?}")
        }
    }

    /// The next output line, recorded in the dialogue.
    fn receive(
        &mut self,
        line: usize,
        expected: &dyn Fn(&Self) -> String,
        timeout: Duration,
    ) -> Result<Option<String>, Failure> {
        match self.transport.recv(timeout) {
            Ok(Some(text)) => {
                self.record(format!("< {text}"));
                Ok(Some(text))
            }
            Ok(None) => Ok(None),
            Err(e) => Err(self.fail(line, expected(self), format!("a read error: {e}"))),
        }
    }

    /// Reads output until a line that `matched` accepts, skipping the lines the patterns in
    /// force allow.
    fn expect(&mut self, step: &'a Step, matched: impl Fn(&str) -> bool) -> Result<(), Failure> {
        let line = step.line;
        let expected = |runner: &Self| runner.expected_with_skips(format!("`{}`", step.action));
        loop {
            let Some(got) = self.receive(line, &expected, self.timeout)? else {
                let got = self.nothing(self.timeout);
                return Err(self.fail(line, expected(self), got));
            };
            if matched(&got) {
                self.skips.clear();
                return Ok(());
            }
            if !self.skippable(&got) {
                return Err(self.fail(line, expected(self), format!("`< {got}`")));
            }
        }
    }

    fn step(&mut self, step: &'a Step) -> Result<(), Failure> {
        let line = step.line;
        match &step.action {
            Action::Send(text) => {
                self.record(format!("> {text}"));
                if let Err(e) = self.transport.send(text) {
                    let expected = format!("to send `> {text}`");
                    return Err(self.fail(line, expected, format!("a write error: {e}")));
                }
            }
            Action::Expect(text) => self.expect(step, |got| got == text)?,
            Action::ExpectMatch(pattern) => self.expect(step, |got| pattern.matches(got))?,
            Action::Skip(pattern) => self.skips.push(pattern),
            Action::Eof => {
                self.record("@ eof".to_string());
                self.input_closed = true;
                if let Err(e) = self.transport.close_input() {
                    let expected = "to close the engine's input (`@ eof`)".to_string();
                    return Err(self.fail(line, expected, format!("an error: {e}")));
                }
            }
            Action::Exit => {
                let expected = || "the engine to have exited (`@ exit`)".to_string();
                match self.transport.exited(self.timeout) {
                    Ok(true) => {
                        self.record("@ exit".to_string());
                        self.exited = true;
                    }
                    Ok(false) => {
                        let got = format!("it still running after {:?}", self.timeout);
                        return Err(self.fail(line, expected(), got));
                    }
                    Err(e) => return Err(self.fail(line, expected(), e.to_string())),
                }
            }
            Action::Quiet => self.quiet(line, || "no further output (`@ quiet`)".to_string())?,
        }
        Ok(())
    }

    /// Fails if output other than lines allowed by `<*` appears within the settle time.
    fn quiet(&mut self, line: usize, expected: impl Fn() -> String) -> Result<(), Failure> {
        let deadline = deadline_after(self.settle);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let expected_here = |runner: &Self| runner.expected_with_skips(expected());
            match self.receive(line, &expected_here, left)? {
                Some(got) if self.skippable(&got) => {}
                Some(got) => {
                    return Err(self.fail(line, expected_here(self), format!("`< {got}`")));
                }
                None => return Ok(()),
            }
        }
    }

    fn finish(mut self) -> Result<(), Failure> {
        let line = self.transcript.end_line;
        if !self.exited {
            if !self.input_closed {
                self.record("@ eof".to_string());
                if let Err(e) = self.transport.close_input() {
                    let expected = "to close the engine's input at the end".to_string();
                    return Err(self.fail(line, expected, format!("an error: {e}")));
                }
            }
            let expected = || "the engine to exit at the end of the transcript".to_string();
            match self.transport.exited(self.timeout) {
                Ok(true) => self.record("@ exit".to_string()),
                Ok(false) => {
                    let got = format!("it still running after {:?}", self.timeout);
                    return Err(self.fail(line, expected(), got));
                }
                Err(e) => return Err(self.fail(line, expected(), e.to_string())),
            }
        }
        self.quiet(line, || {
            "no further output at the end of the transcript".to_string()
        })
    }
}
