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
    /// The score as a protocol reports it, from the mover's side.
    pub score: Score,
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

/// A score from the mover's side, as both protocols report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An estimate in centipawns.
    Cp(i32),
    /// A forced end of the game in this many of the mover's turns: positive when the mover
    /// wins, negative when it loses. In a sealed game "forced" means with probability 1
    /// under the equilibrium strategies, within that many joint turns.
    Mate(i32),
}

impl Score {
    /// A score of the alternating search ([`search::WIN`] minus the plies to the end for a
    /// won game).
    pub fn from_search(score: i32) -> Score {
        if score.abs() < search::MATE_BOUND {
            return Score::Cp(score);
        }
        let plies = search::WIN - score.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if score > 0 { moves } else { -moves.max(1) })
    }

    /// A payoff of the sealed search (0 … 1 for the mover) decided at `depth` joint turns.
    pub fn from_value(value: f64, depth: u32) -> Score {
        let depth = i32::try_from(depth).unwrap_or(i32::MAX).max(1);
        if value >= 1.0 {
            Score::Mate(depth)
        } else if value <= 0.0 {
            Score::Mate(-depth)
        } else {
            Score::Cp(centipawns(value))
        }
    }

    /// The centipawns of a score, a won or lost game counted as ±[`search::WIN`] (for
    /// comparisons and adjudication).
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => search::WIN - n,
            Score::Mate(n) => -search::WIN - n,
        }
    }
}

/// A payoff strictly between 0 and 1 as centipawns (logistic scale, clamped to ±1600).
fn centipawns(value: f64) -> i32 {
    let v = value.clamp(1e-4, 1.0 - 1e-4);
    (400.0 * (v / (1.0 - v)).log10()).round() as i32
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
        score: Score::from_search(found.score),
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
