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
//! [`Session`] directly, [`External`] talks to a child process over pipes. [`Logger`] writes a
//! live dialogue in the same format, so that a log is itself a transcript.

use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use regex::Regex;

use crate::session::{Input, Session};

/// How long an expectation waits for output when the transcript sets no `# timeout:`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long `@ quiet` (and the final check for leftover output) waits for stray output.
pub const DEFAULT_SETTLE: Duration = Duration::from_millis(200);

/// How many lines of the dialogue a [`Failure`] shows.
pub const DIALOGUE_LINES: usize = 20;

// ---------------------------------------------------------------------------------------------
// The format
// ---------------------------------------------------------------------------------------------

/// A parsed transcript.
#[derive(Clone, Debug)]
pub struct Transcript {
    /// Where it came from (a file name), used in messages.
    pub name: String,
    /// The timeout its `# timeout: SECS` header sets, if any.
    pub timeout: Option<Duration>,
    /// The steps in order; comments and blank lines are dropped.
    pub steps: Vec<Step>,
    /// The number of the text's last line (where end-of-transcript failures are reported).
    pub end_line: usize,
}

/// One step of a transcript, with the number of the line it was written on.
#[derive(Clone, Debug)]
pub struct Step {
    /// Line number in the file (1-based, or offset as given to [`parse_at`]).
    pub line: usize,
    /// What to do or expect.
    pub action: Action,
}

/// What one transcript line asks for.
#[derive(Clone, Debug)]
pub enum Action {
    /// `> TEXT`: send TEXT to the engine.
    Send(String),
    /// `< TEXT`: the next output line is exactly TEXT.
    Expect(String),
    /// `<~ REGEX`: the next output line matches REGEX as a whole.
    ExpectMatch(Pattern),
    /// `<* REGEX`: any number of output lines matching REGEX may come here.
    Skip(Pattern),
    /// `@ eof`: close the engine's input.
    Eof,
    /// `@ exit`: the engine must have exited.
    Exit,
    /// `@ quiet`: no further output must have appeared.
    Quiet,
}

impl fmt::Display for Action {
    /// Writes the action as its transcript line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Send(text) => write!(f, "> {text}"),
            Action::Expect(text) => write!(f, "< {text}"),
            Action::ExpectMatch(pattern) => write!(f, "<~ {}", pattern.source()),
            Action::Skip(pattern) => write!(f, "<* {}", pattern.source()),
            Action::Eof => f.write_str("@ eof"),
            Action::Exit => f.write_str("@ exit"),
            Action::Quiet => f.write_str("@ quiet"),
        }
    }
}

/// A regular expression that must match a whole line.
#[derive(Clone, Debug)]
pub struct Pattern {
    source: String,
    regex: Regex,
}

impl Pattern {
    /// Compiles `source`, anchored as `^(?:source)$`.
    ///
    /// # Errors
    /// Fails when `source` is not a valid regular expression.
    pub fn new(source: &str) -> Result<Pattern, regex::Error> {
        Ok(Pattern {
            source: source.to_string(),
            regex: Regex::new(&format!("^(?:{source})$"))?,
        })
    }

    /// The expression as written in the transcript.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether `line` matches as a whole.
    pub fn matches(&self, line: &str) -> bool {
        self.regex.is_match(line)
    }
}

/// A transcript that cannot be read: a malformed line, or a file that cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The transcript's name.
    pub name: String,
    /// The offending line, or 0 for the file as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.name, self.message)
        } else {
            write!(f, "{}:{}: {}", self.name, self.line, self.message)
        }
    }
}

impl std::error::Error for FormatError {}

/// Parses a transcript whose first line is line 1.
///
/// # Errors
/// Fails on the first malformed line, giving its number.
pub fn parse(name: &str, text: &str) -> Result<Transcript, FormatError> {
    parse_at(name, text, 1)
}

