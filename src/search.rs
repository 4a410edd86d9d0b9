//! The generic alternating search shared by every alternating variant: iterative deepening
//! principal variation search with an aspiration window, a transposition table, quiescence on
//! captures, and move ordering (table move, captures by value, two killers per ply, history).
//! A time, depth and node budget and a stop flag bound it. It knows no protocol: it returns a
//! typed [`Found`]. A search keeps the static scores it computed by key (a 256 KiB cache of
//! its own, for the games whose evaluation is a function of the key:
//! [`Searchable::CACHE_EVALUATION`]), so a leaf met again is not evaluated twice.
//!
//! Draws and contempt: no variant here has a repetition rule, but a position below the root
//! that repeats one earlier on the search path or in the game before the root (the keys the
//! caller passes) is no progress, and an arbiter may adjudicate it as a draw. Such a
//! repetition, and every draw the search meets (a rule's draw from [`Searchable::over`], a
//! stalemate from [`Searchable::stuck`]), scores as *minus the contempt* ([`Limits::contempt`],
//! the UCI option `Contempt`) for the side to move at the root, and plus the contempt for the
//! other side: the engine plays on rather than draw unless everything else is worse than
//! −contempt for it, so a side that is ahead never gives its edge away for a draw, and at most
//! the contempt to avoid one. The scan for repetitions goes back only as far as
//! [`Searchable::reversible_plies`] allows (no position before an irreversible turn can
//! recur), and the game before the root is looked up in a hash set, so a long game costs a
//! node nothing. The repetition score itself is never stored in the table, but the scores of
//! the nodes above it are (the usual small path dependency of a table).
//!
//! Because a draw's score depends on which side is to move at the root, a table entry stored
//! for a position whose mover is not the root side is keyed apart (its key XOR a fixed tag;
//! `Searcher::slot_key`) whenever the contempt is not zero: a later search with the other
//! side at the root (analysis of both sides, a GUI that swaps) misses those entries instead of
//! reading draws scored for the wrong side. Within one search a position always has the same
//! mover, so no transposition is lost.

mod deepen;
mod evals;
mod ordering;
mod searchable;
mod searcher;
mod table;
#[cfg(test)]
mod tests;
mod tree;

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use self::deepen::run;
use self::ordering::pick;
pub use self::searchable::Searchable;
use self::searcher::{from_table, to_table};
pub(crate) use self::table::prefetch_line;
pub use self::table::{Bound, Hit, TableError, TransTable};
use crate::notation::WireMove;

/// Score of a won game (minus the distance in plies).
pub(crate) const WIN: i32 = 30_000;
/// Scores at least this far from zero are won or lost games.
pub(crate) const MATE_BOUND: i32 = WIN - 1000;
/// Deepest ply the search reaches (quiescence included).
pub const MAX_PLY: usize = 100;
/// Size of the history table per side: every [`Searchable::history_index`] is below it.
pub(crate) const HISTORY_SIZE: usize = 8192;

/// The default [`Limits::contempt`] (UCI `Contempt`), in centipawns: what a draw costs the
/// side to move at the root.
pub const DEFAULT_CONTEMPT: i32 = 20;
/// The largest contempt, either way, in centipawns (a pawn and a half or so is already more
/// than any draw is worth avoiding at).
pub const MAX_CONTEMPT: i32 = 500;
/// The tag that keys apart the table entries of positions whose mover is not the root side
/// (see the module documentation).
const OPPONENT_TAG: u64 = 0x6c8e_9cf5_7093_2bd5;

const INFINITY: i32 = WIN + 1;
/// Nodes between two looks at the clock (the stop flag is read at every node).
const CLOCK_EVERY: u64 = 64;
const TABLE_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;
const HISTORY_MAX: i32 = 1 << 20;

/// How long and how deep to search, and how draws score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Time budget: the search stops by it (hard limit; the alternating search a little
    /// before, `reserve`, so that the answer reaches the GUI in time) and, unless `exact`,
    /// starts no new iteration that would most likely not finish in it (the alternating
    /// search predicts the next iteration's time from the growth of the last two,
    /// `deepen::next_fits`; the sealed search has its own policy).
    pub time: Option<Duration>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// The time is to be used whole (`go movetime`): iterations go on until it runs out,
    /// and the answer is the last completed iteration's, or a better turn the stopped one
    /// searched to the end.
    pub exact: bool,
    /// What a draw (a repetition included) costs the side to move at the root, in
    /// centipawns, within ±[`MAX_CONTEMPT`] (larger values count as that bound); negative
    /// values make the engine seek draws. Default [`DEFAULT_CONTEMPT`].
    pub contempt: i32,
    /// The sealed search (Apocalypse) probes the tables built into the binary
    /// (`crate::tablebase::builtin`) where the loaded ones hold nothing: a session's
    /// `BuiltinTablebase`, on in every session. Off by default, so that the library's
    /// searches (`quill bench`, the benches, the tests) do not depend on them.
    pub builtin_tables: bool,
}

