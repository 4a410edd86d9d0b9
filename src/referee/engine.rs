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

use super::seat::{Dialect, EngineSpec};
use crate::protocol::CommandError;

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

    /// How the process ended, for a forfeit reason: `exited (STATUS)`, or `closed its output`
    /// when it has not exited within 200 ms of its output closing.
    pub fn ending(&mut self) -> String {
        let until = super::later(Instant::now(), Duration::from_millis(200));
        while self.exit_status().is_none() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.exit_status()
            .map_or("closed its output".to_string(), |s| format!("exited ({s})"))
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

/// Reads a line of the given dialect with the protocol's own parsers
/// ([`crate::protocol::uci::parse_engine_line`], [`crate::protocol::cecp::parse_engine_line`]).
/// A line of a known kind with broken arguments keeps the meaning of its first word, read
/// from the text as written (`bestmove zz` is still a move, and a bad one).
pub fn meaning(dialect: Dialect, line: &str) -> Meaning {
    let line = line.trim();
    match dialect {
        Dialect::Uci => uci_meaning(line),
        Dialect::Cecp => cecp_meaning(line),
    }
}

/// The `n`th word of a line (0: the command word), or the empty string.
fn word(line: &str, n: usize) -> String {
    line.split_whitespace()
        .nth(n)
        .unwrap_or_default()
        .to_owned()
}

/// The text of a line after its first word, trimmed.
fn after_word(line: &str) -> String {
    line.split_once(char::is_whitespace)
        .map_or("", |(_, rest)| rest.trim())
        .to_owned()
}

/// A score for the referee: centipawns clamped to ±30000, mates as ±30000.
fn clamp_score(cp: i64) -> i32 {
    i32::try_from(cp.clamp(-30_000, 30_000)).unwrap_or_default()
}

fn uci_meaning(line: &str) -> Meaning {
    use crate::player::Score;
    use crate::protocol::uci::{EngineLine as L, Info, parse_engine_line};
    if line.starts_with("No such option") {
        // Stockfish's complaint, outside the protocol.
        return Meaning::Complaint(line.to_owned());
    }
    match parse_engine_line(line) {
        Ok(L::BestMove { mv, .. }) => {
            Meaning::Move(mv.map_or_else(|| "(none)".to_owned(), |m| m.to_string()))
        }
        Ok(L::Commit(digest)) => Meaning::Commit(digest),
        Ok(L::Reveal { mv, nonce }) => Meaning::Opening(mv.to_string(), nonce),
        Ok(L::Error(_)) => Meaning::Complaint(line.to_owned()),
        Ok(L::Info(Info { score, .. })) => score.map_or(Meaning::Chatter, |s| {
            Meaning::Score(match s.value {
                Score::Cp(cp) => clamp_score(i64::from(cp)),
                Score::Mate(n) if n > 0 => 30_000,
                Score::Mate(_) => -30_000,
            })
        }),
        Ok(L::InfoString(text)) => sealed_fallback(&text).unwrap_or(Meaning::Chatter),
        Ok(L::UciOk) => Meaning::UciOk,
        Ok(L::ReadyOk) => Meaning::ReadyOk,
        Ok(L::IdName(name)) => Meaning::IdName(name),
        Ok(L::Option(option)) => Meaning::OptionName(option.name),
        Ok(L::IdAuthor(_) | L::Strategy(_) | L::CopyProtection(_) | L::Registration(_)) => {
            Meaning::Chatter
        }
        Err(CommandError::Malformed { command, .. }) => match command.as_str() {
            "bestmove" => Meaning::Move(word(line, 1)),
            "uciok" => Meaning::UciOk,
            "readyok" => Meaning::ReadyOk,
            // A principal line in a notation of its own: the figures before it still count.
            "info" => match line.split_once(" pv ") {
                Some((figures, _)) => uci_meaning(figures),
                None => Meaning::Chatter,
            },
            "option" => match line.split_once(" name ") {
                Some((_, rest)) => {
                    let name = rest.split(" type ").next().unwrap_or(rest);
                    Meaning::OptionName(name.trim().to_owned())
                }
                None => Meaning::Chatter,
            },
            _ => Meaning::Chatter,
        },
        Err(CommandError::Unknown(w)) if w == "pong" => Meaning::Pong(after_word(line)),
        Err(CommandError::Unknown(_) | CommandError::Empty) => Meaning::Unknown,
    }
}

/// The sealed extension's lines that did not read as such (`info string commit A B`,
/// `info string reveal BAD N`): a commitment or an opening all the same, so that the
/// referee checks it and forfeits a wrong one.
fn sealed_fallback(text: &str) -> Option<Meaning> {
    if let Some(rest) = text.strip_prefix("commit ") {
        return Some(Meaning::Commit(word(rest, 0)));
    }
    let rest = text.strip_prefix("reveal ")?;
    let mut words = rest.split_whitespace();
    match (words.next(), words.next()) {
        (Some(mv), Some(nonce)) => Some(Meaning::Opening(mv.to_owned(), nonce.to_owned())),
        _ => None,
    }
}

fn cecp_meaning(line: &str) -> Meaning {
    use crate::protocol::cecp::{EngineLine as L, GameResult, parse_engine_line};
    let refusal = || match line.strip_prefix("Illegal move") {
        Some(rest) => Meaning::Refusal(rest.trim().to_owned()),
        None => Meaning::Unknown,
    };
    match parse_engine_line(line) {
        Ok(L::Move(mv)) => Meaning::Move(mv.to_string()),
        Ok(L::Commit(digest)) => Meaning::Commit(digest),
        Ok(L::Reveal { mv, nonce }) => Meaning::Opening(mv.to_string(), nonce),
        Ok(L::Result {
            result: GameResult::Unknown,
            ..
        }) => Meaning::Unknown,
        Ok(L::Result { result, comment }) => {
            Meaning::Claim(result.to_string(), comment.unwrap_or_default())
        }
        Ok(L::Resign) => Meaning::Resign,
        Ok(L::Feature(features)) => Meaning::Features(
            features
                .iter()
                .map(|f| (f.name.clone(), f.text().to_owned()))
                .collect(),
        ),
        Ok(L::Pong(n)) => Meaning::Pong(n),
        Ok(L::IllegalMove { .. }) => refusal(),
        Ok(L::Error { .. }) => Meaning::Complaint(line.to_owned()),
        Ok(L::Thinking(t)) => Meaning::Score(clamp_score(t.score)),
        Ok(
            L::TellUserError(_)
            | L::TellUser(_)
            | L::Stat01 { .. }
            | L::Strategy(_)
            | L::Comment(_)
            | L::Hint(_)
            | L::Setup(_)
            | L::Piece(_)
            | L::Highlight(_),
        ) => Meaning::Chatter,
        Err(CommandError::Malformed { command, .. }) => match command.as_str() {
            "move" => Meaning::Move(word(line, 1)),
            "commit" => Meaning::Commit(word(line, 1)),
            "reveal" => match (word(line, 1), word(line, 2)) {
                (mv, nonce) if !nonce.is_empty() => Meaning::Opening(mv, nonce),
                _ => Meaning::Unknown,
            },
            "1-0" | "0-1" | "1/2-1/2" => Meaning::Claim(command, String::new()),
            "resign" => Meaning::Resign,
            "feature" => Meaning::Features(Vec::new()),
            "pong" => Meaning::Pong(after_word(line)),
            "Illegal" => refusal(),
            "Error" => Meaning::Complaint(line.to_owned()),
            "*" => Meaning::Unknown,
            w if w.starts_with(|c: char| c.is_ascii_digit()) => {
                match crate::protocol::whole_i64(&word(line, 1)) {
                    Some(score) => Meaning::Score(clamp_score(score)),
                    None => Meaning::Unknown,
                }
            }
            _ => Meaning::Chatter,
        },
        Err(CommandError::Unknown(w))
            if w.starts_with('#')
                || [
                    "tellopponent",
                    "tellothers",
                    "tellall",
                    "tellics",
                    "tellicsnoalias",
                    "askuser",
                    "offer",
                ]
                .contains(&w.as_str()) =>
        {
            Meaning::Chatter
        }
        Err(CommandError::Unknown(_) | CommandError::Empty) => Meaning::Unknown,
    }
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
