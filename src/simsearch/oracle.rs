//! The double oracle that solves a node's matrix game: restricted games grown by best
//! responses, each cell searched only as well as its row or column needs.

use super::{FULL, GAIN, SealedRules, Searcher, Solved};

/// A node's position, depth and both sides' moves.
type NodeMoves<'n, G> = (
    &'n G,
    u32,
    &'n [<G as SealedRules>::Move],
    &'n [<G as SealedRules>::Move],
);

/// Indices of one side's lines with their probabilities, most likely first.
type Support = Vec<(usize, f64)>;

impl<G: SealedRules> Searcher<'_, G> {
    /// Solves a node's matrix game by double oracle, from the restricted sets `seed_w` ×
    /// `seed_b`, inside `window`, knowing the value lies in `bounds` and each cell in its
    /// `cells` bounds.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn double_oracle(
        &mut self,
        pos: &G,
        depth: u32,
        window: (f64, f64),
        bounds: (f64, f64),
        (white, black): (&[G::Move], &[G::Move]),
        cells: &mut Cells,
        seed_w: &[usize],
        seed_b: &[usize],
    ) -> Solved {
        let mut rows = self.pool.list(seed_w);
        let mut cols = self.pool.list(seed_b);
        let mut payoff = self.pool.payoffs.pop().unwrap_or_default();
        let node = (pos, depth, white, black);
        let solved = self.oracle_rounds(
            node,
            window,
            bounds,
            cells,
            (&mut rows, &mut cols),
            &mut payoff,
        );
        self.pool.lists.extend([rows, cols]);
        self.pool.payoffs.push(payoff);
        solved
    }

    /// The rounds of [`Searcher::double_oracle`], growing `rows` × `cols`.
    fn oracle_rounds(
        &mut self,
        node: NodeMoves<'_, G>,
        (alpha, beta): (f64, f64),
        (mut lower, mut upper): (f64, f64),
        cells: &mut Cells,
        (rows, cols): (&mut Vec<usize>, &mut Vec<usize>),
        payoff: &mut Vec<f64>,
    ) -> Solved {
        let depth = node.1;
        loop {
            let Some((v, x, y)) = self.restricted(node, cells, rows, cols, payoff) else {
                return Solved::new((lower, upper), 0.5, Vec::new(), Vec::new());
            };
            if depth == self.root_depth {
                self.partial = Some(Solved::new((lower, upper), v, x.clone(), y.clone()));
            }
            // White's best response to y, then Black's to x.
            let best_w = self.best_response::<true>(node, cells, rows, &y, v + GAIN);
            let best_b = self.best_response::<false>(node, cells, cols, &x, v - GAIN);
            if self.aborted {
                self.pool.supports.extend([x, y]);
                continue;
            }
            upper = upper.min(if best_w.1.is_some() { best_w.0 } else { v });
            lower = lower.max(if best_b.1.is_some() { best_b.0 } else { v });
            let converged = best_w.1.is_none() && best_b.1.is_none();
            if converged || upper <= alpha || lower >= beta {
                if converged {
                    (lower, upper) = (v, v);
                }
                return Solved::new((lower.min(upper), upper.max(lower)), v, x, y);
            }
            rows.extend(best_w.1);
            cols.extend(best_b.1);
            self.pool.supports.extend([x, y]);
        }
    }

    /// The equilibrium of the restricted game `rows` × `cols` (every cell of it searched
    /// exactly first): its value and both supports, most likely first; `None` once the
    /// search is stopped.
    fn restricted(
        &mut self,
        (pos, depth, white, black): NodeMoves<'_, G>,
        cells: &mut Cells,
        rows: &[usize],
        cols: &[usize],
        payoff: &mut Vec<f64>,
    ) -> Option<(f64, Support, Support)> {
        for &i in rows {
            for &j in cols {
                self.exact(pos, depth, white, black, cells, i, j);
            }
        }
        if self.aborted {
            return None;
        }
        payoff.clear();
        for &i in rows {
            payoff.extend(cols.iter().map(|&j| cells.lo(i * cells.n + j)));
        }
        self.stats.solves += 1;
        let sol = self.solver.solve(payoff, rows.len(), cols.len());
        let (x, y) = (self.pool.support(), self.pool.support());
        Some((
            sol.value,
            support(x, rows, &sol.rows),
            support(y, cols, &sol.cols),
        ))
    }

    /// The best line outside `restricted` (White rows when `WHITE`, else Black columns)
    /// against the other side's `mix`, with its payoff, if one beats `start` (more for White,
    /// less for Black); else `(start, None)`. The side is a constant, so that each copy's
    /// cell arithmetic has no test of it.
    fn best_response<const WHITE: bool>(
        &mut self,
        node: NodeMoves<'_, G>,
        cells: &mut Cells,
        restricted: &[usize],
        mix: &[(usize, f64)],
        start: f64,
    ) -> (f64, Option<usize>) {
        let (_, _, white, black) = node;
        let lines = if WHITE { white.len() } else { black.len() };
        let mut best = (start, None);
        if lines <= 128 {
            // The lines outside the restricted set as a mask, walked bit by bit: a test per
            // line of whether it is inside mispredicted often.
            let all = u128::MAX >> (128 - lines);
            let mut outside = restricted.iter().fold(all, |m, &l| m & !(1 << l));
            while outside != 0 {
                let line = outside.trailing_zeros() as usize;
                outside &= outside - 1;
                if let Some(s) = self.response::<WHITE>(node, cells, line, mix, best.0) {
                    best = (s, Some(line));
                }
            }
        } else {
            for line in 0..lines {
                if restricted.contains(&line) {
                    continue;
                }
                if let Some(s) = self.response::<WHITE>(node, cells, line, mix, best.0) {
                    best = (s, Some(line));
                }
            }
        }
        best
    }

    /// Makes cell (i, j) exact.
    #[allow(clippy::too_many_arguments)]
    fn exact(
        &mut self,
        pos: &G,
        depth: u32,
        white: &[G::Move],
        black: &[G::Move],
        cells: &mut Cells,
        i: usize,
        j: usize,
    ) {
        let k = i * cells.n + j;
        if cells.is_exact(k) || self.aborted {
            return;
        }
        let v = self.child_value(pos, (white, black), (i, j), depth - 1, FULL);
        cells.set(k, v);
    }

    /// The payoff of one line (a White row when `WHITE`, else a Black column) against the
    /// other side's mixed strategy `mix`, if it beats `threshold` (more for White, less for
    /// Black); `None` as soon as the cells searched show it cannot. Each cell is searched with
    /// the window it must clear for the line to stay in the running.
    #[inline]
    fn response<const WHITE: bool>(
        &mut self,
        node: NodeMoves<'_, G>,
        cells: &mut Cells,
        line: usize,
        mix: &[(usize, f64)],
        threshold: f64,
    ) -> Option<f64> {
        let mut best: f64 = mix
            .iter()
            .map(|&(o, p)| p * cells.optimistic(cells.at(line, o, WHITE), WHITE))
            .sum();
        let beats = |s: f64| if WHITE { s > threshold } else { s < threshold };
        if !beats(best) {
            return None;
        }
        for &(o, p) in mix {
            let k = cells.at(line, o, WHITE);
            if cells.is_exact(k) {
                continue;
            }
            let rest = best - p * cells.optimistic(k, WHITE);
            let t = (threshold - rest) / p;
            let v = self.cell_against::<WHITE>(node, cells, (line, o), k, t)?;
            best = rest + p * v;
        }
        beats(best).then_some(best)
    }

    /// Searches cell `k` (of `line` against the other side's `other`) with the threshold `t`
    /// it must beat for its line to stay in the running: its exact value if it does (the
    /// cell made exact), `None` if it does not (the cell's bound tightened) or the search
    /// was stopped.
    fn cell_against<const WHITE: bool>(
        &mut self,
        (pos, depth, white, black): NodeMoves<'_, G>,
        cells: &mut Cells,
        (line, other): (usize, usize),
        k: usize,
        t: f64,
    ) -> Option<f64> {
        let lists = (white, black);
        let v = if WHITE {
            self.child_value(pos, lists, (line, other), depth - 1, (t, FULL.1))
        } else {
            self.child_value(pos, lists, (other, line), depth - 1, (FULL.0, t))
        };
        if self.aborted {
            return None;
        }
        if WHITE && v <= t {
            let [lo, hi] = cells.bounds[k];
            cells.bounds[k][1] = v.min(hi).max(lo);
            return None;
        }
        if !WHITE && v >= t {
            let [lo, hi] = cells.bounds[k];
            cells.bounds[k][0] = v.max(lo).min(hi);
            return None;
        }
        cells.set(k, v);
        Some(v)
    }
}

