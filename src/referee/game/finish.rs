//! How a game ends when the rules do not end it (adjudication by turns, repetitions, resign
//! and draw scores) and the game's report once it is over: its record and its PGN.

use super::*;

impl Table {
    /// Score-based adjudication, between turns.
    pub(super) fn adjudicate(&mut self) -> Result<(), Stop> {
        if self.game.outcome().is_some() {
            return Ok(());
        }
        let scores = self.players.each_ref().map(Player::score);
        let movers: Vec<usize> = match self.game.side_to_move() {
            // The side that just moved is the other one.
            Some(side) => vec![side.opponent().index()],
            None => vec![0, 1],
        };
        let adj = self.setup.adjudication;
        if let Some((cp, n)) = adj.resign {
            for &i in &movers {
                match scores[i] {
                    Some(s) if s <= -cp => self.losing[i] += 1,
                    _ => self.losing[i] = 0,
                }
                if self.losing[i] >= n {
                    let winner = if i == 0 { Side::Black } else { Side::White };
                    return Err(Stop::Adjudicated(Outcome {
                        winner: Some(winner),
                        reason: format!(
                            "adjudicated: {} scored -{cp} or worse for {n} moves",
                            self.names[i]
                        ),
                    }));
                }
            }
        }
        if let Some((after, cp, n)) = adj.draw {
            let near = scores.iter().all(|s| s.is_some_and(|s| s.abs() <= cp));
            if self.turns.len() >= after as usize && near {
                self.quiet += 1;
            } else {
                self.quiet = 0;
            }
            if self.quiet >= n {
                return Err(Stop::Adjudicated(Outcome {
                    winner: None,
                    reason: format!("adjudicated: both scores within {cp} for {n} turns"),
                }));
            }
        }
        Ok(())
    }

    /// Ends the game: stops the engines and makes the record and PGN.
    pub(super) fn finish(mut self, ended: Result<(), Stop>) -> GameReport {
        let (outcome, termination) = match ended {
            Ok(()) => (
                self.game.outcome().unwrap_or(Outcome {
                    winner: None,
                    reason: "unfinished".to_string(),
                }),
                "normal",
            ),
            Err(Stop::Adjudicated(o)) => (o, "adjudication"),
            Err(Stop::Forfeit(f)) => (
                Outcome {
                    winner: Some(if f.seat == 0 {
                        Side::Black
                    } else {
                        Side::White
                    }),
                    reason: f.why,
                },
                f.termination,
            ),
        };
        for p in &mut self.players {
            if let Some(e) = p.engine() {
                e.quit(Duration::from_millis(500));
            }
        }
        if self.players.iter().any(|p| matches!(p, Player::Human(..))) {
            self.tell_humans(&human::board(&self.game, &self.marks));
        }
        self.tell_humans(&format!("game over: {outcome}"));
        let result = GameResult::from_outcome(&outcome);
        let plies = u32::try_from(self.turns.len()).unwrap_or(u32::MAX);
        let pgn = crate::referee::pgn::write(&crate::referee::pgn::PgnGame {
            event: &self.setup.event,
            round: self.setup.index + 1,
            white: &self.names[0],
            black: &self.names[1],
            variant: self.setup.variant,
            fen: self.setup.opening.fen.as_deref(),
            time_controls: [self.clocks[0].limits.pgn(), self.clocks[1].limits.pgn()],
            turns: &self.turns,
            comments: &self.comments,
            sealed: self.setup.variant.is_sealed(),
            first_mover: self.first_mover(),
            outcome: &outcome,
            termination,
        });
        GameReport {
            record: record(
                &self.setup,
                &self.names,
                result,
                plies,
                outcome.reason.clone(),
            ),
            pgn,
        }
    }
}
