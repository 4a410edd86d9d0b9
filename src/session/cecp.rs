//! The CECP (XBoard) dialect of the session (`protocol-docs/cecp.md`).

use super::plies::{self, Plies};
use super::worker::Job;
use super::{Purpose, Session};
use crate::notation::{Turn, WireMove};

use crate::player::{Choice, Score};
use crate::protocol::CommandError;
use crate::protocol::cecp::{
    self, CecpCommand, CecpMove, EngineLine, ExcludeTarget, Feature, GameResult, Pv, Thinking,
};
use crate::search::Limits;
use crate::variant::{Side, Variant};

/// What `help` lists in CECP: each command and what it does.
const CECP_HELP: &[(&str, &str)] = &[
    ("protover 2", "the features, ending with done=1"),
    (
        "new, variant V",
        "a new game; Quill plays apocalypse, apocalypse-classic, gladiator, brawl, pagan",
    ),
    (
        "force, go, playother",
        "stop playing, play the side to move, play the other side",
    ),
    (
        "usermove T",
        "a move; a sealed turn is one token WHITE|BLACK",
    ),
    (
        "sealed white|black, reveal W B",
        "sealed games: the engine's side, then the revealed pair",
    ),
    (
        "setboard FEN, undo, remove",
        "set or take back the position",
    ),
    (
        "level, st, sd, time, otim",
        "the clock and the search's limits",
    ),
    (
        "post, nopost, analyze, exit, ., hint, ?",
        "thinking output, analysis, a hint, move now",
    ),
    ("ping N", "pong N"),
    (
        "option N=V, memory N",
        "options (Seed, SealedCommit) and the table size",
    ),
    ("perft N, d", "count move sequences; show the board"),
    ("quit", "exit"),
];

/// CECP-only session state.
#[derive(Debug)]
pub(super) struct State {
    /// Whether the features were sent (at the first `protover 2`).
    features_sent: bool,
    /// Whether the GUI accepted the sealed-move extension (`accepted sealed`).
    sealed_accepted: bool,
    /// After `new` and before any `variant`: the GUI means normal chess, which Quill does
    /// not play.
    chess: bool,
    /// When the running search started, and its last completed iteration's depth and
    /// nodes: what `.` reports.
    pub(super) progress: Option<(std::time::Instant, u32, u64)>,
    /// The GUI accepted `turns=1`: multi-part turns travel as one token, not in plies.
    turns_accepted: bool,
    force: bool,
    /// The side the engine plays (in a sealed game: the side `sealed` named).
    engine_side: Side,
    pub(super) post: bool,
    analyze: bool,
    /// Whether the engine already answered the current sealed turn.
    answered: bool,
    /// The engine's own move of the current sealed turn, once it has answered: the pair the
    /// GUI reveals must carry it.
    own_move: Option<WireMove>,
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
            time: time.map(super::core::duration_ms),
            // `st` is the time a move takes (CECP: "exactly"), used whole.
            exact: self.per_move_ms.is_some(),
        }
    }
}

