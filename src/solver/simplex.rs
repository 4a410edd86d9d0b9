//! The condensed simplex tableau of the column player's linear programme (the module docs of
//! [`super`] give the method), generic over the number type: `f64` first, [`Dd`] where
//! rounding led the `f64` one astray.

use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Neg, Sub};

use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::dd::Dd;
use super::{Security, Solution, Stats};

/// A number the tableau can be held in.
pub(super) trait Scalar:
    Clone
    + Debug
    + Default
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The number equal to `x`.
    fn of(x: f64) -> Self;
    /// The nearest `f64`.
    fn to_f64(&self) -> f64;
    /// The affine map `(a − lo) · scale + offset` that loads payoffs spread over `range` into
    /// the tableau, as `(scale, offset, 1/scale)`: `1/range` and 1 (entries in `[1, 2]`, which
    /// the fixed tolerances of a rounding type are tuned for) unless the type is exact.
    fn map(range: f64) -> (Self, Self, Self) {
        (
            Self::of(1.0) / Self::of(range),
            Self::of(1.0),
            Self::of(range),
        )
    }
}

impl Scalar for f64 {
    fn of(x: f64) -> f64 {
        x
    }
    fn to_f64(&self) -> f64 {
        *self
    }
}

impl Scalar for Dd {
    fn of(x: f64) -> Dd {
        Dd::of(x)
    }
    fn to_f64(&self) -> f64 {
        Dd::to_f64(*self)
    }
}

impl Scalar for BigRational {
    fn of(x: f64) -> BigRational {
        // Every finite `f64` is a rational; the solver's payoffs are finite (its precondition).
        BigRational::from_float(x).unwrap_or_default()
    }
    fn to_f64(&self) -> f64 {
        ToPrimitive::to_f64(self).unwrap_or(f64::NAN)
    }
    /// A shift by `range` alone (entries in `[range, 2 range]`, positive as the method needs):
    /// a division by `range` would give every entry its odd factors, and each operation a
    /// costlier reduction (a quarter slower on random 8 × 8 to 20 × 20 games).
    fn map(range: f64) -> (BigRational, BigRational, BigRational) {
        (Self::of(1.0), Self::of(range), Self::of(1.0))
    }
}

/// How a simplex run went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Run {
    /// Pivots made.
    pub(super) pivots: usize,
    /// Whether Bland's rule was in force at the end.
    pub(super) used_bland: bool,
}

/// Pivoting rules and limits of one run.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rules {
    /// Consecutive degenerate pivots tolerated before switching to Bland's rule for good.
    pub(super) bland_after: usize,
    /// The most pivots.
    pub(super) cap: usize,
    /// Tolerance on the rescaled tableau, whose initial entries lie in `[1, 2]`: smaller
    /// pivots are refused, reduced costs above `-eps` count as non-negative, and ratios within
    /// `eps` of each other are tied. It must be well above the number type's rounding noise
    /// (times what the pivots amplify it by), and should be below the smallest genuine entry.
    pub(super) eps: f64,
    /// Whether `eps` is relative: a pivot must exceed `eps` times the largest entry of its
    /// column (at least 1), a reduced cost must lie below `-eps` times the largest one in the
    /// objective row. After a pivot on a small entry the tableau's entries grow by its inverse,
    /// and so does their rounding noise: an entry that is zero in exact arithmetic shows up as
    /// the rounding of its column's magnitude (seen: 3.5e-22 under entries of 8e10 in
    /// double-double, an absolute `eps` of 1e-22 took it for a pivot and the answer was 0.12
    /// from an equilibrium). The `f64` tableau keeps the absolute rule it was tuned with.
    pub(super) relative: bool,
}

/// What [`Rules::eps`] is multiplied by for a test on `entries`: 1 under an absolute rule,
/// else the largest magnitude among them (at least 1).
fn scale<'a, T: Scalar + 'a>(rules: Rules, entries: impl Iterator<Item = &'a T>) -> f64 {
    if !rules.relative {
        return 1.0;
    }
    entries.fold(1.0, |most, x| most.max(x.to_f64().abs()))
}

/// A condensed tableau and its labels.
#[derive(Clone, Debug, Default)]
pub(super) struct Tableau<T> {
    /// Row-major, `(rows + 1) × (cols + 1)`: the constraint rows, then the objective row; the
    /// last column is the right-hand side.
    t: Vec<T>,
    /// The scaled pivot row, saved before the update (with a zero in the pivot column).
    pivot_row: Vec<T>,
    /// Label of the basic variable of each constraint row: `j < cols` is `y_j`, `cols + i` is
    /// the slack of row `i` (whose dual is the row player's `x_i`).
    row_labels: Vec<usize>,
    /// Label of the non-basic variable of each tableau column, numbered as `row_labels`.
    col_labels: Vec<usize>,
    m: usize,
    n: usize,
}

