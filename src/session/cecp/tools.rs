//! Thinking output and analysis (`post`, `analyze`, `.`, `hint`), and the tools: options,
//! `exclude`, `lift`, the board, `help`, perft.

use super::features::CECP_HELP;
use super::{emit, emit_ply};
use crate::notation::WireMove;
use crate::player::{Choice, Score};
use crate::protocol::cecp::{CecpCommand, CecpMove, EngineLine, ExcludeTarget, Pv, Thinking};
use crate::search::Limits;
use crate::session::plies::{self, Plies};
use crate::session::worker::Job;
use crate::session::{Purpose, Session};

impl Session {
    /// Thinking output, analysis and hints.
    pub(in crate::session) fn cecp_thinking_command(
        &mut self,
        command: CecpCommand,
        out: &mut Vec<String>,
    ) {
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
            // The other commands are not of this group (`cecp_command` sorts them).
            _ => {}
        }
    }

    /// Options, exclusions, highlights, the board, help and perft.
    pub(in crate::session) fn cecp_tool_command(
        &mut self,
        command: CecpCommand,
        out: &mut Vec<String>,
    ) {
        match command {
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
            CecpCommand::Help => out.extend(crate::session::help_lines(CECP_HELP, "# ")),
            CecpCommand::Perft(depth) => match crate::session::core::check_perft_depth(depth) {
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

    /// The answer to `.` in analysis: `stat01: TIME NODES DEPTH MVLEFT MVTOT`, with the time
    /// since the analysis started and the last completed iteration's depth and nodes (Quill
    /// does not track its way through the root moves: MVLEFT is 0, MVTOT the legal moves).
    pub(in crate::session) fn stat01(&self) -> EngineLine {
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
    pub(in crate::session) fn cecp_finished(
        &mut self,
        choice: Option<Choice>,
        out: &mut Vec<String>,
    ) {
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
            details,
            |mv, nonce| {
                EngineLine::Reveal {
                    mv: mv.clone(),
                    nonce: nonce.to_owned(),
                }
                .to_string()
            },
            |mv| EngineLine::Move(CecpMove::Wire(mv.clone())).to_string(),
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
    pub(in crate::session) fn cecp_thinking(
        &self,
        choice: &Choice,
        show: bool,
        out: &mut Vec<String>,
    ) {
        if show {
            self.thinking_lines(choice, self.secret(), out);
        }
    }

    pub(in crate::session) fn thinking_lines(
        &self,
        choice: &Choice,
        secret: bool,
        out: &mut Vec<String>,
    ) {
        let (depth, cs, nodes) = (choice.depth, choice.micros / 10_000, choice.nodes);
        if secret {
            let text = format!("depth {depth} nodes {nodes} time {cs}");
            return emit(out, EngineLine::Comment(text));
        }
        let pv = Pv::Turns(crate::session::uci::pv_turns(choice));
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

    pub(in crate::session) fn cecp_analyze(&mut self, out: &mut Vec<String>) {
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
