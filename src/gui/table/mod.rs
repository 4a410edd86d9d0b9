//! One game of the GUI, played on a thread of its own: the person's moves come from the page
//! (checked against the rules), the engines' from their seats, and after every change the whole
//! state is published for the page. Game state lives here, on the server, so a reload (or a
//! second tab) finds the game in progress.
//!
//! The parts: what the page and the server hand the table (`requests`), the seat clocks
//! (`clock`), what the page asks (`commands`), the engines asked and heard (`engines`), a
//! sealed turn (`sealed`), and the state published (`state`).

mod clock;
mod commands;
mod engines;
mod requests;
mod sealed;
mod state;

use requests::quoted;
pub(crate) use requests::{Command, Config, Request, Setup, Who, WhoError, who};

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::{mpsc::UnboundedSender, watch};

use super::rules_view::Position;
use super::seats::{self, Engine, Wire};
use crate::game::{GameError, Outcome};
use crate::notation::WireTurn;
use crate::variant::Side;
use clock::SeatClock;
use sealed::Sealed;

/// Longest FEN the page may send.
pub(crate) const MAX_FEN: usize = 512;
/// Most turns a game may last before it is adjudicated a draw (the default and the largest
/// turn cap a new game may ask for).
pub(crate) const MAX_TURNS: usize = 2_000;
/// Most thinking lines kept per seat for the panel.
const MAX_THINKING: usize = 8;

/// What the server keeps of the game for the sockets: the published state and the position
/// (with the side whose move is being entered) that leg queries are answered from.
#[derive(Default)]
pub(crate) struct Shared {
    /// The position and the side a person is entering a move for.
    pub(crate) entering: Option<(Position, Side)>,
}

/// Where the PGN of the game so far is kept for `/pgn`.
pub(crate) type PgnSink = Arc<Mutex<String>>;

#[derive(Clone, Debug)]
struct Record {
    turn: WireTurn,
    /// In words, with what it did.
    words: Vec<String>,
    /// Penalties (PGN comment).
    comment: Option<String>,
}

/// The game being played.
pub struct Table {
    config: Config,
    setup: Setup,
    start: Position,
    pos: Position,
    records: Vec<Record>,
    engines: [Option<Engine>; 2],
    wire: Wire,
    clocks: [SeatClock; 2],
    /// When the person's or the engine's current move was asked for.
    asked: Option<Instant>,
    outcome: Option<(Outcome, &'static str)>,
    thinking: [Vec<seats::Thought>; 2],
    /// Thinking of a sealed turn, shown only after the reveal.
    hidden: [Vec<seats::Thought>; 2],
    /// The halves of a sealed turn given so far.
    halves: [Option<Sealed>; 2],
    reveal: Option<Value>,
    paused: bool,
    /// Not shown to anyone: no page has been connected for a while.
    suspended: bool,
    present: bool,
    gone_since: Option<Instant>,
    notice: Option<String>,
    last: Vec<String>,
    /// Counts the published states, across games.
    version: u64,
    /// Counts the games of this server (a new game: the page drops the last one's notices).
    game: u64,
    state: watch::Sender<Arc<String>>,
    shared: Arc<Mutex<Shared>>,
    pgn: PgnSink,
}

fn side(i: usize) -> Side {
    if i == 0 { Side::White } else { Side::Black }
}

fn send(reply: Option<&UnboundedSender<String>>, v: &Value) {
    if let Some(r) = reply {
        let _ = r.send(v.to_string());
    }
}

fn refuse(reply: Option<&UnboundedSender<String>>, text: &str) {
    send(reply, &json!({"t": "error", "text": text}));
}

enum Flow {
    Go,
    /// The game was replaced or the server closes: leave the current step.
    Reset,
    Quit,
}

impl Table {
    /// A table showing the start of `setup`.
    ///
    /// # Errors
    /// The FEN is refused.
    pub(crate) fn new(
        config: Config,
        setup: Setup,
        state: watch::Sender<Arc<String>>,
        shared: Arc<Mutex<Shared>>,
    ) -> Result<Table, GameError> {
        let start = Position::new(setup.variant, setup.fen.as_deref())?;
        let mut t = Table {
            wire: Wire::new([None, None]),
            clocks: [SeatClock::new(None, None); 2],
            config,
            pos: start.clone(),
            start,
            setup,
            records: Vec::new(),
            engines: [None, None],
            asked: None,
            outcome: None,
            thinking: [Vec::new(), Vec::new()],
            hidden: [Vec::new(), Vec::new()],
            halves: [None, None],
            reveal: None,
            paused: false,
            suspended: false,
            present: true,
            gone_since: None,
            notice: None,
            last: Vec::new(),
            version: 0,
            game: 0,
            state,
            shared,
            pgn: PgnSink::default(),
        };
        t.reset_seats();
        Ok(t)
    }

    /// Keeps the PGN of the game in `sink` after every change.
    pub(crate) fn set_pgn_sink(&mut self, sink: PgnSink) {
        self.pgn = sink;
    }

    /// No page is open yet: the abandonment timer runs from now.
    pub(crate) fn start_absent(&mut self) {
        self.present = false;
        self.gone_since = Some(Instant::now());
    }

    fn quit_engines(&mut self) {
        for e in self.engines.iter_mut() {
            if let Some(e) = e.take() {
                e.quit();
            }
        }
    }

