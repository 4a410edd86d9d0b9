//! Asking a seat and checking its answer: the `position`/`go` (or CECP) request, the lines an
//! engine may say while thinking, charging its clock, parsing its move, and the alternating turn
//! (one seat moves, the other is told).

use super::*;

impl Table {
    /// The UCI `position` command of the game so far.
    pub(super) fn position(&self) -> UciCommand {
        UciCommand::Position {
            start: match &self.setup.opening.fen {
                Some(fen) => PositionStart::Fen(fen.clone()),
                None => PositionStart::StartPos,
            },
            moves: self.turns.clone(),
        }
    }

    /// The UCI `go` of seat `i`: its limits, and in a sealed game its side.
    pub(super) fn go(&self, i: usize, sealed: bool) -> UciCommand {
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let clock = &self.clocks[i];
        let mut go = GoParams {
            sealed: sealed.then_some(if i == 0 { Side::White } else { Side::Black }),
            movetime: clock.limits.movetime.map(millis),
            depth: clock.limits.depth,
            nodes: clock.limits.nodes,
            ..GoParams::default()
        };
        if let Some(c) = clock.limits.clock {
            let other = &self.clocks[1 - i];
            let (w, b) = if i == 0 {
                (clock, other)
            } else {
                (other, clock)
            };
            let inc = |c: &Clock| c.limits.clock.map_or(0, |k| millis(k.inc));
            go.wtime = Some(millis(w.left));
            go.btime = Some(millis(b.left));
            go.winc = Some(inc(w));
            go.binc = Some(inc(b));
            if c.moves > 0 {
                go.movestogo = Some(clock.moves_to_go().unwrap_or(1));
            }
        }
        UciCommand::Go(go)
    }

    /// Asks seat `i` for its move (in a sealed game, for its half of the turn); returns when the
    /// request went out (the seat's clock runs from then).
    pub(super) fn request(&mut self, i: usize) -> Result<Instant, Forfeit> {
        let sealed = self.game.side_to_move().is_none();
        let position = self.position();
        let go = self.go(i, sealed);
        let times = [self.clocks[0].left, self.clocks[1].left];
        let has_clock = self.clocks[i].limits.clock.is_some();
        let Player::Engine(e) = &mut self.players[i] else {
            return Ok(Instant::now());
        };
        e.score = None;
        match e.spec.dialect {
            Dialect::Uci => {
                e.uci(position);
                e.sync(&mut self.inbox)?;
                e.uci(go);
            }
            Dialect::Cecp => {
                e.sync(&mut self.inbox)?;
                if has_clock {
                    let cs = |d: Duration| i64::try_from(d.as_millis() / 10).unwrap_or(i64::MAX);
                    e.cecp(CecpCommand::Time(cs(times[i])));
                    e.cecp(CecpCommand::Otim(cs(times[1 - i])));
                }
                e.cecp(CecpCommand::Go);
            }
        }
        Ok(Instant::now())
    }

    /// Tells seat `i` a move of its opponent in an alternating game (CECP keeps its own board).
    pub(super) fn inform(&mut self, i: usize, mv: &WireMove) {
        if let Player::Engine(e) = &mut self.players[i]
            && e.spec.dialect == Dialect::Cecp
        {
            let turn = Turn::Single(mv.clone());
            e.cecp(if e.usermove {
                CecpCommand::UserMove(turn)
            } else {
                CecpCommand::Move(turn)
            });
        }
    }

    pub(super) fn engine_name(&self, i: usize) -> &str {
        &self.names[i]
    }

    /// What a line of seat `i` means when it was not asked to move: a move or claim forfeits.
    pub(super) fn unsolicited(&mut self, i: usize, said: Said) -> Result<(), Forfeit> {
        let Player::Engine(e) = &mut self.players[i] else {
            return Ok(());
        };
        match said {
            Said::Closed => Err(e.crashed("while the opponent was thinking")),
            Said::Overflow(why) => Err(e.overflowed(&why)),
            Said::Line(line) => match meaning(e.spec.dialect, &line) {
                Meaning::Move(m) | Meaning::Commit(m) => Err(forfeit(
                    i,
                    format!("{} moved out of turn ({})", self.names[i], shown(&m)),
                )),
                Meaning::Claim(r, why) => Err(forfeit(
                    i,
                    format!(
                        "{} made a false claim: {r} {{{}}}",
                        self.names[i],
                        shown(&why)
                    ),
                )),
                Meaning::Resign => Err(Forfeit {
                    seat: i,
                    why: format!("{} resigned", self.names[i]),
                    termination: "normal",
                }),
                Meaning::Refusal(r) => Err(forfeit(
                    i,
                    format!(
                        "{} refused a legal move: Illegal move{}",
                        self.names[i],
                        shown(&r)
                    ),
                )),
                _ => Ok(()),
            },
        }
    }

