//! `go` and its answer: the search limits, the clock budget, the `info` lines and the
//! bestmove.

use super::{emit, no_move, pv_turns};
use crate::player::Choice;
use crate::protocol::uci::{EngineLine, GoParams, Info, InfoScore};
use crate::search::Limits;
use crate::session::worker::Job;
use crate::session::{Purpose, Session};
use crate::variant::Side;

impl Session {
    pub(in crate::session) fn uci_go(&mut self, params: GoParams, out: &mut Vec<String>) {
        if let Some(depth) = params.perft {
            return match crate::session::core::check_perft_depth(depth) {
                Ok(depth) => {
                    self.perft_depth = depth;
                    self.start(Job::Perft(depth), Purpose::Perft, out)
                }
                Err(e) => Self::uci_error(out, e),
            };
        }
        if self.reveal.is_some() {
            return Self::refuse_go(out, "a committed move awaits 'opponent M'");
        }
        if let Some(reason) = &self.uci.refused {
            return Self::refuse_go(
                out,
                format!("the last position was refused ({reason}); send a position first"),
            );
        }
        let game = self.core.game();
        let side = match (game.side_to_move(), params.sealed) {
            (None, Some(side)) => side,
            (None, None) => {
                return Self::refuse_go(
                    out,
                    format!(
                        "{} is sealed: go needs 'sealed w' or 'sealed b'",
                        game.variant()
                    ),
                );
            }
            (Some(_), Some(_)) => {
                return Self::refuse_go(out, format!("{} is not a sealed game", game.variant()));
            }
            (Some(side), None) => side,
        };
        if let Some(outcome) = game.outcome() {
            emit(out, EngineLine::InfoString(format!("game over: {outcome}")));
            if params.infinite || params.ponder {
                // As for any search in these modes, the bestmove waits for `stop`.
                self.uci.held_none = true;
            } else {
                out.push(no_move());
            }
            return;
        }
        let limits = limits_of(&params, side, game.side_to_move().is_none());
        let job = Job::Think {
            side,
            allowed: params.searchmoves,
            limits,
        };
        let hold = params.infinite || params.ponder;
        self.start(job, Purpose::UciGo { hold }, out);
    }

    /// Answers a finished `go`: its analysis, then the bestmove (held when `hold`).
    pub(in crate::session) fn uci_finished(
        &mut self,
        choice: Option<Choice>,
        hold: bool,
        out: &mut Vec<String>,
    ) {
        let Some(choice) = choice else {
            Self::uci_error(out, "no legal move among searchmoves");
            out.push(no_move());
            return;
        };
        if self.secret() {
            // The whole analysis comes with the opening (see uci_answer).
            out.push(info_line(&choice, true));
        } else {
            let shown = self.already_shown(&choice);
            out.extend(self.uci_details(&choice, !shown));
        }
        if hold {
            self.uci.held = Some(choice);
        } else {
            self.uci_answer(&choice, out);
        }
    }

    /// The analysis of a finished search: its info line, and in a sealed game the strategy.
    pub(in crate::session) fn uci_details(&self, choice: &Choice, with_info: bool) -> Vec<String> {
        let mut lines = Vec::new();
        if with_info {
            lines.push(info_line(choice, false));
        }
        if self.core.game().side_to_move().is_none() {
            lines.push(EngineLine::Strategy(choice.strategy.clone()).to_string());
        }
        lines
    }

    pub(in crate::session) fn uci_answer(&mut self, choice: &Choice, out: &mut Vec<String>) {
        let details = self.uci_details(choice, true);
        let lines = self.deliver(
            &choice.mv,
            details,
            |mv, nonce| {
                EngineLine::Reveal {
                    mv: mv.clone(),
                    nonce: nonce.to_owned(),
                }
                .to_string()
            },
            |mv| {
                EngineLine::BestMove {
                    mv: Some(mv.clone()),
                    ponder: None,
                }
                .to_string()
            },
            |digest| EngineLine::Commit(digest.to_owned()).to_string(),
        );
        out.extend(lines);
    }
}