/// Parses a transcript whose first line is line `first_line` of some larger file (a block in a
/// Markdown document), so that messages point into that file.
///
/// # Errors
/// Fails on the first malformed line, giving its number.
pub fn parse_at(name: &str, text: &str, first_line: usize) -> Result<Transcript, FormatError> {
    let mut steps: Vec<Step> = Vec::new();
    let mut timeout = None;
    let mut input_closed = false;
    let mut exited = false;
    let mut end_line = first_line.saturating_sub(1);
    for (index, raw) in text.lines().enumerate() {
        let line = first_line + index;
        end_line = line;
        let error = |message: String| FormatError {
            name: name.to_string(),
            line,
            message,
        };
        if raw.trim().is_empty() {
            continue;
        }
        if let Some(comment) = raw.strip_prefix('#') {
            if let Some(value) = comment.trim_start().strip_prefix("timeout:") {
                if !steps.is_empty() {
                    return Err(error(
                        "`# timeout:` must come before the first step".to_string(),
                    ));
                }
                if timeout.is_some() {
                    return Err(error("a second `# timeout:` header".to_string()));
                }
                timeout = Some(parse_timeout(value.trim()).map_err(error)?);
            }
            continue;
        }
        let action = parse_action(raw).map_err(error)?;
        match action {
            Action::Send(_) if input_closed => {
                return Err(error("`>` after `@ eof`: the input is closed".to_string()));
            }
            Action::Send(_) if exited => {
                return Err(error(
                    "`>` after `@ exit`: the engine has exited".to_string(),
                ));
            }
            Action::Eof if input_closed => {
                return Err(error("a second `@ eof`".to_string()));
            }
            Action::Eof => input_closed = true,
            Action::Exit => exited = true,
            _ => {}
        }
        steps.push(Step { line, action });
    }
    Ok(Transcript {
        name: name.to_string(),
        timeout,
        steps,
        end_line,
    })
}

/// Reads and parses a transcript file, named by its path as given.
///
/// # Errors
/// Fails when the file cannot be read (with line 0) or is malformed.
pub fn load(path: &Path) -> Result<Transcript, FormatError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| FormatError {
        name: name.clone(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
    parse(&name, &text)
}

fn parse_timeout(value: &str) -> Result<Duration, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|secs| secs.is_finite() && *secs > 0.0)
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .ok_or_else(|| format!("bad timeout `{value}`: expected a positive number of seconds"))
}

fn parse_action(raw: &str) -> Result<Action, String> {
    let (head, rest) = raw.split_once(' ').unwrap_or((raw, ""));
    let pattern = |source: &str| {
        Pattern::new(source).map_err(|e| format!("bad regular expression `{source}`: {e}"))
    };
    match head {
        ">" => Ok(Action::Send(rest.to_string())),
        "<" => Ok(Action::Expect(rest.to_string())),
        "<~" => Ok(Action::ExpectMatch(pattern(rest)?)),
        "<*" => Ok(Action::Skip(pattern(rest)?)),
        "@" => match rest.trim() {
            "eof" => Ok(Action::Eof),
            "exit" => Ok(Action::Exit),
            "quiet" => Ok(Action::Quiet),
            other => Err(format!(
                "unknown directive `@ {other}`: expected `@ eof`, `@ exit` or `@ quiet`"
            )),
        },
        _ => Err(format!(
            "cannot read line `{raw}`: a line is blank or starts with `#`, `> `, `< `, `<~ `, \
             `<* ` or `@ `"
        )),
    }
}

/// A fenced ```` ```transcript ```` block in a Markdown document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocBlock {
    /// Line number (in the document) of the block's first content line.
    pub line: usize,
    /// The fence's info string after `transcript`, if any: a fixture path the block must equal,
    /// relative to `fixtures/`.
    pub info: Option<String>,
    /// The block's content, each line ended by `\n`.
    pub text: String,
}

/// Extracts every ```` ```transcript ```` block from a Markdown document.
///
/// A block opens with a line ```` ```transcript ```` (optionally followed by whitespace and an
/// info string) and closes with a line ```` ``` ````. Indentation of the opening fence is removed
/// from the content lines.
///
/// # Errors
/// Fails when a block is not closed.
pub fn doc_blocks(name: &str, markdown: &str) -> Result<Vec<DocBlock>, FormatError> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, usize, Option<String>, String)> = None;
    for (index, raw) in markdown.lines().enumerate() {
        let line = index + 1;
        match &mut open {
            None => {
                let trimmed = raw.trim_start();
                let Some(rest) = trimmed.strip_prefix("```transcript") else {
                    continue;
                };
                if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
                    continue;
                }
                let info = Some(rest.trim())
                    .filter(|s| !s.is_empty())
                    .map(str::to_string);
                open = Some((line, raw.len() - trimmed.len(), info, String::new()));
            }
            Some((start, indent, info, text)) => {
                if raw.trim() == "```" {
                    blocks.push(DocBlock {
                        line: *start + 1,
                        info: info.take(),
                        text: std::mem::take(text),
                    });
                    open = None;
                } else {
                    let strip = raw.len() - raw.trim_start_matches(' ').len();
                    text.push_str(&raw[strip.min(*indent)..]);
                    text.push('\n');
                }
            }
        }
    }
    match open {
        Some((start, ..)) => Err(FormatError {
            name: name.to_string(),
            line: start,
            message: "```transcript block is not closed".to_string(),
        }),
        None => Ok(blocks),
    }
}

