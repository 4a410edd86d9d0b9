//! One refereed game: the referee keeps its own position with Quill's rules, asks the seats for
//! their moves (both at once in a sealed game), checks every answer, runs the clocks, and
//! records the game. It never trusts a claim: a move that does not parse, an illegal move, a
//! crash, a silence past the clock, a false claim or a move out of turn forfeits the game.

use std::fs::File;
use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::commit;
use crate::game::{Game, Outcome};
use crate::notation::{Turn, WireMove, parse_move};
use crate::protocol::cecp::{CecpCommand, Seconds};
use crate::protocol::uci::{GoParams, PositionStart, UciCommand};
use crate::variant::{Side, Variant};

use super::engine::{MAX_LINE, Meaning, Process, Said, meaning};
use super::human::{self, Typed};
use super::inbox::{Dialogue, Inbox};
use super::later;
use super::results::{GameRecord, GameResult};
use super::seat::{Dialect, EngineSpec, Limits, Seat};

/// Longest piece of an engine's text quoted in a reason (the results file, the PGN).
pub const MAX_QUOTED: usize = 100;

/// An engine's text as quoted in a reason: at most [`MAX_QUOTED`] bytes (cut at a character
/// boundary, with `…` when cut), so that a record stays short whatever the engine sent.
fn shown(text: &str) -> String {
    if text.len() <= MAX_QUOTED {
        return text.to_string();
    }
    let mut end = MAX_QUOTED;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// Lines typed ahead by a person that wait for the referee; the reader blocks beyond.
pub const TYPED_AHEAD: usize = 64;

/// How long an engine may take to start (`uciok`, `feature done=1`) and to answer `isready`.
const START_TIMEOUT: Duration = Duration::from_secs(10);
/// Most unrecognised lines an engine may print while thinking before it forfeits for garbage.
const MAX_GARBAGE: usize = 100;

/// When the referee ends a game that the rules have not ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// After this many turns the game is drawn.
    pub max_turns: u32,
    /// A position (counters aside) seen this many times draws; 0: never.
    pub repetitions: u32,
    /// `(cp, n)`: a player whose own score is at most `-cp` for `n` of its moves in a row loses.
    pub resign: Option<(i32, u32)>,
    /// `(after, cp, n)`: from turn `after`, when both players' scores stay within `cp` of 0 for
    /// `n` turns in a row, the game is drawn.
    pub draw: Option<(u32, i32, u32)>,
}

/// What a game starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its id in the results file (`-` for the start position).
    pub id: String,
    /// The start FEN, or `None` for the variant's start position.
    pub fen: Option<String>,
}

/// Everything one game needs besides its seats.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The variant.
    pub variant: Variant,
    /// The game's index in the match.
    pub index: u32,
    /// Its pair (the two games of a pair share the opening).
    pub pair: u32,
    /// The opening.
    pub opening: Opening,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// How far past its clock an engine may answer before it forfeits.
    pub margin: Duration,
    /// How long an engine with no clock and no time per move (depth or node limits) may think.
    pub move_timeout: Duration,
    /// Where to write the dialogue (`> ` sent, `< ` received, per seat), if anywhere.
    pub log: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub event: String,
}

/// A finished game: its results-file record and its PGN.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The record.
    pub record: GameRecord,
    /// The game in PGN.
    pub pgn: String,
}

/// The terminal of a human seat: lines typed, and where the referee writes to the person.
#[derive(Clone)]
pub struct Terminal {
    /// Lines typed by the person (`None` at end of input).
    pub input: Arc<Mutex<Receiver<Option<String>>>>,
    /// What the person is shown.
    pub output: Arc<Mutex<dyn Write + Send>>,
}

impl Terminal {
    /// The terminal of this process: standard input read on a thread, standard output. A
    /// typed line is kept up to [`MAX_LINE`] bytes (the rest of a longer one is read and
    /// dropped, in pieces of that size), and at most [`TYPED_AHEAD`] lines wait to be read.
    pub fn stdio() -> Terminal {
        let (tx, rx) = mpsc::sync_channel(TYPED_AHEAD);
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut line = Vec::new();
            loop {
                line.clear();
                match (&mut stdin)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut line)
                {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        return;
                    }
                    Ok(_) => {
                        let mut skip = Vec::new();
                        while line.last() != Some(&b'\n') {
                            skip.clear();
                            match (&mut stdin)
                                .take(MAX_LINE as u64)
                                .read_until(b'\n', &mut skip)
                            {
                                Ok(0) | Err(_) => break,
                                Ok(_) if skip.last() == Some(&b'\n') => break,
                                Ok(_) => {}
                            }
                        }
                        let text = String::from_utf8_lossy(&line).trim().to_string();
                        if tx.send(Some(text)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Terminal {
            input: Arc::new(Mutex::new(rx)),
            output: Arc::new(Mutex::new(std::io::stdout())),
        }
    }

    /// A terminal that nobody types at (a seat that could not be set up).
    fn none() -> Terminal {
        let (_, rx) = mpsc::channel();
        Terminal {
            input: Arc::new(Mutex::new(rx)),
            output: Arc::new(Mutex::new(std::io::sink())),
        }
    }

    fn say(&self, text: &str) {
        if let Ok(mut out) = self.output.lock() {
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
        }
    }

    fn read(&self) -> Option<String> {
        self.input.lock().ok()?.recv().ok().flatten()
    }
}

/// Why a seat lost the game outright.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Forfeit {
    seat: usize,
    why: String,
    termination: &'static str,
}

fn forfeit(seat: usize, why: impl Into<String>) -> Forfeit {
    Forfeit {
        seat,
        why: why.into(),
        termination: "rules infraction",
    }
}

/// A seat's clock.
#[derive(Clone, Copy, Debug)]
struct Clock {
    limits: Limits,
    left: Duration,
    moves: u32,
}

impl Clock {
    fn new(limits: Limits) -> Clock {
        Clock {
            limits,
            left: limits.clock.map_or(Duration::ZERO, |c| c.base),
            moves: 0,
        }
    }

    /// The margin past a fixed time per move: `floor`, or half the move time when that is
    /// more (a loaded machine delays a short move by a share of its length, not by a constant).
    fn margin(&self, floor: Duration) -> Duration {
        self.limits.movetime.map_or(floor, |t| floor.max(t / 2))
    }

    /// How long the seat may take before it is out of time or considered hung.
    fn allowance(&self, margin: Duration, move_timeout: Duration) -> Duration {
        let margin = self.margin(margin);
        match (self.limits.clock, self.limits.movetime) {
            (Some(_), Some(t)) => self.left.min(t).saturating_add(margin),
            (Some(_), None) => self.left.saturating_add(margin),
            (None, Some(t)) => t.saturating_add(margin),
            (None, None) => move_timeout,
        }
    }

