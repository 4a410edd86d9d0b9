//! The wire to one engine as every dialect uses it: sending a line (logged), reading its lines
//! until one is wanted before a deadline, and the forfeits of a crash, a flood or a silence.

use std::time::Instant;

use super::{Forfeit, START_TIMEOUT, forfeit};
use crate::referee::engine::{Meaning, Process, Said};
use crate::referee::game::shown;
use crate::referee::inbox::{Dialogue, Inbox};
use crate::referee::later;
use crate::referee::seat::EngineSpec;

/// The wire to one engine: its process, its name and seat, the dialogue log.
pub(super) struct Link {
    pub(super) spec: EngineSpec,
    pub(super) seat: usize,
    pub(super) process: Process,
    pub(super) log: Dialogue,
}

impl Link {
    pub(super) fn send(&mut self, line: &str) -> bool {
        self.log.line(self.seat, '>', line);
        self.process.send(line)
    }

    pub(super) fn crashed(&mut self, what: &str) -> Forfeit {
        let status = self.process.ending();
        forfeit(self.seat, format!("{} {status} {what}", self.spec.name))
    }

    /// The forfeit of an engine that broke a bound on its output.
    pub(super) fn overflowed(&self, why: &str) -> Forfeit {
        forfeit(self.seat, format!("{} {why}", self.spec.name))
    }

    pub(super) fn meaning(&self, line: &str) -> Meaning {
        crate::referee::engine::meaning(self.spec.dialect, line)
    }

    /// The line of an event, or the forfeit its end means (`what`: what was awaited).
    pub(super) fn line(&mut self, said: Said, what: &str) -> Result<String, Forfeit> {
        match said {
            Said::Line(l) => Ok(l),
            Said::Closed => Err(self.crashed(what)),
            Said::Overflow(why) => Err(self.overflowed(&why)),
        }
    }

    /// Reads lines of this engine until `want` accepts one, before `deadline`.
    pub(super) fn wait_for<T>(
        &mut self,
        inbox: &mut Inbox,
        deadline: Instant,
        what: &str,
        mut want: impl FnMut(Meaning) -> Option<T>,
    ) -> Result<T, Forfeit> {
        loop {
            let Some(event) = inbox.next_from(self.seat, deadline) else {
                return Err(forfeit(
                    self.seat,
                    format!("{} did not answer in time ({what})", self.spec.name),
                ));
            };
            let line = self.line(event.said, &format!("while waiting for {what}"))?;
            if let Some(t) = want(self.meaning(&line)) {
                return Ok(t);
            }
        }
    }

    /// Waits for the answer `done` to the sync after the options; a complaint before it (UCI
    /// `info string error …`, CECP `Error …`) means the engine refused an option or the
    /// variant, and the seat is not fit to play.
    pub(super) fn options_synced(
        &mut self,
        inbox: &mut Inbox,
        deadline: Instant,
        what: &str,
        done: impl Fn(&Meaning) -> bool,
    ) -> Result<(), Forfeit> {
        let (name, seat) = (self.spec.name.clone(), self.seat);
        self.wait_for(inbox, deadline, what, |m| match m {
            Meaning::Complaint(c) => Some(Err(forfeit(
                seat,
                format!("{name} refused an option: {}", shown(&c)),
            ))),
            m if done(&m) => Some(Ok(())),
            _ => None,
        })?
    }

    /// Waits for the answer to a sync (`done`); a move or commitment first is out of turn.
    pub(super) fn synced(
        &mut self,
        inbox: &mut Inbox,
        done: impl Fn(&Meaning) -> bool,
    ) -> Result<(), Forfeit> {
        let deadline = later(Instant::now(), START_TIMEOUT);
        let (name, seat) = (self.spec.name.clone(), self.seat);
        self.wait_for(inbox, deadline, "isready/ping", |m| match m {
            m if done(&m) => Some(Ok(())),
            Meaning::Move(m) | Meaning::Commit(m) => Some(Err(forfeit(
                seat,
                format!("{name} moved out of turn ({})", shown(&m)),
            ))),
            _ => None,
        })?
    }
}
