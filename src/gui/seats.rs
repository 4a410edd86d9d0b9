//! The GUI's seats are the referee's: engines are configured with the referee's seat syntax
//! ([`crate::referee::seat`]) and driven by its seat driver (`referee::driver::EngineSeat`:
//! the handshake, the requests, the answers judged, commit–reveal), read through its bounded
//! [`Inbox`]. So the GUI speaks to engines exactly as `quill match` does
//! (`protocol-docs/referee.md`, `protocol-docs/gui.md`): it trusts no claim, forfeits a crash,
//! a hang, garbage or a broken commitment, and never passes a seat the other's sealed move
//! before its own is fixed; thinking lines come read by it too (`Meaning::Score`). What is
//! the GUI's own here: waiting on both seats at once in slices, so that the page's commands
//! are heard while engines think.

use std::fmt;
use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

use crate::notation::{WireMove, WireTurn};
pub(crate) use crate::referee::driver::Forfeit;
use crate::referee::driver::{self, Ask, Clocks, EngineSeat, NewGame};
use crate::referee::engine::Event;
pub(crate) use crate::referee::engine::Thought;
use crate::referee::inbox::{Dialogue, Inbox};
use crate::referee::later;
use crate::referee::seat::{Dialect, EngineSpec, Limits, Seat, parse_seat, split_words};
use crate::variant::Variant;

/// How long an engine may take to open its commitment once told the opponent's move.
pub(crate) const OPENING_TIMEOUT: Duration = Duration::from_secs(5);

/// The seat configuration of an engine, read with the referee's syntax.
pub(crate) type Spec = EngineSpec;

/// An `--engine` seat that is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatError {
    /// The referee's reason (the seat syntax).
    Syntax(crate::referee::seat::SeatError),
    /// A `human` seat: the page seats people (the `--engine` text, when there is one).
    Person(Option<String>),
}

impl fmt::Display for SeatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatError::Syntax(why) => write!(f, "{why}"),
            SeatError::Person(Some(text)) => write!(
                f,
                "--engine '{text}': people are seated from the page, not with --engine"
            ),
            SeatError::Person(None) => {
                f.write_str("people are seated from the page, not with --engine")
            }
        }
    }
}

/// Reads `--engine` arguments (`cmd=… name=… proto=uci|cecp tc=… st=… depth=…`).
///
/// # Errors
/// The referee's reason a seat is refused; a `human` seat is refused here (the page seats
/// people).
pub(crate) fn parse_engine(
    text: &str,
    each: &[String],
    default_name: &str,
) -> Result<Spec, SeatError> {
    let words = split_words(text).map_err(SeatError::Syntax)?;
    parse_words(&words, each, default_name).map_err(|e| match e {
        SeatError::Person(None) => SeatError::Person(Some(text.to_string())),
        e => e,
    })
}

/// Reads a seat from its words, as [`parse_engine`] does.
///
/// # Errors
/// As [`parse_engine`].
pub(crate) fn parse_words(
    words: &[String],
    each: &[String],
    default_name: &str,
) -> Result<Spec, SeatError> {
    match parse_seat(words, each, default_name).map_err(SeatError::Syntax)? {
        Seat::Engine(spec) => Ok(spec),
        Seat::Human { .. } => Err(SeatError::Person(None)),
    }
}

/// The time controls of a seat, as PGN writes them.
pub(crate) fn limits_text(limits: &Limits) -> String {
    let mut text = limits.pgn();
    if text == "-" {
        let mut parts = Vec::new();
        if let Some(d) = limits.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = limits.nodes {
            parts.push(format!("{n} nodes"));
        }
        if !parts.is_empty() {
            text = parts.join(", ");
        }
    }
    text
}

/// The seat's limits.
pub(crate) fn limits(spec: &Spec) -> Limits {
    spec.limits
}

/// The clock of a seat with a time control: base, increment, moves per period.
pub(crate) fn clock(limits: &Limits) -> Option<(Duration, Duration, u32)> {
    limits.clock.map(|c| (c.base, c.inc, c.moves))
}

/// A fixed time per move, if any.
pub(crate) fn movetime(limits: &Limits) -> Option<Duration> {
    limits.movetime
}

/// What an engine said while it was asked to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Heard {
    /// Nothing yet.
    Nothing,
    /// A thinking line, as the referee read it.
    Thinking(Thought),
    /// Its move, as written, and when it came.
    Move(String, Instant),
    /// A commitment to its sealed move.
    Commit(String, Instant),
}

/// An opened commitment: the move and the nonce, as the engine wrote them.
pub(crate) type Opened = driver::Opened;

/// A running engine at a seat: the referee's seat driver, and when it was last asked.
pub(crate) struct Engine {
    seat: EngineSeat,
    /// When the pending request went out; `None` when the engine is not asked.
    asked: Option<Instant>,
}

/// The events of both seats of a game.
pub(crate) struct Wire {
    inbox: Inbox,
    tx: SyncSender<Event>,
}

impl Wire {
    /// A wire for two seats of these dialects (`None`: a person).
    pub(crate) fn new(dialects: [Option<Dialect>; 2]) -> Wire {
        let (inbox, tx) = Inbox::new(dialects, Dialogue::default());
        Wire { inbox, tx }
    }

    /// Drops what is waiting from `seat` (after its engine was replaced).
    pub(crate) fn drain(&mut self, seat: usize) {
        let until = later(Instant::now(), Duration::from_millis(50));
        while self.inbox.next_from(seat, until).is_some() {}
    }
}

