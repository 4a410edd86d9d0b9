//! A sealed turn at the GUI's table: the engines are asked for their halves at once (neither
//! told the other's), the people seal theirs from the page, the commitments are opened, and the
//! pair is played and revealed to the page with how it resolved.

use std::sync::mpsc::Receiver;

use serde_json::{Value, json};

use super::clock::MARGIN;
use super::commands::squares;
use super::engines::{Answer, Answered};
use super::{Flow, Record, Request, Table, Who, quoted};
use crate::gui::rules_view::Position;
use crate::notation::{WireMove, WireTurn};
use crate::rules::Penalty;
use crate::variant::Side;

/// A half of a sealed turn, given and waiting for the reveal.
#[derive(Clone, Debug)]
pub(super) enum Sealed {
    /// A move in plain (a person, or an engine without commit–reveal): never published before
    /// the reveal.
    Plain(String),
    /// An engine's commitment (its digest).
    Committed(String),
}

impl Sealed {
    /// What the other seat's committing engine is told: the move, or the commitment.
    fn told(&self) -> &str {
        match self {
            Sealed::Plain(text) | Sealed::Committed(text) => text,
        }
    }
}

/// Both halves as written once opened, and the openings of the committed ones.
struct Opened {
    written: [String; 2],
    openings: [Option<Value>; 2],
}

fn opening_json(digest: &str, mv: &str, nonce: &str) -> Value {
    json!({"digest": digest, "move": mv, "nonce": nonce})
}

impl Table {
    /// One step of a sealed turn: the engines' halves, then (once the people have sealed
    /// theirs) the opening and the reveal.
    pub(super) fn sealed_step(&mut self, commands: &Receiver<Request>) -> Flow {
        let waiting: Vec<usize> = (0..2)
            .filter(|&i| matches!(self.setup.seats[i], Who::Engine(_)) && self.halves[i].is_none())
            .collect();
        if !waiting.is_empty() {
            return self.engine_half(&waiting, commands);
        }
        // People still to seal: `step` waits for them.
        let [Some(white), Some(black)] = self.halves.clone() else {
            return Flow::Go;
        };
        let halves = [white, black];
        self.tell_opponents(&halves);
        match self.open(&halves) {
            Ok(opened) => self.play_pair(opened),
            Err(flow) => flow,
        }
    }

    /// Every engine that has not answered is asked, both at once, neither told the other's
    /// choice; the first answer is kept.
    fn engine_half(&mut self, waiting: &[usize], commands: &Receiver<Request>) -> Flow {
        let Answered { seat, answer, used } = match self.ask(waiting, true, commands) {
            Ok(a) => a,
            Err(f) => return f,
        };
        if !self.clocks[seat].charge(used, MARGIN) {
            let why = format!("{} lost on time", self.name(seat));
            return self.forfeited(seat, why, "time forfeit");
        }
        self.halves[seat] = Some(match answer {
            Answer::Move(m) => Sealed::Plain(m),
            Answer::Commit(d) => Sealed::Committed(d),
        });
        if self.engines.iter().flatten().all(|e| e.asked().is_none()) {
            // A person's clock runs from when the engines are in.
            self.asked = None;
        }
        self.publish();
        Flow::Go
    }

    /// Each committer is told the other's move or commitment.
    fn tell_opponents(&mut self, halves: &[Sealed; 2]) {
        for i in 0..2 {
            if let Sealed::Committed(_) = &halves[i]
                && let Some(e) = self.engines[i].as_mut()
            {
                e.opponent(halves[1 - i].told());
            }
        }
    }

