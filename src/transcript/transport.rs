//! Transports: how the runner talks to an engine, in-process or as a child process.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::decode_line;
use crate::session::{Input, Session};

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
    pub(crate) fn with_session(session: Session, events: Receiver<Input>) -> InProcess {
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

pub(super) fn deadline_after(timeout: Duration) -> Instant {
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
