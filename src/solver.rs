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
//! cannot cycle. A cap on the number of pivots guards against anything unforeseen.
//!
//! 3. **Check.** Floating point can end the simplex at a basis that is not optimal, with no
//!    sign of it in the tableau: in games with nearly equal payoffs (a tablebase's children
//!    whose values differ in the tenth digit, say) a pivot on an entry that is rounding noise,
//!    or a genuine entry refused as noise, leaves strategies that are far from an equilibrium
//!    (seen: a gap of 0.9 on a payoff range of 0.93). So every answer is checked on the payoffs
//!    as given: the least the row strategy earns against any column and the most the column
//!    strategy concedes to any row bracket the value, and the answer is accepted when the
//!    bracket is narrower than `1e-12` of the payoff range (plus 64 ulps of the payoffs).
//! 4. **From the basis.** A refused answer is computed again from the payoffs as given and its
//!    basis alone (the rows and columns that equalise each other), in double-double arithmetic
//!    with iterative refinement (`src/solver/refine.rs`), and checked again: the simplex often
//!    ends at the optimal basis with strategies that its rounding, amplified by small pivots,
//!    has moved (payoffs one ulp apart make genuine entries of 1e-21, known to 1e-11 in a
//!    double-double tableau).
//! 5. **Double-double.** If that is refused too, the same simplex runs again in double-double
//!    arithmetic (`src/solver/dd.rs`, about 32 digits), with a tolerance relative to each
//!    column's (and the objective row's) magnitude of `1e-22`, then of `1e-28`, each answer
//!    checked and, if refused, computed again from its basis.
//! 6. **Exact.** If that is refused too, and the game has at most 144 cells (`EXACT_CELLS`), the
//!    same simplex runs once more on rationals (`num-rational`'s `BigRational`; every `f64`
//!    payoff is one) with no tolerance and Bland's rule throughout, which cannot cycle: it ends
//!    at an optimal basis, and its strategies and value are rounded to `f64` only at the end.
//!    Payoffs a few ulps apart with an equilibrium that mixes weights of 1e-6 defeat both
//!    double-double runs (a captured 8 × 4 game, `tests/captured.rs`). If no answer passes,
//!    the one with the narrowest bracket is kept (the pure maximin row against the minimax
//!    column among the candidates), with the middle of its bracket as the value, and a
//!    warning is logged.
//!
//! # Preconditions
//! Payoffs must be finite (no NaN or infinities; checked by `debug_assert!` only), and so must
//! the difference between the largest and the smallest.

use check::{ACCEPT, MAGNITUDE, bracket, gap};
use dd::Dd;
use num_rational::BigRational;
use refine::Refiner;
use simplex::{Rules, Tableau, normalise_both, simplex};

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

/// Tolerance of the `f64` tableau (see [`simplex::Rules::eps`]).
const EPS: f64 = 1e-9;
/// Tolerances of the double-double tableau, relative to the magnitude of the column or row
/// tested (see [`simplex::Rules::relative`]), tried in turn: the first is far above its
/// rounding noise (2⁻¹⁰⁴ ≈ 5e-32 of that magnitude); a smaller one keeps genuine entries the
/// first would take for zeros.
const PRECISE_EPS: [f64; 2] = [1e-22, 1e-28];
/// One run of the simplex in [`Solver::mixed`]: its number type and tolerance.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Arithmetic {
    /// `f64` with [`EPS`] (again with Bland's rule if Dantzig's pivots fail).
    F64,
    /// Double-double with a relative tolerance of [`PRECISE_EPS`].
    Dd(f64),
    /// Rationals, with no tolerance (games of at most [`EXACT_CELLS`] cells).
    Exact,
}

/// The runs in the order they are tried.
const RUNS: [Arithmetic; 4] = [
    Arithmetic::F64,
    Arithmetic::Dd(PRECISE_EPS[0]),
    Arithmetic::Dd(PRECISE_EPS[1]),
    Arithmetic::Exact,
];

