//! The protocol session: turns input lines (and events from a running search) into output
//! lines. It never touches stdin or stdout; `main.rs` and the transcript runner drive it.
//!
//! The first command chooses the dialect: `xboard` selects CECP; anything else is read as UCI
//! (as Stockfish does, so a person can type `d` or `go perft 3` straight away).

mod cecp;
mod core;
mod error;
mod plies;
mod uci;
mod worker;

use std::sync::mpsc::Sender;

pub use self::core::{Core, MAX_PERFT_DEPTH, PerftDivide};
pub use self::error::PositionError;
use self::worker::{Job, Worker};

/// Longest input line a session takes, in bytes (a `position` with thousands of turns fits
/// many times over). A driver drops a longer line unread and reports it as
/// [`Input::Overlong`].
pub const MAX_INPUT_LINE: usize = 1 << 20;

/// Longest output line, in bytes: only an echo of the GUI's input could be longer, and is cut
/// there (see `clean_output`).
pub const MAX_OUTPUT_LINE: usize = 4096;

/// What a session reacts to.
#[derive(Debug)]
pub enum Input {
    /// One line from the GUI, without its line ending.
    Line(String),
    /// A line longer than [`MAX_INPUT_LINE`] that the driver dropped; its length in bytes.
    Overlong(u64),
    /// The end of the input stream.
    Eof,
    /// An event from a search thread the session started.
    Search(SearchEvent),
}

/// What a worker thread reports.
#[derive(Debug)]
pub enum SearchEvent {
    /// The worker with this tag has completed an iteration of its search.
    Info(u64, Box<crate::player::Choice>),
    /// The worker with this tag has finished; its result is taken by joining it.
    Finished(u64),
}

/// What a running worker's result is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// A UCI `go`; `hold`: keep the bestmove until `stop` or `ponderhit`.
    UciGo { hold: bool },
    /// A CECP move of the engine.
    CecpMove,
    /// A CECP `hint`.
    CecpHint,
    /// A CECP analysis line.
    CecpAnalyze,
    /// perft, in either dialect.
    Perft,
}

/// The dialect of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// No dialect chosen yet.
    Undecided,
    /// UCI.
    Uci,
    /// CECP (XBoard) version 2.
    Cecp,
}

/// A move chosen in commit–reveal mode, waiting for the opponent's move before it is shown.
#[derive(Debug)]
struct PendingReveal {
    /// The lines printed once the opponent's move arrives.
    lines: Vec<String>,
}

/// A protocol session.
pub struct Session {
    events: Sender<Input>,
    worker: Option<(Worker, Purpose)>,
    next_worker: u64,
    dialect: Dialect,
    core: Core,
    finished: bool,
    reveal: Option<PendingReveal>,
    uci: uci::State,
    cecp: cecp::State,
    /// Depth of the running perft, for its closing line.
    perft_depth: u32,
    /// Depth and nodes of the last iteration of the running search shown in full, so that
    /// its final answer does not print the same analysis again.
    reported: Option<(u32, u64)>,
}

impl Session {
    /// Makes a session; a search it starts sends its events to `events`, which the driver must
    /// pass back through [`Session::handle`].
    pub fn new(events: Sender<Input>) -> Session {
        Session {
            events,
            worker: None,
            next_worker: 0,
            dialect: Dialect::Undecided,
            core: Core::new(),
            finished: false,
            reveal: None,
            uci: uci::State::default(),
            cecp: cecp::State::default(),
            perft_depth: 0,
            reported: None,
        }
    }

    /// Handles one input and returns the lines to write, in order. No line holds a control
    /// character or is longer than [`MAX_OUTPUT_LINE`] bytes, whatever the input was.
    pub fn handle(&mut self, input: Input) -> Vec<String> {
        let mut out = self.react(input);
        for line in &mut out {
            clean_output(line);
        }
        out
    }

    fn react(&mut self, input: Input) -> Vec<String> {
        match input {
            Input::Overlong(bytes) => {
                if self.finished {
                    return Vec::new();
                }
                vec![self.error_line(&format!(
                    "a line of {bytes} bytes is longer than the maximum {MAX_INPUT_LINE}; ignored"
                ))]
            }
            Input::Eof => {
                let mut out = Vec::new();
                self.halt(true, &mut out);
                self.finished = true;
                out
            }
            Input::Search(SearchEvent::Info(id, choice)) => self.progress(id, &choice),
            Input::Search(SearchEvent::Finished(id)) => {
                let mut out = Vec::new();
                if self.worker.as_ref().is_some_and(|(w, _)| w.id() == id) {
                    self.collect(false, true, &mut out);
                }
                out
            }
            Input::Line(line) => self.line(line),
        }
    }

