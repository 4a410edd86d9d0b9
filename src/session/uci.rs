//! The UCI dialect of the session (`protocol-docs/uci.md`).

use super::worker::Job;
use super::{Purpose, Session};
use std::time::Duration;

use crate::player::Choice;
use crate::protocol::CommandError;
use crate::protocol::uci::{self, GoParams, PositionStart, UciCommand};
use crate::search::Limits;
use crate::variant::{Side, Variant};

/// UCI-only session state.
#[derive(Debug, Default)]
pub(super) struct State {
    /// Whether the current variant's board was announced since it was chosen.
    announced: bool,
    /// A search result held back until `stop` or `ponderhit` (`go infinite`, `go ponder`).
    pub(super) held: Option<Choice>,
}

/// The mixed strategy as `MOVE:P …`, support only.
pub(super) fn strategy_text(choice: &Choice) -> String {
    let parts: Vec<String> = choice
        .strategy
        .iter()
        .map(|(m, p)| format!("{m}:{p:.4}"))
        .collect();
    parts.join(" ")
}

/// The engine's name and version, as announced to GUIs.
pub const NAME: &str = concat!("Quill ", env!("CARGO_PKG_VERSION"));

impl Session {
    pub(super) fn uci_line(&mut self, line: &str, out: &mut Vec<String>) {
        match uci::parse(line) {
            Ok(command) => self.uci_command(command, out),
            Err(CommandError::Empty) => {}
            Err(e) => out.push(format!("info string error: {e}")),
        }
    }

    fn uci_error(out: &mut Vec<String>, message: impl std::fmt::Display) {
        out.push(format!("info string error: {message}"));
    }

    fn uci_command(&mut self, command: UciCommand, out: &mut Vec<String>) {
        // Anything but these waits for (and answers) a running search first, so that answers
        // come in order and state never changes under a search.
        if !matches!(
            command,
            UciCommand::IsReady
                | UciCommand::Debug(_)
                | UciCommand::Register(_)
                | UciCommand::Display
        ) {
            self.halt(true, out);
        }
        match command {
            UciCommand::Uci => {
                out.push(format!("id name {NAME}"));
                out.push("id author the Quill developers".to_string());
                let vars: String = Variant::ALL.iter().map(|v| format!(" var {v}")).collect();
                out.push(format!(
                    "option name UCI_Variant type combo default {}{vars}",
                    Variant::DEFAULT
                ));
                out.push(format!(
                    "option name Seed type spin default 0 min 0 max {}",
                    super::core::MAX_SEED
                ));
                out.push("option name SealedCommit type check default false".to_string());
                out.push(format!(
                    "option name Hash type spin default {} min 1 max {}",
                    crate::search::Table::DEFAULT_MIB,
                    crate::search::Table::MAX_MIB
                ));
                out.push("uciok".to_string());
            }
            UciCommand::Debug(_) | UciCommand::Register(_) => {}
            UciCommand::IsReady => {
                if !self.uci.announced {
                    self.announce(out);
                }
                out.push("readyok".to_string());
            }
            UciCommand::SetOption { name, value } => {
                if name.eq_ignore_ascii_case("UCI_Variant") {
                    let value = value.unwrap_or_default();
                    match Variant::from_name(&value) {
                        Some(v) => {
                            self.reveal = None;
                            self.core.set_variant(v);
                            self.announce(out);
                        }
                        None => Self::uci_error(out, format!("unknown variant '{value}'")),
                    }
                } else if let Err(e) = self.core.set_option(&name, value.as_deref()) {
                    Self::uci_error(out, e);
                }
            }
            UciCommand::UciNewGame => {
                self.reveal = None;
                self.core.new_game();
            }
            UciCommand::Position { start, moves } => {
                let fen = match &start {
                    PositionStart::StartPos => None,
                    PositionStart::Fen(f) => Some(f.as_str()),
                };
                match self.core.set_position(fen, &moves) {
                    Ok(()) => self.reveal = None,
                    Err(e) => Self::uci_error(out, format!("position refused, unchanged: {e}")),
                }
            }
            UciCommand::Go(params) => self.uci_go(params, out),
            UciCommand::Stop | UciCommand::PonderHit => {}
            UciCommand::Quit => self.finished = true,
            UciCommand::Display => out.extend(self.core.display()),
            UciCommand::Opponent(_) => match self.reveal.take() {
                Some(pending) => out.extend(pending.lines),
                None => {
                    Self::uci_error(out, "no committed move is waiting for the opponent's move")
                }
            },
        }
    }

