//! The CECP (XBoard) dialect of the session (`protocol-docs/cecp.md`), split along the
//! protocol: the handshake ([`features`]), the game commands ([`game`]), the turns and the
//! sealed extension ([`turns`]), time control ([`clock`]), thinking output, analysis and
//! the tools ([`tools`]). Here: the state, the reading of a line and the sorting of commands.

mod clock;
mod features;
mod game;
mod tools;
mod turns;

use self::clock::Clock;
use super::Session;
use super::plies::Plies;
use crate::notation::WireMove;
use crate::protocol::CommandError;
use crate::protocol::cecp::{self, CecpCommand, CecpMove, EngineLine, WireResult};
use crate::variant::{Side, Variant};

/// CECP-only session state.
#[derive(Debug)]
pub(super) struct State {
    /// Whether the features were sent (at the first `protover 2`).
    features_sent: bool,
    /// Whether the GUI accepted the sealed-move extension (`accepted sealed`).
    sealed_accepted: bool,
    /// After `new` and before any `variant`: the GUI means normal chess, which Quill does
    /// not play.
    chess: bool,
    /// When the running search started, and its last completed iteration's depth and
    /// nodes: what `.` reports.
    pub(super) progress: Option<(std::time::Instant, u32, u64)>,
    /// The GUI accepted `turns=1`: multi-part turns travel as one token, not in plies.
    turns_accepted: bool,
    force: bool,
    /// The side the engine plays (in a sealed game: the side `sealed` named).
    engine_side: Side,
    pub(super) post: bool,
    analyze: bool,
    /// Whether the engine already answered the current sealed turn.
    answered: bool,
    /// The engine's own move of the current sealed turn, once it has answered: the pair the
    /// GUI reveals must carry it.
    own_move: Option<WireMove>,
    excluded: Vec<WireMove>,
    clock: Clock,
    /// Where a multi-part turn shown to XBoard in plies stands.
    plies: Plies,
}

impl Default for State {
    fn default() -> State {
        State {
            features_sent: false,
            sealed_accepted: false,
            chess: false,
            progress: None,
            turns_accepted: false,
            force: false,
            engine_side: Side::Black,
            post: false,
            analyze: false,
            answered: false,
            own_move: None,
            excluded: Vec::new(),
            clock: Clock::default(),
            plies: Plies::Idle,
        }
    }
}

impl Session {
    pub(super) fn cecp_line(&mut self, line: &str, out: &mut Vec<String>) {
        let command = match cecp::parse(line) {
            Ok(c) => c,
            Err(CommandError::Empty) => return,
            Err(CommandError::Unknown(word)) => {
                return Self::cecp_error(out, "unknown command", word);
            }
            Err(e) => return Self::cecp_error(out, e, line.trim()),
        };
        match &command {
            CecpCommand::Accepted(f) | CecpCommand::Rejected(f) if f == "sealed" => {
                self.cecp.sealed_accepted = matches!(command, CecpCommand::Accepted(_));
            }
            CecpCommand::Accepted(f) | CecpCommand::Rejected(f) if f == "turns" => {
                self.cecp.turns_accepted = matches!(command, CecpCommand::Accepted(_));
            }
            CecpCommand::Accepted(_) | CecpCommand::Rejected(_) => {}
            _ => self.cecp_command(command, out),
        }
    }

    /// Why the game the GUI asked for cannot be played, if it cannot: normal chess (after
    /// `new` with no `variant`), or a sealed variant with a GUI that did not accept
    /// `sealed=1`.
    fn cecp_refusal(&self) -> Option<String> {
        let variant = self.core.variant();
        if self.cecp.chess {
            Some(format!(
                "Quill does not play normal chess; choose one of its variants ({})",
                Variant::ALL.map(|v| v.name()).join(", ")
            ))
        } else if variant.is_sealed() && !self.cecp.sealed_accepted {
            Some(format!(
                "{variant} is a sealed game and this GUI did not accept feature sealed=1"
            ))
        } else {
            None
        }
    }

    /// Refuses a command because of [`Session::cecp_refusal`]; `tell` also pops the reason
    /// up in the GUI (for the requests a person makes: a variant, `go`).
    fn refuse(reason: &str, command: impl std::fmt::Display, tell: bool, out: &mut Vec<String>) {
        if tell {
            emit(out, EngineLine::TellUserError(reason.to_owned()));
        }
        Self::cecp_error(out, reason, command);
    }

    fn cecp_error(
        out: &mut Vec<String>,
        reason: impl std::fmt::Display,
        command: impl std::fmt::Display,
    ) {
        emit(
            out,
            EngineLine::Error {
                kind: reason.to_string(),
                command: command.to_string(),
            },
        );
    }

    fn cecp_command(&mut self, command: CecpCommand, out: &mut Vec<String>) {
        self.cecp_halt_for(&command, out);
        if self.cecp_refused(&command, out) {
            return;
        }
        match Group::of(&command) {
            Group::Handshake => match command {
                CecpCommand::Protover(v) if v >= 2 && !self.cecp.features_sent => {
                    self.send_features(out);
                }
                CecpCommand::Quit => self.finished = true,
                CecpCommand::Force => self.cecp.force = true,
                _ => {}
            },
            Group::Game => self.cecp_game_command(command, out),
            Group::Turn => self.cecp_turn_command(command, out),
            Group::Clock => self.cecp_clock_command(command, out),
            Group::Thinking => self.cecp_thinking_command(command, out),
            Group::Tool => self.cecp_tool_command(command, out),
        }
    }