    fn reset_seats(&mut self) {
        self.quit_engines();
        let dialects = self.setup.seats.map(|w| match w {
            Who::Person => None,
            Who::Engine(n) => Some(self.config.engines[n].dialect),
        });
        self.wire = Wire::new(dialects);
        self.clocks = self.setup.seats.map(|w| match w {
            Who::Person => SeatClock::new(self.config.person_clock, None),
            Who::Engine(n) => {
                let l = seats::limits(&self.config.engines[n]);
                SeatClock::new(seats::clock(&l), seats::movetime(&l))
            }
        });
    }

    fn name(&self, i: usize) -> String {
        match self.setup.seats[i] {
            Who::Person => {
                if self.setup.seats[1 - i] == Who::Person {
                    format!("{} (person)", side(i).word())
                } else {
                    "You".to_string()
                }
            }
            Who::Engine(n) => self.config.engines[n].name.clone(),
        }
    }

    fn person_to_enter(&self) -> Option<usize> {
        if self.outcome.is_some() || self.suspended {
            return None;
        }
        if self.pos.sealed() {
            // Engines answer first; then the people, White first.
            let engines_done =
                (0..2).all(|i| self.setup.seats[i] == Who::Person || self.halves[i].is_some());
            if !engines_done {
                return None;
            }
            (0..2).find(|&i| self.setup.seats[i] == Who::Person && self.halves[i].is_none())
        } else {
            let i = self.pos.side_to_move()?.index();
            (self.setup.seats[i] == Who::Person).then_some(i)
        }
    }

    fn finish(&mut self, outcome: Outcome, termination: &'static str) {
        if self.outcome.is_none() {
            self.outcome = Some((outcome, termination));
        }
        self.asked = None;
    }

    fn forfeit(&mut self, i: usize, why: String, termination: &'static str) {
        log::info!("forfeit of seat {i}: {why}");
        self.finish(
            Outcome {
                winner: Some(side(1 - i)),
                reason: why,
            },
            termination,
        );
        self.quit_engines();
    }

    /// Seat `i` forfeits, and the page is told.
    fn forfeited(&mut self, i: usize, why: String, termination: &'static str) -> Flow {
        self.forfeit(i, why, termination);
        self.publish();
        Flow::Go
    }

    /// Runs the table until the server closes.
    pub(crate) fn run(mut self, commands: &Receiver<Request>) {
        self.publish();
        while let Flow::Go | Flow::Reset = self.step(commands) {}
        self.quit_engines();
    }

    /// Waits for commands up to `wait`; handles them.
    fn wait_commands(&mut self, commands: &Receiver<Request>, wait: Duration) -> Flow {
        match commands.recv_timeout(wait) {
            Ok(r) => {
                let f = self.handle(r);
                if !matches!(f, Flow::Go) {
                    return f;
                }
                while let Ok(r) = commands.try_recv() {
                    let f = self.handle(r);
                    if !matches!(f, Flow::Go) {
                        return f;
                    }
                }
                Flow::Go
            }
            Err(RecvTimeoutError::Timeout) => Flow::Go,
            Err(RecvTimeoutError::Disconnected) => Flow::Quit,
        }
    }

    fn abandoned(&mut self) -> bool {
        if !self.suspended
            && let Some(gone) = self.gone_since
            && gone.elapsed() >= self.config.abandon
        {
            log::info!(
                "no page for {:?}: the game's engines are stopped",
                gone.elapsed()
            );
            self.quit_engines();
            for i in 0..2 {
                self.wire.drain(i);
                if matches!(self.halves[i], Some(Sealed::Committed(_))) || self.pos.sealed() {
                    self.halves[i] = None;
                }
            }
            self.suspended = true;
            self.asked = None;
            self.publish();
            return true;
        }
        false
    }

    fn step(&mut self, commands: &Receiver<Request>) -> Flow {
        if self.abandoned() || self.outcome.is_some() || self.paused || self.suspended {
            return self.wait_commands(commands, Duration::from_millis(200));
        }
        if let Some(i) = self.person_to_enter() {
            return self.person_step(i, commands);
        }
        if self.pos.sealed() {
            self.sealed_step(commands)
        } else {
            let Some(s) = self.pos.side_to_move() else {
                return Flow::Go;
            };
            self.engine_move(s.index(), commands)
        }
    }

    /// A person is to enter a move: their clock runs, and the engines must stay quiet.
    fn person_step(&mut self, i: usize, commands: &Receiver<Request>) -> Flow {
        if self.asked.is_none() {
            self.asked = Some(Instant::now());
            self.publish();
        }
        // A person's clock runs out while the page waits.
        if let (Some(left), Some(asked)) = (self.clocks[i].left, self.asked)
            && asked.elapsed() > left
        {
            self.clocks[i].left = Some(Duration::ZERO);
            let why = format!("{} lost on time", self.name(i));
            return self.forfeited(i, why, "time forfeit");
        }
        // Lines an engine sends while the person thinks.
        for j in 0..2 {
            if let Some(e) = self.engines[j].as_mut()
                && !(self.pos.sealed() && matches!(self.halves[j], Some(Sealed::Committed(_))))
                && let Err(f) = e.idle(&mut self.wire)
            {
                return self.forfeited(j, f.why, "rules infraction");
            }
        }
        self.wait_commands(commands, Duration::from_millis(100))
    }
}