/// Every `*.txt` file under `dir`, recursively, sorted by path.
///
/// # Errors
/// Fails when a directory cannot be read.
pub fn find_transcripts(dir: &Path) -> io::Result<Vec<PathBuf>> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, found)?;
            } else if path.extension().is_some_and(|ext| ext == "txt") {
                found.push(path);
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    walk(dir, &mut found)?;
    found.sort();
    Ok(found)
}

/// Turns raw bytes read up to a newline into a line: invalid UTF-8 is replaced (never an error),
/// and the line ending (`\n`, `\r\n`, stray `\r`s before it) is removed.
pub fn decode_line(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let end = bytes.iter().rposition(|&b| b != b'\r').map_or(0, |i| i + 1);
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Transports
// ---------------------------------------------------------------------------------------------

/// A way to talk to an engine, as the runner needs it.
pub trait Transport {
    /// Sends one line (the transport adds the line ending).
    ///
    /// # Errors
    /// Fails when the engine cannot be written to.
    fn send(&mut self, line: &str) -> io::Result<()>;

    /// Closes the engine's input (end of file).
    ///
    /// # Errors
    /// Fails when the input cannot be closed.
    fn close_input(&mut self) -> io::Result<()>;

    /// The engine's next output line, waiting at most `timeout`; `None` when nothing came in
    /// time or the output is closed.
    ///
    /// # Errors
    /// Fails when the output cannot be read.
    fn recv(&mut self, timeout: Duration) -> io::Result<Option<String>>;

    /// Whether the engine has exited, waiting at most `timeout` for it.
    ///
    /// # Errors
    /// Fails when the engine ended abnormally (a failing exit status).
    fn exited(&mut self, timeout: Duration) -> io::Result<bool>;

    /// Whether the engine's output is known to be closed (so `recv` returning `None` meant
    /// end of output, not a timeout). Only used for messages.
    fn output_closed(&self) -> bool {
        false
    }
}

/// Drives a [`Session`] in this process, the way `main` does.
///
/// Lines go straight to [`Session::handle`]; its output is queued for [`Transport::recv`], which
/// also waits for the events of a running search and feeds them back to the session. The session
/// counts as exited once it is idle and has finished (or its input is closed), which is when
/// `main` would stop; after that, input is dropped, as it would be by a process that has exited.
pub struct InProcess {
    session: Session,
    events: Receiver<Input>,
    queue: VecDeque<String>,
    input_closed: bool,
}

impl InProcess {
    /// A fresh session.
    pub fn new() -> InProcess {
        let (sender, events) = mpsc::channel();
        InProcess::with_session(Session::new(sender), events)
    }

    /// Drives `session`, whose search events arrive on `events`.
    pub fn with_session(session: Session, events: Receiver<Input>) -> InProcess {
        InProcess {
            session,
            events,
            queue: VecDeque::new(),
            input_closed: false,
        }
    }

    /// Whether `main` would have stopped: the session is idle, and finished or out of input.
    fn stopped(&self) -> bool {
        !self.session.is_busy() && (self.session.is_finished() || self.input_closed)
    }

    fn deliver(&mut self, input: Input) {
        for text in self.session.handle(input) {
            self.queue.extend(text.split('\n').map(str::to_string));
        }
    }

    /// Handles the search events already waiting, as `main` would before the next input line.
    fn pump(&mut self) {
        while !self.stopped() {
            match self.events.try_recv() {
                Ok(event) => self.deliver(event),
                Err(_) => break,
            }
        }
    }

    /// Waits until `deadline` for one search event and handles it; false if none came.
    fn wait_event(&mut self, deadline: Instant) -> bool {
        let now = Instant::now();
        if self.stopped() || !self.session.is_busy() || now >= deadline {
            return false;
        }
        match self.events.recv_timeout(deadline - now) {
            Ok(event) => {
                self.deliver(event);
                true
            }
            Err(_) => false,
        }
    }
}

impl Default for InProcess {
    fn default() -> InProcess {
        InProcess::new()
    }
}

fn deadline_after(timeout: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(timeout)
        .unwrap_or_else(|| now + Duration::from_secs(86_400 * 365))
}

impl Transport for InProcess {
    fn send(&mut self, line: &str) -> io::Result<()> {
        self.pump();
        if !self.stopped() {
            self.deliver(Input::Line(line.to_string()));
        }
        Ok(())
    }

    fn close_input(&mut self) -> io::Result<()> {
        self.pump();
        if !self.stopped() {
            self.deliver(Input::Eof);
        }
        self.input_closed = true;
        Ok(())
    }

    fn recv(&mut self, timeout: Duration) -> io::Result<Option<String>> {
        let deadline = deadline_after(timeout);
        loop {
            if let Some(line) = self.queue.pop_front() {
                return Ok(Some(line));
            }
            self.pump();
            if self.queue.is_empty() && !self.wait_event(deadline) {
                return Ok(self.queue.pop_front());
            }
        }
    }

    fn exited(&mut self, timeout: Duration) -> io::Result<bool> {
        let deadline = deadline_after(timeout);
        loop {
            self.pump();
            if self.stopped() {
                return Ok(true);
            }
            if !self.wait_event(deadline) {
                return Ok(self.stopped());
            }
        }
    }

    fn output_closed(&self) -> bool {
        self.stopped() && self.queue.is_empty()
    }
}

/// An engine in a child process, talked to over its standard input and output; its standard
/// error is inherited.
pub struct External {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    closed: bool,
}

impl External {
    /// Runs a shell command line (`sh -c COMMAND`).
    ///
    /// # Errors
    /// Fails when the process cannot be started.
    pub fn spawn(command_line: &str) -> io::Result<External> {
        let mut command = Command::new("sh");
        command.arg("-c").arg(command_line);
        External::new(command)
    }

    /// Runs `command` with piped standard input and output.
    ///
    /// # Errors
    /// Fails when the process cannot be started.
    pub fn new(mut command: Command) -> io::Result<External> {
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = command.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("child has no standard output"))?;
        let (sender, lines) = mpsc::channel();
        thread::Builder::new()
            .name("transcript-reader".to_string())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) => break,
                        Ok(_) => {
                            if sender.send(decode_line(&buf)).is_err() {
                                break;
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
            })?;
        Ok(External {
            child,
            stdin,
            lines,
            closed: false,
        })
    }
}

