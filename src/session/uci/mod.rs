//! The UCI dialect of the session (`protocol-docs/uci.md`), split along the protocol: the
//! handshake and options ([`handshake`]), `go` and its answer ([`go`]). Here: the state,
//! the reading of a line, `setoption` and `position`.

mod go;
mod handshake;

pub(super) use self::go::{clock_budget, info_line};
use self::handshake::{UCI_HELP, identification};

use super::Session;
use super::error::OptionError;

use crate::notation::WireTurn;
use crate::player::Choice;
use crate::protocol::CommandError;
use crate::protocol::uci::{self, EngineLine, PositionStart, UciCommand};
use crate::variant::Variant;

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
    refused: Option<super::error::PositionError>,
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

/// The principal line of a choice as turns (its move alone when the search gave none).
pub(super) fn pv_turns(choice: &Choice) -> Vec<WireTurn> {
    if choice.pv.is_empty() {
        return vec![WireTurn::Single(choice.mv.clone())];
    }
    choice.pv.clone()
}

/// The engine's name and version, as announced to GUIs.
pub(crate) const NAME: &str = concat!("Quill ", env!("CARGO_PKG_VERSION"));

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
            UciCommand::SetOption { name, value } => self.uci_setoption(&name, value, out),
            UciCommand::UciNewGame => {
                self.uci_drop_commitment(out);
                self.uci.refused = None;
                self.core.new_game();
            }
            UciCommand::Position { start, moves } => self.uci_position(&start, &moves, out),
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

    /// `setoption`: `UCI_Variant` starts a game of that variant; the others are the core's.
    fn uci_setoption(&mut self, name: &str, value: Option<String>, out: &mut Vec<String>) {
        if !name.eq_ignore_ascii_case("UCI_Variant") {
            if let Err(e) = self.core.set_option(name, value.as_deref()) {
                Self::uci_error(out, e);
            }
            return;
        }
        let value = value.unwrap_or_default();
        match Variant::from_name(&value) {
            Some(v) => {
                self.uci_drop_commitment(out);
                self.uci.refused = None;
                self.core.set_variant(v);
                self.announce(out);
            }
            None => Self::uci_error(out, OptionError::UnknownVariant { value }),
        }
    }

    /// `position`: all or nothing; a refused one also refuses `go` until the next.
    fn uci_position(&mut self, start: &PositionStart, moves: &[WireTurn], out: &mut Vec<String>) {
        let fen = match start {
            PositionStart::StartPos => None,
            PositionStart::Fen(f) => Some(f.as_str()),
        };
        match self.core.set_position(fen, moves) {
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

    /// Refuses a `go`: the reason, then the one bestmove every `go` gets.
    fn refuse_go(out: &mut Vec<String>, reason: impl std::fmt::Display) {
        Self::uci_error(out, format!("go refused: {reason}"));
        out.push(no_move());
    }
}
