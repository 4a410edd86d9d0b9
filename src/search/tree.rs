//! The tree below the root: principal variation search with late move reductions, the table's
//! cutoffs and moves, and quiescence on captures.

use super::table::{Bound, Hit, Tier};
use super::{INFINITY, KILLER, MAX_PLY, Searchable, Searcher, TABLE_MOVE};
use super::{from_table, pick, to_table};
use crate::notation::WireMove;

/// What a node of the main search knows when it goes through its moves.
#[derive(Clone, Copy)]
struct At {
    /// Plies left.
    depth: i32,
    /// Plies from the root.
    ply: usize,
    /// The position's key (for the path).
    key: u64,
    /// The table's move, if any.
    tt: Option<u64>,
}

/// The kind of node a search to `depth` plies is: quiescence at 0 or below.
fn tier(depth: i32) -> Tier {
    if depth <= 0 {
        Tier::Quiescence
    } else {
        Tier::Main
    }
}

/// The score a table entry gives a node searched in the window (`alpha`, `beta`), when it
/// settles it.
fn table_cut(hit: Hit, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let score = from_table(hit.score, ply);
    let cut = match hit.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    cut.then_some(score)
}

impl<P: Searchable> Searcher<'_, P> {
    /// Searches a child of the node at `ply` with a null window first when it is not the
    /// first move, and again with the full window when it beats `alpha`.
    pub(super) fn child(
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

    /// What every node does first: counts itself and, when it is settled without a search
    /// (the game is over, the search must stop, the deepest ply, a repetition), answers
    /// `Err` with its score; else `Ok` with its key.
    fn enter(&mut self, pos: &P, ply: usize) -> Result<u64, i32> {
        self.nodes += 1;
        self.pv[ply].clear();
        if let Some(score) = pos.over() {
            return Err(self.ended(score, ply));
        }
        if self.poll() {
            return Err(0);
        }
        if ply >= MAX_PLY {
            return Err(pos.evaluate());
        }
        let key = pos.key();
        if ply > 0 && self.repeats(pos, key) {
            return Err(self.draw(ply));
        }
        Ok(key)
    }

    fn node(&mut self, pos: &P, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if depth <= 0 {
            return self.quiesce(pos, ply, alpha, beta);
        }
        let key = match self.enter(pos, ply) {
            Ok(key) => key,
            Err(score) => return score,
        };
        let pv_node = beta - alpha > 1;
        let slot = self.slot_key(key, ply);
        let hit = self.probe(Tier::Main, slot);
        if let Some(hit) = hit
            && !pv_node
            && hit.depth >= depth as u32
            && let Some(score) = table_cut(hit, ply, alpha, beta)
        {
            return score;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        pos.candidates(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            self.scores[ply] = scores;
            return self.ended(pos.stuck(), ply);
        }
        // A node that was a quiescence node in the last iteration (or on another path) has
        // its best capture there.
        let tt = hit
            .and_then(|h| h.mv)
            .or_else(|| self.probe(Tier::Quiescence, slot).and_then(|h| h.mv));
        self.order(pos, &moves, &mut scores, tt, ply);
        let at = At {
            depth,
            ply,
            key,
            tt,
        };
        let refined = self.refine_table_move(pos, &mut moves, &mut scores, at);
        let (best, best_move) =
            self.moves_of(pos, &mut moves, &mut scores, at, refined, alpha, beta);
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.aborted {
            return 0;
        }
        let bound = Bound::of(best, alpha, beta);
        let mv = if bound == Bound::Upper {
            None
        } else {
            best_move
        };
        self.store(Tier::Main, slot, depth, bound, to_table(best, ply), mv);
        best
    }

    /// A table move that refines a candidate: refines that candidate now, to try the table
    /// move first; returns the candidate refined.
    fn refine_table_move(
        &self,
        pos: &P,
        moves: &mut Vec<P::Move>,
        scores: &mut Vec<i32>,
        at: At,
    ) -> Option<P::Move> {
        let code = at.tt?;
        if scores.contains(&TABLE_MOVE) {
            return None;
        }
        let j = moves
            .iter()
            .position(|&m| pos.has_code(m, P::base_code(code)))?;
        let base = pos.settle(moves[j]);
        moves[j] = base;
        self.refine(pos, base, moves, scores, at.tt, at.ply);
        Some(base)
    }

    /// Searches the moves of a node in order, best first, until a cutoff; returns the best
    /// score and its move.
    #[allow(clippy::too_many_arguments)]
    fn moves_of(
        &mut self,
        pos: &P,
        moves: &mut Vec<P::Move>,
        scores: &mut Vec<i32>,
        at: At,
        refined: Option<P::Move>,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<P::Move>) {
        let At { depth, ply, .. } = at;
        let mut best = (-INFINITY, None);
        let mut i = 0;
        while i < moves.len() {
            pick(moves, scores, i);
            let mv = pos.settle(moves[i]);
            moves[i] = mv;
            // Late quiet moves are searched shallower first (late move reductions).
            let reduction = if self.reduce && depth >= 3 && i >= 3 && scores[i] < KILLER - 1 {
                if i >= 12 && depth >= 5 { 2 } else { 1 }
            } else {
                0
            };
            let child = self.after(pos, mv, ply, tier(depth - 1 - reduction));
            if i == 1 {
                // The first turn did not cut off, so the others will most likely be searched
                // too: their buckets start on their way now, long before their probes (at
                // depth 1 too: a quiescence child's evaluation alone does not hide a miss
                // of a big table).
                self.prefetch_siblings(pos, &moves[2..], ply, tier(depth - 1));
            }
            self.path.push(at.key);
            let score = self.reduced_child(&child, i == 0, reduction, depth, ply, alpha, beta);
            self.path.pop();
            if self.aborted {
                break;
            }
            if self.better(ply, mv, score, &mut best, &mut alpha, beta) {
                if pos.capture_order(mv).is_none() {
                    self.reward(pos, mv, &moves[..i], ply, depth);
                }
                break;
            }
            if refined != Some(mv) {
                self.refine(pos, mv, moves, scores, at.tt, ply);
            }
            i += 1;
        }
        best
    }

    /// Takes the `score` of `mv` at `ply` into a node's best (score, move) so far and its
    /// window; returns whether it cuts the node off.
    fn better(
        &mut self,
        ply: usize,
        mv: P::Move,
        score: i32,
        best: &mut (i32, Option<P::Move>),
        alpha: &mut i32,
        beta: i32,
    ) -> bool {
        if score > best.0 {
            *best = (score, Some(mv));
            if score > *alpha {
                *alpha = score;
                self.set_pv(ply, mv);
                return *alpha >= beta;
            }
        }
        false
    }

    /// Quiescence: the static score (standing pat) or a capture that beats it.
    pub(super) fn quiesce(&mut self, pos: &P, ply: usize, alpha: i32, beta: i32) -> i32 {
        let key = match self.enter(pos, ply) {
            Ok(key) => key,
            Err(score) => return score,
        };
        let slot = self.slot_key(key, ply);
        // The static score first: it gives the prefetched bucket time to arrive.
        let stand = self.evaluate(pos, key);
        let hit = self.probe(Tier::Quiescence, slot);
        if let Some(score) = hit.and_then(|hit| table_cut(hit, ply, alpha, beta)) {
            return score;
        }
        if stand >= beta {
            return stand;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        pos.noisy(&mut moves);
        let searched = !moves.is_empty();
        let tt = hit.and_then(|h| h.mv);
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            if tt == Some(P::code(m)) {
                TABLE_MOVE
            } else {
                pos.capture_order(m).unwrap_or(0)
            }
        }));
        let (best, best_move) =
            self.captures_of(pos, &mut moves, &mut scores, (ply, key), stand, alpha, beta);
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.aborted {
            return 0;
        }
        // A node with no capture to try scored its static score, which the evaluation cache
        // keeps where the game allows: its entry would only take the place of one that saves
        // a search.
        if searched || !P::CACHE_EVALUATION {
            let bound = Bound::of(best, alpha, beta);
            self.store(
                Tier::Quiescence,
                slot,
                0,
                bound,
                to_table(best, ply),
                best_move,
            );
        }
        best
    }

    /// Searches the captures of a quiescence node at `ply` with key `key` in order, until one
    /// cuts off; returns the best score (at least `stand`) and its move.
    #[allow(clippy::too_many_arguments)]
    fn captures_of(
        &mut self,
        pos: &P,
        moves: &mut [P::Move],
        scores: &mut [i32],
        (ply, key): (usize, u64),
        stand: i32,
        alpha: i32,
        beta: i32,
    ) -> (i32, Option<P::Move>) {
        let mut alpha = alpha.max(stand);
        let mut best = (stand, None);
        for i in 0..moves.len() {
            pick(moves, scores, i);
            let mv = pos.settle(moves[i]);
            moves[i] = mv;
            let child = self.after(pos, mv, ply, Tier::Quiescence);
            if i == 1 {
                // As in the main search: the other captures' buckets, once the first fails.
                self.prefetch_siblings(pos, &moves[2..], ply, Tier::Quiescence);
            }
            self.path.push(key);
            let score = -self.quiesce(&child, ply + 1, -beta, -alpha);
            self.path.pop();
            if self.aborted {
                break;
            }
            if self.better(ply, mv, score, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }

    /// Searches the root turns to `depth` in the window (`alpha`, `beta`); returns the best
    /// score and the index of its turn among the turns searched to the end.
    pub(super) fn root(
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
            let child = self.after(pos, mv, 0, tier(depth - 1));
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
            self.store(
                Tier::Main,
                pos.key(),
                depth,
                Bound::Exact,
                to_table(best, 0),
                mv,
            );
        }
        (best, best_i)
    }

    fn set_pv(&mut self, ply: usize, mv: P::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// The wire form of the principal variation.
    pub(super) fn pv_wire(&self, pos: &P) -> Vec<WireMove> {
        let mut line = Vec::with_capacity(self.pv[0].len());
        let mut p = pos.clone();
        for &mv in &self.pv[0] {
            line.push(p.wire(mv));
            p = p.after(mv);
        }
        line
    }
}
