//! What the sealed search needs of a game: the [`SealedRules`] trait, and the [`Probe`] point
//! where exact values (a tablebase) enter the search.
//!
//! The search itself (`node.rs`, `oracle.rs`, `root.rs`, `tt.rs`) is written against this
//! trait alone; a sealed variant is one implementation of it (Apocalypse's is in
//! `apocalypse.rs`, with its evaluation in [`super::eval`]).

use std::sync::atomic::AtomicBool;

use crate::notation::WireMove;
use crate::solver::Solution;
use crate::variant::Side;

/// A two-player game of simultaneous ("sealed") turns with payoffs 0 … 1 for White, as the
/// sealed search sees it. Every node of the search is one position of this type.
pub trait SealedRules: Clone {
    /// One side's move.
    type Move: Copy + PartialEq + std::fmt::Debug;

    /// The legal moves of `side` into `out` (cleared first). While the game goes on each
    /// side has at least one (a forced pass counting as a move).
    fn moves(&self, side: Side, out: &mut Vec<Self::Move>);

    /// The position after one turn of two legal moves.
    fn joint(&self, white: Self::Move, black: Self::Move) -> Self;

    /// The exact payoff for White of a finished game (1 a White win, 0 a Black win, ½ a
    /// draw), `None` while it goes on.
    fn terminal(&self) -> Option<f64>;

    /// A static estimate of an unfinished game, strictly between 0 and 1 (the evaluation
    /// hook of the depth-limited search).
    fn heuristic(&self) -> f64;

    /// The payoff of the position after the turn `white`, `black` (two legal moves): its
    /// [`SealedRules::terminal`] value if the game ends there, else its
    /// [`SealedRules::heuristic`]. The search values its leaves this way; a game may give
    /// the same value faster than by building the position first.
    fn joint_payoff(&self, white: Self::Move, black: Self::Move) -> f64 {
        let next = self.joint(white, black);
        next.terminal().unwrap_or_else(|| next.heuristic())
    }

    /// What a node one turn above the leaves keeps while its cells are valued (per-move
    /// work shared by the cells of a row or a column; `()` for a game without any).
    type Frontier: Default;

    /// Prepares `f` for the cells of this position's matrix over `white` × `black`, before
    /// [`SealedRules::frontier_payoff`] values any of them (what `f` kept of an earlier node
    /// is forgotten). Nothing by default.
    fn prepare_frontier(&self, white: &[Self::Move], black: &[Self::Move], f: &mut Self::Frontier) {
        let _ = (white, black, f);
    }

    /// [`SealedRules::joint_payoff`] of `white.1`, `black.1` (bit for bit), with `f` prepared
    /// for this position and move lists in which they are at indices `white.0`, `black.0`.
    fn frontier_payoff(
        &self,
        f: &mut Self::Frontier,
        white: (usize, Self::Move),
        black: (usize, Self::Move),
    ) -> f64 {
        let _ = f;
        self.joint_payoff(white.1, black.1)
    }

    /// [`SealedRules::frontier_payoff`] (the same value), inlined into its caller: the search
    /// calls it where it is compiled with the processor's `popcnt` (its pure-strategy bounds),
    /// so that a game's bit counts there are single instructions without a test of the
    /// processor per cell. By default the same call.
    #[inline(always)]
    fn frontier_payoff_inline(
        &self,
        f: &mut Self::Frontier,
        white: (usize, Self::Move),
        black: (usize, Self::Move),
    ) -> f64 {
        self.frontier_payoff(f, white, black)
    }

    /// A 64-bit key of everything the value depends on (for the transposition table;
    /// 0 is never a key of a stored position).
    fn key(&self) -> u64;

    /// A move as the protocols write it.
    fn wire(mv: Self::Move) -> WireMove;

    /// The probe every search of this game consults ([`Probe`]; a tablebase once one is
    /// loaded, and with `builtin` the tables built into the binary), if any. None by default.
    fn shared_probe(builtin: bool) -> Option<SharedProbe<Self>> {
        let _ = builtin;
        None
    }
}

/// A source of exact values, consulted at every node before it is searched (after the
/// finished-game check): a value returned is taken as exact at every depth, and the node is
/// not searched further. This is where the Apocalypse tablebase plugs in
/// (`Searcher::with_probe`, or [`SealedRules::shared_probe`]); it must answer only for
/// positions it has solved.
pub trait Probe<G: SealedRules>: Sync {
    /// The exact value for White of `pos`, if known.
    fn probe(&self, pos: &G) -> Option<f64>;

    /// The exact equilibrium of the root's matrix game over `white` × `black`, if every cell
    /// is known: the search then plays it without searching. None by default.
    fn root(&self, pos: &G, white: &[G::Move], black: &[G::Move]) -> Option<Solution> {
        let _ = (pos, white, black);
        None
    }

    /// Whether a position one turn after `pos` may be one the probe knows: where it is not,
    /// the search values the leaves below `pos` without building them (and without asking).
    /// True by default.
    fn covers_children(&self, pos: &G) -> bool {
        let _ = pos;
        true
    }

    /// Makes ready what a search from `root` will ask (a table to load), before the search
    /// starts: waiting, if it must, until it is ready, `until` has passed or `stop` is set.
    /// A probe that is not ready answers what it can. Nothing by default.
    fn prepare(&self, root: &G, until: Option<std::time::Instant>, stop: &AtomicBool) {
        let _ = (root, until, stop);
    }
}

/// A probe shared by every sealed search of a game (a tablebase, once one is set).
pub type SharedProbe<G = crate::variants::apocalypse::Position> =
    std::sync::Arc<dyn Probe<G> + Send>;
