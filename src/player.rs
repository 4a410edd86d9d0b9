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
use crate::variant::Side;

pub use crate::choice::{Choice, Score};

/// Chooses a move for `side` in `game`, restricted to `allowed` when it is non-empty (moves
/// outside the legal list are ignored), within `limits` or until `stop`. `None` when the game
/// is over or nothing is allowed.
///
/// `progress` hears about each completed iteration of a deepening search (not about the final
/// answer, which is returned).
pub(crate) fn choose(
    game: &Game,
    side: Side,
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    rng: &mut Rng,
    progress: &mut dyn FnMut(Choice),
) -> Option<Choice> {
    if game.outcome().is_some() {
        return None;
    }
    // Alternating games get a fresh table: the result depends on the position alone, as
    // `quill bench` needs.
    let fresh = TransTable::default;
    match game {
        Game::Apocalypse(p) => {
            crate::simsearch::choose(p, side, allowed, limits, stop, rng, progress)
        }
        Game::Gladiator(p) => {
            search_alternating(p, &[], allowed, limits, stop, &mut fresh(), progress)
        }
        Game::Pagan(p) => search_alternating(p, &[], allowed, limits, stop, &mut fresh(), progress),
    }
}

/// Chooses a move in an alternating game like [`choose`], with a transposition table that
/// persists between searches (a game's moves). `None` as for [`choose`], and for a sealed game.
///
/// `history` holds the keys of the game's positions before `game` (see
/// [`Game::search_keys`]): the search scores a return to one of them as a draw.
pub(crate) fn choose_with_table(
    game: &Game,
    history: &[u64],
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    table: &mut TransTable,
    progress: &mut dyn FnMut(Choice),
) -> Option<Choice> {
    if game.outcome().is_some() {
        return None;
    }
    match game {
        Game::Apocalypse(_) => None,
        Game::Gladiator(p) => {
            search_alternating(p, history, allowed, limits, stop, table, progress)
        }
        Game::Pagan(p) => search_alternating(p, history, allowed, limits, stop, table, progress),
    }
}

/// Runs the alternating search and reports it as a [`Choice`].
fn search_alternating<P: Searchable>(
    pos: &P,
    history: &[u64],
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    table: &mut TransTable,
    progress: &mut dyn FnMut(Choice),
) -> Option<Choice> {
    let started = Instant::now();
    let as_choice = |found: &search::Found| Choice {
        strategy: Vec::new(),
        value: 1.0 / (1.0 + 10f64.powf(-f64::from(found.score) / 400.0)),
        score: Score::from_search(found.score),
        nodes: found.nodes,
        depth: found.depth,
        micros: started.elapsed().as_micros() as u64,
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
