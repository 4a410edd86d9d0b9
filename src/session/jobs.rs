//! The session's searches: starting a job on the worker, its progress reports, halting it
//! and turning its answer into lines.

use super::worker::{self, Job, Worker};
use super::{Purpose, Session, core, uci};

impl Session {
    /// A search's progress report, shown as the dialect and the search's purpose want.
    pub(super) fn progress(&mut self, id: u64, choice: &crate::player::Choice) -> Vec<String> {
        let mut out = Vec::new();
        if let Some((worker, purpose)) = &self.worker
            && worker.id() == id
        {
            if let Some((_, depth, nodes)) = &mut self.cecp.progress {
                (*depth, *nodes) = (choice.depth, choice.nodes);
            }
            if !self.secret() {
                self.reported = Some((choice.depth, choice.nodes));
            }
            match purpose {
                Purpose::UciGo { .. } => out.push(uci::info_line(choice, self.secret())),
                Purpose::CecpMove | Purpose::CecpAnalyze => {
                    let show = self.cecp.post || *purpose == Purpose::CecpAnalyze;
                    self.cecp_thinking(choice, show, &mut out);
                }
                Purpose::CecpHint | Purpose::Perft => {}
            }
        }
        out
    }

    /// Starts a job on a worker thread; its answer comes when it finishes (or is halted).
    pub(super) fn start(&mut self, mut job: Job, purpose: Purpose, out: &mut Vec<String>) {
        self.next_worker += 1;
        if let Job::Think { limits, .. } = &mut job {
            limits.contempt = self.core.contempt();
            limits.builtin_tables = self.core.builtin_tables();
        }
        match Worker::start(
            self.next_worker,
            job,
            self.core.game().clone(),
            self.core.history_keys(),
            self.core.rng(),
            self.core.table(),
            self.core.sealed_table(),
            self.events.clone(),
        ) {
            Ok(worker) => {
                self.worker = Some((worker, purpose));
                self.cecp.progress = Some((std::time::Instant::now(), 0, 0));
                self.reported = None;
            }
            Err(e) => out.push(self.error_line(&format!("cannot start a thread: {e}"))),
        }
    }

    /// Stops a running worker, waits for it, and answers for it (`deliver`) or drops its
    /// answer; in UCI also releases a held bestmove. Every command that changes state calls
    /// this first, so answers always come in order.
    pub(super) fn halt(&mut self, deliver: bool, out: &mut Vec<String>) {
        if let Some((worker, _)) = &self.worker {
            worker.stop();
            self.collect(true, deliver, out);
        }
        if let Some(choice) = self.uci.held.take() {
            self.uci_answer(&choice, out);
        }
        if std::mem::take(&mut self.uci.held_none) {
            out.push(uci::no_move());
        }
    }

    /// Whether the move being chosen must stay secret until it is opened: commit–reveal
    /// mode in a sealed game. Nothing printed before the opening may then show a line, a
    /// strategy or a score.
    pub(super) fn secret(&self) -> bool {
        self.core.commit_mode() && self.core.game().side_to_move().is_none()
    }

    /// Whether `choice`'s analysis was already shown as the search's last iteration.
    pub(super) fn already_shown(&self, choice: &crate::player::Choice) -> bool {
        self.reported == Some((choice.depth, choice.nodes))
    }

    /// Joins the worker and turns its result into lines.
    pub(super) fn collect(&mut self, stopped: bool, deliver: bool, out: &mut Vec<String>) {
        let Some((worker, purpose)) = self.worker.take() else {
            return;
        };
        let Some(outcome) = worker.join() else {
            out.push(self.error_line("the search failed"));
            return;
        };
        match outcome {
            worker::Found::Perft(Some(divide)) => {
                if deliver {
                    let depth = match purpose {
                        Purpose::Perft => self.perft_depth,
                        _ => 0,
                    };
                    out.extend(
                        core::PerftDivide {
                            depth,
                            split: divide,
                        }
                        .lines(),
                    );
                }
            }
            worker::Found::Perft(None) => {
                if deliver {
                    out.push(self.comment_line("perft stopped"));
                }
            }
            worker::Found::Think(choice, rng) => {
                self.core.set_rng(rng);
                match purpose {
                    Purpose::UciGo { hold } => self.uci_finished(choice, hold && !stopped, out),
                    Purpose::CecpMove if deliver => self.cecp_finished(choice, out),
                    Purpose::CecpHint if deliver => {
                        if let Some(c) = choice {
                            out.push(crate::protocol::cecp::EngineLine::Hint(c.mv).to_string());
                        }
                    }
                    Purpose::CecpAnalyze if deliver => {
                        if let Some(c) = choice {
                            self.cecp_thinking(&c, !self.already_shown(&c), out);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}
