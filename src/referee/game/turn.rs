//! The alternating turn: one seat moves (an engine asked through its seat driver, or a person
//! at the terminal), the other is watched and then told; charging the clock and reading the
//! move as written.

use super::*;

impl Table {
    /// Asks the engine at seat `i` for its move (in a sealed game, its half of the turn);
    /// returns when the request went out (the seat's clock runs from then).
    pub(super) fn request(&mut self, i: usize, sealed: bool) -> Result<Option<Instant>, Forfeit> {
        let ask = player::ask(&self.setup, &self.turns, &self.clocks, i, sealed);
        match self.players[i].engine() {
            Some(e) => e.request(&mut self.inbox, &ask).map(Some),
            None => Ok(None),
        }
    }

    /// How long seat `i` may take, and the deadline of a request made at `asked`.
    pub(super) fn allowance(&self, i: usize, asked: Instant) -> (Duration, Instant) {
        let allowance = self.clocks[i].allowance(self.setup.margin, self.setup.move_timeout);
        (allowance, later(asked, allowance))
    }

    /// Charges seat `i`'s clock for a move that took `used`.
    pub(super) fn charge(&mut self, i: usize, used: Duration) -> Result<(), Forfeit> {
        if self.clocks[i].charge(used, self.setup.margin) {
            Ok(())
        } else {
            Err(Forfeit {
                seat: i,
                why: format!(
                    "{} lost on time ({:.3} s used)",
                    self.names[i],
                    used.as_secs_f64()
                ),
                termination: "time forfeit",
            })
        }
    }

    /// A move as written by seat `i`; text that is not a move forfeits.
    pub(super) fn parse(&self, i: usize, written: &str) -> Result<WireMove, Forfeit> {
        parse_move(written).ok_or_else(|| {
            forfeit(
                i,
                format!(
                    "{} sent garbage for a move: '{}'",
                    self.names[i],
                    shown(written)
                ),
            )
        })
    }

    pub(super) fn alternating_turn(&mut self, i: usize) -> Result<(), Stop> {
        let ask = player::ask(&self.setup, &self.turns, &self.clocks, i, false);
        let (allowance, _) = self.allowance(i, Instant::now());
        let mv = match player::pair(&mut self.players, i) {
            (Player::Human(h), _) => {
                let h = h.clone();
                match self.human_move(i, &h, None)? {
                    Entered::Move(mv) => mv,
                    Entered::Undo => {
                        self.undo();
                        return Ok(());
                    }
                }
            }
            (Player::Engine(e), other) => {
                let name = &self.names[i];
                let (written, used) =
                    engine_move(e, other.engine(), &mut self.inbox, &ask, allowance, name)?;
                self.charge(i, used)?;
                self.parse(i, &written)?
            }
        };
        let turn = WireTurn::Single(mv.clone());
        let before = self.game.clone();
        if let Err(e) = self.game.play(&turn) {
            return Err(
                forfeit(i, format!("{} played an illegal move: {e}", self.names[i])).into(),
            );
        }
        self.marks = human::squares(&mv);
        if let Player::Engine(_) = self.players[i] {
            self.tell_humans(&format!(
                "{} played {mv} ({})",
                self.names[i],
                human::in_words(&before, &mv)
            ));
        }
        self.turns.push(turn);
        self.comments.push(None);
        if let Some(e) = self.players[1 - i].engine() {
            e.inform(&mv);
        }
        Ok(())
    }
}

/// The engine `e` moves in an alternating game, `other` watched for lines out of turn; returns
/// its move as written and the time it took.
fn engine_move(
    e: &mut EngineSeat,
    other: Option<&mut EngineSeat>,
    inbox: &mut Inbox,
    ask: &Ask,
    allowance: Duration,
    name: &str,
) -> Result<(String, Duration), Forfeit> {
    let asked = e.request(inbox, ask)?;
    let deadline = later(asked, allowance);
    match player::wait_answer(e, other, inbox, deadline, allowance)? {
        Answer::Move(m, at) => {
            e.moved();
            Ok((m, at.duration_since(asked)))
        }
        Answer::Commit(d, _) => Err(forfeit(
            e.seat(),
            format!("{name} sent a commitment ({d}) in an alternating game"),
        )),
    }
}
