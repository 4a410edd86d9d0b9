//! What the page asks of the game: a new game, a move, an undo, a pause, a resignation, a page
//! that comes or goes.

use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;

use super::sealed::Sealed;
use super::{Command, Flow, Record, Request, Setup, Table, Who, quoted, refuse, side};
use crate::game::Outcome;
use crate::gui::rules_view::Position;
use crate::notation::{WireMove, WireTurn};

type Reply<'a> = Option<&'a UnboundedSender<String>>;

impl Table {
    /// Handles one command; `Flow::Reset` when the step under way must be left.
    pub(super) fn handle(&mut self, r: Request) -> Flow {
        let reply = r.reply.as_ref();
        match r.command {
            Command::Shutdown => Flow::Quit,
            Command::Present(p) => self.present(p),
            Command::New(setup) => self.new_game(setup, reply),
            Command::Pause(on) => {
                self.paused = on;
                self.publish();
                if on { Flow::Go } else { Flow::Reset }
            }
            Command::Resign => match self.person_to_enter() {
                Some(i) => {
                    let why = format!("{} resigned", self.name(i));
                    self.forfeit(i, why, "normal");
                    self.publish();
                    Flow::Reset
                }
                None => {
                    refuse(reply, "only the person to move can resign");
                    Flow::Go
                }
            },
            Command::Undo => {
                if !self.can_undo() {
                    refuse(
                        reply,
                        "undo is for alternating games against an engine, on your turn",
                    );
                    return Flow::Go;
                }
                self.undo();
                self.publish();
                Flow::Reset
            }
            Command::Move(text) => {
                let flow = self.person_move(&text, reply);
                self.publish();
                flow
            }
        }
    }

    fn present(&mut self, p: bool) -> Flow {
        self.present = p;
        self.gone_since = (!p).then(Instant::now);
        if p && self.suspended {
            self.suspended = false;
            self.notice = Some("welcome back: the game goes on".to_string());
            self.publish();
            return Flow::Reset;
        }
        Flow::Go
    }

    fn new_game(&mut self, setup: Setup, reply: Reply) -> Flow {
        match Table::new(
            self.config.clone(),
            setup,
            self.state.clone(),
            self.shared.clone(),
        ) {
            Ok(t) => {
                let (version, game) = (self.version, self.game + 1);
                let sink = self.pgn.clone();
                let old = std::mem::replace(self, t);
                self.version = version;
                self.game = game;
                self.pgn = sink;
                drop(old);
                self.publish();
                Flow::Reset
            }
            Err(e) => {
                refuse(reply, &format!("that position is refused: {e}"));
                Flow::Go
            }
        }
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

    fn person_move(&mut self, text: &str, reply: Reply) -> Flow {
        let Some(i) = self.person_to_enter() else {
            let why = if self.outcome.is_some() {
                "the game is over"
            } else if self.paused || self.suspended {
                "the game is paused"
            } else {
                "it is not your turn: wait for the engine"
            };
            refuse(reply, why);
            return Flow::Go;
        };
        let Some(mv) = Position::parse(text) else {
            refuse(reply, &format!("'{}' is not a move", quoted(text)));
            return Flow::Go;
        };
        if let Some(why) = self.pos.refusal(side(i), &mv) {
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
            self.halves[i] = Some(Sealed::Plain(mv.to_string()));
            self.asked = Some(Instant::now());
            return Flow::Go;
        }
        self.play_single(i, &mv);
        Flow::Go
    }

    /// Plays seat `i`'s alternating move (a refused one forfeits) and tells the other engine.
    pub(super) fn play_single(&mut self, i: usize, mv: &WireMove) {
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

    /// Ends the game when the rules say so, or at the turn cap.
    pub(super) fn check_end(&mut self) {
        if let Some(o) = self.pos.outcome() {
            self.finish(o, "normal");
        } else if self.records.len() >= self.setup.cap {
            self.finish(
                Outcome {
                    winner: None,
                    reason: format!("adjudicated: turn cap of {} turns reached", self.setup.cap),
                },
                "adjudication",
            );
        }
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

/// The squares a move touches, to mark it on the board.
pub(super) fn squares(mv: &WireMove) -> Vec<String> {
    crate::referee::human::squares(mv)
        .into_iter()
        .map(|s| s.to_string())
        .collect()
}
