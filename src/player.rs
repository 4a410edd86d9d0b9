//! The move chooser of the foundation: for a sealed turn, the exact equilibrium of the one-turn
//! matrix game (payoff: resolve each joint move and evaluate the result), sampled with the
//! seeded generator. The search core knows no protocol: it returns a typed [`Choice`].

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::Game;
use crate::notation::WireMove;
use crate::rng::Rng;
use crate::search::{self, Limits, Searchable, Table};
use crate::solver::Solver;
use crate::variant::Side;
use crate::variants::apocalypse::{End, Move, Position};

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
    /// The principal line as turns in `position … moves` notation (in a sealed game one
    /// joint turn: this move with the opponent's most likely one).
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
        Game::Apocalypse(p) => choose_sealed(p, side, allowed, rng),
        Game::Gladiator(p) => choose_alternating(p, allowed, limits, stop, progress),
        Game::Pagan(p) => choose_alternating(p, allowed, limits, stop, progress),
    }
}

/// Runs the alternating search with a fresh transposition table (so that the result depends
/// on the position alone, as `quill bench` needs).
fn choose_alternating<P: Searchable>(
    pos: &P,
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Choice),
) -> Option<Choice> {
    search_alternating(pos, allowed, limits, stop, &mut Table::default(), progress)
}

/// Chooses a move in an alternating game like [`choose`], with a transposition table that
/// persists between searches (a game's moves). `None` as for [`choose`], and for a sealed game.
pub fn choose_with_table(
    game: &Game,
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
        Game::Gladiator(p) => search_alternating(p, allowed, limits, stop, table, progress),
        Game::Pagan(p) => search_alternating(p, allowed, limits, stop, table, progress),
    }
}

/// Runs the alternating search and reports it as a [`Choice`].
fn search_alternating<P: Searchable>(
    pos: &P,
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
    let found = search::search(pos, allowed, limits, stop, table, &mut |f| {
        progress(as_choice(f));
    })?;
    Some(as_choice(&found))
}

/// Static evaluation of an Apocalypse position for White, 0 … 1.
pub fn evaluate(p: &Position) -> f64 {
    match p.end() {
        Some(End::Win(Side::White, _)) => 1.0,
        Some(End::Win(Side::Black, _)) => 0.0,
        Some(End::Draw(_)) => 0.5,
        None => {
            let material = |s: Side| {
                f64::from(p.footmen(s).count_ones()) + 1.25 * f64::from(p.horsemen(s).count_ones())
                    - 1.5 * f64::from(p.penalties(s))
                    + 0.05 * f64::from(p.footman_advance(s))
                    + 0.02 * f64::from(p.horseman_mobility(s))
            };
            let d = material(Side::White) - material(Side::Black);
            1.0 / (1.0 + (-0.8 * d).exp())
        }
    }
}

fn choose_sealed(p: &Position, side: Side, allowed: &[WireMove], rng: &mut Rng) -> Option<Choice> {
    let started = Instant::now();
    let (mut white, mut black) = (Vec::new(), Vec::new());
    p.legal_moves(Side::White, &mut white);
    p.legal_moves(Side::Black, &mut black);
    let own = if side == Side::White {
        &mut white
    } else {
        &mut black
    };
    if !allowed.is_empty() {
        own.retain(|m| allowed.contains(&m.to_wire()));
    }
    if white.is_empty() || black.is_empty() {
        return None;
    }
    let mut payoff = Vec::with_capacity(white.len() * black.len());
    for &w in &white {
        for &b in &black {
            payoff.push(evaluate(&p.resolve(Ok(w), Ok(b))));
        }
    }
    let nodes = payoff.len() as u64;
    let solution = Solver::default()
        .solve(&payoff, white.len(), black.len())
        .clone();
    let (mine, theirs, mine_moves, their_moves): (&[f64], &[f64], &[Move], &[Move]) = match side {
        Side::White => (&solution.rows, &solution.cols, &white, &black),
        Side::Black => (&solution.cols, &solution.rows, &black, &white),
    };
    let pick = rng.choose_weighted(mine);
    let reply = theirs
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, _)| their_moves[i]);
    let joint = |reply: Move| match side {
        Side::White => format!("{}|{reply}", mine_moves[pick]),
        Side::Black => format!("{reply}|{}", mine_moves[pick]),
    };
    let strategy = mine_moves
        .iter()
        .zip(mine)
        .filter(|(_, p)| **p > 1e-9)
        .map(|(m, p)| (m.to_wire(), *p))
        .collect();
    let value = match side {
        Side::White => solution.value,
        Side::Black => 1.0 - solution.value,
    };
    Some(Choice {
        mv: mine_moves[pick].to_wire(),
        strategy,
        value,
        nodes,
        depth: 1,
        micros: started.elapsed().as_micros() as u64,
        pv: reply.map(joint).into_iter().collect(),
    })
}
