//! The GUI's seats are the referee's: engines are configured with the referee's seat syntax
//! ([`crate::referee::seat`]) and driven by its seat driver (`referee::driver::EngineSeat`:
//! the handshake, the requests, the answers judged, commit–reveal), read through its bounded
//! [`Inbox`]. So the GUI speaks to engines exactly as `quill match` does
//! (`protocol-docs/referee.md`, `protocol-docs/gui.md`): it trusts no claim, forfeits a crash,
//! a hang, garbage or a broken commitment, and never passes a seat the other's sealed move
//! before its own is fixed. What is the GUI's own here: the page's view of thinking lines, and
//! waiting on both seats at once in slices, so that the page's commands are heard while
//! engines think.

use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{i32 as dec_i32, space1, u32 as dec_u32};
use nom::combinator::{map, rest};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::notation::{WireMove, WireTurn};
use crate::referee::driver::{self, Ask, Clocks, EngineSeat, NewGame};
use crate::referee::engine::Event;
use crate::referee::inbox::{Dialogue, Inbox};
use crate::referee::later;
use crate::referee::seat::{Dialect, EngineSpec, Limits, Seat, parse_seat, split_words};
use crate::variant::Variant;

/// How long an engine may take to open its commitment once told the opponent's move.
pub(crate) const OPENING_TIMEOUT: Duration = Duration::from_secs(5);

/// The seat configuration of an engine, read with the referee's syntax.
pub(crate) type Spec = EngineSpec;

/// Reads `--engine` arguments (`cmd=… name=… proto=uci|cecp tc=… st=… depth=…`).
///
/// # Errors
/// The referee's reason a seat is refused; a `human` seat is refused here (the page seats
/// people).
pub(crate) fn parse_engine(
    text: &str,
    each: &[String],
    default_name: &str,
) -> Result<Spec, String> {
    let words = split_words(text)?;
    match parse_seat(&words, each, default_name)? {
        Seat::Engine(spec) => Ok(spec),
        Seat::Human { .. } => Err(format!(
            "--engine '{text}': people are seated from the page, not with --engine"
        )),
    }
}

