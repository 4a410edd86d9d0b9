//! The seat driver: one running engine at a seat ([`EngineSeat`]), driven through its dialect's
//! [`Driver`] (UCI in [`uci`], CECP in [`cecp`]), chosen once when the seat is started. The
//! referee (`quill match`) and the GUI (`quill gui`) drive engines through it alike: start (the
//! handshake, the options, the new game), a request for a move with its limits (alternating, or
//! a sealed half), the answer read and judged, the opening of a commitment, the moves told, and
//! quit. The seat trusts no claim: a crash, a hang, garbage, a move out of turn or a broken
//! commitment is a [`Forfeit`] (judged in [`judge`]).

use std::time::{Duration, Instant};

use crate::notation::{WireMove, WireTurn};
use crate::variant::{Side, Variant};

use super::engine::{Event, Process, Thought};
use super::inbox::{Dialogue, Inbox};
use super::later;
use super::seat::{Dialect, EngineSpec};

mod cecp;
mod judge;
mod link;
mod uci;

use link::Link;

/// How long an engine may take to start (`uciok`, `feature done=1`) and to answer `isready`.
pub(crate) const START_TIMEOUT: Duration = Duration::from_secs(10);
/// Most unrecognised lines an engine may print while thinking before it forfeits for garbage.
pub(crate) const MAX_GARBAGE: usize = 100;

/// Why a seat lost the game outright.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Forfeit {
    /// The seat (0: White, 1: Black).
    pub(crate) seat: usize,
    /// The reason, in words for the record.
    pub(crate) why: String,
    /// The PGN `Termination`: `rules infraction`, `time forfeit`, `normal`, `abandoned`.
    pub(crate) termination: &'static str,
}

/// A forfeit of seat `seat` for a rules infraction.
pub(crate) fn forfeit(seat: usize, why: impl Into<String>) -> Forfeit {
    Forfeit {
        seat,
        why: why.into(),
        termination: "rules infraction",
    }
}

/// The side of seat `i`.
pub(crate) fn side_of(i: usize) -> Side {
    if i == 0 { Side::White } else { Side::Black }
}

/// The clocks an engine with a time control is told with its request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Clocks {
    /// Time left, White's and Black's.
    pub(crate) left: [Duration; 2],
    /// Increments, White's and Black's.
    pub(crate) inc: [Duration; 2],
    /// Moves to the next time control of the asked seat, when its control has a period.
    pub(crate) moves_to_go: Option<u32>,
}

/// A request for a move: the game so far and the limits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ask<'a> {
    /// The start FEN, `None` for the variant's start position.
    pub(crate) fen: Option<&'a str>,
    /// The turns played since.
    pub(crate) turns: &'a [WireTurn],
    /// The seat's side when it is asked for its half of a sealed turn.
    pub(crate) sealed: Option<Side>,
    /// Both clocks, when the asked seat has a time control.
    pub(crate) clocks: Option<Clocks>,
}

/// What an engine said while it was asked to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Heard {
    /// A line that does not answer (chatter), as sent.
    Line(String),
    /// A thinking line with a score, as read.
    Thought(Thought),
    /// Its move, as written, and when it came.
    Move(String, Instant),
    /// A commitment to its sealed move, and when it came.
    Commit(String, Instant),
}

/// An opened commitment: the move and the nonce, as the engine wrote them.
pub(crate) type Opened = (String, String);

/// What every dialect's start works with: the seat's link and the inbox, the deadline of the
/// whole start, and the game to set up.
struct Starting<'a> {
    link: &'a mut Link,
    inbox: &'a mut Inbox,
    deadline: Instant,
    game: &'a NewGame<'a>,
}

/// The options a seat is set up with, in order: its own (`option.NAME=VALUE`), then
/// `SealedCommit` set to `on` when the game wants commitments and the engine offers it.
fn start_options(
    link: &Link,
    game: &NewGame,
    offers_commit: bool,
    on: &str,
) -> Vec<(String, String)> {
    let mut options = link.spec.options.clone();
    if game.wants_commit && offers_commit {
        options.push(("SealedCommit".to_owned(), on.to_owned()));
    }
    options
}

