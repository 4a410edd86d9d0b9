//! One game of the GUI, played on a thread of its own: the person's moves come from the page
//! (checked against the rules), the engines' from their seats, and after every change the whole
//! state is published for the page. Game state lives here, on the server, so a reload (or a
//! second tab) finds the game in progress.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::{mpsc::UnboundedSender, watch};

use super::rules_view::Position;
use super::seats::{self, Engine, Heard, Spec, Thinking, Wire};
use crate::game::Outcome;
use crate::notation::{WireMove, WireTurn};
use crate::referee::later;
use crate::referee::pgn::{self, PgnGame};
use crate::variant::{Side, Variant};

/// Longest FEN the page may send.
pub(crate) const MAX_FEN: usize = 512;
/// Most turns a game may last before it is adjudicated a draw.
pub(crate) const MAX_TURNS: usize = 2_000;
/// Margin past an engine's clock.
const MARGIN: Duration = Duration::from_millis(500);
/// How often the loop looks at the page's commands while an engine thinks.
const SLICE: Duration = Duration::from_millis(40);
/// Most thinking lines kept per seat for the panel.
const MAX_THINKING: usize = 8;

/// Who sits at a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    /// A person at the page.
    Person,
    /// The engine of this index in `--engine`'s list.
    Engine(usize),
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

/// What the server keeps of the game for the sockets: the published state and the position
/// (with the side whose move is being entered) that leg queries are answered from.
#[derive(Default)]
pub(crate) struct Shared {
    /// The position and the side a person is entering a move for.
    pub(crate) entering: Option<(Position, Side)>,
}

/// Where the PGN of the game so far is kept for `/pgn`.
pub(crate) type PgnSink = Arc<Mutex<String>>;

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

#[derive(Clone, Debug)]
struct Record {
    turn: WireTurn,
    /// In words, with what it did.
    words: Vec<String>,
    /// Penalties (PGN comment).
    comment: Option<String>,
}

/// A seat's clock.
#[derive(Clone, Copy, Debug)]
struct Clock {
    left: Option<Duration>,
    inc: Duration,
    base: Duration,
    per: u32,
    moves: u32,
    movetime: Option<Duration>,
}

impl Clock {
    fn new(clock: Option<(Duration, Duration, u32)>, movetime: Option<Duration>) -> Clock {
        Clock {
            left: clock.map(|c| c.0),
            base: clock.map_or(Duration::ZERO, |c| c.0),
            inc: clock.map_or(Duration::ZERO, |c| c.1),
            per: clock.map_or(0, |c| c.2),
            moves: 0,
            movetime,
        }
    }

    /// How long the seat may take before it loses on time or is considered hung.
    fn allowance(&self, move_timeout: Duration) -> Duration {
        let margin = self.movetime.map_or(MARGIN, |t| MARGIN.max(t / 2));
        match (self.left, self.movetime) {
            (Some(l), Some(t)) => l.min(t).saturating_add(margin),
            (Some(l), None) => l.saturating_add(margin),
            (None, Some(t)) => t.saturating_add(margin),
            (None, None) => move_timeout,
        }
    }

    /// Charges a move; `false` when the clock was overstepped.
    fn charge(&mut self, used: Duration, margin: Duration) -> bool {
        let Some(left) = self.left else {
            return true;
        };
        if used > left.saturating_add(margin) {
            self.left = Some(Duration::ZERO);
            return false;
        }
        let mut left = left.saturating_sub(used).saturating_add(self.inc);
        self.moves += 1;
        if self.per > 0 && self.moves.is_multiple_of(self.per) {
            left = left.saturating_add(self.base);
        }
        self.left = Some(left);
        true
    }
}

