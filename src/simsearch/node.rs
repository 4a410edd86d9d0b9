//! One node of the sealed search: the table, the pure-strategy bounds, then the matrix game
//! ([`Searcher::value`]), and the helpers that settle a node's fail-soft value.

use super::oracle::Cells;
use super::{MET, SealedRules, Searcher, Solved, tt};
use crate::variant::Side;

impl<G: SealedRules> Searcher<'_, G> {
    /// The value for White of `pos` searched `depth` joint turns deep, fail-soft in the window
    /// (`alpha`, `beta`): a result at or below `alpha` is an upper bound, one at or above
    /// `beta` a lower bound, anything between exact.
    pub(crate) fn value(&mut self, pos: &G, depth: u32, alpha: f64, beta: f64) -> f64 {
        // The table's bucket is fetched while the end test and the move generation run (the
        // moves are wasted on the nodes the table settles, a third of them, but a probe that
        // waits on memory costs more).
        let key = pos.key();
        self.tt.prefetch(key);
        if let Some(v) = self.leaf(pos, depth) {
            return v;
        }
        // Buffers of earlier nodes, reused: a node's allocations cost more than its solve.
        let (mut white, mut black, mut cells) = self.spare.pop().unwrap_or_default();
        pos.moves(Side::White, &mut white);
        pos.moves(Side::Black, &mut black);
        let (mut lower, mut upper) = (0.0f64, 1.0f64);
        let (mut hint_w, mut hint_b) = (None, None);
        if let Some(e) = self.tt.probe(key) {
            (hint_w, hint_b) = (e.white, e.black);
            if e.depth == depth {
                (lower, upper) = (e.lower, e.upper);
                if upper - lower <= MET || upper <= alpha || lower >= beta {
                    self.spare.push((white, black, cells));
                    return settle(lower, upper, alpha, beta);
                }
            }
        }
        promote(&mut white, hint_w);
        promote(&mut black, hint_b);
        cells.reset(white.len(), black.len());
        let node = (pos, key, depth);
        let v = self.matrix(
            node,
            (alpha, beta),
            (lower, upper),
            (&white, &black),
            &mut cells,
        );
        self.spare.push((white, black, cells));
        v
    }

    /// The matrix game of a node not settled by its table entry: the pure-strategy bounds
    /// one turn from the leaves, then the double oracle; the fail-soft value, stored.
    fn matrix(
        &mut self,
        (pos, key, depth): (&G, u64, u32),
        (alpha, beta): (f64, f64),
        (mut lower, mut upper): (f64, f64),
        (white, black): (&[G::Move], &[G::Move]),
        cells: &mut Cells,
    ) -> f64 {
        let (mut seed_w, mut seed_b) = (0, 0);
        if depth == 1 {
            self.prepare_frontier(pos, (white, black));
            ((lower, upper), (seed_w, seed_b)) =
                self.pure_bounds(pos, (alpha, beta), (lower, upper), (white, black), cells);
            if upper - lower <= MET || lower >= beta || upper <= alpha {
                let (w, b) = (Some(white[seed_w]), Some(black[seed_b]));
                return self.exit(key, depth, lower, upper, w, b, alpha, beta);
            }
        }
        let solved = self.double_oracle(
            pos,
            depth,
            (alpha, beta),
            (lower, upper),
            (white, black),
            cells,
            &[seed_w],
            &[seed_b],
        );
        if self.aborted {
            return 0.5;
        }
        self.store(key, depth, &solved, white, black);
        let v = settle_solved(&solved, alpha, beta);
        self.pool.give_back(solved);
        v
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

    pub(super) fn store(
        &mut self,
        key: u64,
        depth: u32,
        s: &Solved,
        white: &[G::Move],
        black: &[G::Move],
    ) {
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

    /// The bounds of a node one turn deep, whose cells are leaves, tightened by its
    /// pure-strategy values: the maximin (White commits first, a lower bound on the value)
    /// and the minimax (Black first, an upper bound), by alpha-beta over the cells inside
    /// the window, knowing the value lies in (`lower`, `upper`); and each side's best pure
    /// line (the double oracle's seeds). Every cell evaluated is kept exact in `cells` (the
    /// minimax reads the maximin's, the double oracle both). The minimax is skipped when
    /// the maximin already fails high.
    ///
    /// Deeper nodes have no such bounds: a serialized search of a deep subtree cost more
    /// leaves than its cut-offs saved (measured: 21.9 M nodes to depth 5 from the start with
    /// them at every depth, 8.4 M with them at depth 1 only).
    fn pure_bounds(
        &mut self,
        pos: &G,
        window: (f64, f64),
        bounds: (f64, f64),
        lists: (&[G::Move], &[G::Move]),
        cells: &mut Cells,
    ) -> ((f64, f64), (usize, usize)) {
        // The cells' evaluation is inlined here ([`SealedRules::frontier_payoff_inline`]),
        // in a copy compiled with `popcnt` when the processor has it.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            #[target_feature(enable = "popcnt")]
            fn fast<G: SealedRules>(
                s: &mut Searcher<'_, G>,
                pos: &G,
                window: (f64, f64),
                bounds: (f64, f64),
                lists: (&[G::Move], &[G::Move]),
                cells: &mut Cells,
            ) -> ((f64, f64), (usize, usize)) {
                s.pure_bounds_inline(pos, window, bounds, lists, cells)
            }
            // SAFETY: the CPU has popcnt (detected just above).
            return unsafe { fast(self, pos, window, bounds, lists, cells) };
        }
        self.pure_bounds_inline(pos, window, bounds, lists, cells)
    }

    /// [`Searcher::pure_bounds`], inlined into each of its copies.
    #[inline(always)]
    fn pure_bounds_inline(
        &mut self,
        pos: &G,
        (alpha, beta): (f64, f64),
        (lower, upper): (f64, f64),
        lists: (&[G::Move], &[G::Move]),
        cells: &mut Cells,
    ) -> ((f64, f64), (usize, usize)) {
        let floor = alpha.max(lower);
        let (l, seed_w) = self.pure(pos, true, (floor, beta), lists, cells);
        // A fail-soft result bounds the value only on its side of the window.
        let lower = if l > floor { l } else { lower };
        if l >= beta {
            return ((lower, upper), (seed_w, 0));
        }
        let ceiling = beta.min(upper);
        let (u, seed_b) = self.pure(pos, false, (alpha, ceiling), lists, cells);
        let upper = if u < ceiling { u } else { upper };
        ((lower, upper), (seed_w, seed_b))
    }

    /// One pure-strategy bound of [`Searcher::pure_bounds`], fail-soft in (`alpha`, `beta`):
    /// with White first the most White can make sure of, with Black first the least Black
    /// can; and the first mover's best line.
    #[inline(always)]
    pub(super) fn pure(
        &mut self,
        pos: &G,
        white_first: bool,
        (alpha, beta): (f64, f64),
        (white, black): (&[G::Move], &[G::Move]),
        cells: &mut Cells,
    ) -> (f64, usize) {
        let (first, second) = if white_first {
            (white, black)
        } else {
            (black, white)
        };
        // The first mover maximises `sign * value`, in the window (a, b) of signed values.
        let (sign, mut a, b) = if white_first {
            (1.0, alpha, beta)
        } else {
            (-1.0, -beta, -alpha)
        };
        let (mut best, mut best_line) = (-3.0, 0);
        // The reply that refuted the last line refuted is tried first (a killer reply).
        let mut killer = 0;
        for i in 0..first.len() {
            let mut worst = 3.0f64;
            for step in 0..second.len() {
                let j = match step {
                    0 => killer,
                    s if s <= killer => s - 1,
                    s => s,
                };
                let k = cells.at(i, j, white_first);
                let cell = if white_first { (i, j) } else { (j, i) };
                let v = self.cell_value(pos, (white, black), cell, k, cells);
                worst = worst.min(sign * v);
                if worst <= a {
                    killer = j;
                    break;
                }
            }
            if worst > best {
                (best, best_line) = (worst, i);
                if best >= b {
                    break;
                }
                a = a.max(best);
            }
        }
        (sign * best, best_line)
    }

    /// The value of cell `k`, the turn of `white[i]` and `black[j]`: its kept value if it
    /// has one, else the leaf's value, then kept.
    #[inline(always)]
    fn cell_value(
        &mut self,
        pos: &G,
        lists: (&[G::Move], &[G::Move]),
        (i, j): (usize, usize),
        k: usize,
        cells: &mut Cells,
    ) -> f64 {
        if let Some(v) = cells.exact(k) {
            return v;
        }
        let v = self.leaf_after_inline(pos, lists, (i, j));
        cells.set(k, v);
        v
    }
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
