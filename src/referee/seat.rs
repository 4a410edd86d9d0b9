//! Who sits at each side of a match: an engine (command, dialect, options, limits) or a human
//! at the terminal. Parsed from `--engine KEY=VALUE …` words, cutechess-style.

use std::fmt;
use std::time::Duration;

mod error;
mod syntax;
pub use error::{SeatError, ValueFault};
pub use syntax::{parse_seat, split_words};

/// Which protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// UCI, with `UCI_Variant` and the sealed extension.
    Uci,
    /// CECP (XBoard) version 2, with `turns=1` and the sealed extension.
    Cecp,
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Uci => "uci",
            Dialect::Cecp => "cecp",
        })
    }
}

/// A clock: `moves` per session (0: the whole game), a base time, an increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimeControl {
    /// Moves per session; 0 when the base is for the whole game.
    pub(crate) moves: u32,
    /// Time per session.
    pub(crate) base: Duration,
    /// Added after each of the player's moves.
    pub(crate) inc: Duration,
}

/// How long and how far a player may think. A clock, a fixed time per move, a depth and a node
/// limit may be combined; with none of them the default clock `10+0.1` applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Limits {
    /// The player's clock.
    pub(crate) clock: Option<TimeControl>,
    /// A fixed time per move.
    pub(crate) movetime: Option<Duration>,
    /// A depth limit.
    pub depth: Option<u32>,
    /// A node limit.
    pub nodes: Option<u64>,
}

impl Limits {
    /// The limits with the default clock filled in when none is set.
    pub(crate) fn or_default(self) -> Limits {
        if self.clock.is_none()
            && self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
        {
            Limits {
                clock: Some(TimeControl {
                    moves: 0,
                    base: Duration::from_secs(10),
                    inc: Duration::from_millis(100),
                }),
                ..self
            }
        } else {
            self
        }
    }

    /// As a PGN `TimeControl` tag value.
    pub(crate) fn pgn(&self) -> String {
        match (self.clock, self.movetime) {
            (Some(c), _) => {
                let base = c.base.as_secs_f64();
                let inc = c.inc.as_secs_f64();
                let mut s = if c.moves > 0 {
                    format!("{}/{}", c.moves, trim(base))
                } else {
                    trim(base)
                };
                if inc > 0.0 {
                    s.push('+');
                    s.push_str(&trim(inc));
                }
                s
            }
            (None, Some(t)) => format!("{}/move", trim(t.as_secs_f64())),
            (None, None) => "-".to_string(),
        }
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A seat of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// An engine process.
    Engine(EngineSpec),
    /// A person at this terminal.
    Human {
        /// The name in records.
        name: String,
    },
}

impl Seat {
    /// The seat's name in results and PGN.
    pub(crate) fn name(&self) -> &str {
        match self {
            Seat::Engine(e) => &e.name,
            Seat::Human { name } => name,
        }
    }
}

/// An engine seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in results and PGN.
    pub(crate) name: String,
    /// The command, run by `sh -c 'exec …'` so that quoting and arguments work as in a shell.
    pub(crate) cmd: String,
    /// The working directory, if not the referee's.
    pub(crate) dir: Option<String>,
    /// The dialect.
    pub(crate) dialect: Dialect,
    /// Options to set: `setoption name N value V` (UCI) or `option N=V` (CECP).
    pub(crate) options: Vec<(String, String)>,
    /// Its limits.
    pub(crate) limits: Limits,
}

/// One `KEY=VALUE` word of a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Word {
    Name(String),
    Cmd(String),
    Dir(String),
    Proto(Dialect),
    Option(String, String),
    Tc(String),
    St(String),
    Depth(String),
    Nodes(String),
    Human,
}

/// Longest time a seat word may give (`tc=` base and increment, `st=`): a day, in seconds.
pub(crate) const MAX_SECONDS: u64 = 86_400;
/// Most moves of a clock session (`tc=MOVES/…`).
pub(crate) const MAX_SESSION_MOVES: u32 = 10_000;
/// Deepest `depth=`.
pub(crate) const MAX_DEPTH: u32 = 10_000;
/// Most `nodes=`.
pub(crate) const MAX_NODES: u64 = 1_000_000_000_000_000;