/// A sealed half waiting for the reveal.
#[derive(Clone, Debug)]
enum Half {
    /// Not given yet.
    Waiting,
    /// A move in plain (a person, or an engine without commit–reveal): never published
    /// before the reveal.
    Plain(String),
    /// An engine's commitment.
    Committed(String),
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
    clocks: [Clock; 2],
    /// When the person's or the engine's current move was asked for.
    asked: Option<Instant>,
    outcome: Option<(Outcome, &'static str)>,
    thinking: [Vec<Thinking>; 2],
    /// Thinking of a sealed turn, shown only after the reveal.
    hidden: [Vec<Thinking>; 2],
    halves: [Half; 2],
    reveal: Option<Value>,
    paused: bool,
    /// Not shown to anyone: no page has been connected for a while.
    suspended: bool,
    present: bool,
    gone_since: Option<Instant>,
    notice: Option<String>,
    last: Vec<String>,
    version: u64,
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

/// Reads a seat name from the page: `person`, or `engine:N`.
pub(crate) fn who(text: &str, engines: usize) -> Result<Who, String> {
    if text == "person" {
        return Ok(Who::Person);
    }
    let n = text
        .strip_prefix("engine:")
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| format!("a seat is 'person' or 'engine:N', not '{}'", quoted(text)))?;
    if n >= engines {
        return Err(format!("there is no engine {n} (the server has {engines})"));
    }
    Ok(Who::Engine(n))
}

fn quoted(text: &str) -> String {
    text.chars().take(80).collect()
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
    ) -> Result<Table, String> {
        let start = Position::new(setup.variant, setup.fen.as_deref())?;
        let mut t = Table {
            wire: Wire::new([None, None]),
            clocks: [Clock::new(None, None); 2],
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
            halves: [Half::Waiting, Half::Waiting],
            reveal: None,
            paused: false,
            suspended: false,
            present: true,
            gone_since: None,
            notice: None,
            last: Vec::new(),
            version: 0,
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

    fn reset_seats(&mut self) {
        for e in self.engines.iter_mut() {
            if let Some(e) = e.take() {
                e.quit();
            }
        }
        let dialects = self.setup.seats.map(|w| match w {
            Who::Person => None,
            Who::Engine(n) => Some(self.config.engines[n].dialect),
        });
        self.wire = Wire::new(dialects);
        self.clocks = self.setup.seats.map(|w| match w {
            Who::Person => Clock::new(self.config.person_clock, None),
            Who::Engine(n) => {
                let l = seats::limits(&self.config.engines[n]);
                Clock::new(seats::clock(&l), seats::movetime(&l))
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

    fn time_control(&self, i: usize) -> String {
        match self.setup.seats[i] {
            Who::Engine(n) => seats::limits_text(&seats::limits(&self.config.engines[n])),
            Who::Person => match self.config.person_clock {
                Some((base, inc, per)) => {
                    let b = base.as_secs_f64();
                    let period = if per > 0 {
                        format!("{per} moves in {b} s")
                    } else {
                        format!("{b} s")
                    };
                    if inc.is_zero() {
                        period
                    } else {
                        format!("{period} + {} s a move", inc.as_secs_f64())
                    }
                }
                None => "-".to_string(),
            },
        }
    }

    /// The UCI `position` command of the game so far.
    /// The PGN of the game, in the form `quill match` writes (`*` while it is unfinished).
    pub(crate) fn pgn(&self) -> String {
        let turns: Vec<WireTurn> = self.records.iter().map(|r| r.turn.clone()).collect();
        let comments: Vec<Option<String>> =
            self.records.iter().map(|r| r.comment.clone()).collect();
        let unfinished = Outcome {
            winner: None,
            reason: "the game is in progress".to_string(),
        };
        let (outcome, termination) = match &self.outcome {
            Some((o, t)) => (o.clone(), *t),
            None => (unfinished, "unterminated"),
        };
        let names = [self.name(0), self.name(1)];
        let text = pgn::write(&PgnGame {
            event: "quill gui",
            round: 1,
            white: &names[0],
            black: &names[1],
            variant: self.setup.variant,
            fen: self.setup.fen.as_deref(),
            time_controls: [self.time_control(0), self.time_control(1)],
            turns: &turns,
            comments: &comments,
            sealed: self.start.sealed(),
            first_mover: self.start.side_to_move(),
            outcome: &outcome,
            termination,
        });
        if self.outcome.is_some() {
            return text;
        }
        // An unfinished game: the result is `*` (PGN's "unknown"), in the tag and at the end.
        let text = text.replacen("[Result \"1/2-1/2\"]", "[Result \"*\"]", 1);
        match text.rfind("1/2-1/2") {
            Some(at) => format!("{}*{}", &text[..at], &text[at + "1/2-1/2".len()..]),
            None => text,
        }
    }

    fn person_to_enter(&self) -> Option<usize> {
        if self.outcome.is_some() || self.suspended {
            return None;
        }
        if self.pos.sealed() {
            // Engines answer first; then the people, White first.
            let engines_done = (0..2).all(|i| {
                self.setup.seats[i] == Who::Person || !matches!(self.halves[i], Half::Waiting)
            });
            if !engines_done {
                return None;
            }
            (0..2).find(|&i| {
                self.setup.seats[i] == Who::Person && matches!(self.halves[i], Half::Waiting)
            })
        } else {
            let i = self.pos.side_to_move()?.index();
            (self.setup.seats[i] == Who::Person).then_some(i)
        }
    }

    fn publish(&mut self) {
        self.version += 1;
        let entering = self.person_to_enter();
        if let Ok(mut s) = self.shared.lock() {
            s.entering = entering.map(|i| (self.pos.clone(), side(i)));
        }
        let sealed = self.pos.sealed();
        let seats: Vec<Value> = (0..2)
            .map(|i| {
                let clock = &self.clocks[i];
                let running = self.outcome.is_none()
                    && !self.paused
                    && self.asked.is_some()
                    && match self.pos.side_to_move() {
                        Some(s) => s.index() == i,
                        None => matches!(self.halves[i], Half::Waiting),
                    };
                let half = match &self.halves[i] {
                    Half::Waiting => json!({"state": "waiting"}),
                    Half::Plain(_) => json!({"state": "sealed"}),
                    Half::Committed(d) => json!({"state": "committed", "digest": d}),
                };
                let thinking: Vec<Value> = self.thinking[i]
                    .iter()
                    .map(|t| json!({"depth": t.depth, "score": t.score, "pv": t.pv}))
                    .collect();
                json!({
                    "name": self.name(i),
                    "kind": match self.setup.seats[i] { Who::Person => "person", Who::Engine(_) => "engine" },
                    "engine": match self.setup.seats[i] { Who::Person => Value::Null, Who::Engine(n) => json!(n) },
                    "clock_ms": clock.left.map(|d| d.as_millis() as u64),
                    "time_control": self.time_control(i),
                    "running": running,
                    "half": if sealed { half } else { Value::Null },
                    "thinking": thinking,
                })
            })
            .collect();
        let moves: Vec<Value> = self
            .records
            .iter()
            .map(|r| json!({"turn": r.turn.to_string(), "words": r.words}))
            .collect();
        let legend: Vec<Value> = self
            .setup
            .variant
            .piece_names()
            .iter()
            .map(|(c, n)| json!([c.to_string(), n]))
            .collect();
        let state = json!({
            "t": "state",
            "version": self.version,
            "variant": self.setup.variant.name(),
            "sealed": sealed,
            "geometry": self.pos.geometry_json(),
            "pieces": self.pos.pieces_json(),
            "legend": legend,
            "fen": self.pos.fen(),
            "start_fen": self.start.fen(),
            "to_move": self.pos.side_to_move().map(|s| s.word()),
            "penalties": self.pos.penalties(),
            "seats": seats,
            "entering": entering.map(|i| side(i).word()),
            "moves": moves,
            "last": self.last,
            "reveal": self.reveal,
            "result": self.outcome.as_ref().map(|(o, t)| json!({
                "result": o.result(),
                "reason": o.reason,
                "termination": t,
            })),
            "paused": self.paused,
            "suspended": self.suspended,
            "notice": self.notice,
            "can_undo": self.can_undo(),
        });
        let _ = self.state.send(Arc::new(state.to_string()));
        let pgn = self.pgn();
        if let Ok(mut p) = self.pgn.lock() {
            *p = pgn;
        }
    }

    fn can_undo(&self) -> bool {
        !self.pos.sealed()
            && self.setup.seats.contains(&Who::Person)
            && self.setup.seats.iter().any(|w| matches!(w, Who::Engine(_)))
            && self
                .records
                .iter()
                .any(|r| matches!(r.turn, WireTurn::Single(_)))
            && (self.person_to_enter().is_some() || self.outcome.is_some())
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
        for e in self.engines.iter_mut() {
            if let Some(e) = e.take() {
                e.quit();
            }
        }
    }

    /// Runs the table until the server closes.
    pub(crate) fn run(mut self, commands: &Receiver<Request>) {
        self.publish();
        while let Flow::Go | Flow::Reset = self.step(commands) {}
        for e in self.engines.iter_mut() {
            if let Some(e) = e.take() {
                e.quit();
            }
        }
    }

    /// Handles one command; `Flow::Reset` when the step under way must be left.
    fn handle(&mut self, r: Request) -> Flow {
        let reply = r.reply.as_ref();
        match r.command {
            Command::Shutdown => return Flow::Quit,
            Command::Present(p) => {
                self.present = p;
                self.gone_since = (!p).then(Instant::now);
                if p && self.suspended {
                    self.suspended = false;
                    self.notice = Some("welcome back: the game goes on".to_string());
                    self.publish();
                    return Flow::Reset;
                }
            }
            Command::New(setup) => {
                match Table::new(
                    self.config.clone(),
                    setup,
                    self.state.clone(),
                    self.shared.clone(),
                ) {
                    Ok(t) => {
                        let version = self.version;
                        let sink = self.pgn.clone();
                        let old = std::mem::replace(self, t);
                        self.version = version;
                        self.pgn = sink;
                        drop(old);
                        self.publish();
                        return Flow::Reset;
                    }
                    Err(e) => refuse(reply, &format!("that position is refused: {e}")),
                }
            }
            Command::Pause(on) => {
                self.paused = on;
                self.publish();
                if !on {
                    return Flow::Reset;
                }
            }
            Command::Resign => match self.person_to_enter() {
                Some(i) => {
                    let why = format!("{} resigned", self.name(i));
                    self.forfeit(i, why, "normal");
                    self.publish();
                    return Flow::Reset;
                }
                None => refuse(reply, "only the person to move can resign"),
            },
            Command::Undo => {
                if !self.can_undo() {
                    refuse(
                        reply,
                        "undo is for alternating games against an engine, on your turn",
                    );
                } else {
                    self.undo();
                    self.publish();
                    return Flow::Reset;
                }
            }
            Command::Move(text) => {
                let flow = self.person_move(&text, reply);
                self.publish();
                return flow;
            }
        }
        Flow::Go
    }

    fn undo(&mut self) {
        // Back to the last position where the person was to move, before their move.
        let person = |t: &Table, i: usize| t.setup.seats[i] == Who::Person;
        let mut turns: Vec<Record> = self.records.clone();
        while turns.pop().is_some() {
            let pos = replay(&self.start, &turns);
            if let Some(s) = pos.side_to_move()
                && person(self, s.index())
            {
                break;
            }
        }
        self.records = turns;
        self.pos = replay(&self.start, &self.records);
        self.outcome = None;
        self.asked = None;
        self.last = Vec::new();
        self.thinking = [Vec::new(), Vec::new()];
        let fen = self.pos.fen();
        for e in self.engines.iter_mut().flatten() {
            e.set_board(&fen);
        }
        self.notice = Some("took back your last move".to_string());
    }

    fn person_move(&mut self, text: &str, reply: Option<&UnboundedSender<String>>) -> Flow {
        let Some(i) = self.person_to_enter() else {
            let why = if self.outcome.is_some() {
                "the game is over".to_string()
            } else if self.paused || self.suspended {
                "the game is paused".to_string()
            } else {
                "it is not your turn: wait for the engine".to_string()
            };
            refuse(reply, &why);
            return Flow::Go;
        };
        let s = side(i);
        let Some(mv) = Position::parse(text) else {
            refuse(reply, &format!("'{}' is not a move", quoted(text)));
            return Flow::Go;
        };
        if let Some(why) = self.pos.refusal(s, &mv) {
            refuse(reply, &format!("illegal move {mv}: {why}"));
            return Flow::Go;
        }
        let used = self.asked.map_or(Duration::ZERO, |a| a.elapsed());
        if !self.clocks[i].charge(used, Duration::ZERO) {
            let why = format!("{} lost on time", self.name(i));
            self.forfeit(i, why, "time forfeit");
            return Flow::Reset;
        }
        self.notice = None;
        if self.pos.sealed() {
            self.halves[i] = Half::Plain(mv.to_string());
            self.asked = Some(Instant::now());
            return Flow::Go;
        }
        self.play_single(i, &mv);
        Flow::Go
    }

    fn play_single(&mut self, i: usize, mv: &WireMove) {
        let before = self.pos.clone();
        if let Err(e) = self.pos.play_single(mv) {
            let why = format!("{} played an illegal move: {e}", self.name(i));
            self.forfeit(i, why, "rules infraction");
            return;
        }
        let mut words = vec![format!("{}: {}", self.name(i), before.in_words(mv))];
        words.extend(before.effects(&self.pos, &[mv]));
        self.last = squares(mv);
        self.records.push(Record {
            turn: WireTurn::Single(mv.clone()),
            words,
            comment: None,
        });
        self.asked = Some(Instant::now());
        if let Some(e) = self.engines[1 - i].as_mut() {
            e.inform(mv);
        }
        self.check_end();
    }

    fn check_end(&mut self) {
        if let Some(o) = self.pos.outcome() {
            self.finish(o, "normal");
        } else if self.records.len() >= MAX_TURNS {
            self.finish(
                Outcome {
                    winner: None,
                    reason: format!("adjudicated: turn cap of {MAX_TURNS} turns reached"),
                },
                "adjudication",
            );
        }
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
            for e in self.engines.iter_mut() {
                if let Some(e) = e.take() {
                    e.quit();
                }
            }
            for i in 0..2 {
                self.wire.drain(i);
                if matches!(self.halves[i], Half::Committed(_)) || self.pos.sealed() {
                    self.halves[i] = Half::Waiting;
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
                self.forfeit(i, why, "time forfeit");
                self.publish();
                return Flow::Go;
            }
            // Lines an engine sends while the person thinks.
            for j in 0..2 {
                if let Some(e) = self.engines[j].as_mut()
                    && !(self.pos.sealed() && matches!(self.halves[j], Half::Committed(_)))
                    && let Err(why) = e.idle(&mut self.wire)
                {
                    self.forfeit(j, why, "rules infraction");
                    self.publish();
                    return Flow::Go;
                }
            }
            return self.wait_commands(commands, Duration::from_millis(100));
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

    fn ensure_engine(&mut self, i: usize) -> Result<(), String> {
        if self.engines[i].is_some() {
            return Ok(());
        }
        let Who::Engine(n) = self.setup.seats[i] else {
            return Ok(());
        };
        let spec = self.config.engines[n].clone();
        self.wire.drain(i);
        let fen = (self.setup.fen.is_some() || !self.records.is_empty()).then(|| self.pos.fen());
        let fen = if self.pos.sealed() { None } else { fen };
        let mut e = Engine::start(&spec, i, &mut self.wire, self.setup.variant, fen.as_deref())?;
        if self.pos.sealed() {
            // A sealed engine that keeps its own board learns the game so far turn by turn.
            if let Some(f) = &self.setup.fen {
                e.set_board(f);
            }
            for r in &self.records {
                if let WireTurn::Joint(w, b) = &r.turn {
                    e.reveal(w, b);
                }
            }
        }
        self.engines[i] = Some(e);
        Ok(())
    }

    fn times(&self, i: usize) -> Option<([Duration; 2], [Duration; 2])> {
        self.clocks[i].left?;
        let left = self.clocks.map(|c| c.left.unwrap_or_default());
        let inc = self.clocks.map(|c| c.inc);
        Some((left, inc))
    }

    /// Asks the engines at `seats` for their moves (those not asked yet: in a sealed turn both
    /// think at once) and waits for the first answer, watching the page's commands; returns
    /// the seat and its move or commitment as heard, with the time it took.
    fn ask(
        &mut self,
        seats: &[usize],
        sealed: bool,
        commands: &Receiver<Request>,
    ) -> Result<(usize, Heard, Duration), Flow> {
        for &i in seats {
            self.request(i, sealed)?;
        }
        let mut last_publish = Instant::now();
        loop {
            let deadlines: Vec<(usize, Instant, Instant)> = seats
                .iter()
                .filter_map(|&i| {
                    let asked = self.engines[i].as_ref()?.asked()?;
                    let allowance = self.clocks[i].allowance(self.config.move_timeout);
                    Some((i, asked, later(asked, allowance)))
                })
                .collect();
            let first = deadlines
                .iter()
                .map(|d| d.2)
                .min()
                .unwrap_or_else(Instant::now);
            let until = later(Instant::now(), SLICE).min(first);
            match seats::listen(&mut self.engines, &mut self.wire, until) {
                Err((j, why)) => return Err(self.forfeited(j, why, "rules infraction")),
                Ok((j, Heard::Thinking(t))) => {
                    let list = if sealed {
                        &mut self.hidden[j]
                    } else {
                        &mut self.thinking[j]
                    };
                    list.push(t);
                    if list.len() > MAX_THINKING {
                        list.remove(0);
                    }
                    if !sealed && last_publish.elapsed() > Duration::from_millis(150) {
                        last_publish = Instant::now();
                        self.publish();
                    }
                }
                Ok((j, h @ (Heard::Move(_, at) | Heard::Commit(_, at)))) => {
                    let asked = deadlines.iter().find(|d| d.0 == j).map_or(at, |d| d.1);
                    return Ok((j, h, at.saturating_duration_since(asked)));
                }
                Ok((_, Heard::Nothing)) => {}
            }
            if let Some(&(j, _, _)) = deadlines.iter().find(|d| Instant::now() >= d.2) {
                let allowance = self.clocks[j].allowance(self.config.move_timeout);
                let why = format!(
                    "{} did not move within {:.1} s",
                    self.name(j),
                    allowance.as_secs_f64()
                );
                return Err(self.forfeited(j, why, "time forfeit"));
            }
            // The other engine must stay quiet.
            if let [i] = seats
                && let Some(o) = self.engines[1 - i].as_mut()
                && !sealed
                && let Err(why) = o.idle(&mut self.wire)
            {
                return Err(self.forfeited(1 - i, why, "rules infraction"));
            }
            match self.wait_commands(commands, Duration::ZERO) {
                Flow::Go => {}
                f => {
                    // The game changed under the engines: they are replaced at the next request.
                    for &i in seats {
                        if let Some(e) = self.engines[i].take() {
                            e.quit();
                        }
                        self.wire.drain(i);
                    }
                    return Err(f);
                }
            }
        }
    }

    /// Asks engine `i` for its move, unless it is asked already (it is started first).
    fn request(&mut self, i: usize, sealed: bool) -> Result<(), Flow> {
        if let Err(why) = self.ensure_engine(i) {
            return Err(self.forfeited(i, why, "rules infraction"));
        }
        if self.engines[i]
            .as_ref()
            .is_some_and(|e| e.asked().is_some())
        {
            return Ok(());
        }
        let turns: Vec<WireTurn> = self.records.iter().map(|r| r.turn.clone()).collect();
        let times = self.times(i);
        let Some(e) = self.engines[i].as_mut() else {
            return Ok(());
        };
        match e.request(
            &mut self.wire,
            self.setup.fen.as_deref(),
            &turns,
            sealed,
            times,
        ) {
            Ok(asked) => self.asked = Some(asked),
            Err(why) => return Err(self.forfeited(i, why, "rules infraction")),
        }
        self.thinking[i].clear();
        self.hidden[i].clear();
        self.publish();
        Ok(())
    }

    /// Seat `i` forfeits, and the page is told.
    fn forfeited(&mut self, i: usize, why: String, termination: &'static str) -> Flow {
        self.forfeit(i, why, termination);
        self.publish();
        Flow::Go
    }

    fn engine_move(&mut self, i: usize, commands: &Receiver<Request>) -> Flow {
        let (_, heard, used) = match self.ask(&[i], false, commands) {
            Ok(h) => h,
            Err(f) => return f,
        };
        if let Some(e) = self.engines[i].as_mut() {
            e.moved();
        }
        let written = match heard {
            Heard::Move(m, _) => m,
            Heard::Commit(d, _) => {
                let why = format!(
                    "{} sent a commitment ({d}) in an alternating game",
                    self.name(i)
                );
                self.forfeit(i, why, "rules infraction");
                self.publish();
                return Flow::Go;
            }
            _ => return Flow::Go,
        };
        if !self.clocks[i].charge(used, MARGIN) {
            let why = format!(
                "{} lost on time ({:.3} s used)",
                self.name(i),
                used.as_secs_f64()
            );
            self.forfeit(i, why, "time forfeit");
            self.publish();
            return Flow::Go;
        }
        match Position::parse(&written) {
            Some(mv) => self.play_single(i, &mv),
            None => {
                let why = format!(
                    "{} sent garbage for a move: '{}'",
                    self.name(i),
                    quoted(&written)
                );
                self.forfeit(i, why, "rules infraction");
            }
        }
        self.publish();
        Flow::Go
    }

    fn sealed_step(&mut self, commands: &Receiver<Request>) -> Flow {
        // 1. Every engine that has not answered is asked, both at once, neither told the
        //    other's choice; each answer is kept as it comes.
        let waiting: Vec<usize> = (0..2)
            .filter(|&i| {
                matches!(self.setup.seats[i], Who::Engine(_))
                    && matches!(self.halves[i], Half::Waiting)
            })
            .collect();
        if !waiting.is_empty() {
            let (i, heard, used) = match self.ask(&waiting, true, commands) {
                Ok(h) => h,
                Err(f) => return f,
            };
            if !self.clocks[i].charge(used, MARGIN) {
                let why = format!("{} lost on time", self.name(i));
                return self.forfeited(i, why, "time forfeit");
            }
            self.halves[i] = match heard {
                Heard::Move(m, _) => Half::Plain(m),
                Heard::Commit(d, _) => Half::Committed(d),
                Heard::Nothing | Heard::Thinking(_) => Half::Waiting,
            };
            if self.engines.iter().flatten().all(|e| e.asked().is_none()) {
                // A person's clock runs from when the engines are in.
                self.asked = None;
            }
            self.publish();
            return Flow::Go;
        }
        if self.halves.iter().any(|h| matches!(h, Half::Waiting)) {
            // People still to seal: `step` waits for them.
            return Flow::Go;
        }
        // 2. Open the commitments: each committer is told the other's move or commitment.
        let halves = self.halves.clone();
        for i in 0..2 {
            if let Half::Committed(_) = &halves[i] {
                let other = match &halves[1 - i] {
                    Half::Committed(d) | Half::Plain(d) => d.clone(),
                    Half::Waiting => unreachable!("both halves are in"),
                };
                if let Some(e) = self.engines[i].as_mut() {
                    e.opponent(&other);
                }
            }
        }
        let mut written = [String::new(), String::new()];
        let mut openings: [Option<Value>; 2] = [None, None];
        for i in 0..2 {
            match &halves[i] {
                Half::Plain(m) => written[i] = m.clone(),
                Half::Committed(digest) => {
                    let Some(e) = self.engines[i].as_mut() else {
                        return Flow::Go;
                    };
                    match e.opening(&mut self.wire, digest) {
                        Ok((mv, nonce)) => {
                            openings[i] =
                                Some(json!({"digest": digest, "move": mv, "nonce": nonce}));
                            written[i] = mv;
                        }
                        Err((opened, why)) => {
                            // The page is shown the broken opening and checks it itself.
                            let opening = opened.map(
                                |(mv, nonce)| json!({"digest": digest, "move": mv, "nonce": nonce}),
                            );
                            self.reveal = Some(json!({
                                "turn": self.records.len() + 1,
                                "openings": [if i == 0 { opening.clone() } else { openings[0].clone() },
                                             if i == 1 { opening } else { None }],
                                "moves": [Value::Null, Value::Null],
                                "words": [why.clone()],
                                "thinking": [[], []],
                            }));
                            self.forfeit(i, why, "rules infraction");
                            self.halves = [Half::Waiting, Half::Waiting];
                            self.publish();
                            return Flow::Go;
                        }
                    }
                }
                Half::Waiting => unreachable!("both halves are in"),
            }
        }
        // 3. Play the pair.
        let (Some(wm), Some(bm)) = (Position::parse(&written[0]), Position::parse(&written[1]))
        else {
            let culprit = usize::from(Position::parse(&written[0]).is_some());
            let why = format!(
                "{} sent garbage for a move: '{}'",
                self.name(culprit),
                quoted(&written[culprit])
            );
            self.forfeit(culprit, why, "rules infraction");
            self.publish();
            return Flow::Go;
        };
        let before = self.pos.clone();
        let penalties = match self.pos.play_joint(&wm, &bm) {
            Ok(p) => p,
            Err(e) => {
                let culprit = usize::from(before.legal_moves(Side::White).contains(&wm));
                let why = format!(
                    "{} wrote a move that is not of the variant: {e}",
                    self.name(culprit)
                );
                self.forfeit(culprit, why, "rules infraction");
                self.publish();
                return Flow::Go;
            }
        };
        let mut words = Vec::new();
        for (i, mv) in [&wm, &bm].into_iter().enumerate() {
            words.push(format!("{}: {}", self.name(i), before.in_words(mv)));
        }
        for p in &penalties {
            words.push(format!(
                "{} {} is void: {} (a penalty point)",
                p.side.word(),
                p.mv,
                p.reason
            ));
        }
        words.extend(before.effects(&self.pos, &[&wm, &bm]));
        let comment = crate::rules::Penalty::comment(&penalties);
        let thinking: Vec<Value> = (0..2)
            .map(|i| {
                Value::Array(
                    self.hidden[i]
                        .iter()
                        .map(|t| json!({"depth": t.depth, "score": t.score, "pv": t.pv}))
                        .collect(),
                )
            })
            .collect();
        self.thinking = self.hidden.clone();
        self.reveal = Some(json!({
            "turn": self.records.len() + 1,
            "moves": [wm.to_string(), bm.to_string()],
            "openings": openings,
            "words": words,
            "penalties": penalties.iter().map(|p| json!({"side": p.side.word(), "move": p.mv, "reason": p.reason})).collect::<Vec<_>>(),
            "before": before.pieces_json(),
            "thinking": thinking,
        }));
        self.last = squares(&wm).into_iter().chain(squares(&bm)).collect();
        self.records.push(Record {
            turn: WireTurn::Joint(wm.clone(), bm.clone()),
            words,
            comment,
        });
        for e in self.engines.iter_mut().flatten() {
            e.reveal(&wm, &bm);
        }
        self.halves = [Half::Waiting, Half::Waiting];
        self.asked = None;
        self.check_end();
        self.publish();
        Flow::Go
    }
}

fn replay(start: &Position, records: &[Record]) -> Position {
    let mut pos = start.clone();
    for r in records {
        let _ = match &r.turn {
            WireTurn::Single(m) => pos.play_single(m).map(|_| ()),
            WireTurn::Joint(w, b) => pos.play_joint(w, b).map(|_| ()),
        };
    }
    pos
}

fn squares(mv: &WireMove) -> Vec<String> {
    crate::referee::human::squares(mv)
        .into_iter()
        .map(|s| s.to_string())
        .collect()
}