/// Cell bounds of a node's matrix (`[lower, upper]`, equal when exact), row-major with `n`
/// columns: a cell's two bounds side by side, as they are read together.
#[derive(Default)]
pub(super) struct Cells {
    bounds: Vec<[f64; 2]>,
    n: usize,
}

impl Cells {
    /// Nothing known of a cell: every value lies in 0 … 1.
    const UNKNOWN: [f64; 2] = [0.0, 1.0];

    /// The cells of an `m` × `n` matrix, nothing known.
    pub(super) fn new(m: usize, n: usize) -> Cells {
        Cells {
            bounds: vec![Cells::UNKNOWN; m * n],
            n,
        }
    }

    /// Makes these the cells of an `m` × `n` matrix, nothing known, keeping the memory.
    pub(super) fn reset(&mut self, m: usize, n: usize) {
        self.bounds.clear();
        self.bounds.resize(m * n, Cells::UNKNOWN);
        self.n = n;
    }

    /// The lower bound of cell `k` (its value when exact).
    fn lo(&self, k: usize) -> f64 {
        self.bounds[k][0]
    }

    /// Whether cell `k` is exact.
    fn is_exact(&self, k: usize) -> bool {
        let [lo, hi] = self.bounds[k];
        lo == hi
    }

    /// The value of cell `k`, if it is exact.
    pub(super) fn exact(&self, k: usize) -> Option<f64> {
        let [lo, hi] = self.bounds[k];
        (lo == hi).then_some(lo)
    }

