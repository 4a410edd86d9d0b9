//! The engines of a game asked for their moves and heard: started when first needed, asked
//! (both at once in a sealed turn), their thinking kept for the panel, and a crash, a hang or
//! a move out of turn forfeited. The page's commands are heard while they think.

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use super::clock::MARGIN;
use super::{Flow, MAX_THINKING, Request, Table, Who, quoted};
use crate::gui::rules_view::Position;
use crate::gui::seats::{self, Engine, Heard, Thought};
use crate::notation::WireTurn;
use crate::referee::later;

/// How often the loop looks at the page's commands while an engine thinks.
const SLICE: Duration = Duration::from_millis(40);

/// An engine's answer to a request: its move, or its commitment to a sealed one, as written.
pub(super) enum Answer {
    /// A move.
    Move(String),
    /// A commitment (a digest).
    Commit(String),
}

/// An answer with its seat and the time it took.
pub(super) struct Answered {
    /// The seat that answered.
    pub(super) seat: usize,
    /// What it answered.
    pub(super) answer: Answer,
    /// From the request to the answer.
    pub(super) used: Duration,
}

impl Table {
    fn ensure_engine(&mut self, i: usize) -> Result<(), seats::Forfeit> {
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

    /// The seats asked, when each was asked and when it must have answered.
    fn deadlines(&self, seats: &[usize]) -> Vec<(usize, Instant, Instant)> {
        seats
            .iter()
            .filter_map(|&i| {
                let asked = self.engines[i].as_ref()?.asked()?;
                let allowance = self.clocks[i].allowance(self.config.move_timeout);
                Some((i, asked, later(asked, allowance)))
            })
            .collect()
    }

    /// Keeps a thinking line of seat `j` (hidden until the reveal in a sealed turn), once.
    fn keep_thinking(&mut self, j: usize, t: Thought, sealed: bool) {
        let list = if sealed {
            &mut self.hidden[j]
        } else {
            &mut self.thinking[j]
        };
        // An engine may repeat its last line before it moves: it is shown once.
        if list.last() == Some(&t) {
            return;
        }
        list.push(t);
        if list.len() > MAX_THINKING {
            list.remove(0);
        }
    }

    /// Asks the engines at `seats` for their moves (those not asked yet: in a sealed turn both
    /// think at once) and waits for the first answer, watching the page's commands.
    pub(super) fn ask(
        &mut self,
        seats: &[usize],
        sealed: bool,
        commands: &Receiver<Request>,
    ) -> Result<Answered, Flow> {
        for &i in seats {
            self.request(i, sealed)?;
        }
        let mut last_publish = Instant::now();
        loop {
            let deadlines = self.deadlines(seats);
            let first = deadlines.iter().map(|d| d.2).min();
            let until = later(Instant::now(), SLICE).min(first.unwrap_or_else(Instant::now));
            let (j, answer, at) = match seats::listen(&mut self.engines, &mut self.wire, until) {
                Err(f) => return Err(self.forfeited(f.seat, f.why, "rules infraction")),
                Ok((j, Heard::Thinking(t))) => {
                    self.keep_thinking(j, t, sealed);
                    if !sealed && last_publish.elapsed() > Duration::from_millis(150) {
                        last_publish = Instant::now();
                        self.publish();
                    }
                    (j, None, Instant::now())
                }
                Ok((j, Heard::Move(m, at))) => (j, Some(Answer::Move(m)), at),
                Ok((j, Heard::Commit(d, at))) => (j, Some(Answer::Commit(d)), at),
                Ok((j, Heard::Nothing)) => (j, None, Instant::now()),
            };
            if let Some(answer) = answer {
                let asked = deadlines.iter().find(|d| d.0 == j).map_or(at, |d| d.1);
                let used = at.saturating_duration_since(asked);
                return Ok(Answered {
                    seat: j,
                    answer,
                    used,
                });
            }
            self.watch(seats, &deadlines, sealed, commands)?;
        }
    }

    /// Between two events of the asked engines: a seat past its deadline forfeits, the other
    /// engine must stay quiet, and the page's commands are handled (a new game stops them).
    fn watch(
        &mut self,
        seats: &[usize],
        deadlines: &[(usize, Instant, Instant)],
        sealed: bool,
        commands: &Receiver<Request>,
    ) -> Result<(), Flow> {
        if let Some(&(j, _, _)) = deadlines.iter().find(|d| Instant::now() >= d.2) {
            let allowance = self.clocks[j].allowance(self.config.move_timeout);
            let why = format!(
                "{} did not move within {:.1} s",
                self.name(j),
                allowance.as_secs_f64()
            );
            return Err(self.forfeited(j, why, "time forfeit"));
        }
        if let [i] = seats
            && let Some(o) = self.engines[1 - i].as_mut()
            && !sealed
            && let Err(f) = o.idle(&mut self.wire)
        {
            return Err(self.forfeited(1 - i, f.why, "rules infraction"));
        }
        match self.wait_commands(commands, Duration::ZERO) {
            Flow::Go => Ok(()),
            f => {
                // The game changed under the engines: they are replaced at the next request.
                for &i in seats {
                    if let Some(e) = self.engines[i].take() {
                        e.quit();
                    }
                    self.wire.drain(i);
                }
                Err(f)
            }
        }
    }

    /// Asks engine `i` for its move, unless it is asked already (it is started first).
    fn request(&mut self, i: usize, sealed: bool) -> Result<(), Flow> {
        if let Err(f) = self.ensure_engine(i) {
            return Err(self.forfeited(i, f.why, "rules infraction"));
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
            Err(f) => return Err(self.forfeited(i, f.why, "rules infraction")),
        }
        self.thinking[i].clear();
        self.hidden[i].clear();
        self.publish();
        Ok(())
    }

    /// The engine to move in an alternating game is asked, and its move played.
    pub(super) fn engine_move(&mut self, i: usize, commands: &Receiver<Request>) -> Flow {
        let Answered { answer, used, .. } = match self.ask(&[i], false, commands) {
            Ok(a) => a,
            Err(f) => return f,
        };
        if let Some(e) = self.engines[i].as_mut() {
            e.moved();
        }
        let written = match answer {
            Answer::Move(m) => m,
            Answer::Commit(d) => {
                let why = format!(
                    "{} sent a commitment ({d}) in an alternating game",
                    self.name(i)
                );
                return self.forfeited(i, why, "rules infraction");
            }
        };
        if !self.clocks[i].charge(used, MARGIN) {
            let why = format!(
                "{} lost on time ({:.3} s used)",
                self.name(i),
                used.as_secs_f64()
            );
            return self.forfeited(i, why, "time forfeit");
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
}