    /// Stops a running search as the command needs: commands that leave the game alone run
    /// beside it, `?` makes the engine move now, anything else drops its move.
    fn cecp_halt_for(&mut self, command: &CecpCommand, out: &mut Vec<String>) {
        // Commands that leave the game alone run beside a search; `?` makes the engine move
        // now; anything else stops the search and drops its move (CECP: `force`, `new`, a
        // new position … end thinking without a move).
        match &command {
            CecpCommand::Ping(_)
            | CecpCommand::Post
            | CecpCommand::NoPost
            | CecpCommand::Time(_)
            | CecpCommand::Otim(_)
            | CecpCommand::Level { .. }
            | CecpCommand::St(_)
            | CecpCommand::Sd(_)
            | CecpCommand::Nps(_)
            | CecpCommand::Hard
            | CecpCommand::Easy
            | CecpCommand::Random
            | CecpCommand::Computer
            | CecpCommand::Name(_)
            | CecpCommand::Rating(_)
            | CecpCommand::Ics(_)
            | CecpCommand::Memory(_)
            | CecpCommand::Cores(_)
            | CecpCommand::EgtPath(_)
            | CecpCommand::Draw
            | CecpCommand::Bk
            | CecpCommand::Accepted(_)
            | CecpCommand::Rejected(_)
            | CecpCommand::Lift(_)
            | CecpCommand::Put(_)
            | CecpCommand::Hover(_)
            | CecpCommand::Display
            | CecpCommand::Help
            | CecpCommand::Dot
            | CecpCommand::Xboard => {}
            CecpCommand::MoveNow => self.halt(true, out),
            _ => self.halt(false, out),
        }
    }

    /// Refuses, when the game asked for cannot be played (see [`Session::cecp_refusal`]),
    /// the commands that would play it; `true` when the command was refused.
    fn cecp_refused(&self, command: &CecpCommand, out: &mut Vec<String>) -> bool {
        let Some(reason) = self.cecp_refusal() else {
            return false;
        };
        match &command {
            CecpCommand::UserMove(turn) | CecpCommand::Move(turn) => illegal(out, reason, turn),
            CecpCommand::Go => Self::refuse(&reason, command, true, out),
            CecpCommand::PlayOther
            | CecpCommand::Sealed(_)
            | CecpCommand::Reveal(..)
            | CecpCommand::SetBoard(_)
            | CecpCommand::Hint
            | CecpCommand::Analyze
            | CecpCommand::Undo
            | CecpCommand::Remove => Self::refuse(&reason, command, false, out),
            _ => return false,
        }
        true
    }
}

/// Writes one engine line into the output.
fn emit(out: &mut Vec<String>, line: EngineLine) {
    out.push(line.to_string());
}

/// Refuses a move: `Illegal move (REASON): MOVE`.
fn illegal(out: &mut Vec<String>, reason: impl std::fmt::Display, mv: impl std::fmt::Display) {
    emit(
        out,
        EngineLine::IllegalMove {
            reason: Some(reason.to_string()),
            mv: mv.to_string(),
        },
    );
}

/// Sends one XBoard ply of a multi-part turn (see plies.rs) as `move PLY`.
fn emit_ply(out: &mut Vec<String>, ply: &str) {
    match CecpMove::from_token(ply) {
        Some(mv) => emit(out, EngineLine::Move(mv)),
        None => log::error!("the ply encoder made a ply that is no move: {ply}"),
    }
}

/// The result line of a finished game, `RESULT {REASON}`.
fn result_line(outcome: &crate::game::Outcome) -> EngineLine {
    let result = match outcome.winner {
        Some(Side::White) => WireResult::WhiteWins,
        Some(Side::Black) => WireResult::BlackWins,
        None => WireResult::Draw,
    };
    EngineLine::Result {
        result,
        comment: Some(outcome.reason.clone()),
    }
}

/// The part of the protocol a command belongs to, each handled in its own file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    /// `xboard`, `protover`, `accepted`, `rejected`, `force`, `quit`.
    Handshake,
    /// Setting up or taking back the game ([`game`]).
    Game,
    /// Playing turns ([`turns`]).
    Turn,
    /// Time control and the commands accepted and ignored ([`clock`]).
    Clock,
    /// Thinking output and analysis ([`tools`]).
    Thinking,
    /// Options, exclusions, highlights, the board, help, perft ([`tools`]).
    Tool,
}

impl Group {
    /// The group of a command (every command is listed: a new one must be sorted here).
    fn of(command: &CecpCommand) -> Group {
        use CecpCommand as C;
        match command {
            C::Xboard | C::Protover(_) | C::Accepted(_) | C::Rejected(_) | C::Quit | C::Force => {
                Group::Handshake
            }
            C::New | C::Variant(_) | C::SetBoard(_) | C::Undo | C::Remove | C::Result { .. } => {
                Group::Game
            }
            C::Go
            | C::PlayOther
            | C::Sealed(_)
            | C::UserMove(_)
            | C::Move(_)
            | C::Reveal(..)
            | C::Opponent(_) => Group::Turn,
            C::MoveNow
            | C::Draw
            | C::Bk
            | C::Hard
            | C::Easy
            | C::Random
            | C::Computer
            | C::Name(_)
            | C::Rating(_)
            | C::Ics(_)
            | C::Cores(_)
            | C::Nps(_)
            | C::Otim(_)
            | C::Put(_)
            | C::Hover(_)
            | C::Level { .. }
            | C::St(_)
            | C::Sd(_)
            | C::Time(_)
            | C::Memory(_) => Group::Clock,
            C::Ping(_) | C::Post | C::NoPost | C::Analyze | C::Exit | C::Dot | C::Hint => {
                Group::Thinking
            }
            C::EgtPath(_)
            | C::Option { .. }
            | C::Exclude(_)
            | C::Include(_)
            | C::Lift(_)
            | C::Display
            | C::Help
            | C::Perft(_) => Group::Tool,
        }
    }
}
