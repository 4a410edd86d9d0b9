//! Judging what a seat's engine says: its answer while asked to move, its silence, what it
//! says out of turn, and the opening of its commitment. A claim, a resignation, a refused
//! move, garbage, a move out of turn or a broken commitment is a [`Forfeit`].

use std::time::{Duration, Instant};

use super::{EngineSeat, Forfeit, Heard, MAX_GARBAGE, Opened, forfeit};
use crate::commit;
use crate::referee::engine::{Event, Meaning, Said};
use crate::referee::game::shown;
use crate::referee::inbox::Inbox;

impl EngineSeat {
    /// Judges one event of this seat while it was asked to move.
    ///
    /// # Errors
    /// A crash, a flood, a false claim, a resignation, a refused move, or too much garbage.
    pub(crate) fn hear(&mut self, event: Event) -> Result<Heard, Forfeit> {
        let line = self.link.line(event.said, "while thinking")?;
        let (seat, name) = (self.link.seat, &self.link.spec.name);
        match self.link.meaning(&line) {
            Meaning::Move(m) => Ok(Heard::Move(m, event.at)),
            Meaning::Commit(d) => Ok(Heard::Commit(d, event.at)),
            Meaning::Score(t) => {
                self.score = Some(t.centipawns());
                Ok(Heard::Thought(t))
            }
            Meaning::Unknown => {
                self.garbage += 1;
                if self.garbage > MAX_GARBAGE {
                    return Err(forfeit(
                        seat,
                        format!("{name} printed garbage: {}", shown(&line)),
                    ));
                }
                Ok(Heard::Line(line))
            }
            m => match self.claimed(m) {
                Some(f) => Err(f),
                None => Ok(Heard::Line(line)),
            },
        }
    }

    /// A wait for its answer ended without one: a crash if its process has ended.
    ///
    /// # Errors
    /// The process has ended.
    pub(crate) fn silent(&mut self) -> Result<(), Forfeit> {
        match self.exit_status() {
            Some(_) => Err(self.link.crashed("while thinking")),
            None => Ok(()),
        }
    }

    /// The forfeit of an engine that did not move within `allowance`.
    pub(crate) fn too_slow(&self, allowance: Duration) -> Forfeit {
        Forfeit {
            seat: self.link.seat,
            why: format!(
                "{} did not move within {:.1} s (its clock)",
                self.link.spec.name,
                allowance.as_secs_f64()
            ),
            termination: "time forfeit",
        }
    }

    /// A claim, resignation or refusal, which forfeits whenever it comes.
    fn claimed(&self, m: Meaning) -> Option<Forfeit> {
        let (seat, name) = (self.link.seat, &self.link.spec.name);
        match m {
            Meaning::Claim(r, why) => Some(forfeit(
                seat,
                format!("{name} made a false claim: {r} {{{}}}", shown(&why)),
            )),
            Meaning::Resign => Some(Forfeit {
                seat,
                why: format!("{name} resigned"),
                termination: "normal",
            }),
            Meaning::Refusal(r) => Some(forfeit(
                seat,
                format!("{name} refused a legal move: Illegal move{}", shown(&r)),
            )),
            _ => None,
        }
    }

    /// Judges a line of this seat when it was not asked to move: a move, a commitment or a
    /// claim forfeits.
    ///
    /// # Errors
    /// The forfeit.
    pub(crate) fn unsolicited(&mut self, said: Said) -> Result<(), Forfeit> {
        let line = self.link.line(said, "while the opponent was thinking")?;
        match self.link.meaning(&line) {
            Meaning::Move(m) | Meaning::Commit(m) => Err(forfeit(
                self.link.seat,
                format!("{} moved out of turn ({})", self.link.spec.name, shown(&m)),
            )),
            m => self.claimed(m).map_or(Ok(()), Err),
        }
    }

    /// Judges what this seat said so far while not asked anything.
    ///
    /// # Errors
    /// As [`EngineSeat::unsolicited`].
    pub(crate) fn idle(&mut self, inbox: &mut Inbox) -> Result<(), Forfeit> {
        let now = Instant::now();
        while let Some(event) = inbox.next_from(self.link.seat, now) {
            self.unsolicited(event.said)?;
        }
        Ok(())
    }

    /// Waits before `deadline` for the opening of commitment `digest` and the move after it.
    ///
    /// # Errors
    /// It did not open in time, or opened something else than it committed to; the opening,
    /// when it came, goes with the forfeit (a GUI shows it and checks it itself).
    pub(crate) fn opening(
        &mut self,
        inbox: &mut Inbox,
        digest: &str,
        deadline: Instant,
    ) -> Result<Opened, (Option<Opened>, Forfeit)> {
        let (mv, nonce) = self
            .link
            .wait_for(inbox, deadline, "opening its commitment", |m| match m {
                Meaning::Opening(mv, nonce) => Some((mv, nonce)),
                _ => None,
            })
            .map_err(|f| (None, f))?;
        let opened = (mv, nonce);
        let moved = self
            .link
            .wait_for(inbox, deadline, "its move after the opening", |m| match m {
                Meaning::Move(mv) => Some(mv),
                _ => None,
            })
            .map_err(|f| (Some(opened.clone()), f))?;
        let (mv, nonce) = &opened;
        if !commit::verify(digest, mv, nonce) || moved != *mv {
            let why = format!(
                "{} broke its commitment {digest} (opened {} {}, moved {})",
                self.link.spec.name,
                shown(mv),
                shown(nonce),
                shown(&moved)
            );
            return Err((Some(opened), forfeit(self.link.seat, why)));
        }
        Ok(opened)
    }
}
