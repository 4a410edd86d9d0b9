//! The CECP (XBoard) dialect of the session (`protocol-docs/cecp.md`).

use super::plies::{self, Plies};
use super::worker::Job;
use super::{Purpose, Session};
use crate::notation::{Turn, WireMove};
use std::time::Duration;

use crate::player::Choice;
use crate::protocol::CommandError;
use crate::protocol::cecp::{self, CecpCommand, ExcludeTarget};
use crate::search::Limits;
use crate::variant::{Side, Variant};

/// Where the `feature` handshake stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Handshake {
    /// `protover` not seen yet.
    #[default]
    NotStarted,
    /// `feature sealed=1` sent; waiting for `accepted sealed` or `rejected sealed`.
    AwaitingSealed,
    /// `feature done=1` sent.
    Done,
}

/// CECP-only session state.
#[derive(Debug)]
pub(super) struct State {
    handshake: Handshake,
    /// Whether the GUI accepted the sealed-move extension.
    sealed_accepted: bool,
    /// The GUI accepted `turns=1`: multi-part turns travel as one token, not in plies.
    turns_accepted: bool,
    force: bool,
    /// The side the engine plays (in a sealed game: the side `sealed` named).
    engine_side: Side,
    pub(super) post: bool,
    analyze: bool,
    /// Whether the engine already answered the current sealed turn.
    answered: bool,
    excluded: Vec<WireMove>,
    clock: Clock,
    /// Where a multi-part turn shown to XBoard in plies stands.
    plies: Plies,
}

/// What the GUI said about time: `level`, `st`, `sd`, `nps`, `time`.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    /// Moves per time control (0: the whole game).
    mps: u32,
    /// Increment in milliseconds.
    inc_ms: u64,
    /// Fixed time per move (`st`), milliseconds.
    per_move_ms: Option<u64>,
    /// Depth limit (`sd`).
    depth: Option<u32>,
    /// The engine's remaining time (`time`), milliseconds.
    left_ms: Option<u64>,
    /// Engine moves made since `new` (for moves-per-session controls).
    moves: u32,
}

