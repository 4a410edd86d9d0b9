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

mod clock;
mod finish;
mod human_turn;
mod player;
mod sealed;
mod terminal;
mod turn;

use clock::Clock;
use player::{EnginePlayer, Player};
pub use terminal::Terminal;

/// Longest piece of an engine's text quoted in a reason (the results file, the PGN).
pub const MAX_QUOTED: usize = 100;

/// An engine's text as quoted in a reason: at most [`MAX_QUOTED`] bytes (cut at a character
/// boundary, with `…` when cut), so that a record stays short whatever the engine sent.
pub fn shown(text: &str) -> String {
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

    /// The side to move in the opening position of an alternating game.
    fn first_mover(&self) -> Option<Side> {
        let start = match &self.setup.opening.fen {
            Some(fen) => Game::from_fen(self.setup.variant, fen).ok()?,
            None => Game::start(self.setup.variant),
        };
        start.side_to_move()
    }
}

#[cfg(test)]
mod tests {
    use super::human_turn::legal_text;
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
