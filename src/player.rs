//! The move chooser: for a sealed turn, the simultaneous-move search ([`crate::simsearch`]),
//! whose root equilibrium strategy is sampled with the seeded generator; for an alternating
//! turn, the alternating search. The search core knows no protocol: it returns a typed
//! [`Choice`].

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::Game;
use crate::notation::WireMove;
use crate::rng::Rng;
use crate::search::{self, Limits, Searchable, Table};
use crate::variant::Side;

/// What the player decided, with the figures a protocol reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move to play.
    pub mv: WireMove,
    /// The mixed strategy it was drawn from: each move with its probability (support only).
    pub strategy: Vec<(WireMove, f64)>,
    /// Expected payoff for the player who moves, 0 (loss) … 1 (win).
    pub value: f64,
    /// Positions evaluated.
    pub nodes: u64,
    /// Search depth in turns.
    pub depth: u32,
    /// Microseconds spent.
    pub micros: u64,
    /// The principal line as turns in `position … moves` notation (in a sealed game joint
    /// turns: this move with the opponent's most likely one, then each side's most likely).
    pub pv: Vec<String>,
}

impl Choice {
    /// The value as centipawns from the mover's side (logistic scale, clamped).
    pub fn centipawns(&self) -> i32 {
        let v = self.value.clamp(1e-4, 1.0 - 1e-4);
        (400.0 * (v / (1.0 - v)).log10()).round() as i32
    }
}

/// Chooses a move for `side` in `game`, restricted to `allowed` when it is non-empty (moves
/// outside the legal list are ignored), within `limits` or until `stop`. `None` when the game
/// is over or nothing is allowed.
///
/// `progress` hears about each completed iteration of a deepening search (not about the final
/// answer, which is returned).
pub fn choose(
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
    match game {
        Game::Apocalypse(p) => {
            crate::simsearch::choose(p, side, allowed, limits, stop, rng, progress)
        }
        // A fresh table: the result depends on the position alone, as `quill bench` needs.
        _ => choose_with_table(
            game,
            &[],
            allowed,
            limits,
            stop,
            &mut Table::default(),
            progress,
        ),
    }
}

/// Chooses a move in an alternating game like [`choose`], with a transposition table that
/// persists between searches (a game's moves). `None` as for [`choose`], and for a sealed game.
///
/// `history` holds the keys of the game's positions before `game` (see
/// [`Game::search_keys`]): the search scores a return to one of them as a draw.
pub fn choose_with_table(
    game: &Game,
    history: &[u64],
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    table: &mut Table,
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
    table: &mut Table,
    progress: &mut dyn FnMut(Choice),
) -> Option<Choice> {
    let started = Instant::now();
    let as_choice = |found: &search::Found| Choice {
        strategy: Vec::new(),
        value: 1.0 / (1.0 + 10f64.powf(-f64::from(found.score) / 400.0)),
        nodes: found.nodes,
        depth: found.depth,
        micros: started.elapsed().as_micros() as u64,
        pv: found.pv.iter().map(ToString::to_string).collect(),
        mv: found.mv.clone(),
    };
    let found = search::search(pos, history, allowed, limits, stop, table, &mut |f| {
        progress(as_choice(f));
    })?;
    Some(as_choice(&found))
}
