//! Time control: `level`, `st`, `sd`, `time`, `memory`, and the commands Quill accepts and
//! ignores.

use crate::protocol::cecp::CecpCommand;
use crate::search::Limits;
use crate::session::Session;

/// What the GUI said about time: `level`, `st`, `sd`, `nps`, `time`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Clock {
    /// Moves per time control (0: the whole game).
    pub(super) mps: u32,
    /// Increment in milliseconds.
    pub(super) inc_ms: u64,
    /// Fixed time per move (`st`), milliseconds.
    pub(super) per_move_ms: Option<u64>,
    /// Depth limit (`sd`).
    pub(super) depth: Option<u32>,
    /// The engine's remaining time (`time`), milliseconds.
    pub(super) left_ms: Option<u64>,
    /// Engine moves made since `new` (for moves-per-session controls).
    pub(super) moves: u32,
}

impl Clock {
    /// Limits for the next move: `st` if given; else a hard limit from the time left (see
    /// `uci::clock_budget`), with the moves still to come in this control (30 when the
    /// control is the whole game). Without any time given, one second unless `sd` limits the
    /// depth.
    pub(super) fn limits(&self) -> Limits {
        let time = self.per_move_ms.or_else(|| {
            self.left_ms.map(|left| {
                let togo = if self.mps > 0 {
                    u64::from(self.mps - self.moves % self.mps)
                } else {
                    30
                };
                crate::session::uci::clock_budget(left, togo, self.inc_ms)
            })
        });
        let time = match (time, self.depth) {
            (Some(t), _) => Some(t),
            (None, Some(_)) => None,
            (None, None) => Some(1000),
        };
        Limits {
            depth: self.depth,
            nodes: None,
            time: time.map(crate::session::core::duration_ms),
            // `st` is the time a move takes (CECP: "exactly"), used whole.
            exact: self.per_move_ms.is_some(),
            ..Limits::default()
        }
    }
}

impl Session {
    /// The clock and limit commands, and those Quill accepts and ignores.
    pub(in crate::session) fn cecp_clock_command(
        &mut self,
        command: CecpCommand,
        out: &mut Vec<String>,
    ) {
        match command {
            CecpCommand::MoveNow
            | CecpCommand::Draw
            | CecpCommand::Bk
            | CecpCommand::Hard
            | CecpCommand::Easy
            | CecpCommand::Random
            | CecpCommand::Computer
            | CecpCommand::Name(_)
            | CecpCommand::Rating(_)
            | CecpCommand::Ics(_)
            | CecpCommand::Cores(_)
            | CecpCommand::Nps(_)
            | CecpCommand::Otim(_)
            | CecpCommand::Put(_)
            | CecpCommand::Hover(_) => {
                // Nothing to do: draw offers are declined by silence, the search uses one
                // core, and neither a node rate nor the opponent's clock changes its budget.
            }
            CecpCommand::Level {
                mps,
                base_seconds,
                inc,
            } => {
                let clock = &mut self.cecp.clock;
                clock.mps = mps;
                clock.inc_ms = inc.millis;
                clock.per_move_ms = None;
                clock.left_ms = Some(u64::from(base_seconds) * 1000);
                clock.moves = 0;
            }
            CecpCommand::St(t) => self.cecp.clock.per_move_ms = Some(t.millis),
            CecpCommand::Sd(depth) => self.cecp.clock.depth = Some(depth),
            CecpCommand::Time(cs) => {
                self.cecp.clock.left_ms = Some((cs.max(0) as u64).saturating_mul(10));
            }
            CecpCommand::Memory(mib) => {
                if let Err(e) = self.core.set_hash(mib) {
                    Self::cecp_error(out, e, format!("memory {mib}"));
                }
            }
            // The other commands are not of this group (`cecp_command` sorts them).
            _ => {}
        }
    }
}