/// The largest game (rows × columns) the exact simplex is tried on. Its numbers grow with each
/// pivot to hundreds of bits, and every operation reduces a fraction: on random games with
/// 53-bit payoffs it took 28 ms at 8 × 8, 51 ms at 12 × 12, 210 ms at 16 × 16 and 740 ms at
/// 20 × 20. It only runs where both double-double runs were refused (once in the 4-piece
/// tablebase builds and `quill exploit` runs of issue 14); a larger such game keeps its best
/// candidate, with a warning.
const EXACT_CELLS: usize = 144;

/// A reusable workspace for solving matrix games without allocating.
///
/// Its buffers grow to the largest game solved so far and are reused afterwards; the returned
/// [`Solution`] lives in the workspace and is overwritten by the next solve.
#[derive(Clone, Debug, Default)]
pub struct Solver {
    /// The `f64` tableau, tried first.
    tableau: Tableau<f64>,
    /// The double-double tableau, for games the `f64` one gets wrong.
    precise: Tableau<Dd>,
    /// The exact tableau, for the rare game both get wrong.
    exact: Tableau<BigRational>,
    /// Column maxima, for the saddle-point check; then what the row strategy earns against
    /// each column, for the check of an answer.
    col_max: Vec<f64>,
    solution: Solution,
    /// The refinement of a refused answer from its basis, and the solution it writes.
    refiner: Refiner,
    spare: Solution,
    /// The check's acceptance, relative to the payoff range; `None` means [`ACCEPT`].
    accept: Option<f64>,
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
    /// The `f64` simplex's answer was refused and the double-double one tried.
    precise: bool,
    /// An answer was computed again from its basis, and that one kept.
    refined: bool,
    /// Both double-double runs were refused and the exact simplex tried.
    exact: bool,
    fell_back: bool,
}

/// The pure strategies' security levels, and the range of the payoffs.
struct Security {
    maximin: f64,
    maximin_row: usize,
    minimax: f64,
    minimax_col: usize,
    lo: f64,
    hi: f64,
}

impl Solver {
    /// An empty workspace.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// An empty workspace whose answers are accepted only when their bracket is narrower than
    /// `accept` times the payoff range (plus 64 ulps of the payoffs, the check's own
    /// rounding), instead of `1e-12`. A refused answer is computed again as usual; if nothing
    /// passes, the narrowest is kept, with a warning only if it is wider than `1e-12` of the
    /// range.
    pub fn with_accept(accept: f64) -> Solver {
        Solver {
            accept: Some(accept),
            ..Solver::default()
        }
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
    /// Payoffs must be finite (a precondition checked only by `debug_assert!`). The answer is
    /// checked on the payoffs as given; if the `f64` simplex's is refused, it is computed again
    /// from its basis, then the game is solved again in double-double arithmetic. If that
    /// fails too (no game of issue 14's corpus does), a warning is logged and the answer is
    /// the better of the candidates: at worst the pure
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
        let sec = self.security(payoff, rows, cols);
        if sec.maximin >= sec.minimax {
            // maximin ≤ entry ≤ minimax, so equality makes the entry a saddle point.
            self.stats.saddle = true;
            self.pure(&sec, sec.maximin);
        } else {
            self.mixed(payoff, rows, cols, &sec);
        }
        &self.solution
    }

    /// The pure strategies' security levels and the payoff range.
    fn security(&mut self, payoff: &[f64], rows: usize, cols: usize) -> Security {
        self.col_max.clear();
        self.col_max.extend_from_slice(&payoff[..cols]);
        let mut sec = Security {
            maximin: f64::NEG_INFINITY,
            maximin_row: 0,
            minimax: f64::INFINITY,
            minimax_col: 0,
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
        };
        for (i, row) in payoff.chunks_exact(cols).take(rows).enumerate() {
            let mut row_min = f64::INFINITY;
            for (&a, cmax) in row.iter().zip(self.col_max.iter_mut()) {
                row_min = row_min.min(a);
                *cmax = cmax.max(a);
                sec.hi = sec.hi.max(a);
            }
            sec.lo = sec.lo.min(row_min);
            if row_min > sec.maximin {
                (sec.maximin, sec.maximin_row) = (row_min, i);
            }
        }
        for (j, &cmax) in self.col_max.iter().enumerate() {
            if cmax < sec.minimax {
                (sec.minimax, sec.minimax_col) = (cmax, j);
            }
        }
        sec
    }

