//! The generic alternating search shared by every alternating variant: iterative deepening
//! principal variation search with an aspiration window, a transposition table, quiescence on
//! captures, and move ordering (table move, captures by value, two killers per ply, history).
//! A time, depth and node budget and a stop flag bound it. It knows no protocol: it returns a
//! typed [`Found`].
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

mod table;
#[cfg(test)]
mod tests;

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use self::table::{Bound, Hit, TransTable};
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

/// What a position of an alternating game offers the search.
pub trait Searchable: Clone {
    /// A move (a whole turn).
    type Move: Copy + PartialEq;

    /// The candidate turns the search considers (a variant may prune sub-decisions here, as
    /// long as every position keeps at least one legal turn when it has one), without their
    /// refinements. Clears `out`.
    fn candidates(&self, out: &mut Vec<Self::Move>);

    /// Appends the variations of a candidate turn that the search tries after it, if it gets
    /// that far (a turn's optional sub-moves, say). Generating them only for the turns that
    /// are searched saves their cost at nodes that are cut off early. Variations have none.
    fn refinements(&self, _mv: Self::Move, _out: &mut Vec<Self::Move>) {}

    /// The code of the candidate turn that a variation refines (see
    /// [`Searchable::refinements`]); a candidate's own code for a candidate.
    fn base_code(code: u64) -> u64 {
        code
    }

    /// Completes a candidate turn just before the search tries it: a part that is costly to
    /// choose and would be wasted on the turns a cutoff leaves untried (where Brawl puts a
    /// displaced supporter, say) may be left open by [`Searchable::candidates`] and chosen
    /// here. [`Searchable::after`] and [`Searchable::refinements`] accept an open turn too.
    /// Turns are complete by default.
    fn settle(&self, mv: Self::Move) -> Self::Move {
        mv
    }

    /// Whether the candidate `mv`, complete or not (see [`Searchable::settle`]), is the
    /// complete turn `done`.
    fn same(&self, mv: Self::Move, done: Self::Move) -> bool {
        mv == done
    }

    /// Whether the candidate `mv`, complete or not (see [`Searchable::settle`]), is the turn
    /// with the code `code`.
    fn has_code(&self, mv: Self::Move, code: u64) -> bool {
        Self::code(mv) == code
    }

    /// The candidate turns quiescence considers: captures. Clears `out`.
    fn noisy(&self, out: &mut Vec<Self::Move>);

    /// The position after a candidate turn.
    fn after(&self, mv: Self::Move) -> Self;

    /// For a game that has ended in a way seen without generating moves: the score for the
    /// side to move (`-WIN` lost, 0 drawn, `WIN` won).
    fn over(&self) -> Option<i32>;

    /// The score for the side to move when it has no candidate turn (mated, stalemated …).
    fn stuck(&self) -> i32;

    /// Every candidate turn with its refinements.
    fn all_candidates(&self, out: &mut Vec<Self::Move>) {
        self.candidates(out);
        for i in 0..out.len() {
            let mv = out[i];
            self.refinements(mv, out);
        }
    }

    /// For a finished game: the score for the side to move.
    fn terminal(&self) -> Option<i32> {
        self.over().or_else(|| {
            let mut moves = Vec::new();
            self.candidates(&mut moves);
            moves.is_empty().then(|| self.stuck())
        })
    }

    /// A static score for the side to move, in centipawns.
    fn evaluate(&self) -> i32;

    /// A hash of everything that decides the legal turns and the end of the game.
    fn key(&self) -> u64;

    /// The [`Searchable::key`] of the position after the candidate `mv`, when it is cheap to
    /// know without playing the turn; `None` (the default) when it is not. The search uses it
    /// only to prefetch table buckets ahead of time, so a `None` costs nothing but the wait.
    fn key_after(&self, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// At least the number of turns since the last irreversible one (after which no earlier
    /// position can recur by the rules): the repetition scan looks no further back. The
    /// default, `u32::MAX`, bounds nothing.
    fn reversible_plies(&self) -> u32 {
        u32::MAX
    }

    /// A number naming a move among the candidates of a position (for the table).
    fn code(mv: Self::Move) -> u64;

    /// For a capture, an ordering score below 2^20 (most valuable victim, least valuable
    /// attacker first); `None` for a quiet turn.
    fn capture_order(&self, mv: Self::Move) -> Option<i32>;

    /// The slot of a turn in the history table, below `HISTORY_SIZE`.
    fn history_index(&self, mv: Self::Move) -> usize;

    /// The wire form of a candidate turn.
    fn wire(&self, mv: Self::Move) -> WireMove;

    /// The legal turn a written move stands for, if any.
    fn read_wire(&self, mv: &WireMove) -> Option<Self::Move>;
}

/// How long and how deep to search, and how draws score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Time budget: the search stops by it (hard limit; the alternating search a little
    /// before, `reserve`, so that the answer reaches the GUI in time) and, unless `exact`,
    /// starts no new iteration that would most likely not finish in it (past half of it in
    /// the alternating search, a third in the sealed one).
    pub time: Option<Duration>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// The time is to be used whole (`go movetime`): iterations go on until it runs out,
    /// and the answer is the last completed one.
    pub exact: bool,
    /// What a draw (a repetition included) costs the side to move at the root, in
    /// centipawns, within ±[`MAX_CONTEMPT`] (larger values count as that bound); negative
    /// values make the engine seek draws. Default [`DEFAULT_CONTEMPT`].
    pub contempt: i32,
}

