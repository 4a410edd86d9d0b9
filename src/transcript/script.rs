//! The transcript format: parsing files and documentation blocks into steps, and the
//! patterns (regular expressions) that expected lines are matched with.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use regex::Regex;

/// How long an expectation waits for output when the transcript sets no `# timeout:`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long `@ quiet` (and the final check for leftover output) waits for stray output.
pub const DEFAULT_SETTLE: Duration = Duration::from_millis(200);

/// How many lines of the dialogue a [`Failure`](super::Failure) shows.
pub const DIALOGUE_LINES: usize = 20;

/// A parsed transcript.
#[derive(Clone, Debug)]
pub struct Transcript {
    /// Where it came from (a file name), used in messages.
    pub(crate) name: String,
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
    pub(crate) fn new(source: &str) -> Result<Pattern, regex::Error> {
        Ok(Pattern {
            source: source.to_string(),
            regex: Regex::new(&format!("^(?:{source})$"))?,
        })
    }

    /// The expression as written in the transcript.
    pub(crate) fn source(&self) -> &str {
        &self.source
    }

    /// Whether `line` matches as a whole.
    pub(crate) fn matches(&self, line: &str) -> bool {
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
    pub message: Problem,
}

/// What is wrong with a transcript, by stage: a header, a line, the order of the steps, the
/// file or a document's block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// `# timeout:` after the first step.
    LateTimeout,
    /// A second `# timeout:` header.
    SecondTimeout,
    /// A timeout that is not a positive number of seconds (the value as written).
    BadTimeout(String),
    /// A `<~` or `<*` line whose regular expression does not compile.
    BadPattern {
        /// The expression as written.
        source: String,
        /// Why it does not compile.
        reason: String,
    },
    /// An `@` directive other than `eof`, `exit` and `quiet`.
    UnknownDirective(String),
    /// A line of no kind the format knows (the line as written).
    UnknownLine(String),
    /// `>` after `@ eof`.
    SendAfterEof,
    /// `>` after `@ exit`.
    SendAfterExit,
    /// A second `@ eof`.
    SecondEof,
    /// The file cannot be read.
    Unreadable(String),
    /// A ```` ```transcript ```` block of a document that is not closed.
    UnclosedBlock,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::LateTimeout => f.write_str("`# timeout:` must come before the first step"),
            Problem::SecondTimeout => f.write_str("a second `# timeout:` header"),
            Problem::BadTimeout(value) => write!(
                f,
                "bad timeout `{value}`: expected a positive number of seconds"
            ),
            Problem::BadPattern { source, reason } => {
                write!(f, "bad regular expression `{source}`: {reason}")
            }
            Problem::UnknownDirective(other) => write!(
                f,
                "unknown directive `@ {other}`: expected `@ eof`, `@ exit` or `@ quiet`"
            ),
            Problem::UnknownLine(raw) => write!(
                f,
                "cannot read line `{raw}`: a line is blank or starts with `#`, `> `, `< `, \
                 `<~ `, `<* ` or `@ `"
            ),
            Problem::SendAfterEof => f.write_str("`>` after `@ eof`: the input is closed"),
            Problem::SendAfterExit => f.write_str("`>` after `@ exit`: the engine has exited"),
            Problem::SecondEof => f.write_str("a second `@ eof`"),
            Problem::Unreadable(e) => write!(f, "cannot read: {e}"),
            Problem::UnclosedBlock => f.write_str("```transcript block is not closed"),
        }
    }
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
        let error = |message: Problem| FormatError {
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
                    return Err(error(Problem::LateTimeout));
                }
                if timeout.is_some() {
                    return Err(error(Problem::SecondTimeout));
                }
                timeout = Some(parse_timeout(value.trim()).map_err(error)?);
            }
            continue;
        }
        let action = parse_action(raw).map_err(error)?;
        match action {
            Action::Send(_) if input_closed => {
                return Err(error(Problem::SendAfterEof));
            }
            Action::Send(_) if exited => {
                return Err(error(Problem::SendAfterExit));
            }
            Action::Eof if input_closed => {
                return Err(error(Problem::SecondEof));
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
        message: Problem::Unreadable(e.to_string()),
    })?;
    parse(&name, &text)
}

fn parse_timeout(value: &str) -> Result<Duration, Problem> {
    value
        .parse::<f64>()
        .ok()
        .filter(|secs| secs.is_finite() && *secs > 0.0)
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .ok_or_else(|| Problem::BadTimeout(value.to_string()))
}

fn parse_action(raw: &str) -> Result<Action, Problem> {
    let (head, rest) = raw.split_once(' ').unwrap_or((raw, ""));
    let pattern = |source: &str| {
        Pattern::new(source).map_err(|e| Problem::BadPattern {
            source: source.to_string(),
            reason: e.to_string(),
        })
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
            other => Err(Problem::UnknownDirective(other.to_string())),
        },
        _ => Err(Problem::UnknownLine(raw.to_string())),
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
            message: Problem::UnclosedBlock,
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