    /// Charges a move; `false` when the player overstepped its clock.
    fn charge(&mut self, used: Duration, margin: Duration) -> bool {
        let Some(c) = self.limits.clock else {
            return true;
        };
        if used > self.left.saturating_add(margin) {
            return false;
        }
        self.left = self.left.saturating_sub(used).saturating_add(c.inc);
        self.moves += 1;
        if c.moves > 0 && self.moves.is_multiple_of(c.moves) {
            self.left = self.left.saturating_add(c.base);
        }
        true
    }

    fn moves_to_go(&self) -> Option<u32> {
        self.limits
            .clock
            .filter(|c| c.moves > 0)
            .map(|c| c.moves - self.moves % c.moves)
    }
}

/// A seat during a game.
enum Player {
    Engine(Box<EnginePlayer>),
    Human(String, Terminal),
}

/// An engine during a game.
struct EnginePlayer {
    spec: EngineSpec,
    seat: usize,
    process: Process,
    log: Dialogue,
    /// CECP: `usermove=1` was offered.
    usermove: bool,
    /// CECP: `ping=1` was offered.
    ping: bool,
    /// The last `ping` number sent.
    pings: u32,
    /// UCI: the engine lists `UCI_Variant`.
    variant_option: bool,
    /// UCI: the engine lists `SealedCommit`; CECP: it offered the option.
    commit_option: bool,
    /// The last score it reported while thinking.
    score: Option<i32>,
}

impl EnginePlayer {
    /// A started engine at seat `seat`, before its handshake (which finds out what it offers).
    fn new(spec: &EngineSpec, seat: usize, process: Process, log: Dialogue) -> EnginePlayer {
        EnginePlayer {
            spec: spec.clone(),
            seat,
            process,
            log,
            usermove: false,
            ping: false,
            pings: 1,
            variant_option: false,
            commit_option: false,
            score: None,
        }
    }

    fn send(&mut self, line: &str) -> bool {
        self.log.line(self.seat, '>', line);
        self.process.send(line)
    }

    /// Sends a UCI command, printed by the protocol's own printer.
    fn uci(&mut self, command: UciCommand) -> bool {
        self.send(&command.to_string())
    }

    /// Sends a CECP command, printed by the protocol's own printer.
    fn cecp(&mut self, command: CecpCommand) -> bool {
        self.send(&command.to_string())
    }

    fn crashed(&mut self, what: &str) -> Forfeit {
        // Give the process a moment to be reaped, for its exit status.
        let until = later(Instant::now(), Duration::from_millis(200));
        while self.process.exit_status().is_none() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        let status = self
            .process
            .exit_status()
            .map_or("closed its output".to_string(), |s| format!("exited ({s})"));
        forfeit(self.seat, format!("{} {status} {what}", self.spec.name))
    }

    /// The forfeit of an engine that broke a bound on its output.
    fn overflowed(&self, why: &str) -> Forfeit {
        forfeit(self.seat, format!("{} {why}", self.spec.name))
    }

    /// Reads lines of this engine until `want` accepts one, before `deadline`.
    fn wait_for<T>(
        &mut self,
        inbox: &mut Inbox,
        deadline: Instant,
        what: &str,
        mut want: impl FnMut(&mut EnginePlayer, Meaning) -> Option<T>,
    ) -> Result<T, Forfeit> {
        loop {
            let Some(event) = inbox.next_from(self.seat, deadline) else {
                return Err(forfeit(
                    self.seat,
                    format!("{} did not answer in time ({what})", self.spec.name),
                ));
            };
            match event.said {
                Said::Closed => return Err(self.crashed(&format!("while waiting for {what}"))),
                Said::Overflow(why) => return Err(self.overflowed(&why)),
                Said::Line(line) => {
                    let m = meaning(self.spec.dialect, &line);
                    if let Some(t) = want(self, m) {
                        return Ok(t);
                    }
                }
            }
        }
    }

    /// Makes sure the engine has read everything sent so far (UCI `isready`, CECP `ping`),
    /// before it is asked to move: a move printed before the answer is a move out of turn.
    fn sync(&mut self, inbox: &mut Inbox) -> Result<(), Forfeit> {
        let expected = match self.spec.dialect {
            Dialect::Uci => {
                self.uci(UciCommand::IsReady);
                None
            }
            Dialect::Cecp if self.ping => {
                self.pings += 1;
                self.cecp(CecpCommand::Ping(self.pings.to_string()));
                Some(self.pings.to_string())
            }
            Dialect::Cecp => return Ok(()),
        };
        let deadline = later(Instant::now(), START_TIMEOUT);
        let name = self.spec.name.clone();
        let seat = self.seat;
        self.wait_for(inbox, deadline, "isready/ping", |_, m| match m {
            Meaning::ReadyOk if expected.is_none() => Some(Ok(())),
            Meaning::Pong(n) if expected.as_ref() == Some(&n) => Some(Ok(())),
            Meaning::Move(m) | Meaning::Commit(m) => Some(Err(forfeit(
                seat,
                format!("{name} moved out of turn ({})", shown(&m)),
            ))),
            _ => None,
        })?
    }

    /// Waits for the answer `done` to the sync after the options; a complaint before it (UCI
    /// `info string error …`, CECP `Error …`) means the engine refused an option or the
    /// variant, and the seat is not fit to play.
    fn options_synced(
        &mut self,
        inbox: &mut Inbox,
        deadline: Instant,
        what: &str,
        done: impl Fn(&Meaning) -> bool,
    ) -> Result<(), Forfeit> {
        let name = self.spec.name.clone();
        let seat = self.seat;
        self.wait_for(inbox, deadline, what, |_, m| match m {
            Meaning::Complaint(c) => Some(Err(forfeit(
                seat,
                format!("{name} refused an option: {}", shown(&c)),
            ))),
            m if done(&m) => Some(Ok(())),
            _ => None,
        })?
    }

