//! Iterative deepening at the root: the root turns, the aspiration window around the last
//! iteration's score, the answer of a stopped iteration, and the soft time limit.

use std::sync::atomic::AtomicBool;

use super::pick;
use super::{Found, INFINITY, Limits, MATE_BOUND, MAX_PLY, Searchable, Searcher, TransTable};
use crate::notation::WireMove;

/// A turn of an unfinished iteration that proved better than the turns searched before it:
/// the turn, its score and its line.
type Partial<M> = (M, i32, Vec<WireMove>);

/// Searches by iterative deepening (see [`super::search`]); `reduce` off turns late move
/// reductions off (only to compare with plain alpha-beta).
#[allow(clippy::too_many_arguments)]
pub(super) fn run<P: Searchable>(
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
    let mut root = root_turns(pos, allowed);
    let mut table = table;
    if let Some(t) = table.as_deref_mut() {
        t.new_search();
    }
    let mut s = Searcher::new(limits, stop, table);
    s.reduce = reduce;
    s.remember(pos, history);
    s.first_order(pos, &mut root);
    let first = *root.first()?;
    let mut found = Found {
        mv: pos.wire(first),
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![pos.wire(first)],
    };
    s.deepen(pos, &mut root, &mut found, report);
    found.nodes = s.nodes;
    Some(found)
}

/// The root turns, complete: the `allowed` ones when that is not empty, else all.
fn root_turns<P: Searchable>(pos: &P, allowed: &[WireMove]) -> Vec<P::Move> {
    let mut root = Vec::new();
    if allowed.is_empty() {
        pos.all_candidates(&mut root);
    } else {
        root.extend(allowed.iter().filter_map(|m| pos.read_wire(m)));
    }
    for mv in &mut root {
        *mv = pos.settle(*mv);
    }
    root
}

impl<P: Searchable> Searcher<'_, P> {
    /// Takes the keys of the game before the root `pos` (see [`super::search`]).
    fn remember(&mut self, pos: &P, history: &[u64]) {
        // The root's own key, when the caller included it, is pushed again by `root`.
        let before = match history.split_last() {
            Some((&last, rest)) if last == pos.key() => rest,
            _ => history,
        };
        self.before.extend(before.iter().copied());
    }

    /// The iterations, one depth deeper each, until a limit; `found` is the answer so far
    /// (the first turn before the first iteration), and `report` hears of each new one.
    fn deepen(
        &mut self,
        pos: &P,
        root: &mut [P::Move],
        found: &mut Found,
        report: &mut dyn FnMut(&Found),
    ) {
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32)
            .clamp(1, MAX_PLY as u32);
        let mut previous = 0;
        for depth in 1..=max_depth {
            let (score, partial) = self.iteration(pos, root, depth, previous);
            let Some(score) = score else {
                // Stopped: a turn searched to the end at this depth that beat the first turn
                // searched (the best of the last iteration) is the better answer.
                if let Some((mv, score, pv)) = partial {
                    *found = Found {
                        mv: pv.first().cloned().unwrap_or_else(|| pos.wire(mv)),
                        score,
                        depth: found.depth,
                        nodes: self.nodes,
                        pv,
                    };
                    report(found);
                }
                return;
            };
            previous = score;
            let pv = self.pv_wire(pos);
            *found = Found {
                mv: pv.first().cloned().unwrap_or_else(|| pos.wire(root[0])),
                score,
                depth,
                nodes: self.nodes,
                pv,
            };
            report(found);
            if score.abs() >= MATE_BOUND {
                return;
            }
            // The soft limit: the next iteration would most likely not finish in time.
            let limits = self.limits;
            if !limits.exact && limits.time.is_some_and(|t| self.started.elapsed() * 2 > t) {
                return;
            }
        }
    }

    /// The first ordering of the root turns: the table's move, captures, generation order.
    fn first_order(&mut self, pos: &P, root: &mut [P::Move]) {
        let mut scores = Vec::new();
        let tt = self.probe(pos.key()).and_then(|h| h.mv);
        self.order(pos, root, &mut scores, tt, 0);
        for i in 0..root.len() {
            pick(root, &mut scores, i);
        }
    }

    /// One iteration to `depth`, in a window around the `previous` iteration's score that
    /// widens until the score falls inside it; the best turn moves to the front of `root`.
    /// Returns the score (`None` when stopped) and the best turn found so far at this depth.
    fn iteration(
        &mut self,
        pos: &P,
        root: &mut [P::Move],
        depth: u32,
        previous: i32,
    ) -> (Option<i32>, Option<Partial<P::Move>>) {
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 3 && previous.abs() < MATE_BOUND {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        let mut partial = None;
        loop {
            let (score, best) = self.root(pos, root, depth as i32, alpha, beta);
            if let Some(i) = best.filter(|_| score > alpha) {
                partial = Some((root[i], score, self.pv_wire(pos)));
            }
            if self.aborted {
                return (None, partial);
            }
            if let Some(i) = best.filter(|_| score > alpha) {
                root[..=i].rotate_right(1);
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return (Some(score), partial);
            }
            delta *= 2;
            if delta > 1000 {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }
}
