//! The root of the simultaneous search: iterative deepening, the strategy played, and the
//! positions of `quill bench`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::clock::Clock;
use super::oracle::Cells;
use super::{Analysis, FULL, JointTable, SealedRules, Searcher, SharedProbe, Solved};
use crate::choice::Choice;
use crate::notation::WireMove;
use crate::rng::Rng;
use crate::search::Limits;
use crate::variant::Side;

/// The deepest iteration of the sealed search, whatever depth is asked for (its recursion
/// and its output stay bounded).
pub(crate) const MAX_DEPTH: u32 = 64;

/// Searches `pos` by iterative deepening until a limit or `stop`, White restricted to
/// `white_only` and Black to `black_only` when those are not empty. `None` when the game is
/// over or a side has no move left. Depth 1 is always completed; `report` hears about every
/// completed iteration. The game's probe ([`SealedRules::shared_probe`]) is consulted.
pub fn analyse<G: SealedRules>(
    pos: &G,
    white_only: &[G::Move],
    black_only: &[G::Move],
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Analysis<G::Move>),
) -> Option<Analysis<G::Move>> {
    let mut limits = limits;
    let probe = ready_probe(pos, &mut limits, stop);
    let mut s = Searcher::new(limits, stop);
    if let Some(p) = &probe {
        s = s.with_probe(p.as_ref());
    }
    s.analyse(pos, white_only, black_only, report)
}

/// The game's probe ([`SealedRules::shared_probe`]) made ready for a search from `pos`
/// ([`super::Probe::prepare`]): it may wait for at most half of `limits.time` (and never past
/// `stop`), and the time it waited is taken from `limits.time`.
fn ready_probe<G: SealedRules>(
    pos: &G,
    limits: &mut Limits,
    stop: &AtomicBool,
) -> Option<SharedProbe<G>> {
    let probe = G::shared_probe(limits.builtin_tables)?;
    let began = Instant::now();
    probe.prepare(pos, limits.time.map(|t| began + t / 2), stop);
    if let Some(t) = &mut limits.time {
        *t = t.saturating_sub(began.elapsed());
    }
    Some(probe)
}

/// Both sides' move lists of a node.
type MoveLists<G> = (Vec<<G as SealedRules>::Move>, Vec<<G as SealedRules>::Move>);

/// The root's moves of both sides, each restricted to its `only` list when that is not
/// empty; `None` when the game is over or a side is left without a move.
fn root_moves<G: SealedRules>(
    pos: &G,
    white_only: &[G::Move],
    black_only: &[G::Move],
) -> Option<MoveLists<G>> {
    if pos.terminal().is_some() {
        return None;
    }
    let (mut white, mut black) = (Vec::new(), Vec::new());
    pos.moves(Side::White, &mut white);
    pos.moves(Side::Black, &mut black);
    if !white_only.is_empty() {
        white.retain(|m| white_only.contains(m));
    }
    if !black_only.is_empty() {
        black.retain(|m| black_only.contains(m));
    }
    (!white.is_empty() && !black.is_empty()).then_some((white, black))
}

/// The root's moves, most likely first, and the supports that seed the next iteration.
struct RootLines<M> {
    white: Vec<M>,
    black: Vec<M>,
    seed_w: Vec<usize>,
    seed_b: Vec<usize>,
}

