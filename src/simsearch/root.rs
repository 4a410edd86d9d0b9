//! The root of the simultaneous search: iterative deepening, the strategy played, and the
//! positions of `quill bench`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{Analysis, Searcher};
use crate::notation::WireMove;
use crate::player::Choice;
use crate::rng::Rng;
use crate::search::Limits;
use crate::variant::Side;
use crate::variants::apocalypse::{Move, Position};

/// The deepest iteration of the sealed search, whatever depth is asked for (its recursion
/// and its output stay bounded).
pub const MAX_DEPTH: u32 = 64;

/// Searches `pos` by iterative deepening until a limit or `stop`, White restricted to
/// `white_only` and Black to `black_only` when those are not empty. `None` when the game is
/// over or a side has no move left. Depth 1 is always completed; `report` hears about every
/// completed iteration.
pub fn analyse(
    pos: &Position,
    white_only: &[Move],
    black_only: &[Move],
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Analysis),
) -> Option<Analysis> {
    let mut s = Searcher::new(limits, stop);
    s.analyse(pos, white_only, black_only, report)
}

impl Searcher<'_> {
    /// [`analyse`] with this searcher (and its table).
    pub fn analyse(
        &mut self,
        pos: &Position,
        white_only: &[Move],
        black_only: &[Move],
        report: &mut dyn FnMut(&Analysis),
    ) -> Option<Analysis> {
        if pos.end().is_some() {
            return None;
        }
        let (mut white, mut black) = (Vec::new(), Vec::new());
        pos.legal_moves(Side::White, &mut white);
        pos.legal_moves(Side::Black, &mut black);
        if !white_only.is_empty() {
            white.retain(|m| white_only.contains(m));
        }
        if !black_only.is_empty() {
            black.retain(|m| black_only.contains(m));
        }
        if white.is_empty() || black.is_empty() {
            return None;
        }
        self.started = Instant::now();
        self.aborted = false;
        // Inside the tablebase: the equilibrium of the root's matrix game over the table's
        // exact values, without a search.
        if let Some(found) = self.table_root(pos, &white, &black) {
            report(&found);
            return Some(found);
        }
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut found: Option<Analysis> = None;
        let (mut seed_w, mut seed_b) = (vec![0], vec![0]);
        for depth in 1..=max_depth {
            self.can_abort = depth > 1;
            let Some(solved) = self.root(pos, depth, &white, &black, (&seed_w, &seed_b)) else {
                break;
            };
            // Next iteration: most likely moves first, the supports as the seed.
            let order = |sup: &[(usize, f64)], moves: &mut Vec<Move>| {
                let mut front: Vec<Move> = sup.iter().map(|&(i, _)| moves[i]).collect();
                let support = front.len();
                front.extend(
                    moves
                        .iter()
                        .filter(|m| !sup.iter().any(|&(i, _)| moves[i] == **m)),
                );
                *moves = front;
                (0..support).collect::<Vec<usize>>()
            };
            let strat = |sup: &[(usize, f64)], moves: &[Move]| -> Vec<(Move, f64)> {
                let total: f64 = sup.iter().map(|p| p.1).sum();
                sup.iter().map(|&(i, p)| (moves[i], p / total)).collect()
            };
            let (ws, bs) = (strat(&solved.rows, &white), strat(&solved.cols, &black));
            seed_w = order(&solved.rows, &mut white);
            seed_b = order(&solved.cols, &mut black);
            let pv = self.line(pos, (ws[0].0, bs[0].0), depth);
            let analysis = Analysis {
                depth,
                value: solved.value,
                white: ws,
                black: bs,
                pv,
                stats: self.stats(),
                micros: self.started.elapsed().as_micros() as u64,
            };
            report(&analysis);
            let decided = analysis.value <= 0.0 || analysis.value >= 1.0;
            found = Some(analysis);
            if decided || (white.len() == 1 && black.len() == 1) {
                break;
            }
            // Stop early when the next iteration clearly cannot finish in time.
            if !self.limits.exact
                && self
                    .limits
                    .time
                    .is_some_and(|t| self.started.elapsed() * 3 > t)
            {
                break;
            }
        }
        let mut found = found?;
        found.stats = self.stats();
        found.micros = self.started.elapsed().as_micros() as u64;
        Some(found)
    }
}

impl Searcher<'_> {
    /// The root analysis of a position inside the tablebase (depth 1, exact value).
    fn table_root(&mut self, pos: &Position, white: &[Move], black: &[Move]) -> Option<Analysis> {
        let sol = self
            .tables
            .get(pos.rules())?
            .solve_root(pos, white, black)?;
        self.stats.nodes += 1;
        let support = |moves: &[Move], p: &[f64]| {
            let mut s: Vec<(Move, f64)> = moves
                .iter()
                .zip(p)
                .filter(|(_, p)| **p > 0.0)
                .map(|(&m, &p)| (m, p))
                .collect();
            s.sort_by(|a, b| b.1.total_cmp(&a.1));
            s
        };
        let (ws, bs) = (support(white, &sol.rows), support(black, &sol.cols));
        Some(Analysis {
            depth: 1,
            value: sol.value,
            pv: vec![(ws.first()?.0, bs.first()?.0)],
            white: ws,
            black: bs,
            stats: self.stats(),
            micros: self.started.elapsed().as_micros() as u64,
        })
    }
}

/// Chooses `side`'s move in `pos` (restricted to `allowed` when it is not empty): searches,
/// then samples the root strategy with `rng`. `progress` hears about each completed
/// iteration, with the most likely move in place of a sampled one.
pub fn choose(
    pos: &Position,
    side: Side,
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    rng: &mut Rng,
    progress: &mut dyn FnMut(Choice),
) -> Option<Choice> {
    let mut own = Vec::new();
    pos.legal_moves(side, &mut own);
    if !allowed.is_empty() {
        own.retain(|m| allowed.contains(&m.to_wire()));
        if own.is_empty() {
            return None;
        }
    }
    let (white_only, black_only): (&[Move], &[Move]) = match side {
        Side::White => (&own, &[]),
        Side::Black => (&[], &own),
    };
    let found = analyse(pos, white_only, black_only, limits, stop, &mut |a| {
        progress(to_choice(a, side, 0));
    })?;
    let weights: Vec<f64> = found.strategy(side).iter().map(|p| p.1).collect();
    let pick = rng.choose_weighted(&weights);
    Some(to_choice(&found, side, pick))
}

/// The [`Choice`] of an analysis for `side`, playing the `pick`-th move of its strategy.
fn to_choice(a: &Analysis, side: Side, pick: usize) -> Choice {
    let mine = a.strategy(side);
    let mv = mine[pick].0;
    let mut pv = a.pv.clone();
    // The first turn shows the move played with the opponent's most likely one.
    match side {
        Side::White => pv[0].0 = mv,
        Side::Black => pv[0].1 = mv,
    }
    if pv[0] != a.pv[0] {
        pv.truncate(1);
    }
    let value = match side {
        Side::White => a.value,
        Side::Black => 1.0 - a.value,
    };
    Choice {
        mv: mv.to_wire(),
        strategy: mine.iter().map(|&(m, p)| (m.to_wire(), p)).collect(),
        value,
        score: crate::player::Score::from_value(value, a.depth),
        nodes: a.stats.nodes,
        depth: a.depth,
        micros: a.micros,
        pv: pv.iter().map(|(w, b)| format!("{w}|{b}")).collect(),
    }
}
