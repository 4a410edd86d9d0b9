//! The GUI's one use of the referee's seats: engines are configured with the referee's seat
//! syntax ([`crate::referee::seat`]), started and read through its [`Process`] and [`Inbox`]
//! (bounded lines, floods cut off, children killed on drop), and their lines read with its
//! [`meaning`]. The driver here speaks to them as `quill match` does (`protocol-docs/referee.md`,
//! `protocol-docs/gui.md`): it trusts no claim, forfeits a crash, a hang, garbage or a broken
//! commitment, and never passes a seat the other's sealed move before its own is fixed.

use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{i32 as dec_i32, space1, u32 as dec_u32};
use nom::combinator::{map, rest};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::commit;
use crate::referee::engine::{Event, Meaning, Process, Said, meaning};
use crate::referee::game::shown;
use crate::referee::inbox::{Dialogue, Inbox};
use crate::referee::later;
use crate::referee::seat::{Dialect, EngineSpec, Limits, Seat, parse_seat, split_words};
use crate::variant::Variant;

/// How long an engine may take over its handshake.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to open its commitment once told the opponent's move.
pub const OPENING_TIMEOUT: Duration = Duration::from_secs(5);
/// Most unrecognised lines an engine may print while thinking.
pub const MAX_GARBAGE: usize = 100;

/// The seat configuration of an engine, read with the referee's syntax.
pub type Spec = EngineSpec;

