//! The simultaneous-move search of Apocalypse: depth-limited backward induction over joint
//! turns, each node valued by the equilibrium of its matrix game (payoffs 0 … 1 for White,
//! see [`eval`]).
//!
//! At every node (as in double-oracle alpha-beta, Bošanský, Lisý, Lanctot et al., AIJ 237,
//! 2016, and simultaneous-move alpha-beta, Saffidine, Finnsson & Buro, AAAI 2012):
//! 1. the transposition table may settle it (bounds stored per depth);
//! 2. two *serialized* alpha-beta searches of the same subtree give cheap bounds: with White
//!    committing first at every turn (Black replying knowing it) the value can only be lower,
//!    with Black first only higher. When the bounds meet, or leave the window, no matrix game
//!    is solved;
//! 3. otherwise a *double oracle* solves a restricted matrix game exactly ([`Solver`]),
//!    starting from each side's best serialized (or table) move, and adds each side's best
//!    response to the other's restricted strategy until neither improves. Best responses
//!    are searched with thresholds passed down as alpha-beta windows: a cell only has to be
//!    known well enough to show that its row (column) cannot beat the best response so far.
//!    Their values also bound the node's value, which gives the alpha-beta cut-offs.
//!
//! The root is searched by iterative deepening; each iteration seeds its restricted game with
//! the previous iteration's supports. An iteration stopped by the clock still answers when
//! its root had solved a restricted game (`Analysis::partial`). The root strategy of the
//! side Quill plays is sampled with the session's seeded generator.
//!
//! **The game** is any `SealedRules` (joint moves, resolution, terminal value, key and the
//! static evaluation hook); Apocalypse's [`Position`] implements it in `rules.rs`, its
//! evaluation is [`eval`].
//!
//! **The table** ([`JointTable`]) is sized in MiB by the session's `Hash` and kept between moves
//! ([`choose_with_table`]); a one-off search ([`choose`], `quill bench`) has its own.
//!
//! **Tablebase probe point.** `Searcher::with_probe` takes a `Probe`: given a position it
//! may return its exact value for White. It is consulted at every node below the root, right
//! after the finished-game check and before the depth test, so a probed node is exact at any
//! depth (a leaf is never evaluated statically) and its value goes into the parent's matrix
//! game; with every child of the root probed, one turn of search gives the exact root
//! equilibrium (tested). A tablebase implements `Probe<Position>` (answering only for the
//! positions it holds, both rule sets, penalty points included, as [`key`] does) and the
//! caller passes it in; the root itself is not probed, so the search still produces a root
//! strategy.

pub mod endgame;
pub mod eval;
mod root;
mod rules;
mod tt;

#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::search::Limits;
use crate::solver::Solver;
use crate::variant::Side;
use crate::variants::apocalypse::{Move, Position};

pub use root::{analyse, choose, choose_with_table};
pub(crate) use rules::{Probe, SealedRules};
pub use tt::{JointTable, key};

/// A window wide enough that no value (all lie in 0 … 1) falls outside it.
const FULL: (f64, f64) = (-1.0, 2.0);
/// How much a best response must gain to enter a restricted game (absorbs rounding).
const GAIN: f64 = 1e-9;
/// Bounds closer than this count as met.
const MET: f64 = 1e-12;

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited, by the matrix search and the serialized searches.
    pub nodes: u64,
    /// Matrix games solved.
    pub(crate) solves: u64,
    /// Nodes settled by their serialized bounds alone.
    pub(crate) bound_exits: u64,
    /// Transposition-table probes that found their position.
    pub(crate) tt_hits: u64,
    /// Nodes whose exact value came from the [`Probe`].
    pub(crate) probe_hits: u64,
}

/// The result of one completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M = Move> {
    /// Depth in joint turns.
    pub depth: u32,
    /// The value for White, 0 … 1.
    pub(crate) value: f64,
    /// White's root strategy (support only, most likely first).
    pub(crate) white: Vec<(M, f64)>,
    /// Black's root strategy (support only, most likely first).
    pub(crate) black: Vec<(M, f64)>,
    /// The principal joint line: each turn's most likely pair.
    pub(crate) pv: Vec<(M, M)>,
    /// Counters so far.
    pub stats: Stats,
    /// Microseconds since the search started.
    pub(crate) micros: u64,
    /// The strategies come from an iteration stopped by the clock (at `depth + 1`): the
    /// equilibrium of its last restricted root game, every cell of which was searched to
    /// `depth + 1` and which holds the supports of iteration `depth`.
    pub(crate) partial: bool,
}

