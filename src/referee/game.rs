//! One refereed game: the referee keeps its own position with Quill's rules, asks the seats for
//! their moves (both at once in a sealed game), checks every answer, runs the clocks, and
//! records the game. It never trusts a claim: a move that does not parse, an illegal move, a
//! crash, a silence past the clock, a false claim or a move out of turn forfeits the game.

use std::fs::File;
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome};
use crate::notation::{WireMove, WireTurn, parse_move};
use crate::variant::{Side, Variant};

use super::driver::{Ask, Clocks, EngineSeat, Forfeit, Heard, NewGame, Opened, forfeit, side_of};
use super::human::{self, Typed};
use super::inbox::{Dialogue, Inbox};
use super::later;
use super::results::{GameRecord, GameResult};
use super::seat::{Limits, Seat};

mod clock;
mod finish;
mod human_turn;
mod player;
mod sealed;
mod setup;
mod terminal;
mod turn;

use clock::Clock;
use human_turn::Entered;
pub use player::ProbeError;
pub(crate) use player::probe;
use player::{Answer, HumanSeat, Player};
pub use setup::{Adjudication, GameReport, GameSetup, Opening};
pub(crate) use terminal::Terminal;

/// Longest piece of an engine's text quoted in a reason (the results file, the PGN).
pub(crate) const MAX_QUOTED: usize = 100;

/// An engine's text as quoted in a reason: at most [`MAX_QUOTED`] bytes (cut at a character
/// boundary, with `…` when cut), so that a record stays short whatever the engine sent.
pub(crate) fn shown(text: &str) -> String {
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
pub(crate) const TYPED_AHEAD: usize = 64;

/// The state of a game being played.
struct Table {
    setup: GameSetup,
    game: Game,
    turns: Vec<WireTurn>,
    comments: Vec<Option<String>>,
    clocks: [Clock; 2],
    players: [Player; 2],
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
pub(crate) fn play(
    setup: &GameSetup,
    seats: [&Seat; 2],
    terminal: Option<&Terminal>,
) -> GameReport {
    let names = seats.map(|s| s.name().to_string());
    let game = match &setup.opening.fen {
        Some(fen) => Game::from_fen(setup.variant, fen),
        None => Ok(Game::start(setup.variant)),
    };
    let game = match game {
        Ok(g) => g,
        Err(e) => {
            // A bad opening is the match's fault: record a draw that says so.
            let why = format!("bad opening: {e}");
            let record = record(setup, &names, GameResult::Draw, 0, why);
            return GameReport {
                pgn: String::new(),
                record,
            };
        }
    };
    let log = setup
        .log
        .as_ref()
        .and_then(|p| File::create(p).ok())
        .map_or_else(Dialogue::default, Dialogue::new);
    let (players, inbox, failed) = seat_players(seats, terminal, &log);
    let mut table = Table {
        setup: setup.clone(),
        game,
        turns: Vec::new(),
        comments: Vec::new(),
        clocks: seats.map(|s| Clock::new(seat_limits(s))),
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
            .start_all()
            .map_err(Stop::Forfeit)
            .and_then(|()| table.run()),
    };
    table.finish(ended)
}

/// The players of the seats, with the inbox their engines' lines go to, and the first seat
/// that could not sit (an engine that did not start, a person without a terminal).
fn seat_players(
    seats: [&Seat; 2],
    terminal: Option<&Terminal>,
    log: &Dialogue,
) -> ([Player; 2], Inbox, Option<Forfeit>) {
    let dialects = seats.map(|s| match s {
        Seat::Engine(e) => Some(e.dialect),
        Seat::Human { .. } => None,
    });
    let (inbox, tx) = Inbox::new(dialects, log.clone());
    let mut failed: Option<Forfeit> = None;
    let mut seat = |i: usize| match seats[i] {
        Seat::Engine(spec) => match EngineSeat::spawn(spec, i, tx.clone(), log.clone()) {
            Ok(e) => Player::Engine(Box::new(e)),
            Err(f) => {
                failed.get_or_insert(f);
                Player::Human(HumanSeat {
                    name: String::new(),
                    terminal: Terminal::none(),
                })
            }
        },
        Seat::Human { name } => Player::Human(HumanSeat {
            name: name.clone(),
            terminal: terminal.cloned().unwrap_or_else(|| {
                failed.get_or_insert(forfeit(i, "no terminal for a human seat"));
                Terminal::none()
            }),
        }),
    };
    let players = [seat(0), seat(1)];
    (players, inbox, failed)
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
    /// Starts both engines: the handshake, the options, the game's position and side.
    fn start_all(&mut self) -> Result<(), Forfeit> {
        let variant = self.setup.variant;
        let sealed = variant.is_sealed();
        let human_present = self.players.iter().any(|p| matches!(p, Player::Human(_)));
        for (i, p) in self.players.iter_mut().enumerate() {
            if let Some(e) = p.engine() {
                let game = NewGame {
                    variant,
                    wants_commit: sealed && human_present,
                    fen: self.setup.opening.fen.as_deref(),
                    sealed: sealed.then(|| side_of(i)),
                };
                e.start(&mut self.inbox, &game)?;
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