/// The rescaled game's optimum, in the tableau's number type.
pub(super) struct Optimum<T> {
    /// `s = Σ y`, so that the rescaled game's value is `1/s`.
    pub(super) sum_y: T,
}

impl<T: Scalar> Tableau<T> {
    /// Loads the `m × n` game `payoff` rescaled by [`Scalar::map`], with the slack basis.
    pub(super) fn load(&mut self, payoff: &[f64], m: usize, n: usize, lo: f64, range: f64) {
        (self.m, self.n) = (m, n);
        let (lo, one) = (T::of(lo), T::of(1.0));
        let (scale, offset, _) = T::map(range);
        self.t.clear();
        self.t.reserve((m + 1) * (n + 1));
        for row in payoff.chunks_exact(n).take(m) {
            self.t.extend(
                row.iter()
                    .map(|&a| (T::of(a) - lo.clone()) * scale.clone() + offset.clone()),
            );
            self.t.push(one.clone());
        }
        self.t.extend(std::iter::repeat_n(-one.clone(), n));
        self.t.push(T::default());
        self.row_labels.clear();
        self.row_labels.extend(n..n + m);
        self.col_labels.clear();
        self.col_labels.extend(0..n);
        self.pivot_row.clear();
        self.pivot_row.resize(n + 1, T::default());
    }

