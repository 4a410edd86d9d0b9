//! A person's turn at a human seat: what they are shown (the board, the legal moves), the
//! commands they may type (`moves`, `undo`, …), and the move they play.

use super::*;

impl Table {
    pub(super) fn tell_humans(&self, text: &str) {
        for p in &self.players {
            if let Player::Human(_, t) = p {
                t.say(text);
            }
        }
    }

    /// Asks the person at seat `i` for a move until a legal one is typed (or `undo`, where it
    /// can be done). In a sealed game `commitment` holds the opponent's commitment, when it
    /// gave one.
    pub(super) fn human_move(
        &mut self,
        i: usize,
        commitment: Option<Option<String>>,
    ) -> Result<Typed, Forfeit> {
        let Player::Human(name, terminal) = &self.players[i] else {
            unreachable!("a human seat")
        };
        let (name, terminal) = (name.clone(), terminal.clone());
        let side = if i == 0 { Side::White } else { Side::Black };
        let legal = self.game.legal_moves(side);
        let variant = self.setup.variant;
        let show_board = |t: &Table| {
            terminal.say(&human::board(&t.game, &t.marks));
            terminal.say(&human::legend(variant));
            let mut status = format!(
                "Turn {} · you are {side:?} · your time {}",
                t.turns.len() + 1,
                human::clock_text(t.human_time[i])
            );
            for line in t.game.status_lines() {
                status.push_str(" · ");
                status.push_str(&line.replace("Penalties: ", "penalties White/Black "));
            }
            terminal.say(&status);
            terminal.say(&format!("FEN: {}", t.game.fen()));
        };
        show_board(self);
        if let Some(shown) = commitment {
            match shown {
                Some(d) => terminal.say(&format!(
                    "{} has sealed its move; commitment {d}",
                    self.names[1 - i]
                )),
                None => terminal.say(&format!("{} has sealed its move", self.names[1 - i])),
            }
        }
        terminal.say(&legal_text(&legal));
        let asked = Instant::now();
        let result = loop {
            terminal.say(&format!(
                "{name} ({side:?}), your move ('help' for the commands):"
            ));
            let Some(line) = terminal.read() else {
                break Err(Forfeit {
                    seat: i,
                    why: format!("{name} left the game (end of input)"),
                    termination: "abandoned",
                });
            };
            match human::read(&line) {
                Typed::Nothing => {}
                Typed::Help => terminal.say(&human::help(variant)),
                Typed::Board => show_board(self),
                Typed::Moves(prefix) => {
                    terminal.say(&human::moves_text(&legal, &prefix, MAX_LISTED_MATCHING));
                }
                Typed::Resign => {
                    break Err(Forfeit {
                        seat: i,
                        why: format!("{name} resigned"),
                        termination: "normal",
                    });
                }
                Typed::Draw => terminal.say(
                    "engines in UCI and XBoard cannot accept a draw offer, so the game goes on; \
                     --max-turns, --repetitions and --draw end drawn games",
                ),
                Typed::Undo => match self.undo_refusal() {
                    None => break Ok(Typed::Undo),
                    Some(why) => terminal.say(&format!("no undo: {why}")),
                },
                Typed::Move(mv) => match human::refusal(&self.game, side, &mv, &legal) {
                    None => break Ok(Typed::Move(mv)),
                    Some(why) => terminal.say(&format!("'{line}' is refused: {why}; try again")),
                },
                Typed::Unknown(text) => terminal.say(&format!(
                    "'{text}' is neither a move nor a command ('help' lists them); try again"
                )),
            }
        };
        self.human_time[i] = self.human_time[i].saturating_add(asked.elapsed());
        result
    }

    /// Why the person to move cannot take back a move now, `None` when it can: only in an
    /// alternating game, with a turn of their own and the engine's reply to take back (a UCI
    /// engine is told the whole game each move; an XBoard engine is sent `remove`).
    pub(super) fn undo_refusal(&self) -> Option<String> {
        if self.setup.variant.is_sealed() {
            return Some("a sealed game's moves are revealed and cannot be taken back".into());
        }
        // It is the person's turn: the two turns before are theirs and the engine's reply.
        if self.turns.len() < 2 {
            return Some("you have not moved yet in this game".into());
        }
        None
    }

    /// Takes back the last two turns (the person's and the engine's reply) and tells an XBoard
    /// engine to do the same (`remove`).
    pub(super) fn undo(&mut self) {
        let keep = self.turns.len().saturating_sub(2);
        self.turns.truncate(keep);
        self.comments.truncate(keep);
        let mut game = match &self.setup.opening.fen {
            Some(fen) => Game::from_fen(self.setup.variant, fen).expect("the opening was read"),
            None => Game::start(self.setup.variant),
        };
        // The repetition counts are taken again over the positions that remain; the loop
        // counts the position to move in, as after any turn.
        self.seen.clear();
        for t in &self.turns {
            *self.seen.entry(repetition_key(&game)).or_insert(0) += 1;
            game.play(t).expect("the turns were played");
        }
        self.game = game;
        self.marks.clear();
        for p in &mut self.players {
            if let Player::Engine(e) = p
                && e.spec.dialect == Dialect::Cecp
            {
                e.send("remove");
            }
        }
        self.tell_humans("took back your last move and the engine's reply");
    }
}

/// Most moves `moves PREFIX` lists.
const MAX_LISTED_MATCHING: usize = 200;

/// Most moves listed in full to a person; beyond this, only the first legs are.
const MAX_LISTED: usize = 60;

/// The legal moves as shown to a person: all of them when few, else their distinct first legs
/// (a Gladiator turn has thousands of spellings: the pawn leg, then a supporter's jump).
pub(super) fn legal_text(legal: &[WireMove]) -> String {
    if legal.len() <= MAX_LISTED {
        let list: Vec<String> = legal.iter().map(ToString::to_string).collect();
        return format!("legal moves: {}", list.join(" "));
    }
    let mut firsts: Vec<String> = Vec::new();
    for mv in legal {
        let first = mv.to_string();
        let first = first.split(',').next().unwrap_or(&first).to_string();
        if !firsts.contains(&first) {
            firsts.push(first);
        }
    }
    format!(
        "legal moves ({} in all; first legs shown, add legs after a comma as the rules allow): {}",
        legal.len(),
        firsts.join(" ")
    )
}
