//! Playing turns: the engine's move, the opponent's, XBoard plies of multi-part turns, and
//! the sealed extension's `sealed`, `reveal` and `opponent`.

use super::{emit, emit_ply, illegal, result_line};
use crate::notation::{WireMove, WireTurn};
use crate::protocol::cecp::{CecpCommand, EngineLine};
use crate::session::plies::{self, Plies};
use crate::session::worker::Job;
use crate::session::{Purpose, Session};
use crate::variant::Side;

impl Session {
    /// The commands that play turns: the engine's and the opponent's moves.
    pub(in crate::session) fn cecp_turn_command(
        &mut self,
        command: CecpCommand,
        out: &mut Vec<String>,
    ) {
        match command {
            CecpCommand::Go => self.cecp_go(out),
            CecpCommand::PlayOther => match self.core.game().side_to_move() {
                Some(side) => {
                    self.cecp.force = false;
                    self.cecp.engine_side = side.opponent();
                }
                None => Self::cecp_error(
                    out,
                    "a sealed game has no side to move; use sealed white|black",
                    "playother",
                ),
            },
            CecpCommand::Sealed(side) => {
                if self.core.game().side_to_move().is_some() {
                    Self::cecp_error(out, "not a sealed game", format!("sealed {}", side.word()));
                } else {
                    self.cecp.engine_side = side;
                    self.cecp.answered = false;
                    self.cecp.own_move = None;
                }
            }
            CecpCommand::UserMove(turn) | CecpCommand::Move(turn) => {
                if self.in_plies() {
                    self.cecp_ply(turn, out);
                } else {
                    self.cecp_turn(turn, out);
                }
            }
            CecpCommand::Reveal(w, b) => self.cecp_turn(WireTurn::Joint(w, b), out),
            CecpCommand::Opponent(_) => match self.reveal.take() {
                Some(pending) => out.extend(pending.lines),
                None => Self::cecp_error(out, "no committed move is waiting", "opponent"),
            },
            // The other commands are not of this group (`cecp_command` sorts them).
            _ => {}
        }
    }

    /// `go`: the engine plays the side to move (or, mid-turn, the ply XBoard waits for).
    fn cecp_go(&mut self, out: &mut Vec<String>) {
        self.cecp.force = false;
        match &self.cecp.plies {
            // Mid-turn, `go` asks for the ply XBoard is waiting for.
            Plies::Received {
                partial,
                p2_seen: false,
            } => {
                emit_ply(out, &plies::answer_p2(self.core.game(), partial));
                let partial = partial.clone();
                self.cecp.plies = Plies::Received {
                    partial,
                    p2_seen: true,
                };
            }
            Plies::Received { .. } | Plies::Sent { .. } => {}
            Plies::Idle => {
                if let Some(side) = self.core.game().side_to_move() {
                    self.cecp.engine_side = side;
                }
                self.cecp_move(out);
            }
        }
    }

    /// Whether this variant's turns are shown to the GUI in XBoard plies: a variant with
    /// multi-part turns, unless the GUI accepted `turns=1` (as `quill match` does).
    pub(in crate::session) fn in_plies(&self) -> bool {
        self.core.variant().xboard_plies() && !self.cecp.turns_accepted
    }

    /// One XBoard ply of a multi-part turn (see plies.rs). Every ply is checked against the
    /// rules; a wrong one is refused with `Illegal move` and leaves the position and the ply
    /// state as they were, so that XBoard's takeback and the engine agree and a corrected ply
    /// is accepted.
    pub(in crate::session) fn cecp_ply(&mut self, turn: WireTurn, out: &mut Vec<String>) {
        let WireTurn::Single(mv) = &turn else {
            return illegal(out, "a joint turn in an alternating game", &turn);
        };
        let game = self.core.game();
        let before = std::mem::take(&mut self.cecp.plies);
        let checked = match &before {
            Plies::Idle => plies::read_p1(game, mv).map(|partial| {
                if !self.cecp.force {
                    emit_ply(out, &plies::answer_p2(game, &partial));
                }
                Plies::Received {
                    partial,
                    p2_seen: !self.cecp.force,
                }
            }),
            // In force mode the GUI relays the opponent's P2 as well.
            Plies::Received {
                partial,
                p2_seen: false,
            } => plies::check_p2(game, partial, mv).map(|()| Plies::Received {
                partial: partial.clone(),
                p2_seen: true,
            }),
            Plies::Received {
                partial,
                p2_seen: true,
            } => match plies::complete(game, partial, mv) {
                Ok(whole) => return self.cecp_turn(WireTurn::Single(whole), out),
                Err(e) => Err(e),
            },
            Plies::Sent { turn, p3 } => match plies::check_own_p2(game, turn, mv) {
                Ok(()) => {
                    emit_ply(out, p3);
                    let turn = turn.clone();
                    return self.finish_own_turn(&turn, out);
                }
                Err(e) => Err(e),
            },
        };
        match checked {
            Ok(next) => self.cecp.plies = next,
            Err(e) => {
                illegal(out, e, plies::shown(mv));
                self.cecp.plies = before;
            }
        }
    }

