//! The protocol session: turns input lines (and events from a running search) into output
//! lines. It never touches stdin or stdout; `main.rs` and the transcript runner drive it.

use std::sync::mpsc::Sender;

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

/// What a search thread reports (placeholder until the search lands).
#[derive(Debug)]
pub enum SearchEvent {}

/// A protocol session.
pub struct Session {
    #[allow(dead_code)]
    events: Sender<Input>,
    finished: bool,
}

impl Session {
    /// Makes a session; a search it starts sends its events to `events`, which the driver must
    /// pass back through [`Session::handle`].
    pub fn new(events: Sender<Input>) -> Session {
        Session {
            events,
            finished: false,
        }
    }

    /// Handles one input and returns the lines to write, in order.
    pub fn handle(&mut self, input: Input) -> Vec<String> {
        match input {
            Input::Line(line) if line.trim() == "quit" => {
                self.finished = true;
                Vec::new()
            }
            Input::Eof => {
                self.finished = true;
                Vec::new()
            }
            Input::Line(line) => vec![format!("echo {line}")],
            Input::Search(_) => Vec::new(),
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
}