/// Reads a seat from its words, as [`parse_engine`] does.
///
/// # Errors
/// As [`parse_engine`].
pub(crate) fn parse_words(
    words: &[String],
    each: &[String],
    default_name: &str,
) -> Result<Spec, String> {
    match parse_seat(words, each, default_name)? {
        Seat::Engine(spec) => Ok(spec),
        Seat::Human { .. } => Err("people are seated from the page, not with --engine".to_string()),
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
    /// A thinking line.
    Thinking(Thinking),
    /// Its move, as written, and when it came.
    Move(String, Instant),
    /// A commitment to its sealed move.
    Commit(String, Instant),
}

/// One line of an engine's thinking.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Thinking {
    /// Depth.
    pub depth: u32,
    /// Score in centipawns for the engine's side, if given.
    pub score: Option<i32>,
    /// Principal line, if given.
    pub pv: String,
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
    /// Why the seat cannot play, in words for the page.
    pub(crate) fn start(
        spec: &Spec,
        seat: usize,
        wire: &mut Wire,
        variant: Variant,
        fen: Option<&str>,
    ) -> Result<Engine, String> {
        let mut e = EngineSeat::spawn(spec, seat, wire.tx.clone(), Dialogue::default())
            .map_err(|f| f.why)?;
        let sealed = variant.is_sealed();
        let game = NewGame {
            variant,
            wants_commit: sealed,
            fen,
            sealed: sealed.then(|| driver::side_of(seat)),
        };
        e.start(&mut wire.inbox, &game).map_err(|f| f.why)?;
        Ok(Engine {
            seat: e,
            asked: None,
        })
    }

    /// The configuration.
    pub(crate) fn spec(&self) -> &Spec {
        self.seat.spec()
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
    ) -> Result<Instant, String> {
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
        let at = self
            .seat
            .request(&mut wire.inbox, &ask)
            .map_err(|f| f.why)?;
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
    fn hear(&mut self, event: Event) -> Result<Heard, String> {
        let heard = self.seat.hear(event).map_err(|f| f.why)?;
        Ok(match heard {
            driver::Heard::Line(line) => {
                thinking(self.spec().dialect, &line).map_or(Heard::Nothing, Heard::Thinking)
            }
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
    pub(crate) fn idle(&mut self, wire: &mut Wire) -> Result<(), String> {
        self.seat.idle(&mut wire.inbox).map_err(|f| f.why)
    }
}

/// Reads what the asked engines among `engines` said before `until`, both at once: the first
/// event of either is judged. Returns the seat and what it said.
///
/// # Errors
/// `(seat, reason)` of a forfeit.
pub(crate) fn listen(
    engines: &mut [Option<Engine>; 2],
    wire: &mut Wire,
    until: Instant,
) -> Result<(usize, Heard), (usize, String)> {
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
                e.seat.silent().map_err(|f| (i, f.why))?;
            }
        }
        return Ok((asked[0], Heard::Nothing));
    };
    let i = event.seat;
    match engines[i].as_mut() {
        Some(e) => e.hear(event).map(|h| (i, h)).map_err(|why| (i, why)),
        None => Ok((i, Heard::Nothing)),
    }
}

/// A thinking line: UCI `info … depth D … score cp S … pv …`, CECP `D S T N PV`.
pub(crate) fn thinking(dialect: Dialect, line: &str) -> Option<Thinking> {
    match dialect {
        Dialect::Uci => uci_info(line.trim()),
        Dialect::Cecp => cecp_thinking(line.trim()).ok().map(|(_, t)| t),
    }
}

fn uci_info(line: &str) -> Option<Thinking> {
    let rest = line.strip_prefix("info ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut t = Thinking::default();
    let mut seen_depth = false;
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "depth" => {
                t.depth = words.get(i + 1)?.parse().ok()?;
                seen_depth = true;
                i += 2;
            }
            "score" => {
                let kind = *words.get(i + 1)?;
                let v: i32 = words.get(i + 2)?.parse().ok()?;
                t.score = Some(if kind == "mate" {
                    if v > 0 { 30_000 - v } else { -30_000 - v }
                } else {
                    v
                });
                i += 3;
            }
            "pv" => {
                t.pv = words[i + 1..].join(" ");
                break;
            }
            "string" => return None,
            _ => i += 1,
        }
    }
    seen_depth.then_some(t)
}

fn cecp_thinking(line: &str) -> IResult<&str, Thinking> {
    let number = |i| alt((dec_i32, preceded(tag("+"), dec_i32))).parse(i);
    map(
        (
            dec_u32,
            space1,
            number,
            space1,
            dec_u32,
            space1,
            dec_u32,
            alt((preceded(space1, rest), rest)),
        ),
        |(depth, _, score, _, _, _, _, pv): (u32, _, i32, _, _, _, _, &str)| Thinking {
            depth,
            score: Some(score),
            pv: pv.trim().to_string(),
        },
    )
    .parse(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_uci_thinking() {
        let t = thinking(
            Dialect::Uci,
            "info depth 3 score cp -25 nodes 100 time 4 pv c2c7,h1h2 b7b2",
        )
        .unwrap();
        assert_eq!(t.depth, 3);
        assert_eq!(t.score, Some(-25));
        assert_eq!(t.pv, "c2c7,h1h2 b7b2");
        assert_eq!(thinking(Dialect::Uci, "info string commit abc"), None);
        assert_eq!(thinking(Dialect::Uci, "info nodes 5"), None);
    }

    #[test]
    fn reads_cecp_thinking() {
        let t = thinking(Dialect::Cecp, "4 17 12 3000 a1b3 e5d3").unwrap();
        assert_eq!((t.depth, t.score), (4, Some(17)));
        assert_eq!(t.pv, "a1b3 e5d3");
        assert_eq!(thinking(Dialect::Cecp, "move a1b3"), None);
    }

    #[test]
    fn people_are_not_engines() {
        assert!(parse_engine("human name=me", &[], "x").is_err());
        let e = parse_engine("cmd=./q name=q depth=2", &[], "x").unwrap();
        assert_eq!(e.limits.depth, Some(2));
    }
}