impl<G: SealedRules> Searcher<'_, G> {
    /// [`analyse`] with this searcher (and its table).
    pub fn analyse(
        &mut self,
        pos: &G,
        white_only: &[G::Move],
        black_only: &[G::Move],
        report: &mut dyn FnMut(&Analysis<G::Move>),
    ) -> Option<Analysis<G::Move>> {
        let (white, black) = root_moves(pos, white_only, black_only)?;
        self.started = Instant::now();
        self.aborted = false;
        // Inside the tablebase: the equilibrium of the root's matrix game over the table's
        // exact values, without a search.
        if let Some(found) = self.table_root(pos, &white, &black) {
            report(&found);
            return Some(found);
        }
        let mut lines = RootLines {
            white,
            black,
            seed_w: vec![0],
            seed_b: vec![0],
        };
        let mut found = self.deepen(pos, &mut lines, report)?;
        found.stats = self.stats();
        found.micros = self.started.elapsed().as_micros() as u64;
        Some(found)
    }

    /// The iterations, deeper and deeper until a limit: the last answer.
    fn deepen(
        &mut self,
        pos: &G,
        lines: &mut RootLines<G::Move>,
        report: &mut dyn FnMut(&Analysis<G::Move>),
    ) -> Option<Analysis<G::Move>> {
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut found: Option<Analysis<G::Move>> = None;
        let mut clock = Clock::default();
        for depth in 1..=max_depth {
            self.can_abort = depth > 1;
            let began = self.started.elapsed();
            let seeds = (&lines.seed_w[..], &lines.seed_b[..]);
            let Some(solved) = self.root(pos, depth, &lines.white, &lines.black, seeds) else {
                if let Some(prev) = found.as_mut() {
                    self.use_partial(pos, depth, lines, prev);
                }
                break;
            };
            clock.completed(self.started.elapsed() - began);
            let analysis = self.completed(pos, depth, &solved, lines);
            report(&analysis);
            let decided = analysis.value <= 0.0 || analysis.value >= 1.0;
            found = Some(analysis);
            if decided || (lines.white.len() == 1 && lines.black.len() == 1) {
                break;
            }
            if let Some(budget) = self.deadline()
                && !self.limits.exact
                && !clock.worth_starting(self.started.elapsed(), budget)
            {
                break;
            }
        }
        found
    }

    /// The analysis of a completed iteration; reorders the root's moves (most likely first)
    /// and takes the supports as the next iteration's seed.
    fn completed(
        &mut self,
        pos: &G,
        depth: u32,
        solved: &Solved,
        lines: &mut RootLines<G::Move>,
    ) -> Analysis<G::Move> {
        let (ws, bs) = (
            strategy(&solved.rows, &lines.white),
            strategy(&solved.cols, &lines.black),
        );
        lines.seed_w = order(&solved.rows, &mut lines.white);
        lines.seed_b = order(&solved.cols, &mut lines.black);
        let pv = self.line(pos, (ws[0].0, bs[0].0), depth);
        Analysis {
            depth,
            value: solved.value,
            white: ws,
            black: bs,
            pv,
            stats: self.stats(),
            micros: self.started.elapsed().as_micros() as u64,
            partial: false,
        }
    }

    /// A stopped iteration: its last restricted game, if it got that far, is a deeper answer
    /// over the previous supports than the previous iteration's, and replaces it in `prev`.
    fn use_partial(
        &mut self,
        pos: &G,
        depth: u32,
        lines: &RootLines<G::Move>,
        prev: &mut Analysis<G::Move>,
    ) {
        if let Some(part) = self.partial.take() {
            let ws = strategy(&part.rows, &lines.white);
            let bs = strategy(&part.cols, &lines.black);
            prev.pv = self.line(pos, (ws[0].0, bs[0].0), depth);
            (prev.white, prev.black, prev.value) = (ws, bs, part.value);
            prev.partial = true;
        }
    }
}

/// Puts the support's moves first (most likely first), the rest after in their order, and
/// returns the support's new indices.
fn order<M: Copy + PartialEq>(sup: &[(usize, f64)], moves: &mut Vec<M>) -> Vec<usize> {
    let mut front: Vec<M> = sup.iter().map(|&(i, _)| moves[i]).collect();
    let support = front.len();
    front.extend(
        moves
            .iter()
            .filter(|m| !sup.iter().any(|&(i, _)| moves[i] == **m)),
    );
    *moves = front;
    (0..support).collect()
}

/// A support as moves with probabilities summing to 1.
fn strategy<M: Copy>(sup: &[(usize, f64)], moves: &[M]) -> Vec<(M, f64)> {
    let total: f64 = sup.iter().map(|p| p.1).sum();
    sup.iter().map(|&(i, p)| (moves[i], p / total)).collect()
}

/// Chooses `side`'s move in `pos` (restricted to `allowed` when it is not empty): searches,
/// then samples the root strategy with `rng`. `progress` hears about each completed
/// iteration, with the most likely move in place of a sampled one. A fresh table of the
/// default size: the result depends on the position alone.
pub fn choose<G: SealedRules>(
    pos: &G,
    side: Side,
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    rng: &mut Rng,
    progress: &mut dyn FnMut(Choice),
) -> Option<Choice> {
    let mut table = JointTable::default();
    choose_with_table(pos, side, allowed, limits, stop, rng, &mut table, progress)
}

