//! An engine process seen from the referee: started through the shell, its output read line by
//! line on a thread and sent, tagged with its seat, into the game's one event channel; and what
//! each dialect's lines mean to a referee.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1, take_while1};
use nom::character::complete::{char, i32 as dec_i32, space0, space1};
use nom::combinator::{all_consuming, map, opt, recognize, rest, value};
use nom::multi::separated_list0;
use nom::sequence::{delimited, preceded, separated_pair};
use nom::{IResult, Parser};

use super::seat::{Dialect, EngineSpec};

/// Longest line an engine may send, in bytes without the line ending; a longer line forfeits.
pub const MAX_LINE: usize = 64 * 1024;
/// Most lines an engine may send within one second (counted in windows of one second).
pub const MAX_LINES_PER_SECOND: u32 = 20_000;
/// Most bytes an engine may send within one second (counted in windows of one second).
pub const MAX_BYTES_PER_SECOND: usize = 16 * 1024 * 1024;
/// Events a game's channel holds before the readers of its seats block (so at most this many
/// lines of at most [`MAX_LINE`] bytes wait between the engines and the referee).
pub const CHANNEL_EVENTS: usize = 256;

/// Lines sent to an engine that may wait unread before the referee stops writing to it.
pub const WRITE_QUEUE: usize = 1024;
/// Bytes sent to an engine that may wait unread before the referee stops writing to it.
pub const WRITE_QUEUE_BYTES: usize = 8 * 1024 * 1024;

/// Something a seat said, or that its output ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// A line of output (without the line ending).
    Line(String),
    /// The output ended: the process exited or closed standard output.
    Closed,
    /// The seat broke a bound on its output (the reason, e.g. `flooded: …`); nothing more of
    /// it is read.
    Overflow(String),
}

/// An event of a game: who, when, what.
#[derive(Clone, Debug)]
pub struct Event {
    /// The seat (0: White, 1: Black).
    pub seat: usize,
    /// When the referee received it.
    pub at: Instant,
    /// What was said.
    pub said: Said,
}

/// A running engine.
pub struct Process {
    child: Child,
    /// The lines for the writer thread; `None` once the engine no longer reads.
    stdin: Option<SyncSender<String>>,
    /// Bytes sent but not yet written to the engine.
    unread: Arc<AtomicUsize>,
}