impl Default for State {
    fn default() -> State {
        State {
            features_sent: false,
            sealed_accepted: false,
            chess: false,
            progress: None,
            turns_accepted: false,
            force: false,
            engine_side: Side::Black,
            post: false,
            analyze: false,
            answered: false,
            own_move: None,
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
                return Self::cecp_error(out, "unknown command", word);
            }
            Err(e) => return Self::cecp_error(out, e, line.trim()),
        };
        match &command {
            CecpCommand::Accepted(f) | CecpCommand::Rejected(f) if f == "sealed" => {
                self.cecp.sealed_accepted = matches!(command, CecpCommand::Accepted(_));
            }
            CecpCommand::Accepted(f) | CecpCommand::Rejected(f) if f == "turns" => {
                self.cecp.turns_accepted = matches!(command, CecpCommand::Accepted(_));
            }
            CecpCommand::Accepted(_) | CecpCommand::Rejected(_) => {}
            _ => self.cecp_command(command, out),
        }
    }

    /// Every feature at once, ending with `done=1`: the engine never waits for an answer
    /// (python-chess gives none). Sealed variants are listed whatever the GUI will say of
    /// `sealed=1`; asking for one without having accepted it gets an error (see
    /// [`Session::cecp_refusal`]).
    fn send_features(&mut self, out: &mut Vec<String>) {
        self.cecp.features_sent = true;
        let variants: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        let flags = [
            ("ping", 1),
            ("setboard", 1),
            ("usermove", 1),
            ("sigint", 0),
            ("san", 0),
            ("colors", 0),
            ("time", 1),
            ("reuse", 1),
            ("analyze", 1),
            ("playother", 1),
            ("debug", 1),
            ("memory", 1),
            ("exclude", 1),
            ("highlight", 1),
            ("sealed", 1),
            ("turns", 1),
        ];
        let lines = [
            flags.map(|(name, on)| Feature::bare(name, on)).to_vec(),
            vec![
                Feature::quoted("myname", super::uci::NAME),
                Feature::quoted("variants", variants.join(",")),
            ],
            vec![
                Feature::quoted(
                    "option",
                    format!("Seed -spin 0 0 {}", super::core::MAX_SEED),
                ),
                Feature::quoted("option", "SealedCommit -check 0"),
                // XBoard then sends `egtpath quill PATH` for `-egtFormats quill:PATH`.
                Feature::quoted("egt", "quill"),
            ],
            vec![Feature::bare("done", 1)],
        ];
        for features in lines {
            emit(out, EngineLine::Feature(features));
        }
    }

    /// Why the game the GUI asked for cannot be played, if it cannot: normal chess (after
    /// `new` with no `variant`), or a sealed variant with a GUI that did not accept
    /// `sealed=1`.
    fn cecp_refusal(&self) -> Option<String> {
        let variant = self.core.variant();
        if self.cecp.chess {
            Some(format!(
                "Quill does not play normal chess; choose one of its variants ({})",
                Variant::ALL.map(|v| v.name()).join(", ")
            ))
        } else if variant.is_sealed() && !self.cecp.sealed_accepted {
            Some(format!(
                "{variant} is a sealed game and this GUI did not accept feature sealed=1"
            ))
        } else {
            None
        }
    }

    /// Refuses a command because of [`Session::cecp_refusal`]; `tell` also pops the reason
    /// up in the GUI (for the requests a person makes: a variant, `go`).
    fn refuse(reason: &str, command: impl std::fmt::Display, tell: bool, out: &mut Vec<String>) {
        if tell {
            emit(out, EngineLine::TellUserError(reason.to_owned()));
        }
        Self::cecp_error(out, reason, command);
    }

    fn cecp_error(
        out: &mut Vec<String>,
        reason: impl std::fmt::Display,
        command: impl std::fmt::Display,
    ) {
        emit(
            out,
            EngineLine::Error {
                kind: reason.to_string(),
                command: command.to_string(),
            },
        );
    }

    fn cecp_command(&mut self, command: CecpCommand, out: &mut Vec<String>) {
        self.cecp_halt_for(&command, out);
        if self.cecp_refused(&command, out) {
            return;
        }
        use CecpCommand as C;
        match command {
            CecpCommand::Xboard => {}
            CecpCommand::Protover(v) => {
                if v >= 2 && !self.cecp.features_sent {
                    self.send_features(out);
                }
            }
            CecpCommand::Accepted(_) | CecpCommand::Rejected(_) => {}
            CecpCommand::Quit => self.finished = true,
            CecpCommand::Force => self.cecp.force = true,
            C::New | C::Variant(_) | C::SetBoard(_) | C::Undo | C::Remove | C::Result { .. } => {
                self.cecp_game_command(command, out);
            }
            C::Go
            | C::PlayOther
            | C::Sealed(_)
            | C::UserMove(_)
            | C::Move(_)
            | C::Reveal(..)
            | C::Opponent(_) => self.cecp_turn_command(command, out),
            C::MoveNow
            | C::Draw
            | C::Bk
            | C::Hard
            | C::Easy
            | C::Random
            | C::Computer
            | C::Name(_)
            | C::Rating(_)
            | C::Ics(_)
            | C::Cores(_)
            | C::EgtPath(_)
            | C::Nps(_)
            | C::Otim(_)
            | C::Put(_)
            | C::Hover(_)
            | C::Level { .. }
            | C::St(_)
            | C::Sd(_)
            | C::Time(_)
            | C::Memory(_) => self.cecp_clock_command(command, out),
            C::Ping(_)
            | C::Post
            | C::NoPost
            | C::Analyze
            | C::Exit
            | C::Dot
            | C::Hint
            | C::Option { .. }
            | C::Exclude(_)
            | C::Include(_)
            | C::Lift(_)
            | C::Display
            | C::Help
            | C::Perft(_) => self.cecp_tool_command(command, out),
        }
    }

    /// Stops a running search as the command needs: commands that leave the game alone run
    /// beside it, `?` makes the engine move now, anything else drops its move.
    fn cecp_halt_for(&mut self, command: &CecpCommand, out: &mut Vec<String>) {
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
            | CecpCommand::Help
            | CecpCommand::Dot
            | CecpCommand::Xboard => {}
            CecpCommand::MoveNow => self.halt(true, out),
            _ => self.halt(false, out),
        }
    }

    /// Refuses, when the game asked for cannot be played (see [`Session::cecp_refusal`]),
    /// the commands that would play it; `true` when the command was refused.
    fn cecp_refused(&self, command: &CecpCommand, out: &mut Vec<String>) -> bool {
        let Some(reason) = self.cecp_refusal() else {
            return false;
        };
        match &command {
            CecpCommand::UserMove(turn) | CecpCommand::Move(turn) => illegal(out, reason, turn),
            CecpCommand::Go => Self::refuse(&reason, command, true, out),
            CecpCommand::PlayOther
            | CecpCommand::Sealed(_)
            | CecpCommand::Reveal(..)
            | CecpCommand::SetBoard(_)
            | CecpCommand::Hint
            | CecpCommand::Analyze
            | CecpCommand::Undo
            | CecpCommand::Remove => Self::refuse(&reason, command, false, out),
            _ => return false,
        }
        true
    }

    /// The commands that set up or take back the game.
    fn cecp_game_command(&mut self, command: CecpCommand, out: &mut Vec<String>) {
        match command {
            CecpCommand::New => {
                self.reveal = None;
                self.core.set_variant(Variant::DEFAULT);
                self.cecp.chess = true;
                self.cecp.force = false;
                self.cecp.engine_side = Side::Black;
                self.cecp.clock = Clock::default();
                self.reset_turn_state();
            }
            CecpCommand::Variant(name) => match Variant::from_name(&name) {
                Some(v) => {
                    self.reveal = None;
                    self.core.set_variant(v);
                    self.cecp.chess = false;
                    self.reset_turn_state();
                    match self.cecp_refusal() {
                        Some(reason) => Self::refuse(&reason, format!("variant {name}"), true, out),
                        None => out.extend(setup_lines(v)),
                    }
                }
                None => Self::cecp_error(out, "unknown variant", format!("variant {name}")),
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
            // The other commands are not of this group (`cecp_command` sorts them).
            _ => {}
        }
    }

    /// The commands that play turns: the engine's and the opponent's moves.
    fn cecp_turn_command(&mut self, command: CecpCommand, out: &mut Vec<String>) {
        match command {
            CecpCommand::Go => {
                self.cecp.force = false;
                match &self.cecp.plies {
                    // Mid-turn, `go` asks for the ply XBoard is waiting for.
                    Plies::Received {
                        partial,
                        p2_seen: false,
                    } => {
                        emit_ply(out, &plies::answer_p2(self.core.game(), partial));
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
                    self.cecp.own_move = None;
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
            // The other commands are not of this group (`cecp_command` sorts them).
            _ => {}
        }
    }

    /// The clock and limit commands, and those Quill accepts and ignores.
    fn cecp_clock_command(&mut self, command: CecpCommand, out: &mut Vec<String>) {
        match command {
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
            CecpCommand::Time(cs) => {
                self.cecp.clock.left_ms = Some((cs.max(0) as u64).saturating_mul(10));
            }
            CecpCommand::Memory(mib) => {
                if let Err(e) = self.core.set_hash(mib) {
                    Self::cecp_error(out, e, format!("memory {mib}"));
                }
            }
            // The other commands are not of this group (`cecp_command` sorts them).
            _ => {}
        }
    }

    /// Thinking output, analysis, options, hints, highlights, the board and perft.
    fn cecp_tool_command(&mut self, command: CecpCommand, out: &mut Vec<String>) {
        match command {
            CecpCommand::Ping(n) => emit(out, EngineLine::Pong(n)),
            CecpCommand::Post => self.cecp.post = true,
            CecpCommand::NoPost => self.cecp.post = false,
            CecpCommand::Analyze => {
                self.cecp.analyze = true;
                self.cecp_analyze(out);
            }
            CecpCommand::Exit => self.cecp.analyze = false,
            // Outside analysis `.` has no answer.
            CecpCommand::Dot if self.cecp.analyze => emit(out, self.stat01()),
            CecpCommand::Hint if self.secret() => Self::cecp_error(
                out,
                "no hint in commit–reveal mode: it would show the move",
                "hint",
            ),
            CecpCommand::Hint => {
                let job = Job::Think {
                    side: self.cecp_side(),
                    allowed: Vec::new(),
                    limits: self.cecp.clock.limits(),
                };
                self.start(job, Purpose::CecpHint, out);
            }
            // `egtpath quill PATH`: the Apocalypse tablebase (tablebase.md); other types ignored.
            CecpCommand::EgtPath(text) => {
                if let Some(path) = text.strip_prefix("quill ")
                    && let Err(e) = self.core.set_option("TablebasePath", Some(path))
                {
                    Self::cecp_error(out, e, format!("egtpath {text}"));
                }
            }
            CecpCommand::Option { name, value } => {
                if let Err(e) = self.core.set_option(&name, value.as_deref()) {
                    let shown = match &value {
                        Some(v) => format!("option {name}={v}"),
                        None => format!("option {name}"),
                    };
                    Self::cecp_error(out, e, shown);
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
                    emit(out, EngineLine::Highlight(board));
                }
            }
            CecpCommand::Display => out.extend(self.core.display()),
            CecpCommand::Help => out.extend(super::help_lines(CECP_HELP, "# ")),
            CecpCommand::Perft(depth) => match super::core::check_perft_depth(depth) {
                Ok(depth) => {
                    self.perft_depth = depth;
                    self.start(Job::Perft(depth), Purpose::Perft, out);
                }
                Err(e) => Self::cecp_error(out, e, format!("perft {depth}")),
            },
            // The other commands are not of this group (`cecp_command` sorts them).
            _ => {}
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
        self.cecp.own_move = None;
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
            return illegal(out, "a joint turn in an alternating game", &turn);
        };
        let game = self.core.game();
        let before = std::mem::take(&mut self.cecp.plies);
        let checked = match &before {
            Plies::Idle => plies::read_p1(game, mv).map(|partial| {
                if !self.cecp.force {
                    emit_ply(out, &plies::answer_p2(game, &partial));
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
                    emit_ply(out, p3);
                    let turn = turn.clone();
                    return self.finish_own_turn(&turn, out);
                }
                Err(e) => Err(e),
            },
        };
        match checked {
            Ok(next) => self.cecp.plies = next,
            Err(e) => {
                illegal(out, e, plies::shown(mv));
                self.cecp.plies = before;
            }
        }
    }

    /// Plays the engine's own whole turn once XBoard has been shown all of it.
    fn finish_own_turn(&mut self, turn: &WireMove, out: &mut Vec<String>) {
        match self.core.play(&Turn::Single(turn.clone())) {
            Ok(_) => {
                if let Some(outcome) = self.core.game().outcome() {
                    emit(out, result_line(&outcome));
                }
            }
            Err(e) => log::error!("the engine chose a turn its own rules refuse: {e}"),
        }
    }

    /// Why a revealed pair cannot be this turn's: its half for the engine's side is not the
    /// move the engine sent (or committed to) for it.
    fn revealed_mismatch(&self, turn: &Turn) -> Option<String> {
        let (Some(own), Turn::Joint(w, b)) = (&self.cecp.own_move, turn) else {
            return None;
        };
        let side = self.cecp.engine_side;
        let half = match side {
            Side::White => w,
            Side::Black => b,
        };
        (half != own).then(|| {
            format!(
                "the engine played {own} for {} this turn, not {half}",
                side.word()
            )
        })
    }

    fn cecp_turn(&mut self, turn: Turn, out: &mut Vec<String>) {
        if let Some(reason) = self.revealed_mismatch(&turn) {
            return illegal(out, reason, &turn);
        }
        if self.reveal.is_some() && matches!(turn, Turn::Joint(..)) {
            // The pair is known: a reveal still owed is now moot.
            self.reveal = None;
        }
        match self.core.play(&turn) {
            Ok(penalties) => {
                for p in penalties {
                    let text = format!("penalty for {}: {} ({})", p.side.word(), p.mv, p.reason);
                    emit(out, EngineLine::Comment(text));
                }
                self.reset_turn_state();
                if let Some(outcome) = self.core.game().outcome() {
                    emit(out, result_line(&outcome));
                } else if self.cecp.analyze {
                    self.cecp_analyze(out);
                } else if !self.cecp.force {
                    self.cecp_move(out);
                }
            }
            Err(e) => illegal(out, e, &turn),
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

    /// The answer to `.` in analysis: `stat01: TIME NODES DEPTH MVLEFT MVTOT`, with the time
    /// since the analysis started and the last completed iteration's depth and nodes (Quill
    /// does not track its way through the root moves: MVLEFT is 0, MVTOT the legal moves).
    fn stat01(&self) -> EngineLine {
        let (cs, depth, nodes) = match self.cecp.progress {
            Some((started, depth, nodes)) => (started.elapsed().as_millis() / 10, depth, nodes),
            None => (0, 0, 0),
        };
        let total = self.core.game().legal_moves(self.cecp_side()).len();
        EngineLine::Stat01 {
            time: u64::try_from(cs).unwrap_or(u64::MAX),
            nodes,
            depth,
            left: 0,
            total: u32::try_from(total).unwrap_or(u32::MAX),
        }
    }

    /// Sends the engine's move once its worker has chosen it.
    pub(super) fn cecp_finished(&mut self, choice: Option<Choice>, out: &mut Vec<String>) {
        let Some(choice) = choice else {
            return;
        };
        let post = self.cecp.post;
        self.cecp_thinking(&choice, post && !self.already_shown(&choice), out);
        // What a commitment kept back comes with the opening.
        let mut details = Vec::new();
        if post && self.secret() {
            self.thinking_lines(&choice, false, &mut details);
        }
        self.cecp.clock.moves += 1;
        let alternating = self.core.game().side_to_move().is_some();
        self.cecp.answered = !alternating;
        if !alternating {
            self.cecp.own_move = Some(choice.mv.clone());
        }
        let lines = self.deliver(
            &choice.mv,
            |mv, nonce| {
                let mut lines = Vec::new();
                if !nonce.is_empty() {
                    lines.extend(details.iter().cloned());
                    lines.push(
                        EngineLine::Reveal {
                            mv: mv.clone(),
                            nonce: nonce.to_owned(),
                        }
                        .to_string(),
                    );
                }
                lines.push(EngineLine::Move(CecpMove::Wire(mv.clone())).to_string());
                lines
            },
            |digest| EngineLine::Commit(digest.to_owned()).to_string(),
        );
        if alternating && self.in_plies() {
            // XBoard is shown the turn in plies: P1 now, P3 once the opponent's P2 arrives.
            if let Some((p1, p3)) = plies::split(self.core.game(), &choice.mv) {
                emit_ply(out, &p1);
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

    /// The thinking line (and, in a sealed game, the strategy comment), when `show`; while
    /// a sealed move must stay secret, only a comment with depth, nodes and time.
    pub(super) fn cecp_thinking(&self, choice: &Choice, show: bool, out: &mut Vec<String>) {
        if show {
            self.thinking_lines(choice, self.secret(), out);
        }
    }

    fn thinking_lines(&self, choice: &Choice, secret: bool, out: &mut Vec<String>) {
        let (depth, cs, nodes) = (choice.depth, choice.micros / 10_000, choice.nodes);
        if secret {
            let text = format!("depth {depth} nodes {nodes} time {cs}");
            return emit(out, EngineLine::Comment(text));
        }
        let pv = Pv::Turns(super::uci::pv_turns(choice));
        // XBoard's mate convention: 100000 + N for a mate in N, -100000 - N when mated.
        let score = match choice.score {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n > 0 => 100_000 + i64::from(n),
            Score::Mate(n) => -100_000 + i64::from(n),
        };
        let thinking = Thinking {
            depth,
            score,
            time: cs,
            nodes,
            pv,
        };
        emit(out, EngineLine::Thinking(thinking));
        if self.core.game().side_to_move().is_none() {
            emit(out, EngineLine::Strategy(choice.strategy.clone()));
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
    let mut lines = vec![EngineLine::Setup(format!(
        "({}) {}x{}+{} {}",
        variant.piece_to_char(),
        g.files(),
        g.ranks(),
        variant.xboard_parent(),
        six.join(" ")
    ))];
    lines.extend(
        variant
            .betza()
            .iter()
            .map(|(p, b)| EngineLine::Piece(format!("{p}& {b}"))),
    );
    lines.iter().map(ToString::to_string).collect()
}

/// Writes one engine line into the output.
fn emit(out: &mut Vec<String>, line: EngineLine) {
    out.push(line.to_string());
}

/// Refuses a move: `Illegal move (REASON): MOVE`.
fn illegal(out: &mut Vec<String>, reason: impl std::fmt::Display, mv: impl std::fmt::Display) {
    emit(
        out,
        EngineLine::IllegalMove {
            reason: Some(reason.to_string()),
            mv: mv.to_string(),
        },
    );
}

/// Sends one XBoard ply of a multi-part turn (see plies.rs) as `move PLY`.
fn emit_ply(out: &mut Vec<String>, ply: &str) {
    match CecpMove::from_token(ply) {
        Some(mv) => emit(out, EngineLine::Move(mv)),
        None => log::error!("the ply encoder made a ply that is no move: {ply}"),
    }
}

/// The result line of a finished game, `RESULT {REASON}`.
fn result_line(outcome: &crate::game::Outcome) -> EngineLine {
    let result = match outcome.winner {
        Some(Side::White) => GameResult::WhiteWins,
        Some(Side::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    };
    EngineLine::Result {
        result,
        comment: Some(outcome.reason.clone()),
    }
}