    /// Starts the engine's session: the handshake, the options, the variant.
    fn start(
        &mut self,
        inbox: &mut Inbox,
        variant: Variant,
        wants_commit: bool,
    ) -> Result<(), Forfeit> {
        let deadline = later(Instant::now(), START_TIMEOUT);
        let name = self.spec.name.clone();
        match self.spec.dialect {
            Dialect::Uci => {
                self.uci(UciCommand::Uci);
                self.wait_for(inbox, deadline, "uciok", |e, m| match m {
                    Meaning::UciOk => Some(()),
                    Meaning::OptionName(o) => {
                        e.variant_option |= o.eq_ignore_ascii_case("UCI_Variant");
                        e.commit_option |= o.eq_ignore_ascii_case("SealedCommit");
                        None
                    }
                    _ => None,
                })?;
                let set = |name: &str, value: String| UciCommand::SetOption {
                    name: name.to_owned(),
                    value: Some(value),
                };
                if self.variant_option {
                    self.uci(set("UCI_Variant", variant.to_string()));
                }
                for (k, v) in self.spec.options.clone() {
                    self.uci(set(&k, v));
                }
                if wants_commit && self.commit_option {
                    self.uci(set("SealedCommit", "true".to_owned()));
                }
                self.uci(UciCommand::UciNewGame);
                self.uci(UciCommand::IsReady);
                self.options_synced(inbox, deadline, "readyok", |m| *m == Meaning::ReadyOk)?;
            }
            Dialect::Cecp => {
                self.cecp(CecpCommand::Xboard);
                self.cecp(CecpCommand::Protover(2));
                let mut variants: Option<String> = None;
                let mut sealed = false;
                let mut done = false;
                // The features may come in several lines; `done=0` suspends the timer.
                let mut until = later(Instant::now(), Duration::from_secs(2));
                while !done {
                    let Some(event) = inbox.next_from(self.seat, until) else {
                        break;
                    };
                    let line = match event.said {
                        Said::Closed => return Err(self.crashed("during the handshake")),
                        Said::Overflow(why) => return Err(self.overflowed(&why)),
                        Said::Line(l) => l,
                    };
                    if let Meaning::Features(pairs) = meaning(Dialect::Cecp, &line) {
                        for (k, v) in pairs {
                            let accept = !(k == "san" && v == "1");
                            match k.as_str() {
                                "done" if v == "0" => until = deadline,
                                "done" => done = true,
                                "variants" => variants = Some(v.clone()),
                                "sealed" => sealed = v == "1",
                                "usermove" => self.usermove = v == "1",
                                "ping" => self.ping = v == "1",
                                "option" => {
                                    self.commit_option |= v.starts_with("SealedCommit ");
                                }
                                _ => {}
                            }
                            if k != "done" {
                                self.cecp(if accept {
                                    CecpCommand::Accepted(k)
                                } else {
                                    CecpCommand::Rejected(k)
                                });
                            }
                        }
                    }
                }
                let offered = variants
                    .as_deref()
                    .is_some_and(|list| list.split(',').any(|v| v.trim() == variant.name()));
                if variant != Variant::DEFAULT && !offered {
                    return Err(forfeit(
                        self.seat,
                        format!("{name} does not offer the variant {variant}"),
                    ));
                }
                if variant.is_sealed() && !sealed {
                    return Err(forfeit(
                        self.seat,
                        format!("{name} does not offer sealed moves (feature sealed=1)"),
                    ));
                }
                self.cecp(CecpCommand::New);
                self.cecp(CecpCommand::Variant(variant.to_string()));
                self.cecp(CecpCommand::Force);
                let option = |name: String, value: String| CecpCommand::Option {
                    name,
                    value: Some(value),
                };
                for (k, v) in self.spec.options.clone() {
                    self.cecp(option(k, v));
                }
                if wants_commit && self.commit_option {
                    self.cecp(option("SealedCommit".to_owned(), "1".to_owned()));
                }
                self.cecp(CecpCommand::Post);
                self.cecp(CecpCommand::Easy);
                let limits = self.spec.limits;
                if let Some(c) = limits.clock {
                    self.cecp(CecpCommand::Level {
                        mps: c.moves,
                        base_seconds: u32::try_from(c.base.as_secs()).unwrap_or(u32::MAX),
                        inc: seconds(c.inc),
                    });
                }
                if let Some(t) = limits.movetime {
                    self.cecp(CecpCommand::St(seconds(t)));
                }
                if let Some(d) = limits.depth {
                    self.cecp(CecpCommand::Sd(d));
                }
                self.cecp(CecpCommand::Ping("1".to_owned()));
                self.options_synced(inbox, deadline, "pong", |m| matches!(m, Meaning::Pong(_)))?;
            }
        }
        Ok(())
    }
}

/// A duration as CECP writes it, rounded to the millisecond.
fn seconds(d: Duration) -> Seconds {
    let millis = d.as_micros().saturating_add(500) / 1000;
    Seconds::from_millis(u64::try_from(millis).unwrap_or(u64::MAX))
}

/// The state of a game being played.
struct Table {
    setup: GameSetup,
    game: Game,
    turns: Vec<Turn>,
    comments: Vec<Option<String>>,
    clocks: [Clock; 2],
    players: Vec<Player>,
    inbox: Inbox,
    names: [String; 2],
    /// Consecutive moves of each seat with a losing score (resign adjudication).
    losing: [u32; 2],
    /// Consecutive turns with both scores near 0 (draw adjudication).
    quiet: u32,
    /// How often each position has been seen (repetition adjudication).
    seen: std::collections::HashMap<String, u32>,
    /// The squares of the last turn's moves, marked on the board a person is shown.
    marks: Vec<crate::geometry::Square>,
    /// Time each person has spent on their moves.
    human_time: [Duration; 2],
}

/// A position's identity for repetitions: its FEN without the move counters (the fields that
/// are plain numbers), so that penalties and the side to move still count.
fn repetition_key(game: &Game) -> String {
    game.fen()
        .split_whitespace()
        .filter(|f| !f.chars().all(|c| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays one game between `seats[0]` (White) and `seats[1]` (Black).
pub fn play(setup: &GameSetup, seats: [&Seat; 2], terminal: Option<&Terminal>) -> GameReport {
    let log = setup
        .log
        .as_ref()
        .and_then(|p| File::create(p).ok())
        .map_or_else(Dialogue::default, Dialogue::new);
    let dialects = seats.map(|s| match s {
        Seat::Engine(e) => Some(e.dialect),
        Seat::Human { .. } => None,
    });
    let (inbox, tx) = Inbox::new(dialects, log.clone());
    let names = [seats[0].name().to_string(), seats[1].name().to_string()];
    let game = match &setup.opening.fen {
        Some(fen) => Game::from_fen(setup.variant, fen),
        None => Ok(Game::start(setup.variant)),
    };
    let game = match game {
        Ok(g) => g,
        Err(e) => {
            // A bad opening is the match's fault: record a draw that says so.
            let record = record(
                setup,
                &names,
                GameResult::Draw,
                0,
                format!("bad opening: {e}"),
            );
            return GameReport {
                pgn: String::new(),
                record,
            };
        }
    };
    let mut players = Vec::new();
    let mut failed: Option<Forfeit> = None;
    for (i, seat) in seats.iter().enumerate() {
        match seat {
            Seat::Engine(spec) => match Process::spawn(spec, i, tx.clone()) {
                Ok(process) => players.push(Player::Engine(Box::new(EnginePlayer::new(
                    spec,
                    i,
                    process,
                    log.clone(),
                )))),
                Err(e) => {
                    failed.get_or_insert(forfeit(i, format!("{} could not start: {e}", spec.name)));
                    players.push(Player::Human(String::new(), Terminal::none()));
                }
            },
            Seat::Human { name } => match terminal {
                Some(t) => players.push(Player::Human(name.clone(), t.clone())),
                None => {
                    failed.get_or_insert(forfeit(i, "no terminal for a human seat"));
                    players.push(Player::Human(name.clone(), Terminal::none()));
                }
            },
        }
    }
    drop(tx);
    let human_present = players.iter().any(|p| matches!(p, Player::Human(..)));
    let mut table = Table {
        setup: setup.clone(),
        game,
        turns: Vec::new(),
        comments: Vec::new(),
        clocks: [
            Clock::new(seat_limits(seats[0])),
            Clock::new(seat_limits(seats[1])),
        ],
        players,
        inbox,
        names,
        losing: [0, 0],
        quiet: 0,
        seen: std::collections::HashMap::new(),
        marks: Vec::new(),
        human_time: [Duration::ZERO; 2],
    };
    let ended = match failed {
        Some(f) => Err(Stop::Forfeit(f)),
        None => table
            .start_all(human_present)
            .map_err(Stop::Forfeit)
            .and_then(|()| table.run()),
    };
    table.finish(ended)
}

/// Starts the engine of seat `i` as a game would (the handshake, its options, the variant) and
/// stops it: a match probes every engine seat before its first game, so that a command that does
/// not run or an option the engine refuses stops the match instead of forfeiting every game.
/// A seat that starts but misbehaves (silence, floods) is only warned about: that is the
/// engine's conduct, which the games record as forfeits.
///
/// # Errors
/// Why the seat cannot play (it could not be started, it exited during the handshake, or it
/// refused an option), in the words a game would record.
pub fn probe(variant: Variant, seats: [&Seat; 2], i: usize) -> Result<(), String> {
    let Seat::Engine(spec) = seats[i] else {
        return Ok(());
    };
    let mut dialects = [None, None];
    dialects[i] = Some(spec.dialect);
    let (mut inbox, tx) = Inbox::new(dialects, Dialogue::default());
    let process =
        Process::spawn(spec, i, tx).map_err(|e| format!("{} could not start: {e}", spec.name))?;
    let mut e = EnginePlayer::new(spec, i, process, Dialogue::default());
    let human = seats.iter().any(|s| matches!(s, Seat::Human { .. }));
    let started = e.start(&mut inbox, variant, variant.is_sealed() && human);
    let exited = e.process.exit_status().map(|s| s.code());
    e.process.stop("quit", Duration::from_millis(500));
    match started {
        Ok(()) => Ok(()),
        Err(f) if f.why.contains(" refused an option") => Err(f.why),
        Err(f) if exited == Some(Some(127)) => Err(format!(
            "{} (exit status 127: the shell found no such command: {})",
            f.why, spec.cmd
        )),
        // It ended its output or exited by itself (not a flood the referee cut short).
        Err(f) if f.why.contains(" exited (") || f.why.contains(" closed its output") => Err(f.why),
        Err(f) => {
            log::warn!("{}: {} (the games will tell)", spec.name, f.why);
            Ok(())
        }
    }
}

fn seat_limits(seat: &Seat) -> Limits {
    match seat {
        Seat::Engine(e) => e.limits,
        Seat::Human { .. } => Limits::default(),
    }
}

fn record(
    setup: &GameSetup,
    names: &[String; 2],
    result: GameResult,
    plies: u32,
    reason: String,
) -> GameRecord {
    GameRecord {
        game: setup.index,
        pair: setup.pair,
        white: names[0].clone(),
        black: names[1].clone(),
        result,
        plies,
        opening: setup.opening.id.clone(),
        reason,
    }
}

/// How the game ended, when the rules did not end it: a forfeit or an adjudication.
enum Stop {
    Forfeit(Forfeit),
    Adjudicated(Outcome),
}

impl From<Forfeit> for Stop {
    fn from(f: Forfeit) -> Stop {
        Stop::Forfeit(f)
    }
}

impl Table {
    fn start_all(&mut self, human_present: bool) -> Result<(), Forfeit> {
        let variant = self.setup.variant;
        let fen = self.setup.opening.fen.clone();
        let sealed = variant.is_sealed();
        for i in 0..2 {
            let Player::Engine(e) = &mut self.players[i] else {
                continue;
            };
            e.start(&mut self.inbox, variant, sealed && human_present)?;
            if e.spec.dialect == Dialect::Cecp {
                if let Some(fen) = &fen {
                    e.cecp(CecpCommand::SetBoard(fen.clone()));
                }
                if sealed {
                    let side = if i == 0 { Side::White } else { Side::Black };
                    e.cecp(CecpCommand::Sealed(side));
                }
            }
        }
        Ok(())
    }

    fn run(&mut self) -> Result<(), Stop> {
        loop {
            if self.game.outcome().is_some() {
                return Ok(());
            }
            let times = self.seen.entry(repetition_key(&self.game)).or_insert(0);
            *times += 1;
            let limit = self.setup.adjudication.repetitions;
            if limit > 0 && *times >= limit {
                return Err(Stop::Adjudicated(Outcome {
                    winner: None,
                    reason: format!("adjudicated: the same position {limit} times"),
                }));
            }
            let played = u32::try_from(self.turns.len()).unwrap_or(u32::MAX);
            if played >= self.setup.adjudication.max_turns {
                return Err(Stop::Adjudicated(Outcome {
                    winner: None,
                    reason: format!("adjudicated: turn cap of {played} turns reached"),
                }));
            }
            match self.game.side_to_move() {
                Some(side) => self.alternating_turn(side.index())?,
                None => self.sealed_turn()?,
            }
            self.adjudicate()?;
        }
    }

    /// The UCI `position` command of the game so far.
    fn position(&self) -> UciCommand {
        UciCommand::Position {
            start: match &self.setup.opening.fen {
                Some(fen) => PositionStart::Fen(fen.clone()),
                None => PositionStart::StartPos,
            },
            moves: self.turns.clone(),
        }
    }

    /// The UCI `go` of seat `i`: its limits, and in a sealed game its side.
    fn go(&self, i: usize, sealed: bool) -> UciCommand {
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let clock = &self.clocks[i];
        let mut go = GoParams {
            sealed: sealed.then_some(if i == 0 { Side::White } else { Side::Black }),
            movetime: clock.limits.movetime.map(millis),
            depth: clock.limits.depth,
            nodes: clock.limits.nodes,
            ..GoParams::default()
        };
        if let Some(c) = clock.limits.clock {
            let other = &self.clocks[1 - i];
            let (w, b) = if i == 0 {
                (clock, other)
            } else {
                (other, clock)
            };
            let inc = |c: &Clock| c.limits.clock.map_or(0, |k| millis(k.inc));
            go.wtime = Some(millis(w.left));
            go.btime = Some(millis(b.left));
            go.winc = Some(inc(w));
            go.binc = Some(inc(b));
            if c.moves > 0 {
                go.movestogo = Some(clock.moves_to_go().unwrap_or(1));
            }
        }
        UciCommand::Go(go)
    }

    /// Asks seat `i` for its move (in a sealed game, for its half of the turn); returns when the
    /// request went out (the seat's clock runs from then).
    fn request(&mut self, i: usize) -> Result<Instant, Forfeit> {
        let sealed = self.game.side_to_move().is_none();
        let position = self.position();
        let go = self.go(i, sealed);
        let times = [self.clocks[0].left, self.clocks[1].left];
        let has_clock = self.clocks[i].limits.clock.is_some();
        let Player::Engine(e) = &mut self.players[i] else {
            return Ok(Instant::now());
        };
        e.score = None;
        match e.spec.dialect {
            Dialect::Uci => {
                e.uci(position);
                e.sync(&mut self.inbox)?;
                e.uci(go);
            }
            Dialect::Cecp => {
                e.sync(&mut self.inbox)?;
                if has_clock {
                    let cs = |d: Duration| i64::try_from(d.as_millis() / 10).unwrap_or(i64::MAX);
                    e.cecp(CecpCommand::Time(cs(times[i])));
                    e.cecp(CecpCommand::Otim(cs(times[1 - i])));
                }
                e.cecp(CecpCommand::Go);
            }
        }
        Ok(Instant::now())
    }

    /// Tells seat `i` a move of its opponent in an alternating game (CECP keeps its own board).
    fn inform(&mut self, i: usize, mv: &WireMove) {
        if let Player::Engine(e) = &mut self.players[i]
            && e.spec.dialect == Dialect::Cecp
        {
            let turn = Turn::Single(mv.clone());
            e.cecp(if e.usermove {
                CecpCommand::UserMove(turn)
            } else {
                CecpCommand::Move(turn)
            });
        }
    }

    fn engine_name(&self, i: usize) -> &str {
        &self.names[i]
    }

    /// What a line of seat `i` means when it was not asked to move: a move or claim forfeits.
    fn unsolicited(&mut self, i: usize, said: Said) -> Result<(), Forfeit> {
        let Player::Engine(e) = &mut self.players[i] else {
            return Ok(());
        };
        match said {
            Said::Closed => Err(e.crashed("while the opponent was thinking")),
            Said::Overflow(why) => Err(e.overflowed(&why)),
            Said::Line(line) => match meaning(e.spec.dialect, &line) {
                Meaning::Move(m) | Meaning::Commit(m) => Err(forfeit(
                    i,
                    format!("{} moved out of turn ({})", self.names[i], shown(&m)),
                )),
                Meaning::Claim(r, why) => Err(forfeit(
                    i,
                    format!(
                        "{} made a false claim: {r} {{{}}}",
                        self.names[i],
                        shown(&why)
                    ),
                )),
                Meaning::Resign => Err(Forfeit {
                    seat: i,
                    why: format!("{} resigned", self.names[i]),
                    termination: "normal",
                }),
                Meaning::Refusal(r) => Err(forfeit(
                    i,
                    format!(
                        "{} refused a legal move: Illegal move{}",
                        self.names[i],
                        shown(&r)
                    ),
                )),
                _ => Ok(()),
            },
        }
    }

    /// Waits for the answer of seat `i`, asked at `asked`, watching the other seat for lines
    /// out of turn. Returns the move as written and when it came, or a commitment.
    fn answer(&mut self, i: usize, asked: Instant, watch_other: bool) -> Result<Answer, Forfeit> {
        let allowance = self.clocks[i].allowance(self.setup.margin, self.setup.move_timeout);
        let deadline = later(asked, allowance);
        let mut garbage = 0;
        loop {
            let event = if watch_other {
                self.inbox.next_any(deadline)
            } else {
                self.inbox.next_from(i, deadline)
            };
            let Some(event) = event else {
                let Player::Engine(e) = &mut self.players[i] else {
                    unreachable!("humans are not waited for here")
                };
                if e.process.exit_status().is_some() {
                    return Err(e.crashed("while thinking"));
                }
                return Err(Forfeit {
                    seat: i,
                    why: format!(
                        "{} did not move within {:.1} s (its clock)",
                        self.engine_name(i),
                        allowance.as_secs_f64()
                    ),
                    termination: "time forfeit",
                });
            };
            if event.seat != i {
                self.unsolicited(event.seat, event.said)?;
                continue;
            }
            let Player::Engine(e) = &mut self.players[i] else {
                unreachable!("humans are not waited for here")
            };
            let line = match event.said {
                Said::Closed => return Err(e.crashed("while thinking")),
                Said::Overflow(why) => return Err(e.overflowed(&why)),
                Said::Line(l) => l,
            };
            match meaning(e.spec.dialect, &line) {
                Meaning::Move(m) => return Ok(Answer::Move(m, event.at)),
                Meaning::Commit(d) => return Ok(Answer::Commit(d, event.at)),
                Meaning::Score(s) => e.score = Some(s),
                Meaning::Claim(r, why) => {
                    return Err(forfeit(
                        i,
                        format!(
                            "{} made a false claim: {r} {{{}}}",
                            self.names[i],
                            shown(&why)
                        ),
                    ));
                }
                Meaning::Resign => {
                    return Err(Forfeit {
                        seat: i,
                        why: format!("{} resigned", self.names[i]),
                        termination: "normal",
                    });
                }
                Meaning::Refusal(r) => {
                    return Err(forfeit(
                        i,
                        format!(
                            "{} refused a legal move: Illegal move{}",
                            self.names[i],
                            shown(&r)
                        ),
                    ));
                }
                Meaning::Unknown => {
                    garbage += 1;
                    if garbage > MAX_GARBAGE {
                        return Err(forfeit(
                            i,
                            format!("{} printed garbage: {}", self.names[i], shown(&line)),
                        ));
                    }
                }
                _ => {}
            }
        }
    }

    /// Charges seat `i`'s clock for a move that took `used`.
    fn charge(&mut self, i: usize, used: Duration) -> Result<(), Forfeit> {
        if self.clocks[i].charge(used, self.setup.margin) {
            Ok(())
        } else {
            Err(Forfeit {
                seat: i,
                why: format!(
                    "{} lost on time ({:.3} s used)",
                    self.names[i],
                    used.as_secs_f64()
                ),
                termination: "time forfeit",
            })
        }
    }

    /// A move as written by seat `i`; text that is not a move forfeits.
    fn parse(&self, i: usize, written: &str) -> Result<WireMove, Forfeit> {
        parse_move(written).ok_or_else(|| {
            forfeit(
                i,
                format!(
                    "{} sent garbage for a move: '{}'",
                    self.names[i],
                    shown(written)
                ),
            )
        })
    }

    fn alternating_turn(&mut self, i: usize) -> Result<(), Stop> {
        let mv = if let Player::Human(..) = self.players[i] {
            match self.human_move(i, None)? {
                Typed::Move(mv) => mv,
                _ => {
                    self.undo();
                    return Ok(());
                }
            }
        } else {
            let asked = self.request(i)?;
            let (written, at) = match self.answer(i, asked, true)? {
                Answer::Move(m, at) => (m, at),
                Answer::Commit(d, _) => {
                    return Err(forfeit(
                        i,
                        format!(
                            "{} sent a commitment ({d}) in an alternating game",
                            self.names[i]
                        ),
                    )
                    .into());
                }
            };
            if let Player::Engine(e) = &mut self.players[i]
                && e.spec.dialect == Dialect::Cecp
            {
                e.send("force");
            }
            self.charge(i, at.duration_since(asked))?;
            self.parse(i, &written)?
        };
        let turn = Turn::Single(mv.clone());
        let before = self.game.clone();
        if let Err(e) = self.game.play(&turn) {
            return Err(
                forfeit(i, format!("{} played an illegal move: {e}", self.names[i])).into(),
            );
        }
        self.marks = human::squares(&mv);
        if let Player::Engine(_) = self.players[i] {
            self.tell_humans(&format!(
                "{} played {mv} ({})",
                self.names[i],
                human::in_words(&before, &mv)
            ));
        }
        self.turns.push(turn);
        self.comments.push(None);
        self.inform(1 - i, &mv);
        Ok(())
    }

    fn sealed_turn(&mut self) -> Result<(), Stop> {
        // Engines are asked first; both think at once. A human answers after the engines have
        // chosen (and, when they commit, after their commitments are shown).
        let mut asked = [Instant::now(); 2];
        let mut answers: [Option<Answer>; 2] = [None, None];
        for (i, at) in asked.iter_mut().enumerate() {
            if matches!(self.players[i], Player::Engine(_)) {
                *at = self.request(i)?;
            }
        }
        for i in 0..2 {
            if matches!(self.players[i], Player::Engine(_)) {
                answers[i] = Some(self.answer(i, asked[i], false)?);
            }
        }
        let mut written: [Option<String>; 2] = [None, None];
        for i in 0..2 {
            match &answers[i] {
                Some(Answer::Move(m, at)) => {
                    self.charge(i, at.duration_since(asked[i]))?;
                    written[i] = Some(m.clone());
                }
                Some(Answer::Commit(_, at)) => self.charge(i, at.duration_since(asked[i]))?,
                None => {}
            }
        }
        // Humans now: they see commitments, never moves.
        for i in 0..2 {
            if let Player::Human(..) = self.players[i] {
                let shown = match &answers[1 - i] {
                    Some(Answer::Commit(d, _)) => Some(d.clone()),
                    _ => None,
                };
                written[i] = match self.human_move(i, Some(shown))? {
                    Typed::Move(mv) => Some(mv.to_string()),
                    _ => unreachable!("no undo in a sealed game"),
                };
            }
        }
        // Open the commitments: each committer is told the other's move, or its commitment.
        let mut openings: [Option<(String, String)>; 2] = [None, None];
        for i in 0..2 {
            if let Some(Answer::Commit(_, _)) = &answers[i] {
                let other = match (&answers[1 - i], &written[1 - i]) {
                    (Some(Answer::Commit(d, _)), _) => d.clone(),
                    (_, Some(m)) => m.clone(),
                    _ => unreachable!("the other seat has answered"),
                };
                if let Player::Engine(e) = &mut self.players[i] {
                    e.send(&format!("opponent {other}"));
                }
            }
        }
        for i in 0..2 {
            if let Some(Answer::Commit(digest, _)) = answers[i].clone() {
                let opened = self.opening(i, &digest)?;
                written[i] = Some(opened.0.clone());
                openings[i] = Some(opened);
            }
        }
        let [Some(w), Some(b)] = written else {
            unreachable!("both seats have answered")
        };
        let wm = self.parse(0, &w)?;
        let bm = self.parse(1, &b)?;
        let turn = Turn::Joint(wm.clone(), bm.clone());
        let before = self.game.clone();
        let penalties = match self.game.play(&turn) {
            Ok(p) => p,
            Err(e) => {
                let culprit = if matches!(&e, crate::game::GameError::NotAMove(t) if *t == w) {
                    0
                } else {
                    1
                };
                return Err(forfeit(
                    culprit,
                    format!(
                        "{} wrote a move that is not of the variant: {e}",
                        self.names[culprit]
                    ),
                )
                .into());
            }
        };
        // Both halves of the turn are told, the person's own too: what happened to it (a
        // collision, an escape) is read from the next board.
        for (i, mv) in [&wm, &bm].into_iter().enumerate() {
            let mut said = format!(
                "{} played {mv} ({})",
                self.names[i],
                human::in_words(&before, mv)
            );
            if let (Some((mv, nonce)), Some(Answer::Commit(d, _))) = (&openings[i], &answers[i]) {
                said.push_str(&format!(
                    "; its commitment is verified: SHA-256 of 'quill-sealed-v1:{mv}:{nonce}' \
                     is {d}"
                ));
            }
            self.tell_humans(&said);
        }
        self.marks = [&wm, &bm].into_iter().flat_map(human::squares).collect();
        let comment = crate::rules::Penalty::comment(&penalties);
        if let Some(c) = &comment {
            self.tell_humans(c);
        }
        self.turns.push(turn);
        self.comments.push(comment);
        for i in 0..2 {
            if let Player::Engine(e) = &mut self.players[i]
                && e.spec.dialect == Dialect::Cecp
            {
                e.send("force");
                e.send(&format!("reveal {wm} {bm}"));
            }
        }
        Ok(())
    }

    /// Waits for seat `i` to open its commitment `digest`; a wrong opening forfeits.
    fn opening(&mut self, i: usize, digest: &str) -> Result<(String, String), Forfeit> {
        let deadline = later(
            Instant::now(),
            self.setup.margin.saturating_add(Duration::from_secs(5)),
        );
        let name = self.names[i].clone();
        let Player::Engine(e) = &mut self.players[i] else {
            unreachable!("only engines commit")
        };
        let (mv, nonce) = e.wait_for(
            &mut self.inbox,
            deadline,
            "opening its commitment",
            |_, m| match m {
                Meaning::Opening(mv, nonce) => Some((mv, nonce)),
                _ => None,
            },
        )?;
        let moved = e.wait_for(
            &mut self.inbox,
            deadline,
            "its move after the opening",
            |_, m| match m {
                Meaning::Move(mv) => Some(mv),
                _ => None,
            },
        )?;
        if !commit::verify(digest, &mv, &nonce) || moved != mv {
            return Err(forfeit(
                i,
                format!(
                    "{name} broke its commitment {digest} (opened {mv} {nonce}, moved {moved})"
                ),
            ));
        }
        Ok((mv, nonce))
    }

    fn tell_humans(&self, text: &str) {
        for p in &self.players {
            if let Player::Human(_, t) = p {
                t.say(text);
            }
        }
    }

    /// Asks the person at seat `i` for a move until a legal one is typed (or `undo`, where it
    /// can be done). In a sealed game `commitment` holds the opponent's commitment, when it
    /// gave one.
    fn human_move(
        &mut self,
        i: usize,
        commitment: Option<Option<String>>,
    ) -> Result<Typed, Forfeit> {
        let Player::Human(name, terminal) = &self.players[i] else {
            unreachable!("a human seat")
        };
        let (name, terminal) = (name.clone(), terminal.clone());
        let side = if i == 0 { Side::White } else { Side::Black };
        let legal = self.game.legal_moves(side);
        let variant = self.setup.variant;
        let show_board = |t: &Table| {
            terminal.say(&human::board(&t.game, &t.marks));
            terminal.say(&human::legend(variant));
            let mut status = format!(
                "Turn {} · you are {side:?} · your time {}",
                t.turns.len() + 1,
                human::clock_text(t.human_time[i])
            );
            for line in t.game.status_lines() {
                status.push_str(" · ");
                status.push_str(&line.replace("Penalties: ", "penalties White/Black "));
            }
            terminal.say(&status);
            terminal.say(&format!("FEN: {}", t.game.fen()));
        };
        show_board(self);
        if let Some(shown) = commitment {
            match shown {
                Some(d) => terminal.say(&format!(
                    "{} has sealed its move; commitment {d}",
                    self.names[1 - i]
                )),
                None => terminal.say(&format!("{} has sealed its move", self.names[1 - i])),
            }
        }
        terminal.say(&legal_text(&legal));
        let asked = Instant::now();
        let result = loop {
            terminal.say(&format!(
                "{name} ({side:?}), your move ('help' for the commands):"
            ));
            let Some(line) = terminal.read() else {
                break Err(Forfeit {
                    seat: i,
                    why: format!("{name} left the game (end of input)"),
                    termination: "abandoned",
                });
            };
            match human::read(&line) {
                Typed::Nothing => {}
                Typed::Help => terminal.say(&human::help(variant)),
                Typed::Board => show_board(self),
                Typed::Moves(prefix) => {
                    terminal.say(&human::moves_text(&legal, &prefix, MAX_LISTED_MATCHING));
                }
                Typed::Resign => {
                    break Err(Forfeit {
                        seat: i,
                        why: format!("{name} resigned"),
                        termination: "normal",
                    });
                }
                Typed::Draw => terminal.say(
                    "engines in UCI and XBoard cannot accept a draw offer, so the game goes on; \
                     --max-turns, --repetitions and --draw end drawn games",
                ),
                Typed::Undo => match self.undo_refusal() {
                    None => break Ok(Typed::Undo),
                    Some(why) => terminal.say(&format!("no undo: {why}")),
                },
                Typed::Move(mv) => match human::refusal(&self.game, side, &mv, &legal) {
                    None => break Ok(Typed::Move(mv)),
                    Some(why) => terminal.say(&format!("'{line}' is refused: {why}; try again")),
                },
                Typed::Unknown(text) => terminal.say(&format!(
                    "'{text}' is neither a move nor a command ('help' lists them); try again"
                )),
            }
        };
        self.human_time[i] = self.human_time[i].saturating_add(asked.elapsed());
        result
    }

    /// Why the person to move cannot take back a move now, `None` when it can: only in an
    /// alternating game, with a turn of their own and the engine's reply to take back (a UCI
    /// engine is told the whole game each move; an XBoard engine is sent `remove`).
    fn undo_refusal(&self) -> Option<String> {
        if self.setup.variant.is_sealed() {
            return Some("a sealed game's moves are revealed and cannot be taken back".into());
        }
        // It is the person's turn: the two turns before are theirs and the engine's reply.
        if self.turns.len() < 2 {
            return Some("you have not moved yet in this game".into());
        }
        None
    }

    /// Takes back the last two turns (the person's and the engine's reply) and tells an XBoard
    /// engine to do the same (`remove`).
    fn undo(&mut self) {
        let keep = self.turns.len().saturating_sub(2);
        self.turns.truncate(keep);
        self.comments.truncate(keep);
        let mut game = match &self.setup.opening.fen {
            Some(fen) => Game::from_fen(self.setup.variant, fen).expect("the opening was read"),
            None => Game::start(self.setup.variant),
        };
        // The repetition counts are taken again over the positions that remain; the loop
        // counts the position to move in, as after any turn.
        self.seen.clear();
        for t in &self.turns {
            *self.seen.entry(repetition_key(&game)).or_insert(0) += 1;
            game.play(t).expect("the turns were played");
        }
        self.game = game;
        self.marks.clear();
        for p in &mut self.players {
            if let Player::Engine(e) = p
                && e.spec.dialect == Dialect::Cecp
            {
                e.send("remove");
            }
        }
        self.tell_humans("took back your last move and the engine's reply");
    }

    /// Score-based adjudication, between turns.
    fn adjudicate(&mut self) -> Result<(), Stop> {
        if self.game.outcome().is_some() {
            return Ok(());
        }
        let scores: Vec<Option<i32>> = self
            .players
            .iter()
            .map(|p| match p {
                Player::Engine(e) => e.score,
                Player::Human(..) => None,
            })
            .collect();
        let movers: Vec<usize> = match self.game.side_to_move() {
            // The side that just moved is the other one.
            Some(side) => vec![side.opponent().index()],
            None => vec![0, 1],
        };
        let adj = self.setup.adjudication;
        if let Some((cp, n)) = adj.resign {
            for &i in &movers {
                match scores[i] {
                    Some(s) if s <= -cp => self.losing[i] += 1,
                    _ => self.losing[i] = 0,
                }
                if self.losing[i] >= n {
                    let winner = if i == 0 { Side::Black } else { Side::White };
                    return Err(Stop::Adjudicated(Outcome {
                        winner: Some(winner),
                        reason: format!(
                            "adjudicated: {} scored -{cp} or worse for {n} moves",
                            self.names[i]
                        ),
                    }));
                }
            }
        }
        if let Some((after, cp, n)) = adj.draw {
            let near = scores.iter().all(|s| s.is_some_and(|s| s.abs() <= cp));
            if self.turns.len() >= after as usize && near {
                self.quiet += 1;
            } else {
                self.quiet = 0;
            }
            if self.quiet >= n {
                return Err(Stop::Adjudicated(Outcome {
                    winner: None,
                    reason: format!("adjudicated: both scores within {cp} for {n} turns"),
                }));
            }
        }
        Ok(())
    }

    /// Ends the game: stops the engines and makes the record and PGN.
    fn finish(mut self, ended: Result<(), Stop>) -> GameReport {
        let (outcome, termination) = match ended {
            Ok(()) => (
                self.game.outcome().unwrap_or(Outcome {
                    winner: None,
                    reason: "unfinished".to_string(),
                }),
                "normal",
            ),
            Err(Stop::Adjudicated(o)) => (o, "adjudication"),
            Err(Stop::Forfeit(f)) => (
                Outcome {
                    winner: Some(if f.seat == 0 {
                        Side::Black
                    } else {
                        Side::White
                    }),
                    reason: f.why,
                },
                f.termination,
            ),
        };
        for p in &mut self.players {
            if let Player::Engine(e) = p {
                let quit = "quit";
                e.log.line(e.seat, '>', quit);
                e.process.stop(quit, Duration::from_millis(500));
                e.log.flush();
            }
        }
        if self.players.iter().any(|p| matches!(p, Player::Human(..))) {
            self.tell_humans(&human::board(&self.game, &self.marks));
        }
        self.tell_humans(&format!("game over: {outcome}"));
        let result = GameResult::from_outcome(&outcome);
        let plies = u32::try_from(self.turns.len()).unwrap_or(u32::MAX);
        let pgn = super::pgn::write(&super::pgn::PgnGame {
            event: &self.setup.event,
            round: self.setup.index + 1,
            white: &self.names[0],
            black: &self.names[1],
            variant: self.setup.variant,
            fen: self.setup.opening.fen.as_deref(),
            time_controls: [self.clocks[0].limits.pgn(), self.clocks[1].limits.pgn()],
            turns: &self.turns,
            comments: &self.comments,
            sealed: self.setup.variant.is_sealed(),
            first_mover: self.first_mover(),
            outcome: &outcome,
            termination,
        });
        GameReport {
            record: record(
                &self.setup,
                &self.names,
                result,
                plies,
                outcome.reason.clone(),
            ),
            pgn,
        }
    }

    /// The side to move in the opening position of an alternating game.
    fn first_mover(&self) -> Option<Side> {
        let start = match &self.setup.opening.fen {
            Some(fen) => Game::from_fen(self.setup.variant, fen).ok()?,
            None => Game::start(self.setup.variant),
        };
        start.side_to_move()
    }
}

/// Most moves `moves PREFIX` lists.
const MAX_LISTED_MATCHING: usize = 200;

/// Most moves listed in full to a person; beyond this, only the first legs are.
const MAX_LISTED: usize = 60;

/// The legal moves as shown to a person: all of them when few, else their distinct first legs
/// (a Gladiator turn has thousands of spellings: the pawn leg, then a supporter's jump).
fn legal_text(legal: &[WireMove]) -> String {
    if legal.len() <= MAX_LISTED {
        let list: Vec<String> = legal.iter().map(ToString::to_string).collect();
        return format!("legal moves: {}", list.join(" "));
    }
    let mut firsts: Vec<String> = Vec::new();
    for mv in legal {
        let first = mv.to_string();
        let first = first.split(',').next().unwrap_or(&first).to_string();
        if !firsts.contains(&first) {
            firsts.push(first);
        }
    }
    format!(
        "legal moves ({} in all; first legs shown, add legs after a comma as the rules allow): {}",
        legal.len(),
        firsts.join(" ")
    )
}

/// A seat's answer to a request.
#[derive(Clone, Debug)]
enum Answer {
    /// A move as written, and when it arrived.
    Move(String, Instant),
    /// A commitment, and when it arrived.
    Commit(String, Instant),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::seat::Clock as Control;

    fn limits(moves: u32, base_ms: u64, inc_ms: u64) -> Limits {
        Limits {
            clock: Some(Control {
                moves,
                base: Duration::from_millis(base_ms),
                inc: Duration::from_millis(inc_ms),
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn a_clock_charges_adds_the_increment_and_flags_past_the_margin() {
        let margin = Duration::from_millis(50);
        let mut c = Clock::new(limits(0, 1000, 100));
        assert!(c.charge(Duration::from_millis(300), margin));
        assert_eq!(c.left, Duration::from_millis(800));
        // Inside the margin: taken, and the clock is left at 0 plus the increment.
        assert!(c.charge(Duration::from_millis(840), margin));
        assert_eq!(c.left, Duration::from_millis(100));
        assert!(!c.charge(Duration::from_millis(151), margin));
        assert_eq!(
            c.allowance(margin, Duration::from_secs(60)),
            Duration::from_millis(150)
        );
    }

    #[test]
    fn moves_per_session_refill_the_clock() {
        let mut c = Clock::new(limits(2, 1000, 0));
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_millis(400), Duration::ZERO));
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(Duration::from_millis(400), Duration::ZERO));
        // The second move ends the session: a new base is added.
        assert_eq!(c.left, Duration::from_millis(1200));
        assert_eq!(c.moves_to_go(), Some(2));
    }

    #[test]
    fn allowance_without_a_clock() {
        let margin = Duration::from_millis(50);
        let st = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        assert_eq!(
            Clock::new(st).allowance(margin, Duration::from_secs(9)),
            Duration::from_millis(150)
        );
        let depth = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let mut c = Clock::new(depth);
        assert_eq!(
            c.allowance(margin, Duration::from_secs(9)),
            Duration::from_secs(9)
        );
        assert!(
            c.charge(Duration::from_secs(100), margin),
            "no clock, no flag"
        );
    }

    #[test]
    fn repetition_keys_ignore_counters_but_not_penalties() {
        let a = Game::from_fen(Variant::Apocalypse, "npppn/p3p/5/P3P/NPPPN w - - 0 1 0/0").unwrap();
        let b = Game::from_fen(Variant::Apocalypse, "npppn/p3p/5/P3P/NPPPN w - - 7 9 0/0").unwrap();
        let c = Game::from_fen(Variant::Apocalypse, "npppn/p3p/5/P3P/NPPPN w - - 0 1 1/0").unwrap();
        assert_eq!(repetition_key(&a), repetition_key(&b));
        assert_ne!(repetition_key(&a), repetition_key(&c));
    }

    #[test]
    fn quoted_engine_text_is_cut() {
        assert_eq!(shown("e2e4"), "e2e4");
        let long = "é".repeat(MAX_QUOTED);
        let cut = shown(&long);
        assert!(cut.len() <= MAX_QUOTED + '…'.len_utf8(), "{}", cut.len());
        assert!(cut.ends_with('…') && cut.starts_with("éé"));
    }

    #[test]
    fn legal_moves_shown_to_a_person_are_condensed_when_many() {
        let few = Game::start(Variant::Apocalypse).legal_moves(Side::White);
        assert!(legal_text(&few).starts_with("legal moves: "));
        let many = Game::start(Variant::Gladiator).legal_moves(Side::White);
        let text = legal_text(&many);
        assert!(text.starts_with("legal moves (4171 in all;"), "{text}");
        let list = text.rsplit(": ").next().unwrap();
        assert!(!list.contains(','), "only first legs: {text}");
        assert_eq!(
            list.split(' ').count(),
            43,
            "the 43 pawn moves of the start"
        );
    }
}
