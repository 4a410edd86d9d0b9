//! The simultaneous-move search of Apocalypse: depth-limited backward induction over joint
//! turns, each node valued by the equilibrium of its matrix game (payoffs 0 … 1 for White,
//! see [`eval`]).
//!
//! At every node (as in double-oracle alpha-beta, Bošanský, Lisý, Lanctot et al., AIJ 237,
//! 2016, and simultaneous-move alpha-beta, Saffidine, Finnsson & Buro, AAAI 2012):
//! 1. the transposition table may settle it (bounds stored per depth);
//! 2. one turn from the leaves, the *pure-strategy* values give cheap bounds: with White
//!    committing first (Black replying knowing it) the value can only be lower, with Black
//!    first only higher. When the bounds meet, or leave the window, no matrix game is
//!    solved; the cells they evaluated are kept for the matrix game. (Deeper nodes have no
//!    such bounds: a serialized search of the whole subtree cost more than it saved.);
//! 3. otherwise a *double oracle* solves a restricted matrix game exactly ([`Solver`]),
//!    starting from each side's best pure (or table) move, and adds each side's best
//!    response to the other's restricted strategy until neither improves. Best responses
//!    are searched with thresholds passed down as alpha-beta windows: a cell only has to be
//!    known well enough to show that its row (column) cannot beat the best response so far.
//!    Their values also bound the node's value, which gives the alpha-beta cut-offs.
//!
//! The leaves of a node one turn deep are valued through the game's frontier
//! ([`SealedRules::frontier_payoff`]): Apocalypse works out what each side's move does on its
//! own once per node and adds per cell only what joins the two moves ([`eval`]'s
//! `frontier.rs`), bit for bit the payoff of the resolved turn.
//!
//! The root is searched by iterative deepening; each iteration seeds its restricted game with
//! the previous iteration's supports. An iteration stopped by the clock still answers when
//! its root had solved a restricted game (`Analysis::partial`). The root strategy of the
//! side Quill plays is sampled with the session's seeded generator.
//!
//! **The game** is any [`SealedRules`] (joint moves, resolution, terminal value, key, the
//! static evaluation and the probe it consults): the search, its entry points ([`analyse`],
//! [`choose`]) and its table know nothing else of it. Apocalypse's [`Position`] implements
//! it in `apocalypse.rs`; its evaluation is [`eval`].
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

mod apocalypse;
mod clock;
pub mod endgame;
pub mod eval;
mod node;
mod oracle;
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

pub use apocalypse::key;
pub(crate) use apocalypse::{Probes, set_probe};
pub use root::{analyse, choose, choose_with_table};
pub use rules::{Probe, SealedRules, SharedProbe};
pub use tt::{JointTable, JointTableError};

/// A window wide enough that no value (all lie in 0 … 1) falls outside it.
const FULL: (f64, f64) = (-1.0, 2.0);
/// How much a best response must gain to enter a restricted game (absorbs rounding).
const GAIN: f64 = 1e-9;
/// Bounds closer than this count as met.
const MET: f64 = 1e-12;

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited (each cell searched or evaluated counts once per visit).
    pub nodes: u64,
    /// Matrix games solved.
    pub(crate) solves: u64,
    /// Nodes settled by their pure-strategy or table bounds alone.
    pub(crate) bound_exits: u64,
    /// Transposition-table probes that found their position.
    pub(crate) tt_hits: u64,
    /// Nodes whose exact value came from the [`Probe`].
    pub(crate) probe_hits: u64,
    /// How full the table is, per mille, when the counters were read.
    pub(crate) hashfull: u32,
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

impl Solved {
    fn new(
        (lower, upper): (f64, f64),
        value: f64,
        rows: Vec<(usize, f64)>,
        cols: Vec<(usize, f64)>,
    ) -> Solved {
        Solved {
            lower,
            upper,
            value,
            rows,
            cols,
        }
    }
}