    /// Writes the pure maximin row against the pure minimax column, with `value`.
    fn pure(&mut self, sec: &Security, value: f64) {
        let sol = &mut self.solution;
        sol.rows.fill(0.0);
        sol.cols.fill(0.0);
        sol.rows[sec.maximin_row] = 1.0;
        sol.cols[sec.minimax_col] = 1.0;
        sol.value = value;
    }

    /// Solves a game without a saddle point (so `hi > lo` and both players have at least two
    /// strategies): each of [`RUNS`] in turn (the exact one only up to [`EXACT_CELLS`] cells),
    /// each answer checked on the payoffs and, if refused, computed again from its basis
    /// ([`Solver::attempt`]); if none is accepted, the candidate with the smallest gap, the
    /// pure pair included.
    fn mixed(&mut self, payoff: &[f64], rows: usize, cols: usize, sec: &Security) {
        let rounding = MAGNITUDE * sec.hi.abs().max(sec.lo.abs());
        let accept = self.accept.unwrap_or(ACCEPT) * (sec.hi - sec.lo) + rounding;
        let mut gaps = Vec::new();
        // The best candidate so far: its gap and solution; the pure pair to start with.
        let mut best = (sec.minimax - sec.maximin, None);
        for run in RUNS {
            if run == Arithmetic::Exact && rows * cols > EXACT_CELLS {
                break;
            }
            let g = self.attempt(payoff, sec, run, accept);
            if matches!(g, Ok(g) if g <= accept) {
                return;
            }
            if run == Arithmetic::F64 {
                log::debug!("solver: f64 simplex {g:?} on a {rows}x{cols} game: {payoff:?}");
                self.stats.precise = true;
            }
            if let Ok(g) = g
                && g < best.0
            {
                best = (g, Some(self.solution.clone()));
            }
            gaps.push(g);
        }
        // Within the default bracket, a stricter workspace's miss is no cause for alarm.
        let level = if best.0 <= ACCEPT * (sec.hi - sec.lo) + rounding {
            log::Level::Debug
        } else {
            log::Level::Warn
        };
        log::log!(
            level,
            "solver: no acceptable solution of a {rows}x{cols} game (gaps of the f64 and \
             double-double (and exact) simplex runs: {gaps:?}, pure {:e}); keeping the \
             smallest",
            sec.minimax - sec.maximin
        );
        match best.1 {
            Some(sol) => self.solution = sol,
            None => {
                self.stats.fell_back = true;
                return self.pure(sec, 0.5 * (sec.maximin + sec.minimax));
            }
        }
        // The value lies in the kept strategies' bracket: report its middle.
        let (earned, conceded) = bracket(payoff, &self.solution, &mut self.col_max);
        self.solution.value = 0.5 * (earned + conceded);
    }