    fn announce(&mut self, out: &mut Vec<String>) {
        let game = self.core.game();
        let g = game.geometry();
        out.push(format!(
            "info string variant {} files {} ranks {} pocket 0 template fairy startpos {}",
            self.core.variant(),
            g.files(),
            g.ranks(),
            crate::game::Game::start(self.core.variant()).fen()
        ));
        self.uci.announced = true;
    }

    fn uci_go(&mut self, params: GoParams, out: &mut Vec<String>) {
        if let Some(depth) = params.perft {
            self.perft_depth = depth;
            return self.start(Job::Perft(depth), Purpose::Perft, out);
        }
        if self.reveal.is_some() {
            return Self::uci_error(out, "a committed move awaits 'opponent M'");
        }
        let game = self.core.game();
        let side = match (game.side_to_move(), params.sealed) {
            (None, Some(side)) => side,
            (None, None) => {
                return Self::uci_error(
                    out,
                    format!(
                        "{} is sealed: go needs 'sealed w' or 'sealed b'",
                        game.variant()
                    ),
                );
            }
            (Some(_), Some(_)) => {
                return Self::uci_error(out, format!("{} is not a sealed game", game.variant()));
            }
            (Some(side), None) => side,
        };
        if let Some(outcome) = game.outcome() {
            out.push(format!("info string game over: {outcome}"));
            out.push("bestmove (none)".to_string());
            return;
        }
        let limits = limits_of(&params, side);
        let job = Job::Think {
            side,
            allowed: params.searchmoves,
            limits,
        };
        let hold = params.infinite || params.ponder;
        self.start(job, Purpose::UciGo { hold }, out);
    }

    /// Answers a finished `go`: its analysis, then the bestmove (held when `hold`).
    pub(super) fn uci_finished(
        &mut self,
        choice: Option<Choice>,
        hold: bool,
        out: &mut Vec<String>,
    ) {
        let Some(choice) = choice else {
            Self::uci_error(out, "no legal move among searchmoves");
            out.push("bestmove (none)".to_string());
            return;
        };
        out.push(info_line(&choice));
        if self.core.game().side_to_move().is_none() {
            out.push(format!("info string strategy {}", strategy_text(&choice)));
        }
        if hold {
            self.uci.held = Some(choice);
        } else {
            self.uci_answer(&choice, out);
        }
    }

    pub(super) fn uci_answer(&mut self, choice: &Choice, out: &mut Vec<String>) {
        let lines = self.deliver(
            &choice.mv.to_string(),
            |mv, nonce| {
                let mut lines = Vec::new();
                if !nonce.is_empty() {
                    lines.push(format!("info string reveal {mv} {nonce}"));
                }
                lines.push(format!("bestmove {mv}"));
                lines
            },
            |digest| format!("info string commit {digest}"),
        );
        out.extend(lines);
    }
}

/// The search limits a `go` asks for. The time is a hard limit; the search starts no new
/// iteration past half of it. From a clock: the time left spread over the moves still to come
/// (`movestogo`, or 30) plus most of the increment is the typical share, and the hard limit
/// twice that, never more than half of what is left.
fn limits_of(params: &GoParams, side: Side) -> Limits {
    let (time, inc) = match side {
        Side::White => (params.wtime, params.winc),
        Side::Black => (params.btime, params.binc),
    };
    let clock = time.map(|left| {
        let togo = u64::from(params.movestogo.unwrap_or(30).max(1));
        Duration::from_millis(clock_budget(left, togo, inc.unwrap_or(0)))
    });
    let infinite = params.infinite || params.ponder;
    Limits {
        depth: params.depth,
        nodes: params.nodes,
        time: if infinite {
            None
        } else {
            params.movetime.map(Duration::from_millis).or(clock)
        },
    }
}

/// The hard time limit in milliseconds for a move from a clock with `left` ms, `togo` moves
/// to the next control and an increment of `inc` ms: twice the typical share (so the soft
/// limit, half of it, is the share), at most half of what is left, less a margin for the
/// answer to travel.
pub(super) fn clock_budget(left: u64, togo: u64, inc: u64) -> u64 {
    let share = left / togo.max(1) + inc * 4 / 5;
    (2 * share).min(left / 2).saturating_sub(10).max(5)
}

/// The `info` line of a finished search: depth, score, nodes, time and principal line.
pub(super) fn info_line(choice: &Choice) -> String {
    let pv = if choice.pv.is_empty() {
        choice.mv.to_string()
    } else {
        choice.pv.join(" ")
    };
    format!(
        "info depth {} score cp {} nodes {} time {} pv {pv}",
        choice.depth,
        choice.centipawns(),
        choice.nodes,
        choice.micros / 1000
    )
}
