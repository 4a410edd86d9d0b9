//! Move ordering: the table's move, captures by value, two killers per ply, then history.

use super::{CAPTURE, HISTORY_MAX, HISTORY_SIZE, KILLER, Searchable, Searcher, TABLE_MOVE};

/// Moves the best-scored remaining move to `i` (the first of the best, when several tie).
pub(super) fn pick<M: Copy>(moves: &mut [M], scores: &mut [i32], i: usize) {
    // One pass over the scores alone, without bounds checks, keeping the running best in
    // registers (a conditional move rather than a branch per score).
    let mut best = i;
    let mut top = scores[i];
    for (j, &s) in scores.iter().enumerate().skip(i + 1) {
        if s > top {
            top = s;
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}

impl<P: Searchable> Searcher<'_, P> {
    /// Ordering scores of `moves`: the table move, captures, killers, then history.
    pub(super) fn order(
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

    pub(super) fn rank(&self, pos: &P, mv: P::Move, tt: Option<u64>, ply: usize) -> i32 {
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
    pub(super) fn refine(
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
    pub(super) fn reward(
        &mut self,
        pos: &P,
        mv: P::Move,
        tried: &[P::Move],
        ply: usize,
        depth: i32,
    ) {
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
}
