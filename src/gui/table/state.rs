//! What the page is sent after every change (`protocol-docs/gui.md`, the `state` message), and
//! the PGN of the game kept for `/pgn`.

use std::sync::Arc;

use serde_json::{Value, json};

use super::sealed::Sealed;
use super::{Table, Who, side};
use crate::game::Outcome;
use crate::gui::seats::{self, Thought};
use crate::notation::WireTurn;
use crate::player::Score;
use crate::referee::pgn::{self, PgnGame};

/// A thinking line for the page: `depth`, `score` (`{"cp": N}` or `{"mate": N}`, for the
/// engine's side) and `pv`, the line as text.
pub(super) fn thought_json(t: &Thought) -> Value {
    let score = match t.score {
        Score::Cp(cp) => json!({"cp": cp}),
        Score::Mate(n) => json!({"mate": n}),
    };
    let pv: Vec<String> = t.pv.iter().map(ToString::to_string).collect();
    json!({"depth": t.depth, "score": score, "pv": pv.join(" ")})
}

impl Table {
    pub(super) fn time_control(&self, i: usize) -> String {
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

    /// Seat `i` as the page shows it.
    fn seat_json(&self, i: usize) -> Value {
        let sealed = self.pos.sealed();
        let running = self.outcome.is_none()
            && !self.paused
            && self.asked.is_some()
            && match self.pos.side_to_move() {
                Some(s) => s.index() == i,
                None => self.halves[i].is_none(),
            };
        let half = match &self.halves[i] {
            None => json!({"state": "waiting"}),
            Some(Sealed::Plain(_)) => json!({"state": "sealed"}),
            Some(Sealed::Committed(d)) => json!({"state": "committed", "digest": d}),
        };
        let thinking: Vec<Value> = self.thinking[i].iter().map(thought_json).collect();
        json!({
            "name": self.name(i),
            "kind": match self.setup.seats[i] { Who::Person => "person", Who::Engine(_) => "engine" },
            "engine": match self.setup.seats[i] { Who::Person => Value::Null, Who::Engine(n) => json!(n) },
            "clock_ms": self.clocks[i].left.map(|d| d.as_millis() as u64),
            "time_control": self.time_control(i),
            "running": running,
            "half": if sealed { half } else { Value::Null },
            "thinking": thinking,
        })
    }

    /// Sends the whole state to every page, and keeps the PGN so far.
    pub(super) fn publish(&mut self) {
        self.version += 1;
        let entering = self.person_to_enter();
        if let Ok(mut s) = self.shared.lock() {
            s.entering = entering.map(|i| (self.pos.clone(), side(i)));
        }
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
            "game": self.game,
            "variant": self.setup.variant.name(),
            "sealed": self.pos.sealed(),
            "geometry": self.pos.geometry_json(),
            "pieces": self.pos.pieces_json(),
            "legend": legend,
            "fen": self.pos.fen(),
            "start_fen": self.start.fen(),
            "cap": self.setup.cap,
            "to_move": self.pos.side_to_move().map(|s| s.word()),
            "penalties": self.pos.penalties(),
            "seats": [self.seat_json(0), self.seat_json(1)],
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

    pub(super) fn can_undo(&self) -> bool {
        !self.pos.sealed()
            && self.setup.seats.contains(&Who::Person)
            && self.setup.seats.iter().any(|w| matches!(w, Who::Engine(_)))
            && self
                .records
                .iter()
                .any(|r| matches!(r.turn, WireTurn::Single(_)))
            && (self.person_to_enter().is_some() || self.outcome.is_some())
    }
}
