//! The UCI dialect of the session (`protocol-docs/uci.md`).

use super::worker::Job;
use super::{Purpose, Session};

use crate::notation::{Turn, parse_turn};
use crate::player::Choice;
use crate::protocol::CommandError;
use crate::protocol::uci::{
    self, EngineLine, GoParams, Info, InfoScore, OptionKind, PositionStart, UciCommand, UciOption,
};
use crate::search::Limits;
use crate::variant::{Side, Variant};

/// UCI-only session state.
#[derive(Debug, Default)]
pub(super) struct State {
    /// A search result held back until `stop` or `ponderhit` (`go infinite`, `go ponder`).
    pub(super) held: Option<Choice>,
    /// A `bestmove (none)` held back until `stop` (`go infinite` in a finished game).
    pub(super) held_none: bool,
    /// Why the last `position` was refused: until a position is accepted (or a new game or
    /// variant starts), `go` is refused too, so that no move is ever sent for a position the
    /// GUI does not have.
    refused: Option<String>,
}

/// The bestmove of a `go` that has no move to give (refused, or a finished game), as
/// Stockfish writes it.
pub(super) fn no_move() -> String {
    EngineLine::BestMove {
        mv: None,
        ponder: None,
    }
    .to_string()
}

/// Writes one engine line into the output.
fn emit(out: &mut Vec<String>, line: EngineLine) {
    out.push(line.to_string());
}

/// An option as `uci` declares it.
fn option(name: &str, kind: OptionKind) -> EngineLine {
    EngineLine::Option(UciOption {
        name: name.to_owned(),
        kind,
    })
}

/// A spin option's declaration.
fn spin(name: &str, default: u64, min: u64, max: u64) -> EngineLine {
    let wide = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    option(
        name,
        OptionKind::Spin {
            default: wide(default),
            min: wide(min),
            max: wide(max),
        },
    )
}

/// A check option's declaration (every one is off by default).
fn check(name: &str) -> EngineLine {
    option(name, OptionKind::Check { default: false })
}

/// The principal line of a choice as turns (its move alone when the search gave none).
pub(super) fn pv_turns(choice: &Choice) -> Vec<Turn> {
    if choice.pv.is_empty() {
        return vec![Turn::Single(choice.mv.clone())];
    }
    choice
        .pv
        .iter()
        .filter_map(|text| {
            let turn = parse_turn(text);
            if turn.is_none() {
                log::error!("the search gave a principal line turn that is no turn: {text}");
            }
            turn
        })
        .collect()
}

/// What `help` lists in UCI: each command and what it does.
const UCI_HELP: &[(&str, &str)] = &[
    ("uci", "identification and options, then uciok"),
    ("isready", "readyok, also while thinking"),
    (
        "setoption name N value V",
        "set an option (UCI_Variant: apocalypse, apocalypse-classic, gladiator, brawl, pagan)",
    ),
    ("ucinewgame", "a new game of the variant"),
    (
        "position startpos|fen FEN [moves T ...]",
        "set the position; a sealed turn is one token WHITE|BLACK",
    ),
    (
        "go [depth N|movetime MS|nodes N|mate N|infinite|wtime ...]",
        "think and answer bestmove; sealed games need 'go sealed w|b'",
    ),
    (
        "go perft N",
        "count move sequences, split by the first turn",
    ),
    ("stop, ponderhit", "end the search and answer bestmove"),
    (
        "opponent M|DIGEST",
        "commit-reveal: the opponent's move has arrived",
    ),
    ("d", "show the board"),
    ("quit", "exit"),
];

/// The engine's name and version, as announced to GUIs.
pub const NAME: &str = concat!("Quill ", env!("CARGO_PKG_VERSION"));

impl Session {
    pub(super) fn uci_line(&mut self, line: &str, out: &mut Vec<String>) {
        match uci::parse(line) {
            Ok(command) => self.uci_command(command, out),
            Err(CommandError::Empty) => {}
            Err(e) => {
                let mut words = line.split_whitespace();
                let go = words.next() == Some("go");
                if go {
                    // A malformed `go` is still a `go`: the running search (if any) answers
                    // first, then this one gets its bestmove too, unless it asked for perft.
                    self.halt(true, out);
                }
                emit(out, EngineLine::Error(e.to_string()));
                if go && !words.any(|w| w == "perft") {
                    out.push(no_move());
                }
            }
        }
    }

