//! An engine process seen from the referee: started through the shell, its output read line by
//! line on a thread and sent, tagged with its seat, into the game's one event channel; and what
//! each dialect's lines mean to a referee ([`meaning()`]).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

use super::seat::EngineSpec;

mod meaning;
pub(crate) use meaning::{Meaning, Thought, meaning};

/// Longest line an engine may send, in bytes without the line ending; a longer line forfeits.
pub(crate) const MAX_LINE: usize = 64 * 1024;
/// Most lines an engine may send within one second (counted in windows of one second).
pub(crate) const MAX_LINES_PER_SECOND: u32 = 20_000;
/// Most bytes an engine may send within one second (counted in windows of one second).
pub(crate) const MAX_BYTES_PER_SECOND: usize = 16 * 1024 * 1024;
/// Events a game's channel holds before the readers of its seats block (so at most this many
/// lines of at most [`MAX_LINE`] bytes wait between the engines and the referee).
pub(crate) const CHANNEL_EVENTS: usize = 256;

/// Lines sent to an engine that may wait unread before the referee stops writing to it.
pub(crate) const WRITE_QUEUE: usize = 1024;
/// Bytes sent to an engine that may wait unread before the referee stops writing to it.
pub(crate) const WRITE_QUEUE_BYTES: usize = 8 * 1024 * 1024;

/// Something a seat said, or that its output ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Said {
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
pub(crate) struct Event {
    /// The seat (0: White, 1: Black).
    pub(crate) seat: usize,
    /// When the referee received it.
    pub(crate) at: Instant,
    /// What was said.
    pub(crate) said: Said,
}

/// A running engine.
pub(crate) struct Process {
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
    pub(crate) fn spawn(
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
        die_with_parent(&mut command);
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
    pub(crate) fn send(&mut self, line: &str) -> bool {
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
    pub(crate) fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// How the process ended, for a forfeit reason: `exited (STATUS)`, or `closed its output`
    /// when it has not exited within 200 ms of its output closing.
    pub(crate) fn ending(&mut self) -> String {
        let until = super::later(Instant::now(), Duration::from_millis(200));
        while self.exit_status().is_none() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.exit_status()
            .map_or("closed its output".to_string(), |s| format!("exited ({s})"))
    }

    /// Asks the engine to quit, waits up to `grace` for it, then kills it.
    pub(crate) fn stop(&mut self, quit: &str, grace: Duration) {
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

/// Linux: the engine gets `SIGKILL` when the thread that started it ends, so that a referee or
/// GUI that is killed outright (`SIGKILL`, where no `Drop` runs) leaves no engine behind. The
/// signal survives the shell's `exec`; the parent's death before `prctl` is caught by comparing
/// the parent's id with the one that forked.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: std::process::id() is taken before fork; the closure only calls the
    // async-signal-safe `prctl` and `getppid`.
    let parent = i32::try_from(std::process::id()).unwrap_or(0);
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                return Err(std::io::Error::other(
                    "the referee ended while it started an engine",
                ));
            }
            Ok(())
        });
    }
}

/// Elsewhere engines are stopped on `Drop` only.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_: &mut Command) {}

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
