//! Iterative deepening at the root: the root turns, the aspiration window around the last
//! iteration's score, the answer of a stopped iteration, and the time policy (whether to
//! start another iteration).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::pick;
use super::table::Tier;
use super::{Found, INFINITY, Limits, MATE_BOUND, MAX_PLY, Searchable, Searcher, TransTable};
use crate::notation::WireMove;

/// A turn of an unfinished iteration that proved better than the turns searched before it:
/// the turn, its score and its line.
type Partial<M> = (M, i32, Vec<WireMove>);

/// The growth of an iteration's time over the one before's assumed before two have been
/// timed, and the bounds of a measured one (the first iterations take microseconds, and their
/// ratio says little).
const GROWTH: (f64, f64, f64) = (4.0, 2.0, 12.0);

/// The time policy of a search that need not use its whole budget (a clock's share, not
/// `movetime`): whether the next iteration would likely end by the `deadline`, at `elapsed`,
/// the last iteration having taken `last` and the one before `before` (the next takes `last`
/// times their ratio, bounded by [`GROWTH`]). A search that has time left for an iteration
/// starts it; one that would be stopped halfway keeps its time for later moves.
pub(super) fn next_fits(
    elapsed: Duration,
    last: Duration,
    before: Option<Duration>,
    deadline: Duration,
) -> bool {
    let (assumed, low, high) = GROWTH;
    let growth = before
        .filter(|b| !b.is_zero())
        .map_or(assumed, |b| last.as_secs_f64() / b.as_secs_f64())
        .clamp(low, high);
    elapsed + last.mul_f64(growth) <= deadline
}

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
        hashfull: 0,
    };
    s.deepen(pos, &mut root, &mut found, report);
    found.nodes = s.nodes;
    found.hashfull = s.hashfull();
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
        // When the current iteration started, and how long the one before took.
        let (mut iteration_start, mut last_took) = (self.started.elapsed(), None);
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
                        hashfull: self.hashfull(),
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
                hashfull: self.hashfull(),
            };
            report(found);
            if score.abs() >= MATE_BOUND {
                return;
            }
            // The soft limit: the next iteration would most likely not finish in time.
            let elapsed = self.started.elapsed();
            let took = (elapsed - iteration_start, last_took);
            (iteration_start, last_took) = (elapsed, Some(took.0));
            if let Some(deadline) = self.deadline.filter(|_| !self.limits.exact)
                && !next_fits(elapsed, took.0, took.1, deadline)
            {
                return;
            }
        }
    }

    /// The first ordering of the root turns: the table's move, captures, generation order.
    fn first_order(&mut self, pos: &P, root: &mut [P::Move]) {
        let mut scores = Vec::new();
        let tt = self.probe(Tier::Main, pos.key()).and_then(|h| h.mv);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// The policy's decisions, worked out by hand: the next iteration is predicted to take
    /// the last one's time times the last growth (bounded to 2..12; 4 before two are timed).
    #[test]
    fn an_iteration_starts_only_when_it_would_likely_end_in_time() {
        // Growth 3: 100 + 60·3 = 280 of 1000.
        assert!(next_fits(ms(100), ms(60), Some(ms(20)), ms(1000)));
        // Growth 3: 400 + 300·3 = 1300 > 1000 (a rule of "half the time" would start it).
        assert!(!next_fits(ms(400), ms(300), Some(ms(100)), ms(1000)));
        // Growth 2: 600 + 50·2 = 700 (a rule of "half the time" would not start it).
        assert!(next_fits(ms(600), ms(50), Some(ms(25)), ms(1000)));
        // A growth of 1.2 counts as 2: 800 + 100·2 = 1000, just in time; 801 is not.
        assert!(next_fits(ms(800), ms(100), Some(ms(83)), ms(1000)));
        assert!(!next_fits(ms(801), ms(100), Some(ms(83)), ms(1000)));
        // A growth of 50 counts as 12: 10 + 10·12 = 130.
        assert!(next_fits(
            ms(10),
            ms(10),
            Some(Duration::from_micros(200)),
            ms(130)
        ));
        assert!(!next_fits(
            ms(10),
            ms(10),
            Some(Duration::from_micros(200)),
            ms(129)
        ));
        // Unknown growth (one iteration timed, or the one before took no time): 4.
        assert!(next_fits(ms(10), ms(10), None, ms(50)));
        assert!(!next_fits(ms(10), ms(10), None, ms(49)));
        assert!(!next_fits(ms(10), ms(10), Some(Duration::ZERO), ms(49)));
    }
}