    /// The committed halves are opened; a broken opening forfeits.
    fn open(&mut self, halves: &[Sealed; 2]) -> Result<Opened, Flow> {
        let mut opened = Opened {
            written: [String::new(), String::new()],
            openings: [None, None],
        };
        for (i, half) in halves.iter().enumerate() {
            let digest = match half {
                Sealed::Plain(m) => {
                    opened.written[i] = m.clone();
                    continue;
                }
                Sealed::Committed(digest) => digest,
            };
            let Some(e) = self.engines[i].as_mut() else {
                return Err(Flow::Go);
            };
            match e.opening(&mut self.wire, digest) {
                Ok((mv, nonce)) => {
                    opened.openings[i] = Some(opening_json(digest, &mv, &nonce));
                    opened.written[i] = mv;
                }
                Err((broken, why)) => {
                    let broken = broken.map(|(mv, nonce)| opening_json(digest, &mv, &nonce));
                    return Err(self.broken_opening(i, broken, &opened.openings, why));
                }
            }
        }
        Ok(opened)
    }

    /// Seat `i` opened something else than it committed to: the page is shown the broken
    /// opening (it checks it itself), and the seat forfeits.
    fn broken_opening(
        &mut self,
        i: usize,
        broken: Option<Value>,
        openings: &[Option<Value>; 2],
        why: String,
    ) -> Flow {
        let shown = if i == 0 {
            [broken, None]
        } else {
            [openings[0].clone(), broken]
        };
        self.reveal = Some(json!({
            "turn": self.records.len() + 1,
            "openings": shown,
            "moves": [Value::Null, Value::Null],
            "words": [why.clone()],
            "thinking": [[], []],
        }));
        self.halves = [None, None];
        self.forfeited(i, why, "rules infraction")
    }

    /// Reads both halves; garbage forfeits its writer.
    fn parse_pair(&mut self, written: &[String; 2]) -> Result<(WireMove, WireMove), Flow> {
        match (Position::parse(&written[0]), Position::parse(&written[1])) {
            (Some(w), Some(b)) => Ok((w, b)),
            (w, _) => {
                let culprit = usize::from(w.is_some());
                let why = format!(
                    "{} sent garbage for a move: '{}'",
                    self.name(culprit),
                    quoted(&written[culprit])
                );
                Err(self.forfeited(culprit, why, "rules infraction"))
            }
        }
    }

    /// Plays the opened pair, and reveals it with how it resolved.
    fn play_pair(&mut self, opened: Opened) -> Flow {
        let (wm, bm) = match self.parse_pair(&opened.written) {
            Ok(p) => p,
            Err(f) => return f,
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
                return self.forfeited(culprit, why, "rules infraction");
            }
        };
        let words = self.pair_words(&before, [&wm, &bm], &penalties);
        self.reveal = Some(json!({
            "turn": self.records.len() + 1,
            "moves": [wm.to_string(), bm.to_string()],
            "openings": opened.openings,
            "words": words,
            "penalties": penalties.iter().map(|p| json!({"side": p.side.word(), "move": p.mv, "reason": p.reason})).collect::<Vec<_>>(),
            "before": before.pieces_json(),
            "thinking": self.hidden.each_ref().map(|h| Value::Array(h.iter().map(super::state::thought_json).collect())),
        }));
        self.thinking = self.hidden.clone();
        self.last = squares(&wm).into_iter().chain(squares(&bm)).collect();
        self.records.push(Record {
            turn: WireTurn::Joint(wm.clone(), bm.clone()),
            words,
            comment: Penalty::comment(&penalties),
        });
        for e in self.engines.iter_mut().flatten() {
            e.reveal(&wm, &bm);
        }
        self.halves = [None, None];
        self.asked = None;
        self.check_end();
        self.publish();
        Flow::Go
    }

    /// How a sealed turn resolved, in words: each move, the void ones with their penalties,
    /// and what happened beyond the legs.
    fn pair_words(
        &self,
        before: &Position,
        moves: [&WireMove; 2],
        penalties: &[Penalty],
    ) -> Vec<String> {
        let mut words: Vec<String> = moves
            .iter()
            .enumerate()
            .map(|(i, mv)| format!("{}: {}", self.name(i), before.in_words(mv)))
            .collect();
        for p in penalties {
            words.push(format!(
                "{} {} is void: {} (a penalty point)",
                p.side.word(),
                p.mv,
                p.reason
            ));
        }
        words.extend(before.effects(&self.pos, &moves));
        words
    }
}