impl Engine {
    /// Starts the engine of `seat` and runs its handshake, its options and the variant; in a
    /// sealed game it asks for commit–reveal when the engine offers it. `fen` sets a position
    /// up (engines that keep their own board).
    ///
    /// # Errors
    /// Why the seat cannot play (the forfeit, in words for the page).
    pub(crate) fn start(
        spec: &Spec,
        seat: usize,
        wire: &mut Wire,
        variant: Variant,
        fen: Option<&str>,
    ) -> Result<Engine, Forfeit> {
        let mut e = EngineSeat::spawn(spec, seat, wire.tx.clone(), Dialogue::default())?;
        let sealed = variant.is_sealed();
        let game = NewGame {
            variant,
            wants_commit: sealed,
            fen,
            sealed: sealed.then(|| driver::side_of(seat)),
        };
        e.start(&mut wire.inbox, &game)?;
        Ok(Engine {
            seat: e,
            asked: None,
        })
    }

    /// When the pending request went out, if the engine is asked.
    pub(crate) fn asked(&self) -> Option<Instant> {
        self.asked
    }

    /// Asks for a move: the game from `fen` (the start position when `None`) through `turns`;
    /// `sealed` says this is the engine's half of a sealed turn; `times` are both clocks'
    /// time left and increments when the seat has a clock.
    ///
    /// # Errors
    /// The engine fails its sync.
    pub(crate) fn request(
        &mut self,
        wire: &mut Wire,
        fen: Option<&str>,
        turns: &[WireTurn],
        sealed: bool,
        times: Option<([Duration; 2], [Duration; 2])>,
    ) -> Result<Instant, Forfeit> {
        let ask = Ask {
            fen,
            turns,
            sealed: sealed.then(|| driver::side_of(self.seat.seat())),
            clocks: times.map(|(left, inc)| Clocks {
                left,
                inc,
                moves_to_go: None,
            }),
        };
        let at = self.seat.request(&mut wire.inbox, &ask)?;
        self.asked = Some(at);
        Ok(at)
    }

    /// After its move in an alternating game.
    pub(crate) fn moved(&mut self) {
        self.seat.moved();
    }

    /// Tells the engine the opponent's alternating move.
    pub(crate) fn inform(&mut self, mv: &WireMove) {
        self.seat.inform(mv);
    }

    /// Sets the engine's board to `fen` (after an undo).
    pub(crate) fn set_board(&mut self, fen: &str) {
        self.seat.set_board(fen);
    }

    /// Tells the engine the revealed pair of a sealed turn.
    pub(crate) fn reveal(&mut self, w: &WireMove, b: &WireMove) {
        self.seat.revealed(w, b);
    }

    /// Passes a committing engine the opponent's move, or its commitment.
    pub(crate) fn opponent(&mut self, other: &str) {
        self.seat.opponent(other);
    }

    /// Stops the thinking of an engine whose game is paused or abandoned: it quits.
    pub(crate) fn quit(mut self) {
        self.seat.quit(Duration::from_millis(300));
    }

    /// Judges one event of this engine while it is asked to move.
    fn hear(&mut self, event: Event) -> Result<Heard, Forfeit> {
        Ok(match self.seat.hear(event)? {
            driver::Heard::Line(_) => Heard::Nothing,
            driver::Heard::Thought(t) => Heard::Thinking(t),
            driver::Heard::Move(m, at) => {
                self.asked = None;
                Heard::Move(m, at)
            }
            driver::Heard::Commit(d, at) => {
                self.asked = None;
                Heard::Commit(d, at)
            }
        })
    }

    /// Waits for the opening of commitment `digest` and the move after it. The opening is
    /// returned as the engine wrote it, checked or not: the page checks it itself, and a
    /// broken one also forfeits (`Err` carries the opening and the reason).
    ///
    /// # Errors
    /// The engine did not open in time, or opened something else than it committed to.
    pub(crate) fn opening(
        &mut self,
        wire: &mut Wire,
        digest: &str,
    ) -> Result<Opened, (Option<Opened>, String)> {
        let deadline = later(Instant::now(), OPENING_TIMEOUT);
        self.seat
            .opening(&mut wire.inbox, digest, deadline)
            .map_err(|(opened, f)| (opened, f.why))
    }

    /// Reads the lines the engine sent while it was not asked anything: a move, a commitment
    /// or a claim then forfeits.
    ///
    /// # Errors
    /// The forfeit's reason.
    pub(crate) fn idle(&mut self, wire: &mut Wire) -> Result<(), Forfeit> {
        self.seat.idle(&mut wire.inbox)
    }
}

/// Reads what the asked engines among `engines` said before `until`, both at once: the first
/// event of either is judged. Returns the seat and what it said.
///
/// # Errors
/// The forfeit of a seat.
pub(crate) fn listen(
    engines: &mut [Option<Engine>; 2],
    wire: &mut Wire,
    until: Instant,
) -> Result<(usize, Heard), Forfeit> {
    let asked: Vec<usize> = (0..2)
        .filter(|&i| engines[i].as_ref().is_some_and(|e| e.asked.is_some()))
        .collect();
    let event = match asked[..] {
        [i] => wire.inbox.next_from(i, until),
        [_, _] => wire.inbox.next_any(until),
        _ => return Ok((0, Heard::Nothing)),
    };
    let Some(event) = event else {
        for &i in &asked {
            if let Some(e) = engines[i].as_mut() {
                e.seat.silent()?;
            }
        }
        return Ok((asked[0], Heard::Nothing));
    };
    let i = event.seat;
    match engines[i].as_mut() {
        Some(e) => e.hear(event).map(|h| (i, h)),
        None => Ok((i, Heard::Nothing)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn people_are_not_engines() {
        assert!(parse_engine("human name=me", &[], "x").is_err());
        let e = parse_engine("cmd=./q name=q depth=2", &[], "x").unwrap();
        assert_eq!(e.limits.depth, Some(2));
    }
}
