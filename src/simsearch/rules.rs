//! What the sealed search needs of a game: the [`SealedRules`] trait, and the [`Probe`] point
//! where exact values (a tablebase) enter the search.

use crate::solver::Solution;
use crate::variant::Side;
use crate::variants::apocalypse::{Move, Position};

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

    /// A 64-bit key of everything the value depends on (for the transposition table;
    /// 0 is never a key of a stored position).
    fn key(&self) -> u64;
}

/// A source of exact values, consulted at every node before it is searched (after the
/// finished-game check): a value returned is taken as exact at every depth, and the node is
/// not searched further. This is where the Apocalypse tablebase plugs in
/// ([`super::Searcher::with_probe`]); it must answer only for positions it has solved.
pub(crate) trait Probe<G: SealedRules>: Sync {
    /// The exact value for White of `pos`, if known.
    fn probe(&self, pos: &G) -> Option<f64>;

    /// The exact equilibrium of the root's matrix game over `white` × `black`, if every cell
    /// is known: the search then plays it without searching. None by default.
    fn root(&self, pos: &G, white: &[G::Move], black: &[G::Move]) -> Option<Solution> {
        let _ = (pos, white, black);
        None
    }
}

impl SealedRules for Position {
    type Move = Move;

    fn moves(&self, side: Side, out: &mut Vec<Move>) {
        self.legal_moves(side, out);
    }

    fn joint(&self, white: Move, black: Move) -> Position {
        self.resolve(Ok(white), Ok(black))
    }

    fn terminal(&self) -> Option<f64> {
        super::eval::terminal(self)
    }

    fn heuristic(&self) -> f64 {
        super::eval::heuristic(self)
    }

    fn key(&self) -> u64 {
        super::tt::key(self)
    }
}

/// A probe shared by every sealed search of Apocalypse (a tablebase, once one is set).
pub(crate) type SharedProbe = std::sync::Arc<dyn Probe<Position> + Send>;

/// The probe the sealed searches consult now. It lives here, not with the tablebase, so that
/// the search depends on no table format: the tablebase sets it, the search reads it.
static ACTIVE: std::sync::RwLock<Option<SharedProbe>> = std::sync::RwLock::new(None);

/// Makes `probe` the one every later sealed search consults (`None`: no probe).
pub(crate) fn set_probe(probe: Option<SharedProbe>) {
    *ACTIVE
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = probe;
}

/// The probe set by [`set_probe`], if any.
pub(crate) fn active_probe() -> Option<SharedProbe> {
    ACTIVE
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}
