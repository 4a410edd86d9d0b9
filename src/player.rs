//! The move chooser: for a sealed turn, the simultaneous-move search ([`crate::simsearch`]),
//! whose root equilibrium strategy is sampled with the seeded generator; for an alternating
//! turn, the alternating search. The search core knows no protocol: it returns a typed
//! [`Choice`].

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::Game;
use crate::notation::WireMove;
use crate::rng::Rng;
use crate::search::{self, Limits, Searchable, TransTable};
use crate::simsearch::{self, JointTable};
use crate::variant::Side;
use crate::variants::apocalypse;

pub use crate::choice::{Choice, Score};

/// What a move is asked for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ask<'a> {
    /// The side to choose for (in a sealed game, whose half of the turn).
    pub(crate) side: Side,
    /// The keys of the game's positions before this one (see [`Game::search_keys`]): the
    /// alternating search scores a return to one of them as a draw.
    pub(crate) history: &'a [u64],
    /// The moves allowed, all legal ones when empty (moves outside the legal list are
    /// ignored).
    pub(crate) allowed: &'a [WireMove],
    /// When to stop.
    pub(crate) limits: Limits,
}

/// The tables a search works with.
pub(crate) enum Tables<'a> {
    /// Fresh ones of the default size, for this search alone: the result depends on the
    /// position alone, as `quill bench` needs.
    Fresh,
    /// A session's, kept between searches (sized by `Hash`).
    Kept {
        /// The alternating search's.
        alternating: &'a mut TransTable,
        /// The sealed search's.
        sealed: &'a mut JointTable,
    },
}

/// What a search thinks with, besides what it is asked.
pub(crate) struct Thinking<'a> {
    /// Set to stop the search soon.
    pub(crate) stop: &'a AtomicBool,
    /// The generator that samples a sealed root strategy.
    pub(crate) rng: &'a mut Rng,
    /// The tables.
    pub(crate) tables: Tables<'a>,
    /// Hears about each completed iteration of a deepening search.
    pub(crate) progress: &'a mut dyn FnMut(Choice),
}

/// How the positions of a variant are searched. Every alternating game has it through its
/// [`Searchable`] rules; a sealed game implements it itself.
pub(crate) trait Chooser {
    /// Chooses a move; `None` when nothing is allowed.
    fn think(&self, ask: &Ask<'_>, with: Thinking<'_>) -> Option<Choice>;
}

impl<P: Searchable> Chooser for P {
    fn think(&self, ask: &Ask<'_>, with: Thinking<'_>) -> Option<Choice> {
        let Thinking {
            stop,
            tables,
            progress,
            ..
        } = with;
        let mut fresh;
        let table = match tables {
            Tables::Fresh => {
                fresh = TransTable::default();
                &mut fresh
            }
            Tables::Kept { alternating, .. } => alternating,
        };
        search_alternating(self, ask, stop, table, progress)
    }
}

impl Chooser for apocalypse::Position {
    fn think(&self, ask: &Ask<'_>, with: Thinking<'_>) -> Option<Choice> {
        let Thinking {
            stop,
            rng,
            tables,
            progress,
        } = with;
        let Ask {
            side,
            allowed,
            limits,
            ..
        } = *ask;
        match tables {
            Tables::Fresh => simsearch::choose(self, side, allowed, limits, stop, rng, progress),
            Tables::Kept { sealed, .. } => simsearch::choose_with_table(
                self, side, allowed, limits, stop, rng, sealed, progress,
            ),
        }
    }
}

/// Chooses a move in `game` as `ask` says, within its limits or until `with.stop`, with
/// `with.tables`: in a sealed game the root strategy is sampled with `with.rng`. `None` when the game is over or
/// nothing is allowed.
///
/// `with.progress` hears about each completed iteration of a deepening search (not about the final
/// answer, which is returned).
pub(crate) fn think(game: &Game, ask: &Ask<'_>, with: Thinking<'_>) -> Option<Choice> {
    if game.outcome().is_some() {
        return None;
    }
    crate::game::each!(game, p => p.think(ask, with))
}

/// Chooses a move for `side` in `game` from no history with fresh tables ([`think`]).
pub(crate) fn choose(
    game: &Game,
    side: Side,
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    rng: &mut Rng,
    progress: &mut dyn FnMut(Choice),
) -> Option<Choice> {
    let ask = Ask {
        side,
        history: &[],
        allowed,
        limits,
    };
    let with = Thinking {
        stop,
        rng,
        tables: Tables::Fresh,
        progress,
    };
    think(game, &ask, with)
}

/// Runs the alternating search and reports it as a [`Choice`].
fn search_alternating<P: Searchable>(
    pos: &P,
    ask: &Ask<'_>,
    stop: &AtomicBool,
    table: &mut TransTable,
    progress: &mut dyn FnMut(Choice),
) -> Option<Choice> {
    let Ask {
        history,
        allowed,
        limits,
        ..
    } = *ask;
    let started = Instant::now();
    let as_choice = |found: &search::Found| Choice {
        strategy: Vec::new(),
        value: 1.0 / (1.0 + 10f64.powf(-f64::from(found.score) / 400.0)),
        score: Score::from_search(found.score),
        nodes: found.nodes,
        depth: found.depth,
        micros: started.elapsed().as_micros() as u64,
        hashfull: found.hashfull,
        tbhits: 0,
        pv: found
            .pv
            .iter()
            .cloned()
            .map(crate::notation::WireTurn::Single)
            .collect(),
        mv: found.mv.clone(),
    };
    let found = search::search(pos, history, allowed, limits, stop, table, &mut |f| {
        progress(as_choice(f));
    })?;
    Some(as_choice(&found))
}