    /// Pivots until no reduced cost is negative (optimal); `Err` if the cap is reached or no
    /// pivot row can be found (impossible in exact arithmetic).
    pub(super) fn run(&mut self, rules: Rules, run: &mut Run) -> Result<Optimum<T>, &'static str> {
        let (m, n, w, eps) = (self.m, self.n, self.n + 1, rules.eps);
        let mut bland = rules.bland_after == 0;
        let mut degenerate_run = 0;
        loop {
            let Some(q) = self.entering_column(bland, rules) else {
                run.used_bland = bland;
                break;
            };
            if run.pivots >= rules.cap {
                run.used_bland = bland;
                return Err("pivot cap reached");
            }
            let p = self.leaving_row(q, bland, rules).ok_or("no pivot row")?;
            if self.t[p * w + n].to_f64() <= eps {
                degenerate_run += 1;
                bland |= degenerate_run > rules.bland_after;
            } else {
                degenerate_run = 0;
            }
            self.pivot(p, q);
            run.pivots += 1;
        }
        let sum_y = self.t[m * w + n].clone();
        let s = sum_y.to_f64();
        if !(s > eps && s.is_finite()) {
            return Err("non-positive objective");
        }
        Ok(Optimum { sum_y })
    }

    /// Writes the unnormalised strategies of the optimum: the slacks' reduced costs (the
    /// duals) into `rows`, the basic `y` into `cols`; both start at zero.
    pub(super) fn strategies(&self, rows: &mut [f64], cols: &mut [f64]) {
        let (m, n, w) = (self.m, self.n, self.n + 1);
        rows.fill(0.0);
        cols.fill(0.0);
        for (c, &label) in self.col_labels.iter().enumerate() {
            if label >= n {
                rows[label - n] = self.t[m * w + c].to_f64().max(0.0);
            }
        }
        for (r, &label) in self.row_labels.iter().enumerate() {
            if label < n {
                cols[label] = self.t[r * w + n].to_f64().max(0.0);
            }
        }
    }

    /// The basis's equalising sets: the rows whose slack is non-basic (the row player's
    /// support, each holding the column strategy to the value) and the columns whose `y` is
    /// basic (the column player's support). There are as many of each.
    pub(super) fn basis(&self, rows: &mut Vec<usize>, cols: &mut Vec<usize>) {
        let n = self.n;
        rows.clear();
        rows.extend(self.col_labels.iter().filter(|&&l| l >= n).map(|&l| l - n));
        cols.clear();
        cols.extend(self.row_labels.iter().copied().filter(|&l| l < n));
    }

    /// The entering column: a reduced cost below the tolerance's negative (see [`Rules`]), the
    /// lowest label under Bland's rule,
    /// else the most negative (Dantzig); `None` at the optimum.
    fn entering_column(&self, bland: bool, rules: Rules) -> Option<usize> {
        let (m, n, w) = (self.m, self.n, self.n + 1);
        let objective = &self.t[m * w..m * w + n];
        let mut q = None;
        let mut best = T::of(-rules.eps * scale(rules, objective.iter()));
        let mut best_label = usize::MAX;
        for (c, d) in objective.iter().enumerate() {
            if bland {
                if *d < best && self.col_labels[c] < best_label {
                    (q, best_label) = (Some(c), self.col_labels[c]);
                }
            } else if *d < best {
                (q, best) = (Some(c), d.clone());
            }
        }
        q
    }

    /// The leaving row for entering column `q`: the minimum ratio over pivots above the
    /// tolerance (see [`Rules`]);
    /// near-ties go to the lowest label under Bland's rule, else to the largest pivot.
    fn leaving_row(&self, q: usize, bland: bool, rules: Rules) -> Option<usize> {
        let (m, n, w) = (self.m, self.n, self.n + 1);
        let column = self.t.chunks_exact(w).take(m).map(|row| &row[q]);
        let least = T::of(rules.eps * scale(rules, column));
        let eps = T::of(rules.eps);
        let mut best: Option<(usize, T, T)> = None;
        for (r, row) in self.t.chunks_exact(w).take(m).enumerate() {
            let a = &row[q];
            if *a <= least {
                continue;
            }
            let rhs = if row[n] > T::default() {
                row[n].clone()
            } else {
                T::default()
            };
            let ratio = rhs / a.clone();
            let better = match &best {
                None => true,
                Some((p, best_ratio, best_pivot)) => {
                    if ratio < best_ratio.clone() - eps.clone() {
                        true
                    } else if ratio <= best_ratio.clone() + eps.clone() {
                        if bland {
                            self.row_labels[r] < self.row_labels[*p]
                        } else {
                            a > best_pivot
                        }
                    } else {
                        false
                    }
                }
            };
            if better {
                best = Some((r, ratio, a.clone()));
            }
        }
        best.map(|(p, ..)| p)
    }

    /// Exchanges the basic variable of row `p` with the non-basic variable of column `q`.
    fn pivot(&mut self, p: usize, q: usize) {
        let w = self.n + 1;
        let t = &mut self.t;
        let prow = &mut self.pivot_row;
        let inv = T::of(1.0) / t[p * w + q].clone();
        for (dst, src) in prow.iter_mut().zip(&t[p * w..p * w + w]) {
            *dst = src.clone() * inv.clone();
        }
        prow[q] = T::default();
        for (r, row) in t.chunks_exact_mut(w).enumerate() {
            if r == p {
                continue;
            }
            let f = row[q].clone();
            if f != T::default() {
                for (x, pr) in row.iter_mut().zip(prow.iter()) {
                    *x = x.clone() - f.clone() * pr.clone();
                }
                row[q] = -(f * inv.clone());
            }
        }
        let row = &mut t[p * w..p * w + w];
        row.clone_from_slice(prow);
        row[q] = inv;
        std::mem::swap(&mut self.row_labels[p], &mut self.col_labels[q]);
    }
}

/// Runs the simplex in `tableau` on the rescaled game, writes the solution into `sol` (`Err`
/// leaves it unusable) and adds the run to `stats`.
pub(super) fn simplex<T: Scalar>(
    tableau: &mut Tableau<T>,
    payoff: &[f64],
    sec: &Security,
    rules: Rules,
    sol: &mut Solution,
    stats: &mut Stats,
) -> Result<(), &'static str> {
    let range = sec.hi - sec.lo;
    tableau.load(payoff, sol.rows.len(), sol.cols.len(), sec.lo, range);
    let mut run = Run::default();
    let optimum = tableau.run(rules, &mut run);
    stats.pivots += run.pivots;
    stats.used_bland |= run.used_bland;
    let sum_y = optimum?.sum_y;
    tableau.strategies(&mut sol.rows, &mut sol.cols);
    normalise_both(sol)?;
    let (_, offset, unscale) = T::map(range);
    sol.value = ((T::of(1.0) / sum_y - offset) * unscale + T::of(sec.lo)).to_f64();
    Ok(())
}

/// Normalises both strategies of `sol` to sum to 1.
pub(super) fn normalise_both(sol: &mut Solution) -> Result<(), &'static str> {
    if normalise(&mut sol.rows) && normalise(&mut sol.cols) {
        Ok(())
    } else {
        Err("degenerate strategy")
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