impl Process {
    /// Starts `sh -c 'exec CMD'` with its output read into `events` as seat `seat`.
    ///
    /// # Errors
    /// The shell cannot be started.
    pub fn spawn(
        spec: &EngineSpec,
        seat: usize,
        events: SyncSender<Event>,
    ) -> std::io::Result<Process> {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("exec {}", spec.cmd))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        thread::spawn(move || read_lines(stdout, seat, &events));
        let (lines, to_write) = sync_channel(WRITE_QUEUE);
        let unread = Arc::new(AtomicUsize::new(0));
        let unread_by_writer = Arc::clone(&unread);
        thread::spawn(move || write_lines(stdin, &to_write, &unread_by_writer));
        Ok(Process {
            child,
            stdin: Some(lines),
            unread,
        })
    }

    /// Sends one line without waiting for the engine to read it; `false` when the engine no
    /// longer reads (its input is closed, or [`WRITE_QUEUE`] lines or [`WRITE_QUEUE_BYTES`]
    /// bytes wait unread: then nothing more is sent, and the engine forfeits when its answer
    /// does not come).
    pub fn send(&mut self, line: &str) -> bool {
        let Some(stdin) = self.stdin.as_ref() else {
            return false;
        };
        let queued = self.unread.load(Ordering::Acquire);
        let ok = queued.saturating_add(line.len()) <= WRITE_QUEUE_BYTES && {
            self.unread.fetch_add(line.len(), Ordering::AcqRel);
            stdin.try_send(line.to_string()).is_ok()
        };
        if !ok {
            self.stdin = None;
        }
        ok
    }

    /// The exit status, if the process has ended.
    pub fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Asks the engine to quit, waits up to `grace` for it, then kills it.
    pub fn stop(&mut self, quit: &str, grace: Duration) {
        self.send(quit);
        self.stdin = None;
        let until = super::later(Instant::now(), grace);
        while Instant::now() < until {
            if self.exit_status().is_some() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.exit_status().is_none() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Writes the lines sent to an engine, each with its newline, until the queue is closed (then
/// the engine's input is closed) or the engine no longer reads. A thread of its own: an engine
/// that does not read blocks this thread, never the referee.
fn write_lines(mut stdin: ChildStdin, lines: &Receiver<String>, unread: &AtomicUsize) {
    for line in lines {
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if written.is_err() {
            return;
        }
        unread.fetch_sub(line.len(), Ordering::AcqRel);
    }
}

/// Reads the engine's output as lines into `events` until it ends, the game is over (the
/// channel is gone), or it breaks a bound: a line longer than [`MAX_LINE`], more than
/// [`MAX_LINES_PER_SECOND`] lines or [`MAX_BYTES_PER_SECOND`] bytes in a second. Then it sends
/// [`Said::Overflow`] and stops reading, so the engine's writes block; the referee forfeits it.
/// It holds at most one line of [`MAX_LINE`] bytes, whatever the engine writes.
fn read_lines(stdout: impl Read, seat: usize, events: &SyncSender<Event>) {
    let mut reader = BufReader::with_capacity(MAX_LINE, stdout);
    let mut buf = Vec::with_capacity(1024);
    let mut window = Instant::now();
    let (mut lines, mut bytes) = (0u32, 0usize);
    let send = |said| {
        events
            .send(Event {
                seat,
                at: Instant::now(),
                said,
            })
            .is_ok()
    };
    let last = loop {
        buf.clear();
        // One byte more than a line may hold (its newline): a longer read is an overlong line.
        let limit = (MAX_LINE + 2) as u64;
        match (&mut reader).take(limit).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break Said::Closed,
            Ok(n) => {
                let mut line = &buf[..];
                if line.last() == Some(&b'\n') {
                    line = &line[..line.len() - 1];
                }
                if line.last() == Some(&b'\r') {
                    line = &line[..line.len() - 1];
                }
                if line.len() > MAX_LINE {
                    break Said::Overflow(format!("sent a line longer than {MAX_LINE} bytes"));
                }
                if window.elapsed() >= Duration::from_secs(1) {
                    window = Instant::now();
                    (lines, bytes) = (0, 0);
                }
                lines += 1;
                bytes += n;
                if lines > MAX_LINES_PER_SECOND {
                    break Said::Overflow(format!(
                        "flooded: more than {MAX_LINES_PER_SECOND} lines in a second"
                    ));
                }
                if bytes > MAX_BYTES_PER_SECOND {
                    break Said::Overflow(format!(
                        "flooded: more than {MAX_BYTES_PER_SECOND} bytes in a second"
                    ));
                }
                let text = String::from_utf8_lossy(line).into_owned();
                if !send(Said::Line(text)) {
                    return;
                }
            }
        }
    };
    let _ = send(last);
}

/// What an engine's line means to the referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// Its move (`bestmove M`, `move M`), as written.
    Move(String),
    /// A commitment to its sealed move (`info string commit D`, `commit D`).
    Commit(String),
    /// The opening of its commitment (`info string reveal M N`, `reveal M N`).
    Opening(String, String),
    /// A result claim (CECP `1-0 {…}` …): the result and the reason.
    Claim(String, String),
    /// It resigns (CECP `resign`).
    Resign,
    /// A score for the engine's side, in centipawns (mate scores clamped to ±30000).
    Score(i32),
    /// It refused a move of ours (`Illegal move …`): it no longer follows the game.
    Refusal(String),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `pong N`.
    Pong(String),
    /// CECP `feature …` pairs.
    Features(Vec<(String, String)>),
    /// UCI `option name N …`: the option's name.
    OptionName(String),
    /// UCI `id name N` / CECP `feature myname`: the engine's own name.
    IdName(String),
    /// A complaint about a command of ours (UCI `info string error …` or Stockfish's `No such
    /// option: …`, CECP `Error (…): …`): ignored in play, but a refused option stops a match.
    Complaint(String),
    /// Anything a referee may ignore (other `info`, comments, `telluser` …).
    Chatter,
    /// A line that is not of the dialect at all.
    Unknown,
}

/// Reads a line of the given dialect.
pub fn meaning(dialect: Dialect, line: &str) -> Meaning {
    let parsed = match dialect {
        Dialect::Uci => uci_line(line.trim()),
        Dialect::Cecp => cecp_line(line.trim()),
    };
    parsed.map_or(Meaning::Unknown, |(_, m)| m)
}

fn token(input: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c.is_whitespace()).parse(input)
}

