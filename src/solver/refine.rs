//! Step 5 of the method (see [`super`]): the strategies of a simplex basis computed again from
//! the payoffs as given, in double-double arithmetic with iterative refinement.
//!
//! A basis names the rows `I` that hold the column strategy to the value and the columns `J`
//! the column strategy plays, `|I| = |J| = k`. Its strategies are the solutions of two bordered
//! `(k+1)×(k+1)` systems on the payoffs `A`: `Σ_{j∈J} A_ij y_j − v = 0` for `i ∈ I` with
//! `Σ y = 1`, and the same for `x` with `Aᵀ`. A tableau carries its rounding from pivot to
//! pivot: a genuine entry of 3e-21 under entries of 1 (payoffs one ulp apart) is known there
//! to 1e-11 only, and so are strategies computed through it. Here the payoffs enter exactly
//! (they are `f64`), and each round of refinement (the residual `b − M z` in double-double,
//! then a correction solved with the same factors) divides the error by about
//! `1/(cond(M) · 1e-32)`, so three rounds give full `f64` precision up to `cond(M) ≈ 1e25`.

use super::dd::Dd;
use super::{Solution, normalise_both};

/// Rounds of iterative refinement after the first solve.
const ROUNDS: usize = 3;
/// Probabilities up to this are written as 0: a variable of a degenerate basis is zero in
/// exact arithmetic and comes out as rounding (1e-30, say), and a tablebase's strategy
/// iteration takes any positive probability for a move that is played (it joins components
/// of the chain). Dropping it moves no payoff by more than this times the range, far below
/// the check's acceptance.
const NEGLIGIBLE: f64 = 1e-18;

/// The probability `z` stands for: 0 if it is negative or [`NEGLIGIBLE`].
fn probability(z: Dd) -> f64 {
    let p = z.to_f64();
    if p > NEGLIGIBLE { p } else { 0.0 }
}

/// Workspace of the refinement.
#[derive(Clone, Debug, Default)]
pub(super) struct Refiner {
    /// The basis's rows and columns.
    pub(super) rows: Vec<usize>,
    pub(super) cols: Vec<usize>,
    /// The bordered system's LU factors, row-major, and its row permutation.
    lu: Vec<Dd>,
    perm: Vec<usize>,
    /// The solution, the residual (then the correction), and the permuted residual.
    z: Vec<Dd>,
    r: Vec<Dd>,
    permuted: Vec<Dd>,
}

impl Refiner {
    /// Writes into `sol` the strategies that equalise the basis held in `self.rows` and
    /// `self.cols` on the `cols`-wide `payoff`, and their value; `Err` if the basis is singular
    /// or does not make two strategies.
    pub(super) fn solve(
        &mut self,
        payoff: &[f64],
        width: usize,
        sol: &mut Solution,
    ) -> Result<(), &'static str> {
        if self.rows.len() != self.cols.len() || self.rows.is_empty() {
            return Err("basis not square");
        }
        sol.rows.fill(0.0);
        sol.cols.fill(0.0);
        let value = self.side(payoff, width, false)?;
        for (&j, z) in self.cols.iter().zip(&self.z) {
            sol.cols[j] = probability(*z);
        }
        self.side(payoff, width, true)?;
        for (&i, z) in self.rows.iter().zip(&self.z) {
            sol.rows[i] = probability(*z);
        }
        normalise_both(sol)?;
        sol.value = value;
        Ok(())
    }

    /// Solves the column player's system (`transpose` false: `z` is `y`) or the row player's
    /// (`z` is `x`) into `self.z`, refined; returns its `v`.
    fn side(&mut self, payoff: &[f64], width: usize, transpose: bool) -> Result<f64, &'static str> {
        let k = self.rows.len();
        self.factor(payoff, width, transpose)?;
        self.r.clear();
        self.r.resize(k + 1, Dd::default());
        self.r[k] = Dd::of(1.0);
        self.z.clear();
        self.z.resize(k + 1, Dd::default());
        for _ in 0..=ROUNDS {
            self.substitute();
            for (z, d) in self.z.iter_mut().zip(&self.r) {
                *z = *z + *d;
            }
            self.residual(payoff, width, transpose);
        }
        Ok(self.z[k].to_f64())
    }

    /// Entry `(a, b)` of the bordered matrix.
    fn entry(&self, payoff: &[f64], width: usize, transpose: bool, a: usize, b: usize) -> f64 {
        let k = self.rows.len();
        match (a < k, b < k) {
            (true, true) if transpose => payoff[self.rows[b] * width + self.cols[a]],
            (true, true) => payoff[self.rows[a] * width + self.cols[b]],
            (true, false) => -1.0,
            (false, true) => 1.0,
            (false, false) => 0.0,
        }
    }

    /// LU-factors the bordered matrix with partial pivoting.
    fn factor(
        &mut self,
        payoff: &[f64],
        width: usize,
        transpose: bool,
    ) -> Result<(), &'static str> {
        let s = self.rows.len() + 1;
        self.lu.clear();
        for a in 0..s {
            for b in 0..s {
                let e = self.entry(payoff, width, transpose, a, b);
                self.lu.push(Dd::of(e));
            }
        }
        self.perm.clear();
        self.perm.extend(0..s);
        for c in 0..s {
            let abs = |x: Dd| x.to_f64().abs();
            let p = (c..s)
                .max_by(|&a, &b| abs(self.lu[a * s + c]).total_cmp(&abs(self.lu[b * s + c])))
                .unwrap_or(c);
            let pivot = self.lu[p * s + c];
            if pivot.to_f64() == 0.0 {
                return Err("singular basis");
            }
            if p != c {
                for b in 0..s {
                    self.lu.swap(p * s + b, c * s + b);
                }
                self.perm.swap(p, c);
            }
            for a in c + 1..s {
                let f = self.lu[a * s + c] / pivot;
                self.lu[a * s + c] = f;
                for b in c + 1..s {
                    self.lu[a * s + b] = self.lu[a * s + b] - f * self.lu[c * s + b];
                }
            }
        }
        Ok(())
    }

    /// Replaces the right-hand side `self.r` by the solution of the factored system.
    fn substitute(&mut self) {
        let s = self.perm.len();
        self.permuted.clear();
        self.permuted.extend(self.perm.iter().map(|&p| self.r[p]));
        self.r.copy_from_slice(&self.permuted);
        for a in 0..s {
            for c in 0..a {
                self.r[a] = self.r[a] - self.lu[a * s + c] * self.r[c];
            }
        }
        for a in (0..s).rev() {
            for c in a + 1..s {
                self.r[a] = self.r[a] - self.lu[a * s + c] * self.r[c];
            }
            self.r[a] = self.r[a] / self.lu[a * s + a];
        }
    }

    /// Sets `self.r` to `e_k − M z`, the residual of the current solution.
    fn residual(&mut self, payoff: &[f64], width: usize, transpose: bool) {
        let s = self.rows.len() + 1;
        for a in 0..s {
            let mut acc = Dd::of(if a + 1 == s { 1.0 } else { 0.0 });
            for b in 0..s {
                acc = acc - Dd::of(self.entry(payoff, width, transpose, a, b)) * self.z[b];
            }
            self.r[a] = acc;
        }
    }
}