/// A node's buffers: both sides' move lists and the bounds of its cells.
type Scratch<G> = (
    Vec<<G as SealedRules>::Move>,
    Vec<<G as SealedRules>::Move>,
    oracle::Cells,
);

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
    /// Move lists and cells of finished nodes, for the next ones to reuse.
    spare: Vec<Scratch<G>>,
    /// Buffers of finished double oracles, likewise.
    pool: oracle::Pool,
    /// The depth of the root iteration under way (0: none), which only the root has.
    root_depth: u32,
    /// The root iteration's last restricted equilibrium, every cell of it searched.
    partial: Option<Solved>,
    /// The per-move work of the node one turn above the leaves being valued (there is one
    /// at a time: its children are leaves).
    frontier: G::Frontier,
    /// The probe may know the leaves below that node ([`Probe::covers_children`]): they
    /// are built and asked about.
    leaf_probe: bool,
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
            pool: oracle::Pool::default(),
            root_depth: 0,
            partial: None,
            frontier: G::Frontier::default(),
            leaf_probe: false,
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
            hashfull: self.tt.permille(),
            ..self.stats
        }
    }

    /// When the search stops, from its start: the time limit less the reserve the
    /// alternating search keeps too ([`crate::search::reserve`]: a 40th, at most 25 ms) for
    /// the answer to be chosen and written within the limit.
    fn deadline(&self) -> Option<std::time::Duration> {
        self.limits.time.map(|t| t - crate::search::reserve(t))
    }

    /// Whether a limit or the stop flag ended the search.
    fn poll(&mut self) -> bool {
        if self.aborted || !self.can_abort || self.stats.nodes < self.next_poll {
            return self.aborted;
        }
        self.next_poll = self.stats.nodes + 256;
        let late = self.deadline().is_some_and(|t| self.started.elapsed() >= t);
        let spent = self.limits.nodes.is_some_and(|n| self.stats.nodes >= n);
        if late || spent || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Counts a node, and gives its value when no search is needed there: a finished game,
    /// depth 0 (the static evaluation), or a stopped search (a neutral ½, discarded above).
    fn leaf(&mut self, pos: &G, depth: u32) -> Option<f64> {
        if depth == 0 {
            return Some(self.leaf_value(pos));
        }
        self.stats.nodes += 1;
        if let Some(v) = self.known(pos) {
            return Some(v);
        }
        self.poll().then_some(0.5)
    }

    /// Counts a node at depth 0 and gives its value: exact when the game is over or the
    /// probe knows it, else the static evaluation.
    fn leaf_value(&mut self, pos: &G) -> f64 {
        self.stats.nodes += 1;
        self.known(pos).unwrap_or_else(|| pos.heuristic())
    }

    /// Counts the leaf after the turn `white[i]`, `black[j]` of `pos` and gives its value, as
    /// [`Searcher::leaf_value`] of that position would (without building it when there is no
    /// probe to ask, from the frontier prepared for `pos` over `white` × `black`).
    fn leaf_after(
        &mut self,
        pos: &G,
        (white, black): (&[G::Move], &[G::Move]),
        (i, j): (usize, usize),
    ) -> f64 {
        match self.leaf_probed(pos, (white, black), (i, j)) {
            Some(v) => v,
            None => pos.frontier_payoff(&mut self.frontier, (i, white[i]), (j, black[j])),
        }
    }

    /// The value of the leaf after the turn `white[i]`, `black[j]` of `pos` when a probe is
    /// asked ([`Searcher::leaf_value`]); else `None`, the leaf counted, for the frontier to
    /// value it.
    #[inline(always)]
    fn leaf_probed(
        &mut self,
        pos: &G,
        (white, black): (&[G::Move], &[G::Move]),
        (i, j): (usize, usize),
    ) -> Option<f64> {
        if self.leaf_probe {
            return Some(self.leaf_value(&pos.joint(white[i], black[j])));
        }
        self.stats.nodes += 1;
        None
    }

    /// [`Searcher::leaf_after`], the frontier's evaluation inlined
    /// ([`SealedRules::frontier_payoff_inline`]).
    #[inline(always)]
    fn leaf_after_inline(
        &mut self,
        pos: &G,
        (white, black): (&[G::Move], &[G::Move]),
        (i, j): (usize, usize),
    ) -> f64 {
        match self.leaf_probed(pos, (white, black), (i, j)) {
            Some(v) => v,
            None => pos.frontier_payoff_inline(&mut self.frontier, (i, white[i]), (j, black[j])),
        }
    }

    /// Prepares the frontier for the cells of `pos` over `white` × `black`, a node one turn
    /// above the leaves, before any is valued ([`Searcher::leaf_after`]).
    fn prepare_frontier(&mut self, pos: &G, (white, black): (&[G::Move], &[G::Move])) {
        self.leaf_probe = self.probe.is_some_and(|p| p.covers_children(pos));
        pos.prepare_frontier(white, black, &mut self.frontier);
    }

    /// The value for White of the position after the turn `white[i]`, `black[j]` of `pos`,
    /// searched `depth` turns deep in the window (`alpha`, `beta`) as [`Searcher::value`].
    fn child_value(
        &mut self,
        pos: &G,
        lists: (&[G::Move], &[G::Move]),
        (i, j): (usize, usize),
        depth: u32,
        (alpha, beta): (f64, f64),
    ) -> f64 {
        if depth == 0 {
            return self.leaf_after(pos, lists, (i, j));
        }
        self.value(&pos.joint(lists.0[i], lists.1[j]), depth, alpha, beta)
    }

    /// The exact value of a finished game, or the probe's.
    fn known(&mut self, pos: &G) -> Option<f64> {
        if let Some(v) = pos.terminal() {
            return Some(v);
        }
        let v = self.probe.and_then(|p| p.probe(pos));
        self.stats.probe_hits += u64::from(v.is_some());
        v
    }
}