impl Clock {
    /// Limits for the next move: `st` if given; else a hard limit from the time left (see
    /// `uci::clock_budget`), with the moves still to come in this control (30 when the
    /// control is the whole game). Without any time given, one second unless `sd` limits the
    /// depth.
    fn limits(&self) -> Limits {
        let time = self.per_move_ms.or_else(|| {
            self.left_ms.map(|left| {
                let togo = if self.mps > 0 {
                    u64::from(self.mps - self.moves % self.mps)
                } else {
                    30
                };
                super::uci::clock_budget(left, togo, self.inc_ms)
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
            time: time.map(Duration::from_millis),
        }
    }
}

impl Default for State {
    fn default() -> State {
        State {
            handshake: Handshake::NotStarted,
            sealed_accepted: false,
            turns_accepted: false,
            force: false,
            engine_side: Side::Black,
            post: false,
            analyze: false,
            answered: false,
            excluded: Vec::new(),
            clock: Clock::default(),
            plies: Plies::Idle,
        }
    }
}

impl Session {
    pub(super) fn cecp_line(&mut self, line: &str, out: &mut Vec<String>) {
        let command = match cecp::parse(line) {
            Ok(c) => c,
            Err(CommandError::Empty) => return,
            Err(CommandError::Unknown(word)) => {
                self.finish_handshake(out);
                out.push(format!("Error (unknown command): {word}"));
                return;
            }
            Err(e) => {
                self.finish_handshake(out);
                out.push(format!("Error ({e}): {}", line.trim()));
                return;
            }
        };
        match &command {
            CecpCommand::Accepted(f) | CecpCommand::Rejected(f) if f == "sealed" => {
                self.cecp.sealed_accepted = matches!(command, CecpCommand::Accepted(_));
                self.finish_handshake(out);
            }
            CecpCommand::Accepted(f) | CecpCommand::Rejected(f) if f == "turns" => {
                self.cecp.turns_accepted = matches!(command, CecpCommand::Accepted(_));
            }
            CecpCommand::Accepted(_) | CecpCommand::Rejected(_) => {}
            _ => {
                self.finish_handshake(out);
                self.cecp_command(command, out);
            }
        }
    }

    /// Sends the rest of the features once the GUI has answered `sealed=1` (or has moved on
    /// without answering, which counts as a rejection).
    fn finish_handshake(&mut self, out: &mut Vec<String>) {
        if self.cecp.handshake != Handshake::AwaitingSealed {
            return;
        }
        self.cecp.handshake = Handshake::Done;
        let variants: Vec<&str> = Variant::ALL
            .iter()
            .filter(|v| self.cecp.sealed_accepted || !v.is_sealed())
            .map(|v| v.name())
            .collect();
        out.push(
            "feature ping=1 setboard=1 usermove=1 sigint=0 sigterm=0 san=0 colors=0 time=1 \
             reuse=1 analyze=1 playother=1 debug=1 memory=1 exclude=1 highlight=1 turns=1"
                .to_string(),
        );
        out.push(format!(
            "feature myname=\"{}\" variants=\"{}\"",
            super::uci::NAME,
            variants.join(",")
        ));
        out.push(format!(
            "feature option=\"Seed -spin 0 0 {}\" option=\"SealedCommit -check 0\"",
            super::core::MAX_SEED
        ));
        out.push("feature done=1".to_string());
    }

    fn cecp_error(
        out: &mut Vec<String>,
        reason: impl std::fmt::Display,
        command: impl std::fmt::Display,
    ) {
        out.push(format!("Error ({reason}): {command}"));
    }

    fn cecp_command(&mut self, command: CecpCommand, out: &mut Vec<String>) {
        // Commands that leave the game alone run beside a search; `?` makes the engine move
        // now; anything else stops the search and drops its move (CECP: `force`, `new`, a
        // new position … end thinking without a move).
        match &command {
            CecpCommand::Ping(_)
            | CecpCommand::Post
            | CecpCommand::NoPost
            | CecpCommand::Time(_)
            | CecpCommand::Otim(_)
            | CecpCommand::Level { .. }
            | CecpCommand::St(_)
            | CecpCommand::Sd(_)
            | CecpCommand::Nps(_)
            | CecpCommand::Hard
            | CecpCommand::Easy
            | CecpCommand::Random
            | CecpCommand::Computer
            | CecpCommand::Name(_)
            | CecpCommand::Rating(_)
            | CecpCommand::Ics(_)
            | CecpCommand::Memory(_)
            | CecpCommand::Cores(_)
            | CecpCommand::EgtPath(_)
            | CecpCommand::Draw
            | CecpCommand::Bk
            | CecpCommand::Accepted(_)
            | CecpCommand::Rejected(_)
            | CecpCommand::Lift(_)
            | CecpCommand::Put(_)
            | CecpCommand::Hover(_)
            | CecpCommand::Display
            | CecpCommand::Dot
            | CecpCommand::Xboard => {}
            CecpCommand::MoveNow => self.halt(true, out),
            _ => self.halt(false, out),
        }
        match command {
            CecpCommand::Xboard => {}
            CecpCommand::Protover(v) => {
                if v >= 2 && self.cecp.handshake == Handshake::NotStarted {
                    out.push("feature done=0".to_string());
                    out.push("feature sealed=1".to_string());
                    self.cecp.handshake = Handshake::AwaitingSealed;
                }
            }
            CecpCommand::Accepted(_) | CecpCommand::Rejected(_) => {}
            CecpCommand::New => {
                self.reveal = None;
                self.core.set_variant(Variant::DEFAULT);
                self.cecp.force = false;
                self.cecp.engine_side = Side::Black;
                self.cecp.clock = Clock::default();
                self.reset_turn_state();
            }
            CecpCommand::Variant(name) => match Variant::from_name(&name) {
                Some(v) => {
                    self.reveal = None;
                    self.core.set_variant(v);
                    self.reset_turn_state();
                    out.extend(setup_lines(v));
                }
                None => Self::cecp_error(out, "unknown variant", format!("variant {name}")),
            },
            CecpCommand::Quit => self.finished = true,
            CecpCommand::Force => self.cecp.force = true,
            CecpCommand::Go => {
                self.cecp.force = false;
                match &self.cecp.plies {
                    // Mid-turn, `go` asks for the ply XBoard is waiting for.
                    Plies::Received {
                        partial,
                        p2_seen: false,
                    } => {
                        out.push(format!(
                            "move {}",
                            plies::answer_p2(self.core.game(), partial)
                        ));
                        let partial = partial.clone();
                        self.cecp.plies = Plies::Received {
                            partial,
                            p2_seen: true,
                        };
                    }
                    Plies::Received { .. } | Plies::Sent { .. } => {}
                    Plies::Idle => {
                        if let Some(side) = self.core.game().side_to_move() {
                            self.cecp.engine_side = side;
                        }
                        self.cecp_move(out);
                    }
                }
            }
            CecpCommand::PlayOther => match self.core.game().side_to_move() {
                Some(side) => {
                    self.cecp.force = false;
                    self.cecp.engine_side = side.opponent();
                }
                None => Self::cecp_error(
                    out,
                    "a sealed game has no side to move; use sealed white|black",
                    "playother",
                ),
            },
            CecpCommand::Sealed(side) => {
                if self.core.game().side_to_move().is_some() {
                    Self::cecp_error(out, "not a sealed game", format!("sealed {}", side.word()));
                } else {
                    self.cecp.engine_side = side;
                    self.cecp.answered = false;
                }
            }
            CecpCommand::UserMove(turn) | CecpCommand::Move(turn) => {
                if self.in_plies() {
                    self.cecp_ply(turn, out);
                } else {
                    self.cecp_turn(turn, out);
                }
            }
            CecpCommand::Reveal(w, b) => self.cecp_turn(Turn::Joint(w, b), out),
            CecpCommand::Opponent(_) => match self.reveal.take() {
                Some(pending) => out.extend(pending.lines),
                None => Self::cecp_error(out, "no committed move is waiting", "opponent"),
            },
            // XBoard may relay a null ply as `setboard` (see plies::is_null_relay).
            CecpCommand::SetBoard(ref fen)
                if self.in_plies()
                    && plies::is_null_relay(
                        self.core.game(),
                        &self.cecp.plies,
                        self.cecp.force,
                        fen,
                    ) =>
            {
                self.cecp_ply(Turn::Single(WireMove::Pass), out);
            }
            CecpCommand::SetBoard(fen) => match self
                .core
                .set_position(Some(&xboard_fen(self.core.variant(), &fen)), &[])
            {
                Ok(()) => self.reset_turn_state(),
                Err(e) => Self::cecp_error(
                    out,
                    format!("illegal position: {e}"),
                    format!("setboard {fen}"),
                ),
            },
            CecpCommand::Undo | CecpCommand::Remove => {
                let sealed = self.core.game().side_to_move().is_none();
                let n = if matches!(command, CecpCommand::Remove) && !sealed {
                    2
                } else {
                    1
                };
                match self.core.undo(n) {
                    Ok(()) => self.reset_turn_state(),
                    Err(e) => Self::cecp_error(out, e, command),
                }
            }
            CecpCommand::Result { .. } => {
                self.cecp.force = true;
                self.reveal = None;
            }
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
            | CecpCommand::EgtPath(_)
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
            CecpCommand::Time(cs) => self.cecp.clock.left_ms = Some(cs.max(0) as u64 * 10),
            CecpCommand::Memory(mib) => {
                if let Err(e) = self.core.set_hash(mib) {
                    Self::cecp_error(out, e, format!("memory {mib}"));
                }
            }
            CecpCommand::Ping(n) => out.push(format!("pong {n}")),
            CecpCommand::Post => self.cecp.post = true,
            CecpCommand::NoPost => self.cecp.post = false,
            CecpCommand::Analyze => {
                self.cecp.analyze = true;
                self.cecp_analyze(out);
            }
            CecpCommand::Exit => self.cecp.analyze = false,
            CecpCommand::Dot => {
                if self.cecp.analyze {
                    out.push("stat01: 0 0 1 0 0".to_string());
                }
            }
            CecpCommand::Hint => {
                let job = Job::Think {
                    side: self.cecp_side(),
                    allowed: Vec::new(),
                    limits: self.cecp.clock.limits(),
                };
                self.start(job, Purpose::CecpHint, out);
            }
            CecpCommand::Option { name, value } => {
                if let Err(e) = self.core.set_option(&name, value.as_deref()) {
                    Self::cecp_error(out, e, format!("option {name}"));
                }
            }
            CecpCommand::Exclude(target) => match target {
                ExcludeTarget::All => {
                    self.cecp.excluded = self.core.game().legal_moves(self.cecp_side());
                }
                ExcludeTarget::Move(m) => self.cecp.excluded.push(m),
            },
            CecpCommand::Include(target) => match target {
                ExcludeTarget::All => self.cecp.excluded.clear(),
                ExcludeTarget::Move(m) => self.cecp.excluded.retain(|x| *x != m),
            },
            CecpCommand::Lift(sq) => {
                let played = match &self.cecp.plies {
                    Plies::Received {
                        partial: WireMove::Legs { legs, .. },
                        ..
                    } => legs.clone(),
                    _ => Vec::new(),
                };
                if let Some(board) = self.core.highlight(sq, &played) {
                    out.push(format!("highlight {board}"));
                }
            }
            CecpCommand::Display => out.extend(self.core.display()),
            CecpCommand::Perft(depth) => {
                self.perft_depth = depth;
                self.start(Job::Perft(depth), Purpose::Perft, out);
            }
        }
    }

    /// The side the engine thinks for: the side to move, or its sealed side.
    fn cecp_side(&self) -> Side {
        self.core
            .game()
            .side_to_move()
            .unwrap_or(self.cecp.engine_side)
    }

    fn reset_turn_state(&mut self) {
        self.cecp.answered = false;
        self.cecp.excluded.clear();
        self.cecp.plies = Plies::Idle;
    }

    /// Whether this variant's turns are shown to the GUI in XBoard plies: a variant with
    /// multi-part turns, unless the GUI accepted `turns=1` (as `quill match` does).
    fn in_plies(&self) -> bool {
        self.core.variant().xboard_plies() && !self.cecp.turns_accepted
    }

    /// One XBoard ply of a multi-part turn (see plies.rs). Every ply is checked against the
    /// rules; a wrong one is refused with `Illegal move` and leaves the position and the ply
    /// state as they were, so that XBoard's takeback and the engine agree and a corrected ply
    /// is accepted.
    fn cecp_ply(&mut self, turn: Turn, out: &mut Vec<String>) {
        let Turn::Single(mv) = &turn else {
            return out.push(format!(
                "Illegal move (a joint turn in an alternating game): {turn}"
            ));
        };
        let game = self.core.game();
        let before = std::mem::take(&mut self.cecp.plies);
        let checked = match &before {
            Plies::Idle => plies::read_p1(game, mv).map(|partial| {
                if !self.cecp.force {
                    out.push(format!("move {}", plies::answer_p2(game, &partial)));
                }
                Plies::Received {
                    partial,
                    p2_seen: !self.cecp.force,
                }
            }),
            // In force mode the GUI relays the opponent's P2 as well.
            Plies::Received {
                partial,
                p2_seen: false,
            } => plies::check_p2(game, partial, mv).map(|()| Plies::Received {
                partial: partial.clone(),
                p2_seen: true,
            }),
            Plies::Received {
                partial,
                p2_seen: true,
            } => match plies::complete(game, partial, mv) {
                Ok(whole) => return self.cecp_turn(Turn::Single(whole), out),
                Err(e) => Err(e),
            },
            Plies::Sent { turn, p3 } => match plies::check_own_p2(game, turn, mv) {
                Ok(()) => {
                    out.push(format!("move {p3}"));
                    let turn = turn.clone();
                    return self.finish_own_turn(&turn, out);
                }
                Err(e) => Err(e),
            },
        };
        match checked {
            Ok(next) => self.cecp.plies = next,
            Err(e) => {
                out.push(format!("Illegal move ({e}): {}", plies::shown(mv)));
                self.cecp.plies = before;
            }
        }
    }

    /// Plays the engine's own whole turn once XBoard has been shown all of it.
    fn finish_own_turn(&mut self, turn: &WireMove, out: &mut Vec<String>) {
        match self.core.play(&Turn::Single(turn.clone())) {
            Ok(_) => {
                if let Some(outcome) = self.core.game().outcome() {
                    out.push(outcome.to_string());
                }
            }
            Err(e) => log::error!("the engine chose a turn its own rules refuse: {e}"),
        }
    }

    fn cecp_turn(&mut self, turn: Turn, out: &mut Vec<String>) {
        if self.reveal.is_some() && matches!(turn, Turn::Joint(..)) {
            // The pair is known: a reveal still owed is now moot.
            self.reveal = None;
        }
        match self.core.play(&turn) {
            Ok(penalties) => {
                for p in penalties {
                    out.push(format!(
                        "# penalty for {}: {} ({})",
                        p.side.word(),
                        p.mv,
                        p.reason
                    ));
                }
                self.reset_turn_state();
                if let Some(outcome) = self.core.game().outcome() {
                    out.push(outcome.to_string());
                } else if self.cecp.analyze {
                    self.cecp_analyze(out);
                } else if !self.cecp.force {
                    self.cecp_move(out);
                }
            }
            Err(e) => out.push(format!("Illegal move ({e}): {turn}")),
        }
    }

    fn cecp_move(&mut self, out: &mut Vec<String>) {
        let game = self.core.game();
        if game.outcome().is_some() || self.cecp.force {
            return;
        }
        if game
            .side_to_move()
            .is_some_and(|s| s != self.cecp.engine_side)
        {
            return;
        }
        if self.cecp.answered || self.reveal.is_some() {
            return Self::cecp_error(out, "already answered this turn", "go");
        }
        let side = self.cecp_side();
        let legal = self.core.game().legal_moves(side);
        let allowed: Vec<WireMove> = if self.cecp.excluded.is_empty() {
            Vec::new()
        } else {
            legal
                .into_iter()
                .filter(|m| !self.cecp.excluded.contains(m))
                .collect()
        };
        if !self.cecp.excluded.is_empty() && allowed.is_empty() {
            return Self::cecp_error(out, "every legal move is excluded", "go");
        }
        let limits = self.cecp.clock.limits();
        self.start(
            Job::Think {
                side,
                allowed,
                limits,
            },
            Purpose::CecpMove,
            out,
        );
    }

    /// Sends the engine's move once its worker has chosen it.
    pub(super) fn cecp_finished(&mut self, choice: Option<Choice>, out: &mut Vec<String>) {
        let Some(choice) = choice else {
            return;
        };
        self.cecp_thinking(&choice, self.cecp.post, out);
        self.cecp.clock.moves += 1;
        let alternating = self.core.game().side_to_move().is_some();
        self.cecp.answered = !alternating;
        let lines = self.deliver(
            &choice.mv.to_string(),
            |mv, nonce| {
                let mut lines = Vec::new();
                if !nonce.is_empty() {
                    lines.push(format!("reveal {mv} {nonce}"));
                }
                lines.push(format!("move {mv}"));
                lines
            },
            |digest| format!("commit {digest}"),
        );
        if alternating && self.in_plies() {
            // XBoard is shown the turn in plies: P1 now, P3 once the opponent's P2 arrives.
            if let Some((p1, p3)) = plies::split(self.core.game(), &choice.mv) {
                out.push(format!("move {p1}"));
                self.cecp.plies = Plies::Sent {
                    turn: choice.mv,
                    p3,
                };
            }
            return;
        }
        out.extend(lines);
        if alternating {
            // The engine's own move is part of the game at once.
            self.finish_own_turn(&choice.mv, out);
        }
    }

    /// The thinking line (and, in a sealed game, the strategy comment), when `show`.
    pub(super) fn cecp_thinking(&self, choice: &Choice, show: bool, out: &mut Vec<String>) {
        if !show {
            return;
        }
        let pv = if choice.pv.is_empty() {
            choice.mv.to_string()
        } else {
            choice.pv.join(" ")
        };
        out.push(format!(
            "{} {} {} {} {pv}",
            choice.depth,
            choice.centipawns(),
            choice.micros / 10_000,
            choice.nodes,
        ));
        if self.core.game().side_to_move().is_none() {
            out.push(format!("# strategy {}", super::uci::strategy_text(choice)));
        }
    }

    fn cecp_analyze(&mut self, out: &mut Vec<String>) {
        if self.core.game().outcome().is_some() {
            return;
        }
        // Analysis runs until the next command stops it.
        let job = Job::Think {
            side: self.cecp_side(),
            allowed: Vec::new(),
            limits: Limits::default(),
        };
        self.start(job, Purpose::CecpAnalyze, out);
    }
}

/// XBoard's FEN for a variant shown in plies carries holdings (`[…]`) and a castling field of
/// its own making (`Ee`); neither means anything in these games, so both are dropped.
fn xboard_fen(variant: Variant, fen: &str) -> String {
    if !variant.xboard_plies() {
        return fen.to_string();
    }
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(board) = fields.first_mut()
        && let Some(i) = board.find('[')
    {
        board.truncate(i);
    }
    if let Some(castling) = fields.get_mut(2) {
        *castling = "-".to_string();
    }
    fields.join(" ")
}

/// The answer to `variant`: the board for XBoard, and the pieces Betza can describe.
fn setup_lines(variant: Variant) -> Vec<String> {
    let game = crate::game::Game::start(variant);
    let g = game.geometry();
    let fen = game.fen();
    let six: Vec<&str> = fen.split_whitespace().take(6).collect();
    let mut lines = vec![format!(
        "setup ({}) {}x{}+{} {}",
        variant.piece_to_char(),
        g.files(),
        g.ranks(),
        variant.xboard_parent(),
        six.join(" ")
    )];
    lines.extend(
        variant
            .betza()
            .iter()
            .map(|(p, b)| format!("piece {p}& {b}")),
    );
    lines
}