    /// Plays the engine's own whole turn once XBoard has been shown all of it.
    pub(in crate::session) fn finish_own_turn(&mut self, turn: &WireMove, out: &mut Vec<String>) {
        match self.core.play(&WireTurn::Single(turn.clone())) {
            Ok(_) => {
                if let Some(outcome) = self.core.game().outcome() {
                    emit(out, result_line(&outcome));
                }
            }
            Err(e) => log::error!("the engine chose a turn its own rules refuse: {e}"),
        }
    }

    /// Why a revealed pair cannot be this turn's: its half for the engine's side is not the
    /// move the engine sent (or committed to) for it.
    pub(in crate::session) fn revealed_mismatch(&self, turn: &WireTurn) -> Option<String> {
        let (Some(own), WireTurn::Joint(w, b)) = (&self.cecp.own_move, turn) else {
            return None;
        };
        let side = self.cecp.engine_side;
        let half = match side {
            Side::White => w,
            Side::Black => b,
        };
        (half != own).then(|| {
            format!(
                "the engine played {own} for {} this turn, not {half}",
                side.word()
            )
        })
    }

    pub(in crate::session) fn cecp_turn(&mut self, turn: WireTurn, out: &mut Vec<String>) {
        if let Some(reason) = self.revealed_mismatch(&turn) {
            return illegal(out, reason, &turn);
        }
        if self.reveal.is_some() && matches!(turn, WireTurn::Joint(..)) {
            // The pair is known: a reveal still owed is now moot.
            self.reveal = None;
        }
        match self.core.play(&turn) {
            Ok(penalties) => {
                for p in penalties {
                    let text = format!("penalty for {}: {} ({})", p.side.word(), p.mv, p.reason);
                    emit(out, EngineLine::Comment(text));
                }
                self.reset_turn_state();
                if let Some(outcome) = self.core.game().outcome() {
                    emit(out, result_line(&outcome));
                } else if self.cecp.analyze {
                    self.cecp_analyze(out);
                } else if !self.cecp.force {
                    self.cecp_move(out);
                }
            }
            Err(e) => illegal(out, e, &turn),
        }
    }

    pub(in crate::session) fn cecp_move(&mut self, out: &mut Vec<String>) {
        let game = self.core.game();
        if game.outcome().is_some() || self.cecp.force {
            return;
        }
        if game
            .side_to_move()
            .is_some_and(|s| s != self.cecp.engine_side)
        {
            return;
        }
        if self.cecp.answered || self.reveal.is_some() {
            return Self::cecp_error(out, "already answered this turn", "go");
        }
        let side = self.cecp_side();
        let legal = self.core.game().legal_moves(side);
        let allowed: Vec<WireMove> = if self.cecp.excluded.is_empty() {
            Vec::new()
        } else {
            legal
                .into_iter()
                .filter(|m| !self.cecp.excluded.contains(m))
                .collect()
        };
        if !self.cecp.excluded.is_empty() && allowed.is_empty() {
            return Self::cecp_error(out, "every legal move is excluded", "go");
        }
        let limits = self.cecp.clock.limits();
        self.start(
            Job::Think {
                side,
                allowed,
                limits,
            },
            Purpose::CecpMove,
            out,
        );
    }
}