impl<M> Analysis<M> {
    /// The strategy of a side.
    pub fn strategy(&self, side: Side) -> &[(M, f64)] {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }
}

/// A node's solve: its bounds (equal when exact) and the restricted equilibrium found.
#[derive(Clone, Debug)]
struct Solved {
    lower: f64,
    upper: f64,
    value: f64,
    /// Indices into the node's White moves with their probabilities.
    rows: Vec<(usize, f64)>,
    /// Indices into the node's Black moves with their probabilities.
    cols: Vec<(usize, f64)>,
}

/// The search state: table, solver workspace, counters and limits.
pub struct Searcher<'a, G: SealedRules = Position> {
    tt: tt::JointTable<G::Move>,
    /// Exact values from outside (a tablebase), if any.
    probe: Option<&'a dyn Probe<G>>,
    solver: Solver,
    stats: Stats,
    limits: Limits,
    started: Instant,
    stop: &'a AtomicBool,
    aborted: bool,
    can_abort: bool,
    next_poll: u64,
    /// Move buffers of the serialized search, reused.
    spare: Vec<MoveLists<G>>,
    /// The first mover's best move at the top of the last serialized search.
    serial_best: Option<G::Move>,
    /// The depth of the root iteration under way (0: none), which only the root has.
    root_depth: u32,
    /// The root iteration's last restricted equilibrium, every cell of it searched.
    partial: Option<Solved>,
}

impl<'a, G: SealedRules> Searcher<'a, G> {
    /// A searcher with an empty table of the default size.
    pub(crate) fn new(limits: Limits, stop: &'a AtomicBool) -> Searcher<'a, G> {
        Searcher::with_table(limits, stop, JointTable::default())
    }

    /// A searcher using `table` (entries of earlier searches included); take it back with
    /// `Searcher::into_table`. A table whose memory cannot be had searches without one.
    pub fn with_table(
        limits: Limits,
        stop: &'a AtomicBool,
        mut table: JointTable<G::Move>,
    ) -> Searcher<'a, G> {
        if let Err(e) = table.new_search() {
            log::warn!("{e}; searching without a table");
        }
        Searcher {
            tt: table,
            probe: None,
            solver: Solver::new(),
            stats: Stats::default(),
            limits,
            started: Instant::now(),
            stop,
            aborted: false,
            can_abort: false,
            next_poll: 0,
            spare: Vec::new(),
            serial_best: None,
            root_depth: 0,
            partial: None,
        }
    }