    /// A search's progress report, shown as the dialect and the search's purpose want.
    fn progress(&mut self, id: u64, choice: &crate::player::Choice) -> Vec<String> {
        let mut out = Vec::new();
        if let Some((worker, purpose)) = &self.worker
            && worker.id() == id
        {
            if let Some((_, depth, nodes)) = &mut self.cecp.progress {
                (*depth, *nodes) = (choice.depth, choice.nodes);
            }
            if !self.secret() {
                self.reported = Some((choice.depth, choice.nodes));
            }
            match purpose {
                Purpose::UciGo { .. } => out.push(uci::info_line(choice, self.secret())),
                Purpose::CecpMove | Purpose::CecpAnalyze => {
                    let show = self.cecp.post || *purpose == Purpose::CecpAnalyze;
                    self.cecp_thinking(choice, show, &mut out);
                }
                Purpose::CecpHint | Purpose::Perft => {}
            }
        }
        out
    }

    /// A line from the GUI; the first one chooses the dialect.
    fn line(&mut self, mut line: String) -> Vec<String> {
        if self.finished {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.dialect == Dialect::Undecided {
            // A byte-order mark some editors and Windows tools put before the first
            // line is not part of the command.
            if let Some(rest) = line.strip_prefix('\u{feff}') {
                line = rest.to_string();
            }
            self.dialect = if line.trim() == "xboard" {
                Dialect::Cecp
            } else {
                Dialect::Uci
            };
        }
        match self.dialect {
            Dialect::Cecp => self.cecp_line(&line, &mut out),
            _ => self.uci_line(&line, &mut out),
        }
        out
    }
    /// Starts on `variant` instead of the default one (`quill --variant`), before any input.
    pub fn start_on(&mut self, variant: crate::variant::Variant) {
        self.core.set_variant(variant);
    }

    /// Whether the session has ended (`quit` or end of input): the driver stops reading.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Whether a search is running, whose events the driver must still deliver.
    pub fn is_busy(&self) -> bool {
        self.worker.is_some()
    }

    /// Starts a job on a worker thread; its answer comes when it finishes (or is halted).
    fn start(&mut self, mut job: Job, purpose: Purpose, out: &mut Vec<String>) {
        self.next_worker += 1;
        if let Job::Think { limits, .. } = &mut job {
            limits.contempt = self.core.contempt();
        }
        match Worker::start(
            self.next_worker,
            job,
            self.core.game().clone(),
            self.core.history_keys(),
            self.core.rng(),
            self.core.table(),
            self.core.sealed_table(),
            self.events.clone(),
        ) {
            Ok(worker) => {
                self.worker = Some((worker, purpose));
                self.cecp.progress = Some((std::time::Instant::now(), 0, 0));
                self.reported = None;
            }
            Err(e) => out.push(self.error_line(&format!("cannot start a thread: {e}"))),
        }
    }

    /// Stops a running worker, waits for it, and answers for it (`deliver`) or drops its
    /// answer; in UCI also releases a held bestmove. Every command that changes state calls
    /// this first, so answers always come in order.
    fn halt(&mut self, deliver: bool, out: &mut Vec<String>) {
        if let Some((worker, _)) = &self.worker {
            worker.stop();
            self.collect(true, deliver, out);
        }
        if let Some(choice) = self.uci.held.take() {
            self.uci_answer(&choice, out);
        }
        if std::mem::take(&mut self.uci.held_none) {
            out.push(uci::no_move());
        }
    }

    /// Whether the move being chosen must stay secret until it is opened: commit–reveal
    /// mode in a sealed game. Nothing printed before the opening may then show a line, a
    /// strategy or a score.
    fn secret(&self) -> bool {
        self.core.commit_mode() && self.core.game().side_to_move().is_none()
    }

    /// Whether `choice`'s analysis was already shown as the search's last iteration.
    fn already_shown(&self, choice: &crate::player::Choice) -> bool {
        self.reported == Some((choice.depth, choice.nodes))
    }

    /// Joins the worker and turns its result into lines.
    fn collect(&mut self, stopped: bool, deliver: bool, out: &mut Vec<String>) {
        let Some((worker, purpose)) = self.worker.take() else {
            return;
        };
        let Some(outcome) = worker.join() else {
            out.push(self.error_line("the search failed"));
            return;
        };
        match outcome {
            worker::Found::Perft(Some(divide)) => {
                if deliver {
                    let depth = match purpose {
                        Purpose::Perft => self.perft_depth,
                        _ => 0,
                    };
                    out.extend(
                        core::PerftDivide {
                            depth,
                            split: divide,
                        }
                        .lines(),
                    );
                }
            }
            worker::Found::Perft(None) => {
                if deliver {
                    out.push(self.comment_line("perft stopped"));
                }
            }
            worker::Found::Think(choice, rng) => {
                self.core.set_rng(rng);
                match purpose {
                    Purpose::UciGo { hold } => self.uci_finished(choice, hold && !stopped, out),
                    Purpose::CecpMove if deliver => self.cecp_finished(choice, out),
                    Purpose::CecpHint if deliver => {
                        if let Some(c) = choice {
                            out.push(crate::protocol::cecp::EngineLine::Hint(c.mv).to_string());
                        }
                    }
                    Purpose::CecpAnalyze if deliver => {
                        if let Some(c) = choice {
                            self.cecp_thinking(&c, !self.already_shown(&c), out);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// An error line in the session's dialect.
    fn error_line(&self, message: &str) -> String {
        match self.dialect {
            Dialect::Cecp => crate::protocol::cecp::EngineLine::Error {
                kind: message.to_owned(),
                command: "-".to_owned(),
            }
            .to_string(),
            _ => crate::protocol::uci::EngineLine::Error(message.to_owned()).to_string(),
        }
    }

    /// A comment line in the session's dialect.
    fn comment_line(&self, message: &str) -> String {
        match self.dialect {
            Dialect::Cecp => {
                crate::protocol::cecp::EngineLine::Comment(message.to_owned()).to_string()
            }
            _ => crate::protocol::uci::EngineLine::InfoString(message.to_owned()).to_string(),
        }
    }

    /// The dialect chosen so far.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The rules state (position, history, options).
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// Answers with `mv`, in the dialect's own lines. When the commit–reveal option is on and
    /// the turn is sealed: returns the line `commit` makes of the commitment, and keeps back the
    /// opened answer (the `held` lines, what was kept secret until the opening, then the line
    /// `reveal` makes of the move and nonce, then the line `answer` makes of the move) until the
    /// opponent's move arrives. Otherwise it returns just the line `answer` makes.
    fn deliver(
        &mut self,
        mv: &crate::notation::WireMove,
        held: Vec<String>,
        reveal: impl Fn(&crate::notation::WireMove, &str) -> String,
        answer: impl Fn(&crate::notation::WireMove) -> String,
        commit: impl Fn(&str) -> String,
    ) -> Vec<String> {
        if !self.core.commit_mode() || self.core.game().side_to_move().is_some() {
            return vec![answer(mv)];
        }
        match crate::commit::commit(&mv.to_string()) {
            Ok(c) => {
                let mut lines = held;
                lines.push(reveal(mv, &c.nonce));
                lines.push(answer(mv));
                self.reveal = Some(PendingReveal { lines });
                vec![commit(&c.digest)]
            }
            Err(e) => {
                log::error!("no random bytes for a commitment: {e}");
                vec![answer(mv)]
            }
        }
    }
}

/// The answer to `help`: one line a command, with the dialect's comment prefix.
fn help_lines(commands: &[(&str, &str)], prefix: &str) -> Vec<String> {
    let width = commands.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    commands
        .iter()
        .map(|(command, what)| format!("{prefix}{command:width$}  {what}"))
        .collect()
}

/// Makes an output line safe for any client: control characters (which only an echo of the
/// input can carry) are written as `\xNN` escapes, and a line longer than
/// [`MAX_OUTPUT_LINE`] bytes is cut there, with the number of bytes left out.
pub(crate) fn clean_output(line: &mut String) {
    if line.chars().any(char::is_control) {
        let mut escaped = String::with_capacity(line.len());
        for c in line.chars() {
            if c.is_control() {
                escaped.push_str(&format!("\\x{:02x}", u32::from(c).min(0xff)));
            } else {
                escaped.push(c);
            }
        }
        *line = escaped;
    }
    if line.len() > MAX_OUTPUT_LINE {
        let mut cut = MAX_OUTPUT_LINE - 40;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        let left_out = line.len() - cut;
        line.truncate(cut);
        line.push_str(&format!("… [{left_out} bytes cut]"));
    }
}