    /// Makes cell `k` exact at `v`.
    pub(super) fn set(&mut self, k: usize, v: f64) {
        self.bounds[k] = [v, v];
    }

    /// The index of the cell of `line` (a row when `for_white`, else a column) against the
    /// other side's `other`.
    pub(super) fn at(&self, line: usize, other: usize, for_white: bool) -> usize {
        if for_white {
            line * self.n + other
        } else {
            other * self.n + line
        }
    }

    /// The most cell `k` could still be worth to White (`for_white`), or the least (Black).
    fn optimistic(&self, k: usize, for_white: bool) -> f64 {
        self.bounds[k][usize::from(for_white)]
    }
}

/// The lines of `lines` that `probs` plays, most likely first, in `s` (emptied first).
fn support(mut s: Support, lines: &[usize], probs: &[f64]) -> Support {
    s.clear();
    s.extend(
        lines
            .iter()
            .zip(probs)
            .filter(|(_, p)| **p > 0.0)
            .map(|(&i, &p)| (i, p)),
    );
    s.sort_by(|a, b| b.1.total_cmp(&a.1));
    s
}

/// Buffers of finished double oracles, for the next ones to reuse (a node's allocations
/// cost more than its solve).
#[derive(Default)]
pub(super) struct Pool {
    /// Restricted sets of lines.
    lists: Vec<Vec<usize>>,
    /// Payoff matrices of restricted games.
    payoffs: Vec<Vec<f64>>,
    /// Supports of restricted equilibria.
    supports: Vec<Support>,
}

impl Pool {
    /// A list holding `lines`.
    fn list(&mut self, lines: &[usize]) -> Vec<usize> {
        let mut v = self.lists.pop().unwrap_or_default();
        v.clear();
        v.extend_from_slice(lines);
        v
    }

    /// An empty support.
    fn support(&mut self) -> Support {
        self.supports.pop().unwrap_or_default()
    }

    /// Takes back the supports of a solve that is done with.
    pub(super) fn give_back(&mut self, solved: Solved) {
        self.supports.extend([solved.rows, solved.cols]);
    }
}
