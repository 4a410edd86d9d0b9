//! The protocol session: turns input lines (and events from a running search) into output
//! lines. It never touches stdin or stdout; `main.rs` and the transcript runner drive it.
//!
//! The first command chooses the dialect: `xboard` selects CECP; anything else is read as UCI
//! (as Stockfish does, so a person can type `d` or `go perft 3` straight away).

mod cecp;
mod core;
mod uci;

use std::sync::mpsc::Sender;

pub use self::core::Core;

/// What a session reacts to.
#[derive(Debug)]
pub enum Input {
    /// One line from the GUI, without its line ending.
    Line(String),
    /// The end of the input stream.
    Eof,
    /// An event from a search thread the session started.
    Search(SearchEvent),
}

/// What a search thread reports. The foundation's player answers at once, so no event exists
/// yet; the type keeps the driver's channel ready for the threaded search.
#[derive(Debug)]
pub enum SearchEvent {}

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
    #[allow(dead_code)]
    events: Sender<Input>,
    dialect: Dialect,
    core: Core,
    finished: bool,
    reveal: Option<PendingReveal>,
    uci: uci::State,
    cecp: cecp::State,
}

impl Session {
    /// Makes a session; a search it starts sends its events to `events`, which the driver must
    /// pass back through [`Session::handle`].
    pub fn new(events: Sender<Input>) -> Session {
        Session {
            events,
            dialect: Dialect::Undecided,
            core: Core::new(),
            finished: false,
            reveal: None,
            uci: uci::State::default(),
            cecp: cecp::State::default(),
        }
    }

    /// Handles one input and returns the lines to write, in order.
    pub fn handle(&mut self, input: Input) -> Vec<String> {
        match input {
            Input::Eof => {
                self.finished = true;
                Vec::new()
            }
            Input::Search(event) => match event {},
            Input::Line(line) => {
                if self.finished {
                    return Vec::new();
                }
                let mut out = Vec::new();
                if self.dialect == Dialect::Undecided {
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
        }
    }

    /// Whether the session has ended (`quit` or end of input): the driver stops reading.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Whether a search is running, whose events the driver must still deliver.
    pub fn is_busy(&self) -> bool {
        false
    }

    /// The dialect chosen so far.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The rules state (position, history, options).
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// Commits to a move when the commit–reveal option is on: returns the line that shows the
    /// commitment and keeps `answer` (reveal and move lines) until the opponent's move arrives;
    /// otherwise returns `answer` itself.
    fn deliver(&mut self, mv: &str, answer: impl Fn(&str, &str) -> Vec<String>, show: impl Fn(&str) -> String) -> Vec<String> {
        if !self.core.commit_mode() {
            return answer(mv, "");
        }
        match crate::commit::commit(mv) {
            Ok(c) => {
                self.reveal = Some(PendingReveal {
                    lines: answer(mv, &c.nonce),
                });
                vec![show(&c.digest)]
            }
            Err(e) => {
                log::error!("no random bytes for a commitment: {e}");
                answer(mv, "")
            }
        }
    }
}