impl Default for Limits {
    /// No limit at all, and the default contempt.
    fn default() -> Limits {
        Limits {
            depth: None,
            time: None,
            nodes: None,
            exact: false,
            contempt: DEFAULT_CONTEMPT,
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

/// A win or loss `ply` plies from the root, from a score seen at the end of the game.
fn at_ply(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    match score {
        s if s > 0 => s - ply,
        s if s < 0 => s + ply,
        _ => 0,
    }
}

/// A score as the table keeps it: mates counted from the stored node, not the root.
fn to_table(score: i32, ply: usize) -> i32 {
    match score {
        s if s >= MATE_BOUND => s + ply as i32,
        s if s <= -MATE_BOUND => s - ply as i32,
        s => s,
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    match score {
        s if s >= MATE_BOUND => s - ply as i32,
        s if s <= -MATE_BOUND => s + ply as i32,
        s => s,
    }
}

/// Moves the best-scored remaining move to `i`.
fn pick<M: Copy>(moves: &mut [M], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
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

impl<'a, P: Searchable> Searcher<'a, P> {
    fn new(limits: Limits, stop: &'a AtomicBool, table: Option<&'a mut TransTable>) -> Self {
        let plies = MAX_PLY + 2;
        Searcher {
            nodes: 0,
            limits,
            started: Instant::now(),
            deadline: limits.time.map(|t| t - reserve(t)),
            stop,
            aborted: false,
            reduce: true,
            table,
            killers: vec![[None; 2]; plies],
            history: vec![0; 2 * HISTORY_SIZE],
            moves: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            scores: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..plies).map(|_| Vec::with_capacity(plies)).collect(),
            path: Vec::with_capacity(plies),
            before: HashSet::default(),
            draw: -limits.contempt.clamp(-MAX_CONTEMPT, MAX_CONTEMPT),
            tag: if limits.contempt == 0 {
                0
            } else {
                OPPONENT_TAG
            },
        }
    }

    /// The key under which the table keeps a position with key `key` at `ply`: tagged when
    /// its mover is not the root side (see the module documentation).
    fn slot_key(&self, key: u64, ply: usize) -> u64 {
        if ply & 1 == 1 { key ^ self.tag } else { key }
    }

    /// The score of a draw for the mover at `ply`: minus the contempt for the root side,
    /// plus it for the other.
    fn draw(&self, ply: usize) -> i32 {
        if ply & 1 == 1 { -self.draw } else { self.draw }
    }

    /// A score seen at the end of the game ([`Searchable::over`], [`Searchable::stuck`]) at
    /// `ply`: a win or loss counted from the root, or a draw with the contempt.
    fn ended(&self, score: i32, ply: usize) -> i32 {
        if score == 0 {
            self.draw(ply)
        } else {
            at_ply(score, ply)
        }
    }

    /// Whether `pos`, a position below the root with key `key`, repeats a position earlier
    /// on the path or in the game. Turns alternate and keys include the side to move, so only
    /// every second earlier position can match; none before the last irreversible turn can.
    fn repeats(&self, pos: &P, key: u64) -> bool {
        let reach = usize::try_from(pos.reversible_plies()).unwrap_or(usize::MAX);
        // `path` ends with the parent, one ply back; the root is `path.len()` plies back.
        let on_path = self
            .path
            .iter()
            .rev()
            .take(reach)
            .skip(1)
            .step_by(2)
            .any(|&k| k == key);
        on_path || (reach > self.path.len() && self.before.contains(&key))
    }

    /// Whether the search must stop now (stop flag, node budget, hard time limit).
    fn poll(&mut self) -> bool {
        if !self.aborted {
            let late = self.nodes.is_multiple_of(CLOCK_EVERY)
                && self.deadline.is_some_and(|t| self.started.elapsed() >= t);
            let spent = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            self.aborted = late || spent || self.stop.load(Ordering::Relaxed);
        }
        self.aborted
    }

    /// The position after `mv` at `ply`, its table bucket on its way to the cache.
    fn after(&self, pos: &P, mv: P::Move, ply: usize) -> P {
        let child = pos.after(mv);
        if let Some(t) = self.table.as_ref() {
            t.prefetch(self.slot_key(child.key(), ply + 1));
        }
        child
    }

    /// Prefetches the table buckets of the positions after `moves` (at `ply`) whose keys are
    /// cheap to know ([`Searchable::key_after`]).
    fn prefetch_siblings(&self, pos: &P, moves: &[P::Move], ply: usize) {
        if let Some(t) = self.table.as_ref() {
            for &mv in moves {
                if let Some(key) = pos.key_after(mv) {
                    t.prefetch(self.slot_key(key, ply + 1));
                }
            }
        }
    }

    fn probe(&self, key: u64) -> Option<Hit> {
        self.table.as_ref().and_then(|t| t.probe(key))
    }

    fn store(&mut self, key: u64, depth: i32, bound: Bound, score: i32, mv: Option<P::Move>) {
        if let Some(t) = self.table.as_mut() {
            t.store(key, depth.max(0) as u32, bound, score, mv.map(P::code));
        }
    }

    /// Ordering scores of `moves`: the table move, captures, killers, then history.
    fn order(
        &self,
        pos: &P,
        moves: &[P::Move],
        scores: &mut Vec<i32>,
        tt: Option<u64>,
        ply: usize,
    ) {
        scores.clear();
        scores.extend(moves.iter().map(|&mv| self.rank(pos, mv, tt, ply)));
    }

    fn rank(&self, pos: &P, mv: P::Move, tt: Option<u64>, ply: usize) -> i32 {
        let killers = &self.killers[ply];
        let killer = |k: Option<P::Move>| k.is_some_and(|k| pos.same(mv, k));
        if tt.is_some_and(|code| pos.has_code(mv, code)) {
            TABLE_MOVE
        } else if let Some(c) = pos.capture_order(mv) {
            CAPTURE + c
        } else if killer(killers[0]) {
            KILLER
        } else if killer(killers[1]) {
            KILLER - 1
        } else {
            self.history[(ply & 1) * HISTORY_SIZE + pos.history_index(mv)]
        }
    }

    /// Appends the refinements of `mv` to the move list of a node, with their ranks.
    fn refine(
        &self,
        pos: &P,
        mv: P::Move,
        moves: &mut Vec<P::Move>,
        scores: &mut Vec<i32>,
        tt: Option<u64>,
        ply: usize,
    ) {
        let start = moves.len();
        pos.refinements(mv, moves);
        for &m in &moves[start..] {
            scores.push(self.rank(pos, m, tt, ply));
        }
    }

    /// A quiet move caused a cutoff: it becomes a killer and gains history; the quiet moves
    /// tried before it lose some.
    fn reward(&mut self, pos: &P, mv: P::Move, tried: &[P::Move], ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let side = (ply & 1) * HISTORY_SIZE;
        let bonus = depth * depth;
        let adjust = |h: &mut i32, by: i32| {
            *h = (*h + by).clamp(-HISTORY_MAX, HISTORY_MAX);
        };
        adjust(&mut self.history[side + pos.history_index(mv)], bonus);
        for &m in tried {
            if pos.capture_order(m).is_none() {
                adjust(&mut self.history[side + pos.history_index(m)], -bonus);
            }
        }
    }

    fn set_pv(&mut self, ply: usize, mv: P::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Searches a child of the node at `ply` with a null window first when it is not the
    /// first move, and again with the full window when it beats `alpha`.
    fn child(
        &mut self,
        child: &P,
        first: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.reduced_child(child, first, 0, depth, ply, alpha, beta)
    }

    /// As `child`, after a null-window search `reduction` plies shallower when that is not
    /// zero: a late quiet move that does not beat `alpha` there is not searched further.
    #[allow(clippy::too_many_arguments)]
    fn reduced_child(
        &mut self,
        child: &P,
        first: bool,
        reduction: i32,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if first {
            return -self.node(child, depth - 1, ply + 1, -beta, -alpha);
        }
        if reduction > 0 {
            let score = -self.node(child, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
            if score <= alpha || self.aborted {
                return score;
            }
        }
        let score = -self.node(child, depth - 1, ply + 1, -alpha - 1, -alpha);
        if score > alpha && score < beta && !self.aborted {
            -self.node(child, depth - 1, ply + 1, -beta, -alpha)
        } else {
            score
        }
    }

    fn node(&mut self, pos: &P, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if depth <= 0 {
            return self.quiesce(pos, ply, alpha, beta);
        }
        self.nodes += 1;
        self.pv[ply].clear();
        if let Some(score) = pos.over() {
            return self.ended(score, ply);
        }
        if self.poll() {
            return 0;
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        if ply > 0 && self.repeats(pos, key) {
            return self.draw(ply);
        }
        let slot = self.slot_key(key, ply);
        let hit = self.probe(slot);
        if let Some(hit) = hit
            && !pv_node
            && hit.depth >= depth as u32
        {
            let score = from_table(hit.score, ply);
            let cut = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        pos.candidates(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            self.scores[ply] = scores;
            return self.ended(pos.stuck(), ply);
        }
        let tt = hit.and_then(|h| h.mv);
        self.order(pos, &moves, &mut scores, tt, ply);
        // A table move that refines a candidate: refine that candidate now to try it first.
        let mut refined = None;
        if let Some(code) = tt
            && !scores.contains(&TABLE_MOVE)
            && let Some(j) = moves
                .iter()
                .position(|&m| pos.has_code(m, P::base_code(code)))
        {
            let base = pos.settle(moves[j]);
            moves[j] = base;
            self.refine(pos, base, &mut moves, &mut scores, tt, ply);
            refined = Some(base);
        }
        let (alpha0, mut best, mut best_move) = (alpha, -INFINITY, None);
        let mut i = 0;
        while i < moves.len() {
            pick(&mut moves, &mut scores, i);
            let mv = pos.settle(moves[i]);
            moves[i] = mv;
            // Late quiet moves are searched shallower first (late move reductions).
            let reduction = if self.reduce && depth >= 3 && i >= 3 && scores[i] < KILLER - 1 {
                if i >= 12 && depth >= 5 { 2 } else { 1 }
            } else {
                0
            };
            let child = self.after(pos, mv, ply);
            if i == 1 && depth >= 2 {
                // The first turn did not cut off, so the others will most likely be searched
                // too: their buckets start on their way now, long before their probes.
                self.prefetch_siblings(pos, &moves[2..], ply);
            }
            self.path.push(key);
            let score = self.reduced_child(&child, i == 0, reduction, depth, ply, alpha, beta);
            self.path.pop();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if alpha >= beta {
                        if pos.capture_order(mv).is_none() {
                            self.reward(pos, mv, &moves[..i], ply, depth);
                        }
                        break;
                    }
                }
            }
            if refined != Some(mv) {
                self.refine(pos, mv, &mut moves, &mut scores, tt, ply);
            }
            i += 1;
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.aborted {
            return 0;
        }
        let bound = Bound::of(best, alpha0, beta);
        let mv = if bound == Bound::Upper {
            None
        } else {
            best_move
        };
        self.store(slot, depth, bound, to_table(best, ply), mv);
        best
    }

    /// Quiescence: the static score (standing pat) or a capture that beats it.
    fn quiesce(&mut self, pos: &P, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if let Some(score) = pos.over() {
            return self.ended(score, ply);
        }
        if self.poll() {
            return 0;
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        let key = pos.key();
        if ply > 0 && self.repeats(pos, key) {
            return self.draw(ply);
        }
        let slot = self.slot_key(key, ply);
        // The static score first: it gives the prefetched bucket time to arrive.
        let stand = pos.evaluate();
        let hit = self.probe(slot);
        if let Some(hit) = hit {
            let score = from_table(hit.score, ply);
            let cut = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        if stand >= beta {
            return stand;
        }
        let alpha0 = alpha;
        alpha = alpha.max(stand);
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        pos.noisy(&mut moves);
        let tt = hit.and_then(|h| h.mv);
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            if tt == Some(P::code(m)) {
                TABLE_MOVE
            } else {
                pos.capture_order(m).unwrap_or(0)
            }
        }));
        let (mut best, mut best_move) = (stand, None);
        for i in 0..moves.len() {
            pick(&mut moves, &mut scores, i);
            let mv = pos.settle(moves[i]);
            moves[i] = mv;
            let child = self.after(pos, mv, ply);
            self.path.push(key);
            let score = -self.quiesce(&child, ply + 1, -beta, -alpha);
            self.path.pop();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.aborted {
            return 0;
        }
        let bound = Bound::of(best, alpha0, beta);
        self.store(slot, 0, bound, to_table(best, ply), best_move);
        best
    }

    /// Searches the root turns to `depth` in the window (`alpha`, `beta`); returns the best
    /// score and the index of its turn among the turns searched to the end.
    fn root(
        &mut self,
        pos: &P,
        root: &[P::Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<usize>) {
        self.nodes += 1;
        self.pv[0].clear();
        let alpha0 = alpha;
        let (mut best, mut best_i) = (-INFINITY, None);
        self.path.push(pos.key());
        for (i, &mv) in root.iter().enumerate() {
            let child = self.after(pos, mv, 0);
            let score = self.child(&child, i == 0, depth, 0, alpha, beta);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_i = Some(i);
                if score > alpha {
                    alpha = score;
                    self.set_pv(0, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.path.pop();
        if !self.aborted && best > alpha0 && best < beta {
            let mv = best_i.map(|i| root[i]);
            self.store(pos.key(), depth, Bound::Exact, to_table(best, 0), mv);
        }
        (best, best_i)
    }

    /// The wire form of the principal variation.
    fn pv_wire(&self, pos: &P) -> Vec<WireMove> {
        let mut line = Vec::with_capacity(self.pv[0].len());
        let mut p = pos.clone();
        for &mv in &self.pv[0] {
            line.push(p.wire(mv));
            p = p.after(mv);
        }
        line
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

#[allow(clippy::too_many_arguments)]
fn run<P: Searchable>(
    pos: &P,
    history: &[u64],
    allowed: &[WireMove],
    limits: Limits,
    stop: &AtomicBool,
    table: Option<&mut TransTable>,
    reduce: bool,
    report: &mut dyn FnMut(&Found),
) -> Option<Found> {
    if pos.over().is_some() {
        return None;
    }
    let mut root = Vec::new();
    if allowed.is_empty() {
        pos.all_candidates(&mut root);
    } else {
        root.extend(allowed.iter().filter_map(|m| pos.read_wire(m)));
    }
    for mv in &mut root {
        *mv = pos.settle(*mv);
    }
    let mut table = table;
    if let Some(t) = table.as_deref_mut() {
        t.new_search();
    }
    let mut s = Searcher::new(limits, stop, table);
    s.reduce = reduce;
    // The root's own key, when the caller included it, is pushed again by `root`.
    let before = match history.split_last() {
        Some((&last, rest)) if last == pos.key() => rest,
        _ => history,
    };
    s.before.extend(before.iter().copied());
    // First ordering: the table's move, captures, generation order.
    let mut scores = Vec::new();
    let tt = s.probe(pos.key()).and_then(|h| h.mv);
    s.order(pos, &root, &mut scores, tt, 0);
    for i in 0..root.len() {
        pick(&mut root, &mut scores, i);
    }
    let first = *root.first()?;
    let mut found = Found {
        mv: pos.wire(first),
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![pos.wire(first)],
    };
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32)
        .clamp(1, MAX_PLY as u32);
    let mut previous: i32 = 0;
    for depth in 1..=max_depth {
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 3 && previous.abs() < MATE_BOUND {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        // A turn of this iteration proved better than the others searched: it is the answer
        // if the iteration is stopped (its score, its line).
        let mut partial = None;
        let score = loop {
            let (score, best) = s.root(pos, &root, depth as i32, alpha, beta);
            if let Some(i) = best.filter(|_| score > alpha) {
                partial = Some((root[i], score, s.pv_wire(pos)));
            }
            if s.aborted {
                break None;
            }
            if let Some(i) = best.filter(|_| score > alpha) {
                root[..=i].rotate_right(1);
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                break Some(score);
            }
            delta *= 2;
            if delta > 1000 {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        };
        let Some(score) = score else {
            // Stopped: a turn searched to the end at this depth that beat the first turn
            // searched (the best of the last iteration) is the better answer.
            if let Some((mv, score, pv)) = partial {
                found = Found {
                    mv: pv.first().cloned().unwrap_or_else(|| pos.wire(mv)),
                    score,
                    depth: found.depth,
                    nodes: s.nodes,
                    pv,
                };
                report(&found);
            }
            break;
        };
        previous = score;
        let pv = s.pv_wire(pos);
        found = Found {
            mv: pv.first().cloned().unwrap_or_else(|| pos.wire(root[0])),
            score,
            depth,
            nodes: s.nodes,
            pv,
        };
        report(&found);
        if score.abs() >= MATE_BOUND {
            break;
        }
        // The soft limit: the next iteration would most likely not finish in time.
        if !limits.exact && limits.time.is_some_and(|t| s.started.elapsed() * 2 > t) {
            break;
        }
    }
    found.nodes = s.nodes;
    Some(found)
}
