//! The sealed turn: both seats are asked at once, commit to their moves, reveal them, and
//! the referee checks each opening against its commitment before playing the turn.

use super::*;

/// A seat's part of a sealed turn once the engines have answered.
enum Seal {
    /// An engine's answer.
    Engine(Answer),
    /// A person, who answers after the engines.
    Human(HumanSeat),
}

/// A seat's half of the turn before the openings.
enum Half {
    /// A move in plain.
    Plain(String),
    /// A commitment to a move (engines only).
    Committed(String),
}

/// A checked opening and the commitment it opened.
type Verified = (Opened, String);

impl Half {
    /// What the other committer is told: this move, or this commitment.
    fn told(&self) -> &str {
        match self {
            Half::Plain(m) | Half::Committed(m) => m,
        }
    }
}

impl Table {
    pub(super) fn sealed_turn(&mut self) -> Result<(), Stop> {
        let [w, b] = self.engine_answers()?;
        let w = self.settle(0, w, seal_commitment(&b))?;
        let b = self.settle(1, b, half_commitment(&w))?;
        for (i, mine, other) in [(0, &w, &b), (1, &b, &w)] {
            if let (Half::Committed(_), Some(e)) = (mine, self.players[i].engine()) {
                e.opponent(other.told());
            }
        }
        let (w, w_opened) = self.open(0, w)?;
        let (b, b_opened) = self.open(1, b)?;
        let wm = self.parse(0, &w)?;
        let bm = self.parse(1, &b)?;
        let turn = WireTurn::Joint(wm.clone(), bm.clone());
        let before = self.game.clone();
        let penalties = self.play_joint(&turn, &w)?;
        self.tell_pair(&before, [&wm, &bm], [w_opened, b_opened]);
        let comment = crate::rules::Penalty::comment(&penalties);
        if let Some(c) = &comment {
            self.tell_humans(c);
        }
        self.turns.push(turn);
        self.comments.push(comment);
        for p in &mut self.players {
            if let Some(e) = p.engine() {
                e.revealed(&wm, &bm);
            }
        }
        Ok(())
    }

    /// Engines are asked first; both think at once, and each is charged its own time.
    fn engine_answers(&mut self) -> Result<[Seal; 2], Forfeit> {
        let mut asked = [Instant::now(); 2];
        for (i, at) in asked.iter_mut().enumerate() {
            if let Some(t) = self.request(i, true)? {
                *at = t;
            }
        }
        let seals = [self.seal(0, asked[0])?, self.seal(1, asked[1])?];
        for (i, seal) in seals.iter().enumerate() {
            if let Seal::Engine(Answer::Move(_, t) | Answer::Commit(_, t)) = seal {
                self.charge(i, t.duration_since(asked[i]))?;
            }
        }
        Ok(seals)
    }

    /// The answer of seat `i`, asked at `asked`: an engine's, or a person still to answer.
    fn seal(&mut self, i: usize, asked: Instant) -> Result<Seal, Forfeit> {
        let (allowance, deadline) = self.allowance(i, asked);
        Ok(match &mut self.players[i] {
            Player::Engine(e) => Seal::Engine(player::wait_answer(
                e,
                None,
                &mut self.inbox,
                deadline,
                allowance,
            )?),
            Player::Human(h) => Seal::Human(h.clone()),
        })
    }

    /// The half of seat `i`: an engine's answer, or a person's move, typed after the engines
    /// have chosen (and seeing `commitment`, the other's, when it committed): never a move.
    fn settle(
        &mut self,
        i: usize,
        seal: Seal,
        commitment: Option<String>,
    ) -> Result<Half, Forfeit> {
        match seal {
            Seal::Engine(Answer::Move(m, _)) => Ok(Half::Plain(m)),
            Seal::Engine(Answer::Commit(d, _)) => Ok(Half::Committed(d)),
            Seal::Human(h) => loop {
                // A sealed game refuses `undo` at the prompt, which asks again.
                if let Entered::Move(mv) = self.human_move(i, &h, Some(commitment.clone()))? {
                    break Ok(Half::Plain(mv.to_string()));
                }
            },
        }
    }

    /// The move of seat `i`'s half: as written, or the opening of its commitment (with the
    /// opening, to be shown).
    fn open(&mut self, i: usize, half: Half) -> Result<(String, Option<Verified>), Forfeit> {
        let deadline = later(
            Instant::now(),
            self.setup.margin.saturating_add(Duration::from_secs(5)),
        );
        match (half, &mut self.players[i]) {
            (Half::Plain(m), _) => Ok((m, None)),
            (Half::Committed(digest), Player::Engine(e)) => {
                let opened = e
                    .opening(&mut self.inbox, &digest, deadline)
                    .map_err(|(_, f)| f)?;
                Ok((opened.0.clone(), Some((opened, digest))))
            }
            (Half::Committed(d), Player::Human(h)) => Err(forfeit(
                i,
                format!("{} sent a commitment ({d}) it cannot open", h.name),
            )),
        }
    }

    /// Both halves of the turn are told, the person's own too: what happened to it (a
    /// collision, an escape) is read from the next board.
    fn tell_pair(&mut self, before: &Game, moves: [&WireMove; 2], openings: [Option<Verified>; 2]) {
        for (i, mv) in moves.into_iter().enumerate() {
            let mut said = format!(
                "{} played {mv} ({})",
                self.names[i],
                human::in_words(before, mv)
            );
            if let Some(((mv, nonce), d)) = &openings[i] {
                said.push_str(&format!(
                    "; its commitment is verified: SHA-256 of 'quill-sealed-v1:{mv}:{nonce}' \
                     is {d}"
                ));
            }
            self.tell_humans(&said);
        }
        self.marks = moves.into_iter().flat_map(human::squares).collect();
    }

    /// Plays the joint turn; a move that is not of the variant forfeits its writer (white's
    /// when it is white's written move `w`, else black's).
    fn play_joint(
        &mut self,
        turn: &WireTurn,
        w: &str,
    ) -> Result<Vec<crate::rules::Penalty>, Forfeit> {
        self.game.play(turn).map_err(|e| {
            let culprit = if matches!(&e, crate::game::GameError::NotAMove(t) if *t == w) {
                0
            } else {
                1
            };
            forfeit(
                culprit,
                format!(
                    "{} wrote a move that is not of the variant: {e}",
                    self.names[culprit]
                ),
            )
        })
    }
}

/// The commitment an engine answered with, if it did.
fn seal_commitment(seal: &Seal) -> Option<String> {
    match seal {
        Seal::Engine(Answer::Commit(d, _)) => Some(d.clone()),
        Seal::Engine(Answer::Move(..)) | Seal::Human(_) => None,
    }
}

/// The commitment of a half, if it is one.
fn half_commitment(half: &Half) -> Option<String> {
    match half {
        Half::Committed(d) => Some(d.clone()),
        Half::Plain(_) => None,
    }
}
