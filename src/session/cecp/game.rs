//! The game commands: `new`, `variant`, `setboard`, `undo`, `remove`, `result`.

use super::clock::Clock;
use super::features::setup_lines;
use crate::notation::{WireMove, WireTurn};
use crate::protocol::cecp::CecpCommand;
use crate::session::Session;
use crate::session::plies::{self, Plies};
use crate::variant::{Side, Variant};

impl Session {
    /// The commands that set up or take back the game.
    pub(in crate::session) fn cecp_game_command(
        &mut self,
        command: CecpCommand,
        out: &mut Vec<String>,
    ) {
        match command {
            CecpCommand::New => {
                self.reveal = None;
                self.core.set_variant(Variant::DEFAULT);
                self.cecp.chess = true;
                self.cecp.force = false;
                self.cecp.engine_side = Side::Black;
                self.cecp.clock = Clock::default();
                self.reset_turn_state();
            }
            CecpCommand::Variant(name) => self.cecp_variant(&name, out),
            // XBoard may relay a null ply as `setboard` (see plies::is_null_relay).
            CecpCommand::SetBoard(ref fen)
                if self.in_plies()
                    && plies::is_null_relay(
                        self.core.game(),
                        &self.cecp.plies,
                        self.cecp.force,
                        fen,
                    ) =>
            {
                self.cecp_ply(WireTurn::Single(WireMove::Pass), out);
            }
            CecpCommand::SetBoard(fen) => self.cecp_setboard(&fen, out),
            CecpCommand::Undo | CecpCommand::Remove => {
                let sealed = self.core.game().side_to_move().is_none();
                let n = if matches!(command, CecpCommand::Remove) && !sealed {
                    2
                } else {
                    1
                };
                match self.core.undo(n) {
                    Ok(()) => self.reset_turn_state(),
                    Err(e) => Self::cecp_error(out, e, command),
                }
            }
            CecpCommand::Result { .. } => {
                self.cecp.force = true;
                self.reveal = None;
            }
            // The other commands are not of this group (`cecp_command` sorts them).
            _ => {}
        }
    }

    /// `variant NAME`: a new game of that variant, and its board and pieces for XBoard.
    fn cecp_variant(&mut self, name: &str, out: &mut Vec<String>) {
        let Some(v) = Variant::from_name(name) else {
            return Self::cecp_error(out, "unknown variant", format!("variant {name}"));
        };
        self.reveal = None;
        self.core.set_variant(v);
        self.cecp.chess = false;
        self.reset_turn_state();
        match self.cecp_refusal() {
            Some(reason) => Self::refuse(&reason, format!("variant {name}"), true, out),
            None => out.extend(setup_lines(v)),
        }
    }

    /// `setboard FEN`: the position, as XBoard writes it, with no turns played.
    fn cecp_setboard(&mut self, fen: &str, out: &mut Vec<String>) {
        let fen_text = xboard_fen(self.core.variant(), fen);
        match self.core.set_position(Some(&fen_text), &[]) {
            Ok(()) => self.reset_turn_state(),
            Err(e) => Self::cecp_error(
                out,
                format!("illegal position: {e}"),
                format!("setboard {fen}"),
            ),
        }
    }

    /// The side the engine thinks for: the side to move, or its sealed side.
    pub(in crate::session) fn cecp_side(&self) -> Side {
        self.core
            .game()
            .side_to_move()
            .unwrap_or(self.cecp.engine_side)
    }

    pub(in crate::session) fn reset_turn_state(&mut self) {
        self.cecp.answered = false;
        self.cecp.own_move = None;
        self.cecp.excluded.clear();
        self.cecp.plies = Plies::Idle;
    }
}

/// XBoard's FEN for a variant shown in plies carries holdings (`[…]`) and a castling field of
/// its own making (`Ee`); neither means anything in these games, so both are dropped.
fn xboard_fen(variant: Variant, fen: &str) -> String {
    if !variant.xboard_plies() {
        return fen.to_string();
    }
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(board) = fields.first_mut()
        && let Some(i) = board.find('[')
    {
        board.truncate(i);
    }
    if let Some(castling) = fields.get_mut(2) {
        *castling = "-".to_string();
    }
    fields.join(" ")
}