/// Reads `--engine` arguments (`cmd=… name=… proto=uci|cecp tc=… st=… depth=…`).
///
/// # Errors
/// The referee's reason a seat is refused; a `human` seat is refused here (the page seats
/// people).
pub fn parse_engine(text: &str, each: &[String], default_name: &str) -> Result<Spec, String> {
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
pub fn parse_words(words: &[String], each: &[String], default_name: &str) -> Result<Spec, String> {
    match parse_seat(words, each, default_name)? {
        Seat::Engine(spec) => Ok(spec),
        Seat::Human { .. } => Err("people are seated from the page, not with --engine".to_string()),
    }
}

/// The time controls of a seat, as PGN writes them.
pub fn limits_text(limits: &Limits) -> String {
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
pub fn limits(spec: &Spec) -> Limits {
    spec.limits
}

/// The clock of a seat with a time control: base, increment, moves per period.
pub fn clock(limits: &Limits) -> Option<(Duration, Duration, u32)> {
    limits.clock.map(|c| (c.base, c.inc, c.moves))
}

/// A fixed time per move, if any.
pub fn movetime(limits: &Limits) -> Option<Duration> {
    limits.movetime
}

/// What an engine said while it was asked to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
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
pub struct Thinking {
    /// Depth.
    pub depth: u32,
    /// Score in centipawns for the engine's side, if given.
    pub score: Option<i32>,
    /// Principal line, if given.
    pub pv: String,
}

/// An opened commitment: the move and the nonce, as the engine wrote them.
pub type Opened = (String, String);

/// A running engine at a seat.
pub struct Engine {
    /// The configuration.
    pub spec: Spec,
    seat: usize,
    process: Process,
    usermove: bool,
    ping: bool,
    pings: u32,
    /// It plays the sealed game with commit–reveal.
    pub commits: bool,
    garbage: usize,
}

/// The events of both seats of a game.
pub struct Wire {
    inbox: Inbox,
    tx: SyncSender<Event>,
}

impl Wire {
    /// A wire for two seats of these dialects (`None`: a person).
    pub fn new(dialects: [Option<Dialect>; 2]) -> Wire {
        let (inbox, tx) = Inbox::new(dialects, Dialogue::default());
        Wire { inbox, tx }
    }

    /// The next event of `seat`, or of any seat, before `until`.
    fn next(&mut self, seat: Option<usize>, until: Instant) -> Option<Event> {
        match seat {
            Some(s) => self.inbox.next_from(s, until),
            None => self.inbox.next_any(until),
        }
    }

    /// Drops what is waiting from `seat` (after its engine was replaced).
    pub fn drain(&mut self, seat: usize) {
        let until = later(Instant::now(), Duration::from_millis(50));
        while self.inbox.next_from(seat, until).is_some() {}
    }
}

impl Engine {
    /// Starts the engine of `seat` and runs its handshake, its options and the variant; in a
    /// sealed game it asks for commit–reveal when the engine offers it. `fen` sets a position
    /// up (CECP; UCI gets it with every request).
    ///
    /// # Errors
    /// Why the seat cannot play, in words for the page.
    pub fn start(
        spec: &Spec,
        seat: usize,
        wire: &mut Wire,
        variant: Variant,
        fen: Option<&str>,
    ) -> Result<Engine, String> {
        let process = Process::spawn(spec, seat, wire.tx.clone())
            .map_err(|e| format!("{} could not start: {e}", spec.name))?;
        let mut e = Engine {
            spec: spec.clone(),
            seat,
            process,
            usermove: false,
            ping: false,
            pings: 1,
            commits: false,
            garbage: 0,
        };
        let deadline = later(Instant::now(), START_TIMEOUT);
        let sealed = variant.is_sealed();
        match spec.dialect {
            Dialect::Uci => {
                e.send("uci");
                let mut variant_option = false;
                let mut commit_option = false;
                e.wait(wire, deadline, "uciok", |m| match m {
                    Meaning::UciOk => Some(()),
                    Meaning::OptionName(o) => {
                        variant_option |= o.eq_ignore_ascii_case("UCI_Variant");
                        commit_option |= o.eq_ignore_ascii_case("SealedCommit");
                        None
                    }
                    _ => None,
                })?;
                if variant_option {
                    e.send(&format!("setoption name UCI_Variant value {variant}"));
                } else if variant != Variant::DEFAULT {
                    return Err(format!("{} has no UCI_Variant option", spec.name));
                }
                for (k, v) in spec.options.clone() {
                    e.send(&format!("setoption name {k} value {v}"));
                }
                if sealed && commit_option {
                    e.send("setoption name SealedCommit value true");
                    e.commits = true;
                }
                e.send("ucinewgame");
                e.send("isready");
                e.options_synced(wire, deadline, |m| *m == Meaning::ReadyOk)?;
            }
            Dialect::Cecp => {
                e.send("xboard");
                e.send("protover 2");
                let mut variants: Option<String> = None;
                let mut sealed_offered = false;
                let mut commit_option = false;
                let mut done = false;
                let mut until = later(Instant::now(), Duration::from_secs(2));
                while !done {
                    let Some(event) = wire.next(Some(seat), until) else {
                        break;
                    };
                    let line = match event.said {
                        Said::Closed => return Err(e.crashed("during the handshake")),
                        Said::Overflow(why) => return Err(format!("{} {why}", spec.name)),
                        Said::Line(l) => l,
                    };
                    if let Meaning::Features(pairs) = meaning(Dialect::Cecp, &line) {
                        for (k, v) in pairs {
                            let accept = !(k == "san" && v == "1");
                            match k.as_str() {
                                "done" if v == "0" => until = deadline,
                                "done" => done = true,
                                "variants" => variants = Some(v.clone()),
                                "sealed" => sealed_offered = v == "1",
                                "usermove" => e.usermove = v == "1",
                                "ping" => e.ping = v == "1",
                                "option" => commit_option |= v.starts_with("SealedCommit "),
                                _ => {}
                            }
                            if k != "done" {
                                let word = if accept { "accepted" } else { "rejected" };
                                e.send(&format!("{word} {k}"));
                            }
                        }
                    }
                }
                let offered = variants
                    .as_deref()
                    .is_some_and(|list| list.split(',').any(|v| v.trim() == variant.name()));
                if variant != Variant::DEFAULT && !offered {
                    return Err(format!(
                        "{} does not offer the variant {variant}",
                        spec.name
                    ));
                }
                if sealed && !sealed_offered {
                    return Err(format!(
                        "{} does not offer sealed moves (feature sealed=1)",
                        spec.name
                    ));
                }
                e.send("new");
                e.send(&format!("variant {variant}"));
                e.send("force");
                for (k, v) in spec.options.clone() {
                    e.send(&format!("option {k}={v}"));
                }
                if sealed && commit_option {
                    e.send("option SealedCommit=1");
                    e.commits = true;
                }
                e.send("post");
                e.send("easy");
                let l = spec.limits;
                if let Some(c) = l.clock {
                    let secs = c.base.as_secs();
                    e.send(&format!(
                        "level {} {}:{:02} {}",
                        c.moves,
                        secs / 60,
                        secs % 60,
                        trimmed(c.inc.as_secs_f64())
                    ));
                }
                if let Some(t) = l.movetime {
                    e.send(&format!("st {}", trimmed(t.as_secs_f64())));
                }
                if let Some(d) = l.depth {
                    e.send(&format!("sd {d}"));
                }
                if let Some(fen) = fen {
                    e.send(&format!("setboard {fen}"));
                }
                if sealed {
                    let side = if seat == 0 { "white" } else { "black" };
                    e.send(&format!("sealed {side}"));
                }
                e.send("ping 1");
                e.options_synced(wire, deadline, |m| matches!(m, Meaning::Pong(_)))?;
            }
        }
        Ok(e)
    }

    fn send(&mut self, line: &str) -> bool {
        log::debug!("gui > {} {line}", self.seat);
        self.process.send(line)
    }

    fn crashed(&mut self, what: &str) -> String {
        let status = self.process.ending();
        format!("{} {status} {what}", self.spec.name)
    }

    fn wait<T>(
        &mut self,
        wire: &mut Wire,
        deadline: Instant,
        what: &str,
        mut want: impl FnMut(Meaning) -> Option<T>,
    ) -> Result<T, String> {
        loop {
            let Some(event) = wire.next(Some(self.seat), deadline) else {
                return Err(format!(
                    "{} did not answer in time ({what})",
                    self.spec.name
                ));
            };
            match event.said {
                Said::Closed => return Err(self.crashed(&format!("while waiting for {what}"))),
                Said::Overflow(why) => return Err(format!("{} {why}", self.spec.name)),
                Said::Line(line) => {
                    if let Some(t) = want(meaning(self.spec.dialect, &line)) {
                        return Ok(t);
                    }
                }
            }
        }
    }

    fn options_synced(
        &mut self,
        wire: &mut Wire,
        deadline: Instant,
        done: impl Fn(&Meaning) -> bool,
    ) -> Result<(), String> {
        let name = self.spec.name.clone();
        self.wait(wire, deadline, "the end of the set-up", |m| match m {
            Meaning::Complaint(c) => Some(Err(format!("{name} refused an option: {}", shown(&c)))),
            m if done(&m) => Some(Ok(())),
            _ => None,
        })?
    }

    /// Makes sure the engine has read all that was sent (`isready`, `ping`); a move before the
    /// answer is a move out of turn.
    fn sync(&mut self, wire: &mut Wire) -> Result<(), String> {
        let expected = match self.spec.dialect {
            Dialect::Uci => {
                self.send("isready");
                None
            }
            Dialect::Cecp if self.ping => {
                self.pings += 1;
                self.send(&format!("ping {}", self.pings));
                Some(self.pings.to_string())
            }
            Dialect::Cecp => return Ok(()),
        };
        let name = self.spec.name.clone();
        let deadline = later(Instant::now(), START_TIMEOUT);
        self.wait(wire, deadline, "isready/ping", |m| match m {
            Meaning::ReadyOk if expected.is_none() => Some(Ok(())),
            Meaning::Pong(n) if expected.as_ref() == Some(&n) => Some(Ok(())),
            Meaning::Move(m) | Meaning::Commit(m) => {
                Some(Err(format!("{name} moved out of turn ({})", shown(&m))))
            }
            _ => None,
        })?
    }

    /// Asks for a move. `position` is the UCI `position` command of the game so far; `sealed`
    /// says this is the engine's half of a sealed turn; `times` are both clocks (ms) when the
    /// seat has a clock.
    ///
    /// # Errors
    /// The engine fails its sync.
    pub fn request(
        &mut self,
        wire: &mut Wire,
        position: &str,
        sealed: bool,
        times: Option<([u128; 2], [u128; 2])>,
    ) -> Result<Instant, String> {
        self.garbage = 0;
        let l = self.spec.limits;
        match self.spec.dialect {
            Dialect::Uci => {
                self.send(position);
                self.sync(wire)?;
                let mut go = String::from("go");
                if sealed {
                    go.push_str(if self.seat == 0 {
                        " sealed w"
                    } else {
                        " sealed b"
                    });
                }
                if let Some((left, inc)) = times {
                    go.push_str(&format!(
                        " wtime {} btime {} winc {} binc {}",
                        left[0], left[1], inc[0], inc[1]
                    ));
                }
                if let Some(t) = l.movetime {
                    go.push_str(&format!(" movetime {}", t.as_millis()));
                }
                if let Some(d) = l.depth {
                    go.push_str(&format!(" depth {d}"));
                }
                if let Some(n) = l.nodes {
                    go.push_str(&format!(" nodes {n}"));
                }
                self.send(&go);
            }
            Dialect::Cecp => {
                self.sync(wire)?;
                if let Some((left, _)) = times {
                    let me = self.seat;
                    self.send(&format!("time {}", left[me] / 10));
                    self.send(&format!("otim {}", left[1 - me] / 10));
                }
                self.send("go");
            }
        }
        Ok(Instant::now())
    }

    /// After its move in an alternating game: CECP goes back to force mode.
    pub fn moved(&mut self) {
        if self.spec.dialect == Dialect::Cecp {
            self.send("force");
        }
    }

    /// Tells the engine the opponent's alternating move (CECP keeps its own board).
    pub fn inform(&mut self, mv: &str) {
        if self.spec.dialect == Dialect::Cecp {
            let line = if self.usermove {
                format!("usermove {mv}")
            } else {
                mv.to_string()
            };
            self.send(&line);
        }
    }

    /// Sets the engine's board to `fen` (CECP; after an undo). UCI gets the position with
    /// every request.
    pub fn set_board(&mut self, fen: &str) {
        if self.spec.dialect == Dialect::Cecp {
            self.send("force");
            self.send(&format!("setboard {fen}"));
        }
    }

    /// Tells a CECP engine the revealed pair of a sealed turn.
    pub fn reveal(&mut self, w: &str, b: &str) {
        if self.spec.dialect == Dialect::Cecp {
            self.send("force");
            self.send(&format!("reveal {w} {b}"));
        }
    }

    /// Passes a committing engine the opponent's move, or its commitment.
    pub fn opponent(&mut self, other: &str) {
        self.send(&format!("opponent {other}"));
    }

    /// Stops the thinking of an engine whose game is paused or abandoned: it quits.
    pub fn quit(mut self) {
        let quit = match self.spec.dialect {
            Dialect::Uci => "quit",
            Dialect::Cecp => "quit",
        };
        self.process.stop(quit, Duration::from_millis(300));
    }

    /// Reads what the engine said before `until` while asked to move. A line of the other
    /// seat is read too (`watch`): a move out of turn or a claim forfeits that seat.
    ///
    /// # Errors
    /// `(seat, reason)` of a forfeit.
    pub fn listen(&mut self, wire: &mut Wire, until: Instant) -> Result<Heard, String> {
        let Some(event) = wire.next(Some(self.seat), until) else {
            if self.process.exit_status().is_some() {
                return Err(self.crashed("while thinking"));
            }
            return Ok(Heard::Nothing);
        };
        let name = self.spec.name.clone();
        let line = match event.said {
            Said::Closed => return Err(self.crashed("while thinking")),
            Said::Overflow(why) => return Err(format!("{name} {why}")),
            Said::Line(l) => l,
        };
        match meaning(self.spec.dialect, &line) {
            Meaning::Move(m) => Ok(Heard::Move(m, event.at)),
            Meaning::Commit(d) => Ok(Heard::Commit(d, event.at)),
            Meaning::Claim(r, why) => Err(format!(
                "{name} made a false claim: {r} {{{}}}",
                shown(&why)
            )),
            Meaning::Resign => Err(format!("{name} resigned")),
            Meaning::Refusal(r) => Err(format!(
                "{name} refused a legal move: Illegal move{}",
                shown(&r)
            )),
            Meaning::Unknown => {
                self.garbage += 1;
                if self.garbage > MAX_GARBAGE {
                    return Err(format!("{name} printed garbage: {}", shown(&line)));
                }
                Ok(Heard::Nothing)
            }
            _ => Ok(thinking(self.spec.dialect, &line).map_or(Heard::Nothing, Heard::Thinking)),
        }
    }

    /// Waits for the opening of commitment `digest` and the move after it. The opening is
    /// returned as the engine wrote it, checked or not: the page checks it itself, and a
    /// broken one also forfeits (`Err` carries the opening and the reason).
    ///
    /// # Errors
    /// The engine did not open in time, or opened something else than it committed to.
    pub fn opening(
        &mut self,
        wire: &mut Wire,
        digest: &str,
    ) -> Result<Opened, (Option<Opened>, String)> {
        let deadline = later(Instant::now(), OPENING_TIMEOUT);
        let (mv, nonce) = self
            .wait(wire, deadline, "opening its commitment", |m| match m {
                Meaning::Opening(mv, nonce) => Some((mv, nonce)),
                _ => None,
            })
            .map_err(|e| (None, e))?;
        let moved = self
            .wait(wire, deadline, "its move after the opening", |m| match m {
                Meaning::Move(mv) => Some(mv),
                _ => None,
            })
            .map_err(|e| (Some((mv.clone(), nonce.clone())), e))?;
        if !commit::verify(digest, &mv, &nonce) || moved != mv {
            let why = format!(
                "{} broke its commitment {digest} (opened {} {}, moved {})",
                self.spec.name,
                shown(&mv),
                shown(&nonce),
                shown(&moved)
            );
            return Err((Some((mv, nonce)), why));
        }
        Ok((mv, nonce))
    }

    /// Reads a line the engine sent while it was not asked anything: a move, a commitment or a
    /// claim then forfeits.
    ///
    /// # Errors
    /// The forfeit's reason.
    pub fn idle(&mut self, wire: &mut Wire) -> Result<(), String> {
        let now = Instant::now();
        while let Some(event) = wire.next(Some(self.seat), now) {
            let name = self.spec.name.clone();
            match event.said {
                Said::Closed => return Err(self.crashed("while waiting for its turn")),
                Said::Overflow(why) => return Err(format!("{name} {why}")),
                Said::Line(line) => match meaning(self.spec.dialect, &line) {
                    Meaning::Move(m) | Meaning::Commit(m) => {
                        return Err(format!("{name} moved out of turn ({})", shown(&m)));
                    }
                    Meaning::Claim(r, why) => {
                        return Err(format!(
                            "{name} made a false claim: {r} {{{}}}",
                            shown(&why)
                        ));
                    }
                    Meaning::Resign => return Err(format!("{name} resigned")),
                    _ => {}
                },
            }
        }
        Ok(())
    }
}

fn trimmed(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A thinking line: UCI `info … depth D … score cp S … pv …`, CECP `D S T N PV`.
pub fn thinking(dialect: Dialect, line: &str) -> Option<Thinking> {
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
