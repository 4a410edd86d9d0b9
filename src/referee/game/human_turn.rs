//! A person's turn at a human seat: what they are shown (the board, the legal moves), the
//! commands they may type (`moves`, `undo`, …), and the move they play.

use super::*;

impl Table {
    pub(super) fn tell_humans(&self, text: &str) {
        for p in &self.players {
            if let Player::Human(h) = p {
                h.terminal.say(text);
            }
        }
    }

    /// Shows the person at seat `i` the board, the legend, the clocks and the FEN.
    fn show_board(&self, i: usize, terminal: &Terminal) {
        terminal.say(&human::board(&self.game, &self.marks));
        terminal.say(&human::legend(self.setup.variant));
        let mut status = format!(
            "WireTurn {} · you are {:?} · your time {}",
            self.turns.len() + 1,
            side_of(i),
            human::clock_text(self.human_time[i])
        );
        for line in self.game.status_lines() {
            status.push_str(" · ");
            status.push_str(&line.replace("Penalties: ", "penalties White/Black "));
        }
        terminal.say(&status);
        terminal.say(&format!("FEN: {}", self.game.fen()));
    }

    /// Asks the person `h` at seat `i` for a move until a legal one is typed (or `undo`, where
    /// it can be done). In a sealed game `commitment` holds the opponent's commitment, when it
    /// gave one.
    pub(super) fn human_move(
        &mut self,
        i: usize,
        h: &HumanSeat,
        commitment: Option<Option<String>>,
    ) -> Result<Entered, Forfeit> {
        let (name, terminal) = (&h.name, &h.terminal);
        let side = side_of(i);
        let legal = self.game.legal_moves(side);
        self.show_board(i, terminal);
        let other = &self.names[1 - i];
        match commitment {
            Some(Some(d)) => terminal.say(&format!("{other} has sealed its move; commitment {d}")),
            Some(None) => terminal.say(&format!("{other} has sealed its move")),
            None => {}
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
            if let Some(done) = self.typed(i, h, &line, &legal) {
                break done;
            }
        };
        self.human_time[i] = self.human_time[i].saturating_add(asked.elapsed());
        result
    }

    /// What a line typed by the person `h` at seat `i` does: `None` while the prompt goes on.
    fn typed(
        &self,
        i: usize,
        h: &HumanSeat,
        line: &str,
        legal: &[WireMove],
    ) -> Option<Result<Entered, Forfeit>> {
        let (terminal, variant, side) = (&h.terminal, self.setup.variant, side_of(i));
        match human::read(line) {
            Typed::Nothing => {}
            Typed::Help => terminal.say(&human::help(variant)),
            Typed::Board => self.show_board(i, terminal),
            Typed::Moves(prefix) => {
                terminal.say(&human::moves_text(legal, &prefix, MAX_LISTED_MATCHING));
            }
            Typed::Resign => {
                return Some(Err(Forfeit {
                    seat: i,
                    why: format!("{} resigned", h.name),
                    termination: "normal",
                }));
            }
            Typed::Draw => terminal.say(
                "engines in UCI and XBoard cannot accept a draw offer, so the game goes on; \
                 --max-turns, --repetitions and --draw end drawn games",
            ),
            Typed::Undo => match self.undo_refusal() {
                None => return Some(Ok(Entered::Undo)),
                Some(why) => terminal.say(&format!("no undo: {why}")),
            },
            Typed::Move(mv) => match human::refusal(&self.game, side, &mv, legal) {
                None => return Some(Ok(Entered::Move(mv))),
                Some(why) => terminal.say(&format!("'{line}' is refused: {why}; try again")),
            },
            Typed::Unknown(text) => terminal.say(&format!(
                "'{text}' is neither a move nor a command ('help' lists them); try again"
            )),
        }
        None
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
            if let Some(e) = p.engine() {
                e.remove();
            }
        }
        self.tell_humans("took back your last move and the engine's reply");
    }
}

/// What a person entered at the prompt.
pub(super) enum Entered {
    /// A legal move.
    Move(WireMove),
    /// `undo`, where it can be done.
    Undo,
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