impl Transport for External {
    fn send(&mut self, line: &str) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "input already closed"))?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        stdin.write_all(&bytes)?;
        stdin.flush()
    }

    fn close_input(&mut self) -> io::Result<()> {
        self.stdin = None;
        Ok(())
    }

    fn recv(&mut self, timeout: Duration) -> io::Result<Option<String>> {
        if self.closed {
            return Ok(None);
        }
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Ok(None)
            }
        }
    }

    fn exited(&mut self, timeout: Duration) -> io::Result<bool> {
        let deadline = deadline_after(timeout);
        loop {
            if let Some(status) = self.child.try_wait()? {
                return if status.success() {
                    Ok(true)
                } else {
                    Err(io::Error::other(format!("the engine exited with {status}")))
                };
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(false);
            }
            thread::sleep((deadline - now).min(Duration::from_millis(5)));
        }
    }

    fn output_closed(&self) -> bool {
        self.closed
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// The runner
// ---------------------------------------------------------------------------------------------

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
            Action::Expect(_) | Action::ExpectMatch(_) => {
                let expected =
                    |runner: &Self| runner.expected_with_skips(format!("`{}`", step.action));
                loop {
                    let Some(got) = self.receive(line, &expected, self.timeout)? else {
                        let got = self.nothing(self.timeout);
                        return Err(self.fail(line, expected(self), got));
                    };
                    let matched = match &step.action {
                        Action::Expect(text) => got == *text,
                        Action::ExpectMatch(pattern) => pattern.matches(&got),
                        _ => unreachable!("only expectations reach here"),
                    };
                    if matched {
                        self.skips.clear();
                        break;
                    }
                    if !self.skippable(&got) {
                        return Err(self.fail(line, expected(self), format!("`< {got}`")));
                    }
                }
            }
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

// ---------------------------------------------------------------------------------------------
// Logging a live dialogue
// ---------------------------------------------------------------------------------------------

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