/// What one dialect says to a seat; the rest of the seat is the same for every dialect.
trait Driver {
    /// The handshake, the options, the variant and a new game, synced before the deadline.
    fn start(&mut self, s: Starting<'_>) -> Result<(), Forfeit>;
    /// Makes sure the engine has read all that was sent; a move before the answer is a move
    /// out of turn.
    fn sync(&mut self, link: &mut Link, inbox: &mut Inbox) -> Result<(), Forfeit>;
    /// Sends the request for a move (synced before the command that starts the thinking).
    fn request(&mut self, link: &mut Link, inbox: &mut Inbox, ask: &Ask) -> Result<(), Forfeit>;
    /// After its own move in an alternating game.
    fn moved(&mut self, link: &mut Link);
    /// The opponent's move in an alternating game.
    fn inform(&mut self, link: &mut Link, mv: &WireMove);
    /// The revealed pair of a sealed turn.
    fn revealed(&mut self, link: &mut Link, white: &WireMove, black: &WireMove);
    /// The position was set anew (`fen`: the start of what follows), e.g. after an undo.
    fn set_board(&mut self, link: &mut Link, fen: &str);
    /// The last two turns were taken back.
    fn remove(&mut self, link: &mut Link);
}

/// What a new game tells an engine.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NewGame<'a> {
    /// The variant.
    pub(crate) variant: Variant,
    /// Ask for commit–reveal, when the engine offers it.
    pub(crate) wants_commit: bool,
    /// The position to set up (engines that keep their own board), if not the start.
    pub(crate) fen: Option<&'a str>,
    /// The seat's side, in a sealed game.
    pub(crate) sealed: Option<Side>,
}

/// A running engine at a seat, driven in its dialect.
pub(crate) struct EngineSeat {
    link: Link,
    driver: Box<dyn Driver>,
    /// The last score it reported while thinking.
    score: Option<i32>,
    /// Unrecognised lines since it was last asked to move.
    garbage: usize,
}

impl EngineSeat {
    /// Starts the engine of seat `seat` (its lines go to `events`), before its handshake.
    ///
    /// # Errors
    /// The engine cannot be started (the forfeit says why).
    pub(crate) fn spawn(
        spec: &EngineSpec,
        seat: usize,
        events: std::sync::mpsc::SyncSender<Event>,
        log: Dialogue,
    ) -> Result<EngineSeat, Forfeit> {
        let process = Process::spawn(spec, seat, events)
            .map_err(|e| forfeit(seat, format!("{} could not start: {e}", spec.name)))?;
        let driver: Box<dyn Driver> = match spec.dialect {
            Dialect::Uci => Box::<uci::UciDriver>::default(),
            Dialect::Cecp => Box::<cecp::CecpDriver>::default(),
        };
        Ok(EngineSeat {
            link: Link {
                spec: spec.clone(),
                seat,
                process,
                log,
            },
            driver,
            score: None,
            garbage: 0,
        })
    }

    /// Starts the engine's session: the handshake, the options, the variant, the position.
    ///
    /// # Errors
    /// The seat is not fit to play (it crashed, was silent, refused an option or the variant).
    pub(crate) fn start(&mut self, inbox: &mut Inbox, game: &NewGame) -> Result<(), Forfeit> {
        let deadline = later(Instant::now(), START_TIMEOUT);
        self.driver.start(Starting {
            link: &mut self.link,
            inbox,
            deadline,
            game,
        })
    }

    /// The seat (0: White, 1: Black).
    pub(crate) fn seat(&self) -> usize {
        self.link.seat
    }

    /// The last score it reported while thinking on its latest request.
    pub(crate) fn score(&self) -> Option<i32> {
        self.score
    }

    /// The exit status, once the process has ended.
    pub(crate) fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        self.link.process.exit_status()
    }

    /// Asks for a move; returns when the request went out (the clock runs from then).
    ///
    /// # Errors
    /// The engine fails the sync before the request.
    pub(crate) fn request(&mut self, inbox: &mut Inbox, ask: &Ask) -> Result<Instant, Forfeit> {
        self.score = None;
        self.garbage = 0;
        self.driver.request(&mut self.link, inbox, ask)?;
        Ok(Instant::now())
    }

    /// Passes a committing engine the opponent's move, or its commitment.
    pub(crate) fn opponent(&mut self, other: &str) {
        self.link.send(&format!("opponent {other}"));
    }

    /// After its move in an alternating game.
    pub(crate) fn moved(&mut self) {
        self.driver.moved(&mut self.link);
    }

    /// Tells the engine the opponent's alternating move.
    pub(crate) fn inform(&mut self, mv: &WireMove) {
        self.driver.inform(&mut self.link, mv);
    }

    /// Tells the engine the revealed pair of a sealed turn.
    pub(crate) fn revealed(&mut self, white: &WireMove, black: &WireMove) {
        self.driver.revealed(&mut self.link, white, black);
    }

    /// Sets the engine's board to `fen` (after an undo, or a position set up anew).
    pub(crate) fn set_board(&mut self, fen: &str) {
        self.driver.set_board(&mut self.link, fen);
    }

    /// Takes back the last two turns.
    pub(crate) fn remove(&mut self) {
        self.driver.remove(&mut self.link);
    }

    /// Asks the engine to quit, waits up to `grace`, then kills it; flushes the log.
    pub(crate) fn quit(&mut self, grace: Duration) {
        let quit = "quit";
        self.link.log.line(self.link.seat, '>', quit);
        self.link.process.stop(quit, grace);
        self.link.log.flush();
    }
}
