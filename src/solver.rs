//! Matrix-game solver.
//!
//! Solves finite two-player zero-sum games given by a payoff matrix: the row player picks a row,
//! the column player a column, and the row player receives the entry (the column player pays it).
//! [`solve`] returns the value of the game and an optimal mixed strategy for each side.
//!
//! # Method
//! 1. **Saddle point.** If the best row minimum (maximin) equals the smallest column maximum
//!    (minimax), that entry is a pure equilibrium and is returned at once. This is common and
//!    costs one pass over the matrix; it also settles every 1×n and m×1 game.
//! 2. **Simplex.** Otherwise the payoffs are rescaled affinely into `[1, 2]` (subtract the
//!    minimum, divide by the range, add 1), which keeps the value positive and makes the fixed
//!    tolerances below relative to the payoffs' spread. With `A` the rescaled matrix the column
//!    player's problem is the linear programme
//!
//!    maximise Σ y  subject to  A y ≤ 1,  y ≥ 0,
//!
//!    whose slack basis is feasible, so no phase 1 is needed. It is solved with a dense
//!    *condensed* simplex tableau: an (m+1)×(n+1) array holding only the non-basic columns,
//!    pivoting by exchanging a row label with a column label. The identity columns of the slacks
//!    are never stored; the reduced costs they would carry appear in the objective row under the
//!    labels of the slacks that have left the basis. At the optimum, with `s = Σ y`:
//!    the value of the rescaled game is `1/s`, the column strategy is `y/s`, and the row
//!    strategy is the dual solution (the slacks' reduced costs) divided by `s`. The value is
//!    then mapped back through the inverse of the rescaling.
//!
//! Pivoting uses Dantzig's rule (most negative reduced cost; ratio-test ties go to the largest
//! pivot element, for stability). After a run of degenerate pivots longer than `rows + cols`
//! (the only way Dantzig's rule can cycle) the solve switches for good to Bland's rule, which
//! cannot cycle. A cap on the number of pivots guards against anything unforeseen in floating
//! point: when it is hit, or the final tableau is unusable, the solver logs a warning and
//! returns the pure maximin row and minimax column (see [`Solver::solve`]).
//!
//! # Preconditions
//! Payoffs must be finite (no NaN or infinities; checked by `debug_assert!` only), and so must
//! the difference between the largest and the smallest.

/// Solution of a zero-sum matrix game in which the row player maximises.
///
/// `rows` and `cols` are mixed strategies (non-negative, summing to 1) for the row and column
/// player; `value` is the payoff to the row player when both play them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Solution {
    /// The value of the game to the row player.
    pub value: f64,
    /// Optimal probabilities of the rows, one per row.
    pub rows: Vec<f64>,
    /// Optimal probabilities of the columns, one per column.
    pub(crate) cols: Vec<f64>,
}

/// Solves the zero-sum game with the given row-major payoff matrix (payoffs to the row player,
/// who maximises).
///
/// Allocates a fresh [`Solver`]; to solve many games, keep one [`Solver`] and reuse it.
///
/// # Panics
/// Panics if `rows == 0`, `cols == 0` or `payoff.len() != rows * cols`.
pub fn solve(payoff: &[f64], rows: usize, cols: usize) -> Solution {
    let mut solver = Solver::new();
    solver.solve(payoff, rows, cols);
    solver.into_solution()
}

/// Tolerance on the rescaled tableau, whose initial entries lie in `[1, 2]`: smaller pivots are
/// refused, and reduced costs above `-EPS` count as non-negative.
const EPS: f64 = 1e-9;

/// A reusable workspace for solving matrix games without allocating.
///
/// Its buffers grow to the largest game solved so far and are reused afterwards; the returned
/// [`Solution`] lives in the workspace and is overwritten by the next solve.
#[derive(Clone, Debug, Default)]
pub struct Solver {
    /// Condensed tableau, row-major, `(rows + 1) × (cols + 1)`: the constraint rows, then the
    /// objective row; the last column is the right-hand side.
    tableau: Vec<f64>,
    /// The scaled pivot row, saved before the update (with a zero in the pivot column).
    pivot_row: Vec<f64>,
    /// Label of the basic variable of each constraint row: `j < cols` is `y_j`, `cols + i` is
    /// the slack of row `i` (whose dual is the row player's `x_i`).
    row_labels: Vec<usize>,
    /// Label of the non-basic variable of each tableau column, numbered as `row_labels`.
    col_labels: Vec<usize>,
    /// Column maxima, for the saddle-point check.
    col_max: Vec<f64>,
    solution: Solution,
    /// Consecutive degenerate pivots tolerated before switching to Bland's rule; `None` means
    /// `rows + cols`. Tests set it to force either rule.
    bland_after: Option<usize>,
    /// Pivot cap; `None` means the default. Tests set it to exercise the fallback.
    pivot_cap: Option<usize>,
    /// What the last solve did, for tests and diagnostics.
    stats: Stats,
}

