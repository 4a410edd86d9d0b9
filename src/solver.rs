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
mod tests {
    use super::*;
    use crate::rng::Rng;
    use proptest::prelude::*;

    const TOL: f64 = 1e-9;

    fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
        assert!(
            (got - want).abs() <= tol,
            "{what}: got {got}, want {want} (tolerance {tol})"
        );
    }

    fn assert_vec_close(got: &[f64], want: &[f64], tol: f64, what: &str) {
        assert_eq!(got.len(), want.len(), "{what}: length");
        for (k, (g, w)) in got.iter().zip(want).enumerate() {
            assert_close(*g, *w, tol, &format!("{what}[{k}]"));
        }
    }

    /// Checks the equilibrium conditions directly, independently of how the solution was found:
    /// both strategies are probability vectors, the row strategy earns at least `value` against
    /// every column, and the column strategy concedes at most `value` to every row.
    fn check_equilibrium(a: &[f64], m: usize, n: usize, sol: &Solution, tol: f64) {
        let ctx = || format!("{m}x{n} game {a:?}\nsolution {sol:?}");
        assert_eq!(sol.rows.len(), m, "{}", ctx());
        assert_eq!(sol.cols.len(), n, "{}", ctx());
        assert!(sol.value.is_finite(), "{}", ctx());
        for p in sol.rows.iter().chain(&sol.cols) {
            assert!(
                *p >= 0.0 && p.is_finite(),
                "negative probability; {}",
                ctx()
            );
        }
        let sum_rows: f64 = sol.rows.iter().sum();
        let sum_cols: f64 = sol.cols.iter().sum();
        assert!(
            (sum_rows - 1.0).abs() <= 1e-9,
            "row sum {sum_rows}; {}",
            ctx()
        );
        assert!(
            (sum_cols - 1.0).abs() <= 1e-9,
            "col sum {sum_cols}; {}",
            ctx()
        );
        for j in 0..n {
            let earned: f64 = (0..m).map(|i| sol.rows[i] * a[i * n + j]).sum();
            assert!(
                earned >= sol.value - tol,
                "column {j} holds the row player to {earned} < value {}; {}",
                sol.value,
                ctx()
            );
        }
        for i in 0..m {
            let conceded: f64 = (0..n).map(|j| a[i * n + j] * sol.cols[j]).sum();
            assert!(
                conceded <= sol.value + tol,
                "row {i} wins {conceded} > value {}; {}",
                sol.value,
                ctx()
            );
        }
    }

    fn random_matrix(rng: &mut Rng, m: usize, n: usize) -> Vec<f64> {
        (0..m * n).map(|_| rng.next_f64()).collect()
    }

    /// The value of a 2×n game by brute force over the row player's mixing probability: the
    /// lower envelope of the lines `p ↦ p A0j + (1-p) A1j` is concave and piecewise linear, so
    /// its maximum lies at an endpoint or where two lines cross.
    fn value_2xn_brute_force(a: &[f64], n: usize) -> f64 {
        let line = |j: usize, p: f64| p * a[j] + (1.0 - p) * a[n + j];
        let envelope = |p: f64| (0..n).map(|j| line(j, p)).fold(f64::INFINITY, f64::min);
        let mut candidates = vec![0.0, 1.0];
        for j in 0..n {
            for k in j + 1..n {
                // p (A0j - A1j) + A1j = p (A0k - A1k) + A1k
                let slope_diff = (a[j] - a[n + j]) - (a[k] - a[n + k]);
                if slope_diff != 0.0 {
                    let p = (a[n + k] - a[n + j]) / slope_diff;
                    if (0.0..=1.0).contains(&p) {
                        candidates.push(p);
                    }
                }
            }
        }
        candidates
            .into_iter()
            .map(envelope)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn one_by_one() {
        let sol = solve(&[-3.5], 1, 1);
        assert_eq!(
            sol,
            Solution {
                value: -3.5,
                rows: vec![1.0],
                cols: vec![1.0]
            }
        );
    }

    #[test]
    fn single_row_and_single_column() {
        // The row player has no choice: the column player takes the smallest entry.
        let sol = solve(&[4.0, 2.0, 7.0], 1, 3);
        assert_eq!(sol.value, 2.0);
        assert_eq!(sol.cols, vec![0.0, 1.0, 0.0]);
        // The column player has no choice: the row player takes the largest entry.
        let sol = solve(&[4.0, 2.0, 7.0], 3, 1);
        assert_eq!(sol.value, 7.0);
        assert_eq!(sol.rows, vec![0.0, 0.0, 1.0]);
    }

    #[test]
    fn matching_pennies() {
        let a = [1.0, -1.0, -1.0, 1.0];
        let sol = solve(&a, 2, 2);
        assert_close(sol.value, 0.0, TOL, "value");
        assert_vec_close(&sol.rows, &[0.5, 0.5], TOL, "rows");
        assert_vec_close(&sol.cols, &[0.5, 0.5], TOL, "cols");
    }

    #[test]
    fn rock_paper_scissors() {
        #[rustfmt::skip]
        let a = [
             0.0, -1.0,  1.0,
             1.0,  0.0, -1.0,
            -1.0,  1.0,  0.0,
        ];
        let sol = solve(&a, 3, 3);
        let third = 1.0 / 3.0;
        assert_close(sol.value, 0.0, TOL, "value");
        assert_vec_close(&sol.rows, &[third; 3], TOL, "rows");
        assert_vec_close(&sol.cols, &[third; 3], TOL, "cols");
    }

    #[test]
    fn two_by_two_closed_form() {
        // For [[a, b], [c, d]] without a saddle point, with D = a - b - c + d:
        // p = (d - c) / D on the first row, q = (d - b) / D on the first column,
        // value = (a d - b c) / D.
        for &(a, b, c, d) in &[
            (3.0, -1.0, -2.0, 4.0),
            (0.25, 0.9, 0.8, 0.1),
            (-7.0, 5.0, 2.0, -1.5),
            (1e6, -2e6, -3e6, 4e6),
        ] {
            let big_d = a - b - c + d;
            let (p, q, v) = ((d - c) / big_d, (d - b) / big_d, (a * d - b * c) / big_d);
            let scale = f64::max(
                1.0,
                [a, b, c, d].iter().fold(0.0, |m, x: &f64| m.max(x.abs())),
            );
            let sol = solve(&[a, b, c, d], 2, 2);
            assert_close(sol.value, v, TOL * scale, "value");
            assert_vec_close(&sol.rows, &[p, 1.0 - p], TOL, "rows");
            assert_vec_close(&sol.cols, &[q, 1.0 - q], TOL, "cols");
        }
    }

    #[test]
    fn saddle_point() {
        // Row minima 2, 1, 3 and column maxima 5, 3, 7: the entry (2, 1) = 3 is a saddle point.
        #[rustfmt::skip]
        let a = [
            4.0, 2.0, 5.0,
            3.0, 1.0, 6.0,
            5.0, 3.0, 7.0,
        ];
        let mut solver = Solver::new();
        let sol = solver.solve(&a, 3, 3).clone();
        assert_eq!(sol.value, 3.0);
        assert_eq!(sol.rows, vec![0.0, 0.0, 1.0]);
        assert_eq!(sol.cols, vec![0.0, 1.0, 0.0]);
        assert!(solver.stats.saddle);
    }

    #[test]
    fn dominated_row_gets_no_weight() {
        // Row 2 (1, -3) is strictly dominated by row 0 (3, -1); the rest is the 2×2 game
        // [[3, -1], [-2, 4]]: D = 10, p = 6/10, q = 5/10, value = (12 - 2)/10 = 1.
        let a = [3.0, -1.0, -2.0, 4.0, 1.0, -3.0];
        let sol = solve(&a, 3, 2);
        assert_close(sol.value, 1.0, TOL, "value");
        assert_vec_close(&sol.rows, &[0.6, 0.4, 0.0], TOL, "rows");
        assert_vec_close(&sol.cols, &[0.5, 0.5], TOL, "cols");
    }

    #[test]
    fn dominated_column_gets_no_weight() {
        // Column 2 (5, 6) is dominated (for the minimising column player) by column 0 (3, -2).
        let a = [3.0, -1.0, 5.0, -2.0, 4.0, 6.0];
        let sol = solve(&a, 2, 3);
        assert_close(sol.value, 1.0, TOL, "value");
        assert_vec_close(&sol.rows, &[0.6, 0.4], TOL, "rows");
        assert_vec_close(&sol.cols, &[0.5, 0.5, 0.0], TOL, "cols");
    }

    #[test]
    fn three_by_two_by_hand() {
        // A = [[5, 0], [0, 4], [2, 3]]. Against column mix (q, 1-q) the rows earn 5q, 4 - 4q and
        // 3 - q; their upper envelope is lowest where 5q = 3 - q, at q = 1/2, value 5/2 (row 1
        // earns only 2 there). Mixing rows 0 and 2 as (a, 1-a): 3a + 2 = 3 - 3a gives a = 1/6.
        let a = [5.0, 0.0, 0.0, 4.0, 2.0, 3.0];
        let sol = solve(&a, 3, 2);
        assert_close(sol.value, 2.5, TOL, "value");
        assert_vec_close(&sol.rows, &[1.0 / 6.0, 0.0, 5.0 / 6.0], TOL, "rows");
        assert_vec_close(&sol.cols, &[0.5, 0.5], TOL, "cols");
    }

    #[test]
    fn two_by_three_by_hand() {
        // A = [[1, 3, 0], [2, 0, 4]]. Against row mix (p, 1-p) the columns give 2 - p, 3p and
        // 4 - 4p; their lower envelope peaks where 2 - p = 3p, at p = 1/2, value 3/2 (column 2
        // gives 2 there). Mixing columns 0 and 1 as (q, 1-q): 3 - 2q = 2q gives q = 3/4.
        let a = [1.0, 3.0, 0.0, 2.0, 0.0, 4.0];
        let sol = solve(&a, 2, 3);
        assert_close(sol.value, 1.5, TOL, "value");
        assert_vec_close(&sol.rows, &[0.5, 0.5], TOL, "rows");
        assert_vec_close(&sol.cols, &[0.75, 0.25, 0.0], TOL, "cols");
    }

    #[test]
    fn row_of_equal_values() {
        // Row 0 is constant 1, and rows 1 and 2 mixed half and half also guarantee 1. The column
        // player holds every row to 1 only with (1/2, 1/2): 2q ≤ 1 and 2 - 2q ≤ 1.
        let a = [1.0, 1.0, 2.0, 0.0, 0.0, 2.0];
        let sol = solve(&a, 3, 2);
        assert_close(sol.value, 1.0, TOL, "value");
        assert_vec_close(&sol.cols, &[0.5, 0.5], TOL, "cols");
        check_equilibrium(&a, 3, 2, &sol, 1e-9);
    }

    #[test]
    fn column_of_equal_values() {
        // A = [[1, 3, 0], [1, 0, 3]]: column 0 holds the row player to 1, and any row mix with
        // x0 in [1/3, 2/3] earns at least 1 everywhere. y must be (1, 0, 0): with y = (a, b, c),
        // a + 3b ≤ 1 and a + 3c ≤ 1 add up to 2 + (b + c) ≤ 2.
        let a = [1.0, 3.0, 0.0, 1.0, 0.0, 3.0];
        let sol = solve(&a, 2, 3);
        assert_close(sol.value, 1.0, TOL, "value");
        assert_vec_close(&sol.cols, &[1.0, 0.0, 0.0], TOL, "cols");
        assert!((1.0 / 3.0 - TOL..=2.0 / 3.0 + TOL).contains(&sol.rows[0]));
        check_equilibrium(&a, 2, 3, &sol, 1e-9);
    }

    #[test]
    fn all_equal_matrix() {
        let a = [2.5; 12];
        let sol = solve(&a, 3, 4);
        assert_eq!(sol.value, 2.5);
        check_equilibrium(&a, 3, 4, &sol, 0.0);
    }

    #[test]
    fn random_games_satisfy_equilibrium_conditions() {
        let mut rng = Rng::new(0x5eed);
        let mut solver = Solver::new();
        let mut simplex_solves = 0;
        for m in 1..=12 {
            for n in 1..=12 {
                for _ in 0..20 {
                    let a = random_matrix(&mut rng, m, n);
                    let sol = solver.solve(&a, m, n);
                    check_equilibrium(&a, m, n, sol, 1e-7);
                    assert!(!solver.stats.fell_back);
                    simplex_solves += usize::from(!solver.stats.saddle);
                }
            }
        }
        // Most random games have no saddle point, so the simplex itself was tested.
        assert!(simplex_solves > 2000, "{simplex_solves}");
    }

    #[test]
    fn large_random_games_satisfy_equilibrium_conditions() {
        let mut rng = Rng::new(30);
        let mut solver = Solver::new();
        for (m, n, count) in [(30, 30, 20), (30, 7, 5), (7, 30, 5), (60, 60, 3)] {
            for _ in 0..count {
                let a = random_matrix(&mut rng, m, n);
                let sol = solver.solve(&a, m, n);
                check_equilibrium(&a, m, n, sol, 1e-7);
                assert!(!solver.stats.saddle && !solver.stats.fell_back);
            }
        }
    }

    #[test]
    fn degenerate_integer_games_satisfy_equilibrium_conditions() {
        // Few distinct values make ties everywhere: degenerate pivots, tied ratios, many optima.
        let mut rng = Rng::new(99);
        for bland_after in [None, Some(0), Some(1)] {
            let mut solver = Solver {
                bland_after,
                ..Solver::default()
            };
            for levels in [2, 3, 5] {
                for _ in 0..1500 {
                    let m = 1 + rng.below(8) as usize;
                    let n = 1 + rng.below(8) as usize;
                    let a: Vec<f64> = (0..m * n).map(|_| rng.below(levels) as f64 - 1.0).collect();
                    let sol = solver.solve(&a, m, n);
                    check_equilibrium(&a, m, n, sol, 1e-9);
                    assert!(!solver.stats.fell_back);
                    if bland_after == Some(0) && !solver.stats.saddle {
                        assert!(solver.stats.used_bland);
                    }
                }
            }
        }
    }

    #[test]
    fn blands_rule_throughout_solves_random_games() {
        let mut rng = Rng::new(7);
        let mut solver = Solver {
            bland_after: Some(0),
            ..Solver::default()
        };
        for (m, n) in [(2, 2), (5, 9), (12, 12), (30, 30)] {
            for _ in 0..10 {
                let a = random_matrix(&mut rng, m, n);
                let sol = solver.solve(&a, m, n);
                check_equilibrium(&a, m, n, sol, 1e-7);
            }
        }
    }

    #[test]
    fn badly_scaled_games_satisfy_equilibrium_conditions() {
        let mut rng = Rng::new(11);
        for (offset, spread) in [(1e9, 1e-3), (-5e6, 1e6), (0.0, 1e-6)] {
            for _ in 0..50 {
                let (m, n) = (1 + rng.below(10) as usize, 1 + rng.below(10) as usize);
                let a: Vec<f64> = (0..m * n)
                    .map(|_| offset + spread * rng.next_f64())
                    .collect();
                let sol = solve(&a, m, n);
                // Rounding of the payoffs themselves is ~1e-16 of the offset.
                let tol = 1e-7 * spread + 1e-14 * f64::abs(offset);
                check_equilibrium(&a, m, n, &sol, tol);
            }
        }
    }

    #[test]
    fn two_by_n_value_matches_lower_envelope() {
        let mut rng = Rng::new(2);
        for n in 1..=15 {
            for _ in 0..40 {
                let a = random_matrix(&mut rng, 2, n);
                let sol = solve(&a, 2, n);
                let want = value_2xn_brute_force(&a, n);
                assert_close(sol.value, want, 1e-9, &format!("2x{n} game {a:?}"));
            }
        }
        // And on integer games, where lines coincide and cross at shared points.
        for n in 1..=8 {
            for _ in 0..200 {
                let a: Vec<f64> = (0..2 * n).map(|_| rng.below(4) as f64).collect();
                let sol = solve(&a, 2, n);
                let want = value_2xn_brute_force(&a, n);
                assert_close(sol.value, want, 1e-9, &format!("2x{n} game {a:?}"));
            }
        }
    }

    #[test]
    fn workspace_reuse_across_sizes_matches_fresh_solves() {
        let mut rng = Rng::new(5);
        let mut solver = Solver::new();
        for (m, n) in [(30, 30), (2, 3), (12, 4), (1, 1), (4, 12), (30, 30), (3, 3)] {
            let a = random_matrix(&mut rng, m, n);
            let reused = solver.solve(&a, m, n).clone();
            assert_eq!(reused, solve(&a, m, n));
        }
    }

    #[test]
    fn pivot_cap_falls_back_to_pure_security_strategies() {
        // Matching pennies needs pivots; with none allowed the solver must fall back.
        let a = [1.0, -1.0, -1.0, 1.0];
        let mut solver = Solver {
            pivot_cap: Some(0),
            ..Solver::default()
        };
        let sol = solver.solve(&a, 2, 2).clone();
        assert!(solver.stats.fell_back);
        // Both pure security levels are -1 and 1; the fallback reports their midpoint.
        assert_eq!(sol.value, 0.0);
        assert_eq!(sol.rows.iter().filter(|p| **p == 1.0).count(), 1);
        assert_eq!(sol.cols.iter().filter(|p| **p == 1.0).count(), 1);
        assert_eq!(sol.rows.iter().sum::<f64>(), 1.0);
        assert_eq!(sol.cols.iter().sum::<f64>(), 1.0);
    }

    #[test]
    #[should_panic]
    fn mismatched_length_panics() {
        solve(&[1.0, 2.0, 3.0], 2, 2);
    }

    #[test]
    #[should_panic]
    fn empty_game_panics() {
        solve(&[], 0, 3);
    }

    proptest! {
        #[test]
        fn small_integer_games_satisfy_equilibrium_conditions(
            (m, n, a) in (1usize..=7, 1usize..=7).prop_flat_map(|(m, n)| {
                (Just(m), Just(n), prop::collection::vec(-3i32..=3, m * n))
            })
        ) {
            let a: Vec<f64> = a.into_iter().map(f64::from).collect();
            let sol = solve(&a, m, n);
            check_equilibrium(&a, m, n, &sol, 1e-9);
            if m == 2 {
                let want = value_2xn_brute_force(&a, n);
                prop_assert!((sol.value - want).abs() <= 1e-9, "{} vs {}", sol.value, want);
            }
        }
    }
}