    /// Consults `probe` at every node before searching it (see [`Probe`]).
    pub(crate) fn with_probe(mut self, probe: &'a dyn Probe<G>) -> Searcher<'a, G> {
        self.probe = Some(probe);
        self
    }

    /// The table, with what this search stored.
    pub(crate) fn into_table(self) -> JointTable<G::Move> {
        self.tt
    }

    /// The counters so far.
    pub(crate) fn stats(&self) -> Stats {
        Stats {
            tt_hits: self.tt.hits,
            ..self.stats
        }
    }

    /// Whether a limit or the stop flag ended the search.
    fn poll(&mut self) -> bool {
        if self.aborted || !self.can_abort || self.stats.nodes < self.next_poll {
            return self.aborted;
        }
        self.next_poll = self.stats.nodes + 256;
        let late = self
            .limits
            .time
            .is_some_and(|t| self.started.elapsed() >= t);
        let spent = self.limits.nodes.is_some_and(|n| self.stats.nodes >= n);
        if late || spent || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Counts a node, and gives its value when no search is needed there: a finished game,
    /// depth 0 (the static evaluation), or a stopped search (a neutral ½, discarded above).
    fn leaf(&mut self, pos: &G, depth: u32) -> Option<f64> {
        self.stats.nodes += 1;
        if let Some(v) = pos.terminal() {
            return Some(v);
        }
        if let Some(v) = self.probe.and_then(|p| p.probe(pos)) {
            self.stats.probe_hits += 1;
            return Some(v);
        }
        if depth == 0 {
            return Some(pos.heuristic());
        }
        self.poll().then_some(0.5)
    }

    /// The value for White of `pos` searched `depth` joint turns deep, fail-soft in the window
    /// (`alpha`, `beta`): a result at or below `alpha` is an upper bound, one at or above
    /// `beta` a lower bound, anything between exact.
    pub(crate) fn value(&mut self, pos: &G, depth: u32, alpha: f64, beta: f64) -> f64 {
        if let Some(v) = self.leaf(pos, depth) {
            return v;
        }
        let key = pos.key();
        let (mut lower, mut upper) = (0.0f64, 1.0f64);
        let (mut hint_w, mut hint_b) = (None, None);
        if let Some(e) = self.tt.probe(key) {
            (hint_w, hint_b) = (e.white, e.black);
            if e.depth == depth {
                (lower, upper) = (e.lower, e.upper);
                if upper - lower <= MET || upper <= alpha || lower >= beta {
                    return settle(lower, upper, alpha, beta);
                }
            }
        }
        // Serialized bounds: White first can only lower the value, Black first only raise it.
        let l = self.serial(pos, depth, true, alpha.max(lower), beta, true);
        let best_w = self.serial_best.or(hint_w);
        if l >= beta {
            return self.exit(key, depth, l, upper, best_w, hint_b, alpha, beta);
        }
        if l > alpha.max(lower) {
            lower = l;
        }
        let u = self.serial(pos, depth, false, alpha, beta.min(upper), true);
        let best_b = self.serial_best.or(hint_b);
        if u <= alpha {
            return self.exit(key, depth, lower, u, best_w, best_b, alpha, beta);
        }
        if u < beta.min(upper) {
            upper = u;
        }
        if upper - lower <= MET {
            return self.exit(key, depth, lower, upper, best_w, best_b, alpha, beta);
        }
        let (mut white, mut black) = (Vec::new(), Vec::new());
        pos.moves(Side::White, &mut white);
        pos.moves(Side::Black, &mut black);
        promote(&mut white, best_w);
        promote(&mut black, best_b);
        let solved = self.double_oracle(
            pos,
            depth,
            (alpha, beta),
            (lower, upper),
            &white,
            &black,
            &[0],
            &[0],
        );
        if self.aborted {
            return 0.5;
        }
        self.store(key, depth, &solved, &white, &black);
        settle_solved(&solved, alpha, beta)
    }

    /// Records a node settled by bounds alone and returns its fail-soft value.
    #[allow(clippy::too_many_arguments)]
    fn exit(
        &mut self,
        key: u64,
        depth: u32,
        lower: f64,
        upper: f64,
        white: Option<G::Move>,
        black: Option<G::Move>,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        if self.aborted {
            return 0.5;
        }
        self.stats.bound_exits += 1;
        let (lower, upper) = (lower.min(upper), upper.max(lower));
        self.tt.store(tt::Entry {
            key,
            depth,
            lower,
            upper,
            white,
            black,
        });
        settle(lower, upper, alpha, beta)
    }

    fn store(&mut self, key: u64, depth: u32, s: &Solved, white: &[G::Move], black: &[G::Move]) {
        let top = |v: &[(usize, f64)], moves: &[G::Move]| {
            v.iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|&(i, _)| moves[i])
        };
        self.tt.store(tt::Entry {
            key,
            depth,
            lower: s.lower,
            upper: s.upper,
            white: top(&s.rows, white),
            black: top(&s.cols, black),
        });
    }

    /// The serialized game: at every turn of the subtree the first mover commits and the other
    /// replies knowing it (alpha-beta, fail-soft). With White first this is a lower bound on
    /// the simultaneous value, with Black first an upper bound. At the `top` call the first
    /// mover's best move is left in `serial_best`.
    fn serial(
        &mut self,
        pos: &G,
        depth: u32,
        white_first: bool,
        alpha: f64,
        beta: f64,
        top: bool,
    ) -> f64 {
        if top {
            self.serial_best = None;
        } else if let Some(v) = self.leaf(pos, depth) {
            return v;
        }
        let (mut white, mut black) = self.spare.pop().unwrap_or_default();
        pos.moves(Side::White, &mut white);
        pos.moves(Side::Black, &mut black);
        if let Some(e) = self.tt.probe(pos.key()) {
            promote(&mut white, e.white);
            promote(&mut black, e.black);
        }
        let (first, second) = if white_first {
            (&white, &black)
        } else {
            (&black, &white)
        };
        // The first mover maximises `sign * value`.
        let sign = if white_first { 1.0 } else { -1.0 };
        let (mut a, b) = if white_first {
            (alpha, beta)
        } else {
            (-beta, -alpha)
        };
        let mut best = -3.0;
        for &m1 in first {
            // The reply minimises `sign * value` knowing m1.
            let mut worst = 3.0f64;
            for &m2 in second {
                let child = if white_first {
                    pos.joint(m1, m2)
                } else {
                    pos.joint(m2, m1)
                };
                let hi = b.min(worst);
                let (ca, cb) = if white_first { (a, hi) } else { (-hi, -a) };
                let v = sign * self.serial(&child, depth - 1, white_first, ca, cb, false);
                if v < worst {
                    worst = v;
                    if worst <= a {
                        break;
                    }
                }
            }
            if worst > best {
                best = worst;
                if top {
                    self.serial_best = Some(m1);
                }
                if best >= b {
                    break;
                }
                a = a.max(best);
            }
            if self.aborted {
                break;
            }
        }
        self.spare.push((white, black));
        sign * best
    }

    /// Solves a node's matrix game by double oracle, from the restricted sets `seed_w` ×
    /// `seed_b`, inside `window`, knowing the value lies in `bounds`.
    #[allow(clippy::too_many_arguments)]
    fn double_oracle(
        &mut self,
        pos: &G,
        depth: u32,
        window: (f64, f64),
        bounds: (f64, f64),
        white: &[G::Move],
        black: &[G::Move],
        seed_w: &[usize],
        seed_b: &[usize],
    ) -> Solved {
        let (alpha, beta) = window;
        let (mut lower, mut upper) = bounds;
        let (m, n) = (white.len(), black.len());
        let mut cells = Cells {
            lo: vec![0.0; m * n],
            hi: vec![1.0; m * n],
            n,
        };
        let mut rows: Vec<usize> = seed_w.to_vec();
        let mut cols: Vec<usize> = seed_b.to_vec();
        let mut payoff = Vec::new();
        loop {
            for &i in &rows {
                for &j in &cols {
                    self.exact(pos, depth, white, black, &mut cells, i, j);
                }
            }
            if self.aborted {
                return Solved {
                    lower,
                    upper,
                    value: 0.5,
                    rows: Vec::new(),
                    cols: Vec::new(),
                };
            }
            payoff.clear();
            for &i in &rows {
                payoff.extend(cols.iter().map(|&j| cells.lo[i * n + j]));
            }
            self.stats.solves += 1;
            let sol = self.solver.solve(&payoff, rows.len(), cols.len());
            let v = sol.value;
            let at_root = depth == self.root_depth;
            let mut x: Vec<(usize, f64)> = rows
                .iter()
                .zip(&sol.rows)
                .filter(|(_, p)| **p > 0.0)
                .map(|(&i, &p)| (i, p))
                .collect();
            let mut y: Vec<(usize, f64)> = cols
                .iter()
                .zip(&sol.cols)
                .filter(|(_, p)| **p > 0.0)
                .map(|(&j, &p)| (j, p))
                .collect();
            x.sort_by(|a, b| b.1.total_cmp(&a.1));
            y.sort_by(|a, b| b.1.total_cmp(&a.1));
            if at_root {
                self.partial = Some(Solved {
                    lower,
                    upper,
                    value: v,
                    rows: x.clone(),
                    cols: y.clone(),
                });
            }

            // White's best response to y, then Black's to x.
            let mut best_w = (v + GAIN, None);
            for i in (0..m).filter(|i| !rows.contains(i)) {
                if let Some(s) =
                    self.response(pos, depth, white, black, &mut cells, i, &y, best_w.0, true)
                {
                    best_w = (s, Some(i));
                }
            }
            let mut best_b = (v - GAIN, None);
            for j in (0..n).filter(|j| !cols.contains(j)) {
                if let Some(s) =
                    self.response(pos, depth, white, black, &mut cells, j, &x, best_b.0, false)
                {
                    best_b = (s, Some(j));
                }
            }
            if self.aborted {
                continue;
            }
            upper = upper.min(if best_w.1.is_some() { best_w.0 } else { v });
            lower = lower.max(if best_b.1.is_some() { best_b.0 } else { v });
            let converged = best_w.1.is_none() && best_b.1.is_none();
            if converged || upper <= alpha || lower >= beta {
                if converged {
                    (lower, upper) = (v, v);
                }
                return Solved {
                    lower: lower.min(upper),
                    upper: upper.max(lower),
                    value: v,
                    rows: x,
                    cols: y,
                };
            }
            rows.extend(best_w.1);
            cols.extend(best_b.1);
        }
    }

    /// Makes cell (i, j) exact.
    #[allow(clippy::too_many_arguments)]
    fn exact(
        &mut self,
        pos: &G,
        depth: u32,
        white: &[G::Move],
        black: &[G::Move],
        cells: &mut Cells,
        i: usize,
        j: usize,
    ) {
        let k = i * cells.n + j;
        if cells.lo[k] == cells.hi[k] || self.aborted {
            return;
        }
        let child = pos.joint(white[i], black[j]);
        let v = self.value(&child, depth - 1, FULL.0, FULL.1);
        cells.lo[k] = v;
        cells.hi[k] = v;
    }

    /// The payoff of one line (a White row when `for_white`, else a Black column) against the
    /// other side's mixed strategy `mix`, if it beats `threshold` (more for White, less for
    /// Black); `None` as soon as the cells searched show it cannot. Each cell is searched with
    /// the window it must clear for the line to stay in the running.
    #[allow(clippy::too_many_arguments)]
    fn response(
        &mut self,
        pos: &G,
        depth: u32,
        white: &[G::Move],
        black: &[G::Move],
        cells: &mut Cells,
        line: usize,
        mix: &[(usize, f64)],
        threshold: f64,
        for_white: bool,
    ) -> Option<f64> {
        let n = cells.n;
        let at = |other: usize| {
            if for_white {
                line * n + other
            } else {
                other * n + line
            }
        };
        // The most this line could still achieve (least, for Black).
        let optimistic = |cells: &Cells, k: usize| {
            if for_white { cells.hi[k] } else { cells.lo[k] }
        };
        let mut best: f64 = mix.iter().map(|&(o, p)| p * optimistic(cells, at(o))).sum();
        let beats = |s: f64| {
            if for_white {
                s > threshold
            } else {
                s < threshold
            }
        };
        if !beats(best) {
            return None;
        }
        for &(o, p) in mix {
            let k = at(o);
            if cells.lo[k] == cells.hi[k] {
                continue;
            }
            let rest = best - p * optimistic(cells, k);
            let t = (threshold - rest) / p;
            let child = if for_white {
                pos.joint(white[line], black[o])
            } else {
                pos.joint(white[o], black[line])
            };
            let v = if for_white {
                self.value(&child, depth - 1, t, FULL.1)
            } else {
                self.value(&child, depth - 1, FULL.0, t)
            };
            if self.aborted {
                return None;
            }
            if for_white && v <= t {
                cells.hi[k] = v.min(cells.hi[k]).max(cells.lo[k]);
                return None;
            }
            if !for_white && v >= t {
                cells.lo[k] = v.max(cells.lo[k]).min(cells.hi[k]);
                return None;
            }
            cells.lo[k] = v;
            cells.hi[k] = v;
            best = rest + p * v;
        }
        beats(best).then_some(best)
    }

    /// One iteration at the root: the full double oracle, White restricted to `white` and
    /// Black to `black`, seeded with the previous iteration's supports.
    fn root(
        &mut self,
        pos: &G,
        depth: u32,
        white: &[G::Move],
        black: &[G::Move],
        seeds: (&[usize], &[usize]),
    ) -> Option<Solved> {
        self.root_depth = depth;
        self.partial = None;
        let solved =
            self.double_oracle(pos, depth, FULL, (0.0, 1.0), white, black, seeds.0, seeds.1);
        self.root_depth = 0;
        if self.aborted {
            return None;
        }
        self.store(pos.key(), depth, &solved, white, black);
        Some(solved)
    }

    /// The principal joint line below a root pair, from the table's most likely moves.
    fn line(&mut self, pos: &G, first: (G::Move, G::Move), depth: u32) -> Vec<(G::Move, G::Move)> {
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

/// Both sides' move lists of a node.
type MoveLists<G> = (Vec<<G as SealedRules>::Move>, Vec<<G as SealedRules>::Move>);

/// Cell bounds of a node's matrix (`lo == hi`: exact), row-major with `n` columns.
struct Cells {
    lo: Vec<f64>,
    hi: Vec<f64>,
    n: usize,
}

/// The fail-soft value of a node known to lie in [`lower`, `upper`].
fn settle(lower: f64, upper: f64, alpha: f64, beta: f64) -> f64 {
    if upper <= alpha {
        upper
    } else if lower >= beta {
        lower
    } else {
        0.5 * (lower + upper)
    }
}

fn settle_solved(s: &Solved, alpha: f64, beta: f64) -> f64 {
    if s.upper <= alpha {
        s.upper
    } else if s.lower >= beta {
        s.lower
    } else {
        s.value
    }
}

/// Moves `mv` (if present) to the front, keeping the order of the rest.
fn promote<M: Copy + PartialEq>(moves: &mut [M], mv: Option<M>) {
    if let Some(i) = mv.and_then(|m| moves.iter().position(|&x| x == m)) {
        moves[..=i].rotate_right(1);
    }
}