/// How the last solve went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stats {
    pivots: usize,
    saddle: bool,
    used_bland: bool,
    fell_back: bool,
}

/// How the pivot loop ended.
enum Outcome {
    Optimal,
    /// The pivot cap was hit, or no pivot row could be found (impossible in exact arithmetic).
    Failed(&'static str),
}

impl Solver {
    /// An empty workspace.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// The solution of the last solve (all empty before the first).
    pub fn solution(&self) -> &Solution {
        &self.solution
    }

    /// Gives up the workspace, keeping the solution of the last solve.
    pub(crate) fn into_solution(self) -> Solution {
        self.solution
    }

    /// Solves the zero-sum game with the given row-major payoff matrix (payoffs to the row
    /// player, who maximises), and returns the solution held in this workspace.
    ///
    /// Payoffs must be finite (a precondition checked only by `debug_assert!`). If the simplex
    /// fails (which it is not known to do), a warning is logged and the answer is the pure
    /// maximin row against the pure minimax column, with the value halfway between the two
    /// security levels, which bracket the true value.
    ///
    /// # Panics
    /// Panics if `rows == 0`, `cols == 0` or `payoff.len() != rows * cols`.
    pub fn solve(&mut self, payoff: &[f64], rows: usize, cols: usize) -> &Solution {
        assert!(rows > 0 && cols > 0, "solver: empty game {rows}x{cols}");
        assert_eq!(
            payoff.len(),
            rows * cols,
            "solver: payoff length does not match {rows}x{cols}"
        );
        debug_assert!(
            payoff.iter().all(|a| a.is_finite()),
            "solver: payoffs must be finite"
        );
        self.stats = Stats::default();
        let sol = &mut self.solution;
        sol.rows.clear();
        sol.rows.resize(rows, 0.0);
        sol.cols.clear();
        sol.cols.resize(cols, 0.0);

        // Security levels of pure strategies, and the payoff range for rescaling.
        self.col_max.clear();
        self.col_max.extend_from_slice(&payoff[..cols]);
        let (mut maximin, mut maximin_row) = (f64::NEG_INFINITY, 0);
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for (i, row) in payoff.chunks_exact(cols).enumerate() {
            let mut row_min = f64::INFINITY;
            for (&a, cmax) in row.iter().zip(self.col_max.iter_mut()) {
                row_min = row_min.min(a);
                *cmax = cmax.max(a);
                hi = hi.max(a);
            }
            lo = lo.min(row_min);
            if row_min > maximin {
                (maximin, maximin_row) = (row_min, i);
            }
        }
        let (mut minimax, mut minimax_col) = (f64::INFINITY, 0);
        for (j, &cmax) in self.col_max.iter().enumerate() {
            if cmax < minimax {
                (minimax, minimax_col) = (cmax, j);
            }
        }

        if maximin >= minimax {
            // maximin ≤ entry ≤ minimax, so equality makes the entry a saddle point.
            self.stats.saddle = true;
            sol.value = maximin;
            sol.rows[maximin_row] = 1.0;
            sol.cols[minimax_col] = 1.0;
            return &self.solution;
        }

        // No saddle point, so hi > lo and both players have at least two strategies.
        let range = hi - lo;
        let mut outcome = self.simplex(payoff, rows, cols, lo, range);
        if outcome.is_err() && self.bland_after != Some(0) {
            // Rounding led Dantzig's pivots astray (a column whose entries all vanish): the
            // pure fallback below would throw a mixed equilibrium away, so solve again from
            // the start with Bland's rule, which takes other pivots.
            log::debug!("solver: retrying a {rows}x{cols} game with Bland's rule: {payoff:?}");
            let saved = self.bland_after.replace(0);
            self.stats.pivots = 0;
            outcome = self.simplex(payoff, rows, cols, lo, range);
            self.bland_after = saved;
        }
        match outcome {
            Ok(()) => {}
            Err(why) => {
                log::warn!(
                    "solver: simplex failed on a {rows}x{cols} game ({why}); \
                     falling back to pure maximin/minimax strategies"
                );
                self.stats.fell_back = true;
                let sol = &mut self.solution;
                sol.rows.fill(0.0);
                sol.cols.fill(0.0);
                sol.rows[maximin_row] = 1.0;
                sol.cols[minimax_col] = 1.0;
                sol.value = 0.5 * (maximin + minimax);
            }
        }
        &self.solution
    }

    /// Runs the simplex on the rescaled game and writes the solution; `Err` leaves it unusable.
    fn simplex(
        &mut self,
        payoff: &[f64],
        m: usize,
        n: usize,
        lo: f64,
        range: f64,
    ) -> Result<(), &'static str> {
        let w = n + 1;
        let scale = 1.0 / range;
        let t = &mut self.tableau;
        t.clear();
        t.reserve((m + 1) * w);
        for row in payoff.chunks_exact(n) {
            t.extend(row.iter().map(|&a| (a - lo) * scale + 1.0));
            t.push(1.0);
        }
        t.extend(std::iter::repeat_n(-1.0, n));
        t.push(0.0);
        self.row_labels.clear();
        self.row_labels.extend(n..n + m);
        self.col_labels.clear();
        self.col_labels.extend(0..n);
        self.pivot_row.clear();
        self.pivot_row.resize(w, 0.0);

