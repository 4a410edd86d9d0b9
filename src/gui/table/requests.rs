//! What the page and the server hand a table: the seats of a new game, the page's commands,
//! and the configuration every game shares.

use std::fmt;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use crate::gui::seats::Spec;
use crate::variant::Variant;

/// Who sits at a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    /// A person at the page.
    Person,
    /// The engine of this index in `--engine`'s list.
    Engine(usize),
}

/// A seat name from the page that is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum WhoError {
    /// Neither `person` nor `engine:N` (the text, shortened).
    NotASeat(String),
    /// An engine the server was not given.
    NoEngine {
        /// The engine asked for.
        n: usize,
        /// How many the server has.
        engines: usize,
    },
}

impl fmt::Display for WhoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WhoError::NotASeat(text) => {
                write!(f, "a seat is 'person' or 'engine:N', not '{text}'")
            }
            WhoError::NoEngine { n, engines } => {
                write!(f, "there is no engine {n} (the server has {engines})")
            }
        }
    }
}

/// A new game as the page asks for it.
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    /// The variant.
    pub(crate) variant: Variant,
    /// A FEN to start from.
    pub(crate) fen: Option<String>,
    /// White and Black.
    pub(crate) seats: [Who; 2],
    /// The turn cap: the game is adjudicated drawn once this many turns are played
    /// (1..=[`MAX_TURNS`](super::MAX_TURNS)).
    pub(crate) cap: usize,
}

/// What the page asks of the game.
pub(crate) enum Command {
    /// A new game.
    New(Setup),
    /// A move (an alternating move, or the person's half of a sealed turn).
    Move(String),
    /// Take back the last move of the person and the engine's reply.
    Undo,
    /// Pause or resume (engine vs engine).
    Pause(bool),
    /// The person to move resigns.
    Resign,
    /// A page connected (`true`) or its last socket went away (`false`).
    Present(bool),
    /// The server is closing: stop the engines.
    Shutdown,
}

/// A command with where to send a refusal.
pub(crate) struct Request {
    /// What is asked.
    pub(crate) command: Command,
    /// The asking socket, for a refusal or a notice.
    pub(crate) reply: Option<UnboundedSender<String>>,
}

/// The configuration the games share.
#[derive(Clone)]
pub(crate) struct Config {
    /// The engines the page may seat.
    pub(crate) engines: Vec<Spec>,
    /// A person's clock (`tc=` of the referee's syntax), if any.
    pub(crate) person_clock: Option<(Duration, Duration, u32)>,
    /// How long an engine with only a depth or node limit may think.
    pub(crate) move_timeout: Duration,
    /// How long a game's engines keep running once no page is connected.
    pub(crate) abandon: Duration,
}

/// Reads a seat name from the page: `person`, or `engine:N`.
///
/// # Errors
/// Another text, or an engine the server does not have.
pub(crate) fn who(text: &str, engines: usize) -> Result<Who, WhoError> {
    if text == "person" {
        return Ok(Who::Person);
    }
    let n = text
        .strip_prefix("engine:")
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| WhoError::NotASeat(quoted(text)))?;
    if n >= engines {
        return Err(WhoError::NoEngine { n, engines });
    }
    Ok(Who::Engine(n))
}

/// At most 80 characters of a text from the page, to quote it back.
pub(super) fn quoted(text: &str) -> String {
    text.chars().take(80).collect()
}