/// `info string WORD ` (the prefix of the commit-reveal lines in UCI).
fn info_string<'a>(
    word: &'static str,
) -> impl Parser<&'a str, Output = (), Error = nom::error::Error<&'a str>> {
    value(
        (),
        (
            tag("info"),
            space1,
            tag("string"),
            space1,
            tag(word),
            space1,
        ),
    )
}

fn uci_line(input: &str) -> IResult<&str, Meaning> {
    alt((
        map(preceded((tag("bestmove"), space1), token), |m: &str| {
            Meaning::Move(m.to_string())
        }),
        // `bestmove` with nothing after it is an empty move: garbage, not chatter.
        value(Meaning::Move(String::new()), all_consuming(tag("bestmove"))),
        map(preceded(info_string("commit"), token), |d: &str| {
            Meaning::Commit(d.to_string())
        }),
        map(
            preceded(info_string("reveal"), separated_pair(token, space1, token)),
            |(m, n): (&str, &str)| Meaning::Opening(m.to_string(), n.to_string()),
        ),
        map(
            recognize((
                tag("info"),
                space1,
                tag("string"),
                space1,
                tag("error"),
                rest,
            )),
            |l: &str| Meaning::Complaint(l.to_string()),
        ),
        map(recognize((tag("No such option"), rest)), |l: &str| {
            Meaning::Complaint(l.to_string())
        }),
        map(preceded((tag("info"), space0), rest), |info: &str| {
            uci_score(info).map_or(Meaning::Chatter, Meaning::Score)
        }),
        value(Meaning::UciOk, tag("uciok")),
        value(Meaning::ReadyOk, tag("readyok")),
        map(
            preceded((tag("id"), space1, tag("name"), space1), rest),
            |n: &str| Meaning::IdName(n.trim().to_string()),
        ),
        value(Meaning::Chatter, tag("id")),
        map(
            preceded((tag("option"), space1, tag("name"), space1), rest),
            |o: &str| {
                let name = o.split(" type ").next().unwrap_or(o);
                Meaning::OptionName(name.trim().to_string())
            },
        ),
        value(
            Meaning::Chatter,
            alt((tag("copyprotection"), tag("registration"))),
        ),
        map(preceded((tag("pong"), space1), rest), |n: &str| {
            Meaning::Pong(n.to_string())
        }),
    ))
    .parse(input)
}

/// The score in an `info` line: the last `score cp N` or `score mate N` in it.
fn uci_score(info: &str) -> Option<i32> {
    let words: Vec<&str> = info.split_whitespace().collect();
    let mut found = None;
    for w in words.windows(3) {
        if w[0] == "score" {
            match (w[1], w[2].parse::<i32>()) {
                ("cp", Ok(cp)) => found = Some(cp.clamp(-30_000, 30_000)),
                ("mate", Ok(n)) => found = Some(if n > 0 { 30_000 } else { -30_000 }),
                _ => {}
            }
        }
    }
    found
}

fn feature_value(input: &str) -> IResult<&str, &str> {
    alt((
        delimited(char('"'), take_while1(|c| c != '"'), char('"')),
        value("", tag("\"\"")),
        token,
    ))
    .parse(input)
}

fn feature_pair(input: &str) -> IResult<&str, (String, String)> {
    map(
        separated_pair(
            take_while1(|c: char| c != '=' && !c.is_whitespace()),
            char('='),
            feature_value,
        ),
        |(k, v): (&str, &str)| (k.to_string(), v.to_string()),
    )
    .parse(input)
}