impl Default for Limits {
    /// No limit at all, the default contempt, no built-in tables.
    fn default() -> Limits {
        Limits {
            depth: None,
            time: None,
            nodes: None,
            exact: false,
            contempt: DEFAULT_CONTEMPT,
            builtin_tables: false,
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The best turn.
    pub mv: WireMove,
    /// Its score for the mover, in centipawns.
    pub(crate) score: i32,
    /// Depth of the last completed iteration.
    pub(crate) depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The principal variation, best turn first.
    pub(crate) pv: Vec<WireMove>,
    /// How full the table is, per mille of all its entries (0 without one).
    pub(crate) hashfull: u32,
}

/// `part` of `whole` per mille, rounded down (0 of nothing).
pub(crate) fn permille(part: usize, whole: usize) -> u32 {
    if whole == 0 {
        return 0;
    }
    // At most 1000: no table holds more entries than it has.
    (part.min(whole) as u128 * 1000 / whole as u128) as u32
}

/// The share of a time budget the alternating search leaves for sending its answer: a
/// fortieth, at most 25 ms (a loaded machine delays the answer after the stop by up to about
/// 25 ms; measured on `go movetime 1000`).
pub(crate) fn reserve(time: Duration) -> Duration {
    (time / 40).min(Duration::from_millis(25))
}

/// Pseudo-random keys for hashing positions (splitmix64 from `seed`), the same in every
/// build.
pub(crate) const fn zobrist_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0; N];
    let mut x = seed;
    let mut i = 0;
    while i < N {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out[i] = z ^ (z >> 31);
        i += 1;
    }
    out
}

struct Searcher<'a, P: Searchable> {
    nodes: u64,
    limits: Limits,
    started: Instant,
    /// When the search must stop: the time limit less its [`reserve`].
    deadline: Option<Duration>,
    stop: &'a AtomicBool,
    aborted: bool,
    /// Whether late quiet moves are reduced (off only to compare with plain alpha-beta).
    reduce: bool,
    table: Option<&'a mut TransTable>,
    killers: Vec<[Option<P::Move>; 2]>,
    history: Vec<i32>,
    /// Move and score buffers, one per ply, reused.
    moves: Vec<Vec<P::Move>>,
    scores: Vec<Vec<i32>>,
    /// The triangular principal-variation table.
    pv: Vec<Vec<P::Move>>,
    /// Keys of the root and the nodes of the current search path above the node being
    /// searched.
    path: Vec<u64>,
    /// Keys of the positions of the game before the root.
    before: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    /// The score of a draw for the side to move at the root (minus the contempt).
    draw: i32,
    /// What keys apart the table entries of the other side's positions: 0 when the contempt
    /// is zero (draws then score alike for both sides), else [`OPPONENT_TAG`].
    tag: u64,
    /// The static evaluations of this search, by key.
    evals: evals::Evals,
}

/// The identity hash: keys are already uniformly random.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Searches by iterative deepening until a limit or `stop`, among the `allowed` turns when that
/// is not empty; `None` when the game is over or there is no move. `report` hears about every
/// completed iteration. `table` keeps what it learns (it may hold results of earlier searches).
///
/// `history` holds the keys ([`Searchable::key`]) of the positions of the game before `pos`,
/// oldest first (the start position first; `pos` itself need not be included): a position of
/// the search that repeats one of them, or one on its own path, scores as a repetition (see
/// the module documentation; a single earlier occurrence is enough, as in most engines).
pub fn search<P: Searchable>(
    pos: &P,
    history: &[u64],
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    table: &mut TransTable,
    report: &mut dyn FnMut(&Found),
) -> Option<Found> {
    run(
        pos,
        history,
        allowed,
        limits,
        stop,
        Some(table),
        true,
        report,
    )
}