/// The search limits a `go` asks for. The time is a hard limit; from a clock, the search
/// starts a new iteration only when the last one's growth says it would end by it
/// (`search::deepen::next_fits`), while `movetime` runs to its end. From a clock: the time left spread over the moves still to come
/// (`movestogo`, or 30) plus most of the increment is the typical share, and the hard limit
/// twice that, never more than half of what is left.
///
/// `go mate N` bounds the depth to the plies that show a mate in N moves (2N: the mating
/// move is ply 2N − 1, and the end is seen a ply later; N joint turns in a sealed game), and
/// the search stops as soon as it has found a forced win.
pub(super) fn limits_of(params: &GoParams, side: Side, sealed: bool) -> Limits {
    let (time, inc) = match side {
        Side::White => (params.wtime, params.winc),
        Side::Black => (params.btime, params.binc),
    };
    let clock = time.map(|left| {
        let togo = u64::from(params.movestogo.unwrap_or(30).max(1));
        clock_budget(left, togo, inc.unwrap_or(0))
    });
    let infinite = params.infinite || params.ponder;
    // A mate in N moves is 2N - 1 plies; the search sees the end one ply later.
    let mate_depth = params.mate.map(|n| {
        if sealed {
            n.max(1)
        } else {
            n.max(1).saturating_mul(2)
        }
    });
    let depth = match (params.depth, mate_depth) {
        (Some(d), Some(m)) => Some(d.min(m)),
        (d, m) => d.or(m),
    };
    Limits {
        depth,
        nodes: params.nodes,
        time: if infinite {
            None
        } else {
            params
                .movetime
                .or(clock)
                .map(crate::session::core::duration_ms)
        },
        // `movetime` is the time to use; a clock's budget is a most.
        exact: params.movetime.is_some() && !infinite,
        ..Limits::default()
    }
}

/// The hard time limit in milliseconds for a move from a clock with `left` ms, `togo` moves
/// to the next control and an increment of `inc` ms: twice the typical share (an iteration
/// that would not end by it is not started, so a move takes about the share), at most half
/// of what is left, less a margin for the answer to travel.
/// All arithmetic saturates, whatever the GUI sent.
pub(in crate::session) fn clock_budget(left: u64, togo: u64, inc: u64) -> u64 {
    let share = (left / togo.max(1)).saturating_add(inc / 5 * 4);
    share
        .saturating_mul(2)
        .min(left / 2)
        .saturating_sub(10)
        .max(5)
}

/// The `info` line of a search: depth, score, nodes, how full the table is, tablebase hits
/// (when there were any), time and principal line; with `secret` (a committed sealed move not
/// yet opened) only depth, nodes and time, which say nothing about the move.
pub(in crate::session) fn info_line(choice: &Choice, secret: bool) -> String {
    let mut info = Info {
        depth: Some(choice.depth),
        nodes: Some(choice.nodes),
        time: Some(choice.micros / 1000),
        ..Info::default()
    };
    if !secret {
        info.score = Some(InfoScore {
            value: choice.score,
            bound: None,
        });
        info.hashfull = Some(choice.hashfull);
        info.tbhits = Some(choice.tbhits).filter(|&n| n > 0);
        info.pv = pv_turns(choice);
    }
    EngineLine::Info(info).to_string()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::protocol::uci::{self, UciCommand};

    fn limits(go: &str, side: Side, sealed: bool) -> Limits {
        match uci::parse(go) {
            Ok(UciCommand::Go(params)) => limits_of(&params, side, sealed),
            other => panic!("{go}: {other:?}"),
        }
    }

    #[test]
    fn movetime_is_used_whole_and_a_clock_is_a_budget() {
        let l = limits("go movetime 1000", Side::White, false);
        assert_eq!((l.time, l.exact), (Some(Duration::from_secs(1)), true));
        let l = limits("go wtime 60000 btime 1000", Side::White, false);
        // 60 s over 30 moves: 2 s typical, a hard limit of twice that, no more than half.
        assert_eq!(l.time, Some(Duration::from_millis(3990)));
        assert!(!l.exact);
        // 1 s over 30 moves: 33 ms typical, twice that less 10 ms for the answer to travel.
        let l = limits("go wtime 60000 btime 1000", Side::Black, false);
        assert_eq!(l.time, Some(Duration::from_millis(56)));
        let l = limits("go infinite movetime 5", Side::White, false);
        assert_eq!((l.time, l.exact), (None, false));
    }

    #[test]
    fn mate_and_huge_numbers_become_bounded_limits() {
        assert_eq!(limits("go mate 3", Side::White, false).depth, Some(6));
        assert_eq!(limits("go mate 3", Side::White, true).depth, Some(3));
        assert_eq!(
            limits("go mate 3 depth 2", Side::White, false).depth,
            Some(2)
        );
        let l = limits(
            "go wtime 18446744073709551615 winc 18446744073709551615 movestogo 1",
            Side::White,
            false,
        );
        assert_eq!(
            l.time,
            Some(Duration::from_millis(crate::session::core::MAX_TIME_MS))
        );
    }
}