fn cecp_line(input: &str) -> IResult<&str, Meaning> {
    alt((
        map(preceded((tag("move"), space1), token), |m: &str| {
            Meaning::Move(m.to_string())
        }),
        value(Meaning::Move(String::new()), all_consuming(tag("move"))),
        map(preceded((tag("commit"), space1), token), |d: &str| {
            Meaning::Commit(d.to_string())
        }),
        map(
            preceded(
                (tag("reveal"), space1),
                separated_pair(token, space1, token),
            ),
            |(m, n): (&str, &str)| Meaning::Opening(m.to_string(), n.to_string()),
        ),
        map(
            (
                alt((tag("1-0"), tag("0-1"), tag("1/2-1/2"))),
                opt(preceded(
                    space0,
                    delimited(char('{'), take_till1(|c| c == '}'), opt(char('}'))),
                )),
            ),
            |(r, why): (&str, Option<&str>)| {
                Meaning::Claim(r.to_string(), why.unwrap_or("").to_string())
            },
        ),
        value(Meaning::Resign, tag("resign")),
        map(
            preceded(
                (tag("feature"), space1),
                separated_list0(space1, feature_pair),
            ),
            Meaning::Features,
        ),
        map(preceded((tag("pong"), space1), rest), |n: &str| {
            Meaning::Pong(n.trim().to_string())
        }),
        map(preceded(tag("Illegal move"), rest), |r: &str| {
            Meaning::Refusal(r.trim().to_string())
        }),
        // Complaints about other commands are logged, not fatal.
        map(recognize((tag("Error"), rest)), |l: &str| {
            Meaning::Complaint(l.to_string())
        }),
        // A thinking line: depth, score, time, nodes, pv.
        map(
            preceded(
                (
                    take_while1(|c: char| c.is_ascii_digit()),
                    opt(char('.')),
                    space1,
                ),
                dec_i32,
            ),
            |score| Meaning::Score(score.clamp(-30_000, 30_000)),
        ),
        value(
            Meaning::Chatter,
            alt((
                tag("#"),
                tag("telluser"),
                tag("tellusererror"),
                tag("tellopponent"),
                tag("tellothers"),
                tag("tellall"),
                tag("tellics"),
                tag("askuser"),
                tag("offer"),
                tag("setup"),
                tag("piece"),
                tag("highlight"),
                tag("hint"),
            )),
        ),
    ))
    .parse(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_lines() {
        let m = |l| meaning(Dialect::Uci, l);
        assert_eq!(
            m("bestmove c2c7,h1h2 ponder x"),
            Meaning::Move("c2c7,h1h2".into())
        );
        assert_eq!(
            m("info depth 3 score cp -41 nodes 9 pv a"),
            Meaning::Score(-41)
        );
        assert_eq!(m("info depth 3 score mate -2"), Meaning::Score(-30_000));
        assert_eq!(m("info string commit abc"), Meaning::Commit("abc".into()));
        assert_eq!(
            m("info string reveal b2b3 00ff"),
            Meaning::Opening("b2b3".into(), "00ff".into())
        );
        assert_eq!(m("info string strategy a:1"), Meaning::Chatter);
        assert_eq!(
            m("option name Hash type spin"),
            Meaning::OptionName("Hash".into())
        );
        assert_eq!(m("id name Quill 0.1"), Meaning::IdName("Quill 0.1".into()));
        assert_eq!(m("uciok"), Meaning::UciOk);
        assert_eq!(m("bestmove"), Meaning::Move(String::new()));
        assert_eq!(m("bestmove "), Meaning::Move(String::new()));
        assert_eq!(m("bestmoves e2e4"), Meaning::Unknown);
        assert_eq!(m("hello"), Meaning::Unknown);
    }

    #[test]
    fn cecp_lines() {
        let m = |l| meaning(Dialect::Cecp, l);
        assert_eq!(m("move e2e4"), Meaning::Move("e2e4".into()));
        assert_eq!(
            m("0-1 {White resigns}"),
            Meaning::Claim("0-1".into(), "White resigns".into())
        );
        assert_eq!(
            m("1/2-1/2"),
            Meaning::Claim("1/2-1/2".into(), String::new())
        );
        assert_eq!(m("12 -35 100 5000 e2e4 e7e5"), Meaning::Score(-35));
        assert_eq!(
            m("feature myname=\"Quill 0.1\" sealed=1 done=0"),
            Meaning::Features(vec![
                ("myname".into(), "Quill 0.1".into()),
                ("sealed".into(), "1".into()),
                ("done".into(), "0".into())
            ])
        );
        assert_eq!(m("Illegal move: e2e5"), Meaning::Refusal(": e2e5".into()));
        assert_eq!(m("# strategy a:1"), Meaning::Chatter);
        assert_eq!(m("resign"), Meaning::Resign);
        assert_eq!(m("pong 3"), Meaning::Pong("3".into()));
        assert_eq!(m("move "), Meaning::Move(String::new()));
        assert_eq!(m("moves"), Meaning::Unknown);
        assert_eq!(m("zzz"), Meaning::Unknown);
    }
}