    /// Run `run` of [`Solver::mixed`], its answer written to the solution and its gap
    /// returned. An answer wider than `accept` is computed again from the run's final basis
    /// ([`refine`]) and the narrower one kept.
    fn attempt(
        &mut self,
        payoff: &[f64],
        sec: &Security,
        run: Arithmetic,
        accept: f64,
    ) -> Result<f64, &'static str> {
        let outcome = match run {
            Arithmetic::F64 => self.simplex_f64_twice(payoff, sec),
            Arithmetic::Dd(eps) => self.simplex_dd(payoff, sec, eps),
            Arithmetic::Exact => self.simplex_exact(payoff, sec),
        };
        let first = outcome.map(|()| gap(payoff, &self.solution, &mut self.col_max));
        if matches!(first, Ok(g) if g <= accept) {
            return first;
        }
        let (rows, cols) = (&mut self.refiner.rows, &mut self.refiner.cols);
        match run {
            Arithmetic::F64 => self.tableau.basis(rows, cols),
            Arithmetic::Dd(_) => self.precise.basis(rows, cols),
            Arithmetic::Exact => self.exact.basis(rows, cols),
        }
        let spare = &mut self.spare;
        spare.rows.clone_from(&self.solution.rows);
        spare.cols.clone_from(&self.solution.cols);
        let refined = self.refiner.solve(payoff, self.solution.cols.len(), spare);
        let second = refined.map(|()| gap(payoff, spare, &mut self.col_max));
        match (first, second) {
            (Ok(a), Ok(b)) if a <= b => first,
            (_, Ok(_)) => {
                self.stats.refined = true;
                std::mem::swap(&mut self.solution, &mut self.spare);
                second
            }
            _ => first,
        }
    }

    /// The `f64` simplex, run again from the start with Bland's rule if Dantzig's pivots fail.
    fn simplex_f64_twice(&mut self, payoff: &[f64], sec: &Security) -> Result<(), &'static str> {
        let mut outcome = self.simplex_f64(payoff, sec);
        if outcome.is_err() && self.bland_after != Some(0) {
            // Rounding led Dantzig's pivots astray (a column whose entries all vanish): solve
            // again from the start with Bland's rule, which takes other pivots.
            let saved = self.bland_after.replace(0);
            self.stats.pivots = 0;
            outcome = self.simplex_f64(payoff, sec);
            self.bland_after = saved;
        }
        outcome
    }

    /// Runs the `f64` simplex on the rescaled game and writes the solution; `Err` leaves it
    /// unusable.
    fn simplex_f64(&mut self, payoff: &[f64], sec: &Security) -> Result<(), &'static str> {
        let rules = self.rules(
            self.solution.rows.len(),
            self.solution.cols.len(),
            EPS,
            false,
        );
        simplex(
            &mut self.tableau,
            payoff,
            sec,
            rules,
            &mut self.solution,
            &mut self.stats,
        )
    }

    /// As [`Solver::simplex_f64`], in double-double arithmetic with tolerance `eps`. (Not
    /// Bland's rule from the start: its ties go by label, not to the largest pivot, and a pivot
    /// of 1e-20 blows a double-double tableau up as a pivot of 1e-10 does an `f64` one.)
    fn simplex_dd(&mut self, payoff: &[f64], sec: &Security, eps: f64) -> Result<(), &'static str> {
        let rules = self.rules(
            self.solution.rows.len(),
            self.solution.cols.len(),
            eps,
            true,
        );
        simplex(
            &mut self.precise,
            payoff,
            sec,
            rules,
            &mut self.solution,
            &mut self.stats,
        )
    }

    /// As [`Solver::simplex_f64`], in exact rational arithmetic: no tolerance (a pivot must be
    /// positive, a reduced cost negative) and Bland's rule from the start, which cannot cycle,
    /// so the run ends at an optimal basis unless the pivot cap stops it.
    fn simplex_exact(&mut self, payoff: &[f64], sec: &Security) -> Result<(), &'static str> {
        let (m, n) = (self.solution.rows.len(), self.solution.cols.len());
        let rules = Rules {
            bland_after: 0,
            ..self.rules(m, n, 0.0, false)
        };
        self.stats.exact = true;
        simplex(
            &mut self.exact,
            payoff,
            sec,
            rules,
            &mut self.solution,
            &mut self.stats,
        )
    }

    /// The pivoting rules for an `m × n` game.
    fn rules(&self, m: usize, n: usize, eps: f64, relative: bool) -> Rules {
        Rules {
            bland_after: self.bland_after.unwrap_or(m + n),
            cap: self.pivot_cap.unwrap_or(50 * (m + n) + 100),
            eps,
            relative,
        }
    }
}

mod check;
mod dd;
mod refine;
mod simplex;
#[cfg(test)]
mod tests;