/// [`choose`] with a table kept between searches (a session's, sized by `Hash`).
#[allow(clippy::too_many_arguments)]
pub fn choose_with_table<G: SealedRules>(
    pos: &G,
    side: Side,
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    rng: &mut Rng,
    table: &mut JointTable<G::Move>,
    progress: &mut dyn FnMut(Choice),
) -> Option<Choice> {
    let mut own = Vec::new();
    pos.moves(side, &mut own);
    if !allowed.is_empty() {
        own.retain(|&m| allowed.contains(&G::wire(m)));
        if own.is_empty() {
            return None;
        }
    }
    let (white_only, black_only): (&[G::Move], &[G::Move]) = match side {
        Side::White => (&own, &[]),
        Side::Black => (&[], &own),
    };
    let mut limits = limits;
    let probe = ready_probe(pos, &mut limits, stop);
    let mut s = Searcher::with_table(limits, stop, std::mem::take(table));
    if let Some(p) = &probe {
        s = s.with_probe(p.as_ref());
    }
    let found = s.analyse(pos, white_only, black_only, &mut |a| {
        progress(to_choice::<G>(a, side, 0));
    });
    *table = s.into_table();
    let found = found?;
    let weights: Vec<f64> = found.strategy(side).iter().map(|p| p.1).collect();
    let pick = rng.choose_weighted(&weights);
    Some(to_choice::<G>(&found, side, pick))
}

/// The [`Choice`] of an analysis for `side`, playing the `pick`-th move of its strategy.
fn to_choice<G: SealedRules>(a: &Analysis<G::Move>, side: Side, pick: usize) -> Choice {
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
        mv: G::wire(mv),
        strategy: mine.iter().map(|&(m, p)| (G::wire(m), p)).collect(),
        value,
        // A decided value that a table took part in has no known length: not a mate.
        score: crate::choice::Score::from_value(value, a.depth, a.stats.probe_hits > 0),
        nodes: a.stats.nodes,
        depth: a.depth,
        micros: a.micros,
        hashfull: a.stats.hashfull,
        tbhits: a.stats.probe_hits,
        pv: (pv.iter())
            .map(|&(w, b)| crate::notation::WireTurn::Joint(G::wire(w), G::wire(b)))
            .collect(),
    }
}

impl<G: SealedRules> Searcher<'_, G> {
    /// The root analysis of a position whose root game the probe solves exactly (a
    /// tablebase): depth 1, the exact value, the equilibrium strategies.
    fn table_root(
        &mut self,
        pos: &G,
        white: &[G::Move],
        black: &[G::Move],
    ) -> Option<Analysis<G::Move>> {
        let sol = self.probe?.root(pos, white, black)?;
        self.stats.nodes += 1;
        self.stats.probe_hits += 1;
        let support = |moves: &[G::Move], p: &[f64]| {
            let mut s: Vec<(G::Move, f64)> = moves
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
            partial: false,
        })
    }
}

impl<G: SealedRules> Searcher<'_, G> {
    /// One iteration at the root: the full double oracle, White restricted to `white` and
    /// Black to `black`, seeded with the previous iteration's supports.
    pub(super) fn root(
        &mut self,
        pos: &G,
        depth: u32,
        white: &[G::Move],
        black: &[G::Move],
        seeds: (&[usize], &[usize]),
    ) -> Option<Solved> {
        self.root_depth = depth;
        self.partial = None;
        let mut cells = Cells::new(white.len(), black.len());
        if depth == 1 {
            self.prepare_frontier(pos, (white, black));
        }
        let solved = self.double_oracle(
            pos,
            depth,
            FULL,
            (0.0, 1.0),
            (white, black),
            &mut cells,
            seeds.0,
            seeds.1,
        );
        self.root_depth = 0;
        if self.aborted {
            return None;
        }
        self.store(pos.key(), depth, &solved, white, black);
        Some(solved)
    }

    /// The principal joint line below a root pair, from the table's most likely moves.
    pub(super) fn line(
        &mut self,
        pos: &G,
        first: (G::Move, G::Move),
        depth: u32,
    ) -> Vec<(G::Move, G::Move)> {
        let mut pv = vec![first];
        let mut p = pos.joint(first.0, first.1);
        let (mut w, mut b) = (Vec::new(), Vec::new());
        for _ in 1..depth {
            if p.terminal().is_some() {
                break;
            }
            let Some(e) = self.tt.probe(p.key()) else {
                break;
            };
            p.moves(Side::White, &mut w);
            p.moves(Side::Black, &mut b);
            match (e.white, e.black) {
                (Some(mw), Some(mb)) if w.contains(&mw) && b.contains(&mb) => {
                    pv.push((mw, mb));
                    p = p.joint(mw, mb);
                }
                _ => break,
            }
        }
        pv
    }
}