    /// Waits for the answer of seat `i`, asked at `asked`, watching the other seat for lines
    /// out of turn. Returns the move as written and when it came, or a commitment.
    pub(super) fn answer(
        &mut self,
        i: usize,
        asked: Instant,
        watch_other: bool,
    ) -> Result<Answer, Forfeit> {
        let allowance = self.clocks[i].allowance(self.setup.margin, self.setup.move_timeout);
        let deadline = later(asked, allowance);
        let mut garbage = 0;
        loop {
            let event = if watch_other {
                self.inbox.next_any(deadline)
            } else {
                self.inbox.next_from(i, deadline)
            };
            let Some(event) = event else {
                let Player::Engine(e) = &mut self.players[i] else {
                    unreachable!("humans are not waited for here")
                };
                if e.process.exit_status().is_some() {
                    return Err(e.crashed("while thinking"));
                }
                return Err(Forfeit {
                    seat: i,
                    why: format!(
                        "{} did not move within {:.1} s (its clock)",
                        self.engine_name(i),
                        allowance.as_secs_f64()
                    ),
                    termination: "time forfeit",
                });
            };
            if event.seat != i {
                self.unsolicited(event.seat, event.said)?;
                continue;
            }
            let Player::Engine(e) = &mut self.players[i] else {
                unreachable!("humans are not waited for here")
            };
            let line = match event.said {
                Said::Closed => return Err(e.crashed("while thinking")),
                Said::Overflow(why) => return Err(e.overflowed(&why)),
                Said::Line(l) => l,
            };
            match meaning(e.spec.dialect, &line) {
                Meaning::Move(m) => return Ok(Answer::Move(m, event.at)),
                Meaning::Commit(d) => return Ok(Answer::Commit(d, event.at)),
                Meaning::Score(s) => e.score = Some(s),
                Meaning::Claim(r, why) => {
                    return Err(forfeit(
                        i,
                        format!(
                            "{} made a false claim: {r} {{{}}}",
                            self.names[i],
                            shown(&why)
                        ),
                    ));
                }
                Meaning::Resign => {
                    return Err(Forfeit {
                        seat: i,
                        why: format!("{} resigned", self.names[i]),
                        termination: "normal",
                    });
                }
                Meaning::Refusal(r) => {
                    return Err(forfeit(
                        i,
                        format!(
                            "{} refused a legal move: Illegal move{}",
                            self.names[i],
                            shown(&r)
                        ),
                    ));
                }
                Meaning::Unknown => {
                    garbage += 1;
                    if garbage > MAX_GARBAGE {
                        return Err(forfeit(
                            i,
                            format!("{} printed garbage: {}", self.names[i], shown(&line)),
                        ));
                    }
                }
                _ => {}
            }
        }
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
        let mv = if let Player::Human(..) = self.players[i] {
            match self.human_move(i, None)? {
                Typed::Move(mv) => mv,
                _ => {
                    self.undo();
                    return Ok(());
                }
            }
        } else {
            let asked = self.request(i)?;
            let (written, at) = match self.answer(i, asked, true)? {
                Answer::Move(m, at) => (m, at),
                Answer::Commit(d, _) => {
                    return Err(forfeit(
                        i,
                        format!(
                            "{} sent a commitment ({d}) in an alternating game",
                            self.names[i]
                        ),
                    )
                    .into());
                }
            };
            if let Player::Engine(e) = &mut self.players[i]
                && e.spec.dialect == Dialect::Cecp
            {
                e.send("force");
            }
            self.charge(i, at.duration_since(asked))?;
            self.parse(i, &written)?
        };
        let turn = Turn::Single(mv.clone());
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
        self.inform(1 - i, &mv);
        Ok(())
    }
}

/// A seat's answer to a request.
#[derive(Clone, Debug)]
pub(super) enum Answer {
    /// A move as written, and when it arrived.
    Move(String, Instant),
    /// A commitment, and when it arrived.
    Commit(String, Instant),
}