        if let Outcome::Failed(why) = self.pivot_loop(m, n) {
            return Err(why);
        }

        let t = &self.tableau;
        let sum_y = t[m * w + n];
        if !(sum_y > EPS && sum_y.is_finite()) {
            return Err("non-positive objective");
        }
        let sol = &mut self.solution;
        for (c, &label) in self.col_labels.iter().enumerate() {
            if label >= n {
                sol.rows[label - n] = t[m * w + c].max(0.0);
            }
        }
        for (r, &label) in self.row_labels.iter().enumerate() {
            if label < n {
                sol.cols[label] = t[r * w + n].max(0.0);
            }
        }
        if !normalise(&mut sol.rows) || !normalise(&mut sol.cols) {
            return Err("degenerate strategy");
        }
        sol.value = (1.0 / sum_y - 1.0) * range + lo;
        Ok(())
    }

    fn pivot_loop(&mut self, m: usize, n: usize) -> Outcome {
        let w = n + 1;
        let bland_after = self.bland_after.unwrap_or(m + n);
        let cap = self.pivot_cap.unwrap_or(50 * (m + n) + 100);
        let mut bland = bland_after == 0;
        let mut degenerate_run = 0;
        loop {
            let t = &self.tableau;
            let objective = &t[m * w..m * w + n];

            // Entering column.
            let mut q = usize::MAX;
            if bland {
                let mut best_label = usize::MAX;
                for (c, &d) in objective.iter().enumerate() {
                    if d < -EPS && self.col_labels[c] < best_label {
                        (q, best_label) = (c, self.col_labels[c]);
                    }
                }
            } else {
                let mut most_negative = -EPS;
                for (c, &d) in objective.iter().enumerate() {
                    if d < most_negative {
                        (q, most_negative) = (c, d);
                    }
                }
            }
            if q == usize::MAX {
                self.stats.used_bland = bland;
                return Outcome::Optimal;
            }
            if self.stats.pivots >= cap {
                self.stats.used_bland = bland;
                return Outcome::Failed("pivot cap reached");
            }

            // Leaving row: minimum ratio; near-ties by Bland's label order or by largest pivot.
            let mut p = usize::MAX;
            let (mut best_ratio, mut best_pivot) = (f64::INFINITY, 0.0);
            for (r, row) in t.chunks_exact(w).take(m).enumerate() {
                let a = row[q];
                if a <= EPS {
                    continue;
                }
                let ratio = row[n].max(0.0) / a;
                let better = if p == usize::MAX || ratio < best_ratio - EPS {
                    true
                } else if ratio <= best_ratio + EPS {
                    if bland {
                        self.row_labels[r] < self.row_labels[p]
                    } else {
                        a > best_pivot
                    }
                } else {
                    false
                };
                if better {
                    (p, best_ratio, best_pivot) = (r, ratio, a);
                }
            }
            if p == usize::MAX {
                return Outcome::Failed("no pivot row");
            }

            if t[p * w + n] <= EPS {
                degenerate_run += 1;
                if degenerate_run > bland_after {
                    bland = true;
                }
            } else {
                degenerate_run = 0;
            }
            self.pivot(w, p, q);
            std::mem::swap(&mut self.row_labels[p], &mut self.col_labels[q]);
            self.stats.pivots += 1;
        }
    }

    /// Exchanges the basic variable of row `p` with the non-basic variable of column `q`.
    fn pivot(&mut self, w: usize, p: usize, q: usize) {
        let t = &mut self.tableau;
        let prow = &mut self.pivot_row;
        let inv = 1.0 / t[p * w + q];
        for (dst, &src) in prow.iter_mut().zip(&t[p * w..p * w + w]) {
            *dst = src * inv;
        }
        prow[q] = 0.0;
        for (r, row) in t.chunks_exact_mut(w).enumerate() {
            if r == p {
                continue;
            }
            let f = row[q];
            if f != 0.0 {
                for (x, &pr) in row.iter_mut().zip(prow.iter()) {
                    *x -= f * pr;
                }
                row[q] = -f * inv;
            }
        }
        let row = &mut t[p * w..p * w + w];
        row.copy_from_slice(prow);
        row[q] = inv;
    }
}

/// Scales `v` to sum to 1; false if its sum is not positive.
fn normalise(v: &mut [f64]) -> bool {
    let sum: f64 = v.iter().sum();
    if !(sum > 0.0 && sum.is_finite()) {
        return false;
    }
    let inv = 1.0 / sum;
    v.iter_mut().for_each(|x| *x *= inv);
    true
}

#[cfg(test)]
mod tests;