    fn uci_error(out: &mut Vec<String>, message: impl std::fmt::Display) {
        emit(out, EngineLine::Error(message.to_string()));
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
                | UciCommand::Help
        ) {
            self.halt(true, out);
        }
        match command {
            UciCommand::Uci => out.extend(identification().iter().map(ToString::to_string)),
            UciCommand::Debug(_) | UciCommand::Register(_) => {}
            UciCommand::IsReady => emit(out, EngineLine::ReadyOk),
            UciCommand::SetOption { name, value } => {
                if name.eq_ignore_ascii_case("UCI_Variant") {
                    let value = value.unwrap_or_default();
                    match Variant::from_name(&value) {
                        Some(v) => {
                            self.uci_drop_commitment(out);
                            self.uci.refused = None;
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
                self.uci_drop_commitment(out);
                self.uci.refused = None;
                self.core.new_game();
            }
            UciCommand::Position { start, moves } => {
                let fen = match &start {
                    PositionStart::StartPos => None,
                    PositionStart::Fen(f) => Some(f.as_str()),
                };
                match self.core.set_position(fen, &moves) {
                    Ok(()) => {
                        self.uci_drop_commitment(out);
                        self.uci.refused = None;
                    }
                    Err(e) => {
                        Self::uci_error(out, format!("position refused: {e}"));
                        self.uci.refused = Some(e);
                    }
                }
            }
            UciCommand::Go(params) => self.uci_go(params, out),
            UciCommand::Stop | UciCommand::PonderHit => {}
            UciCommand::Quit => self.finished = true,
            UciCommand::Display => out.extend(self.core.display()),
            UciCommand::Help => out.extend(super::help_lines(UCI_HELP, "info string ")),
            UciCommand::Opponent(_) => match self.reveal.take() {
                Some(pending) => out.extend(pending.lines),
                None => {
                    Self::uci_error(out, "no committed move is waiting for the opponent's move")
                }
            },
        }
    }

    /// Drops a commitment that was never opened (a new position or game makes it moot); its
    /// `go` still gets its one bestmove, `bestmove (none)`.
    fn uci_drop_commitment(&mut self, out: &mut Vec<String>) {
        if self.reveal.take().is_some() {
            emit(
                out,
                EngineLine::InfoString("the committed move was never opened; dropped".into()),
            );
            out.push(no_move());
        }
    }

    /// The board announcement, as Fairy-Stockfish makes it when `UCI_Variant` is set (with
    /// the six standard FEN fields), and for a sealed variant the line that says so.
    fn announce(&mut self, out: &mut Vec<String>) {
        let variant = self.core.variant();
        let start = crate::game::Game::start(variant);
        let g = start.geometry();
        let fen = start.fen();
        let six: Vec<&str> = fen.split_whitespace().take(6).collect();
        emit(
            out,
            EngineLine::InfoString(format!(
                "variant {variant} files {} ranks {} pocket 0 template fairy startpos {}",
                g.files(),
                g.ranks(),
                six.join(" ")
            )),
        );
        if variant.is_sealed() {
            emit(out, EngineLine::InfoString(format!("sealed {variant}")));
        }
    }

    /// Refuses a `go`: the reason, then the one bestmove every `go` gets.
    fn refuse_go(out: &mut Vec<String>, reason: impl std::fmt::Display) {
        Self::uci_error(out, format!("go refused: {reason}"));
        out.push(no_move());
    }

    fn uci_go(&mut self, params: GoParams, out: &mut Vec<String>) {
        if let Some(depth) = params.perft {
            return match super::core::check_perft_depth(depth) {
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
    pub(super) fn uci_finished(
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
    fn uci_details(&self, choice: &Choice, with_info: bool) -> Vec<String> {
        let mut lines = Vec::new();
        if with_info {
            lines.push(info_line(choice, false));
        }
        if self.core.game().side_to_move().is_none() {
            lines.push(EngineLine::Strategy(choice.strategy.clone()).to_string());
        }
        lines
    }

    pub(super) fn uci_answer(&mut self, choice: &Choice, out: &mut Vec<String>) {
        let details = self.uci_details(choice, true);
        let lines = self.deliver(
            &choice.mv,
            |mv, nonce| {
                let mut lines = Vec::new();
                if !nonce.is_empty() {
                    // Opened: what was kept back (analysis, strategy) may now be shown.
                    lines.extend(details.iter().cloned());
                    lines.push(
                        EngineLine::Reveal {
                            mv: mv.clone(),
                            nonce: nonce.to_owned(),
                        }
                        .to_string(),
                    );
                }
                lines.push(
                    EngineLine::BestMove {
                        mv: Some(mv.clone()),
                        ponder: None,
                    }
                    .to_string(),
                );
                lines
            },
            |digest| EngineLine::Commit(digest.to_owned()).to_string(),
        );
        out.extend(lines);
    }
}

/// The search limits a `go` asks for. The time is a hard limit; the search starts no new
/// iteration past half of it. From a clock: the time left spread over the moves still to come
/// (`movestogo`, or 30) plus most of the increment is the typical share, and the hard limit
/// twice that, never more than half of what is left.
///
/// `go mate N` bounds the depth to the plies that show a mate in N moves (2N: the mating
/// move is ply 2N − 1, and the end is seen a ply later; N joint turns in a sealed game), and
/// the search stops as soon as it has found a forced win.
fn limits_of(params: &GoParams, side: Side, sealed: bool) -> Limits {
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
            params.movetime.or(clock).map(super::core::duration_ms)
        },
        // `movetime` is the time to use; a clock's budget is a most.
        exact: params.movetime.is_some() && !infinite,
    }
}

/// The hard time limit in milliseconds for a move from a clock with `left` ms, `togo` moves
/// to the next control and an increment of `inc` ms: twice the typical share (so the soft
/// limit, half of it, is the share), at most half of what is left, less a margin for the
/// answer to travel.
/// All arithmetic saturates, whatever the GUI sent.
pub(super) fn clock_budget(left: u64, togo: u64, inc: u64) -> u64 {
    let share = (left / togo.max(1)).saturating_add(inc / 5 * 4);
    share
        .saturating_mul(2)
        .min(left / 2)
        .saturating_sub(10)
        .max(5)
}

/// The `info` line of a search: depth, score, nodes, time and principal line; with `secret`
/// (a committed sealed move not yet opened) only depth, nodes and time, which say nothing
/// about the move.
pub(super) fn info_line(choice: &Choice, secret: bool) -> String {
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
        info.pv = pv_turns(choice);
    }
    EngineLine::Info(info).to_string()
}

/// What `uci` answers: identification, options, `uciok`.
fn identification() -> Vec<EngineLine> {
    let table = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
    vec![
        EngineLine::IdName(NAME.to_owned()),
        EngineLine::IdAuthor("the Quill developers".to_owned()),
        option(
            "UCI_Variant",
            OptionKind::Combo {
                default: Variant::DEFAULT.to_string(),
                vars: Variant::ALL.iter().map(ToString::to_string).collect(),
            },
        ),
        spin("Seed", 0, 0, super::core::MAX_SEED),
        check("SealedCommit"),
        spin(
            "Hash",
            table(crate::search::Table::DEFAULT_MIB),
            1,
            table(crate::search::Table::MAX_MIB),
        ),
        option("Clear Hash", OptionKind::Button),
        option(
            "TablebasePath",
            OptionKind::Text {
                default: String::new(),
            },
        ),
        // Declared because GUIs and python-chess send them unasked; the true ranges of a
        // one-thread, one-line search (see uci.md).
        spin("Threads", 1, 1, 1),
        spin("MultiPV", 1, 1, 1),
        check("Ponder"),
        check("UCI_AnalyseMode"),
        EngineLine::UciOk,
    ]
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

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
            Some(Duration::from_millis(super::super::core::MAX_TIME_MS))
        );
    }
}
