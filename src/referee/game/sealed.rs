//! The sealed turn: both seats are asked at once, commit to their moves, reveal them, and
//! the referee checks each opening against its commitment before playing the turn.

use super::turn::Answer;
use super::*;

/// Each seat's answer to the sealed request, as given (engines only).
type Answers = [Option<Answer>; 2];
/// Each seat's move as written, once known.
type Written = [Option<String>; 2];
/// Each committer's opening: its move and nonce.
type Openings = [Option<(String, String)>; 2];

impl Table {
    pub(super) fn sealed_turn(&mut self) -> Result<(), Stop> {
        let (answers, mut written) = self.engine_answers()?;
        self.human_answers(&answers, &mut written)?;
        let openings = self.open_commitments(&answers, &mut written)?;
        let [Some(w), Some(b)] = written else {
            unreachable!("both seats have answered")
        };
        let wm = self.parse(0, &w)?;
        let bm = self.parse(1, &b)?;
        let turn = Turn::Joint(wm.clone(), bm.clone());
        let before = self.game.clone();
        let penalties = self.play_joint(&turn, &w)?;
        // Both halves of the turn are told, the person's own too: what happened to it (a
        // collision, an escape) is read from the next board.
        for (i, mv) in [&wm, &bm].into_iter().enumerate() {
            let mut said = format!(
                "{} played {mv} ({})",
                self.names[i],
                human::in_words(&before, mv)
            );
            if let (Some((mv, nonce)), Some(Answer::Commit(d, _))) = (&openings[i], &answers[i]) {
                said.push_str(&format!(
                    "; its commitment is verified: SHA-256 of 'quill-sealed-v1:{mv}:{nonce}' \
                     is {d}"
                ));
            }
            self.tell_humans(&said);
        }
        self.marks = [&wm, &bm].into_iter().flat_map(human::squares).collect();
        let comment = crate::rules::Penalty::comment(&penalties);
        if let Some(c) = &comment {
            self.tell_humans(c);
        }
        self.turns.push(turn);
        self.comments.push(comment);
        for i in 0..2 {
            if let Player::Engine(e) = &mut self.players[i]
                && e.spec.dialect == Dialect::Cecp
            {
                e.send("force");
                e.send(&format!("reveal {wm} {bm}"));
            }
        }
        Ok(())
    }

    /// Engines are asked first; both think at once, and each is charged its own time. Returns
    /// their answers, and the moves of those that answered with a move.
    fn engine_answers(&mut self) -> Result<(Answers, Written), Forfeit> {
        let mut asked = [Instant::now(); 2];
        let mut answers: Answers = [None, None];
        for (i, at) in asked.iter_mut().enumerate() {
            if matches!(self.players[i], Player::Engine(_)) {
                *at = self.request(i)?;
            }
        }
        for i in 0..2 {
            if matches!(self.players[i], Player::Engine(_)) {
                answers[i] = Some(self.answer(i, asked[i], false)?);
            }
        }
        let mut written: Written = [None, None];
        for i in 0..2 {
            match &answers[i] {
                Some(Answer::Move(m, at)) => {
                    self.charge(i, at.duration_since(asked[i]))?;
                    written[i] = Some(m.clone());
                }
                Some(Answer::Commit(_, at)) => self.charge(i, at.duration_since(asked[i]))?,
                None => {}
            }
        }
        Ok((answers, written))
    }

    /// A human answers after the engines have chosen (and, when they commit, after their
    /// commitments are shown): they see commitments, never moves.
    fn human_answers(&mut self, answers: &Answers, written: &mut Written) -> Result<(), Forfeit> {
        for i in 0..2 {
            if let Player::Human(..) = self.players[i] {
                let shown = match &answers[1 - i] {
                    Some(Answer::Commit(d, _)) => Some(d.clone()),
                    _ => None,
                };
                written[i] = match self.human_move(i, Some(shown))? {
                    Typed::Move(mv) => Some(mv.to_string()),
                    _ => unreachable!("no undo in a sealed game"),
                };
            }
        }
        Ok(())
    }

    /// Opens the commitments: each committer is told the other's move, or its commitment,
    /// then opens its own, which becomes its move.
    fn open_commitments(
        &mut self,
        answers: &Answers,
        written: &mut Written,
    ) -> Result<Openings, Forfeit> {
        let mut openings: Openings = [None, None];
        for i in 0..2 {
            if let Some(Answer::Commit(_, _)) = &answers[i] {
                let other = match (&answers[1 - i], &written[1 - i]) {
                    (Some(Answer::Commit(d, _)), _) => d.clone(),
                    (_, Some(m)) => m.clone(),
                    _ => unreachable!("the other seat has answered"),
                };
                if let Player::Engine(e) = &mut self.players[i] {
                    e.send(&format!("opponent {other}"));
                }
            }
        }
        for i in 0..2 {
            if let Some(Answer::Commit(digest, _)) = answers[i].clone() {
                let opened = self.opening(i, &digest)?;
                written[i] = Some(opened.0.clone());
                openings[i] = Some(opened);
            }
        }
        Ok(openings)
    }

    /// Plays the joint turn; a move that is not of the variant forfeits its writer (white's
    /// when it is white's written move `w`, else black's).
    fn play_joint(&mut self, turn: &Turn, w: &str) -> Result<Vec<crate::rules::Penalty>, Forfeit> {
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

    /// Waits for seat `i` to open its commitment `digest`; a wrong opening forfeits.
    pub(super) fn opening(&mut self, i: usize, digest: &str) -> Result<(String, String), Forfeit> {
        let deadline = later(
            Instant::now(),
            self.setup.margin.saturating_add(Duration::from_secs(5)),
        );
        let name = self.names[i].clone();
        let Player::Engine(e) = &mut self.players[i] else {
            unreachable!("only engines commit")
        };
        let (mv, nonce) = e.wait_for(
            &mut self.inbox,
            deadline,
            "opening its commitment",
            |_, m| match m {
                Meaning::Opening(mv, nonce) => Some((mv, nonce)),
                _ => None,
            },
        )?;
        let moved = e.wait_for(
            &mut self.inbox,
            deadline,
            "its move after the opening",
            |_, m| match m {
                Meaning::Move(mv) => Some(mv),
                _ => None,
            },
        )?;
        if !commit::verify(digest, &mv, &nonce) || moved != mv {
            return Err(forfeit(
                i,
                format!(
                    "{name} broke its commitment {digest} (opened {mv} {nonce}, moved {moved})"
                ),
            ));
        }
        Ok((mv, nonce))
    }
}
