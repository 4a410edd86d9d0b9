//! The thread that thinks. The session hands it a copy of the position; it reports back with
//! [`SearchEvent::Finished`] through the driver's channel, and its result is taken by joining
//! it, so a session that must act at once (`stop`, `quit`, a new `position`) can always stop
//! it, wait for it and have its answer in order.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};

use super::{Input, SearchEvent};
use crate::game::Game;
use crate::notation::WireMove;
use crate::player::{self, Choice};
use crate::rng::Rng;
use crate::search::{Limits, TransTable};
use crate::simsearch;
use crate::variant::Side;

/// What a worker computes.
#[derive(Clone, Debug)]
pub(crate) enum Job {
    /// Choose a move for a side, among the allowed moves (all when empty).
    Think {
        /// The side to move for.
        side: Side,
        /// Moves the choice is restricted to.
        allowed: Vec<WireMove>,
        /// How long and deep to think.
        limits: Limits,
    },
    /// perft split by the first turn.
    Perft(u32),
}

/// What a worker found.
#[derive(Debug)]
pub(crate) enum Found {
    /// The choice (none: no allowed legal move), and the generator to continue with.
    Think(Option<Choice>, Rng),
    /// perft lines, or `None` when stopped.
    Perft(Option<Vec<(crate::notation::WireTurn, u64)>>),
}

/// A running worker.
pub(crate) struct Worker {
    id: u64,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Found>,
}

impl Worker {
    /// Starts a job on a copy of the game, with the session's transposition table (locked
    /// while the job runs) and the search keys of the game's earlier positions (`history`,
    /// see [`Game::search_keys`]); `id` tags its `Finished` event.
    ///
    /// # Errors
    /// When the operating system cannot start a thread.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start(
        id: u64,
        job: Job,
        game: Game,
        history: Vec<u64>,
        rng: Rng,
        table: Arc<Mutex<TransTable>>,
        sealed: Arc<Mutex<simsearch::JointTable>>,
        events: Sender<Input>,
    ) -> std::io::Result<Worker> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = thread::Builder::new()
            .name(format!("worker-{id}"))
            .spawn(move || {
                // A search that panicked leaves a table that is still a valid table.
                let mut table = table.lock().unwrap_or_else(PoisonError::into_inner);
                let mut sealed = sealed.lock().unwrap_or_else(PoisonError::into_inner);
                let outcome = run(
                    job,
                    &game,
                    &history,
                    rng,
                    &flag,
                    (&mut table, &mut sealed),
                    &mut |choice| {
                        let _ = events.send(Input::Search(SearchEvent::Info(id, Box::new(choice))));
                    },
                );
                // The driver may be gone (session ending): nothing to tell then.
                let _ = events.send(Input::Search(SearchEvent::Finished(id)));
                outcome
            })?;
        Ok(Worker { id, stop, handle })
    }

    /// The tag of this worker's events.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Asks the worker to stop soon.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Waits for the worker and takes its result.
    pub(crate) fn join(self) -> Option<Found> {
        match self.handle.join() {
            Ok(outcome) => Some(outcome),
            Err(_) => {
                log::error!("a worker thread panicked");
                None
            }
        }
    }
}

fn run(
    job: Job,
    game: &Game,
    history: &[u64],
    mut rng: Rng,
    stop: &AtomicBool,
    (table, sealed): (&mut TransTable, &mut simsearch::JointTable),
    progress: &mut dyn FnMut(Choice),
) -> Found {
    match job {
        Job::Think {
            side,
            allowed,
            limits,
        } => {
            let ask = player::Ask {
                side,
                history,
                allowed: &allowed,
                limits,
            };
            let tables = player::Tables::Kept {
                alternating: table,
                sealed,
            };
            let with = player::Thinking {
                stop,
                rng: &mut rng,
                tables,
                progress,
            };
            let choice = player::think(game, &ask, with);
            Found::Think(choice, rng)
        }
        Job::Perft(depth) => Found::Perft(game.perft_divide_until(depth, stop)),
    }
}
